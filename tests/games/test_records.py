"""One record type for the app's game files and the engine's match files: the union of
their fields survives every format, and both front ends raise the one error class."""

from __future__ import annotations

import pytest

from games import new_game
from games.records import GameRecord, RecordError, read_game, write_game


def checkers_record() -> GameRecord:
    state = new_game("checkers")
    start = state.to_text()
    names = []
    for _ in range(6):
        move = state.legal_moves()[0]
        names.append(state.move_name(move))
        state.play(move)
    return GameRecord("checkers", start, names, [None, "+0.50"], ("depth=2", "depth=1"), "*", "", "", "7", 2)


@pytest.mark.parametrize("fmt", ["pdn", "json"])
def test_match_and_app_fields_survive_a_round_trip(fmt: str) -> None:
    record = checkers_record()
    back = read_game(write_game(record, fmt), fmt)
    assert (back.moves, back.players, back.round) == (record.moves, record.players, "7")
    assert back.evaluations == [None, "+0.50", None, None, None, None]
    if fmt == "json":
        assert back.opening_plies == 2


def test_pgn_keeps_the_round() -> None:
    record = GameRecord("chess", new_game("chess").to_text(), ["e4", "e5"], round="3")
    assert read_game(write_game(record, "pgn"), "pgn").round == "3"


def test_both_front_ends_raise_the_one_error_class() -> None:
    from ai.match.records import read_games

    with pytest.raises(RecordError, match="line 1"):
        read_games('{"format": "plyground-game", "version": 1, "game": "othello", "moves": ["a1"]}\n', "othello")
    with pytest.raises(RecordError, match="opening_plies"):
        read_game('{"format": "plyground-game", "version": 1, "game": "othello", "opening_plies": 3}', "json")
    assert issubclass(RecordError, ValueError)


@pytest.mark.parametrize(
    ("start", "pgn"),
    [
        (None, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 e5 *"),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 99 80", '[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 99 80"]\n[SetUp "1"]\n\n80. Kd1 Kd8 81. e4 *'),
    ],
    ids=["past threefold", "past fifty moves"],
)
def test_pgn_and_json_agree_on_games_that_went_on_past_a_claimable_draw(start: str | None, pgn: str) -> None:
    """A draw nobody claimed is no end: both formats read the whole game, and write it back."""
    from_pgn = read_game(pgn, "pgn")
    from_json = read_game(write_game(from_pgn, "json"), "json")
    assert from_json.moves == from_pgn.moves and len(from_pgn.moves) in (3, 10)
    assert not from_json.replay().is_terminal()
    assert read_game(write_game(from_json, "pgn"), "pgn").moves == from_pgn.moves


def test_a_move_after_checkmate_is_still_refused() -> None:
    with pytest.raises(RecordError, match="game is over"):
        GameRecord("chess", "startpos", ["f3", "e5", "g4", "Qh4#", "a3"]).replay()
