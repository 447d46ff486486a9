"""Tic-tac-toe against the published counts, plus the protocol's properties."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import BadPositionError, IllegalMoveError, new_game
from games.tictactoe import TicTacToeState
from tests.conftest import DATA_DIR
from tests.games.playout import random_playout

COUNTS = json.loads((DATA_DIR / "tictactoe" / "counts.json").read_text())


@pytest.mark.parametrize("ply", range(1, 10))
def test_perft_by_ply(ply: int) -> None:
    assert TicTacToeState.initial().perft(ply) == COUNTS["perft_by_ply_games_stop_at_win"][str(ply)]


def test_complete_games_and_outcomes() -> None:
    outcomes = {"X": 0, "O": 0, "draw": 0}
    positions: set[str] = set()

    def walk(state: TicTacToeState) -> None:
        positions.add(state.to_text())
        if state.is_terminal():
            outcomes[{0: "X", 1: "O", None: "draw"}[state.winner()]] += 1
            return
        for move in state.legal_moves():
            state.play(move)
            walk(state)
            state.undo()

    walk(TicTacToeState.initial())
    assert sum(outcomes.values()) == COUNTS["total_games"] == 255_168
    assert outcomes == COUNTS["game_outcomes"]
    assert len(positions) == COUNTS["reachable_positions_incl_empty"]


def test_square_names_follow_files_and_ranks() -> None:
    state = new_game("tictactoe")
    assert state.parse_move("a3") == 0 and state.parse_move("c1") == 8 and state.parse_move("b2") == 4
    state.play(state.parse_move("a1"))
    assert state.to_text() == "......x.."
    assert state.to_move() == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("xx.......", "x has 2 marks and o has 0"),
        ("xxxooo...", "both x and o"),
        ("xxxoo.o..", "x has three in a row but o has moved"),
        ("x..", "9 squares"),
    ],
)
def test_bad_positions_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(BadPositionError, match=message):
        TicTacToeState.from_text(text)


def test_bad_moves_say_what_is_wrong() -> None:
    state = TicTacToeState.from_text("x........")
    with pytest.raises(IllegalMoveError, match="a3 is already taken"):
        state.parse_move("a3")
    with pytest.raises(IllegalMoveError, match="not a square"):
        state.parse_move("d4")
    finished = TicTacToeState.from_text("xxxoo....")
    with pytest.raises(IllegalMoveError, match="game is over"):
        finished.parse_move("c1")


def test_utility_and_reason() -> None:
    won = TicTacToeState.from_text("xxxoo....")
    assert won.is_terminal() and won.utility(0) == 1 and won.utility(1) == -1
    assert "x has three in a row" in won.termination_reason()
    drawn = TicTacToeState.from_text("xoxxoooxx")
    assert drawn.is_terminal() and drawn.utility(0) == 0 and drawn.winner() is None


def test_open_lines_evaluation() -> None:
    centre = TicTacToeState.from_text("....x....")
    features = centre.evaluation_features(0)
    # x in the centre: all 8 lines open for x, 4 open for o (those avoiding the centre).
    assert features["open_lines"][1] == 8 - 4
    assert centre.evaluate(0) == sum(w * v for w, v in features.values())
    assert centre.evaluate(0) == -centre.evaluate(1)
    threat = TicTacToeState.from_text("xx..o....")
    assert threat.evaluation_features(0)["threats"][1] == 1


@settings(deadline=None, max_examples=200)
@given(st.text(max_size=12))
def test_parsers_fail_cleanly(text: str) -> None:
    """Any text is a position or a move that round-trips, or a clean error that says why."""
    try:
        state = TicTacToeState.from_text(text)
    except BadPositionError as error:
        assert str(error)
    else:
        assert TicTacToeState.from_text(state.to_text()).to_text() == state.to_text()
    start = TicTacToeState.initial()
    try:
        move = start.parse_move(text)
    except IllegalMoveError as error:
        assert str(error)
    else:
        assert move in start.legal_moves() and start.parse_move(start.move_name(move)) == move


@settings(deadline=None, max_examples=100)
@given(st.integers(min_value=0, max_value=2**32))
def test_playouts_undo_keys_and_round_trips(seed: int) -> None:
    rng = random.Random(seed)
    for state in random_playout(TicTacToeState.initial(), rng):
        text, key = state.to_text(), state.key()
        assert TicTacToeState.from_text(text).to_text() == text
        assert TicTacToeState.from_text(text).key() == key
        for move in state.legal_moves():
            assert state.parse_move(state.move_name(move)) == move
            state.play(move)
            state.undo()
            assert (state.to_text(), state.key()) == (text, key)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="xo.", min_size=0, max_size=12))
def test_positions_over_the_board_alphabet_are_valid_or_cleanly_refused(text: str) -> None:
    """Strings of x, o and . alone: every impossible count or double win is named."""
    try:
        state = TicTacToeState.from_text(text)
    except BadPositionError as error:
        assert str(error)
        if len(text) == 9:
            xs, os_ = text.count("x"), text.count("o")
            assert not (os_ <= xs <= os_ + 1) or "three in a row" in str(error)
        return
    xs, os_ = text.count("x"), text.count("o")
    assert len(text) == 9 and os_ <= xs <= os_ + 1
    assert state.to_text() == text


def reachable_texts() -> set[str]:
    """Every position legal play reaches from the empty board (play stops at a win)."""
    seen: set[str] = set()

    def walk(state: TicTacToeState) -> None:
        text = state.to_text()
        if text in seen:
            return
        seen.add(text)
        for move in state.legal_moves():
            walk(state.result(move))

    walk(TicTacToeState.initial())
    return seen


def test_from_text_accepts_exactly_the_reachable_positions() -> None:
    """All 3^9 boards: accepted if and only if play can reach them, else refused with one of
    the named reasons."""
    reachable = reachable_texts()
    assert len(reachable) == COUNTS["reachable_positions_incl_empty"]
    reasons = (
        "marks and o has",
        "both x and o have three in a row",
        "x has three in a row but o has moved since",
        "o has three in a row but x has moved since",
    )
    for cells in itertools.product("xo.", repeat=9):
        text = "".join(cells)
        try:
            TicTacToeState.from_text(text)
        except BadPositionError as error:
            assert text not in reachable
            assert any(reason in str(error) for reason in reasons), str(error)
            continue
        assert text in reachable


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "a tic-tac-toe position has 9 squares, got 0 characters"),
        ("x.o.x.o.x.o.", "a tic-tac-toe position has 9 squares, got 12 characters"),
        ("xxxooo...", "both x and o have three in a row"),
        ("oooxxx...", "both x and o have three in a row"),
        ("o........", "x has 0 marks and o has 1: x moves first, so x has as many marks as o or one more"),
        ("xxx.o....", "x has 3 marks and o has 1: x moves first, so x has as many marks as o or one more"),
        ("xx?......", "square c3 holds '?'; use x, o or ."),
    ],
)
def test_bad_position_messages_are_exact(text: str, message: str) -> None:
    with pytest.raises(BadPositionError) as error:
        TicTacToeState.from_text(text)
    assert str(error.value) == message


def test_a_position_must_be_text() -> None:
    with pytest.raises(BadPositionError) as error:
        TicTacToeState.from_text(None)  # type: ignore[arg-type]
    assert str(error.value) == "a tic-tac-toe position is text, not NoneType"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("xxxooo...", "both x and o have three in a row"),
        ("ooo......", "x has 0 marks and o has 3"),
        ("xxxxo.o..", "x has 4 marks and o has 2"),
        ("xxxoo.o..", "x has three in a row but o has moved since"),
        ("ooox.xx.x", "o has three in a row but x has moved since"),
    ],
)
def test_impossible_positions_say_why(text: str, words: str) -> None:
    with pytest.raises(BadPositionError) as error:
        TicTacToeState.from_text(text)
    assert words in str(error.value)
