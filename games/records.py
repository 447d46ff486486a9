"""Game records as text: PGN (chess), PDN (checkers) and Plyground JSON (every game).

One record type and one writer and reader per format, for the app's game files
(``gui/gamefile.py``, which documents the JSON layout and reads pasted positions) and the
engine's match files (``ai/match/records.py``, several games to a file). Text in, text out:
no file I/O here. Built on the games' own notation (``move_name``/``parse_move``,
``to_text``/``from_text``) and, for chess, ``games.chess_game.pgn``'s strict reader.

Evaluations travel as Lichess-style comments ``{[%eval 0.35]}`` / ``{[%eval #-3]}`` in PGN
and PDN, clock readings as ``{[%clk 0:04:58]}`` (the mover's time left after the move,
increment included, as Lichess writes them) in the same comment, and the time control as
the ``TimeControl`` tag (``300+3``: seconds; ``WhiteTimeControl``/``BlackTimeControl`` when
the players' differ). A record that cannot be read is one ``RecordError`` whose message says what is
wrong and where; ``GameRecord.replay`` checks every move, and every writer replays first,
so a record that was written can always be read back. What only annotates the game (its
review, clock readings, time control) never makes it unreadable: a part that cannot be read
is left out and said in ``GameRecord.left_out``.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from games import GAME_NAMES, get_game, new_game
from games.annotations import (
    REVIEW_COMMAND,
    GameReview,
    Mark,
    MoveReview,
    ReviewError,
    ReviewSettings,
    Value,
    error_words,
    move_from_command,
    review_command,
    review_scale,
)
from games.backgammon.match import Match, MatchError
from games.backgammon.state import BackgammonState
from games.base import GameError, GameState
from games.chess_game.pgn import echo
from games.clock import MAX_CLOCK_SECONDS, ClockError, TimeControl, time_control_from_pgn

FORMAT_NAME = "plyground-game"
FORMAT_VERSION = 1
MAX_FILE_CHARS = 5_000_000
"""A game file bigger than this is not a game (a 1,000-move game is a few kB)."""
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
"""Results as the app stores them: first player won, second player won, draw, unfinished."""
PDN_RESULTS = {"2-0": "1-0", "0-2": "0-1", "1-1": "1/2-1/2", "*": "*", "1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2"}
"""PDN result markers (English draughts writes 2-0/0-2/1-1) -> the app's results."""
PDN_RESULT_OUT = {"1-0": "2-0", "0-1": "0-2", "1/2-1/2": "1-1", "*": "*"}
PDN_COLOURS = ("Black", "White")
"""English draughts' colours of players 0 and 1 (Black moves first), in PDN tag names."""
EXTENSIONS = {"chess": "pgn", "checkers": "pdn"}
"""The file extension of each game's native format; others use JSON."""
DEFAULT_EVENT = "Plyground game"
"""The PGN/PDN ``Event`` tag unless the writer is told another (matches say so)."""
DEFAULT_SITE = "Plyground"
"""The PGN ``Site`` tag of a game the record does not place elsewhere."""
JSON_EXTENSION = "json"

_EVAL_COMMENT = re.compile(r"\[%eval\s+([^\]\s]+)\s*\]")
_CLOCK_COMMAND = re.compile(r"\[%clk\s+([^\]]*)\]")
_CLOCK_READING = re.compile(r"^(\d{1,4}):([0-5]?\d):([0-5]?\d(?:\.\d{1,3})?)$")
"""``H:MM:SS`` with optional fractions of a second (Lichess writes whole seconds, chess.com
tenths)."""
_BRACKETED = re.compile(r"\[[^\]]*(?:\]|\Z)|\{[^}]*(?:\}|\Z)")
"""A tag or a comment; one never closed runs to the end of the text. Matching the end too
keeps the scan linear: a pattern that needs the closing bracket rescans the rest of the
text from every unclosed one (quadratic)."""
_COMMENT = re.compile(r"\{[^}]*(?:\}|\Z)")
"""A PDN comment, or an unclosed one to the end of the text (linear, as ``_BRACKETED``)."""
MESSAGE_LIMIT = 240
"""Characters of a reading error's message shown before it is cut."""
WRITTEN_TAGS = frozenset({
    "Event", "Site", "Date", "Round", "White", "Black", "Result", "Termination", "TimeControl", "WhiteTimeControl",
    "BlackTimeControl", "FEN", "SetUp", "GameType", "PlyCount", "Variant",
})
"""The PGN/PDN tags the writers make from the record's own fields (or the moves: the ply
count, the start position): a file's value of one is read into its field, never kept
beside it, so a re-saved game cannot say two things."""
OTHER_TAGS_LIMIT = 100
"""At most this many other tags are kept of a game (a header is a few dozen at most)."""
_TAG_NAME = re.compile(r"[A-Za-z0-9_]{1,60}")


class RecordError(ValueError):
    """A game record (a file, a match file's game, pasted text) that cannot be read, or a
    record that cannot be written; the message says what is wrong and where."""


