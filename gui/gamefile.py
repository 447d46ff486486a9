"""Games as documents: read and write whole games, and read pasted positions.

No Qt here (the app's file dialogs and clipboard call in); text in, text out, and a bad
file is one ``GameFileError`` whose message says what is wrong and where. No pickle.

Formats
=======

* **Chess: PGN** (``.pgn``). The Seven Tag Roster, ``FEN``/``SetUp`` for a game that starts
  elsewhere, and the engine's evaluation after a move as a Lichess-style comment
  ``{[%eval 0.35]}`` or ``{[%eval #-3]}`` (white's view, pawns / moves to mate).
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
        "date": "2026.11.24"             # optional
      }

  Every game may also be saved in this format (the app's autosave does), so a game of any
  kind can be written and read with one format.

Pasted positions: the current game's ``from_text`` first (FEN, PDN FEN, Othello OBF text,
gnubg Position ID / ``PositionID:MatchID``, tic-tac-toe ``x.o......``), then every other
game, so pasting a FEN while playing Othello switches to chess.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from games import GAME_NAMES, get_game, new_game
from games.base import GameError, GameState

FORMAT_NAME = "plyground-game"
FORMAT_VERSION = 1
MAX_FILE_CHARS = 5_000_000
"""A game file bigger than this is not a game (a 1,000-move game is a few kB)."""
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
"""Results as the app stores them: first player won, second player won, draw, unfinished."""
PDN_RESULTS = {"2-0": "1-0", "0-2": "0-1", "1-1": "1/2-1/2", "*": "*", "1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2"}
"""PDN result markers (English draughts writes 2-0/0-2/1-1) -> the app's results."""
PDN_RESULT_OUT = {"1-0": "2-0", "0-1": "0-2", "1/2-1/2": "1-1", "*": "*"}
EXTENSIONS = {"chess": "pgn", "checkers": "pdn"}
"""The file extension of each game's native format; others use JSON."""
JSON_EXTENSION = "json"

_EVAL_COMMENT = re.compile(r"\[%eval\s+([^\]\s]+)\s*\]")


class GameFileError(ValueError):
    """A game file or pasted text that cannot be read; the message says why."""


@dataclass
class GameRecord:
    """A whole game as a document: where it started and every move since, by name."""

    game: str
    start: str
    moves: list[str] = field(default_factory=list)
    evaluations: list[str | None] = field(default_factory=list)
    players: tuple[str, str] = ("", "")
    result: str = "*"
    reason: str = ""
    date: str = ""

    def replay(self) -> GameState:
        """The state after every move (with its history), checking each move.

        ``GameFileError`` names the first move that is not legal.
        """
        try:
            state = new_game(self.game, self.start)
        except GameError as error:
            raise GameFileError(f"start position: {error}") from None
        for number, name in enumerate(self.moves, start=1):
            try:
                state.play_checked(state.parse_move(name))
            except GameError as error:
                raise GameFileError(f"move {number} ({name!r}): {error}") from None
        return state


def default_extension(game: str) -> str:
    return EXTENSIONS.get(game, JSON_EXTENSION)


# --------------------------------------------------------------------------- writing
def write_game(record: GameRecord, fmt: str | None = None) -> str:
    """``record`` as text in format ``fmt`` (``pgn``, ``pdn`` or ``json``; by default the
    game's native one)."""
    fmt = fmt or default_extension(record.game)
    if fmt == "pgn":
        return _write_pgn(record)
    if fmt == "pdn":
        return _write_pdn(record)
    if fmt == JSON_EXTENSION:
        return _write_json(record)
    raise GameFileError(f"unknown game file format {fmt!r}: use pgn, pdn or json")


