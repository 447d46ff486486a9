"""Move marks and review figures against their sources: Lichess's published formulas (worked
by hand here), GNU Backgammon's thresholds (read from the gnubg installed here) and rating
words, and the review's JSON form against hostile files."""

from __future__ import annotations

import json
import math
import os
import random
import shutil
import subprocess

import pytest

import games
from games.annotations import (
    BACKGAMMON_SCALE,
    REVIEW_COMMAND,
    CHECKERS_SCALE,
    CHESS_SCALE,
    GNUBG_RATINGS,
    OTHELLO_SCALE,
    TICTACTOE_SCALE,
    GameReview,
    Mark,
    MoveReview,
    ReviewError,
    ReviewScale,
    ReviewSettings,
    Value,
    error_words,
    gnubg_rating,
    lichess_game_accuracy,
    make_move_review,
    move_accuracy,
    move_from_command,
    review_command,
    review_scale,
    win_percent,
    winning_chances,
)


# --------------------------------------------------------------------------- Lichess
def test_winning_chances_worked_by_hand() -> None:
    # 300 cp: exp(-0.00368208 * 300) = exp(-1.104624) = 0.331338; 2 / 1.331338 - 1 = 0.502251
    assert winning_chances(300) == pytest.approx(0.502251, abs=1e-6)
    assert win_percent(300) == pytest.approx(75.1126, abs=1e-3)
    assert winning_chances(0) == 0
    assert winning_chances(-300) == pytest.approx(-0.502251, abs=1e-6)
    # Lichess clamps to +-1000 cp before the curve: 5000 cp reads as 1000 cp
    assert winning_chances(5000) == winning_chances(1000) == pytest.approx(0.950895, abs=1e-6)


def test_move_accuracy_worked_by_hand() -> None:
    # Win% 60 -> 40: 103.1668 * exp(-0.04354 * 20) = 103.1668 * 0.418579 = 43.1837;
    # - 3.1669 + 1 (lila's uncertainty bonus) = 41.0168
    assert move_accuracy(60, 40) == pytest.approx(41.0168, abs=1e-3)
    assert move_accuracy(40, 60) == 100.0  # a move cannot be better than best
    assert move_accuracy(50, 50) == 100.0
    assert move_accuracy(100, 0) == 0.0  # clamped at 0


def test_game_accuracy_of_a_four_move_game_worked_by_hand() -> None:
    # Four moves: window 2 (clamp(4 // 10, 2, 8)); Win% (White's view) of the start and after
    # each move; each window's weight is the population deviation of two values, |a - b| / 2,
    # clamped to [0.5, 12].
    cps = [-200.0, -200.0, -210.0, -210.0]
    wins = [win_percent(cp) for cp in [15.0, *cps]]
    weights = [max(0.5, min(12.0, abs(a - b) / 2)) for a, b in zip(wins, wins[1:])]
    white = [move_accuracy(wins[0], wins[1]), move_accuracy(wins[2], wins[3])]
    black = [move_accuracy(100 - wins[1], 100 - wins[2]), move_accuracy(100 - wins[3], 100 - wins[4])]

    def side(accuracies: list[float], side_weights: list[float]) -> float:
        weighted = sum(a * w for a, w in zip(accuracies, side_weights)) / sum(side_weights)
        harmonic = len(accuracies) / sum(1 / max(1, a) for a in accuracies)
        return (weighted + harmonic) / 2

    expected_white = side(white, weights[0::2])
    expected_black = side(black, weights[1::2])
    assert lichess_game_accuracy(cps) == (pytest.approx(expected_white), pytest.approx(expected_black))
    # White's 0.15 -> -2.00 dropped ~26 Win%: well below 100; Black lost nothing.
    assert expected_white < 60 and expected_black == pytest.approx(100.0)


def test_game_accuracy_long_game_windows_repeat_the_opening_one() -> None:
    # 40 moves: window 4, the opening window counted twice before the sliding ones (lila)
    cps = [20.0 * ((-1) ** index) for index in range(40)]
    white, black = lichess_game_accuracy(cps)
    assert white is not None and black is not None
    assert 0 < white <= 100 and 0 < black <= 100
    assert lichess_game_accuracy([]) == (None, None)


