"""Chess clocks for every game: a time control, the two clocks, and what a flag fall means.

A ``TimeControl`` is a base time plus a Fischer increment per player (Lichess's "5+3": five
minutes, three seconds added after each move), or plus a delay (``5 d12``: backgammon's
tournament clocks); no time control at all is ``None``. A
``Clock`` holds both players' remaining time and knows whose clock runs. It never reads the
system time: every operation takes ``now`` (seconds on any monotonic scale, such as
``time.monotonic()``), so the app passes the real time and tests pass numbers, never sleeping.

The rules the clock follows, and why:

* **Fischer increment.** A move that took ``t`` seconds costs ``t`` and earns the increment,
  added to the clock of the player who moved (FIDE Laws of Chess, 6.2 and the Guidelines'
  "cumulative (Fischer) mode"; Lichess plays every control so).
* **Delay.** With a delay (``TimeControl.delay``) the seconds a move are not added: each
  turn's clock stands for its first ``d`` seconds and only then runs (the "simple" or US
  delay of tournament clocks; USBGF clock rules: 12 seconds a move). A move made within the
  delay costs nothing, and a clock never gains time, however fast a player moves; every
  press starts the opponent's delay (a double, a take, a checker play each).
* **First moves (Lichess's rule).** Each player's first move is untimed: no time is charged
  and no increment is added, and the clocks start once both players have moved. A player who
  opens a game, looks at the board or is playing the second side first is not already losing
  time; Lichess users expect exactly this (their PGN's first two ``%clk`` readings are the
  base time).
* **Forced moves.** A move the app plays because the player has no choice (Othello's pass,
  backgammon's "no move") is played at once and ``press(now, forced=True)`` neither charges the
  turn nor adds the increment: the player decided nothing, so the turn costs nothing and earns
  nothing (a run of forced passes cannot be farmed for increments, and the moment the app shows
  its "no move" notice is not the player's time). A move the player chooses, even the only legal
  one, is an ordinary move with its increment, as in chess.
* **Dice.** In backgammon the roll belongs to the turn of the player about to move, so that
  player's clock runs through the roll (as on a tournament clock: you press after your move,
  and the opponent rolls on their own time). The app's automatic dice take no time; with
  manual dice the roller's clock runs while the roll is entered.
* **Pause.** A paused clock runs for nobody; a move pressed while paused still switches the
  turn and adds the increment. A clock restored from a file comes back paused: the time the
  app was closed is nobody's.
* **Flag.** The player to move whose time reaches zero has lost on time: ``flagged_player``
  notices it and stops the clock for good. What that means for the game is ``flag_result``:
  a loss, except in chess a draw when the opponent could not checkmate by any series of legal
  moves (FIDE Laws 6.9), asked of the game through ``games.capabilities.MatingMaterial``; in
  backgammon the flagged player loses the game at its current stake (the cube value, a single
  game: no gammon is counted); in a backgammon match a flag loses the match, as tournament clock
  rules have it (the match layer applies that, not this module).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final, cast

from games.base import CHANCE, GameState, Player, other
from games.capabilities import MatingMaterial, declares

Seconds = float
"""Time in seconds (a clock reading, a base time, an increment)."""

MIN_BASE_SECONDS: Final = 1.0
"""The least base time: a clock that starts at zero would flag on its first timed move."""
MAX_BASE_SECONDS: Final = 24 * 3600.0
"""The most base time (a day): the longest over-the-board controls give about seven hours."""
MAX_INCREMENT_SECONDS: Final = 3600.0
"""The most increment per move (an hour; Lichess offers at most 180 seconds)."""
MAX_CLOCK_SECONDS: Final = 30 * 24 * 3600.0
"""No clock reading in a file is larger (increments accumulate, but not past a month)."""
MAX_MOVES: Final = 1_000_000
"""No game has more moves; a bigger move count in a file is garbage."""
MINUTES_STEP_SECONDS: Final = 15.0
"""Base times in multiples of this are written in minutes (Lichess's ¼-minute steps:
``0.25+0``, ``1.5+1``); others in seconds with an ``s`` (``100s+2``), so text round-trips."""
LARGE_NUMBER: Final = 1e15
"""Numbers from this size on are written with an exponent (in error messages)."""
ODDS_SEPARATOR: Final = " vs "
"""Between the two players' controls when they differ: ``5+3 vs 1+0``."""
_PART = r"\s*(\d+(?:\.\d+)?)\s*"
_TEXT_CONTROL = re.compile(rf"^{_PART}(s?)\s*([+|]|d){_PART}$")
DELAY_MARK: Final = " d"
"""Between the base and the delay in a control's text: ``5 d12`` (five minutes, a
twelve-second delay), as ``+`` is for an increment."""
_PGN_CONTROL = re.compile(r"^(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$")
_PGN_PERIOD = r"(?:\d+/\d+|\d+(?:\+\d+)?)"
_PGN_OTHER_FORMS = re.compile(rf"^(?:{_PGN_PERIOD}(?::{_PGN_PERIOD})+|\d+/\d+|\*\d+)$")
"""PGN time controls this clock does not model: moves in a period (``40/7200:3600``), an
hourglass (``*60``); a game with one still loads, without its time control."""


