"""The options table (``ai.options``) is the one description of every search switch: each
row reaches ``SearchSettings``, the command line (its ``--help`` and its parsing), UCI (its
``option`` line and ``setoption``) and the settings line, and the ``exact`` preset turns off
exactly the switches that can change the value.

The walk is over the table itself, so a new row is checked by these tests as soon as it is
written; a row that cannot be reached from one of the front ends fails here by name.
"""

from __future__ import annotations

import dataclasses
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ai import options
from ai.cli import build_parser, settings_from
from ai.engine import search
from ai.options import OPTIONS, Effect, Option
from ai.settings import Limits, SearchSettings
from ai.uci import UCI_ALGORITHMS, UciEngine
from games import get_game, new_game

ROOT = Path(__file__).resolve().parents[2]

NOT_IN_THE_LINE = {"weights", "network", "book"}
"""The rows the settings line leaves out: files and the book say what is searched with, not
how the search is shaped (the panel shows the book beside the algorithm)."""


def other_value(row: Option, weights_file: Path) -> Any:
    """A value of ``row`` that is not its default (the one a front end must deliver)."""
    default = row.default
    if row.is_optional:
        return False
    if row.type is bool:
        return not default
    choices = row.allowed_choices()
    if choices is not None:
        return next(choice for choice in choices if choice != default and choice in (*UCI_ALGORITHMS, *options.PLAYOUTS))
    if row.file_noun:
        return row.file_words[-1] if row.file_words else str(weights_file)
    if row.range is not None:
        low = row.type(row.range.low if not row.range.positive else row.range.low + 1)
        value = low if low != default else row.type(low + 1)
        if value > row.range.upper():
            pytest.skip(f"{row.name} has no other value on this machine (one core)")
        return value
    raise AssertionError(f"{row.name}: no other value known for this kind of row")


@pytest.fixture
def weights_file(tmp_path: Path) -> Path:
    path = tmp_path / "weights.json"
    path.write_text("{}")
    return path


def test_the_table_has_one_row_per_setting_in_field_order() -> None:
    assert [row.name for row in OPTIONS] == [field.name for field in dataclasses.fields(SearchSettings)]
    defaults = SearchSettings()
    for row in OPTIONS:
        assert row.default == getattr(defaults, row.name)
        assert row.label and row.tooltip and row.cli_help and row.uci_name, row.name
        if row.effect is Effect.VALUE:
            assert row.exact_value() in (False, 0), row.name
    assert len({row.uci_name.lower() for row in OPTIONS}) == len(OPTIONS)


@pytest.mark.parametrize("row", OPTIONS, ids=lambda row: row.name)
def test_each_row_reaches_the_command_line(row: Option, weights_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["analyse", "--help"])
    shown = capsys.readouterr().out
    for flag in (row.flag, row.off_flag):
        if flag is not None:
            assert f"{flag} " in shown or f"{flag}\n" in shown or f"{flag}," in shown, (row.name, flag)
    value = other_value(row, weights_file)
    if row.type is bool:
        argument = [row.off_flag if value is False else row.flag]
    else:
        argument = [f"{row.flag}={value}"]
    args = build_parser().parse_args(["analyse", "--game", "chess", *argument])  # type: ignore[list-item]
    assert getattr(settings_from(args, get_game("chess")), row.name) == value


@pytest.mark.parametrize("row", OPTIONS, ids=lambda row: row.name)
def test_each_row_reaches_uci(row: Option, weights_file: Path) -> None:
    output = io.StringIO()
    engine = UciEngine(output)
    try:
        engine.handle("uci")
        lines = output.getvalue().splitlines()
        assert any(line.startswith(f"option name {row.uci_name} type ") for line in lines), row.uci_name
        value = other_value(row, weights_file)
        if row.uci_switch is not None:
            text = str(value == row.uci_switch[0]).lower()
        elif row.is_optional:
            text = {None: "default", True: "on", False: "off"}[value]  # type: ignore[index]
        elif row.type is bool:
            text = str(value).lower()
        else:
            text = str(value)
        engine.handle(f"setoption name {row.uci_name} value {text}")
        assert "error" not in output.getvalue(), output.getvalue()
        assert getattr(engine.settings, row.name) == value
    finally:
        engine.close()


def test_each_row_reaches_the_settings_line(weights_file: Path) -> None:
    """Every row but the files and the book changes the line when it changes, in a
    configuration whose algorithm reads it and whose game has what it needs."""
    chess, othello = get_game("chess"), get_game("othello")
    reached = set()
    for row in OPTIONS:
        users = row.used_by or ("pvs",)
        algorithm = "mcts" if "mcts" in users else ("pvs" if "pvs" in users else users[0])
        base = SearchSettings(algorithm=algorithm, playout="eval" if row.name == "playout_depth" else "random")
        game = othello if row.name == "solver_empties" else chess
        changed = dataclasses.replace(base, **{row.name: other_value(row, weights_file)})
        if row.name == "algorithm":
            changed = dataclasses.replace(base, algorithm="alphabeta")
        if options.settings_line(changed, game) != options.settings_line(base, game):
            reached.add(row.name)
    assert reached == {row.name for row in OPTIONS} - NOT_IN_THE_LINE


