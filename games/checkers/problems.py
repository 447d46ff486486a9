"""Published checkers problems as records: "Black to play and win" with the source's key moves.

A problem file (``tests/data/checkers/problems.json``) is ``{"problems": [...]}``; each record has
an ``id``, the position (``fen``, PDN FEN), the source's winning first move(s) (``key``; empty
when the side to move is the loser, as in "Black to play, White to win") and the ``goal`` text
that names the winner. ``ai.problems.solve`` asks the engine to win one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.base import Player
from games.checkers.bitboards import BLACK, WHITE


@dataclass(frozen=True)
class CheckersProblem:
    """One "X to play and win" position with the source's key moves."""

    problem_id: str
    position: str
    """The position as PDN FEN (``CheckersState.from_text``)."""
    keys: tuple[str, ...]
    """The source's winning first moves in PDN notation; empty when the side to move loses."""
    goal: str
    """The source's words, e.g. "Black to play and win" or "Black to play, White to win"."""

    @property
    def winner(self) -> Player:
        return winner_of(self.problem_id, self.goal)


def winner_of(problem_id: str, goal: str) -> Player:
    """The side the goal names as winning ("black to play and win", "black to play, white to win")."""
    words = goal.lower()
    if "white to win" in words or "white to play and win" in words:
        return WHITE
    if "black to win" in words or "black to play and win" in words:
        return BLACK
    raise ValueError(f"problem {problem_id}: cannot tell the winner from goal {goal!r}")


def problem_from_record(record: Mapping[str, Any]) -> CheckersProblem:
    return CheckersProblem(str(record["id"]), str(record["fen"]), tuple(str(key) for key in record["key"]),
                           str(record["goal"]))


def parse_problems(text: str) -> list[CheckersProblem]:
    """The problems of a problem file's text (``{"problems": [record, ...]}``)."""
    return [problem_from_record(record) for record in json.loads(text)["problems"]]
