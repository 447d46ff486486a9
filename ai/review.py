"""The game review as a procedure: search requests out, a pure fold of the answers in.

For every decision of a game record (both sides; dice rolls are chance plies and are not
reviewed) the engine answers at one strength:

1. *the position* (``TaskKind.POSITION``): the best move there, its value and its line;
2. where the move played was another: *the best move* and *the move played*, each searched
   alone at the root (``SearchRequest.root_moves``) to the depth the first search completed
   (to the end, when that one ended by itself), without a transposition table
   (``TaskKind.BEST``, ``TaskKind.PLAYED``). Both values then come from the same horizon
   and nothing else: a table filled by deeper searches of neighbouring positions, or a
   search stopped inside an iteration, would mix depths, and in Othello one ply of depth
   moves the evaluation by several discs (measured: the start position at depth 9 and 10
   scores -1.28 and +4.06 discs), more than an inaccuracy. These are known only after the
   first answer: ``ReviewRun.pending`` hands them out then.

A move that was the only legal one, and a book move (the record's ``opening_plies``), are
searched for the eval graph but not judged. A decision the game answers from its own model
without search (backgammon's cube: double, take, pass; ``GameState.forced_answer``) is
judged from that model, 0-ply as the app decides it, by the value of the position after
each choice. The values become ``games.annotations`` reviews
through the game's ``ReviewScale``.

The requests are plain ``SearchRequest`` values, so the app sends them to its pool in any
order and shows progress (``ReviewRun``), and ``review_game`` runs the same thing in this
process (``run_alone``) for tests and the command line. Every search starts with an empty
table of ``TABLE_MEGABYTES``, so its answer depends on its request alone: the same game
reviewed again, here or in the app, gets the same review. Nothing here waits for
anything but the searches it runs itself.
"""

from __future__ import annotations

import collections
import dataclasses
import enum
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import games
from games.annotations import (
    GNUBG_CLOSE_CUBE,
    GameReview,
    Mark,
    MoveReview,
    ReviewScale,
    ReviewSettings,
    Value,
    make_move_review,
    review_scale,
)
from games.base import CHANCE, GameState
from games.clock import clock_owner
from games.records import DrawClaims, GameRecord, RecordError, play_recorded

from ai.engine import run_search
from ai.events import Finished, Score
from ai.levels import strongest_play
from ai.scores import WIN_SCORE
from ai.search.common import TT_KEY
from ai.settings import Limits, SearchRequest, SearchSettings
from ai.tt import TranspositionTable


class ReviewDepth(enum.Enum):
    """How hard the review looks, in the words the app offers."""

    QUICK = "quick"
    STANDARD = "standard"
    DEEP = "deep"


BUDGET_SHARES: dict[ReviewDepth, float] = {ReviewDepth.QUICK: 1 / 16, ReviewDepth.STANDARD: 1 / 4, ReviewDepth.DEEP: 1.0}
"""The share of the strongest level's node budget (``ai.levels.strongest_play``, what a hint
searches) each position gets. A node budget, not a time, so that a review says the same on
a busy machine as on an idle one. Measured on this machine under load (the compiled chess
search at 0.6M nodes/s instead of 1.6M idle): 1M nodes per position reviewed the first 20
plies of the Opera game in 58 s (the best and played searches 0.5-0.7M nodes each); chess
Standard is 1.5M."""
TABLE_MEGABYTES = 32
"""Every review search's table size, wherever it runs (the app's review pool, the command
line): the size changes what a node-limited search keeps, so the same size everywhere gives
the same review. A review's searches are short: 32 MB holds a Deep chess search's nodes."""
MIN_NODES = 2_000
"""No position is searched on fewer nodes (a backgammon 2-ply search needs about that)."""


