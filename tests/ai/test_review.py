"""The review marks the known blunder of a game in every game, run in this process on small
budgets: a hung queen, a man given away, a corner given away, a backgammon play GNU
Backgammon calls very bad, a drawn tic-tac-toe thrown away; and the requests and the fold
behave as the app drives them (any order, partial answers, book and only moves)."""

from __future__ import annotations

import dataclasses
import random

import pytest

import games
from games.annotations import GameReview, Mark
from games.backgammon.state import CUBE_DECISION
from games.records import GameRecord, RecordError

from ai.engine import run_search
from ai.events import Finished
from ai.levels import strongest_play
from ai.review import (
    ReviewDepth,
    ReviewRun,
    ReviewStrength,
    TaskKey,
    TaskKind,
    fold,
    plan_review,
    review_game,
    run_alone,
    unreviewed,
)
from ai.settings import Limits


def record(game: str, moves: list[str], **fields: object) -> GameRecord:
    return GameRecord(game, games.new_game(game).to_text(), moves, **fields)  # type: ignore[arg-type]


def strength(game: str, nodes: int, depth: int | None = None) -> ReviewStrength:
    base = ReviewStrength.for_game(game, ReviewDepth.QUICK)
    return dataclasses.replace(base, limits=Limits(depth=depth, nodes=nodes))


HUNG_QUEEN = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Qh4", "Nxh4"]
"""2...Qh4?? puts the queen where the knight on f3 takes it."""


def test_chess_hung_queen_is_a_blunder_with_the_better_move() -> None:
    review = review_game(record("chess", HUNG_QUEEN), strength("chess", 30_000))
    blunder = review.for_ply(5)
    assert blunder is not None
    assert (blunder.mover, blunder.move, blunder.mark, blunder.mark.nag) == (1, "Qh4", Mark.BLUNDER, 4)
    assert blunder.best_move != "Qh4" and blunder.best_line[0] == blunder.best_move
    assert blunder.loss >= 0.3  # Lichess's blunder: a third of the winning chances or more
    assert blunder.played.score <= -700  # a queen down, from Black's view
    assert review.comment(blunder) == f"Blunder. {blunder.best_move} was best."
    white, black = review.summaries()
    assert (black.blunders, white.blunders) == (1, 0)
    assert black.accuracy is not None and white.accuracy is not None and black.accuracy < white.accuracy
    taking = review.for_ply(6)
    assert taking is not None and taking.mark is Mark.BEST  # Nxh4 takes the queen


CHECKERS_SHOT = ["9-14", "24-19", "6-9", "28-24", "12-16", "19x12"]
"""Black's 12-16 walks into 19x12: a man given away for nothing (no capture back)."""


def test_checkers_man_given_away_is_a_blunder() -> None:
    state = games.new_game("checkers")
    for name in CHECKERS_SHOT[:5]:
        state.play(state.parse_move(name))
    replies = state.legal_moves()
    assert [state.move_name(move) for move in replies] == ["19x12"]  # forced, and nothing takes back
    state.play(replies[0])
    assert not state.is_in_check()
    review = review_game(record("checkers", CHECKERS_SHOT), strength("checkers", 50_000))
    blunder = review.for_ply(4)
    assert blunder is not None and (blunder.move, blunder.mark) == ("12-16", Mark.BLUNDER)
    assert blunder.loss >= 1.0  # a man
    assert blunder.best_move != "12-16"
    only = review.for_ply(5)
    assert only is not None and only.mark is Mark.ONLY_MOVE and not only.mark.is_judged
    assert review.summary(0).blunders == 1 and review.summary(1).blunders == 0


OTHELLO_CORNER = ["c4", "e3", "f6", "e6", "f7", "e7", "f2", "e2", "d8", "e8", "f4", "g7"]
"""White's 6. g7 (an X-square) hands Black the h8 corner, which Black could not take before."""


