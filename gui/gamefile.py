"""Games as documents: read and write whole games, and read pasted positions.

No Qt here (the app's file dialogs and clipboard call in); text in, text out, and a bad
file is one ``RecordError`` whose message says what is wrong and where. No pickle.
The record type and the writers and readers of the three formats live in
``games/records.py`` (shared with the engine's match files); this module is the app's
face of them and reads pasted positions.

Formats
=======

* **Chess: PGN** (``.pgn``). The Seven Tag Roster, ``FEN``/``SetUp`` for a game that starts
  elsewhere, and the engine's evaluation after a move as a Lichess-style comment
  ``{[%eval 0.35]}`` or ``{[%eval #-3]}`` (white's view, pawns / moves to mate); a game on a
  clock has ``[TimeControl "300+3"]`` (seconds + increment) and the mover's time left after
  each move in the same comment, ``{[%eval 0.35] [%clk 0:04:58]}``, as Lichess writes them.
  Read strictly through ``games.chess_game.pgn`` (a word that is not a move is an error).
* **Checkers: PDN** (``.pdn``). Tags ``[Event]``, ``[Black]``, ``[White]``, ``[Result]``,
  ``[GameType "21"]`` (English draughts) and ``[FEN "B:W...:B..."]`` when the game does not
  start from the initial position; then ``1. 11-15 23-19 2. 8-11 ...`` and the result
  (``2-0`` Black won, ``0-2`` White won, ``1-1`` draw, ``*`` unfinished). Evaluations as
  ``{[%eval 0.50]}`` comments (black's view, men), as in PGN.
* **Othello, backgammon, tic-tac-toe: Plyground JSON** (``.json``)::

      {
        "format": "plyground-game",      # always this string
        "version": 1,                     # this layout
        "game": "othello",               # a registry name: games.GAME_NAMES
        "start": "<position text>",      # the game's own notation (Othello OBF board,
                                          #   gnubg PositionID:MatchID, tic-tac-toe x/o/.)
        "moves": ["d3", "c5", ...],      # every move in the game's notation, from "start";
                                          #   backgammon's dice rolls and cube actions are moves too
        "evaluations": ["+0.35", null],  # optional, one per move: the engine's score after it,
                                          #   from the first player's view, as the app shows it
        "players": ["Human", "Computer (PVS, level 5)"],   # optional, who played each side
        "result": "1-0",                 # optional: "1-0", "0-1", "1/2-1/2" or "*"
        "reason": "disc count 40-24",    # optional: why the game ended (resignation, ...)
        "date": "2026.11.24",            # optional
        "round": "3",                     # optional: the game's number in a match
        "opening_plies": 4,               # optional: how many moves came from an opening book
        "time_control": {"base": [300, 300], "increment": [3, 3]},   # optional: the clock, in
                                          #   seconds per player (games.clock.TimeControl)
        "clocks": [300, 297.5, null],     # optional, one per move: the mover's seconds left after
                                          #   it, increment included (PGN's %clk); null: none
        "match": {                        # optional, backgammon: the match the game is part of
          "start": {"length": 7, "score": [3, 2], "crawford": false,
                    "games": [{"winner": 0, "points": 2, "cube": 2, "dropped": false}, ...]},
                                          #   the match before this game and the results so far
          "games": [{"format": "plyground-game", ...}, ...]
                                          #   the games before this one, each a document of this
                                          #   format (its own start carries its score)
        }
      }

  A backgammon game of a match is saved with its match whole, as GNU Backgammon saves a
  match: opening the file goes on with the match and its earlier games. The entry is checked
  as a whole (``games.records.match_history_from_json``: it agrees with the game's Match ID,
  and each earlier game reads and leads to the next one's score); one that does not is left
  out, said in one line, and the game opens as a match from its Match ID's score. A money
  game has no ``match``.

  Every game may also be saved in this format (the app's autosave does), so a game of any
  kind can be written and read with one format.

Pasted positions: the current game's ``from_text`` first (FEN, PDN FEN, Othello OBF text,
gnubg Position ID / ``PositionID:MatchID``, tic-tac-toe ``x.o......``), then every other
game, so pasting a FEN while playing Othello switches to chess.
"""

from __future__ import annotations

import codecs
import errno
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from games import GAME_NAMES, get_game
from games.base import GameError, GameState
from games.records import (
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_FILE_CHARS,
    RESULTS,
    GameRecord,
    RecordError,
    default_extension,
    evaluation_from_token,
    evaluation_token,
    one_line,
    read_game,
    write_game,
)

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "MAX_FILE_CHARS",
    "RESULTS",
    "GameRecord",
    "PastedPosition",
    "RecordError",
    "decode_game_text",
    "default_extension",
    "evaluation_from_token",
    "evaluation_token",
    "one_line",
    "read_game",
    "read_game_file",
    "try_read_game_file",
    "read_paste",
    "read_position",
    "write_game",
]


