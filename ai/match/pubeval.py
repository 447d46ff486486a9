"""Tesauro's pubeval as a match player: SPEC ``pubeval``, the classic backgammon yardstick.

pubeval (G. Tesauro, c. 1993, public domain) scores the position after each legal play with
one of two linear functions (race, contact) of 122 inputs and plays the best; no search, no
cube. Its weights ship in ``resources/weights/pubeval.json`` (read with importlib.resources,
so the frozen app can play it); the inputs, as in Tesauro's ``pubeval.c``, are described in
that file. It is an opponent to measure against, never part of the app's evaluation. In a
cube match it never doubles and always takes.

``pubeval_score`` is the one implementation: ``bench/backgammon_eval.py`` and
``bench/ladder.py`` use this module.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from ai.match.protocol import GameHistory, SpecError
from ai.settings import Limits
from games import GameState
from games.backgammon import BackgammonState
from games.backgammon.board import BAR, CHECKERS, OFF, Board
from games.backgammon.notation import NO_DOUBLE, TAKE
from games.backgammon.state import CHECKER_PLAY, CUBE_DECISION, TAKE_DECISION

WEIGHTS_FILE = ("weights", "pubeval.json")
INPUTS = 122
BAR_INPUT = 120
OFF_INPUT = 121
ALL_OFF_SCORE = 99_999_999.0
"""pubeval.c's score for a play that bears off the last checker."""


@cache
def weights() -> dict[str, tuple[float, ...]]:
    """The two weight vectors, ``race`` and ``contact``, read once from the package."""
    document = json.loads(resources.files("resources").joinpath(*WEIGHTS_FILE).read_text(encoding="utf-8"))
    tables = {name: tuple(float(value) for value in document["weights"][name]) for name in ("race", "contact")}
    if any(len(table) != INPUTS for table in tables.values()):
        raise ValueError(f"pubeval weights: each table needs {INPUTS} numbers")
    return tables


def pubeval_score(race: bool, mine: Board, theirs: Board) -> float:
    """pubeval's score of the position after a play, from the mover's side.

    ``race`` is whether the position *before* the play had no contact. Input block ``j``
    (1-based) is the mover's point ``25 - j``: an opposing blot there, or exactly one, two or
    more, exactly three, or (n - 3) / 2 beyond three of the mover's checkers."""
    if mine[OFF] == CHECKERS:
        return ALL_OFF_SCORE
    table = weights()["race" if race else "contact"]
    score = table[BAR_INPUT] * theirs[BAR] / 2 + table[OFF_INPUT] * mine[OFF] / CHECKERS
    for block in range(24):
        point = BAR - 1 - block
        base = 5 * block
        count = mine[point]
        if count == 0:
            if theirs[BAR - point] == 1:
                score += table[base]
        elif count == 1:
            score += table[base + 1]
        else:
            score += table[base + 2]
            if count == 3:
                score += table[base + 3]
            elif count >= 4:
                score += table[base + 4] * (count - 3) / 2
    return score


def pubeval_play(state: BackgammonState) -> Any:
    """The play pubeval picks in ``state`` (checker play phase): the first best one."""
    mover = state.player
    race = state.is_race()
    best, best_score = None, -float("inf")
    for play in state.legal_moves():
        child = state.result(play)
        score = pubeval_score(race, child.boards[mover], child.boards[1 - mover])
        if score > best_score:
            best, best_score = play, score
    return best


class PubevalPlayer:
    """``pubeval``: 1-ply pubeval checker play; no double, always take."""

    def __init__(self, name: str = "pubeval") -> None:
        self.name = name

    @classmethod
    def from_spec(cls, rest: str, spec: str, start_timeout: float | None = None) -> PubevalPlayer:
        """``pubeval`` (no options); ``start_timeout`` is unused: it runs in this process."""
        if rest.strip():
            raise SpecError(f"player {spec!r}: pubeval takes no options (write pubeval)")
        weights()
        return cls(spec)

    def new_game(self, state: GameState) -> None:
        pass

    def choose(self, state: GameState, history: GameHistory, limits: Limits) -> Any:
        assert isinstance(state, BackgammonState)
        if state.phase == CUBE_DECISION:
            return NO_DOUBLE
        if state.phase == TAKE_DECISION:
            return TAKE
        assert state.phase == CHECKER_PLAY
        return pubeval_play(state)

    def close(self) -> None:
        pass
