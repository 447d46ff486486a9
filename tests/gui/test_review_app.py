"""The game review in the app, through the real worker pool at tiny node budgets: a hung
queen is marked ?? with the better move on the board, "next mistake" steps to it, a review
can be cancelled, it is saved with the game and read back without searching again, the
window answers while it runs, and a dying worker costs one notice."""

from __future__ import annotations

import dataclasses
import os
import re
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import pytest
from PySide6.QtCore import QObject, QTimer, Signal

from ai.engine import clear_memory, run_search
from ai.review import ReviewDepth, ReviewStrength, review_game
from ai.settings import Limits, SearchRequest
from games import new_game
from games.annotations import Mark
from games.records import GameRecord
from gui import autosave
from gui.review.runner import ReviewRunner

pytestmark = pytest.mark.usefixtures("qapp")

HUNG_QUEEN = ["e4", "e5", "Nf3", "Qh4", "Nxh4"]
"""2...Qh4?? puts the queen where the knight on f3 takes it."""
QUEEN_PLY = 4
"""The position after 2...Qh4 (plies played): where the mark and the arrow are."""


TINY_NODES = {ReviewDepth.QUICK: 4_000, ReviewDepth.STANDARD: 5_000, ReviewDepth.DEEP: 6_000}
"""Node budgets small enough for a test, big enough to see a queen hang; one per strength,
so that a review says which strength it was made at."""


def tiny(game: str, level: ReviewDepth) -> ReviewStrength:
    """The review's strength at a ``TINY_NODES`` budget."""
    standard = ReviewStrength.for_game(game, level)
    return dataclasses.replace(standard, limits=Limits(depth=standard.limits.depth, nodes=TINY_NODES[level]))


@pytest.fixture(scope="module")
def review_bridge(qapp: Any) -> Iterator[Any]:
    from gui.review.runner import make_review_bridge

    made = make_review_bridge()
    yield made
    made.shutdown()


@pytest.fixture
def reviewer(qtbot: Any, bridge: Any, review_bridge: Any, data_directory: Path) -> Iterator[Any]:
    """The main window with the module's review bridge, reviewing at ``tiny`` strength."""
    from gui.main_window import MainWindow

    made = MainWindow(bridge=bridge, review_bridge=review_bridge, data_directory=data_directory, offer_resume=False, seed=3)
    made.reviews.runner.strength_for = tiny
    qtbot.addWidget(made)
    made.show()
    qtbot.waitExposed(made)
    yield made
    made.shutdown()


def load_chess(window: Any, moves: list[str]) -> None:
    window.load_record(GameRecord("chess", new_game("chess").to_text(), list(moves), result="1-0", reason="Black resigned"))


def review(qtbot: Any, window: Any) -> Any:
    with qtbot.waitSignal(window.reviews.runner.finished, timeout=30_000) as finished:
        assert window.review_game()
    return finished.args[0]


def test_a_hung_queen_is_marked_and_the_board_shows_the_better_move(qtbot: Any, reviewer: Any) -> None:
    load_chess(reviewer, HUNG_QUEEN)
    result = review(qtbot, reviewer)
    queen = result.for_ply(QUEEN_PLY - 1)
    assert queen is not None and queen.mark is Mark.BLUNDER
    moves = reviewer.game_view.moves.moves
    assert "Qh4??" in moves.item_texts()
    assert moves.marks()[QUEEN_PLY].symbol == "??"
    assert QUEEN_PLY in reviewer.eval_graph.marks()
    # the loaded game had no evaluations: the graph's curve is the review's, White far ahead after Qh4
    hung = reviewer.eval_graph.scores[QUEEN_PLY]
    assert hung is not None and hung.for_player(0).value > 300
    moves.show_ply(QUEEN_PLY)
    better = reviewer.game_view.board.review_move()
    before = chess.Board()
    for san in HUNG_QUEEN[: QUEEN_PLY - 1]:
        before.push_san(san)
    assert isinstance(better, chess.Move) and better in before.legal_moves
    assert before.san(better) == queen.best_move != "Qh4"
    detail = reviewer.review_panel.detail.text()
    assert before.san(better) in detail
    # Lichess's words: the values before → after (White's view), no share of "winning chances"
    assert re.search(r"Blunder \([+-]\d+\.\d\d → \+\d+\.\d\d\)", detail) and "%" not in detail and "chance" not in detail
    assert "Qh4??" in reviewer.game_view.moves.comment.text()
    # the counts in the panel are the marks in the list: Black's one blunder, White's none
    rows = {row[0]: row[1:] for row in reviewer.review_panel.cell_texts()}
    assert rows["Blunder ??"] == ("0", "1")
    moves.show_ply(QUEEN_PLY - 1)  # a move that was the best: no arrow
    assert reviewer.game_view.board.review_move() is None


