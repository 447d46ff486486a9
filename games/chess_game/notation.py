"""Chess text at the edge: FEN positions and SAN/UCI moves, with errors that say what is wrong.

python-chess parses; this module turns its ``ValueError``s and ``Board.status()`` flags into
``BadPositionError``/``IllegalMoveError`` messages a player can act on ("white has two kings",
"e9 is not a square", "ambiguous: Nbd2 or Nfd2").
"""

from __future__ import annotations

import re

import chess

from games.base import BadPositionError, IllegalMoveError

__all__ = ["BadPositionError", "IllegalMoveError", "check_position", "parse_fen", "parse_move"]

START_POSITION_WORD = "startpos"
COLOR_NAMES = {chess.WHITE: "white", chess.BLACK: "black"}
MAX_PAWNS = 8
MAX_PIECES = 16
MAX_CHECKERS = 2
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")

ACCEPTED_STATUS = chess.STATUS_IMPOSSIBLE_CHECK
"""``Board.status()`` flags we let pass: a check no legal move could have produced (two
bishops checking at once, say) is unreachable but perfectly playable, and perft suites
use such positions."""

UCI_PATTERN = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")
UPPER_CASE_UCI_PATTERN = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$", re.IGNORECASE)
"""``E2E4`` is UCI in capitals, but ``B7e4`` is SAN (a bishop from the 7th rank): such text
is read as SAN first and as UCI only if SAN fails."""
SQUARE_LIKE_PATTERN = re.compile(r"([a-z])(\d+)")
ANNOTATION_SUFFIX = re.compile(r"[!?]+$")
"""Move-quality glyphs (``!``, ``?!``) players append to SAN; they name no move."""
NULL_MOVE_WORDS = frozenset({"--", "0000", "Z0", "@@@@"})
PROMOTION_LETTERS = "qrbn"
CASTLING_SIDES = {chess.H1: "K", chess.A1: "Q", chess.H8: "k", chess.A8: "q"}
KING_HOMES = {chess.WHITE: chess.E1, chess.BLACK: chess.E8}


# ------------------------------------------------------------------ positions
def parse_fen(text: str) -> chess.Board:
    """A validated board from a FEN (the clocks and other trailing fields may be left out)
    or the word ``startpos``; ``BadPositionError`` names the problem."""
    if not isinstance(text, str):
        raise BadPositionError(f"a chess position is FEN text, not {type(text).__name__}")
    fen = " ".join(text.split())
    if not fen:
        raise BadPositionError("empty position: give a FEN or 'startpos'")
    if fen.lower() == START_POSITION_WORD:
        return chess.Board()
    fields = fen.split(" ")
    if len(fields) >= 6 and fields[5].lstrip("-").isdigit() and int(fields[5]) < 1:
        raise BadPositionError(f"bad FEN: the move number counts from 1, not {fields[5]}: {fen!r}")
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise BadPositionError(f"bad FEN: {error}") from None
    check_position(board, fen)
    return board


def check_position(board: chess.Board, fen: str) -> None:
    """Raise ``BadPositionError`` listing every reason python-chess's ``Board.status()``
    finds the position impossible."""
    status = board.status() & ~ACCEPTED_STATUS
    if status == chess.STATUS_VALID:
        return
    problems = position_problems(board, status)
    raise BadPositionError(f"impossible position {fen!r}: " + "; ".join(problems))


def position_problems(board: chess.Board, status: chess.Status) -> list[str]:
    """Readable reasons for the flags in ``status``."""
    problems: list[str] = []
    if status & chess.STATUS_EMPTY:
        problems.append("the board is empty")
    for color in chess.COLORS:
        name = COLOR_NAMES[color]
        pieces = board.occupied_co[color]
        kings = chess.popcount(pieces & board.kings)
        if kings != 1:
            problems.append(f"{name} has {count_phrase(kings, 'king')}")
        pawns = chess.popcount(pieces & board.pawns)
        if pawns > MAX_PAWNS:
            problems.append(f"{name} has {count_phrase(pawns, 'pawn')} (at most {MAX_PAWNS})")
        if chess.popcount(pieces) > MAX_PIECES:
            problems.append(
                f"{name} has {count_phrase(chess.popcount(pieces), 'piece')} (at most {MAX_PIECES})"
            )
    if status & chess.STATUS_PAWNS_ON_BACKRANK:
        on_back_rank = chess.scan_forward(board.pawns & chess.BB_BACKRANKS)
        squares = ", ".join(chess.SQUARE_NAMES[square] for square in on_back_rank)
        problems.append(f"pawns on the back rank ({squares})")
    if status & chess.STATUS_BAD_CASTLING_RIGHTS:
        problems.extend(_castling_problems(board))
    if status & chess.STATUS_INVALID_EP_SQUARE and board.ep_square is not None:
        problems.append(
            f"en passant square {chess.SQUARE_NAMES[board.ep_square]} is impossible: "
            f"no {COLOR_NAMES[not board.turn]} pawn has just moved two squares past it"
        )
    if status & chess.STATUS_OPPOSITE_CHECK:
        problems.append(
            f"the side not to move is in check ({COLOR_NAMES[not board.turn]} is in check "
            f"but it is {COLOR_NAMES[board.turn]}'s turn)"
        )
    if status & chess.STATUS_TOO_MANY_CHECKERS:
        checkers = chess.popcount(board.checkers_mask())
        problems.append(
            f"{COLOR_NAMES[board.turn]} is in check from {count_phrase(checkers, 'piece')} "
            f"(at most {MAX_CHECKERS})"
        )
    if not problems:  # a flag this function does not know (a newer python-chess)
        problems.append(f"python-chess reports status {status!r}")
    return problems


