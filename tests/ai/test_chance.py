"""Expectiminimax, Star1 and Star2: the same value, less work.

Independent truths: a reference expectimax written here on pure ``result`` copies (for the
random dice game below), plain minimax (``ai.search.minimax``) on tic-tac-toe, and
expectiminimax itself for Star1/Star2 -- they must return *exactly* its root value.

``DiceTreeState`` is a small test-only game with dice whose whole tree -- node kinds,
branching, dice and their (dyadic) probabilities, payoffs and EVAL -- is drawn from a seed,
path by path. It has everything the pruning must survive: chance nodes after chance nodes,
one player deciding twice in a row, terminals at any depth, unequal probabilities. With
dyadic probabilities and integer payoffs every sum is exact in floating point, so the
comparisons there are ``==``.
"""

from __future__ import annotations

import random
import threading
import time
import zlib
from typing import Any, ClassVar

import pytest

from games import new_game
from games.base import CHANCE, GameState, Player, UtilityKind

from ai.context import SearchContext
from ai.control import SearchControl
from ai.engine import search
from ai.events import CurrentMove, Finished, Iteration, Progress, SearchEvent
from ai.scores import terminal_score
from ai.search import expectiminimax, star1, star2
from ai.search.chance_common import ChanceTools, next_decider
from ai.search.star1 import Star1Search
from ai.search.star2 import Star2Search
from ai.settings import Limits, SearchSettings
from ai.tree.model import NodeKind, SearchTree, TreeBatch, TreeOptions
from ai.tree.recorder import TreeRecorder
from tests.ai.stop_clock import STOP_BUDGET, stop_latency_in_thread

CHANCE_FAMILY = ("expectiminimax", "star1", "star2")
MODULES = {"expectiminimax": expectiminimax, "star1": star1, "star2": star2}


# --------------------------------------------------------------------------- a dice game
class DiceTreeState(GameState):
    """A seeded random game tree with dice (see the module docstring). Moves are ints."""

    NAME: ClassVar[str] = "dicetree"
    PLAYER_NAMES: ClassVar[tuple[str, str]] = ("first", "second")
    HAS_CHANCE: ClassVar[bool] = True
    UTILITY_KIND: ClassVar[UtilityKind] = "margin"
    EVAL_SCALE: ClassVar[float] = 4.0
    BOUND: ClassVar[int] = 12
    """Payoffs and EVAL / EVAL_SCALE lie in [-BOUND, BOUND]."""
    DISTRIBUTIONS: ClassVar[tuple[tuple[float, ...], ...]] = (
        (1.0,),
        (0.5, 0.5),
        (0.25, 0.75),
        (0.5, 0.25, 0.25),
        (0.125, 0.375, 0.25, 0.25),
        (0.0625, 0.1875, 0.25, 0.5),
    )

    __slots__ = ("seed", "max_length", "path", "next_player", "history")

    def __init__(self, seed: int, max_length: int = 7) -> None:
        self.seed = seed
        self.max_length = max_length
        self.path: list[int] = []
        self.next_player: Player = 0
        self.history: list[Player] = []

    def _draw(self, salt: str, modulus: int) -> int:
        text = f"{self.seed}/{salt}/{','.join(map(str, self.path))}"
        return zlib.crc32(text.encode()) % modulus

    def _kind(self) -> str:
        if len(self.path) >= self.max_length:
            return "terminal"
        roll = self._draw("kind", 100)
        if len(self.path) >= 2 and roll < 12:
            return "terminal"
        return "chance" if roll < 45 else "decision"

    def to_move(self) -> Player:
        return CHANCE if self._kind() == "chance" else self.next_player

    def legal_moves(self) -> list[Any]:
        kind = self._kind()
        if kind == "terminal":
            return []
        if kind == "chance":
            return [outcome for outcome, _ in self.chance_outcomes()]
        return list(range(1 + self._draw("branching", 3)))

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        distribution = self.DISTRIBUTIONS[self._draw("dice", len(self.DISTRIBUTIONS))]
        return [(face, probability) for face, probability in enumerate(distribution, start=1)]

    def play(self, move: Any) -> None:
        self.history.append(self.next_player)
        if self._kind() == "decision" and self._draw("same player again", 5) != 0:
            self.next_player = 1 - self.next_player
        self.path.append(move)

    def undo(self) -> None:
        self.path.pop()
        self.next_player = self.history.pop()

    def copy(self) -> DiceTreeState:
        clone = DiceTreeState(self.seed, self.max_length)
        clone.path = list(self.path)
        clone.next_player = self.next_player
        clone.history = list(self.history)
        return clone

    def is_terminal(self) -> bool:
        return self._kind() == "terminal"

    def _payoff(self) -> int:
        return self._draw("payoff", 2 * self.BOUND + 1) - self.BOUND

    def utility(self, player: Player) -> float:
        value = float(self._payoff())
        return value if player == 0 else -value

    def utility_bounds(self) -> tuple[float, float]:
        return (-float(self.BOUND), float(self.BOUND))

    def evaluate(self, player: Player) -> float:
        value = (self._draw("eval", 2 * self.BOUND + 1) - self.BOUND) * self.EVAL_SCALE
        return value if player == 0 else -value

    def key(self) -> int:
        return zlib.crc32(f"{self.seed}/{self.path}/{self.next_player}".encode())

    @classmethod
    def initial(cls) -> DiceTreeState:
        return cls(0)

    @classmethod
    def from_text(cls, text: str) -> DiceTreeState:
        seed_text, _, moves = text.partition(":")
        state = cls(int(seed_text))
        for move in filter(None, moves.split(",")):
            state.play(int(move))
        return state

    def to_text(self) -> str:
        return f"{self.seed}:{','.join(map(str, self.path))}"

    def parse_move(self, text: str) -> Any:
        return int(text)

    def move_name(self, move: Any) -> str:
        return str(move)


