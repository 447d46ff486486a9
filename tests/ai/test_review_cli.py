"""``plyground review FILE``: every move with its mark, each side's figures, the reviewed game
written back; bad input is one line and status 2."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from games.annotations import Mark
from games.records import read_game

from ai.cli import main

HUNG_QUEEN_PGN = '[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Qh4 4. Nxh4 *\n'


def test_review_prints_marks_and_writes_the_reviewed_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game.pgn"
    game.write_text(HUNG_QUEEN_PGN)
    output = tmp_path / "reviewed.pgn"
    status = main(["review", str(game), "--nodes", "30000", "--output", str(output)])
    lines = capsys.readouterr().out.splitlines()
    assert status == 0
    assert lines[0].startswith("Review (chess): native, 30,000 nodes")
    blunder = next(line for line in lines if " Qh4 " in line)
    assert "??" in blunder and "blunder" in blunder and "was best" in blunder
    # Lichess's way: the values before and after, no "win chance" figure read as a share
    assert re.search(r"blunder \([+-]\d+\.\d\d → \+\d+\.\d\d\)", blunder) and "win chance" not in blunder
    assert lines[-2].startswith("White: Accuracy") and "1 blunders, average centipawn loss" in lines[-1]
    reviewed = read_game(output.read_text(), "pgn")
    assert reviewed.review is not None
    mark = reviewed.review.for_ply(5)
    assert mark is not None and mark.mark is Mark.BLUNDER
    assert reviewed.moves == read_game(HUNG_QUEEN_PGN).moves


def test_an_unreadable_clock_reading_is_said_and_the_game_reviewed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game.pgn"
    game.write_text('[Event "x"]\n[Result "*"]\n\n1. e4 {[%clk soon]} e5 *\n')
    status = main(["review", str(game), "--nodes", "2000"])
    captured = capsys.readouterr()
    assert status == 0 and "e5" in captured.out
    assert captured.err.strip() == f"plyground: left out of {game}: [%clk soon] is not a clock reading (H:MM:SS, such as 0:04:58)"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_sees_the_moves_counted_and_stdout_only_the_review(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = tmp_path / "game.pgn"
    game.write_text(HUNG_QUEEN_PGN)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["review", str(game), "--nodes", "2000"]) == 0
    shown = [part.removesuffix("\x1b[K") for part in terminal.getvalue().split("\r") if part]
    assert shown[0] == "plyground review: 0 of 7 moves reviewed"
    assert shown[-2] == "plyground review: 7 of 7 moves reviewed" and shown[-1] == ""  # the line cleared at the end
    counts = [int(part.split()[2]) for part in shown[:-1]]
    assert counts == sorted(set(counts)) == list(range(8))  # each move once, in order
    assert "moves reviewed" not in capsys.readouterr().out


def test_seconds_bound_each_position_by_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game.pgn"
    game.write_text(HUNG_QUEEN_PGN)
    assert main(["review", str(game), "--seconds", "0.05"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Review (chess): native, 0.05 s per move"  # the time instead of the node budget
    assert len([line for line in lines if line[:4].strip().isdigit()]) == 7


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["/nonexistent/game.pgn"], "cannot read game file"),
        (["GAME", "--strength", "ultra"], "invalid choice"),
        (["GAME", "--nodes", "-5"], "out of range"),
        (["GAME", "--nodes", "nan"], "--nodes"),
        (["GAME", "--nodes", "9223372036854775807"], "--nodes: at most 100,000,000 for chess"),
        (["GAME", "--nodes", "100000001"], "25 times deep's 4,000,000"),
        (["GAME", "--seconds", "nan"], "--seconds: must be a positive number"),
        (["GAME", "--seconds", "0"], "--seconds: must be a positive number"),
        (["GAME", "--seconds", "1e9"], "at most 3600"),
        (["GAME", "--seconds", ""], "--seconds"),
        (["GAME", "--output", "OUT.pdn"], "written as .pgn or .json"),
        (["GAME", "--output", "/nonexistent/folder/out.pgn"], "does not exist"),
        (["GAME", "--output", "FOLDER"], "is a folder"),
        (["GARBAGE"], "error"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    game = tmp_path / "game.pgn"
    game.write_text(HUNG_QUEEN_PGN)
    garbage = tmp_path / "garbage.pgn"
    garbage.write_bytes(b"\x00\xff{[" * 1000)
    replaced = [
        str(game) if word == "GAME" else str(garbage) if word == "GARBAGE" else str(tmp_path / word) if word == "OUT.pdn" else str(tmp_path) if word == "FOLDER" else word
        for word in arguments
    ]
    status = main(["review", *replaced])
    captured = capsys.readouterr()
    assert status == 2
    assert message in captured.err and len(captured.err.strip().splitlines()) == 1
    assert "Traceback" not in captured.err