def test_the_settings_line_names_what_shapes_the_search() -> None:
    chess, othello = get_game("chess"), get_game("othello")
    line = options.settings_line(SearchSettings(), chess)
    assert line == (
        "principal variation search (NegaScout) · iterative deepening · aspiration ±50 · TT 64 MB · "
        "ordering (killers, history) · quiescence · check ext. · null move · LMR · q-checks · SEE pruning · "
        "futility · 1 thread"
    )
    assert options.settings_line(SearchSettings(algorithm="mcts"), othello) == (
        "Monte Carlo tree search (UCT) · C = 1.41 · random playouts · seed 0 · 1 thread"
    )
    assert "exact solver at ≤ 20 empties" in options.settings_line(SearchSettings(solver_empties=20), othello)
    assert "endgame databases at ≤ 5 pieces" in options.settings_line(SearchSettings(solver_empties=20), get_game("checkers"))


def test_a_switch_is_off_where_the_algorithm_or_the_game_cannot_use_it() -> None:
    checkers, tictactoe = get_game("checkers"), get_game("tictactoe")
    pvs = SearchSettings()
    assert options.is_used("late_move_reductions", pvs, checkers) and not options.is_used("null_move", pvs, checkers)
    assert options.unused_reason("null_move", pvs, checkers, "Checkers") == "Checkers does not use it"
    assert options.unused_reason("quiescence", pvs, tictactoe, "Tic-tac-toe") == "Tic-tac-toe has no noisy moves"
    assert options.unused_reason("solver_empties", pvs, tictactoe, "Tic-tac-toe") == "Tic-tac-toe has no exact endgame solver"
    assert options.unused_reason("exploration", pvs, tictactoe) == "pvs does not use this"
    assert options.unused_reason("aspiration", dataclasses.replace(pvs, iterative_deepening=False), None) == "needs iterative deepening"
    assert options.unused_reason("killers", dataclasses.replace(pvs, move_ordering=False), None) == "move ordering is off"
    assert options.unused_reason("tt_megabytes", pvs, tictactoe) == ""


# ------------------------------------------------------------------ the exact preset
def test_exact_turns_off_the_value_switches_and_nothing_else() -> None:
    strong = SearchSettings()
    textbook = options.exact(strong)
    assert options.is_exact(textbook) and not options.is_exact(strong)
    for row in OPTIONS:
        expected = row.exact_value() if row.effect is Effect.VALUE else getattr(strong, row.name)
        assert getattr(textbook, row.name) == expected, row.name
    assert set(options.tree_signature(textbook)) == {False, 0}
    assert [row.name for row in options.SIGNATURE_OPTIONS] == [
        "quiescence", "solver_empties", "check_extensions", "null_move", "late_move_reductions",
        "quiescence_checks", "see_pruning", "futility_pruning",
    ]


def test_uci_exact_switches_the_preset_on_and_off() -> None:
    output = io.StringIO()
    engine = UciEngine(output)
    try:
        engine.handle("uci")
        assert "option name Exact type check default false" in output.getvalue()
        engine.handle("setoption name Exact value true")
        assert options.is_exact(engine.settings)
        engine.handle("setoption name exact value FALSE")
        assert options.tree_signature(engine.settings) == options.tree_signature(SearchSettings(algorithm=engine.settings.algorithm))
    finally:
        engine.close()


PRUNING = ("alphabeta", "pvs", "mtdf")
POSITIONS = {
    "chess": ("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3", 2),
    "checkers": (None, 4),
    "othello": (None, 3),
    "tictactoe": ("x...o....", 4),
}
"""A position of each game and a depth minimax searches in well under a second."""


@pytest.mark.parametrize("game", sorted(POSITIONS))
def test_with_exact_the_pruning_algorithms_return_minimaxs_value(game: str) -> None:
    text, depth = POSITIONS[game]
    state = new_game(game, text)
    limits = Limits(depth=depth)
    reference = search(state, options.exact(SearchSettings(algorithm="minimax")), limits).score.value
    for algorithm in PRUNING:
        answer = search(state, options.exact(SearchSettings(algorithm=algorithm)), limits)
        assert answer.score.value == reference, (game, algorithm, answer.score.value, reference)


def test_without_exact_the_value_may_differ() -> None:
    """The preset matters: chess's default selective search returns another value here."""
    text, depth = POSITIONS["chess"]
    state = new_game("chess", text)
    minimax = search(state, options.exact(SearchSettings(algorithm="minimax")), Limits(depth=depth)).score.value
    assert search(state, SearchSettings(algorithm="pvs"), Limits(depth=depth)).score.value != minimax


def test_analyse_exact_on_the_command_line_returns_minimaxs_value() -> None:
    """``plyground analyse --exact``, one process per algorithm (run side by side)."""
    command = [sys.executable, "-m", "ai.cli", "analyse", "--game", "checkers", "--depth", "4", "--exact", "--json"]
    runs = {
        algorithm: subprocess.Popen([*command, "--algorithm", algorithm], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for algorithm in ("minimax", *PRUNING)
    }
    values = {}
    for algorithm, run in runs.items():
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
        finished = [json.loads(line) for line in out.splitlines() if line.startswith("{")][-1]
        assert finished["event"] == "Finished"
        values[algorithm] = finished["score"]["value"]
    assert len(set(values.values())) == 1, values
