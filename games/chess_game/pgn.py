"""Whole games as PGN text, through ``chess.pgn``, strict where ``chess.pgn`` is lenient.

``chess.pgn.read_game`` skips what it cannot read: malformed header lines, words that are
not moves ("hello" parses as an empty game), and it only *collects* illegal moves in
``game.errors``. A game file that silently loses moves is worse than an error, so
``from_pgn`` checks the header lines and every movetext token first, then refuses a game
with any collected error. No I/O here: text in, text out.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import chess
import chess.pgn

from games.base import BadPositionError, IllegalMoveError
from games.chess_game import notation
from games.chess_game.state import WHITE, ChessState

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
"""The four PGN game-termination markers."""
UNFINISHED = "*"
DRAW = "1/2-1/2"
SEVEN_TAG_ROSTER: dict[str, str] = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
    "Result": UNFINISHED,
}
"""The PGN standard's required tags, with its "unknown" values."""
POSITION_TAGS = frozenset({"FEN", "SetUp"})
"""Tags that describe the start position: always written from the state itself."""

_SAN = r"(?:[NBKRQ]?[a-h]?[1-8]?[\-x]?[a-h][1-8](?:=?[nbrqNBRQ])?|O-O(?:-O)?|0-0(?:-0)?|--|Z0)[+#]?"
_VALID_TOKEN = re.compile(
    rf"^(?:\d+\.*|(?:\d+\.+)?{_SAN}[!?]{{0,2}}|\$\d+|[!?]{{1,2}}|1-0|0-1|1/2-1/2|\*)$"
)
"""A movetext word: a move number, a SAN move (with optional number and glyph), a NAG,
a glyph or a result."""
_MOVE_WORD = re.compile(rf"^(?:\d+\.+)?{_SAN}[!?]{{0,2}}$")
"""A movetext word that is a move (possibly with its number and a glyph)."""
_COMMENT_START = re.compile(r"[{;]")
_DROPPED = re.compile(
    r"(\{[^}]*\Z|\{[^}%]*%[^}]*\})"  # kept: a comment never closed (reported by the scan), one with a % command
    r"|\{[^}]*\}|;[^\n]*|^%[^\n]*"  # dropped: other comments, escape lines
    r"|(?s:^\[.*)",  # dropped: the next game's headers and all after them
    re.MULTILINE,
)
"""What the line-by-line scan need not see, matched left to right as a PGN reader reads (a
comment's ``;`` or ``{`` is the comment's own), removed at C speed: most of a big file. Each
alternative stops at its comment's end or at the text's, so the pass is linear."""
_KEPT_COMMANDS = re.compile(r"\[%(eval|clk)\s+[^\]\s]+\s*\]|\[%(review)\s+[^\]]*\]")
"""The comment commands a record reads, as Lichess writes them: an evaluation
(``[%eval 0.35]``, ``[%eval #-3]``) and a clock reading (``[%clk 0:04:58]``); and a move's
review (``games.annotations.REVIEW_COMMAND``, several words)."""
_MOVETEXT_TOKEN = re.compile(r"[()]|[^\s()]+")
KEPT_COMMENTS_PER_MOVE = 3
"""A move keeps the commands of up to this many of its comments (an ``[%eval]``, a ``[%clk]``
and a ``[%review]`` may stand in comments of their own); ``chess.pgn`` joins them, and a
bound keeps its quadratic joining of a node's comments out of reach."""
ECHO_LIMIT = 60
"""Characters of the file's own text quoted in an error message before it is cut."""