def test_othello_corner_given_away_is_a_blunder() -> None:
    state = games.new_game("othello")
    for name in OTHELLO_CORNER[:-1]:
        state.play(state.parse_move(name))
    assert "h8" not in [state.move_name(move) for move in state.legal_moves()]
    state.play(state.parse_move("g7"))
    assert "h8" in [state.move_name(move) for move in state.legal_moves()]
    review = review_game(record("othello", OTHELLO_CORNER), strength("othello", 2_000))
    blunder = review.for_ply(11)
    assert blunder is not None and (blunder.mover, blunder.move, blunder.mark) == (1, "g7", Mark.BLUNDER)
    assert blunder.loss >= 8  # discs
    assert blunder.best_move not in ("b2", "g2", "b7", "g7")
    assert review.summary(1).headline.startswith("Average loss") and review.summary(1).headline.endswith("discs")


BACKGAMMON_31 = ["X 3-1", "8/7 8/5"]
"""The opening 3-1 played 8/7 8/5 instead of making the 5-point (8/5 6/5). GNU Backgammon
1.07 (hint at the opening 3-1) rates 8/5 6/5 at +0.200 and 8/7 8/5 at -0.285: 0.485 lost,
four times its "very bad" threshold."""


def test_backgammon_checker_play_blunder_as_gnubg_sees_it() -> None:
    review = review_game(record("backgammon", BACKGAMMON_31), strength("backgammon", 2_000, depth=2))
    assert review.for_ply(0) is None  # the opening roll is a chance ply
    blunder = review.for_ply(1)
    assert blunder is not None and blunder.move == "8/7 8/5"
    assert blunder.mark is Mark.BLUNDER and review.scale.word(blunder.mark) == "Very bad"
    assert blunder.best_move == "8/5 6/5"
    assert blunder.loss >= 0.3  # gnubg: 0.485
    summary = review.summary(blunder.mover)
    assert summary.error_rate == pytest.approx(1000 * blunder.loss)
    assert summary.rating == "Awful!" and summary.checker_error_rate == summary.error_rate


def test_backgammon_cube_decisions_are_judged_from_the_cube_model() -> None:
    # A game that comes to a double, and the double passed: both decisions are judged by the
    # game's cube model, counted apart from checker play.
    rng = random.Random(5)
    state = games.new_game("backgammon")
    start, names = state.to_text(), []
    while len(names) < 10 and not state.is_terminal():
        if state.to_move() < 0:
            outcomes = state.chance_outcomes()
            move = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            move = rng.choice(state.legal_moves())
        names.append(state.move_name(move))
        state.play(move)
    assert names[-2:] == ["double", "drop"]
    plan = plan_review(GameRecord("backgammon", start, names), strength("backgammon", 1_000, depth=1))
    cube = [ply for ply in plan.plies if ply.model is not None]
    assert {ply.move for ply in cube} >= {"double", "drop"}
    review = fold(plan, {})
    cube_moves = [move for move in review.moves if move.cube]
    assert [move.move for move in cube_moves] == [ply.move for ply in cube]  # judged without any search
    drop = review.for_ply(len(names) - 1)
    assert drop is not None and drop.best_move == "take" and drop.mark.is_error
    summary = review.summary(drop.mover)
    assert summary.cube_error_rate is not None and summary.cube_error_rate > 0
    # gnubg (analysis.c updateStatcontext) counts every double, take and pass, and a "no
    # double" only when close or got wrong: a clear "no double" does not dilute the error rate
    assert all(move.counted for move in cube_moves if move.mark.is_error or move.move != "roll")
    clear = [move for move in cube_moves if not move.counted]
    assert clear and all(move.mark is Mark.BEST and move.move == "roll" for move in clear)
    for player in (0, 1):
        counted = [m for m in review.moves if m.mover == player and m.mark.is_judged and m.counted]
        assert review.summary(player).judged == len(counted)
    assert GameReview.from_json(review.to_json(), "backgammon", review.scale, names) == review


