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
