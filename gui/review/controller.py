"""``ReviewController``: the review of the game shown, from the runner to every place it
shows: the "Review" tab, the move list's marks and comments, the eval graph's dots, and the
board's better-move arrow for the move shown.

A review belongs to the moves it reviewed: it is shown while the game's moves begin with
them (a take-back hides it, a redo shows it again; moves played after a review of an
unfinished game are simply not marked), saved with the game, and kept in the autosave.

When: after a game with a human in it ends (the setting "Review games when they end"),
or on request (Game → Review game), for the game shown; never twice for the same moves at
one strength (a game that went on is reviewed for its new moves only). A review still running when a new
game starts goes on in the background, at the lowest priority; when it ends it is written
with its game to the data folder's ``reviews`` (the autosave holds the new game) and the
status bar says where.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from games import CHANCE
from ai.display import value_text
from ai.review import first_players_score, plan_review, unreviewed
from ai.events import Score
from games.annotations import GameReview, Mark, MoveReview, Value
from games.base import GameError, GameState
from games.records import GameRecord, RecordError, default_extension, write_game
from gui.panels.display import player_names
from gui.panels.eval_graph import EvalGraph
from gui.panels.move_list import CellMark
from gui.review.panel import BOTH_SIDES, ReviewPanel
from gui.review.runner import ReviewLevel, ReviewRunner, level_word
from gui.review.style import ERROR_MARKS, cell_marks, comment_text, graph_marks

LINE_SHOWN = 6
"""Moves of a better line shown (three of each side): past them an engine's line is more
noise than lesson."""
REVIEWS_FOLDER = "reviews"
"""Where a review that ended after its game was left is written, in the data folder."""
BACKGROUND_WORDS = (
    "The last game's review goes on in the background and will be kept in the data folder's "
    "reviews; Review game reviews this game first, then that one goes on."
)
WAITING_WORDS = "The last game's review goes on after this one."
LEVEL_ORDER = (ReviewLevel.QUICK, ReviewLevel.STANDARD, ReviewLevel.DEEP)
"""The strengths from the lightest to the deepest."""


class ReviewController(QObject):
    """Runs reviews for the window and shows the one of the game shown.

    ``review_changed()``: the review shown came or went (the window autosaves)."""

    review_changed = Signal()

    def __init__(
        self,
        *,
        game_view: Any,
        eval_graph: EvalGraph,
        panel: ReviewPanel,
        settings: Any,
        notify: Callable[[str], None],
        data_directory: Path,
        runner: ReviewRunner | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.game_view = game_view
        self.eval_graph = eval_graph
        self.panel = panel
        self.settings = settings
        self.notify = notify
        self.data_directory = data_directory
        self.runner = runner if runner is not None else ReviewRunner(parent=self)
        self.session: Any = None
        self.review: GameReview | None = None
        """The review of the game shown (also while it is hidden by a take-back)."""
        self._reviewed: tuple[str, ...] = ()
        """The moves ``review`` reviewed, by name."""
        self._review_session: Any = None
        """The session the review in ``_review_record`` is of."""
        self._review_record: GameRecord | None = None
        """The record of the last review started (the runner's signals speak of the review
        of ``runner.record``: this one, or one of a game left, going on in the background)."""
        self._shown = False
        self._better: dict[int, Any] = {}
        """The better move of each error, by the ply after it (a move value of the position before)."""
        self._details: dict[int, str] = {}
        """What the panel says of each reviewed move, by the ply after it."""
        self._cell_marks: dict[int, CellMark] = {}
        self._over_when_shown: tuple[str, ...] | None = None
        """The moves of the game shown when it was over as it came (a file, the autosave):
        its end, said again once it is shown (or after a take-back and redo), was not played
        here, so it is not reviewed by itself (Game → Review game reviews it)."""
        panel.set_level(self.level())
        panel.review_requested.connect(self.start)
        panel.cancel_requested.connect(self.cancel)
        panel.level_changed.connect(self._remember_level)
        panel.mistake_requested.connect(self.step_mistake)
        panel.side_changed.connect(lambda: notify(""))  # a word about the other side's mistakes is stale
        game_view.moves.moves.ply_selected.connect(self._show_ply)
        self.runner.started.connect(lambda _total: self._on_progress(*self.runner.progress()))
        self.runner.progressed.connect(self._on_progress)
        self.runner.finished.connect(self._on_finished)
        self.runner.failed.connect(self._on_failed)
        self.runner.notice.connect(notify)

    # ------------------------------------------------------------------ settings
    def level(self) -> ReviewLevel:
        """The strength last chosen (``Settings.review_level``)."""
        try:
            return ReviewLevel(self.settings.review_level)
        except ValueError:
            return ReviewLevel.STANDARD

    def _remember_level(self, level: ReviewLevel) -> None:
        self.settings.review_level = level.value

    # ------------------------------------------------------------------ games
    def attach(self, session: Any, review: GameReview | None = None) -> None:
        """A new game shown (with the review its file had, if any)."""
        if self.session is not None:
            try:
                self.session.state_changed.disconnect(self._update)
            except (RuntimeError, TypeError):
                pass
        self.session = session
        self.review = review
        self._reviewed = () if review is None else tuple(session.move_names())
        self._over_when_shown = tuple(session.move_names()) if session.is_over or session.state.is_terminal() else None
        self._shown = False
        names = player_names(session.game_class)
        humans = [player for player, side in enumerate(session.players) if not side.is_computer]
        self.panel.set_players(names, humans[0] if len(humans) == 1 else None)
        session.state_changed.connect(self._update)
        self._update(force=True)
        self.review_changed.emit()  # the window's curve and bar: this game's review, or none

    def show(self, review: GameReview) -> None:
        """Show ``review``, made elsewhere (``ai.review.review_game`` in a script), as the
        review of the game shown: its moves must be the game's first moves."""
        if self.session is None:
            return
        self.review = review
        self._reviewed = tuple(self.session.move_names()[: max((move.ply for move in review.moves), default=-1) + 1])
        self._shown = False
        self._update()
        self.review_changed.emit()

    def game_over(self) -> None:
        """The game shown ended: reviewed at once when the setting says so and a person
        played in it (two computers' games are watched, not studied), unless its review is
        there already (a redo of the last move, a resignation after Review game): then only
        the moves it lacks are reviewed, if any. A game that was over when it was opened
        ended elsewhere: reviewed on request only, as a resigned one always was."""
        session = self.session
        if session is None or not self.settings.review_after_game:
            return
        if all(side.is_computer for side in session.players) or not session.history:
            return
        if self._over_when_shown == tuple(session.move_names()):
            return
        self.start(automatic=True)

    def start(self, level: ReviewLevel | None = None, *, automatic: bool = False) -> bool:
        """Review the game shown (finished or not) at ``level`` (the one chosen); True when
        a review runs for it.

        A game keeps the review it has for exactly its moves: asked again at the strength
        it was made at, nothing is searched (a review depends on its requests alone, so it
        would say the same) and the panel says how to ask for a deeper one; a game that went
        on after its review has only its new moves reviewed (``ai.review.known_moves``), and
        one taken back and played otherwise keeps the review of the moves before the change.
        A review at another strength is made again whole. ``automatic`` (the game ended):
        the review shown is kept at whatever strength it was made, and extended at its own."""
        session = self.session
        if session is None:
            return False
        if not session.history:
            self.panel.show_message("There is no move to review yet.")
            return False
        chosen = self.panel.chosen_level() if level is None else level
        record = session.to_record()
        kept = self._kept_review(record.moves)
        made_at = None if kept is None else self.runner.level_of(kept)
        if automatic and made_at is not None:
            chosen = made_at
        running = self._review_record
        if self._runs_this_game() and running is not None and running.moves == record.moves and self.runner.level is chosen:
            return True  # this very review is running: it goes on
        known = None
        if kept is not None:
            try:
                missing = unreviewed(plan_review(record), kept)
            except (RecordError, ValueError):
                missing = ()  # the game does not replay: the runner says so below
            if not missing and (automatic or made_at is chosen):
                if kept is not self.review or not self._shown:  # taken back: these moves' review, shown now
                    self._adopt(kept, record.moves)
                elif not automatic:
                    self._say_reviewed(chosen)
                return False
            if made_at is chosen:
                known = kept
        # A review running for this game is replaced; one of a game left goes on after this one.
        other_game = self.runner.is_running and not self._runs_this_game()
        before = self._review_session, self._review_record
        self._review_session, self._review_record = session, record
        if self.runner.start(record, chosen, set_aside=other_game, known=known):
            return True
        self._review_session, self._review_record = before
        return False

    def _reviewed_still_played(self, moves: list[str]) -> int:
        """How many of the reviewed moves begin ``moves`` (a take-back and other moves keep
        the ones before the first move changed)."""
        same = 0
        while same < min(len(moves), len(self._reviewed)) and moves[same] == self._reviewed[same]:
            same += 1
        return same

    def _kept_review(self, moves: list[str]) -> GameReview | None:
        """The review of the game's moves ``moves`` as far as it still holds: the reviewed
        decisions before the first move that changed (all of them while the game's moves
        begin with the reviewed ones), ``None`` when none is left. Each was searched from the
        same position, so a new review keeps them (``ai.review.known_moves``)."""
        review = self.review
        if review is None:
            return None
        same = self._reviewed_still_played(moves)
        kept = tuple(move for move in review.moves if move.ply < same)
        if not kept:
            return None
        return review if len(kept) == len(review.moves) else dataclasses.replace(review, moves=kept)

    def _adopt(self, review: GameReview, moves: list[str]) -> None:
        """``review``, whole for the game's ``moves``, becomes the review shown."""
        self.review = review
        self._reviewed = tuple(moves)
        self._shown = False
        self._update()
        self.review_changed.emit()

    def _say_reviewed(self, level: ReviewLevel) -> None:
        """Asked to review a game reviewed at ``level`` already: how to look deeper."""
        deeper = [choice for choice in ReviewLevel if LEVEL_ORDER.index(choice) > LEVEL_ORDER.index(level)]
        text = f"This game is already reviewed at {level_word(level)} strength"
        if deeper:
            text += f": for a deeper review, choose {' or '.join(level_word(choice) for choice in deeper)} under Strength and press Review again."
        else:
            text += ", the deepest."
        self.panel.show_message(text)
        self.notify(text)

    def _runs_ours(self) -> bool:
        """Whether the runner is running the review last started here."""
        return self.runner.is_running and self._review_record is not None and self.runner.record is self._review_record

    def _runs_this_game(self) -> bool:
        """Whether the runner is running the review of the game shown."""
        return self._runs_ours() and self._review_session is self.session

    def cancel(self) -> None:
        """Cancel the review of the game shown (one of a game left goes on)."""
        if self._runs_this_game():
            self._review_session = self._review_record = None
            self.runner.cancel()
            self._update(force=True)  # an earlier review of the game, if any, stays
            if not self._shown:
                self.panel.clear("The review was cancelled.")

    def shutdown(self) -> None:
        self.runner.shutdown()

    def review_for_saving(self) -> GameReview | None:
        """The review to write with the game: the one shown, while its moves are the game's."""
        return self.review if self._shown else None

    def with_review_scores(self, scores: list[Score | None]) -> list[Score | None]:
        """``scores`` (the eval graph's and the eval bar's, by plies played) as a reviewed
        game shows them, player 0's view: every position after a reviewed move has the
        review's value of that move, whoever played it, as Lichess's graph of an analysed
        game has its engine's value everywhere. One source for the whole curve: the
        computer's own scores (its level's shallow search, or an endgame database's
        verdict) taken between the review's values flip from one to the other ply by ply.

        An only move keeps the value of the position before it (nothing was chosen; its own
        search stops at once and says little); a position the review did not value (after a
        dice roll) is left unscored, so the curve goes straight across it. Positions after
        the reviewed moves (a game that went on) keep their own scores."""
        if self.review is None or self.session is None:
            return scores
        same = self._reviewed_still_played(self.session.move_names())
        by_ply = {move.ply: move for move in self.review.moves}
        filled = list(scores)
        for ply in range(min(same, len(filled) - 1)):
            move = by_ply.get(ply)
            if move is None:
                filled[ply + 1] = None
            elif move.mark is Mark.ONLY_MOVE:
                filled[ply + 1] = filled[ply] if ply > 0 else None
            else:
                filled[ply + 1] = self._score(move.played, move.mover)
        return filled

    # ------------------------------------------------------------------ navigation
    def step_mistake(self, player: int = BOTH_SIDES, step: int = 1) -> bool:
        """Show the next (``step`` +1) or previous (-1) error of ``player`` (``BOTH_SIDES``:
        either) from the move shown. Past the last one it starts again from the first (and
        back from the first, at the last), as Lichess's "learn from your mistakes" goes
        round, saying so in the status bar, which every step updates (cleared after a plain
        step, so no word of an earlier step stays). False, with a word there, when the
        side has no error, or none but the one shown."""
        review = self.review
        if review is None or not self._shown:
            self.notify("No review to step through: Game → Review game")
            return False
        side = None if player == BOTH_SIDES else player
        whose = "" if side is None else f" of {player_names(self.session.game_class)[side]}"
        shown = self.game_view.moves.moves.shown_ply  # plies played in the position shown
        forward = step > 0
        found = review.next_error(shown - 1, side) if forward else review.previous_error(shown - 1, side)
        said = ""
        if found is None:  # round again from the other end
            found = review.next_error(-1, side) if forward else review.previous_error(len(self.session.history), side)
            said = (f"No later mistake{whose}: from the first move again" if forward
                    else f"No earlier mistake{whose}: from the last move again")
        if found is None:
            self.notify(f"No mistake{whose} in this game")
            return False
        if found.ply + 1 == shown:
            self.notify(f"No other mistake{whose}: this is the only one")
            return False
        self.game_view.moves.moves.show_ply(found.ply + 1)
        self.notify(said)
        return True

    # ------------------------------------------------------------------ runner
    def _on_progress(self, done: int, total: int) -> None:
        if self._runs_this_game():
            self._show_running((done, total))

    def _show_running(self, progress: tuple[int, int]) -> None:
        """This game's review at ``progress``, and that a game left waits for it."""
        self.panel.show_running(progress)
        if self.runner.waiting:
            self.panel.show_message(f"{self.panel.message.text()} {WAITING_WORDS}")

    def _on_finished(self, review: GameReview) -> None:
        record = self.runner.record
        session = None
        if record is not None and record is self._review_record:
            session, self._review_session, self._review_record = self._review_session, None, None
        if session is None or session is not self.session:
            self._store_elsewhere(record, review)
            self._update(force=True)  # the panel no longer speaks of a review in the background
            return
        self.review = review
        self._reviewed = tuple(record.moves) if record is not None else ()
        self._shown = False
        self._update()
        self.review_changed.emit()
        errors = sum(1 for move in review.moves if move.mark in ERROR_MARKS)
        self.notify(f"Review finished: {errors} move{'s' if errors != 1 else ''} marked")

    def _on_failed(self, message: str) -> None:
        session = None
        if self.runner.record is not None and self.runner.record is self._review_record:
            session, self._review_session, self._review_record = self._review_session, None, None
        if session is not None and session is self.session:
            self._update(force=True)
            if not self._shown:
                self.panel.clear(message)
        self.notify(message)

    def _store_elsewhere(self, record: GameRecord | None, review: GameReview) -> None:
        """A review that ended after its game was left: written with its game to
        ``reviews`` in the data folder (the autosave holds the game shown now)."""
        if record is None:
            return
        record.review = review
        stamp = datetime.datetime.now().strftime("%Y-%m-%d-%H%M%S")
        folder = self.data_directory / REVIEWS_FOLDER
        path = folder / f"{record.game}-{stamp}.{default_extension(record.game)}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(write_game(record), encoding="utf-8")
        except (OSError, RecordError) as error:
            self.notify(f"The last game's review could not be kept: {getattr(error, 'strerror', None) or error}")
            return
        self.notify(f"The last game's review is ready: Game → Open {path}")

    # ------------------------------------------------------------------ showing
    def _update(self, force: bool = False) -> None:
        """Show the review while the game's moves begin with the reviewed ones, else hide it
        (``force``: a new game, whose board and list show nothing of the last one's review)."""
        session = self.session
        if session is None:
            return
        review = self.review
        shown = review is not None and tuple(session.move_names()[: len(self._reviewed)]) == self._reviewed
        shown = shown and len(session.history) >= len(self._reviewed)
        if shown != self._shown or force:
            self._shown = shown
            if shown and review is not None:
                self._prepare(review)
            else:
                self._better, self._details, self._cell_marks = {}, {}, {}
            self._apply()
        self._show_ply(self.game_view.moves.moves.shown_ply)
        if self._runs_this_game():
            self._show_running(self.runner.progress())

    def _prepare(self, review: GameReview) -> None:
        """The better move, the comment and the panel's words for every reviewed move, named
        as the board names moves, from one replay of the game."""
        board = self.game_view.board
        session = self.session
        state: GameState = session.state_at(0)
        by_ply = {move.ply: move for move in review.moves}
        self._better, self._details = {}, {}
        comments: dict[int, str] = {}
        for ply, entry in enumerate(session.history[: len(self._reviewed)]):
            move = by_ply.get(ply)
            if move is not None and entry.mover != CHANCE:
                line = self._line(state, move)
                played_text = board.move_text(state, entry.move)
                word = review.scale.word(move.mark)
                comments[ply + 1] = comment_text(word, move, played_text, line)
                self._details[ply + 1] = self._detail(review, move, played_text, word, line)
                if move.mark in ERROR_MARKS and line:
                    self._better[ply + 1] = state.parse_move(move.best_move)
            state.play(entry.move)
        self._cell_marks = cell_marks(review, comments)

    def _line(self, state: GameState, move: MoveReview) -> list[str]:
        """The better line named by the board, its first ``LINE_SHOWN`` moves (empty when it
        does not replay here)."""
        try:
            values = []
            position = state.copy()
            for name in (move.best_line or (move.best_move,))[:LINE_SHOWN]:
                value = position.parse_move(name)
                values.append(value)
                position.play(value)
            return self.game_view.board.line_texts(state, values)
        except (GameError, ValueError):
            return []

    def _detail(self, review: GameReview, move: MoveReview, played: str, word: str, line: list[str]) -> str:
        """The panel's words on a move, Lichess's comment with the line: ``Qd3?? — Blunder
        (+0.80 → −4.90). Best was Bb5+: Bb5+ Bd7``; ``a5? — Mistake (−56.00 → −60.00, 4.0
        discs lost). Best was b4``."""
        game = self.session.game_class
        text = f"<b>{played}{move.mark.symbol}</b> — {word}"
        if move.mark.is_judged and move.loss > 0:
            before, after = (value_text(self._score(value, move.mover), game) for value in (move.best, move.played))
            lost = review.scale.loss_words(move.loss)
            text += f" ({before} → {after}{', ' + lost if lost else ''})"
        if line and line[0] != played:
            text += f". Best was <b>{line[0]}</b>" + (f": {' '.join(line)}" if len(line) > 1 else "")
        return text + "."

    def _score(self, value: Value, mover: int) -> Score:
        """A review value (the mover's view) as the engine's score seen by player 0, as the
        move list's evaluations and the eval bar are."""
        return first_players_score(self.session.game_class, value, mover)

    def _apply(self) -> None:
        """The marks in the move list and on the graph, and the panel's summary."""
        review = self.review if self._shown else None
        moves = self.game_view.moves.moves
        if review is None:
            moves.set_marks({})
            self.eval_graph.set_marks({})
            self.game_view.board.set_review_move(None)
            if not self._runs_this_game():
                self.panel.clear(BACKGROUND_WORDS if self.runner.is_running else "")
            return
        moves.set_marks(self._cell_marks)
        self.eval_graph.set_marks(graph_marks(review))
        self.panel.show_review(review, review.settings.describe())

    def _show_ply(self, ply: int) -> None:
        """The move shown (``ply`` plies played): its better move on the board, its words in
        the panel."""
        board = self.game_view.board
        if board is None:
            return
        board.set_review_move(self._better.get(ply) if self._shown else None)
        self.panel.set_detail(self._details.get(ply, "") if self._shown else "")
