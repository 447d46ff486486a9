"""The chess network: a small learned correction that the compiled search adds to the EVAL.

The hand-written EVAL (``evaluation.py``) is what the app explains, term by term; the
network is what it does not know, learned from our own search's scores and game results
(``tools/chess_net.py`` makes the data, ``tools/chess_net_train.py`` trains and writes the
file). Only the compiled search (``native``) uses it: it keeps the first layer's sums in
each position and updates them with the pieces a move changes (the NNUE idea, Yu Nasu 2018).
This module reads the file and evaluates the same integer arithmetic in plain Python, as the
reference the compiled network is tested against.

The network: 768 inputs for each of two perspectives, White's and Black's (piece type, the
piece's colour relative to the perspective, square; mirrored top to bottom for Black), a
hidden layer whose weights both perspectives share, clipped ReLU, then one output from both
halves, the side to move's first:

    acc[view] = bias + sum of features[input(view, piece, square)] over the pieces   (int16)
    sum = output_bias + sum_i clamp(acc[us][i], 0, ft_scale) * output[i]
                      + sum_i clamp(acc[them][i], 0, ft_scale) * output[hidden + i]
    correction = floor(sum * output_cp / (ft_scale * out_scale))   centipawns, side to move

The file is JSON (no pickle): the scales, and the int16 arrays as base64 of little-endian
bytes (``feature_weights`` row-major [768][hidden], ``feature_bias``, ``output_weights``).
"""

from __future__ import annotations

import base64
import binascii
import json
import sys
from array import array
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Final

import chess

FORMAT: Final = "plyground-chess-network-1"
INPUTS: Final = 768
HIDDEN: Final = 64
"""The hidden width the compiled search is built for (``NET_HIDDEN`` in ``_search.c``)."""
MAX_PIECES: Final = 32
SHIPPED_FILE: Final = "chess_net.json"
"""The shipped network, ``resources/weights/chess_net.json`` (read with importlib.resources,
as the weights are, so that the frozen app finds it too)."""


@dataclass(frozen=True)
class Network:
    """A network as the file gives it (int16 arrays, row-major)."""

    hidden: int
    ft_scale: int
    out_scale: int
    output_cp: int
    feature_weights: array
    feature_bias: array
    output_weights: array
    output_bias: int
    note: str = ""

    def arguments(self) -> tuple[object, ...]:
        """The arguments of the compiled module's ``set_network``."""
        return (
            self.hidden,
            self.ft_scale,
            self.out_scale,
            self.output_cp,
            _little_endian(self.feature_weights),
            _little_endian(self.feature_bias),
            _little_endian(self.output_weights),
            self.output_bias,
        )


def _little_endian(values: array) -> bytes:
    copy = array("h", values)
    if copy.itemsize != 2:  # pragma: no cover - every platform Python runs on has a 2-byte short
        raise RuntimeError("array('h') is not 16 bits here")
    if sys.byteorder == "big":  # pragma: no cover
        copy.byteswap()
    return copy.tobytes()


def _int16s(document: dict[str, object], name: str, count: int) -> array:
    text = document.get(name)
    if not isinstance(text, str):
        raise ValueError(f"chess network: {name} must be a base64 string")
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as error:
        raise ValueError(f"chess network: {name} is not valid base64 ({error})") from None
    if len(raw) != 2 * count:
        raise ValueError(f"chess network: {name} needs {count} int16 values, has {len(raw) / 2:g}")
    values = array("h")
    values.frombytes(raw)
    if sys.byteorder == "big":  # pragma: no cover
        values.byteswap()
    return values


def _integer(document: dict[str, object], name: str, low: int, high: int) -> int:
    value = document.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"chess network: {name} must be an integer in {low}..{high}, got {value!r}")
    return value