@dataclass(frozen=True)
class ReviewStrength:
    """The settings and limits of every position search of a review."""

    settings: SearchSettings
    limits: Limits

    @classmethod
    def for_game(cls, game: str | type[GameState], depth: ReviewDepth = ReviewDepth.STANDARD) -> ReviewStrength:
        """The engine of the game's strongest level (``ai.levels.strongest_play``: the
        compiled search where the game has one, its exact solver's reach, backgammon's 2
        plies as GNU Backgammon analyses), with no opening book (a book move has no value to
        compare), one line, one thread and a ``TABLE_MEGABYTES`` table, on ``BUDGET_SHARES[depth]`` of that level's nodes."""
        name = game if isinstance(game, str) else game.NAME
        strongest = strongest_play(name)
        settings = dataclasses.replace(
            strongest.settings(), book=False, multipv=1, threads=1, tt_megabytes=TABLE_MEGABYTES
        )
        nodes = max(MIN_NODES, round(strongest.nodes * BUDGET_SHARES[depth])) if strongest.nodes else None
        return cls(settings, Limits(depth=strongest.depth, nodes=nodes))

    @classmethod
    def default_for(cls, game: str | type[GameState]) -> ReviewStrength:
        return cls.for_game(game, ReviewDepth.STANDARD)

    def review_settings(self) -> ReviewSettings:
        """What the review records about its strength."""
        return ReviewSettings(self.settings.algorithm, self.limits.depth, self.limits.nodes, self.limits.time)


class TaskKind(enum.Enum):
    POSITION = "position"
    """The position before the move: the best move, its value and its line."""
    BEST = "best"
    """The same position with the best move alone at the root, to the first search's depth."""
    PLAYED = "played"
    """The same position with the played move alone at the root, to the same depth."""


@dataclass(frozen=True)
class TaskKey:
    ply: int
    kind: TaskKind


@dataclass(frozen=True)
class ReviewTask:
    key: TaskKey
    request: SearchRequest


@dataclass(frozen=True)
class ModelDecision:
    """A decision the game answers from its own model, valued by it (the mover's view)."""

    played: Value
    best: Value
    best_move: str
    close: bool
    """Whether it counts in the error rate, as GNU Backgammon counts cube decisions
    (``analysis.c``, ``updateStatcontext``): a double, a take and a pass always; "no double"
    (the mover rolls on) only when close (``games.annotations.GNUBG_CLOSE_CUBE``) or wrong."""


@dataclass(frozen=True)
class PlyPlan:
    """One reviewed decision: who moved, what, and how it is judged."""

    ply: int
    mover: int
    move: str
    legal_count: int
    book: bool
    stake: float
    root: GameState | None = dataclasses.field(default=None, compare=False, repr=False)
    """The position before the move (never changed: it names the answers' moves)."""
    model: ModelDecision | None = None
    """A decision the game answers from its own model (backgammon's cube): nothing is
    searched for it."""
    played_move: Any = dataclasses.field(default=None, compare=False, repr=False)
    """The move played, as the game's move value (a file may name it otherwise than the
    game does: ``13/9 8/3`` or ``8/3 13/9``, the same play)."""

    def is_played(self, move: Any, name: str) -> bool:
        """Whether ``move`` (named ``name``) is the move played."""
        return name == self.move or (self.played_move is not None and move == self.played_move)


@dataclass(frozen=True)
class ReviewPlan:
    """A record cut into its decisions, with the strength of every search."""

    record: GameRecord
    strength: ReviewStrength
    plies: tuple[PlyPlan, ...]
    scale: ReviewScale

    def position_request(self, ply: int) -> SearchRequest:
        """The search of the position before the move at ``ply``."""
        return SearchRequest(
            game=self.record.game,
            position=self.record.start,
            moves=tuple(self.record.moves[:ply]),
            settings=self.strength.settings,
            limits=self.strength.limits,
            search_id=ply,
        )

    def move_request(self, ply: int, move: str, answer: Finished) -> SearchRequest:
        """``move`` alone at ``ply``'s root without a transposition table, searched as far as
        the position's search ``answer`` looked: to its depth (no node or time limit: a lone
        root move under a time limit ends after one iteration, and a node limit would cut the
        depth the comparison needs); or, when that search ended by itself before any limit
        (it saw the whole game: tic-tac-toe, a solved endgame, a table already full of exact
        values), to the end as well, within the strength's node budget."""
        request = self.position_request(ply)
        limits = self.strength.limits
        complete = not answer.stopped and limits.depth is None
        return dataclasses.replace(
            request,
            settings=dataclasses.replace(request.settings, transposition_table=False),
            limits=Limits(nodes=limits.nodes) if complete else Limits(depth=max(1, answer.depth)),
            root_moves=(move,),
        )

    @property
    def searched(self) -> tuple[PlyPlan, ...]:
        """The decisions whose position is searched: all but the game's model decisions (an
        only move is searched too, for its value on the eval graph)."""
        return tuple(ply for ply in self.plies if ply.model is None)


