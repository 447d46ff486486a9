"""Sides and their levels, and the typed settings with their defaults."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from ai.search import ALGORITHMS
from ai.settings import SearchSettings
from games import GAME_NAMES
from ai.levels import LEVELS, level_play
from ai.settings import Limits
from gui.players import PlayerConfig, algorithms_for, sides_from_data
from gui.settings import Settings, default_engine_settings


def test_a_level_side_plays_its_games_level_whatever_algorithm_it_shows() -> None:
    """A side by level takes the game's recipe: its engine, node budget and time cap (the
    dialog's algorithm stays for depth and time strengths)."""
    side = PlayerConfig(kind="computer", algorithm="mtdf", strength="level", level=6).for_game("othello")
    play = level_play("othello", 6)
    assert side.level_play() == play and side.limits() == play.limits()
    assert side.limits() == Limits(depth=play.depth, time=LEVELS[5].seconds, nodes=play.nodes)
    assert side.describe() == "Computer (level 6, PVS search)"
    assert PlayerConfig(kind="computer", level=2).describe() == "Computer (level 2)"  # no game yet: no engine


def test_strength_maps_to_limits() -> None:
    assert PlayerConfig(strength="depth", depth=5).limits().depth == 5
    assert PlayerConfig(strength="time", seconds=2.5).limits().time == 2.5
    assert PlayerConfig(strength="level", level=6).limits().time == LEVELS[5].seconds
    assert PlayerConfig(kind="computer", strength="depth", depth=3, algorithm="mtdf").describe() == "Computer (MTD(f), depth 3)"


def test_old_autosave_sides_still_read() -> None:
    """Sides saved before levels were per game (with their algorithm, a level and no game)
    read as the same side; the game comes from the session."""
    old = {"kind": "computer", "algorithm": "pvs", "strength": "level", "level": 9, "depth": 4, "seconds": 1.0}
    side = PlayerConfig.from_dict(old)
    assert (side.kind, side.strength, side.level) == ("computer", "level", 9)
    assert side.to_dict() == old
    chess = side.for_game("chess")
    assert chess.game == "chess" and chess == side  # the game is context, not part of the side
    assert chess.level_play() == level_play("chess", 9)
    sides, problem = sides_from_data([{"kind": "human"}, old], "backgammon")
    assert problem == "" and sides[1].algorithm == "star2" and sides[1].level_play().game == "backgammon"
    for junk in ({"level": 0}, {"level": 11}, {"level": "7"}, {"level": True}, {"level": 2.5}, {"level": float("nan")}):
        assert PlayerConfig.from_dict({**old, **junk}).level == PlayerConfig().level


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
