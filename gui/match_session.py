"""``MatchSession``: a backgammon match to N points, between and across its games.

A match is a series of games (``GameSession`` each); the match session follows the game
being played and keeps what lies around it: the score before it, the games before it, and
what happens when it ends. Its rules are the core's (``games.backgammon.match.Match``: the
points of a game go to its winner, the Crawford rule); this module is the app's side of
them:

* every game of the match starts from ``Match.new_game()``: its gnubg id carries the match
  length, the score and the Crawford flag, so the board, the engine (match equity) and a
  copied position all know the score;
* a game ends: its points (the cube times 1, 2 or 3, or the cube on a drop; a resignation
  gives the current stake, the app having no resign values) are added to the winner's
  score, the next game is announced (the Crawford game by name) and starts when the
  player presses "Next game" (the board's button, Game → Next game); with the computer on
  both sides it starts by itself after ``NEXT_GAME_DELAY_MS``;
* taking back the last move of a finished game takes its points back too: the score is
  always derived from the game's own state, never counted twice;
* a game on a clock (each game of the match gets a fresh one) whose flag falls loses the
  match, as tournament clock rules have it;
* the match is saved with the game, whole: a game file and the autosave keep the match
  before the game and the games before it beside the game (``history``, ``to_dict``), and
  opening one resumes the match with its games; a match position opened or pasted without
  it (a Match ID with a length) is a match from its score;
* the match so far, every game with its moves, exports as a Jellyfish ``.mat`` file
  (``mat_file``: ``games.backgammon.mat``), the text gnubg, eXtreme Gammon and BGBlitz
  import.

The window holds one ``MatchSession`` per game of the match (``advanced`` makes the next
one); a money game has none.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from games.backgammon.board import PLAYER_NAMES
from games.backgammon.mat import MatError, MatFile, write_mat
from games.backgammon.match import GameResult, Match, MatchError
from games.backgammon.state import BackgammonState
from games.records import MATCH_GAME, GameRecord, MatchHistory, RecordError, match_history_from_json
from gui.boards.backgammon.match_line import MatchLine
from gui.panels.display import player_names
from gui.players import COMPUTER, PlayerConfig
from gui.session import GameSession

NEXT_GAME_DELAY_MS = 3000
"""Computer against computer: the pause between two games of a match, to read the result."""


def resignation(state: BackgammonState, winner: int) -> GameResult:
    """A game resigned to ``winner`` (the app has no resign values): the stake, a single
    game at the cube."""
    return GameResult(winner=winner, points=state.cube_value, cube_value=state.cube_value, dropped=False)


class MatchSession(QObject):
    """One game of a match and the match around it (see module doc)."""

    changed = Signal()
    """The score, the stage (playing, between games, over) or the line changed."""
    next_game_wanted = Signal()
    """Computer against computer: the pause after a game is over, the next may start."""
    notice = Signal(str)
    """A sentence for the status bar (a game's points, the Crawford game, the winner)."""

    def __init__(self, at_start: Match, earlier: Sequence[GameRecord] = (), parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.at_start = at_start
        """The match before the game being played (its score, its Crawford flag)."""
        self.earlier: list[GameRecord] = list(earlier)
        """The finished games of the match before this one, as far as known (a match
        opened from a position knows only its score)."""
        self.session: GameSession | None = None
        self._board: Any = None
        self._announced: Match | None = None
        """The match last announced (a game's result is said once, not on every refresh)."""

    # ------------------------------------------------------------------ making one
    @classmethod
    def new(cls, length: int) -> MatchSession:
        """A match to ``length`` points, before its first game (``MatchError`` for a bad
        length)."""
        return cls(Match(length))

    @classmethod
    def for_position(cls, game: str, start: str) -> MatchSession | None:
        """The match a game's start position belongs to (a Match ID with a length and a
        score), or ``None``: a money game, or another game."""
        if game != MATCH_GAME:
            return None
        try:
            state = BackgammonState.from_text(start)
        except ValueError:
            return None
        try:
            match = Match.from_state(state)
        except MatchError:  # a score no match reaches: the position is played as a single game
            return None
        return None if match is None else cls(match)

    @classmethod
    def for_record(cls, record: GameRecord) -> MatchSession | None:
        """The match of a game read from a file: the whole match when the file kept it
        (``GameRecord.match``, checked by the reader), else the one its start position
        says (its score without the games before), or ``None`` for a single game."""
        if record.match is not None:
            return cls(record.match.start, record.match.games)
        return cls.for_position(record.game, record.start)

    @classmethod
    def restore(cls, data: object, game: str, start: str) -> tuple[MatchSession | None, str]:
        """The match saved with a game (``to_dict``'s entry) and why it was not used when it
        was not: the entry is checked as a game file's match is (``match_history_from_json``:
        it must agree with the game's own start position, and its earlier games must read and
        lead to its score); otherwise the match is the one the position says (its score
        without the games before), and the problem is said."""
        from_position = cls.for_position(game, start)
        if data is None:
            return from_position, ""
        try:
            history = match_history_from_json(data, game, start)
        except RecordError as error:
            return from_position, str(error)
        return cls(history.start, history.games), ""

    def advanced(self) -> MatchSession:
        """The match session of the next game (after this one is over)."""
        if self.session is None or self.result() is None:
            raise RuntimeError("the next game of a match starts after this one is over")
        return MatchSession(self.match, [*self.earlier, self.session.to_record()])

    # ------------------------------------------------------------------ the game
    def follow(self, session: GameSession, board: Any = None) -> None:
        """Follow ``session`` (this match's current game) and show the match on ``board``
        (a ``BackgammonBoard``: the match line, the "Next game" button)."""
        self.session = session
        self._board = board
        self._announced = self.match if session.is_over else None  # a game loaded finished was announced
        session.state_changed.connect(self._on_state_changed)
        session.game_over.connect(self._on_game_over)
        self._show()

    def release(self) -> None:
        """The window leaves this game (a new game, a new match): no more actions from it."""
        session = self.session
        if session is not None:
            try:
                session.state_changed.disconnect(self._on_state_changed)
                session.game_over.disconnect(self._on_game_over)
            except (RuntimeError, TypeError):
                pass
        self.session = None
        self._board = None

    # ------------------------------------------------------------------ queries
    def result(self) -> GameResult | None:
        """The current game's result once it is over (``None`` while it goes on)."""
        session = self.session
        if session is None or not session.is_over:
            return None
        winner = session.result.winner
        if winner is None:
            return None
        state = session.state
        assert isinstance(state, BackgammonState)
        if state.is_terminal():
            return GameResult.from_state(state)
        return resignation(state, winner)

    def if_resigned(self, loser: int) -> tuple[GameResult, Match] | None:
        """What resigning the current game for ``loser`` would give (its result, and the
        match after it), or ``None`` when there is no game going on to resign."""
        session = self.session
        if session is None or session.is_over or not isinstance(session.state, BackgammonState):
            return None
        result = resignation(session.state, 1 - loser)
        return result, self.at_start.with_result(result)

    def flag_loser(self) -> int | None:
        """The player whose flag fell in the current game (a game on a clock), if one did."""
        session = self.session
        clock = None if session is None else session.clock
        return None if clock is None or session is None or not session.is_over else clock.flagged

    @property
    def match(self) -> Match:
        """The match now: with the current game's points once it is over. A flag loses the
        match, as the tournament rules for clocks have it (WBF, USBGF): the other player's
        score goes to the match length."""
        result = self.result()
        if result is None:
            return self.at_start
        loser = self.flag_loser()
        if loser is not None:
            score = list(self.at_start.score)
            score[1 - loser] = max(score[1 - loser], self.at_start.length)
            return Match(self.at_start.length, (score[0], score[1]), False, self.at_start.games)
        return self.at_start.with_result(result)

    @property
    def length(self) -> int:
        return self.at_start.length

    def is_over(self) -> bool:
        """The match is won."""
        return self.match.is_over

    def is_between_games(self) -> bool:
        """The current game is over and the match is not: a next game may start."""
        return self.result() is not None and not self.match.is_over

    def game_number(self) -> int:
        """The current game's number in the match, as far as the games before are known."""
        return len(self.earlier) + 1

    def game_seed(self, seed: int | None) -> int | None:
        """The dice seed of the current game in a window started with the fixed ``seed``
        (tests, demos): drawn from the seed, the match and this game's place in it (the
        score before it, which grows from game to game, and its number), so every game of
        a seeded match rolls its own dice and the same seed replays the same match. No
        seed: ``None``, dice from the system's entropy in every game."""
        if seed is None:
            return None
        match = self.at_start
        key = f"match-game/{seed}/{match.length}/{match.score[0]}-{match.score[1]}/{match.crawford}/{self.game_number()}"
        return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")

    @staticmethod
    def why_no_next_game(match: MatchSession | None) -> str:
        """Why "Next game" starts nothing now (for the status bar)."""
        if match is None:
            return "This game is not part of a match: Game → New game starts a match (Backgammon, Play: Match to N points)"
        if match.is_over():
            return f"The match is over: {match.text()}"
        return "The next game of the match starts once this one is over"

    def next_start(self) -> str:
        """The start position (gnubg id, with the match fields) of the next game (of the
        first, before any game)."""
        return self.match.new_game().to_text()

    def line(self) -> MatchLine:
        """What the match line above the board says now."""
        match = self.match
        post_crawford = match.is_post_crawford and match.length > 1  # a 1-point match has no Crawford game
        if match.is_over:
            return MatchLine(match.length, _capped(match), winner=match.winner)
        if self.result() is not None:  # between games: the score after it, what comes next
            coming = "the Crawford game" if match.crawford else "a post-Crawford game" if post_crawford else "a new game"
            return MatchLine(match.length, match.score, post_crawford=post_crawford, next_game=coming)
        return MatchLine(match.length, match.score, crawford=match.crawford, post_crawford=post_crawford)

    def text(self) -> str:
        """The match line in one string ("Match to 7 points · O 3 – X 5 · Crawford game …")."""
        return self.line().text(_names())

    def history(self) -> MatchHistory:
        """The match around the current game, as game files keep it: the match before this
        game and the games before it (``GameRecord.match``)."""
        return MatchHistory(self.at_start, tuple(self.earlier))

    def mat_file(self, date: str = "") -> MatFile:
        """The match so far, every game with its moves (the current one as far as it went),
        as a Jellyfish ``.mat`` file (``games.backgammon.mat``); ``date``: ``YYYY.MM.DD``.
        The players' names are the sides' when they differ, else O and X."""
        session = self.session
        games = [*self.earlier, *([] if session is None else [session.to_record()])]
        if not games:
            raise MatError("the match has no game yet")
        sides = games[-1].players
        names = sides if all(sides) and sides[0] != sides[1] else PLAYER_NAMES
        return write_mat(games, final=self.match, names=names, date=date)

    def to_dict(self) -> dict[str, object]:
        """The match as the autosave keeps it (the autosave's record is this game itself):
        the JSON of ``history``."""
        return self.history().to_json()

    # ------------------------------------------------------------------ events
    def _on_state_changed(self) -> None:
        if self.result() is None:
            self._announced = None  # taken back: its end is announced again when it comes
        self._show()

    def _on_game_over(self, _outcome: object) -> None:
        match = self.match
        result = self.result()
        if result is None or match == self._announced:
            return
        self._announced = match
        names = _names()
        points = f"{result.points} point{'s' if result.points != 1 else ''}"
        score = f"{names[0]} {min(match.score[0], match.length)} – {names[1]} {min(match.score[1], match.length)}"
        if match.is_over:
            assert match.winner is not None
            flag = f"{names[1 - match.winner]}'s flag fell: " if self.flag_loser() is not None else ""
            self.notice.emit(f"{flag}{names[match.winner]} wins the match to {match.length}: {score}")
        else:
            coming = " — next: the Crawford game (no doubling)" if match.crawford else ""
            self.notice.emit(f"{names[result.winner]} wins {points}: {score}{coming}. Press Next game to play on.")
            session = self.session
            if session is not None and all(side.is_computer for side in session.players) and not session.paused:
                QTimer.singleShot(NEXT_GAME_DELAY_MS, self, self._next_by_itself)
        self._show()

    def _next_by_itself(self) -> None:
        if self.session is not None and self.is_between_games():
            self.next_game_wanted.emit()

    def _show(self) -> None:
        board = self._board
        if board is not None:
            board.set_match_line(self.line())
            board.set_next_game(self.is_between_games())
        self.changed.emit()


def _capped(match: Match) -> tuple[int, int]:
    """The final score as the scoreboard writes it: the winner at the match length."""
    return (min(match.score[0], match.length), min(match.score[1], match.length))


def _names() -> tuple[str, str]:
    return player_names(BackgammonState)


def start_match_scene(
    window: Any,
    length: int = 7,
    score: tuple[int, int] = (3, 5),
    *,
    crawford: bool = False,
    players: tuple[PlayerConfig, PlayerConfig] | None = None,
) -> GameSession:
    """Put ``window`` (a ``MainWindow``) into a backgammon match to ``length`` points at
    ``score`` (O's, X's), its Crawford game when ``crawford``: for screenshots and demos.
    By default a human plays X (at the bottom, as gnubg draws it) against the computer."""
    sides = players or (PlayerConfig(kind=COMPUTER), PlayerConfig())
    match = Match(length, score, crawford)
    session: GameSession = window.start_game(MATCH_GAME, sides, start=match.new_game().to_text(), paused=False, match=MatchSession(match))
    return session
