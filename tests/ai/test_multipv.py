"""Several best lines (MultiPV): the root searched again without the better lines' moves.

The truth each line is checked against is independent of MultiPV: a search of that move
alone (``searchmoves``) to the same depth in the exact preset, where every algorithm returns
minimax's value. Line 1 must be what the search returns with one line; the lines come in
score order, each starting with another move.
"""

from __future__ import annotations

import dataclasses
import io
import time

import pytest

import ai.control

from ai.engine import search
from ai.events import CurrentMove, Iteration, PvLine, SearchEvent
from ai.options import exact
from ai.settings import Limits, SearchSettings
from ai.uci import UciEngine
from games import new_game

CASES = [
    # game, position (None: the start), depth
    ("tictactoe", "x........", 4),
    ("checkers", None, 5),
    ("chess", "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3", 3),
    ("othello", None, 4),
]
ALGORITHMS = ("minimax", "alphabeta", "pvs", "mtdf")
LINES = 3


def exact_settings(algorithm: str, multipv: int = 1) -> SearchSettings:
    return exact(SearchSettings(algorithm=algorithm, multipv=multipv, book=False))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize(("game", "position", "depth"), CASES, ids=[case[0] for case in CASES])
def test_each_line_is_its_move_searched_alone(game: str, position: str | None, depth: int, algorithm: str) -> None:
    state = new_game(game, position)
    where = f"{game} {state.to_text()} {algorithm} depth {depth}"
    if algorithm == "minimax":
        depth = min(depth, 3)  # the full tree: keep it small
    events: list[SearchEvent] = []
    answer = search(state, exact_settings(algorithm, LINES), Limits(depth=depth), on_event=events.append)
    single = search(state, exact_settings(algorithm), Limits(depth=depth))

    lines = answer.lines
    assert len(lines) == min(LINES, len(state.legal_moves())), where
    assert [line.rank for line in lines] == list(range(1, len(lines) + 1))
    # Line 1 is the one-line search's answer: same move, value and line.
    assert (lines[0].move, lines[0].score, lines[0].pv) == (single.best_move, single.score, single.pv), where
    assert (answer.best_move, answer.score) == (single.best_move, single.score), where
    # Each line starts with another move, in score order, at the answer's depth.
    assert len({line.move for line in lines}) == len(lines), where
    values = [line.score.value for line in lines]
    assert values == sorted(values, reverse=True), (where, values)
    for line in lines:
        assert line.pv[0] == line.move and line.depth == answer.depth, (where, line)
        alone = search(state, exact_settings(algorithm), Limits(depth=answer.depth), root_moves=[line.move])
        assert alone.score == line.score, (where, state.move_name(line.move), alone.score, line.score)
    # Every complete iteration carries its lines; the last one's are the answer's.
    complete = [event for event in events if isinstance(event, Iteration) and event.lines]
    assert complete and complete[-1].lines == lines, where
    for event in complete:
        assert event.lines[0].score == event.score and event.lines[0].pv == event.pv, where


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_one_line_is_todays_search_with_its_line(algorithm: str) -> None:
    """With one line nothing more is searched: the same nodes as a search that never heard
    of MultiPV, and line 1 is the answer itself."""
    state = new_game("checkers")
    settings = SearchSettings(algorithm=algorithm, book=False)
    events: list[SearchEvent] = []
    answer = search(state, settings, Limits(depth=4), on_event=events.append)
    quiet = search(state, settings, Limits(depth=4))
    assert answer.nodes == quiet.nodes
    assert answer.lines == (PvLine(1, answer.best_move, answer.score, answer.pv, answer.depth),)
    more = search(state, SearchSettings(algorithm=algorithm, book=False, multipv=2), Limits(depth=4))
    assert more.nodes > answer.nodes  # the second line costs a search


def test_a_root_with_fewer_moves_than_lines_gives_them_all() -> None:
    state = new_game("tictactoe", "xoxoxo...")  # three empty squares
    answer = search(state, exact_settings("alphabeta", 5), Limits(depth=3))
    assert sorted(line.move for line in answer.lines) == sorted(state.legal_moves())


def test_searchmoves_and_lines_together_rank_only_the_moves_given() -> None:
    state = new_game("checkers")
    given = state.legal_moves()[:4]
    answer = search(state, exact_settings("pvs", 3), Limits(depth=4), root_moves=given)
    assert len(answer.lines) == 3 and all(line.move in given for line in answer.lines)


