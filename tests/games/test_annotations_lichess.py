"""Chess marks against Lichess's own analysis of a real game.

The game is lichess.org/Qxub20cY (blitz, 2024-07-20), as Lichess's API exports it with its
server analysis: the evaluation after every move (White's view, centipawns or mate) and
Lichess's judgement of every move it judged, with the per-player counts (White: 1
inaccuracy, 2 mistakes, 4 blunders; Black: 2, 2, 2) and average centipawn losses (88, 51). Fed the same evaluations (the one
before a move as the best value, the one after it as the played one, Lichess's +0.15 before
the first), the chess scale must judge every one of the 52 moves as Lichess did, and say
the mate it walks into in Lichess's words."""

from __future__ import annotations

import pytest

from games.annotations import CHESS_SCALE, GameReview, Mark, ReviewSettings, Value, make_move_review

MOVES = (
    "d4 e6 c4 Nf6 Nc3 Bb4 Qc2 Bxc3+ Qxc3 O-O Nf3 d5 Bg5 Nbd7 e3 c5 cxd5 cxd4 Nxd4 exd5 Bd3 Qe7 O-O h6 "
    "Bh4 Ne5 Bc2 g5 Bg3 Ne4 Bxe4 dxe4 Rfd1 h5 h3 Nd3 f3 f5 Rf1 g4 fxe4 fxe4 Rxf8+ Kxf8 Rf1+ Kg8 Bf4 "
    "gxh3 gxh3 Bxh3 Rd1 Qg7+"
).split()
EVALS: list[int | str] = [
    16, 30, 17, 11, 0, 17, 1, 51, 38, 55, 39, 46, 30, 60, 71, 119, 119, 116, 118, 119, 62, 103, 107, 100,
    109, 98, 104, 172, 162, 350, 326, 333, 85, 295, 158, 157, 134, 232, 92, 253, 249, 514, 537, 630, 602,
    552, 78, 73, -106, -123, "#-3", "#-2",
]
"""Lichess's evaluation after each move: centipawns, or "#N" (mate in N, White's view)."""
JUDGED = {
    20: ("Inaccuracy", "Rc1"), 27: ("Inaccuracy", "Bd7"), 29: ("Mistake", "Nh5"), 32: ("Blunder", "Nb5"),
    33: ("Blunder", "Bg4"), 34: ("Mistake", "Nb5"), 37: ("Inaccuracy", "h4"), 38: ("Mistake", "fxe4"),
    39: ("Mistake", "h4"), 41: ("Blunder", "Qxe4"), 46: ("Blunder", "Qc4+"), 48: ("Blunder", "Bg5"),
    50: ("Blunder", "Kh2"),
}
"""Lichess's judgement of a ply (from 0) and the move it gave as best."""
LICHESS_COMMENT_50 = "Checkmate is now unavoidable. Kh2 was best."


def value(evaluation: int | str, mover: int) -> Value:
    """Lichess's evaluation (White's view) as the mover's ``Value``."""
    sign = 1 if mover == 0 else -1
    if isinstance(evaluation, str):
        mate = int(evaluation[1:])
        plies = 2 * abs(mate) - 1
        winner = sign * (1 if mate > 0 else -1)
        return Value(winner * (1_000_000 - plies), winner * plies)
    return Value(sign * evaluation)


def reviewed() -> GameReview:
    moves = []
    before: int | str = 15  # lila Eval.Cp.initial
    for ply, (name, after) in enumerate(zip(MOVES, EVALS, strict=True)):
        mover = ply % 2
        best_move = JUDGED.get(ply, ("", name))[1]
        moves.append(make_move_review(CHESS_SCALE, ply=ply, mover=mover, move=name, played=value(after, mover),
                                      best=value(before, mover), best_move=best_move))
        before = after
    return GameReview("chess", ReviewSettings("stockfish"), tuple(moves), CHESS_SCALE)


@pytest.mark.parametrize("ply", range(len(MOVES)))
def test_every_move_is_judged_as_lichess_judged_it(ply: int) -> None:
    move = reviewed().moves[ply]
    expected = JUDGED.get(ply, (None, ""))[0]
    assert (move.mark.word if move.mark.is_error else None) == expected, (ply, MOVES[ply], move)


def test_each_sides_counts_and_centipawn_loss_are_lichess_figures() -> None:
    white, black = reviewed().summaries()
    assert (white.inaccuracies, white.mistakes, white.blunders) == (1, 2, 4)
    assert (black.inaccuracies, black.mistakes, black.blunders) == (2, 2, 2)
    assert white.centipawn_loss is not None and black.centipawn_loss is not None
    assert (round(white.centipawn_loss), round(black.centipawn_loss)) == (88, 51)  # Lichess's "acpl"


def test_comments_are_in_lichess_words() -> None:
    review = reviewed()
    assert review.comment(review.moves[50]) == LICHESS_COMMENT_50
    assert review.comment(review.moves[20]) == "Inaccuracy. Rc1 was best."
    assert review.moves[50].mark is Mark.BLUNDER and review.moves[50].mark.nag == 4
