"""How one search is shared among the pool's workers: one strategy per kind of algorithm.

Each ``AlgorithmSpec`` declares its ``Parallelism``; the strategy of that kind says how a
search is cut into parts (``parts``: one request and ``Role`` per worker) and how the parts'
events and answers become the caller's (``relay``, ``merge``). The pool
(``ai.parallel.pool``) runs the parts on its processes and hands every event of a part to
``SearchRun.receive``; nothing here knows about processes, so each strategy is tested with
plain events.

* **Lazy SMP** (alpha-beta, PVS, MTD(f)). Every worker searches the same root; helper ``k``
  starts at another depth and orders moves a little differently, and they all share one
  transposition table in shared memory (``SharedTable``), so the main search (part 0) finds
  more of its tree already done. The main search's answer is the result; the helpers are
  stopped when it answers. A helper sends nothing but its node count (and its answer), so
  that the dispatcher wakes only for what the caller sees. Should the main search's worker
  die, a helper's answer ends the search.
* **Root parallel** (MCTS). Independent trees with different seeds (``seed + k``); the root
  moves' visits and values are summed for the decision and for the display.
* **Root split** (minimax, expectiminimax, Star1, Star2). The root moves are dealt out among
  the workers (``SearchRequest.root_moves``) and the best value wins. An iteration of depth
  d is shown once every part has completed depth d. A chance root (dice to roll) has no move
  to choose and runs on one worker.
* **Single worker** (``native``, a game's compiled search). One worker process, which runs
  the search's own Lazy SMP in as many threads as the search's share of the pool
  (``threads``); its table lives in that process, shared by its threads.

A search that gets one part (one worker, a book or forced answer, a root with one move to
split) is merged as a single worker's, whatever its kind.

A search that records its tree (``SearchRequest.tree``) records it where the caller is shown
the search: in the main part for Lazy SMP and root-parallel MCTS (the helpers' and the other
trees' requests record nothing, and the answer's ``helper_nodes`` say how much they
searched), in every part of a root split (each part's share of the root moves: the batches
carry the part as ``TreeBatch.worker`` and ``ai.tree.SearchTree`` joins them into one tree).
The parts' own last batches are not the end: the run closes the tree itself, once every part
has answered (``closing_batches``), so that the counts in the last batch are the answer's.

A node limit is the search's in total where the parts are independent searches: MCTS's
trees and a root split's parts each get an equal share (``node_share``), so ``--nodes N
--threads T`` searches about N nodes, as one worker would. Lazy SMP is the exception: its
answer is the main search's own tree, which the helpers only feed through the table, so the
main search keeps the whole limit (a share of it would answer as a search of N/T nodes,
weaker than one worker); the helpers stop when it answers, so the nodes reported are up to
T times N.
"""

from __future__ import annotations

import dataclasses
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from games.base import CHANCE, GameState

from ai import engine
from ai.events import CurrentMove, Finished, Iteration, Progress, PvLine, RootMoveStat, SearchEvent, SearchStats
from ai.parallel.worker import Role, failed
from ai.search import Parallelism
from ai.settings import Limits, SearchRequest
from ai.tree.mcts import MctsSnapshot
from ai.tree.model import TreeBatch
from ai.tt import Bound

PoolEvent = SearchEvent | TreeBatch | MctsSnapshot
"""What the pool delivers to a caller: the search's events and, when it records its tree,
the tree's batches (MCTS: snapshots of its tree)."""
NO_EVENTS: Final[tuple[PoolEvent, ...]] = ()


@dataclass
class Part:
    """What one worker does for one search, and what it has sent so far."""

    number: int
    request: SearchRequest
    role: Role
    worker: int | None = None
    """The index of the worker running it (the pool's bookkeeping)."""
    finished: Finished | None = None
    abandoned: bool = False
    attempts: int = 0
    nodes: int = 0
    """Nodes this part has searched, over all its attempts."""
    earlier_nodes: int = 0
    """Nodes of attempts lost with a worker that died."""
    root_moves: tuple[RootMoveStat, ...] = ()
    """Root parallel: this tree's latest root statistics."""
    iterations: dict[int, Iteration] = field(default_factory=dict)
    """Root split: this attempt's completed iterations by depth."""

    @property
    def is_done(self) -> bool:
        return self.finished is not None or self.abandoned

    @property
    def records_tree(self) -> bool:
        return self.request.tree is not None

    def tree_worker(self, parts: int) -> int:
        """The ``TreeBatch.worker`` of this attempt's batches: the part's number, made
        unique per attempt (an attempt after a worker died numbers its nodes from 0 again)."""
        return self.number + max(0, self.attempts - 1) * parts

    def start_attempt(self, worker: int) -> None:
        """``worker`` takes this part (again, after a worker died: from scratch)."""
        self.worker = worker
        self.attempts += 1
        self.iterations.clear()

    def lose_attempt(self) -> None:
        """Its worker died and another searches it again: the nodes searched still count."""
        self.earlier_nodes = self.nodes


