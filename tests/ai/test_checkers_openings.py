"""The ACF 3-move deck that checkers matches start from (``resources/openings``)."""

from __future__ import annotations

from collections import Counter

from ai.match.openings import ballot_openings, built_in
from games import new_game

DECK_SIZE = 156
"""The ACF's deck: 144 cross-board openings and 12 added from correspondence play."""
FIRST_MOVES = ("9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16")
"""Black's seven possible first moves; the deck opens with every one of them."""
BARRED = ("9-14 22-18 14-17", "11-16 21-17 10-14", "12-16 23-19 16x23", "10-15 22-17 9-14", "9-13 21-17 10-14")
"""Some of the 18 three-move lines the ACF bars as lost (Shark, Nutcracker ...)."""


def test_the_deck_has_its_documented_count_of_distinct_legal_openings() -> None:
    openings = ballot_openings("checkers")
    assert len(openings) == DECK_SIZE
    assert len({opening.moves for opening in openings}) == DECK_SIZE
    for opening in openings:
        assert len(opening.moves) == 3, opening.name
        state = new_game("checkers")
        for text in opening.moves:
            move = state.parse_move(text)
            assert move in state.legal_moves(), f"{opening.name}: {text}"
            state.play(move)
        assert not state.is_terminal()


def test_the_deck_covers_every_first_move_and_no_barred_line() -> None:
    openings = ballot_openings("checkers")
    firsts = Counter(opening.moves[0] for opening in openings)
    assert set(firsts) == set(FIRST_MOVES)
    lines = {" ".join(opening.moves) for opening in openings}
    assert not lines & set(BARRED)
    assert "11-15 23-19 8-11" in lines and "9-13 22-17 13x22" in lines


def test_checkers_matches_start_from_the_deck_in_a_seeded_order() -> None:
    deck = {opening.moves for opening in ballot_openings("checkers")}
    first, again, other = built_in("checkers", seed=5), built_in("checkers", seed=5), built_in("checkers", seed=6)
    assert {opening.moves for opening in first} == deck
    assert [o.moves for o in first] == [o.moves for o in again]
    assert [o.moves for o in first] != [o.moves for o in other]
