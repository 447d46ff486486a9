"""Chess for Plyground: a thin, fast wrapper round python-chess's ``chess.Board``.

python-chess decides every rule (move generation, make/unmake, check, castling, en passant,
insufficient material, repetition). This module adds what a search engine needs per node
and python-chess does not keep: an incremental polyglot Zobrist key, an incremental PeSTO
score, cheap terminal tests, and noisy-move / ordering hooks.

Moves are ``chess.Move`` values (castling is the king's two-square move, ``e1g1``).
Position text is FEN; move text is SAN (UCI is accepted too).

End of game, as a Lichess player expects (the claimable draws end the game at once):

=====================  ===================================================================
checkmate, stalemate   no legal move (``generate_legal_moves``), in check or not
insufficient material  ``Board.is_insufficient_material()``
fifty-move rule        ``halfmove_clock >= 100`` (``Board.is_fifty_moves()``; checkmate on
                       that move still wins)
threefold repetition   the position occurs for the third time (``Board.is_repetition(3)``,
                       pre-filtered with our own key history). Not
                       ``can_claim_threefold_repetition``, which also looks one move ahead,
                       and not the automatic 75-move / fivefold rules.
=====================  ===================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import chess

from games.annotations import CHESS_SCALE, Reviewed, ReviewScale
from games.base import GameState, Player
from games.capabilities import CheckAware, ExchangeEvaluation, MatingMaterial, NullMoveSafe, QuietChecks, RepetitionRules
from games.chess_game import book, evaluation, material, native, network, notation, see
from games.chess_game.tables import (
    CAPTURE_ATTACKER_PENALTY,
    CAPTURE_VICTIM_SCORES,
    CASTLING_KEYS,
    CASTLING_ROOK_MOVES,
    DIAGONAL_ATTACKS,
    DIAGONAL_MASKS,
    EN_PASSANT_FILE_KEYS,
    FILE_ATTACKS,
    FILE_RAY_MASKS,
    KING_ATTACKS,
    KING_LINES,
    KNIGHT_ATTACKS,
    NEIGHBOUR_SQUARES,
    NOT_FILE_A,
    NOT_FILE_H,
    PHASE_WEIGHTS,
    PIECE_KEYS,
    PIECE_SCORES,
    PROMOTION_SCORES,
    RANK_ATTACKS,
    RANK_RAY_MASKS,
    WHITE_TO_MOVE_KEY,
    Bitboard,
    Packed,
    piece_index,
)

WHITE: Player = 0
BLACK: Player = 1

FIFTY_MOVE_PLIES = 100
"""Half-moves without a capture or pawn move after which the game is drawn."""
MIN_REPETITION_PLIES = 4
"""A position cannot occur for the third time sooner (with null moves; 8 without)."""
REPETITIONS_TO_DRAW = 3
CLAIMABLE_DRAWS = frozenset({"fifty-move rule", "threefold repetition"})
"""The ``termination_reason``s of draws a player may claim or play on from."""
TYPICAL_GAME_MOVES = 45
"""Moves a side plans a game for from the start: a model (games of about 40 moves a side,
and a little time in hand for the ending) that only shares a clock out; ``ai.timing``'s cap
and reserve keep a wrong guess from flagging."""
MIN_MOVES_LEFT = 20
"""Moves a side always expects still to play: an ending can last long."""
PAWN_DOUBLE_STEP = 16
CASTLING_KING_STEP = 2

PAWN, KING = chess.PAWN, chess.KING
BB_SQUARES = chess.BB_SQUARES
BB_RANK_2, BB_RANK_7 = chess.BB_RANK_2, chess.BB_RANK_7
NULL_MOVE = chess.Move.null()
EVAL_CACHE = evaluation.eval_cache

UndoRecord = tuple[int, Packed, int, int, "Bitboard | None"]
"""What ``play`` saves for ``undo``: (key, packed score, phase, en passant key, checkers)."""


def en_passant_key(board: chess.Board) -> int:
    """Polyglot's en passant component: the file key, only when a pawn of the side to move
    stands next to the pawn that just made a double step (legality is irrelevant)."""
    ep_square = board.ep_square
    if ep_square is None:
        return 0
    pushed_pawn = ep_square - 8 if board.turn == chess.WHITE else ep_square + 8
    if board.pawns & board.occupied_co[board.turn] & NEIGHBOUR_SQUARES[pushed_pawn]:
        return EN_PASSANT_FILE_KEYS[ep_square & 7]
    return 0


def full_key(board: chess.Board) -> int:
    """The polyglot Zobrist key computed from scratch (``play`` updates it incrementally)."""
    key = 0
    for square, piece in board.piece_map().items():
        key ^= PIECE_KEYS[piece_index(piece.piece_type, piece.color, square)]
    key ^= CASTLING_KEYS[board.castling_rights]
    key ^= en_passant_key(board)
    if board.turn == chess.WHITE:
        key ^= WHITE_TO_MOVE_KEY
    return key


class ChessState(
    GameState, CheckAware, ExchangeEvaluation, NullMoveSafe, QuietChecks, RepetitionRules, MatingMaterial, Reviewed
):
    """A chess position with its game history; White (player 0) moves first.

    ``board`` is the wrapped ``chess.Board``; read it freely, but change the position only
    through ``play``/``undo`` so that the incremental key and score stay right.
    """

    NAME: ClassVar[str] = "chess"
    REVIEW_SCALE: ClassVar[ReviewScale] = CHESS_SCALE
    """How a review measures this game's moves (``games.annotations``)."""
    PLAYER_NAMES: ClassVar[tuple[str, str]] = ("White", "Black")
    UTILITY_KIND = "win_loss"
    SCORE_UNIT: ClassVar[str] = "pawns"
    SCORE_UNIT_SIZE: ClassVar[float] = 100.0
    """Centipawns: the evaluation counts a pawn as 100."""
    WIN_WORDING = "mate"
    WEIGHTS_FILE: ClassVar[str | None] = "chess.json"
    SELECTIVE_SEARCH: ClassVar[frozenset[str]] = frozenset({
        "check_extensions", "null_move", "late_move_reductions",
        "quiescence_checks", "see_pruning", "futility_pruning",
    })

    NATIVE_SEARCH: ClassVar[str | None] = (
        "C alpha-beta (PVS) with this EVAL, games/chess_game/_search.c" if native.NATIVE else None
    )

    @classmethod
    def native_searcher(cls, table_megabytes: float) -> native.ChessNativeSearcher:
        """The compiled chess search (``games.chess_game.native``): the engine's ``native``
        algorithm, ~50 times the Python search's nodes a second."""
        return native.ChessNativeSearcher(table_megabytes)

    __slots__ = (
        "_checkers",
        "_en_passant_key",
        "_generation",
        "_history",
        "_key",
        "_phase",
        "_position_keys",
        "_null_marks",
        "_score",
        "board",
    )

    def __init__(self, board: chess.Board | None = None) -> None:
        """Wrap ``board`` (the start position by default), taking ownership of it.

        The board must be a valid standard-chess position without move history: use
        ``from_text`` or ``from_board`` for positions from outside.
        """
        self.board = chess.Board() if board is None else board
        self._history: list[UndoRecord] = []
        # Per ply played: the key of the position before it, without its en passant part
        # (see _is_threefold_repetition), kept flat so that list.count can scan it.
        self._position_keys: list[int] = []
        # len(_position_keys) after each null move still on the stack: no repetition is
        # counted across a pass (the position after it is not one the game can reach).
        self._null_marks: list[int] = []
        self._key = full_key(self.board)
        self._score: Packed = evaluation.material_and_squares(self.board)
        # The weights generation _score was made with (see copy and evaluate).
        self._generation = evaluation.weights_generation
        self._phase = evaluation.game_phase(self.board)
        self._en_passant_key = en_passant_key(self.board)
        # Enemy pieces giving check: computed on first use (None: not yet), kept in the
        # undo record, because is_terminal, is_in_check and move generation all need it.
        self._checkers: Bitboard | None = None

    @classmethod
    def from_board(cls, board: chess.Board) -> ChessState:
        """A state for a copy of ``board``, replaying its move stack so that ``undo`` and the
        repetition rule see the game's history. Raises ``BadPositionError`` for a board
        python-chess would call invalid or a Chess960 board."""
        if board.chess960:
            raise notation.BadPositionError("Chess960 is not supported: use standard chess")
        root = board.root()
        notation.check_position(root, root.fen())
        state = cls(root)
        for move in board.move_stack:
            state.play(move)
        return state

    # ------------------------------------------------------------- players
    @classmethod
    def initial(cls) -> ChessState:
        return cls()

    def to_move(self) -> Player:
        return WHITE if self.board.turn else BLACK

    # ------------------------------------------------------------- actions
    def legal_moves(self) -> list[chess.Move]:
        """Every legal move; empty when the game is over, draws by rule included."""
        if self._is_draw_by_rule():
            return []
        return self.all_legal_moves()

    def all_legal_moves(self) -> list[chess.Move]:
        """Every legal move by the rules of movement, even when a draw by rule (fifty
        moves, repetition, insufficient material) has already ended the game."""
        checkers = self._checkers
        if checkers is None:
            checkers = self._find_checkers()
        if checkers:
            return list(self.board.generate_legal_moves())
        return _generate_legal_moves_not_in_check(self.board)

    def noisy_moves(self) -> list[chess.Move]:
        """Legal captures (en passant included) and promotions, for quiescence search.

        Call it at non-terminal states only (it skips the draw-by-rule tests).
        """
        checkers = self._checkers
        if checkers is None:
            checkers = self._find_checkers()
        return _generate_noisy_moves(self.board, checkers)

    def perft_moves(self) -> list[chess.Move]:
        """Perft ignores draws by rule (see ``perft``)."""
        return self.all_legal_moves()

    def perft(self, depth: int) -> int:
        """Leaf count of the move tree, as the perft literature counts it: by the rules of
        movement only, so a draw by rule (e.g. a capture leaving K v K) does not cut the
        tree. Make/unmake through ``play``/``undo``, so it tests them too."""
        if depth == 0:
            return 1
        moves = self.all_legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            self.play(move)
            total += self.perft(depth - 1)
            self.undo()
        return total

    # ---------------------------------------------------------- transition
    def play(self, move: chess.Move) -> None:
        """Push ``move`` (one of ``legal_moves()``) and update key, score and phase from the
        move alone: moved piece, capture, en passant, castling rook, promotion, castling
        rights and the new en passant file. Hot path: written out flat on purpose."""
        board = self.board
        turn = board.turn
        from_square = move.from_square
        to_square = move.to_square
        moving = board.piece_type_at(from_square)
        captured = board.piece_type_at(to_square)
        key = self._key
        score = self._score
        phase = self._phase
        self._history.append((key, score, phase, self._en_passant_key, self._checkers))
        self._position_keys.append(key ^ self._en_passant_key)
        key ^= WHITE_TO_MOVE_KEY ^ self._en_passant_key
        new_en_passant_key = 0
        # piece_index(piece_type, color, square) written inline: (type * 2 + color) * 64 + square
        from_index = (moving * 2 + turn) * 64  # type: ignore[operator]
        promotion = move.promotion
        if promotion:
            to_index = (promotion * 2 + turn) * 64 + to_square
            phase += PHASE_WEIGHTS[promotion]
        else:
            to_index = from_index + to_square
        from_index += from_square
        key ^= PIECE_KEYS[from_index] ^ PIECE_KEYS[to_index]
        score += PIECE_SCORES[to_index] - PIECE_SCORES[from_index]
        if captured:
            captured_index = (captured * 2 + (not turn)) * 64 + to_square
            key ^= PIECE_KEYS[captured_index]
            score -= PIECE_SCORES[captured_index]
            phase -= PHASE_WEIGHTS[captured]
        elif moving == PAWN:
            if to_square == board.ep_square:
                victim_square = to_square - 8 if turn else to_square + 8
                captured_index = (PAWN * 2 + (not turn)) * 64 + victim_square
                key ^= PIECE_KEYS[captured_index]
                score -= PIECE_SCORES[captured_index]
            elif (
                to_square - from_square in (PAWN_DOUBLE_STEP, -PAWN_DOUBLE_STEP)
                and board.pawns & board.occupied_co[not turn] & NEIGHBOUR_SQUARES[to_square]
            ):  # a double step next to an enemy pawn: polyglot hashes the en passant file
                new_en_passant_key = EN_PASSANT_FILE_KEYS[to_square & 7]
        elif moving == KING and to_square - from_square in (CASTLING_KING_STEP, -CASTLING_KING_STEP):
            rook_from, rook_to = CASTLING_ROOK_MOVES[from_square, to_square]
            rook_base = (chess.ROOK * 2 + turn) * 64
            key ^= PIECE_KEYS[rook_base + rook_from] ^ PIECE_KEYS[rook_base + rook_to]
            score += PIECE_SCORES[rook_base + rook_to] - PIECE_SCORES[rook_base + rook_from]
        castling_before = board.castling_rights
        board.push(move)
        if board.castling_rights != castling_before:
            key ^= CASTLING_KEYS[castling_before] ^ CASTLING_KEYS[board.castling_rights]
        self._key = key ^ new_en_passant_key
        self._score = score
        self._phase = phase
        self._en_passant_key = new_en_passant_key
        self._checkers = None

    def undo(self) -> None:
        """Pop the last move; key, score and phase come back from the undo record."""
        self.board.pop()
        (
            self._key,
            self._score,
            self._phase,
            self._en_passant_key,
            self._checkers,
        ) = self._history.pop()
        self._position_keys.pop()

    def copy(self) -> ChessState:
        """A copy; rebuilt by replaying the game when the EVAL's weights changed since this
        state's incremental score was made (the engine sets a player's weights just before
        its search, which starts from a copy)."""
        if self._generation != evaluation.weights_generation:
            return ChessState.from_board(self.board)
        clone = ChessState.__new__(ChessState)
        clone.board = self.board.copy()
        clone._history = list(self._history)
        clone._position_keys = list(self._position_keys)
        clone._null_marks = list(self._null_marks)
        clone._key = self._key
        clone._score = self._score
        clone._phase = self._phase
        clone._en_passant_key = self._en_passant_key
        clone._checkers = self._checkers
        clone._generation = self._generation
        return clone

    def can_null_move(self) -> bool:
        """Not in check, and the side to move has a piece besides king and pawns (without
        one, zugzwang makes the null-move assumption unsound)."""
        board = self.board
        if not board.occupied_co[board.turn] & ~(board.pawns | board.kings):
            return False
        return not self.is_in_check()

    def play_null(self) -> None:
        """Pass: python-chess's null move, which also forfeits any en passant right."""
        self._history.append(
            (self._key, self._score, self._phase, self._en_passant_key, self._checkers)
        )
        self._position_keys.append(self._key ^ self._en_passant_key)
        self._key ^= WHITE_TO_MOVE_KEY ^ self._en_passant_key
        self._en_passant_key = 0
        self._checkers = None
        self.board.push(NULL_MOVE)
        self._null_marks.append(len(self._position_keys))

    def undo_null(self) -> None:
        self._null_marks.pop()
        self.undo()

    def repeats_within(self, plies: int) -> bool:
        """Whether this position occurred before within the last ``plies`` plies (the
        search asks with the distance to its root: a position repeated inside the tree is
        scored a draw at once, as strong engines do, since the side that could avoid the
        repetition had the choice; the game's own rule, threefold, still decides for
        positions before the root). Only since the last capture, pawn move or pass;
        compared without en passant rights, and a match with the one position that may
        have had them (the first after a double step) is not counted."""
        clock = self.board.halfmove_clock
        if clock < MIN_REPETITION_PLIES or plies < MIN_REPETITION_PLIES:
            return False
        position_keys = self._position_keys
        limit = min(clock, plies, len(position_keys))
        if self._null_marks:
            limit = min(limit, len(position_keys) - self._null_marks[-1])
        target = self._key ^ self._en_passant_key
        # The positions 4, 6, ..., limit plies ago (position_keys[-1] is one ply ago).
        matches = position_keys[-MIN_REPETITION_PLIES : -limit - 1 : -2].count(target)
        if matches and limit == clock and clock % 2 == 0 and self._history[-clock][3] and position_keys[-clock] == target:
            matches -= 1  # the oldest, just after a double step, had en passant rights
        return matches > 0

    # ----------------------------------------------------------------- end
    def is_terminal(self) -> bool:
        """Checkmate, stalemate or a draw by rule; cheapest tests first, and only the first
        legal move is generated."""
        return self._is_draw_by_rule() or not self._has_legal_move()

    def _find_checkers(self) -> Bitboard:
        """Compute and cache the enemy pieces giving check."""
        board = self.board
        king = (board.kings & board.occupied_co[board.turn]).bit_length() - 1
        checkers: Bitboard = board.attackers_mask(not board.turn, king)
        self._checkers = checkers
        return checkers

    def _has_legal_move(self) -> bool:
        """Whether the side to move has a legal move (not checkmate or stalemate).

        Fast exact shortcuts before python-chess's generator, for a side not in check: a
        piece standing on no line through its own king cannot be pinned, so any pawn push,
        knight, bishop, rook or queen move it has is legal; and a king step to a square no
        enemy piece attacks is legal. One of these settles almost every position (measured
        ~4x cheaper than ``any(generate_legal_moves())`` in middlegames, ~5x in endgames).
        """
        checkers = self._checkers
        if checkers is None:
            checkers = self._find_checkers()
        board = self.board
        if not checkers:
            own = board.occupied_co[board.turn]
            king = (board.kings & own).bit_length() - 1
            unpinnable = own & ~KING_LINES[king]
            pawns = board.pawns & unpinnable
            pushes = pawns << 8 if board.turn else pawns >> 8
            if pushes & ~board.occupied:
                return True
            if _has_piece_move(board, unpinnable & ~pawns, own):
                return True
            enemy = not board.turn
            for target in chess.scan_forward(KING_ATTACKS[king] & ~own):
                if not board.attackers_mask(enemy, target):
                    return True
        return any(board.generate_legal_moves())

    def _is_draw_by_rule(self) -> bool:
        """Fifty-move rule, insufficient material or threefold repetition."""
        board = self.board
        clock = board.halfmove_clock
        if clock >= FIFTY_MOVE_PLIES:
            return True
        if not (board.pawns | board.rooks | board.queens) and board.is_insufficient_material():
            return True
        return clock >= MIN_REPETITION_PLIES and self._is_threefold_repetition()

    def _is_threefold_repetition(self) -> bool:
        """Whether this position occurred twice before since the last capture or pawn move.

        Counted on our key history (a C-speed ``list.count`` over every second ply). Keys
        are compared without their en passant part, and a position differs from a later
        one only if its en passant capture is *legal* (FIDE 9.2), which polyglot keys do
        not know: only the first position after a pawn's double step can have one, so
        when that position is among the matches python-chess's exact
        ``Board.is_repetition`` decides.
        """
        position_keys = self._position_keys
        clock = self.board.halfmove_clock
        limit = min(clock, len(position_keys))
        target = self._key ^ self._en_passant_key
        # The positions 2, 4, ..., limit plies ago (position_keys[-1] is one ply ago).
        if position_keys[-2 : -limit - 1 : -2].count(target) < REPETITIONS_TO_DRAW - 1:
            return False
        oldest = self._history[-limit]
        if oldest[3] and position_keys[-limit] == target:
            return self.board.is_repetition(REPETITIONS_TO_DRAW)
        return True

    def claimable_draw(self) -> str:
        """``fifty-move rule`` or ``threefold repetition`` when the game has ended by one of
        the draws a player may claim and need not (FIDE 9.2, 9.3), with moves left to
        play; "" otherwise. The app ends a game there at once, but a recorded game may have
        gone on (nobody claimed), and reading it must follow it."""
        reason = self.termination_reason() if self.is_terminal() else ""
        return reason if reason in CLAIMABLE_DRAWS else ""

    def utility(self, player: Player) -> float:
        """+1/-1 for checkmate, 0 for every draw (and for a game still going on)."""
        if self.is_in_check() and not self._has_legal_move():
            return -1.0 if player == self.to_move() else 1.0
        return 0.0

    def termination_reason(self) -> str:
        """"checkmate", "stalemate", "insufficient material", "fifty-move rule" or
        "threefold repetition" (in that order of precedence); "" while the game goes on."""
        board = self.board
        if not self._has_legal_move():
            return "checkmate" if self.is_in_check() else "stalemate"
        if board.is_insufficient_material():
            return "insufficient material"
        if board.halfmove_clock >= FIFTY_MOVE_PLIES:
            return "fifty-move rule"
        if board.halfmove_clock >= MIN_REPETITION_PLIES and self._is_threefold_repetition():
            return "threefold repetition"
        return ""

    def can_still_mate(self, player: Player) -> bool:
        """Whether ``player`` could checkmate by some series of legal moves (FIDE Laws 6.9:
        a flag against a side that cannot is a draw); ``games.chess_game.material``."""
        return material.can_player_checkmate(self.board, player)

    # ------------------------------------------------------------- hashing
    def key(self) -> int:
        """Polyglot Zobrist key: equals ``chess.polyglot.zobrist_hash(self.board)``."""
        return self._key

    def encode_move(self, move: chess.Move) -> int:
        """``from | to << 6 | promotion << 12`` (15 bits; the null move is 0)."""
        return move.from_square | move.to_square << 6 | (move.promotion or 0) << 12

    def decode_move(self, code: int) -> chess.Move:
        return chess.Move(code & 63, code >> 6 & 63, code >> 12 or None)

    # ----------------------------------------------------------- knowledge
    def evaluate(self, player: Player) -> float:
        """Centipawns for ``player``: incremental PeSTO score plus the cheap terms of
        ``evaluation.dynamic_score``, tapered by phase. Equals the sum of
        ``evaluation_features(player)``."""
        white_view = EVAL_CACHE.get(self._key)
        if white_view is None:
            score = self._score
            if self._generation != evaluation.weights_generation:  # made with other weights
                score = evaluation.material_and_squares(self.board)
            score += evaluation.dynamic_score(self.board)
            white_view = evaluation.taper(score, self._phase)
            if len(EVAL_CACHE) >= evaluation.EVAL_CACHE_LIMIT:
                EVAL_CACHE.clear()
            EVAL_CACHE[self._key] = white_view
        return white_view if player == WHITE else -white_view

    @classmethod
    def set_network(cls, choice: str) -> None:
        """The compiled search's learned correction (``network.select``); the readable
        search and ``evaluate`` never use it."""
        network.select(choice)

    @classmethod
    def set_weights(cls, weights: Mapping[str, Any] | None) -> None:
        """Evaluate with ``weights`` (chess.json's names; ``None``: the shipped ones) from
        now on; see ``evaluation.set_weights``. A state made before notices: ``copy``
        rebuilds it and ``evaluate`` scores it from scratch."""
        evaluation.set_weights(weights)

    def book_moves(self) -> list[tuple[chess.Move, float]]:
        """The opening book's legal moves here with their weights (``book``: our Polyglot
        file resources/books/chess.bin); empty out of book."""
        if self._key not in book.shipped_book():
            return []
        return book.book_moves(self.board, self._key, self.legal_moves())

    def evaluation_features(self, player: Player) -> Mapping[str, tuple[float, float]]:
        return evaluation.features(self.board, player == WHITE)

    def capture_score(self, move: chess.Move) -> int:
        """MVV-LVA: victim value minus a small attacker penalty, plus a promotion bonus;
        0 for a quiet move. Always positive for captures and promotions."""
        board = self.board
        to_square = move.to_square
        promotion = move.promotion
        if not board.occupied & BB_SQUARES[to_square]:  # most moves: no piece call at all
            victim = None
            if to_square == board.ep_square and board.pawns & BB_SQUARES[move.from_square]:
                victim = PAWN
            elif promotion:
                return PROMOTION_SCORES[promotion]
            else:
                return 0
        else:
            victim = board.piece_type_at(to_square)
        attacker = board.piece_type_at(move.from_square)
        score = CAPTURE_VICTIM_SCORES[victim] - CAPTURE_ATTACKER_PENALTY[attacker]  # type: ignore[index]
        if promotion:
            score += PROMOTION_SCORES[promotion]
        return score

    def exchange_gain(self, move: chess.Move) -> int:
        """Static exchange evaluation: centipawns the side to move wins (negative: loses)
        by ``move`` once the exchange on its target square is played out (``see``)."""
        return see.exchange_gain(self.board, move)

    def exchange_at_least(self, move: chess.Move, threshold: int) -> bool:
        """Whether ``exchange_gain(move) >= threshold``, usually without the full swap list
        (the search's hook for SEE ordering and pruning)."""
        return see.exchange_at_least(self.board, move, threshold)

    def checking_moves(self) -> list[chess.Move]:
        """The legal quiet moves (no capture, no promotion) that give check directly, for
        quiescence search's first ply; discovered checks are left out. Generated only onto
        the squares from which each piece type attacks the enemy king (no ``gives_check``
        per move). Call it at non-terminal states not in check."""
        return _generate_quiet_checks(self.board)

    def gives_check(self, move: chess.Move) -> bool:
        """Whether ``move`` (legal here) puts the enemy king in check, directly or by
        discovery, without playing it (the search asks before pruning a quiet move; playing
        it to look was measured as a third of the main search's make/unmake work).
        Castling and en passant, rare and with a second piece moving, ask python-chess."""
        return _gives_check(self.board, move)

    def is_in_check(self) -> bool:
        checkers = self._checkers
        if checkers is None:
            checkers = self._find_checkers()
        return bool(checkers)

    # ---------------------------------------------------------------- text
    @classmethod
    def from_text(cls, text: str) -> ChessState:
        """A FEN (the last fields may be left out), or the word ``startpos``."""
        return cls(notation.parse_fen(text))

    def move_number(self) -> int:
        return self.board.fullmove_number

    def expected_moves_left(self) -> float:
        """A model of the moves a side still makes, by the moves played: a game is planned
        as ``TYPICAL_GAME_MOVES`` long, and one that goes on past that is expected to last
        ``MIN_MOVES_LEFT`` more (so the clock is never spent as if the end were near)."""
        played = self.board.fullmove_number - 1
        return float(max(MIN_MOVES_LEFT, TYPICAL_GAME_MOVES - played))

    def to_text(self) -> str:
        """FEN, with the en passant square written when a pawn stands ready to capture
        (X-FEN's convention, which is also exactly what the polyglot key hashes)."""
        return self.board.fen(en_passant="xfen")

    def parse_move(self, text: str) -> chess.Move:
        """SAN (``Nf3``, ``exd5``, ``O-O``, ``e8=Q+``) or UCI (``g1f3``, ``e7e8q``). At a
        draw a player may claim (``claimable_draw``) the move is parsed; ``play_checked``
        still refuses it (a recorded game that went on plays it with ``play``)."""
        if self.is_terminal() and not self.claimable_draw():
            raise notation.IllegalMoveError(
                f"the game is over ({self.termination_reason()}): no move is legal"
            )
        return notation.parse_move(self.board, text)

    def play_checked(self, move: chess.Move) -> None:
        """``play`` for a move from outside the search, refused unless legal here."""
        if not isinstance(move, chess.Move):
            raise notation.IllegalMoveError(f"{move!r} is not a chess move")
        if move not in self.legal_moves():
            if self.is_terminal():
                raise notation.IllegalMoveError(
                    f"the game is over ({self.termination_reason()}): no move is legal"
                )
            raise notation.IllegalMoveError(f"{move.uci()} is not legal here: {notation.why_not_move(self.board, move)}")
        self.play(move)

    def move_name(self, move: chess.Move) -> str:
        """SAN, with ``+``/``#`` as players write it."""
        return self.board.san(move)

    def __str__(self) -> str:
        return str(self.board)