@dataclass
class SearchRun:
    """One search shared among workers: its parts, how they merge, and what was shown."""

    search_id: int
    started: float
    """``time.perf_counter()`` at submission."""
    strategy: Strategy
    """The strategy that merges the parts (a single worker's when there is one part)."""
    parts: list[Part]
    shares_table: bool = False
    """The algorithm searches over the pool's shared table (the alpha-beta family)."""
    main: int = 0
    """The part whose answer and events are the search's (Lazy SMP, root parallel)."""
    reported_depth: int = 0
    """Root split: the deepest combined Iteration shown."""
    deaths: list[str] = field(default_factory=list)
    last_iteration: Iteration | None = None
    """The last completed iteration shown to the caller (exact, with a line): the answer
    when the worker that would have answered dies (``answer_from_last_iteration``)."""
    last_snapshot: MctsSnapshot | None = None
    """Root parallel: the recording tree's latest snapshot, sent once more with the root of
    every tree merged when all have answered (``closing_snapshot``)."""

    @property
    def nodes(self) -> int:
        return sum(part.nodes for part in self.parts)

    @property
    def records_tree(self) -> bool:
        return any(part.records_tree for part in self.parts)

    def receive(self, part: Part, event: PoolEvent) -> tuple[PoolEvent, ...]:
        """``part`` sent ``event``: the events the caller is shown for it (often none)."""
        nodes = getattr(event, "nodes", None)
        if nodes is not None:
            part.nodes = part.earlier_nodes + nodes
        if isinstance(event, TreeBatch):
            return (self.tree_for_caller(part, event),) if part.records_tree else NO_EVENTS
        if isinstance(event, MctsSnapshot):
            return (self.snapshot_for_caller(event),) if part.records_tree else NO_EVENTS
        return self.strategy.relay(self, part, event)

    def snapshot_for_caller(self, snapshot: MctsSnapshot) -> MctsSnapshot:
        """The recording MCTS tree's snapshot for the caller: the search id and, with
        several trees (root parallel), their number and the root moves' statistics summed
        over all of them (the snapshot itself is the recording tree's)."""
        if len(self.parts) == 1:
            return dataclasses.replace(snapshot, search_id=self.search_id)
        self.last_snapshot = dataclasses.replace(
            snapshot,
            search_id=self.search_id,
            workers=len(self.parts),
            merged_root=merged_root_moves(self.parts),
            complete=False,
        )
        return self.last_snapshot

    def closing_snapshot(self) -> tuple[MctsSnapshot, ...]:
        """Root parallel, once every tree has answered: the recording tree's last snapshot
        with the root merged from the trees' answers (as ``RootParallel.merge`` merges the
        answer's), marked ``complete``; nothing for a search with one tree (its own last
        snapshot was complete)."""
        if self.last_snapshot is None:
            return ()
        return (dataclasses.replace(self.last_snapshot, merged_root=merged_root_moves(self.parts), complete=True),)

    def helper_nodes(self) -> int:
        """Nodes searched by the parts that record no tree (Lazy SMP helpers, MCTS's other
        trees)."""
        return sum(part.nodes for part in self.parts if not part.records_tree)

    def tree_for_caller(self, part: Part, batch: TreeBatch) -> TreeBatch:
        """``part``'s tree batch for the caller: the search id, the part as its worker, the
        helpers' nodes so far, and not yet ``complete`` (``closing_batches`` ends it)."""
        return dataclasses.replace(
            batch,
            search_id=self.search_id,
            worker=part.tree_worker(len(self.parts)),
            helper_nodes=self.helper_nodes(),
            complete=False,
        )

    def closing_batches(self) -> tuple[TreeBatch, ...]:
        """The last tree batches of a search whose parts have all answered: one per
        recording part that ran, with its final node count (``answered`` set it to its
        ``Finished.nodes``) and the helpers' final count, the last one ``complete``. Sent
        before the ``Finished``, they make the tree's counts the answer's:
        ``size`` of every pass root plus ``helper_nodes`` is ``Finished.nodes``."""
        if not self.records_tree:
            return ()
        recording = [part for part in self.parts if part.records_tree and part.attempts > 0]
        helpers = self.helper_nodes()
        batches = [
            TreeBatch(
                self.search_id,
                nodes=part.nodes - part.earlier_nodes,
                helper_nodes=helpers,
                worker=part.tree_worker(len(self.parts)),
            )
            for part in recording
        ] or [TreeBatch(self.search_id, helper_nodes=helpers)]
        batches[-1] = dataclasses.replace(batches[-1], complete=True)
        return tuple(batches)

    def shown(self, event: PoolEvent) -> None:
        """``event`` went to the caller: remember the last completed iteration."""
        if type(event) is Iteration and event.bound is Bound.EXACT and event.pv:
            self.last_iteration = event

    def answered(self, part: Part, finished: Finished) -> bool:
        """``part`` answered; True when the other parts should stop now."""
        part.finished = finished
        part.nodes = part.earlier_nodes + finished.nodes
        return self.strategy.stops_the_others(self, part)

    def abandon(self, part: Part) -> None:
        """``part`` is lost for good; if it was the main one, a running part answers."""
        part.abandoned = True
        if part.number == self.main:
            running = [other for other in self.parts if not other.is_done]
            if running:
                self.main = running[0].number  # a helper's answer is as good

    def first_running(self) -> Part | None:
        return next((part for part in self.parts if not part.is_done), None)

    def for_caller(self, event: SearchEvent) -> SearchEvent:
        """``event`` for the caller: its search id, and nodes summed over the workers. An
        event that has both already (a worker's request carries the search id; one worker's
        nodes are the sum) is passed on as it is: a ``replace`` costs the dispatcher more
        than reading the message did."""
        if isinstance(event, CurrentMove):
            if event.search_id == self.search_id:
                return event
            return dataclasses.replace(event, search_id=self.search_id)
        nodes = self.nodes
        if nodes == event.nodes and event.search_id == self.search_id:
            return event
        elapsed = event.time
        return dataclasses.replace(event, search_id=self.search_id, nodes=nodes, nps=nodes / elapsed if elapsed > 0 else 0.0)

    def answer(self, stopped: bool) -> Finished:
        """The search's ``Finished``, merged from its parts; ``stopped``: the pool stopped
        the search (a limit, ``move_now``, a cancel) rather than the parts ending it."""
        answered = [part.finished for part in self.parts if part.finished is not None]
        errors = [finished for finished in answered if finished.error is not None]
        if errors:
            return dataclasses.replace(errors[0], search_id=self.search_id)
        died = "; ".join(self.deaths)
        if not answered or not self.strategy.can_answer(self, stopped):
            if died and self.last_iteration is not None:
                return answer_from_last_iteration(self, died)
            reason = f"the search was lost: {died}" if died else "no worker could run the search"
            return failed(self.search_id, reason)
        finished = self.strategy.merge(self, answered, died)
        nodes = self.nodes
        elapsed = max(finished.time, 1e-9)
        return dataclasses.replace(finished, search_id=self.search_id, nodes=nodes, nps=nodes / elapsed)