class WinLossDiceTreeState(DiceTreeState):
    """The same trees scored win/loss/draw (terminals +-1/0, EVAL in small units)."""

    UTILITY_KIND: ClassVar[UtilityKind] = "win_loss"
    EVAL_SCALE: ClassVar[float] = 1.0

    def utility(self, player: Player) -> float:
        value = float((self._payoff() > 0) - (self._payoff() < 0))
        return value if player == 0 else -value

    def utility_bounds(self) -> tuple[float, float]:
        return (-1.0, 1.0)

    def evaluate(self, player: Player) -> float:
        value = float(self._draw("eval", 101) - 50)
        return value if player == 0 else -value

    def copy(self) -> WinLossDiceTreeState:
        clone = WinLossDiceTreeState(self.seed, self.max_length)
        clone.path = list(self.path)
        clone.next_player = self.next_player
        clone.history = list(self.history)
        return clone


def reference_value(state: GameState, depth: int, root_player: Player, ply: int = 0) -> float:
    """AIMA's EXPECTIMINIMAX on pure ``result`` copies: the independent truth.

    Same conventions as the engine: values for ``root_player``; depth counts decision plies
    (a move costs one unless the same player decides next); EVAL at depth 0, at any node.
    """
    if state.is_terminal():
        if state.UTILITY_KIND == "win_loss":
            raw = terminal_score(state, ply)
            mover = state.to_move()
            return raw if (mover if mover != CHANCE else 0) == root_player else -raw
        return state.utility(root_player) * state.EVAL_SCALE
    if depth == 0:
        return state.evaluate(root_player)
    player = state.to_move()
    if player == CHANCE:
        return sum(
            probability * reference_value(state.result(outcome), depth, root_player, ply)
            for outcome, probability in state.chance_outcomes()
        )
    values = []
    for move in state.legal_moves():
        child = state.result(move)
        child_depth = depth if next_decider(child) == player else depth - 1
        values.append(reference_value(child, child_depth, root_player, ply + 1))
    return max(values) if player == root_player else min(values)


def run_algorithm(
    name: str,
    state: GameState,
    limits: Limits,
    settings: SearchSettings | None = None,
    on_event: Any = None,
    should_stop: Any = None,
) -> Finished:
    """Call the algorithm's ``run`` directly with a ``SearchContext`` (no engine needed)."""
    settings = settings or SearchSettings(algorithm=name)
    control = SearchControl(limits, should_stop)
    context = SearchContext(settings=settings, control=control)
    if on_event is not None:
        context.emit = on_event
    return MODULES[name].run(state, context)


def fixed_depth(name: str, state: GameState, depth: int) -> Finished:
    """One iteration at ``depth`` (iterative deepening off), as the node counts compare."""
    return run_algorithm(
        name, state, Limits(depth=depth), SearchSettings(algorithm=name, iterative_deepening=False)
    )


