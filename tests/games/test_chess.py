"""Chess: python-chess's rules behind the Plyground protocol, checked against outside truth.

Truth comes from published perft counts (perftsuite.epd, CPW "Perft Results"), the polyglot
book-format specification's Zobrist test vectors, hand-checked positions, and python-chess
itself where the wrapper must agree with it (keys, move lists, terminal states).
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Iterator
from typing import Any

import chess
import chess.polyglot
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import get_game
from games.base import BadPositionError, GameError, IllegalMoveError, perft
from games.chess_game import ChessState, PgnError, evaluation, from_pgn, game_result, to_pgn
from tests.conftest import DATA_DIR

CHESS_DATA = DATA_DIR / "chess"
START_FEN = chess.STARTING_FEN
PLAYOUT_PLY_LIMIT = 3000
"""Random games end by the rules long before this (the fifty-move rule bounds them)."""


def perftsuite() -> list[tuple[str, dict[int, int]]]:
    """(FEN, {depth: count}) for each line of perftsuite.epd."""
    rows = []
    for line in (CHESS_DATA / "perftsuite.epd").read_text().splitlines():
        if not line.strip():
            continue
        fen, *fields = (part.strip() for part in line.split(";"))
        counts = {int(field.split()[0][1:]): int(field.split()[1]) for field in fields}
        rows.append((fen, counts))
    return rows


PERFTSUITE = perftsuite()
PERFT_JSON = json.loads((CHESS_DATA / "perft.json").read_text())["positions"]
SAMPLE_FENS = [fen for fen, _counts in PERFTSUITE[::8]]


def play_sans(state: ChessState, sans: str) -> ChessState:
    for san in sans.split():
        state.play(state.parse_move(san))
    return state


def random_playout(state: ChessState, rng: random.Random) -> Iterator[chess.Move]:
    """Play random legal moves until the game ends (or a ply limit); yield each move."""
    for _ply in range(PLAYOUT_PLY_LIMIT):
        moves = state.legal_moves()
        if not moves:
            return
        move = rng.choice(moves)
        state.play(move)
        yield move


def choose_special_move(board: chess.Board, moves: list[chess.Move], rng: random.Random) -> chess.Move:
    """A random move, steered towards en passant, castling and promotion (and towards double
    pawn steps next to an enemy pawn, which offer en passant) so that playouts exercise
    every special case of the incremental key."""
    en_passant = [m for m in moves if board.is_en_passant(m)]
    if en_passant:
        return rng.choice(en_passant)
    special = [m for m in moves if board.is_castling(m) or m.promotion]
    for move in moves:
        if board.pawns & chess.BB_SQUARES[move.from_square] and abs(move.to_square - move.from_square) == 16:
            neighbours = chess.BB_SQUARES[move.to_square] << 1 | chess.BB_SQUARES[move.to_square] >> 1
            if neighbours & chess.BB_RANKS[chess.square_rank(move.to_square)] & board.pawns:
                special.append(move)
    if special and rng.random() < 0.7:
        return rng.choice(special)
    return rng.choice(moves)


def random_states(seed: int, count: int) -> list[ChessState]:
    """Copies of positions met in random playouts from perftsuite positions (which are
    rich in castling, en passant and promotions)."""
    rng = random.Random(seed)
    states: list[ChessState] = []
    while len(states) < count:
        state = ChessState.from_text(rng.choice(PERFTSUITE)[0])
        for _move in random_playout(state, rng):
            if rng.random() < 0.05:
                states.append(state.copy())
    return states[:count]


# ------------------------------------------------------------------ registry & basics
def test_registry_finds_chess() -> None:
    game = get_game("chess")
    assert game is ChessState
    assert game.NAME == "chess"
    assert game.PLAYER_NAMES == ("White", "Black")
    state = game.initial()
    assert state.to_move() == 0
    assert state.to_text() == START_FEN
    assert len(state.legal_moves()) == 20


def test_copy_is_independent() -> None:
    state = play_sans(ChessState.initial(), "e4 e5")
    clone = state.copy()
    clone.play(clone.parse_move("Nf3"))
    assert state.to_text() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    clone.undo()
    clone.undo()
    assert clone.to_text() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert state.key() == chess.polyglot.zobrist_hash(state.board)


# ------------------------------------------------------------------ perft
@pytest.mark.parametrize("fen, counts", PERFTSUITE, ids=[f"suite{i + 1}" for i in range(len(PERFTSUITE))])
def test_perftsuite_depth_2(fen: str, counts: dict[int, int]) -> None:
    """Perft counts by the rules of movement (``ChessState.perft``); where no draw by rule
    can intervene, the protocol's own ``legal_moves`` tree (``games.base.perft``) agrees."""
    state = ChessState.from_text(fen)
    assert state.perft(1) == counts[1]
    assert state.perft(2) == counts[2]
    assert state.to_text() == ChessState.from_text(fen).to_text()
    if not state.board.is_insufficient_material() and state.board.pawns:
        assert perft(state, 1) == counts[1]


def test_start_position_perft_4() -> None:
    state = ChessState.initial()
    assert perft(state, 4) == 197_281  # through legal_moves/play/undo
    assert state.perft(4) == 197_281
    assert state.key() == ChessState.initial().key()


def test_draws_by_rule_cut_the_protocol_tree_but_not_perft() -> None:
    """Kxh8 leaves K v K: the game is over, so legal_moves() is empty there (perftsuite
    line 11 counts 32 leaves at depth 2 by the rules of movement alone)."""
    state = ChessState.from_text("4k2r/6K1/8/8/8/8/8/8 w k - 0 1")
    assert state.perft(2) == 32
    assert perft(state, 2) == 32 - 5
    state.play(state.parse_move("Kxh8"))
    assert state.termination_reason() == "insufficient material"
    assert state.legal_moves() == [] and len(state.all_legal_moves()) == 5


@pytest.mark.parametrize("position", PERFT_JSON, ids=[p["name"] for p in PERFT_JSON])
def test_cpw_perft_positions(position: dict[str, Any]) -> None:
    """Every published depth up to ~100,000 leaves (depth 3 for most positions)."""
    state = ChessState.from_text(position["fen"])
    for depth_text, count in position["perft"].items():
        if count <= 100_000:
            assert state.perft(int(depth_text)) == count, depth_text