def count_phrase(count: int, noun: str) -> str:
    """"no kings", "two kings", "17 pieces": small counts in words, as people write them."""
    if count == 0:
        return f"no {noun}"
    number = NUMBER_WORDS[count] if count < len(NUMBER_WORDS) else str(count)
    return f"{number} {noun}" if count == 1 else f"{number} {noun}s"


def _castling_problems(board: chess.Board) -> list[str]:
    problems = []
    clean = board.clean_castling_rights()
    for square in chess.scan_forward(board.castling_rights & ~clean):
        color = chess.WHITE if square < chess.A8 else chess.BLACK
        name = COLOR_NAMES[color]
        letter = CASTLING_SIDES.get(square, chess.FILE_NAMES[chess.square_file(square)])
        home = KING_HOMES[color]
        if not board.kings & board.occupied_co[color] & chess.BB_SQUARES[home]:
            reason = f"the {name} king is not on {chess.SQUARE_NAMES[home]}"
        else:
            reason = f"there is no {name} rook on {chess.SQUARE_NAMES[square]}"
        problems.append(f"castling right {letter} is impossible: {reason}")
    return problems or ["the castling rights do not match the kings and rooks"]


# ------------------------------------------------------------------ moves
def parse_move(board: chess.Board, text: str) -> chess.Move:
    """The legal move named by SAN or UCI ``text`` on ``board`` (standard chess)."""
    if not isinstance(text, str):
        raise IllegalMoveError(f"a chess move is SAN or UCI text, not {type(text).__name__}")
    cleaned = ANNOTATION_SUFFIX.sub("", text.strip())
    if not cleaned:
        raise IllegalMoveError("empty move: write it in SAN (Nf3) or UCI (g1f3)")
    if cleaned in NULL_MOVE_WORDS:
        raise IllegalMoveError(f"{cleaned} is a null move, which is not a legal chess move")
    if UCI_PATTERN.match(cleaned):
        return _parse_uci(board, cleaned)
    if UPPER_CASE_UCI_PATTERN.match(cleaned):
        try:
            return board.parse_san(cleaned)
        except ValueError:
            return _parse_uci(board, cleaned.lower())
    return _parse_san(board, cleaned)


def _parse_uci(board: chess.Board, uci: str) -> chess.Move:
    move = chess.Move.from_uci(uci)
    try:
        return board.parse_uci(uci)
    except ValueError:
        pass
    if (
        move.promotion is None
        and board.pawns & board.occupied_co[board.turn] & chess.BB_SQUARES[move.from_square]
        and chess.BB_SQUARES[move.to_square] & chess.BB_BACKRANKS
    ):
        options = ", ".join(uci + letter for letter in PROMOTION_LETTERS)
        raise IllegalMoveError(f"{uci} must name the promotion piece ({options})")
    raise IllegalMoveError(f"{uci} is not legal here{_why_not(board, move.from_square)}")


