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

from ai.settings import SearchSettings
from games import GAME_NAMES
from gui.players import PlayerConfig
from gui.theme import BOARD_SCHEMES, DEFAULT_BOARD

ORGANIZATION = "Plyground"
APPLICATION = "Plyground"
DATA_DIR_ENV = "PLYGROUND_DATA_DIR"
"""Overrides where settings and the autosave live (tests use a temporary directory)."""

THEMES = ("light", "dark")
DEFAULT_THEME = "light"
DEFAULT_BOARD_THEME = DEFAULT_BOARD
DEFAULT_PIECE_THEME = "cburnett"
"""python-chess's piece set (Colin M.L. Burnett's), the one bundled."""


def data_dir() -> Path:
    """The app's data directory (made if missing): ``$PLYGROUND_DATA_DIR`` or the
    platform's application-data location."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        path = Path(override)
    else:
        location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
        path = Path(location) if location else Path.home() / ".plyground"
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_engine_settings() -> SearchSettings:
    """The engine's strong defaults, searching on every core (``threads`` = worker processes)."""
    from gui.engine_bridge import available_cores

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
        raw = self._store.value(key, "")
        if not isinstance(raw, str) or not raw:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return None

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
        """The sides last chosen for ``game`` (default: human vs computer)."""
        data = self._json(f"games/{game}/players")
        if isinstance(data, list) and len(data) == 2:
            return (PlayerConfig.from_dict(data[0]).for_game(game), PlayerConfig.from_dict(data[1]).for_game(game))
        return (PlayerConfig(), PlayerConfig(kind="computer").for_game(game))

    def set_players(self, game: str, players: tuple[PlayerConfig, PlayerConfig]) -> None:
        self._store.setValue(f"games/{game}/players", json.dumps([side.to_dict() for side in players]))

    @property
    def manual_dice(self) -> bool:
        """Backgammon: the player enters the dice (over-the-board use) instead of the app rolling."""
        return self._flag("games/manual_dice", False)

    @manual_dice.setter
    def manual_dice(self, value: bool) -> None:
        self._store.setValue("games/manual_dice", bool(value))

    # ------------------------------------------------------------------ engine
    @property
    def engine_settings(self) -> SearchSettings:
        """The settings panel's switches (the algorithm is each computer side's own)."""
        data = self._json("engine/settings")
        default = default_engine_settings()
        if not isinstance(data, dict):
            return default
        fields = {field.name: field for field in dataclasses.fields(SearchSettings)}
        values: dict[str, Any] = {}
        for name, value in data.items():
            field = fields.get(name)
            if field is None:
                continue
            current = getattr(default, name)
            if current is None:
                if value is None or isinstance(value, bool):
                    values[name] = value  # an optional switch (None: the algorithm's default)
            elif type(value) is type(current) or (isinstance(current, float) and isinstance(value, int)):
                values[name] = type(current)(value)
        try:
            return dataclasses.replace(default, **values)
        except (TypeError, ValueError):
            return default

    @engine_settings.setter
    def engine_settings(self, value: SearchSettings) -> None:
        self._store.setValue("engine/settings", json.dumps(dataclasses.asdict(value)))

