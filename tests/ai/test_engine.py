"""The engine as a player: perfect tic-tac-toe, chess mates, Othello endgames, limits, stop,
events and bad requests."""

from __future__ import annotations

import functools
import threading
import time

import chess
import pytest

from ai.control import CHECK_INTERVAL
from ai.engine import clear_memory, run_search, search, shared_memory_for
from ai.events import CurrentMove, Finished, Iteration, Progress, SearchEvent
from ai.tree.model import NodeKind, SearchTree, TreeBatch, TreeOptions
from ai.scores import WIN_SCORE
from ai.search.common import TT_KEY
from ai.settings import Limits, SearchRequest, SearchSettings
from games import new_game
from games.base import GameState
from tests.conftest import DATA_DIR
from tests.ai.stop_clock import STOP_BUDGET, stop_latency_in_thread

DETERMINISTIC = ("minimax", "alphabeta", "pvs", "mtdf")


# --------------------------------------------------------------------- tic-tac-toe
@functools.cache
def game_value(text: str) -> int:
    """Independent plain minimax: +1 win, 0 draw, -1 loss for the side to move."""
    state = new_game("tictactoe", text)
    if state.is_terminal():
        return int(state.utility(state.to_move()))
    return max(-game_value(state.result(move).to_text()) for move in state.legal_moves())


def reachable_open_positions() -> list[GameState]:
    seen: dict[str, GameState] = {}
    stack = [new_game("tictactoe")]
    while stack:
        state = stack.pop()
        text = state.to_text()
        if text not in seen:
            seen[text] = state
            stack.extend(state.result(move) for move in state.legal_moves())
    return [new_game("tictactoe", text) for text in sorted(seen) if not seen[text].is_terminal()]


@pytest.mark.parametrize(
    "algorithm", ["alphabeta", "pvs", "mtdf", pytest.param("minimax", marks=pytest.mark.slow)]
)
def test_the_empty_board_is_a_draw(algorithm: str) -> None:
    answer = search(new_game("tictactoe"), SearchSettings(algorithm=algorithm, tt_megabytes=1), Limits(depth=9))
    assert answer.score.value == 0
    assert answer.score.win_in_plies is None
    assert answer.best_move is not None
    assert game_value(new_game("tictactoe").result(answer.best_move).to_text()) == 0


@pytest.mark.parametrize("algorithm", ["alphabeta", "pvs", "mtdf"])
def test_the_engine_never_throws_away_a_game_theoretic_value(algorithm: str) -> None:
    """From every reachable position, with the shipped settings and one table shared by all
    searches (as in a game): the chosen move keeps the position's value, so the engine never
    loses a drawn or won position against any reply."""
    shared: dict[str, object] = {}
    settings = SearchSettings(algorithm=algorithm, tt_megabytes=4)
    for state in reachable_open_positions():
        answer = search(state, settings, Limits(depth=9), shared=shared)
        assert answer.best_move is not None
        child = state.result(answer.best_move)
        assert -game_value(child.to_text()) == game_value(state.to_text()), state.to_text()
        expected = game_value(state.to_text())
        assert (answer.score.value > 0) == (expected > 0) and (answer.score.value < 0) == (expected < 0)


def test_plain_minimax_plays_perfectly_from_later_positions() -> None:
    """Minimax searches the whole tree each time: only positions with 5+ marks (cheap)."""
    settings = SearchSettings(algorithm="minimax", iterative_deepening=False)
    for state in reachable_open_positions():
        if state.to_text().count(".") > 4:
            continue
        answer = search(state, settings, Limits(depth=9))
        child = state.result(answer.best_move)
        assert -game_value(child.to_text()) == game_value(state.to_text()), state.to_text()


def test_a_win_is_reported_with_its_distance() -> None:
    state = new_game("tictactoe", "xx.oo....")  # x to move wins at once on c3
    answer = search(state, SearchSettings(tt_megabytes=1), Limits(depth=9))
    assert state.move_name(answer.best_move) == "c3"
    assert answer.score.win_in_plies == 1
    assert answer.score.value == WIN_SCORE - 1