def test_next_and_previous_mistake_step_to_the_blunder_per_side(qtbot: Any, reviewer: Any) -> None:
    load_chess(reviewer, HUNG_QUEEN)
    review(qtbot, reviewer)
    moves = reviewer.game_view.moves.moves
    assert reviewer.review_panel.side_choice() == 0  # the human's own mistakes first (White here)
    reviewer.review_panel.side.setCurrentIndex(0)  # both sides
    moves.show_ply(0)
    reviewer.actions_by_name["next_mistake"].trigger()
    assert moves.shown_ply == QUEEN_PLY
    reviewer.actions_by_name["next_mistake"].trigger()  # none later: it stays
    assert moves.shown_ply == QUEEN_PLY
    moves.show_ply(len(HUNG_QUEEN))
    reviewer.actions_by_name["previous_mistake"].trigger()
    assert moves.shown_ply == QUEEN_PLY
    reviewer.review_panel.side.setCurrentIndex(1)  # White's mistakes only: there are none
    moves.show_ply(0)
    assert not reviewer.reviews.step_mistake(reviewer.review_panel.side_choice(), 1)
    assert moves.shown_ply == 0
    assert reviewer.statusBar().currentMessage() == "No mistake of White in this game"
    reviewer.review_panel.side.setCurrentIndex(2)  # Black's: the word about White's is gone
    assert reviewer.statusBar().currentMessage() == ""


def test_a_cancelled_review_shows_nothing_of_it(qtbot: Any, reviewer: Any, review_bridge: Any) -> None:
    load_chess(reviewer, HUNG_QUEEN)
    finished: list[Any] = []
    reviewer.reviews.runner.finished.connect(finished.append)
    with qtbot.waitSignal(reviewer.reviews.runner.cancelled, timeout=5_000):
        assert reviewer.review_game()
        reviewer.review_panel.cancel_button.click()
    assert not reviewer.reviews.runner.is_running
    qtbot.waitUntil(lambda: not review_bridge.is_searching, timeout=5_000)
    qtbot.wait(200)  # a late answer would come now: it must be dropped
    assert finished == []
    assert reviewer.game_view.moves.moves.marks() == {}
    assert "cancelled" in reviewer.review_panel.message.text()


def test_a_saved_review_is_shown_at_once_when_the_game_is_opened(qtbot: Any, reviewer: Any, tmp_path: Path) -> None:
    load_chess(reviewer, HUNG_QUEEN)
    review(qtbot, reviewer)
    path = tmp_path / "reviewed.pgn"
    assert reviewer.save_to(path)
    text = path.read_text()
    assert "$4" in text or "??" in text  # the blunder's NAG
    load_chess(reviewer, ["d4"])  # another game first
    assert reviewer.game_view.moves.moves.marks() == {}
    started: list[int] = []
    reviewer.reviews.runner.started.connect(started.append)
    assert reviewer.open_path(path)
    assert started == []  # nothing searched again
    assert reviewer.game_view.moves.moves.marks()[QUEEN_PLY].symbol == "??"
    assert "Qh4??" in reviewer.game_view.moves.moves.item_texts()
    reviewer.game_view.moves.moves.show_ply(QUEEN_PLY)
    assert isinstance(reviewer.game_view.board.review_move(), chess.Move)


