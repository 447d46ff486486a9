"""The review's better move on every board: drawn where the move goes, in its own colour
(not the engine's arrow), and gone when cleared; the move list's marks and the eval graph's
dots as the review gives them."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QImage

from ai.events import Score
from games import new_game
from gui.boards import board_for
from gui.panels.eval_graph import EvalGraph, GraphMark
from gui.panels.move_list import CellMark, MovePanel
from gui.theme import DARK, LIGHT

pytestmark = pytest.mark.usefixtures("qapp")


def shown(qtbot: Any, game: str, moves: list[str], theme: Any = LIGHT) -> Any:
    board = board_for(game)(theme)
    qtbot.addWidget(board)
    board.resize(420, 420)
    state = new_game(game)
    for name in moves:
        state.play(state.parse_move(name))
    board.set_state(state)
    return board


def image(board: Any) -> QImage:
    return board.grab().toImage()


def changed_near(before: QImage, after: QImage, point: QPointF, radius: int) -> list[QColor]:
    """The pixels within ``radius`` of ``point`` that differ between the two pictures."""
    ratio = before.devicePixelRatio()
    found = []
    cx, cy = int(point.x() * ratio), int(point.y() * ratio)
    for x in range(cx - radius, cx + radius + 1):
        for y in range(cy - radius, cy + radius + 1):
            if 0 <= x < before.width() and 0 <= y < before.height() and before.pixel(x, y) != after.pixel(x, y):
                found.append(after.pixelColor(x, y))
    return found


@pytest.mark.parametrize(
    ("game", "played", "better", "where"),
    [
        ("chess", ["e4", "e5", "Nf3"], "Nc6", lambda board, move: (board.point_of(move.from_square) + board.point_of(move.to_square)) / 2),
        ("checkers", ["11-15", "23-19"], "9-14", lambda board, move: (board.point_of(move.path[0]) + board.point_of(move.path[-1])) / 2),
    ],
)
def test_an_arrow_along_the_better_move(qtbot: Any, game: str, played: list[str], better: str, where: Any) -> None:
    board = shown(qtbot, game, played)
    before_state = new_game(game)
    for name in played:
        before_state.play(before_state.parse_move(name))
    move = before_state.parse_move(better)
    plain = image(board)
    board.set_review_move(move)
    assert board.review_move() == move
    marked = image(board)
    changes = changed_near(plain, marked, where(board, move), 3)
    assert changes, "nothing drawn on the arrow's shaft"
    board.set_review_move(None)
    assert image(board) == plain


@pytest.mark.parametrize(("game", "square"), [("othello", "c4"), ("tictactoe", "a1")])
def test_a_ring_on_a_one_square_move(qtbot: Any, game: str, square: str) -> None:
    board = shown(qtbot, game, [])
    move = new_game(game).parse_move(square)
    plain = image(board)
    board.set_review_move(move)
    marked = image(board)
    rect = board.square_rect(move)
    ring = QPointF(rect.center().x(), rect.top() + rect.height() * 0.11)  # on the ring, inside the square
    assert changed_near(plain, marked, ring, 3)
    board.set_review_move(None)
    assert image(board) == plain


def test_a_pass_has_no_square_to_draw(qtbot: Any) -> None:
    board = shown(qtbot, "othello", [])
    assert board.move_squares(64) == ()
    assert board.move_squares(-1) == ()
    assert board.move_squares(True) == ()


def test_the_review_colour_is_its_own_in_both_themes() -> None:
    for theme in (LIGHT, DARK):
        others = {theme.best_move_arrow, theme.annotation, theme.last_move}
        assert theme.review_move_arrow not in others
        review = theme.color("review_move_arrow")
        engine = theme.color("best_move_arrow")
        assert abs(review.hueF() - engine.hueF()) > 0.08  # violet against blue: told apart


def test_the_backgammon_board_draws_a_better_play_from_the_checkers_before(qtbot: Any) -> None:
    state = new_game("backgammon")
    while state.to_move() < 0:  # the opening roll
        state.play(state.chance_outcomes()[0][0])
    plays = state.legal_moves()
    played, better = plays[0], plays[-1]
    before = state.copy()
    state.play(played)
    board = board_for("backgammon")(LIGHT)
    qtbot.addWidget(board)
    board.resize(700, 480)
    board.set_state(state)
    board.set_last_move(played)
    plain = image(board)
    board.set_review_move(better)
    assert image(board) != plain
    assert before.move_name(better) != before.move_name(played)


def test_the_move_list_writes_marks_in_colour_and_says_the_comment(qtbot: Any) -> None:
    panel = MovePanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.moves.set_history([0, 1, 0, 1], ["e4", "e5", "Nf3", "Qh4"])
    panel.moves.set_marks({4: CellMark("??", "#df5353", "Qh4?? Blunder. Nc6 was best.")})
    assert panel.moves.item_texts() == ["e4", "e5", "Nf3", "Qh4??"]
    item = panel.moves.item(1, 1)
    assert item.foreground().color() == QColor("#df5353")
    assert item.toolTip() == "Qh4?? Blunder. Nc6 was best."
    assert panel.comment.text() == "Qh4?? Blunder. Nc6 was best." and panel.comment.isVisible()
    panel.moves.show_ply(2)
    assert not panel.comment.isVisible()
    panel.moves.set_history([0, 1, 0, 1, 0], ["e4", "e5", "Nf3", "Qh4", "Nxh4"])  # the game goes on: marks stay
    assert panel.moves.item_texts()[3] == "Qh4??"
    panel.moves.set_marks({})
    assert panel.moves.item_texts()[3] == "Qh4"


def test_the_graph_puts_a_dot_at_a_mark_and_a_click_near_it_goes_there(qtbot: Any) -> None:
    graph = EvalGraph()
    qtbot.addWidget(graph)
    graph.resize(400, 120)
    graph.set_game(type(new_game("chess")))
    graph.set_scores([Score(float(value), 0, None, 100.0) for value in [20, 30, 25, -600, -650] + [-650] * 95])
    plain = graph.grab().toImage()
    graph.set_marks({4: GraphMark("#df5353", "Blunder")})
    marked = graph.grab().toImage()
    assert plain != marked
    assert "Blunder" in graph.describe(4)
    x = graph.x_of(4) + 3  # nearer ply 5 than ply 4, on the dot
    assert graph.ply_at(x) != 4 and graph.mark_at(x) == 4
    with qtbot.waitSignal(graph.ply_clicked) as clicked:
        qtbot.mouseClick(graph, Qt.MouseButton.LeftButton, pos=QPointF(x, 60).toPoint())
    assert clicked.args == [4]



def test_a_mark_on_a_move_without_a_score_sits_on_the_curve(qtbot: Any) -> None:
    """A human's move has no engine score: its dot is where the curve passes (between the
    scored positions on either side), not on the middle line."""
    graph = EvalGraph()
    qtbot.addWidget(graph)
    graph.resize(400, 120)
    graph.set_game(type(new_game("chess")))
    graph.set_scores([Score(0.0, 0, None, 100.0), Score(-10.0, 0, None, 100.0), None, Score(-900.0, 0, None, 100.0)])
    plot = graph._plot_rect()
    y_before, y_after = graph._y_of(graph.scores[1], 1), graph._y_of(graph.scores[3], 3)
    assert graph._curve_y(2, plot) == pytest.approx((y_before + y_after) / 2)
    assert graph._curve_y(2, plot) != pytest.approx(plot.top() + plot.height() / 2)
