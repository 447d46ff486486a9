"""A learned backgammon evaluator: a one-hidden-layer network whose weights are data.

The network reads a position from the side **on roll** (as gnubg's nets do) and answers
five probabilities for that side: win, win a gammon (or better), win a backgammon, lose a
gammon (or worse), lose a backgammon. Its inputs are Tesauro's raw encoding, for each side
in its own numbering: per point 1..24 the units ``n >= 1``, ``n >= 2``, ``n >= 3`` and
``(n - 3) / 2``; the bar as ``n / 2``; the checkers off as ``n / 15``; and the pip count
over 100, which the raw units only give a net with difficulty (198 inputs). Every input is a
sum over points, which is what lets the first layer become a lookup table. The
weights (``resources/weights/backgammon_net.json``, documented inside) were fitted offline
by ``tools/train_backgammon.py`` to GNU Backgammon's 0-ply evaluations of positions from
its own noisy self-play; the network is ours, only the training targets came from gnubg.

The EVAL stays a named sum: cubeless equity is ``2·win - 1 + win_gammon - lose_gammon +
win_backgammon - lose_backgammon``, so the GUI's breakdown shows those five chances with
weights 2, 1, -1, 1, -1 (and the constant -1).

Speed: the first layer is a table, per side, point and checker count, of the summed
contribution of that point's units to every hidden unit (built once when the weights load),
so a forward pass is one vector add per occupied point, ``H`` sigmoids and ``5·H`` products.
The only I/O is reading the packaged weights once (``games.weights.shipped_weights``); another
file's weights come in through ``use_weights`` (``BackgammonState.set_weights``: a match's
``weights=FILE``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache
from operator import add, mul
from typing import Any

from games.backgammon.board import BAR, BOARD_SIZE, CHECKERS, HOME_POINTS, OFF, Board, Play, Roll
from games.backgammon import evaluation
from games.backgammon.movegen import generate_plays
from games.weights import WeightsError, check_document, shipped_weights

WEIGHTS_FILE = "backgammon_net.json"

OUTPUTS: tuple[str, ...] = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
"""The network's outputs, probabilities for the side on roll; gammons include backgammons."""

UNITS_PER_POINT = 4
INPUTS_PER_SIDE = 24 * UNITS_PER_POINT + 3
INPUT_COUNT = 2 * INPUTS_PER_SIDE
BAR_SCALE = 2.0
OFF_SCALE = float(CHECKERS)
PIP_SCALE = 100.0
EXP_LIMIT = 60.0
"""Pre-activations are clamped to +-EXP_LIMIT so ``math.exp`` never overflows."""

Probabilities = tuple[float, float, float, float, float]


def point_units(count: int) -> tuple[float, float, float, float]:
    """Tesauro's four units for ``count`` checkers of one side on one point."""
    return (
        float(count >= 1),
        float(count >= 2),
        float(count >= 3),
        (count - 3) / 2 if count > 3 else 0.0,
    )


def encode(on_roll: Board, opponent: Board) -> list[float]:
    """The INPUT_COUNT inputs of a position: the side on roll's block, then the opponent's.

    Each block: points 1..24 (four units each), then bar / 2, off / 15, pips / 100. Used by the
    training script; the evaluator itself goes through the precomputed table."""
    inputs: list[float] = []
    for board in (on_roll, opponent):
        for point in range(1, BAR):
            inputs.extend(point_units(board[point]))
        inputs.append(board[BAR] / BAR_SCALE)
        inputs.append(board[OFF] / OFF_SCALE)
        inputs.append(sum(point * board[point] for point in range(1, BAR + 1)) / PIP_SCALE)
    return inputs


def input_names() -> tuple[str, ...]:
    """Names of the inputs, in ``encode`` order (``me_p6_2``: two or more of mine on my 6)."""
    names: list[str] = []
    for side in ("me", "them"):
        for point in range(1, BAR):
            names.extend(f"{side}_p{point}_{unit}" for unit in ("1", "2", "3", "more"))
        names.extend((f"{side}_bar", f"{side}_off", f"{side}_pips"))
    return tuple(names)


