"""Backgammon EVAL against Tesauro's pubeval: a cubeless money-game match, 1 ply each.

Run: ``.venv/bin/python -m bench.backgammon_eval [--games 400] [--seed 2024]
[--evaluator net|linear|FILE] [--opponents random,pubeval,gnubg,net:FILE]``.

Both sides pick the play whose resulting position their evaluator likes best (no search),
so the match measures the evaluators alone. pubeval (G. Tesauro, 1993, public weights in
``resources/weights/pubeval.json``) is a yardstick, never the product's evaluator; it is
``ai.match.pubeval``, the match SPEC ``pubeval``. Colours alternate and both players see the
same seeded dice stream, so luck mostly cancels; the line printed is points per game for
Plyground with its standard error and paired 95% interval, games won, and the share of all
points won; plus the same against a player that picks uniformly at random (a floor, not a
peer). ``--evaluator FILE`` plays another network's weights (``net:FILE`` as an opponent:
old vs new head to head on the same dice); ``--evaluator linear`` measures the older
hand-featured linear EVAL (``linear_evaluate``) instead of the network; ``gnubg`` is GNU Backgammon
0-ply (Debian's ``gnubg``, driven as ``plyground match`` drives it), cubeless, 1 ply against
its neural net alone.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path


from ai.match.pubeval import pubeval_play
from games.backgammon import BackgammonState, network
from games.base import CHANCE

Chooser = Callable[[BackgammonState, random.Random], object]


def choose_with_pubeval(state: BackgammonState, rng: random.Random) -> object:
    return pubeval_play(state)


def choose_with_eval(state: BackgammonState, rng: random.Random) -> object:
    mover = state.player
    return max(state.legal_moves(), key=lambda move: state.result(move).evaluate(mover))


def network_chooser(path: str) -> Chooser:
    """1 ply on the network in ``path`` (a weights file like ``backgammon_net.json``)."""
    document = json.loads(Path(path).read_text())
    if "weights" not in document:  # a network file without the shared weights format's header
        document = {"game": "backgammon", "format": 1, "weights": {name: document[name] for name in network.WEIGHT_NAMES}}
    net = network.from_document(document, path)

    def choose(state: BackgammonState, rng: random.Random) -> object:
        mover = state.player
        best, best_value = None, -float("inf")
        for move in state.legal_moves():
            child = state.result(move)
            if child.is_terminal():
                value = child.utility(mover)
            else:  # the opponent is on roll after the play
                value = -network.cubeless_equity(net.probabilities(child.boards[1 - mover], child.boards[mover]))
            if value > best_value:
                best, best_value = move, value
        return best

    return choose


def choose_with_linear_eval(state: BackgammonState, rng: random.Random) -> object:
    mover = state.player
    return max(state.legal_moves(), key=lambda move: state.result(move).linear_evaluate(mover))


def gnubg_chooser() -> tuple[Chooser, Callable[[], None]]:
    """GNU Backgammon 0-ply as a chooser, and the function that ends its process."""
    from ai.match.gnubg import GnubgPlayer

    player = GnubgPlayer.from_spec("0", "gnubg:0")

    def choose(state: BackgammonState, rng: random.Random) -> object:
        return player.choose(state, None, None)  # type: ignore[arg-type]

    return choose, player.close


def choose_at_random(state: BackgammonState, rng: random.Random) -> object:
    return rng.choice(state.legal_moves())


def play_match(opponent: Chooser, games: int, seed: int, ours_chooser: Chooser = choose_with_eval) -> list[int]:
    """Points won by Plyground's EVAL in each game (gammons and backgammons count 2 and 3)."""
    points: list[int] = []
    for game in range(games):
        dice = random.Random(seed + game // 2)  # each pair of games: same dice, colours swapped
        choices = random.Random(seed + game)
        ours = game % 2
        state = BackgammonState.initial(cube_enabled=False)
        while not state.is_terminal():
            if state.to_move() == CHANCE:
                outcomes = state.chance_outcomes()
                state.play(dice.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0])
            else:
                chooser = ours_chooser if state.player == ours else opponent
                state.play(chooser(state, choices))
        points.append(state.utility(ours))
    return points


def report(name: str, points: list[int], seconds: float, label: str = "EVAL") -> None:
    mean = statistics.fmean(points)
    error = statistics.stdev(points) / len(points) ** 0.5
    # Paired games share dice: the interval comes from the spread of the pair sums.
    pairs = [points[index] + points[index + 1] for index in range(0, len(points) - 1, 2)]
    paired = 1.96 * statistics.stdev(pairs) / 2 / len(pairs) ** 0.5 if len(pairs) > 1 else float("nan")
    wins = sum(point > 0 for point in points)
    won = sum(point for point in points if point > 0)
    share = won / sum(abs(point) for point in points)
    print(
        f"plyground {label:6} vs {name:8} {len(points)} games  {mean:+.3f} ± {error:.3f} points/game "
        f"(95% paired ± {paired:.3f})  won {wins}/{len(points)} = {wins / len(points):.1%}  "
        f"points share {share:.1%}  ({seconds:.0f} s)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--evaluator", default="net", help="net (shipped), linear, or a network weights file")
    parser.add_argument(
        "--opponents", default="random,pubeval", help="comma list of random, pubeval, gnubg, net:FILE (another network)"
    )
    args = parser.parse_args()
    if args.evaluator == "net":
        ours = choose_with_eval
    elif args.evaluator == "linear":
        ours = choose_with_linear_eval
    else:
        ours = network_chooser(args.evaluator)
    for name in args.opponents.split(","):
        close: Callable[[], None] = lambda: None  # noqa: E731
        if name == "random":
            opponent, games = choose_at_random, max(2, args.games // 10)
        elif name == "pubeval":
            opponent, games = choose_with_pubeval, args.games
        elif name == "gnubg":
            (opponent, close), games = gnubg_chooser(), args.games
        elif name.startswith("net:"):
            opponent, games = network_chooser(name[4:]), args.games
        else:
            parser.error(f"unknown opponent {name!r}")
        started = time.perf_counter()
        try:
            points = play_match(opponent, games, args.seed, ours)
        finally:
            close()
        report(name, points, time.perf_counter() - started, Path(args.evaluator).stem)


if __name__ == "__main__":
    main()
