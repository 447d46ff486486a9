"""Clocks in game records: the time control and each move's ``%clk`` in PGN, PDN and JSON,
written and read back; Lichess's own PGN export read; old files without clocks still read;
hostile values refused with one clear message."""

from __future__ import annotations

import json
import math

import pytest

from games import new_game
from games.clock import TimeControl
from games.records import GameRecord, RecordError, clock_from_text, clock_text, from_json, read_game, to_json, write_game

LICHESS_PGN = """[Event "Rated Blitz game"]
[Site "https://lichess.org/AbCdEfGh"]
[Date "2024.01.15"]
[White "alice"]
[Black "bob"]
[Result "0-1"]
[UTCDate "2024.01.15"]
[UTCTime "18:03:11"]
[WhiteElo "1850"]
[BlackElo "1792"]
[WhiteRatingDiff "-6"]
[BlackRatingDiff "+6"]
[Variant "Standard"]
[TimeControl "180+2"]
[ECO "C20"]
[Opening "King's Pawn Game: Wayward Queen Attack"]
[Termination "Time forfeit"]

1. e4 { [%eval 0.36] [%clk 0:03:00] } 1... e5 { [%eval 0.23] [%clk 0:03:00] } 2. Qh5 { [%eval -0.3] [%clk 0:02:59] } 2... Nc6 { [%eval -0.22] [%clk 0:02:58] } 3. Bc4 { [%eval -0.37] [%clk 0:02:57] } 3... g6 { [%eval -0.05] [%clk 0:02:55] } 4. Qf3 { [%eval -0.33] [%clk 0:00:01] } 4... Nf6 { [%eval -0.31] [%clk 0:02:54] } 0-1
"""


def chess_record(**fields: object) -> GameRecord:
    return GameRecord("chess", new_game("chess").to_text(), ["e4", "e5", "Nf3", "Nc6"], **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(298.0, "0:04:58"), (7.4, "0:00:07.4"), (3723.0, "1:02:03"), (59.96, "0:01:00"), (0.0, "0:00:00"), (36000.0, "10:00:00")],
)
def test_clock_text_is_lichess_h_mm_ss(seconds: float, text: str) -> None:
    assert clock_text(seconds) == text
    assert clock_from_text(text) == pytest.approx(round(seconds, 1))


@pytest.mark.parametrize("text", ["abc", "4:58", "0:60:00", "0:00:61", "-0:01:00", "99999:00:00", "1:00:00:00", "0:00:nan", "", "1e9:00:00"])
def test_bad_clock_text_is_refused(text: str) -> None:
    with pytest.raises(RecordError, match="clk"):
        clock_from_text(text)


def test_lichess_pgn_with_clocks_is_read() -> None:
    record = read_game(LICHESS_PGN)
    assert record.time_control == TimeControl.of(180, 2)
    assert record.clocks == [180, 180, 179, 178, 177, 175, 1, 174]
    assert record.evaluations[2] == "-0.30" and record.result == "0-1" and record.reason == "Time forfeit"


def test_pgn_writes_time_control_and_clocks_with_evaluations() -> None:
    record = chess_record(evaluations=["+0.30", None, "+0.25", None], time_control=TimeControl.of(300, 3), clocks=[300.0, 300.0, 298.0, 296.5])
    text = write_game(record, "pgn")
    assert '[TimeControl "300+3"]' in text
    assert "{ [%eval 0.30] [%clk 0:05:00] }" in text and "{ [%clk 0:04:56.5] }" in text
    back = read_game(text)
    assert back.time_control == record.time_control and back.clocks == record.clocks
    assert back.evaluations == ["+0.30", None, "+0.25", None]


def test_pgn_time_odds_have_a_tag_per_colour() -> None:
    record = chess_record(time_control=TimeControl((300.0, 60.0), (3.0, 0.0)))
    text = write_game(record, "pgn")
    assert '[WhiteTimeControl "300+3"]' in text and '[BlackTimeControl "60+0"]' in text and '[TimeControl "?"]' in text
    assert read_game(text).time_control == record.time_control


def test_pgn_without_clocks_is_unchanged() -> None:
    text = write_game(chess_record(), "pgn")
    assert "TimeControl" not in text and "%clk" not in text
    record = read_game(text)
    assert record.time_control is None and record.clocks == [None] * 4


def test_pdn_writes_and_reads_clocks() -> None:
    state = new_game("checkers")
    names = []
    for _ in range(4):
        move = state.legal_moves()[0]
        names.append(state.move_name(move))
        state.play(move)
    record = GameRecord("checkers", new_game("checkers").to_text(), names, time_control=TimeControl((600.0, 300.0), (5.0, 5.0)), clocks=[600.0, 300.0, 597.2, None])
    text = write_game(record, "pdn")
    assert '[BlackTimeControl "600+5"]' in text and '[WhiteTimeControl "300+5"]' in text
    assert "{[%clk 0:09:57.2]}" in text
    back = read_game(text, "pdn")
    assert back.time_control == record.time_control and back.clocks == record.clocks


