"""``plyground match --cube``: backgammon money games with the doubling cube, GNU
Backgammon's own cube verdicts (when gnubg is installed) agreeing with ours on clear cases,
and our money cube decisions judged by gnubg's stored labels of held-out decisions."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ai.cli import main
from ai.match.records import read_games
from ai.settings import Limits
from games.backgammon import CENTRED, DOUBLE, DROP, NO_DOUBLE, TAKE, BackgammonState
from games.backgammon import cube
from games.backgammon.board import pip_count
from tests.conftest import DATA_DIR

FAR_AHEAD = ({6: 2, 5: 2, 4: 2, 3: 1}, {6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1})
"""Bear-off race, 33 pips against 62: double, pass."""
SLIGHTLY_AHEAD = ({6: 4, 5: 3, 4: 2, 8: 2, 9: 2, 10: 2}, {6: 4, 5: 3, 4: 2, 8: 2, 9: 2, 11: 2})
"""Race, 101 pips against 103: no double, take."""
DOUBLING_POINT = ({6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1}, {6: 5, 5: 3, 4: 3, 3: 2, 2: 2})
"""Race, 62 pips against 67: double, take."""


def test_cube_is_refused_for_a_game_without_one(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["match", "--game", "chess", "--a", "depth=1", "--b", "depth=1", "--games", "2", "--cube"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "chess has no doubling cube" in err, err


def test_cube_games_start_with_the_cube_in_play(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "games.json"
    status = main(["match", "--game", "backgammon", "--a", "algorithm=star2,depth=1", "--b", "pubeval",
                   "--games", "2", "--cube", "--out", str(out)])
    assert status == 0, capsys.readouterr().err
    for record in read_games(out.read_text(), "backgammon"):
        start = BackgammonState.from_text(record.start)
        assert start.cube_enabled
        assert record.replay().is_terminal() and "forfeits" not in record.reason


@pytest.mark.parametrize(
    ("position", "double", "answer"),
    [(FAR_AHEAD, DOUBLE, DROP), (SLIGHTLY_AHEAD, NO_DOUBLE, TAKE), (DOUBLING_POINT, DOUBLE, TAKE)],
)
def test_gnubg_cube_verdicts_agree_with_ours(position: tuple[dict[int, int], dict[int, int]], double: str, answer: str) -> None:
    if not (shutil.which("gnubg") or Path("/usr/games/gnubg").exists()):
        pytest.skip("GNU Backgammon is not installed (Debian package gnubg)")
    from ai.match.gnubg import GnubgPlayer

    state = BackgammonState.from_points(*position)
    advice = state.cube_advice()
    assert advice is not None
    assert (DOUBLE if advice.should_double else NO_DOUBLE) == double
    player = GnubgPlayer.from_spec("0", "gnubg:0")
    try:
        assert player.choose(state, None, Limits()) == double  # type: ignore[arg-type]
        state.play(DOUBLE)
        assert player.choose(state, None, Limits()) == answer  # type: ignore[arg-type]
        assert (TAKE if advice.should_take else DROP) == answer
    finally:
        player.close()


GNUBG_LABELS = DATA_DIR / "backgammon" / "money_cube_gnubg.tsv"
"""gnubg 1.07's 0-ply cubeful equities per unit of cube (no double, double/take, double/pass)
and cubeless chances of 200 money cube decisions: the first 200 of ``nice -n 10
.venv/bin/python -m tools.backgammon_cube --positions 1000 --seed 8 --labels FILE`` (the
network's self-play, seed 8)."""


def given_up(labels: list[float], decision: cube.CubeDecision) -> float:
    """Equity (per unit of cube) our decision gives up by gnubg's numbers: the doubler's,
    plus the taker's where gnubg doubles and our take/pass is not its."""
    no_double, double_take, double_pass = labels[:3]
    best_after_double = min(double_take, double_pass)
    ours = best_after_double if decision.should_double else no_double
    lost = max(no_double, best_after_double) - ours
    if best_after_double > no_double and decision.should_take != (double_take <= double_pass):
        lost += abs(double_take - double_pass)
    return lost


def same_verdict(labels: list[float], decision: cube.CubeDecision) -> bool:
    no_double, double_take, double_pass = labels[:3]
    doubles, takes = min(double_take, double_pass) > no_double, double_take <= double_pass
    return decision.should_double == doubles and decision.should_take == takes


def test_money_cube_decisions_against_gnubg_on_held_out_positions() -> None:
    """Measured on these 200: our cube model fed gnubg's own chances gives gnubg's verdict at
    199 and loses nothing at the other (a tie at the labels' 5 decimals): Janowski with gnubg's
    cube efficiencies is gnubg's 0-ply cube, so what the app loses is its chances'. The app's cube
    (the network's chances) agrees at 83.5% and gives up 7.1 mp a decision."""
    rows = []
    for line in GNUBG_LABELS.read_text().splitlines():
        position, *fields = line.split("\t")
        rows.append((BackgammonState.from_text(position), [float(x) for x in fields[:8]]))
    assert len(rows) == 200

    def model(state: BackgammonState, chances: tuple[float, ...]) -> cube.CubeDecision:
        efficiency = cube.cube_efficiency(state.is_race(), pip_count(state.boards[state.player]))
        return cube.cube_decision(chances, state.cube_owner == CENTRED, efficiency)  # type: ignore[arg-type]

    from_gnubg = [model(state, tuple(labels[3:8])) for state, labels in rows]
    app = [state.cube_advice() for state, _ in rows]
    assert all(decision is not None for decision in app)

    def agreement(decisions: list) -> float:
        return sum(same_verdict(labels, d) for (_, labels), d in zip(rows, decisions)) / len(rows)

    def lost(decisions: list) -> float:
        return sum(given_up(labels, d) for (_, labels), d in zip(rows, decisions)) / len(rows)

    assert agreement(from_gnubg) == pytest.approx(199 / 200) and lost(from_gnubg) == pytest.approx(0.0, abs=1e-9)
    assert agreement(app) == pytest.approx(0.835, abs=0.001) and lost(app) == pytest.approx(0.00713, abs=5e-5)