def _write_json(record: GameRecord) -> str:
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
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def _write_pgn(record: GameRecord) -> str:
    import chess.pgn

    from games.chess_game.state import ChessState

    state = record.replay()
    assert isinstance(state, ChessState)
    game = chess.pgn.Game.from_board(state.board)
    game.headers["Event"] = "Plyground game"
    game.headers["Site"] = "Plyground"
    if record.date:
        game.headers["Date"] = record.date
    game.headers["White"] = record.players[0] or "?"
    game.headers["Black"] = record.players[1] or "?"
    game.headers["Result"] = record.result if record.result in RESULTS else "*"
    if record.reason:
        game.headers["Termination"] = record.reason
    for node, evaluation in zip(game.mainline(), record.evaluations):
        if evaluation is not None:
            node.comment = f"[%eval {evaluation_token(evaluation)}]"
    exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=True)
    return str(game.accept(exporter)) + "\n"


def _write_pdn(record: GameRecord) -> str:
    initial = new_game(record.game).to_text()
    record.replay()  # checks every move, so the file written is always readable
    tags = [
        ("Event", "Plyground game"),
        ("Date", record.date or "????.??.??"),
        ("Black", record.players[0] or "?"),
        ("White", record.players[1] or "?"),
        ("Result", PDN_RESULT_OUT.get(record.result, "*")),
        ("GameType", "21"),
    ]
    if record.start != initial:
        tags.append(("FEN", record.start))
    if record.reason:
        tags.append(("Termination", record.reason))
    lines = [f'[{name} "{_escape_tag(value)}"]' for name, value in tags]
    state = new_game(record.game, record.start)
    first_mover = state.to_move()
    words: list[str] = []
    for index, name in enumerate(record.moves):
        mover = state.to_move()
        if mover == 0 or index == 0:
            number = (index + (1 if first_mover else 0)) // 2 + 1
            words.append(f"{number}." if mover == 0 else f"{number}...")
        words.append(name)
        evaluation = record.evaluations[index] if index < len(record.evaluations) else None
        if evaluation is not None:
            words.append(f"{{[%eval {evaluation_token(evaluation)}]}}")
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


# --------------------------------------------------------------------------- reading
def read_game(text: str, hint: str | None = None) -> GameRecord:
    """The game in ``text`` (PGN, PDN or Plyground JSON; ``hint`` is a file extension or
    a format name that is tried first). Every move is checked against the rules.
    ``GameFileError`` says what is wrong."""
    if not isinstance(text, str):
        raise GameFileError(f"a game file is text, not {type(text).__name__}")
    if len(text) > MAX_FILE_CHARS:
        raise GameFileError(f"the file has {len(text):,} characters: far too long for a game")
    stripped = text.lstrip("\ufeff").strip()
    if not stripped:
        raise GameFileError("the file is empty: no game in it")
    fmt = (hint or "").lower().lstrip(".")
    if stripped.startswith("{") or fmt == JSON_EXTENSION:
        return _read_json(stripped)
    if fmt == "pdn" or (fmt != "pgn" and _looks_like_pdn(stripped)):
        return _read_pdn(stripped)
    return _read_pgn(stripped)


def _looks_like_pdn(text: str) -> bool:
    if re.search(r'\[GameType\s+"2[01]', text):
        return True
    movetext = re.sub(r"\[[^\]]*\]|\{[^}]*\}", " ", text)
    return bool(re.search(r"\b\d{1,2}\s*[-x]\s*\d{1,2}\b", movetext)) and not re.search(
        r"\b[a-h][1-8]\b", movetext
    )


