"""A reviewed game as the player goes through it, with reviews made by hand (no search):
"next mistake" goes round past the last one, as Lichess's "learn from your mistakes" does,
and every step says where it went in the status line; the eval graph and the eval bar show
the review's value after every reviewed move, whoever played it, never the computer's own
score of its move beside the review's."""

from __future__ import annotations

from typing import Any

import pytest

from ai.review import first_players_score
from games import get_game, new_game
from games.annotations import CHECKERS_SCALE, CHESS_SCALE, GameReview, Mark, ReviewSettings, Value, make_move_review
from games.records import GameRecord

pytestmark = pytest.mark.usefixtures("qapp")

MOVES = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4", "Nxe5", "Qg5"]
ROWS = [  # ply, played, best (the mover's view, centipawns), best move
    (0, 30, 30, "e4"),
    (1, -100, -30, "c5"),  # Black's inaccuracy: winning chances 0.055 -> 0.182
    (2, 100, 100, "Nf3"),
    (3, -100, -100, "Nc6"),
    (4, 100, 100, "Bc4"),
    (5, -250, -100, "Nf6"),  # Black's mistake: 0.182 -> 0.430
    (6, -150, 250, "Nxd4"),  # White's blunder
    (7, 150, 150, "Qg5"),
]
OWN_SCORES = [None, "+0.10", None, "+0.20", None, "+0.15", None, "-0.40"]
"""The computer's (Black's) own scores of its moves, kept with them: its level's search,
which disagrees with the review."""


def chess_review() -> GameReview:
    moves = tuple(
        make_move_review(CHESS_SCALE, ply=ply, mover=ply % 2, move=MOVES[ply], played=Value(played), best=Value(best),
                         best_move=best_move)
        for ply, played, best, best_move in ROWS
    )
    return GameReview("chess", ReviewSettings("native", None, 1_000_000), moves, CHESS_SCALE)


def shown_review(window: Any) -> GameReview:
    window.load_record(GameRecord("chess", new_game("chess").to_text(), list(MOVES), list(OWN_SCORES)))
    review = chess_review()
    assert [move.ply for move in review.moves if move.mark.is_error] == [1, 5, 6]
    window.reviews.show(review)
    return review


def press(window: Any, name: str) -> str:
    window.actions_by_name[name].trigger()
    return str(window.statusBar().currentMessage())


def choose_side(window: Any, player: int) -> None:
    side = window.review_panel.side
    side.setCurrentIndex(side.findData(player))


def test_next_mistake_goes_round_from_the_last_move_and_back(window: Any) -> None:
    shown_review(window)
    moves = window.game_view.moves.moves
    assert moves.shown_ply == len(MOVES)  # a review ends with the last move shown
    choose_side(window, 1)
    assert press(window, "next_mistake") == "No later mistake of Black: from the first move again"
    assert moves.shown_ply == 2  # after 1...e5?!
    assert press(window, "next_mistake") == ""  # a plain step: nothing left to say
    assert moves.shown_ply == 6  # after 3...Nd4?
    assert press(window, "next_mistake") == "No later mistake of Black: from the first move again"
    assert moves.shown_ply == 2
    assert press(window, "previous_mistake") == "No earlier mistake of Black: from the last move again"
    assert moves.shown_ply == 6
    assert press(window, "previous_mistake") == ""
    assert moves.shown_ply == 2


def test_every_step_says_its_own_word_in_the_status_line(window: Any) -> None:
    """White's one blunder, then Black's two mistakes: no word of an earlier step (or the
    other side) stays in the status line."""
    shown_review(window)
    moves = window.game_view.moves.moves
    choose_side(window, 0)
    assert press(window, "next_mistake") == "No later mistake of White: from the first move again"
    assert moves.shown_ply == 7  # after 4.Nxe5??
    assert press(window, "next_mistake") == "No other mistake of White: this is the only one"
    assert moves.shown_ply == 7
    choose_side(window, 1)
    assert press(window, "next_mistake") == "No later mistake of Black: from the first move again"
    assert moves.shown_ply == 2
    assert press(window, "next_mistake") == ""
    assert moves.shown_ply == 6
    assert press(window, "previous_mistake") == ""
    assert moves.shown_ply == 2