def root_value(finished: Finished) -> float:
    """The root value as the search computed it (the root player's view is the reported view)."""
    return finished.score.value


# ---------------------------------------------------------------- random dice games
DICE_SEEDS = range(40)


@pytest.mark.parametrize("game", [DiceTreeState, WinLossDiceTreeState])
def test_expectiminimax_equals_reference_expectimax_on_dice_trees(game: type[DiceTreeState]) -> None:
    checked = 0
    for seed in DICE_SEEDS:
        state = game(seed)
        if state.is_terminal() or state.to_move() == CHANCE:
            continue
        for depth in (1, 2, 3, 6):
            expected = reference_value(state, depth, state.to_move())
            assert root_value(fixed_depth("expectiminimax", state, depth)) == expected, (seed, depth)
            checked += 1
    assert checked >= 60


@pytest.mark.parametrize("game", [DiceTreeState, WinLossDiceTreeState])
def test_star1_and_star2_return_exactly_the_expectiminimax_value_on_dice_trees(
    game: type[DiceTreeState],
) -> None:
    nodes = dict.fromkeys(CHANCE_FAMILY, 0)
    for seed in DICE_SEEDS:
        state = game(seed)
        if state.is_terminal():
            continue
        for depth in (1, 2, 3, 4, 7):
            answers = {name: fixed_depth(name, state, depth) for name in CHANCE_FAMILY}
            reference = answers["expectiminimax"]
            for name in ("star1", "star2"):
                assert root_value(answers[name]) == root_value(reference), (name, seed, depth)
                if state.to_move() != CHANCE:  # the move played has the best value too
                    values = {stat.move: stat.value for stat in reference.root_moves}
                    best_move = answers[name].best_move
                    assert best_move is not None
                    assert values[best_move] == root_value(reference), (name, seed, depth)
            for name, answer in answers.items():
                nodes[name] += answer.nodes
    if game.UTILITY_KIND == "margin":  # tight bounds: the pruning must show
        assert nodes["star1"] < nodes["expectiminimax"]
        assert nodes["star2"] < nodes["expectiminimax"]


@pytest.mark.parametrize("game", [DiceTreeState, WinLossDiceTreeState])
@pytest.mark.parametrize("name", ["star1", "star2"])
def test_star_values_are_fail_soft_bounds_for_any_window(name: str, game: type[DiceTreeState]) -> None:
    """Inside the window a node's value is exact; at or below alpha it is an upper bound of
    the true value, at or above beta a lower bound (what the parent's pruning relies on).
    With exact arithmetic no window ever needs a second search."""
    searcher_class = {"star1": Star1Search, "star2": Star2Search}[name]
    outcomes = {"exact": 0, "upper": 0, "lower": 0}
    for seed in range(20):
        state = game(seed)
        if state.is_terminal():
            continue
        rng = random.Random(seed)
        context = SearchContext(settings=SearchSettings(algorithm=name), control=SearchControl(Limits()))
        tools = ChanceTools(state, context)
        searcher = searcher_class(tools)
        for depth in (2, 4):
            truth = reference_value(state, depth, tools.root_player)
            offsets = (-40.0, -7.0, -1.0, -0.25, 0.0, 0.25, 1.0, 7.0, 40.0)
            for _ in range(6):
                alpha, beta = sorted(rng.sample(offsets, 2))
                alpha, beta = truth + alpha, truth + beta
                value = searcher.value(state.copy(), depth, alpha, beta, 0)
                if alpha < value < beta:
                    assert value == truth, (seed, depth, alpha, beta)
                    outcomes["exact"] += 1
                elif value <= alpha:
                    assert truth <= value, (seed, depth, alpha, beta)
                    outcomes["upper"] += 1
                else:
                    assert truth >= value, (seed, depth, alpha, beta)
                    outcomes["lower"] += 1
        assert tools.window_researches == 0
    assert min(outcomes.values()) > 10


def test_dice_tree_has_the_structures_the_pruning_must_survive() -> None:
    """Guard for the test game itself: chance after chance, same player twice, unequal dice."""
    chance_after_chance = same_player_twice = unequal = False
    for seed in DICE_SEEDS:
        stack: list[GameState] = [DiceTreeState(seed)]
        while stack:
            state = stack.pop()
            if state.is_terminal():
                continue
            player = state.to_move()
            if player == CHANCE:
                probabilities = {p for _, p in state.chance_outcomes()}
                unequal |= len(probabilities) > 1
                assert sum(p for _, p in state.chance_outcomes()) == 1.0
            for move in state.legal_moves():
                child = state.result(move)
                if not child.is_terminal():
                    chance_after_chance |= player == CHANCE and child.to_move() == CHANCE
                    same_player_twice |= player != CHANCE and child.to_move() == player
                stack.append(child)
    assert chance_after_chance and same_player_twice and unequal