@dataclass
class GameRecord:
    """A whole game as a document: where it started, every move since by name, who played
    and how it ended. Empty text fields are unknown (written as PGN's ``?``)."""

    game: str
    start: str
    moves: list[str] = field(default_factory=list)
    evaluations: list[str | None] = field(default_factory=list)
    """One per move (or fewer): the engine's score after it, as the app shows it, or None."""
    players: tuple[str, str] = ("", "")
    """Who played player 0 (White in chess, Black in checkers/Othello) and player 1."""
    result: str = "*"
    reason: str = ""
    date: str = ""
    round: str = ""
    opening_plies: int = 0
    """How many of ``moves`` came from an opening book rather than the players (matches)."""
    time_control: TimeControl | None = None
    """The clock the game was played on (``games.clock``), or ``None``: no clock."""
    clocks: list[float | None] = field(default_factory=list)
    """One per move (or fewer): the mover's time left after it in seconds, increment
    included (Lichess's ``%clk``), or None (no clock, or a move inside a turn)."""
    review: GameReview | None = None
    """The game's review (``games.annotations``), saved with it: JSON's ``review`` field; in
    PGN/PDN a NAG (a PDN move's symbol), a ``[%review]`` command and Lichess's words per
    move, and the review's settings in the ``Annotator`` tag."""
    left_out: list[str] = field(default_factory=list, compare=False)
    """What the reader left out of the file, one line each: an annotation that could not be
    read (a damaged review, clock readings, a time control not understood). Only the moves
    and the game's own fields decide whether a game can be read; the rest never costs it."""
    event: str = ""
    """The game's own event (PGN/PDN ``Event``); empty: the writer's (``DEFAULT_EVENT``)."""
    site: str = ""
    """Where the game was played (PGN/PDN ``Site``); empty: the writer's (``DEFAULT_SITE``)."""
    other_tags: tuple[tuple[str, str], ...] = ()
    """The file's other tags, in its order (``WhiteElo``, ``ECO``, ``Opening``, ``Annotator``…):
    kept and written back as read, so opening a database's game and saving it again loses
    nothing of its header (``WRITTEN_TAGS`` are the record's own fields instead)."""
    match: MatchHistory | None = None
    """The backgammon match the game is part of, with the games before it (JSON's
    ``match``); ``None``: a single game, or a match known only by the score in its start
    position's Match ID."""
    match_problem: str = field(default="", compare=False)
    """Why the file's match entry was not used (one line, ending with what is kept
    instead), or "": the game opens as a match from its Match ID's score, and a reader
    says so as loudly as a damaged autosave's match."""

    def replay(self) -> GameState:
        """The state after every move (with its history), checking each move.

        ``RecordError`` names the first move that is not legal.
        """
        try:
            state = new_game(self.game, self.start)
        except GameError as error:
            raise RecordError(f"start position: {error}") from None
        claims = isinstance(state, DrawClaims)
        for number, name in enumerate(self.moves, start=1):
            try:
                play_recorded(state, state.parse_move(name), claims)
            except GameError as error:
                raise RecordError(one_line(f"move {number} ({echo(name)!r}): {error}")) from None
        return state

    def tags(self) -> RecordTags:
        """The game's own tags, which a game opened from this record keeps when saved again."""
        return RecordTags(players=self.players, event=self.event, site=self.site, date=self.date, round=self.round,
                          other=self.other_tags)


MATCH_GAME = BackgammonState.NAME
"""The game a match record belongs to (backgammon matches to N points)."""
MAX_MATCH_GAMES = 200
"""The most earlier games a match record may list: a match to 64 points (gnubg's longest)
is over in at most 127 games, each giving at least one point to somebody."""


@dataclass(frozen=True)
class MatchHistory:
    """A backgammon game's match beyond the score its start position's Match ID carries:
    the match before the game (``start``: length, score, Crawford flag and the results so
    far) and the records of the games before it, in order. A match file is the current
    game's record with this beside it, so a saved match is the whole match, as GNU
    Backgammon saves one; each earlier game's record is an ordinary game record (its own
    start position carries its score)."""

    start: Match
    games: tuple[GameRecord, ...] = ()

    def to_json(self) -> dict[str, object]:
        """JSON's ``match`` entry: ``{"start": Match.to_json(), "games": [game, ...]}``."""
        return {"start": self.start.to_json(), "games": [to_json(record) for record in self.games]}


def match_history_from_json(data: object, game: str, start: str) -> MatchHistory:
    """The match entry ``data`` saved with a game of ``game`` that starts at ``start``,
    checked as a whole: the game must be a match game, the entry's match must be the one
    its start position says (length, score, Crawford), and the earlier games must read and
    lead from one to the next: each at a score of the same match, every game ending with
    points for one player that the next game's score (or the current one's) shows.
    ``RecordError`` says in one line what is wrong and what is kept instead (the score)."""
    position = _position_match(game, start)
    if position is None:
        raise RecordError("the saved match does not belong to this game: it is played as a single game")
    if not isinstance(data, dict):
        raise RecordError("the saved match is not a match entry: only its score is kept")
    try:
        at_start = Match.from_json(data.get("start"))
    except (MatchError, TypeError, ValueError, KeyError, RecursionError) as error:
        raise RecordError(f"the saved match cannot be read ({one_line(str(error), 120)}): only its score is kept") from None
    if (at_start.length, at_start.score, at_start.crawford) != (position.length, position.score, position.crawford):
        raise RecordError("the saved match disagrees with the game's position: the position's score is kept")
    documents = data.get("games", [])
    if not isinstance(documents, list) or len(documents) > MAX_MATCH_GAMES:
        raise RecordError("the saved match's earlier games cannot be read: its score is kept")
    games: list[GameRecord] = []
    scores: list[tuple[int, int]] = []
    for number, document in enumerate(documents, start=1):
        try:
            record = _record_from_json(document, with_match=False)
            game_match = _position_match(record.game, record.start)
            if game_match is None or game_match.length != at_start.length:
                raise RecordError(f"it is no game of a {at_start.length}-point match")
        except (RecordError, TypeError, ValueError, RecursionError) as error:
            raise RecordError(f"game {number} of the saved match cannot be read ({one_line(str(error), 120)}): its score is kept") from None
        games.append(record)
        scores.append(game_match.score)
    scores.append(at_start.score)
    for number, record in enumerate(games, start=1):
        before, after = scores[number - 1], scores[number]
        gained = [after[player] - before[player] for player in (0, 1)]
        if sorted(gained)[0] != 0 or max(gained) <= 0 or not _ends_with(record, gained):
            raise RecordError(
                f"game {number} of the saved match does not lead to the score of the game after it "
                f"({before[0]}-{before[1]} to {after[0]}-{after[1]}): its score is kept"
            )
    return MatchHistory(at_start, tuple(games))


