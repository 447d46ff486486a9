"""Plain minimax stops at its horizon: no quiescence search unless asked for.

Without alpha-beta's bounds a quiescence search below every leaf searches the whole
noisy-move tree; in a tactical chess middlegame minimax to depth 3 with it ran for over
five minutes. The textbook minimax (AIMA fig. 5.3 with H-MINIMAX's cut-off) has none, and
neither has ours by default -- the switch stays, and every other algorithm keeps it on.
"""

from __future__ import annotations

import pytest

from games import new_game

from ai.engine import search
from ai.search import ALGORITHMS, uses_quiescence
from ai.settings import Limits, SearchSettings

WAC_001 = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1"
"""Win at Chess #1: pieces hanging on both sides, 59 legal moves."""
TREE_TO_DEPTH_3 = (1 + 59) + (1 + 59 + 1_989) + (1 + 59 + 1_989 + 109_684)
"""The nodes of iterations 1, 2 and 3 of WAC #1's full tree (perft 1-3: 59, 1,989,
109,684): all plain minimax may visit at depth 3 when nothing is searched beyond."""


def test_minimax_to_depth_3_in_a_tactical_middlegame_visits_only_its_tree() -> None:
    answer = search(new_game("chess", WAC_001), SearchSettings(algorithm="minimax"), Limits(depth=3))
    assert answer.depth == 3
    assert answer.stats.qnodes == 0
    assert answer.nodes <= TREE_TO_DEPTH_3


def test_quiescence_asked_for_still_extends_minimax() -> None:
    state = new_game("chess", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2")  # exd5 possible
    settings = SearchSettings(algorithm="minimax", quiescence=True, book=False)  # 1.e4 d5 is in the chess book
    assert search(state, settings, Limits(depth=1)).stats.qnodes > 0


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
def test_only_plain_minimax_leaves_quiescence_off_by_default(algorithm: str) -> None:
    assert uses_quiescence(SearchSettings(algorithm=algorithm)) == (algorithm != "minimax")
    assert uses_quiescence(SearchSettings(algorithm=algorithm, quiescence=False)) is False
    assert uses_quiescence(SearchSettings(algorithm=algorithm, quiescence=True)) is True


def test_alpha_beta_keeps_quiescence_by_default() -> None:
    answer = search(new_game("chess", WAC_001), SearchSettings(algorithm="alphabeta"), Limits(depth=1))
    assert answer.stats.qnodes > 0
