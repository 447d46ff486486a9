"""GUI test set-up: every test gets its own data directory (settings and autosave), and the
engine bridge with its worker pool is made once per module and shut down after it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gui.settings import DATA_DIR_ENV


@pytest.fixture(autouse=True)
def data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Settings and autosave in a fresh directory, never the user's."""
    directory = tmp_path / "plyground-data"
    monkeypatch.setenv(DATA_DIR_ENV, str(directory))
    return directory


@pytest.fixture(scope="module")
def bridge(qapp: Any) -> Iterator[Any]:
    """The app's engine bridge (shared by a module's tests); sessions made without engine
    settings search with one worker process."""
    from gui.main_window import make_bridge

    made = make_bridge()
    yield made
    made.shutdown()


@pytest.fixture
def window(qtbot: Any, bridge: Any, data_directory: Path) -> Iterator[Any]:
    """The main window at its default size on the module's bridge, shown; a test module
    that needs more (answers to its questions, an active window) wraps this one."""
    from gui.main_window import MainWindow

    made = MainWindow(bridge=bridge, data_directory=data_directory, offer_resume=False, seed=3)
    qtbot.addWidget(made)
    made.show()
    qtbot.waitExposed(made)
    yield made
    made.shutdown()