def test_a_ply_missing_from_a_partial_review_leaves_every_move_its_movers() -> None:
    # White loses 1.5 pawns every move, Black loses nothing; the review of ply 1 failed.
    def reviewed(ply: int, best: float, played: float) -> MoveReview:
        best_move = "a" if best == played else "b"
        return make_move_review(
            CHESS_SCALE, ply=ply, mover=ply % 2, move="a", played=Value(played), best=Value(best), best_move=best_move
        )

    moves, white = [], 30.0
    for ply in range(20):
        if ply % 2 == 0:
            moves.append(reviewed(ply, white, white - 150))
            white -= 150
        else:
            moves.append(reviewed(ply, -white, -white))
    full = GameReview("chess", ReviewSettings("test"), tuple(moves), CHESS_SCALE).summaries()
    partial = GameReview("chess", ReviewSettings("test"), tuple(m for m in moves if m.ply != 1), CHESS_SCALE).summaries()
    assert full[0].accuracy is not None and full[0].accuracy < 80 and full[1].accuracy == pytest.approx(100.0)
    # read by ply parity after the gap, White's losses became Black's gains: White 83% instead of 73%
    assert partial[0].accuracy == pytest.approx(full[0].accuracy) and partial[1].accuracy == pytest.approx(100.0)


@pytest.mark.parametrize(
    ("best_cp", "played_cp", "mark"),
    [
        (0, 0, Mark.BEST),
        (0, -20, Mark.GOOD),
        (0, -55, Mark.INACCURACY),  # winning chances 0 -> -0.101
        (0, -112, Mark.MISTAKE),  # -0.204
        (0, -170, Mark.BLUNDER),  # -0.303
        (900, 400, Mark.BLUNDER),  # 0.9321 -> 0.6293: 0.303 of winning chances lost
        (1000, 700, Mark.GOOD),  # 0.9504 -> 0.8584: 0.092, winning anyway
    ],
)
def test_chess_marks_follow_lichess_thresholds(best_cp: float, played_cp: float, mark: Mark) -> None:
    best, played = Value(best_cp), Value(played_cp)
    loss = winning_chances(best_cp) - winning_chances(played_cp)
    expected = Mark.BLUNDER if loss >= 0.3 else Mark.MISTAKE if loss >= 0.2 else Mark.INACCURACY if loss >= 0.1 else None
    assert CHESS_SCALE.loss(best, played) == pytest.approx(max(0.0, loss))
    assert expected in (mark, None)
    assert CHESS_SCALE.mark(best, played) is mark


@pytest.mark.parametrize(
    ("best", "played", "mark"),
    [
        # lila MateAdvice: a forced mate let go, judged by what is left
        (Value(999_995, 5), Value(300), Mark.BLUNDER),
        (Value(999_995, 5), Value(800), Mark.MISTAKE),
        (Value(999_995, 5), Value(1200), Mark.INACCURACY),
        # walking into a forced mate, judged by how lost the position was already
        (Value(-200), Value(-999_994, -6), Mark.BLUNDER),
        (Value(-800), Value(-999_994, -6), Mark.MISTAKE),
        (Value(-1200), Value(-999_994, -6), Mark.INACCURACY),
        # a mate only delayed is no error at Lichess
        (Value(999_997, 3), Value(999_993, 7), Mark.GOOD),
    ],
)
def test_chess_mate_marks_follow_lichess(best: Value, played: Value, mark: Mark) -> None:
    assert CHESS_SCALE.mark(best, played) is mark


def test_nags_and_symbols_are_the_pgn_standards() -> None:
    assert [(mark.nag, mark.symbol) for mark in (Mark.INACCURACY, Mark.MISTAKE, Mark.BLUNDER)] == [
        (6, "?!"),
        (2, "?"),
        (4, "??"),
    ]
    assert Mark.BEST.nag is None and Mark.GOOD.symbol == ""
    assert Mark.from_nag(4) is Mark.BLUNDER and Mark.from_nag(1) is None
    assert not Mark.BOOK.is_judged and Mark.MISTAKE.is_error and not Mark.GOOD.is_error


# --------------------------------------------------------------------------- other games
def test_every_game_declares_its_scale() -> None:
    scales = {name: review_scale(games.get_game(name)) for name in games.GAME_NAMES}
    assert scales == {
        "tictactoe": TICTACTOE_SCALE,
        "checkers": CHECKERS_SCALE,
        "chess": CHESS_SCALE,
        "othello": OTHELLO_SCALE,
        "backgammon": BACKGAMMON_SCALE,
    }
    with pytest.raises(ReviewError, match="no review scale"):
        review_scale(int)