def test_the_autosave_keeps_a_finished_review(qtbot: Any, reviewer: Any, data_directory: Path) -> None:
    load_chess(reviewer, HUNG_QUEEN)
    review(qtbot, reviewer)
    saved = autosave.load(data_directory)
    assert saved is not None and saved.record.review is not None
    assert saved.record.review.for_ply(QUEEN_PLY - 1).mark is Mark.BLUNDER  # type: ignore[union-attr]


def test_a_review_that_outlives_its_game_is_kept_in_the_data_folder(qtbot: Any, reviewer: Any, data_directory: Path) -> None:
    """A new game does not cancel the last game's review: it finishes in the background and is
    written with its game to ``reviews`` (the autosave holds the new game)."""
    load_chess(reviewer, HUNG_QUEEN)
    with qtbot.waitSignal(reviewer.reviews.runner.finished, timeout=30_000):
        assert reviewer.review_game()
        load_chess(reviewer, ["d4", "d5"])
        panel = reviewer.review_panel  # the new game's tab: no progress of the old review, free to start
        assert not panel.progress.isVisible() and panel.start_button.isEnabled()
        assert "background" in panel.message.text()
    assert reviewer.game_view.moves.moves.marks() == {}  # not shown on the new game
    assert "background" not in reviewer.review_panel.message.text()
    kept = list((data_directory / "reviews").glob("chess-*.pgn"))
    assert len(kept) == 1
    text = kept[0].read_text()
    assert "Qh4 $4" in text or "Qh4??" in text


def test_the_window_answers_while_a_review_runs(qtbot: Any, reviewer: Any) -> None:
    """The review runs in another process: the window steps through the game and flips
    the board while it goes on."""
    reviewer.reviews.runner.strength_for = lambda game, level: dataclasses.replace(
        ReviewStrength.for_game(game, level), limits=Limits(nodes=3_000_000)
    )
    load_chess(reviewer, HUNG_QUEEN)
    assert reviewer.review_game()
    runner = reviewer.reviews.runner
    moves = reviewer.game_view.moves.moves
    for ply in (1, 2, 3):
        moves.show_ply(ply)
        qtbot.waitUntil(lambda ply=ply: reviewer.game_view.shown_ply() == ply, timeout=2_000)
    flipped = reviewer.game_view.board.is_flipped()
    reviewer.actions_by_name["flip"].trigger()
    assert reviewer.game_view.board.is_flipped() != flipped
    assert runner.is_running  # all of it happened during the review
    assert reviewer.review_panel.progress.isVisible()
    reviewer.reviews.cancel()


def test_a_worker_killed_mid_review_does_not_end_it(qtbot: Any, reviewer: Any, review_bridge: Any) -> None:
    """The pool replaces a killed worker and searches its part again (or answers from the
    last iteration, with a fault): the review still covers every move."""
    notices: list[str] = []
    reviewer.reviews.runner.notice.connect(notices.append)
    load_chess(reviewer, HUNG_QUEEN)
    with qtbot.waitSignal(reviewer.reviews.runner.finished, timeout=60_000):
        assert reviewer.review_game()
        qtbot.waitUntil(lambda: review_bridge.pool is not None and review_bridge.is_searching, timeout=20_000)
        os.kill(review_bridge.pool.worker_pids[0], signal.SIGKILL)
    assert len(notices) <= 1
    review = reviewer.reviews.review
    assert review is not None and [move.ply for move in review.moves] == list(range(len(HUNG_QUEEN)))


