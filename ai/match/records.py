"""Match games as files: PGN for chess, PDN for checkers, Plyground JSON for the others.

The formats are the app's own (``gui/gamefile.py`` reads and writes the same three), written
here from the games' notation modules so that the engine's command line needs no GUI code:

* chess: PGN through ``games.chess_game.pgn.to_pgn`` (python-chess's exporter), read back
  strictly with ``from_pgn``;
* checkers: PDN, ``[GameType "21"]`` (English draughts), ``[FEN]`` when the game does not
  start from the initial position, moves as the game names them (``11-15``, ``22x15``),
  results ``2-0`` / ``0-2`` / ``1-1``;
* others: one JSON object per game, ``{"format": "plyground-game", "version": 1, "game",
  "start", "moves", "players", "result", "reason"}``; a match file holds one per line.

``GameRecord.replay`` checks every move against the rules, so a record that was written can
always be read back, and reading is how the tests check the files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from games import GameState, new_game
from games.base import GameError

FORMAT_NAME = "plyground-game"
FORMAT_VERSION = 1
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
"""First player won, second player won, draw, unfinished (the app's results)."""
PDN_RESULTS = {"1-0": "2-0", "0-1": "0-2", "1/2-1/2": "1-1", "*": "*"}
"""The app's results as English draughts PDN writes them."""
EXTENSIONS = {"chess": "pgn", "checkers": "pdn"}
"""The native file format of each game; the others are JSON."""
JSON_FORMAT = "json"


class RecordError(ValueError):
    """A game record that cannot be read back; the message says where and why."""


@dataclass
class GameRecord:
    """One game: where it started, every move by name, who played and how it ended."""

    game: str
    start: str
    moves: list[str] = field(default_factory=list)
    players: tuple[str, str] = ("?", "?")
    """Who played player 0 (White in chess, Black in checkers/Othello) and player 1."""
    result: str = "*"
    reason: str = ""
    round: str = "?"
    opening_plies: int = 0
    """How many of ``moves`` came from the opening book rather than the players."""

    def replay(self) -> GameState:
        """The final state, every move checked (``RecordError`` names the first bad one)."""
        try:
            state = new_game(self.game, self.start)
        except GameError as error:
            raise RecordError(f"start position: {error}") from None
        for number, name in enumerate(self.moves, start=1):
            try:
                state.play_checked(state.parse_move(name))
            except GameError as error:
                raise RecordError(f"move {number} ({name!r}): {error}") from None
        return state


def file_format(game: str) -> str:
    """``pgn``, ``pdn`` or ``json``: the format a match of ``game`` is written in."""
    return EXTENSIONS.get(game, JSON_FORMAT)


def write_games(records: Iterable[GameRecord], game: str) -> str:
    """Every record as one text in the game's format (games separated by a blank line,
    JSON one object a line)."""
    fmt = file_format(game)
    if fmt == "pgn":
        return "\n".join(to_pgn(record) for record in records)
    if fmt == "pdn":
        return "\n".join(to_pdn(record) for record in records)
    return "".join(json.dumps(to_json(record), ensure_ascii=False) + "\n" for record in records)


def to_pgn(record: GameRecord) -> str:
    from games.chess_game.pgn import to_pgn as state_to_pgn

    headers = {
        "Event": "Plyground match",
        "Site": "Plyground",
        "Round": record.round,
        "White": record.players[0],
        "Black": record.players[1],
        "Result": record.result,
    }
    if record.reason:
        headers["Termination"] = record.reason
    return str(state_to_pgn(record.replay(), headers)).rstrip("\n") + "\n"  # type: ignore[arg-type]


def to_pdn(record: GameRecord) -> str:
    record.replay()  # only readable games are written
    tags = [
        ("Event", "Plyground match"),
        ("Round", record.round),
        ("Black", record.players[0]),
        ("White", record.players[1]),
        ("Result", PDN_RESULTS.get(record.result, "*")),
        ("GameType", "21"),
    ]
    if record.start != new_game(record.game).to_text():
        tags.append(("FEN", record.start))
    if record.reason:
        tags.append(("Termination", record.reason))
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags]
    state = new_game(record.game, record.start)
    first_mover = state.to_move()
    words: list[str] = []
    for index, name in enumerate(record.moves):
        mover = state.to_move()
        if mover == 0 or index == 0:
            number = (index + first_mover) // 2 + 1
            words.append(f"{number}." if mover == 0 else f"{number}...")
        words.append(name)
        state.play(state.parse_move(name))
    words.append(PDN_RESULTS.get(record.result, "*"))
    return "\n".join(lines) + "\n\n" + _wrap(words) + "\n"


