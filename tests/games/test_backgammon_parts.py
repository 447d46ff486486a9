"""Backgammon's state parts: phases as a ``Phase`` through every path a state takes, undo
restoring everything ``play`` changed, and the text diagram."""

from __future__ import annotations

import pickle
import random

from games.backgammon import codec
from games.backgammon.diagram import diagram, status_line
from games.backgammon.phase import CHECKER_PLAY, GAME_OVER, OPENING, ROLL, Phase
from games.backgammon.state import SNAPSHOT_FIELDS, BackgammonState
from games.base import CHANCE
from tests.games.playout import random_playout

PLAYOUTS = 6
UNCHANGED_BY_UNDO = ("history", "_cached_key", "_cached_moves")
"""Slots that are no position: the record of moves itself and the legal-move cache."""


def every_move(state: BackgammonState) -> list[object]:
    return [outcome for outcome, _ in state.chance_outcomes()] if state.to_move() == CHANCE else state.legal_moves()


def fields(state: BackgammonState) -> dict[str, object]:
    """Every slot of ``state`` that describes the position (boards copied)."""
    values = {name: getattr(state, name) for name in BackgammonState.__slots__ if name not in UNCHANGED_BY_UNDO}
    values["boards"] = [list(board) for board in state.boards]
    return values


def test_undo_restores_every_field_play_changed() -> None:
    """``SNAPSHOT_FIELDS`` plus the checkers is all a move changes: after play and undo every
    slot of the position is as before, for every move of seeded random games."""
    rng = random.Random(20261128)
    checked = 0
    for _ in range(PLAYOUTS):
        for state in random_playout(BackgammonState.initial(), rng):
            assert isinstance(state, BackgammonState)
            before = fields(state)
            for move in every_move(state)[:8]:
                state.play(move)
                changed = {name for name, value in fields(state).items() if value != before[name]}
                assert changed <= {*SNAPSHOT_FIELDS, "boards"}, (state.to_text(), move, changed)
                state.undo()
                assert fields(state) == before, (state.to_text(), move)
                checked += 1
    assert checked > 100


def test_the_phase_is_a_phase_after_every_kind_of_step() -> None:
    rng = random.Random(7)
    phases_seen = set()
    for state in random_playout(BackgammonState.initial(), rng):
        assert isinstance(state, BackgammonState)
        for other in (state, state.copy(), pickle.loads(pickle.dumps(state)), BackgammonState.from_text(state.to_text())):
            assert type(other.phase) is Phase and other.phase == state.phase, state.to_text()
        phases_seen.add(state.phase)
    assert {OPENING, ROLL, CHECKER_PLAY, GAME_OVER} <= phases_seen
    assert Phase.CHECKER_PLAY.label == "checker play"


def test_the_codec_needs_no_position() -> None:
    """The state's codes are the codec's, whatever the position."""
    state = BackgammonState.initial()
    for move in every_move(state):
        assert state.encode_move(move) == codec.encode_move(move)
        assert codec.decode_move(codec.encode_move(move)) == move
    assert codec.decode_move(codec.encode_move(((24, 18), (13, 11)))) == ((24, 18), (13, 11))
    assert codec.decode_move(codec.encode_move("drop")) == "drop"


def test_the_diagram_shows_the_ids_pips_checkers_and_who_is_to_play() -> None:
    state = BackgammonState.initial()
    text = str(state)
    assert text == diagram(state)
    assert "Position ID: 4HPwATDgc/ABMA" in text and f"Match ID   : {state.match_id()}" in text
    assert "O: 167 pips, 0 off" in text and "X: 167 pips, 0 off" in text
    assert status_line(state) == "opening roll, cube 1"
    lines = text.splitlines()
    assert lines[2].startswith(" +13-14-15-16-17-18") and lines[-1].startswith(" +12-11-10")
    # the row next to X's numbers: O's midpoint on X's 12, X's 8 and 6 points, O's back checkers on X's 1
    assert lines[-2] == " | O           X    |   | X              O |"
    state.play((2, 6))  # X threw the 6: X plays 6-2
    assert status_line(state) == "X to play 6-2, cube 1"
    assert str(state).splitlines()[8].startswith("v|")  # X to move: the arrow points down
    tall = BackgammonState.from_points({6: 8, 5: 7}, {1: 15}, dice=(6, 3))
    lines = str(tall).splitlines()
    assert lines[7].endswith(" 15 |") and lines[3].endswith(" O |")  # a stack of 15: its count in the fifth row
    assert "| 8  7 " in lines[9]