# ------------------------------------------------------------------ check detection
def _gives_check(board: chess.Board, move: chess.Move) -> bool:
    """See ``ChessState.gives_check``: the enemy king's attackers once the moved piece (or
    its promotion) stands on the target square and its origin is empty."""
    from_square, to_square = move.from_square, move.to_square
    from_bit, to_bit = BB_SQUARES[from_square], BB_SQUARES[to_square]
    turn = board.turn
    if board.kings & from_bit:
        if to_square - from_square in (CASTLING_KING_STEP, -CASTLING_KING_STEP):
            return board.gives_check(move)  # castling: the rook may give the check
    elif board.pawns & from_bit and to_square == board.ep_square and not board.occupied & to_bit:
        return board.gives_check(move)  # en passant: two pieces leave the lines
    king = (board.kings & board.occupied_co[not turn]).bit_length() - 1
    if king < 0:
        return False
    if not (KING_LINES[king] | KNIGHT_ATTACKS[king]) & (from_bit | to_bit):
        return False  # neither square sees the king: no direct and no discovered check
    own = board.occupied_co[turn] & ~from_bit | to_bit
    occupied = board.occupied & ~from_bit | to_bit
    promotion = move.promotion
    # Where each piece type of ours stands after the move.
    keep = ~to_bit  # a captured piece leaves the target square
    pawns, knights, bishops = board.pawns & keep, board.knights & keep, board.bishops & keep
    rooks, queens = board.rooks & keep, board.queens & keep
    if promotion:
        pawns &= ~from_bit
        if promotion == chess.KNIGHT:
            knights |= to_bit
        elif promotion == chess.BISHOP:
            bishops |= to_bit
        elif promotion == chess.ROOK:
            rooks |= to_bit
        else:
            queens |= to_bit
    elif pawns & from_bit:
        pawns ^= from_bit | to_bit
    elif knights & from_bit:
        knights ^= from_bit | to_bit
    elif bishops & from_bit:
        bishops ^= from_bit | to_bit
    elif rooks & from_bit:
        rooks ^= from_bit | to_bit
    elif queens & from_bit:
        queens ^= from_bit | to_bit
    if KNIGHT_ATTACKS[king] & knights & own:
        return True
    if chess.BB_PAWN_ATTACKS[not turn][king] & pawns & own:
        return True
    if DIAGONAL_ATTACKS[king][DIAGONAL_MASKS[king] & occupied] & (bishops | queens) & own:
        return True
    return bool(
        (RANK_ATTACKS[king][RANK_RAY_MASKS[king] & occupied] | FILE_ATTACKS[king][FILE_RAY_MASKS[king] & occupied])
        & (rooks | queens)
        & own
    )


