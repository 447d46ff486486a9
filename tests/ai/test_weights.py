"""Evaluation weights as data: the file format, the engine applying a file before each
search (and going back to the packaged weights), the match SPEC and CLI option, and the
opening-book path that answers without searching."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest

from ai import engine
from ai.engine import search, use_weights, weights_for
from ai.settings import Limits, SearchSettings
from games.tictactoe import DEFAULT_WEIGHTS, TicTacToeState
from games.weights import WeightsError, parse_weights, read_weights, weights_document


class TunableTicTacToe(TicTacToeState):
    """Tic-tac-toe whose two EVAL weights come from a weights document."""

    WEIGHTS_FILE: ClassVar[str | None] = "tictactoe-test.json"
    applied: ClassVar[list[Mapping[str, Any] | None]] = []

    @classmethod
    def set_weights(cls, weights: Mapping[str, Any] | None) -> None:
        if weights is not None and set(weights) != set(DEFAULT_WEIGHTS):
            raise WeightsError(f"tic-tac-toe weights are {sorted(DEFAULT_WEIGHTS)}")
        cls.weights = dict(DEFAULT_WEIGHTS if weights is None else weights)
        cls.applied.append(weights)


@pytest.fixture
def tunable() -> Any:
    TunableTicTacToe.applied = []
    yield TunableTicTacToe
    TunableTicTacToe.set_weights(None)
    engine._weights_in_use.pop(TunableTicTacToe, None)


def write(path: Path, document: Any) -> str:
    path.write_text(json.dumps(document) if not isinstance(document, str) else document)
    return str(path)


def test_a_document_round_trips_and_bad_ones_say_why(tmp_path: Path) -> None:
    good = write(tmp_path / "good.json", weights_document("tictactoe", {"a": 1, "b": [1.5, [2, 3]]}, "test"))
    assert read_weights(good, "tictactoe") == {"a": 1, "b": [1.5, [2, 3]]}
    bad = {
        "not valid JSON": "{",
        "must hold a JSON object": "[1, 2]",
        "no \"game\"": json.dumps({"format": 1, "weights": {"a": 1}}),
        "is for chess": json.dumps(weights_document("chess", {"a": 1}, "")),
        "format": json.dumps({"game": "tictactoe", "format": 7, "weights": {"a": 1}}),
        "no \"weights\"": json.dumps({"game": "tictactoe", "format": 1, "weights": {}}),
        "number or a list": json.dumps(weights_document("tictactoe", {"a": "x"}, "")),
        "NaN is not a weight": '{"game": "tictactoe", "format": 1, "weights": {"a": NaN}}',
    }
    for expected, text in bad.items():
        with pytest.raises(WeightsError, match=expected):
            parse_weights(text, "w.json", "tictactoe")
    with pytest.raises(WeightsError, match="cannot read"):
        read_weights(tmp_path / "missing.json")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(WeightsError, match="UTF-8"):
        read_weights(tmp_path / "binary.json")


def test_the_engine_applies_a_file_before_the_search_and_goes_back_after(tmp_path: Path, tunable: Any) -> None:
    # x to move with two threats of its own: EVAL reads the threats weight.
    state = tunable.from_text("xx.oo....")
    path = write(tmp_path / "w.json", weights_document("tictactoe", {"open_lines": 0.0, "threats": 123.0}, "t"))
    settings = SearchSettings(algorithm="alphabeta", weights=path, transposition_table=False)
    search(state, settings, Limits(depth=1))
    assert tunable.weights == {"open_lines": 0.0, "threats": 123.0}
    calls = len(tunable.applied)
    search(state, settings, Limits(depth=1))
    assert len(tunable.applied) == calls  # already in use: not set again
    search(state, SearchSettings(algorithm="alphabeta"), Limits(depth=1))
    assert tunable.weights == DEFAULT_WEIGHTS and tunable.applied[-1] is None


def test_a_changed_file_is_read_again(tmp_path: Path, tunable: Any) -> None:
    path = tmp_path / "w.json"
    write(path, weights_document("tictactoe", {"open_lines": 1.0, "threats": 2.0}, "t"))
    assert weights_for(tunable, str(path)) == {"open_lines": 1.0, "threats": 2.0}
    write(path, weights_document("tictactoe", {"open_lines": 1.0, "threats": 20.5}, "changed, longer"))
    use_weights(tunable, str(path))
    assert tunable.weights["threats"] == 20.5


def test_weights_the_game_refuses_leave_the_packaged_ones(tmp_path: Path, tunable: Any) -> None:
    path = write(tmp_path / "w.json", weights_document("tictactoe", {"wrong": 1.0}, "t"))
    with pytest.raises(WeightsError, match="tic-tac-toe weights are"):
        weights_for(tunable, path)
    assert tunable.weights == DEFAULT_WEIGHTS


def test_a_game_without_weights_refuses_a_file(tmp_path: Path) -> None:
    from games.base import GameState

    class Plain(TicTacToeState):
        WEIGHTS_FILE = None
        set_weights = classmethod(GameState.set_weights.__func__)  # type: ignore[attr-defined]

    path = write(tmp_path / "w.json", weights_document("tictactoe", {"open_lines": 1.0, "threats": 1.0}, "t"))
    with pytest.raises(WeightsError, match="no tunable weights"):
        weights_for(Plain, path)
    with pytest.raises(WeightsError, match="no tunable weights"):
        Plain.set_weights({"a": 1})


def test_tictactoe_weights_are_data() -> None:
    from games.weights import shipped_weights

    assert shipped_weights("tictactoe.json", "tictactoe") == DEFAULT_WEIGHTS
    with pytest.raises(WeightsError, match="missing threats; unknown x"):
        TicTacToeState.set_weights({"open_lines": 1, "x": 2})
    with pytest.raises(WeightsError, match="finite number"):
        TicTacToeState.set_weights({"open_lines": 1, "threats": True})


def test_match_spec_and_cli_take_a_weights_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ai.cli import main
    from ai.match.players import SpecError, parse_builtin

    with pytest.raises(SpecError, match="cannot read weights file"):
        parse_builtin(f"weights={tmp_path / 'missing.json'}", "tictactoe")
    with pytest.raises(SpecError, match="no \"weights\""):
        parse_builtin(f"weights={write(tmp_path / 'w.json', {'game': 'tictactoe', 'format': 1})}", "tictactoe")
    good = write(tmp_path / "good.json", weights_document("tictactoe", {"open_lines": 2.0, "threats": 1.0}, "t"))
    assert parse_builtin(f"weights={good},depth=3", "tictactoe").settings.weights == good
    assert main(["analyse", "--game", "tictactoe", "--depth", "2", "--weights", good]) == 0
    capsys.readouterr()
    assert main(["analyse", "--game", "tictactoe", "--depth", "2", "--weights", str(tmp_path / "nope.json")]) == 2
    error = capsys.readouterr().err
    assert "cannot read weights file" in error and "Traceback" not in error


class BookTicTacToe(TicTacToeState):
    """Tic-tac-toe with a one-position book: the centre or a corner from the empty board."""

    def book_moves(self) -> list[tuple[Any, float]]:
        if self.key() != TicTacToeState.from_text(".........").key():
            return []
        return [(4, 3.0), (0, 1.0), (99, 5.0)]  # 99 is not a legal move: never played


def test_a_book_move_is_played_without_search_and_varies_with_the_seed(books_on: None) -> None:
    state = BookTicTacToe.from_text(".........")
    chosen = set()
    for seed in range(40):
        answer = search(state, SearchSettings(seed=seed), Limits(depth=9))
        assert answer.book and answer.nodes == 0 and answer.depth == 0
        chosen.add(answer.best_move)
    assert chosen == {4, 0}
    same = {search(state, SearchSettings(seed=3), Limits(depth=9)).best_move for _ in range(5)}
    assert len(same) == 1
    off = search(state, SearchSettings(book=False), Limits(depth=2))
    assert not off.book and off.nodes > 0
    restricted = search(state, SearchSettings(), Limits(depth=2), root_moves=[8])
    assert not restricted.book and restricted.best_move == 8
    after = state.copy()
    after.play(4)
    assert not search(after, SearchSettings(), Limits(depth=2)).book
