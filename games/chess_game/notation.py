"""Chess text at the edge: FEN positions and SAN/UCI moves, with errors that say what is wrong.

python-chess parses; this module turns its ``ValueError``s and ``Board.status()`` flags into
``BadPositionError``/``IllegalMoveError`` messages a player can act on ("white has two kings",
"e9 is not a square", "Nd2 is ambiguous: knights on b1 and f3 can both go to d2 (write Nbd2 or
Nfd2)", "Qh5 is not legal here: the queen on d1 cannot reach h5: e2 is in the way").
"""

from __future__ import annotations

import re

import chess

from games.base import BadPositionError, IllegalMoveError

__all__ = ["BadPositionError", "IllegalMoveError", "check_position", "parse_fen", "parse_move", "why_not_move"]

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
WHOLE_NUMBER = re.compile(r"[0-9]+")
NEGATIVE_NUMBER = re.compile(r"-0*[1-9][0-9]*")
"""FEN counters: ASCII digits only (``str.isdigit`` also takes ``²``, which ``int`` refuses)."""
NULL_MOVE_WORDS = frozenset({"--", "0000", "Z0", "@@@@"})
PROMOTION_LETTERS = "qrbn"
PROMOTION_PIECES = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
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
    _check_clocks(fen)
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise BadPositionError(f"bad FEN: {error}") from None
    check_position(board, fen)
    return board


def _check_clocks(fen: str) -> None:
    """The half-move clock (5th field) is a whole number and the move number (6th) counts
    from 1; python-chess reads ``0`` as move 1 and takes ``+1`` or ``-0``."""
    fields = fen.split(" ")
    if len(fields) >= 5:
        clock = fields[4]
        if NEGATIVE_NUMBER.fullmatch(clock):
            raise BadPositionError(f"bad FEN: the half-move clock cannot be negative, not {clock}: {fen!r}")
        if not WHOLE_NUMBER.fullmatch(clock):
            raise BadPositionError(f"bad FEN: the half-move clock must be a whole number, not {clock!r}: {fen!r}")
    if len(fields) >= 6:
        number = fields[5]
        if NEGATIVE_NUMBER.fullmatch(number) or (WHOLE_NUMBER.fullmatch(number) and int(number) < 1):
            raise BadPositionError(f"bad FEN: the move number counts from 1, not {number}: {fen!r}")
        if not WHOLE_NUMBER.fullmatch(number):
            raise BadPositionError(f"bad FEN: the move number must be a whole number from 1, not {number!r}: {fen!r}")


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
    if uci[:2] == uci[2:4]:
        raise IllegalMoveError(f"{uci} moves nothing: it starts and ends on {uci[:2]}")
    move = chess.Move.from_uci(uci)
    try:
        return board.parse_uci(uci)
    except ValueError:
        pass
    if (
        move.promotion is None
        and board.pawns & board.occupied_co[board.turn] & chess.BB_SQUARES[move.from_square]
        and chess.BB_SQUARES[move.to_square] & chess.BB_BACKRANKS
        and board.is_legal(chess.Move(move.from_square, move.to_square, chess.QUEEN))
    ):
        options = ", ".join(uci + letter for letter in PROMOTION_LETTERS)
        raise IllegalMoveError(f"{uci} must name the promotion piece ({options})")
    raise IllegalMoveError(f"{uci} is not legal here: {why_not_move(board, move)}")


def _parse_san(board: chess.Board, san: str) -> chess.Move:
    try:
        return board.parse_san(san)
    except chess.AmbiguousMoveError:
        raise IllegalMoveError(_ambiguity(board, san)) from None
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


# ------------------------------------------------------------------ why a move is illegal
# Everything below runs only on the error path, so it may look at the board at leisure.


def _san_origins(match: re.Match[str]) -> tuple[chess.PieceType, chess.Bitboard, chess.Square]:
    """The piece type, the squares it may come from and the target square a SAN names."""
    piece_type = chess.PIECE_SYMBOLS.index(match.group(1).lower()) if match.group(1) else chess.PAWN
    from_mask = chess.BB_ALL
    if match.group(2):
        from_mask &= chess.BB_FILES[chess.FILE_NAMES.index(match.group(2))]
    if match.group(3):
        from_mask &= chess.BB_RANKS[int(match.group(3)) - 1]
    return piece_type, from_mask, chess.parse_square(match.group(4))


