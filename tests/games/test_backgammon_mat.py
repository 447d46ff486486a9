"""Backgammon matches as Jellyfish ``.mat`` text (``games.backgammon.mat``).

The layout is checked line by line on short games worked by hand from gnubg's own export
(`` Doubles => 2`` in the doubler's cell, `` Takes``/`` Drops`` in the other's, a dance as
``66: ``, who wins at which column); then, against the independent truth, GNU Backgammon
itself: matches played to the end by our rules (random legal moves with a seeded cube
policy: doubles, takes, drops, gammons), one with a resignation and one stopped mid-game,
are imported by gnubg (``import mat``), which must find the same games, the same score and
the same position, and whose own ``export match mat`` of them must be our file byte for
byte.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from games.backgammon.match import GameResult, Match
from games.backgammon.mat import MatError, write_mat
from games.backgammon.state import BackgammonState
from games.base import CHANCE
from games.records import GameRecord

GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg") else None)


def game(length: int, score: tuple[int, int], moves: list[str], result: str = "*", crawford: bool = False) -> GameRecord:
    start = Match(length, score, crawford).new_game().to_text()
    record = GameRecord("backgammon", start, moves, result=result)
    record.replay()
    return record


def game_lines(text: str, number: int = 1) -> list[str]:
    """The lines of game ``number`` in a ``.mat`` text, from its score line on."""
    games = re.split(r"^ Game \d+\n", text, flags=re.MULTILINE)
    return games[number].split("\n")


# --------------------------------------------------------------------------- layout
def test_a_double_and_a_drop_sit_in_their_players_cells() -> None:
    """gnubg's game 1 of a match it played: the doubler's cell holds the double, the other
    player's the answer, and X's win stands beside O's drop (column 34)."""
    text = write_mat([game(5, (0, 0), ["O 3-1", "8/5 6/5", "double", "drop"])], final=Match(5, (0, 1))).text
    assert text.startswith("\n 5 point match\n\n Game 1\n")
    assert game_lines(text)[:3] == [
        " O : 0                          X : 0",
        "  1) 31: 8/5 6/5" + " " * 18 + "Doubles => 2",
        "  2)  Drops                       Wins 1 point ",
    ]
    assert game_lines(text)[2].index("Wins") == 34


def test_x_opening_leaves_the_first_left_cell_empty_and_o_wins_on_a_line_of_its_own() -> None:
    record = game(3, (1, 0), ["X 4-2", "8/4 6/4", "double", "take"])
    lines = game_lines(write_mat([record]).text)
    assert lines[0] == " O : 1                          X : 0"
    assert lines[1] == "  1)                             42: 8/4 6/4 "
    assert lines[2] == "  2)  Doubles => 2" + " " * 16 + "Takes"
    conceded = GameRecord("backgammon", record.start, record.moves, result="1-0")
    lines = game_lines(write_mat([conceded], final=Match(3, (3, 0))).text)
    assert lines[3] == "      Wins 2 points" and lines[4] == ""


def test_a_dance_is_its_dice_alone_and_x_wins_at_column_34() -> None:
    state, moves, rng = Match(1).new_game(), [], random.Random(11)
    while not moves or moves[-1] != "no move":  # play on until somebody dances
        if state.is_terminal():
            state, moves = Match(1).new_game(), []
        legal = state.legal_moves()
        move = "roll" if legal == ["roll", "double"] else rng.choice(legal)
        moves.append(state.move_name(move))
        state.play(move)
    record = game(1, (0, 0), moves)
    dice = moves[-2].replace("-", "")
    lines = game_lines(write_mat([record]).text)
    assert any(re.search(rf"\) {dice}: {{25}}(\S|$)|\s{dice}: $", line) for line in lines), lines
    conceded = GameRecord("backgammon", record.start, record.moves, result="0-1")
    won = [line for line in game_lines(write_mat([conceded]).text) if "Wins" in line]
    assert len(won) == 1 and won[0].index("Wins") == 34 and won[0].endswith("Wins 1 point")


def test_a_hop_that_hits_is_starred_once_and_four_hops_have_no_trailing_space() -> None:
    record = game(7, (0, 0), ["X 6-4", "24/18 13/9", "roll", "6-6", "13/7*(2) 24/18(2)"])
    lines = game_lines(write_mat([record]).text)
    assert lines[1] == "  1)                             64: 24/18 13/9 "
    cell = lines[2][len("  2) "):]
    assert cell.startswith("66: ") and len(cell) == 27 + 1 and cell.count("*") == 1 and "13/7*" in cell
    assert sorted(cell[4:].split()) == ["13/7", "13/7*", "24/18", "24/18"] and not cell.rstrip().endswith(" ")


def test_the_header_dates_the_match_and_every_game_carries_its_score() -> None:
    first = game(3, (0, 0), ["O 3-1", "8/5 6/5", "double", "drop"])
    second = game(3, (0, 1), ["X 6-5", "24/13"])
    text = write_mat([first, second], names=("Ann: the first", "  "), date="2026.11.28").text
    assert text.startswith('; [EventDate "2026.11.28"]\n\n 3 point match\n\n Game 1\n')
    assert game_lines(text, 2)[0] == " Ann the first : 0              X : 1"
    assert game_lines(text, 2)[1] == "  1)                             65: 24/18 18/13 "


