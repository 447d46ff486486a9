"""Every published checkers problem (tests/data/checkers/problems.json) solved by the engine.

"Solved" as ``ai.problems.solve`` defines it: the engine's first move for the winning side is
one of the source's key moves (when the source gives one), and the engine then wins the game
playing that side against itself defending, at a fixed node budget a move (repeatable on a
busy machine). The sources' solutions, not this engine, are the truth about who wins; the
play-out checks that the engine can actually bring the win home.
"""

from __future__ import annotations

import pytest

from ai.problems import Outcome, solve
from ai.settings import Limits
from games.checkers import CheckersState
from games.checkers.problems import CheckersProblem, parse_problems
from tests.conftest import DATA_DIR

NODES_A_MOVE = 50_000
UNSOLVED = {
    "bell": "right first move (11-15), but the play-out leaves the source's line and ends drawn by the "
    "40-move rule with 3 pieces each (B:WK5,12,K18:B3,K14,K15), a 6-piece position the databases do "
    "not cover; depth 14 at this budget (won at 200,000 nodes a move)",
    "vair": "White answers 22-25 with 17-21 as the line does, but the play-out lets Black exchange down "
    "to two kings each, a database draw (threefold repetition, B:WK1,K2:BK29,K30); won at 200,000 "
    "nodes a move",
}
"""Problems the engine does not solve at this budget (``python -m bench.checkers_problems``; bench/STRENGTH.md,
"Checkers: matches and problems"); strict: a fix that solves one makes its test say so."""
ALL_PROBLEMS = parse_problems((DATA_DIR / "checkers" / "problems.json").read_text())
PROBLEMS = [
    pytest.param(
        problem, id=problem.problem_id, marks=pytest.mark.xfail(strict=True, reason=UNSOLVED[problem.problem_id])
    )
    if problem.problem_id in UNSOLVED
    else pytest.param(problem, id=problem.problem_id)
    for problem in ALL_PROBLEMS
]


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("problem", PROBLEMS)
def test_the_engine_wins_the_problem(problem: CheckersProblem) -> None:
    result = solve(CheckersState.from_text(problem.position), problem.winner, problem.keys, Limits(nodes=NODES_A_MOVE))
    assert result.key_ok, f"{problem.position}: played {result.first_move}, the key is {problem.keys}"
    assert result.outcome is Outcome.WON, f"{problem.position}: {result.outcome.value} after {result.plies} plies"


def test_the_problems_name_their_winner() -> None:
    winners = [problem.winner for problem in ALL_PROBLEMS]
    assert len(winners) == 8 and set(winners) == {0, 1}