# ------------------------------------------------------------------ move generation
def _keep_safe(board: chess.Board, moves: list[chess.Move]) -> list[chess.Move]:
    """The pseudo-legal ``moves`` that are legal, for a side not in check.

    python-chess's own test ``Board._is_safe`` decides; it is asked only about moves that
    can be unsafe (king moves, moves of pinned-piece candidates, en passant), because a
    generator calling it for every move (``generate_legal_moves``) was measured ~15%
    slower than this filter.
    """
    king = (board.kings & board.occupied_co[board.turn]).bit_length() - 1
    blockers = board._slider_blockers(king)
    risky = blockers | BB_SQUARES[king]
    if board.ep_square is not None:
        risky |= board.pawns
    is_safe = board._is_safe
    return [
        move
        for move in moves
        if not BB_SQUARES[move.from_square] & risky or is_safe(king, blockers, move)
    ]


def _generate_legal_moves_not_in_check(board: chess.Board) -> list[chess.Move]:
    return _keep_safe(board, list(board.generate_pseudo_legal_moves()))


def _has_piece_move(board: chess.Board, pieces: Bitboard, own: Bitboard) -> bool:
    """Whether one of ``pieces`` (knights, bishops, rooks, queens) attacks a square not
    held by its own side, i.e. has a pseudo-legal move."""
    occupied = board.occupied
    knights = board.knights
    diagonal_movers = board.bishops | board.queens
    straight_movers = board.rooks | board.queens
    while pieces:
        lowest = pieces & -pieces
        pieces ^= lowest
        square = lowest.bit_length() - 1
        if lowest & knights:
            attacks = KNIGHT_ATTACKS[square]
        else:
            attacks = 0
            if lowest & diagonal_movers:
                attacks = DIAGONAL_ATTACKS[square][DIAGONAL_MASKS[square] & occupied]
            if lowest & straight_movers:
                attacks |= (
                    RANK_ATTACKS[square][RANK_RAY_MASKS[square] & occupied]
                    | FILE_ATTACKS[square][FILE_RAY_MASKS[square] & occupied]
                )
        if attacks & ~own:
            return True
    return False