class Strategy(ABC):
    """How a search of one kind is cut into parts and how their answers merge.

    The defaults are those of a search with one main part: its events are the caller's,
    its answer the search's."""

    parallelism: ClassVar[Parallelism]
    shares_table: ClassVar[bool] = False
    """Whether the parts search over the pool's shared transposition table."""

    @abstractmethod
    def parts(self, request: SearchRequest, state: GameState, root_moves: Sequence[Any], workers: int) -> list[Part]:
        """``request`` cut into at most ``workers`` parts (``root_moves``: the request's
        root moves as move values; empty: every legal move)."""

    def relay(self, run: SearchRun, part: Part, event: SearchEvent) -> tuple[PoolEvent, ...]:
        """What the caller is shown for ``event`` of ``part``: the main part's events."""
        if part.number == run.main:
            return (run.for_caller(event),)
        return NO_EVENTS

    def stops_the_others(self, run: SearchRun, part: Part) -> bool:
        """Whether ``part``'s answer ends the search (the other parts are stopped)."""
        return False

    def searches_again(self, run: SearchRun) -> bool:
        """Whether a part whose worker died is searched again by another worker (when the
        search is not being stopped and the part has attempts left)."""
        return False

    def can_answer(self, run: SearchRun, stopped: bool) -> bool:
        """Whether the parts that answered make an answer (some part did answer)."""
        return True

    def merge(self, run: SearchRun, answered: list[Finished], died: str) -> Finished:
        """The search's answer from the parts' answers (``died``: the workers lost, if any)."""
        finished = main_answer(run, answered)
        if outlived(run, finished, died):
            return answer_from_last_iteration(run, died)
        return finished


