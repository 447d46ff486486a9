"""GameSession: moves, take-back and redo against the computer, passes, dice, resignation,
game over with its reason, and the engine asked only through the bridge."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from ai.levels import level_play, level_rng, noticed_moves, request_for_level, strongest_play
from games import CHANCE, GAME_NAMES, get_game, new_game
from gui.players import COMPUTER, HUMAN, PlayerConfig
from gui.engine_bridge import EngineBridge
from gui.session import HINT_LIMITS, GameSession, Outcome, Result, named
from tests.gui.engine_doubles import ScriptedPool

HUMAN_SIDE = PlayerConfig(kind=HUMAN)


def computer(depth: int = 1, game: str = "chess") -> PlayerConfig:
    return PlayerConfig(kind=COMPUTER, strength="depth", depth=depth).for_game(game)


@pytest.fixture
def make_session(bridge: Any) -> Iterator[Callable[..., GameSession]]:
    """Makes sessions on the module's bridge; closes them (stopping searches) afterwards."""
    made: list[GameSession] = []

    def make(game: str, players: tuple[PlayerConfig, PlayerConfig], **options: Any) -> GameSession:
        session = GameSession(bridge, game, players, seed=1, **options)
        made.append(session)
        return session

    yield make
    for session in made:
        session.close()


def test_two_humans_play_undo_and_redo(qtbot: QtBot, bridge: Any, make_session: Callable[..., GameSession]) -> None:
    session = make_session("tictactoe", (HUMAN_SIDE, HUMAN_SIDE))
    for name in ("b2", "a1", "c3"):
        assert session.play_text(name) is None
    assert session.move_names() == ["b2", "a1", "c3"]
    session.undo()
    assert session.move_names() == ["b2", "a1"]
    session.undo()
    assert session.move_names() == ["b2"] and session.can_redo()
    session.redo()
    session.redo()
    assert session.move_names() == ["b2", "a1", "c3"] and not session.can_redo()
    assert session.state.to_text() == new_game("tictactoe", "..x.x.o..").to_text()


def test_a_new_move_clears_redo(qtbot: QtBot, bridge: Any, make_session: Callable[..., GameSession]) -> None:
    session = make_session("tictactoe", (HUMAN_SIDE, HUMAN_SIDE))
    session.play_text("b2")
    session.undo()
    assert session.can_redo()
    session.play_text("a1")
    assert not session.can_redo() and session.move_names() == ["a1"]


def test_a_bad_typed_move_says_why_and_changes_nothing(qtbot: QtBot, bridge: Any, make_session: Callable[..., GameSession]) -> None:
    session = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE))
    before = session.state.to_text()
    error = session.play_text("Ke2")
    assert error and "Ke2" in error
    assert session.play_text("e9") is not None
    assert session.state.to_text() == before and session.history == []


def test_the_computer_answers_and_undo_takes_back_to_the_human(qtbot: QtBot, bridge: Any, make_session: Callable[..., GameSession]) -> None:
    session = make_session("chess", (HUMAN_SIDE, computer()))
    assert session.play_text("e4") is None
    qtbot.waitUntil(lambda: len(session.history) == 2, timeout=30_000)
    assert session.history[1].mover == 1 and session.history[1].evaluation is not None
    assert session.can_human_move()
    session.undo()
    assert session.history == [] and session.state.to_move() == 0
    session.redo()
    assert len(session.history) == 2 and session.can_human_move()


def test_undo_while_the_computer_thinks_stops_the_search(qtbot: QtBot, bridge: Any, make_session: Callable[..., GameSession]) -> None:
    slow = PlayerConfig(kind=COMPUTER, strength="time", seconds=30.0)
    session = make_session("chess", (HUMAN_SIDE, slow))
    session.play_text("a3")  # out of the opening book, so the computer searches
    qtbot.waitUntil(lambda: session.is_thinking, timeout=5_000)
    session.undo()
    assert not session.is_thinking and session.history == []
    assert not bridge.is_searching


