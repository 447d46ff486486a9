"""gnubg Match IDs of match positions, read and written, against gnubg's own output.

``tests/data/backgammon_match_ids.json``: gnubg 1.07's Position and Match IDs after
``new match N``, ``set score``, ``set crawford`` and ``set cube`` (``tools/backgammon_match_cube.py
--ids``; the commands are in the file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.backgammon import CENTRED, CHECKER_PLAY, BackgammonState, O
from games.backgammon.gnubg_ids import MatchKey, decode_match_id, encode_match_id
from games.backgammon.match import Match
from games.base import BadPositionError

DATA = Path(__file__).resolve().parents[1] / "data" / "backgammon_match_ids.json"
SETUPS: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))["setups"]


@pytest.mark.parametrize("setup", SETUPS, ids=[setup["name"] for setup in SETUPS])
def test_gnubgs_ids_read_as_the_match_and_write_back_the_same(setup: dict[str, Any]) -> None:
    text = f"{setup['position_id']}:{setup['match_id']}"
    expected = setup["expected"]
    state = BackgammonState.from_text(text)
    assert state.match_length == expected["length"]
    assert state.score == tuple(expected["score"])
    assert state.crawford == expected["crawford"]
    assert state.cube_value == expected["cube"] and state.cube_owner == expected.get("owner", CENTRED)
    assert not state.jacoby and state.phase == CHECKER_PLAY  # gnubg rolled the opening roll
    assert state.to_text() == text  # copying writes gnubg's own id


@pytest.mark.parametrize("setup", [s for s in SETUPS if s["expected"]["cube"] == 1], ids=lambda s: s["name"])
def test_a_match_started_here_has_gnubgs_id(setup: dict[str, Any]) -> None:
    """The same match started by ``Match`` and given gnubg's opening roll writes gnubg's id."""
    expected = setup["expected"]
    gnubg = BackgammonState.from_text(f"{setup['position_id']}:{setup['match_id']}")
    match = Match(expected["length"], tuple(expected["score"]), expected["crawford"])  # type: ignore[arg-type]
    state = match.new_game()
    high, low = gnubg.dice
    state.play((high, low) if gnubg.player == O else (low, high))  # the opening roll: O's die first
    assert state.to_text() == f"{setup['position_id']}:{setup['match_id']}"


def test_older_ids_without_gnubgs_jacoby_bit_still_round_trip() -> None:
    """Published ids written before gnubg set bit 67 read the same and are written back as read."""
    for text in ("bLsQwCE2dmMGAA:cAngAAAAGAAA", "g9vBASSYZ8wBBg:cIkmAQAAAAAA"):
        state = BackgammonState.from_text(text)
        assert state.match_length in (7, 9) and state.to_text() == text


def test_money_ids_are_unchanged() -> None:
    assert BackgammonState.initial().match_id() == encode_match_id(MatchKey(game_state=0, player_on_roll=0, turn=0))
    assert not decode_match_id(BackgammonState.from_text("4HPwATDgc/ABMA").match_id()).gnubg_jacoby_off


@pytest.mark.parametrize(
    ("key", "message"),
    [
        (MatchKey(match_length=65), "longer than the 64 points gnubg plays"),
        (MatchKey(match_length=7, score=(2, 3), crawford=True), "Crawford game is played when one player"),
        (MatchKey(match_length=7, score=(6, 6), crawford=True), "Crawford game is played when one player"),
        (MatchKey(match_length=7, score=(7, 3)), "already over"),
        (MatchKey(jacoby=True, gnubg_jacoby_off=True), "both that the Jacoby rule is on"),
    ],
)
def test_impossible_match_ids_are_refused(key: MatchKey, message: str) -> None:
    with pytest.raises(BadPositionError, match=message):
        BackgammonState.from_text(f"4HPwATDgc/ABMA:{encode_match_id(key)}")