def test_othello_counts_discs_and_checkers_men() -> None:
    # Othello's EVAL counts hundredths of a disc: a 5-disc drop is a mistake (4 <= 5 < 8)
    assert OTHELLO_SCALE.loss(Value(300), Value(-200)) == pytest.approx(5.0)
    assert OTHELLO_SCALE.mark(Value(300), Value(-200)) is Mark.MISTAKE
    assert OTHELLO_SCALE.mark(Value(300), Value(150)) is Mark.GOOD
    assert OTHELLO_SCALE.mark(Value(300), Value(-600)) is Mark.BLUNDER
    # checkers: a man is 100; giving one away is a blunder, a proven win thrown away too
    assert CHECKERS_SCALE.mark(Value(0), Value(-100)) is Mark.BLUNDER
    assert CHECKERS_SCALE.mark(Value(0), Value(-30)) is Mark.INACCURACY
    assert CHECKERS_SCALE.mark(Value(19_990, 10), Value(250)) is Mark.BLUNDER
    assert CHECKERS_SCALE.expected(Value(19_990, 10)) == 5.0


def test_tictactoe_judges_by_game_value() -> None:
    draw, win, loss = Value(0), Value(999_995, 5), Value(-999_994, -6)
    assert TICTACTOE_SCALE.mark(draw, loss) is Mark.BLUNDER  # a draw thrown to a loss
    assert TICTACTOE_SCALE.mark(win, draw) is Mark.BLUNDER  # a win thrown to a draw
    assert TICTACTOE_SCALE.mark(win, Value(999_993, 7)) is Mark.GOOD  # a slower win keeps the value: no error
    assert TICTACTOE_SCALE.mark(win, win) is Mark.BEST
    assert TICTACTOE_SCALE.mark(draw, Value(3)) is Mark.BEST  # an unproven score reads as a draw


def test_backgammon_equity_per_cube_and_gnubg_words() -> None:
    # cube at 2: the equity 0.30 lost is 0.15 per unit of cube: very bad (>= 0.12)
    assert BACKGAMMON_SCALE.loss(Value(0.5), Value(0.2), stake=2) == pytest.approx(0.15)
    assert BACKGAMMON_SCALE.mark(Value(0.5), Value(0.2), stake=2) is Mark.BLUNDER
    assert BACKGAMMON_SCALE.mark(Value(0.5), Value(0.45)) is Mark.INACCURACY
    assert [BACKGAMMON_SCALE.word(mark) for mark in (Mark.INACCURACY, Mark.MISTAKE, Mark.BLUNDER)] == [
        "Doubtful",
        "Bad",
        "Very bad",
    ]


GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg") else None)


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed")
def test_backgammon_thresholds_are_the_installed_gnubgs(tmp_path) -> None:  # type: ignore[no-untyped-def]
    commands = tmp_path / "show.cmd"
    commands.write_text("show analysis\n")
    assert GNUBG is not None
    output = subprocess.run([GNUBG, "-t", "-q", "-r", "-c", str(commands)], capture_output=True, text=True, timeout=30).stdout
    found = {word: -float(number) for number, word in (line.split(None, 1) for line in output.splitlines() if line.strip().endswith(("doubtful", " bad")) and line.strip()[:1] in "-+")}
    thresholds = BACKGAMMON_SCALE.thresholds
    assert found == {"doubtful": thresholds.inaccuracy, "bad": thresholds.mistake, "very bad": thresholds.blunder}


@pytest.mark.parametrize(
    ("rate", "word"),
    [(0.0015, "Supernatural"), (0.004, "World class"), (0.005, "Expert"), (0.0119, "Advanced"),
     (0.017, "Intermediate"), (0.02, "Casual player"), (0.03, "Beginner"), (0.035, "Awful!"), (0.2, "Awful!")],
)
def test_gnubg_rating_words(rate: float, word: str) -> None:
    assert gnubg_rating(rate) == word
    assert [limit for limit, _ in GNUBG_RATINGS] == sorted(limit for limit, _ in GNUBG_RATINGS)


def _review(scale: ReviewScale, rows: list[tuple[int, int, str, Value, Value, str]], **extra: object) -> GameReview:
    moves = tuple(
        make_move_review(scale, ply=ply, mover=mover, move=move, played=played, best=best, best_move=best_move,
                         best_line=(best_move, "x"), **extra)  # type: ignore[arg-type]
        for ply, mover, move, played, best, best_move in rows
    )
    return GameReview("backgammon" if scale is BACKGAMMON_SCALE else "chess", ReviewSettings("pvs", 4, 1000), moves, scale)


