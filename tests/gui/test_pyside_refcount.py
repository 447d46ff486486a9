"""Regression guard for the PySide6 6.12.0 bug that made us pin ``<6.12``.

On CPython 3.11, PySide6 6.12.0 decrements ``None``'s reference count on every call of a
wrapped method that returns nothing; after a few thousand calls the interpreter aborts.
Here we make 10,000 such calls and check that ``None``'s count does not fall.
"""

from __future__ import annotations

import gc
import sys

from PySide6.QtCore import QRect, QTimer
from PySide6.QtGui import QColor, QImage, QPainter

CALLS = 10_000


def test_void_methods_keep_none_refcount(qapp: object) -> None:
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    timer = QTimer()
    painter = QPainter(image)
    # The cyclic collector freeing earlier tests' garbage (objects holding None) would lower
    # the count too: collect first and keep it off during the loop.
    gc.collect()
    gc.disable()
    try:
        before = sys.getrefcount(None)
        for index in range(CALLS):
            painter.fillRect(QRect(0, 0, 4, 4), QColor(index % 256, 0, 0))
            timer.setInterval(index % 100 + 1)
        after = sys.getrefcount(None)
    finally:
        gc.enable()
        painter.end()
    # A few references may still come and go (other threads); the bug loses one per call,
    # 2 * CALLS in all, and aborts the interpreter long before a real app's lifetime ends.
    assert after >= before - CALLS // 20, f"None lost {before - after} references in {2 * CALLS} calls"
