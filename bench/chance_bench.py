"""Chance-node pruning and MCTS speed: node counts and times, printed as tables.

Run: ``.venv/bin/python -m bench.chance_bench [--positions 4] [--playout-seconds 1] [--cube]``.

1. Expectiminimax vs Star1 vs Star2 on cubeless backgammon positions (dice rolled, seeded
   random play) at 1 and 2 plies (the opponent's 21 rolls between): one fixed-depth
   iteration each, the same root value (checked), nodes, chance cut-offs (Star2: how many in
   the probing phase) and seconds. With ``--cube`` also one position with the cube in play,
   where the bounds are the cube's maximum (3 x 32768) and chance pruning has little to use.
2. MCTS: playout moves per second (``control`` nodes) and iterations per second for every
   game, random playouts and ``eval`` playouts, from the start and a seeded mid-game.
"""

from __future__ import annotations

import argparse
import random
import time


from ai.context import SearchContext
from ai.control import SearchControl
from ai.search import expectiminimax, mcts, star1, star2
from ai.search.chance_common import ChanceTools
from ai.iterative import run_chance_search
from ai.settings import Limits, SearchSettings
from games import CHANCE, GAME_NAMES, new_game
from games.base import GameState

FAMILY = {"expectiminimax": expectiminimax, "star1": star1, "star2": star2}
MIDGAME_PLIES = {"tictactoe": 3, "checkers": 14, "chess": 16, "othello": 20, "backgammon": 16}


def random_position(game: str, plies: int, rng: random.Random, **options: bool) -> GameState:
    """A position after ``plies`` seeded random moves, dice rolled (a decision node)."""
    while True:
        state = new_game(game) if not options else _backgammon(**options)
        for _ in range(plies):
            if state.is_terminal():
                break
            if state.to_move() == CHANCE:
                outcomes = state.chance_outcomes()
                state.play(rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0])
            else:
                moves = [move for move in state.legal_moves() if move != "double"]
                state.play(rng.choice(moves))
        while not state.is_terminal() and state.to_move() == CHANCE:
            outcomes = state.chance_outcomes()
            state.play(rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0])
        if not state.is_terminal() and len(state.legal_moves()) > 1:
            return type(state).from_text(state.to_text())


def _backgammon(cube_enabled: bool) -> GameState:
    from games.backgammon.state import BackgammonState

    return BackgammonState.initial(cube_enabled=cube_enabled)


def one_iteration(name: str, state: GameState, depth: int) -> tuple[float, int, int, int, int, float]:
    """(value, nodes, chance cut-offs, probe cut-offs, window re-searches, seconds) of one
    fixed-depth iteration."""
    tools_seen: list[ChanceTools] = []

    def build(tools: ChanceTools):  # type: ignore[no-untyped-def]
        tools_seen.append(tools)
        return FAMILY[name].build(tools)

    settings = SearchSettings(algorithm=name, iterative_deepening=False)
    context = SearchContext(settings=settings, control=SearchControl(Limits(depth=depth)))
    started = time.perf_counter()
    answer = run_chance_search(state, context, build)
    seconds = time.perf_counter() - started
    tools = tools_seen[0]
    return (
        answer.score.value,
        answer.nodes,
        tools.chance_cutoffs,
        tools.probe_cutoffs,
        tools.window_researches,
        seconds,
    )


def pruning_table(positions: list[GameState], depths: tuple[int, ...], title: str) -> None:
    print(f"\n{title}")
    print(
        f"{'pos':>3} {'ply':>3}  {'algorithm':<15}{'nodes':>9}{'vs EMM':>8}"
        f"{'chance cuts':>12}{'(probe)':>8}{'re-search':>10}{'seconds':>9}"
    )
    for depth in depths:
        totals = dict.fromkeys(FAMILY, 0)
        for number, state in enumerate(positions, start=1):
            reference_nodes = 0
            reference_value = 0.0
            for name in FAMILY:
                value, nodes, cuts, probe_cuts, researches, seconds = one_iteration(name, state, depth)
                if name == "expectiminimax":
                    reference_nodes, reference_value = nodes, value
                elif abs(value - reference_value) > 1e-9 * max(1.0, abs(reference_value)):
                    raise SystemExit(f"{name} value {value} differs from expectiminimax {reference_value}")
                totals[name] += nodes
                print(
                    f"{number:>3} {depth:>3}  {name:<15}{nodes:>9}{nodes / reference_nodes:>8.2f}"
                    f"{cuts:>12}{probe_cuts:>8}{researches:>10}{seconds:>9.2f}"
                )
        summary = "  ".join(f"{name} {totals[name]}" for name in FAMILY)
        print(f"    total at {depth} ply: {summary}")


def mcts_rates(game: str, state: GameState, playout: str, seconds: float) -> tuple[float, float]:
    """(playout moves/s, iterations/s) of MCTS on ``state`` for ``seconds``."""
    settings = SearchSettings(algorithm="mcts", playout=playout, seed=1)
    context = SearchContext(settings=settings, control=SearchControl(Limits(time=seconds)))
    search = mcts.MonteCarloTreeSearch(state, context)
    answer = search.run()
    return answer.nodes / answer.time, search.iterations / answer.time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=4, help="backgammon positions per depth")
    parser.add_argument("--cube", action="store_true", help="also one 2-ply position with the cube in play")
    parser.add_argument("--playout-seconds", type=float, default=1.0, help="MCTS seconds per row")
    arguments = parser.parse_args()

    rng = random.Random(2024)
    cubeless = [
        random_position("backgammon", 16 + 4 * n, rng, cube_enabled=False) for n in range(arguments.positions)
    ]
    pruning_table(
        cubeless, (1, 2), "Backgammon without the cube (bounds +-3 points): expectiminimax vs Star1 vs Star2"
    )
    if arguments.cube:  # about a minute: the cube decisions double the tree
        with_cube = [random_position("backgammon", 20, rng, cube_enabled=True)]
        pruning_table(with_cube, (2,), "Backgammon with the cube in play (bounds +-3 x 32768)")

    print("\nMCTS (UCT), one core; nodes = moves played in the tree and in playouts")
    print(f"{'game':<11}{'position':<9}{'playout':<8}{'nodes/s':>10}{'iterations/s':>14}")
    for game in GAME_NAMES:
        starts = [
            ("start", new_game(game)),
            ("midgame", random_position(game, MIDGAME_PLIES[game], random.Random(5))),
        ]
        if game == "backgammon":
            starts[0] = ("start", random_position(game, 0, random.Random(5)))
        for label, state in starts:
            for playout in ("random", "eval"):
                nodes_per_second, iterations_per_second = mcts_rates(
                    game, state, playout, arguments.playout_seconds
                )
                print(
                    f"{game:<11}{label:<9}{playout:<8}{nodes_per_second:>10.0f}{iterations_per_second:>14.0f}"
                )


if __name__ == "__main__":
    main()