def _ambiguity(board: chess.Board, san: str) -> str:
    """"Nf3 is ambiguous: knights on d2 and g1 can both go to f3 (write Ndf3 or Ngf3)"."""
    match = chess.SAN_REGEX.match(san)
    if match is None:
        return f"{san} is ambiguous: write the square the piece comes from too"
    piece_type, from_mask, target = _san_origins(match)
    moves = [
        move
        for move in board.generate_legal_moves(from_mask, chess.BB_SQUARES[target])
        if board.piece_type_at(move.from_square) == piece_type
    ]
    if len(moves) < 2:  # python-chess matched differently: say no more than it did
        return f"{san} is ambiguous: write the square the piece comes from too"
    origins = _join(sorted(chess.SQUARE_NAMES[move.from_square] for move in moves))
    both = "both" if len(moves) == 2 else "all"
    names = _join(sorted(board.san(move) for move in moves), "or")
    return (
        f"{san} is ambiguous: {chess.piece_name(piece_type)}s on {origins} can {both} go to "
        f"{chess.SQUARE_NAMES[target]} (write {names})"
    )


def _why_not_san(board: chess.Board, san: str) -> str:
    """Why the well-formed SAN ``san`` names no legal move."""
    bare = san.rstrip("+#!?")
    if bare in ("O-O", "O-O-O", "0-0", "0-0-0"):
        return _why_not_castle(board, kingside=bare.count("O") + bare.count("0") == 2)
    match = chess.SAN_REGEX.match(bare)
    if match is None:
        return "no legal move is written like that"
    piece_type, from_mask, target = _san_origins(match)
    promotion = _promotion_problem(piece_type, target, chess.PIECE_SYMBOLS.index(match.group(5)[-1].lower()) if match.group(5) else None, board.turn)
    if promotion:
        return promotion
    if piece_type == chess.PAWN and not match.group(2):  # a pawn push stays on its file
        from_mask &= chess.BB_FILES[chess.square_file(target)]
    return _why_not_piece(board, bare, piece_type, from_mask, target, is_capture="x" in bare)


def why_not_move(board: chess.Board, move: chess.Move) -> str:
    """Why ``move`` (any from/to pair) is not legal on ``board``, for an error message."""
    side = COLOR_NAMES[board.turn]
    name = chess.SQUARE_NAMES[move.from_square]
    piece = board.piece_at(move.from_square)
    if piece is None:
        return f"{name} is empty"
    if piece.color != board.turn:
        return f"the piece on {name} is not {side}'s: it is a {COLOR_NAMES[piece.color]} {chess.piece_name(piece.piece_type)}"
    promotion = _promotion_problem(piece.piece_type, move.to_square, move.promotion, board.turn)
    if promotion:
        return promotion
    if piece.piece_type == chess.KING and move.from_square == KING_HOMES[board.turn]:
        to_file = chess.square_file(move.to_square)
        if chess.square_rank(move.to_square) == chess.square_rank(move.from_square) and to_file in (0, 2, 6, 7):
            return _why_not_castle(board, kingside=to_file >= 6)
    return _why_not_piece(
        board,
        move.uci(),
        piece.piece_type,
        chess.BB_SQUARES[move.from_square],
        move.to_square,
        is_capture=board.piece_at(move.to_square) is not None,
    )


def _promotion_problem(piece_type: chess.PieceType, target: chess.Square, promotion: chess.PieceType | None, turn: chess.Color) -> str:
    """Why a move's promotion part is impossible whatever the position: only a pawn
    reaching the last rank promotes, and only to a queen, rook, bishop or knight; "" when
    the promotion part is fine (or there is none)."""
    if promotion is None:
        return ""
    if piece_type != chess.PAWN:
        return f"only a pawn promotes, and a {chess.piece_name(piece_type)} is no pawn"
    if chess.square_rank(target) != (7 if turn == chess.WHITE else 0):
        return f"a pawn promotes only on the last rank, and {chess.SQUARE_NAMES[target]} is not on it"
    if promotion not in PROMOTION_PIECES:
        return f"a pawn promotes to a queen, rook, bishop or knight, never to a {chess.piece_name(promotion)}"
    return ""


def _why_not_piece(
    board: chess.Board,
    label: str,
    piece_type: chess.PieceType,
    from_mask: chess.Bitboard,
    target: chess.Square,
    *,
    is_capture: bool,
) -> str:
    """Why no ``piece_type`` of the side to move on ``from_mask`` can legally go to ``target``."""
    side = COLOR_NAMES[board.turn]
    piece_name = chess.piece_name(piece_type)
    square = chess.SQUARE_NAMES[target]
    pieces = board.pieces_mask(piece_type, board.turn)
    if not pieces:
        return f"{side} has no {piece_name}"
    movers = [
        move
        for move in board.generate_pseudo_legal_moves(from_mask, chess.BB_SQUARES[target])
        if board.piece_type_at(move.from_square) == piece_type
    ]
    if not movers:
        own = board.piece_at(target)
        if own is not None and own.color == board.turn:
            return f"{square} holds {side}'s own {chess.piece_name(own.piece_type)}"
        if is_capture and own is None and not (piece_type == chess.PAWN and target == board.ep_square):
            return f"there is nothing to capture on {square}"
        origins = list(chess.scan_forward(pieces & from_mask))
        blocked = _blocked_path(board, piece_type, origins, target)
        if blocked:
            return blocked
        if len(origins) == 1:
            return f"the {piece_name} on {chess.SQUARE_NAMES[origins[0]]} cannot move to {square}"
        return f"no {side} {piece_name} can move to {square}"
    if board.is_check():
        if piece_type == chess.KING:
            return f"{side} is in check, and the king would still be in check on {square}"
        return f"{side} is in check and {label} does not get out of it"
    if piece_type == chess.KING:
        return f"the king would be in check on {square}"
    origin = movers[0].from_square
    pinner = _pinner(board, origin)
    if pinner is not None:
        return (
            f"the {piece_name} on {chess.SQUARE_NAMES[origin]} is pinned by the "
            f"{chess.piece_name(board.piece_type_at(pinner) or chess.PAWN)} on {chess.SQUARE_NAMES[pinner]}: "
            f"moving it would leave the {side} king in check"
        )
    if piece_type == chess.PAWN and target == board.ep_square:
        return f"the en passant capture would leave the {side} king in check"
    return f"{label} would leave the {side} king in check"