def test_move_now_makes_the_engine_answer_at_once(qtbot: QtBot, bridge: Any, make_session: Callable[..., GameSession]) -> None:
    slow = PlayerConfig(kind=COMPUTER, strength="time", seconds=60.0)
    session = make_session("othello", (HUMAN_SIDE, slow))
    session.play_text("d3")
    qtbot.waitUntil(lambda: session.is_thinking, timeout=5_000)
    with qtbot.waitSignal(session.move_played, timeout=10_000):
        session.think_or_stop()
    assert len(session.history) == 2


def test_computer_against_computer_starts_paused_and_steps(qtbot: QtBot, bridge: Any, make_session: Callable[..., GameSession]) -> None:
    session = make_session("tictactoe", (computer(2, "tictactoe"), computer(2, "tictactoe")))
    assert session.paused and session.history == []
    with qtbot.waitSignal(session.move_played, timeout=10_000):
        session.step()
    assert len(session.history) == 1 and not session.is_thinking
    with qtbot.waitSignal(session.game_over, timeout=60_000) as over:
        session.set_paused(False)
    assert over.args[0].result is Result.DRAW  # perfect play draws


def test_the_end_by_the_rules_has_a_result_and_a_reason(qtbot: QtBot, bridge: Any, make_session: Callable[..., GameSession]) -> None:
    session = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE))
    with qtbot.waitSignal(session.game_over, timeout=2_000) as over:
        for name in ("f3", "e5", "g4", "Qh4#"):
            assert session.play_text(name) is None
    assert over.args == [Outcome(Result.SECOND_WINS, "checkmate")]
    assert session.result == "0-1" and session.reason == "checkmate"  # the marker files hold
    assert not session.can_human_move()
    session.undo()
    assert not session.is_over and session.can_human_move()


def test_resign_ends_the_game_for_the_human(qtbot: QtBot, bridge: Any, make_session: Callable[..., GameSession]) -> None:
    session = make_session("checkers", (HUMAN_SIDE, computer(1, "checkers")))
    with qtbot.waitSignal(session.game_over, timeout=2_000) as over:
        session.resign()
    assert over.args == [Outcome(Result.SECOND_WINS, "Black resigned")]


def test_othello_forced_pass_is_announced_then_played(qtbot: QtBot, bridge: Any, make_session: Callable[..., GameSession]) -> None:
    # white to move has no move here, black has one (f1): a forced pass for white
    position = "XOOOO-OXXOOOOOXXXOXXOXOXXOXOXOXXXOXXOXXXXOXXXXXOXOOXXXOOXOOOOOOO O"
    state = new_game("othello", position)
    assert [state.move_name(move) for move in state.legal_moves()] == ["pass"]
    session = make_session("othello", (HUMAN_SIDE, HUMAN_SIDE), start=position)
    notices: list[str] = []
    session.notice.connect(notices.append)
    qtbot.waitUntil(lambda: bool(notices), timeout=2_000)
    assert "White has no legal move" in notices[0] and session.history == []
    qtbot.waitUntil(lambda: session.move_names() == ["pass"], timeout=5_000)


def test_backgammon_dice_are_rolled_by_the_app_or_entered(qtbot: QtBot, bridge: Any, make_session: Callable[..., GameSession]) -> None:
    rolled = make_session("backgammon", (HUMAN_SIDE, HUMAN_SIDE))
    qtbot.waitUntil(lambda: len(rolled.history) == 1, timeout=2_000)
    assert rolled.history[0].mover == CHANCE and rolled.state.to_move() != CHANCE
    entered = make_session("backgammon", (HUMAN_SIDE, HUMAN_SIDE), manual_dice=True)
    assert entered.waits_for_dice()
    assert entered.play_text("3-3") is not None  # an opening roll is never a double
    assert entered.play_text("O 3-1") is None
    assert entered.state.to_move() == 0 and entered.move_names() == ["O 3-1"]


