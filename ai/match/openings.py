"""Opening variety for matches: where each game of a match starts.

Deterministic engines replay the same game from the same start, so a match needs varied
starts, and each start is played twice with colours swapped ("paired openings") so that an
unbalanced opening favours neither player.

* chess: a built-in list of short main lines of well-known openings (SAN), or a file: EPD/FEN
  lines (one start position a line), PGN (each game's moves are a line) or a Polyglot book
  (``.bin``: its lines from the start, up to ``BOOK_LINE_PLIES`` plies, most likely first);
* checkers: the 156 openings of the ACF 3-move deck (``resources/openings/checkers_3move.txt``,
  the first three plies drawn by ballot in tournament play), in a seeded order;
* Othello: every legal 4-ply line, one per class of symmetric positions (60 of the 244:
  the start is symmetric, so f5 and d3 open the same game seen in a mirror), seeded order;
* tic-tac-toe: the 9 first moves;
* backgammon: no opening: variety comes from the dice, and pairs of games share one seeded
  dice sequence with colours swapped (``runner``). Games are cubeless, one point a game
  (gammons 2, backgammons 3).

A file for the other games holds one opening a line: a position in the game's notation, or
moves in notation separated by spaces; ``#`` starts a comment.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path

from ai.settings import SettingError, check_input_file
from games import GameState, get_game, new_game
from games.base import GameError


class OpeningError(ValueError):
    """An openings file that cannot be used; the message names the line and the problem."""


@dataclass(frozen=True)
class Opening:
    """A start position (text) and the moves (names) played from it before the engines play."""

    start: str
    moves: tuple[str, ...] = ()
    name: str = ""

    def state(self, game: str) -> GameState:
        state = new_game(game, self.start)
        for text in self.moves:
            state.play_checked(state.parse_move(text))
        return state


CHESS_OPENINGS: tuple[tuple[str, str], ...] = (
    ("Ruy Lopez", "e4 e5 Nf3 Nc6 Bb5 a6"),
    ("Italian Game", "e4 e5 Nf3 Nc6 Bc4 Bc5"),
    ("Scotch Game", "e4 e5 Nf3 Nc6 d4 exd4"),
    ("Petrov Defence", "e4 e5 Nf3 Nf6"),
    ("Sicilian Najdorf", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"),
    ("Sicilian Taimanov", "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nc6"),
    ("French Defence", "e4 e6 d4 d5 Nc3 Nf6"),
    ("Caro-Kann Defence", "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5"),
    ("Scandinavian Defence", "e4 d5 exd5 Qxd5 Nc3 Qa5"),
    ("Pirc Defence", "e4 d6 d4 Nf6 Nc3 g6"),
    ("Queen's Gambit Declined", "d4 d5 c4 e6 Nc3 Nf6"),
    ("Slav Defence", "d4 d5 c4 c6 Nf3 Nf6"),
    ("Queen's Gambit Accepted", "d4 d5 c4 dxc4 Nf3 Nf6"),
    ("Nimzo-Indian Defence", "d4 Nf6 c4 e6 Nc3 Bb4"),
    ("King's Indian Defence", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6"),
    ("Grunfeld Defence", "d4 Nf6 c4 g6 Nc3 d5"),
    ("Dutch Defence", "d4 f5 g3 Nf6 Bg2 e6"),
    ("London System", "d4 d5 Bf4 Nf6 e3 e6"),
    ("English Opening", "c4 e5 Nc3 Nf6 g3 d5"),
    ("Reti Opening", "Nf3 d5 c4 e6 g3 Nf6"),
)
"""Main lines of common openings (standard theory, a few moves deep), as SAN."""

LINE_PLIES = {"tictactoe": 1, "othello": 4}
"""Games whose built-in openings are all legal lines of this many plies (seeded order)."""

MATCH_START: dict[str, Callable[[], str]] = {
    "backgammon": lambda: get_game("backgammon").initial(cube_enabled=False).to_text(),  # type: ignore[call-arg]
}
"""Start positions that differ from the game's own ``initial()`` in a match: backgammon is
played cubeless (one game, one result; points 1/2/3), as engine matches usually are."""


CUBE_START: dict[str, Callable[[], str]] = {
    "backgammon": lambda: get_game("backgammon").initial(cube_enabled=True).to_text(),  # type: ignore[call-arg]
}
"""Start positions of money games with the doubling cube (``plyground match --cube``)."""


def start_text(game: str, cube: bool = False) -> str:
    if cube:
        if game not in CUBE_START:
            raise ValueError(f"--cube: {game} has no doubling cube (only {', '.join(CUBE_START)})")
        return CUBE_START[game]()
    return MATCH_START[game]() if game in MATCH_START else new_game(game).to_text()


def built_in(game: str, seed: int = 0, cube: bool = False) -> list[Opening]:
    """The default openings of ``game`` (see the module docstring); ``cube``: money games
    with the doubling cube (backgammon)."""
    start = start_text(game, cube)
    if game == "chess":
        return [Opening(start, tuple(line.split()), name) for name, line in CHESS_OPENINGS]
    if game in BALLOT_FILES:
        openings = ballot_openings(game)
        random.Random(seed).shuffle(openings)
        return openings
    plies = LINE_PLIES.get(game)
    if plies is None:
        return [Opening(start)]
    lines = sorted(_legal_lines(new_game(game, start), plies))
    if game in SYMMETRY_KEYS:
        lines = _distinct_by_symmetry(lines, game, start)
    random.Random(seed).shuffle(lines)
    return [Opening(start, line, " ".join(line)) for line in lines]


def _othello_symmetry_key(state: GameState) -> Hashable:
    from games.othello.book import canonical

    return canonical(state.own, state.opponent)[0]  # type: ignore[attr-defined]


SYMMETRY_KEYS: dict[str, Callable[[GameState], Hashable]] = {"othello": _othello_symmetry_key}
"""Games whose start is symmetric: lines reaching symmetric positions are one opening."""


def _distinct_by_symmetry(lines: list[tuple[str, ...]], game: str, start: str) -> list[tuple[str, ...]]:
    """The first line (in the given order) of each class of symmetric end positions."""
    seen: set[Hashable] = set()
    distinct = []
    for line in lines:
        key = SYMMETRY_KEYS[game](Opening(start, line).state(game))
        if key not in seen:
            seen.add(key)
            distinct.append(line)
    return distinct


BALLOT_FILES = {"checkers": "checkers_3move.txt"}
"""Games whose built-in openings are a published ballot list in ``resources/openings``."""
OPENINGS_FOLDER = ("resources", "openings")
"""Package and folder of the ballot files (read with ``importlib.resources``)."""


def ballot_openings(game: str) -> list[Opening]:
    """The ballot list of ``game`` in its file's order (named by their moves, and by the
    opening's name where the list gives one)."""
    from importlib import resources

    text = resources.files(OPENINGS_FOLDER[0]).joinpath(OPENINGS_FOLDER[1], BALLOT_FILES[game]).read_text(encoding="utf-8")
    start = start_text(game)
    openings = []
    for line in text.splitlines():
        moves, _, comment = line.partition("#")
        if moves.strip():
            name = " ".join(moves.split())
            label = f"{name} ({comment.strip()})" if comment.strip() else name
            openings.append(Opening(start, tuple(moves.split()), label))
    return openings


