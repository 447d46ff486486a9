"""English draughts: perft against the literature, hand-checked rules, notation, EVAL.

Independent truths used here: Aart Bik's perft counts (tests/data/checkers/perft.json),
published problems whose legal moves were listed by another generator
(tests/data/checkers/problems.json), positions worked out by hand on the PDN diagram, and
optionally the pydraughts library (dev-only cross-check, skipped when it is not installed).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import get_game
from games.base import BadPositionError, IllegalMoveError
from games.base import perft as generic_perft
from games.checkers import (
    BLACK,
    DEFAULT_WEIGHTS,
    NO_PROGRESS_LIMIT,
    WHITE,
    CheckersMove,
    CheckersState,
    square_at,
    square_column,
    square_row,
)
from games.checkers.state import REPEATED_KEY

DATA = Path(__file__).resolve().parent.parent / "data" / "checkers"
PERFT = {int(depth): count for depth, count in json.loads((DATA / "perft.json").read_text())["perft"].items()}
PROBLEMS = json.loads((DATA / "problems.json").read_text())["problems"]
START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def names(state: CheckersState) -> list[str]:
    return sorted(state.move_name(move) for move in state.legal_moves())


def random_playout(seed: int, max_plies: int = 400) -> list[CheckersState]:
    """The states of one seeded random game (copies, start to end)."""
    rng = random.Random(seed)
    state = CheckersState.initial()
    states = [state.copy()]
    while not state.is_terminal() and len(states) < max_plies:
        state.play(rng.choice(state.legal_moves()))
        states.append(state.copy())
    return states


# --------------------------------------------------------------------------- registry
def test_registry_finds_checkers() -> None:
    game = get_game("checkers")
    assert game is CheckersState
    assert game.NAME == "checkers"
    assert game.PLAYER_NAMES == ("Black", "White")


def test_initial_position() -> None:
    state = CheckersState.initial()
    assert state.to_text() == START
    assert state.to_move() == BLACK
    assert names(state) == sorted(["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"])
    assert not state.is_terminal()
    assert state.termination_reason() == ""


def test_board_geometry_matches_the_pdn_diagram() -> None:
    # Square 1 sits in column 1 of the top row, 5 on the left edge, 29 bottom-left.
    assert (square_row(1), square_column(1)) == (0, 1)
    assert (square_row(4), square_column(4)) == (0, 7)
    assert (square_row(5), square_column(5)) == (1, 0)
    assert (square_row(29), square_column(29)) == (7, 0)
    assert all(square_at(square_row(s), square_column(s)) == s for s in range(1, 33))
    assert square_at(0, 0) is None and square_at(8, 1) is None


# ------------------------------------------------------------------------------ perft
@pytest.mark.parametrize("depth", range(1, 9))
def test_perft_matches_literature(depth: int) -> None:
    assert CheckersState.initial().perft(depth) == PERFT[depth]


@pytest.mark.parametrize("depth", range(1, 6))
def test_generic_perft_through_play_and_undo_agrees(depth: int) -> None:
    state = CheckersState.initial()
    before = (state.to_text(), state.key())
    assert generic_perft(state, depth) == PERFT[depth]
    assert (state.to_text(), state.key()) == before


@pytest.mark.parametrize("seed", [3, 17])
def test_override_perft_agrees_with_legal_moves_on_endgame_positions(seed: int) -> None:
    for state in random_playout(seed)[40::15]:
        if not state.is_terminal():
            assert state.perft(3) == generic_perft(state, 3), state.to_text()


@pytest.mark.slow
def test_perft_9_and_10() -> None:
    state = CheckersState.initial()
    assert state.perft(9) == PERFT[9]
    assert state.perft(10) == PERFT[10]


# ----------------------------------------------------------------------- rules by hand
def test_capture_is_mandatory() -> None:
    # Black man 14 can jump White's 18 to 23 (14 is r3 c2, 18 r4 c3, 23 r5 c4).
    state = CheckersState.from_text("B:W18,30:B1,14")
    assert names(state) == ["14x23"]
    with pytest.raises(IllegalMoveError, match=r"1-6 is not legal: a capture is mandatory \(14x23\)"):
        state.parse_move("1-6")
    assert state.noisy_moves() == state.legal_moves()


def test_free_choice_among_captures() -> None:
    # A single and a double capture: no majority rule, both are legal.
    state = CheckersState.from_text("B:W14,16,23:B9,11")
    assert names(state) == ["11x20", "9x18x27"]


def test_multi_jump_must_continue() -> None:
    state = CheckersState.from_text("B:W14,23:B9")
    assert names(state) == ["9x18x27"]
    move = state.parse_move("9x18x27")
    assert move == CheckersMove((9, 18, 27), (14, 23))
    with pytest.raises(IllegalMoveError, match=r"the capture must go on \(9x18x27\)"):
        state.parse_move("9x18")
    state.play(move)
    assert state.to_text() == "W:W:B27"
    assert state.is_terminal() and state.winner() == BLACK
    assert state.termination_reason() == "White has no pieces left"


def test_crowning_ends_the_move() -> None:
    # The man jumps 26 to be crowned on 31; a king could go on over 27 to 24, a new king may not.
    state = CheckersState.from_text("B:W26,27:B22")
    assert names(state) == ["22x31"]
    with pytest.raises(IllegalMoveError, match="a man crowned on 31 ends the move there"):
        state.parse_move("22x31x24")
    state.play(state.parse_move("22x31"))
    assert state.to_text() == "W:W27:BK31"
    assert state.piece_at(31) == (BLACK, True)
    king = CheckersState.from_text("B:W26,27:BK22")
    assert names(king) == ["22x31x24"]


def test_white_man_is_crowned_on_row_one() -> None:
    state = CheckersState.from_text("W:W6:B20")
    assert names(state) == ["6-1", "6-2"]
    state.play(state.parse_move("6-2"))
    assert state.to_text() == "B:WK2:B20"


def test_kings_move_backwards_men_do_not() -> None:
    assert names(CheckersState.from_text("B:W32:B18")) == ["18-22", "18-23"]
    assert names(CheckersState.from_text("B:W32:BK18")) == ["18-14", "18-15", "18-22", "18-23"]
    assert names(CheckersState.from_text("W:W14:B1")) == ["14-10", "14-9"]
    assert names(CheckersState.from_text("W:WK14:B1")) == ["14-10", "14-17", "14-18", "14-9"]
    with pytest.raises(IllegalMoveError, match="a black man moves only forward"):
        CheckersState.from_text("B:W32:B18").parse_move("18-14")


def test_king_captures_backwards() -> None:
    # Black king on 23 jumps the white man on 18 (up-left) to 14.
    assert names(CheckersState.from_text("B:W18:BK23")) == ["23x14"]
    assert names(CheckersState.from_text("B:W18:B23")) == ["23-26", "23-27"]


def test_side_without_moves_loses() -> None:
    blocked = CheckersState.from_text("B:W9,14:B5")  # 5 can only go to 9; the jump lands on 14
    assert blocked.legal_moves() == []
    assert blocked.is_terminal()
    assert blocked.utility(BLACK) == -1.0 and blocked.utility(WHITE) == 1.0
    assert blocked.winner() == WHITE
    assert blocked.termination_reason() == "Black is blocked: no legal move"
    empty = CheckersState.from_text("B:W9:B")
    assert empty.is_terminal() and empty.winner() == WHITE
    assert empty.termination_reason() == "Black has no pieces left"


def test_threefold_repetition_is_a_draw() -> None:
    state = CheckersState.from_text("B:WK32:BK1")
    cycle = ["1-6", "32-27", "6-1", "27-32"]
    for move in cycle:
        state.play(state.parse_move(move))
    assert not state.is_terminal()  # second occurrence only
    for move in cycle:
        state.play(state.parse_move(move))
    assert state.is_terminal()
    assert state.termination_reason() == "threefold repetition"
    assert state.utility(BLACK) == state.utility(WHITE) == 0.0 and state.winner() is None
    assert state.legal_moves() == []
    state.undo()
    assert not state.is_terminal()


def test_forty_move_rule_after_eighty_king_plies() -> None:
    """Kings wander without repeating a position three times and without allowing a
    capture: the 80th such ply ends the game as a draw."""
    state = CheckersState.from_text("B:WK31,K32:BK1,K2")
    seen = Counter([state.key()])
    plies = 0
    while not state.is_terminal():

        def score(move: CheckersMove) -> tuple[bool, int]:
            child = state.result(move)
            return bool(child.noisy_moves()), seen[child.key()]

        state.play(min(state.legal_moves(), key=score))
        seen[state.key()] += 1
        plies += 1
    assert plies == NO_PROGRESS_LIMIT == 80
    assert max(seen.values()) < 3
    assert state.termination_reason() == "40-move rule: 40 moves each without a capture or a man move"
    assert state.utility(BLACK) == 0.0 and state.legal_moves() == []


def test_man_move_and_capture_reset_the_forty_move_counter() -> None:
    state = CheckersState(*_boards("B:W30:BK1,9"), no_progress_plies=NO_PROGRESS_LIMIT - 2)
    state.play(state.parse_move("1-6"))
    assert state.no_progress_plies == NO_PROGRESS_LIMIT - 1 and not state.is_terminal()
    state.play(state.parse_move("30-26"))  # a man move
    assert state.no_progress_plies == 0
    capture = CheckersState(*_boards("B:W14:B9,K1"), no_progress_plies=50)
    capture.play(capture.parse_move("9x18"))
    assert capture.no_progress_plies == 0


def test_a_win_on_the_eightieth_ply_beats_the_forty_move_draw() -> None:
    # White's king steps 13-9 and blocks Black's last man on 5 (its jump would land on 14).
    state = CheckersState(*_boards("W:WK13,14:B5"), no_progress_plies=NO_PROGRESS_LIMIT - 1)
    state.play(state.parse_move("13-9"))
    assert state.no_progress_plies == NO_PROGRESS_LIMIT
    assert state.is_terminal() and state.winner() == WHITE
    assert state.termination_reason() == "Black is blocked: no legal move"


def _boards(text: str) -> tuple[int, int, int, int]:
    state = CheckersState.from_text(text)
    return state.black, state.white, state.kings, state.player


def test_duplicate_king_tours_are_distinct_moves() -> None:
    # King on 10 circles the four white men clockwise or anticlockwise, back to 10.
    state = CheckersState.from_text("B:W14,15,22,23:BK10")
    assert names(state) == ["10x17x26x19x10", "10x19x26x17x10"]
    first, second = state.legal_moves()
    assert set(first.captured) == set(second.captured) == {14, 15, 22, 23}
    assert state.result(first).to_text() == state.result(second).to_text() == "W:W:BK10"
    assert state.perft(1) == 2
    with pytest.raises(IllegalMoveError, match="10x10 is ambiguous"):
        state.parse_move("10x10")


# ------------------------------------------------------------------------ move text
def test_move_text_forms() -> None:
    state = CheckersState.from_text("B:W6,7,14,15:B2")
    assert names(state) == ["2x11x18", "2x9x18"]
    assert state.parse_move("2-9-18") == state.parse_move("2x9x18") == CheckersMove((2, 9, 18), (6, 14))
    assert state.parse_move(" 2X11x18 ") == CheckersMove((2, 11, 18), (7, 15))
    with pytest.raises(IllegalMoveError, match="2x18 is ambiguous: it could be 2x9x18 or 2x11x18"):
        state.parse_move("2x18")
    single = CheckersState.from_text("B:W14,23:B9")
    assert single.parse_move("9x27") == CheckersMove((9, 18, 27), (14, 23))
    assert single.parse_move("9-27") == single.parse_move("9x27")  # the older literature's form


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("11x15", "11x15 is not a capture (nothing is jumped): write 11-15"),
        ("11X16", "11X16 is not a capture (nothing is jumped): write 11-16"),
        (" 9 x 14 ", "9 x 14 is not a capture (nothing is jumped): write 9-14"),
    ],
)
def test_x_for_a_plain_step_is_refused(text: str, message: str) -> None:
    state = CheckersState.initial()
    with pytest.raises(IllegalMoveError) as error:
        state.parse_move(text)
    assert str(error.value) == message
    assert state.parse_move(message.rsplit(" ", 1)[1]) in state.legal_moves()


def test_a_step_written_as_x_when_a_capture_is_due_says_the_capture_is_mandatory() -> None:
    state = CheckersState.from_text("B:W14,25:B9,10")
    with pytest.raises(IllegalMoveError) as error:
        state.parse_move("10x15")
    assert str(error.value) == "10x15 is not legal: a capture is mandatory (9x18 or 10x17)"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("11-15", "there is no black piece on 11"),
        ("33-29", "square 33 does not exist"),
        ("0-5", "square 0 does not exist"),
        ("21-17", r"there is no black piece on 21 \(it holds a white man\)"),
        ("9-13-17", "only a capture can take more than one step"),
        ("9-18", "there is no white piece on 14 to jump"),
        ("9-5", "a black man moves only forward"),
        ("9-22", "22 is neither a diagonal step nor a jump away from 9"),
        ("e3-f4", "is not a move"),
        ("11", "is not a move"),
        ("", "is not a move"),
    ],
)
def test_illegal_move_messages(text: str, message: str) -> None:
    state = CheckersState.from_text("B:W21,25:B9,10")
    with pytest.raises(IllegalMoveError, match=message):
        state.parse_move(text)


def test_occupied_destination_and_game_over_messages() -> None:
    state = CheckersState.initial()
    with pytest.raises(IllegalMoveError, match="square 6 is occupied"):
        state.parse_move("1-6")
    over = CheckersState.from_text("B:W9,14:B5")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        over.parse_move("5-9")


def test_play_checked_rejects_without_changing_the_state() -> None:
    state = CheckersState.initial()
    with pytest.raises(IllegalMoveError):
        state.play_checked(CheckersMove((9, 18), (14,)))
    assert state.to_text() == START


# ------------------------------------------------------------------------ positions
@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("B:W21-32:B1-12", START),
        ('[FEN "B:W21-32:B1-12"]', START),
        ("B:B1,2,3,4,5,6,7,8,9,10,11,12:W21,22,23,24,25,26,27,28,29,30,31,32.", START),
        (" w : wk5 , 18 : b2 , K30 ", "W:WK5,18:B2,K30"),
        ("W:WK29-32:BK1-4", "W:WK29,K30,K31,K32:BK1,K2,K3,K4"),
        ("B:W:B1", "B:W:B1"),
    ],
)
def test_position_text_forms(text: str, canonical: str) -> None:
    assert CheckersState.from_text(text).to_text() == canonical


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("B:W33:B1", "square 33 does not exist"),
        ("B:W5:B5", "square 5 is listed for both sides"),
        ("B:W5,5:B1", "square 5 is listed twice for white"),
        ("B:W1:B9", "a white man cannot stand on square 1: white men are crowned on 1-4"),
        ("B:W21:B30", "a black man cannot stand on square 30"),
        ("B:W9-21:B1", "white has 13 pieces; a side has at most 12"),
        ("X:W21:B1", "the side to move must be B or W"),
        ("B:W21", "the black piece list is missing"),
        ("B:W21:B1:W22", "the white pieces are listed twice"),
        ("B:W21,,22:B1", "empty entry"),
        ("B:W21:Q1", "each piece list starts with W or B"),
        ("B:W21:B5-3", "runs backwards"),
        ("B:Wx:B1", "is not a square"),
        ("", "empty position text"),
    ],
)
def test_bad_positions_are_explained(text: str, message: str) -> None:
    with pytest.raises(BadPositionError, match=message):
        CheckersState.from_text(text)


def test_kings_may_stand_on_any_row() -> None:
    state = CheckersState.from_text("B:WK1:BK32")
    assert state.pieces() == {1: (WHITE, True), 32: (BLACK, True)}


# ------------------------------------------------------------------------ problems
@pytest.mark.parametrize("problem", PROBLEMS, ids=[problem["id"] for problem in PROBLEMS])
def test_problem_positions_parse_with_their_published_moves(problem: dict[str, Any]) -> None:
    state = CheckersState.from_text(str(problem["fen"]))
    assert state.to_move() == (BLACK if problem["to_move"] == "black" else WHITE)
    assert names(state) == sorted(problem["legal_moves"])
    for key_move in problem["key"]:
        move = state.parse_move(key_move)
        assert move in state.legal_moves()
    assert CheckersState.from_text(state.to_text()).to_text() == state.to_text()


# ------------------------------------------------------------------------ hashing
def test_key_covers_side_to_move_and_kings() -> None:
    assert CheckersState.from_text("B:W21:B1").key() != CheckersState.from_text("W:W21:B1").key()
    assert CheckersState.from_text("B:W21:B1").key() != CheckersState.from_text("B:WK21:B1").key()
    assert CheckersState.from_text("B:W21:B1").key() != CheckersState.from_text("B:W22:B1").key()


def test_copy_is_independent() -> None:
    state = CheckersState.initial()
    clone = state.copy()
    clone.play(clone.legal_moves()[0])
    assert state.to_text() == START and clone.to_text() != START
    clone.undo()
    assert clone.key() == state.key()


# ----------------------------------------------------------------------- knowledge
def test_noisy_moves_and_capture_scores() -> None:
    quiet = CheckersState.initial()
    assert quiet.noisy_moves() == []
    assert all(quiet.capture_score(move) == 0 for move in quiet.legal_moves())
    # 9 jumps two men (14, 23); 11 jumps the king on 16.
    state = CheckersState.from_text("B:W14,K16,23:B9,11")
    scores = {state.move_name(move): state.capture_score(move) for move in state.noisy_moves()}
    men, kings = DEFAULT_WEIGHTS["men"], DEFAULT_WEIGHTS["kings"]
    assert scores == {"9x18x27": int(2 * men), "11x20": int(kings)}  # whole units


def test_evaluate_is_the_sum_of_its_features_and_antisymmetric() -> None:
    for state in random_playout(5)[::7]:
        for player in (BLACK, WHITE):
            features = state.evaluation_features(player)
            assert set(features) == set(DEFAULT_WEIGHTS)
            total = sum(weight * value for weight, value in features.values())
            assert state.evaluate(player) == pytest.approx(total)
        assert state.evaluate(BLACK) == pytest.approx(-state.evaluate(WHITE))


def test_evaluation_sanity() -> None:
    assert CheckersState.initial().evaluate(BLACK) == 0.0
    up_a_man = CheckersState.from_text("B:W21-31:B1-12")
    assert up_a_man.evaluate(BLACK) > 50 and up_a_man.evaluate(WHITE) < -50
    man_versus_king = CheckersState.from_text("B:WK30:B3")
    assert man_versus_king.evaluate(WHITE) > 0
    king, man = CheckersState.from_text("B:W29:BK15"), CheckersState.from_text("B:W29:B15")
    assert king.evaluate(BLACK) > man.evaluate(BLACK)


def test_runaway_men_are_recognised() -> None:
    # Black's 19 (row 4, column 5) and White's 14 (row 3, column 2) are three rows from
    # crowning and behind each other: one runaway each. White's 27 (row 6, column 5) then
    # stands in 19's forward cone.
    state = CheckersState.from_text("B:W14:B19")
    assert state.evaluation_features(BLACK)["runaway"][1] == 0
    blocked = CheckersState.from_text("B:W14,27:B19")
    assert blocked.evaluation_features(BLACK)["runaway"][1] == -1
    # A man further back is not counted, however empty the board in front of it.
    assert CheckersState.from_text("B:W32:B1").evaluation_features(BLACK)["runaway"][1] == 0
    assert CheckersState.from_text("B:W32:B17").evaluation_features(BLACK)["runaway"][1] == 1


# -------------------------------------------------------------- property tests
VALID_TEXTS = [START, "W:WK5,18:B2,K30", "B:W14,15,22,23:BK10", "W:W12,15,16,25,30,32:B3,7,9,14,18,24"]


@st.composite
def mutated_texts(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(VALID_TEXTS))
    for _ in range(draw(st.integers(1, 4))):
        position = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        char = draw(st.sampled_from(list("0123456789:,-KkBWx. ")))
        if action == "insert":
            text = text[:position] + char + text[position:]
        elif action == "delete":
            text = text[:position] + text[position + 1 :]
        else:
            text = text[:position] + char + text[position + 1 :]
    return text


@settings(deadline=None, max_examples=300)
@given(st.one_of(st.text(max_size=40), mutated_texts()))
def test_from_text_never_crashes(text: str) -> None:
    try:
        state = CheckersState.from_text(text)
    except BadPositionError:
        return
    assert CheckersState.from_text(state.to_text()).to_text() == state.to_text()


@settings(deadline=None, max_examples=300)
@given(
    st.one_of(
        st.text(max_size=20),
        st.lists(st.integers(-3, 40), min_size=1, max_size=5).map(lambda squares: "x".join(map(str, squares))),
        st.lists(st.integers(1, 32), min_size=2, max_size=3).map(lambda squares: "-".join(map(str, squares))),
    ),
    st.sampled_from(VALID_TEXTS),
)
def test_parse_move_never_crashes(text: str, position: str) -> None:
    state = CheckersState.from_text(position)
    try:
        move = state.parse_move(text)
    except IllegalMoveError:
        return
    assert move in state.legal_moves()


@settings(deadline=None, max_examples=25)
@given(st.integers(0, 2**32))
def test_random_playouts_undo_and_keys(seed: int) -> None:
    rng = random.Random(seed)
    state = CheckersState.initial()
    seen = {state.to_text()}  # positions since the last capture or man move
    # The 40-move rule bounds every game; the cap only guards against a rules bug.
    for _ in range(20_000):
        if state.is_terminal():
            break
        before = (state.key(), state.to_text(), state.no_progress_plies)
        move = rng.choice(state.legal_moves())
        state.play(move)
        text = state.to_text()
        if state.no_progress_plies == 0:
            seen = set()
        # The key is the position's, marked when the position occurred before.
        mark = REPEATED_KEY if text in seen else 0
        seen.add(text)
        assert state.key() == CheckersState.from_text(text).key() ^ mark
        state.undo()
        assert (state.key(), state.to_text(), state.no_progress_plies) == before
        state.play(move)
    assert state.is_terminal()
    assert state.termination_reason() != ""
    assert state.utility(BLACK) == -state.utility(WHITE)


@settings(deadline=None, max_examples=15)
@given(st.integers(0, 2**32))
def test_round_trips_on_playout_positions(seed: int) -> None:
    for state in random_playout(seed)[::3]:
        text = state.to_text()
        assert CheckersState.from_text(text).to_text() == text
        for move in state.legal_moves():
            assert state.parse_move(state.move_name(move)) == move


# --------------------------------------------------------- optional cross-check
def test_legal_moves_agree_with_pydraughts() -> None:
    """An independent generator (pydraughts, variant "english", from the ``test`` extra)
    agrees move for move on positions from random playouts."""
    draughts = pytest.importorskip("draughts")
    rng = random.Random(2024)
    checked = 0
    for seed in range(12):
        for state in random_playout(rng.randrange(10**9))[::4]:
            if state.is_terminal():
                continue
            board = draughts.Board(variant="english", fen=state.to_text())
            theirs = sorted(tuple(move.steps_move) for move in board.legal_moves())
            assert sorted(move.path for move in state.legal_moves()) == theirs, state.to_text()
            checked += 1
    assert checked > 100


def test_a_repeated_position_has_its_own_key() -> None:
    # Kings shuffle 1-6, 32-27, 6-1, 27-32: the start comes back, marked; its third
    # occurrence is a draw.
    state = CheckersState.from_text("B:WK32:BK1")
    first = state.key()
    for text in ("1-6", "32-27", "6-1", "27-32"):
        state.play(state.parse_move(text))
    assert state.key() == first ^ REPEATED_KEY and not state.is_terminal()
    state.undo()
    state.play(state.parse_move("27-32"))
    assert state.key() == first ^ REPEATED_KEY
    for text in ("1-6", "32-27", "6-1", "27-32"):
        state.play(state.parse_move(text))
    assert state.is_terminal() and state.termination_reason() == "threefold repetition"
