"""The boards, driven like a person drives them: simulated clicks and drags.

Every game is played to its end through the board's mouse input against an opponent whose
moves are applied to the state directly (the session and engine are not the board's job),
and each ``move_requested`` must carry exactly the legal move that was meant.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import chess
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from games import GameState, new_game
from games.checkers import CheckersMove
from games.othello import PASS
from gui.boards import BOARD_API, BOARD_MODULES, board_for
from gui.boards.base import BoardWidget, GridBoard
from gui.boards.checkers import CheckersBoard
from gui.boards.chess import ChessBoard
from gui.boards.othello import OthelloBoard
from gui.boards.tictactoe import TicTacToeBoard
from gui.resources import load_fonts
from gui.theme import DARK, LIGHT

BOARD_SIDE = 400
GRID_GAMES = ("tictactoe", "checkers", "chess", "othello")
LEFT = Qt.MouseButton.LeftButton
RIGHT = Qt.MouseButton.RightButton


def at(point: QPointF) -> QPoint:
    return QPoint(round(point.x()), round(point.y()))


def make_board(qtbot: QtBot, game: str, state: GameState | None = None) -> GridBoard:
    load_fonts()
    board = board_for(game)()
    assert isinstance(board, GridBoard)
    qtbot.addWidget(board)
    board.resize(BOARD_SIDE, BOARD_SIDE)
    board.show()
    qtbot.waitExposed(board)
    board.set_state(state if state is not None else new_game(game))
    return board


class Recorder:
    """Collects what a board emits."""

    def __init__(self, board: BoardWidget) -> None:
        self.moves: list[object] = []
        self.positions: list[GameState] = []
        board.move_requested.connect(self.moves.append)
        board.position_edited.connect(self.positions.append)


def click(qtbot: QtBot, board: GridBoard, square: object, button: Qt.MouseButton = LEFT) -> None:
    qtbot.mouseClick(board, button, pos=at(board.point_of(square)))


def drag(qtbot: QtBot, board: GridBoard, origin: object, target: object) -> None:
    start, end = board.point_of(origin), board.point_of(target)
    qtbot.mousePress(board, LEFT, pos=at(start))
    middle = QPointF((start.x() + end.x()) / 2, (start.y() + end.y()) / 2 + 3)
    qtbot.mouseMove(board, pos=at(middle))
    qtbot.mouseMove(board, pos=at(end))
    qtbot.mouseRelease(board, LEFT, pos=at(end))


def play_out(state: GameState, board: GridBoard, human: int, seed: int) -> Iterator[object]:
    """Yield the human's chosen moves; play the opponent's random moves on the state."""
    rng = random.Random(seed)
    while not state.is_terminal():
        moves = state.legal_moves()
        if state.to_move() == human:
            yield rng.choice(moves)
        else:
            move = rng.choice(moves)
            state.play(move)
            board.set_state(state)
            board.set_last_move(move)


# ---------------------------------------------------------------------- registry
def test_registry_names_every_game_and_refuses_unknown_ones() -> None:
    for game in GRID_GAMES:
        assert issubclass(board_for(game), GridBoard)
    assert set(BOARD_MODULES) == {"tictactoe", "checkers", "chess", "othello", "backgammon"}
    with pytest.raises(ValueError, match="no board for 'go'"):
        board_for("go")


# ------------------------------------------------------------------------- chess
def test_chess_complete_game_by_drag(qtbot: QtBot) -> None:
    state = new_game("chess")
    board = make_board(qtbot, "chess", state)
    assert isinstance(board, ChessBoard)
    recorder = Recorder(board)
    promotions = castlings = 0
    for move in play_out(state, board, human=0, seed=6):  # a seed whose game has a promotion
        assert isinstance(move, chess.Move)
        target = move.to_square
        if state.board.is_castling(move) and castlings % 2 == 1:
            target = chess.H1 if chess.square_file(move.to_square) == 6 else chess.A1  # onto the rook
        drag(qtbot, board, move.from_square, target)
        if move.promotion:
            assert board.is_promotion_pending() and not recorder.moves
            cell = dict(board.promotion_rects())[move.promotion]
            qtbot.mouseClick(board, LEFT, pos=at(cell.center()))
            promotions += 1
        castlings += state.board.is_castling(move)
        assert recorder.moves == [move]
        recorder.moves.clear()
        state.play(move)
        board.set_state(state)
        board.set_last_move(move)
    assert state.is_terminal()
    assert promotions >= 1 and castlings >= 1


def test_chess_click_click_and_second_click_lets_go(qtbot: QtBot) -> None:
    board = make_board(qtbot, "chess")
    assert isinstance(board, ChessBoard)
    recorder = Recorder(board)
    click(qtbot, board, chess.G1)
    assert board.selected_square() == chess.G1
    assert set(board.destinations(chess.G1)) == {chess.F3, chess.H3}
    click(qtbot, board, chess.G1)
    assert board.selected_square() is None
    click(qtbot, board, chess.E2)
    click(qtbot, board, chess.E5)  # not a destination: nothing is played
    assert recorder.moves == [] and board.selected_square() is None
    click(qtbot, board, chess.E2)
    click(qtbot, board, chess.E4)
    assert recorder.moves == [chess.Move.from_uci("e2e4")]


def test_chess_castling_by_two_squares_or_onto_the_rook(qtbot: QtBot) -> None:
    fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
    board = make_board(qtbot, "chess", new_game("chess", fen))
    recorder = Recorder(board)
    drag(qtbot, board, chess.E1, chess.G1)
    click(qtbot, board, chess.E1)
    click(qtbot, board, chess.A1)
    drag(qtbot, board, chess.E1, chess.C1)
    assert recorder.moves == [chess.Move.from_uci(uci) for uci in ("e1g1", "e1c1", "e1c1")]


def test_chess_promotion_chooser_picks_and_cancels(qtbot: QtBot) -> None:
    board = make_board(qtbot, "chess", new_game("chess", "8/4P1k1/8/8/8/8/5K2/8 w - - 0 1"))
    assert isinstance(board, ChessBoard)
    recorder = Recorder(board)
    drag(qtbot, board, chess.E7, chess.E8)
    assert board.is_promotion_pending()
    assert [piece for piece, _ in board.promotion_rects()] == [chess.QUEEN, chess.KNIGHT, chess.ROOK, chess.BISHOP]
    click(qtbot, board, chess.A1)  # outside the chooser: cancelled
    assert not board.is_promotion_pending() and recorder.moves == []
    drag(qtbot, board, chess.E7, chess.E8)
    knight = dict(board.promotion_rects())[chess.KNIGHT]
    qtbot.mouseClick(board, LEFT, pos=at(knight.center()))
    assert recorder.moves == [chess.Move.from_uci("e7e8n")]


def test_chess_flip_maps_clicks_to_the_turned_board(qtbot: QtBot) -> None:
    board = make_board(qtbot, "chess")
    recorder = Recorder(board)
    board.set_flipped(True)
    grid = board.grid()
    # Flipped, h1 is top-left: file e is the 4th column from the left, rank 2 the 2nd row.
    e2 = QPointF(grid.left + 3.5 * grid.square, grid.top + 1.5 * grid.square)
    e4 = QPointF(grid.left + 3.5 * grid.square, grid.top + 3.5 * grid.square)
    qtbot.mouseClick(board, LEFT, pos=at(e2))
    qtbot.mouseClick(board, LEFT, pos=at(e4))
    assert recorder.moves == [chess.Move.from_uci("e2e4")]


def test_chess_not_interactive_ignores_the_mouse(qtbot: QtBot) -> None:
    board = make_board(qtbot, "chess")
    recorder = Recorder(board)
    board.set_interactive(False)
    drag(qtbot, board, chess.E2, chess.E4)
    click(qtbot, board, chess.E2)
    click(qtbot, board, chess.E4)
    assert recorder.moves == []


def tool_point(board: GridBoard, tool: str) -> QPoint:
    return at(dict(board.edit_tool_rects())[tool].center())


def test_chess_edit_mode_places_removes_and_sets_the_side_to_move(qtbot: QtBot) -> None:
    board = make_board(qtbot, "chess")
    recorder = Recorder(board)
    board.set_edit_mode(True)
    qtbot.mouseClick(board, LEFT, pos=tool_point(board, "erase"))
    click(qtbot, board, chess.D2)
    qtbot.mouseClick(board, LEFT, pos=tool_point(board, "Q"))
    click(qtbot, board, chess.D4)
    click(qtbot, board, chess.H1, RIGHT)  # right-click empties a square: White loses h1 castling
    qtbot.mouseClick(board, LEFT, pos=tool_point(board, "turn"))
    assert recorder.positions[-1].to_text() == "rnbqkbnr/pppppppp/8/8/3Q4/8/PPP1PPPP/RNBQKBN1 b Qkq - 0 1"
    count = len(recorder.positions)
    click(qtbot, board, chess.E1, RIGHT)  # no white king: not a position
    assert len(recorder.positions) == count and "king" in board.edit_problem()
    assert recorder.moves == []
    board.set_edit_mode(False)
    assert board.state().to_text() == recorder.positions[-1].to_text()


# ---------------------------------------------------------------------- checkers
def test_checkers_complete_game_hop_by_hop(qtbot: QtBot) -> None:
    state = new_game("checkers")
    board = make_board(qtbot, "checkers", state)
    assert isinstance(board, CheckersBoard)
    recorder = Recorder(board)
    multi_jumps = 0
    for move in play_out(state, board, human=0, seed=3):
        assert isinstance(move, CheckersMove)
        if move.is_capture:
            assert move.origin in board.forced_capture_squares()
        click(qtbot, board, move.origin)
        for square in move.path[1:]:
            if recorder.moves:
                break
            assert square in board.next_hops()
            click(qtbot, board, square)
        multi_jumps += len(move.captured) > 1
        assert recorder.moves == [move]
        recorder.moves.clear()
        state.play(move)
        board.set_state(state)
        board.set_last_move(move)
    assert state.is_terminal()
    assert multi_jumps >= 1


def test_checkers_multi_jump_shows_only_continuations(qtbot: QtBot) -> None:
    fen = "B:W15,21,22,23,24,25,27,29,30,31,32:B1,2,3,4,5,6,10,12,14,16,20"
    board = make_board(qtbot, "checkers", new_game("checkers", fen))
    assert isinstance(board, CheckersBoard)
    recorder = Recorder(board)
    assert board.forced_capture_squares() == {10}
    click(qtbot, board, 14)  # cannot move while a capture is due
    assert board.entered_path() == ()
    click(qtbot, board, 10)
    assert board.next_hops() == {19}
    click(qtbot, board, 19)
    assert recorder.moves == [] and board.entered_path() == (10, 19)
    assert board.next_hops() == {26, 28}
    click(qtbot, board, 28)
    assert [str(move) for move in recorder.moves] == [str(CheckersMove((10, 19, 28), (15, 24)))]


def test_checkers_final_square_alone_when_one_path_leads_there(qtbot: QtBot) -> None:
    board = make_board(qtbot, "checkers", new_game("checkers", "W:WK18:B8,12,K15,16,24"))
    recorder = Recorder(board)
    click(qtbot, board, 18)
    click(qtbot, board, 4)
    assert recorder.moves == [CheckersMove((18, 11, 4), (15, 8))]


def test_checkers_flipped_board_maps_clicks(qtbot: QtBot) -> None:
    board = make_board(qtbot, "checkers")
    recorder = Recorder(board)
    board.set_flipped(True)
    grid = board.grid()
    # Unflipped, square 11 is row 2, column 5 and 15 row 3, column 4; turned, (5, 2) and (4, 3).
    qtbot.mouseClick(board, LEFT, pos=at(QPointF(grid.left + 2.5 * grid.square, grid.top + 5.5 * grid.square)))
    qtbot.mouseClick(board, LEFT, pos=at(QPointF(grid.left + 3.5 * grid.square, grid.top + 4.5 * grid.square)))
    assert recorder.moves == [CheckersMove((11, 15))]


def test_checkers_edit_mode(qtbot: QtBot) -> None:
    board = make_board(qtbot, "checkers", new_game("checkers", "B:W32:B1"))
    recorder = Recorder(board)
    board.set_edit_mode(True)
    qtbot.mouseClick(board, LEFT, pos=tool_point(board, "W"))
    click(qtbot, board, 18)
    qtbot.mouseClick(board, LEFT, pos=tool_point(board, "turn"))
    assert recorder.positions[-1].to_text() == new_game("checkers", "W:W32,K18:B1").to_text()


# ------------------------------------------------------------------------ othello
def test_othello_complete_game_by_clicks(qtbot: QtBot) -> None:
    state = new_game("othello")
    board = make_board(qtbot, "othello", state)
    assert isinstance(board, OthelloBoard)
    recorder = Recorder(board)
    passes = 0
    for move in play_out(state, board, human=0, seed=5):
        if move == PASS:
            assert board.must_pass()  # the app announces and plays it; a click cannot
            passes += 1
        else:
            assert not board.must_pass()
            click(qtbot, board, move)
            assert recorder.moves == [move]
            recorder.moves.clear()
        state.play(move)
        board.set_state(state)
        board.set_last_move(move)
        if move != PASS:
            assert board.last_flipped()
    assert state.is_terminal()
    black, white = board.disc_counts()
    assert black + white == bin(state.black | state.white).count("1")


def test_othello_illegal_square_does_nothing(qtbot: QtBot) -> None:
    board = make_board(qtbot, "othello")
    recorder = Recorder(board)
    click(qtbot, board, 0)  # a1
    click(qtbot, board, 27)  # d4: taken
    assert recorder.moves == []
    click(qtbot, board, 19)  # d3
    assert recorder.moves == [19]


def test_othello_edit_cycles_squares_and_side(qtbot: QtBot) -> None:
    board = make_board(qtbot, "othello")
    recorder = Recorder(board)
    board.set_edit_mode(True)
    click(qtbot, board, 0)  # a1: empty -> black
    click(qtbot, board, 7)  # h1: empty -> black -> white
    click(qtbot, board, 7)
    qtbot.mouseClick(board, LEFT, pos=tool_point(board, "turn"))
    cells = list(new_game("othello").to_text()[:64])
    cells[0], cells[7] = "X", "O"
    assert recorder.positions[-1].to_text() == "".join(cells) + " O"
    click(qtbot, board, 27, RIGHT)  # d4 white -> black
    click(qtbot, board, 27, RIGHT)  # -> empty: a centre square may not be empty
    assert "centre" in board.edit_problem()


# ---------------------------------------------------------------------- tictactoe
def test_tictactoe_complete_game_and_winning_line(qtbot: QtBot) -> None:
    state = new_game("tictactoe")
    board = make_board(qtbot, "tictactoe", state)
    assert isinstance(board, TicTacToeBoard)
    recorder = Recorder(board)
    for move in play_out(state, board, human=0, seed=11):
        click(qtbot, board, move)
        assert recorder.moves == [move]
        recorder.moves.clear()
        state.play(move)
        board.set_state(state)
    assert state.is_terminal()
    assert (board.winning_line() is None) == (state.winner() is None)
    click(qtbot, board, 4)
    assert recorder.moves == []


def test_tictactoe_edit_mode(qtbot: QtBot) -> None:
    board = make_board(qtbot, "tictactoe")
    recorder = Recorder(board)
    board.set_edit_mode(True)
    click(qtbot, board, 4)  # x
    click(qtbot, board, 0)
    click(qtbot, board, 0)  # o
    assert recorder.positions[-1].to_text() == "o...x...."
    click(qtbot, board, 8)  # a second x before o's answer: x x o is fine
    click(qtbot, board, 2)  # a third x: too many
    assert "x has 3 marks" in board.edit_problem()
    assert recorder.positions[-1].to_text() == "o...x...x"


# ------------------------------------------------------------------------ drawing
@pytest.mark.parametrize("game", GRID_GAMES)
def test_every_board_paints_in_both_themes(qtbot: QtBot, game: str) -> None:
    state = new_game(game)
    move = state.legal_moves()[0]
    board = make_board(qtbot, game, state)
    board.set_best_move(move)
    images = []
    for theme in (LIGHT, DARK):
        board.set_theme(theme)
        board.set_flipped(theme is DARK)
        images.append(board.grab().toImage())
    corner = images[0].pixelColor(1, 1), images[1].pixelColor(1, 1)
    assert corner[0].name() == LIGHT.window and corner[1].name() == DARK.window
    rect = board.grid().board_rect
    samples = {
        images[0].pixelColor(round(rect.left() + rect.width() * i / 40), round(rect.top() + rect.height() * j / 40)).name()
        for i in range(40)
        for j in range(40)
    }
    assert len(samples) > 3  # the board is drawn, not a blank window


def test_chess_slides_a_clicked_move_but_not_a_dropped_one(qtbot: QtBot) -> None:
    state = new_game("chess")
    board = make_board(qtbot, "chess", state)
    assert isinstance(board, ChessBoard)
    recorder = Recorder(board)
    drag(qtbot, board, chess.E2, chess.E4)
    state.play(recorder.moves[-1])
    board.set_state(state)
    board.set_last_move(recorder.moves[-1])
    assert not board.is_animating()  # the hand already put it there
    reply = chess.Move.from_uci("e7e5")
    state.play(reply)
    board.set_state(state)
    board.set_last_move(reply)
    assert board.is_animating()
    qtbot.waitUntil(lambda: not board.is_animating(), timeout=2000)


def test_othello_turns_flipped_discs_and_checkers_slides_the_engine_move(qtbot: QtBot) -> None:
    state = new_game("othello")
    board = make_board(qtbot, "othello", state)
    state.play(19)  # d3 turns d4
    board.set_state(state)
    board.set_last_move(19)
    assert board.is_animating()
    image = board.grab()  # painting mid-turn works
    assert not image.isNull()
    qtbot.waitUntil(lambda: not board.is_animating(), timeout=2000)
    checkers_state = new_game("checkers", "W:WK18:B8,12,K15,16,24")
    checkers = make_board(qtbot, "checkers", checkers_state)
    move = checkers_state.parse_move("18x11x4")
    checkers_state.play(move)
    checkers.set_state(checkers_state)
    checkers.set_last_move(move)
    assert checkers.is_animating() and not checkers.grab().isNull()
    qtbot.waitUntil(lambda: not checkers.is_animating(), timeout=2000)


def test_screenshot_script_writes_pictures(qtbot: QtBot, tmp_path: Path) -> None:
    from tools import gui_screens_boards as screens_boards

    assert screens_boards.main(["--out", str(tmp_path), "--only", "tictactoe-won"]) == 0
    written = sorted(path.name for path in tmp_path.glob("*.png"))
    assert written == [f"tictactoe-won-{theme}-{size}.png" for theme in ("dark", "light") for size in (480, 900)]


def test_orient_for_puts_the_player_at_the_bottom(qtbot: QtBot) -> None:
    chess_board = make_board(qtbot, "chess")
    checkers_board = make_board(qtbot, "checkers")
    othello_board = make_board(qtbot, "othello")
    for board in (chess_board, checkers_board, othello_board):
        board.orient_for(0)
    assert (chess_board.is_flipped(), checkers_board.is_flipped(), othello_board.is_flipped()) == (False, True, False)
    # Checkers' Black (player 0) moves first from squares 1-12: turned, they are at the bottom.
    assert checkers_board.square_centre(1).y() > checkers_board.square_centre(32).y()
    with pytest.raises(ValueError, match="shows chess, not othello"):
        chess_board.set_state(new_game("othello"))


def test_right_drag_draws_arrows_and_rings_without_moving(qtbot: QtBot) -> None:
    board = make_board(qtbot, "chess")
    recorder = Recorder(board)
    qtbot.mousePress(board, RIGHT, pos=at(board.point_of(chess.E2)))
    qtbot.mouseRelease(board, RIGHT, pos=at(board.point_of(chess.E4)))
    click(qtbot, board, chess.D5, RIGHT)
    assert board.annotations() == [(chess.E2, chess.E4), (chess.D5, chess.D5)]
    assert not board.grab().isNull()
    click(qtbot, board, chess.D5, RIGHT)  # again: the ring goes
    assert board.annotations() == [(chess.E2, chess.E4)]
    click(qtbot, board, chess.A3)  # a left click wipes the drawing
    assert board.annotations() == [] and recorder.moves == []


def test_a_board_whose_module_is_missing_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    assert board_for("backgammon").__name__ == "BackgammonBoard"
    monkeypatch.setitem(BOARD_MODULES, "backgammon", ("gui.boards.not_installed", "BackgammonBoard"))
    with pytest.raises(ImportError, match=r"the backgammon board \(gui\.boards\.not_installed\) is not installed"):
        board_for("backgammon")


@pytest.mark.parametrize("game", list(BOARD_MODULES))
def test_every_registered_board_offers_the_board_api(game: str) -> None:
    board = board_for(game)
    assert issubclass(board, QWidget)
    missing = [name for name in BOARD_API if not hasattr(board, name)]
    assert missing == []


def test_checkers_numbers_only_on_empty_dark_squares(qtbot: QtBot) -> None:
    """PDN numbers are drawn in the empty dark squares and never under a piece: with numbers
    on and off, an occupied square's pixels are the same, an empty one's differ."""
    board = make_board(qtbot, "checkers")
    assert isinstance(board, CheckersBoard)
    occupied = set(board.pieces())
    assert len(occupied) == 24
    shown = board.grab().toImage()
    board.set_coordinates_visible(False)
    hidden = board.grab().toImage()
    board.set_coordinates_visible(True)

    def differs(square: int) -> bool:
        rect = board.square_rect(square).toRect()
        ratio = shown.devicePixelRatio()
        return any(
            shown.pixelColor(round(x * ratio), round(y * ratio)) != hidden.pixelColor(round(x * ratio), round(y * ratio))
            for x in range(rect.left(), rect.right())
            for y in range(rect.top(), rect.bottom())
        )

    assert all(differs(square) for square in range(1, 33) if square not in occupied)  # 13-20
    assert not any(differs(square) for square in occupied)


def test_the_start_page_draws_x_and_o_in_the_boards_colours(qtbot: QtBot) -> None:
    """The tic-tac-toe card's X and O are the board's X and O colours (not swapped)."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QColor, QImage, QPainter

    from gui.start_page import _draw_tictactoe

    image = QImage(300, 300, QImage.Format.Format_RGB32)
    painter = QPainter(image)
    _draw_tictactoe(painter, QRectF(0, 0, 300, 300))
    painter.end()
    cell, radius = 100, 28  # the card's cell and mark radius (0.28 of a cell)
    assert image.pixelColor(cell // 2, cell // 2) == QColor(LIGHT.mark_x)  # the middle of a1's X
    assert image.pixelColor(cell + cell // 2 + radius, cell + cell // 2) == QColor(LIGHT.mark_o)  # b2's ring