def test_backgammon_error_rate_in_memg() -> None:
    rows = [
        (1, 0, "13/9 8/3", Value(0.10), Value(0.13), "13/9 13/8"),  # 0.03 lost
        (3, 1, "8/5 6/5", Value(-0.2), Value(-0.2), "8/5 6/5"),
        (5, 0, "24/20 13/9", Value(0.05), Value(0.06), "24/16"),  # 0.01 lost
    ]
    review = _review(BACKGAMMON_SCALE, rows)
    white, black = review.summaries()
    assert white.error_rate == pytest.approx(20.0)  # (0.03 + 0.01) / 2 decisions * 1000
    assert white.checker_error_rate == pytest.approx(20.0) and white.cube_error_rate is None
    assert white.rating == "Casual player" and white.headline == "Error rate 20.0 (Casual player)"
    assert black.error_rate == 0 and black.rating == "Supernatural"
    assert white.inaccuracies == 1


def test_next_and_previous_error_navigation() -> None:
    rows = [
        (0, 0, "e4", Value(20), Value(20), "e4"),
        (1, 1, "f6", Value(-60), Value(-20), "e5"),  # inaccuracy-ish
        (2, 0, "Qh5", Value(-200), Value(60), "d4"),  # blunder
        (3, 1, "g5", Value(-99_990, -1), Value(-200), "e5"),  # walks into mate
    ]
    review = _review(CHESS_SCALE, rows)
    assert review.for_ply(2) is not None and review.for_ply(2).mark is Mark.BLUNDER  # type: ignore[union-attr]
    errors = [move.ply for move in review.moves if move.mark.is_error]
    assert review.next_error(-1).ply == errors[0]  # type: ignore[union-attr]
    assert review.next_error(2).ply == 3  # type: ignore[union-attr]
    assert review.next_error(0, player=0).ply == 2  # type: ignore[union-attr]
    assert review.next_error(-1, at_least=Mark.BLUNDER).ply == 2  # type: ignore[union-attr]
    assert review.previous_error(3).ply == 2  # type: ignore[union-attr]
    assert review.next_error(3) is None
    assert review.comment(review.moves[2]) == "Blunder. d4 was best."
    assert review.comment(review.moves[0]) == ""


# --------------------------------------------------------------------------- JSON
def _chess_review() -> GameReview:
    rows = [
        (0, 0, "e4", Value(25), Value(25), "e4"),
        (1, 1, "Qh4", Value(-1050), Value(-30), "Nf6"),
        (2, 0, "Nxh4", Value(999_991, 9), Value(999_991, 9), "Nxh4"),
    ]
    return _review(CHESS_SCALE, rows)


def test_json_round_trip() -> None:
    review = _chess_review()
    text = json.dumps(review.to_json())
    back = GameReview.from_json(json.loads(text), "chess", CHESS_SCALE, ["e4", "Qh4", "Nxh4"])
    assert back == review
    assert back.summaries() == review.summaries()
    assert back.moves[1].mark is Mark.BLUNDER and back.moves[2].played.win_in_plies == 9


def test_a_mark_that_disagrees_with_the_values_is_judged_again() -> None:
    document = _chess_review().to_json()
    document["moves"][1]["mark"] = "best"  # type: ignore[index]
    back = GameReview.from_json(document, "chess", CHESS_SCALE)
    assert back.moves[1].mark is Mark.BLUNDER


HOSTILE: list[object] = [
    None,
    [],
    "review",
    {"settings": {}, "moves": []},
    {"settings": {"algorithm": ""}, "moves": []},
    {"settings": {"algorithm": "x" * 1000}, "moves": []},
    {"settings": {"algorithm": "pvs", "depth": -3}, "moves": []},
    {"settings": {"algorithm": "pvs", "depth": True}, "moves": []},
    {"settings": {"algorithm": "pvs", "nodes": 1e400}, "moves": []},
    {"settings": {"algorithm": "pvs", "seconds": float("nan")}, "moves": []},
    {"settings": {"algorithm": "pvs", "seconds": -1}, "moves": []},
    {"settings": {"algorithm": "pvs"}, "moves": {}},
    {"settings": {"algorithm": "pvs"}, "moves": [None]},
    {"settings": {"algorithm": "pvs"}, "moves": [{}] * 20_000},
]


def _with_move(**changes: object) -> dict[str, object]:
    document = _chess_review().to_json()
    document["moves"][1].update(changes)  # type: ignore[index]
    return document