def plan_review(record: GameRecord, strength: ReviewStrength | None = None) -> ReviewPlan:
    """Cut ``record`` into its decisions (``RecordError`` when a move is not legal, as
    ``GameRecord.replay`` says)."""
    state_class = games.get_game(record.game)
    scale = review_scale(state_class)
    strength = strength or ReviewStrength.default_for(state_class)
    try:
        state = games.new_game(record.game, record.start)
    except ValueError as error:
        raise RecordError(f"start position: {error}") from None
    claims = isinstance(state, DrawClaims)
    plies: list[PlyPlan] = []
    for ply, name in enumerate(record.moves):
        mover = state.to_move()
        try:
            move = state.parse_move(name)
        except ValueError as error:
            raise RecordError(f"move {ply + 1} ({name!r}): {error}") from None
        if mover != CHANCE and not state.is_terminal():
            legal = state.legal_moves()
            model = _model_decision(state, move, mover)
            plies.append(
                PlyPlan(
                    ply, mover, name, len(legal), ply < record.opening_plies, float(state.stake()), state.copy(), model,
                    played_move=move,
                )
            )
        try:
            play_recorded(state, move, claims)
        except ValueError as error:
            raise RecordError(f"move {ply + 1} ({name!r}): {error}") from None
    return ReviewPlan(record, strength, tuple(plies), scale)


def _model_decision(state: GameState, played: Any, mover: int) -> ModelDecision | None:
    """The values of a decision the game answers from its own model (``forced_answer``),
    each choice read as the game's value of the position after it, or ``None``."""
    answer = state.forced_answer()
    legal = state.legal_moves()
    if answer is None or answer not in legal or len(legal) < 2:
        return None
    values = [_value_after(state, move, mover).score for move in legal]
    close = (max(values) - min(values)) / state.stake() < GNUBG_CLOSE_CUBE
    after = state.copy()
    after.play(played)
    keeps_turn = clock_owner(after) == mover  # "no double": the mover rolls on
    counted = played != answer or close or not keeps_turn
    return ModelDecision(_value_after(state, played, mover), _value_after(state, answer, mover), state.move_name(answer), counted)


def _value_after(state: GameState, move: Any, player: int) -> Value:
    """``player``'s value of the position after ``move``: its result if that ends the game,
    else the game's EVAL there (which at a cube decision is the value with both sides
    deciding right)."""
    child = state.copy()
    child.play(move)
    if child.is_terminal():
        utility = child.utility(player)
        if state.UTILITY_KIND == "win_loss":
            return Value(math.copysign(WIN_SCORE - 1, utility), 1 if utility > 0 else -1) if utility else Value(0.0)
        return Value(utility * state.EVAL_SCALE)
    return Value(child.evaluate(player))


def _value(score: Score, mover: int) -> Value:
    seen = score.for_player(mover)
    return Value(seen.value, seen.win_in_plies)


def fold(plan: ReviewPlan, answers: Mapping[TaskKey, Finished], known: Mapping[int, MoveReview] | None = None) -> GameReview:
    """The review of ``plan`` from the answers it has (a pure function: the same answers, the
    same review). A decision whose answers are missing or failed is left out; the best-move
    and played-move answers are used where the position's best move was not the one played.
    ``known`` (``known_moves``): decisions reviewed before, by ply, taken as they are."""
    record = plan.record
    known = known or {}
    moves: list[MoveReview] = []
    for ply in plan.plies:
        review = known.get(ply.ply) or _review_ply(plan, ply, answers)
        if review is not None:
            moves.append(review)
    return GameReview(record.game, plan.strength.review_settings(), tuple(moves), plan.scale)


def known_moves(plan: ReviewPlan, review: GameReview | None) -> dict[int, MoveReview]:
    """The decisions of ``plan`` that ``review`` judged already (by ply; the move at that
    ply the same, else it is searched again), to be taken as they are instead of searched
    again. ``review`` must be of the same game up to its last reviewed move (the same start
    and moves, dice rolls included, which a review does not name): the caller knows it
    (the app keeps each review with the moves it reviewed).

    Sound because every search depends on its request alone (the position, reached from the
    same start by the same moves, and the strength, searched from an empty table): a game
    reviewed, played on and reviewed again gets for its first moves what the first review
    got. So the review extended must have been made at ``plan``'s strength: ``ValueError``
    otherwise (a review at another strength is made again whole, never mixed)."""
    if review is None:
        return {}
    if review.game != plan.record.game or review.settings != plan.strength.review_settings():
        raise ValueError(f"a review made at {review.settings.describe()} is not extended at another strength")
    decisions = {ply.ply: ply.move for ply in plan.plies}
    return {move.ply: move for move in review.moves if decisions.get(move.ply) == move.move}


