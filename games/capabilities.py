"""What a game can do beyond the protocol of ``games.base``: its optional abilities, as types.

The search asks a game for more than the textbook's ACTIONS/RESULT/EVAL where the game can
answer: whether the side to move is in check, what an exchange of pieces wins, the exact
value of an endgame, a pass that is safe to try, which positions repeat. Each such ability is
a ``Protocol`` below, and a game *declares* the ones it has by naming them among its state
class's bases (OpenSpiel's "algorithms state their requirements"; python-chess's typed
values)::

    class ChessState(GameState, CheckAware, ExchangeEvaluation, NullMoveSafe, ...):

A declaration is a promise checked once, when a search is prepared (``check_declarations``):
a declared ability whose methods the game did not write is an error that names them, never
a switch silently off. The search then resolves every switch against ``declares`` once and
hands its node typed callables; nothing in the search probes a state with ``getattr``.

``GameState`` keeps harmless defaults for some of these methods (``is_in_check`` is
``False``, ``capture_score`` is 0, ``solve`` is ``None``) so that front ends may ask any
game; only a declaration makes the search rely on them.

| ability              | methods                                         | games               |
|----------------------|-------------------------------------------------|---------------------|
| ``CheckAware``       | ``is_in_check``, ``gives_check``, ``SELECTIVE_SEARCH`` | chess, checkers |
| ``CaptureScores``    | ``capture_score``                               | chess, checkers, backgammon |
| ``ExchangeEvaluation`` | ``exchange_at_least`` (and ``capture_score``) | chess               |
| ``NullMoveSafe``     | ``can_null_move``, ``play_null``, ``undo_null`` | chess               |
| ``QuietChecks``      | ``checking_moves``                              | chess               |
| ``RepetitionRules``  | ``repeats_within``                              | chess               |
| ``ExactSolver``      | ``solve`` (and ``HAS_SOLVER``)                  | Othello, checkers   |
| ``BestMoveSolver``   | ``solve_best_move`` (and ``solve``)             | Othello             |
| ``Chance``           | ``chance_outcomes`` (and ``HAS_CHANCE``)        | backgammon          |
| ``MatingMaterial``   | ``can_still_mate``                              | chess               |
"""

from __future__ import annotations

import functools
import inspect
from abc import abstractmethod
from typing import Any, ClassVar, Final, Literal, Protocol, get_args

from games.base import GameState, NodePoll, Player

SelectiveSwitch = Literal[
    "check_extensions",
    "null_move",
    "late_move_reductions",
    "quiescence_checks",
    "see_pruning",
    "futility_pruning",
]
"""The selective-search switches a ``CheckAware`` game may opt into (``SELECTIVE_SEARCH``);
the names are the ``ai.settings.SearchSettings`` fields."""

SELECTIVE_SWITCHES: Final[tuple[SelectiveSwitch, ...]] = get_args(SelectiveSwitch)


class CapabilityError(TypeError):
    """A game declares an ability it does not implement (a programming error in the game)."""


class CheckAware(Protocol):
    """The game knows a forced reply: in chess a check, in checkers a capture to make.

    Selective search never reduces or prunes the moves of a node in check, nor the move that
    led to it, and check extensions search it one ply deeper; so the selective switches
    (``SELECTIVE_SEARCH``) exist only for a check-aware game.
    """

    __slots__ = ()

    SELECTIVE_SEARCH: ClassVar[frozenset[str]]
    """The selective switches (``SELECTIVE_SWITCHES``) this game takes; each also needs the
    ability it uses (null move: ``NullMoveSafe``; quiet checks: ``QuietChecks``; SEE
    pruning: ``ExchangeEvaluation``) and is listed only where a measurement showed it pays.
    The others stay off whatever the settings say, and the app greys them out."""

    @abstractmethod
    def is_in_check(self) -> bool:
        """Whether the side to move must answer a threat the rules force."""

    def gives_check(self, move: Any) -> bool:
        """Whether ``move`` (legal here) leaves the opponent in check; asked before pruning a
        move. This default plays the move and looks; a game that can tell without playing
        (chess) writes its own."""
        state: GameState = self  # type: ignore[assignment]
        state.play(move)
        try:
            return self.is_in_check()
        finally:
            state.undo()