@pytest.mark.parametrize("fen", SAMPLE_FENS)
def test_noisy_moves_are_the_legal_captures_and_promotions(fen: str) -> None:
    rng = random.Random(fen)
    state = ChessState.from_text(fen)
    for _move in random_playout(state, rng):
        if state.is_terminal():
            break
        board = state.board
        expected = [m for m in state.legal_moves() if board.is_capture(m) or m.promotion]
        noisy = state.noisy_moves()
        assert sorted(noisy, key=str) == sorted(expected, key=str), state.to_text()
        for move in state.legal_moves():
            assert (state.capture_score(move) > 0) == (move in expected)


def test_capture_score_is_mvv_lva() -> None:
    state = ChessState.from_text("4k3/8/8/3q1r2/4P3/2N5/8/4K3 w - - 0 1")
    pawn_takes_queen = state.parse_move("exd5")
    knight_takes_queen = state.parse_move("Nxd5")
    pawn_takes_rook = state.parse_move("exf5")
    quiet = state.parse_move("Ke2")
    scores = [state.capture_score(m) for m in (pawn_takes_queen, knight_takes_queen, pawn_takes_rook, quiet)]
    assert scores[0] > scores[1] > scores[2] > scores[3] == 0


# ------------------------------------------------------------------ keys
POLYGLOT_VECTORS = {
    # From the polyglot book-format specification (H.G. Muller's page "PolyGlot book format").
    "": 0x463B96181691FC9C,
    "e2e4": 0x823C9B50FD114196,
    "e2e4 d7d5": 0x0756B94461C50FB0,
    "e2e4 d7d5 e4e5": 0x662FAFB965DB29D4,
    "e2e4 d7d5 e4e5 f7f5": 0x22A48B5A8E47FF78,
    "e2e4 d7d5 e4e5 f7f5 e1e2": 0x652A607CA3F242C1,
    "e2e4 d7d5 e4e5 f7f5 e1e2 e8f7": 0x00FDD303C946BDD9,
    "a2a4 b7b5 h2h4 b5b4 c2c4": 0x3C8123EA7B067637,
    "a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3": 0x5C3F9B829B279560,
}


@pytest.mark.parametrize("line, expected", POLYGLOT_VECTORS.items())
def test_key_matches_polyglot_specification(line: str, expected: int) -> None:
    state = ChessState.initial()
    for uci in line.split():
        state.play(state.parse_move(uci))
    assert state.key() == expected


def test_incremental_key_equals_polyglot_hash_on_random_playouts() -> None:
    rng = random.Random(2024)
    seen = {"castling": 0, "en passant": 0, "promotion": 0, "capture": 0}
    en_passant_rich = ["4k3/3p1p2/8/4P1P1/2p1p3/8/3P1P2/4K3 w - - 0 1", START_FEN] * 10
    for fen in [fen for fen, _counts in PERFTSUITE] + en_passant_rich:
        state = ChessState.from_text(fen)
        assert state.key() == chess.polyglot.zobrist_hash(state.board)
        keys = [state.key()]
        for _ply in range(100):
            moves = state.legal_moves()
            if not moves:
                break
            board = state.board
            move = choose_special_move(board, moves, rng)
            seen["castling"] += board.is_castling(move)
            seen["en passant"] += board.is_en_passant(move)
            seen["promotion"] += move.promotion is not None
            seen["capture"] += board.is_capture(move)
            state.play(move)
            assert state.key() == chess.polyglot.zobrist_hash(state.board), state.board.move_stack
            keys.append(state.key())
        while keys:
            assert state.key() == keys.pop()
            if keys:
                state.undo()
    assert all(count >= 10 for count in seen.values()), seen


def test_null_move_keeps_the_key_right() -> None:
    state = play_sans(ChessState.initial(), "e4 d5 e5 f5")  # en passant f6 is possible
    before = state.key()
    assert state.can_null_move()
    state.play_null()
    assert state.to_move() == 1
    assert state.key() == chess.polyglot.zobrist_hash(state.board)
    state.undo_null()
    assert state.key() == before
    assert state.to_text() == "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"


def test_null_move_is_refused_in_check_and_in_pawn_endings() -> None:
    assert not ChessState.from_text("4k3/4r3/8/8/8/8/3Q4/4K3 w - - 0 1").can_null_move()  # check
    assert not ChessState.from_text("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1").can_null_move()
    assert ChessState.from_text("4k3/4p3/8/8/8/8/4P3/3NK3 w - - 0 1").can_null_move()


# ------------------------------------------------------------------ text
@pytest.mark.parametrize("fen", [fen for fen, _counts in PERFTSUITE])
def test_fen_round_trip(fen: str) -> None:
    state = ChessState.from_text(fen)
    assert state.to_text() == chess.Board(fen).fen(en_passant="xfen")
    assert ChessState.from_text(state.to_text()).to_text() == state.to_text()


def test_startpos_word_and_short_fen() -> None:
    assert ChessState.from_text("startpos").to_text() == START_FEN
    assert ChessState.from_text("  startpos ").key() == ChessState.initial().key()
    short = ChessState.from_text("4k3/8/8/8/8/8/8/4K3")
    assert short.to_text() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty position"),
        ("hello", "bad FEN: expected 8 rows"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "expected 'w' or 'b'"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "the board is empty"),
        ("KK6/8/8/8/8/8/8/k7 w - - 0 1", "white has two kings"),
        ("k7/8/8/8/8/8/8/7K b - - 0 1", "valid"),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", "white has no king"),
        ("k7/8/8/8/8/8/8/K6P w - - 0 1", "pawns on the back rank (h1)"),
        ("k7/8/8/8/8/8/8/K5r1 b - - 0 1", "the side not to move is in check"),
        ("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1", "castling right K is impossible: there is no white rook on h1"),
        ("r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", "the white king is not on e1"),
        (START_FEN.replace(" - ", " e3 "), "en passant square e3 is impossible"),
        ("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "black has nine pawns"),
        ("4k3/8/8/8/8/8/3PPP2/3QK2r w - - 0 1", "valid"),
    ],
)
def test_from_text_rejects_broken_fens_with_a_reason(text: str, message: str) -> None:
    if message == "valid":
        ChessState.from_text(text)
        return
    with pytest.raises(BadPositionError) as error:
        ChessState.from_text(text)
    assert message in str(error.value)


