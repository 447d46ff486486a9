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
