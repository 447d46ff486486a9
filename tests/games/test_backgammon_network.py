"""The learned backgammon EVAL: packaged weights, an independent forward pass, symmetry
under a colour swap, consistent chances, and play that beats a random mover."""

from __future__ import annotations

import json
import math
import random
from importlib import resources

import pytest

from games.backgammon import BackgammonState, network
from games.backgammon.board import BAR
from games.base import CHANCE
from games.weights import WeightsError
from tests.games.playout import random_playout

O, X = 0, 1


def packaged_document() -> dict:
    """The packaged file's ``weights`` mapping, with the document's names beside it."""
    document = json.loads(resources.files("resources").joinpath("weights", "backgammon_net.json").read_text())
    return {**document, **document["weights"]}


def reference_chances(document: dict, on_roll: list[int], opponent: list[int]) -> list[float]:
    """A plain dense forward pass over ``network.encode`` (no precomputed tables)."""
    inputs = network.encode(on_roll, opponent)
    hidden = [
        1 / (1 + math.exp(-(bias + sum(x * row[j] for x, row in zip(inputs, document["hidden_weights"])))))
        for j, bias in enumerate(document["hidden_bias"])
    ]
    return [
        1 / (1 + math.exp(-(bias + sum(w * h for w, h in zip(row, hidden)))))
        for row, bias in zip(document["output_weights"], document["output_bias"])
    ]


def test_packaged_weights_load_and_are_documented() -> None:
    document = packaged_document()
    assert document["game"] == "backgammon" and document["format"] == 1
    assert tuple(document["outputs"]) == network.OUTPUTS
    assert tuple(document["input_names"]) == network.input_names()
    assert len(document["hidden_weights"]) == network.INPUT_COUNT
    assert "gnubg" in document["description"].lower()
    assert network.default_network().hidden_count == len(document["hidden_bias"])


def test_bad_weights_are_a_clear_error() -> None:
    document = json.loads(resources.files("resources").joinpath("weights", "backgammon_net.json").read_text())
    weights = document["weights"]
    with pytest.raises(WeightsError, match="format"):
        network.from_document({**document, "format": "something else"})
    with pytest.raises(WeightsError, match="is for chess"):
        network.from_document({**document, "game": "chess"})
    with pytest.raises(WeightsError, match="inputs"):
        network.from_weights({**weights, "hidden_weights": weights["hidden_weights"][:-1]})
    with pytest.raises(WeightsError, match="ragged"):
        network.from_weights({**weights, "hidden_bias": weights["hidden_bias"][:-1]})
    with pytest.raises(WeightsError, match="missing output_bias"):
        network.from_weights({name: value for name, value in weights.items() if name != "output_bias"})


def test_set_weights_switches_the_network_and_none_restores_it() -> None:
    """A second network (the packaged one with every output bias moved) changes EVAL; None
    brings the packaged one back."""
    weights = json.loads(resources.files("resources").joinpath("weights", "backgammon_net.json").read_text())["weights"]
    state = BackgammonState.from_points({6: 5, 5: 5}, {6: 5, 5: 5, 4: 3, 3: 2}, cube_enabled=False)
    before = state.evaluate(X)
    try:
        BackgammonState.set_weights({**weights, "output_bias": [bias + 1.0 for bias in weights["output_bias"]]})
        assert state.evaluate(X) != pytest.approx(before)
    finally:
        BackgammonState.set_weights(None)
    assert state.evaluate(X) == pytest.approx(before)


def test_table_forward_pass_matches_a_dense_reference() -> None:
    document = packaged_document()
    net = network.default_network()
    rng = random.Random(3)
    checked = 0
    for state in random_playout(BackgammonState.initial(cube_enabled=False), rng):
        if state.is_terminal():
            break
        mine, theirs = state.boards[O], state.boards[X]
        # Unclamped outputs: compare on a position where the consistency clamps do nothing.
        expected = reference_chances(document, mine, theirs)
        actual = net.probabilities(mine, theirs)
        assert actual[0] == pytest.approx(expected[0], abs=1e-9), state.to_text()
        assert min(expected[1], expected[0]) == pytest.approx(actual[1], abs=1e-9), state.to_text()
        checked += 1
    assert checked > 20


def test_chances_are_consistent_probabilities() -> None:
    rng = random.Random(8)
    for state in random_playout(BackgammonState.initial(cube_enabled=False), rng):
        if state.is_terminal():
            break
        for player in (O, X):
            win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = state.chances(player)
            assert 0 <= win_backgammon <= win_gammon <= win <= 1, state.to_text()
            assert 0 <= lose_backgammon <= lose_gammon <= 1 - win, state.to_text()
        assert state.chances(O)[0] + state.chances(X)[0] == pytest.approx(1.0)


def test_colour_swap_gives_the_same_evaluation() -> None:
    # The same position with the colours (and the side on roll) exchanged is worth the same
    # to the player in the same seat.
    on_roll = {BAR: 1, 13: 4, 8: 3, 6: 5, 2: 2}
    opponent = {24: 2, 13: 5, 8: 3, 6: 3, 5: 2}
    as_x = BackgammonState.from_points(on_roll, opponent, player=X, cube_enabled=False)
    as_o = BackgammonState.from_points(on_roll, opponent, player=O, cube_enabled=False)
    assert as_x.evaluate(X) == pytest.approx(as_o.evaluate(O), abs=1e-12)
    assert as_x.evaluate(O) == pytest.approx(as_o.evaluate(X), abs=1e-12)
    assert as_x.evaluation_features(X) == as_o.evaluation_features(O)


def test_cube_scales_the_equity_and_jacoby_drops_gammons() -> None:
    race = {6: 4, 5: 4, 4: 4}
    behind = {6: 5, 5: 5, 4: 5}
    doubled = BackgammonState.from_points(race, behind, cube_enabled=True, cube_value=2, cube_owner=O)
    redoubled = BackgammonState.from_points(race, behind, cube_enabled=True, cube_value=4, cube_owner=O)
    assert redoubled.evaluate(X) == pytest.approx(2 * doubled.evaluate(X))
    jacoby = BackgammonState.from_points(race, behind, cube_enabled=True, jacoby=True)
    features = jacoby.evaluation_features(X)
    assert features["win_gammon"][0] == 0 and features["lose_gammon"][0] == 0
    assert sum(weight * value for weight, value in features.values()) == pytest.approx(jacoby.evaluate(X))


def test_greedy_eval_beats_a_random_mover() -> None:
    points = []
    for game in range(10):
        dice = random.Random(100 + game // 2)
        choices = random.Random(200 + game)
        ours = game % 2
        state = BackgammonState.initial(cube_enabled=False)
        while not state.is_terminal():
            if state.to_move() == CHANCE:
                outcomes = state.chance_outcomes()
                state.play(dice.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0])
            elif state.player == ours:
                mover = state.player
                state.play(max(state.legal_moves(), key=lambda move: state.result(move).evaluate(mover)))
            else:
                state.play(choices.choice(state.legal_moves()))
        points.append(state.utility(ours))
    assert sum(points) / len(points) > 1.0, points
