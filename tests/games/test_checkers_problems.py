"""Every published checkers problem (tests/data/checkers/problems.json) solved by the engine.

"Solved" as ``bench/checkers_problems.py`` defines it: the engine's first move for the
winning side is one of the source's key moves (when the source gives one), and the engine
then wins the game playing that side against itself defending, at a fixed node budget a
move (repeatable on a busy machine). The sources' solutions, not this engine, are the
truth about who wins; the play-out checks that the engine can actually bring the win home.
"""

from __future__ import annotations

from typing import Any

import pytest

from ai.settings import Limits
from bench.checkers_problems import load_problems, solve

PROBLEMS = load_problems()
NODES_A_MOVE = 100_000


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("problem", PROBLEMS, ids=[problem["id"] for problem in PROBLEMS])
def test_the_engine_wins_the_problem(problem: dict[str, Any]) -> None:
    result = solve(problem, Limits(nodes=NODES_A_MOVE))
    assert result.key_ok, f"{problem['fen']}: played {result.first_move}, the key is {problem['key']}"
    assert result.outcome == "won", f"{problem['fen']}: {result.outcome} after {result.plies} plies"


def test_the_problems_name_their_winner() -> None:
    from bench.checkers_problems import winner_of

    winners = [winner_of(problem) for problem in PROBLEMS]
    assert len(PROBLEMS) == 8 and set(winners) == {0, 1}
