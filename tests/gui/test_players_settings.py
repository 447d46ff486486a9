"""Sides and levels (noise for beginners), and the typed settings with their defaults."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from ai.search import ALGORITHMS
from ai.settings import SearchSettings
from games import GAME_NAMES
from ai.levels import LEVELS
from gui.players import PlayerConfig, algorithms_for, noisy_root_moves
from gui.settings import Settings, default_engine_settings


def test_beginner_levels_search_only_part_of_the_moves() -> None:
    names = [f"m{index}" for index in range(20)]
    rng = random.Random(0)
    low = PlayerConfig(kind="computer", level=1)
    chosen = noisy_root_moves(names, low.root_share(), rng)
    assert 1 <= len(chosen) < len(names) and set(chosen) <= set(names)
    assert noisy_root_moves(names, PlayerConfig(kind="computer", level=8).root_share(), rng) == ()
    assert noisy_root_moves(["only"], 0.1, rng) == ()
    assert [level.number for level in LEVELS] == list(range(1, 11))
    depths = [level.depth or 99 for level in LEVELS]
    assert depths == sorted(depths)


def test_strength_maps_to_limits() -> None:
    assert PlayerConfig(strength="depth", depth=5).limits().depth == 5
    assert PlayerConfig(strength="time", seconds=2.5).limits().time == 2.5
    level = PlayerConfig(strength="level", level=6).limits()
    assert level.depth == LEVELS[5].depth and level.time == LEVELS[5].seconds


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_offers_algorithms_that_can_play_it(game: str) -> None:
    from games import get_game

    offered = algorithms_for(game)
    assert offered[0] == ("star2" if get_game(game).HAS_CHANCE else "pvs")
    for name in offered:
        if get_game(game).HAS_CHANCE:
            assert ALGORITHMS[name].handles_chance
    assert PlayerConfig(algorithm="pvs").for_game(game).algorithm in offered


def test_a_side_survives_a_round_trip_and_junk_falls_back() -> None:
    side = PlayerConfig(kind="computer", algorithm="mtdf", strength="time", level=3, depth=7, seconds=4.0)
    assert PlayerConfig.from_dict(side.to_dict()) == side
    junk = PlayerConfig.from_dict({"kind": "robot", "algorithm": "magic", "level": 99, "depth": "deep", "seconds": -1})
    assert junk == PlayerConfig()
    assert PlayerConfig.from_dict("nonsense") == PlayerConfig()


def test_settings_have_typed_defaults_and_remember(tmp_path: Path) -> None:
    store = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    settings = Settings(store)
    assert settings.theme == "light" and settings.sound is False and settings.last_game == "chess"
    assert settings.engine_settings == default_engine_settings()
    settings.theme = "dark"
    settings.last_game = "othello"
    settings.engine_settings = SearchSettings(quiescence=False, tt_megabytes=16, threads=1)
    sides = (PlayerConfig(kind="computer", level=2), PlayerConfig())
    settings.set_players("othello", sides)
    settings.sync()
    again = Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    assert again.theme == "dark" and again.last_game == "othello"
    assert again.engine_settings == SearchSettings(quiescence=False, tt_megabytes=16, threads=1)
    assert again.players("othello") == sides


def test_hand_edited_settings_never_reach_a_widget_as_the_wrong_type(tmp_path: Path) -> None:
    store = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    store.setValue("appearance/theme", "purple")
    store.setValue("games/last", "go")
    store.setValue("engine/settings", '{"killers": "yes", "quiescence": "yes", "tt_megabytes": 8, "unknown": 1}')
    store.setValue("games/chess/players", "[not json")
    settings = Settings(store)
    assert settings.theme == "light" and settings.last_game == "chess"
    assert settings.engine_settings == dataclasses.replace(default_engine_settings(), tt_megabytes=8)
    assert settings.players("chess")[1].is_computer