def echo(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` fit to quote in a one-line message: a long word of a hostile file is cut
    to its first ``limit`` characters and its length."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


class PgnError(BadPositionError):
    """A PGN game that cannot be read completely; the message says where and why."""


@dataclass
class PgnGame:
    """A game read from PGN: its tags and the state after the main line.

    ``state`` keeps the whole game (``undo`` steps back through it, and the repetition
    rule sees it); ``state.board.root()`` is the start position.
    """

    headers: dict[str, str]
    state: ChessState
    moves: list[chess.Move] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    """The comment after each move of ``moves``: its ``[%eval]`` and ``[%clk]`` if it had
    them, else ""."""

    @property
    def result(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (from the Result tag)."""
        return self.headers.get("Result", UNFINISHED)


def game_result(state: ChessState) -> str:
    """The PGN result of ``state`` by the rules: ``*`` while the game goes on."""
    if not state.is_terminal():
        return UNFINISHED
    value = state.utility(WHITE)
    if value > 0:
        return "1-0"
    if value < 0:
        return "0-1"
    return DRAW


def to_pgn(state: ChessState, headers: Mapping[str, str] | None = None) -> str:
    """The game that led to ``state`` (from its start position) as PGN text.

    ``headers`` are added to the Seven Tag Roster. ``Result`` is the rules' result when the
    game is over; while it goes on, a given ``Result`` (a resignation, say) is kept.
    ``FEN``/``SetUp`` always describe the real start position.
    """
    game = chess.pgn.Game.from_board(state.board)
    tags = dict(SEVEN_TAG_ROSTER)
    tags.update({name: value for name, value in (headers or {}).items() if name not in POSITION_TAGS})
    rules_result = game_result(state)
    if rules_result != UNFINISHED or tags.get("Result") not in RESULTS:
        tags["Result"] = rules_result
    for name, value in tags.items():
        game.headers[name] = value
    exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=True)
    return game.accept(exporter)


def _move_number(board: chess.Board) -> str:
    """``12. `` before white's move, ``12... `` before black's: how PGN numbers a move."""
    return f"{board.fullmove_number}{'. ' if board.turn == chess.WHITE else '... '}"


class _QuietGameBuilder(chess.pgn.GameBuilder):  # type: ignore[type-arg]
    """``GameBuilder`` that collects errors without logging them (games/ does no I/O), and
    says why a move is illegal, at which move number."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)

    def parse_san(self, board: chess.Board, san: str) -> chess.Move:
        try:
            return board.parse_san(san)
        except ValueError as error:
            try:
                notation.parse_move(board, san)
            except IllegalMoveError as reason:
                raise PgnError(f"PGN move {_move_number(board)}{reason}") from None
            raise PgnError(f"PGN move {_move_number(board)}{san}: {error}") from None


def from_pgn(text: str) -> PgnGame:
    """The first game in PGN ``text``; ``PgnError`` if any part of it cannot be read."""
    if not isinstance(text, str):
        raise PgnError(f"PGN is text, not {type(text).__name__}")
    if not text.strip():
        raise PgnError("empty PGN: no game")
    readable = _check_syntax(text)
    try:
        game = chess.pgn.read_game(io.StringIO(readable), Visitor=_QuietGameBuilder)
    except Exception as error:  # noqa: BLE001 - python-chess's reader has no error type of its own
        raise PgnError(f"PGN cannot be read: {error or type(error).__name__}") from None
    if game is None:
        raise PgnError("no game found in the PGN text")
    if game.errors:
        first = game.errors[0]
        raise PgnError(str(first) if isinstance(first, PgnError) else f"PGN error: {first}")
    if "FEN" in game.headers:  # python-chess reads move number 0 as 1; the rules do not
        try:
            notation.parse_fen(game.headers["FEN"])
        except BadPositionError as error:
            raise PgnError(f"PGN start position: {error}") from None
    result = game.headers.get("Result", UNFINISHED)
    if result not in RESULTS:
        raise PgnError(f"Result tag {result!r} is not one of {', '.join(RESULTS)}")
    if game.headers.get("Variant", "Standard").lower() not in ("standard", "chess", "normal"):
        raise PgnError(f"variant {game.headers['Variant']!r} is not supported: only standard chess")
    try:
        state = ChessState.from_board(game.board())
    except BadPositionError as error:
        raise PgnError(f"PGN start position: {error}") from None
    moves = list(game.mainline_moves())
    for move in moves:
        if not move:  # python-chess reads "--" as a null move; a variation may show a threat so
            raise PgnError(f"PGN move {_move_number(state.board)}is a null move: a variation may show one, but the game itself cannot pass")
        # chess.pgn has checked each move's legality. Our stricter end-of-game rules are
        # not applied here: an over-the-board game may go on after an unclaimed draw.
        state.play(move)
    comments = [node.comment for node in game.mainline()]
    return PgnGame(headers=dict(game.headers), state=state, moves=moves, comments=comments)


def _check_movetext(movetext: str) -> None:
    """Refuse words ``chess.pgn`` would skip, unbalanced variation parentheses (its reader
    fails on a stray ')'), a variation with no move before it to replace, and moves after
    the result."""
    depth = 0
    moves_at_depth = [0]
    result = ""
    for match in _MOVETEXT_TOKEN.finditer(movetext):
        word = match.group(0)
        context = movetext[max(0, match.start() - 20) : match.end()].strip()
        if result:
            raise PgnError(f"PGN movetext goes on after the result {result!r}: {echo(context)!r}")
        if word == "(":
            if not moves_at_depth[-1]:
                raise PgnError(f"PGN variation opened with '(' before any move it could replace: {echo(context)!r}")
            depth += 1
            moves_at_depth.append(0)
        elif word == ")":
            if depth == 0:
                raise PgnError(f"PGN variation closed with ')' that was never opened: {echo(context)!r}")
            depth -= 1
            moves_at_depth.pop()
        elif not _VALID_TOKEN.match(word):
            raise PgnError(f"PGN movetext word {echo(word)!r} is not a move, move number, comment or result")
        elif word in RESULTS:
            if depth:
                raise PgnError(f"{depth} PGN variation(s) opened with '(' never closed with ')' before the result {word!r}")
            result = word
        elif _MOVE_WORD.match(word):
            moves_at_depth[-1] += 1
    if depth:
        raise PgnError(f"{depth} PGN variation(s) opened with '(' never closed with ')'")


def _check_syntax(text: str) -> str:
    """Refuse header lines and movetext words ``chess.pgn`` would silently skip; return the
    game as ``chess.pgn`` should read it: the first game's headers and movetext with every
    comment dropped but a move's first ``[%eval]`` and ``[%clk]`` (``chess.pgn`` joins a
    node's comments by repeated string concatenation, quadratic in their number, and its
    reader is only needed for the moves, the evaluations and the clock readings). Linear in the text: no part of it is
    scanned more than a few times (a pattern like ``\\{[^}]*\\}`` alone rescans to the end
    of the text from every unclosed ``{``: quadratic)."""
    lines = text.lstrip("\ufeff").splitlines()
    index = 0
    while index < len(lines) and (not lines[index].strip() or lines[index].lstrip().startswith("[")):
        line = lines[index].strip()
        if line and not chess.pgn.TAG_REGEX.match(line):
            raise PgnError(f"PGN line {index + 1} is not a header of the form [Name \"value\"]: {echo(line)!r}")
        index += 1
    movetext, kept = _split_comments(lines[index:])
    _check_movetext(movetext)
    headers = "\n".join(line for line in lines[:index] if line.strip())
    return f"{headers}\n\n{kept}\n" if headers else f"{kept}\n"


def kept_commands(comment: str) -> str:
    """The first ``[%eval]``, ``[%clk]`` and ``[%review]`` of ``comment``, in that order, or ""."""
    first: dict[str, str] = {}
    for found in _KEPT_COMMANDS.finditer(comment):
        first.setdefault(found.group(1) or found.group(2), found.group(0))
    return " ".join(first[name] for name in ("eval", "clk", "review") if name in first)


def _split_comments(lines: list[str]) -> tuple[str, str]:
    """The movetext of ``lines`` (up to the next game's headers, escape lines left out)
    without its comments, and the same movetext with the first comments of each move that
    hold an ``[%eval]``, ``[%clk]`` or ``[%review]`` kept (those commands only; at most
    ``KEPT_COMMENTS_PER_MOVE``) and no blank line (``chess.pgn``
    ends a game's movetext at a blank line, and every word of the movetext is checked, so
    all of it must be read).
    ``PgnError`` for a ``{`` never closed. ``_DROPPED`` takes out what needs no look first;
    the scan below follows the comments that are left across lines."""
    bare: list[str] = []
    kept: list[str] = []
    in_comment = False
    comment: list[str] = []
    comments_kept = 0
    """Comments kept since the last move: a move keeps at most ``KEPT_COMMENTS_PER_MOVE``."""
    # split, not sub with a group template: the template costs a Python call per match
    parts = _DROPPED.split("\n".join(lines))  # text, kept comment or None, text, ...
    parts[1::2] = [" " if part is None else f" {part} " for part in parts[1::2]]
    lines = "".join(parts).split("\n")
    for line in lines:
        if not in_comment:
            if line.startswith("["):  # the next game's headers: only the first game is read
                break
            if line.startswith("%"):  # a PGN escape line
                continue
        if line.isspace() or not line:
            continue
        line_kept: list[str] = []
        position = 0
        while position < len(line):
            if in_comment:
                end = line.find("}", position)
                if end < 0:
                    comment.append(line[position:])
                    break
                comment.append(line[position:end])
                in_comment = False
                position = end + 1
                found = kept_commands(" ".join(comment))
                comment = []
                if found and comments_kept < KEPT_COMMENTS_PER_MOVE:
                    line_kept.append(" {" + found + "} ")
                    comments_kept += 1
                bare.append(" ")
                continue
            opening = _COMMENT_START.search(line, position)
            stop = len(line) if opening is None else opening.start()
            piece = line[position:stop]
            bare.append(piece)
            line_kept.append(piece)
            if piece.strip():
                comments_kept = 0
            if opening is None:
                break
            if opening.group(0) == ";":  # a comment to the end of the line
                bare.append(" ")
                break
            in_comment = True
            position = stop + 1
        bare.append("\n")
        joined = " ".join("".join(line_kept).split())  # what comments leave is mostly blanks
        if joined:
            kept.append(joined + "\n")
    if in_comment:
        raise PgnError("a PGN comment opened with '{' is never closed with '}'")
    return "".join(bare), "".join(kept)