# ------------------------------------------------------------------ tic-tac-toe
TICTACTOE_POSITIONS = ("x........", "....x....", "x...o....", "xo..x....", "xo.ox....", "x.o.x.o..")


@pytest.mark.parametrize("position", TICTACTOE_POSITIONS)
def test_expectiminimax_equals_minimax_on_tictactoe(position: str) -> None:
    state = new_game("tictactoe", position)
    for depth in (1, 2, 3, 9):
        expected = search(
            state, SearchSettings(algorithm="minimax", iterative_deepening=False), Limits(depth=depth)
        )
        for name in CHANCE_FAMILY:
            answer = fixed_depth(name, state, depth)
            assert answer.score == expected.score, (name, depth)
            if name == "expectiminimax":  # no pruning: the same tree, the same first best move
                assert answer.best_move == expected.best_move
                assert answer.pv == expected.pv
                assert answer.nodes == expected.nodes


def test_tictactoe_win_is_reported_as_a_win_in_plies() -> None:
    state = new_game("tictactoe", "xx.oo....")  # x plays c3 and wins at once
    for name in CHANCE_FAMILY:
        answer = run_algorithm(name, state, Limits(depth=4))
        assert state.move_name(answer.best_move) == "c3"
        assert answer.score.win_in_plies == 1


# -------------------------------------------------------------------- backgammon
def backgammon_positions(count: int, seed: int, cube: bool) -> list[GameState]:
    """Random mid-game positions with the dice rolled (a checker-play decision)."""
    from games.backgammon.state import BackgammonState

    rng = random.Random(seed)
    positions: list[GameState] = []
    while len(positions) < count:
        state = BackgammonState.initial(cube_enabled=cube)
        for _ in range(rng.randrange(6, 30)):
            if state.is_terminal():
                break
            if state.to_move() == CHANCE:
                outcomes = state.chance_outcomes()
                state.play(outcomes[rng.randrange(len(outcomes))][0])
            else:
                moves = state.legal_moves()
                state.play(moves[rng.randrange(len(moves))])
        while not state.is_terminal() and state.to_move() == CHANCE:
            outcomes = state.chance_outcomes()
            state.play(outcomes[rng.randrange(len(outcomes))][0])
        if not state.is_terminal() and len(state.legal_moves()) > 1 and "double" not in state.legal_moves():
            positions.append(BackgammonState.from_text(state.to_text()))
    return positions


def assert_same_values(state: GameState, depth: int) -> dict[str, Finished]:
    answers = {name: fixed_depth(name, state, depth) for name in CHANCE_FAMILY}
    reference = answers["expectiminimax"]
    values = {stat.move: stat.value for stat in reference.root_moves}
    for name in ("star1", "star2"):
        assert root_value(answers[name]) == pytest.approx(root_value(reference), rel=1e-12, abs=1e-12), name
        best_move = answers[name].best_move
        if best_move is not None:
            assert values[best_move] == pytest.approx(root_value(reference), rel=1e-12, abs=1e-12)
    return answers


@pytest.mark.parametrize("depth", [1, 2])
def test_star1_and_star2_equal_expectiminimax_on_backgammon(depth: int) -> None:
    """Money game without the cube (tight bounds), dice rolled; 1 ply, and 2 plies with the
    opponent's 21 rolls between. (Probabilities of 1/36 are not dyadic: equal to 1e-12.)"""
    totals = dict.fromkeys(CHANCE_FAMILY, 0)
    for state in backgammon_positions(3 if depth == 2 else 6, seed=depth, cube=False):
        for name, answer in assert_same_values(state, depth).items():
            totals[name] += answer.nodes
    if depth == 2:
        assert totals["star1"] < totals["expectiminimax"]
        assert totals["star2"] < totals["star1"]