def _position_match(game: object, start: str) -> Match | None:
    """The match a game's start position belongs to (its Match ID's length, score and
    Crawford flag), or ``None``: another game, money play, a position that cannot be."""
    if game != MATCH_GAME:
        return None
    try:
        return Match.from_state(BackgammonState.from_text(start))
    except (ValueError, TypeError):  # GameError and MatchError too
        return None


def _ends_with(record: GameRecord, gained: Sequence[int]) -> bool:
    """Whether ``record`` ends as a game that gives one player ``gained`` points: its moves
    end it with exactly those points, or it was conceded (a resignation) to that player."""
    winner = 0 if gained[0] else 1
    state = record.replay()
    assert isinstance(state, BackgammonState)
    if state.is_terminal():
        return state.game_winner == winner and state.points == gained[winner]
    return record.result == ("1-0", "0-1")[winner]


@dataclass(frozen=True)
class RecordTags:
    """What a game file says about a game besides its moves: who played it, the event,
    site, date and round (PGN's Seven Tag Roster without the result, which the moves and
    the ending decide), and its other tags (ratings, opening names). A game opened from a
    file and saved again keeps them, as chess databases (SCID, ChessBase) keep a game's
    header; empty text is unknown, and a game played in the app has none (its players are
    the app's sides)."""

    players: tuple[str, str] = ("", "")
    event: str = ""
    site: str = ""
    date: str = ""
    round: str = ""
    other: tuple[tuple[str, str], ...] = ()

    def has_players(self) -> bool:
        """Whether the file named either player: then both names are the file's (one
        unknown is written ``?``), never a mix of the file's and the app's sides."""
        return any(self.players)


@runtime_checkable
class DrawClaims(Protocol):
    """A game whose rules end it at a draw the players may claim and need not (chess:
    threefold repetition, the fifty-move rule). A recorded game may go on past one that
    nobody claimed; a reader of records must follow it, as a PGN reader and UCI do."""

    def claimable_draw(self) -> str:
        """The claimable draw the game has reached (its reason), or ""."""

    def all_legal_moves(self) -> list[Any]:
        """The moves the rules of movement allow, also at a claimable draw."""


def play_recorded(state: GameState, move: Any, claims: bool | None = None) -> bool:
    """Play ``move`` of a recorded game, checked like ``play_checked``; at a claimable
    draw (``DrawClaims``) nobody claimed, a move the rules of movement allow is played
    too. Returns whether the move went on past such a draw. ``claims``: whether ``state``
    is a ``DrawClaims`` (checked once by a caller playing many moves)."""
    if claims is None:
        claims = isinstance(state, DrawClaims)
    if claims:
        assert isinstance(state, DrawClaims)
        if state.claimable_draw() and move in state.all_legal_moves():
            state.play(move)
            return True
    state.play_checked(move)
    return False


def default_extension(game: str) -> str:
    """``pgn``, ``pdn`` or ``json``: the native format (and file extension) of ``game``."""
    return EXTENSIONS.get(game, JSON_EXTENSION)


# --------------------------------------------------------------------------- writing
def write_game(record: GameRecord, fmt: str | None = None) -> str:
    """``record`` as text in format ``fmt`` (``pgn``, ``pdn`` or ``json``; by default the
    game's native one)."""
    fmt = fmt or default_extension(record.game)
    if fmt == "pgn":
        return write_pgn(record)
    if fmt == "pdn":
        return write_pdn(record)
    if fmt == JSON_EXTENSION:
        return json.dumps(to_json(record), indent=1, ensure_ascii=False) + "\n"
    raise RecordError(f"unknown game file format {fmt!r}: use pgn, pdn or json")


def to_json(record: GameRecord) -> dict[str, object]:
    """``record`` as a Plyground JSON document (optional keys only when they say something)."""
    document: dict[str, object] = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "game": record.game,
        "start": record.start,
        "moves": list(record.moves),
    }
    if any(value is not None for value in record.evaluations):
        document["evaluations"] = list(record.evaluations)
    if any(record.players):
        document["players"] = list(record.players)
    document["result"] = record.result
    if record.reason:
        document["reason"] = record.reason
    if record.date:
        document["date"] = record.date
    if record.round:
        document["round"] = record.round
    if record.event:
        document["event"] = record.event
    if record.site:
        document["site"] = record.site
    if record.other_tags:
        document["tags"] = dict(record.other_tags)
    if record.opening_plies:
        document["opening_plies"] = record.opening_plies
    if record.time_control is not None:
        document["time_control"] = record.time_control.to_json()
    if any(value is not None for value in record.clocks):
        document["clocks"] = list(record.clocks)
    review = None if record.review is None else record.review.for_moves(record.moves)
    if review is not None:
        document["review"] = review.to_json()
    if record.match is not None:
        document["match"] = record.match.to_json()
    return document


