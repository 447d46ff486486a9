"""Games' optional abilities (``games.capabilities``) as the search sees them: declared by
the game's class, checked once when a search is prepared, resolved into ``Switches`` and
``Abilities``; a switch whose ability the game lacks is off, and a game that claims an
ability it does not implement fails before any node with an error naming what is missing."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from ai.context import SearchContext
from ai.control import SearchControl
from ai.engine import search
from ai.search.common import SearchTools, Switches
from ai.settings import Limits, SearchSettings
from games import GAME_NAMES, get_game, new_game
from games.capabilities import (
    CAPABILITIES,
    SELECTIVE_SWITCHES,
    CapabilityError,
    CheckAware,
    ExactSolver,
    ExchangeEvaluation,
    NullMoveSafe,
    check_declarations,
    declares,
    takes_selective,
)
from games.base import GameState
from games.tictactoe import TicTacToeState

ALL_ON = SearchSettings(**{switch: True for switch in SELECTIVE_SWITCHES}, book=False)  # type: ignore[arg-type]


def tools_for(state: Any, settings: SearchSettings = ALL_ON) -> SearchTools:
    return SearchTools(state, SearchContext(settings=settings, control=SearchControl(Limits())))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_game_keeps_its_declarations(name: str) -> None:
    """Every registered game's declarations hold (methods written, flags agree)."""
    check_declarations(get_game(name))


class CheckAwareTicTacToe(TicTacToeState, CheckAware):
    """Tic-tac-toe that knows no threat, opting into every selective switch: it declares
    only ``CheckAware``, so the switches needing more stay off."""

    SELECTIVE_SEARCH: ClassVar[frozenset[str]] = frozenset(SELECTIVE_SWITCHES)
    __slots__ = ()

    def is_in_check(self) -> bool:
        return False


def test_a_switch_whose_ability_the_game_lacks_is_resolved_off() -> None:
    game = CheckAwareTicTacToe
    check_declarations(game)
    switches = Switches.resolve(ALL_ON, game)
    assert switches.check_extensions and switches.late_move_reductions and switches.futility_pruning
    assert not switches.null_move  # needs NullMoveSafe
    assert not switches.see_pruning  # needs ExchangeEvaluation
    assert not switches.quiescence_checks  # needs QuietChecks
    assert not switches.captures_known and not switches.root_solver_empties
    plain = Switches.resolve(ALL_ON, TicTacToeState)  # declares nothing: no selectivity at all
    assert not plain.is_selective
    # and the search runs with what was resolved: the same value as without selectivity
    off = SearchSettings(**{switch: False for switch in SELECTIVE_SWITCHES}, book=False)  # type: ignore[arg-type]
    state = CheckAwareTicTacToe.from_text(TicTacToeState.initial().to_text())
    with_switches = search(state, ALL_ON, Limits(depth=9))
    without = search(TicTacToeState.initial(), off, Limits(depth=9))
    assert with_switches.score == without.score


@pytest.mark.parametrize("name", [name for name in GAME_NAMES if not get_game(name).HAS_CHANCE])
def test_switches_follow_the_declarations(name: str) -> None:
    game = get_game(name)
    switches = tools_for(new_game(name)).switches
    for switch in SELECTIVE_SWITCHES:
        assert getattr(switches, switch) == takes_selective(game, switch), (name, switch)
    assert switches.null_move == (switch_listed(game, "null_move") and declares(game, NullMoveSafe))
    assert switches.see_pruning == (switch_listed(game, "see_pruning") and declares(game, ExchangeEvaluation))
    assert bool(switches.root_solver_empties) == declares(game, ExactSolver) == game.HAS_SOLVER


def switch_listed(game: type[GameState], switch: str) -> bool:
    return switch in game.SELECTIVE_SEARCH and declares(game, CheckAware)


class ClaimsExchanges(TicTacToeState, ExchangeEvaluation):
    """Declares exchange evaluation and writes none of it."""

    __slots__ = ()


class ClaimsSolver(TicTacToeState, ExactSolver):
    """Declares a solver but keeps ``GameState``'s "never solved" default and flag."""

    __slots__ = ()


class ListsSwitchesBlindly(TicTacToeState):
    """Lists a selective switch without knowing what a check is."""

    SELECTIVE_SEARCH: ClassVar[frozenset[str]] = frozenset({"null_move"})
    __slots__ = ()


@pytest.mark.parametrize(
    ("game", "words"),
    [
        (ClaimsSolver, ["declares ExactSolver but does not implement solve", "HAS_SOLVER = False"]),
        (ListsSwitchesBlindly, ["does not declare CheckAware"]),
    ],
)
def test_a_false_claim_fails_when_the_search_is_prepared(game: Any, words: list[str]) -> None:
    state = game.from_text(TicTacToeState.initial().to_text())
    with pytest.raises(CapabilityError) as error:
        tools_for(state)
    for word in words:
        assert word in str(error.value)
    assert game.__name__ in str(error.value)


def test_an_unwritten_abstract_ability_cannot_even_be_made() -> None:
    """A declared ability's own methods are abstract: the class cannot be instantiated, and
    the check names them too."""
    with pytest.raises(TypeError, match="exchange_at_least"):
        ClaimsExchanges.initial()
    with pytest.raises(CapabilityError, match="exchange_at_least"):
        check_declarations(ClaimsExchanges)  # type: ignore[type-abstract]  # abstract on purpose


def test_declaring_is_nominal_not_structural() -> None:
    """Having a method of the same name is no declaration: the game must name the ability."""
    tictactoe = get_game("tictactoe")
    assert hasattr(tictactoe, "is_in_check")  # GameState's harmless default
    assert not any(declares(tictactoe, capability) for capability in CAPABILITIES)