class ScriptedBridge(QObject):
    """A bridge answering each search in this process (``run_search`` at the request's tiny
    budget) from the event loop, as the real one does, with every answer carrying a worker's
    fault, or failing at search number ``fail_at``."""

    search_finished = Signal(object)
    search_failed = Signal(str)

    def __init__(self, fail_at: int | None = None) -> None:
        super().__init__()
        self.count = 0
        self.fail_at = fail_at
        self.is_searching = False

    def start_search(self, request: SearchRequest) -> int:
        self.count += 1
        search_id = self.count
        if search_id == self.fail_at:
            QTimer.singleShot(0, lambda: self.search_failed.emit("worker 0 exited with status 1"))
        else:
            answer = dataclasses.replace(run_search(request), search_id=search_id, fault="worker 0 killed by signal 9")
            QTimer.singleShot(0, lambda: self.search_finished.emit(answer))
        return search_id

    def stop(self) -> None:
        self.count += 1000  # a stopped search's answer carries an id nobody waits for

    def clear_memory(self) -> None:
        clear_memory()  # this process's tables, where ``run_search`` keeps them

    def shutdown(self) -> None:
        pass


def record_of(moves: list[str]) -> GameRecord:
    return GameRecord("chess", new_game("chess").to_text(), list(moves))


def test_faults_are_said_once_and_the_review_goes_on(qtbot: Any) -> None:
    runner = ReviewRunner(ScriptedBridge())
    runner.strength_for = tiny
    notices: list[str] = []
    runner.notice.connect(notices.append)
    with qtbot.waitSignal(runner.finished, timeout=20_000) as finished:
        assert runner.start(record_of(HUNG_QUEEN))
    assert len(notices) == 1 and "killed by signal 9" in notices[0]
    assert finished.args[0].for_ply(QUEEN_PLY - 1).mark is Mark.BLUNDER


def test_a_failed_search_ends_the_review_with_one_message(qtbot: Any) -> None:
    runner = ReviewRunner(ScriptedBridge(fail_at=2))
    runner.strength_for = tiny
    failures: list[str] = []
    runner.failed.connect(failures.append)
    finished: list[Any] = []
    runner.finished.connect(finished.append)
    with qtbot.waitSignal(runner.failed, timeout=20_000):
        assert runner.start(record_of(HUNG_QUEEN))
    qtbot.wait(50)
    assert failures == ["The review stopped: worker 0 exited with status 1"]
    assert finished == [] and not runner.is_running


def test_a_game_that_does_not_replay_is_refused_in_words(qtbot: Any) -> None:
    runner = ReviewRunner(ScriptedBridge())
    failures: list[str] = []
    runner.failed.connect(failures.append)
    assert not runner.start(record_of(["e4", "Ke7"]))  # illegal: Black's own pawn stands on e7
    assert len(failures) == 1 and failures[0].startswith("This game cannot be reviewed")


def test_the_settings_remember_the_strength_and_the_switch(reviewer: Any) -> None:
    reviewer.review_panel.level.setCurrentIndex(reviewer.review_panel.level.findData(ReviewDepth.DEEP))
    assert reviewer.settings.review_level == "deep"
    reviewer.actions_by_name["review_after_game"].trigger()
    assert reviewer.settings.review_after_game is False
    reviewer.settings._store.setValue("review/level", "ludicrous")
    reviewer.settings._store.setValue("review/after_game", "maybe")
    assert reviewer.settings.review_level == "standard"
    assert reviewer.settings.review_after_game is False


def test_a_review_of_another_game_sets_the_running_one_aside_and_both_finish(qtbot: Any) -> None:
    """The second game's review comes first; the first one waits with what it had (its search
    in flight asked again) and then finishes: every move of both reviewed, each signal naming
    its own record."""
    runner = ReviewRunner(ScriptedBridge())
    runner.strength_for = tiny
    done: list[tuple[Any, Any]] = []
    runner.finished.connect(lambda review: done.append((runner.record, review)))
    first, second = record_of(HUNG_QUEEN), record_of(["d4", "d5", "c4"])
    assert runner.start(first)
    qtbot.waitUntil(lambda: runner.progress()[0] >= 1, timeout=10_000)
    assert runner.start(second, set_aside=True)
    assert runner.waiting == 1
    qtbot.waitUntil(lambda: len(done) == 2, timeout=30_000)
    assert [record for record, _ in done] == [second, first]
    assert [move.ply for move in done[0][1].moves] == [0, 1, 2]
    assert [move.ply for move in done[1][1].moves] == list(range(len(HUNG_QUEEN)))
    assert done[1][1].for_ply(QUEEN_PLY - 1).mark is Mark.BLUNDER
    assert not runner.is_running and runner.waiting == 0


