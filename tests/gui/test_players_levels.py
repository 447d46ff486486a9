"""A computer side by level in the app plays what ``plyground match --a level=N`` plays:
the same request, the same seeded mistakes; a hint is at full strength whatever the level."""

from __future__ import annotations

import dataclasses
import pytest
from pytestqt.qtbot import QtBot

from ai.levels import level_play, request_for_level, strongest_play
from ai.match.players import LevelPlayer, make_player
from ai.match.protocol import GameHistory
from games import new_game
from gui.engine_bridge import EngineBridge
from gui.players import COMPUTER, HUMAN, PlayerConfig
from gui.session import HINT_LIMITS, GameSession
from tests.gui.engine_doubles import ScriptedPool, ThreadedEnginePool


def test_a_level_side_in_the_app_plays_the_match_players_moves(qtbot: QtBot) -> None:
    """Tic-tac-toe level 1 (one ply, five lines, a hot temperature) against a human, seeded:
    the app's moves are those the match's ``level=1`` player chooses with the same seed, on
    the first game of a match (first move and the answer to a reply)."""
    seed = 5
    bridge = EngineBridge(ThreadedEnginePool())  # the real engine in a thread: no worker process to start
    side = PlayerConfig(kind=COMPUTER, strength="level", level=1).for_game("tictactoe")
    session = GameSession(bridge, "tictactoe", (side, PlayerConfig(kind=HUMAN)), seed=seed)
    player = make_player("level=1", "tictactoe", seed=seed)
    assert isinstance(player, LevelPlayer)
    start = new_game("tictactoe")
    player.new_game(start.copy())
    try:
        with qtbot.waitSignal(session.move_played, timeout=20_000):
            pass
        first = session.move_names()[0]
        assert start.move_name(player.choose(start.copy(), GameHistory(start.to_text()), None)) == first  # type: ignore[arg-type]
        reply = next(name for name in ("a1", "c3", "a3", "c1") if name != first)
        with qtbot.waitSignal(session.move_played, timeout=20_000):
            assert session.play_text(reply) is None
        qtbot.waitUntil(lambda: len(session.move_names()) == 3, timeout=20_000)
        state = new_game("tictactoe")
        for name in (first, reply):
            state.play(state.parse_move(name))
        ours = player.choose(state.copy(), GameHistory(start.to_text(), [first, reply]), None)  # type: ignore[arg-type]
        assert state.move_name(ours) == session.move_names()[2]
    finally:
        session.close()
        bridge.shutdown()


@pytest.mark.parametrize("game", ["chess", "othello", "backgammon", "checkers"])
def test_the_hint_is_at_full_strength_whatever_the_opponents_level(qtbot: QtBot, game: str) -> None:
    pool = ScriptedPool()
    bridge = EngineBridge(pool)
    weak = PlayerConfig(kind=COMPUTER, strength="level", level=1).for_game(game)
    session = GameSession(bridge, game, (PlayerConfig(kind=HUMAN), weak), seed=2)
    try:
        qtbot.waitUntil(session.can_human_move, timeout=10_000)
        session.request_hint()
        qtbot.waitUntil(lambda: len(pool.requests) == 1, timeout=10_000)
        hint = pool.requests[0]
        strongest = strongest_play(game)
        assert hint.settings == strongest.settings() and hint.limits == HINT_LIMITS
        assert hint.settings.algorithm != level_play(game, 1).algorithm or game == "othello"
        assert hint.settings.multipv == 1 and hint.limits.depth is None
    finally:
        session.close()
        bridge.shutdown()


def test_the_apps_level_request_is_the_match_players(qtbot: QtBot) -> None:
    """After a few moves, a level side's request in the app equals the match player's for
    the same game so far (``request_for_level`` in both)."""
    pool = ScriptedPool()
    bridge = EngineBridge(pool)
    side = PlayerConfig(kind=COMPUTER, strength="level", level=4).for_game("chess")
    session = GameSession(bridge, "chess", (PlayerConfig(kind=HUMAN), side), seed=9)
    try:
        assert session.play_text("e4") is None
        qtbot.waitUntil(lambda: len(pool.requests) == 1, timeout=10_000)
        app = dataclasses.replace(pool.requests[0], search_id=0)
        player = make_player("level=4", "chess", seed=9)
        assert isinstance(player, LevelPlayer)
        match = player.request(GameHistory(session.start_text, ["e4"]))
        assert app == match == request_for_level(level_play("chess", 4), session.start_text, ["e4"])
    finally:
        session.close()
        bridge.shutdown()