class SingleWorker(Strategy):
    """One worker runs the whole search, with every thread the search may use."""

    parallelism = Parallelism.SINGLE_WORKER

    def parts(self, request: SearchRequest, state: GameState, root_moves: Sequence[Any], workers: int) -> list[Part]:
        settings = dataclasses.replace(request.settings, threads=workers)
        return [Part(0, dataclasses.replace(request, settings=settings), Role())]

    def searches_again(self, run: SearchRun) -> bool:
        # Nothing else can answer for the lone part: search it again, unless the caller has
        # seen an iteration already (that iteration answers, as a stopped search would).
        return run.last_iteration is None


class LazySmp(Strategy):
    """Every worker searches the whole root over the shared table; part 0 answers."""

    parallelism = Parallelism.LAZY_SMP
    shares_table = True

    def parts(self, request: SearchRequest, state: GameState, root_moves: Sequence[Any], workers: int) -> list[Part]:
        return [
            Part(
                k,
                request if k == 0 else without_tree(request),
                Role(helper=k, sends_current_moves=k == 0, sends_only_nodes=k > 0),
            )
            for k in range(workers)
        ]

    def stops_the_others(self, run: SearchRun, part: Part) -> bool:
        return part.number == run.main  # the main search has answered: the helpers stop

    def merge(self, run: SearchRun, answered: list[Finished], died: str) -> Finished:
        finished = main_answer(run, answered)
        if outlived(run, finished, died):
            return answer_from_last_iteration(run, died)
        return dataclasses.replace(finished, stats=summed_stats(answered))


class RootParallel(Strategy):
    """Independent trees with seeds ``seed + k``; their root statistics are summed."""

    parallelism = Parallelism.ROOT_PARALLEL

    def parts(self, request: SearchRequest, state: GameState, root_moves: Sequence[Any], workers: int) -> list[Part]:
        settings = request.settings
        return [
            Part(
                k,
                dataclasses.replace(
                    request,
                    settings=dataclasses.replace(settings, seed=settings.seed + k),
                    limits=node_share(request.limits, k, workers),
                    tree=request.tree if k == 0 else None,
                ),
                Role(sends_current_moves=k == 0),
            )
            for k in range(workers)
        ]

    def relay(self, run: SearchRun, part: Part, event: SearchEvent) -> tuple[PoolEvent, ...]:
        if type(event) is Iteration:
            part.root_moves = event.root_moves
            if part.number == run.main:
                event = dataclasses.replace(event, root_moves=merged_root_moves(run.parts))
        return super().relay(run, part, event)

    def merge(self, run: SearchRun, answered: list[Finished], died: str) -> Finished:
        """The most visited root move over all trees; the score and line of the tree that
        visited it most."""
        root_moves = merged_root_moves(run.parts)
        main = run.parts[run.main].finished or answered[0]
        if not root_moves or main.best_move is None:
            return dataclasses.replace(main, root_moves=root_moves)
        best = root_moves[0].move

        def visits_of_best(answer: Finished) -> int:
            return next((stat.visits for stat in answer.root_moves if stat.move == best), -1)

        source = max(answered, key=visits_of_best)
        if source.best_move != best:
            source = dataclasses.replace(source, best_move=best, pv=(best,))
        return dataclasses.replace(
            source,
            root_moves=root_moves,
            stats=summed_stats(answered),
            stopped=any(answer.stopped for answer in answered),
        )