def unreviewed(plan: ReviewPlan, review: GameReview | None) -> tuple[int, ...]:
    """The plies of ``plan``'s decisions that ``review`` has no judgement of (its move at that
    ply the same), whatever the strength it was made at: none for a review of exactly the
    game's moves."""
    judged = {} if review is None else {move.ply: move.move for move in review.moves}
    return tuple(ply.ply for ply in plan.plies if judged.get(ply.ply) != ply.move)


def _review_ply(plan: ReviewPlan, ply: PlyPlan, answers: Mapping[TaskKey, Finished]) -> MoveReview | None:
    """One decision's review from its answers, ``None`` while they are missing or failed."""
    scale = plan.scale
    model = ply.model
    if model is not None:
        return make_move_review(
            scale, ply=ply.ply, mover=ply.mover, move=ply.move, stake=ply.stake, played=model.played,
            best=model.best, best_move=model.best_move, best_line=(model.best_move,), cube=True, counted=model.close,
        )
    answer = answers.get(TaskKey(ply.ply, TaskKind.POSITION))
    if answer is None or answer.error is not None or answer.best_move is None:
        return None
    if ply.legal_count <= 1:
        value = _value(answer.score, ply.mover)
        return make_move_review(
            scale, ply=ply.ply, mover=ply.mover, move=ply.move, stake=ply.stake,
            played=value, best=value, best_move=ply.move, best_line=(ply.move,), mark=Mark.ONLY_MOVE,
        )
    root = _root_state(plan, ply)
    best_name = root.move_name(answer.best_move)
    best_value = _value(answer.score, ply.mover)
    line = tuple(root.line_names(answer.pv)) if answer.pv else (best_name,)
    if ply.is_played(answer.best_move, best_name):
        played_value = best_value
        best_name, line = ply.move, (ply.move, *line[1:])
    else:
        best_answer = answers.get(TaskKey(ply.ply, TaskKind.BEST))
        played_answer = answers.get(TaskKey(ply.ply, TaskKind.PLAYED))
        if best_answer is None or played_answer is None or best_answer.error or played_answer.error:
            return None
        best_value = _value(best_answer.score, ply.mover)
        played_value = _value(played_answer.score, ply.mover)
        if scale.expected(played_value, ply.stake) >= scale.expected(best_value, ply.stake):
            # At the depth both were searched to, the move played is as good: it was a best move.
            best_value, best_name, line = played_value, ply.move, (ply.move,)
    return make_move_review(
        scale, ply=ply.ply, mover=ply.mover, move=ply.move, stake=ply.stake, played=played_value,
        best=best_value, best_move=best_name, best_line=line, mark=Mark.BOOK if ply.book else None,
    )


def _root_state(plan: ReviewPlan, ply: PlyPlan) -> GameState:
    """The position before ``ply``'s move (to name the answer's moves)."""
    if ply.root is not None:
        return ply.root
    record = plan.record
    state = games.new_game(record.game, record.start)
    claims = isinstance(state, DrawClaims)
    for name in record.moves[: ply.ply]:
        play_recorded(state, state.parse_move(name), claims)
    return state


