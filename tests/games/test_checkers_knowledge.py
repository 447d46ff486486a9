"""Endgame knowledge in the checkers EVAL, checked against independent truth.

The truth is the checkers literature (First Position, the "move" rule, the dog hole, "trade
when ahead") and the 4-piece endgame databases (``games.checkers.endgame``, solved by
retrograde analysis, each table checked against the rules in ``test_checkers_endgame``):
each test asserts that a term says what they say, or that the EVAL orders positions as
they do.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterator

import pytest

from games.checkers import BLACK, DEFAULT_WEIGHTS, WHITE, CheckersState
from games.checkers.bitboards import MASK_OF_SQUARE, VALID, jumpers
from games.checkers.endgame import DATABASE
from games.checkers.evaluation import FEATURE_NAMES, MOVE_PIECES, evaluate_for_black, feature_values

THE_MOVE = FEATURE_NAMES.index("the_move")
DOG_HOLE = FEATURE_NAMES.index("dog_hole")

Position = tuple[int, int, int, int]
"""(black, white, kings, player to move) as bitboards."""


@pytest.fixture(autouse=True)
def shipped_weights() -> Iterator[None]:
    CheckersState.set_weights(None)
    yield
    CheckersState.set_weights(None)


def feature(state: CheckersState, name: str, player: int) -> float:
    return state.evaluation_features(player)[name][1]


def board(squares: tuple[int, ...] | list[int]) -> int:
    return sum(MASK_OF_SQUARE[square] for square in squares)


def quiet(black: int, white: int, kings: int) -> bool:
    """Neither side has a capture: the position is judged on its merits, not on a shot."""
    empty = VALID ^ (black | white)
    return not jumpers(black, white, kings, empty, BLACK) and not jumpers(white, black, kings, empty, WHITE)


def black_result(black: int, white: int, kings: int, player: int) -> int:
    """The databases' result from Black's point of view: +1 win, 0 draw, -1 loss."""
    found = DATABASE.result(black, white, kings, player)
    assert found is not None
    return found[0] if player == BLACK else -found[0]


@functools.cache
def two_men_each() -> tuple[Position, ...]:
    """Every quiet position of two Black men against two White men, either side to move."""
    return tuple(_two_men_each())


def _two_men_each() -> Iterator[Position]:
    for black_squares in itertools.combinations(range(1, 29), 2):
        for white_squares in itertools.combinations(range(5, 33), 2):
            if set(black_squares) & set(white_squares):
                continue
            black, white = board(black_squares), board(white_squares)
            if quiet(black, white, 0):
                yield black, white, 0, BLACK
                yield black, white, 0, WHITE


def random_positions(black_kings: int, black_men: int, white_kings: int, white_men: int, count: int) -> Iterator[Position]:
    """``count`` random quiet positions of that material (seeded: the same every run)."""
    rng = random.Random(11)
    made = 0
    while made < count:
        squares = rng.sample(range(1, 33), black_kings + black_men + white_kings + white_men)
        black_squares = squares[: black_kings + black_men]
        white_squares = squares[black_kings + black_men :]
        if any(square > 28 for square in black_squares[black_kings:]) or any(square < 5 for square in white_squares[white_kings:]):
            continue  # a man on the row where it would have been crowned
        kings = board(black_squares[:black_kings]) | board(white_squares[:white_kings])
        black, white = board(black_squares), board(white_squares)
        if quiet(black, white, kings):
            made += 1
            yield black, white, kings, rng.randrange(2)


# ------------------------------------------------------------------ the move
def test_first_position_white_to_play_has_the_move_and_wins() -> None:
    # First Position (Payne 1756): White (man 20, king 15) against Black (man 12, king 28),
    # White to play wins because White has the move; with Black to play, Black has it.
    white_to_play = CheckersState.from_text("W:W20,K15:B12,K28")
    black_to_play = CheckersState.from_text("B:W20,K15:B12,K28")
    assert feature(white_to_play, "the_move", WHITE) == 1
    assert feature(black_to_play, "the_move", BLACK) == 1
    assert DATABASE.result(white_to_play.black, white_to_play.white, white_to_play.kings, WHITE) == (1, 81)
    assert white_to_play.evaluate(WHITE) > 0
    assert white_to_play.evaluate(WHITE) > black_to_play.evaluate(WHITE)


def test_bell_and_cresswell_black_to_play_has_not_the_move() -> None:
    # Both 5-against-5 problems are won by Black through exchanges that change the move:
    # at the start White has it (the system holds an even number of pieces, Black to play).
    for text in ("B:W26,23,21,20,19:B12,11,10,9,3", "B:W26,25,21,20,16:B14,8,7,5,3"):
        assert feature(CheckersState.from_text(text), "the_move", BLACK) == -1, text


def test_only_an_exchange_changes_the_move() -> None:
    # A step moves a piece into the other system and passes the turn: who has the move
    # stays. Random men endings with as many pieces a side, every quiet move tried.
    rng = random.Random(5)
    checked = 0
    for _ in range(300):
        pieces = rng.randrange(2, MOVE_PIECES // 2 + 1)
        black_squares = rng.sample(range(1, 25), pieces)
        white_squares = rng.sample([square for square in range(9, 33) if square not in black_squares], pieces)
        state = CheckersState(board(black_squares), board(white_squares), 0, rng.randrange(2))
        if state.noisy_moves() or state.is_terminal():
            continue
        before = feature(state, "the_move", BLACK)
        assert before in (1, -1), state.to_text()
        for move in state.legal_moves():
            state.play(move)
            if (state.black & ~state.kings).bit_count() == pieces and not state.kings:
                assert feature(state, "the_move", BLACK) == before, f"{state.to_text()} after {move}"
                checked += 1
            state.undo()
    assert checked > 500


def test_the_side_with_the_move_wins_most_decisive_men_endings() -> None:
    # Every quiet 2-men-against-2 position the databases call a win for one side: the side
    # the term gives the move to is the winner in about 81% of them (16,974 positions).
    with_the_move = decisive = 0
    agree = {"without the move": 0, "with the move": 0}
    without = {**DEFAULT_WEIGHTS, "the_move": 0.0}
    for black, white, kings, player in two_men_each():
        outcome = black_result(black, white, kings, player)
        if outcome == 0:
            continue
        decisive += 1
        with_the_move += feature_values(black, white, kings, player)[THE_MOVE] == outcome
        for name, weights in (("without the move", without), ("with the move", DEFAULT_WEIGHTS)):
            value = evaluate_for_black(black, white, kings, weights, player)
            agree[name] += value * outcome > 0
    assert decisive == 16_974
    assert with_the_move / decisive > 0.80
    # and the EVAL names the winner more often with the term than without it (measured 87% against 75%)
    assert agree["with the move"] > agree["without the move"] + 0.1 * decisive


# ------------------------------------------------------------ trapped kings
def test_jordans_trapped_king_is_recognised() -> None:
    # Banks-Jordan 1911 after 2-7 10x3 16-11: Black's king on 3 can step to 7 or 8, and
    # White's man on 11 would jump it on either; White wins. With the man on 12 instead,
    # 7 is safe and the king is free.
    trapped = CheckersState.from_text("B:WK30,22,11:B21,14,13,K3")
    free = CheckersState.from_text("B:WK30,22,12:B21,14,13,K3")
    assert feature(trapped, "trapped_kings", BLACK) == 1
    assert feature(free, "trapped_kings", BLACK) == 0
    assert trapped.evaluate(WHITE) > free.evaluate(WHITE)


def test_a_king_that_can_capture_is_not_trapped() -> None:
    # Black's king on 3 with White men on 7 and 11: 8 is attacked by 11, but the king can
    # jump 7 (landing on 10), so it is not trapped.
    state = CheckersState.from_text("B:W7,11,30:BK3,21")
    assert state.noisy_moves()
    assert feature(state, "trapped_kings", BLACK) == 0


@pytest.mark.parametrize("material", [(2, 0, 2, 0), (1, 1, 1, 1), (1, 1, 2, 0)])
def test_trapped_kings_lose_more_often_in_the_databases(material: tuple[int, int, int, int]) -> None:
    # Random quiet 4-piece positions, White to play so Black's king cannot just walk out:
    # with a Black king trapped Black loses at least twice as often (measured: 2K v 2K 13%
    # against 4%, K+M v K+M 26% against 5%, K+M v 2K 45% against 17%).
    losses = {0: [0, 0], 1: [0, 0]}
    for black, white, kings, _ in random_positions(*material, count=12_000):
        state = CheckersState(black, white, kings, WHITE)
        trapped = int(feature(state, "trapped_kings", BLACK) > 0)
        losses[trapped][0] += black_result(black, white, kings, WHITE) < 0
        losses[trapped][1] += 1
    assert losses[1][1] > 100
    assert losses[1][0] / losses[1][1] > 2 * losses[0][0] / losses[0][1]


# ------------------------------------------------------------------ dog hole
def test_a_man_in_the_dog_hole_is_a_weakness() -> None:
    # Black's man on 28 with White on 32 cannot move (the "dog hole"); White's on 5 with
    # Black on 1 likewise. In the 2-men-against-2 databases the side with a man there loses
    # far more often.
    # The term counts men in the hole (Black's minus White's); its weight is not positive.
    assert feature(CheckersState.from_text("B:W32,21:B28,1"), "dog_hole", BLACK) == 1
    assert feature(CheckersState.from_text("B:W5,32:B1,10"), "dog_hole", BLACK) == -1
    assert feature(CheckersState.from_text("B:W27,21:B28,1"), "dog_hole", BLACK) == 0  # 32 empty: it can go
    # Black's man on 28 against two White men: with one of them on 32 or not (measured: 42%
    # against 0.8% lost).
    losses = {True: [0, 0], False: [0, 0]}
    for black, white, kings, player in two_men_each():
        if not black & MASK_OF_SQUARE[28] or white & MASK_OF_SQUARE[5]:
            continue  # (a White man on 5 could be in its own dog hole)
        in_hole = feature_values(black, white, kings, player)[DOG_HOLE] > 0
        assert in_hole == bool(white & MASK_OF_SQUARE[32])
        losses[in_hole][0] += black_result(black, white, kings, player) < 0
        losses[in_hole][1] += 1
    assert losses[True][0] / losses[True][1] > 3 * losses[False][0] / losses[False][1]
    # shipped at 0: no measurement showed it pays (bench/STRENGTH.md, "Checkers: EVAL
    # weights"); never with the wrong sign
    assert DEFAULT_WEIGHTS["dog_hole"] <= 0


# ------------------------------------------------------------------- kings
def test_kings_on_the_edge_lose_more_often() -> None:
    # 2 kings against 2: Black's losses grow with the number of its kings on the edge
    # beyond White's (measured 0%, 2%, 3%, 5%, 8% for -2..+2); the weight is not positive.
    losses: dict[int, list[int]] = {}
    for black, white, kings, player in random_positions(2, 0, 2, 0, count=12_000):
        state = CheckersState(black, white, kings, player)
        edge = int(feature(state, "king_edge", BLACK))
        tally = losses.setdefault(edge, [0, 0])
        tally[0] += black_result(black, white, kings, player) < 0
        tally[1] += 1
    rates = [losses[edge][0] / losses[edge][1] for edge in sorted(losses)]
    assert len(rates) == 5 and rates == sorted(rates) and rates[-1] > 2 * rates[1]
    # shipped at 0: no measurement showed it pays (bench/STRENGTH.md, "Checkers: EVAL
    # weights"); never with the wrong sign
    assert DEFAULT_WEIGHTS["king_edge"] <= 0


# ------------------------------------------------------- trade when ahead
def test_the_side_ahead_gains_by_trading_kings() -> None:
    # "More kings wins; when ahead, trade": 3 kings against 2 is better for the side ahead
    # than 4 against 3 with the same kings on the same squares plus one each, and worse for
    # the side behind; 2 against 1 (a database win) is the end of that road.
    # The term's direction, with its weight on (shipped at 0: no measurement showed it pays,
    # bench/STRENGTH.md, "Checkers: EVAL weights"; never negative).
    assert DEFAULT_WEIGHTS["simplify"] >= 0
    CheckersState.set_weights({**DEFAULT_WEIGHTS, "simplify": 15.0})
    four_three = CheckersState.from_text("W:WK14,K15,K18,K19:BK1,K5,K32")
    three_two = CheckersState.from_text("W:WK14,K15,K18:BK1,K5")
    assert three_two.evaluate(WHITE) > four_three.evaluate(WHITE)
    assert three_two.evaluate(BLACK) < four_three.evaluate(BLACK)
    # the same lead is worth more the fewer pieces remain
    assert feature(three_two, "simplify", WHITE) > feature(four_three, "simplify", WHITE) > 0
    opening_lead = CheckersState.from_text("B:W21-31:B1-12")
    assert 0 < feature(opening_lead, "simplify", BLACK) < feature(three_two, "simplify", WHITE)