def _capturers(board: chess.Board, own: Bitboard, enemy: Bitboard) -> Bitboard:
    """The side to move's pieces that attack at least one enemy piece.

    A pre-filter for python-chess's generator, which otherwise computes the attacks of
    every piece (and tries castling) through method calls: asking it only about these
    pieces was measured ~25% faster for quiescence's capture lists.
    """
    pawns = board.pawns & own
    if board.turn:
        found = pawns & ((enemy & NOT_FILE_H) >> 7 | (enemy & NOT_FILE_A) >> 9)
    else:
        found = pawns & ((enemy & NOT_FILE_A) << 7 | (enemy & NOT_FILE_H) << 9)
    occupied = board.occupied
    knights, kings = board.knights, board.kings
    diagonal_movers = board.bishops | board.queens
    straight_movers = board.rooks | board.queens
    pieces = own & ~pawns
    while pieces:
        lowest = pieces & -pieces
        pieces ^= lowest
        square = lowest.bit_length() - 1
        if lowest & knights:
            attacks = KNIGHT_ATTACKS[square]
        elif lowest & kings:
            attacks = KING_ATTACKS[square]
        else:
            attacks = 0
            if lowest & diagonal_movers:
                attacks = DIAGONAL_ATTACKS[square][DIAGONAL_MASKS[square] & occupied]
            if lowest & straight_movers:
                attacks |= (
                    RANK_ATTACKS[square][RANK_RAY_MASKS[square] & occupied]
                    | FILE_ATTACKS[square][FILE_RAY_MASKS[square] & occupied]
                )
        if attacks & enemy:
            found |= lowest
    return found