# --------------------------------------------------------------------------- files
MAX_FILE_BYTES = 5_000_000
"""A game file bigger than this is not a game (as ``MAX_FILE_CHARS`` for text)."""
BACKGROUND_BYTES = 200_000
"""A file bigger than this is read off the GUI thread: the worst 5 MB file of comments takes
a few seconds to check even in linear time, and a game of 1,000 moves is a few kB."""
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16 LE, whose mark begins the same
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
SNIFF_BYTES = 4096
"""How much of a file without a byte-order mark is looked at to tell UTF-16 by its zeros."""


def decode_game_text(raw: bytes) -> str:
    """The text of a game file's bytes: a byte-order mark decides (UTF-8, UTF-16, UTF-32;
    Windows tools write UTF-16 with one); without one, text whose every other byte is zero
    is UTF-16 (ASCII moves and tags in two bytes each); then UTF-8, then Windows-1252
    (ChessBase and older tools), then Latin-1 (which reads any bytes).
    ``RecordError`` when the mark's encoding does not fit the bytes."""
    for mark, encoding in _BOMS:
        if raw.startswith(mark):
            return _decode(raw[len(mark):], encoding)
    head = raw[:SNIFF_BYTES]
    if len(head) >= 2 and head.count(0) * 4 >= len(head):
        even_zeros, odd_zeros = head[0::2].count(0), head[1::2].count(0)
        if odd_zeros > 2 * even_zeros:
            return _decode(raw, "utf-16-le")
        if even_zeros > 2 * odd_zeros:
            return _decode(raw, "utf-16-be")
    for encoding in ("utf-8", "cp1252"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return raw.decode("latin-1")


def _decode(raw: bytes, encoding: str) -> str:
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as error:
        raise RecordError(f"the file looks like {encoding.upper()} text, but byte {error.start:,} is not") from None


def read_game_file(path: Path) -> GameRecord:
    """The game in the file ``path`` (its size checked before it is read, its encoding
    found by ``decode_game_text``, its format by its extension and content). ``OSError``
    when it cannot be read, ``RecordError`` when it is no game. Pure work with no Qt: may
    run on any thread (the window reads files over ``BACKGROUND_BYTES`` off the GUI one)."""
    status = path.stat()
    if stat.S_ISDIR(status.st_mode):
        raise IsADirectoryError(errno.EISDIR, "it is a folder, not a file")
    if not stat.S_ISREG(status.st_mode):  # a pipe would block the reader, a device never end
        raise RecordError("it is not a regular file (a device or a pipe), so no game file")
    size = status.st_size
    if size > MAX_FILE_BYTES:
        raise RecordError(f"{size:,} bytes is far too big for a game file")
    with open(path, "rb") as file:
        raw = file.read(MAX_FILE_BYTES + 1)  # a file that grew, or a device that never ends
    if len(raw) > MAX_FILE_BYTES:
        raise RecordError(f"more than {MAX_FILE_BYTES:,} bytes is far too big for a game file")
    return read_game(decode_game_text(raw), path.suffix)


def try_read_game_file(path: Path) -> GameRecord | OSError | RecordError:
    """``read_game_file``'s game or its error as a value: what a reading thread hands
    back to the GUI thread."""
    try:
        return read_game_file(path)
    except (OSError, RecordError) as error:
        return error


# --------------------------------------------------------------------------- positions
@dataclass(frozen=True)
class PastedPosition:
    game: str
    state: GameState


def read_position(text: str, preferred: str | None = None) -> PastedPosition:
    """The position in pasted ``text``: the ``preferred`` game's notation first, then the
    others. ``RecordError`` gives the preferred game's reason when nothing fits."""
    if not isinstance(text, str) or not text.strip():
        raise RecordError("nothing to paste: the clipboard has no text")
    if len(text) > 10_000:
        raise RecordError("the pasted text is far too long for a position")
    cleaned = text.strip()
    order = ([preferred] if preferred in GAME_NAMES else []) + [name for name in GAME_NAMES if name != preferred]
    reasons: dict[str, str] = {}
    for name in order:
        try:
            state = get_game(name).from_text(cleaned)
        except (ValueError, RecursionError, OverflowError, TypeError, KeyError, IndexError) as error:  # GameError too
            reasons[name] = str(error) or type(error).__name__  # a game's reader failing on hostile text is a reason, not a crash
            continue
        return PastedPosition(name, state)
    first = order[0]
    short = cleaned if len(cleaned) <= 40 else cleaned[:37] + "..."
    raise RecordError(one_line(f"{short!r} is no position of any game; as {first}: {reasons[first]}"))


def read_paste(text: str, preferred: str | None = None) -> GameRecord:
    """Pasted text as a game: a whole game (PGN, PDN, JSON) or a position to start from."""
    stripped = text.strip() if isinstance(text, str) else ""
    looks_like_game = stripped.startswith(("{", "[")) or bool(re.match(r"^1\.", stripped))
    if looks_like_game and not re.fullmatch(r'\[\s*FEN\s+"[^"]*"\s*\]', stripped):
        return read_game(stripped)
    pasted = read_position(stripped, preferred)
    return GameRecord(game=pasted.game, start=pasted.state.to_text())
