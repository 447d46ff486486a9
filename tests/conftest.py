"""Shared test set-up. Qt must know its platform before pytest-qt creates the QApplication."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

DATA_DIR = Path(__file__).parent / "data"
"""Test data copied into the project (tests never read ../shared)."""

# Matches reserve cores through lock files (ai/match/cores.py). The tests' matches are tiny
# and must not wait behind real matches someone runs on the same machine: they get a
# folder of their own, one per test session.
import tempfile  # noqa: E402

os.environ["PLYGROUND_CORE_LOCKS"] = tempfile.mkdtemp(prefix="plyground-test-cores-")

# Opening books off for every game (ai.engine.BOOKS_SWITCH, read by ai.engine.books_allowed),
# in this process and the ones it starts: searches from the start position are what most
# tests look at. Tests about the books turn them back on with the ``books_on`` fixture.
os.environ["PLYGROUND_BOOKS"] = "off"

import pytest  # noqa: E402


@pytest.fixture
def books_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The suite runs with books off (above); a test about a book turns them back on."""
    monkeypatch.delenv("PLYGROUND_BOOKS", raising=False)
