"""Everything the app remembers between runs: the only user of ``QSettings``.

Each setting is a typed property with its default here, so a missing, old or hand-edited
value never reaches a widget as the wrong type. With ``PLYGROUND_DATA_DIR`` set (tests, a
portable install) the settings live in ``settings.ini`` there, beside the autosave,
instead of the platform's place.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings, QStandardPaths

from ai import options
from ai.cores import available_cores
from ai.settings import SearchSettings, SettingError
from games import GAME_NAMES
from games.clock import ClockError, TimeControl, time_control_from_text
from gui import autosave
from gui.gamefile import one_line
from gui.players import COMPUTER, PlayerConfig, sides_from_data
from gui.theme import BOARD_SCHEMES, DEFAULT_BOARD

MAX_STORED_MATCH_LENGTH = 64
"""The longest backgammon match a setting may hold (gnubg's limit; the dialog offers up to 25)."""

ORGANIZATION = "Plyground"
APPLICATION = "Plyground"
DATA_DIR_ENV = "PLYGROUND_DATA_DIR"
"""Overrides where settings and the autosave live (tests use a temporary directory)."""

MAX_ENTRY_CHARS = 100_000
"""A stored entry longer than this is not one this app wrote (its longest is well under 1 kB)."""

THEMES = ("light", "dark")
DEFAULT_THEME = "light"
DEFAULT_BOARD_THEME = DEFAULT_BOARD
DEFAULT_PIECE_THEME = "cburnett"
"""python-chess's piece set (Colin M.L. Burnett's), the one bundled."""
REVIEW_LEVELS = ("quick", "standard", "deep")
"""The review strengths a user can choose (``gui.review.runner.ReviewLevel``'s values)."""


def data_dir() -> Path:
    """The app's data directory (made if missing and possible): ``$PLYGROUND_DATA_DIR`` or
    the platform's application-data location. Never raises: a folder that cannot be made
    (a read-only home, the variable naming a file) is the app running without its data,
    which ``data_dir_problem`` explains; it is never the reason the app does not start."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        path = Path(override)
    else:
        location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
        path = Path(location) if location else Path.home() / ".plyground"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass
    return path


def data_dir_problem(path: Path) -> str | None:
    """Why the data folder ``path`` cannot keep the settings and the autosave, or ``None``
    (a missing folder is made first)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass
    if not path.is_dir():
        what = "is a file, not a folder" if path.exists() else "cannot be made"
        return f"The data folder {path} {what}: settings and the autosave are not kept this time."
    if not os.access(path, os.W_OK | os.X_OK):
        return f"The data folder {path} cannot be written: settings and the autosave are not kept this time."
    return None


def stored_data_problems(settings: Settings, directory: Path) -> list[str]:
    """At start-up, what the app found unusable and set aside, one line each (the window
    shows them in one message): the data folder, the autosave (an unreadable one is kept
    as ``autosave.json.bad``), settings entries out of range or unreadable (the defaults
    apply). Reading them again afterwards finds nothing more to say."""
    problems: list[str] = []
    folder = data_dir_problem(directory)
    if folder is not None:
        problems.append(folder)
    else:
        problem = autosave.check(directory)
        if problem is not None:
            problems.append(problem)
    problems.extend(settings.check())
    return problems


def default_engine_settings() -> SearchSettings:
    """The engine's strong defaults, searching on every core (``threads`` = worker processes)."""
    return SearchSettings(threads=available_cores())


class Settings:
    """Typed access to the remembered settings."""

    def __init__(self, settings: QSettings | None = None) -> None:
        if settings is None:
            if os.environ.get(DATA_DIR_ENV):
                settings = QSettings(str(data_dir() / "settings.ini"), QSettings.Format.IniFormat)
            else:
                settings = QSettings(ORGANIZATION, APPLICATION)
        self._store = settings

    # ------------------------------------------------------------------ helpers
    def _text(self, key: str, default: str, allowed: tuple[str, ...] | None = None) -> str:
        value = self._store.value(key, default)
        if not isinstance(value, str) or (allowed is not None and value not in allowed):
            return default
        return value

    def _flag(self, key: str, default: bool) -> bool:
        value = self._store.value(key, default)
        if isinstance(value, bool):
            return value
        if isinstance(value, str):
            return value.lower() in ("true", "1", "yes")
        return default

    def _json(self, key: str) -> Any:
        return self._json_entry(key)[0]

    def _json_entry(self, key: str) -> tuple[Any, str]:
        """The JSON value stored under ``key`` (``None`` when there is none) and, when the
        text is there but is no JSON this app can read, why (the value is then ``None``)."""
        raw = self._store.value(key, "")
        if raw is None or raw == "":
            return None, ""
        if not isinstance(raw, str):
            return None, "not text"
        if len(raw) > MAX_ENTRY_CHARS:
            return None, f"{len(raw):,} characters long"
        try:
            return json.loads(raw), ""
        except (ValueError, RecursionError) as error:
            return None, "nested too deep" if isinstance(error, RecursionError) else "not valid JSON"

    def sync(self) -> None:
        self._store.sync()

    # ------------------------------------------------------------------ looks
    @property
    def theme(self) -> str:
        """``light`` or ``dark``."""
        return self._text("appearance/theme", DEFAULT_THEME, THEMES)

    @theme.setter
    def theme(self, value: str) -> None:
        self._store.setValue("appearance/theme", value if value in THEMES else DEFAULT_THEME)

    @property
    def board_theme(self) -> str:
        """A board colour scheme of ``gui.theme.BOARD_SCHEMES``."""
        return self._text("appearance/board", DEFAULT_BOARD_THEME, tuple(BOARD_SCHEMES))

    @board_theme.setter
    def board_theme(self, value: str) -> None:
        self._store.setValue("appearance/board", value if value in BOARD_SCHEMES else DEFAULT_BOARD_THEME)

    @property
    def piece_theme(self) -> str:
        return self._text("appearance/pieces", DEFAULT_PIECE_THEME)

    @piece_theme.setter
    def piece_theme(self, value: str) -> None:
        self._store.setValue("appearance/pieces", str(value))

    @property
    def sound(self) -> bool:
        """Off by default (PySide6-Essentials has no QtMultimedia: nothing plays yet)."""
        return self._flag("appearance/sound", False)

    @sound.setter
    def sound(self, value: bool) -> None:
        self._store.setValue("appearance/sound", bool(value))

    @property
    def window_geometry(self) -> QByteArray | None:
        value = self._store.value("window/geometry")
        return value if isinstance(value, QByteArray) else None

    @window_geometry.setter
    def window_geometry(self, value: QByteArray) -> None:
        self._store.setValue("window/geometry", value)

    # ------------------------------------------------------------------ games
    @property
    def last_game(self) -> str:
        """The game last played (the start page's "Continue" and the new-game default)."""
        return self._text("games/last", "chess", GAME_NAMES)

    @last_game.setter
    def last_game(self, value: str) -> None:
        if value in GAME_NAMES:
            self._store.setValue("games/last", value)

    def players(self, game: str) -> tuple[PlayerConfig, PlayerConfig]:
        """The sides last chosen for ``game`` (default: human vs computer; also for an
        entry that cannot be read, which ``check`` reports)."""
        return self._players_entry(game)[0]

    def _players_entry(self, game: str) -> tuple[tuple[PlayerConfig, PlayerConfig], str]:
        data, problem = self._json_entry(f"games/{game}/players")
        if problem or data is None:
            return (PlayerConfig(), PlayerConfig(kind=COMPUTER).for_game(game)), problem
        return sides_from_data(data, game)

    def set_players(self, game: str, players: tuple[PlayerConfig, PlayerConfig]) -> None:
        self._store.setValue(f"games/{game}/players", json.dumps([side.to_dict() for side in players]))

    @property
    def manual_dice(self) -> bool:
        """Backgammon: the player enters the dice (over-the-board use) instead of the app rolling."""
        return self._flag("games/manual_dice", False)

    @manual_dice.setter
    def manual_dice(self, value: bool) -> None:
        self._store.setValue("games/manual_dice", bool(value))

    @property
    def match_length(self) -> int:
        """Backgammon: the match length last chosen in the new-game dialog (0: a money
        game); a stored value that is no length of a match reads as 0."""
        stored = self._text("games/backgammon/match_length", "0")
        digits = len(str(MAX_STORED_MATCH_LENGTH))
        is_length = stored.isascii() and stored.isdigit() and len(stored) <= digits  # no huge number is converted
        return int(stored) if is_length and int(stored) <= MAX_STORED_MATCH_LENGTH else 0

    @match_length.setter
    def match_length(self, value: int) -> None:
        self._store.setValue("games/backgammon/match_length", str(value if 0 <= value <= MAX_STORED_MATCH_LENGTH else 0))

    def time_control(self, game: str) -> TimeControl | None:
        """The clock last chosen for ``game`` in the new-game dialog (``None``: no clock,
        also for a stored value that is no time control, which ``check`` reports)."""
        return self._time_control_entry(game)[0]

    def _time_control_entry(self, game: str) -> tuple[TimeControl | None, str]:
        stored = self._store.value(f"games/{game}/time_control", "")
        if not isinstance(stored, str):
            return None, "not text"
        try:
            return time_control_from_text(stored), ""
        except ClockError as error:
            return None, one_line(str(error), 120)

    def set_time_control(self, game: str, control: TimeControl | None) -> None:
        self._store.setValue(f"games/{game}/time_control", "none" if control is None else control.text())

    @property
    def last_folder(self) -> Path:
        """The folder of the last game opened or saved (the file dialogs start there); the
        home folder when none was used or it is gone."""
        value = self._text("files/last_folder", "")
        folder = Path(value) if value else Path.home()
        return folder if folder.is_dir() else Path.home()

    @last_folder.setter
    def last_folder(self, value: Path) -> None:
        self._store.setValue("files/last_folder", str(value))

    # ------------------------------------------------------------------ engine
    @property
    def engine_settings(self) -> SearchSettings:
        """The settings panel's switches, the user's own (the algorithm is each computer
        side's own; the textbook preset is kept apart, ``textbook``). A stored value of the
        wrong type or out of its range (``ai.options.check_setting``, the one validation the
        command line and UCI use too) is left out: the default applies, and ``check``
        reports it."""
        return self._engine_entry()[0]

    @engine_settings.setter
    def engine_settings(self, value: SearchSettings) -> None:
        self._store.setValue("engine/settings", json.dumps(dataclasses.asdict(value)))

    @property
    def textbook(self) -> bool:
        """The settings panel's "Textbook (exact)" preset: searches use ``options.exact`` of
        ``engine_settings`` (every switch that can change the value off) while it is on."""
        return self._flag("engine/textbook", False)

    @textbook.setter
    def textbook(self, value: bool) -> None:
        self._store.setValue("engine/textbook", bool(value))

    @property
    def review_after_game(self) -> bool:
        """Review a game as soon as it ends (a game a person played in); on by default."""
        return self._flag("review/after_game", True)

    @review_after_game.setter
    def review_after_game(self, value: bool) -> None:
        self._store.setValue("review/after_game", bool(value))

    @property
    def review_level(self) -> str:
        """How hard a review looks at each move: ``quick``, ``standard`` or ``deep``
        (``gui.review.runner.ReviewLevel``'s values; anything else reads as standard)."""
        return self._text("review/level", "standard", REVIEW_LEVELS)

    @review_level.setter
    def review_level(self, value: str) -> None:
        self._store.setValue("review/level", value if value in REVIEW_LEVELS else "standard")

    def _engine_entry(self) -> tuple[SearchSettings, list[str]]:
        data, problem = self._json_entry("engine/settings")
        default = default_engine_settings()
        if problem:
            return default, [f"the engine settings are {problem}"]
        if data is None:
            return default, []
        if not isinstance(data, dict):
            return default, ["the engine settings are not a table of values"]
        values: dict[str, Any] = {}
        problems: list[str] = []
        for name, value in data.items():
            row = options.BY_NAME.get(name)
            if row is None:
                continue  # a setting of another version of the app
            if row.is_optional and (value is None or isinstance(value, bool)):
                values[name] = value  # an optional switch (None: the algorithm's default)
                continue
            if row.type is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)  # a whole number edited into a real setting
            if row.is_optional or type(value) is not row.type:
                kind = "switch" if row.is_optional else row.type.__name__
                problems.append(f"{name}: {one_line(repr(value), 40)} is not a {kind}")
                continue
            try:
                options.check_setting(name, value)
            except SettingError as error:
                problems.append(str(error))
                continue
            values[name] = value
        try:
            return dataclasses.replace(default, **values), problems
        except (TypeError, ValueError) as error:
            return default, [*problems, f"the engine settings do not fit together ({error})"]

    def check(self) -> list[str]:
        """Every stored entry that cannot be used, one line each (for the one message at
        start-up), and each of them removed so that the defaults apply from now on and the
        next start has nothing to say."""
        problems: list[str] = []
        for game in GAME_NAMES:
            _sides, problem = self._players_entry(game)
            if problem:
                problems.append(f"Settings: the sides for {game} were ignored ({problem}).")
                self._store.remove(f"games/{game}/players")
            _control, problem = self._time_control_entry(game)
            if problem:
                problems.append(f"Settings: the clock for {game} was ignored ({problem}): no clock.")
                self._store.remove(f"games/{game}/time_control")
        settings, engine_problems = self._engine_entry()
        if engine_problems:
            shown = "; ".join(engine_problems[:3]) + (f"; and {len(engine_problems) - 3} more" if len(engine_problems) > 3 else "")
            problems.append(f"Settings: engine values ignored, the defaults apply ({one_line(shown, 300)}).")
            self.engine_settings = settings
        return problems

