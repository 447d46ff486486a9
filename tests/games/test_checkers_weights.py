"""Checkers EVAL weights as data: the packaged file, ``set_weights`` and the engine's use."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from ai import engine
from ai.engine import search
from ai.settings import Limits, SearchSettings
from games.checkers import BLACK, DEFAULT_WEIGHTS, FEATURE_NAMES, CheckersState
from games.weights import WeightsError, read_weights, weights_document

SHIPPED = Path(__file__).resolve().parents[2] / "resources" / "weights" / "checkers.json"


@pytest.fixture(autouse=True)
def shipped_afterwards() -> Iterator[None]:
    yield
    CheckersState.set_weights(None)
    engine._weights_in_use.pop(CheckersState, None)


def test_the_packaged_file_holds_every_feature_and_is_what_eval_starts_with() -> None:
    weights = read_weights(SHIPPED, "checkers")
    assert set(weights) == set(FEATURE_NAMES)
    assert DEFAULT_WEIGHTS == {name: float(value) for name, value in weights.items()}
    assert CheckersState.WEIGHTS_FILE == SHIPPED.name


def test_set_weights_changes_eval_and_none_restores_it() -> None:
    up_a_man = CheckersState.from_text("B:W21-31:B1-12")
    before = up_a_man.evaluate(BLACK)
    doubled = {name: 2 * value for name, value in DEFAULT_WEIGHTS.items()}
    CheckersState.set_weights(doubled)
    assert up_a_man.evaluate(BLACK) == pytest.approx(2 * before)
    assert up_a_man.capture_score(up_a_man.legal_moves()[0]) == 0  # a step captures nothing
    CheckersState.set_weights(None)
    assert up_a_man.evaluate(BLACK) == pytest.approx(before)


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ({"men": 100.0}, "missing"),
        ({**DEFAULT_WEIGHTS, "tempo": 3.0}, "unknown tempo"),
        ({**DEFAULT_WEIGHTS, "men": [1.0, 2.0]}, "men must be a finite number"),
    ],
)
def test_bad_weights_are_refused_in_one_line(weights: dict[str, object], message: str) -> None:
    with pytest.raises(WeightsError, match=message):
        CheckersState.set_weights(weights)
    assert CheckersState.weights == DEFAULT_WEIGHTS  # unchanged


def test_a_weights_file_reaches_the_search(tmp_path: Path) -> None:
    # A king against a man: with kings worth nothing but men worth 100, White's king is a loss.
    state = CheckersState.from_text("B:WK30:B3")
    zero_kings = {**DEFAULT_WEIGHTS, "kings": 0.0, "runaway": 0.0, "advancement": 0.0}
    path = tmp_path / "zero_kings.json"
    path.write_text(json.dumps(weights_document("checkers", zero_kings, "test")))
    limits = Limits(depth=1)  # the endgame databases know this position: turned off (solver_empties=0)
    shipped = search(state, SearchSettings(quiescence=False, solver_empties=0), limits)
    custom = search(state, SearchSettings(quiescence=False, solver_empties=0, weights=str(path)), limits)
    assert shipped.score.value < custom.score.value  # Black (to move) no longer fears the king
    assert CheckersState.weights["kings"] == 0.0
