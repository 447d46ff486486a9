"""pubeval, the match SPEC ``pubeval``, against an independent transcription of Tesauro's C.

The reference below follows ``pubeval.c`` line for line (its ``pos[28]`` array, ``setx`` and
the dot product) and reads the weights from the shared data copy in tests/data, not from the
shipped package file; the player must pick the same plays and give the same scores.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from ai.match.players import SpecError, make_player
from ai.match.pubeval import PubevalPlayer, pubeval_play, pubeval_score
from ai.settings import Limits
from games.backgammon import BackgammonState
from games.backgammon.board import BAR, OFF, empty_board
from games.backgammon.notation import NO_DOUBLE, TAKE
from games.backgammon.state import CHECKER_PLAY
from games.base import CHANCE

REFERENCE = json.loads((Path(__file__).parent.parent / "data" / "backgammon" / "pubeval_weights.json").read_text())


def reference_pos(mine: list[int], theirs: list[int]) -> list[int]:
    """pubeval.c's ``pos[0..27]`` from the mover's side: its checkers positive on its points,
    the opponent's negative, pos[0] = -(opponent's bar), pos[25] = mover's bar, pos[26] = off."""
    pos = [0] * 28
    for point in range(1, 25):
        pos[point] = mine[point] - theirs[25 - point]
    pos[0] = -theirs[BAR]
    pos[25] = mine[BAR]
    pos[26] = mine[OFF]
    pos[27] = -theirs[OFF]
    return pos


def reference_pubeval(race: bool, pos: list[int]) -> float:
    if pos[26] == 15:
        return 99999999.0
    x = [0.0] * 122
    for j in range(1, 25):
        jm1 = j - 1
        n = pos[25 - j]
        if n != 0:
            if n == -1:
                x[5 * jm1 + 0] = 1.0
            if n == 1:
                x[5 * jm1 + 1] = 1.0
            if n >= 2:
                x[5 * jm1 + 2] = 1.0
            if n == 3:
                x[5 * jm1 + 3] = 1.0
            if n >= 4:
                x[5 * jm1 + 4] = (n - 3) / 2.0
    x[120] = -pos[0] / 2.0
    x[121] = pos[26] / 15.0
    weights = REFERENCE["wr_race"] if race else REFERENCE["wc_contact"]
    return sum(w * v for w, v in zip(weights, x))


def checker_play_positions(count: int, seed: int) -> list[BackgammonState]:
    """Positions with a choice of plays, from random cubeless games."""
    rng = random.Random(seed)
    found: list[BackgammonState] = []
    while len(found) < count:
        state = BackgammonState.initial(cube_enabled=False)
        while not state.is_terminal() and len(found) < count:
            if state.to_move() == CHANCE:
                outcomes = state.chance_outcomes()
                state.play(rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0])
                continue
            moves = state.legal_moves()
            if len(moves) > 1 and rng.random() < 0.3:
                found.append(state.copy())
            state.play(rng.choice(moves))
    return found


def test_a_hand_computed_score() -> None:
    """Race: one checker left on the mover's ace point, 14 off; an opponent blot on the mover's
    2 point (its own 23). Block j = 24 holds point 1 (one checker), block 23 point 2 (a blot)."""
    mine, theirs = empty_board(), empty_board()
    mine[1], mine[OFF] = 1, 14
    theirs[23], theirs[OFF] = 1, 14
    race = REFERENCE["wr_race"]
    expected = race[5 * 23 + 1] + race[5 * 22 + 0] + race[121] * 14 / 15
    assert pubeval_score(True, mine, theirs) == pytest.approx(expected)


def test_three_and_more_and_the_bar() -> None:
    """Contact: three on the 6 point, five on the 8 point, two opponents on the bar."""
    mine, theirs = empty_board(), empty_board()
    mine[6], mine[8], mine[13], mine[OFF] = 3, 5, 7, 0
    theirs[BAR], theirs[24], theirs[13] = 2, 6, 7
    contact = REFERENCE["wc_contact"]
    six, eight, thirteen = (5 * (25 - point - 1) for point in (6, 8, 13))
    expected = (
        contact[six + 2] + contact[six + 3]
        + contact[eight + 2] + contact[eight + 4] * (5 - 3) / 2
        + contact[thirteen + 2] + contact[thirteen + 4] * (7 - 3) / 2
        + contact[120] * 2 / 2
    )
    assert pubeval_score(False, mine, theirs) == pytest.approx(expected)


def test_scores_and_plays_match_the_reference_transcription() -> None:
    for state in checker_play_positions(60, seed=5):
        mover, race = state.player, state.is_race()
        scored = []
        for play in state.legal_moves():
            child = state.result(play)
            mine, theirs = child.boards[mover], child.boards[1 - mover]
            expected = reference_pubeval(race, reference_pos(mine, theirs))
            assert pubeval_score(race, mine, theirs) == pytest.approx(expected, abs=1e-9), state.to_text()
            scored.append((expected, play))
        best = max(score for score, _ in scored)
        assert pubeval_play(state) in [play for score, play in scored if score >= best - 1e-9], state.to_text()


def test_the_spec_makes_a_player_for_backgammon_only() -> None:
    player = make_player("pubeval", "backgammon")
    assert isinstance(player, PubevalPlayer)
    with pytest.raises(SpecError, match="pubeval plays backgammon"):
        make_player("pubeval", "chess")
    with pytest.raises(SpecError, match="no options"):
        make_player("pubeval:fast", "backgammon")


def test_the_player_never_doubles_and_always_takes() -> None:
    player = PubevalPlayer()
    state = BackgammonState.from_text("4HPwATDgc/ABMA")  # money game, centred cube, X to decide
    assert player.choose(state, None, Limits()) == NO_DOUBLE  # type: ignore[arg-type]
    state.play("double")
    assert player.choose(state, None, Limits()) == TAKE  # type: ignore[arg-type]
    state.play(TAKE)
    state.play((3, 1))
    assert state.phase == CHECKER_PLAY
    assert player.choose(state, None, Limits()) in state.legal_moves()  # type: ignore[arg-type]