class ClockError(ValueError):
    """A time control or a clock that cannot be (a bad number, a garbled document, a move
    pressed after the flag fell); the message says what is wrong."""


class Speed(Enum):
    """Lichess's speed categories, by the estimated game duration ``base + 40 x increment``
    seconds (lichess.org/faq, time controls: below 30 s UltraBullet, 3 min Bullet, 8 min
    Blitz, 25 min Rapid, Classical above; so 3+0 is Blitz and 10+0 Rapid)."""

    ULTRABULLET = "UltraBullet"
    BULLET = "Bullet"
    BLITZ = "Blitz"
    RAPID = "Rapid"
    CLASSICAL = "Classical"


SPEED_LIMITS: Final[tuple[tuple[Seconds, Speed], ...]] = (
    (30.0, Speed.ULTRABULLET),
    (180.0, Speed.BULLET),
    (480.0, Speed.BLITZ),
    (1500.0, Speed.RAPID),
)
"""(estimated duration below which, speed); longer games are classical (lichess.org/faq)."""
ESTIMATED_MOVES: Final = 40
"""Lichess's estimate of a game's length in moves per player, for the speed category."""


def _checked_seconds(value: object, what: str, low: float, high: float) -> Seconds:
    """``value`` as seconds in ``[low, high]``; anything else is one ``ClockError``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ClockError(f"{what} must be a number of seconds, not {type(value).__name__}")
    try:
        seconds = float(value)
    except OverflowError:  # an int too big for a float
        raise ClockError(f"{what} is far too large") from None
    if not math.isfinite(seconds):
        raise ClockError(f"{what} must be a finite number of seconds, not {value!r}")
    if not low <= seconds <= high:
        raise ClockError(f"{what} must be between {_number(low)} and {_number(high)} seconds, not {_number(seconds)}")
    return seconds


def _checked_pair(pair: object, what: str, low: float, high: float) -> tuple[Seconds, Seconds]:
    """One number of seconds per player, each in ``[low, high]``."""
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        raise ClockError(f"a time control's {what} is one number per player (two)")
    return (_checked_seconds(pair[0], f"the {what}", low, high), _checked_seconds(pair[1], f"the {what}", low, high))


def _number(value: float) -> str:
    """``300`` for 300.0, ``2.5`` for 2.5: the shortest text that reads back the same (a
    huge value, only ever quoted in an error, as ``1e+300``)."""
    if abs(value) >= LARGE_NUMBER:
        return f"{value:g}"
    return str(int(value)) if value == int(value) else repr(value)


@dataclass(frozen=True)
class TimeControl:
    """Each player's base time and seconds a move, in seconds (player 0 first): a Fischer
    increment, or with ``delay`` a delay (this module's docstring)."""

    base: tuple[Seconds, Seconds]
    increment: tuple[Seconds, Seconds]
    delay: bool = False
    """The seconds a move are a delay (the clock stands that long each turn), not added."""

    def __post_init__(self) -> None:
        # frozen: each pair is checked and stored as floats once, here
        object.__setattr__(self, "base", _checked_pair(self.base, "base time", MIN_BASE_SECONDS, MAX_BASE_SECONDS))
        object.__setattr__(self, "increment", _checked_pair(self.increment, "increment", 0.0, MAX_INCREMENT_SECONDS))
        if not isinstance(self.delay, bool):
            raise ClockError(f"a time control's delay is true or false, not {type(self.delay).__name__}")

    @classmethod
    def of(cls, base: Seconds, increment: Seconds = 0.0, delay: bool = False) -> TimeControl:
        """The same ``base`` + ``increment`` seconds (a delay with ``delay``) for both players."""
        return cls((base, base), (increment, increment), delay)

    @property
    def is_symmetric(self) -> bool:
        """Whether both players have the same control (no time odds)."""
        return self.base[0] == self.base[1] and self.increment[0] == self.increment[1]

    @property
    def speed(self) -> Speed:
        """Lichess's category of the longer of the two controls."""
        duration = max(base + ESTIMATED_MOVES * increment for base, increment in zip(self.base, self.increment))
        return next((speed for limit, speed in SPEED_LIMITS if duration < limit), Speed.CLASSICAL)

    # ---------------------------------------------------------------- text: "5+3"
    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """A control as people write it: minutes + seconds (``5+3``, ``0.5+0``, ``15|10``), a
        base in seconds with ``s`` (``100s+2``), and time odds as ``5+3 vs 1+0`` (player 0's
        first), a delay instead of an increment as ``5 d12``. The inverse of ``text``."""
        if not isinstance(text, str):
            raise ClockError(f"a time control is text like 5+3, not {type(text).__name__}")
        parts = text.split(ODDS_SEPARATOR.strip()) if ODDS_SEPARATOR.strip() in text else [text]
        if len(parts) > 2 or len(text) > 100:
            raise ClockError(f"{text[:40]!r} is not a time control: write minutes+seconds, such as 5+3")
        sides = [_parse_side(part) for part in parts]
        first, second = sides[0], sides[-1]
        if first[2] != second[2]:
            raise ClockError(f"{text[:40]!r} mixes an increment and a delay: give both players the same kind")
        return cls((first[0], second[0]), (first[1], second[1]), first[2])

    def text(self) -> str:
        """``5+3`` (minutes + seconds, as Lichess writes it), ``5 d12`` with a delay, or
        ``5+3 vs 1+0`` with odds."""
        sides = [_side_text(base, increment, self.delay) for base, increment in zip(self.base, self.increment)]
        return sides[0] if self.is_symmetric else ODDS_SEPARATOR.join(sides)

    def __str__(self) -> str:
        return self.text()

    # ---------------------------------------------------------------- PGN: "300+3"
    @classmethod
    def from_pgn(cls, text: str) -> TimeControl:
        """One player's PGN ``TimeControl`` tag value (``300+3``, ``600``: seconds) for both
        players. ``time_control_from_pgn`` also reads ``-``, ``?`` and forms not modelled."""
        match = _PGN_CONTROL.match(text.strip()) if isinstance(text, str) else None
        if match is None:
            raise ClockError(f"PGN time control {str(text)[:40]!r} is not seconds+increment (such as 300+3)")
        return cls.of(float(match.group(1)), float(match.group(2) or 0))

    def pgn(self, player: Player = 0) -> str:
        """``player``'s control as a PGN ``TimeControl`` value: ``300+3`` (seconds); ``?``
        for a delay, which the PGN standard's forms cannot say (its section 9.6.1)."""
        if self.delay:
            return "?"
        return f"{_number(self.base[player])}+{_number(self.increment[player])}"

    # ---------------------------------------------------------------- JSON
    def to_json(self) -> dict[str, Any]:
        """``{"base": [300, 300], "increment": [3, 3]}`` (seconds, player 0 first), with
        ``"delay": true`` when the seconds a move are a delay."""
        document: dict[str, Any] = {"base": list(self.base), "increment": list(self.increment)}
        if self.delay:
            document["delay"] = True
        return document

    @classmethod
    def from_json(cls, document: object) -> TimeControl:
        """The inverse of ``to_json``; anything else is one ``ClockError``."""
        if not isinstance(document, dict):
            raise ClockError('a time control is an object {"base": [...], "increment": [...]}')
        pairs = []
        for name in ("base", "increment"):
            value = document.get(name)
            if not (isinstance(value, list) and len(value) == 2):
                raise ClockError(f'a time control\'s "{name}" must be a list of two numbers of seconds')
            pairs.append((value[0], value[1]))
        delay = document.get("delay", False)
        if not isinstance(delay, bool):
            raise ClockError('a time control\'s "delay" must be true or false')
        return cls(pairs[0], pairs[1], delay)


def _parse_side(text: str) -> tuple[Seconds, Seconds, bool]:
    """(base, seconds a move, whether they are a delay) of ``5+3``, ``100s+2``, ``5 d12``."""
    match = _TEXT_CONTROL.match(text)
    if match is None:
        raise ClockError(f"{text.strip()[:40]!r} is not a time control: write minutes+seconds, such as 5+3")
    base = float(match.group(1)) * (1 if match.group(2) else 60)
    return base, float(match.group(4)), match.group(3) == "d"


def _side_text(base: Seconds, increment: Seconds, delay: bool = False) -> str:
    mark = DELAY_MARK if delay else "+"
    if base % MINUTES_STEP_SECONDS == 0:
        return f"{_number(base / 60)}{mark}{_number(increment)}"
    return f"{_number(base)}s{mark}{_number(increment)}"


def time_control_from_text(text: str) -> TimeControl | None:
    """A control typed by a person, or ``None`` for no clock (``""``, ``none``, ``-``)."""
    if isinstance(text, str) and text.strip().lower() in ("", "none", "-", "no clock", "unlimited"):
        return None
    return TimeControl.parse(text)


def time_control_from_pgn(text: str) -> TimeControl | None:
    """A PGN ``TimeControl`` tag: ``None`` for ``-`` (no clock), ``?`` (unknown) and the
    forms this clock does not model (``40/7200:3600``, ``*60``, and a base under
    ``MIN_BASE_SECONDS``, such as Lichess's ``0+1``, whose games still load);
    ``ClockError`` for text that is no time control at all."""
    value = text.strip() if isinstance(text, str) else ""
    if value in ("", "-", "?") or _PGN_OTHER_FORMS.match(value):
        return None
    match = _PGN_CONTROL.match(value)
    if match is not None and float(match.group(1)) < MIN_BASE_SECONDS:
        return None
    return TimeControl.from_pgn(value)


PRESETS: Final[tuple[TimeControl, ...]] = tuple(
    TimeControl.parse(text) for text in ("1+0", "3+0", "3+2", "5+0", "5+3", "10+0", "10+5", "15+10", "30+0", "30+20", "5 d12")
)
"""Lichess's quick-pairing controls, and ``5 d12``: five minutes with a twelve-second delay,
backgammon's tournament clock (USBGF clock rules)."""


def _checked_now(now: float) -> float:
    if isinstance(now, bool) or not isinstance(now, (int, float)) or not math.isfinite(now):
        raise ClockError(f"the time now must be a finite number of seconds, not {now!r}")
    return float(now)


class Clock:
    """Both players' clocks under one ``TimeControl`` (the rules: this module's docstring).

    Every method that can change what the clocks show takes ``now``; times between two calls
    are charged to the player whose clock runs. ``turn`` is ``None`` until ``start``.
    """

    def __init__(self, control: TimeControl) -> None:
        if not isinstance(control, TimeControl):
            raise ClockError(f"a clock needs a TimeControl, not {type(control).__name__}")
        self._control = control
        self._remaining = list(control.base)
        """Each player's time at ``_since`` (the running player's) or now (the other's)."""
        self._turn: Player | None = None
        self._since = 0.0
        """When the running player's clock last started or was settled."""
        self._turn_start = 0.0
        """The player to move's remaining time when the turn began (a forced move keeps it)."""
        self._delay_left = 0.0
        """Of the running turn's delay (a control with ``delay``), the seconds not yet used
        at ``_since``: the clock stands until they are."""
        self._paused = False
        self._moves = [0, 0]
        """Moves each player has made (the first move of each is untimed)."""
        self._flagged: Player | None = None

    # ---------------------------------------------------------------- reading
    @property
    def control(self) -> TimeControl:
        return self._control

    @property
    def turn(self) -> Player | None:
        """Whose move it is (whose clock runs when it runs); ``None`` before ``start``."""
        return self._turn

    @property
    def is_paused(self) -> bool:
        return self._paused

    @property
    def flagged(self) -> Player | None:
        """The player whose flag fell (noticed by ``flagged_player``), or ``None``."""
        return self._flagged

    @property
    def moves(self) -> tuple[int, int]:
        """How many moves each player has made on this clock."""
        return (self._moves[0], self._moves[1])

    @property
    def is_timed(self) -> bool:
        """Whether moves are timed yet: both players have made their untimed first move."""
        return min(self._moves) >= 1

    @property
    def is_running(self) -> bool:
        """Whether a clock runs: a turn, timed, not paused, no flag fallen."""
        return self._turn is not None and self.is_timed and not self._paused and self._flagged is None

    def remaining(self, player: Player, now: float) -> Seconds:
        """``player``'s time left at ``now`` (never below zero)."""
        return max(0.0, self._raw_remaining(player, _checked_now(now)))

    def delay_left(self, now: float) -> Seconds:
        """Of the running turn's delay, the seconds still to go at ``now`` (0 under an
        increment, or when no clock runs): the clock stands until they are gone."""
        if not self.is_running:
            return 0.0
        return max(0.0, self._delay_left - max(0.0, _checked_now(now) - self._since))

    def seconds_to_flag(self, now: float) -> Seconds | None:
        """How long until the running clock reaches zero (``None`` when none runs): when to
        look at ``flagged_player`` again (a delay still to run counts)."""
        if not self.is_running or self._turn is None:
            return None
        now = _checked_now(now)
        delay = max(0.0, self._delay_left - max(0.0, now - self._since))
        return max(0.0, self._raw_remaining(self._turn, now)) + delay

    def flagged_player(self, now: float) -> Player | None:
        """The player whose time has run out at ``now`` (it is their move and their clock
        reads zero), or ``None``. A fallen flag stops the clock for good."""
        now = _checked_now(now)
        if self._flagged is None and self.is_running and self._turn is not None:
            if self._raw_remaining(self._turn, now) <= 0:
                self._remaining[self._turn] = 0.0
                self._flagged = self._turn
        return self._flagged

    def _raw_remaining(self, player: Player, now: float) -> Seconds:
        if player not in (0, 1):
            raise ClockError(f"player must be 0 or 1, not {player!r}")
        if self.is_running and player == self._turn:
            return self._remaining[player] - max(0.0, now - self._since - self._delay_left)
        return self._remaining[player]

    def _delay_of(self, player: Player) -> Seconds:
        """The delay a turn of ``player`` starts with (none under an increment)."""
        return self._control.increment[player] if self._control.delay else 0.0

    # ---------------------------------------------------------------- changing
    def _settle(self, now: float) -> None:
        """Charge the running player the time since ``_since`` (beyond what is left of the
        turn's delay, which that time uses up first)."""
        if self.is_running and self._turn is not None:
            elapsed = max(0.0, now - self._since)
            delayed = min(self._delay_left, elapsed)
            self._delay_left -= delayed
            self._remaining[self._turn] -= elapsed - delayed
        self._since = now

    def start(self, player: Player, now: float) -> None:
        """Make it ``player``'s move at ``now``: the game begins, or goes on after a move was
        taken back or a game was loaded. Time so far is charged to whoever was to move."""
        now = _checked_now(now)
        if player not in (0, 1) or isinstance(player, bool):
            raise ClockError(f"player must be 0 or 1, not {player!r}")
        self._settle(now)
        if player != self._turn:  # the same player's turn goes on (its start is kept)
            self._turn = player
            self._turn_start = self._remaining[player]
            self._delay_left = self._delay_of(player)

    def press(self, now: float, forced: bool = False) -> Seconds:
        """The player to move has moved at ``now``: charge the turn, add the increment, start
        the opponent's clock. Returns the mover's time left after the move, increment
        included (what Lichess writes as ``%clk``). ``forced``: the app played the only move
        there was (a pass) at once; the turn costs nothing and earns nothing.

        ``ClockError`` when there is no turn (``start`` first) or the mover's flag has fallen
        (ask ``flagged_player`` before playing a move).
        """
        now = _checked_now(now)
        mover = self._turn
        if mover is None:
            raise ClockError("no clock runs yet: start the clock before pressing it")
        if self.flagged_player(now) is not None:
            raise ClockError(f"player {self._flagged}'s flag has fallen: no more moves on this clock")
        timed = self.is_timed
        self._settle(now)
        if forced:
            self._remaining[mover] = self._turn_start
        elif timed and not self._control.delay:
            self._remaining[mover] += self._control.increment[mover]
        self._moves[mover] += 1
        self._turn = other(mover)
        self._turn_start = self._remaining[self._turn]
        self._delay_left = self._delay_of(self._turn)
        self._since = now
        return self._remaining[mover]

    def turn_to(self, player: Player, now: float, forced: bool = False) -> Seconds | None:
        """After a move at ``now``, the turn belongs to ``player`` (``clock_owner`` of the new
        position): when that is the opponent of the player to move, the mover has finished
        and the clock is pressed (``press``; its reading is returned); when it is the same
        player, the turn goes on (backgammon: "roll", the dice, then the checker play) and
        nothing changes (``None``). A double hands the turn to the opponent, who takes or
        drops on their own time, as on a tournament clock. Before the clock starts, ``None``
        (no owner yet: backgammon's opening roll) leaves it as it is."""
        if self._turn is None:
            if player is not None:
                self.start(player, now)
            return None
        if player == self._turn:
            return None
        return self.press(now, forced)

    def pause(self, now: float) -> None:
        """Stop both clocks at ``now`` (the running player is charged up to here)."""
        self._settle(_checked_now(now))
        self._paused = True

    def resume(self, now: float) -> None:
        """Let the clock of the player to move run again from ``now``; a clock that is not
        paused goes on as it is (its running player still owes the time since it started)."""
        now = _checked_now(now)
        if not self._paused:
            return
        self._paused = False
        self._since = now

    # ---------------------------------------------------------------- documents
    def to_json(self, now: float) -> dict[str, Any]:
        """The clocks at ``now`` as a JSON-able document (``from_json`` reads it back)."""
        self._settle(_checked_now(now))
        return {
            "control": self._control.to_json(),
            "remaining": list(self._remaining),
            "turn": self._turn,
            "moves": list(self._moves),
            "flagged": self._flagged,
        }

    @classmethod
    def from_json(cls, document: object) -> Clock:
        """A clock saved by ``to_json``, paused (``resume`` it when play goes on); one
        ``ClockError`` for anything garbled, out of range or not a number."""
        if not isinstance(document, dict):
            raise ClockError("a saved clock is a JSON object")
        clock = cls(TimeControl.from_json(document.get("control")))
        remaining = document.get("remaining")
        if not (isinstance(remaining, list) and len(remaining) == 2):
            raise ClockError('a saved clock\'s "remaining" must be two numbers of seconds')
        clock._remaining = [_checked_seconds(value, "a clock reading", 0.0, MAX_CLOCK_SECONDS) for value in remaining]
        moves = document.get("moves", [0, 0])
        if not (
            isinstance(moves, list)
            and len(moves) == 2
            and all(isinstance(count, int) and not isinstance(count, bool) and 0 <= count <= MAX_MOVES for count in moves)
        ):
            raise ClockError(f'a saved clock\'s "moves" must be two whole numbers from 0 to {MAX_MOVES:,}')
        clock._moves = list(moves)
        for name in ("turn", "flagged"):
            value = document.get(name)
            if value is not None and (isinstance(value, bool) or value not in (0, 1)):
                raise ClockError(f'a saved clock\'s "{name}" must be 0, 1 or null, not {str(value)[:20]!r}')
        clock._turn = document.get("turn")
        clock._flagged = document.get("flagged")
        if clock._turn is not None:
            clock._turn_start = clock._remaining[clock._turn]
            clock._delay_left = clock._delay_of(clock._turn)  # a resumed turn's delay starts again
        clock._paused = True
        return clock

    def __repr__(self) -> str:
        times = ", ".join(_number(round(value, 3)) for value in self._remaining)
        return f"Clock({self._control.text()}, remaining=({times}), turn={self._turn}, paused={self._paused}, flagged={self._flagged})"


def clock_owner(state: GameState) -> Player | None:
    """Whose clock runs in ``state``: the player to move, or at a dice roll the player who
    moves after it (the roll is part of that player's turn); ``None`` once the game is over,
    and at a roll that decides who moves next (backgammon's opening roll: nobody's turn has
    begun, so no clock runs through it)."""
    if state.is_terminal():
        return None
    mover = state.to_move()
    if mover != CHANCE:
        return mover
    owners = set()
    for outcome, _ in state.chance_outcomes():
        after = state.copy()
        after.play(outcome)
        owners.add(clock_owner(after))
        if len(owners) > 1:
            return None
    return owners.pop()


# --------------------------------------------------------------------------- flag fall
@dataclass(frozen=True)
class FlagFall:
    """What a fallen flag means for the game: the winner (``None``: a draw) and why."""

    winner: Player | None
    reason: str
    points: float = 1.0
    """What the game is won for (backgammon: the cube's value; 1 elsewhere)."""


def flag_result(state: GameState, flagged: Player) -> FlagFall:
    """The result when ``flagged``'s time runs out in ``state``: the opponent wins, unless
    the game says the opponent could not win by any series of legal moves (chess, FIDE Laws
    6.9: "the game is drawn if the position is such that the opponent cannot checkmate the
    player's king by any possible series of legal moves"). A game whose results are points
    is lost at its ``forfeit_points`` (a backgammon money game: the cube's value, as a single
    game; a match scores the flag itself)."""
    if flagged not in (0, 1) or isinstance(flagged, bool):
        raise ClockError(f"player must be 0 or 1, not {flagged!r}")
    names = state.PLAYER_NAMES
    opponent = other(flagged)
    reason = f"{names[flagged]} ran out of time"
    if declares(type(state), MatingMaterial):
        if not cast(MatingMaterial, state).can_still_mate(opponent):
            return FlagFall(None, f"{reason} and {names[opponent]} cannot checkmate")
    points = state.forfeit_points()
    if points is not None:
        shown = _number(points)
        return FlagFall(opponent, f"{reason}: {names[opponent]} wins {shown} point{'s' if points != 1 else ''}", points)
    return FlagFall(opponent, reason)
