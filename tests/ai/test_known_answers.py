"""Answers without search: the game's forced answer and the opening book (``ai.engine``).

A forced answer (``GameState.forced_answer``) is played whatever the settings say about
books, and says ``forced``, never ``book``; a book move needs books allowed, which
``ai.engine.books_allowed`` alone decides (``SearchSettings.book`` and the environment
switch ``PLYGROUND_BOOKS=off``, for every game)."""

from __future__ import annotations

from typing import Any

import pytest

from ai.engine import BOOKS_SWITCH, books_allowed, known_answer, run_search, search
from ai.settings import Limits, SearchRequest, SearchSettings
from games.backgammon import DOUBLE, NO_DOUBLE, BackgammonState
from games.chess_game import ChessState
from games.tictactoe import TicTacToeState


class ForcedCentre(TicTacToeState):
    """Tic-tac-toe whose rules know to take the centre of an empty board (and whose book
    would say the corner: the forced answer comes first)."""

    def forced_answer(self) -> Any | None:
        return 4 if self.key() == TicTacToeState.from_text(".........").key() else None

    def book_moves(self) -> list[tuple[Any, float]]:
        return [(0, 1.0)]


EMPTY = "........."


def test_a_forced_answer_is_played_with_books_on_or_off_and_is_not_a_book_move(books_on: None) -> None:
    state = ForcedCentre.from_text(EMPTY)
    for book in (True, False):
        answer = search(state, SearchSettings(book=book), Limits(depth=9))
        assert answer.best_move == 4 and answer.forced and not answer.book
        assert answer.nodes == 0 and answer.depth == 0 and answer.pv == (4,)


def test_a_forced_answer_outside_the_root_moves_is_searched_instead() -> None:
    state = ForcedCentre.from_text(EMPTY)
    restricted = search(state, SearchSettings(), Limits(depth=2), root_moves=[8])
    assert restricted.best_move == 8 and not restricted.forced and restricted.nodes > 0
    allowed = search(state, SearchSettings(), Limits(depth=2), root_moves=[4, 8])
    assert allowed.best_move == 4 and allowed.forced


def test_no_forced_answer_falls_back_to_the_book_then_the_search(books_on: None) -> None:
    after = ForcedCentre.from_text("....x....")  # not the empty board: no forced answer
    book_answer = search(after, SearchSettings(), Limits(depth=2))
    assert book_answer.book and not book_answer.forced and book_answer.best_move == 0
    searched = search(after, SearchSettings(book=False), Limits(depth=2))
    assert not searched.book and not searched.forced and searched.nodes > 0


def test_the_books_switch_is_decided_in_one_place_for_every_game(monkeypatch: pytest.MonkeyPatch) -> None:
    chess = ChessState.initial()
    assert chess.book_moves(), "the shipped chess book has the start position"
    monkeypatch.setenv(BOOKS_SWITCH, "off")
    assert not books_allowed(SearchSettings())
    assert known_answer(chess, SearchSettings()) is None
    assert not search(chess, SearchSettings(), Limits(depth=1)).book
    monkeypatch.setenv(BOOKS_SWITCH, "on")
    assert books_allowed(SearchSettings()) and not books_allowed(SearchSettings(book=False))
    known = known_answer(chess, SearchSettings())
    assert known is not None and known.book and known.move in dict(chess.book_moves())
    assert search(chess, SearchSettings(), Limits(depth=1)).book


def test_a_cube_decision_is_forced_on_the_command_path_and_the_pool() -> None:
    """Backgammon's cube decision through a request (books off by the suite's switch and
    by the settings) and through a one-worker engine pool: forced, not searched."""
    from ai.parallel import EnginePool

    far_ahead = BackgammonState.from_points({6: 2, 5: 2, 4: 2, 3: 1}, {6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1})
    request = SearchRequest(game="backgammon", position=far_ahead.to_text(),
                            settings=SearchSettings(algorithm="star2", book=False), limits=Limits(depth=2))
    answer = run_search(request)
    assert answer.forced and not answer.book and answer.best_move == DOUBLE and answer.nodes == 0
    with EnginePool(workers=1, hash_megabytes=8) as pool:
        events = list(pool.search(request))
    assert events[-1].forced and events[-1].best_move == DOUBLE  # type: ignore[attr-defined]
    close_race = BackgammonState.from_points({6: 4, 5: 3, 4: 2, 8: 2, 9: 2, 10: 2}, {6: 4, 5: 3, 4: 2, 8: 2, 9: 2, 11: 2})
    assert close_race.forced_answer() == NO_DOUBLE