def test_a_stop_during_the_later_lines_keeps_the_best_line_of_that_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stop comes while line 2 of depth 3 is searched (its root moves are one fewer):
    the answer is depth 3's line 1, line 2 and 3 keep depth 2's."""
    monkeypatch.setattr(ai.control, "CHECK_INTERVAL", 1)  # every node looks at the stop flag
    state = new_game("chess", CASES[2][1])
    moves = len(state.legal_moves())
    iterations: list[Iteration] = []
    stop = False

    def keep(event: SearchEvent) -> None:
        nonlocal stop
        if isinstance(event, Iteration) and event.lines:
            iterations.append(event)
        if isinstance(event, CurrentMove) and event.depth == 3 and event.total == moves - 1 and event.number > 1:
            stop = True

    answer = search(state, SearchSettings(multipv=3, book=False), Limits(), on_event=keep, should_stop=lambda: stop)
    assert answer.stopped and answer.depth == 3
    last = iterations[-1]
    assert last.depth == 3 and answer.lines == last.lines
    assert [line.depth for line in last.lines][0] == 3
    assert all(line.depth == 2 for line in last.lines[1:]), last.lines
    assert (answer.best_move, answer.score) == (last.pv[0], last.score)
    assert answer.lines[0].move not in {line.move for line in answer.lines[1:]}


def uci_output(commands: list[str]) -> list[str]:
    output = io.StringIO()
    engine = UciEngine(output)
    try:
        for command in commands:
            engine.handle(command)
        deadline = time.monotonic() + 60
        while "bestmove" not in output.getvalue() and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        engine.close()
    return output.getvalue().splitlines()


def test_uci_multipv_prints_a_ranked_info_line_per_line() -> None:
    lines = uci_output(
        [
            "uci",
            "setoption name Algorithm value alphabeta",
            "setoption name OwnBook value false",
            "setoption name MultiPV value 3",
            "position startpos moves e2e4",
            "go depth 3",
        ]
    )
    assert "option name MultiPV type spin default 1 min 1 max 5" in lines
    ranked = [line.split() for line in lines if " multipv " in line and " pv " in line]
    depth_three = [words for words in ranked if words[2] == "3"]
    assert [words[words.index("multipv") + 1] for words in depth_three[:3]] == ["1", "2", "3"]
    firsts = [words[words.index("pv") + 1] for words in depth_three[:3]]
    assert len(set(firsts)) == 3
    assert lines[-1].split()[1] == firsts[0]  # bestmove is line 1's move


def test_uci_with_one_line_prints_no_multipv_word() -> None:
    lines = uci_output(["uci", "setoption name Algorithm value alphabeta", "setoption name OwnBook value false",
                        "position startpos", "go depth 2"])
    assert not any(" multipv " in line for line in lines if line.startswith("info depth"))


def test_a_root_split_ranks_the_lines_of_all_its_parts() -> None:
    """Minimax on two workers splits the root's moves between them: the lines shown are the
    best of both parts' lines, as one worker finds them."""
    from ai.parallel import EnginePool
    from ai.settings import SearchRequest

    state = new_game("checkers")
    settings = dataclasses.replace(exact_settings("minimax", LINES), threads=2)
    request = SearchRequest(game="checkers", settings=settings, limits=Limits(depth=3))
    iterations: list[Iteration] = []
    with EnginePool(workers=2, hash_megabytes=8) as pool:
        answer = pool.answer(request, lambda event: iterations.append(event) if isinstance(event, Iteration) else None)
    single = search(state, exact_settings("minimax", LINES), Limits(depth=3))
    assert [(line.rank, line.move, line.score) for line in answer.lines] == [
        (line.rank, line.move, line.score) for line in single.lines
    ]
    assert iterations[-1].lines == answer.lines


def test_the_reporter_carries_each_lines_visits() -> None:
    """MCTS ranks its lines by visits: ``line_visits`` reaches ``PvLine.visits``, line by line."""
    from ai.control import SearchControl
    from ai.context import SearchContext
    from ai.reporting import Reporter

    state = new_game("tictactoe")
    context = SearchContext(settings=SearchSettings(), control=SearchControl(Limits()))
    counters = type("Counters", (), {"seldepth": 0, "qnodes": 0, "tt_probes": 0, "tt_hits": 0, "cutoffs": 0,
                                     "first_move_cutoffs": 0, "reported_depth": 0, "hashfull": lambda self: 0.0})()
    reporter = Reporter(context, type(state), 0, counters, counters)
    moves = state.legal_moves()
    lines = reporter.pv_lines([(0, 10.0, [moves[0]]), (0, 5.0, []), (0, 1.0, [moves[1], moves[2]])], [70, 20, 10])
    assert [(line.rank, line.move, line.visits) for line in lines] == [(1, moves[0], 70), (2, moves[1], 10)]
    assert reporter.pv_lines([(3, 1.0, [moves[0]])])[0].visits == 0


def test_a_short_timed_search_still_gives_every_line_of_the_first_depth() -> None:
    """Depth 1 is searched whatever the clock says (a timed search never answers with an
    unsearched move): with several lines, all of depth 1's."""
    state = new_game("chess", CASES[2][1])
    answer = search(state, SearchSettings(multipv=3, book=False), Limits(time=0.001))
    assert answer.stopped and len(answer.lines) == 3
    assert all(line.depth >= 1 for line in answer.lines)


def test_uci_says_when_the_algorithm_reports_one_line() -> None:
    from ai.uci import UCI_ALGORITHMS

    if "native" not in UCI_ALGORITHMS:
        pytest.skip("the compiled chess search is not built")
    lines = uci_output(["uci", "setoption name Algorithm value native", "setoption name MultiPV value 2",
                        "setoption name OwnBook value false", "position startpos", "go depth 2"])
    assert "info string MultiPV: native reports one line (the Python algorithms give several)" in lines