def epd_solutions(name: str) -> list[tuple[str, list[str], list[chess.Move]]]:
    """Per line of an EPD suite: (FEN, the best/avoid moves as written, the same moves as
    python-chess's EPD reader understands them)."""
    records = []
    for line in (CHESS_DATA / name).read_text().splitlines():
        if not line.strip():
            continue
        head, *others = line.split(";")
        fields = head.split()
        sans = []
        for operation in [" ".join(fields[4:]), *others]:
            opcode, *operands = operation.split() or [""]
            if opcode in ("bm", "am"):
                sans.extend(operands)
        _board, operations = chess.Board.from_epd(line)
        moves: list[chess.Move] = []
        for key in ("bm", "am"):
            listed = operations.get(key, [])
            assert isinstance(listed, list)
            moves.extend(listed)
        records.append((" ".join(fields[:4]), sans, moves))
    return records


@pytest.mark.parametrize("suite, size", [("wac.epd", 300), ("bk.epd", 24), ("kaufman.epd", 25)])
def test_test_suite_positions_and_solutions_parse(suite: str, size: int) -> None:
    """Every WAC, Bratko-Kopec and Kaufman position loads, and every solution (or move to
    avoid) parses, from the suite's own SAN, to the move python-chess reads there."""
    records = epd_solutions(suite)
    assert len(records) == size
    for fen, sans, expected in records:
        state = ChessState.from_text(fen)
        assert sorted(state.parse_move(san).uci() for san in sans) == sorted(m.uci() for m in expected)


def test_parse_move_accepts_san_and_uci() -> None:
    state = ChessState.initial()
    knight = chess.Move.from_uci("g1f3")
    for text in ("Nf3", "g1f3", "Ng1f3", "Nf3!?", " Nf3 "):
        assert state.parse_move(text) == knight
    state = play_sans(ChessState.initial(), "e4 d5")
    assert state.parse_move("exd5") == chess.Move.from_uci("e4d5")
    castling = ChessState.from_text("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    assert castling.parse_move("O-O") == chess.Move.from_uci("e1g1")
    assert castling.parse_move("0-0") == chess.Move.from_uci("e1g1")
    assert castling.parse_move("e1h1") == chess.Move.from_uci("e1g1")
    two_bishops = ChessState.from_text("8/5Q1B/1k6/8/8/8/8/5K1B w - - 35 51")
    assert two_bishops.parse_move("B7e4") == chess.Move.from_uci("h7e4")  # SAN, not UCI b7e4
    assert ChessState.initial().parse_move("E2E4") == chess.Move.from_uci("e2e4")
    promotion = ChessState.from_text("8/4P3/8/8/8/8/k7/4K3 w - - 0 1")
    assert promotion.parse_move("e8=Q+") == chess.Move.from_uci("e7e8q")
    assert promotion.parse_move("e7e8q") == chess.Move.from_uci("e7e8q")
    assert promotion.parse_move("e8=N") == chess.Move.from_uci("e7e8n")


@pytest.mark.parametrize(
    "fen, text, message",
    [
        (START_FEN, "Nf6", "Nf6 is not legal here"),
        (START_FEN, "e9", "e9 is not a square"),
        (START_FEN, "b10", "b10 is not a square"),
        (START_FEN, "e2e5", "e2e5 is not legal here"),
        (START_FEN, "e7e5", "the piece on e7 is not white's"),
        (START_FEN, "a3a4", "a3 is empty"),
        (START_FEN, "O-O", "O-O is not legal here"),
        (START_FEN, "xyz", "is not a move"),
        (START_FEN, "", "empty move"),
        (START_FEN, "0000", "null move"),
        (START_FEN, "e2e2", "e2e2 moves nothing: it starts and ends on e2"),
        (START_FEN, "B3b3", "b3b3 moves nothing: it starts and ends on b3"),
        ("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2", "Nd2 is ambiguous: knights on b1 and f3 can both go to d2 (write Nbd2 or Nfd2)"),
        ("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8", "must name the promotion piece"),
        ("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8", "e7e8 must name the promotion piece (e7e8q"),
        ("4k3/4r3/8/8/8/8/8/4K3 w - - 0 1", "Ke2", "Ke2 is not legal here: white is in check"),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "Kg8", "the game is over (stalemate)"),
    ],
)
def test_parse_move_errors_say_what_is_wrong(fen: str, text: str, message: str) -> None:
    state = ChessState.from_text(fen)
    with pytest.raises(IllegalMoveError) as error:
        state.parse_move(text)
    assert message in str(error.value)


def test_play_checked_refuses_illegal_moves() -> None:
    state = ChessState.initial()
    with pytest.raises(IllegalMoveError, match="e2e5 is not legal here"):
        state.play_checked(chess.Move.from_uci("e2e5"))
    with pytest.raises(IllegalMoveError):
        state.play_checked("e2e4")  # type: ignore[arg-type]
    state.play_checked(chess.Move.from_uci("e2e4"))
    assert state.to_move() == 1


def test_move_names_are_san() -> None:
    state = play_sans(ChessState.initial(), "e4 e5 Qh5 Nc6 Bc4 Nf6")
    assert state.line_names([state.parse_move("Qxf7")]) == ["Qxf7#"]
    assert state.move_name(chess.Move.from_uci("h5f7")) == "Qxf7#"


# ------------------------------------------------------------------ end of game
def test_checkmate() -> None:
    state = play_sans(ChessState.initial(), "f3 e5 g4 Qh4#")
    assert state.is_terminal()
    assert state.legal_moves() == []
    assert state.termination_reason() == "checkmate"
    assert state.utility(0) == -1.0
    assert state.utility(1) == 1.0
    assert state.winner() == 1
    assert game_result(state) == "0-1"


