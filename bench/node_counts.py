"""Nodes each algorithm visits to reach the same depth: the table for the lecture slide.

For each game, a few fixed positions are searched to a fixed depth by plain minimax, plain
alpha-beta (no table, no ordering), alpha-beta with table and move ordering, PVS and MTD(f)
(all three with iterative deepening, which is how the table and the killers get their
knowledge: their counts include every iteration). Quiescence, the Othello solver and the chess
selectivity are off, so every column searches the same tree and finds the same value (the
last column checks it, and says NO when a column searched nothing). The opening books are off:
a book move is an answer without a search, which has no node count to compare. EBF is the
effective branching factor ``nodes ** (1 / depth)``.

Run: ``python -m bench.node_counts`` (about two minutes on the reference machine).
"""

from __future__ import annotations

from dataclasses import dataclass

from ai.engine import search
from ai.settings import Limits, SearchSettings
from games import GameState, new_game

SAME_TREE = dict(
    book=False,
    quiescence=False,
    solver_empties=0,
    check_extensions=False,
    null_move=False,
    late_move_reductions=False,
    quiescence_checks=False,
    see_pruning=False,
    futility_pruning=False,
    aspiration=False,
    tt_megabytes=16,
)


@dataclass(frozen=True)
class Column:
    title: str
    settings: SearchSettings


COLUMNS = (
    Column("minimax", SearchSettings(algorithm="minimax", iterative_deepening=False, **SAME_TREE)),  # type: ignore[arg-type]
    Column(
        "alpha-beta",
        SearchSettings(algorithm="alphabeta", iterative_deepening=False, transposition_table=False, move_ordering=False, **SAME_TREE),  # type: ignore[arg-type]
    ),
    Column("ab+TT+order", SearchSettings(algorithm="alphabeta", **SAME_TREE)),  # type: ignore[arg-type]
    Column("PVS", SearchSettings(algorithm="pvs", **SAME_TREE)),  # type: ignore[arg-type]
    Column("MTD(f)", SearchSettings(algorithm="mtdf", **SAME_TREE)),  # type: ignore[arg-type]
)

Case = tuple[str, str | None, tuple[str, ...]]
"""(label, position text or None for the start, moves played from it in notation)."""

CASES: tuple[tuple[str, int, tuple[Case, ...]], ...] = (
    (
        "tictactoe",
        9,
        (("empty board", None, ()), ("x in a corner", None, ("a3",)), ("x centre, o edge", None, ("b2", "b3"))),
    ),
    ("checkers", 8, (("start", None, ()), ("after 11-15 23-19", None, ("11-15", "23-19")))),
    ("othello", 7, (("start", None, ()), ("after d3 c5 f6 f5", None, ("d3", "c5", "f6", "f5")))),
    (
        "chess",
        4,
        (
            ("start", None, ()),
            ("Italian", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", ()),
        ),
    ),
)


@dataclass(frozen=True)
class Row:
    """One position searched by every column: the nodes each visited and the value each found."""

    nodes: tuple[int, ...]
    values: tuple[float, ...]

    @property
    def same_value(self) -> bool:
        """Every column searched (a column with no node found its value without a search, so
        there is nothing to compare) and all found the same value."""
        return all(count > 0 for count in self.nodes) and len(set(self.values)) == 1


def count_nodes(state: GameState, depth: int, columns: tuple[Column, ...] = COLUMNS) -> Row:
    """``state`` searched to ``depth`` by each column."""
    answers = [search(state, column.settings, Limits(depth=depth)) for column in columns]
    return Row(tuple(answer.nodes for answer in answers), tuple(answer.score.value for answer in answers))


def main() -> None:
    name_width = 28
    header = f"{'position':<{name_width}}" + "".join(f"{column.title:>20}" for column in COLUMNS) + "  same value"
    for game, depth, positions in CASES:
        print(f"\n{game}, depth {depth}: nodes (EBF = nodes^(1/depth))")
        print(header)
        for label, text, moves in positions:
            try:
                state = new_game(game, text)
                for move in moves:
                    state.play_checked(state.parse_move(move))
            except (ValueError, ImportError) as error:
                print(f"{label:<{name_width}}  skipped: {error}")
                continue
            row = count_nodes(state, depth)
            cells = [f"{nodes:>11,} ({nodes ** (1 / depth):5.2f})" for nodes in row.nodes]
            print(f"{label:<{name_width}}" + "".join(f"{cell:>20}" for cell in cells) + f"  {'yes' if row.same_value else 'NO'}")


if __name__ == "__main__":
    main()
