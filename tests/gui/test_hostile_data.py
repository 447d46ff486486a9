"""Hostile stored data: a bad autosave, bad settings entries and a data folder that cannot
be used never keep the app from starting. Each is set aside with one message; an
unreadable autosave is kept as ``autosave.json.bad``, never silently overwritten."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from ai.settings import SearchSettings
from gui import autosave
from gui.main_window import MainWindow
from gui.players import HUMAN, PlayerConfig
from gui.settings import DATA_DIR_ENV, Settings, data_dir, data_dir_problem

HUMANS = (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN))
GAME = {"format": "plyground-game", "version": 1, "game": "chess", "moves": ["e4", "e5"], "result": "*"}
BAD_SIDES = [{"kind": "computer", "algorithm": ["x"]}, {}]
DEEP = '{"a":' * 100_000 + "1" + "}" * 100_000


@pytest.fixture
def open_window(qtbot: QtBot, bridge: Any) -> Iterator[Any]:
    made: list[MainWindow] = []

    def make(directory: Path, settings: Settings | None = None) -> MainWindow:
        window = MainWindow(bridge=bridge, data_directory=directory, settings=settings, offer_resume=False, seed=3)
        qtbot.addWidget(window)
        made.append(window)
        return window

    yield make
    for window in made:
        window.shutdown()


def write_autosave(directory: Path, text: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / autosave.AUTOSAVE_NAME
    path.write_text(text, encoding="utf-8")
    return path


def test_an_autosave_with_unreadable_sides_starts_with_one_message(open_window: Any, data_directory: Path) -> None:
    write_autosave(data_directory, json.dumps({**GAME, "autosave": {"players": BAD_SIDES, "clean_exit": False}}))
    window = open_window(data_directory)
    assert len(window.data_problems) == 1 and "sides" in window.data_problems[0]
    assert window.continue_last_game()  # the game itself is kept, with the default sides
    assert window.session is not None and window.session.move_names() == ["e4", "e5"]


@pytest.mark.parametrize("text", [DEEP, "{ half a file", '{"format": "plyground-game", "version": ' + "9" * 5_000 + "}", "\udcff"],
                         ids=["nested 100,000 deep", "half a file", "5,000-digit number", "not UTF-8"])
def test_an_unreadable_autosave_is_kept_and_the_user_told(open_window: Any, data_directory: Path, text: str) -> None:
    path = data_directory / autosave.AUTOSAVE_NAME
    data_directory.mkdir(parents=True, exist_ok=True)
    original = text.encode("utf-8", "surrogateescape")
    path.write_bytes(original)
    window = open_window(data_directory)
    assert len(window.data_problems) == 1
    message = window.data_problems[0]
    assert "autosave.json.bad" in message and "\n" not in message and len(message) < 400
    copy = data_directory / (autosave.AUTOSAVE_NAME + autosave.BAD_SUFFIX)
    assert copy.read_bytes() == original
    session = window.start_game("chess", HUMANS)
    assert session.play_text("d4") is None  # a new game autosaves: the copy stays as it was
    assert copy.read_bytes() == original
    assert autosave.load(data_directory) is not None


def test_a_save_never_overwrites_an_unreadable_autosave_unseen(data_directory: Path) -> None:
    """Also without the start-up check (the file went bad while the app ran)."""
    path = write_autosave(data_directory, "{ half a file")
    record = autosave.GameRecord("chess", "startpos", ["e4"])
    autosave.save(data_directory, record, HUMANS)
    assert (data_directory / "autosave.json.bad").read_text(encoding="utf-8") == "{ half a file"
    assert autosave.load(data_directory) is not None and path.exists()


def store(directory: Path) -> QSettings:
    directory.mkdir(parents=True, exist_ok=True)
    return QSettings(str(directory / "settings.ini"), QSettings.Format.IniFormat)


@pytest.mark.parametrize("entry", [json.dumps(BAD_SIDES), DEEP, "[1, 2", json.dumps([[], "x"]), json.dumps({"a": 1})],
                         ids=["unhashable algorithm", "nested 100,000 deep", "not JSON", "not sides", "not a list"])
def test_a_bad_players_entry_is_ignored_with_one_message(open_window: Any, data_directory: Path, entry: str) -> None:
    raw = store(data_directory)
    raw.setValue("games/chess/players", entry)
    raw.sync()
    settings = Settings(raw)
    window = open_window(data_directory, settings)
    assert len(window.data_problems) == 1 and "chess" in window.data_problems[0]
    assert settings.players("chess") == (PlayerConfig(), PlayerConfig(kind="computer").for_game("chess"))
    assert settings.check() == []  # said once: the entry is gone


@pytest.mark.parametrize(("name", "value"), [("aspiration_window", -1), ("exploration", math.nan), ("tt_megabytes", 99_999_999),
                                             ("exploration", math.inf), ("threads", 0), ("algorithm", "bogus"), ("solver_empties", 65)])
def test_engine_values_out_of_range_are_ignored_with_one_message(data_directory: Path, name: str, value: object) -> None:
    raw = store(data_directory)
    raw.setValue("engine/settings", json.dumps({name: value, "quiescence": False}))
    settings = Settings(raw)
    default = getattr(SearchSettings(), name) if name != "threads" else settings.engine_settings.threads
    engine = settings.engine_settings
    assert getattr(engine, name) == default or (name == "threads" and engine.threads >= 1)
    assert engine.quiescence is False  # the good values stay
    problems = settings.check()
    assert len(problems) == 1 and name in problems[0]
    assert settings.check() == [] and settings.engine_settings.quiescence is False


def test_a_data_folder_that_is_a_file_starts_without_autosave(open_window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    afile = tmp_path / "not-a-folder"
    afile.write_text("mine", encoding="utf-8")
    monkeypatch.setenv(DATA_DIR_ENV, str(afile))
    directory = data_dir()  # never raises
    assert directory == afile and data_dir_problem(directory) is not None
    window = open_window(directory, Settings())
    assert len(window.data_problems) == 1 and "not kept" in window.data_problems[0]
    session = window.start_game("chess", HUMANS)
    assert session.play_text("e4") is None  # the game goes on without its autosave
    assert afile.read_text(encoding="utf-8") == "mine"


def test_a_data_folder_that_cannot_be_made_starts_without_autosave(open_window: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    impossible = Path("/proc/plyground-cannot-be-here/data")  # no one may make folders in /proc, not even root
    monkeypatch.setenv(DATA_DIR_ENV, str(impossible))
    window = open_window(data_dir(), Settings())
    assert len(window.data_problems) == 1 and str(impossible) in window.data_problems[0]
    session = window.start_game("tictactoe", HUMANS)
    assert session.play_text("b2") is None


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=12,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(extra=JSON_VALUES, sides=JSON_VALUES)
def test_fuzzed_autosave_entries_never_stop_a_start(tmp_path: Path, extra: object, sides: object) -> None:
    directory = tmp_path / "fuzz"
    for document in ({**GAME, "autosave": extra}, {**GAME, "autosave": {"players": sides}}, extra):
        write_autosave(directory, json.dumps(document))
        problem = autosave.check(directory)
        assert problem is None or ("\n" not in problem and len(problem) < 400)
        autosave.load(directory)
        autosave.save(directory, autosave.GameRecord("chess", "startpos", ["e4"]), HUMANS)
        assert autosave.load(directory) is not None


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=JSON_VALUES, engine=JSON_VALUES)
def test_fuzzed_settings_entries_never_stop_a_start(tmp_path: Path, players: object, engine: object) -> None:
    raw = store(tmp_path / "fuzz-settings")
    raw.setValue("games/othello/players", json.dumps(players))
    raw.setValue("engine/settings", json.dumps(engine if not isinstance(engine, dict) else {"tt_megabytes": engine, **engine}))
    settings_ = Settings(raw)
    for problem in settings_.check():
        assert "\n" not in problem and len(problem) < 600
    settings_.players("othello")
    assert isinstance(settings_.engine_settings, SearchSettings)


def test_an_autosave_that_is_a_pipe_a_folder_or_huge_never_blocks_the_start(data_directory: Path) -> None:
    import os

    data_directory.mkdir(parents=True, exist_ok=True)
    path = data_directory / autosave.AUTOSAVE_NAME
    os.mkfifo(path)  # opening it to read would wait for a writer for ever
    assert "autosave.json.bad" in (autosave.check(data_directory) or "")
    (data_directory / "autosave.json.bad").unlink()
    path.mkdir()
    assert "autosave.json.bad" in (autosave.check(data_directory) or "")
    with open(path.parent / "big", "wb") as file:
        file.truncate(autosave.MAX_FILE_BYTES + 10)  # sparse: no disk used
    os.replace(path.parent / "big", path)
    assert "far bigger" in (autosave.check(data_directory) or "")  # .bad is a folder now: the file stays
    record = autosave.GameRecord("chess", "startpos", ["e4"])
    with pytest.raises(OSError):  # no copy can be kept: the unreadable file is not overwritten
        autosave.save(data_directory, record, HUMANS)
    assert path.stat().st_size > autosave.MAX_FILE_BYTES
    (data_directory / "autosave.json.bad").rmdir()
    autosave.save(data_directory, record, HUMANS)
    assert autosave.load(data_directory) is not None
    assert (data_directory / "autosave.json.bad").stat().st_size > autosave.MAX_FILE_BYTES
