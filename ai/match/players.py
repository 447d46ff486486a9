"""Who plays a match game: the built-in engine with some settings, or an external program.

A SPEC names a player on the command line:

* built-in: ``key=value`` pairs separated by commas, the keys being the fields of
  ``SearchSettings`` (``algorithm=pvs,quiescence=off,tt_megabytes=16``) and the limits
  ``depth``, ``time``, ``nodes`` (which override the match's ``--depth``/``--time``);
  or ``default``;
* ``level=N`` (1..10): the app's level N of the game exactly (``ai.levels``: its engine, its
  budget, its time cap and its weakness, drawn from the match's seed), whatever the match's
  ``--depth``/``--time`` say; ``level=N,cap=off`` without its time cap (the node budget
  alone: the level as an idle machine plays it, for measurements on a busy one);
* ``uci:COMMAND?Option=value&...`` a UCI chess engine (``ai.match.uci``);
* ``gtp:COMMAND ARGS`` a GTP Othello engine (``ai.match.gtp``);
* ``gnubg`` / ``gnubg:PLIES`` GNU Backgammon's evaluation (``ai.match.gnubg``);
* ``pubeval`` Tesauro's pubeval, the classic backgammon yardstick (``ai.match.pubeval``).

Every player answers ``choose(state, limits)`` with a legal move of ``state`` or raises
``PlayerFailure`` with the reason (a crash, a time-out, an illegal move): the runner scores
that game as lost by that player and goes on.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ai.engine import run_search
from ai.events import Finished
from ai.levels import LEVELS, LevelPlay, choose_move, level_play, level_rng, noticed_moves, request_for_level
from ai.match.protocol import GameHistory, Player, PlayerFailure, SpecError
from ai.options import check_settings, parse_setting
from ai.search.common import TT_KEY
from ai.settings import Limits, SearchRequest, SearchSettings, SettingError, check_input_file
from ai.tt import TranspositionTable
from games import GameState, get_game

_LIMIT_KEYS = {"depth": int, "time": float, "nodes": int}
FILE_KEYS = ("weights", "network")
"""Settings that name a file (checked: a regular file of bounded size; ``network=off`` is none)."""
_SETTING_TYPES = {field.name: field.type for field in dataclasses.fields(SearchSettings)}


@dataclass(frozen=True)
class BuiltinSpec:
    """A built-in configuration: settings, and the limits it insists on (else the match's)."""

    text: str
    settings: SearchSettings
    limits: Limits | None = None


def default_algorithm(game: str) -> str:
    """The game's own default algorithm (PVS; Star2 for dice games)."""
    return get_game(game).DEFAULT_ALGORITHM


def parse_builtin(text: str, game: str) -> BuiltinSpec:
    """``algorithm=pvs,depth=4,quiescence=off`` / ``level=5`` / ``default``."""
    from ai.search import get_algorithm

    values: dict[str, Any] = {"algorithm": default_algorithm(game)}
    limits: dict[str, Any] = {}
    body = text.strip()
    if body and body != "default":
        for item in body.split(","):
            key, equals, raw = item.partition("=")
            key, raw = key.strip().replace("-", "_"), raw.strip()
            if not equals or not key or not raw:
                raise SpecError(f"player {text!r}: {item!r} is not key=value (e.g. algorithm=pvs,depth=4)")
            if key == "level":
                raise SpecError(f"player {text!r}: level=N stands alone (the app's level exactly), or level=N,cap=off")
            if key in _LIMIT_KEYS or (key in _SETTING_TYPES and key not in FILE_KEYS and key != "threads"):
                try:  # the one range of each value: the CLI's options, UCI and the app use it too
                    parsed = parse_setting(key, raw)
                except SettingError as error:
                    raise SpecError(f"player {text!r}: {error}") from None
                (limits if key in _LIMIT_KEYS else values)[key] = parsed
            elif key in FILE_KEYS:
                if key == "network" and raw == "off":
                    values[key] = raw
                else:
                    try:
                        path = check_input_file(Path(raw).expanduser(), key, f"{key} file")
                    except SettingError as error:
                        raise SpecError(f"player {text!r}: {error.problem}") from None
                    values[key] = str(path.resolve())  # workers may run elsewhere
            else:
                known = ", ".join(sorted([*_SETTING_TYPES.keys() - {"threads"}, *_LIMIT_KEYS, "level"]))
                raise SpecError(f"player {text!r}: unknown key {key!r}; known keys: {known}")
    settings = SearchSettings(**values)
    try:
        check_settings(settings, Limits(**limits))
        get_algorithm(settings.algorithm).check_game(get_game(game))
        from ai.engine import weights_for

        weights_for(get_game(game), settings.weights)
        get_game(game).set_network(settings.network)
    except ValueError as error:
        raise SpecError(f"player {text!r}: {error}") from None
    return BuiltinSpec(text, settings, Limits(**limits) if limits else None)


@dataclass(frozen=True)
class LevelSpec:
    """A ``level=N`` SPEC: the level's recipe, and whether its time cap applies."""

    play: LevelPlay
    time_cap: bool = True
    """``level=N,cap=off``: the node budget alone ends each search, as on a machine fast
    enough never to reach the time cap; a measurement on a busy machine uses it so that the
    load cannot weaken the level it measures."""


def parse_level(text: str, game: str) -> LevelSpec | None:
    """The level a ``level=N`` (or ``level=N,cap=off``) SPEC names in ``game``; ``None`` for
    any other SPEC."""
    first, _, rest = text.strip().partition(",")
    key, equals, raw = first.partition("=")
    if key.strip() != "level" or not equals:
        return None
    if rest.replace(" ", "") not in ("", "cap=off"):
        raise SpecError(f"player {text!r}: level=N stands alone (the app's level exactly), or level=N,cap=off")
    number = _parse_number(int, raw.strip(), "level", text)
    if not 1 <= number <= len(LEVELS):
        raise SpecError(f"player {text!r}: levels are 1-{len(LEVELS)}, not {number}")
    try:
        return LevelSpec(level_play(game, number), time_cap=not rest)
    except ValueError as error:
        raise SpecError(f"player {text!r}: {error}") from None


def _parse_number(kind: Callable[[str], Any], raw: str, key: str, text: str) -> Any:
    try:
        return kind(raw)
    except ValueError:
        raise SpecError(f"player {text!r}: {key} must be a number, not {raw!r}") from None


def forget(shared: dict[str, Any]) -> dict[str, Any]:
    """A new, empty memory for the next game, the old one's table freed at once: the last
    search's node functions refer to themselves, so a dropped table would live on until a
    full garbage collection (``TranspositionTable.release``), 64 MB a game."""
    table = shared.get(TT_KEY)
    if isinstance(table, TranspositionTable):
        table.release()
    return {}


class BuiltinPlayer:
    """Plyground's own engine, in this process (``threads`` 1) or on an ``EnginePool``.

    Each player keeps its own transposition table between the moves of a game (``shared``),
    so two built-in players never read each other's analysis; it is cleared between games.
    """

    def __init__(self, spec: BuiltinSpec, game: str, threads: int = 1) -> None:
        self.spec = spec
        self.game = game
        self.name = spec.text or "default"
        self.threads = threads
        self.shared: dict[str, Any] = {}
        self.pool: Any = None
        if threads > 1:
            from ai.parallel import EnginePool  # the pool's import is paid only by a match on threads

            self.pool = EnginePool(workers=threads)

    def new_game(self, state: GameState) -> None:
        self.shared = forget(self.shared)
        if self.pool is not None:
            self.pool.clear_table()

    def limits_for(self, limits: Limits) -> Limits:
        return self.spec.limits if self.spec.limits is not None else limits

    def choose(self, state: GameState, history: GameHistory, limits: Limits) -> Any:
        limits = self.limits_for(limits)
        if self.pool is None:
            from ai.engine import search

            finished = search(state, self.spec.settings, limits, shared=self.shared)
        else:
            finished = self._pool_search(history, limits)
        if finished.error:
            raise PlayerFailure(f"search failed: {finished.error}")
        if finished.best_move is None:
            raise PlayerFailure("the search returned no move")
        return finished.best_move

    def _pool_search(self, history: GameHistory, limits: Limits) -> Any:
        request = SearchRequest(
            game=self.game, position=history.start, moves=tuple(history.moves),
            settings=replace(self.spec.settings, threads=self.threads), limits=limits,
        )
        finished = None
        for event in self.pool.search(request):
            if isinstance(event, Finished):
                finished = event
        if finished is None:
            raise PlayerFailure("the engine pool gave no answer")
        return finished

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None


class LevelPlayer:
    """The app's level of a game: the same request (``ai.levels.request_for_level``) and the
    same choice among its lines (``choose_move``) as a computer side of the app playing that
    level. Its weakness draws from ``level_rng(seed, game number, side)``: a match with the
    same seed replays the same games, and its first game errs as the app seeded alike.

    A level keeps its own limits (its node budget and time cap): the match's are ignored.
    Its transposition table lives from move to move of a game, as in the app, and is
    cleared between games."""

    def __init__(self, play: LevelPlay, text: str, seed: int = 0, time_cap: bool = True) -> None:
        self.play = play
        self.name = text.strip()
        self.seed = seed
        self.time_cap = time_cap
        self.games = 0
        self.rngs: dict[int, random.Random] = {}
        """The weakness's generator of each side this player has played in this game."""
        self.shared: dict[str, Any] = {}
        self.searches = 0
        """Moves searched (book moves and only moves count too)."""
        self.capped = 0
        """Searches the time cap ended before the node budget: a busy machine weakened the
        level in these (a measurement wants 0; ``level=N,cap=off`` guarantees it)."""

    def new_game(self, state: GameState) -> None:
        self.games += 1
        self.rngs = {}
        self.shared = forget(self.shared)

    def rng(self, side: int) -> random.Random:
        """The generator of the side this player moves for in this game (``level_rng``)."""
        if side not in self.rngs:
            self.rngs[side] = level_rng(self.seed, max(1, self.games), side)
        return self.rngs[side]

    def request(self, history: GameHistory, state: GameState | None = None) -> SearchRequest:
        """The search this level asks for at the end of ``history`` (``state``: the position
        there, whose moves a level that overlooks some draws from its side's generator)."""
        seen = () if state is None else noticed_moves(self.play, state, self.rng(state.to_move()))
        request = request_for_level(self.play, history.start, history.moves, root_moves=seen)
        if self.time_cap:
            return request
        return replace(request, limits=replace(request.limits, time=None))

    def choose(self, state: GameState, history: GameHistory, limits: Limits) -> Any:
        try:
            finished = run_search(self.request(history, state), shared=self.shared)
        except ValueError as error:
            raise PlayerFailure(f"search failed: {error}") from None
        if finished.error:
            raise PlayerFailure(f"search failed: {finished.error}")
        self.searches += 1
        if finished.stopped and finished.nodes < self.play.nodes:
            self.capped += 1
        mover = state.to_move()
        move = choose_move(finished, self.play, mover, self.rng(mover))
        if move is None:
            raise PlayerFailure("the search returned no move")
        return move

    def close(self) -> None:
        """Free the last game's table."""
        self.shared = forget(self.shared)


EXTERNAL_GAMES = {
    "uci": ("chess", "UCI engines play chess"),
    "gtp": ("othello", "GTP engines play Othello here"),
    "gnubg": ("backgammon", "gnubg plays backgammon"),
    "pubeval": ("backgammon", "pubeval plays backgammon"),
}
"""External program kinds (``kind:...`` SPECs): the game each plays, and how to say so."""


def _external_player_class(kind: str) -> Any:
    """The player class of an external program kind, imported only when a SPEC names it."""
    if kind == "uci":
        from ai.match.uci import UciPlayer

        return UciPlayer
    if kind == "gtp":
        from ai.match.gtp import GtpPlayer

        return GtpPlayer
    if kind == "pubeval":
        from ai.match.pubeval import PubevalPlayer

        return PubevalPlayer
    from ai.match.gnubg import GnubgPlayer

    return GnubgPlayer


def make_player(
    spec: str, game: str, threads: int = 1, start_timeout: float | None = None, seed: int = 0
) -> Player:
    """The player ``spec`` names for ``game``; ``SpecError`` when it cannot be made.
    ``start_timeout``: seconds an external program may take to be ready (else its kind's own);
    ``seed``: the match's, from which a level's weakness draws."""
    if not isinstance(spec, str) or not spec.strip():
        raise SpecError("a player SPEC is empty: give e.g. algorithm=pvs,depth=4 or uci:stockfish")
    kind, colon, rest = spec.partition(":")
    if (colon and kind in EXTERNAL_GAMES) or spec in ("gnubg", "pubeval"):  # bare: their defaults
        plays, words = EXTERNAL_GAMES[kind]
        if game != plays:
            raise SpecError(f"player {spec!r}: {words}, not {game}")
        return _external_player_class(kind).from_spec(rest, spec, start_timeout)
    level_spec = parse_level(spec, game)
    if level_spec is not None:
        return LevelPlayer(level_spec.play, spec, seed, level_spec.time_cap)
    return BuiltinPlayer(parse_builtin(spec, game), game, threads)