def test_stalemate() -> None:
    state = ChessState.from_text("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert state.is_terminal()
    assert state.termination_reason() == "stalemate"
    assert state.utility(0) == state.utility(1) == 0.0


def test_threefold_repetition_by_knight_shuffles() -> None:
    state = ChessState.initial()
    shuffle = "Nf3 Nf6 Ng1 Ng8"
    play_sans(state, shuffle)  # the start position, second time
    assert not state.is_terminal()
    play_sans(state, "Nf3 Nf6 Ng1")
    assert not state.is_terminal()
    play_sans(state, "Ng8")  # third time
    assert state.is_terminal()
    assert state.legal_moves() == []
    assert state.termination_reason() == "threefold repetition"
    assert state.utility(0) == 0.0
    assert game_result(state) == "1/2-1/2"
    state.undo()
    assert not state.is_terminal()


def test_repetition_counts_only_identical_positions() -> None:
    """Castling rights differ after a king's round trip, so it is not a repetition."""
    state = ChessState.from_text("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    play_sans(state, "Kf1 Kf8 Ke1 Ke8 Kf1 Kf8 Ke1 Ke8")
    assert not state.is_terminal()  # the third time, but the first one had castling rights
    play_sans(state, "Kf1")  # the position after 1. Kf1, a third time
    assert state.termination_reason() == "threefold repetition"


def test_en_passant_that_is_illegal_does_not_make_a_position_different() -> None:
    """After d2-d4, exd3 e.p. would expose Black's king on a4 to the rook on h4. Polyglot
    (and X-FEN) still record the en passant file; FIDE's repetition rule ignores it, so the
    start position counts as the first of three."""
    state = ChessState.from_text("8/8/8/8/k2Pp2R/8/8/4K3 b - d3 0 1")
    assert state.to_text() == "8/8/8/8/k2Pp2R/8/8/4K3 b - d3 0 1"
    assert state.key() == chess.polyglot.zobrist_hash(state.board)
    assert chess.Move.from_uci("e4d3") not in state.legal_moves()
    play_sans(state, "Ka5 Ke2 Ka4 Ke1 Ka5 Ke2 Ka4")
    assert not state.is_terminal()
    play_sans(state, "Ke1")
    assert state.termination_reason() == "threefold repetition"


def test_states_pickle() -> None:
    """The engine's worker processes receive states by pickling."""
    state = play_sans(ChessState.initial(), "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1")
    clone = pickle.loads(pickle.dumps(state))
    assert (clone.to_text(), clone.key()) == (state.to_text(), state.key())
    clone.play(clone.parse_move("Ng8"))
    assert clone.termination_reason() == "threefold repetition"


def test_fifty_move_rule() -> None:
    state = ChessState.from_text("4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    assert not state.is_terminal()
    state.play(state.parse_move("Ra2"))
    assert state.is_terminal()
    assert state.termination_reason() == "fifty-move rule"
    assert state.utility(0) == 0.0


def test_checkmate_on_the_hundredth_half_move_wins() -> None:
    state = ChessState.from_text("6k1/5ppp/8/8/8/8/8/R3K3 w - - 99 80")
    state.play(state.parse_move("Ra8#"))
    assert state.termination_reason() == "checkmate"
    assert state.utility(0) == 1.0


@pytest.mark.parametrize(
    "fen, is_draw",
    [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", True),  # K v K
        ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", True),  # K+B v K
        ("4k3/8/8/8/8/8/8/1N2K3 b - - 0 1", True),  # K+N v K
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", False),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", False),
    ],
)
def test_insufficient_material(fen: str, is_draw: bool) -> None:
    state = ChessState.from_text(fen)
    assert state.is_terminal() == is_draw
    assert (state.termination_reason() == "insufficient material") == is_draw


def test_terminal_tests_agree_with_python_chess_on_random_games() -> None:
    rng = random.Random(99)
    reasons: set[str] = set()
    for _game in range(40):
        state = ChessState.initial()
        while True:
            board = state.board
            expected = (
                board.is_checkmate()
                or board.is_stalemate()
                or board.is_insufficient_material()
                or board.is_fifty_moves()
                or board.is_repetition(3)
            )
            assert state.is_terminal() == expected
            assert state.is_in_check() == board.is_check()
            if expected:
                reasons.add(state.termination_reason())
                break
            moves = state.legal_moves()
            assert sorted(moves, key=str) == sorted(board.legal_moves, key=str)
            state.play(rng.choice(moves))
    assert {"checkmate", "insufficient material"} <= reasons


# ------------------------------------------------------------------ PGN
def test_pgn_round_trip() -> None:
    state = play_sans(ChessState.initial(), "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 O-O f6 d4 exd4 Nxd4 c5")
    text = to_pgn(state, {"White": "Ada", "Black": "Bob", "Event": "Club"})
    assert '[White "Ada"]' in text and '[Result "*"]' in text
    assert "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6" in text
    game = from_pgn(text)
    assert game.headers["White"] == "Ada"
    assert game.result == "*"
    assert game.moves == list(state.board.move_stack)
    assert game.state.to_text() == state.to_text()
    assert game.state.key() == state.key()
    assert to_pgn(game.state, game.headers) == text


def test_pgn_from_a_position_keeps_fen_and_result() -> None:
    state = ChessState.from_text("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1")
    state.play(state.parse_move("Ra8#"))
    text = to_pgn(state, {"Result": "0-1"})  # the rules win over a wrong Result
    assert '[FEN "6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1"]' in text
    assert '[Result "1-0"]' in text and text.rstrip().endswith("1. Ra8# 1-0")
    game = from_pgn(text)
    assert game.result == "1-0"
    assert game.state.termination_reason() == "checkmate"
    game.state.undo()
    assert game.state.to_text() == "6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1"


def test_pgn_with_comments_variations_and_nags() -> None:
    text = '[Event "x"]\n\n1. e4 {best by test} e5 2. Nf3 Nc6 (2... Nf6 3. Nxe5) 3. Bb5 a6 $1 4. Ba4!? *\n'
    game = from_pgn(text)
    assert len(game.moves) == 7
    assert game.state.to_text() == "r1bqkbnr/1ppp1ppp/p1n5/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 1 4"


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty PGN: no game"),
        ("hello world", "PGN movetext word 'hello' is not a move, move number, comment or result"),
        ("1. e4 e5 2. Nf6 *", "PGN move 2. Nf6 is not legal here: no white knight can move to f6"),
        ("1. e4 Nf3 *", "PGN move 1... Nf3 is not legal here: no black knight can move to f3"),
        (
            "1. e4 e5 2. Nf3 (2. Bb5 Bb4 3. O-O) Nc6 *",
            "PGN move 3. O-O is not legal here: the squares between king and rook must be empty, and g1 is not",
        ),
        ("1. e4 e5 2. N3 *", "PGN movetext word 'N3' is not a move, move number, comment or result"),
        ('[Event "x"\n\n1. e4 *', "PGN line 1 is not a header of the form [Name \"value\"]: '[Event \"x\"'"),
        ('[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n*', "the board is empty"),
        ('[FEN "xx"]\n\n*', "PGN error: expected 8 rows in position part of fen: 'xx'"),
        (
            '[FEN "4k3/8/8/8/8/8/8/4K3 w - - 0 0"]\n\n*',
            "PGN start position: bad FEN: the move number counts from 1, not 0: '4k3/8/8/8/8/8/8/4K3 w - - 0 0'",
        ),
        ('[Result "2-0"]\n\n1. e4 *', "Result tag '2-0' is not one of 1-0, 0-1, 1/2-1/2, *"),
        ("1. e4 {no end 2. e5 *", "a PGN comment opened with '{' is never closed with '}'"),
        ('[Event "?"]\n\n1. 4 e5 2.) Nf3 *', "PGN variation closed with ')' that was never opened: '1. 4 e5 2.)'"),
        ("1. e4 e5) *", "PGN variation closed with ')' that was never opened: '1. e4 e5)'"),
        ("1. e4 (1. d4 e5 2. Nf3 *", "1 PGN variation(s) opened with '(' never closed with ')' before the result '*'"),
        ("1. e4 (1. d4 (1. c4", "2 PGN variation(s) opened with '(' never closed with ')'"),
        ("( 1. e4 ) *", "PGN variation opened with '(' before any move it could replace: '('"),
        (
            "1. e4 f5 2. Qh5+ -- 3. Qxe8 *",
            "PGN move 2... is a null move: a variation may show one, but the game itself cannot pass",
        ),
        ("1. e4 e5 2. Nf3 1-0 2... Nc6", "PGN movetext goes on after the result '1-0': '1. e4 e5 2. Nf3 1-0 2...'"),
    ],
)
def test_corrupt_pgn_is_refused(text: str, message: str) -> None:
    with pytest.raises(PgnError) as error:
        from_pgn(text)
    if message == "the board is empty":
        assert message in str(error.value)
    else:
        assert str(error.value) == message
    assert isinstance(error.value, BadPositionError) and isinstance(error.value, GameError)