def _generate_quiet_checks(board: chess.Board) -> list[chess.Move]:
    """Quiet moves that put the enemy king in check by the moved piece (see
    ``ChessState.checking_moves``)."""
    turn = board.turn
    own = board.occupied_co[turn]
    occupied = board.occupied
    empty = ~occupied & chess.BB_ALL
    enemy_king = (board.kings & board.occupied_co[not turn]).bit_length() - 1
    if enemy_king < 0:
        return []
    diagonal = DIAGONAL_ATTACKS[enemy_king][DIAGONAL_MASKS[enemy_king] & occupied]
    straight = (
        RANK_ATTACKS[enemy_king][RANK_RAY_MASKS[enemy_king] & occupied]
        | FILE_ATTACKS[enemy_king][FILE_RAY_MASKS[enemy_king] & occupied]
    )
    knight_squares = KNIGHT_ATTACKS[enemy_king]
    pawn_squares = chess.BB_PAWN_ATTACKS[not turn][enemy_king]
    moves: list[chess.Move] = []
    generate = board.generate_pseudo_legal_moves
    pieces = (
        (board.knights, knight_squares),
        (board.bishops, diagonal),
        (board.rooks, straight),
        (board.queens, diagonal | straight),
    )
    for movers, squares in pieces:
        movers &= own
        if movers and squares & empty:
            moves.extend(generate(movers, squares & empty))
    pawns = board.pawns & own & ~(BB_RANK_7 if turn else BB_RANK_2)  # promotions are noisy already
    pawn_targets = pawn_squares & empty
    if board.ep_square is not None:
        pawn_targets &= ~BB_SQUARES[board.ep_square]  # en passant is a capture: noisy already
    if pawns and pawn_targets:
        moves.extend(generate(pawns, pawn_targets))
    if not moves:
        return moves
    return _keep_safe(board, moves)


def _generate_noisy_moves(board: chess.Board, checkers: Bitboard) -> list[chess.Move]:
    """Legal captures and promotions, through python-chess's generators with masks."""
    turn = board.turn
    own = board.occupied_co[turn]
    enemy = board.occupied_co[not turn]
    if checkers:
        return [
            move
            for move in board.generate_legal_moves()
            if move.promotion or BB_SQUARES[move.to_square] & enemy or board.is_en_passant(move)
        ]
    capturers = _capturers(board, own, enemy)
    moves = list(board.generate_pseudo_legal_moves(capturers, enemy)) if capturers else []
    promoting = board.pawns & own & (BB_RANK_7 if turn else BB_RANK_2)
    if promoting:
        moves.extend(board.generate_pseudo_legal_moves(promoting, ~board.occupied & chess.BB_ALL))
    if board.ep_square is not None:
        moves.extend(board.generate_pseudo_legal_ep())
    if not moves:
        return moves
    return _keep_safe(board, moves)
