"""The engine's entry point: one search request in, one ``Finished`` answer out.

``run_search`` is what a worker process of the pool, the CLI and the UCI front end call: it
turns a picklable ``SearchRequest`` (game name, position text, moves in notation, settings,
limits) into a state, checks that the algorithm can search that game, and runs it with a
``SearchControl`` for the limits and the stop flag. Events go to ``on_event`` as they happen;
the answer is returned.

Scores in the answer (and in every ``Iteration``) are seen from the side to move at the
root (``Score.view`` says which player that is), as UCI prints them; a fixed-colour display
turns them round with ``Score.for_player``.

The transposition table outlives a search: it is kept per game in a module-level dict handed
to the algorithm as ``SearchContext.shared``, so the next search of the same game (the next
move, or a deeper analysis) starts with what this one learned. ``clear_memory()`` (UCI
``ucinewgame``) forgets it.

``search`` is the same thing for a state object already in hand (tests, benchmarks).
"""

from __future__ import annotations

import dataclasses
import math
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import games
from games.base import CHANCE, GameState, IllegalMoveError
from games.weights import WeightsError, read_weights
from games.records import DrawClaims, play_recorded

from ai.context import DISCARD_EVENTS, SearchContext
from ai.control import SearchControl, collecting_young_objects
from ai.events import Finished, SearchEvent
from ai.options import check_settings
from ai.reporting import answer_known
from ai.scores import WIN_SCORE, to_report
from ai.search import CHANCE_ALGORITHMS, AlgorithmSpec, get_algorithm
from ai.search.common import TT_KEY
from ai.settings import Limits, SearchRequest, SearchSettings, check_tree_options
from ai.tree.model import TreeOptions
from ai.tree.recorder import TreeRecorder
from ai.tt import TranspositionTable

EventSink = Callable[[SearchEvent], None]

_SHARED_BY_GAME: dict[str, dict[str, Any]] = {}
"""Per game name: what searches of that game keep between them (the transposition table)."""


def shared_memory_for(game: str) -> dict[str, Any]:
    """The ``SearchContext.shared`` dict of ``game`` (made on first use)."""
    return _SHARED_BY_GAME.setdefault(game, {})


def clear_memory(game: str | None = None) -> None:
    """Forget what earlier searches learned (UCI ``ucinewgame``): of ``game``, or of all."""
    if game is None:
        _SHARED_BY_GAME.clear()
    else:
        _SHARED_BY_GAME.pop(game, None)


def build_state(request: SearchRequest) -> GameState:
    """The position of ``request``: its position text (or the start) with its moves played.

    The moves are a game's record: they may go on past a draw nobody claimed (threefold
    repetition, fifty moves), as a PGN file and UCI's ``position ... moves`` may.

    Raises ``ValueError`` (``BadPositionError``/``IllegalMoveError``) naming the problem.
    """
    state = games.new_game(request.game, request.position)
    claims = isinstance(state, DrawClaims)
    for number, text in enumerate(request.moves, start=1):
        try:
            move = state.parse_move(text)
            play_recorded(state, move, claims)
        except ValueError as error:
            raise type(error)(f"move {number} ({text!r}): {error}") from None
    return state


@dataclass(frozen=True)
class PreparedSearch:
    """A request resolved once: its algorithm, its root position and its root-move subset.

    Everything that can be wrong with a request is found here, before any search starts,
    and ``state`` is what the front ends name the answer's moves with.
    """

    request: SearchRequest
    algorithm: AlgorithmSpec
    state: GameState
    """The root position (the search works on a copy; this one is never changed)."""
    root_moves: tuple[Any, ...] = ()
    """The root moves to search (``SearchRequest.root_moves`` as move values); empty: all."""


def prepare(request: SearchRequest) -> PreparedSearch:
    """Resolve ``request``: the algorithm, the position, its moves and its root-move subset.

    A bad request (unknown game or algorithm, bad position text, illegal move, an algorithm
    that cannot search the game, impossible limits, a root move that is not legal) raises
    ``ValueError`` with a message saying what is wrong.
    """
    algorithm = checked_algorithm(request.settings, request.limits)
    check_tree_options(request.tree)
    state = build_state(request)
    algorithm.check_game(type(state))
    weights_for(type(state), request.settings.weights)  # a bad weights file is a bad request
    type(state).set_network(request.settings.network)  # and so is a bad network file
    return PreparedSearch(request, algorithm, state, parse_root_moves(state, request.root_moves))


