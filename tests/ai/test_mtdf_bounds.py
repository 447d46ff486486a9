"""MTD(f) never answers from crossed bounds, and equals alpha-beta where the tree is the same.

MTD(f) narrows ``lower <= value <= upper`` with null-window passes. An unstable search (the
selective preset's window-dependent pruning, table entries of other depths) can make a pass
fail high above the proven upper bound or low below the proven lower bound; such bounds prove
nothing, and MTD(f) then takes one full-window search's value. In the exact preset every
pass sees the same tree, so its value is alpha-beta's, with one line or several.
"""

from __future__ import annotations

import pytest

from ai.engine import search
from ai.options import exact
from ai.scores import INFINITY
from ai.search import alphabeta, mtdf
from ai.search.common import NodeSearch, SearchTools, next_down, next_up
from ai.settings import Limits, SearchSettings
from games import new_game
from games.base import GameState

ITALIAN = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"


def scripted(answers: dict[tuple[float, float], float], calls: list[tuple[float, float]]) -> NodeSearch:
    """A root search that answers each window from ``answers`` (an unstable search)."""

    def node(state: GameState, depth: int, alpha: float, beta: float, ply: int) -> float:
        calls.append((alpha, beta))
        return answers[(alpha, beta)]

    return node


@pytest.mark.parametrize(
    ("first", "second", "full"),
    [
        (10.0, 5.0, 3.0),  # fails high to 10, then low to 5 < 10: lower > upper
        (-10.0, 4.0, 1.0),  # fails low to -10, then high to 4 > -10: lower > upper
    ],
)
def test_crossed_bounds_fall_back_to_one_full_window_search(first: float, second: float, full: float) -> None:
    root = new_game("tictactoe")
    second_beta = next_up(first) if first >= 0 else first
    answers = {
        (next_down(0.0), 0.0): first,
        (next_down(second_beta), second_beta): second,
        (-INFINITY, INFINITY): full,
    }
    calls: list[tuple[float, float]] = []
    assert mtdf.mtdf(scripted(answers, calls), root, 3, 0.0) == full
    assert calls[-1] == (-INFINITY, INFINITY) and len(calls) == 3


def test_consistent_passes_converge_without_a_full_window_search() -> None:
    root = new_game("tictactoe")
    answers = {(next_down(0.0), 0.0): 2.0, (2.0, next_up(2.0)): 2.0}
    calls: list[tuple[float, float]] = []
    assert mtdf.mtdf(scripted(answers, calls), root, 3, 0.0) == 2.0
    assert (-INFINITY, INFINITY) not in calls


def test_the_selective_multipv_search_answers_from_bounds_that_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    """The position where three lines made MTD(f) play b4 (+0.72 from crossed bounds; b4
    alone scores below -0.5): every MTD(f) call's probes keep lower <= upper, or end in a
    full-window search whose value is the answer."""
    calls: list[tuple[int, int, float, float, float]] = []
    build = alphabeta.build

    def logging_build(tools: SearchTools) -> NodeSearch:
        node = build(tools)

        def logged(state: GameState, depth: int, alpha: float, beta: float, ply: int) -> float:
            value = node(state, depth, alpha, beta, ply)
            if ply == 0:
                calls.append((tools.root.iteration_depth, tools.root.move_count, alpha, beta, value))
            return value

        return logged

    monkeypatch.setattr(alphabeta, "build", logging_build)
    state = new_game("chess", ITALIAN)
    answer = search(state, SearchSettings(algorithm="mtdf", multipv=3, book=False), Limits(depth=4))
    groups: dict[tuple[int, int], list[tuple[float, float, float]]] = {}
    for depth, moves, alpha, beta, value in calls:
        groups.setdefault((depth, moves), []).append((alpha, beta, value))
    for key, passes in groups.items():
        lower: float = -INFINITY
        upper: float = INFINITY
        for number, (alpha, beta, value) in enumerate(passes):
            if alpha == -INFINITY and beta == INFINITY:
                assert number == len(passes) - 1, key  # the full-window search ends the call
                break
            if value < beta:
                upper = value
            else:
                lower = value
            assert lower <= upper or passes[-1][:2] == (-INFINITY, INFINITY), (key, passes)
    line_1 = groups[(4, len(state.legal_moves()))][-1][2]
    assert answer.score.value == line_1
    assert state.move_name(answer.best_move) != "b4"


CASES = [
    ("chess", "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3", 3),
    ("chess", ITALIAN, 3),
    ("checkers", None, 5),
    ("checkers", "W:W17,18,23,24,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,11,16", 5),
    ("othello", None, 4),
]


@pytest.mark.parametrize("multipv", [1, 3])
@pytest.mark.parametrize(("game", "position", "depth"), CASES)
def test_mtdf_equals_alphabeta_in_the_exact_preset(game: str, position: str | None, depth: int, multipv: int) -> None:
    state = new_game(game, position)
    values = {}
    for algorithm in ("alphabeta", "mtdf"):
        settings = exact(SearchSettings(algorithm=algorithm, multipv=multipv, book=False))
        answer = search(state, settings, Limits(depth=depth))
        values[algorithm] = [line.score.value for line in answer.lines]
        assert answer.score.value == values[algorithm][0]
    assert values["mtdf"] == values["alphabeta"], (game, state.to_text(), values)
    assert len(values["mtdf"]) == min(multipv, len(state.legal_moves()))
