"""The checkers endgame databases (games/checkers/endgame.py, resources/endgames/).

Truth comes from outside the generator: the rules as ``CheckersState`` implements them (a
move generator independent of tools/checkers_endgame.c) for the retrograde consistency of
every sampled value, and published results for whole positions.
"""

from __future__ import annotations

import random

import pytest

from ai.engine import search
from ai.settings import Limits, SearchSettings
from games.checkers import CheckersState
from games.checkers.bitboards import BLACK, MASK_OF_SQUARE, WHITE
from games.checkers.endgame import (
    DATABASE,
    DATABASE_PIECES,
    DATABASE_WIN,
    FIVE_BLOCK,
    BlockFile,
    five_signatures,
    pack_blocks,
    signatures,
)


def result(state: CheckersState) -> tuple[int, int]:
    found = DATABASE.result(state.black, state.white, state.kings, state.player)
    assert found is not None, state.to_text()
    return found


def random_position(rng: random.Random, signature: tuple[int, int, int, int], player: int) -> CheckersState:
    """A random legal placement: men never on their own crown row."""
    movers_men, movers_kings, others_men, others_kings = signature
    mover, other = player, 1 - player
    crown = {BLACK: range(29, 33), WHITE: range(1, 5)}
    free = set(range(1, 33))
    boards = {BLACK: 0, WHITE: 0}
    kings = 0
    groups = ((mover, movers_men, False), (mover, movers_kings, True), (other, others_men, False), (other, others_kings, True))
    for side, count, is_king in groups:
        for _ in range(count):
            allowed = sorted(free if is_king else free - set(crown[side]))
            square = rng.choice(allowed)
            free.discard(square)
            boards[side] |= MASK_OF_SQUARE[square]
            if is_king:
                kings |= MASK_OF_SQUARE[square]
    return CheckersState(boards[BLACK], boards[WHITE], kings, player)


def child_results(state: CheckersState) -> list[tuple[int, int]]:
    found = []
    for move in state.legal_moves():
        state.play(move)
        found.append((-1, 0) if not state.legal_moves() else result(state))
        state.undo()
    return found


SINGLE_CORNERS = ({3, 4, 8, 12}, {21, 25, 29, 30})


def check_consistent(state: CheckersState) -> None:
    """Retrograde consistency with the rules: a win in d has a move to a loss in d - 1 and
    none to a quicker loss; a loss in d has only moves to wins, the longest in d - 1; a draw
    has no move to a loss and some move to a draw."""
    outcome, distance = result(state)
    children = child_results(state)
    where = state.to_text()
    if not children:
        assert (outcome, distance) == (-1, 0), where
    elif outcome > 0:
        losses = [plies for value, plies in children if value < 0]
        assert losses and min(losses) == distance - 1, (where, distance, children)
    elif outcome < 0:
        assert all(value > 0 for value, _ in children), (where, children)
        assert max(plies for _, plies in children) == distance - 1, (where, distance, children)
    else:
        assert all(value >= 0 for value, _ in children), (where, children)
        assert any(value == 0 for value, _ in children), (where, children)


def test_every_table_is_consistent_with_the_rules_on_random_positions() -> None:
    rng = random.Random(11)
    for signature in signatures():
        for player in (BLACK, WHITE):
            for _ in range(40):
                check_consistent(random_position(rng, signature, player))


@pytest.mark.slow
def test_thousands_of_positions_are_consistent_with_the_rules() -> None:
    rng = random.Random(2026)
    for signature in signatures():
        for _ in range(600):
            check_consistent(random_position(rng, signature, rng.choice((BLACK, WHITE))))


def test_first_position_is_a_win_for_the_side_with_two_kings_to_be() -> None:
    # First Position (Payne 1756; the ACF's "winning 1st position"): White's king on 15 and
    # man on 20 against Black's king in the double corner (28) and man on 12, White to move.
    state = CheckersState.from_text("W:W20,K15:B12,K28")
    outcome, _ = result(state)
    assert outcome == 1
    # ... and the ACF's first move 15-19 keeps the win.
    state.play(state.parse_move("15-19"))
    assert result(state)[0] == -1


def test_first_position_without_the_move_is_won_by_the_published_key() -> None:
    # Newell, "Without" (tests/data/checkers/problems.json): Black to play and win, 15-10.
    state = CheckersState.from_text("B:W22,K5:BK15,K6")
    assert result(state)[0] == 1
    state.play(state.parse_move("15-10"))
    assert result(state)[0] == -1