class RootSplit(Strategy):
    """The root moves dealt out among the workers; the best part's value wins."""

    parallelism = Parallelism.ROOT_SPLIT

    def parts(self, request: SearchRequest, state: GameState, root_moves: Sequence[Any], workers: int) -> list[Part]:
        moves = list(root_moves) or ([] if state.to_move() == CHANCE else state.legal_moves())
        if workers == 1 or len(moves) < 2:
            return [Part(0, request, Role())]
        names = [state.move_name(move) for move in moves]
        shares = [tuple(names[k::workers]) for k in range(min(workers, len(names)))]
        return [
            Part(
                k,
                dataclasses.replace(request, root_moves=share, limits=node_share(request.limits, k, len(shares))),
                Role(),
            )
            for k, share in enumerate(shares)
        ]

    def relay(self, run: SearchRun, part: Part, event: SearchEvent) -> tuple[PoolEvent, ...]:
        if type(event) is Iteration:
            if event.bound is not Bound.EXACT:
                return NO_EVENTS
            part.iterations[event.depth] = event
            return self.completed_iterations(run)
        if type(event) is Progress and part is run.first_running():
            return (run.for_caller(event),)
        if type(event) is CurrentMove and part is run.first_running():
            return (run.for_caller(in_whole_root(run, part, event)),)
        return NO_EVENTS

    @staticmethod
    def completed_iterations(run: SearchRun) -> tuple[PoolEvent, ...]:
        """The root's Iteration of each depth d that every part has now completed: the
        best of the parts' iterations of depth d."""
        parts = [part for part in run.parts if not part.abandoned]
        shown: list[PoolEvent] = []
        depth = run.reported_depth + 1
        while all(depth in part.iterations for part in parts):
            iterations = [part.iterations[depth] for part in parts]
            best = max(iterations, key=lambda iteration: (bool(iteration.pv), iteration.score.value))
            best = dataclasses.replace(best, lines=merged_lines(iterations, run.parts[0].request.settings.multipv))
            run.reported_depth = depth
            shown.append(run.for_caller(best))
            depth += 1
        return tuple(shown)

    def searches_again(self, run: SearchRun) -> bool:
        return True  # no other part searches its moves

    def can_answer(self, run: SearchRun, stopped: bool) -> bool:
        # Every part's moves must have been searched, unless the search was stopped (then
        # each part answers with what it has, as one worker would).
        lost = any(not part.is_done for part in run.parts)  # never ran: no worker left
        gave_up = any(part.abandoned for part in run.parts) and not stopped
        return not (lost or gave_up)

    def merge(self, run: SearchRun, answered: list[Finished], died: str) -> Finished:
        return dataclasses.replace(
            best_of(answered),
            lines=merged_lines(answered, run.parts[0].request.settings.multipv),
            depth=min(answer.depth for answer in answered),
            root_moves=tuple(stat for answer in answered for stat in answer.root_moves),
            stopped=any(answer.stopped for answer in answered),
            stats=summed_stats(answered),
        )


STRATEGIES: Final[dict[Parallelism, Strategy]] = {
    strategy.parallelism: strategy for strategy in (LazySmp(), RootParallel(), RootSplit(), SingleWorker())
}
"""The strategy of each kind of algorithm (``AlgorithmSpec.parallelism``)."""
ONE_PART: Final = STRATEGIES[Parallelism.SINGLE_WORKER]
"""How a search of one part merges, whatever its kind."""


def plan(request: SearchRequest, prepared: engine.PreparedSearch, workers: int, started: float) -> SearchRun:
    """``request`` (``prepared``) cut into parts for ``workers`` workers by its algorithm's
    strategy. A book or forced answer needs no search: one part, nothing to share out."""
    if engine.known_answer(prepared.state, request.settings, prepared.root_moves) is not None:
        return SearchRun(request.search_id, started, ONE_PART, [Part(0, request, Role())])
    strategy = STRATEGIES[prepared.algorithm.parallelism]
    parts = strategy.parts(request, prepared.state, prepared.root_moves, workers)
    merged_by = strategy if len(parts) > 1 else ONE_PART
    return SearchRun(request.search_id, started, merged_by, parts, shares_table=strategy.shares_table)


def without_tree(request: SearchRequest) -> SearchRequest:
    """``request`` for a part whose tree nobody is shown: it records none."""
    return request if request.tree is None else dataclasses.replace(request, tree=None)


def node_share(limits: Limits, part: int, parts: int) -> Limits:
    """``limits`` for part ``part`` of ``parts`` independent searches that share a node
    limit: equal shares adding up to the limit (at least one node each)."""
    if limits.nodes is None or parts <= 1:
        return limits
    base, extra = divmod(limits.nodes, parts)
    return dataclasses.replace(limits, nodes=max(1, base + (1 if part < extra else 0)))


