"""A position repeated inside the search tree is a draw (twofold, as strong engines score it).

The chess state answers ``repeats_within(plies)`` (checked here move by move against the
game's key history), and every algorithm scores a repeated node 0: minimax is compared with
a reference negamax written here, which keeps its own path of positions, on endgames where
the losing side can run into repetitions; the pruning algorithms must still give minimax's
value on that tree.
"""

from __future__ import annotations

import pytest

from ai.engine import search
from ai.scores import INFINITY, terminal_score
from ai.settings import Limits, SearchSettings
from games import new_game
from games.chess_game import ChessState

SAME_TREE = dict(
    quiescence=False,
    solver_empties=0,
    check_extensions=False,
    null_move=False,
    late_move_reductions=False,
    quiescence_checks=False,
    see_pruning=False,
    futility_pruning=False,
    tt_megabytes=1,
    iterative_deepening=False,
    book=False,
)

ENDGAMES = [
    "8/8/8/8/8/2k5/8/K1Q5 b - - 0 1",  # queen up: black runs round the corner's squares
    "7k/8/6K1/8/8/8/8/R7 b - - 0 1",  # rook up, black king boxed on h8/g8
    "8/8/4k3/8/3K4/8/8/7r w - - 0 1",  # white a rook down, free to shuffle
]


def test_repeats_within_counts_only_positions_since_the_given_ply() -> None:
    state = ChessState.initial()
    for san in ("Nf3", "Nf6", "Ng1", "Ng8"):
        state.play(state.parse_move(san))
    assert state.repeats_within(4)  # the start position, four plies ago
    assert not state.repeats_within(3)  # ... is not within the last three
    state.play(state.parse_move("e4"))  # a pawn move: nothing before it can come back
    for san in ("e5", "Nf3", "Nf6", "Ng1", "Ng8"):
        state.play(state.parse_move(san))
    assert state.repeats_within(4) and not state.repeats_within(3)
    state.undo()
    assert not state.repeats_within(100)  # black's knight on f6 now: no earlier match
    state = ChessState.initial()
    for san in ("e4", "e5", "Nf3", "Nf6"):
        state.play(state.parse_move(san))
    key = state.key()
    state.play_null()
    state.play(state.parse_move("Ng8"))
    state.play_null()
    state.play(state.parse_move("Nf6"))
    assert state.key() == key and not state.repeats_within(100), "no repetition across a pass"


def test_repeats_within_ignores_the_en_passant_right_of_the_oldest_position() -> None:
    # After 1.e4 (no en passant capture possible: no black pawn beside e4) the position
    # occurs again after Nf3 Nf6 Ng1 Ng8: the key has no en passant part, a repetition.
    state = ChessState.initial()
    for san in ("e4", "Nf6", "Nf3", "Ng8", "Ng1"):
        state.play(state.parse_move(san))
    assert state.repeats_within(4)
    # After ...d5 next to a white pawn on e5, the en passant right makes it another position.
    state = ChessState.from_text("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3")
    for san in ("Nf3", "Nf6", "Ng1", "Ng8"):
        state.play(state.parse_move(san))
    assert not state.repeats_within(4)


def reference(state: ChessState, depth: int, ply: int, path: list[int], found: list[int] | None = None) -> float:
    """Negamax with EVAL at the horizon, a node whose key is on ``path`` (the positions from
    the root to its parent) scored 0."""
    key = state.key()
    if ply and key in path:
        if found is not None:
            found.append(ply)
        return 0.0
    if depth == 0 or state.is_terminal():
        return terminal_score(state, ply) if state.is_terminal() else state.evaluate(state.to_move())
    path.append(key)
    best = -INFINITY
    for move in state.legal_moves():
        state.play(move)
        best = max(best, -reference(state, depth - 1, ply + 1, path, found))
        state.undo()
    path.pop()
    return best


@pytest.mark.parametrize("fen", ENDGAMES)
def test_minimax_scores_a_repetition_inside_the_tree_as_a_draw(fen: str) -> None:
    depth = 4
    expected = reference(ChessState.from_text(fen), depth, 0, [])
    value = search(new_game("chess", fen), SearchSettings(algorithm="minimax", **SAME_TREE), Limits(depth=depth)).score.value
    assert value == expected


def test_the_endgames_reach_repetitions_within_the_depth() -> None:
    """Guards the tests here against trees without a repetition in them."""
    for fen in ENDGAMES:
        found: list[int] = []
        reference(ChessState.from_text(fen), 4, 0, [], found)
        assert len(found) > 10, fen


@pytest.mark.parametrize("algorithm", ["alphabeta", "pvs", "mtdf"])
@pytest.mark.parametrize("fen", ENDGAMES)
def test_pruning_algorithms_agree_with_minimax_on_repetitions(algorithm: str, fen: str) -> None:
    minimax = search(new_game("chess", fen), SearchSettings(algorithm="minimax", **SAME_TREE), Limits(depth=4)).score.value
    value = search(new_game("chess", fen), SearchSettings(algorithm=algorithm, **SAME_TREE), Limits(depth=4)).score.value
    assert value == minimax