class CaptureScores(Protocol):
    """The game tells captures from quiet moves (an ordering hint; late move reductions and
    futility spare captures)."""

    __slots__ = ()

    @abstractmethod
    def capture_score(self, move: Any) -> int:
        """MVV-LVA style value of a capture (most valuable victim first), 0 for a quiet move."""


class ExchangeEvaluation(CaptureScores, Protocol):
    """Static exchange evaluation (chess): what a capture wins once the exchange on its
    square is played out. Orders losing captures last, prunes them (``see_pruning``)."""

    __slots__ = ()

    @abstractmethod
    def exchange_at_least(self, move: Any, threshold: int) -> bool:
        """Whether the exchange ``move`` starts wins at least ``threshold`` (in evaluation
        units; negative: loses at most that much)."""


class NullMoveSafe(Protocol):
    """The game has a pass that null-move pruning may try (chess: not in check, with pieces)."""

    __slots__ = ()

    @abstractmethod
    def can_null_move(self) -> bool:
        """Whether passing here is sound enough to prune on (no zugzwang expected)."""

    @abstractmethod
    def play_null(self) -> None:
        """Pass the move without moving (only where ``can_null_move``)."""

    @abstractmethod
    def undo_null(self) -> None:
        """Undo ``play_null``."""


class QuietChecks(Protocol):
    """The game lists its quiet checking moves (quiescence's first ply tries them)."""

    __slots__ = ()

    @abstractmethod
    def checking_moves(self) -> list[Any]:
        """The legal quiet moves that give check (asked at non-terminal states not in check)."""


class RepetitionRules(Protocol):
    """The game knows its position history: a position repeated inside the search tree is a
    draw (twofold, as strong chess engines score it)."""

    __slots__ = ()

    @abstractmethod
    def repeats_within(self, plies: int) -> bool:
        """Whether this position occurred within the last ``plies`` plies."""


class ExactSolver(Protocol):
    """The game can solve positions near its end exactly (Othello's empties, checkers'
    endgame databases); the search uses it as a perfect EVAL there."""

    __slots__ = ()

    HAS_SOLVER: ClassVar[bool]

    @abstractmethod
    def solve(self, player: Player, max_empties: int, poll: NodePoll | None = None) -> float | None:
        """An exact value for ``player`` in utility units when within ``max_empties``, else
        ``None`` (see ``GameState.solve``)."""


class BestMoveSolver(ExactSolver, Protocol):
    """The solver names a best move too (Othello): the root is solved once instead of once
    per root move."""

    __slots__ = ()

    @abstractmethod
    def solve_best_move(self, max_empties: int, poll: NodePoll | None = None) -> tuple[float, Any] | None:
        """(exact value for the side to move in utility units, a move reaching it) when
        within ``max_empties``, else ``None``."""


class Chance(Protocol):
    """The game has chance nodes (dice): ``to_move()`` is ``CHANCE`` there."""

    __slots__ = ()

    HAS_CHANCE: ClassVar[bool]

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """``[(outcome, probability), ...]`` summing to 1, at a chance node."""


class MatingMaterial(Protocol):
    """The game can tell whether a player could still win by any series of legal moves
    (chess: FIDE Laws 6.9): a player whose time runs out against an opponent who cannot
    checkmate draws instead of losing (``games.clock.flag_result``)."""

    __slots__ = ()

    @abstractmethod
    def can_still_mate(self, player: Player) -> bool:
        """Whether some series of legal moves (by both sides) ends with ``player`` giving
        checkmate; ``False`` only when none can."""