VALID_PGN = '[Event "x"]\n[Result "*"]\n\n1. e4 {best} e5 2. Nf3 Nc6 (2... Nf6 3. Nxe5) 3. Bb5 a6 $1 *\n'
PGN_ALPHABET = st.sampled_from(list("[]{}()\"; .\n$!?*-/0123456789abcdefghKQRBNxO+#=%") + ["e4", "Nf3", "1.", "1-0", "--", "Qh5+", "Qxe8"])


def _read_pgn_or_clean_error(text: str) -> None:
    try:
        game = from_pgn(text)
    except PgnError as error:
        assert str(error)
        return
    assert game.state.board.is_valid()
    assert len(game.moves) == len(game.state.board.move_stack)


@settings(max_examples=400, deadline=None)
@given(st.lists(PGN_ALPHABET, max_size=60).map("".join))
def test_random_text_to_from_pgn_is_a_game_or_a_clean_error(text: str) -> None:
    _read_pgn_or_clean_error(text)


VALID_PGNS = [
    VALID_PGN,
    '[Event "y"]\n[SetUp "1"]\n[FEN "4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1"]\n[Result "1-0"]\n\n'
    "1. b8=Q+ Kd7 2. O-O-O+ (2. Qb5+ Ke6 3. O-O) 2... Ke6 3. Rd6+ 1-0\n",
]
"""Games to mutate: comments, variations, NAGs, a FEN start, promotion and both castlings."""


@st.composite
def mutated_pgns(draw: st.DrawFn) -> str:
    """A valid PGN with one to three insertions, deletions or replacements."""
    text = draw(st.sampled_from(VALID_PGNS))
    for _ in range(draw(st.integers(1, 3))):
        start = draw(st.integers(0, len(text)))
        length = draw(st.integers(0, 6))
        insert = draw(st.one_of(st.text(max_size=4), st.lists(PGN_ALPHABET, max_size=3).map("".join)))
        text = text[:start] + insert + text[start + length :]
    return text


@settings(max_examples=400, deadline=None)
@given(mutated_pgns())
def test_mutated_pgn_is_a_game_or_a_clean_error(text: str) -> None:
    _read_pgn_or_clean_error(text)


def test_a_null_move_in_a_variation_is_kept_out_of_the_game() -> None:
    game = from_pgn("1. e4 e5 (1... -- 2. d4) 2. Nf3 *")
    assert [move.uci() for move in game.moves] == ["e2e4", "e7e5", "g1f3"]


def test_both_sample_games_read() -> None:
    assert [len(from_pgn(text).moves) for text in VALID_PGNS] == [6, 5]


# ------------------------------------------------------------------ evaluation
def test_evaluate_is_the_sum_of_its_features_and_antisymmetric() -> None:
    for state in random_states(seed=5, count=60) + [ChessState.initial()]:
        evaluation.clear_caches()
        for player in (0, 1):
            breakdown = state.evaluation_features(player)
            total = sum(weight * value for weight, value in breakdown.values())
            assert state.evaluate(player) == pytest.approx(total, abs=1e-6)
        assert state.evaluate(0) == -state.evaluate(1)
        assert state.evaluate(0) == state.evaluate(0)  # from the cache, unchanged


def test_features_name_the_required_terms() -> None:
    names = set(ChessState.initial().evaluation_features(0))
    assert {"pawns", "queens", "piece_squares", "knight_mobility", "king_pawn_shield"} <= names
    assert {"king_zone_attacks", "doubled_pawns", "isolated_pawns", "passed_pawns"} <= names
    assert ChessState.initial().evaluate(0) == 0.0