def test_a_game_set_up_by_hand_is_written_as_its_score_and_result() -> None:
    state = Match(5, (2, 1)).new_game()
    for move in ("O 3-1", "8/5 6/5"):
        state.play(state.parse_move(move))
    record = GameRecord("backgammon", state.to_text(), ["roll", "6-5", "24/13"], result="0-1")
    written = write_mat([record], final=Match(5, (2, 2)))
    assert written.left_out and "set up" in written.left_out[0]
    assert game_lines(written.text)[:2] == [" O : 2                          X : 1", " " * 34 + "Wins 1 point"]


@pytest.mark.parametrize(
    ("games", "said"),
    [
        ([], "at least one game"),
        ([GameRecord("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")], "chess"),
        ([GameRecord("backgammon", BackgammonState.initial().to_text())], "money game"),
        ([game(3, (0, 0), []), game(5, (0, 1), [])], "5-point match"),
        ([GameRecord("backgammon", Match(3).new_game().to_text(), ["O 3-1", "24/1"])], "cannot be replayed"),
    ],
)
def test_games_that_are_no_match_are_refused_in_one_line(games: list[GameRecord], said: str) -> None:
    with pytest.raises(MatError, match=said) as raised:
        write_mat(games)
    assert "\n" not in str(raised.value)


# --------------------------------------------------------------------------- against gnubg
def scripted_match(length: int, seed: int) -> tuple[list[GameRecord], Match]:
    """A match played to the end by our rules: random legal plays and a seeded cube policy
    (double 1 time in 12, take or drop at random), so doubles, takes, drops and gammons all
    come up; its games' records and the match at the end."""
    rng = random.Random(seed)
    match = Match(length)
    records: list[GameRecord] = []
    while not match.is_over:
        state = match.new_game()
        start, names = state.to_text(), []
        while not state.is_terminal():
            legal = state.legal_moves()
            if state.to_move() != CHANCE and legal == ["roll", "double"]:
                move = "double" if rng.random() < 1 / 12 else "roll"
            else:
                move = rng.choice(legal)
            names.append(state.move_name(move))
            state.play(move)
        records.append(GameRecord("backgammon", start, names))
        match = match.record(state)
    return records, match


def gnubg(tmp_path: Path, text: str, *commands: str) -> tuple[str, str]:
    """gnubg's answer to ``commands`` after importing ``text``, and its own export of it."""
    assert GNUBG is not None
    mat, back = tmp_path / "ours.mat", tmp_path / "gnubg.mat"
    mat.write_text(text)
    script = "\n".join([f"import mat {mat}", *commands, f"export match mat {back}"]) + "\n"
    output = subprocess.run([GNUBG, "-t", "-q"], input=script, capture_output=True, text=True, timeout=60).stdout
    return output, back.read_text() if back.exists() else ""


def gnubg_score(output: str) -> tuple[int, int, int]:
    found = re.findall(r"The score \(after (\d+) games?\) is: O (\d+), X (\d+)", output)
    assert found, output[-2000:]
    games, first, second = found[-1]
    return int(games), int(first), int(second)


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed")
@pytest.mark.parametrize(("length", "seed"), [(7, 2), (7, 4), (5, 9)])
def test_gnubg_reads_a_whole_match_as_we_played_it(tmp_path: Path, length: int, seed: int) -> None:
    records, final = scripted_match(length, seed)
    written = write_mat(records, final=final, date="2026.11.28")
    assert written.left_out == ()
    text = written.text
    assert text.count(" Doubles => ") >= 2 and " Drops" in text and " Takes" in text
    ends = [record.replay() for record in records]
    assert any(isinstance(end, BackgammonState) and end.points > end.cube_value for end in ends)  # a gammon or more
    output, back = gnubg(tmp_path, text, "show score")
    assert "Unrecognised" not in output and "Invalid move" not in output
    assert gnubg_score(output) == (len(records), final.score[0], final.score[1])
    assert back == text  # gnubg writes the match it read exactly as we did


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed")
def test_gnubg_reads_gammons_a_resignation_and_a_game_stopped_mid_way(tmp_path: Path) -> None:
    records, _final = scripted_match(9, 3)
    # the first game conceded after its twelfth move, worth the cube (a single game)
    first = records[0]
    replay = GameRecord("backgammon", first.start, first.moves[:12]).replay()
    assert isinstance(replay, BackgammonState)
    mover = replay.to_move() if replay.to_move() != CHANCE else replay.player
    conceded = GameRecord("backgammon", first.start, first.moves[:12], result=("0-1", "1-0")[mover])
    after_concession = Match(9).with_result(GameResult(1 - mover, replay.cube_value, replay.cube_value))
    # the next game, stopped in the middle of a turn
    state = after_concession.new_game()
    rng = random.Random(5)
    moves: list[str] = []
    while len(moves) < 25 or state.to_move() == CHANCE:
        legal = state.legal_moves()
        move = "roll" if legal == ["roll", "double"] else rng.choice(legal)
        moves.append(state.move_name(move))
        state.play(move)
    stopped = GameRecord("backgammon", after_concession.new_game().to_text(), moves)
    text = write_mat([conceded, stopped], final=after_concession).text
    assert not text.startswith(";")
    output, back = gnubg(tmp_path, text, "show score", "show board")
    back = back.split("\n", 1)[1] if back.startswith("; [EventDate") else back  # gnubg dates it: today
    assert "Unrecognised" not in output and "Invalid move" not in output
    games, o_score, x_score = gnubg_score(output)
    assert (games, o_score, x_score) == (1, *after_concession.score)
    position = re.findall(r"Position ID: (\S+)", output)
    assert position and position[-1] == state.position_id()
    assert back.rstrip("\n") == text.rstrip("\n")  # gnubg ends a game stopped mid-way without a newline