CAPABILITIES: Final[tuple[type, ...]] = (
    CheckAware,
    CaptureScores,
    ExchangeEvaluation,
    NullMoveSafe,
    QuietChecks,
    RepetitionRules,
    ExactSolver,
    BestMoveSolver,
    Chance,
    MatingMaterial,
)
"""Every ability a game can declare."""

_FLAGS: Final[dict[type, str]] = {ExactSolver: "HAS_SOLVER", Chance: "HAS_CHANCE"}
"""Abilities that also have a class flag of ``GameState`` (front ends read the flag): the
flag must be true exactly when the ability is declared."""


def declares(game: type[GameState], capability: type) -> bool:
    """Whether ``game`` names ``capability`` among its bases (a declaration, not a guess
    from the methods it happens to have)."""
    return capability in game.__mro__


SELECTIVE_NEEDS: Final[dict[SelectiveSwitch, tuple[type, ...]]] = {
    "check_extensions": (CheckAware,),
    "null_move": (CheckAware, NullMoveSafe),
    "late_move_reductions": (CheckAware,),
    "quiescence_checks": (CheckAware, QuietChecks),
    "see_pruning": (CheckAware, ExchangeEvaluation),
    "futility_pruning": (CheckAware,),
}
"""The abilities each selective switch needs besides the game's opt-in (``SELECTIVE_SEARCH``)."""


def takes_selective(game: type[GameState], switch: SelectiveSwitch) -> bool:
    """Whether a search of ``game`` uses the selective ``switch`` when the settings turn it
    on: the game lists it in ``SELECTIVE_SEARCH`` and declares every ability it needs."""
    return switch in game.SELECTIVE_SEARCH and all(declares(game, needed) for needed in SELECTIVE_NEEDS[switch])


def _methods(capability: type) -> list[str]:
    """The methods ``capability`` (and the abilities it extends) asks for."""
    names: list[str] = []
    for cls in capability.__mro__:
        if cls in CAPABILITIES:
            names += [name for name, value in vars(cls).items() if inspect.isfunction(value) and name not in names]
    return names


def missing_methods(game: type[GameState], capability: type) -> list[str]:
    """The methods of a declared ``capability`` that ``game`` leaves unwritten (the ability's
    own abstract stub, or the protocol's harmless default in ``GameState``)."""
    missing = []
    for name in _methods(capability):
        found = inspect.getattr_static(game, name, None)
        if found is None or getattr(found, "__isabstractmethod__", False) or found is vars(GameState).get(name):
            missing.append(name)
    return missing


def check_declarations(game: type[GameState]) -> None:
    """Raise ``CapabilityError`` unless every ability ``game`` declares is implemented, its
    flag (``HAS_SOLVER``, ``HAS_CHANCE``) agrees, and it lists selective switches only when
    check-aware. Called once when a search of ``game`` is prepared."""
    problems = declaration_problems(game)
    if problems:
        raise CapabilityError(f"{game.__name__}: " + "; ".join(problems))


@functools.cache
def declaration_problems(game: type[GameState]) -> tuple[str, ...]:
    """What is wrong with ``game``'s declarations (``check_declarations``), once per class: a
    class's bases and methods do not change, and a search is prepared for every move."""
    problems = []
    for capability in CAPABILITIES:
        declared = declares(game, capability)
        if declared:
            missing = missing_methods(game, capability)
            if missing:
                problems.append(f"declares {capability.__name__} but does not implement {', '.join(missing)}")
        flag = _FLAGS.get(capability)
        if flag is not None and bool(getattr(game, flag)) != declared:
            problems.append(f"has {flag} = {getattr(game, flag)} but {'declares' if declared else 'does not declare'} {capability.__name__}")
    selective = set(game.SELECTIVE_SEARCH)
    unknown = selective - set(SELECTIVE_SWITCHES)
    if unknown:
        problems.append(f"lists unknown selective switches {sorted(unknown)} (known: {', '.join(SELECTIVE_SWITCHES)})")
    if selective and not declares(game, CheckAware):
        problems.append(f"lists selective switches {sorted(selective)} but does not declare CheckAware")
    return tuple(problems)
