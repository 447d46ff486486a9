""""Why not this move?": the engine searches a move the user picked, alone, to the depth of
its own best move's analysis, and says what the move costs and why (its refutation).

A chess coach's question, asked of the engine: the user enters a move on the board (the
game view's why-not mode: the move is asked about, not played); the engine searches that
move alone (``SearchRequest.root_moves``, UCI's ``searchmoves``) to the same depth as the
last complete iteration of its analysis of this position, so that the two scores compare
like for like. Without such an analysis the position is first searched as a hint is (the
best move, shown in the engine panel as any search), then the move alone to the depth that
search completed. The move alone is searched from an empty table (the bridge's
``clear_memory``), as ``plyground analyse --depth d --searchmoves`` would search it: a
depth-d score, the same however often it is asked. The answer reads ``Nf3 loses 1.20
pawns against e4: after Nf3 Qh4 g3 …``.

The searches run in the pool through the ``EngineBridge`` like every search; the panel only
starts one while the game's session is not thinking (a computer's move is never disturbed),
and a search the session starts meanwhile (a hint, the computer's move) replaces it: the
panel says so. The engine panel and the tree tab keep showing the best move's analysis
while the move is searched alone (``is_starting_search`` lets them pass that search by).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from ai import display as engine_display
from ai.events import Finished, Iteration, PvLine, Score
from ai.options import is_exact
from ai.search import ALGORITHMS
from ai.settings import Limits, SearchRequest, SearchSettings
from ai.tree.model import SearchTree, TreeNode
from ai.tt import Bound
from games.base import CHANCE, GameState
from gui.engine_bridge import EngineBridge, SearchInfo
from gui.panels import display
from gui.panels.display import LineNamer, MoveNamer
from gui.panels.tree.node_text import NodeTexts
from gui.session import HINT_LIMITS, GameSession


SHOWN_LINE_MOVES: Final = 8
"""Moves of a line written in the verdict sentence (the whole line is below it)."""

MCTS_ALGORITHM: Final = "mcts"
"""The one search without iterations of a fixed depth: its reported "depth" is the mean
depth of its tree, so the asked move gets the analysis's node budget instead."""


def algorithm_name(name: str) -> str:
    """The algorithm as its registry describes it (``principal variation search (NegaScout)``)."""
    spec = ALGORITHMS.get(name)
    return spec.summary if spec is not None else name


class Phase(enum.Enum):
    """What the panel is doing."""

    IDLE = "idle"
    BEST = "best"
    """Searching the position for its best move (no analysis of it was at hand)."""
    MOVE = "move"
    """Searching the asked move alone, to the best move's depth."""


@dataclass(frozen=True)
class Analysis:
    """The engine's best move in a position: one complete iteration of a search of it."""

    depth: int
    score: Score
    """From the view the search reported it (the side to move at the root)."""
    line: tuple[Any, ...]
    settings: SearchSettings
    lines: tuple[PvLine, ...] = ()
    """The iteration's best lines (MultiPV): each a move searched without the better ones."""
    nodes: int = 0
    """Nodes searched when the iteration was reported: MCTS's budget for the asked move."""

    @classmethod
    def from_iteration(cls, iteration: Iteration, settings: SearchSettings) -> Analysis:
        return cls(iteration.depth, iteration.score, tuple(iteration.pv), settings, iteration.lines, iteration.nodes)

    @property
    def by_nodes(self) -> bool:
        """Whether the asked move is searched for this analysis's nodes (MCTS, which has no
        search depth) rather than to its depth."""
        return self.settings.algorithm == MCTS_ALGORITHM

    def limits(self) -> Limits:
        """The asked move's search: the same depth, or for MCTS the same number of nodes."""
        return Limits(nodes=max(self.nodes, 1)) if self.by_nodes else Limits(depth=self.depth)

    def budget_text(self) -> str:
        """``to depth 6``, or ``for 12,000 nodes`` (MCTS)."""
        return f"for {self.nodes:,} nodes" if self.by_nodes else f"to depth {self.depth}"

    @property
    def move(self) -> Any:
        return self.line[0] if self.line else None


@dataclass(frozen=True)
class WhyNotResult:
    """The asked move against the best one, both searched to ``depth``."""

    root: GameState
    move: Any
    move_score: Score
    move_line: tuple[Any, ...]
    best: Analysis
    depth: int
    searched: bool
    """False when the answer needed no search (the move is the best one, or one of the
    analysis's best lines at that depth already)."""
    cut: TreeNode | None = None
    """The move's node in the best move's recorded tree at ``depth`` (the node the tree tab
    rings): its value, often a bound, where the engine's own search left the move."""

    @property
    def is_best(self) -> bool:
        return self.move == self.best.move