HOSTILE += [
    _with_move(ply=-1),
    _with_move(ply=2**70),
    _with_move(ply="1"),
    _with_move(mover=2),
    _with_move(mover=True),
    _with_move(mark="brilliant"),
    _with_move(mark=None),
    _with_move(move=""),
    _with_move(move="x" * 100),
    _with_move(move="Nf6\n{evil}"),
    _with_move(best_move=7),
    _with_move(best_line="Nf6"),
    _with_move(best_line=["Nf6"] * 1000),
    _with_move(played=[float("nan"), None]),
    _with_move(played=[float("inf"), None]),
    _with_move(played=[1e300, None]),
    _with_move(played=["1", None]),
    _with_move(played=[1]),
    _with_move(played=[1, 1.5]),
    _with_move(played=[1, 10**9]),
    _with_move(best=None),
    _with_move(stake=0),
    _with_move(stake=-2),
    _with_move(stake=float("nan")),
    _with_move(cube="yes"),
    _with_move(ply=0),  # ply 0 twice
]


@pytest.mark.parametrize("document", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_review_fields_raise_one_review_error(document: object) -> None:
    with pytest.raises(ReviewError):
        GameReview.from_json(document, "chess", CHESS_SCALE, ["e4", "Qh4", "Nxh4"])


def test_the_review_must_match_the_games_moves() -> None:
    document = _chess_review().to_json()
    with pytest.raises(ReviewError, match="not 'Qh4'"):
        GameReview.from_json(document, "chess", CHESS_SCALE, ["e4", "Nf6", "Nxh4"])
    with pytest.raises(ReviewError, match="past the game"):
        GameReview.from_json(document, "chess", CHESS_SCALE, ["e4"])


def test_random_damage_never_raises_anything_but_review_error() -> None:
    rng = random.Random(7)
    garbage: list[object] = [None, -1, 0.5, float("nan"), "", "x", [], {}, [1, 2], True, 10**20]
    base = _chess_review().to_json()
    refused = 0
    for _ in range(400):
        document = json.loads(json.dumps(base))
        target = document if rng.random() < 0.3 else rng.choice(document["moves"])
        key = rng.choice(sorted(target))
        target[key] = rng.choice(garbage)
        try:
            accepted = GameReview.from_json(document, "chess", CHESS_SCALE)
        except ReviewError:
            refused += 1
            continue
        # what is accepted is a review that writes and reads back as itself
        assert GameReview.from_json(accepted.to_json(), "chess", CHESS_SCALE) == accepted
    assert refused > 300, refused  # the damage reaches the checks (378 of 400 refused)


def test_loss_is_never_negative_and_finite() -> None:
    for scale in (CHESS_SCALE, OTHELLO_SCALE, CHECKERS_SCALE, BACKGAMMON_SCALE, TICTACTOE_SCALE):
        for best, played in ((Value(10), Value(50)), (Value(-5), Value(-999_990, -10)), (Value(0), Value(0))):
            loss = scale.loss(best, played)
            assert loss >= 0 and math.isfinite(loss)


# --------------------------------------------------------------------------- PGN/PDN text forms
def test_settings_text_round_trip() -> None:
    for settings in (ReviewSettings("native", None, 2_000_000), ReviewSettings("star2", 2, 5_000, 1.5), ReviewSettings("pvs")):
        assert ReviewSettings.parse(settings.describe()) == settings
    with pytest.raises(ReviewError):
        ReviewSettings.parse("pvs, depth -3 per move")


def test_review_command_round_trip_and_hostile_commands() -> None:
    review = _chess_review()
    for move in review.moves:
        command = review_command(move)
        match = REVIEW_COMMAND.search(f"{{[%eval 0.3] {command} (0.28 → -10.53) Blunder.}}")
        assert match is not None
        assert move_from_command(match.group(1), move.ply, move.mover, move.move, CHESS_SCALE) == move
    for text in ("", "blunder", "blunder Nf6 1", "bogus Nf6 1 2", "blunder Nf6 nan 2", "blunder Nf6 1@x 2",
                 "blunder Nf6 1e999 2", "blunder Nf6 1@99999999999 2", "blunder " + "N" * 100 + " 1 2",
                 "blunder Nf6 1 2 " + " ".join(["e4"] * 100), "blunder Nf6 " + "9" * 5000 + " 2"):
        with pytest.raises(ReviewError):
            move_from_command(text, 1, 1, "Qh4", CHESS_SCALE)


def test_error_words_in_lichess_style() -> None:
    review = _chess_review()
    assert error_words(review, review.moves[1], "0.30", "-10.50") == "(0.30 → -10.50) Blunder. Nf6 was best."
    assert error_words(review, review.moves[0], "0.25", "0.25") == ""