_weights_cache: dict[tuple[str, str], tuple[tuple[int, int], dict[str, Any]]] = {}
_weights_in_use: dict[type[GameState], tuple[str, tuple[int, int]] | None] = {}


def weights_for(game: type[GameState], path: str) -> dict[str, Any] | None:
    """The weights mapping in the file ``path`` for ``game`` (``None`` for "": the packaged
    ones), read once per file version (modification time and size) and checked by
    ``games.weights`` and by the game itself, which means applying it: after this call
    ``game``'s EVAL reads these weights. ``WeightsError`` (a ``ValueError``) otherwise."""
    if not path:
        return None
    if game.WEIGHTS_FILE is None:
        raise WeightsError(f"{game.NAME}'s evaluation has no tunable weights (no weights file applies)")
    try:
        stat = os.stat(path)
    except OSError as error:
        raise WeightsError(f"cannot read weights file {path!r}: {error.strerror or error}") from None
    version = (stat.st_mtime_ns, stat.st_size)
    cached = _weights_cache.get((game.NAME, path))
    if cached is not None and cached[0] == version:
        return cached[1]
    weights = read_weights(path, game.NAME)
    _weights_in_use[game] = None  # unknown until set_weights returns
    try:
        game.set_weights(weights)  # the game's own check of the names and shapes
    except WeightsError:
        game.set_weights(None)
        raise
    _weights_in_use[game] = (path, version)
    _weights_cache[(game.NAME, path)] = (version, weights)
    return weights


def use_weights(game: type[GameState], path: str) -> None:
    """Make ``game``'s EVAL read the weights in ``path`` ("" : the packaged ones) in this
    process, unless it already does: the step before every search."""
    weights = weights_for(game, path)
    wanted = None if weights is None else (path, _weights_cache[(game.NAME, path)][0])
    if _weights_in_use.get(game) != wanted:
        game.set_weights(weights)
        _weights_in_use[game] = wanted


def checked_algorithm(settings: SearchSettings, limits: Limits) -> AlgorithmSpec:
    """The algorithm ``settings`` names, once the settings and limits are known to be
    sane (``ValueError`` otherwise; ``ai.options.check_settings``, the one check every
    front end applies too): the first step of every path to a search."""
    algorithm = get_algorithm(settings.algorithm)
    check_settings(settings, limits)
    return algorithm


def parse_root_moves(state: GameState, texts: Sequence[str]) -> tuple[Any, ...]:
    """The moves ``texts`` names, each legal at ``state`` (``IllegalMoveError`` otherwise)."""
    moves: list[Any] = []
    for text in texts:
        try:
            move = state.parse_move(text)
        except ValueError as error:
            raise type(error)(f"root move {text!r}: {error}") from None
        if move not in state.legal_moves():
            raise IllegalMoveError(f"root move {text!r} is not legal here")
        if move not in moves:
            moves.append(move)
    return tuple(moves)


def check_root_moves(state: GameState, moves: Sequence[Any]) -> tuple[Any, ...]:
    """``moves`` without repeats, each legal at ``state`` (``IllegalMoveError`` otherwise)."""
    legal = state.legal_moves()
    kept: list[Any] = []
    for move in moves:
        if move not in legal:
            raise IllegalMoveError(f"root move {move!r} is not legal here")
        if move not in kept:
            kept.append(move)
    return tuple(kept)


def run_search(
    request: SearchRequest | PreparedSearch,
    on_event: EventSink | None = None,
    should_stop: Callable[[], bool] | None = None,
    started: float | None = None,
    *,
    shared: dict[str, Any] | None = None,
    helper: int = 0,
) -> Finished:
    """Run the search ``request`` asks for and return its answer.

    ``on_event`` receives ``Iteration``, ``CurrentMove`` and ``Progress`` events while the
    search runs, and ``TreeBatch`` events when the request records the tree
    (``SearchRequest.tree``); ``should_stop`` is polled every few milliseconds. A bad request
    raises ``ValueError`` (see ``prepare``).

    ``shared`` is the dict the search keeps its transposition table in (default: this
    process's per-game one); the worker pool passes one holding its shared-memory table.
    ``helper`` 0 is the main search; ``k > 0`` makes it a Lazy SMP helper thread of the pool
    (another start depth and move order, so the helpers fill the shared table with work the
    main search has not done yet).

    The time limit counts from ``started`` (a ``time.perf_counter()`` reading): when the
    caller received the request, if that was earlier (the CLI reads its command line, then
    imports the game), else the moment of this call. Set-up is inside the budget either way.
    """
    if started is None:
        started = time.perf_counter()  # the time limit counts from the request, set-up included
    prepared = request if isinstance(request, PreparedSearch) else prepare(request)
    if shared is None:
        shared = shared_memory_for(prepared.request.game)
    return _run(prepared, on_event, should_stop, shared, started, helper)