def cut_in_tree(tree: SearchTree, depth: int, move: Any) -> TreeNode | None:
    """The node of root move ``move`` in the last pass of iteration ``depth`` that has it,
    left with a value (the last search of the move there: a re-search after a probe is its
    verdict, as the tree tab rings it); ``None`` when the tree has none."""
    for tree_pass in reversed(tree.passes):
        if tree_pass.iteration != depth or tree_pass.root not in tree:
            continue
        found = [child for child in tree.children(tree_pass.root) if child.move == move and not child.is_open]
        if found:
            return found[-1]
    return None


def analysis_for(root: GameState, info: SearchInfo | None, iteration: Iteration | None) -> Analysis | None:
    """The analysis of ``root`` that a search shown in the engine panel completed (its
    last complete iteration), or ``None`` when that search was of another position or
    completed no depth."""
    if info is None or iteration is None or not iteration.pv or iteration.bound is not Bound.EXACT:
        return None
    if info.root.to_text() != root.to_text() or info.root.to_move() != root.to_move():
        return None
    return Analysis.from_iteration(iteration, info.settings)


def scores_at_least(chosen: Score, best: Score, game: type[GameState], mover: int) -> bool:
    """Whether a move scored ``chosen`` reads as at least as good as one scored ``best``
    for ``mover`` at the game's decimals (a proven result compares by its outcome and speed)."""
    own, other = chosen.for_player(mover), best.for_player(mover)
    if own.is_win or other.is_win:
        return own.is_win and other.is_win and own.outcome == other.outcome and own.plies_to_end == other.plies_to_end
    return round((other.value - own.value) / game.SCORE_UNIT_SIZE, game.SCORE_DECIMALS) <= 0