def _parse_san(board: chess.Board, san: str) -> chess.Move:
    try:
        return board.parse_san(san)
    except chess.AmbiguousMoveError:
        candidates = _san_candidates(board, san)
        raise IllegalMoveError("ambiguous: " + " or ".join(candidates)) from None
    except chess.IllegalMoveError:
        bare = _promotion_without_piece(board, san)
        if bare is not None:
            options = ", ".join(f"{bare}={letter.upper()}" for letter in PROMOTION_LETTERS)
            raise IllegalMoveError(f"{san} must name the promotion piece ({options})") from None
        raise IllegalMoveError(f"{san} is not legal here: {_why_not_san(board, san)}") from None
    except ValueError:
        pass
    for match in SQUARE_LIKE_PATTERN.finditer(san):
        file, rank = match.group(1), match.group(2)
        is_square = file in chess.FILE_NAMES and len(rank) == 1 and rank in "12345678"
        if not is_square and file != "x":  # "Nx4": the capture mark, not a file
            raise IllegalMoveError(f"{match.group(0)} is not a square (files a-h, ranks 1-8)")
    raise IllegalMoveError(f"{san!r} is not a move: write it in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3)")


def _promotion_without_piece(board: chess.Board, san: str) -> str | None:
    """``san`` without check marks if it is a legal pawn move to the last rank but for
    the missing promotion piece; else ``None``."""
    match = chess.SAN_REGEX.match(san)
    if match is None or match.group(1) or match.group(5):
        return None
    bare = san.rstrip("+#")
    try:
        board.parse_san(bare + "=Q")
    except ValueError:
        return None
    return bare


def _san_candidates(board: chess.Board, san: str) -> list[str]:
    """SAN of every legal move an ambiguous SAN could mean (same piece and target)."""
    match = chess.SAN_REGEX.match(san)
    if match is None:
        return [san]
    to_square = chess.parse_square(match.group(4))
    piece_type = chess.PIECE_SYMBOLS.index(match.group(1).lower()) if match.group(1) else chess.PAWN
    from_mask = chess.BB_ALL
    if match.group(2):
        from_mask &= chess.BB_FILES[chess.FILE_NAMES.index(match.group(2))]
    if match.group(3):
        from_mask &= chess.BB_RANKS[int(match.group(3)) - 1]
    names = sorted(
        board.san(move)
        for move in board.generate_legal_moves(from_mask, chess.BB_SQUARES[to_square])
        if board.piece_type_at(move.from_square) == piece_type
    )
    return names or [san]


def _why_not_san(board: chess.Board, san: str) -> str:
    """Why the well-formed SAN ``san`` names no legal move (only on the error path)."""
    side = COLOR_NAMES[board.turn]
    bare = san.rstrip("+#!?")
    if bare in ("O-O", "O-O-O", "0-0", "0-0-0"):
        wing = "kingside" if bare.count("O") + bare.count("0") == 2 else "queenside"
        rights = board.has_kingside_castling_rights if wing == "kingside" else board.has_queenside_castling_rights
        if not rights(board.turn):
            return f"{side} has lost the right to castle {wing}"
        if board.is_check():
            return f"{side} is in check, and a king in check cannot castle"
        return "the squares between king and rook must be empty and the king may not pass through check"
    match = chess.SAN_REGEX.match(bare)
    if match is None:
        return "no legal move is written like that"
    piece_type = chess.PIECE_SYMBOLS.index(match.group(1).lower()) if match.group(1) else chess.PAWN
    piece_name = chess.piece_name(piece_type)
    target = chess.parse_square(match.group(4))
    if not board.pieces(piece_type, board.turn):
        return f"{side} has no {piece_name}"
    from_mask = chess.BB_ALL
    if match.group(2):
        from_mask &= chess.BB_FILES[chess.FILE_NAMES.index(match.group(2))]
    if match.group(3):
        from_mask &= chess.BB_RANKS[int(match.group(3)) - 1]
    movers = [
        move
        for move in board.generate_pseudo_legal_moves(from_mask, chess.BB_SQUARES[target])
        if board.piece_type_at(move.from_square) == piece_type
    ]
    square = chess.SQUARE_NAMES[target]
    if not movers:
        own = board.piece_at(target)
        if own is not None and own.color == board.turn:
            return f"{square} holds {side}'s own {chess.piece_name(own.piece_type)}"
        return f"no {side} {piece_name} can move to {square}"
    if board.is_check():
        return f"{side} is in check and {bare} does not get out of it"
    origin = chess.SQUARE_NAMES[movers[0].from_square]
    return f"the {piece_name} on {origin} is pinned: moving it would leave the {side} king in check"


def _why_not(board: chess.Board, from_square: chess.Square | None) -> str:
    """A short reason a move is illegal, when one is cheap to see (else "")."""
    side = COLOR_NAMES[board.turn]
    if from_square is not None:
        piece = board.piece_at(from_square)
        name = chess.SQUARE_NAMES[from_square]
        if piece is None:
            return f": {name} is empty"
        if piece.color != board.turn:
            return f": the piece on {name} is not {side}'s"
    if board.is_check():
        return f": {side} is in check"
    return ""