# ------------------------------------------------------------ a test-only tree game
class TreeGame(GameState):
    """A game given as an explicit tree, for checks that need a hand-made position.

    ``TREE`` maps a path (moves so far, joined) to its moves; a path missing from it is a
    terminal with ``UTILITIES[path]`` for player 0. ``EVALS[path]`` is EVAL for player 0 and
    ``NOISY`` the paths whose moves are all noisy (a mandatory capture, as in checkers).
    """

    NAME = "tree"
    PLAYER_NAMES = ("first", "second")
    TREE: dict[str, list[str]] = {}
    UTILITIES: dict[str, float] = {}
    EVALS: dict[str, float] = {}
    NOISY: set[str] = set()

    def __init__(self) -> None:
        self.path: list[str] = []

    def _node(self) -> str:
        return "".join(self.path)

    def to_move(self) -> int:
        return len(self.path) % 2

    def legal_moves(self) -> list[str]:
        return list(self.TREE.get(self._node(), []))

    def play(self, move: str) -> None:
        self.path.append(move)

    def undo(self) -> None:
        self.path.pop()

    def copy(self) -> TreeGame:
        clone = type(self)()
        clone.path = list(self.path)
        return clone

    def is_terminal(self) -> bool:
        return self._node() not in self.TREE

    def utility(self, player: int) -> float:
        value = self.UTILITIES[self._node()]
        return value if player == 0 else -value

    def evaluate(self, player: int) -> float:
        value = self.EVALS.get(self._node(), 0.0)
        return value if player == 0 else -value

    def noisy_moves(self) -> list[str]:
        return self.legal_moves() if self._node() in self.NOISY else []

    def key(self) -> int:
        return hash(self._node()) & ((1 << 64) - 1)

    @classmethod
    def initial(cls) -> TreeGame:
        return cls()

    @classmethod
    def from_text(cls, text: str) -> TreeGame:
        state = cls()
        state.path = list(text)
        return state

    def to_text(self) -> str:
        return self._node()

    def parse_move(self, text: str) -> str:
        if text not in self.legal_moves():
            raise ValueError(f"{text} is not legal")
        return text

    def move_name(self, move: str) -> str:
        return move


class ForcedCaptureGame(TreeGame):
    """After ``a`` the second player looks lost to EVAL but must capture (``x``) and wins;
    after ``b`` the position is level and quiet."""

    TREE = {"": ["a", "b"], "a": ["x"], "b": ["y"], "by": ["z"]}
    UTILITIES = {"ax": -1.0, "byz": 0.0}
    EVALS = {"a": 5.0, "b": 0.0, "by": 0.0}
    NOISY = {"a"}


def test_quiescence_searches_a_mandatory_capture_instead_of_standing_pat() -> None:
    """With captures mandatory, standing pat on EVAL would be wrong: the capture happens."""
    for algorithm in ("minimax", "alphabeta", "pvs", "mtdf"):
        state = ForcedCaptureGame()
        with_quiescence = search(state, SearchSettings(algorithm=algorithm, quiescence=True, tt_megabytes=1), Limits(depth=1))
        assert state.move_name(with_quiescence.best_move) == "b" and with_quiescence.score.value == 0
        horizon = search(state, SearchSettings(algorithm=algorithm, quiescence=False, tt_megabytes=1), Limits(depth=1))
        assert state.move_name(horizon.best_move) == "a"  # the horizon effect, for the lecture
        assert horizon.stats.qnodes == 0 < with_quiescence.stats.qnodes


def test_quiescence_sees_the_recapture() -> None:
    """Qxd5 wins a pawn at depth 1 -- unless the search looks at ...exd5."""
    state = new_game("chess", "4k3/8/4p3/3p4/8/8/3Q4/4K3 w - - 0 1")
    with_quiescence = search(state, SearchSettings(), Limits(depth=1))
    assert state.move_name(with_quiescence.best_move) != "Qxd5"
    assert with_quiescence.seldepth > 1
    horizon = search(state, SearchSettings(quiescence=False), Limits(depth=1))
    assert state.move_name(horizon.best_move) == "Qxd5"