def test_backgammon_against_the_computer_goes_on_through_dice_and_cube(qtbot: QtBot, bridge: Any, make_session: Callable[..., GameSession]) -> None:
    session = make_session("backgammon", (HUMAN_SIDE, computer(1, "backgammon")))
    for _ in range(3):
        qtbot.waitUntil(lambda: session.is_over or (session.can_human_move() and session.state.to_move() == 0), timeout=30_000)
        if session.is_over:
            break
        moves = session.state.legal_moves()
        choice = next((move for move in moves if session.state.move_name(move) not in ("double", "drop")), moves[0])
        assert session.play_move(choice)
    assert any(entry.mover == 1 for entry in session.history)
    session.undo()
    assert session.state.to_move() == 0 and session.can_human_move()


@pytest.mark.parametrize("game", GAME_NAMES)
def test_hint_finds_a_legal_move(qtbot: QtBot, bridge: Any, make_session: Callable[..., GameSession], game: str) -> None:
    session = make_session(game, (HUMAN_SIDE, computer(1, game)))
    qtbot.waitUntil(lambda: session.can_human_move() and session.state.to_move() == 0, timeout=10_000)
    with qtbot.waitSignal(session.hint_found, timeout=30_000) as hint:
        session.request_hint()
    assert hint.args[0] in session.state.legal_moves()


def test_state_at_replays_the_game(qtbot: QtBot, bridge: Any, make_session: Callable[..., GameSession]) -> None:
    session = make_session("othello", (HUMAN_SIDE, HUMAN_SIDE))
    for name in ("d3", "c5", "f6"):
        session.play_text(name)
    assert session.state_at(0).to_text() == new_game("othello").to_text()
    assert session.state_at(3).key() == session.state.key()
    assert session.to_record().moves == ["d3", "c5", "f6"]


def test_backgammon_game_over_text_says_the_result_once(qtbot: QtBot, make_session: Callable[..., GameSession]) -> None:
    """The rules' own reason names the winner and the points ("O dropped the cube: X wins
    1 point"): the status shows it once, without "X wins — … X wins …; X wins by 1"."""
    session = make_session("backgammon", (HUMAN_SIDE, HUMAN_SIDE), manual_dice=True)
    for name in ["O 3-1", "8/5 6/5", "double"]:
        assert session.play_text(name) is None, name
    with qtbot.waitSignal(session.game_over, timeout=5_000):
        assert session.play_text("drop") is None
    assert session.result == "0-1"
    assert session.status_text() == "O dropped the cube: X wins 1 point"
    assert session.status_text().lower().count("wins") == 1


def test_a_margin_game_still_says_the_margin(qtbot: QtBot, make_session: Callable[..., GameSession]) -> None:
    """Othello's reason does not name the winner: the app adds who won and by how much, once,
    with the reason capitalised ("White has no discs left", never "white …")."""
    board = ["-"] * 64  # squares a1..h8 row by row: d4 = 27, e4 = 28, d5 = 35, e5 = 36
    for index in (27, 35, 36):
        board[index] = "X"
    board[28] = "O"
    session = make_session("othello", (HUMAN_SIDE, HUMAN_SIDE), start="".join(board) + " X")
    with qtbot.waitSignal(session.game_over, timeout=5_000):
        assert session.play_text("f4") is None  # takes White's only disc
    assert session.status_text() == "White has no discs left; Black wins by 64"


def test_a_reason_names_players_as_the_app_does_and_keeps_the_rest() -> None:
    assert named("x has three in a row", ("X", "O")) == "X has three in a row"
    assert named("white has no discs left", ("Black", "White")) == "White has no discs left"
    assert named("checkmate", ("White", "Black")) == "checkmate"  # "Black wins — checkmate"
    assert named("", ("White", "Black")) == ""


# ---------------------------------------------------------------- loaded games: evaluations, claimable draws, long moves
PAST_THREEFOLD = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "e4", "e5"]
"""Threefold repetition after 4... Ng8, not claimed: the game went on."""
PAST_FIFTY = ("4k3/8/8/8/8/8/4P3/4K3 w - - 99 80", ["Kd1", "Kd8", "e4"])
"""The fifty-move rule reached after 80. Kd1, not claimed: the game went on."""


