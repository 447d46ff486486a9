"""``plyground match --cube``: backgammon money games with the doubling cube, and GNU
Backgammon's own cube verdicts (when gnubg is installed) agreeing with ours on clear cases."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ai.cli import main
from ai.match.records import read_games
from ai.settings import Limits
from games.backgammon import DOUBLE, DROP, NO_DOUBLE, TAKE, BackgammonState

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
