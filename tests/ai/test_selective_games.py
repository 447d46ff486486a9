"""Selective search per game (``GameState.SELECTIVE_SEARCH``): each game gets exactly the
switches it lists, and checkers' reductions and pruning keep its tactics.

Why per game: a switch that is sound in chess (null moves: chess has almost no zugzwang)
is unsound in checkers, and one that pays in one game's trees may cost in another's. The
list is the game's, set by measurement (``bench/STRENGTH.md``, "Checkers: selective search")."""

from __future__ import annotations

from ai.context import SearchContext
from ai.control import SearchControl
from ai.engine import search
from ai.search.common import SearchTools
from ai.settings import Limits, SearchSettings
from games import GAME_NAMES, get_game, new_game

SWITCHES = ("check_extensions", "null_move", "late_move_reductions", "quiescence_checks", "see_pruning", "futility_pruning")
FULL_WIDTH = SearchSettings(late_move_reductions=False, futility_pruning=False, book=False)
"""Checkers without its selective search: every move to full depth."""


def tools_for(name: str, settings: SearchSettings) -> SearchTools:
    state = new_game(name)
    return SearchTools(state, SearchContext(settings=settings, control=SearchControl(Limits())))


def test_each_game_takes_the_switches_it_lists_and_no_other() -> None:
    expected = {
        "tictactoe": set(),
        "checkers": {"late_move_reductions", "futility_pruning"},
        "chess": set(SWITCHES),
        "othello": set(),
    }
    for name in GAME_NAMES:
        if get_game(name).HAS_CHANCE:
            continue  # the chance algorithms have their own tools and no selectivity
        on = {switch for switch in SWITCHES if getattr(tools_for(name, SearchSettings()).switches, switch)}
        assert on == expected[name] == set(get_game(name).SELECTIVE_SEARCH), name
        all_off = SearchSettings(**{switch: False for switch in SWITCHES})  # type: ignore[arg-type]
        assert not any(getattr(tools_for(name, all_off).switches, switch) for switch in SWITCHES), name


def test_a_checkers_capture_to_make_is_a_forced_reply() -> None:
    assert not new_game("checkers").is_in_check()
    state = new_game("checkers", "W:W18,24,27,28,29,30,31,32:B2,3,4,5,8,10,12,14")
    assert state.legal_moves() and all(move.captured for move in state.legal_moves())
    assert state.is_in_check()
    quiet = new_game("checkers", "B:W26,23,21,20,19:B12,11,10,9,3")  # Bell: no capture
    assert not quiet.is_in_check()


def test_checkers_selectivity_reaches_a_depth_with_fewer_nodes() -> None:
    """The early-middlegame bench position at depth 9: the reduced and pruned tree is smaller."""
    fen = "B:W18,20,21,23,24,25,26,27,28,29,30:B1,2,5,6,7,8,11,12,14,16"
    reduced = search(new_game("checkers", fen), SearchSettings(book=False), Limits(depth=9))
    full = search(new_game("checkers", fen), FULL_WIDTH, Limits(depth=9))
    assert reduced.nodes < full.nodes
    assert reduced.depth == full.depth == 9


def test_checkers_selectivity_never_cuts_a_sacrifice() -> None:
    """Wiswell's "Seeing is believing": 22-17 gives three men (each a capture Black must
    make) for a king's multi-jump. A move that offers a capture is never reduced, and a
    node with a capture to make is never pruned, so the key is found at the same depth
    with and without selectivity."""
    fen = "W:W30,29,22,21,9,6:B24,20,16,13,8,7"
    for settings in (SearchSettings(book=False), FULL_WIDTH):
        state = new_game("checkers", fen)
        answer = search(state, settings, Limits(depth=9))
        assert state.move_name(answer.best_move) == "22-17", settings