def test_two_kings_beat_one_and_one_king_cannot_beat_one() -> None:
    # A lone king in its double corner falls to two kings, whoever is to move.
    assert result(CheckersState.from_text("W:WK18,K19:BK1"))[0] == 1
    assert result(CheckersState.from_text("B:WK18,K19:BK1"))[0] == -1
    # King against king, far apart: a draw either way.
    assert result(CheckersState.from_text("B:WK32:BK1")) == (0, 0)
    assert result(CheckersState.from_text("W:WK32:BK1")) == (0, 0)


def test_two_kings_against_one_win_from_every_quiet_position_but_a_tangle_in_a_single_corner() -> None:
    """Every 2-kings-against-1 position with the two kings to move and no capture on the
    board is a win (the textbook result), except a few where both kings are tangled in a
    single corner (around square 4 or 29) with the lone king next to them: those are draws, and
    the rules (one ply deep) agree with the databases on each of them."""
    squares = range(1, 33)
    exceptions = []
    for lone in squares:
        for first in squares:
            for second in range(first + 1, 33):
                if len({lone, first, second}) < 3:
                    continue
                strong = MASK_OF_SQUARE[first] | MASK_OF_SQUARE[second]
                weak = MASK_OF_SQUARE[lone]
                state = CheckersState(weak, strong, strong | weak, BLACK)
                if any(move.is_capture for move in state.legal_moves()):
                    continue
                state = CheckersState(weak, strong, strong | weak, WHITE)
                if any(move.is_capture for move in state.legal_moves()):
                    continue
                if result(state)[0] != 1:
                    exceptions.append(state)
    assert len(exceptions) == 10
    for state in exceptions:
        kings = {square for square, (side, _) in state.pieces().items() if side == WHITE}
        assert kings <= SINGLE_CORNERS[0] or kings <= SINGLE_CORNERS[1], state.to_text()
        check_consistent(state)


def test_positions_outside_the_databases_are_not_probed() -> None:
    start = CheckersState()
    assert DATABASE.result(start.black, start.white, start.kings, start.player) is None
    five = CheckersState.from_text("B:W22,K5,K9:BK15,K6")
    assert five.solve(BLACK, 10) is None
    assert CheckersState.from_text("B:W22,K5:BK15,K6").solve(BLACK, 0) is None
    assert CheckersState.from_text("B:W22,K5:BK15,K6").solve(BLACK, 3) is None  # 4 pieces, reach 3
    assert CheckersState.from_text("B:W22,K5:BK15,K6").solve(BLACK, 4) is not None
    assert (five.black | five.white).bit_count() == DATABASE_PIECES  # five, but White's three are not all kings


def test_solve_scores_a_win_by_its_distance_for_either_player() -> None:
    state = CheckersState.from_text("B:W22,K5:BK15,K6")
    _, distance = result(state)
    assert state.solve(BLACK, 10) == DATABASE_WIN - distance
    assert state.solve(WHITE, 10) == -(DATABASE_WIN - distance)


def test_the_engine_converts_a_database_win() -> None:
    """Two kings against one: the engine, playing both sides from the databases, wins
    within the distance the databases promise (no repetition, no 40-move draw)."""
    state = CheckersState.from_text("W:WK18,K19:BK1")
    _, distance = result(state)
    settings = SearchSettings()
    for _ in range(distance):
        if state.is_terminal():
            break
        state.play(search(state, settings, Limits(nodes=2_000)).best_move)
    assert state.is_terminal() and state.utility(WHITE) == 1.0, state.to_text()


@pytest.mark.parametrize("text", ["W:W20,K15:B12,K28", "B:W22,K5:BK15,K6", "B:WK18,K19:BK1"])
def test_a_database_result_is_reported_as_win_in_n(text: str) -> None:
    """The root's database result reaches the score as "win (loss) in N plies", N the
    databases' distance: First Position (White wins in 81), Newell's "without" and a lost
    king against two, searched from the side to move."""
    state = CheckersState.from_text(text)
    outcome, distance = result(state)
    found = search(state, SearchSettings(), Limits(nodes=2_000))
    mover = state.to_move()
    assert found.score.win_in_plies is not None, found.score
    assert found.score.win_in_plies == (distance if outcome > 0 else -distance) * (1 if found.score.view == mover else -1)


def test_a_database_win_below_the_root_counts_its_plies_from_the_root() -> None:
    # Five pieces (outside the databases): Black's forced capture 6x13 leaves four, a
    # database win; the score is a win in the capture's ply plus the databases' distance after it.
    state = CheckersState.from_text("B:W22,K5,K9:BK15,K6")
    found = search(state, SearchSettings(), Limits(depth=3))
    capture = state.parse_move("6x13")
    assert found.best_move == capture
    state.play(capture)
    outcome, distance = result(state)
    assert outcome == -1  # White, to move, loses
    assert found.score.win_in_plies is not None
    assert abs(found.score.win_in_plies) == 1 + distance