def test_mirrored_position_scores_the_same_for_the_other_side() -> None:
    for state in random_states(seed=11, count=40):
        mirrored = ChessState.from_text(state.board.mirror().fen())
        assert mirrored.evaluate(1) == state.evaluate(0)
        assert mirrored.evaluate(0) == state.evaluate(1)


def test_a_queen_up_scores_much_higher() -> None:
    full = ChessState.initial()
    without_black_queen = ChessState.from_text("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert without_black_queen.evaluate(0) > full.evaluate(0) + 800
    assert without_black_queen.evaluate(1) < -800


def test_pawn_structure_terms() -> None:
    # White: doubled and isolated c-pawns; Black: a passed pawn on a3.
    state = ChessState.from_text("4k3/8/8/8/2P5/p1P5/8/4K3 w - - 0 1")
    features = state.evaluation_features(0)
    assert features["doubled_pawns"][1] == 1.0
    assert features["isolated_pawns"][1] == 2.0 - 1.0  # both c-pawns, and the a-pawn
    assert features["passed_pawns"][1] < 0  # Black's a3 pawn is far advanced
    assert features["doubled_pawns"][0] < 0 and features["passed_pawns"][0] > 0


def test_king_safety_terms() -> None:
    sheltered = ChessState.from_text("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1")
    exposed = ChessState.from_text("6k1/5ppp/8/8/8/5PPP/8/6K1 w - - 0 1")
    assert sheltered.evaluation_features(0)["king_pawn_shield"][1] == 0.0
    assert exposed.evaluation_features(0)["king_pawn_shield"][1] == 0.0  # still within 2 ranks
    bare = ChessState.from_text("6k1/5ppp/8/8/8/8/8/6K1 w - - 0 1")
    assert bare.evaluation_features(0)["king_pawn_shield"][1] == -3.0
    attacked = ChessState.from_text("6k1/8/8/8/8/8/5q2/6K1 w - - 0 1")
    assert attacked.evaluation_features(0)["king_zone_attacks"][1] < 0


def test_rooks_on_open_and_semi_open_files() -> None:
    # White: Rd1 on a file without pawns, Re1 on a file with only Black's e6 pawn;
    # Black: Ra8 behind its own a7 pawn (neither).
    features = ChessState.from_text("r3k3/p7/4p3/8/8/8/8/3RRK2 w - - 0 1").evaluation_features(0)
    assert features["rook_open_file"][1] == 1.0
    assert features["rook_semi_open_file"][1] == 1.0
    black_view = ChessState.from_text("r3k3/p7/4p3/8/8/8/8/3RRK2 w - - 0 1").evaluation_features(1)
    assert black_view["rook_open_file"][1] == -1.0


def test_pawn_threats_count_pieces_attacked_by_pawns() -> None:
    # White's d4 pawn attacks the knight on c5 and the bishop on e5; Black's g5 pawn attacks
    # the rook on h4. Pawns and kings attacked by pawns do not count.
    features = ChessState.from_text("4k3/8/8/2n1b1p1/3P3R/8/8/4K3 w - - 0 1").evaluation_features(0)
    assert features["pawn_threats"][1] == 2.0 - 1.0
    no_pieces = ChessState.from_text("8/8/8/2p1k3/3P4/8/8/4K3 b - - 0 1").evaluation_features(0)
    assert no_pieces["pawn_threats"][1] == 0.0


def test_threats_by_minor_pieces_and_rooks_and_hanging_pieces() -> None:
    # The knight on c4 attacks the rook on d6, which nothing defends: a minor threat and a
    # hanging piece; the rook attacks nothing.
    features = ChessState.from_text("4k3/8/3r4/8/2N5/8/8/4K3 w - - 0 1").evaluation_features(0)
    assert (features["minor_threats"][1], features["rook_threats"][1], features["hanging_pieces"][1]) == (1, 0, 1)
    # The rook on d1 attacks the queen on d8 (and she it): each is defended by its king.
    features = ChessState.from_text("3qk3/8/8/8/8/8/8/3RK3 w - - 0 1").evaluation_features(0)
    assert (features["minor_threats"][1], features["rook_threats"][1], features["hanging_pieces"][1]) == (0, 1, 0)
    # The rook on d1 attacks the knight on d5, which nothing defends; from Black's view -1.
    features = ChessState.from_text("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1").evaluation_features(1)
    assert (features["minor_threats"][1], features["rook_threats"][1], features["hanging_pieces"][1]) == (0, 0, -1)
    # The knight on c4 attacks the rook on d6 and the queen on b6, each defending the other;
    # the bishop on h4 attacks the queen on e1, and she it: both hang.
    features = ChessState.from_text("k7/8/1q1r4/8/2N4b/8/8/4Q2K w - - 0 1").evaluation_features(0)
    assert (features["minor_threats"][1], features["rook_threats"][1], features["hanging_pieces"][1]) == (2 - 1, 0, 1 - 1)


def test_king_open_files_count_the_kings_files_without_its_own_pawns() -> None:
    # White's king on g1 has pawns on f2 and h2 but none on g: one open file. Black's king
    # on a8 (files a and b) has a pawn on b7: one.
    features = ChessState.from_text("k7/1p6/8/8/8/8/5P1P/6K1 w - - 0 1").evaluation_features(0)
    assert features["king_open_files"][1] == 1 - 1
    features = ChessState.from_text("k7/8/8/8/8/8/5PPP/6K1 w - - 0 1").evaluation_features(0)
    assert features["king_open_files"][1] == 0 - 2


def test_king_attack_needs_two_attackers_and_grows_with_the_square_of_their_units() -> None:
    # The queen on h5 (5 units: h7, h8, f7) and the knight on g5 (2 units: f7, h7) attack
    # the zone of the king on g8: min(7, 16)^2 // 4 = 12.
    both = ChessState.from_text("6k1/8/8/6NQ/8/8/8/4K3 w - - 0 1").evaluation_features(0)
    assert both["king_attack"][1] == 12.0
    queen_alone = ChessState.from_text("6k1/8/8/7Q/8/8/8/4K3 w - - 0 1").evaluation_features(0)
    assert queen_alone["king_attack"][1] == 0.0
    # Queen, two rooks, knight and bishop (through f7 and g7): 5 + 3 + 3 + 2 + 2 = 15
    # units, 15^2 // 4 = 56.
    five = ChessState.from_text("6k1/5pp1/8/3BN2Q/8/8/8/4KRR1 w - - 0 1").evaluation_features(0)
    assert five["king_attack"][1] == 56.0


def test_free_passed_pawns_count_by_rank() -> None:
    # White's b6 passer (sixth rank: 6) has b7 free; Black's g3 passer is blocked by Ng2.
    features = ChessState.from_text("4k3/8/1P6/8/8/6p1/6N1/4K3 w - - 0 1").evaluation_features(0)
    assert features["passed_pawn_free"][1] == 6.0
    # A blocked passer, and a pawn that is not passed, are not free passers.
    blocked = ChessState.from_text("4k3/1n6/1P6/8/8/8/8/4K3 w - - 0 1").evaluation_features(0)
    assert blocked["passed_pawn_free"][1] == 0.0
    not_passed = ChessState.from_text("4k3/2p5/1P6/8/8/8/8/4K3 w - - 0 1").evaluation_features(0)
    assert not_passed["passed_pawn_free"][1] == 0.0


def test_king_passer_distance_is_the_kings_race_to_the_square_in_front() -> None:
    # White's b6 passer (factor 4): the white king on c6 is 1 step from b7, the black king
    # on h1 6 steps: 4 * (6 - 1) = 20. With the kings swapped round it counts against White.
    escorted = ChessState.from_text("8/8/1PK5/8/8/8/8/7k w - - 0 1").evaluation_features(0)
    assert escorted["king_passer_distance"][1] == 20.0
    caught = ChessState.from_text("8/8/1Pk5/8/8/8/8/7K w - - 0 1").evaluation_features(0)
    assert caught["king_passer_distance"][1] == -20.0
    weight_middlegame, weight_endgame = evaluation.tables.EVAL_WEIGHTS["king_passer_distance"]
    assert escorted["king_passer_distance"][0] == weight_endgame  # phase 0: the endgame half


# ------------------------------------------------------------------ property tests
FEN_ALPHABET = "pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0123456789x+\u00b2"


@st.composite
def mutated_fens(draw: st.DrawFn) -> str:
    text = list(draw(st.sampled_from([START_FEN] + SAMPLE_FENS)))
    for _edit in range(draw(st.integers(1, 4))):
        position = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["replace", "delete", "insert"]))
        char = draw(st.sampled_from(FEN_ALPHABET))
        if kind == "insert" or position == len(text):
            text.insert(position, char)
        elif kind == "delete":
            del text[position]
        else:
            text[position] = char
    return "".join(text)