def _legal_lines(state: GameState, plies: int) -> list[tuple[str, ...]]:
    if plies == 0 or state.is_terminal():
        return [()]
    lines: list[tuple[str, ...]] = []
    for move in state.legal_moves():
        name = state.move_name(move)
        state.play(move)
        lines.extend((name, *rest) for rest in _legal_lines(state, plies - 1))
        state.undo()
    return lines


def load(path: str | Path, game: str) -> list[Opening]:
    """The openings in the file at ``path`` for ``game`` (``OpeningError`` says what is wrong:
    also a file that is not a regular one, ``/dev/zero``, or one too large to be openings)."""
    try:
        check_input_file(path, "--openings", "openings file")
    except SettingError as error:
        raise OpeningError(error.problem) from None
    try:
        text = "" if game == "chess" and _is_polyglot(path) else Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise OpeningError(f"openings file {str(path)!r}: not UTF-8 text") from None
    except OSError as error:
        raise OpeningError(f"openings file {str(path)!r}: {error.strerror or error}") from None
    if game == "chess" and _is_polyglot(path):
        return _from_polyglot(path)
    if game == "chess" and _looks_like_pgn(text):
        openings = _from_pgn(text, str(path))
    else:
        openings = [
            _parse_line(line.split("#", 1)[0].strip(), game, f"{path}:{number}")
            for number, line in enumerate(text.splitlines(), start=1)
            if line.split("#", 1)[0].strip()
        ]
    if not openings:
        raise OpeningError(f"openings file {str(path)!r} holds no opening")
    return openings


