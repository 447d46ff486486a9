"""A reviewed game saved and opened again: PGN with NAGs and Lichess's words, PDN with move
symbols, JSON with a ``review`` field; files without a review still load, and a damaged
review is left out with one line (``GameRecord.left_out``) while the game opens."""

from __future__ import annotations

import dataclasses
import io
import json

import chess.pgn
import pytest

import games
from games.annotations import (
    BACKGAMMON_SCALE,
    CHECKERS_SCALE,
    CHESS_SCALE,
    GameReview,
    Mark,
    ReviewSettings,
    Value,
    make_move_review,
)
from games.records import GameRecord, RecordError, read_game, write_game

SETTINGS = ReviewSettings("native", None, 1_000_000)


def chess_record() -> GameRecord:
    moves = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Qh4", "Nxh4"]
    rows = [
        (0, "e4", Value(28), Value(28), "e4", ("e4", "e5")),
        (1, "e5", Value(-24), Value(-24), "e5", ("e5",)),
        (2, "Nf3", Value(22), Value(24), "d4", ("d4", "exd4", "Nf3")),
        (3, "Nc6", Value(-90), Value(-22), "Nf6", ("Nf6", "Nxe5")),  # 0.12 lost: an inaccuracy
        (5, "Qh4", Value(-1053), Value(-28), "Nf6", ("Nf6", "d3", "Bc5")),
        (6, "Nxh4", Value(999_991, 9), Value(999_991, 9), "Nxh4", ("Nxh4",)),
    ]
    reviews = tuple(
        make_move_review(CHESS_SCALE, ply=ply, mover=ply % 2, move=move, played=played, best=best,
                         best_move=best_move, best_line=line)
        for ply, move, played, best, best_move, line in rows
    ) + (make_move_review(CHESS_SCALE, ply=4, mover=0, move="Bc4", played=Value(26), best=Value(26),
                          best_move="Bc4", mark=Mark.BOOK),)
    review = GameReview("chess", SETTINGS, tuple(sorted(reviews, key=lambda move: move.ply)), CHESS_SCALE)
    return GameRecord("chess", games.new_game("chess").to_text(), moves, [None, "+0.30"], ("A", "B"), review=review)


def test_pgn_carries_nags_lichess_words_and_reads_the_review_back() -> None:
    record = chess_record()
    text = write_game(record, "pgn")
    assert '[Annotator "Plyground review: native, 1,000,000 nodes per move"]' in text
    assert "(0.28 → 10.53) Blunder. Nf6 was best." in text
    assert "(0.22 → 0.90) Inaccuracy. Nf6 was best." in text
    # other PGN readers see the marks as NAGs
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    nodes = list(game.mainline())
    assert nodes[5].nags == {4} and nodes[3].nags == {6} and not nodes[2].nags
    back = read_game(text, "pgn")
    assert back.review == record.review
    assert back.review is not None and back.review.summaries() == record.review.summaries()  # type: ignore[union-attr]


def test_pdn_carries_move_symbols_and_reads_the_review_back() -> None:
    state = games.new_game("checkers")
    names = ["9-14", "24-19", "6-9", "28-24", "12-16", "19x12"]
    moves = (
        make_move_review(CHECKERS_SCALE, ply=4, mover=0, move="12-16", played=Value(-106), best=Value(-2),
                         best_move="11-16", best_line=("11-16", "22-17", "9-13")),
        make_move_review(CHECKERS_SCALE, ply=5, mover=1, move="19x12", played=Value(107), best=Value(107),
                         best_move="19x12", mark=Mark.ONLY_MOVE),
    )
    review = GameReview("checkers", ReviewSettings("native", None, 500_000), moves, CHECKERS_SCALE)
    record = GameRecord("checkers", state.to_text(), names, review=review)
    text = write_game(record, "pdn")
    assert "12-16??" in text and "(-0.02 → -1.06) Blunder. 11-16 was best." in text
    back = read_game(text, "pdn")
    assert back.review == review and back.moves == names
    # the review's values from Black's view; the only move keeps the value before it (its
    # own search stops at once: +1.07 would draw a spike); moves before the review's first
    # have none
    assert back.evaluations == [None, None, None, None, "-1.06", "-1.06"]