def test_quiescence_checks_see_a_mate_beyond_the_horizon() -> None:
    """Qxb6?? allows ...Rd1# (a quiet check, so no capture search sees it): at depth 1 only
    quiescence's first-ply checks find the mate and keep the queen home."""
    state = new_game("chess", "3r2k1/5ppp/1p6/8/8/1Q6/5PPP/6K1 w - - 0 1")
    with_checks = search(state, SearchSettings(), Limits(depth=1))
    assert state.move_name(with_checks.best_move) != "Qxb6"
    without = search(state, SearchSettings(quiescence_checks=False), Limits(depth=1))
    assert state.move_name(without.best_move) == "Qxb6"


def test_chess_selectivity_keeps_the_answer_on_a_tactic() -> None:
    """Each chess selectivity switch on or off: the same mate."""
    fen = MATES[1][1]
    switched_off = ("null_move", "late_move_reductions", "check_extensions", "quiescence_checks", "see_pruning", "futility_pruning")
    for switches in ({}, *({name: False} for name in switched_off)):
        answer = search(new_game("chess", fen), SearchSettings(**switches), Limits(depth=3))  # type: ignore[arg-type]
        assert answer.score.mate_in_moves() == 2, switches


def test_see_pruning_never_skips_a_capture_that_gives_check() -> None:
    """After 1.Kh2 (forced out of check: Kh2 or Kg1), ...Rxh3+ gives up the rook for a pawn
    by static exchange (gxh3), one ply from the horizon: SEE pruning skips losing captures
    there, but never one that gives check (WAC sacrifices such as Rxh2+ are checks)."""
    fen = "1k5r/8/8/8/8/7P/5nP1/7K w - - 0 1"
    board = chess.Board(fen)
    board.push_uci("h1h2")
    sacrifice = chess.Move.from_uci("h8h3")
    assert board.is_capture(sacrifice) and board.gives_check(sacrifice) and board.is_attacked_by(chess.WHITE, chess.H3)
    tree = SearchTree()
    settings = SearchSettings(algorithm="alphabeta", transposition_table=False, iterative_deepening=False)
    state = new_game("chess", fen)
    search(  # the check extends the root to 2
        state, settings, Limits(depth=1),
        on_event=lambda event: tree.add(event) if isinstance(event, TreeBatch) else None, tree=TreeOptions(),
    )
    entered = {tuple(str(move) for move in tree.moves_to(node.index)) for node in tree.nodes}
    assert ("h1h2", "h8h3") in entered


# ---------------------------------------------------------------------- chess mates
MATES = [
    # (Win At Chess id, FEN, mate in N moves)
    ("WAC.004", "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1", 2),
    ("WAC.005", "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1", 2),
    ("WAC.012", "4k1r1/2p3r1/1pR1p3/3pP2p/3P2qP/P4N2/1PQ4P/5R1K b - - 0 1", 2),
    ("WAC.027", "7k/pp4np/2p3p1/3pN1q1/3P4/Q7/1r3rPP/2R2RK1 w - - 0 1", 2),
    ("WAC.060", "rn1qr1k1/1p2np2/2p3p1/8/1pPb4/7Q/PB1P1PP1/2KR1B1R w - - 0 1", 2),
    ("WAC.154", "r1b2rk1/2p2ppp/p7/1p6/3P3q/1BP3bP/PP3QP1/RNB1R1K1 w - - 0 1", 2),
    ("WAC.057", "r3q1kr/ppp5/3p2pQ/8/3PP1b1/5R2/PPP3P1/5RK1 w - - 0 1", 3),
    ("WAC.064", "8/6pp/3q1p2/3n1k2/1P6/3NQ2P/5PP1/6K1 w - - 0 1", 3),
    ("WAC.097", "6k1/5p2/p5np/4B3/3P4/1PP1q3/P3r1QP/6RK w - - 0 1", 3),
    ("WAC.197", "7k/1p4p1/7p/3P1n2/4Q3/2P2P2/PP3qRP/7K b - - 0 1", 3),
    ("WAC.219", "7k/p4q1p/1pb5/2p5/4B2Q/2P1B3/P6P/7K b - - 0 1", 3),
]
SLOW_MATES = [
    ("WAC.001", "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", 2),
    ("WAC.099", "r1bq1r1k/1pp1Np1p/p2p2pQ/4R3/n7/8/PPPP1PPP/R1B3K1 w - - 0 1", 2),
    ("WAC.050", "k4r2/1R4pb/1pQp1n1p/3P4/5p1P/3P2P1/r1q1R2K/8 w - - 0 1", 3),
    ("WAC.079", "r3k2r/pbp2pp1/3b1n2/1p6/3P3p/1B2N1Pq/PP1PQP1P/R1B2RK1 b kq - 0 1", 3),
    ("WAC.132", "4r1k1/5bpp/2p5/3pr3/8/1B3pPq/PPR2P2/2R2QK1 b - - 0 1", 3),
    ("WAC.143", "5b2/pp2r1pk/2pp1pRp/4rP1N/2P1P3/1P4QP/P3q1P1/5R1K w - - 0 1", 3),
    ("BK.01", "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1", 3),
]


