"""The hand-featured linear EVAL for backgammon: a weighted sum of named features, squashed.

Not the default: ``BackgammonState.evaluate`` uses the learned network
(``games.backgammon.network``), which scores 67.5% of the points against pubeval and loses
0.14 a game to gnubg 0-ply, where this linear EVAL loses about 0.70 to gnubg 0-ply (see
``bench/STRENGTH.md``, "Backgammon: matches"). It stays as
``BackgammonState.linear_evaluate``, the baseline the network is measured against, and for
``hit_probability`` / ``shot_cost``.

Two weight sets, as in pubeval and every classical evaluator: **race** (no contact left: only
the pip count, who is on roll and the checkers already off matter) and **contact** (pips plus
the structure that wins contact games: made home-board points, primes, anchors in the
opponent's board, blots weighted by the chance they are hit, checkers on the bar, and the
attack on them). Every feature is a difference "mine minus the opponent's" (or the reverse
for bad things), computed for player 0 and negated for player 1, so EVAL is exactly
antisymmetric.

The linear sum ``s`` estimates the cubeless result in points (it was fitted to game
results, see the weights). It is squashed AFTER summing, ``3 * tanh(s / 3)`` (or
``tanh(s)`` while the Jacoby rule keeps gammons single), so that no estimate leaves the
range of a backgammon loss/win, and then multiplied by the cube value (the state does
that). The weights are data: two dicts below, overridable per state class. Tesauro's
pubeval is only the yardstick they were fitted against; it ships as a match opponent
(``ai/match/pubeval.py``), never as our EVAL.
"""

from __future__ import annotations

import math

from games.backgammon.board import BAR, HOME_POINTS, OFF, Board, is_race

RACE_FEATURES: tuple[str, ...] = ("race_lead", "checkers_off")
CONTACT_FEATURES: tuple[str, ...] = (
    "pip_lead",
    "on_roll",
    "home_points",
    "outfield_points",
    "prime",
    "anchors",
    "blots",
    "shot_risk",
    "bar",
    "attack",
    "stragglers",
    "checkers_off",
)

# The weights are least-squares fits of the features (from player 0's side, sampled before
# each roll) to the final result in points of 2,500 cubeless self-play games of the 1-ply
# greedy player (10% random moves for variety), iterated from hand-set starting values and
# kept where 1-ply greedy play scored best against 1-ply pubeval on unseen dice (three seeds
# of 600 games: -0.03, +0.10, +0.09 points per game; the hand-set weights scored -0.45).
# A fitted "home gaps" race feature made bear-off play worse and was dropped.
# Two fitted signs are surprising and deliberate: ``anchors`` is negative because holding a
# point in the opponent's board, beyond the back checkers it ties down, marks a defensive
# game that 1-ply play tends to lose; forcing it positive cost 0.2-0.5 points per game.
RACE_WEIGHTS: dict[str, float] = {
    "race_lead": 0.473,  # per unit of effective pip lead / average race length
    "checkers_off": 0.082,  # per checker borne off
}
CONTACT_WEIGHTS: dict[str, float] = {
    "pip_lead": 0.0102,  # per pip
    "on_roll": 0.0515,  # the side on roll moves first
    "home_points": 0.111,  # per made home-board point
    "outfield_points": 0.0521,  # per made point 7..12 (blocks and prime material)
    "prime": 0.0565,  # per unit of (longest run of made points)^2 / 6
    "anchors": -0.343,  # per made point in the opponent's home board (see above)
    "blots": 0.0124,  # per blot
    "shot_risk": 0.238,  # per 25 pips of expected loss to the next roll's hits
    "bar": 0.0283,  # per checker on the bar
    "attack": 0.178,  # checkers on the bar times the fraction of the home board closed
    "stragglers": 0.0883,  # per lone checker in the opponent's home board, or on the bar
    "checkers_off": 0.135,  # per checker borne off
}