# ------------------------------------------------------ three kings against two
def test_every_five_piece_table_is_consistent_with_the_rules_on_random_positions() -> None:
    rng = random.Random(5)
    tables = five_signatures()
    assert len(tables) == 6 and all(sum(signature) == 5 and 3 in (signature[1], signature[3]) for signature in tables)
    for signature in tables:
        for player in (BLACK, WHITE):
            for _ in range(30):
                check_consistent(random_position(rng, signature, player))


@pytest.mark.slow
def test_thousands_of_five_piece_positions_are_consistent_with_the_rules() -> None:
    rng = random.Random(2027)
    for signature in five_signatures():
        for _ in range(600):
            check_consistent(random_position(rng, signature, rng.choice((BLACK, WHITE))))


def test_block_file_reads_back_what_was_packed() -> None:
    rng = random.Random(3)
    data = bytes(rng.randrange(4) for _ in range(3 * FIVE_BLOCK + 123))  # a short last block
    blocks = BlockFile(pack_blocks(data), size=len(data), name="test.blk")
    for index in [0, FIVE_BLOCK - 1, FIVE_BLOCK, len(data) - 1, *rng.sample(range(len(data)), 500)]:
        assert blocks[index] == data[index]


def test_a_damaged_block_file_says_what_is_wrong() -> None:
    data = bytes(range(256)) * 200
    packed = pack_blocks(data)
    with pytest.raises(ValueError, match="not a Plyground block file"):
        BlockFile(b"garbage" + packed, size=len(data))
    with pytest.raises(ValueError, match="expected"):
        BlockFile(packed, size=len(data) + 1)
    with pytest.raises(ValueError, match="cut short|block table says"):
        BlockFile(packed[: len(packed) // 2], size=len(data))
    with pytest.raises(ValueError, match="cut short"):
        BlockFile(packed[:40], size=len(data))
    damaged = bytearray(packed)
    damaged[-10:] = b"\xff" * 10  # the last block's zlib stream
    blocks = BlockFile(bytes(damaged), size=len(data), name="test.blk")
    assert blocks[0] == 0
    with pytest.raises(ValueError, match="test.blk: block 3 is damaged"):
        blocks[len(data) - 1]


def test_only_three_kings_against_two_are_in_the_five_piece_tables() -> None:
    for text in ("B:WK1,K5,K9,K13:BK32", "B:WK1,K5,9:BK32,K28", "W:W22,K5,K9:BK15,K6"):  # 4-1; 3-2 with a man
        state = CheckersState.from_text(text)
        assert DATABASE.result(state.black, state.white, state.kings, state.player) is None, text
        assert state.solve(BLACK, 10) is None
    for text in ("B:WK1,K5,K9:BK32,K28", "W:WK1,K5,K9:B24,K28", "W:W22,K5:BK15,K6,K10"):
        state = CheckersState.from_text(text)
        assert DATABASE.result(state.black, state.white, state.kings, state.player) is not None, text
        assert state.solve(BLACK, 5) is not None and state.solve(BLACK, 4) is None  # the reach counts pieces


def test_three_kings_beat_two_kings_from_almost_every_quiet_position() -> None:
    """The textbook result (three kings against two win, by forcing an exchange into two
    against one), checked on random capture-free positions with either side to move."""
    rng = random.Random(8)
    outcomes = []
    while len(outcomes) < 300:
        player = rng.choice((BLACK, WHITE))
        strong = rng.choice((player, 1 - player))
        signature = (0, 3, 0, 2) if strong == player else (0, 2, 0, 3)
        state = random_position(rng, signature, player)
        if any(move.is_capture for move in state.legal_moves()):
            continue
        outcome, _ = result(state)
        outcomes.append(outcome if strong == player else -outcome)
    assert outcomes.count(1) >= 0.95 * len(outcomes), outcomes.count(1)


def test_the_engine_converts_three_kings_against_two_within_the_promised_distance() -> None:
    """Playing both sides from the databases, three kings beat two from a position the
    search alone wandered in (Vair's ending after the man is gone): no repetition, no
    40-move draw, and the win comes no later than the databases promise."""
    state = CheckersState.from_text("W:WK10,K14,K22:BK19,K27")
    outcome, distance = result(state)
    assert outcome == 1
    settings = SearchSettings()
    for _ in range(distance):
        if state.is_terminal():
            break
        state.play(search(state, settings, Limits(nodes=2_000)).best_move)
    assert state.is_terminal() and state.utility(WHITE) == 1.0, state.to_text()