GAMMON_POSITIONS = (
    "f7wBAGBbuwVCAA:cAkJAAAAAAAQ",  # X closed out two O checkers: O dances, gammons likely
    pytest.param("bBvwASHg25EFIA:cIkNAAAAAAAQ", marks=pytest.mark.slow),  # X on the bar: partial entries
    "+HYGA0Db3ICFAA:cIkWAAAAAAAQ",  # bearing in against checkers back: gammons possible
)
"""Positions whose 2-ply trees hold gammons and backgammons, dances and partial entries:
the leaves the network reads with its look-ahead (``network.is_trained_position``)."""


@pytest.mark.parametrize("position", GAMMON_POSITIONS)
def test_star1_and_star2_equal_expectiminimax_at_two_plies_where_gammons_count(position: str) -> None:
    """Star1/Star2 prune against the bounds +-3 (a backgammon): the network's leaves must
    stay inside them, including the look-ahead after a dance, or a cut-off is wrong."""
    from games.backgammon.state import BackgammonState

    assert_same_values(BackgammonState.from_text(position), 2)


@pytest.mark.slow
def test_star1_and_star2_equal_expectiminimax_at_two_plies_on_many_positions() -> None:
    """The same check on a dozen random mid-game positions (about a minute)."""
    for state in backgammon_positions(12, seed=29, cube=False):
        assert_same_values(state, 2)


def test_two_plies_keep_the_value_of_a_closed_out_position() -> None:
    """X to play 2-2 with two O checkers closed out: every O roll dances, so the 2-ply
    value is the 1-ply value seen after O's dance. A leaf misread there (the network alone
    gave +1.48 at 1 ply and -0.04 at 2 plies) made the 2-ply search lose to its own 1-ply
    against gnubg."""
    from games.backgammon.state import BackgammonState

    state = BackgammonState.from_text("f7wBAGBbuwVCAA:cAkJAAAAAAAQ")
    one, two = fixed_depth("star2", state, 1), fixed_depth("star2", state, 2)
    assert one.score.value > 1.0
    assert two.score.value == pytest.approx(one.score.value, abs=0.25)


def test_backgammon_with_the_cube_and_at_chance_roots() -> None:
    """Cube decisions are decisions of the same turn (no extra ply); a root before the roll
    is a chance node: searched for its expected value, with no move to choose."""
    from games.backgammon.state import BackgammonState

    cube_state = backgammon_positions(1, seed=7, cube=True)[0]
    assert_same_values(cube_state, 1)

    # The player on roll at a cube decision: 1 ply is the cube action, the roll and the
    # checker play of the same turn, then EVAL; a double hands the turn to the taker: EVAL.
    on_roll = BackgammonState.initial(cube_enabled=True)
    on_roll.play(on_roll.chance_outcomes()[0][0])
    on_roll.play(on_roll.legal_moves()[0])
    player = on_roll.to_move()
    assert on_roll.legal_moves() == ["roll", "double"]
    rolled = on_roll.result("roll")
    expected_roll = 0.0
    for dice, probability in rolled.chance_outcomes():
        after_dice = rolled.result(dice)
        expected_roll += probability * max(
            after_dice.result(play).evaluate(player) for play in after_dice.legal_moves()
        )
    expected_double = on_roll.result("double").evaluate(player)
    answer = fixed_depth("expectiminimax", on_roll, 1)
    values = {stat.move: stat.value for stat in answer.root_moves}
    assert values["roll"] == pytest.approx(expected_roll, rel=1e-12)
    assert values["double"] == pytest.approx(expected_double, rel=1e-12)
    assert answer.score.value == max(values.values())
    assert_same_values(on_roll, 1)

    before_roll = BackgammonState.initial(cube_enabled=False)
    before_roll.play(before_roll.chance_outcomes()[0][0])
    before_roll.play(before_roll.legal_moves()[0])
    assert before_roll.to_move() == CHANCE
    answers = assert_same_values(before_roll, 1)
    reference = answers["expectiminimax"]
    assert reference.best_move is None and reference.error is None
    assert len(reference.root_moves) == 21
    expected = sum(
        p * stat.value for (_, p), stat in zip(before_roll.chance_outcomes(), reference.root_moves)
    )
    assert root_value(reference) == pytest.approx(expected)


# ------------------------------------------------------------- driver behaviour
def collect(name: str, state: GameState, limits: Limits, **kwargs: Any) -> tuple[Finished, list[SearchEvent]]:
    events: list[SearchEvent] = []
    answer = run_algorithm(name, state, limits, on_event=events.append, **kwargs)
    return answer, events