def test_a_clear_pass_counts_as_a_cube_decision_as_in_gnubg() -> None:
    # X has borne in, O's checkers are all on its 13-15 points: O's pass of X's double is
    # right by far (taking loses a gammon too often), and gnubg counts every take and pass
    state = games.new_game("backgammon")
    state.boards[1][:] = [0, 5, 5, 5] + [0] * 22  # type: ignore[attr-defined]
    state.boards[0][:] = [0] * 13 + [5, 5, 5] + [0] * 10  # type: ignore[attr-defined]
    state.phase, state.player = CUBE_DECISION, 1  # type: ignore[attr-defined]
    review = fold(plan_review(GameRecord("backgammon", state.to_text(), ["double", "drop"])), {})
    drop = review.for_ply(1)
    assert drop is not None and drop.cube and drop.mark is Mark.BEST
    assert drop.counted and review.summary(0).judged == 1


def test_tictactoe_drawn_game_thrown_away() -> None:
    # x takes the centre, o answers on an edge: o loses against best play (the corner draws)
    review = review_game(record("tictactoe", ["b2", "b3", "a3", "c1"]), strength("tictactoe", 200_000))
    blunder = review.for_ply(1)
    assert blunder is not None and (blunder.move, blunder.mark) == ("b3", Mark.BLUNDER)
    assert blunder.best.outcome == 0 and blunder.played.outcome == -1  # a draw became a loss
    assert blunder.best_move in ("a1", "a3", "c1", "c3")  # a corner
    assert review.summary(1).accuracy == 50.0 and review.summary(0).accuracy == 100.0


def _answers_by_hand(run: ReviewRun, order: random.Random | None) -> None:
    while not run.is_complete:
        tasks = run.pending()
        assert tasks, "a review that is not complete has something to ask"
        if order is not None:
            order.shuffle(tasks)
        for task in tasks:
            run.accept(task.key, run_alone(task.request))  # each answer its request's alone


def test_any_order_gives_the_same_review() -> None:
    game = record("tictactoe", ["b2", "b3", "a3", "c1", "c3"])
    limits = strength("tictactoe", 200_000)
    in_order = ReviewRun(plan_review(game, limits))
    _answers_by_hand(in_order, None)
    shuffled = ReviewRun(plan_review(game, limits))
    _answers_by_hand(shuffled, random.Random(3))
    assert shuffled.result() == in_order.result()
    done, total = shuffled.progress
    assert done == total == len(shuffled.answers)
    assert fold(shuffled.plan, shuffled.answers) == shuffled.result()  # the fold is pure


def test_partial_answers_leave_the_missing_moves_out() -> None:
    run = ReviewRun(plan_review(record("tictactoe", ["b2", "b3", "a3"]), strength("tictactoe", 200_000)))
    first = run.pending()
    assert [task.key for task in first] == [TaskKey(ply, TaskKind.POSITION) for ply in range(3)]
    assert run.pending() == []  # each task is handed out once
    run.accept(first[1].key, run_alone(first[1].request))
    # ply 1's best move was another: its best and played searches are asked now
    follow = run.pending()
    assert {task.key.kind for task in follow} == {TaskKind.BEST, TaskKind.PLAYED}
    assert all(task.request.root_moves and not task.request.settings.transposition_table for task in follow)
    assert run.progress == (1, 5)
    assert run.result().moves == ()  # nothing complete yet
    run.accept(first[0].key, run_alone(first[0].request))
    for task in run.pending():  # ply 0's lone-move searches, where another first move scored as high
        if task.key.ply == 0:
            run.accept(task.key, run_alone(task.request))
    assert [move.ply for move in run.result().moves] == [0]


