"""The chess network: its file, its Python reference, and the compiled search's copy of it.

The compiled search keeps the first layer's sums in each position and changes them with the
pieces a move moves; these tests hold it to the plain-Python evaluation of the same integers
(``games.chess_game.network.network_score``) after games of random moves, castling, en
passant and promotions included."""

from __future__ import annotations

import base64
import json
import random
from array import array
from pathlib import Path

import chess
import pytest

from ai.match.players import SpecError, parse_builtin
from games.chess_game import ChessState, native, network
from games.chess_game.native import _search, native_network_score
from tests.native_extensions import require_module

require_module(_search is not None, "the compiled chess search", native.NATIVE_SEARCH_BACKEND)


def network_document(seed: int, scale: int = 40) -> dict[str, object]:
    """A random network in the file format (weights of a trained network's size)."""
    rng = random.Random(seed)

    def pack(count: int, spread: int) -> str:
        return base64.b64encode(array("h", [rng.randint(-spread, spread) for _ in range(count)]).tobytes()).decode()

    return {
        "format": network.FORMAT,
        "hidden": network.HIDDEN,
        "ft_scale": 255,
        "out_scale": 64,
        "output_cp": 400,
        "feature_weights": pack(network.INPUTS * network.HIDDEN, scale),
        "feature_bias": pack(network.HIDDEN, scale),
        "output_weights": pack(2 * network.HIDDEN, 40),
        "output_bias": rng.randint(-5000, 5000),
        "note": f"random, seed {seed}",
    }


@pytest.fixture
def random_network(tmp_path: Path) -> tuple[Path, network.Network]:
    path = tmp_path / "net.json"
    path.write_text(json.dumps(network_document(1)), encoding="utf-8")
    return path, network.read_network(path)


@pytest.fixture(autouse=True)
def no_network_after() -> object:
    """Each test leaves the process as it found it: the shipped network, if any (some tests
    hand C a network directly, behind ``network.select``'s back)."""
    yield
    network.select("")
    native._synced_network = -1  # C's network is unknown: hand it over again
    native_network_score(chess.STARTING_FEN)


def random_games(seed: int, games: int, plies: int) -> list[list[chess.Move]]:
    rng = random.Random(seed)
    lines = []
    for _ in range(games):
        board = chess.Board()
        line: list[chess.Move] = []
        while not board.is_game_over() and len(line) < plies:
            moves = list(board.legal_moves)
            # Prefer the rare moves the incremental update must get right.
            special = [m for m in moves if board.is_castling(m) or board.is_en_passant(m) or m.promotion]
            move = rng.choice(special) if special and rng.random() < 0.7 else rng.choice(moves)
            board.push(move)
            line.append(move)
        lines.append(line)
    return lines


def test_the_compiled_network_equals_the_python_one_after_every_kind_of_move(random_network) -> None:
    _path, net = random_network
    _search.set_network(*net.arguments())
    kinds: set[str] = set()
    checked = 0
    for line in random_games(seed=7, games=12, plies=160):
        board = chess.Board()
        for number, move in enumerate(line, start=1):
            if board.is_castling(move):
                kinds.add("castling")
            if board.is_en_passant(move):
                kinds.add("en passant")
            if move.promotion:
                kinds.add("promotion")
            if board.is_capture(move):
                kinds.add("capture")
            board.push(move)
            if number % 5 == 0 or board.is_game_over():
                incremental = _search.network_evaluate(chess.STARTING_FEN, [m.uci() for m in line[:number]])
                fresh = _search.network_evaluate(board.fen())
                assert incremental == fresh == network.network_score(net, board), board.fen()
                checked += 1
    assert kinds == {"castling", "en passant", "promotion", "capture"}
    assert checked > 200


def test_the_network_is_side_to_move_relative(random_network) -> None:
    """The same position seen by the other side (colours swapped, board mirrored) gets the
    same correction: both perspectives share their weights."""
    _path, net = random_network
    _search.set_network(*net.arguments())
    for line in random_games(seed=3, games=4, plies=40):
        board = chess.Board()
        for move in line:
            board.push(move)
        mirrored = board.mirror()
        assert _search.network_evaluate(board.fen()) == _search.network_evaluate(mirrored.fen())
        assert network.network_score(net, board) == network.network_score(net, mirrored)


def test_without_a_network_the_correction_is_zero_and_the_search_is_the_old_one(random_network) -> None:
    _path, net = random_network
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"

    def nodes() -> int:
        searcher = ChessState.native_searcher(4)
        reports = []
        searcher.search(ChessState.from_text(fen), 8, lambda *_: None, lambda r: reports.append(r) or False)
        return reports[-1].nodes

    network.select("off")
    assert native_network_score(fen) == 0
    plain = nodes()
    network.select(str(_path))
    assert network.current == net
    with_network = nodes()
    assert native_network_score(fen) == network.network_score(net, chess.Board(fen)) != 0
    network.select("off")
    assert nodes() == plain != with_network