def test_review_game_on_a_new_game_keeps_the_last_games_review(qtbot: Any, reviewer: Any, data_directory: Path) -> None:
    """Review game on a new game while the last game's review runs: the new game's review is
    shown when done, and the last game's goes on and is kept in ``reviews``, not cancelled."""
    runner = reviewer.reviews.runner
    cancelled: list[bool] = []
    runner.cancelled.connect(lambda: cancelled.append(True))
    finished: list[Any] = []
    runner.finished.connect(lambda review: finished.append(runner.record))
    load_chess(reviewer, HUNG_QUEEN)
    assert reviewer.review_game()
    load_chess(reviewer, ["d4", "d5"])
    assert reviewer.review_game()  # this game's review: the panel shows its progress
    assert reviewer.review_panel.progress.isVisible() and runner.waiting == 1
    assert "The last game's review goes on after this one" in reviewer.review_panel.message.text()
    qtbot.waitUntil(lambda: len(finished) == 2, timeout=60_000)
    assert cancelled == []
    assert [len(record.moves) for record in finished] == [2, len(HUNG_QUEEN)]
    shown = reviewer.reviews.review
    assert shown is not None and [move.ply for move in shown.moves] == [0, 1]  # the new game's
    kept = list((data_directory / "reviews").glob("chess-*.pgn"))
    assert len(kept) == 1 and ("Qh4 $4" in kept[0].read_text() or "Qh4??" in kept[0].read_text())


def test_review_game_again_on_the_same_game_goes_on_or_replaces_its_running_review(
    qtbot: Any, reviewer: Any, data_directory: Path
) -> None:
    """Ctrl+R again while the game's review runs: at the same strength that review goes on
    (it would say the same); at another strength the new one replaces it."""
    runner = reviewer.reviews.runner
    cancelled: list[bool] = []
    runner.cancelled.connect(lambda: cancelled.append(True))
    finished: list[Any] = []
    runner.finished.connect(finished.append)
    load_chess(reviewer, HUNG_QUEEN)
    with qtbot.waitSignal(runner.finished, timeout=30_000):
        assert reviewer.review_game()
        assert reviewer.review_game()  # Ctrl+R again: the same game at the same strength, reviewed once
        assert cancelled == [] and runner.waiting == 0 and runner.is_running
        reviewer.review_panel.level.setCurrentIndex(reviewer.review_panel.level.findData(ReviewDepth.DEEP))
        assert reviewer.review_game()
        assert cancelled == [True] and runner.waiting == 0
    assert len(finished) == 1 and runner.level_of(finished[0]) is ReviewDepth.DEEP
    assert reviewer.reviews.review is not None
    assert not (data_directory / "reviews").exists() or not list((data_directory / "reviews").iterdir())


def test_the_same_game_reviewed_twice_through_the_pool_gets_the_same_marks_and_values(qtbot: Any, review_bridge: Any) -> None:
    """A review is reproducible: the scholar's mate reviewed twice on one pool, whose table
    and workers' compiled searchers the first review filled, gets equal reviews, move by
    move (marks, values, best moves, lines), as a saved review compared with a new one must,
    and equal to the review the command line makes in its own process."""
    runner = ReviewRunner(review_bridge)
    runner.strength_for = tiny
    record = record_of(["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"])
    reviews = []
    for _ in range(2):
        with qtbot.waitSignal(runner.finished, timeout=30_000) as finished:
            assert runner.start(record)
        reviews.append(finished.args[0])
    first, second = reviews
    assert [move.ply for move in first.moves] == list(range(7))
    assert first.for_ply(5).mark is Mark.BLUNDER and first.for_ply(5).best_move != "Nf6"  # 3...Nf6?? allows mate
    assert second.moves == first.moves
    assert review_game(record, tiny("chess", ReviewDepth.STANDARD)).moves == first.moves  # the command line's review