def test_a_side_without_mistakes_says_so(window: Any) -> None:
    shown_review(window)
    window.reviews.show(GameReview("chess", ReviewSettings("native"), chess_review().moves[:5], CHESS_SCALE))
    moves = window.game_view.moves.moves
    choose_side(window, 0)  # White made none in the first five moves
    assert press(window, "next_mistake") == "No mistake of White in this game"
    assert press(window, "previous_mistake") == "No mistake of White in this game"
    assert moves.shown_ply == len(MOVES)


def test_the_graph_and_the_bar_show_the_reviews_value_after_every_move(window: Any) -> None:
    review = shown_review(window)
    game = get_game("chess")
    expected = [None, *(first_players_score(game, move.played, move.mover) for move in review.moves)]
    assert window.eval_graph.scores == expected
    assert expected[2] is not None and expected[2].value == 100  # after 1...e5: White +1.00, not Black's own +0.10
    moves = window.game_view.moves.moves
    for ply in range(1, len(MOVES) + 1):
        moves.show_ply(ply)
        assert window.eval_bar.score == expected[ply], f"the bar after ply {ply}"


def test_a_checkers_endgame_reviewed_draws_no_comb(window: Any) -> None:
    """The computer (White) scored its moves with its level's search (Black +1.04: a man
    up), the review proved every position a win for White: the curve and the bar follow
    the review alone, never flipping to the computer's number every other ply. The forced
    capture 19x12 keeps the value of the position before it (its own search, stopped at
    once by the only move, said +1.07 for White: a man up before the recapture)."""
    names = ["9-14", "24-19", "6-9", "28-24", "12-16", "19x12"]
    own = [None, "+1.04", None, "+1.04", None, "+1.04"]
    window.load_record(GameRecord("checkers", new_game("checkers").to_text(), names, own))
    moves = []
    for ply, name in enumerate(names):
        mover = ply % 2
        plies_left = 60 - ply
        won = Value(1_000_000 - plies_left, plies_left) if mover == 1 else Value(-(1_000_000 - plies_left), -plies_left)
        mark = Mark.ONLY_MOVE if name == "19x12" else None
        played = Value(107) if mark is Mark.ONLY_MOVE else won
        moves.append(make_move_review(CHECKERS_SCALE, ply=ply, mover=mover, move=name, played=played, best=played,
                                      best_move=name, mark=mark))
    window.reviews.show(GameReview("checkers", ReviewSettings("native", None, 2_500_000), tuple(moves), CHECKERS_SCALE))
    scores = window.eval_graph.scores
    assert all(score is not None and score.for_player(1).is_win for score in scores[1:]), scores
    assert scores[6] == scores[5]
    shown = window.game_view.moves.moves
    for ply in range(1, len(names) + 1):
        shown.show_ply(ply)
        bar = window.eval_bar.score
        assert bar is not None and bar.for_player(1).is_win, f"the bar after ply {ply}: {bar}"


def test_a_game_opened_shows_its_own_reviews_values_at_once_and_no_other_games(window: Any) -> None:
    """Opened with its review: the curve is the review's before anything is clicked. The next
    game, which begins with the same move, shows nothing of that review."""
    record = GameRecord("chess", new_game("chess").to_text(), list(MOVES), list(OWN_SCORES), review=chess_review())
    window.load_record(record)
    game = get_game("chess")
    assert window.eval_graph.scores == [None, *(first_players_score(game, move.played, move.mover) for move in record.review.moves)]
    window.load_record(GameRecord("chess", new_game("chess").to_text(), ["e4", "c5"]))
    assert window.eval_graph.scores == [None, None, None]
    assert window.eval_bar.score is None