@pytest.mark.parametrize("name", CHANCE_FAMILY)
def test_iterations_and_current_moves_are_reported(name: str) -> None:
    state = new_game("tictactoe", "x...o....")
    answer, events = collect(name, state, Limits(depth=3))
    iterations = [event for event in events if isinstance(event, Iteration)]
    assert [event.depth for event in iterations] == [1, 2, 3]
    for event in iterations:
        assert event.pv and event.pv[0] in state.legal_moves()
        assert event.score.view == 0
    assert iterations[-1].pv == answer.pv and answer.depth == 3 and not answer.stopped
    current = [event for event in events if isinstance(event, CurrentMove)]
    assert {event.move for event in current} == set(state.legal_moves())
    assert all(event.total == 7 for event in current)


@pytest.mark.parametrize("name", CHANCE_FAMILY)
def test_current_moves_name_the_roll_searched_under_the_root_move(name: str) -> None:
    """"Searching" shows the move and the roll: below a decision root every outcome of the
    first chance layer under the root move is reported with that move; at a chance root
    the root's rolls are the moves."""
    from games.backgammon.state import BackgammonState

    state = BackgammonState.from_text(GAMMON_POSITIONS[2])
    _, events = collect(name, state, Limits(depth=2))
    rolls = [event for event in events if isinstance(event, CurrentMove) and event.roll is not None]
    assert rolls and all(event.depth == 2 and event.roll_total == 21 for event in rolls)
    roll_values = [outcome for outcome, _ in state.result(state.legal_moves()[0]).chance_outcomes()]
    for event in rolls:
        assert event.move in state.legal_moves() and 1 <= event.number <= event.total
        assert event.roll == roll_values[event.roll_number - 1]
    if name != "star2":  # Star2's probes can decide a roll layer without the pass
        first = [event.roll_number for event in rolls if event.number == 1]
        assert first == list(range(1, 22))

    before_roll = state.copy()
    before_roll.play(state.legal_moves()[0])
    assert before_roll.to_move() == CHANCE
    _, events = collect(name, before_roll, Limits(depth=1))
    current = [event for event in events if isinstance(event, CurrentMove)]
    assert [event.move for event in current] == [outcome for outcome, _ in before_roll.chance_outcomes()]
    assert all(event.roll is None and event.total == 21 for event in current)


def test_a_typed_depth_is_capped_to_what_finishes_in_the_time_cap() -> None:
    """Backgammon's default depth 4 with expectiminimax is hours of search: the plan caps it
    to a depth expected within the cap and says so; a tic-tac-toe depth stays. (A fixed
    leaf cost keeps the estimate free of this machine's speed.)"""
    from games.backgammon.state import BackgammonState

    from ai.levels import DEPTH_TIME_CAP, expected_seconds, plan_depth

    state = BackgammonState.from_text(GAMMON_POSITIONS[2])
    leaf = 1e-4
    times = [expected_seconds(state, "expectiminimax", depth, leaf) for depth in range(1, 5)]
    assert all(t is not None for t in times)
    assert times == sorted(times) and times[3] > 100 * DEPTH_TIME_CAP  # type: ignore[operator]
    plan = plan_depth(state, "expectiminimax", 4, seconds_per_leaf=leaf)
    assert plan.is_capped and 1 <= plan.depth < 4 and plan.time_cap == DEPTH_TIME_CAP
    assert plan.expected_seconds is not None and plan.expected_seconds <= DEPTH_TIME_CAP
    assert plan.requested_seconds == times[3]
    deeper = expected_seconds(state, "expectiminimax", plan.depth + 1, leaf)
    assert deeper is not None and deeper > DEPTH_TIME_CAP
    pruned = plan_depth(state, "star2", 4, seconds_per_leaf=leaf)
    assert plan.depth <= pruned.depth < 4  # Star2 prunes: no shallower than expectiminimax

    tictactoe = plan_depth(new_game("tictactoe"), "expectiminimax", 4, seconds_per_leaf=leaf)
    assert not tictactoe.is_capped and tictactoe.depth == 4
    assert plan_depth(state, "mcts", 4).expected_seconds is None  # no depth to estimate