def forces_mate(board: chess.Board, moves: int) -> bool:
    """python-chess brute force: the side to move mates within ``moves`` moves whatever the
    defence (checks and captures tried first, so proofs are found fast)."""
    candidates = sorted(board.legal_moves, key=lambda move: (not board.gives_check(move), not board.is_capture(move)))
    for move in candidates:
        board.push(move)
        try:
            if board.is_checkmate():
                return True
            if moves > 1 and not board.is_game_over() and every_reply_allows_mate(board, moves - 1):
                return True
        finally:
            board.pop()
    return False


def every_reply_allows_mate(board: chess.Board, moves: int) -> bool:
    """Whatever the side to move plays, the other side then mates within ``moves`` moves."""
    for reply in list(board.legal_moves):
        board.push(reply)
        try:
            if not forces_mate(board, moves):
                return False
        finally:
            board.pop()
    return True


def check_mate_answer(fen: str, moves: int, settings: SearchSettings) -> None:
    board = chess.Board(fen)
    assert forces_mate(board, moves), "the position has no forced mate in N"
    assert not forces_mate(board, moves - 1), "the position has a shorter mate"
    answer = search(new_game("chess", fen), settings, Limits(depth=2 * moves - 1, time=60))
    assert answer.score.mate_in_moves() == moves
    assert answer.score.view == (0 if board.turn == chess.WHITE else 1)
    assert answer.best_move is not None
    board.push(answer.best_move)
    assert every_reply_allows_mate(board, moves - 1)


@pytest.mark.parametrize(("name", "fen", "moves"), MATES, ids=[case[0] for case in MATES])
def test_chess_mates_are_found_with_their_distance(name: str, fen: str, moves: int) -> None:
    check_mate_answer(fen, moves, SearchSettings())


@pytest.mark.slow
@pytest.mark.parametrize(("name", "fen", "moves"), SLOW_MATES, ids=[case[0] for case in SLOW_MATES])
def test_harder_chess_mates(name: str, fen: str, moves: int) -> None:
    check_mate_answer(fen, moves, SearchSettings())


@pytest.mark.parametrize("algorithm", ["alphabeta", "mtdf"])
def test_other_algorithms_find_a_mate_in_two(algorithm: str) -> None:
    check_mate_answer(MATES[0][1], 2, SearchSettings(algorithm=algorithm))


# ---------------------------------------------------------------- Othello endgames
FFO_FILE = DATA_DIR / "othello" / "fforum-1-19.obf"


def ffo_problem(number: int) -> tuple[str, int, set[str]]:
    """(position text, exact score for the side to move, best moves) of FFO #``number``."""
    line = FFO_FILE.read_text().splitlines()[number - 1]
    board, rest = line.split(maxsplit=1)
    side, *scored = [part.strip() for part in rest.split(";") if part.strip()]
    scores = {move.lower(): int(value) for move, value in (item.split(":") for item in scored)}
    best = max(scores.values())
    return f"{board} {side}", best, {move for move, value in scores.items() if value == best}


def check_ffo(number: int, settings: SearchSettings) -> Finished:
    text, score, best_moves = ffo_problem(number)
    state = new_game("othello", text)
    answer = search(state, settings, Limits(time=120))
    assert answer.score.value == score * state.EVAL_SCALE
    assert answer.score.view == state.to_move()
    assert state.move_name(answer.best_move) in best_moves
    assert not answer.stopped
    return answer


