"""Whether a side can still checkmate: the material test of FIDE Laws of Chess 6.9.

FIDE 6.9: a player whose flag falls loses, "however, the game is drawn if the position is
such that the opponent cannot checkmate the player's king by any possible series of legal
moves". *Any* series: the loser may help, so the question is not whether mate can be forced
but whether one exists at all. From the material alone (the rule as python-chess's
``Board.has_insufficient_material(color)`` and Lichess apply it):

==========================================  ==========================================
the side that would win has                 it can checkmate when
==========================================  ==========================================
a pawn, a rook or a queen                   always (a pawn can promote)
its king alone                              never
king and one knight                         the opponent has a pawn, knight, bishop or
                                            rook: a piece that can block its own king's
                                            flight square (K+N vs K+P mates; K+N vs K
                                            or K+Q cannot: a queen next to its king
                                            always takes the knight)
king and two or more minor pieces with a    always (K+N+N vs K has mating positions,
knight                                      though no forced mate)
king and bishops, all on one colour         some piece could be mated against: a pawn
                                            anywhere, an opposing knight, or an opposing
                                            bishop on the other colour (a bishop checks
                                            along one colour; the king's flight squares
                                            of the other colour need such a blocker)
bishops on both colours                     always
==========================================  ==========================================

Positions dead for other reasons (locked pawn chains that no piece can cross) are not
recognised: a flag there counts as a loss, as on Lichess; the error only ever favours the
side that still has time.
"""

from __future__ import annotations

import chess

from games.base import Player

LIGHT_SQUARES = chess.BB_LIGHT_SQUARES
DARK_SQUARES = chess.BB_DARK_SQUARES


def _count(board: chess.Board, piece: chess.PieceType, color: chess.Color, squares: int = chess.BB_ALL) -> int:
    return len(board.pieces(piece, color) & chess.SquareSet(squares))


def can_checkmate(board: chess.Board, color: chess.Color) -> bool:
    """Whether ``color`` could checkmate in ``board`` by some series of legal moves, judged
    from the material (the table above)."""
    enemy = not color
    if any(_count(board, piece, color) for piece in (chess.PAWN, chess.ROOK, chess.QUEEN)):
        return True
    knights = _count(board, chess.KNIGHT, color)
    light = _count(board, chess.BISHOP, color, LIGHT_SQUARES)
    dark = _count(board, chess.BISHOP, color, DARK_SQUARES)
    if knights + light + dark == 0:
        return False
    if knights:
        if knights + light + dark >= 2:
            return True
        blockers = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK)
        return any(_count(board, piece, enemy) for piece in blockers)
    if light and dark:
        return True
    other_colour = DARK_SQUARES if light else LIGHT_SQUARES
    return bool(
        _count(board, chess.PAWN, chess.WHITE)
        or _count(board, chess.PAWN, chess.BLACK)
        or _count(board, chess.KNIGHT, enemy)
        or _count(board, chess.BISHOP, enemy, other_colour)
    )


def can_player_checkmate(board: chess.Board, player: Player) -> bool:
    """``can_checkmate`` for the app's player number (0: White, 1: Black)."""
    return can_checkmate(board, chess.WHITE if player == 0 else chess.BLACK)