def search(
    state: GameState,
    settings: SearchSettings | None = None,
    limits: Limits | None = None,
    *,
    on_event: EventSink | None = None,
    should_stop: Callable[[], bool] | None = None,
    shared: dict[str, Any] | None = None,
    search_id: int = 0,
    root_moves: Sequence[Any] = (),
    helper: int = 0,
    tree: TreeOptions | None = None,
) -> Finished:
    """Search ``state`` (left unchanged) directly: the convenience form of ``run_search``.

    ``shared`` is the dict to keep the transposition table in between calls; by default each
    call starts with an empty table. ``root_moves`` (move values, each legal at ``state``)
    restricts the root; ``helper`` is as for ``run_search``; ``tree`` records the tree (its
    ``TreeBatch`` events go to ``on_event``).
    """
    started = time.perf_counter()
    settings = SearchSettings() if settings is None else settings
    limits = Limits() if limits is None else limits
    algorithm = checked_algorithm(settings, limits)
    algorithm.check_game(type(state))
    request = SearchRequest(game=state.NAME, settings=settings, limits=limits, search_id=search_id, tree=tree)
    prepared = PreparedSearch(request, algorithm, state, check_root_moves(state, root_moves))
    if shared is not None:
        return _run(prepared, on_event, should_stop, shared, started, helper)
    own_shared: dict[str, Any] = {}
    try:
        return _run(prepared, on_event, should_stop, own_shared, started, helper)
    finally:
        # Nobody can search with this table again: free it now (``TranspositionTable.release``).
        table = own_shared.get(TT_KEY)
        if isinstance(table, TranspositionTable):
            table.release()


def _run(
    prepared: PreparedSearch,
    on_event: EventSink | None,
    should_stop: Callable[[], bool] | None,
    shared: dict[str, Any],
    started: float,
    helper: int,
) -> Finished:
    """The one path from a resolved request to the running search."""
    algorithm, state, request = prepared.algorithm, prepared.state, prepared.request
    if not algorithm.handles_chance and state.to_move() == CHANCE:
        # A second line of defence behind ``check_game`` (which reads ``HAS_CHANCE``).
        raise ValueError(
            f"{algorithm.name} cannot search {state.NAME}: the position is a dice roll (a "
            f"chance node); use {', '.join(CHANCE_ALGORITHMS)}"
        )
    use_weights(type(state), request.settings.weights)
    type(state).set_network(request.settings.network)
    run = algorithm.load()
    control = SearchControl(request.limits, should_stop, started=started)
    emit = DISCARD_EVENTS if on_event is None else on_event
    recorder = make_recorder(prepared, control, emit)
    context = SearchContext(
        settings=request.settings,
        control=control,
        emit=emit,
        search_id=request.search_id,
        recorder=recorder,
        tree=request.tree,
        shared=shared,
        root_moves=prepared.root_moves,
        helper=helper,
    )
    known = known_answer(state, request.settings, prepared.root_moves)
    if known is not None:
        if recorder is not None:
            recorder.finish()  # nothing searched: an empty tree, complete
        return answer_known(state, context, known.move, book=known.book)
    with collecting_young_objects():  # a full collection must not scan the caller's heap
        try:
            return run(state, context)
        finally:
            if recorder is not None:
                recorder.finish()  # the last batch, also after a stop or a failure
            # ``Reporter.install_progress`` made a cycle (control -> on_tick -> reporter ->
            # control) through the search's counters, which may hold a compiled searcher
            # and its table. Garbage made before a search is frozen out of the collector
            # while searches run (``collecting_young_objects``) and reaches only the oldest
            # generation, rarely collected: a UCI engine in a long match kept one 64 MB
            # table per game that way. Breaking the cycle frees it by reference counting.
            context.control.on_tick = None


def make_recorder(prepared: PreparedSearch, control: SearchControl, emit: EventSink) -> TreeRecorder | None:
    """The recorder of a search whose request asks for its tree, or ``None`` (nothing asked,
    or an algorithm the recorder does not watch: ``AlgorithmSpec.records_depth_first_tree``;
    MCTS records from ``SearchContext.tree`` its own way)."""
    request = prepared.request
    if request.tree is None or not prepared.algorithm.records_depth_first_tree:
        return None
    return TreeRecorder(request.tree, request.search_id, emit, prepared.state, control=control)