@pytest.mark.parametrize("number", [1, 2, 4, 5, 7])
def test_ffo_endgames_are_solved_exactly(number: int) -> None:
    check_ffo(number, SearchSettings())


def test_ffo_endgame_beyond_the_root_solver_is_solved_by_searching() -> None:
    """16 empties with the root solver at 14: the search itself reaches the exact value (its
    horizon nodes are solved) and stops once no leaf was a guess."""
    answer = check_ffo(17, SearchSettings(solver_empties=14))
    assert answer.depth >= 2


@pytest.mark.slow
@pytest.mark.parametrize("number", range(1, 20))
def test_all_ffo_1_to_19(number: int) -> None:
    check_ffo(number, SearchSettings(solver_empties=16))
    check_ffo(number, SearchSettings(algorithm="mtdf"))


# ------------------------------------------------------------------ limits and stop
def test_a_one_second_search_returns_within_1_2_seconds() -> None:
    started = time.perf_counter()
    answer = run_search(SearchRequest(game="chess", settings=SearchSettings(book=False), limits=Limits(time=1)))
    elapsed = time.perf_counter() - started
    assert elapsed < 1.2
    assert answer.best_move is not None and answer.depth >= 1
    assert answer.stopped


@pytest.mark.parametrize("game", ["chess", "othello", "checkers"])
def test_a_stop_request_ends_the_search_within_100_ms(game: str) -> None:
    searching = threading.Event()

    def on_event(event: SearchEvent) -> None:
        if isinstance(event, Progress):
            searching.set()

    latency, answer = stop_latency_in_thread(
        lambda should_stop: run_search(
            SearchRequest(game=game, settings=SearchSettings(book=False)), on_event=on_event, should_stop=should_stop
        ),
        searching,
    )
    assert latency < STOP_BUDGET, f"{latency * 1000:.0f} ms of CPU time after the stop request"
    assert isinstance(answer, Finished) and answer.best_move is not None and answer.stopped


def test_node_limit_is_honoured() -> None:
    answer = search(new_game("tictactoe"), SearchSettings(tt_megabytes=1), Limits(nodes=1000))
    assert 1000 <= answer.nodes <= 1000 + CHECK_INTERVAL
    assert answer.stopped and answer.best_move is not None


def test_depth_limit_is_honoured() -> None:
    events: list[SearchEvent] = []
    answer = search(new_game("tictactoe"), SearchSettings(tt_megabytes=1), Limits(depth=3), on_event=events.append)
    depths = [event.depth for event in events if isinstance(event, Iteration) and str(event.bound) == "exact"]
    assert depths == [1, 2, 3]
    assert answer.depth == 3 and not answer.stopped


def test_progress_arrives_at_least_four_times_a_second() -> None:
    times: list[float] = []
    started = time.thread_time()  # CPU time of this thread, where the search runs: a busy
    # machine stretches wall-clock gaps, not the work between two ticks

    def on_event(event: SearchEvent) -> None:
        if isinstance(event, Progress):
            times.append(time.thread_time())

    search(new_game("chess"), SearchSettings(book=False), Limits(time=1.5), on_event=on_event)
    gaps = [later - earlier for earlier, later in zip([started, *times], times)]
    assert len(times) >= 4
    assert max(gaps) < 0.3


@pytest.mark.parametrize("algorithm", DETERMINISTIC)
def test_a_move_exists_even_when_stopped_at_once(algorithm: str) -> None:
    state = new_game("tictactoe", "x...o....")
    for deepening in (True, False):
        answer = search(state, SearchSettings(algorithm=algorithm, iterative_deepening=deepening, tt_megabytes=1), Limits(nodes=1))
        assert answer.best_move is not None
        assert answer.best_move in state.legal_moves()


def test_fixed_depth_without_iterative_deepening() -> None:
    events: list[SearchEvent] = []
    settings = SearchSettings(iterative_deepening=False, tt_megabytes=1)
    answer = search(new_game("tictactoe"), settings, Limits(depth=4), on_event=events.append)
    assert [event.depth for event in events if isinstance(event, Iteration)] == [4]
    assert answer.depth == 4