def write_pgn(record: GameRecord, event: str = DEFAULT_EVENT) -> str:
    """A chess ``record`` as PGN, evaluations as ``[%eval]`` comments."""
    import chess.pgn

    from games.chess_game.state import ChessState

    state = record.replay()
    assert isinstance(state, ChessState)
    game = chess.pgn.Game.from_board(state.board)
    game.headers["Event"] = record.event or event
    game.headers["Site"] = record.site or DEFAULT_SITE
    if record.date:
        game.headers["Date"] = record.date
    if record.round:
        game.headers["Round"] = record.round
    game.headers["White"] = record.players[0] or "?"
    game.headers["Black"] = record.players[1] or "?"
    game.headers["Result"] = record.result if record.result in RESULTS else "*"
    if record.reason:
        game.headers["Termination"] = record.reason
    for name, value in time_control_tags(record.time_control, ("White", "Black")):
        game.headers[name] = value
    review = None if record.review is None else record.review.for_moves(record.moves)
    for name, value in record.other_tags:
        if name not in game.headers and not (name == "Annotator" and review is not None):
            game.headers[name] = value
    tokens = evaluation_tokens(record)
    for index, node in enumerate(game.mainline()):
        node.comment = move_comment(record, index, tokens)
    if review is not None:
        game.headers["Annotator"] = REVIEW_ANNOTATOR + review.settings.describe()
        nodes = list(game.mainline())
        for ply, (nag, words) in review_annotations(record).items():
            nodes[ply].comment = " ".join(part for part in (nodes[ply].comment, words) if part)
            if nag is not None:
                nodes[ply].nags.add(nag)
    exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=True)
    return str(game.accept(exporter)) + "\n"


def move_comment(record: GameRecord, index: int, tokens: Sequence[str | None] | None = None) -> str:
    """The comment after move ``index`` (from 0): its ``[%eval]`` and ``[%clk]``, or "".
    ``tokens``: every move's ``%eval`` (``evaluation_tokens``), when the caller has them."""
    parts = []
    evaluation = (evaluation_tokens(record) if tokens is None else tokens)[index] if index < len(record.moves) else None
    if evaluation is not None:
        parts.append(f"[%eval {evaluation}]")
    clock = record.clocks[index] if index < len(record.clocks) else None
    if clock is not None:
        parts.append(f"[%clk {clock_text(clock)}]")
    return " ".join(parts)


def clock_text(seconds: float) -> str:
    """A clock reading as ``%clk`` writes it: ``0:04:58``, tenths when there are some
    (``0:00:07.4``)."""
    tenths = round(max(0.0, seconds) * 10)
    whole, tenth = divmod(tenths, 10)
    minutes, second = divmod(whole, 60)
    hours, minute = divmod(minutes, 60)
    text = f"{hours}:{minute:02d}:{second:02d}"
    return f"{text}.{tenth}" if tenth else text


def clock_from_text(text: str) -> float:
    """The inverse of ``clock_text`` (``H:MM:SS`` with any fraction); ``RecordError``
    unless it is a clock reading of at most ``MAX_CLOCK_SECONDS``."""
    match = _CLOCK_READING.match(text.strip())
    if match is None:
        raise RecordError(f"[%clk {echo(text.strip())}] is not a clock reading (H:MM:SS, such as 0:04:58)")
    seconds = int(match.group(1)) * 3600 + int(match.group(2)) * 60 + float(match.group(3))
    if seconds > MAX_CLOCK_SECONDS:
        raise RecordError(f"[%clk {echo(text.strip())}] is far more time than any clock holds")
    return seconds


def time_control_tags(control: TimeControl | None, colours: tuple[str, str]) -> list[tuple[str, str]]:
    """The PGN/PDN tags of ``control``: ``TimeControl`` ("300+3"), or with time odds a
    ``<Colour>TimeControl`` per player (``colours``: the tag names' words for players 0
    and 1) and ``TimeControl "?"``; none without a clock."""
    if control is None:
        return []
    if control.is_symmetric:
        return [("TimeControl", control.pgn())]
    return [("TimeControl", "?")] + [(f"{colours[player]}TimeControl", control.pgn(player)) for player in (0, 1)]


def time_control_from_tags(tags: dict[str, str], colours: tuple[str, str]) -> TimeControl | None:
    """The inverse of ``time_control_tags``; ``RecordError`` for a tag that is no time
    control."""
    try:
        sides = [time_control_from_pgn(tags.get(f"{colour}TimeControl", "")) for colour in colours]
        if sides[0] is not None and sides[1] is not None:
            return TimeControl((sides[0].base[0], sides[1].base[0]), (sides[0].increment[0], sides[1].increment[0]))
        return time_control_from_pgn(tags.get("TimeControl", ""))
    except ClockError as error:
        raise RecordError(str(error)) from None


def _clock_readings(comments: Sequence[str], left_out: list[str]) -> list[float | None]:
    """``clocks_from_comments``, a reading that cannot be read left out (None) and said once
    in ``left_out`` (with how many more there were)."""
    readings: list[float | None] = []
    bad: list[str] = []
    for comment in comments:
        readings.append(_optional(lambda: clocks_from_comments([comment])[0], None, bad))
    if bad:
        more = len(bad) - 1
        left_out.append(bad[0] + (f" ({more:,} more unreadable clock reading{'s' if more > 1 else ''} left out)" if more else ""))
    return readings


def clocks_from_comments(comments: Sequence[str]) -> list[float | None]:
    """Each comment's ``[%clk]`` reading in seconds, or None."""
    readings: list[float | None] = []
    for comment in comments:
        match = _CLOCK_COMMAND.search(comment)
        readings.append(clock_from_text(match.group(1)) if match else None)
    return readings


