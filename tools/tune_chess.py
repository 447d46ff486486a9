"""Texel tuning of the chess EVAL: training games, quiet positions, features, fit.

Three steps, each a subcommand (numpy is needed for ``positions`` and ``fit``: a dev-only
extra, never a runtime dependency); the games come from one of two sources:

``games``
    Fast Stockfish self-play (``/usr/games/stockfish``, a few thousand nodes a move) from
    varied openings: each game starts with a short prefix of one of the match runner's
    built-in opening lines, then a few plies where Stockfish's move is drawn at random among
    its MultiPV moves within ``--spread`` centipawns of the best, then plain play. Games are
    adjudicated when Stockfish's own score stays decisive or dead level for a while. One
    line a game: ``<White's score 1|0.5|0> <UCI moves>``.

    Stockfish only *plays* these games: the training labels are the game **results**, and
    nothing else of Stockfish (no evaluation, no weights) reaches the fitted weights. It is
    a sparring partner, as in ``plyground match``; the weights are fitted by our own code
    to our own evaluation's features.

``selfplay``
    The same line format from our own compiled search playing itself (``native_move``: a
    few thousand nodes a move, varied), from a random prefix of a built-in opening line and
    a few random plies (the search is deterministic). No other program is involved; about
    0.35 s a game on one core. The fit of ``tools/chess_tuned.json`` used 14,000 of these
    (``resources/weights/README.md``).

``positions``
    Quiet positions of games files as sparse feature rows (an ``.npz`` file, below).

``fit``
    Positions from those games (skipping the first plies, positions in check and the last
    plies of the game), each replaced by the leaf of a small quiescence search with our
    own EVAL (so the position has no winning capture left: the EVAL, which knows nothing of
    threats, is fitted only where it is meant to be right), turned into the linear feature
    vector of ``games.chess_game.evaluation.feature_vector`` (the EVAL is exactly that
    vector times the weight vector: a middlegame and an endgame column per weight, scaled
    by the game phase), and fitted with ``ai.tuning.texel.fit`` (logistic loss on the
    results, L2 pull towards the current weights). Writes a weights JSON file.

Compare the new weights with the shipped ones before shipping them::

    plyground match --game chess --a weights=NEW.json --b default --games 100 --depth 4

Run: ``.venv/bin/python -m tools.tune_chess {games,selfplay,positions,fit} ...`` (``--help`` for
each). The commands that made the shipped file are in ``resources/weights/README.md``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import chess.engine


from ai.match.openings import CHESS_OPENINGS
from bench.peers import stockfish_command
from games.chess_game import ChessState, evaluation, tables
from games.weights import read_weights, weights_document

DECISIVE_CP = 800
"""Stockfish's score (side to move's view) beyond which a game is adjudicated as won..."""
DECISIVE_PLIES = 6
"""...when it stays beyond it for this many plies in a row."""
DEAD_DRAW_CP = 8
DEAD_DRAW_PLIES = 20
DEAD_DRAW_FROM_PLY = 100
"""A game still level within DEAD_DRAW_CP for DEAD_DRAW_PLIES plies after this ply is a draw."""
MAX_PLIES = 300


# ------------------------------------------------------------------ games
def _opening_prefix(rng: random.Random) -> list[chess.Move]:
    """A random prefix (2 plies or more) of one of the built-in opening lines."""
    _name, line = rng.choice(CHESS_OPENINGS)
    sans = line.split()
    board = chess.Board()
    moves = []
    for san in sans[: rng.randint(2, len(sans))]:
        move = board.parse_san(san)
        moves.append(move)
        board.push(move)
    return moves


def play_game(
    engine: chess.engine.SimpleEngine,
    rng: random.Random,
    nodes: int,
    random_plies: int,
    spread: int,
) -> tuple[str, list[chess.Move]]:
    """One self-play game: (White's result "1" / "0.5" / "0", the moves)."""
    board = chess.Board()
    for move in _opening_prefix(rng):
        board.push(move)
    engine.configure({"Clear Hash": None})
    varied = rng.randint(0, random_plies)

    def choose(board: chess.Board) -> tuple[chess.Move, float]:
        nonlocal varied
        limit = chess.engine.Limit(nodes=rng.randint(nodes // 2, nodes * 3 // 2))
        if varied > 0:
            varied -= 1
            infos = engine.analyse(board, limit, multipv=4)
            best = infos[0]["score"].relative.score(mate_score=100_000)
            choices = [
                info["pv"][0]
                for info in infos
                if "pv" in info and best - info["score"].relative.score(mate_score=100_000) <= spread
            ]
            return rng.choice(choices), best
        info = engine.analyse(board, limit)
        return info["pv"][0], info["score"].relative.score(mate_score=100_000)

    return play_out(board, choose)


def play_out(board: chess.Board, choose: Any) -> tuple[str, list[chess.Move]]:
    """Play ``board`` to its end with ``choose(board) -> (move, score for the side to move)``:
    (White's result, the moves). Adjudicated when the score stays decisive
    (``DECISIVE_CP`` for ``DECISIVE_PLIES``) or dead level late in the game, or at
    ``MAX_PLIES``; both training-game sources share this, so their labels mean the same."""
    decisive_run = level_run = 0
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return {True: "1", False: "0", None: "0.5"}[outcome.winner], board.move_stack
        if board.ply() >= MAX_PLIES:
            return "0.5", board.move_stack
        move, score = choose(board)
        decisive_run = decisive_run + 1 if abs(score) >= DECISIVE_CP else 0
        if decisive_run >= DECISIVE_PLIES:  # the side to move is winning (or losing) for good
            winner = board.turn if score > 0 else not board.turn
            return ("1" if winner == chess.WHITE else "0"), board.move_stack
        level_run = level_run + 1 if abs(score) <= DEAD_DRAW_CP and board.ply() >= DEAD_DRAW_FROM_PLY else 0
        if level_run >= DEAD_DRAW_PLIES:
            return "0.5", board.move_stack
        board.push(move)


def command_games(arguments: argparse.Namespace) -> None:
    command = stockfish_command()
    if command is None:
        raise SystemExit("tune_chess games: Stockfish is not installed (apt-get install stockfish)")
    rng = random.Random(arguments.seed)
    started = time.perf_counter()
    scores = {"1": 0, "0.5": 0, "0": 0}
    with chess.engine.SimpleEngine.popen_uci(command) as engine, open(arguments.out, "a", encoding="ascii") as out:
        engine.configure({"Threads": 1, "Hash": 16})
        for number in range(1, arguments.games + 1):
            result, moves = play_game(engine, rng, arguments.nodes, arguments.random_plies, arguments.spread)
            out.write(result + " " + " ".join(move.uci() for move in moves) + "\n")
            out.flush()
            scores[result] += 1
            if number % 50 == 0 or number == arguments.games:
                elapsed = time.perf_counter() - started
                print(
                    f"{number} games in {elapsed:.0f} s (White +{scores['1']} ={scores['0.5']} -{scores['0']})",
                    file=sys.stderr,
                )


class _NodesSpent(Exception):
    """Raised from the compiled search's node poll when a self-play move's budget is spent."""


def native_move(searcher: Any, state: ChessState, nodes: int) -> tuple[chess.Move, float]:
    """The compiled search's move after about ``nodes`` nodes, and its score for the side to
    move in centipawns (a proven mate: +-100,000, beyond every adjudication threshold)."""
    spent = [0]
    last: list[Any] = [None]

    def poll(count: int, _check: bool) -> None:
        spent[0] += count
        if spent[0] >= nodes:
            raise _NodesSpent

    def on_iteration(report: Any) -> bool:
        last[0] = report
        return False

    try:
        searcher.search(state, 64, poll, on_iteration, poll_interval=min(nodes, 1024))
    except _NodesSpent:
        better = searcher.interrupted(state)
        if better is not None and last[0] is not None:
            last[0] = better
    report = last[0]
    if report is None or not report.pv:
        raise RuntimeError("the compiled search gave no move")
    if report.win_in_plies is not None:
        return report.pv[0], (100_000.0 if report.win_in_plies > 0 else -100_000.0)
    return report.pv[0], report.score


def play_native_game(searcher: Any, rng: random.Random, nodes: int, random_plies: int) -> tuple[str, list[chess.Move]]:
    """One self-play game of the compiled search (our own engine, ``--nodes`` varied +-50%
    a move): a random prefix of a built-in opening line, then up to ``random_plies`` plies
    drawn uniformly among the legal moves (variety: the search is deterministic), then play.
    Adjudicated by ``play_out``, on the engine's own score."""
    board = chess.Board()
    for move in _opening_prefix(rng):
        board.push(move)
    for _ in range(rng.randint(0, random_plies)):
        board.push(rng.choice(list(board.legal_moves)))
        if board.is_game_over():
            break
    searcher.clear()

    def choose(board: chess.Board) -> tuple[chess.Move, float]:
        return native_move(searcher, ChessState(board.copy()), rng.randint(nodes // 2, nodes * 3 // 2))

    return play_out(board, choose)


def command_selfplay(arguments: argparse.Namespace) -> None:
    """Self-play games of our compiled search, in the ``games`` command's line format."""
    searcher = ChessState.native_searcher(16)
    rng = random.Random(arguments.seed)
    started = time.perf_counter()
    scores = {"1": 0, "0.5": 0, "0": 0}
    with open(arguments.out, "a", encoding="ascii") as out:
        for number in range(1, arguments.games + 1):
            result, moves = play_native_game(searcher, rng, arguments.nodes, arguments.random_plies)
            out.write(result + " " + " ".join(move.uci() for move in moves) + "\n")
            out.flush()
            scores[result] += 1
            if number % 100 == 0 or number == arguments.games:
                elapsed = time.perf_counter() - started
                print(
                    f"{number} games in {elapsed:.0f} s (White +{scores['1']} ={scores['0.5']} -{scores['0']})",
                    file=sys.stderr,
                )


# ------------------------------------------------------------------ positions
SKIP_OPENING_PLIES = 8
"""Positions this close to the start are book territory, not the EVAL's job."""
QUIESCENCE_PLIES = 8
"""Depth cap of the labelling quiescence search (captures rarely chain longer)."""


def quiet_line(state: ChessState, alpha: float, beta: float, depth: int) -> tuple[float, list[chess.Move]]:
    """Fail-hard quiescence search (stand pat, then captures and promotions, MVV-LVA order)
    with our own EVAL: (score for the side to move, the moves to its quiet leaf)."""
    stand_pat = state.evaluate(state.to_move())
    if stand_pat >= beta or depth == 0:
        return stand_pat, []
    best_line: list[chess.Move] = []
    if stand_pat > alpha:
        alpha = stand_pat
    moves = sorted(state.noisy_moves(), key=state.capture_score, reverse=True)
    for move in moves:
        state.play(move)
        score, line = quiet_line(state, -beta, -alpha, depth - 1)
        state.undo()
        score = -score
        if score >= beta:
            return beta, []
        if score > alpha:
            alpha, best_line = score, [move, *line]
    return alpha, best_line


def game_positions(line: str, every: int, rng: random.Random) -> Iterator[tuple[ChessState, float]]:
    """Quiet positions of one game line (``<result> <moves>``) with White's result."""
    fields = line.split()
    result = {"1": 1.0, "0.5": 0.5, "0": 0.0}[fields[0]]
    state = ChessState.initial()
    moves = [chess.Move.from_uci(text) for text in fields[1:]]
    last = len(moves) - 1
    for ply, move in enumerate(moves):
        if ply >= SKIP_OPENING_PLIES and ply < last and rng.randrange(every) == 0 and not state.is_in_check():
            _score, line_to_leaf = quiet_line(state, -math.inf, math.inf, QUIESCENCE_PLIES)
            leaf = state.copy()
            for noisy in line_to_leaf:
                leaf.play(noisy)
            if not leaf.is_in_check() and not leaf.is_terminal():
                yield ChessState.from_text(leaf.to_text()), result
        state.play(move)


def command_positions(arguments: argparse.Namespace) -> None:
    """Quiet positions of the games files as sparse feature rows (an .npz file)."""
    import numpy as np

    rng = random.Random(arguments.seed)
    columns: list[int] = []
    values: list[float] = []
    row_starts = [0]
    results: list[float] = []
    game_numbers: list[int] = []
    seen: set[int] = set()
    started = time.perf_counter()
    games = 0
    for path in arguments.games:
        for line in Path(path).read_text(encoding="ascii").splitlines():
            if not line.strip():
                continue
            games += 1
            for state, result in game_positions(line, arguments.every, rng):
                if state.key() in seen:  # the same position from two games: keep one
                    continue
                seen.add(state.key())
                terms = evaluation.feature_terms(state.board)
                columns.extend(terms)
                values.extend(terms.values())
                row_starts.append(len(columns))
                results.append(result)
                game_numbers.append(games)
            if games % 200 == 0:
                print(f"{games} games, {len(results)} positions, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    np.savez_compressed(
        arguments.out,
        row_starts=np.array(row_starts, dtype=np.int64),
        columns=np.array(columns, dtype=np.int16),
        values=np.array(values, dtype=np.float32),
        results=np.array(results, dtype=np.float32),
        games=np.array(game_numbers, dtype=np.int32),
    )
    print(f"{len(results)} positions from {games} games -> {arguments.out}", file=sys.stderr)


# ------------------------------------------------------------------ fit
def load_rows(paths: list[str]) -> tuple[Any, Any, Any]:
    """(feature rows as ``SparseRows``, White's results, game numbers unique over the files)
    of positions files, built from their arrays (no Python object per entry)."""
    import numpy as np

    from ai.tuning.texel import SparseRows

    starts, columns, values, results, games = [np.zeros(1, dtype=np.int64)], [], [], [], []
    for number, path in enumerate(paths):
        data = np.load(path)
        starts.append(data["row_starts"][1:].astype(np.int64) + starts[-1][-1])
        columns.append(data["columns"].astype(np.int64))
        values.append(data["values"])
        results.append(data["results"].astype(np.float64))
        games.append((np.int64(number) << 32) + data["games"].astype(np.int64))
    rows = SparseRows.from_arrays(np.concatenate(starts), np.concatenate(columns), np.concatenate(values), evaluation.WEIGHT_COUNT)
    return rows, np.concatenate(results), np.concatenate(games)


def command_fit(arguments: argparse.Namespace) -> None:
    import numpy as np

    from ai.tuning.texel import fit, loss

    if arguments.start:
        ChessState.set_weights(read_weights(arguments.start, "chess"))
    rows, results, games = load_rows(arguments.positions)
    # Held-out positions are whole games: positions of one game are alike, so a split by
    # position would let the fit see the held-out games and flatter it.
    game_ids = np.unique(games)
    held_ids = np.array(
        [game for game in game_ids.tolist() if random.Random(f"{arguments.seed}:{game}").random() < arguments.hold_out],
        dtype=np.int64,
    )
    held_mask = np.isin(games, held_ids)
    data, held_data = rows.subset(~held_mask), rows.subset(held_mask)
    held_results = results[held_mask]
    results = results[~held_mask]
    initial = evaluation.weight_vector()
    tuned_names = arguments.only.split(",") if arguments.only else list(tables.WEIGHT_SHAPES)
    unknown = sorted(set(tuned_names) - set(tables.WEIGHT_SHAPES))
    if unknown:
        raise SystemExit(f"tune_chess fit: unknown weight {unknown[0]!r}")
    seen = np.bincount(data.indices, minlength=evaluation.WEIGHT_COUNT)
    frozen = [
        index
        for name, shape in tables.WEIGHT_SHAPES.items()
        for index in range(evaluation.WEIGHT_OFFSETS[name], evaluation.WEIGHT_OFFSETS[name] + math.prod(shape))
        if name not in tuned_names or seen[index] < arguments.min_seen
    ]
    print(
        f"{data.count} positions; {evaluation.WEIGHT_COUNT - len(frozen)} of {evaluation.WEIGHT_COUNT} weights free",
        file=sys.stderr,
    )
    started = time.perf_counter()
    answer = fit(
        data, results, initial, frozen=frozen, epochs=arguments.epochs, l2=arguments.l2,
        learning_rate=arguments.learning_rate,
        report=lambda epoch, value: print(f"  epoch {epoch}: loss {value:.5f}", file=sys.stderr),
    )  # fmt: skip
    new_weights = evaluation.weights_from_vector(answer.weights)
    rounded = np.array(evaluation.weight_vector(new_weights))
    no_offsets = np.zeros(held_data.count)
    held_before = loss(held_data, held_results, no_offsets, np.asarray(initial), answer.scale)
    held_after = loss(held_data, held_results, no_offsets, rounded, answer.scale)
    summary = (
        f"{answer.positions} training positions from {len(game_ids) - len(held_ids)} games, scale "
        f"{answer.scale:.5f}/cp, loss {answer.loss_before:.5f} -> {answer.loss_after:.5f}; "
        f"{held_data.count} held-out positions from {len(held_ids)} other games: {held_before:.5f} -> "
        f"{held_after:.5f} (weights rounded); {time.perf_counter() - started:.0f} s"
    )
    print(summary, file=sys.stderr)
    document = weights_document(
        "chess",
        new_weights,
        DESCRIPTION,
        training=(
            f"tools/tune_chess.py fit --only {arguments.only or '(all)'} --l2 {arguments.l2} "
            f"--epochs {arguments.epochs} --min-seen {arguments.min_seen}: {summary}"
        ),
    )
    Path(arguments.out).write_text(format_weights(document), encoding="utf-8")
    changes = sorted(
        ((abs(new - old), new - old, name) for name, old, new in zip(_weight_labels(), initial, rounded) if new != old),
        reverse=True,
    )
    print(
        f"{len(changes)} weights changed; largest: " + ", ".join(f"{name} {delta:+.0f}" for _size, delta, name in changes[:16]),
        file=sys.stderr,
    )


def _weight_labels() -> list[str]:
    """A readable name for each entry of the flat weight vector."""
    labels = []
    for name, shape in tables.WEIGHT_SHAPES.items():
        for flat in range(math.prod(shape)):
            half = "eg" if flat % 2 else "mg"
            where = flat // 2
            if name.endswith("_squares"):
                labels.append(f"{name}[{chess.square_name(where ^ 56)}].{half}")
            elif len(shape) > 1:
                labels.append(f"{name}[{where}].{half}")
            else:
                labels.append(f"{name}.{half}")
    return labels


DESCRIPTION = (
    "Chess EVAL weights (games/chess_game/tables.py documents every name). Every weight's last "
    "axis is (middlegame, endgame), blended by game phase. Initial values: PeSTO's material and "
    "piece-square tables (Ronald Friederich, Chessprogramming Wiki) and hand-set classical terms."
)


# ------------------------------------------------------------------ weights files
def format_weights(document: dict[str, Any]) -> str:
    """A weights document as JSON a person can read: one line per weight, and the square
    tables one board rank a line (rank 8 first, as the tables are printed)."""
    lines = ["{"]
    for key in ("game", "format", "description", "training"):
        if key in document:
            lines.append(f"  {json.dumps(key)}: {json.dumps(document[key])},")
    lines.append('  "weights": {')
    items = list(document["weights"].items())
    for number, (name, value) in enumerate(items):
        comma = "," if number < len(items) - 1 else ""
        if name.endswith("_squares"):
            rows = ",\n".join("      " + json.dumps(row, separators=(",", ":")) for row in value)
            lines.append(f"    {json.dumps(name)}: [\n{rows}\n    ]{comma}")
        else:
            lines.append(f"    {json.dumps(name)}: {json.dumps(value, separators=(',', ':'))}{comma}")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ main
def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    games = commands.add_parser("games", help="Stockfish self-play games (appended to --out)")
    games.add_argument("--games", type=int, default=1000)
    games.add_argument("--nodes", type=int, default=3000, help="Stockfish's nodes a move (varied +-50%%)")
    games.add_argument("--random-plies", type=int, default=8, help="at most this many varied plies")
    games.add_argument("--spread", type=int, default=40, help="centipawns from the best a varied move may lose")
    games.add_argument("--seed", type=int, default=1)
    games.add_argument("--out", required=True)
    games.set_defaults(run=command_games)
    selfplay = commands.add_parser("selfplay", help="our compiled search's self-play games (appended to --out)")
    selfplay.add_argument("--games", type=int, default=1000)
    selfplay.add_argument("--nodes", type=int, default=4000, help="nodes a move (varied +-50%%)")
    selfplay.add_argument("--random-plies", type=int, default=3, help="at most this many random plies after the opening")
    selfplay.add_argument("--seed", type=int, default=1)
    selfplay.add_argument("--out", required=True)
    selfplay.set_defaults(run=command_selfplay)
    positions = commands.add_parser("positions", help="quiet positions and results as feature rows (.npz)")
    positions.add_argument("games", nargs="+", help="files written by the games command")
    positions.add_argument("--every", type=int, default=3, help="keep one position in this many (at random)")
    positions.add_argument("--seed", type=int, default=1)
    positions.add_argument("--out", required=True)
    positions.set_defaults(run=command_positions)
    fitting = commands.add_parser("fit", help="fit the weights to the positions' results (numpy)")
    fitting.add_argument("positions", nargs="+", help="files written by the positions command")
    fitting.add_argument("--only", default="", help="comma-separated weight names to fit (default: all)")
    fitting.add_argument("--start", default="", help="weights file to start from (default: the shipped one)")
    fitting.add_argument("--l2", type=float, default=0.0, help="pull towards the starting weights")
    fitting.add_argument("--epochs", type=int, default=400)
    fitting.add_argument("--learning-rate", type=float, default=1.0, help="Adam's step, centipawns")
    fitting.add_argument("--min-seen", type=int, default=50, help="freeze weights of rarer features")
    fitting.add_argument("--hold-out", type=float, default=0.1, help="share of games kept out to validate")
    fitting.add_argument("--seed", type=int, default=1)
    fitting.add_argument("--out", required=True)
    fitting.set_defaults(run=command_fit)
    arguments = parser.parse_args(argv)
    arguments.run(arguments)


if __name__ == "__main__":
    main()