class Network:
    """The weights of one network, with the first layer folded into per-point tables."""

    __slots__ = ("hidden_bias", "output_weights", "output_bias", "tables", "hidden_count", "lookahead_memo")

    def __init__(self, first: list[list[float]], hidden_bias: list[float],
                 second: list[list[float]], output_bias: list[float]) -> None:
        if len(first) != INPUT_COUNT or len(second) != len(OUTPUTS) or len(output_bias) != len(OUTPUTS):
            raise ValueError(f"backgammon network: expected {INPUT_COUNT} inputs and {len(OUTPUTS)} outputs")
        hidden = len(hidden_bias)
        if any(len(row) != hidden for row in (*first, *second)):
            raise ValueError("backgammon network: ragged weight rows")
        self.hidden_count = hidden
        self.hidden_bias = list(hidden_bias)
        self.output_weights = [list(row) for row in second]
        self.output_bias = list(output_bias)
        self.lookahead_memo: dict[tuple[Any, ...], Probabilities] = {}
        """``lookahead_probabilities`` answers by position (a pure function of the position
        and these weights, asked again at every leaf a search reaches it by)."""
        # tables[side][index][count]: the hidden contribution of `count` checkers of that side
        # at board index `index` (OFF, 1..24, BAR), summed over the position's units.
        zero = [0.0] * hidden
        self.tables: list[list[list[list[float]]]] = []
        for side in range(2):
            base = side * INPUTS_PER_SIDE
            side_table: list[list[list[float]]] = []
            for index in range(BOARD_SIZE):
                by_count: list[list[float]] = []
                for count in range(CHECKERS + 1):
                    if count == 0:
                        by_count.append(zero)
                        continue
                    pips = (base + INPUTS_PER_SIDE - 1, index * count / PIP_SCALE)
                    if index == OFF:
                        pairs = [(base + INPUTS_PER_SIDE - 2, count / OFF_SCALE)]
                    elif index == BAR:
                        pairs = [(base + INPUTS_PER_SIDE - 3, count / BAR_SCALE), pips]
                    else:
                        first_unit = base + (index - 1) * UNITS_PER_POINT
                        pairs = [(first_unit + unit, value) for unit, value in enumerate(point_units(count))]
                        pairs.append(pips)
                    by_count.append([
                        sum(first[row][column] * value for row, value in pairs) for column in range(hidden)
                    ])
                side_table.append(by_count)
            self.tables.append(side_table)

    def probabilities(self, on_roll: Board, opponent: Board) -> Probabilities:
        """The five OUTPUTS for the side on roll, made consistent (gammons within wins)."""
        mine, theirs = self.tables
        hidden = self.hidden_bias
        for index in range(BOARD_SIZE):
            count = on_roll[index]
            if count:
                hidden = list(map(add, hidden, mine[index][count]))
            count = opponent[index]
            if count:
                hidden = list(map(add, hidden, theirs[index][count]))
        try:  # the clamp costs a third of the pass, and is only needed where exp overflows
            activations = [1.0 / (1.0 + math.exp(-value)) for value in hidden]
        except OverflowError:
            activations = [_sigmoid(value) for value in hidden]
        win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = (
            _sigmoid(bias + sum(map(mul, row, activations)))
            for row, bias in zip(self.output_weights, self.output_bias)
        )
        win_gammon = min(win_gammon, win)
        lose_gammon = min(lose_gammon, 1.0 - win)
        return (win, win_gammon, min(win_backgammon, win_gammon), lose_gammon, min(lose_backgammon, lose_gammon))


LOOKAHEAD_CANDIDATES = 3
"""Plays of each roll the look-ahead reads with the network: the best by a cheap ranking
(``evaluation.ranking_sum``, the linear EVAL without its costly terms). Against gnubg's
0-ply equity on 300 positions after a dance: every play read by the network, rms error
0.104 at 0.25 s a position; the best 3 by the full linear EVAL, 0.100 at 0.054 s; the best
3 by the cheap ranking, 0.101 at 0.029 s; the best 1 by the linear EVAL, 0.107."""
LOOKAHEAD_MEMO_SIZE = 20_000
"""Positions whose look-ahead ``Network.lookahead_memo`` keeps (emptied when full)."""


def is_trained_position(on_roll: Board, opponent: Board) -> bool:
    """Whether the network was trained on positions like this one: the side *not* on roll
    has no checker on the bar.

    The training positions are the results of a play (``tools/gnubg_positions.py`` writes
    each play's resulting position, with the other side on roll), and a side that has just
    played leaves the bar whenever it can. The position after a *dance* -- the side that
    could not enter still on the bar, the other on roll -- is outside that set, and there
    the network is far off: against gnubg's 0-ply equity it errs by -0.70 on average (rms
    0.84) where it errs by 0.10 (rms) elsewhere: it reads the side on roll as far worse off.
    A 1-ply search never asks about such a position (its leaves follow its own plays), but a
    2-ply search does after every roll the opponent dances with."""
    return not opponent[BAR]


def played(mine: Board, theirs: Board, play: Play) -> tuple[Board, Board]:
    """Copies of the two boards after the owner of ``mine`` makes ``play`` (hits sent to
    the bar)."""
    mine, theirs = list(mine), list(theirs)
    for source, target in play:
        mine[source] -= 1
        mine[target] += 1
        if target and theirs[BAR - target] == 1:
            theirs[BAR - target] = 0
            theirs[BAR] += 1
    return mine, theirs


def borne_off_chances(loser: Board) -> Probabilities:
    """The chances of a side that has just borne off its last checker: a win, a gammon if
    the loser has borne off nothing, a backgammon if it also still has a checker on the bar
    or in the winner's home board (the loser's points 19..24)."""
    gammon = not loser[OFF]
    backgammon = gammon and any(loser[point] for point in range(BAR - HOME_POINTS, BAR + 1))
    return (1.0, float(gammon), float(backgammon), 0.0, 0.0)