def write_pdn(record: GameRecord, event: str = DEFAULT_EVENT) -> str:
    """A checkers ``record`` as English draughts PDN, evaluations and clock readings as
    ``[%eval]`` and ``[%clk]`` comments."""
    initial = new_game(record.game).to_text()
    record.replay()  # checks every move, so the file written is always readable
    tags = [
        ("Event", record.event or event),
        ("Date", record.date or "????.??.??"),
        ("Black", record.players[0] or "?"),
        ("White", record.players[1] or "?"),
        ("Result", PDN_RESULT_OUT.get(record.result, "*")),
        ("GameType", "21"),
    ]
    if record.round:
        tags.insert(2, ("Round", record.round))
    if record.site:
        tags.insert(1, ("Site", record.site))
    if record.start != initial:
        tags.append(("FEN", record.start))
    if record.reason:
        tags.append(("Termination", record.reason))
    tags += time_control_tags(record.time_control, PDN_COLOURS)
    review = None if record.review is None else record.review.for_moves(record.moves)
    if review is not None:
        tags.append(("Annotator", REVIEW_ANNOTATOR + review.settings.describe()))
    written = {name for name, _ in tags}
    tags += [(name, value) for name, value in record.other_tags
             if name not in written and not (name == "Annotator" and review is not None)]
    lines = [f'[{name} "{_escape_tag(value)}"]' for name, value in tags]
    annotations = review_annotations(record)
    tokens = evaluation_tokens(record)
    state = new_game(record.game, record.start)
    first_mover = state.to_move()
    words: list[str] = []
    for index, name in enumerate(record.moves):
        mover = state.to_move()
        if mover == 0 or index == 0:
            number = (index + (1 if first_mover else 0)) // 2 + 1
            words.append(f"{number}." if mover == 0 else f"{number}...")
        nag, review_words = annotations.get(index, (None, ""))
        mark = None if nag is None else Mark.from_nag(nag)
        words.append(name if mark is None else name + mark.symbol)
        comment = " ".join(part for part in (move_comment(record, index, tokens), review_words) if part)
        if comment:
            words.append(f"{{{comment}}}")
        state.play(state.parse_move(name))
    words.append(PDN_RESULT_OUT.get(record.result, "*"))
    return "\n".join(lines) + "\n\n" + _wrap(words) + "\n"