class ReviewRun:
    """The answers of one review as they come: what to ask next, how far it is, the review.

    The app hands out ``pending()`` tasks in any order (one at a time, or to several
    workers), gives each answer to ``accept`` and reads ``progress``; the best-move and
    played-move tasks of a decision appear in ``pending()`` once its position's answer showed
    that the played move was not the best. ``result()`` folds what has arrived (``fold``).

    ``known``: a review of the game's first moves made at the plan's strength (a game that
    went on after its review): its decisions are kept (``known_moves``) and only the others
    are searched; ``ValueError`` for a review made at another strength."""

    def __init__(self, plan: ReviewPlan, known: GameReview | None = None) -> None:
        self.plan = plan
        self.known: dict[int, MoveReview] = known_moves(plan, known)
        self.answers: dict[TaskKey, Finished] = {}
        self._handed_out: set[TaskKey] = set()
        self._searched = tuple(ply for ply in plan.searched if ply.ply not in self.known)
        """The decisions searched by this run: the plan's, less those known."""
        self._to_ask: list[ReviewTask] = [
            ReviewTask(TaskKey(ply.ply, TaskKind.POSITION), plan.position_request(ply.ply)) for ply in self._searched
        ]
        self._played_needed = 0
        self._followed: set[int] = set()
        """The plies whose best and played moves are searched alone (the move played was not
        the position's best)."""
        self._by_ply = {ply.ply: ply for ply in plan.plies}

    def pending(self) -> list[ReviewTask]:
        """The tasks not handed out yet (each is handed out once)."""
        tasks = [task for task in self._to_ask if task.key not in self._handed_out]
        self._handed_out.update(task.key for task in tasks)
        self._to_ask = []
        return tasks

    def accept(self, key: TaskKey, answer: Finished) -> None:
        """The answer to ``key``'s request (a failed search is accepted: its move is left
        out of the review)."""
        if key in self.answers or key.ply not in self._by_ply or key.ply in self.known:
            return
        self.answers[key] = answer
        if key.kind is TaskKind.POSITION and answer.error is None and answer.best_move is not None:
            ply = self._by_ply[key.ply]
            root = _root_state(self.plan, ply)
            best = root.move_name(answer.best_move)
            if not ply.is_played(answer.best_move, best):
                for kind, move in ((TaskKind.BEST, best), (TaskKind.PLAYED, ply.move)):
                    task = TaskKey(key.ply, kind)
                    self._to_ask.append(ReviewTask(task, self.plan.move_request(key.ply, move, answer)))
                self._played_needed += 2
                self._followed.add(key.ply)

    @property
    def progress(self) -> tuple[int, int]:
        """(answers in, answers expected so far) of this run's searches: the total grows
        as best-move and played-move searches turn out to be needed."""
        return (len(self.answers), len(self._searched) + self._played_needed)

    @property
    def moves_reviewed(self) -> tuple[int, int]:
        """(moves whose answers are all in, moves searched): a move counts once its
        position's answer and, where the move played was not the best, both lone-move
        answers are in; a known move (``known``) counts from the start."""
        answers = self.answers

        def whole(ply: int) -> bool:
            if TaskKey(ply, TaskKind.POSITION) not in answers:
                return False
            return ply not in self._followed or all(TaskKey(ply, kind) in answers for kind in (TaskKind.BEST, TaskKind.PLAYED))

        searched = self.plan.searched
        return (sum(1 for ply in searched if ply.ply in self.known or whole(ply.ply)), len(searched))

    @property
    def is_complete(self) -> bool:
        done, total = self.progress
        return done >= total

    def result(self) -> GameReview:
        return fold(self.plan, self.answers, self.known)


def first_players_score(game: type[GameState], value: Value, mover: int) -> Score:
    """A review value (the mover's view) as the engine's score seen by player 0, as the move
    list, the eval bar and the review's ``(before → after)`` show values."""
    return Score(value.score, mover, value.win_in_plies, float(game.EVAL_SCALE)).for_player(0)


Runner = Callable[[SearchRequest], Finished]


def run_alone(request: SearchRequest) -> Finished:
    """``request`` searched here with a table of its own, freed after: a review's answer
    depends on its request alone. A node-limited search that starts with another search's
    table (this process's per game, ``ai.engine.shared_memory_for``) reaches another depth:
    measured, the scholar's mate reviewed twice at Standard marked 4.Qh5 an inaccuracy once
    and a good move the next time."""
    shared: dict[str, Any] = {}
    try:
        return run_search(request, shared=shared)
    finally:
        table = shared.get(TT_KEY)
        if isinstance(table, TranspositionTable):
            table.release()


def review_game(
    record: GameRecord,
    strength: ReviewStrength | None = None,
    run: Runner | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> GameReview:
    """The review of ``record`` with every search run here, one after another (``run``:
    ``run_alone``, each with an empty table, unless given), a move's lone-move searches right after its
    position's, as the app runs them, so that ``on_progress(moves reviewed, moves searched)``
    (``ReviewRun.moves_reviewed``, after each search) counts up steadily."""
    run = run_alone if run is None else run
    review = ReviewRun(plan_review(record, strength))
    tasks = collections.deque(review.pending())
    if on_progress is not None:
        on_progress(*review.moves_reviewed)
    while tasks:
        task = tasks.popleft()
        review.accept(task.key, run(task.request))
        tasks.extendleft(reversed(review.pending()))
        if on_progress is not None:
            on_progress(*review.moves_reviewed)
    return review.result()