@pytest.mark.parametrize("game", ["othello", "backgammon", "tictactoe"])
def test_json_round_trips_time_control_and_clocks(game: str) -> None:
    state = new_game(game)
    names = []
    while len(names) < 4 and not state.is_terminal():
        move = state.chance_outcomes()[0][0] if state.to_move() < 0 else state.legal_moves()[0]
        names.append(state.move_name(move))
        state.play(move)
    clocks: list[float | None] = [None, 170.5, 180.0, None][: len(names)]
    record = GameRecord(game, new_game(game).to_text(), names, time_control=TimeControl.of(180, 2), clocks=clocks)
    document = json.loads(write_game(record, "json"))
    assert document["time_control"] == {"base": [180, 180], "increment": [2, 2]}
    assert document["clocks"] == clocks
    back = read_game(json.dumps(document))
    assert back.time_control == record.time_control and back.clocks == clocks


def test_old_json_without_clock_fields_still_reads() -> None:
    document = to_json(chess_record())
    assert "time_control" not in document and "clocks" not in document
    record = from_json(document)
    assert record.time_control is None and record.clocks == [None] * 4


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"time_control": "5+3"}, "time_control"),
        ({"time_control": {"base": [-300, 300], "increment": [0, 0]}}, "time_control"),
        ({"time_control": {"base": [math.nan, 300], "increment": [0, 0]}}, "time_control"),
        ({"time_control": {"base": [10**400, 300], "increment": [0, 0]}}, "time_control"),
        ({"time_control": {"base": [300, 300]}}, "time_control"),
        ({"clocks": "0:05:00"}, "clocks"),
        ({"clocks": [300, -1]}, "clocks"),
        ({"clocks": [300, math.nan]}, "clocks"),
        ({"clocks": [300, math.inf]}, "clocks"),
        ({"clocks": [10**400]}, "clocks"),
        ({"clocks": [1e300]}, "clocks"),
        ({"clocks": [True]}, "clocks"),
        ({"clocks": ["300"]}, "clocks"),
    ],
)
def test_hostile_json_clock_fields_are_left_out_with_one_line(change: dict[str, object], message: str) -> None:
    document = to_json(chess_record())
    document.update(change)
    # through the text reader too (nan, huge numbers); the game itself opens
    for record in (from_json(document), read_game(json.dumps(document))):
        assert record.moves == chess_record().moves
        assert record.time_control is None if "time_control" in change else record.clocks == [None] * 4
        assert len(record.left_out) == 1 and message in record.left_out[0]


@pytest.mark.parametrize(
    ("tag", "comment"),
    [('[TimeControl "abc"]', "[%clk 0:03:00]"), ('[TimeControl "180+2"]', "[%clk 99999:00:00]"), ('[TimeControl "180+2"]', "[%clk soon]"), ('[TimeControl "1e999+0"]', "")],
)
def test_hostile_pgn_clocks_are_left_out_and_the_game_opens(tag: str, comment: str) -> None:
    text = f'[Event "x"]\n{tag}\n[Result "*"]\n\n1. e4 {{ {comment} }} e5 {{ [%clk 0:02:58] }} *\n'
    record = read_game(text)
    assert record.moves == ["e4", "e5"] and record.clocks[1] == 178.0
    assert len(record.left_out) == 1 and ("clk" in record.left_out[0] or "time control" in record.left_out[0])


def test_eval_and_clock_in_comments_of_their_own_are_both_read() -> None:
    record = read_game('[Event "x"]\n[Result "*"]\n\n1. e4 {[%eval 0.3]} {good} {[%clk 0:01:00]} e5 {[%clk 0:00:59]} *\n')
    assert record.evaluations == ["+0.30", None] and record.clocks == [60.0, 59.0]


def test_ten_thousand_bad_clock_readings_are_one_line() -> None:
    comments = " ".join("{[%clk soon]}" for _ in range(10_000))
    record = read_game(f'[Event "x"]\n[Result "*"]\n\n1. e4 {comments} e5 *\n')
    assert record.moves == ["e4", "e5"] and record.clocks == [None, None]
    assert len(record.left_out) == 1 and record.left_out[0].startswith("[%clk soon] is not a clock reading")


def test_bad_clock_readings_of_many_moves_are_one_line() -> None:
    text = '[Event "x"]\n[GameType "21"]\n\n1. 11-15 {[%clk bad]} 23-19 {[%clk 0:01:00]} 2. 8-11 {[%clk worse]} *\n'
    record = read_game(text, "pdn")
    assert record.clocks == [None, 60.0, None]
    assert record.left_out == ["[%clk bad] is not a clock reading (H:MM:SS, such as 0:04:58) (1 more unreadable clock reading left out)"]


def test_pgn_time_controls_not_modelled_still_load() -> None:
    for tag in ("40/7200:3600", "*60", "-", "?", "0+1"):  # 0+1: a Lichess export
        record = read_game(f'[Event "x"]\n[TimeControl "{tag}"]\n[Result "*"]\n\n1. e4 {{ [%clk 1:59:50] }} e5 *\n')
        assert record.time_control is None and record.clocks == [7190.0, None]
