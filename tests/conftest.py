"""Shared test set-up. Qt must know its platform before pytest-qt creates the QApplication."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

DATA_DIR = Path(__file__).parent / "data"
"""Test data copied into the project (tests never read ../shared)."""