@pytest.mark.parametrize("algorithm", DETERMINISTIC)
def test_deterministic_algorithms_refuse_backgammon_clearly(algorithm: str) -> None:
    request = SearchRequest(game="backgammon", settings=SearchSettings(algorithm=algorithm))
    with pytest.raises(ValueError, match="expectiminimax.*mcts"):
        run_search(request)


# --------------------------------------------------------------------------- events
def test_iteration_events_carry_every_field() -> None:
    events: list[SearchEvent] = []
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
    answer = search(new_game("chess", fen), SearchSettings(), Limits(depth=4), on_event=events.append, search_id=7)
    iterations = [event for event in events if isinstance(event, Iteration) and str(event.bound) == "exact"]
    assert [event.depth for event in iterations] == [1, 2, 3, 4]
    for event in iterations:
        assert event.search_id == 7
        assert event.seldepth >= event.depth
        assert event.nodes > 0 and event.nps > 0 and event.time > 0
        assert 0 <= event.hashfull <= 1 and 0 <= event.tt_hit_rate <= 1
        assert 0 <= event.first_move_cutoff_rate <= 1
        assert event.ebf > 0
        board = chess.Board(fen)
        for move in event.pv:  # the PV is a legal line
            assert board.is_legal(move)
            board.push(move)
    last = iterations[-1]
    assert last.hashfull > 0 and last.tt_hit_rate > 0
    assert last.cutoffs > 0 and last.first_move_cutoff_rate > 0.5
    assert answer.pv[0] == answer.best_move and answer.pv == iterations[-1].pv
    current = [event for event in events if isinstance(event, CurrentMove)]
    root_moves = chess.Board(fen).legal_moves.count()
    assert current and all(event.total == root_moves and 1 <= event.number <= root_moves for event in current)
    assert {event.depth for event in current} == {1, 2, 3, 4}
    assert answer.stats.nodes == answer.nodes and answer.stats.qnodes > 0


def test_scores_are_seen_from_the_side_to_move() -> None:
    state = new_game("tictactoe", "xx.oo.x..")  # o to move wins at once on c2
    answer = search(state, SearchSettings(tt_megabytes=1), Limits(depth=9))
    assert state.move_name(answer.best_move) == "c2"
    assert answer.score.view == 1 and answer.score.win_in_plies == 1
    assert answer.score.for_player(0).win_in_plies == -1


def test_the_recorded_tree_holds_every_node_and_the_answer() -> None:
    tree = SearchTree()
    settings = SearchSettings(algorithm="alphabeta", transposition_table=False, iterative_deepening=False)
    answer = search(
        new_game("tictactoe", "xo.xo...."), settings, Limits(depth=2),
        on_event=lambda event: tree.add(event) if isinstance(event, TreeBatch) else None, tree=TreeOptions(),
    )
    assert tree.complete and len(tree.passes) == 1 and len(tree) == answer.nodes > 1
    assert not any(node.is_open for node in tree.nodes)
    assert any(node.was_cut for node in tree.nodes)
    assert tree.roots()[0].kind is NodeKind.MAX and tree.roots()[0].value == answer.score.value


# ----------------------------------------------------------------- the entry point
def test_run_search_plays_the_request_moves_and_reuses_the_table() -> None:
    clear_memory("tictactoe")
    request = SearchRequest(game="tictactoe", moves=("b2", "a1"), limits=Limits(depth=9))
    answer = run_search(request)
    assert answer.best_move is not None and answer.score.value == 0
    table = shared_memory_for("tictactoe")[TT_KEY]
    again = run_search(request)
    assert shared_memory_for("tictactoe")[TT_KEY] is table
    assert again.nodes < answer.nodes
    clear_memory()
    assert TT_KEY not in shared_memory_for("tictactoe")