def to_json(record: GameRecord) -> dict[str, object]:
    document: dict[str, object] = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "game": record.game,
        "start": record.start,
        "moves": list(record.moves),
        "players": list(record.players),
        "result": record.result,
    }
    if record.reason:
        document["reason"] = record.reason
    if record.opening_plies:
        document["opening_plies"] = record.opening_plies
    return document


# --------------------------------------------------------------------------- reading
def read_games(text: str, game: str) -> list[GameRecord]:
    """The records of a match file written by ``write_games`` (every move checked)."""
    fmt = file_format(game)
    if fmt == "pgn":
        return [_read_pgn(chunk) for chunk in _split_games(text)]
    if fmt == "pdn":
        return [_read_pdn(chunk, game) for chunk in _split_games(text)]
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                records.append(from_json(json.loads(line)))
            except (json.JSONDecodeError, RecordError) as error:
                raise RecordError(f"line {number}: {error}") from None
    return records


def from_json(document: object) -> GameRecord:
    if not isinstance(document, dict) or document.get("format") != FORMAT_NAME:
        raise RecordError(f'not a Plyground game: "format" must be "{FORMAT_NAME}"')
    if document.get("version") != FORMAT_VERSION:
        raise RecordError(f"version {document.get('version')!r} is not {FORMAT_VERSION}")
    players = document.get("players", ["?", "?"])
    record = GameRecord(
        game=str(document["game"]),
        start=str(document["start"]),
        moves=[str(move) for move in document.get("moves", [])],
        players=(str(players[0]), str(players[1])),
        result=str(document.get("result", "*")),
        reason=str(document.get("reason", "")),
        opening_plies=int(document.get("opening_plies", 0)),
    )
    if record.result not in RESULTS:
        raise RecordError(f"result {record.result!r} is not one of {', '.join(RESULTS)}")
    record.replay()
    return record


_GAME_START = re.compile(r"\n\s*\n(?=\[)")
_TAG = re.compile(r'^\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]$')


def _split_games(text: str) -> list[str]:
    return [chunk.strip() + "\n" for chunk in _GAME_START.split(text.strip()) if chunk.strip()]


def _read_pgn(text: str) -> GameRecord:
    from games.chess_game.pgn import from_pgn

    try:
        parsed = from_pgn(text)
    except GameError as error:
        raise RecordError(str(error)) from None
    board = parsed.state.board.root()
    start = board.fen()
    names = []
    for move in parsed.moves:
        names.append(board.san(move))
        board.push(move)
    headers = parsed.headers
    return GameRecord(
        "chess", start, names, (headers.get("White", "?"), headers.get("Black", "?")),
        parsed.result, headers.get("Termination", ""), headers.get("Round", "?"),
    )


def _read_pdn(text: str, game: str) -> GameRecord:
    tags: dict[str, str] = {}
    lines = text.splitlines()
    index = 0
    while index < len(lines) and (not lines[index].strip() or lines[index].startswith("[")):
        line = lines[index].strip()
        if line:
            match = _TAG.match(line)
            if match is None:
                raise RecordError(f"PDN tag line {line!r} is not [Name \"value\"]")
            tags[match.group(1)] = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
        index += 1
    words = " ".join(lines[index:]).split()
    results = {pdn: result for result, pdn in PDN_RESULTS.items()}
    if not words or words[-1] not in results:
        raise RecordError("PDN movetext must end with a result (2-0, 0-2, 1-1 or *)")
    moves = [word for word in words[:-1] if not re.fullmatch(r"\d+\.(\.\.)?", word)]
    record = GameRecord(
        game, tags.get("FEN", new_game(game).to_text()), moves,
        (tags.get("Black", "?"), tags.get("White", "?")), results[words[-1]],
        tags.get("Termination", ""), tags.get("Round", "?"),
    )
    record.replay()
    return record


def _escape(value: str) -> str:
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