SCHOLARS_MATE = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
"""Ends by the rules: the app sees the mate from its event loop and says the game is over
after the game is shown (and after a redo of the mate)."""


def reviewed_mate(qtbot: Any, window: Any) -> Any:
    """Scholar's mate played to its end by the human (White), which reviews it by itself
    ("Review games when they end"); the review."""
    window.load_record(GameRecord("chess", new_game("chess").to_text(), SCHOLARS_MATE[:-1]))
    with qtbot.waitSignal(window.reviews.runner.finished, timeout=30_000) as finished:
        assert window.session.play_text("Qxf7#") is None  # the mate is seen from the event loop
    assert window.session.is_over and not window.reviews.runner.is_running
    assert window.reviews.review == finished.args[0]
    return finished.args[0]


def starts_of(window: Any) -> list[int]:
    started: list[int] = []
    window.reviews.runner.started.connect(started.append)
    return started


@pytest.mark.parametrize("suffix", ["pgn", "json"])
def test_an_opened_reviewed_game_that_ends_by_the_rules_is_not_reviewed_again(
    qtbot: Any, reviewer: Any, tmp_path: Path, suffix: str
) -> None:
    """Its review is there for exactly its moves: the game's end, said once the game is
    shown, shows that review and searches nothing."""
    result = reviewed_mate(qtbot, reviewer)
    path = tmp_path / f"mate.{suffix}"
    assert reviewer.save_to(path)
    load_chess(reviewer, ["d4"])
    started = starts_of(reviewer)
    assert reviewer.open_path(path)
    qtbot.waitUntil(lambda: reviewer.session.is_over, timeout=5_000)  # the game's end said
    assert started == [] and not reviewer.reviews.runner.is_running
    assert reviewer.reviews.review is not None and reviewer.reviews.review.moves == result.moves
    assert reviewer.game_view.moves.moves.marks()[6].symbol == "??"  # 3...Nf6??
    assert not reviewer.review_panel.progress.isVisible() and reviewer.review_panel.start_button.isEnabled()


def test_an_opened_game_that_was_over_is_reviewed_on_request_only(qtbot: Any, reviewer: Any, tmp_path: Path) -> None:
    """A finished game opened without a review ended elsewhere: as a resigned one, it waits
    for Game → Review game, whether its end is a result in the file or seen by the rules."""
    path = tmp_path / "mate.pgn"
    reviewer.load_record(GameRecord("chess", new_game("chess").to_text(), list(SCHOLARS_MATE)))
    assert reviewer.save_to(path)
    started = starts_of(reviewer)
    assert reviewer.open_path(path)
    qtbot.waitUntil(lambda: reviewer.session.is_over, timeout=5_000)  # the game's end said
    assert started == [] and reviewer.reviews.review is None
    review(qtbot, reviewer)
    assert started == [len(SCHOLARS_MATE)]


def test_take_back_and_redo_or_resigning_keep_the_games_review(qtbot: Any, reviewer: Any) -> None:
    """Ctrl+Z then Ctrl+Y on a finished reviewed game, and a resignation right after Review
    game, end a game whose moves are all reviewed: nothing is searched again."""
    reviewed_mate(qtbot, reviewer)
    started = starts_of(reviewer)
    reviewer.actions_by_name["undo"].trigger()
    assert not reviewer.session.is_over and reviewer.game_view.moves.moves.marks() == {}
    reviewer.actions_by_name["redo"].trigger()
    qtbot.waitUntil(lambda: reviewer.session.is_over, timeout=5_000)
    assert started == [] and not reviewer.reviews.runner.is_running
    assert reviewer.game_view.moves.moves.marks()[6].symbol == "??"
    # a game going on: reviewed, then resigned
    reviewer.load_record(GameRecord("chess", new_game("chess").to_text(), list(HUNG_QUEEN)))
    result = review(qtbot, reviewer)
    reviewer.session.resign()
    assert reviewer.session.is_over
    assert started[-1:] == [len(HUNG_QUEEN)] and len(started) == 1  # Review game's own start only
    assert not reviewer.reviews.runner.is_running and reviewer.reviews.review == result


