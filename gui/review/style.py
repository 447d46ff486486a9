"""How a review's marks look: the colours Lichess gives its move glyphs, so a Lichess player
reads them at once (lichess-org/lila, ``ui/common/css/theme/_glyph.scss``: inaccuracy
``#56b4e9``, mistake ``#e69f00``, blunder ``#df5353``). The three stand out on white and on
the dark theme's panels alike, so one set serves both themes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.annotations import GameReview, Mark, MoveReview
from gui.panels.eval_graph import GraphMark
from gui.panels.move_list import CellMark

MARK_COLOURS: Mapping[Mark, str] = {
    Mark.INACCURACY: "#56b4e9",
    Mark.MISTAKE: "#e69f00",
    Mark.BLUNDER: "#df5353",
}
"""The marks that are errors, with their colour; the others are written without one."""

ERROR_MARKS = tuple(MARK_COLOURS)
"""Inaccuracy, mistake, blunder: the marks counted per side and stepped through."""


def comment_text(word: str, review: MoveReview, move_text: str, best_line: Sequence[str]) -> str:
    """The review's words on an error, as the score sheet shows them under the list (Lichess's
    "Blunder. Nf3 was best." with the line): ``Qh5?? Blunder. Nf3 was best: Nf3 Nc6 Bb5``.
    ``word`` is the mark in the game's words (backgammon's "Very bad"); the names are the
    board's (``best_line``: the better move first)."""
    if review.mark not in MARK_COLOURS:
        return ""
    text = f"{move_text}{review.mark.symbol} {word}."
    if best_line and best_line[0] != move_text:
        text += f" {best_line[0]} was best"
        text += f": {' '.join(best_line)}" if len(best_line) > 1 else "."
    return text


def cell_marks(review: GameReview, comments: Mapping[int, str]) -> dict[int, CellMark]:
    """The score sheet's marks: every error, keyed by the position after it (ply + 1)."""
    marks: dict[int, CellMark] = {}
    for move in review.moves:
        colour = MARK_COLOURS.get(move.mark)
        if colour is not None:
            marks[move.ply + 1] = CellMark(move.mark.symbol, colour, comments.get(move.ply + 1, ""))
    return marks


def graph_marks(review: GameReview) -> dict[int, GraphMark]:
    """The eval graph's dots: every error, keyed by the position after the move (Lichess's
    analysis chart marks the same three, ``ui/chart/src/acpl.ts``)."""
    return {
        move.ply + 1: GraphMark(MARK_COLOURS[move.mark], move.mark.word)
        for move in review.moves
        if move.mark in MARK_COLOURS
    }