def in_whole_root(run: SearchRun, part: Part, event: CurrentMove) -> CurrentMove:
    """A root split part's current move, numbered among all the root's moves: part k
    searches every count-th move from the k-th, so its n-th is about the whole root's
    (k + (n - 1) * count + 1)-th. Only the first running part's are shown, so the count
    goes up as the search does rather than jumping between the parts."""
    count = len(run.parts)
    total = sum(len(other.request.root_moves) for other in run.parts)
    number = min(total, part.number + (event.number - 1) * count + 1)
    return dataclasses.replace(event, number=number, total=total)


def main_answer(run: SearchRun, answered: list[Finished]) -> Finished:
    """The main part's answer, or (its worker died) the first helper's."""
    main = run.parts[run.main].finished
    return main if main is not None else answered[0]


def outlived(run: SearchRun, finished: Finished, died: str) -> bool:
    """Whether ``finished``, a helper's answer after the main search's worker died, comes
    from a shallower search than the iteration already shown: that iteration answers."""
    last = run.last_iteration
    return bool(died) and last is not None and last.depth > finished.depth


def best_of(answers: list[Finished]) -> Finished:
    """The answer whose best move scores highest for the side to move at the root (every
    part's score is seen from that side)."""
    return max(answers, key=lambda answer: (answer.best_move is not None, answer.score.value))


def merged_lines(reports: Sequence[Iteration | Finished], wanted: int) -> tuple[PvLine, ...]:
    """A root split's best lines (MultiPV): each part's lines rank the moves of its share,
    so the root's ``wanted`` best are the best of them all, ranked again (every score is
    seen from the side to move at the root; ties keep the parts' order, as ``best_of``)."""
    lines = sorted((line for report in reports for line in report.lines), key=lambda line: -line.score.value)
    return tuple(dataclasses.replace(line, rank=rank) for rank, line in enumerate(lines[:wanted], start=1))


def merged_root_moves(parts: Sequence[Part]) -> tuple[RootMoveStat, ...]:
    """The root moves' visits summed over the parts' trees, their values visit-weighted;
    most visited first."""
    visits: dict[Any, int] = {}
    totals: dict[Any, float] = {}
    for part in parts:
        stats = part.root_moves if part.finished is None else part.finished.root_moves or part.root_moves
        for stat in stats:
            visits[stat.move] = visits.get(stat.move, 0) + stat.visits
            totals[stat.move] = totals.get(stat.move, 0.0) + stat.value * stat.visits
    merged = [RootMoveStat(move, count, totals[move] / count if count else 0.0) for move, count in visits.items()]
    merged.sort(key=lambda stat: -stat.visits)  # stable: ties keep the first tree's order
    return tuple(merged)


def summed_stats(answers: list[Finished]) -> SearchStats:
    return SearchStats(
        nodes=sum(answer.stats.nodes for answer in answers),
        qnodes=sum(answer.stats.qnodes for answer in answers),
        tt_probes=sum(answer.stats.tt_probes for answer in answers),
        tt_hits=sum(answer.stats.tt_hits for answer in answers),
        cutoffs=sum(answer.stats.cutoffs for answer in answers),
        first_move_cutoffs=sum(answer.stats.first_move_cutoffs for answer in answers),
    )


def answer_from_last_iteration(run: SearchRun, died: str) -> Finished:
    """The answer of a search whose answering worker died: its last completed iteration
    (as a search stopped by its limit answers with it), marked ``stopped`` and with the
    ``fault`` said. Every iteration shown was complete (a root split's only once every part
    had completed it), so its line is one the search stands by."""
    last = run.last_iteration
    assert last is not None and last.pv
    elapsed = max(time.perf_counter() - run.started, 1e-9)
    nodes = run.nodes
    return Finished(
        search_id=run.search_id,
        best_move=last.pv[0],
        score=last.score,
        pv=last.pv,
        depth=last.depth,
        seldepth=last.seldepth,
        nodes=nodes,
        nps=nodes / elapsed,
        time=elapsed,
        stats=SearchStats(nodes=nodes),
        root_moves=last.root_moves,
        stopped=True,
        fault=f"an engine process died ({died}); the answer is the last completed iteration, depth {last.depth}",
    )