def lookahead_probabilities(
    net: Network, on_roll: Board, opponent: Board, rolls: Sequence[tuple[Roll, float]], gammons_count: bool = True
) -> Probabilities:
    """The chances of the side on roll one roll ahead: for each of ``rolls`` (with its
    probability) its best play by the network's cubeless equity among the
    ``LOOKAHEAD_CANDIDATES`` best by a cheap ranking, each play's position read by the
    network with the other side on roll (a position like those it was trained on, see
    ``is_trained_position``), averaged over the rolls.

    Against gnubg's 0-ply equity on positions after a dance this errs by 0.10 (rms), as the
    network does on the positions it knows. Only the side on roll looks ahead: if it dances
    too, that play's position is read as it is."""
    key = (tuple(on_roll), tuple(opponent), tuple(rolls), gammons_count)
    memo = net.lookahead_memo
    known = memo.get(key)
    if known is not None:
        return known
    totals = [0.0] * len(OUTPUTS)
    for (high, low), probability in rolls:
        best_equity = -math.inf
        best: Probabilities = (0.0, 0.0, 0.0, 0.0, 0.0)
        results = [played(on_roll, opponent, play) for play in generate_plays(on_roll, opponent, high, low)]
        if len(results) > LOOKAHEAD_CANDIDATES:
            results.sort(key=lambda boards: -evaluation.ranking_sum(boards[0], boards[1]))
            del results[LOOKAHEAD_CANDIDATES:]
        for mine, theirs in results:
            if mine[OFF] == CHECKERS:
                chances = borne_off_chances(theirs)
            else:
                chances = flip(net.probabilities(theirs, mine))
            equity = cubeless_equity(chances, gammons_count)
            if equity > best_equity:
                best_equity, best = equity, chances
        for index, chance in enumerate(best):
            totals[index] += probability * chance
    answer: Probabilities = (totals[0], totals[1], totals[2], totals[3], totals[4])
    if len(memo) >= LOOKAHEAD_MEMO_SIZE:
        memo.clear()
    memo[key] = answer
    return answer


def _sigmoid(value: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-EXP_LIMIT, min(EXP_LIMIT, value))))


def flip(probabilities: Probabilities) -> Probabilities:
    """The same chances seen by the other side."""
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = probabilities
    return (1.0 - win, lose_gammon, lose_backgammon, win_gammon, win_backgammon)


def cubeless_equity(probabilities: Probabilities, gammons_count: bool = True) -> float:
    """Points per game for the side these chances belong to (single games only if not)."""
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = probabilities
    equity = 2.0 * win - 1.0
    if gammons_count:
        equity += win_gammon - lose_gammon + win_backgammon - lose_backgammon
    return equity


WEIGHT_NAMES = ("hidden_weights", "hidden_bias", "output_weights", "output_bias")


def from_weights(weights: Mapping[str, Any]) -> Network:
    """A Network from a weights document's ``weights`` mapping (``hidden_weights``: one row
    of H per input, ``hidden_bias``, ``output_weights``: one row of H per output,
    ``output_bias``); ``WeightsError`` when the shapes are wrong."""
    missing = [name for name in WEIGHT_NAMES if name not in weights]
    if missing:
        raise WeightsError(f"backgammon network: missing {', '.join(missing)}")
    try:
        return Network(weights["hidden_weights"], weights["hidden_bias"], weights["output_weights"], weights["output_bias"])
    except (TypeError, ValueError) as error:
        raise WeightsError(str(error).splitlines()[0]) from None


def from_document(document: Mapping[str, Any], source: str = "backgammon network") -> Network:
    """A Network from a whole weights document (see ``games.weights``)."""
    return from_weights(check_document(document, source, "backgammon"))


@cache
def default_network() -> Network:
    """The packaged network, read once."""
    return from_weights(shipped_weights(WEIGHTS_FILE, "backgammon"))


_network_in_use: list[Network] = []
"""The network EVAL reads (empty: the packaged one), set by ``use_weights``."""


def use_weights(weights: Mapping[str, Any] | None) -> None:
    """Make ``current_network`` the network of ``weights`` (``None``: the packaged one)."""
    network = default_network() if weights is None else from_weights(weights)
    _network_in_use[:] = [network]


def current_network() -> Network:
    """The network EVAL reads now."""
    return _network_in_use[0] if _network_in_use else default_network()


__all__ = [
    "INPUT_COUNT",
    "OUTPUTS",
    "Network",
    "cubeless_equity",
    "current_network",
    "default_network",
    "encode",
    "flip",
    "from_document",
    "from_weights",
    "input_names",
    "is_trained_position",
    "lookahead_probabilities",
    "use_weights",
]