BOOKS_SWITCH = "PLYGROUND_BOOKS"
"""Environment variable: ``off`` switches every game's opening book off, whatever
``SearchSettings.book`` says (the test suite sets it, so that searches from start positions
are searched; the pool's worker processes and a match's engines inherit it)."""


def books_allowed(settings: SearchSettings) -> bool:
    """Whether a search with ``settings`` may answer from an opening book: the one place
    that decides (``settings.book``, unless ``BOOKS_SWITCH`` is ``off``)."""
    return settings.book and os.environ.get(BOOKS_SWITCH, "").strip().lower() != "off"


@dataclass(frozen=True)
class KnownAnswer:
    """A root move found without a search: the game's forced answer, or a book move."""

    move: Any
    book: bool
    """From the opening book (else the game's ``forced_answer``)."""


def known_answer(state: GameState, settings: SearchSettings, root_moves: Sequence[Any] = ()) -> KnownAnswer | None:
    """The answer to give at ``state`` without searching, or ``None`` (search).

    First the game's ``forced_answer`` (a move the game knows without search, such as
    backgammon's cube decisions from the chances), whatever the settings, as long as it is
    legal and among ``root_moves`` when those restrict the root; then, with books allowed
    (``books_allowed``) and no root restriction, a book move (``book_move``)."""
    forced = state.forced_answer()
    if forced is not None and forced in state.legal_moves() and (not root_moves or forced in root_moves):
        return KnownAnswer(forced, book=False)
    if books_allowed(settings) and not root_moves:
        move = book_move(state, settings.seed)
        if move is not None:
            return KnownAnswer(move, book=True)
    return None


def only_move_answer(prepared: PreparedSearch) -> Finished | None:
    """The answer at a root with exactly one legal move (a forced pass, a capture with no
    alternative, a backgammon roll with one distinct play), or ``None`` (search).

    Nothing is searched: depth and nodes are 0, no ``Iteration`` comes before it, and it says
    ``only_move``. Its score is the static EVAL of the position after the move, for the side
    to move (the root's own EVAL would miss what the forced move changes: a king in check
    taking the checking queen), or the result when the move ends the game. A player with one
    choice spends no time on it: the app's players ask this before they start a search. A
    front end that wants the position searched anyway (analysis, UCI's ``go depth``) simply
    does not ask."""
    state = prepared.state
    mover = state.to_move()
    if mover == CHANCE or state.is_terminal():
        return None
    moves = state.legal_moves()
    if len(moves) != 1:
        return None
    request = prepared.request
    use_weights(type(state), request.settings.weights)
    type(state).set_network(request.settings.network)
    context = SearchContext(
        settings=request.settings, control=SearchControl(request.limits), search_id=request.search_id
    )
    answer = answer_known(state, context, moves[0], book=False)
    score = to_report(_value_after(state, moves[0], mover), mover, type(state), view=mover)
    return dataclasses.replace(answer, score=score, forced=False, only_move=True)


def _value_after(state: GameState, move: Any, player: int) -> float:
    """``player``'s raw score of the position after ``move``: its result if the game ends
    there (a win one ply away), else its static EVAL."""
    child = state.copy()
    child.play(move)
    if not child.is_terminal():
        return child.evaluate(player)
    utility = child.utility(player)
    if state.UTILITY_KIND == "win_loss":
        return 0.0 if utility == 0 else math.copysign(WIN_SCORE - 1, utility)
    return utility * state.EVAL_SCALE


def book_move(state: GameState, seed: int) -> Any | None:
    """One of the book's moves at ``state``, drawn by weight, or ``None`` (no book move).

    The draw is seeded by ``seed`` and the position, so a request answers the same way in
    every worker of the pool and every time it is asked, while different seeds (a match's
    games) vary the opening. Whether a book may be used at all is ``books_allowed``'s
    question, asked before this."""
    entries = [(move, weight) for move, weight in state.book_moves() if weight > 0]
    if not entries:
        return None
    legal = state.legal_moves()
    entries = [(move, weight) for move, weight in entries if move in legal]
    if not entries:
        return None
    draw = random.Random(f"{seed}:{state.key()!r}").random() * sum(weight for _, weight in entries)
    for move, weight in entries:
        draw -= weight
        if draw < 0:
            return move
    return entries[-1][0]