def test_the_eval_of_a_reviewed_game_is_the_reviews_after_every_move_of_both_sides() -> None:
    """As Lichess writes an analysed game: ``[%eval]`` after each move is the review's value
    after it (White's view), the value its words give as "after" (``(0.28 → 10.53)`` and
    ``[%eval 10.53]``), not the computer's own score kept with its move (``+0.30`` here),
    which a reader would otherwise take for the review's."""
    record = chess_record()
    text = write_game(record, "pgn")
    assert "[%eval 10.53]" in text and "[%eval 0.30]" not in text
    back = read_game(text, "pgn")
    # e4 +0.28, e5 (Black's -0.24) +0.24, Nf3 +0.22, Nc6 (Black's -0.90) +0.90, Bc4 (book)
    # +0.26, Qh4?? +10.53, Nxh4: White mates in 5 (9 plies)
    assert back.evaluations == ["+0.28", "+0.24", "+0.22", "+0.90", "+0.26", "+10.53", "mate in 5"]
    # a game played on after its review: the later moves keep their own evaluations
    longer = dataclasses.replace(record, moves=[*record.moves, "d6"], evaluations=[None] * 7 + ["+9.00"])
    assert read_game(write_game(longer, "pgn"), "pgn").evaluations[5:] == ["+10.53", "mate in 5", "+9.00"]


@pytest.mark.parametrize("game", ["chess", "backgammon"])
def test_json_review_field_round_trip(game: str) -> None:
    if game == "chess":
        record = chess_record()
    else:
        start = games.new_game("backgammon")
        names = ["X 3-1", "8/7 8/5"]
        move = make_move_review(BACKGAMMON_SCALE, ply=1, mover=1, move="8/7 8/5", played=Value(-0.3356),
                                best=Value(0.1313), best_move="8/5 6/5", stake=2.0, cube=False)
        record = GameRecord("backgammon", start.to_text(), names,
                            review=GameReview("backgammon", ReviewSettings("star2", 2, 25_000), (move,), BACKGAMMON_SCALE))
    text = write_game(record, "json")
    assert json.loads(text)["review"]["moves"]
    assert read_game(text, "json").review == record.review


@pytest.mark.parametrize("fmt", ["pgn", "json"])
def test_a_game_without_a_review_loads_as_before(fmt: str) -> None:
    record = dataclasses.replace(chess_record(), review=None)
    text = write_game(record, fmt)
    assert "review" not in text and "Annotator" not in text
    assert read_game(text, fmt).review is None


def test_a_damaged_review_is_left_out_and_the_game_opens() -> None:
    moves = chess_record().moves
    text = write_game(chess_record(), "pgn")
    for damaged in (
        text.replace("[%review blunder Nf6 -28 -1053", "[%review blunder Nf6 nan -1053"),
        text.replace("[%review blunder", "[%review brilliant"),
        text.replace("[%review blunder Nf6 -28 -1053", "[%review blunder " + "N" * 200 + " -28 -1053"),
    ):
        assert damaged != text
        record = read_game(damaged, "pgn")
        assert record.moves == moves and record.review is None
        assert len(record.left_out) == 1 and "review" in record.left_out[0]
    document = json.loads(write_game(chess_record(), "json"))
    for value in (7, "x", [], {"settings": {"algorithm": "pvs"}, "moves": [{"ply": 99}]}):
        document["review"] = value
        record = read_game(json.dumps(document), "json")
        assert record.moves == moves and record.review is None and len(record.left_out) == 1
    document["review"] = chess_record().review.to_json()  # type: ignore[union-attr]
    document["moves"][5] = "Qg5"  # the review no longer matches the game
    record = read_game(json.dumps(document), "json")
    assert record.review is None and "not 'Qh4'" in record.left_out[0]


def test_an_edited_annotator_keeps_the_moves_reviews() -> None:
    text = write_game(chess_record(), "pgn").replace("Plyground review: native, 1,000,000 nodes per move", "someone")
    back = read_game(text, "pgn")
    assert back.review is not None and back.review.settings.algorithm == "unknown"
    assert back.review.moves == chess_record().review.moves  # type: ignore[union-attr]


@pytest.mark.parametrize("fmt", ["pgn", "json"])
def test_a_game_changed_since_its_review_is_saved_readable(fmt: str) -> None:
    # Taken back to three moves and played on differently: the review of the first three
    # moves stays, the rest is dropped, and the file reads back.
    record = chess_record()
    changed = dataclasses.replace(record, moves=["e4", "e5", "Nf3", "Nf6"], evaluations=[])
    back = read_game(write_game(changed, fmt), fmt)
    assert back.review is not None
    assert [move.ply for move in back.review.moves] == [0, 1, 2]
    gone = dataclasses.replace(record, moves=["d4"], evaluations=[])
    assert read_game(write_game(gone, fmt), fmt).review is None