@settings(deadline=None, max_examples=300)
@given(st.one_of(st.text(max_size=80), mutated_fens()))
def test_from_text_accepts_or_raises_bad_position(text: str) -> None:
    try:
        state = ChessState.from_text(text)
    except BadPositionError as error:
        assert str(error)
        return
    assert ChessState.from_text(state.to_text()).to_text() == state.to_text()
    assert state.key() == chess.polyglot.zobrist_hash(state.board)
    state.legal_moves()
    state.is_terminal()
    state.evaluate(0)


MOVE_ALPHABET = "abcdefghijxyz0123456789NBRQKO-=+#!?x "


@settings(deadline=None, max_examples=300)
@given(
    st.sampled_from([START_FEN] + SAMPLE_FENS),
    st.one_of(st.text(max_size=12), st.text(alphabet=MOVE_ALPHABET, max_size=8)),
)
def test_parse_move_accepts_or_raises_illegal_move(fen: str, text: str) -> None:
    state = ChessState.from_text(fen)
    try:
        move = state.parse_move(text)
    except IllegalMoveError as error:
        assert str(error)
        return
    assert move in state.legal_moves()


@settings(deadline=None, max_examples=15)
@given(st.integers(0, 2**32 - 1))
def test_random_playouts_undo_and_keys(seed: int) -> None:
    rng = random.Random(seed)
    state = ChessState.from_text(rng.choice([START_FEN] + SAMPLE_FENS))
    for _ply in range(PLAYOUT_PLY_LIMIT):
        if state.is_terminal():
            break
        moves = state.legal_moves()
        move = rng.choice(moves)
        key, text = state.key(), state.to_text()
        state.play(move)
        fresh = ChessState.from_text(state.to_text())
        assert state.key() == fresh.key()
        state.undo()
        assert (state.key(), state.to_text()) == (key, text)
        state.play(move)
    else:
        pytest.fail("the playout did not end")
    assert state.legal_moves() == []
    assert state.termination_reason()


@settings(deadline=None, max_examples=25)
@given(st.integers(0, 2**32 - 1))
def test_text_and_move_round_trips(seed: int) -> None:
    rng = random.Random(seed)
    state = ChessState.from_text(rng.choice([START_FEN] + SAMPLE_FENS))
    for _move in random_playout(state, rng):
        text = state.to_text()
        assert ChessState.from_text(text).to_text() == text
        if rng.random() < 0.2:
            for move in state.legal_moves():
                assert state.parse_move(state.move_name(move)) == move
                assert state.parse_move(move.uci()) == move


PINNED_PAWN = "4k3/8/8/8/7b/8/5P2/4K3 w - - 0 1"
"""The f2 pawn is pinned to the king on e1 by the bishop on h4."""
ROOK_ON_F7 = "4k3/5r2/8/8/8/8/8/4K3 w - - 0 1"
EN_PASSANT_DISCOVERS_CHECK = "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 2"
"""dxe6 would take both pawns off the fifth rank, opening it for the rook on h5."""


