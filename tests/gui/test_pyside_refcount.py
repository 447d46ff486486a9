"""Regression guard for the PySide6 6.12.0 bug that made us pin ``<6.12``.

On CPython 3.11, PySide6 6.12.0 decrements ``None``'s reference count on every call of a
wrapped method that returns nothing; after a few thousand calls the interpreter aborts.
Here we make 10,000 such calls and check that ``None``'s count does not fall.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QRect, QTimer
from PySide6.QtGui import QColor, QImage, QPainter

CALLS = 10_000


def test_void_methods_keep_none_refcount(qapp: object) -> None:
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    timer = QTimer()
    painter = QPainter(image)
    try:
        before = sys.getrefcount(None)
        for index in range(CALLS):
            painter.fillRect(QRect(0, 0, 4, 4), QColor(index % 256, 0, 0))
            timer.setInterval(index % 100 + 1)
        after = sys.getrefcount(None)
    finally:
        painter.end()
    # Other objects may take references to None meanwhile; a leak-in-reverse would lose
    # about 2 * CALLS of them.
    assert after >= before - 100, f"None lost {before - after} references in {2 * CALLS} calls"