@pytest.mark.parametrize(("start", "names"), [(None, PAST_THREEFOLD), PAST_FIFTY], ids=["threefold", "fifty moves"])
def test_a_loaded_game_that_went_on_past_a_claimable_draw_loads_and_plays_on(
    qtbot: QtBot, make_session: Callable[..., GameSession], start: str | None, names: list[str]
) -> None:
    session = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE), start=start)
    session.load_history(names)
    assert session.move_names() == names and not session.is_over
    assert session.can_human_move() and session.play_text("d4" if start is None else "Kc7") is None
    qtbot.wait(50)  # let the scheduled turn logic run: it must not end the game
    assert not session.is_over


def test_the_computer_plays_on_after_a_loaded_unclaimed_draw(qtbot: QtBot, make_session: Callable[..., GameSession]) -> None:
    session = make_session("chess", (HUMAN_SIDE, computer(depth=1)), paused=False)
    session.load_history(PAST_THREEFOLD + ["Nc3"])
    qtbot.waitUntil(lambda: len(session.history) == len(PAST_THREEFOLD) + 2, timeout=30_000)
    assert not session.is_over


def test_a_loaded_game_stopping_at_a_claimable_draw_offers_the_claim(qtbot: QtBot, make_session: Callable[..., GameSession]) -> None:
    session = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE))
    session.load_history(PAST_THREEFOLD[:8])
    qtbot.wait(50)
    assert session.claimable_draw() == "threefold repetition" and not session.is_over
    assert "threefold repetition: a draw may be claimed" in session.status_text()
    assert session.can_human_move()
    with qtbot.waitSignal(session.game_over, timeout=2_000) as over:
        assert session.claim_draw()
    assert over.args[0].result is Result.DRAW and "threefold" in over.args[0].reason


def test_playing_on_from_a_claimable_draw_declines_it(qtbot: QtBot, make_session: Callable[..., GameSession]) -> None:
    session = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE))
    session.load_history(PAST_THREEFOLD[:8])
    assert session.play_text("e4") is None
    assert session.claimable_draw() == "" and not session.is_over
    assert session.to_record().moves == PAST_THREEFOLD[:8] + ["e4"]


def test_saved_evaluations_become_the_moves_scores(make_session: Callable[..., GameSession]) -> None:
    session = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE))
    session.load_history(["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"], ["+0.30", None, "-1.20", "mate in 2", None, "mate in 1"])
    scores = [entry.score for entry in session.history]
    assert scores[1] is None and scores[4] is None
    assert scores[0] is not None and scores[0].view == 0 and scores[0].value > 0 and not scores[0].is_win
    assert scores[2] is not None and scores[2].value < 0
    assert scores[3] is not None and scores[3].outcome == 1 and scores[3].mate_in_moves() == 2
    assert scores[5] is not None and scores[5].mate_in_moves() == 1
    from ai.display import value_text

    assert [None if score is None else value_text(score, session.game_class) for score in scores] == \
        [entry.evaluation for entry in session.history]


def test_a_long_typed_move_gives_a_short_error(make_session: Callable[..., GameSession]) -> None:
    session = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE))
    for typed in ("N" * 10_000, "e" * 10_000 + "4", "Qh5" + "!" * 10_000 + "x", "a1" * 5_000):
        error = session.play_text(typed)
        assert error is not None and len(error) < 400 and "\n" not in error, len(error or "")
    assert session.move_names() == []


def test_undo_back_to_a_claimable_draw_offers_it_again(qtbot: QtBot, make_session: Callable[..., GameSession]) -> None:
    session = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE))
    session.load_history(PAST_THREEFOLD)
    session.undo()
    session.undo()
    qtbot.wait(50)
    assert session.claimable_draw() == "threefold repetition" and not session.is_over
    session.redo()
    assert session.claimable_draw() == "" and not session.is_over