def _read_json(text: str) -> GameRecord:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise GameFileError(f"not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    if not isinstance(document, dict):
        raise GameFileError("a Plyground game file is a JSON object, not a list or a value")
    if document.get("format") != FORMAT_NAME:
        raise GameFileError(f'not a Plyground game file: "format" must be "{FORMAT_NAME}"')
    version = document.get("version")
    if version != FORMAT_VERSION:
        raise GameFileError(f"Plyground game file version {version!r} is not supported (this app reads version {FORMAT_VERSION})")
    game = document.get("game")
    if game not in GAME_NAMES:
        raise GameFileError(f'"game" must be one of {", ".join(GAME_NAMES)}, not {game!r}')
    start = document.get("start", new_game(game).to_text())
    moves = document.get("moves", [])
    if not isinstance(start, str):
        raise GameFileError('"start" must be the position as text')
    if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
        raise GameFileError('"moves" must be a list of moves as text')
    evaluations = document.get("evaluations", [])
    if not isinstance(evaluations, list) or not all(value is None or isinstance(value, str) for value in evaluations):
        raise GameFileError('"evaluations" must be a list of texts or nulls')
    players = document.get("players", ["", ""])
    if not (isinstance(players, list) and len(players) == 2 and all(isinstance(name, str) for name in players)):
        raise GameFileError('"players" must be a list of two names')
    result = document.get("result", "*")
    if result not in RESULTS:
        raise GameFileError(f'"result" must be one of {", ".join(RESULTS)}, not {result!r}')
    reason = document.get("reason", "")
    date = document.get("date", "")
    if not isinstance(reason, str) or not isinstance(date, str):
        raise GameFileError('"reason" and "date" must be text')
    record = GameRecord(
        game=game,
        start=start,
        moves=list(moves),
        evaluations=_fit(evaluations, len(moves)),
        players=(players[0], players[1]),
        result=result,
        reason=reason,
        date=date,
    )
    record.replay()
    return record


def _fit(evaluations: list[str | None], count: int) -> list[str | None]:
    return (list(evaluations) + [None] * count)[:count]


def _read_pgn(text: str) -> GameRecord:
    import chess.pgn

    from games.chess_game.pgn import from_pgn

    try:
        parsed = from_pgn(text)
    except GameError as error:
        raise GameFileError(str(error)) from None
    state = parsed.state
    root = state.board.root()
    start = root.fen()
    names: list[str] = []
    board = root.copy()
    for move in parsed.moves:
        names.append(board.san(move))
        board.push(move)
    evaluations: list[str | None] = []
    game = chess.pgn.read_game(io.StringIO(text))
    if game is not None:
        for node in game.mainline():
            match = _EVAL_COMMENT.search(node.comment or "")
            evaluations.append(evaluation_from_token(match.group(1)) if match else None)
    headers = parsed.headers
    result = parsed.result
    return GameRecord(
        game="chess",
        start=start,
        moves=names,
        evaluations=_fit(evaluations, len(names)),
        players=(_known(headers.get("White", "")), _known(headers.get("Black", ""))),
        result=result,
        reason=headers.get("Termination", ""),
        date=_known(headers.get("Date", "")),
    )


def _known(value: str) -> str:
    return "" if set(value) <= set("?.") else value


_PDN_TAG = re.compile(r'^\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]$')
_PDN_MOVE_NUMBER = re.compile(r"^\d+\.(\.\.)?$")
_PDN_MOVE = re.compile(r"^(\d+\.(?:\.\.)?)?(\d{1,2}(?:[-x]\d{1,2})+)[!?]*$")


def _read_pdn(text: str) -> GameRecord:
    tags: dict[str, str] = {}
    lines = text.splitlines()
    index = 0
    while index < len(lines) and (not lines[index].strip() or lines[index].lstrip().startswith("[")):
        line = lines[index].strip()
        if line:
            match = _PDN_TAG.match(line)
            if not match:
                raise GameFileError(f'PDN line {index + 1} is not a tag of the form [Name "value"]: {line[:60]!r}')
            tags[match.group(1)] = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
        index += 1
    game_type = tags.get("GameType", "21").split(",")[0].strip()
    if game_type != "21":
        raise GameFileError(f"PDN GameType {game_type} is not English draughts (21): only checkers games are read")
    body = "\n".join(lines[index:])
    if re.search(r"\n\s*\[", "\n" + body):
        body = re.split(r"\n\s*\[", "\n" + body, maxsplit=1)[0]  # only the first game
    if "{" in re.sub(r"\{[^}]*\}", "", body):
        raise GameFileError("a PDN comment opened with '{' is never closed with '}'")
    evaluations_by_move: dict[int, str] = {}
    tokens: list[tuple[str, str]] = []
    for match in re.finditer(r"\{([^}]*)\}|\(|\)|[^\s{}()]+", body):
        word = match.group(0)
        if word.startswith("{"):
            found = _EVAL_COMMENT.search(match.group(1))
            if found and tokens:
                evaluations_by_move[len([t for t in tokens if t[0] == "move"]) - 1] = evaluation_from_token(found.group(1))
            continue
        if word in "()":
            raise GameFileError("PDN variations in parentheses are not read: save the main line only")
        if word in PDN_RESULTS:
            kind = "result"
        elif _PDN_MOVE_NUMBER.match(word):
            kind = "number"
        elif _PDN_MOVE.match(word):
            kind = "move"
        else:
            raise GameFileError(f"PDN movetext word {word!r} is not a move, move number or result")
        tokens.append((kind, word))
    start = tags.get("FEN") or new_game("checkers").to_text()
    try:
        state = new_game("checkers", start)
    except GameError as error:
        raise GameFileError(f"PDN start position: {error}") from None
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
            raise GameFileError(f"PDN move {len(names) + 1} ({move_text}): {error}") from None
        names.append(move_text)
    # the canonical names (as the app writes them): replay and name
    canonical: list[str] = []
    replay = new_game("checkers", start)
    for name in names:
        move = replay.parse_move(name)
        canonical.append(replay.move_name(move))
        replay.play(move)
    evaluations = [evaluations_by_move.get(number) for number in range(len(canonical))]
    return GameRecord(
        game="checkers",
        start=start,
        moves=canonical,
        evaluations=evaluations,
        players=(_known(tags.get("Black", "")), _known(tags.get("White", ""))),
        result=result,
        reason=tags.get("Termination", ""),
        date=_known(tags.get("Date", "")),
    )


# --------------------------------------------------------------------------- positions
@dataclass(frozen=True)
class PastedPosition:
    game: str
    state: GameState


def read_position(text: str, preferred: str | None = None) -> PastedPosition:
    """The position in pasted ``text``: the ``preferred`` game's notation first, then the
    others. ``GameFileError`` gives the preferred game's reason when nothing fits."""
    if not isinstance(text, str) or not text.strip():
        raise GameFileError("nothing to paste: the clipboard has no text")
    if len(text) > 10_000:
        raise GameFileError("the pasted text is far too long for a position")
    cleaned = text.strip()
    order = ([preferred] if preferred in GAME_NAMES else []) + [name for name in GAME_NAMES if name != preferred]
    reasons: dict[str, str] = {}
    for name in order:
        try:
            state = get_game(name).from_text(cleaned)
        except (GameError, ValueError) as error:
            reasons[name] = str(error)
            continue
        return PastedPosition(name, state)
    first = order[0]
    short = cleaned if len(cleaned) <= 40 else cleaned[:37] + "..."
    raise GameFileError(f"{short!r} is no position of any game; as {first}: {reasons[first]}")


def read_paste(text: str, preferred: str | None = None) -> GameRecord:
    """Pasted text as a game: a whole game (PGN, PDN, JSON) or a position to start from."""
    stripped = text.strip() if isinstance(text, str) else ""
    looks_like_game = stripped.startswith(("{", "[")) or bool(re.match(r"^1\.", stripped))
    if looks_like_game and not re.fullmatch(r'\[\s*FEN\s+"[^"]*"\s*\]', stripped):
        return read_game(stripped)
    pasted = read_position(stripped, preferred)
    return GameRecord(game=pasted.game, start=pasted.state.to_text())