def test_a_review_of_the_first_moves_is_extended_by_searching_only_the_new_ones() -> None:
    """A game reviewed, played on and reviewed again: the first review's moves are kept,
    only the new positions are searched, and the review is the whole game's review (every
    search depends on its request alone)."""
    moves = ["b2", "b3", "a3", "c1", "c3"]
    limits = strength("tictactoe", 200_000)
    first = review_game(record("tictactoe", moves[:3]), limits)
    plan = plan_review(record("tictactoe", moves), limits)
    assert unreviewed(plan, first) == (3, 4)
    run = ReviewRun(plan, first)
    tasks = run.pending()
    assert [task.key for task in tasks] == [TaskKey(3, TaskKind.POSITION), TaskKey(4, TaskKind.POSITION)]
    assert run.moves_reviewed == (3, 5)
    for task in tasks:
        run.accept(task.key, run_alone(task.request))
    _answers_by_hand(run, None)
    assert run.result() == review_game(record("tictactoe", moves), limits)
    assert run.result().moves[:3] == first.moves
    assert unreviewed(plan, run.result()) == ()
    # whole already: nothing to search
    assert ReviewRun(plan, run.result()).is_complete and ReviewRun(plan, run.result()).pending() == []
    # a game changed at move 3 keeps the review of the two moves before it only
    changed = plan_review(record("tictactoe", ["b2", "b3", "c1"]), limits)
    assert unreviewed(changed, first) == (2,)
    with pytest.raises(ValueError, match="another strength"):  # another strength: never mixed
        ReviewRun(plan_review(record("tictactoe", moves), strength("tictactoe", 100_000)), first)


def test_a_failed_search_leaves_its_move_out() -> None:
    run = ReviewRun(plan_review(record("tictactoe", ["b2"]), strength("tictactoe", 5_000)))
    (task,) = run.pending()
    failed = Finished(0, None, run_search(task.request).score, (), 0, 0, 0, 0.0, 0.0, error="worker died")
    run.accept(task.key, failed)
    assert run.is_complete and run.result().moves == ()


def test_book_plies_are_searched_but_not_judged() -> None:
    review = review_game(record("chess", HUNG_QUEEN[:4], opening_plies=2), strength("chess", 5_000))
    marks = [move.mark for move in review.moves]
    assert marks[:2] == [Mark.BOOK, Mark.BOOK]
    assert all(mark is not Mark.BOOK for mark in marks[2:])
    assert review.summary(0).judged == 1


def test_a_record_with_an_illegal_move_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="move 2"):
        plan_review(record("chess", ["e4", "Ke3"]))


@pytest.mark.parametrize("game", games.GAME_NAMES)
def test_strength_words_share_the_strongest_levels_engine(game: str) -> None:
    strongest = strongest_play(game)
    quick, standard, deep = (ReviewStrength.for_game(game, depth) for depth in ReviewDepth)
    assert deep.settings.algorithm == strongest.algorithm and deep.limits.depth == strongest.depth
    assert deep.limits.nodes == max(2_000, strongest.nodes)  # the hint's own budget
    assert quick.limits.nodes is not None and standard.limits.nodes is not None
    assert quick.limits.nodes <= standard.limits.nodes <= deep.limits.nodes
    assert not quick.settings.book and quick.settings.multipv == 1 and quick.limits.time is None
    assert ReviewStrength.default_for(game) == standard
    assert standard.review_settings().describe().endswith("per move")


def test_a_move_named_otherwise_is_still_the_move_played() -> None:
    # "6/5 8/5" is the play "8/5 6/5": the best play, whatever the order the file wrote it in
    review = review_game(record("backgammon", ["X 3-1", "6/5 8/5"]), strength("backgammon", 2_000, depth=2))
    move = review.for_ply(1)
    assert move is not None and (move.move, move.mark, move.loss) == ("6/5 8/5", Mark.BEST, 0.0)
    assert move.best_move == "6/5 8/5"  # named as the game record names it


def test_the_same_game_reviewed_twice_in_process_gets_the_same_review() -> None:
    """``review_game`` searches each position with a table of its own: a second review of the
    scholar's mate, after the first filled this process's tables, equals the first move by move."""
    record = GameRecord("chess", games.new_game("chess").to_text(), "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#".split())
    standard = ReviewStrength.for_game("chess", ReviewDepth.STANDARD)
    strength = dataclasses.replace(standard, limits=Limits(depth=standard.limits.depth, nodes=20_000))
    run_search(ReviewRun(plan_review(record, strength)).pending()[4].request)  # this process's table, warm
    first = review_game(record, strength)
    second = review_game(record, strength)
    assert first.moves == second.moves and first.for_ply(5).mark is Mark.BLUNDER