BOOK_LINE_PLIES = 8
"""Plies of the opening lines taken from a Polyglot book (fewer where the book ends)."""
BOOK_LINES = 200
"""At most this many lines from a book: the most likely ones (by the product of the book
moves' weight shares along the line)."""


def _is_polyglot(path: str | Path) -> bool:
    return Path(path).suffix.lower() == ".bin"


def _from_polyglot(path: str | Path) -> list[Opening]:
    """The lines of a Polyglot book from the start position, most likely first."""
    import chess
    import chess.polyglot

    where = str(path)
    try:
        reader = chess.polyglot.open_reader(path)
    except OSError as error:
        raise OpeningError(f"openings file {where!r}: {error.strerror or error}") from None
    lines: list[tuple[float, tuple[str, ...]]] = []
    with reader:

        def walk(board: chess.Board, names: tuple[str, ...], share: float) -> None:
            entries = [] if len(names) >= BOOK_LINE_PLIES else list(reader.find_all(board))
            total = sum(entry.weight for entry in entries)
            if not entries or share * BOOK_LINES < 1e-3:
                if names:
                    lines.append((share, names))
                return
            for entry in entries:
                name = board.san(entry.move)
                board.push(entry.move)
                walk(board, (*names, name), share * entry.weight / total)
                board.pop()

        try:
            walk(chess.Board(), (), 1.0)
        except (OSError, ValueError) as error:
            raise OpeningError(f"openings file {where!r}: not a Polyglot book: {error}") from None
    if not lines:
        raise OpeningError(f"openings file {where!r}: the book has no move for the start position")
    lines.sort(key=lambda line: (-line[0], line[1]))
    start = start_text("chess")
    return [Opening(start, names, " ".join(names)) for _share, names in lines[:BOOK_LINES]]


def _looks_like_pgn(text: str) -> bool:
    stripped = text.lstrip()
    return stripped.startswith("[") or stripped.startswith("1.")


def _from_pgn(text: str, where: str) -> list[Opening]:
    import chess.pgn

    openings: list[Opening] = []
    stream = io.StringIO(text)
    while True:
        try:
            game = chess.pgn.read_game(stream)
        except Exception as error:  # noqa: BLE001 - python-chess's reader has no error type
            raise OpeningError(f"{where}: PGN cannot be read: {error}") from None
        if game is None:
            break
        if game.errors:
            raise OpeningError(f"{where}: PGN game {len(openings) + 1}: {game.errors[0]}")
        board = game.board()
        start = board.fen()
        names = []
        for move in game.mainline_moves():
            names.append(board.san(move))
            board.push(move)
        opening = Opening(start, tuple(names), game.headers.get("Opening", game.headers.get("Event", "")))
        _check(opening, "chess", f"{where}: PGN game {len(openings) + 1}")
        openings.append(opening)
    return openings


def _parse_line(line: str, game: str, where: str) -> Opening:
    if game == "chess":  # an EPD/FEN line: the operations after the fields are ignored
        import chess

        board = chess.Board()
        try:
            board.set_fen(line)
        except ValueError:
            try:
                board.set_epd(line)
            except ValueError as error:
                raise OpeningError(f"{where}: not an EPD/FEN position: {error}") from None
        opening = Opening(board.fen(), (), line)
    else:
        try:
            new_game(game, line)
            opening = Opening(line, (), line)
        except GameError:
            opening = Opening(start_text(game), tuple(line.split()), line)
    _check(opening, game, where)
    return opening


def _check(opening: Opening, game: str, where: str) -> None:
    try:
        state = opening.state(game)
    except GameError as error:
        raise OpeningError(f"{where}: {error}") from None
    if state.is_terminal():
        raise OpeningError(f"{where}: the game is already over in this opening")