def parse_network(text: str) -> Network:
    """A network from the file's JSON text; ``ValueError`` with the reason when it is not one."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"chess network: not JSON ({error})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"chess network: not a {FORMAT} file")
    hidden = _integer(document, "hidden", 1, 4096)
    if hidden != HIDDEN:
        raise ValueError(f"chess network: {hidden} hidden units; the compiled search is built for {HIDDEN}")
    network = Network(
        hidden=hidden,
        ft_scale=_integer(document, "ft_scale", 1, 32767),
        out_scale=_integer(document, "out_scale", 1, 32767),
        output_cp=_integer(document, "output_cp", 1, 10000),
        feature_weights=_int16s(document, "feature_weights", INPUTS * hidden),
        feature_bias=_int16s(document, "feature_bias", hidden),
        output_weights=_int16s(document, "output_weights", 2 * hidden),
        output_bias=_integer(document, "output_bias", -(2**31) + 1, 2**31 - 1),
        note=str(document.get("note", "")),
    )
    largest = max(abs(value) for value in network.feature_weights)
    largest_bias = max(abs(value) for value in network.feature_bias)
    largest_output = max(abs(value) for value in network.output_weights)
    if MAX_PIECES * largest + largest_bias > 32767 or (
        2 * hidden * network.ft_scale * largest_output + abs(network.output_bias) > 2**31 - 1
    ):
        raise ValueError("chess network: weights too large for the integer sums")
    return network


def read_network(path: str | Path) -> Network:
    """The network in the file at ``path`` (``ValueError`` when it is not one, ``OSError``
    when it cannot be read). A device or a pipe (``/dev/zero``) or a file larger than
    ``MAX_FILE_BYTES`` is refused before it is read: it could fill the memory."""
    size = Path(path).stat().st_size
    if not Path(path).is_file():
        raise ValueError(f"chess network {str(path)!r}: not a regular file")
    if size > MAX_FILE_BYTES:
        raise ValueError(f"chess network {str(path)!r}: {size:,} bytes, more than the {MAX_FILE_BYTES:,} allowed")
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"chess network {str(path)!r}: not UTF-8 text (a network is a JSON file)") from None
    return parse_network(text)


MAX_FILE_BYTES: Final = 64 * 1024 * 1024
"""The largest network file read (the shipped one is well under 1 MB)."""


def input_index(view: chess.Color, piece: chess.Piece, square: chess.Square) -> int:
    """The input of ``piece`` on ``square`` for the perspective of ``view``."""
    plane = piece.piece_type - 1 + (0 if piece.color == view else 6)
    return plane * 64 + (square if view == chess.WHITE else chess.square_mirror(square))


def accumulator(network: Network, board: chess.Board, view: chess.Color) -> list[int]:
    """The first layer's sums for one perspective (what the compiled search keeps per position)."""
    hidden = network.hidden
    sums = list(network.feature_bias)
    for square, piece in board.piece_map().items():
        row = input_index(view, piece, square) * hidden
        weights = network.feature_weights
        for i in range(hidden):
            sums[i] += weights[row + i]
    return sums


def network_score(network: Network, board: chess.Board) -> int:
    """The correction in centipawns, side to move's view: the compiled ``network_evaluate``."""
    hidden, top = network.hidden, network.ft_scale
    us = accumulator(network, board, board.turn)
    them = accumulator(network, board, not board.turn)
    total = network.output_bias
    weights = network.output_weights
    for i in range(hidden):
        total += min(max(us[i], 0), top) * weights[i]
        total += min(max(them[i], 0), top) * weights[hidden + i]
    return (total * network.output_cp) // (network.ft_scale * network.out_scale)


# ------------------------------------------------------------------ the network in use
current: Network | None = None
"""The network the compiled search adds to the EVAL in this process (``None``: none)."""
generation = 0
"""One step each time ``current`` changes: ``native`` hands C the network when it moved."""
_choice: tuple[str, float] | None = None
"""The choice ``current`` came from, with the file's modification time."""
_read: dict[tuple[str, float], Network | None] = {}
"""Files already read, by path and modification time."""


def _shipped() -> Network | None:
    source = resources.files("resources").joinpath("weights", SHIPPED_FILE)
    if not source.is_file():
        return None  # a build without a network: the EVAL alone
    return parse_network(source.read_text(encoding="utf-8"))


def select(choice: str) -> None:
    """Use the network named by ``choice`` from now on: ``""`` the shipped one (none when
    the build ships none), ``"off"`` none, else the path of a network file. A file is read
    again only when it changed. ``ValueError`` names what is wrong with a bad file (and
    leaves the network in use as it was)."""
    global current, generation, _choice
    if choice in ("", "off"):
        stamp = (choice, 0.0)
        path = None
    else:
        path = Path(choice).expanduser()
        try:
            stamp = (str(path), path.stat().st_mtime)
        except OSError as error:
            raise ValueError(f"cannot read chess network {str(path)!r}: {error.strerror or error}") from None
    if stamp == _choice:
        return
    if stamp in _read:
        chosen = _read[stamp]
    elif choice == "off":
        chosen = None
    else:
        try:
            chosen = _shipped() if path is None else read_network(path)
        except OSError as error:
            raise ValueError(f"cannot read chess network {str(path)!r}: {error.strerror or error}") from None
        if len(_read) >= 8:  # two match players take turns in one process: keep a few
            _read.clear()
        _read[stamp] = chosen
    current, _choice = chosen, stamp
    generation += 1