class WhyNotPanel(QWidget):
    """Asks the engine why a move is not its choice, and shows the answer.

    ``result_shown(WhyNotResult)`` when an answer is shown; ``move_cut_asked(move)`` then
    too, for the tree tab to show where the best move's search cut that move."""

    result_shown = Signal(object)
    move_cut_asked = Signal(object)
    busy_changed = Signal(bool)

    def __init__(self, bridge: EngineBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("whyNotPanel")
        self._bridge = bridge
        self._phase = Phase.IDLE
        self._session: GameSession | None = None
        self._root: GameState | None = None
        self._move: Any = None
        self._best: Analysis | None = None
        self._settings = SearchSettings()
        self._search_id: int | None = None
        self._starting = False
        """True while this panel's search is being started (``search_started`` comes then)."""
        self._refused = False
        """True from a request the bridge refused until its ``search_failed`` (the reason) comes."""
        self._last_iteration: Iteration | None = None
        self._history_length = 0
        """The game's length when the question was asked (a move played since: the answer is stale)."""
        self._result: WhyNotResult | None = None
        self._tree_root: tuple[str, int] | None = None
        """The position (text, side to move) of the last search that recorded a tree: the
        bridge keeps that tree (the tree tab's) after the search ends."""
        self._move_namer: MoveNamer | None = None
        self._line_namer: LineNamer | None = None

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(6)
        self.title_label = QLabel("Why not this move?")
        title_font = QFont(self.font())
        title_font.setBold(True)
        title_font.setPointSizeF(self.font().pointSizeF() * 1.2)
        self.title_label.setFont(title_font)
        self.status_label = self._wrapped(
            "Press W (Engine → Why not this move?), then play a move on the board: the engine "
            "searches it alone and says what it costs against its own choice."
        )
        self.status_label.setObjectName("whyNotStatus")
        self.verdict_label = self._wrapped("")
        self.verdict_label.setObjectName("whyNotVerdict")
        verdict_font = QFont(self.font())
        verdict_font.setBold(True)
        self.verdict_label.setFont(verdict_font)
        self.move_caption = self._wrapped("")
        self.move_line_label = self._wrapped("")
        self.best_caption = self._wrapped("")
        self.best_line_label = self._wrapped("")
        self.note_label = self._wrapped("")
        small = QFont(self.font())
        small.setPointSizeF(self.font().pointSizeF() * 0.9)
        self.note_label.setFont(small)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop this search (Esc)")
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.hide()
        for widget in (
            self.title_label, self.status_label, self.verdict_label, self.move_caption, self.move_line_label,
            self.best_caption, self.best_line_label, self.note_label,
        ):
            layout.addWidget(widget)
        layout.addWidget(self.cancel_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)
        self._show_result_rows(False)

        bridge.search_started.connect(self._on_search_started)
        bridge.iteration_received.connect(self._on_iteration)
        bridge.search_finished.connect(self._on_finished)
        bridge.search_failed.connect(self._on_failed)

    @staticmethod
    def _wrapped(text: str) -> QLabel:
        label = QLabel(text)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # wraps at the dock's width
        return label

    # ------------------------------------------------------------------ queries
    @property
    def is_searching(self) -> bool:
        return self._phase is not Phase.IDLE

    def is_starting_search(self) -> bool:
        """Whether the search being started is this panel's search of a move alone: the
        engine panel and the tree tab leave it out (they keep the best move's analysis)."""
        return self._starting and self._phase is Phase.MOVE

    @property
    def result(self) -> WhyNotResult | None:
        return self._result

    def verdict_text(self) -> str:
        return self.verdict_label.text()

    def set_move_namer(self, move_text: MoveNamer | None, line_texts: LineNamer | None = None) -> None:
        """Name moves as the board labels them (as the engine panel does)."""
        self._move_namer = move_text
        self._line_namer = line_texts

    def _name(self, root: GameState, move: Any) -> str:
        return self._move_namer(root, move) if self._move_namer is not None else display.move_text(root, move)

    def _line(self, root: GameState, moves: Sequence[Any], limit: int | None = None) -> str:
        if not moves:
            return display.NO_VALUE
        names = self._line_namer(root, moves) if self._line_namer is not None else root.line_names(moves)
        if limit is not None and len(names) > limit:
            return display.joined_line(names[:limit]) + " …"
        return display.joined_line(names)

    # ------------------------------------------------------------------ commands
    def ask(self, session: GameSession, move: Any, analysis: Analysis | None, settings: SearchSettings) -> bool:
        """Why not ``move`` (legal in the session's position)? ``analysis``: the engine's
        best move here (``analysis_for``), else it is searched first as a hint is: with
        ``settings``'s switches and the algorithm that advises the human (the session's
        ``adviser_algorithm``: Star2 for backgammon, whose dice PVS cannot search).
        False (and the panel says why) when the engine cannot be asked now."""
        self.cancel()
        root = session.state.copy()
        self._result = None
        self._show_result_rows(False)
        self.verdict_label.setText("")
        if session.is_thinking:
            self.status_label.setText("The engine is busy with the game: ask again when it has moved.")
            return False
        if root.to_move() == CHANCE or root.is_terminal() or move not in root.legal_moves():
            self.status_label.setText("Pick a legal move of the side to move.")
            return False
        self._session, self._root, self._move = session, root, move
        self._settings = dataclasses.replace(settings, algorithm=session.adviser_algorithm(), book=False)
        self.title_label.setText(f"Why not {self._name(root, move)}?")
        if len(root.legal_moves()) == 1:
            only = Analysis(0, Score(0.0, root.to_move()), (move,), settings)
            self.show_result(WhyNotResult(root, move, only.score, (move,), only, 0, searched=False))
            self.status_label.setText(f"{self._name(root, move)} is the only legal move.")
            return True
        if analysis is None:
            self._start(Phase.BEST)
            return True
        self._best = analysis
        if self._answer_from_analysis(analysis):
            return True
        self._start(Phase.MOVE)
        return True

    def cancel(self) -> None:
        """Stop this panel's search (Esc); the game's own searches are never touched."""
        if self._phase is Phase.IDLE:
            return
        was_ours = self._owns_running_search()
        self._phase = Phase.IDLE
        self._search_id = None
        if was_ours:
            self._bridge.stop()
        self.status_label.setText("Cancelled.")
        self._set_busy(False)

    def clear(self) -> None:
        """A new game: nothing asked yet."""
        self.cancel()
        self._result = None
        self._session = None
        self.title_label.setText("Why not this move?")
        self.status_label.setText("Press W, then play a move on the board: the engine says what it costs.")
        self.verdict_label.setText("")
        self._show_result_rows(False)

    def position_changed(self) -> None:
        """The game moved on: an answer under way is of a position no longer on the board."""
        session, root = self._session, self._root
        if session is None or root is None or not self.is_searching:
            return
        if session.state.to_text() != root.to_text() or len(session.history) != self._history_length:
            self.cancel()
            self.status_label.setText("The position changed: ask again.")

    # ------------------------------------------------------------------ searching
    def _owns_running_search(self) -> bool:
        info = self._bridge.search_info
        return info is not None and self._search_id is not None and info.search_id == self._search_id

    def _request(self, limits: Limits, root_moves: tuple[str, ...]) -> SearchRequest:
        session = self._session
        assert session is not None
        return SearchRequest(
            game=session.game,
            position=session.start_text,
            moves=tuple(session.move_names()),
            settings=self._settings,
            limits=limits,
            root_moves=root_moves,
        )

    @contextmanager
    def _starting_search(self) -> Iterator[None]:
        self._starting = True
        try:
            yield
        finally:
            self._starting = False

    def _start(self, phase: Phase) -> None:
        root, move, session = self._root, self._move, self._session
        assert root is not None and session is not None
        self._phase = phase
        self._refused = False
        self._last_iteration = None
        self._history_length = len(session.history)
        if phase is Phase.BEST:
            request = self._request(HINT_LIMITS, ())
            self.status_label.setText("Searching the position for the engine's best move first …")
            recording = None
        else:
            best = self._best
            assert best is not None
            self._settings = dataclasses.replace(best.settings, multipv=1, book=False)
            request = self._request(best.limits(), (root.move_name(move),))
            self.status_label.setText(f"Searching {self._name(root, move)} alone {best.budget_text()} …")
            # From an empty table: entries a deeper search left there would answer some of
            # the move's nodes deeper than the best move's depth, so the two scores would
            # not compare like for like, and asking twice could answer twice differently.
            self._bridge.clear_memory()
            # The move searched alone is not recorded: the tree tab keeps the best move's tree.
            recording = self._bridge.record_tree
            if recording is not None:
                self._bridge.record_tree = None
        self._set_busy(True)
        try:
            with self._starting_search():
                self._search_id = self._bridge.start_search(request)
        finally:
            if recording is not None:
                self._bridge.record_tree = recording
        if self._search_id is None:
            # Refused (a bad request): the reason follows from the event loop in search_failed.
            self._phase = Phase.IDLE
            self._refused = True
            self._set_busy(False)
            self.status_label.setText("The engine could not start this search.")

    @Slot(object)
    def _on_search_started(self, info: SearchInfo) -> None:
        if info.tree is not None:
            self._tree_root = (info.root.to_text(), info.root.to_move())
        if self._phase is not Phase.IDLE and not self._starting:
            # The game started a search of its own (a hint, the computer's move): it comes first.
            self._phase = Phase.IDLE
            self._search_id = None
            self._set_busy(False)
            self.status_label.setText("Stopped: the engine was needed for the game. Ask again when it is free.")

    @Slot(object)
    def _on_iteration(self, event: Iteration) -> None:
        if self._search_id is None or event.search_id != self._search_id or event.bound is not Bound.EXACT:
            return
        self._last_iteration = event
        root, move = self._root, self._move
        assert root is not None
        if self._phase is Phase.MOVE and self._best is not None:
            done = f"{event.nodes:,} nodes" if self._best.by_nodes else f"depth {event.depth}"
            self.status_label.setText(f"Searching {self._name(root, move)} alone {self._best.budget_text()} … ({done} done)")
        elif self._phase is Phase.BEST:
            self.status_label.setText(f"Searching the position for the engine's best move first … (depth {event.depth} done)")

    @Slot(object)
    def _on_finished(self, event: Finished) -> None:
        if self._search_id is None or event.search_id != self._search_id:
            return
        root, move = self._root, self._move
        assert root is not None
        self._search_id = None
        if self._phase is Phase.BEST:
            iteration = self._last_iteration
            if iteration is None or not iteration.pv:
                self._phase = Phase.IDLE
                self._set_busy(False)
                self.status_label.setText("The engine found no best move to compare with.")
                return
            self._best = Analysis.from_iteration(iteration, self._settings)
            if not self._answer_from_analysis(self._best):
                self._start(Phase.MOVE)
            return
        best = self._best
        assert best is not None
        self._phase = Phase.IDLE
        self._set_busy(False)
        line = tuple(event.pv) if event.pv else (move,)
        self.show_result(WhyNotResult(root, move, event.score, line, best, event.depth, searched=True))

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        refused, self._refused = self._refused, False
        if not refused and (self._phase is Phase.IDLE or self._search_id is None):
            return
        self._phase = Phase.IDLE
        self._search_id = None
        self._set_busy(False)
        self.status_label.setText(f"The engine could not answer: {message}")

    def _answer_from_analysis(self, best: Analysis) -> bool:
        """Answer without a search when the analysis already has it: the move is its best,
        or one of its best lines (MultiPV) at that depth, whose score is the move's searched
        without the better ones. True when answered."""
        root, move = self._root, self._move
        assert root is not None
        if move == best.move:
            found: tuple[Score, tuple[Any, ...]] | None = (best.score, best.line)
        else:
            found = next(((line.score, line.pv) for line in best.lines if line.move == move and line.depth == best.depth), None)
        if found is None:
            return False
        self._phase = Phase.IDLE
        self._set_busy(False)
        self.show_result(WhyNotResult(root, move, found[0], found[1], best, best.depth, searched=False))
        return True

    # ------------------------------------------------------------------ the answer
    def _selective_verdict(self, result: WhyNotResult, name: str, best_name: str) -> str:
        """The move alone scores as well as the engine's own: a selective search (null move,
        late-move reductions, futility, the table) prunes differently below another root, so
        the engine's search may have cut the move lower; said in words, with that cut's value."""
        root, game, mover = result.root, type(result.root), result.root.to_move()
        own = engine_display.value_text(result.move_score.for_player(mover), game)
        other = engine_display.value_text(result.best.score.for_player(mover), game)
        how = "Searched alone" if result.searched else "In the analysis's best lines"
        text = f"{how}, {name} is as good as {best_name} ({own} vs {other})"
        selective = not is_exact(result.best.settings)
        cut = result.cut
        if cut is not None:
            value = NodeTexts(root, self._move_namer, self._line_namer).value_text(cut.value, cut.bound, compact=False)
            why = " through its selective pruning" if selective else ""
            verb = "scored it" if cut.bound is Bound.EXACT else "cut it at"
            text += f"; the engine's own search {verb} {value}{why}"
        if selective:
            text += "; with Settings → Textbook (exact) the two agree"
        return text + "."

    def _set_busy(self, busy: bool) -> None:
        self.cancel_button.setVisible(busy)
        self.busy_changed.emit(busy)

    def _show_result_rows(self, shown: bool) -> None:
        for label in (self.move_caption, self.move_line_label, self.best_caption, self.best_line_label, self.note_label):
            label.setVisible(shown)

    def show_result(self, result: WhyNotResult) -> None:
        """Show an answer (with the move's node in the best move's tree, when recorded)."""
        recorded = self._tree_root == (result.root.to_text(), result.root.to_move())
        tree = self._bridge.tree if recorded else None
        if result.cut is None and tree is not None and not result.is_best:
            result = dataclasses.replace(result, cut=cut_in_tree(tree, result.depth, result.move))
        self._result = result
        root, game = result.root, type(result.root)
        mover = root.to_move()
        name = self._name(root, result.move)
        best_name = self._name(root, result.best.move)
        best = result.best
        budget = best.budget_text() if best.by_nodes else f"to depth {result.depth}"
        if result.is_best:
            reached = f"after {best.nodes:,} nodes" if best.by_nodes else f"at depth {result.depth}"
            verdict = f"{name} is the engine's own choice ({display.score_text(best.score, game)} {reached})."
            self.status_label.setText("Nothing to explain: the engine plays this move.")
        else:
            cost = display.comparison_text(result.move_score, result.best.score, game, mover)
            line = self._line(root, result.move_line, SHOWN_LINE_MOVES)
            verdict = f"{name} {cost} against {best_name}: after {line}"
            if scores_at_least(result.move_score, result.best.score, game, mover):
                verdict = self._selective_verdict(result, name, best_name)
            how = "searched alone" if result.searched else "from the analysis's best lines"
            self.status_label.setText(f"{name} {how} {budget}, as {best_name} was.")
        self.verdict_label.setText(verdict)
        # Both scores from the chooser's side, so that they compare at a glance.
        self.move_caption.setText(f"<b>Your move {name}</b>: {display.view_score_text(result.move_score, game, mover)}")
        self.move_line_label.setText(self._line(root, result.move_line))
        self.best_caption.setText(f"<b>Engine's move {best_name}</b>: {display.view_score_text(result.best.score, game, mover)}")
        self.best_line_label.setText(self._line(root, result.best.line))
        settings = result.best.settings
        both = (f"Both searched for {best.nodes:,} nodes (MCTS has no search depth: the same budget)"
                if best.by_nodes else f"Both at depth {result.depth}")
        self.note_label.setText(
            f"{both}, {algorithm_name(settings.algorithm)}, with the same settings. "
            "The line after your move is the engine's best answer to it: its refutation."
        )
        self._show_result_rows(not result.is_best)
        self.result_shown.emit(result)
        self.move_cut_asked.emit(result.move)
