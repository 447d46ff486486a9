"""A draw by rule (repetition, a move-count rule) depends on the path to it, so the search
never stores a value built on one as the position's exact game value: a later search
reaching the position by another path would trust it at any depth."""

from __future__ import annotations

from typing import Any

from ai.engine import build_state, search
from ai.search.common import SOLVED_DEPTH, TT_KEY
from ai.settings import Limits, SearchRequest, SearchSettings
from games.checkers import CheckersState
from games.checkers.state import NO_PROGRESS_LIMIT


def test_a_position_whose_every_move_draws_by_the_move_rule_is_not_solved() -> None:
    # King against king one ply before the 40-move rule: every move ends the game drawn.
    base = CheckersState.from_text("B:WK32:BK1")
    state = CheckersState(base.black, base.white, base.kings, base.player, no_progress_plies=NO_PROGRESS_LIMIT - 1)
    assert all(state.result(move).is_terminal() for move in state.legal_moves())
    shared: dict[str, Any] = {}
    # Databases off: they know king against king is drawn whatever the path, and answer at once.
    finished = search(state, SearchSettings(solver_empties=0), Limits(depth=4), shared=shared)
    assert finished.score.value == 0
    assert finished.depth == 4  # not stopped after depth 1 as if the value were exact
    entry = shared[TT_KEY].probe(state.key())
    assert entry is not None and entry[1] < SOLVED_DEPTH


def test_a_natural_end_is_still_solved() -> None:
    # Black's king takes White's last piece: the game is won whatever the depth.
    state = CheckersState.from_text("B:WK10:BK6")
    finished = search(state, SearchSettings(), Limits(depth=6))
    assert finished.score.is_win and finished.depth == 1


def test_a_request_whose_moves_go_on_past_an_unclaimed_draw_is_searched() -> None:
    """A game's moves may go on past a threefold repetition nobody claimed, as a PGN file
    and UCI's ``position ... moves`` may: ``analyse --moves`` and the pool's requests read
    them so too, and a position that stands at the draw still is one."""
    shuffle = ("Nf3", "Nf6", "Ng1", "Ng8") * 2
    state = build_state(SearchRequest("chess", moves=(*shuffle, "e4", "e5")))
    assert state.to_text().startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w")
    assert not state.is_terminal()
    assert build_state(SearchRequest("chess", moves=shuffle)).is_terminal()