def _blocked_path(board: chess.Board, piece_type: chess.PieceType, origins: list[chess.Square], target: chess.Square) -> str:
    """"the queen on d1 cannot reach h5: e2 is in the way" when a piece on ``origins`` could
    go to ``target`` on an empty board; "" otherwise."""
    for origin in origins:
        files = abs(chess.square_file(origin) - chess.square_file(target))
        ranks = abs(chess.square_rank(origin) - chess.square_rank(target))
        straight, diagonal = files == 0 or ranks == 0, files == ranks
        if piece_type == chess.PAWN:
            forward = (chess.square_rank(target) - chess.square_rank(origin)) * (1 if board.turn else -1)
            start_rank = 1 if board.turn else 6
            if files or not (forward == 1 or (forward == 2 and chess.square_rank(origin) == start_rank)):
                continue
            if board.piece_at(target) is not None:
                return f"a pawn cannot capture straight ahead, and {chess.SQUARE_NAMES[target]} is occupied"
        elif not (
            (piece_type in (chess.ROOK, chess.QUEEN) and straight)
            or (piece_type in (chess.BISHOP, chess.QUEEN) and diagonal)
        ):
            continue
        in_between = chess.between(origin, target) & board.occupied
        if in_between:
            nearest = min(chess.scan_forward(in_between), key=lambda square: chess.square_distance(square, origin))
            return (
                f"the {chess.piece_name(piece_type)} on {chess.SQUARE_NAMES[origin]} cannot reach "
                f"{chess.SQUARE_NAMES[target]}: {chess.SQUARE_NAMES[nearest]} is in the way"
            )
    return ""


def _pinner(board: chess.Board, square: chess.Square) -> chess.Square | None:
    """The enemy piece that pins the piece on ``square`` to its king, if one does."""
    if not board.is_pinned(board.turn, square):
        return None
    king = board.king(board.turn)
    assert king is not None  # a pin needs a king
    line = board.pin_mask(board.turn, square) & board.occupied_co[not board.turn]
    for sniper in chess.scan_forward(line):
        if chess.between(king, sniper) & board.occupied == chess.BB_SQUARES[square]:
            return sniper
    return None


def _why_not_castle(board: chess.Board, *, kingside: bool) -> str:
    """Which castling rule the side to move breaks."""
    side = COLOR_NAMES[board.turn]
    wing = "kingside" if kingside else "queenside"
    rights = board.has_kingside_castling_rights if kingside else board.has_queenside_castling_rights
    if not rights(board.turn):
        return f"{side} has lost the right to castle {wing}"
    if board.is_check():
        return f"{side} is in check, and a king in check cannot castle"
    back_rank = 0 if board.turn == chess.WHITE else 7
    king = chess.square(4, back_rank)
    rook = chess.square(7 if kingside else 0, back_rank)
    occupied = list(chess.scan_forward(chess.between(king, rook) & board.occupied))
    if occupied:
        names = _join([chess.SQUARE_NAMES[square] for square in occupied])
        return f"the squares between king and rook must be empty, and {names} {'is' if len(occupied) == 1 else 'are'} not"
    passed = chess.square(5 if kingside else 3, back_rank)
    landing = chess.square(6 if kingside else 2, back_rank)
    if board.is_attacked_by(not board.turn, passed):
        return f"the king may not pass through check, and {chess.SQUARE_NAMES[passed]} is attacked"
    if board.is_attacked_by(not board.turn, landing):
        return f"the king would be in check on {chess.SQUARE_NAMES[landing]}"
    return f"{side} cannot castle {wing} here"


def _join(words: list[str], conjunction: str = "and") -> str:
    """``d2``, ``d2 and g1``, ``b1, d2 and g1``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {conjunction} {words[-1]}"
