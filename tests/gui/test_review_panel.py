"""The Review tab's figures as a player reads them: a side's average loss with the precision
its unit needs, checked against hand-worked games."""

from __future__ import annotations

import pytest

from ai.review import ReviewStrength, review_game
from games import new_game
from games.records import GameRecord
from gui.review.panel import summary_rows

pytestmark = pytest.mark.usefixtures("qapp")


def test_a_tic_tac_toe_blunder_shows_in_the_average_loss() -> None:
    """X: b2, c1, then b1?? leaves O's a3-c3 row open at b3, and O wins. X's three judged
    moves lost 0 + 0 + 1 game value (a draw thrown to a loss): the average is 1/3, shown 0.33,
    never a 0 beside a blunder."""
    moves = "b2 a3 c1 c3 b1 b3".split()
    record = GameRecord("tictactoe", new_game("tictactoe").to_text(), moves)
    review = review_game(record, ReviewStrength.for_game("tictactoe"))
    rows = dict(summary_rows(review))
    assert rows["Blunder ??"] == ("1", "0")
    assert rows["Average loss (game value)"] == ("0.33", "0.00")