@pytest.mark.parametrize(
    ("game", "algorithm", "depth", "capped"),
    [("backgammon", "expectiminimax", 4, True), ("backgammon", "star2", 4, True), ("tictactoe", "minimax", 9, False)],
)
def test_a_typed_depth_is_searched_with_the_time_cap_and_capped_where_it_cannot_finish(
    qtbot: QtBot, game: str, algorithm: str, depth: int, capped: bool
) -> None:
    """"Strength: Depth" never makes the computer think for long: backgammon's depth 4
    (days of expectiminimax) is searched to the depth the new-game dialog names, and every
    typed depth has the time cap as a hard stop; tic-tac-toe's full-depth minimax is kept."""
    from ai.levels import DEPTH_TIME_CAP

    pool = ScriptedPool()
    bridge = EngineBridge(pool)
    side = PlayerConfig(kind=COMPUTER, algorithm=algorithm, strength="depth", depth=depth)
    session = GameSession(bridge, game, (side, side), seed=1, paused=False)
    try:
        qtbot.waitUntil(lambda: len(pool.requests) >= 1, timeout=10_000)
        limits = pool.requests[0].limits
        assert limits.time == DEPTH_TIME_CAP
        assert limits.depth is not None and (limits.depth < depth if capped else limits.depth == depth), limits
    finally:
        session.close()
        bridge.shutdown()


def test_a_result_is_its_pgn_marker_and_names_its_winner() -> None:
    assert [Result.won_by(winner) for winner in (0, 1, None)] == [Result.FIRST_WINS, Result.SECOND_WINS, Result.DRAW]
    assert [str(result) for result in Result] == ["1-0", "0-1", "1/2-1/2", "*"]  # as files write them
    assert [Result(marker).winner for marker in ("1-0", "0-1", "1/2-1/2", "*")] == [0, 1, None, None]
    names = ("White", "Black")
    assert [result.text(names) for result in Result] == ["White wins", "Black wins", "Draw", "Game in progress"]
    assert Outcome(Result.SECOND_WINS, "checkmate").text(names) == "Black wins — checkmate"
    assert Outcome(Result.FIRST_WINS, "black has no discs left").text(("Black", "White")) == "Black wins — Black has no discs left"
    assert Outcome(Result.DRAW, "").text(names) == "Draw"
    gammon = "O bore off all checkers and wins a gammon: 2 points"  # names its winner: said once
    assert Outcome(Result.SECOND_WINS, gammon).text(("X", "O")) == gammon


def test_a_hint_is_asked_with_its_own_limits_and_a_computer_move_with_its_level(qtbot: QtBot) -> None:
    """The purpose of a search decides its request: the computer's move at a beginner
    level is the level's own request (its engine, budget and lines to err among); a hint
    is at full strength (the game's strongest engine, not the opponent's level), with the
    hint's short time, and never blocks the human."""
    pool = ScriptedPool()
    bridge = EngineBridge(pool)
    beginner = PlayerConfig(kind=COMPUTER, strength="level", level=1).for_game("chess")
    session = GameSession(bridge, "chess", (HUMAN_SIDE, beginner), seed=1)
    try:
        session.request_hint()
        assert session.is_finding_hint() and session.can_human_move()
        qtbot.waitUntil(lambda: len(pool.requests) == 1, timeout=10_000)
        hint = pool.requests[0]
        assert hint.limits == HINT_LIMITS and hint.root_moves == ()
        assert hint.settings == strongest_play("chess").settings() and hint.settings.multipv == 1
        assert hint.settings.algorithm == ("native" if get_game("chess").NATIVE_SEARCH else "pvs")
        assert session.play_text("e4") is None  # the human's move drops the hint's search
        assert not session.is_finding_hint()
        qtbot.waitUntil(lambda: len(pool.requests) == 2, timeout=10_000)
        move = pool.requests[1]
        beginner_play = level_play("chess", 1)  # it overlooks quiet moves: drawn from its seeded generator
        seen = noticed_moves(beginner_play, session.state, level_rng(1, 1, 1))
        expected = request_for_level(beginner_play, session.start_text, session.move_names(), root_moves=seen)
        assert dataclasses.replace(move, search_id=0) == expected and move.settings.multipv > 1 and seen
        assert session.is_thinking and not session.is_finding_hint()
    finally:
        session.close()
        bridge.shutdown()