def _escape_tag(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(words: Sequence[str], width: int = 79) -> str:
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return "\n".join(lines)


def evaluation_token(evaluation: str) -> str:
    """The app's score text (``+0.35``, ``mate in 3``, ``mated in 2``, ``win in 5 plies``)
    as a PGN ``%eval`` token (``0.35``, ``#3``, ``#-2``)."""
    text = evaluation.strip()
    match = re.fullmatch(r"(mate|win) in (\d+)(?: plies)?", text)
    if match:
        return f"#{match.group(2)}"
    match = re.fullmatch(r"(mated|loss) in (\d+)(?: plies)?", text)
    if match:
        return f"#-{match.group(2)}"
    return text.lstrip("+")


def evaluation_from_token(token: str) -> str:
    """The inverse of ``evaluation_token`` (for display): ``#3`` -> ``mate in 3``."""
    if token.startswith("#-"):
        return f"mated in {token[2:]}"
    if token.startswith("#"):
        return f"mate in {token[1:]}"
    try:
        return f"{float(token):+.2f}"
    except ValueError:
        return token


REVIEW_ANNOTATOR = "Plyground review: "
"""The ``Annotator`` tag of a reviewed PGN/PDN game begins so; the review's settings follow
(``ReviewSettings.describe``)."""


def review_annotations(record: GameRecord) -> dict[int, tuple[int | None, str]]:
    """Per reviewed ply of ``record``: its NAG (``None`` for a move that is no error) and its
    comment words: the ``[%review]`` command, then for an error Lichess's words with the
    values before and after it from the first player's view (White's in chess), as
    ``[%eval]`` writes them: ``[%review ...] (0.28 → 10.53) Blunder. Nf6 was best.``
    Only the reviewed moves that are still the record's are written (``GameReview.for_moves``)."""
    review = None if record.review is None else record.review.for_moves(record.moves)
    if review is None:
        return {}
    game = get_game(record.game)
    annotations: dict[int, tuple[int | None, str]] = {}
    for move in review.moves:
        before, after = _value_text(game, move, move.best), _value_text(game, move, move.played)
        words = " ".join(part for part in (review_command(move), error_words(review, move, before, after)) if part)
        annotations[move.ply] = (move.mark.nag, words)
    return annotations


def evaluation_tokens(record: GameRecord) -> list[str | None]:
    """Every move's ``[%eval]`` token (``None``: none written). In a reviewed game, the
    review's value after each reviewed move, whoever played it, as Lichess writes an
    analysed game: the same value its words give as "after" (``(6.73 → 11.70)``), never
    the computer's own search of its move (a shallower one, or an endgame database's
    verdict) beside the review's. An only move keeps the value of the position before it
    (its own search stops at once); up to the last reviewed move, a move the review has no
    value of gets none. Elsewhere (no review, moves after it) the evaluation kept with the
    move."""
    tokens = [
        None if evaluation is None else evaluation_token(evaluation)
        for evaluation in (record.evaluations[index] if index < len(record.evaluations) else None
                           for index in range(len(record.moves)))
    ]
    review = None if record.review is None else record.review.for_moves(record.moves)
    if review is None:
        return tokens
    game = get_game(record.game)
    by_ply = {move.ply: move for move in review.moves}
    for index in range(max(by_ply) + 1):
        move = by_ply.get(index)
        if move is None:
            tokens[index] = None
        elif move.mark is Mark.ONLY_MOVE:
            tokens[index] = tokens[index - 1] if index > 0 else None
        else:
            tokens[index] = _value_text(game, move, move.played)
    return tokens


def _value_text(game: type[GameState], move: MoveReview, value: Value) -> str:
    """A review value (the mover's) as ``[%eval]`` writes it, from the first player's view:
    ``0.28``, ``-10.53``, ``#3``, ``#-2``."""
    seen = value if move.mover == 0 else value.negated()
    moves = seen.mate_in_moves() if game.WIN_WORDING == "mate" else seen.win_in_plies
    if moves is not None:
        return f"#{moves}"
    return f"{seen.score / game.SCORE_UNIT_SIZE:.{game.SCORE_DECIMALS}f}"


def _review_from_commands(
    game: str, start: str, names: Sequence[str], commands: dict[int, str], annotator: str
) -> GameReview | None:
    """The review a PGN/PDN game's ``[%review]`` commands (by ply) and ``Annotator`` tag
    carry, ``None`` when it has none; ``RecordError`` for a damaged one."""
    if not commands:
        return None
    scale = review_scale(get_game(game))
    settings = ReviewSettings("unknown")
    if annotator.startswith(REVIEW_ANNOTATOR):
        try:
            settings = ReviewSettings.parse(annotator[len(REVIEW_ANNOTATOR) :])
        except ReviewError:
            pass  # the tag was edited: the moves' reviews still stand
    state = new_game(game, start)
    claims = isinstance(state, DrawClaims)
    moves: list[MoveReview] = []
    try:
        for ply, name in enumerate(names):
            if ply in commands:
                moves.append(move_from_command(commands[ply], ply, state.to_move(), name, scale))
            play_recorded(state, state.parse_move(name), claims)
    except ReviewError as error:
        raise RecordError(f"review: {error}") from None
    return GameReview(game, settings, tuple(moves), scale)


def _review_from_json(document: object, game: str, moves: Sequence[str]) -> GameReview | None:
    """The ``review`` field of a JSON game (``None``: the game has none)."""
    if document is None:
        return None
    try:
        return GameReview.from_json(document, game, review_scale(get_game(game)), moves)
    except ReviewError as error:
        raise RecordError(str(error)) from None


# --------------------------------------------------------------------------- reading
def read_game(text: str, hint: str | None = None) -> GameRecord:
    """The game in ``text`` (PGN, PDN or Plyground JSON; ``hint`` is a file extension or
    a format name that is tried first). Every move is checked against the rules.
    ``RecordError`` says what is wrong, whatever is wrong: a reader's own failure on a
    hostile text (a structure nested too deep for the recursion limit, say) is still one
    ``RecordError``, never another exception."""
    try:
        return _read_game(text, hint)
    except (GameError, RecordError) as error:  # a message may quote the file: one line, cut
        raise RecordError(one_line(str(error))) from None
    except (ValueError, RecursionError, MemoryError, OverflowError, TypeError, KeyError, IndexError) as error:
        raise RecordError(one_line(f"the text cannot be read as a game ({type(error).__name__}: {error})")) from None


def one_line(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """``message`` as one line of at most about ``limit`` characters: a reason that quotes
    a hostile text (a 100,000-character FEN) is cut, never shown whole."""
    flat = " ".join(message.split())
    return flat if len(flat) <= limit else f"{flat[:limit]}... ({len(flat):,} characters)"


def _read_game(text: str, hint: str | None) -> GameRecord:
    if not isinstance(text, str):
        raise RecordError(f"a game file is text, not {type(text).__name__}")
    if len(text) > MAX_FILE_CHARS:
        raise RecordError(f"the file has {len(text):,} characters: far too long for a game")
    stripped = text.lstrip("\ufeff").strip()
    if not stripped:
        raise RecordError("the file is empty: no game in it")
    fmt = (hint or "").lower().lstrip(".")
    if stripped.startswith("{") or fmt == JSON_EXTENSION:
        return read_json(stripped)
    if fmt == "pdn" or (fmt != "pgn" and _looks_like_pdn(stripped)):
        return read_pdn(stripped)
    return read_pgn(stripped)


def _looks_like_pdn(text: str) -> bool:
    if re.search(r'\[GameType\s+"2[01]', text):
        return True
    movetext = _BRACKETED.sub(" ", text)
    return bool(re.search(r"\b\d{1,2}\s*[-x]\s*\d{1,2}\b", movetext)) and not re.search(
        r"\b[a-h][1-8]\b", movetext
    )


def read_json(text: str) -> GameRecord:
    """One Plyground JSON document, every field and move checked."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    except ValueError:  # a number too long to convert (Python's 4,300-digit limit)
        raise RecordError("not a game file: a number in it has more digits than any game needs") from None
    except RecursionError:  # the decoder checks its depth and stops cleanly
        raise RecordError("not a game file: its JSON nests far deeper than a game file does") from None
    return from_json(document)


def from_json(document: object) -> GameRecord:
    """The record in a decoded Plyground JSON document, every field and move checked; a
    match entry that cannot be used is left out (``match_problem`` says why)."""
    return _record_from_json(document, with_match=True)


def _record_from_json(document: object, with_match: bool) -> GameRecord:
    """``from_json``; an earlier game of a match entry is read ``with_match=False``: its own
    ``match`` entry, if any, is not read (a match is one level deep)."""
    if not isinstance(document, dict):
        raise RecordError("a Plyground game file is a JSON object, not a list or a value")
    if document.get("format") != FORMAT_NAME:
        raise RecordError(f'not a Plyground game file: "format" must be "{FORMAT_NAME}"')
    version = document.get("version")
    if version != FORMAT_VERSION:
        raise RecordError(f"Plyground game file version {version!r} is not supported (this app reads version {FORMAT_VERSION})")
    game = document.get("game")
    if game not in GAME_NAMES:
        raise RecordError(f'"game" must be one of {", ".join(GAME_NAMES)}, not {game!r}')
    start = document.get("start", new_game(game).to_text())
    moves = document.get("moves", [])
    if not isinstance(start, str):
        raise RecordError('"start" must be the position as text')
    if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
        raise RecordError('"moves" must be a list of moves as text')
    evaluations = document.get("evaluations", [])
    if not isinstance(evaluations, list) or not all(value is None or isinstance(value, str) for value in evaluations):
        raise RecordError('"evaluations" must be a list of texts or nulls')
    players = document.get("players", ["", ""])
    if not (isinstance(players, list) and len(players) == 2 and all(isinstance(name, str) for name in players)):
        raise RecordError('"players" must be a list of two names')
    result = document.get("result", "*")
    if result not in RESULTS:
        raise RecordError(f'"result" must be one of {", ".join(RESULTS)}, not {result!r}')
    reason = document.get("reason", "")
    date = document.get("date", "")
    round_ = document.get("round", "")
    event = document.get("event", "")
    site = document.get("site", "")
    if not all(isinstance(value, str) for value in (reason, date, round_, event, site)):
        raise RecordError('"reason", "date", "round", "event" and "site" must be text')
    opening_plies = document.get("opening_plies", 0)
    if not isinstance(opening_plies, int) or isinstance(opening_plies, bool) or not 0 <= opening_plies <= len(moves):
        raise RecordError('"opening_plies" must be a whole number of moves, at most the number of moves')
    left_out: list[str] = []
    time_control = _optional(lambda: _time_control_from_json(document.get("time_control")), None, left_out)
    no_clocks: list[float | None] = []
    clocks = _optional(lambda: _clocks_from_json(document.get("clocks", [])), no_clocks, left_out)
    no_tags: tuple[tuple[str, str], ...] = ()
    other_tags = _optional(lambda: _other_tags_from_json(document.get("tags", {})), no_tags, left_out)
    record = GameRecord(
        game=game,
        start=start,
        moves=list(moves),
        evaluations=_fit(evaluations, len(moves)),
        players=(players[0], players[1]),
        result=result,
        reason=reason,
        date=date,
        round=round_,
        event=event,
        site=site,
        opening_plies=opening_plies,
        time_control=time_control,
        clocks=_fit(clocks, len(moves)),
        left_out=left_out,
        other_tags=other_tags,
    )
    record.replay()
    record.review = _optional(lambda: _review_from_json(document.get("review"), game, record.moves), None, left_out)
    saved_match = document.get("match")
    if with_match and saved_match is not None:
        try:
            record.match = match_history_from_json(saved_match, game, start)
        except RecordError as error:
            record.match_problem = str(error)
    return record


_Part = TypeVar("_Part")


def _optional(read: Callable[[], _Part], fallback: _Part, left_out: list[str]) -> _Part:
    """``read()``, or ``fallback`` with its ``RecordError`` added to ``left_out``: a part of
    a game file that annotates the game (review, clocks, time control) is left out when it
    cannot be read, and the game opens without it."""
    try:
        return read()
    except RecordError as error:
        left_out.append(str(error))
        return fallback


def _other_tags_from_json(tags: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(tags, dict) or not all(isinstance(value, str) for value in tags.values()):
        raise RecordError('"tags" must be an object of texts (other tags of the game): left out')
    return other_tags(tags.items())


def other_tags(tags: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """A file's tags that are none of ``WRITTEN_TAGS`` (nor the app's own review
    ``Annotator``), in order: what a record keeps of them. A name that is no tag name, an
    empty or unknown (``?``) value and tags past ``OTHER_TAGS_LIMIT`` are left out."""
    kept = []
    for name, value in tags:
        if name in WRITTEN_TAGS or not _TAG_NAME.fullmatch(name) or not value.strip() or set(value) <= set("?.- "):
            continue
        if name == "Annotator" and value.startswith(REVIEW_ANNOTATOR):
            continue
        kept.append((name, one_line(value, 500)))
        if len(kept) == OTHER_TAGS_LIMIT:
            break
    return tuple(kept)


def _time_control_from_json(document: object) -> TimeControl | None:
    if document is None:
        return None
    try:
        return TimeControl.from_json(document)
    except ClockError as error:
        raise RecordError(f'"time_control": {error}') from None


def _clocks_from_json(clocks: object) -> list[float | None]:
    if not isinstance(clocks, list) or not all(_is_clock_reading(value) for value in clocks):
        raise RecordError(f'"clocks" must be a list of seconds left (0 to {MAX_CLOCK_SECONDS:,.0f}) or nulls')
    return [None if value is None else float(value) for value in clocks]


def _is_clock_reading(value: object) -> bool:
    """A JSON clock reading: null, or a finite number of seconds in range (not a boolean)."""
    if value is None:
        return True
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return 0.0 <= float(value) <= MAX_CLOCK_SECONDS
    except OverflowError:
        return False


def _fit(values: Sequence[Any], count: int) -> list[Any]:
    """``values`` cut or padded with None to one per move."""
    return (list(values) + [None] * count)[:count]


def read_pgn(text: str) -> GameRecord:
    """The first game of PGN ``text``, read strictly, with its ``[%eval]`` comments."""
    from games.chess_game.pgn import from_pgn

    try:
        parsed = from_pgn(text)
    except GameError as error:
        raise RecordError(str(error)) from None
    state = parsed.state
    root = state.board.root()
    start = root.fen()
    names: list[str] = []
    board = root.copy()
    for move in parsed.moves:
        names.append(board.san(move))
        board.push(move)
    evaluations: list[str | None] = []
    commands: dict[int, str] = {}
    for ply, comment in enumerate(parsed.comments):
        match = _EVAL_COMMENT.search(comment)
        evaluations.append(evaluation_from_token(match.group(1)) if match else None)
        command = REVIEW_COMMAND.search(comment)
        if command is not None and ply < len(names):
            commands[ply] = command.group(1)
    headers = parsed.headers
    result = parsed.result
    left_out: list[str] = []
    review = _optional(
        lambda: _review_from_commands("chess", start, names, commands, headers.get("Annotator", "")), None, left_out
    )
    return GameRecord(
        game="chess",
        start=start,
        moves=names,
        evaluations=_fit(evaluations, len(names)),
        players=(_known(headers.get("White", "")), _known(headers.get("Black", ""))),
        result=result,
        reason=headers.get("Termination", ""),
        date=_known(headers.get("Date", "")),
        round=_known(headers.get("Round", "")),
        event=_known(headers.get("Event", "")),
        site=_known(headers.get("Site", "")),
        time_control=_optional(lambda: time_control_from_tags(headers, ("White", "Black")), None, left_out),
        clocks=_fit(_clock_readings(parsed.comments, left_out), len(names)),
        review=review,
        left_out=left_out,
        other_tags=other_tags(headers.items()),
    )


def _known(value: str) -> str:
    return "" if set(value) <= set("?.") else value


_PDN_TAG = re.compile(r'^\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]$')
_PDN_MOVE_NUMBER = re.compile(r"^\d+\.(\.\.)?$")
_PDN_MOVE = re.compile(r"^(\d+\.(?:\.\.)?)?(\d{1,2}(?:[-x]\d{1,2})+)[!?]*$")


def read_pdn(text: str) -> GameRecord:
    """The first game of English draughts PDN ``text``, every move checked."""
    tags: dict[str, str] = {}
    lines = text.splitlines()
    index = 0
    while index < len(lines) and (not lines[index].strip() or lines[index].lstrip().startswith("[")):
        line = lines[index].strip()
        if line:
            match = _PDN_TAG.match(line)
            if not match:
                raise RecordError(f'PDN line {index + 1} is not a tag of the form [Name "value"]: {echo(line)!r}')
            tags[match.group(1)] = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
        index += 1
    game_type = tags.get("GameType", "21").split(",")[0].strip()
    if game_type != "21":
        raise RecordError(f"PDN GameType {game_type} is not English draughts (21): only checkers games are read")
    body = "\n".join(lines[index:])
    if re.search(r"\n\s*\[", "\n" + body):
        body = re.split(r"\n\s*\[", "\n" + body, maxsplit=1)[0]  # only the first game
    comments = list(_COMMENT.finditer(body))
    if comments and not comments[-1].group(0).endswith("}"):
        raise RecordError("a PDN comment opened with '{' is never closed with '}'")
    evaluations_by_move: dict[int, str] = {}
    clocks_by_move: dict[int, float | None] = {}
    left_out: list[str] = []
    clock_comments: list[tuple[int, str]] = []
    review_commands: dict[int, str] = {}
    tokens: list[tuple[str, str]] = []
    moves_read = 0
    for match in re.finditer(r"\{([^}]*)\}|\(|\)|[^\s{}()]+", body):
        word = match.group(0)
        if word.startswith("{"):
            found = _EVAL_COMMENT.search(match.group(1))
            if found and moves_read:
                evaluations_by_move[moves_read - 1] = evaluation_from_token(found.group(1))
            if moves_read:
                clock_comments.append((moves_read - 1, match.group(1)))
            command = REVIEW_COMMAND.search(match.group(1))
            if command is not None and moves_read:
                review_commands[moves_read - 1] = command.group(1)
            continue
        if word in "()":
            raise RecordError("PDN variations in parentheses are not read: save the main line only")
        if word in PDN_RESULTS:
            kind = "result"
        elif _PDN_MOVE_NUMBER.match(word):
            kind = "number"
        elif _PDN_MOVE.match(word):
            kind = "move"
            moves_read += 1
        else:
            raise RecordError(f"PDN movetext word {echo(word)!r} is not a move, move number or result")
        tokens.append((kind, word))
    start = tags.get("FEN") or new_game("checkers").to_text()
    try:
        state = new_game("checkers", start)
    except GameError as error:
        raise RecordError(f"PDN start position: {error}") from None
    start = state.to_text()
    names: list[str] = []
    result = PDN_RESULTS.get(tags.get("Result", "*"), "*")
    for kind, word in tokens:
        if kind == "result":
            result = PDN_RESULTS[word]
            continue
        if kind != "move":
            continue
        match = _PDN_MOVE.match(word)
        assert match is not None
        move_text = match.group(2)
        try:
            move = state.parse_move(move_text)
            state.play_checked(move)
        except GameError as error:
            raise RecordError(f"PDN move {len(names) + 1} ({move_text}): {error}") from None
        names.append(move_text)
    # the canonical names (as the app writes them): replay and name
    canonical: list[str] = []
    replay = new_game("checkers", start)
    for name in names:
        move = replay.parse_move(name)
        canonical.append(replay.move_name(move))
        replay.play(move)
    evaluations = [evaluations_by_move.get(number) for number in range(len(canonical))]
    readings = _clock_readings([comment for _, comment in clock_comments], left_out)
    clocks_by_move.update((move, reading) for (move, _), reading in zip(clock_comments, readings) if reading is not None)
    clocks = [clocks_by_move.get(number) for number in range(len(canonical))]
    review = _optional(
        lambda: _review_from_commands("checkers", start, canonical, review_commands, tags.get("Annotator", "")),
        None,
        left_out,
    )
    return GameRecord(
        game="checkers",
        start=start,
        moves=canonical,
        evaluations=evaluations,
        players=(_known(tags.get("Black", "")), _known(tags.get("White", ""))),
        result=result,
        reason=tags.get("Termination", ""),
        date=_known(tags.get("Date", "")),
        round=_known(tags.get("Round", "")),
        event=_known(tags.get("Event", "")),
        site=_known(tags.get("Site", "")),
        other_tags=other_tags(tags.items()),
        time_control=_optional(lambda: time_control_from_tags(tags, PDN_COLOURS), None, left_out),
        clocks=clocks,
        review=review,
        left_out=left_out,
    )
