"""``GameSession``: one game being played — the state, its history and who moves next.

Widgets render and emit intents; the session decides. A board's ``move_requested``, the
move box, the dice and the menu's undo/redo/resign all come here; the session checks the
move against the rules, plays it, records it, autosaves, and asks the engine (through the
``EngineBridge`` only: the GUI thread never searches) when a computer side is to move.

Turn flow (``_advance``, always from the event loop, never re-entrantly):

* game over by the rules -> ``game_over(result, reason)``;
* a dice roll (chance node) -> the app rolls with its own seeded generator, or, with
  manual dice, waits for the player to enter the roll (``play_text("3-1")``);
* a computer side -> a search; its ``Finished.best_move`` is played when it comes;
* a human side whose only legal move is a pass (Othello, backgammon's "no move") -> a
  visible notice, then the pass is played after ``FORCED_PASS_DELAY_MS``;
* otherwise wait for the human.

Undo takes back to the previous turn of a human (against the computer: your move and its
reply); redo replays what undo took back, without searching. With two computer sides the
game can be paused and stepped a move at a time.

A finished game is an ``Outcome``: its ``Result`` (PGN's markers ``1-0``, ``0-1``,
``1/2-1/2``) and the reason in words; a search is asked for a ``SearchPurpose``.
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from ai.display import one_line, value_text
from ai.scores import WIN_SCORE
from ai.events import Finished, Score
from ai.levels import (
    choose_move, level_choice, level_rng, limits_for_depth, noticed_moves, played_score, request_for_level,
    strongest_play,
)
from ai.settings import Limits, SearchRequest, SearchSettings
from ai.timing import clock_limits
from ai.tree.model import TreeOptions
from games import CHANCE, GameState, get_game, new_game
from games.base import GameError
from games.clock import MAX_CLOCK_SECONDS, Clock, ClockError, TimeControl, clock_owner, flag_result
from games.records import DrawClaims, RecordTags, play_recorded
from gui.gamefile import GameRecord
from gui.panels.display import capitalised, is_game_evaluation, match_odds, player_names
from gui.panels.display import score_text as shown_score_text
from gui.players import PlayerConfig, default_algorithm

FORCED_PASS_NAMES = frozenset({"pass", "no move"})
"""Move names of a forced pass: played for a human after a visible notice."""
FORCED_PASS_DELAY_MS = 1200
"""How long the notice of a forced pass shows before the pass is played."""
COMPUTER_MOVE_DELAY_MS = 0
"""Pause before the computer starts thinking against a human (0: at once)."""
WATCHING_DELAY_MS = 400
"""Pause before each move of a computer-against-computer game without a clock, so that people
can follow it. On a clock there is none: the mover's clock runs from the last move, and a
pause would spend its thinking time on nothing (at 1+0, 64 moves lose 26 s of 60)."""
HINT_LIMITS = Limits(time=1.0)
"""A hint is advice at full strength and at a glance: the game's strongest engine and
settings (its top level's, ``ai.levels.strongest_play``) for a second, whatever the level
of the side it plays against."""


class Result(StrEnum):
    """How a game stands, as PGN marks it: the text is what game files and the autosave
    hold (``games.records.RESULTS``), so a result compares equal to its marker."""

    FIRST_WINS = "1-0"
    SECOND_WINS = "0-1"
    DRAW = "1/2-1/2"
    UNFINISHED = "*"

    @classmethod
    def won_by(cls, winner: int | None) -> Result:
        """The result of a game ``winner`` (0 or 1) won, or a draw (``None``)."""
        if winner is None:
            return cls.DRAW
        return cls.FIRST_WINS if winner == 0 else cls.SECOND_WINS

    @property
    def winner(self) -> int | None:
        """The player who won (0 or 1); ``None`` for a draw or a game still going on."""
        return {Result.FIRST_WINS: 0, Result.SECOND_WINS: 1}.get(self)

    def text(self, player_names: tuple[str, str]) -> str:
        """``White wins``, ``Draw``, ``Game in progress``."""
        if self.winner is not None:
            return f"{player_names[self.winner]} wins"
        return "Draw" if self is Result.DRAW else "Game in progress"


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the result and why, in the words the rules (or the app) give."""

    result: Result
    reason: str
    """``checkmate``, ``Black resigned``, ``threefold repetition (claimed)``, a game's own
    sentence (``O bore off all checkers and wins a gammon: 2 points``), or empty."""

    def text(self, player_names: tuple[str, str]) -> str:
        """One line for the status bar: ``Black wins — checkmate``; a reason that already
        names the winner (backgammon's points) stands alone."""
        if names_the_winner(self.reason):
            return capitalised(self.reason)
        shown = self.result.text(player_names)
        return f"{shown} — {named(self.reason, player_names)}" if self.reason else shown


class SearchPurpose(Enum):
    """Why the session asked the engine for a search."""

    MOVE = "move"
    """The move of a computer side, played when the answer comes."""
    HINT = "hint"
    """Advice for the human to move: shown as an arrow, never played, never the game's
    evaluation; searched with ``HINT_LIMITS``."""


@dataclass(frozen=True)
class PlayedMove:
    """One entry of the game's history."""

    move: Any
    name: str
    mover: int
    """The player who moved, or ``CHANCE`` for a dice roll."""
    evaluation: str | None = None
    """The engine's score for the position after the move, first player's view, as text."""
    score: Score | None = None
    """The same score as a value (first player's view), for the eval graph."""
    past_claimable_draw: bool = False
    """Played from a claimable draw nobody claimed (a loaded game went on): the engine's
    replay of the game refuses such a move, so its requests start after it."""
    clock: float | None = None
    """In a game with clocks: the mover's time left after the move, increment included
    (PGN's ``%clk``); a loaded game's clocks are restored from these readings."""


MAX_FLAG_TIMER_MS = 24 * 3600 * 1000
"""The flag timer looks again at least once a day (a ``QTimer`` holds at most ~24.8 days)."""


@dataclass(frozen=True)
class ClockReadings:
    """What the clocks show now (``GameSession.clock_readings``)."""

    remaining: tuple[float, float]
    """Each player's time left, in seconds."""
    turn: int | None
    """Whose clock is on (the highlighted one); ``None`` once the game is over."""
    running: bool
    """Whether time is being charged now (not paused, not the untimed first moves)."""
    flagged: int | None
    """The player whose flag fell, if one did."""
    timed: bool
    """Whether moves cost time yet (each side's first move is untimed, Lichess's rule)."""
    base: float
    """The larger base time of the two (what "low on time" is measured against)."""
    delay: float = 0.0
    """Of the running turn's delay (a control with a delay), the seconds still to go."""


class GameSession(QObject):
    """One game: the state, the history, the sides and the engine requests."""

    state_changed = Signal()
    """Anything about the position, the history or the turn changed."""
    move_played = Signal(object)
    """A ``PlayedMove`` was added to the history (not for undo/redo)."""
    game_over = Signal(object)
    """The game's ``Outcome`` (the result and why: ``checkmate``, ...)."""
    thinking_changed = Signal(bool)
    clock_held = Signal(bool)
    """A modal window holds a human's clock (``hold_clock``), or let it go."""
    notice = Signal(str)
    """A short message for the status bar (passes, dice, resignation ...)."""
    engine_failed = Signal(str)
    """The engine could not answer; the game goes on (the side is paused)."""
    hint_found = Signal(object)
    """The engine's best move for the human to move (draw it as the best-move arrow)."""
    level_played = Signal(object)
    """A weak level's ``ai.levels.LevelChoice``: the move it is about to play beside its
    search's best (the engine panel says which it played and why), before ``move_played``."""

    def __init__(
        self,
        bridge: Any,
        game: str,
        players: tuple[PlayerConfig, PlayerConfig],
        *,
        start: str | None = None,
        seed: int | None = None,
        engine_settings: SearchSettings | None = None,
        manual_dice: bool = False,
        paused: bool | None = None,
        time_control: TimeControl | None = None,
        clock_now: Callable[[], float] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.game = game
        self.game_class: type[GameState] = get_game(game)
        self._bridge = bridge
        self._state = new_game(game, start)
        self.start_text = self._state.to_text()
        self.players: tuple[PlayerConfig, PlayerConfig] = (players[0].for_game(game), players[1].for_game(game))
        self.engine_settings = engine_settings or SearchSettings()
        self.manual_dice = manual_dice
        self.tags = RecordTags()
        """The game's own tags when it came from a file or a paste (``to_record`` keeps them);
        a game begun in the app has none: its players are the sides' descriptions."""
        self.history: list[PlayedMove] = []
        self._redo: list[list[PlayedMove]] = []
        self._rng = random.Random(seed)
        self._weakness = (level_rng(seed, 1, 0), level_rng(seed, 1, 1))
        """Each side's generator of its level's mistakes (``ai.levels.choose_move``)."""
        self.outcome: Outcome | None = None
        """How the game ended; ``None`` while it goes on."""
        self._search_id: int | None = None
        self._search_purpose: SearchPurpose | None = None
        self._thinking = False
        both_computers = all(side.is_computer for side in self.players)
        self.paused = both_computers if paused is None else paused
        """With two computer sides the game starts paused: press play or step."""
        self._turn_token = 0
        """Bumped by every change of position: a delayed action of an older turn is dropped."""
        self._closed = False
        self._claim_open = False
        """A loaded game stopped at a claimable draw: it is offered, not forced (``claimable_draw``)."""
        self._hint: tuple[int, Score] | None = None
        """The last hint's score and the ``_turn_token`` of the position it was found in."""
        self._level_looked_at = 0
        """How many moves the last level search was given (0: every legal move)."""
        self.clock: Clock | None = None if time_control is None else Clock(time_control)
        """Both players' clocks (``None``: the game is played without a clock)."""
        self._clock_now = clock_now or time.monotonic
        """The time for the clock (tests pass their own, so nothing ever sleeps)."""
        self._clock_held = False
        """A modal window keeps the players from the board (``hold_clock``)."""
        self._flag_timer = QTimer(self)
        self._flag_timer.setSingleShot(True)
        self._flag_timer.setTimerType(Qt.TimerType.PreciseTimer)  # a coarse timer may be 5% late: 3 s at 60 s
        self._flag_timer.timeout.connect(self.check_flag)
        self._sync_clock()
        bridge.search_finished.connect(self._on_search_finished)
        bridge.search_failed.connect(self._on_search_failed)
        self._schedule_advance()

    # ------------------------------------------------------------------ queries
    @property
    def state(self) -> GameState:
        """The current position. Do not change it: play moves through the session."""
        return self._state

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def result(self) -> Result:
        """The game's result: ``Result.UNFINISHED`` while it goes on."""
        return Result.UNFINISHED if self.outcome is None else self.outcome.result

    @property
    def reason(self) -> str:
        """Why the game ended (``checkmate``); empty while it goes on."""
        return "" if self.outcome is None else self.outcome.reason

    @property
    def is_thinking(self) -> bool:
        return self._thinking

    @property
    def record_tree(self) -> TreeOptions | None:
        """How the engine's searches record their tree (``None``: they record none): the
        bridge's switch (``EngineBridge.record_tree``), which outlives the game; the tree
        panel turns it on while it is shown. Every search the session asks for (a
        computer's move, a hint) follows it from its next start."""
        return self._bridge.record_tree

    @record_tree.setter
    def record_tree(self, options: TreeOptions | None) -> None:
        self._bridge.record_tree = options

    def is_finding_hint(self) -> bool:
        """The engine searches a hint for the human to move (not the computer's own move)."""
        return self._thinking and self._search_purpose is SearchPurpose.HINT

    def adviser_algorithm(self) -> str:
        """The algorithm that advises the human (a hint, "why not?"): the computer side's,
        else the game's own choice (Star2 for backgammon: a search without chance nodes
        cannot play dice)."""
        adviser = next((other for other in self.players if other.is_computer), None)
        return adviser.algorithm if adviser else default_algorithm(self.game)

    def hint_score(self) -> Score | None:
        """The score of the last hint while its position is still the current one (the eval
        bar keeps showing it instead of going back to the last move's score)."""
        if self._hint is None or self._hint[0] != self._turn_token:
            return None
        return self._hint[1]

    def side_to_move(self) -> PlayerConfig | None:
        mover = self._state.to_move()
        return None if mover == CHANCE else self.players[mover]

    def is_computer_turn(self) -> bool:
        side = self.side_to_move()
        return side is not None and side.is_computer

    def waits_for_dice(self) -> bool:
        """Manual dice: the player must enter the roll now."""
        return not self.is_over and self.manual_dice and self._state.to_move() == CHANCE

    def can_human_move(self) -> bool:
        """Whether a move from the board or the move box is accepted now: a human's turn,
        or a computer's turn while the game is paused (you may move for it). Never while a
        game on a clock is paused: its clocks stand, and a move made then would be thought
        for free and still earn its increment."""
        if self.is_over or self._closed or self._is_over_by_rules():
            return False
        if self.paused and self.clock is not None:
            return False
        if self._thinking and not self.is_finding_hint():  # a hint never blocks the human
            return False
        mover = self._state.to_move()
        if mover == CHANCE:
            return self.manual_dice
        return not self.players[mover].is_computer or self.paused

    def can_undo(self) -> bool:
        """A move to take back, and no flag fallen: a game lost on time stays lost (taking
        back could only give the time back, which no take-back does: ``undo``)."""
        flagged = self.clock is not None and self.clock.flagged is not None
        return bool(self.history) and not self._closed and not flagged

    def can_redo(self) -> bool:
        return bool(self._redo) and not self._closed

    def move_names(self) -> list[str]:
        return [entry.name for entry in self.history]

    def state_at(self, ply: int) -> GameState:
        """The position after the first ``ply`` moves (0: the start)."""
        state = new_game(self.game, self.start_text)
        for entry in self.history[:ply]:
            state.play(entry.move)
        return state

    def stakes(self) -> list[float]:
        """``GameState.stake`` of every position of the game (index = plies played), for
        the eval bar and graph; one replay, and none in a game whose stake never changes."""
        if self.game_class.stake is GameState.stake:
            return [1.0] * (len(self.history) + 1)
        state = new_game(self.game, self.start_text)
        stakes = [state.stake()]
        for entry in self.history:
            state.play(entry.move)
            stakes.append(state.stake())
        return stakes

    def last_move(self) -> Any:
        for entry in reversed(self.history):
            if entry.mover != CHANCE:
                return entry.move
        return None

    def to_record(self) -> GameRecord:
        """The game as a document: with its file's own tags when it came from one."""
        sides = (self.players[0].describe(), self.players[1].describe())
        return GameRecord(
            game=self.game,
            start=self.start_text,
            moves=self.move_names(),
            evaluations=[entry.evaluation for entry in self.history],
            players=self.tags.players if self.tags.has_players() else sides,
            result=self.result,
            reason=self.reason,
            date=self.tags.date,
            round=self.tags.round,
            time_control=self.time_control,
            clocks=[entry.clock for entry in self.history] if self.clock is not None else [],
            event=self.tags.event,
            site=self.tags.site,
            other_tags=self.tags.other,
        )

    def status_text(self) -> str:
        """One line for the status bar: whose turn, or the result."""
        names = player_names(self.game_class)
        if self.outcome is not None:
            return self.outcome.text(names)
        mover = self._state.to_move()
        if mover == CHANCE:
            return "Enter the dice roll (e.g. 3-1)" if self.manual_dice else "Rolling the dice"
        side = self.players[mover]
        if self.is_finding_hint():  # the human is not the one thinking
            return f"The engine is looking for a hint for {names[mover]}…"
        if self._thinking:
            return f"{names[mover]} is thinking… ({side.strength_text()})"
        if side.is_computer and self.paused:
            return f"{names[mover]} to move (computer, paused: press Space to step)"
        if self.clock is not None and self.paused and self.clock.flagged is None:
            return f"{names[mover]} to move — the clocks are paused: press P to start them"
        claim = self.claimable_draw()
        if claim:  # the offer stays in sight while it stands
            return f"{names[mover]} to move — {claim}: a draw may be claimed, or play on"
        return f"{names[mover]} to move"

    # ------------------------------------------------------------------ commands
    def play_move(self, move: Any) -> bool:
        """A move from the board (a legal move value). False (and a notice) if refused."""
        if not self.can_human_move():
            self.notice.emit(capitalised(self._refusal()))
            return False
        if move not in self._legal_now():
            self.notice.emit("That move is not legal here")
            return False
        self._stop_hint()
        self._apply(move)
        return True

    def play_text(self, text: str) -> str | None:
        """A move typed in the game's notation; returns the error message or ``None``."""
        if not self.can_human_move():
            return self._refusal()
        typed = text.strip()
        try:
            move = self._state.parse_move(typed)
            if move not in self._legal_now():
                self._state.copy().play_checked(move)  # raises with the rules' reason
                return one_line(f"{typed} is not legal here", [typed])
        except GameError as error:
            return one_line(str(error), [typed])  # what was typed is quoted, cut to a line
        self._stop_hint()
        self._apply(move)
        return None

    def _refusal(self) -> str:
        """Why no move is accepted now (``can_human_move`` is False)."""
        if self.paused and self.clock is not None and not self.is_over:
            return "the game is paused: press P to start the clocks and play on"
        return "the engine is thinking: wait or press Space" if self._thinking else "no move can be made now"

    def undo(self) -> None:
        """Take back to the previous turn of a human (both moves against the computer).

        On a clock, a take-back (and a redo) never gives time back: the clocks go on from
        what they read now, the player to move in the position on the board on the clock.
        Restoring the clocks of that position would let a player think, take back and play
        the same moves again with the time refunded."""
        if not self.can_undo():
            return
        self._cancel_search()
        group: list[PlayedMove] = []
        humans = [player for player in (0, 1) if not self.players[player].is_computer]
        while self.history:
            group.append(self._pop())
            mover = self._state.to_move()
            if not humans:  # computer against computer: one move back, then paused
                if group[-1].mover != CHANCE:
                    break
            elif mover in humans and group[-1].mover != CHANCE:
                break
        if not humans:
            self.paused = True
        self._redo.append(list(reversed(group)))
        self._reopen()
        # Back at a claimable draw means back where the game went on from one: offer it again.
        self._claim_open = isinstance(self._state, DrawClaims) and self._state.claimable_draw() != ""
        self._changed()
        self._schedule_advance()

    def redo(self) -> None:
        """Replay what the last undo took back (no search)."""
        if not self.can_redo():
            return
        self._cancel_search()
        group = self._redo.pop()
        clock, now = self.clock, self._clock_now()
        for entry in group:
            self._state.play(entry.move)
            if clock is not None and entry.mover in (0, 1):
                # the mover's time now (``undo``: a redo gives no time back), so that the
                # readings of the game (%clk, looking back) never run backwards
                entry = dataclasses.replace(entry, clock=clock.remaining(entry.mover, now))
            self.history.append(entry)
        self._changed()
        self._schedule_advance()

    def resign(self) -> None:
        """The side to move resigns (or, with two humans or at a dice roll, the human
        whose turn it is not a computer's)."""
        if self.is_over:
            return
        self._cancel_search()
        loser = self.resigner()
        names = player_names(self.game_class)
        self._finish(Result.won_by(1 - loser), f"{names[loser]} resigned")

    def resigner(self) -> int:
        """The player ``resign`` resigns for: the side to move if a human plays it, else the
        human side (the first player's when both or neither are)."""
        mover = self._state.to_move()
        humans = [player for player in (0, 1) if not self.players[player].is_computer]
        return mover if mover in humans else (humans[0] if humans else (mover if mover != CHANCE else 0))

    def set_paused(self, paused: bool) -> None:
        if paused == self.paused:
            return
        self.paused = paused
        if paused and self._search_purpose is SearchPurpose.MOVE:
            self._cancel_search()
        self._changed()
        self._schedule_advance()

    def hold_clock(self, held: bool) -> None:
        """While ``held``, a human's clock stands: a modal window (New game, Open, a
        question) keeps them from the board, so the time it is open is not theirs to lose.
        A computer's clock runs on, as its search does."""
        if held != self._clock_held:
            self._clock_held = held
            self._sync_clock()
            self.clock_held.emit(held)

    def step(self) -> None:
        """Let the computer make one move now (also when paused)."""
        if self.is_over or self._thinking:
            return
        if self.is_computer_turn():
            self._start_search(SearchPurpose.MOVE)
        elif self._state.to_move() == CHANCE and not self.manual_dice:
            self._roll()

    def move_now(self) -> None:
        """Tell the thinking engine to play its best move so far."""
        if self._thinking:
            self._bridge.move_now()

    def think_or_stop(self) -> None:
        """Space: stop the thinking engine (it plays now), step a paused computer, or
        show a hint on a human's turn."""
        if self._thinking:
            self.move_now()
        elif self.is_computer_turn():
            self.step()
        else:
            self.request_hint()

    def request_hint(self) -> None:
        """Ask the engine for the best move of the human to move (``hint_found``)."""
        if self.is_over or self._thinking or self._state.to_move() == CHANCE:
            return
        if self.claimable_draw():  # the engine sees a finished game here
            self.notice.emit("No hint at a claimable draw: claim it or play on")
            return
        self._start_search(SearchPurpose.HINT)

    def roll_dice(self, roll: Any | None = None) -> None:
        """Manual dice: play ``roll`` (an outcome of ``chance_outcomes``)."""
        if self._state.to_move() != CHANCE or self.is_over:
            return
        if roll is None:
            self._roll()
        elif roll in [outcome for outcome, _ in self._state.chance_outcomes()]:
            self._apply(roll)

    def close(self) -> None:
        """Stop any search and detach from the bridge (a new game replaces this one)."""
        if self._closed:
            return
        self._cancel_search()
        self._closed = True
        self._sync_clock()
        self._turn_token += 1
        try:
            self._bridge.search_finished.disconnect(self._on_search_finished)
            self._bridge.search_failed.disconnect(self._on_search_failed)
        except (RuntimeError, TypeError):
            pass

    def load_history(self, names: Sequence[str], evaluations: Sequence[str | None] = (), clocks: Sequence[float | None] = ()) -> None:
        """Play ``names`` from the start (a loaded game); ``GameError`` if one is illegal.

        A game that went on past a claimable draw nobody claimed (threefold repetition, the
        fifty-move rule) is followed, as the PGN reader and UCI do (``play_recorded``); if
        it stops at such a draw, the draw is offered, not forced (``claimable_draw``).
        Saved evaluations become the moves' scores, so the eval bar and graph show them;
        saved clock readings (``%clk``) set the clocks, which wait paused for the player."""
        claims = isinstance(self._state, DrawClaims)
        for index, name in enumerate(names):
            mover = self._state.to_move()
            move = self._state.parse_move(name)
            canonical = self._state.move_name(move)
            went_on = play_recorded(self._state, move, claims)
            evaluation = evaluations[index] if index < len(evaluations) else None
            score = None if evaluation is None else score_from_text(evaluation, self.game_class, self._state.to_move())
            reading = clocks[index] if index < len(clocks) and mover != CHANCE else None
            self.history.append(PlayedMove(move, canonical, mover, evaluation, score, went_on, reading))
        self._claim_open = isinstance(self._state, DrawClaims) and bool(names) and self._state.claimable_draw() != ""
        if self.clock is not None and names:
            self.paused = True  # the time between saving and loading is nobody's
            self._restore_clock()
        self._changed()
        self._schedule_advance()

    def claimable_draw(self) -> str:
        """The draw that may be claimed now instead of being forced (``threefold
        repetition``, ``fifty-move rule``): only where a loaded game stopped at one nobody
        claimed (in play, the app ends the game at such a draw at once); else ""."""
        if not self._claim_open or self.is_over or not isinstance(self._state, DrawClaims):
            return ""
        return self._state.claimable_draw()

    def claim_draw(self) -> bool:
        """End the game as a draw by the claimable draw reached (``claimable_draw``)."""
        reason = self.claimable_draw()
        if not reason:
            return False
        self._cancel_search()
        self._claim_open = False
        self._finish(Result.DRAW, f"{reason} (claimed)")
        return True

    def finish_from_record(self, result: str, reason: str) -> None:
        """A loaded game that ended by resignation (or any result the rules do not show):
        ``result`` is the record's marker (``games.records.RESULTS``)."""
        if Result(result) is not Result.UNFINISHED and not self._state.is_terminal():
            self._finish(Result(result), reason or "result from the file")
            self._show_flag_from_record(reason)

    # ------------------------------------------------------------------ clocks
    @property
    def time_control(self) -> TimeControl | None:
        """The game's time control; ``None`` when it is played without a clock."""
        return None if self.clock is None else self.clock.control

    def clock_readings(self) -> ClockReadings | None:
        """What the clocks show now (``None`` without a clock): only reads the clock."""
        clock = self.clock
        if clock is None:
            return None
        now = self._clock_now()
        return ClockReadings(
            remaining=(clock.remaining(0, now), clock.remaining(1, now)),
            turn=None if self.is_over else clock.turn,
            running=clock.is_running,
            flagged=clock.flagged,
            timed=clock.is_timed,
            base=max(clock.control.base),
            delay=clock.delay_left(now),
        )

    def check_flag(self) -> bool:
        """Whether the player to move has run out of time; if so the game ends at once
        (the engine stopped) with ``games.clock.flag_result``'s result: a loss, or in chess
        a draw when the opponent cannot mate. The flag timer calls it when the running
        clock should reach zero; a move is checked with it before it is played (a move
        made after the flag fell does not count)."""
        clock = self.clock
        if clock is None or self.is_over or self._closed:
            return False
        flagged = clock.flagged_player(self._clock_now())
        if flagged is None:
            self._arm_flag_timer()
            return False
        self._cancel_search()
        fall = flag_result(self._state, flagged)
        self._finish(Result.won_by(fall.winner), fall.reason)
        return True

    def clock_state(self) -> dict[str, Any] | None:
        """The clocks now as a JSON document (``games.clock.Clock.to_json``) for the
        autosave: it keeps the time already used in the turn going on."""
        return None if self.clock is None else self.clock.to_json(self._clock_now())

    def restore_clock_state(self, document: object) -> str:
        """Put the clocks where an autosave left them, paused (the time the app was closed
        is nobody's). Returns "" when used, else why not (the clocks then read as the
        game's moves say)."""
        if self.clock is None:
            return "the game has no clock"
        try:
            clock = Clock.from_json(document)
        except ClockError as error:
            return str(error)
        if clock.control != self.clock.control:
            return "its time control is not the game's"
        mover = self._state.to_move()
        if clock.flagged is not None or clock.turn is None or (mover != CHANCE and clock.turn != mover):
            return "it is not this position's turn"
        self.clock = clock
        self.paused = True
        self._changed()
        return ""

    def _show_flag_from_record(self, reason: str) -> None:
        """A loaded game that ended on time (``flag_result``'s words: "White ran out of
        time") shows the flagged side's clock at zero, fallen, as when the game ended: the
        file's last reading of that side is from its last move, before the flag fell."""
        if self.clock is None:
            return
        names = self.game_class.PLAYER_NAMES
        flagged = next((player for player in (0, 1) if reason.startswith(f"{names[player]} ran out of time")), None)
        if flagged is None:
            return
        document = self.clock.to_json(self._clock_now())
        document["remaining"][flagged] = 0.0
        document.update(turn=flagged, flagged=flagged)
        self.clock = Clock.from_json(document)
        self.state_changed.emit()

    def _within_clock(self, request: SearchRequest, player: int) -> SearchRequest:
        """A computer's move on the clock: its time from what its clock has left, as a UCI
        engine shares out ``wtime``/``winc`` (``ai.timing.clock_limits``), within its
        level's own limits (their depth and node budget kept, their time when shorter)."""
        if self.clock is None:
            return request
        remaining = self.clock.remaining(player, self._clock_now())
        limits = clock_limits(self._state, remaining, self.clock.control.increment[player], request.limits)
        return dataclasses.replace(request, limits=limits)

    def _pass_the_turn(self, mover: int, forced: bool) -> float | None:
        """``mover`` has just moved: the clock is pressed when the turn passes to the other
        player (``Clock.turn_to`` with ``clock_owner`` of the new position; backgammon's
        "roll" is not the end of a turn, its checker play is). Returns the mover's reading
        after the press (PGN's ``%clk``), or ``None`` (no clock, or the turn goes on). A
        forced pass costs no time."""
        clock = self.clock
        if clock is None or clock.turn is None:
            return None
        owner = clock_owner(self._state)
        try:
            return clock.turn_to(1 - mover if owner is None else owner, self._clock_now(), forced)
        except ClockError:  # a fallen flag: check_flag came first, so never
            return None

    def _sync_clock(self) -> None:
        """The clocks follow the game: the player to move's clock is on (through a dice
        roll the next mover's stays on), and time runs only while the game goes on,
        unpaused; the flag timer is set to when the running clock reaches zero."""
        clock = self.clock
        if clock is None:
            return
        now = self._clock_now()
        mover = self._state.to_move()
        if mover != CHANCE and clock.turn != mover and clock.flagged is None:
            clock.start(mover, now)
        stopped = self._closed or self.is_over or self.paused or clock.turn is None or self._is_over_by_rules()
        stopped = stopped or self._clock_held and clock.turn is not None and not self.players[clock.turn].is_computer
        if stopped and not clock.is_paused:
            clock.pause(now)
        elif not stopped and clock.is_paused:
            clock.resume(now)
        self._arm_flag_timer()

    def _arm_flag_timer(self) -> None:
        seconds = None if self.clock is None or self._closed else self.clock.seconds_to_flag(self._clock_now())
        if seconds is None:
            self._flag_timer.stop()
            return
        self._flag_timer.start(min(MAX_FLAG_TIMER_MS, int(seconds * 1000) + 1))

    def clock_readings_at(self, ply: int) -> ClockReadings | None:
        """What the clocks read when the position after the first ``ply`` moves arose
        (looking back through the game, as Lichess shows each move's ``%clk``): standing,
        none running; ``None`` without a clock."""
        if self.clock is None:
            return None
        remaining, turns, turn = self._clocks_after(max(0, min(ply, len(self.history))))
        return ClockReadings(
            remaining=(remaining[0], remaining[1]),
            turn=turn,
            running=False,
            flagged=None,
            timed=min(turns) >= 1,
            base=max(self.clock.control.base),
        )

    def _clocks_after(self, ply: int) -> tuple[list[float], list[int], int | None]:
        """Each player's reading after their last turn within the first ``ply`` moves (the
        base time before their first), the turns each finished, and whose clock is on."""
        assert self.clock is not None
        remaining = list(self.clock.control.base)
        turns = [0, 0]
        state = new_game(self.game, self.start_text)
        for entry in self.history[:ply]:
            state.play(entry.move)
            if entry.mover in (0, 1) and clock_owner(state) != entry.mover:  # the turn passed
                turns[entry.mover] += 1
                remaining[entry.mover] = clock_reading(entry.clock, remaining[entry.mover])
        owner = clock_owner(state)
        last = next((entry.mover for entry in reversed(self.history[:ply]) if entry.mover in (0, 1)), None)
        return remaining, turns, owner if owner is not None else (None if last is None else 1 - last)

    def _restore_clock(self) -> None:
        """The clocks as they read when the position on the board arose (a loaded game):
        ``_clocks_after`` the whole history, the turns counted so the untimed first moves
        stay untimed. Paused until ``_sync_clock`` lets them run."""
        if self.clock is None:
            return
        remaining, turns, turn = self._clocks_after(len(self.history))
        self.clock = Clock.from_json(
            {"control": self.clock.control.to_json(), "remaining": remaining, "turn": turn, "moves": turns, "flagged": None}
        )

    # ------------------------------------------------------------------ internals
    def _is_over_by_rules(self) -> bool:
        """The rules end the game here (a draw offered for a claim does not)."""
        return self._state.is_terminal() and not self.claimable_draw()

    def _legal_now(self) -> list[Any]:
        if self._state.to_move() == CHANCE:
            return [outcome for outcome, _ in self._state.chance_outcomes()]
        if self.claimable_draw():
            assert isinstance(self._state, DrawClaims)
            return self._state.all_legal_moves()
        return self._state.legal_moves()

    def _apply(self, move: Any, evaluation: str | None = None, score: Score | None = None) -> None:
        mover = self._state.to_move()
        name = self._state.move_name(move)
        if mover != CHANCE and self.check_flag():  # the move came after the flag fell
            return
        forced = mover != CHANCE and name in FORCED_PASS_NAMES and len(self._state.legal_moves()) == 1
        went_on = self.claimable_draw() != ""
        self._claim_open = False  # playing on declines the claim
        self._state.play(move)
        reading = self._pass_the_turn(mover, forced) if mover != CHANCE else None
        entry = PlayedMove(move, name, mover, evaluation, score, went_on, reading)
        self.history.append(entry)
        self._redo.clear()
        if name in FORCED_PASS_NAMES and mover != CHANCE:
            self.notice.emit(f"{player_names(self.game_class)[mover]} has no legal move and passes")
        self.move_played.emit(entry)
        self._changed()
        self._schedule_advance()

    def _pop(self) -> PlayedMove:
        entry = self.history.pop()
        self._state.undo()
        return entry

    def _reopen(self) -> None:
        self.outcome = None

    def _changed(self) -> None:
        self._turn_token += 1
        self._sync_clock()
        self.state_changed.emit()

    def _schedule_advance(self, delay_ms: int = 0) -> None:
        token = self._turn_token
        QTimer.singleShot(delay_ms, self, lambda: self._advance(token))

    def _advance(self, token: int) -> None:
        if token != self._turn_token or self._closed or self.is_over or self._thinking:
            return
        state = self._state
        if state.is_terminal():
            if not self.claimable_draw():
                self._finish_by_rules()
                return
            if self.is_computer_turn() and not self.paused:  # a computer claims the draw offered
                self.claim_draw()
                return
        mover = state.to_move()
        if mover == CHANCE:
            if self.manual_dice:
                self.notice.emit("Enter the dice roll in the move box (e.g. 3-1)")
            else:
                self._roll()
            return
        side = self.players[mover]
        if side.is_computer:
            if not self.paused and not self._redo:
                QTimer.singleShot(self.move_delay_ms(), self, lambda: self._start_move_search(token))
            return
        moves = state.legal_moves()
        if len(moves) == 1 and state.move_name(moves[0]) in FORCED_PASS_NAMES:
            self.notice.emit(f"{player_names(self.game_class)[mover]} has no legal move: passing")
            QTimer.singleShot(FORCED_PASS_DELAY_MS, self, lambda: self._play_forced(token, moves[0]))

    def move_delay_ms(self) -> int:
        """How long the computer waits before it starts thinking about its move."""
        watching = all(side.is_computer for side in self.players)
        return WATCHING_DELAY_MS if watching and self.clock is None else COMPUTER_MOVE_DELAY_MS

    def _play_forced(self, token: int, move: Any) -> None:
        if token == self._turn_token and not self._closed and not self.is_over and move in self._legal_now():
            self._apply(move)

    def _start_move_search(self, token: int) -> None:
        if token == self._turn_token and not self._closed and not self.is_over and not self._thinking:
            self._start_search(SearchPurpose.MOVE)

    def _roll(self) -> None:
        outcomes = self._state.chance_outcomes()
        roll = self._rng.choices([outcome for outcome, _ in outcomes], weights=[p for _, p in outcomes])[0]
        self._apply(roll)

    def _request(self, side: PlayerConfig, purpose: SearchPurpose) -> SearchRequest:
        # The engine replays the game with every rule: it starts after the last move played
        # on from a claimable draw, which its replay would refuse.
        base = next((index + 1 for index in range(len(self.history) - 1, -1, -1) if self.history[index].past_claimable_draw), 0)
        position = self.start_text if base == 0 else self.state_at(base).to_text()
        if purpose is SearchPurpose.MOVE and side.plays_by_level:  # the level's own engine and budget
            play = side.level_play()
            seen = noticed_moves(play, self._state, self._weakness[self._state.to_move()])  # what it overlooks
            self._level_looked_at = len(seen)
            return request_for_level(play, position, self.move_names()[base:], root_moves=seen)
        settings = side.settings(self.engine_settings)
        if purpose is SearchPurpose.HINT:
            settings = strongest_play(self.game).settings()
            limits = HINT_LIMITS
        elif side.strength == "depth":
            limits = limits_for_depth(self._state, settings.algorithm, side.depth)
        else:
            limits = side.limits()
        return SearchRequest(
            game=self.game,
            position=position,
            moves=tuple(self.move_names()[base:]),
            settings=settings,
            limits=limits,
        )

    def _start_search(self, purpose: SearchPurpose) -> None:
        mover = self._state.to_move()
        if mover == CHANCE:
            return
        side = self.players[mover]
        if purpose is SearchPurpose.HINT:
            if side.is_computer:
                return
            request = self._request(dataclasses.replace(side, algorithm=self.adviser_algorithm()), purpose)
        else:
            request = self._within_clock(self._request(side, purpose), mover)
        self._search_purpose = purpose
        self._set_thinking(True)
        search_id = self._bridge.start_search(request)
        if search_id is None:  # search_failed follows from the event loop
            self._search_id = -1
            return
        self._search_id = search_id

    def _set_thinking(self, thinking: bool) -> None:
        if thinking != self._thinking:
            self._thinking = thinking
            self.thinking_changed.emit(thinking)
            self.state_changed.emit()

    def _stop_hint(self) -> None:
        """The human moved while a hint was being searched: that search is dropped."""
        if self.is_finding_hint():
            self._cancel_search()

    def _cancel_search(self) -> None:
        if self._search_id is not None:
            self._bridge.stop()
        self._search_id = None
        self._search_purpose = None
        self._set_thinking(False)

    def _on_search_finished(self, finished: Finished) -> None:
        if self._search_id is None or finished.search_id != self._search_id or self._closed:
            return
        purpose = self._search_purpose
        self._search_id = None
        self._search_purpose = None
        mover = self._state.to_move()
        side = self.players[mover] if purpose is SearchPurpose.MOVE and mover in (0, 1) else None
        chosen = finished.best_move
        if side is not None and side.plays_by_level:  # a weak level may play one of its other lines
            play = side.level_play()
            chosen = choose_move(finished, play, mover, self._weakness[mover])
            legal = len(self._legal_now())
            if play.is_weak and self._as_move(chosen) is not None and is_game_evaluation(finished, legal):
                self.level_played.emit(level_choice(finished, play, chosen, mover, self._level_looked_at, legal))
        move = self._as_move(chosen)
        if purpose is SearchPurpose.HINT and move is not None:  # before state_changed: the panels read it
            self._hint = (self._turn_token, finished.score)
        self._set_thinking(False)
        if move is None:
            self._engine_failure("the engine returned no move" if finished.best_move is None else f"the engine returned {finished.best_move!r}, which is not legal here")
            return
        if purpose is SearchPurpose.HINT:
            self.hint_found.emit(move)
            # Said as the panel says it: "White +0.35", "Black mates in 2" (a bare "mated in 2"
            # from White's view, for Black's hint, read as if Black were mated).
            odds = match_odds(self._state)  # a match: its winning chances, as the bar and panel say them
            self.notice.emit(f"Hint: {self._state.move_name(move)} ({shown_score_text(finished.score, self.game_class, odds=odds)})")
            return
        if not is_game_evaluation(finished, len(self._legal_now())):  # a book move, the only move:
            self._apply(move)  # no score for the eval bar, the graph or the file
            return
        score = played_score(finished, chosen, mover)
        self._apply(move, self._score_text(score), score.for_player(0))

    def _on_search_failed(self, message: str) -> None:
        if self._search_id is None or self._closed:
            return
        self._search_id = None
        self._search_purpose = None
        self._set_thinking(False)
        self._engine_failure(message)

    def _engine_failure(self, message: str) -> None:
        self.paused = True
        self.engine_failed.emit(message)
        self._changed()

    def _as_move(self, value: Any) -> Any:
        """The engine's move value if it is legal here (events carry move values), else None."""
        return value if value is not None and value in self._legal_now() else None

    def _score_text(self, score: Score) -> str:
        """The evaluation kept with a played move (and written to game files, where
        ``games.records`` reads it): player 0's view, ``+0.35`` / ``mate in 3``."""
        return value_text(score.for_player(0), self.game_class)

    def _finish_by_rules(self) -> None:
        winner = self._state.winner()
        result = Result.won_by(winner)
        reason = self._state.termination_reason() or "game over"
        if self.game_class.UTILITY_KIND != "win_loss" and winner is not None and not names_the_winner(reason):
            reason = f"{reason}; {player_names(self.game_class)[winner]} wins by {abs(self._state.utility(0)):g}"
        self._finish(result, reason)

    def _finish(self, result: Result, reason: str) -> None:
        self.outcome = Outcome(result, reason)
        self._changed()
        self.game_over.emit(self.outcome)


def clock_reading(value: object, default: float) -> float:
    """A saved clock reading as seconds the clock accepts (``0`` to a month), else
    ``default``: a game file's ``%clk`` is read by another program's rules."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return min(max(0.0, float(value)), MAX_CLOCK_SECONDS)
    return default


_PROVEN = re.compile(r"(mate|mated|win|loss) in (\d{1,4})(?: plies| ply)?")


def score_from_text(text: str, game: type[GameState], to_move: int) -> Score | None:
    """The score a saved evaluation says (``ai.display.value_text``'s words, player 0's
    view, as the app writes them and ``games.records`` reads PGN's ``[%eval]``): ``+0.35``
    in the game's unit, ``mate in 3`` / ``mated in 2`` / ``win in 5 plies`` / ``loss in 4
    plies`` / ``won`` / ``lost`` as proven results. ``to_move`` is the player to move in
    the position evaluated (a mate in N moves is 2N-1 plies away for the side to move,
    2N for the other). ``None`` for text that says no score (a file from elsewhere)."""
    words = text.strip().lower()
    if words in ("won", "lost"):
        plies = 0
        won = words == "won"
    else:
        proven = _PROVEN.fullmatch(words)
        if proven is None:
            try:
                value = float(words)
            except ValueError:
                return None
            if not math.isfinite(value):
                return None
            return Score(value * game.SCORE_UNIT_SIZE, 0, None, float(game.EVAL_SCALE))
        kind, count = proven.group(1), int(proven.group(2))
        won = kind in ("mate", "win")
        winner = 0 if won else 1
        plies = count if kind in ("win", "loss") else 2 * count - (1 if to_move == winner else 0)
    signed = plies if won else -plies
    return Score(float(WIN_SCORE - plies if won else -WIN_SCORE + plies), 0, signed, float(game.EVAL_SCALE))


def named(reason: str, player_names: tuple[str, str]) -> str:
    """``reason`` with a leading player name written as the app writes it (``white has no
    discs left`` -> ``White has …``, ``x has three in a row`` -> ``X has …``); other
    reasons stay as they are (``checkmate``)."""
    first, _, rest = reason.partition(" ")
    for name in player_names:
        if first.lower() == name.lower():
            return f"{name} {rest}" if rest else name
    return reason


def names_the_winner(reason: str) -> bool:
    """Whether a game's own reason already says who won and by how much (backgammon's
    ``O bore off all checkers and wins a gammon: 2 points``): the app then shows it alone."""
    return " wins" in f" {reason.lower()}"