@pytest.mark.parametrize(
    ("fen", "text", "reason"),
    [
        (None, "Qh5", "the queen on d1 cannot reach h5: e2 is in the way"),
        (None, "Bb5", "the bishop on f1 cannot reach b5: e2 is in the way"),
        (None, "d1h5", "the queen on d1 cannot reach h5: e2 is in the way"),
        (None, "e5", "the pawn on e2 cannot move to e5"),
        (None, "e2e5", "the pawn on e2 cannot move to e5"),
        (None, "g1g3", "the knight on g1 cannot move to g3"),
        (None, "Ke3", "the king on e1 cannot move to e3"),
        (None, "Nd2", "d2 holds white's own pawn"),
        (None, "exd5", "there is nothing to capture on d5"),
        (None, "e7e5", "the piece on e7 is not white's: it is a black pawn"),
        (None, "O-O", "the squares between king and rook must be empty, and f1 and g1 are not"),
        (None, "e1g1", "the squares between king and rook must be empty, and f1 and g1 are not"),
        ("4k3/8/8/8/8/8/4r3/4K2R w K - 0 1", "O-O", "white is in check, and a king in check cannot castle"),
        ("4k3/8/8/8/8/5r2/8/R3K2R w KQ - 0 1", "O-O", "the king may not pass through check, and f1 is attacked"),
        ("4k3/8/8/8/8/6r1/8/R3K2R w KQ - 0 1", "O-O", "the king would be in check on g1"),
        ("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "O-O", "white has lost the right to castle kingside"),
        ("4k3/8/8/8/8/8/4q3/R3K3 w Q - 0 1", "Ra2", "white is in check and Ra2 does not get out of it"),
        ("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1", "Kd1", "white is in check, and the king would still be in check on d1"),
        (ROOK_ON_F7, "Kf2", "the king would be in check on f2"),
        (ROOK_ON_F7, "e1f1", "the king would be in check on f1"),
        (
            "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1",
            "Nc3",
            "the knight on e2 is pinned by the rook on e8: moving it would leave the white king in check",
        ),
        (PINNED_PAWN, "f3", "the pawn on f2 is pinned by the bishop on h4: moving it would leave the white king in check"),
        (PINNED_PAWN, "f2f4", "the pawn on f2 is pinned by the bishop on h4: moving it would leave the white king in check"),
        (EN_PASSANT_DISCOVERS_CHECK, "dxe6", "the en passant capture would leave the white king in check"),
        ("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "Qd4", "white has no queen"),
        ("3k4/8/8/8/8/8/4p3/4K3 b - - 0 1", "e2e1", "a pawn cannot capture straight ahead, and e1 is occupied"),
    ],
)
def test_an_illegal_move_says_why(fen: str | None, text: str, reason: str) -> None:
    state = ChessState.initial() if fen is None else ChessState.from_text(fen)
    with pytest.raises(IllegalMoveError) as error:
        state.parse_move(text)
    assert str(error.value) == f"{text} is not legal here: {reason}"


@pytest.mark.parametrize(
    ("fen", "san", "message"),
    [
        ("4k3/8/8/8/8/8/3N4/4K1N1 w - - 0 1", "Nf3", "Nf3 is ambiguous: knights on d2 and g1 can both go to f3 (write Ndf3 or Ngf3)"),
        ("4k3/8/8/8/8/2N5/8/2N1K3 w - - 0 1", "Ne2", "Ne2 is ambiguous: knights on c1 and c3 can both go to e2 (write N1e2 or N3e2)"),
        (
            "4k3/8/8/8/8/2N1N3/8/2N1K3 w - - 0 1",
            "Nd1",
            "Nd1 is ambiguous: knights on c3 and e3 can both go to d1 (write Ncd1 or Ned1)",
        ),
        (
            "k7/8/8/8/8/2Q1Q3/8/2Q1K3 w - - 0 1",
            "Qd2",
            "Qd2 is ambiguous: queens on c1, c3 and e3 can all go to d2 (write Q1d2, Qc3d2 or Qed2)",
        ),
    ],
)
def test_an_ambiguous_move_names_the_pieces(fen: str, san: str, message: str) -> None:
    with pytest.raises(IllegalMoveError) as error:
        ChessState.from_text(fen).parse_move(san)
    assert str(error.value) == message


@settings(deadline=None, max_examples=300)
@given(st.sampled_from([START_FEN, PINNED_PAWN, EN_PASSANT_DISCOVERS_CHECK] + SAMPLE_FENS), st.integers(0, 63), st.integers(0, 63))
def test_every_illegal_from_to_pair_gets_a_reason(fen: str, origin: int, target: int) -> None:
    state = ChessState.from_text(fen)
    if state.is_terminal() or origin == target:
        return
    uci = chess.SQUARE_NAMES[origin] + chess.SQUARE_NAMES[target]
    try:
        move = state.parse_move(uci)
    except IllegalMoveError as error:
        assert str(error).startswith(f"{uci} is not legal here: ") or "must name the promotion piece" in str(error)
        return
    assert move in state.legal_moves()


def test_play_checked_says_why_too() -> None:
    with pytest.raises(IllegalMoveError) as error:
        ChessState.initial().play_checked(chess.Move.from_uci("d1h5"))
    assert str(error.value) == "d1h5 is not legal here: the queen on d1 cannot reach h5: e2 is in the way"


@pytest.mark.parametrize(
    ("clocks", "message"),
    [
        ("0 0", "the move number counts from 1, not 0"),
        ("0 00", "the move number counts from 1, not 00"),
        ("0 -3", "the move number counts from 1, not -3"),
        ("0 +1", "the move number must be a whole number from 1, not '+1'"),
        ("0 \u00b2", "the move number must be a whole number from 1, not '\u00b2'"),
        ("0 x", "the move number must be a whole number from 1, not 'x'"),
        ("-1 1", "the half-move clock cannot be negative, not -1"),
        ("-0 1", "the half-move clock must be a whole number, not '-0'"),
        ("+0 1", "the half-move clock must be a whole number, not '+0'"),
        ("x 1", "the half-move clock must be a whole number, not 'x'"),
    ],
)
def test_fen_clocks_are_checked(clocks: str, message: str) -> None:
    fen = f"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - {clocks}"
    with pytest.raises(BadPositionError) as error:
        ChessState.from_text(fen)
    assert str(error.value) == f"bad FEN: {message}: {fen!r}"


def test_fen_clocks_that_are_right_are_kept() -> None:
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 12 1"
    assert ChessState.from_text(fen).to_text() == fen
    assert ChessState.from_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").to_text().endswith(" 0 1")