def test_progress_is_emitted_on_ticks() -> None:
    ticks = iter(range(10**9))

    def clock() -> float:  # a clock that runs fast: every check is a new tick
        return next(ticks) * 0.25

    events: list[SearchEvent] = []
    control = SearchControl(Limits(depth=5), clock=clock)
    context = SearchContext(
        settings=SearchSettings(algorithm="expectiminimax"), control=control, emit=events.append
    )
    expectiminimax.run(new_game("tictactoe"), context)
    assert any(isinstance(event, Progress) for event in events)


@pytest.mark.parametrize("name", CHANCE_FAMILY)
def test_node_limit_answers_with_the_last_completed_depth(name: str) -> None:
    state = new_game("tictactoe")
    answer, events = collect(name, state, Limits(nodes=3000))
    assert answer.stopped
    completed = [event for event in events if isinstance(event, Iteration)]
    assert completed and answer.depth == completed[-1].depth
    assert answer.best_move == completed[-1].pv[0]
    assert answer.nodes < 3000 + 256


def test_a_move_exists_even_when_depth_one_is_cut_off() -> None:
    state = backgammon_positions(1, seed=3, cube=False)[0]
    answer = run_algorithm("expectiminimax", state, Limits(nodes=1))
    assert answer.stopped
    assert answer.best_move in state.legal_moves()


def test_time_limit_is_honoured() -> None:
    state = backgammon_positions(1, seed=5, cube=False)[0]
    started = time.perf_counter()
    answer = run_algorithm("star2", state, Limits(time=0.4))
    elapsed = time.perf_counter() - started
    assert answer.stopped and answer.best_move is not None and answer.depth >= 1
    assert elapsed < 0.4 + 0.3


@pytest.mark.parametrize("name", CHANCE_FAMILY)
def test_stop_flag_is_honoured_within_100_ms(name: str) -> None:
    state = backgammon_positions(1, seed=11, cube=False)[0]
    first_iteration = threading.Event()

    def on_event(event: SearchEvent) -> None:
        if isinstance(event, Iteration):
            first_iteration.set()

    latency, answer = stop_latency_in_thread(
        lambda should_stop: run_algorithm(name, state, Limits(), on_event=on_event, should_stop=should_stop),
        first_iteration,
    )
    assert answer.stopped and answer.best_move is not None
    assert latency < STOP_BUDGET, f"{latency * 1000:.0f} ms of CPU time after the stop request"


@pytest.mark.parametrize("name", CHANCE_FAMILY)
def test_the_recorder_sees_the_walk_with_root_player_values(name: str) -> None:
    state = DiceTreeState(5)
    while state.to_move() == CHANCE:
        state.play(1)
    tree = SearchTree()
    control = SearchControl(Limits(depth=4))
    settings = SearchSettings(algorithm=name, iterative_deepening=False)
    recorder = TreeRecorder(TreeOptions(), 0, lambda batch: tree.add(batch) if isinstance(batch, TreeBatch) else None, state, control=control)
    answer = MODULES[name].run(state, SearchContext(settings=settings, control=control, recorder=recorder))
    recorder.finish()
    unrecorded = fixed_depth(name, state, 4)
    assert answer.score == unrecorded.score and answer.nodes == unrecorded.nodes  # recording changes nothing
    assert len(tree) == answer.nodes and not any(node.is_open for node in tree.nodes)
    root = tree.roots()[-1]
    assert root.value == answer.score.value  # the root player is the root's side to move
    for node in tree.nodes:  # every value lies on the game's scale
        assert abs(node.value) <= DiceTreeState.BOUND * DiceTreeState.EVAL_SCALE
    assert any(node.kind is NodeKind.CHANCE for node in tree.nodes)
    if name != "expectiminimax":
        assert any(node.was_cut for node in tree.nodes)


@pytest.mark.parametrize("name", CHANCE_FAMILY)
def test_terminal_root_fails_fast_with_a_reason(name: str) -> None:
    state = new_game("tictactoe", "xxxoo....")
    answer = run_algorithm(name, state, Limits(depth=3))
    assert answer.best_move is None and answer.nodes == 0
    assert answer.error is not None and "game is over" in answer.error


def test_the_engine_runs_the_family_by_name() -> None:
    state = DiceTreeState(3)
    while state.to_move() == CHANCE:
        state.play(1)
    for name in CHANCE_FAMILY:
        answer = search(state, SearchSettings(algorithm=name), Limits(depth=3))
        assert answer.best_move is not None
        assert answer.score.value == reference_value(state, 3, state.to_move())