EQUITY_LIMIT = 3.0
"""A backgammon: the most a game can be worth per cube unit."""
RACE_ON_ROLL_PIPS = 4
"""Being on roll in a race is worth about four pips (half an average roll)."""
ON_ROLL_EXPOSURE = 0.25
"""The side on roll is about to move and can often tidy its blots: its exposure counts less."""
PRIME_DIVISOR = 6.0
"""Scales the squared prime length so a full 6-prime is worth 6 units."""
OUTFIELD_END = 12
"""Points 7..12: my outer board."""
PIPS = 5
"""Index of the pip count in ``_structure``'s tuple."""
BACK_ZONE = range(BAR - HOME_POINTS, BAR)
"""The opponent's home board in my numbering: my points 19..24."""

DICE_COMBINATIONS = 36
HIT_TEMPO_PIPS = 8
"""Being hit costs the pips back to the bar plus about one roll's worth of tempo."""


_ROLL_MASKS: tuple[int, ...] = tuple(
    sum(
        1 << ((first - 1) * 6 + second - 1)
        for first in range(1, 7)
        for second in range(1, 7)
        if distance
        in ({first, second, first + second} | ({3 * first, 4 * first} if first == second else set()))
    )
    for distance in range(BAR + 1)
)
"""Bit ``6 * (first - 1) + (second - 1)`` set when that ordered roll reaches ``distance``."""


def hit_probability(target: Board, shooter: Board) -> float:
    """The chance the owner of ``shooter`` hits at least one blot of ``target`` next roll."""
    covered = 0
    for mask, _ in _blot_masks(target, shooter):
        covered |= mask
    return covered.bit_count() / DICE_COMBINATIONS


def _blot_masks(target: Board, shooter: Board) -> list[tuple[int, int]]:
    """Per blot of ``target``: (mask of the rolls that hit it, the blot's point)."""
    masks = []
    for point in range(1, BAR):
        if target[point] != 1:
            continue
        # The blot is on the shooter's point BAR - point; shooters come from higher points.
        blot = BAR - point
        mask = 0
        for source in range(blot + 1, BAR + 1):
            if shooter[source]:
                mask |= _ROLL_MASKS[source - blot]
        if mask:
            masks.append((mask, point))
    return masks


def shot_cost(target: Board, shooter: Board) -> float:
    """Expected cost of ``shooter``'s next roll to ``target``, in units of 25 pips.

    Each roll counts its most expensive hit: the pips the blot loses (a blot on my point p
    goes back to the bar, 25 - p pips) plus ``HIT_TEMPO_PIPS`` for the tempo lost entering.
    A blot on the opponent's ace point costs little; one in my home board a lot.
    """
    masks = _blot_masks(target, shooter)
    masks.sort(key=lambda item: item[1])  # lowest point = most pips lost first
    covered = 0
    cost = 0.0
    for mask, point in masks:
        fresh = mask & ~covered
        if fresh:
            cost += fresh.bit_count() * (BAR - point + HIT_TEMPO_PIPS)
            covered |= mask
    return cost / (DICE_COMBINATIONS * BAR)


def _longest_run(board: Board) -> int:
    longest = run = 0
    for point in range(1, BAR):
        if board[point] >= 2:
            run += 1
            longest = max(longest, run)
        else:
            run = 0
    return longest


def _structure(board: Board) -> tuple[int, int, int, int, int, int]:
    """(made home points, made outfield points, anchors, blots, stragglers, pips)."""
    home = outfield = anchors = blots = stragglers = pips = 0
    for point in range(1, BAR):
        count = board[point]
        if not count:
            continue
        pips += point * count
        if count == 1:
            blots += 1
        elif point <= HOME_POINTS:
            home += 1
        elif point <= OUTFIELD_END:
            outfield += 1
        elif point in BACK_ZONE:
            anchors += 1
        if count == 1 and point in BACK_ZONE:
            stragglers += 1
    stragglers += board[BAR]
    pips += BAR * board[BAR]
    return home, outfield, anchors, blots, stragglers, pips