def test_a_table_filled_under_other_settings_is_not_trusted() -> None:
    shared: dict[str, object] = {}
    state = new_game("tictactoe", "x...o....")
    search(state, SearchSettings(quiescence=False, tt_megabytes=1), Limits(depth=3), shared=shared)
    table = shared[TT_KEY]
    assert len(table) > 0  # type: ignore[arg-type]
    search(state, SearchSettings(quiescence=True, tt_megabytes=1), Limits(depth=1), shared=shared)
    assert shared[TT_KEY] is table
    assert all(entry is None or entry[5] == table.generation for entry in table.slots)  # type: ignore[attr-defined]


def test_a_finished_game_has_no_best_move() -> None:
    answer = run_search(SearchRequest(game="tictactoe", position="xxxoo....", limits=Limits(depth=3)))
    assert answer.best_move is None and answer.pv == ()
    assert answer.score.value == -WIN_SCORE  # o to move has lost


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (SearchRequest(game="tictactoe", position="xxxx....."), "x has 4 marks"),
        (SearchRequest(game="tictactoe", moves=("b2", "b2")), "move 2"),
        (SearchRequest(game="tictactoe", moves=("z9",)), "not a square"),
        (SearchRequest(game="tictactoe", settings=SearchSettings(algorithm="negascout")), "unknown algorithm"),
        (SearchRequest(game="go"), "unknown game"),
        (SearchRequest(game="tictactoe", limits=Limits(depth=0)), "depth"),
    ],
)
def test_bad_requests_raise_clear_value_errors(request_: SearchRequest, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run_search(request_)



@pytest.mark.parametrize("algorithm", ["alphabeta", "pvs"])
@pytest.mark.parametrize(
    "fen",
    [
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "6k1/5ppp/8/8/3q4/8/5PPP/3R2K1 w - - 0 1",
    ],
)
def test_each_iteration_searches_the_previous_best_move_first(algorithm: str, fen: str) -> None:
    """Also after an aspiration fail-low: a failed root must not forget the best move."""
    events: list[SearchEvent] = []
    search(new_game("chess", fen), SearchSettings(algorithm=algorithm), Limits(depth=6), on_event=events.append)
    best_of_depth: dict[int, object] = {}
    first_of_depth: dict[int, list[object]] = {}
    failed_high: set[int] = set()
    for event in events:
        if isinstance(event, Iteration) and str(event.bound) == "exact" and event.pv:
            best_of_depth[event.depth] = event.pv[0]
        elif isinstance(event, Iteration) and str(event.bound) == "lower":
            failed_high.add(event.depth)  # a new best move failed high: it may go first now
        elif isinstance(event, CurrentMove) and event.number == 1:
            first_of_depth.setdefault(event.depth, []).append(event.move)
    checked = 0
    for depth, firsts in first_of_depth.items():
        if depth - 1 in best_of_depth:
            # the first search of this depth, and every re-search after a fail-low, starts
            # with the last depth's best move
            expected = firsts[:1] if depth in failed_high else firsts
            assert all(move == best_of_depth[depth - 1] for move in expected), (depth, firsts)
            checked += 1
    assert checked >= 3


def test_quiescence_learns_captures_are_optional_only_from_a_real_choice() -> None:
    """At the ply cap quiescence stands pat even when every move is a capture; that must not
    teach it that captures are optional (checkers captures are mandatory), or every later
    forced capture would be skipped for a stand-pat."""
    from ai.context import SearchContext
    from ai.control import SearchControl
    from ai.search.common import MAX_SEARCH_PLY, SearchTools
    from ai.scores import INFINITY
    from ai.search.quiescence import build_quiescence

    # white must capture, and the capture costs more than standing pat would show
    state = new_game("checkers", "W:W18,24,27,28,29,30,31,32:B2,3,4,5,8,10,12,14")
    assert all(move.captured for move in state.legal_moves())
    tools = SearchTools(state, SearchContext(settings=SearchSettings(), control=SearchControl(Limits())))
    quiescence = build_quiescence(tools)
    capped = quiescence(state, -INFINITY, INFINITY, MAX_SEARCH_PLY)
    assert capped == state.evaluate(state.to_move())  # the cap forces a stand-pat
    resolved = quiescence(state, -INFINITY, INFINITY, 1)
    state.play(state.legal_moves()[0])
    after_capture = -build_quiescence(tools)(state, -INFINITY, INFINITY, 2)
    state.undo()
    assert resolved == after_capture != capped
