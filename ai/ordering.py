"""Move ordering: try the moves most likely to cause a cut-off first.

Alpha-beta's savings depend entirely on the order of the moves: searched best-first it visits
about b^(d/2) nodes instead of b^d (Knuth & Moore 1975). The usual sources of a good order,
cheapest to most general:

1. the **transposition-table move** (the best move found here by an earlier, shallower
   search), tried *before the other moves are even generated*: when it cuts off, move
   generation never happens (Sunfish does the same with a lazy generator);
2. **captures** by MVV-LVA (most valuable victim, least valuable attacker: the game's
   ``capture_score(move) > 0``), best first -- when the game offers static exchange
   evaluation (``games.capabilities.ExchangeEvaluation``: chess) only the
   captures that do not lose material; a losing capture (a queen taking a defended pawn)
   goes after every quiet move, as in Stockfish's move picker;
3. **killer moves**: two quiet moves per ply that recently caused a cut-off in a sibling
   position (Akl & Newborn 1977);
4. the **history heuristic**: every quiet move that caused a cut-off earns ``depth**2``
   for its side (Schaeffer 1989); the remaining quiet moves are sorted by it.

``SearchSettings.move_ordering`` switches all of it off (moves come in generation order),
``killers`` and ``history`` switch those two pieces off one at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final, cast

from games.base import GameState
from games.capabilities import CaptureScores, ExchangeEvaluation, declares
from ai.scores import MAX_PLY
from ai.settings import SearchSettings

HISTORY_LIMIT: Final = 1 << 24
"""When a history score passes this, all of that side's scores are halved (aging), so that
recent cut-offs weigh more and history stays below the killer priorities."""
FIRST_KILLER_PRIORITY: Final = HISTORY_LIMIT + 2
SECOND_KILLER_PRIORITY: Final = HISTORY_LIMIT + 1
CAPTURE_PRIORITY: Final = HISTORY_LIMIT + 4
LOSING_CAPTURE_PRIORITY: Final = -HISTORY_LIMIT
"""Sort keys: captures (plus their MVV-LVA score) > first killer > second killer > history
> captures that lose material by SEE (plus their MVV-LVA score)."""
KILLER_SLOTS: Final = 2


def has_exchange_evaluation(state: GameState) -> bool:
    """Whether the game declares static exchange evaluation (``ExchangeEvaluation``)."""
    return declares(type(state), ExchangeEvaluation)


def has_capture_scores(state: GameState) -> bool:
    """Whether the game declares capture hints (``CaptureScores``; tic-tac-toe and Othello
    keep the base class's "always 0"), so that quiet games skip one call per move."""
    return declares(type(state), CaptureScores)


class MoveOrderer:
    """The ordering heuristics of one search: killer slots per ply and history per side.

    One instance lives for one search (killers and history are facts about the positions of
    this search tree).
    """

    __slots__ = ("use_killers", "use_history", "use_captures", "use_exchanges", "killers", "history")

    def __init__(self, settings: SearchSettings, state: GameState, max_ply: int = MAX_PLY) -> None:
        self.use_killers = settings.killers
        self.use_history = settings.history
        self.use_captures = has_capture_scores(state)
        self.use_exchanges = self.use_captures and has_exchange_evaluation(state)
        self.killers: list[Any] = [None] * (KILLER_SLOTS * (max_ply + 1))
        """Flat: the killers of ``ply`` are at ``2 * ply`` (newest) and ``2 * ply + 1``."""
        self.history: tuple[dict[Any, int], dict[Any, int]] = ({}, {})

    def ordered_moves(self, state: GameState, ply: int, tt_move: Any) -> Iterator[Any]:
        """The legal moves of ``state`` best-first, lazily: ``tt_move`` (if any) comes out
        before ``legal_moves()`` is even called."""
        if tt_move is not None:
            yield tt_move
        moves = state.legal_moves()
        if tt_move is not None:
            try:
                moves.remove(tt_move)
            except ValueError:  # not legal here: only a 64-bit key collision can do this
                pass
        if len(moves) > 1:
            self.sort(state, moves, ply)
        yield from moves

    def ordered_list(self, state: GameState, ply: int, tt_move: Any) -> list[Any]:
        """The same order as a list (the root, where every move is searched anyway)."""
        return list(self.ordered_moves(state, ply, tt_move))

    def sort(self, state: GameState, moves: list[Any], ply: int) -> None:
        """Sort ``moves`` in place: captures by MVV-LVA, killers, then history."""
        capture_score = state.capture_score if self.use_captures else None
        exchange_at_least = cast(ExchangeEvaluation, state).exchange_at_least if self.use_exchanges else None
        if self.use_killers:
            first_killer = self.killers[KILLER_SLOTS * ply]
            second_killer = self.killers[KILLER_SLOTS * ply + 1]
        else:
            first_killer = second_killer = None
        history = self.history[state.to_move()] if self.use_history else None
        if capture_score is None and first_killer is None and not history:
            return  # nothing known yet: keep the game's generation order

        def priority(move: Any) -> int:
            if capture_score is not None:
                capture = capture_score(move)
                if capture > 0:
                    if exchange_at_least is not None and not exchange_at_least(move, 0):
                        return LOSING_CAPTURE_PRIORITY + capture
                    return CAPTURE_PRIORITY + capture
            if first_killer is not None:
                if move == first_killer:
                    return FIRST_KILLER_PRIORITY
                if move == second_killer:
                    return SECOND_KILLER_PRIORITY
            if history:
                return history.get(move, 0)
            return 0

        moves.sort(key=priority, reverse=True)  # stable: ties keep generation order

    def is_killer(self, move: Any, ply: int) -> bool:
        """Whether ``move`` is one of the killers of ``ply`` (late move reductions spare them)."""
        if not self.use_killers:
            return False
        slot = KILLER_SLOTS * ply
        return move == self.killers[slot] or move == self.killers[slot + 1]

    def note_cutoff(self, state: GameState, move: Any, depth: int, ply: int) -> None:
        """``move`` (played by the side to move in ``state``) caused a cut-off ``depth``
        plies from the horizon: make it a killer at ``ply`` and raise its history."""
        if self.use_captures and state.capture_score(move) > 0:
            return  # captures are ordered by MVV-LVA already
        if self.use_killers:
            killers = self.killers
            slot = KILLER_SLOTS * ply
            if killers[slot] != move:
                killers[slot + 1] = killers[slot]
                killers[slot] = move
        if self.use_history:
            history = self.history[state.to_move()]
            value = history.get(move, 0) + depth * depth
            history[move] = value
            if value > HISTORY_LIMIT:
                for known in history:
                    history[known] //= 2