def race_values(board: Board, opponent: Board, on_roll: int) -> tuple[float, ...]:
    """RACE_FEATURES for the owner of ``board``; ``on_roll`` is +1 (me), -1 or 0."""
    mine = _structure(board)[PIPS]
    theirs = _structure(opponent)[PIPS]
    average = max((mine + theirs) / 2, 1.0)
    lead = (theirs - mine + RACE_ON_ROLL_PIPS * on_roll) / average
    return (lead, float(board[OFF] - opponent[OFF]))


def contact_values(board: Board, opponent: Board, on_roll: int) -> tuple[float, ...]:
    """CONTACT_FEATURES for the owner of ``board``; ``on_roll`` is +1 (me), -1 or 0."""
    my_home, my_outfield, my_anchors, my_blots, my_stragglers, my_pips = _structure(board)
    their_home, their_outfield, their_anchors, their_blots, their_stragglers, their_pips = _structure(opponent)
    my_prime, their_prime = _longest_run(board), _longest_run(opponent)
    my_risk = shot_cost(board, opponent) * (ON_ROLL_EXPOSURE if on_roll > 0 else 1.0)
    their_risk = shot_cost(opponent, board) * (ON_ROLL_EXPOSURE if on_roll < 0 else 1.0)
    return (
        float(their_pips - my_pips),
        float(on_roll),
        float(my_home - their_home),
        float(my_outfield - their_outfield),
        (my_prime * my_prime - their_prime * their_prime) / PRIME_DIVISOR,
        float(my_anchors - their_anchors),
        float(their_blots - my_blots),
        their_risk - my_risk,
        float(opponent[BAR] - board[BAR]),
        (opponent[BAR] * my_home - board[BAR] * their_home) / HOME_POINTS,
        float(their_stragglers - my_stragglers),
        float(board[OFF] - opponent[OFF]),
    )


def ranking_sum(board: Board, opponent: Board) -> float:
    """A cheap ranking of the plays of the owner of ``board`` (the opponent on roll next):
    the linear EVAL's sum without the terms that cost most (the hit chances of
    ``shot_risk``, the prime), with the default weights. The network's look-ahead reads the
    best few plays by it (``network.lookahead_probabilities``)."""
    if is_race(board, opponent):
        lead, off = race_values(board, opponent, -1)
        return RACE_WEIGHTS["race_lead"] * lead + RACE_WEIGHTS["checkers_off"] * off
    my_home, my_outfield, my_anchors, my_blots, my_stragglers, my_pips = _structure(board)
    their_home, their_outfield, their_anchors, their_blots, their_stragglers, their_pips = _structure(opponent)
    weights = CONTACT_WEIGHTS
    return (
        weights["pip_lead"] * (their_pips - my_pips)
        + weights["home_points"] * (my_home - their_home)
        + weights["outfield_points"] * (my_outfield - their_outfield)
        + weights["anchors"] * (my_anchors - their_anchors)
        + weights["blots"] * (their_blots - my_blots)
        + weights["bar"] * (opponent[BAR] - board[BAR])
        + weights["attack"] * (opponent[BAR] * my_home - board[BAR] * their_home) / HOME_POINTS
        + weights["stragglers"] * (their_stragglers - my_stragglers)
        + weights["checkers_off"] * (board[OFF] - opponent[OFF])
    )


def squash(linear: float, limit: float = EQUITY_LIMIT) -> float:
    """``limit * tanh(linear / limit)``: near-linear for small sums, never beyond ``limit``."""
    return limit * math.tanh(linear / limit)


__all__ = [
    "CONTACT_FEATURES",
    "CONTACT_WEIGHTS",
    "EQUITY_LIMIT",
    "RACE_FEATURES",
    "RACE_WEIGHTS",
    "contact_values",
    "hit_probability",
    "ranking_sum",
    "shot_cost",
    "race_values",
    "squash",
]