def test_review_game_on_a_reviewed_game_says_how_to_look_deeper(qtbot: Any, reviewer: Any) -> None:
    reviewed_mate(qtbot, reviewer)
    started = starts_of(reviewer)
    assert not reviewer.review_game()  # at the strength it was made at: it would say the same
    assert started == []
    words = reviewer.review_panel.message.text()
    assert "already reviewed at Standard" in words and "Deep" in words
    assert words in reviewer.statusBar().currentMessage()
    panel = reviewer.review_panel
    panel.level.setCurrentIndex(panel.level.findData(ReviewDepth.DEEP))
    with qtbot.waitSignal(reviewer.reviews.runner.finished, timeout=30_000) as finished:
        assert reviewer.review_game()  # a deeper one is asked for: reviewed again, whole
    assert started == [len(SCHOLARS_MATE)] and reviewer.reviews.runner.level_of(finished.args[0]) is ReviewDepth.DEEP


def test_a_game_that_went_on_after_its_review_has_only_its_new_moves_reviewed(qtbot: Any, reviewer: Any) -> None:
    """Reviewed after 4.Nf3, then played on: Review game searches the new moves only, and
    the review is the one a review of the whole game gives (each search depends on its
    request alone)."""
    moves = [*HUNG_QUEEN, "Nc6", "Nf3", "d6"]
    reviewer.load_record(GameRecord("chess", new_game("chess").to_text(), moves))
    reviewer.actions_by_name["undo"].trigger()  # back to White's (the human's) turn: d6 and Nf3 taken back
    assert reviewer.session.move_names() == moves[:6]
    first = review(qtbot, reviewer)
    reviewer.actions_by_name["redo"].trigger()
    assert reviewer.session.move_names() == moves
    progress: list[tuple[int, int]] = []
    reviewer.reviews.runner.started.connect(lambda _total: progress.append(reviewer.reviews.runner.progress()))
    extended = review(qtbot, reviewer)
    assert progress == [(6, 8)]  # "6 of 8 moves reviewed" from the start
    assert extended.moves[:6] == first.moves
    assert extended == review_game(GameRecord("chess", new_game("chess").to_text(), moves), tiny("chess", ReviewDepth.STANDARD))


def test_a_game_taken_back_and_played_otherwise_keeps_the_review_before_the_change(qtbot: Any, reviewer: Any) -> None:
    """Reviewed to 4...d6, taken back to 4.Nf3 and played 4.Bc4 instead: Review game searches
    that one move; taken back without a new move, the review of the moves left is shown at
    once, nothing searched."""
    moves = [*HUNG_QUEEN, "Nc6", "Nf3", "d6"]
    reviewer.load_record(GameRecord("chess", new_game("chess").to_text(), moves))
    first = review(qtbot, reviewer)
    reviewer.actions_by_name["undo"].trigger()  # d6 and Nf3 taken back: White (the human) to move
    assert reviewer.session.move_names() == moves[:6] and reviewer.game_view.moves.moves.marks() == {}
    started = starts_of(reviewer)
    assert not reviewer.review_game()  # the six moves left are reviewed: shown, not searched
    assert started == [] and reviewer.reviews.review is not None
    assert reviewer.reviews.review.moves == first.moves[:6]
    assert reviewer.game_view.moves.moves.marks()[4].symbol == "??"  # 2...Qh4??
    assert reviewer.session.play_text("Bc4") is None
    progress: list[tuple[int, int]] = []
    reviewer.reviews.runner.started.connect(lambda _total: progress.append(reviewer.reviews.runner.progress()))
    changed = review(qtbot, reviewer)
    assert progress == [(6, 7)]
    assert changed.moves[:6] == first.moves[:6]
    played = [*moves[:6], "Bc4"]
    assert changed == review_game(GameRecord("chess", new_game("chess").to_text(), played), tiny("chess", ReviewDepth.STANDARD))