def test_a_search_with_a_network_still_finds_a_mate(random_network) -> None:
    path, _net = random_network
    network.select(str(path))
    searcher = ChessState.native_searcher(4)
    reports = []
    state = ChessState.from_text("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")  # Rd8#
    searcher.search(state, 4, lambda *_: None, lambda r: reports.append(r) or False)
    assert reports[-1].pv[0] == chess.Move.from_uci("d1d8")
    assert reports[-1].win_in_plies == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: "{not json", "not JSON"),
        (lambda d: json.dumps({**d, "format": "other"}), "not a plyground-chess-network-1 file"),
        (lambda d: json.dumps({**d, "hidden": 32}), "built for 64"),
        (lambda d: json.dumps({**d, "ft_scale": 0}), "ft_scale must be an integer"),
        (lambda d: json.dumps({**d, "output_cp": "400"}), "output_cp must be an integer"),
        (lambda d: json.dumps({**d, "output_bias": True}), "output_bias must be an integer"),
        (lambda d: json.dumps({**d, "feature_bias": "!!!"}), "feature_bias is not valid base64"),
        (lambda d: json.dumps({**d, "feature_bias": 12}), "feature_bias must be a base64 string"),
        (lambda d: json.dumps({**d, "output_weights": d["output_weights"][:-8]}), "output_weights needs 128"),
        (lambda d: json.dumps(network_document(2, scale=2000)), "too large"),
        (lambda d: "", "not JSON"),
        (lambda d: "[]", "not a plyground"),
    ],
)
def test_a_bad_network_file_is_one_clear_error_and_changes_nothing(tmp_path: Path, change, message: str) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(network_document(1)), encoding="utf-8")
    network.select(str(good))
    before = (network.current, network.generation)
    bad = tmp_path / "bad.json"
    bad.write_text(change(network_document(1)), encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        network.select(str(bad))
    assert (network.current, network.generation) == before


def test_the_compiled_module_refuses_a_network_it_cannot_hold() -> None:
    net = network.parse_network(json.dumps(network_document(1)))
    arguments = list(net.arguments())
    with pytest.raises(ValueError, match="hidden units"):
        _search.set_network(32, *arguments[1:])
    with pytest.raises(ValueError, match="feature_bias needs"):
        _search.set_network(*arguments[:5], b"\0" * 3, *arguments[6:])
    large = array("h", [2000] * (network.INPUTS * network.HIDDEN)).tobytes()
    with pytest.raises(ValueError, match="too large"):
        _search.set_network(*arguments[:4], large, *arguments[5:])
    with pytest.raises(TypeError):
        _search.set_network("x")


def test_a_missing_network_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read chess network"):
        network.select(str(tmp_path / "none.json"))


def test_a_match_player_names_a_network_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    good = tmp_path / "net.json"
    good.write_text(json.dumps(network_document(1)), encoding="utf-8")
    spec = parse_builtin(f"algorithm=native,network={good}", "chess")
    assert spec.settings.network == str(good.resolve())
    assert parse_builtin("algorithm=native,network=off", "chess").settings.network == "off"
    with pytest.raises(SpecError, match="cannot read network file .*missing.json.*: No such file"):
        parse_builtin(f"algorithm=native,network={tmp_path / 'missing.json'}", "chess")
    with pytest.raises(SpecError, match="has no learned network"):
        parse_builtin(f"algorithm=native,network={good}", "checkers")


def test_uci_use_network_option_switches_the_network_off_and_on() -> None:
    import io

    from ai.uci import UciEngine

    output = io.StringIO()
    engine = UciEngine(output)
    engine.handle("uci")
    assert "option name UseNetwork type check default true" in output.getvalue().splitlines()
    engine.handle("setoption name UseNetwork value false")
    assert engine.settings.network == "off"
    engine.handle("setoption name usenetwork value TRUE")
    assert engine.settings.network == ""
    engine.handle("setoption name UseNetwork value 1")
    assert "UseNetwork must be true or false" in output.getvalue().splitlines()[-1]
    assert engine.settings.network == ""


def test_the_training_data_numbers_the_inputs_as_the_engine_does() -> None:
    """``tools/chess_net.py`` turns FENs into the trainer's input lists; a different
    numbering would train a network the engine reads wrongly."""
    from tools.chess_net import fen_features

    for line in random_games(seed=11, games=3, plies=60):
        board = chess.Board()
        for move in line:
            board.push(move)
            white, black = fen_features(board.board_fen())
            pieces = board.piece_map().items()
            assert sorted(white) == sorted(network.input_index(chess.WHITE, piece, square) for square, piece in pieces)
            assert sorted(black) == sorted(network.input_index(chess.BLACK, piece, square) for square, piece in pieces)


def test_the_shipped_network_is_the_default_and_the_compiled_search_reads_it() -> None:
    """``resources/weights/chess_net.json`` parses, is what ``network=""`` means, and the
    compiled network gives the Python reference's corrections with it."""
    network.select("")
    shipped = network.current
    assert shipped is not None and shipped.hidden == network.HIDDEN
    for line in random_games(seed=5, games=2, plies=50):
        board = chess.Board()
        for move in line:
            board.push(move)
        assert native_network_score(board.fen()) == network.network_score(shipped, board)
    assert any(native_network_score(fen) != 0 for fen in (chess.STARTING_FEN, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"))
