"""The tree panel: the engine dock's "Tree" tab, where the search tree grows while the
engine thinks.

Its parts, top to bottom: a bar (which pass to show, "Record the tree", zoom, fit, and a
button that floats the panel into a window of its own and back), the status line (nodes
recorded of nodes searched, sampling past the cap, Lazy SMP helpers' nodes not shown), the
legend, then the textbook view (``gui.panels.tree.textbook``) over the details of the
node clicked (``gui.panels.tree.node_details``).

The panel is fed by the app: ``start(root_state, game_class, settings)`` when a search
starts, ``add_batch(batch)`` for each ``TreeBatch`` (about ten a second; each costs the
panel the batch's own size: the layout is throttled in the view), ``clear()`` for a new
game. ``recording_wanted(bool)`` says whether the next search should record: "Record the
tree" is on and the panel (or its window) is on screen, since recording costs the search
time. The compiled search (``native``) records no tree: the panel says so and offers the
same algorithm in Python (``algorithm_requested``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
    QWidgetAction,
)

from ai.search import ALGORITHMS
from ai.events import Finished
from ai.settings import MAX_TREE_CAP, SearchSettings
from ai.tree.mcts import MctsSnapshot
from ai.tree.model import NodeKind, SearchTree, TreeBatch, TreeOptions, TreePass
from games.base import GameState
from gui.panels.tree.mcts_view import MctsView
from gui.panels.tree.node_details import NodeDetails
from gui.panels.tree.node_text import LineNamer, MoveNamer, NodeTexts
from gui.panels.tree.overview import IcicleView
from gui.panels.tree.replay import ReplayBar
from gui.panels.tree.textbook import ItemKind, TextbookView
from gui.theme import LIGHT, Theme

NATIVE_ALGORITHM = "native"
MCTS_ALGORITHM = "mcts"
"""Monte Carlo tree search grows its tree by visits, not depth first: its own view replaces
the textbook view (``gui.panels.tree.mcts_view``)."""
PYTHON_TWIN = "pvs"
"""The compiled search is PVS with the usual enhancements (``ai.search.native``): the same
algorithm in Python, which records its tree, is ``pvs``."""
LATEST_PASS = "Latest pass (follows the search)"
RECORD_TIP = (
    "Record every node the engine visits so the tree can be drawn. Recording costs the search "
    "time (each node is written down and sent to the app), so it is on only while this tab or "
    "its window is on screen; the search's result is the same either way."
)
PASS_BOX_CHARACTERS = 12
"""The pass box's width in characters when space is short (it grows with the panel)."""
CAP_MIN = 1_000
CAP_MAX = MAX_TREE_CAP
"""The cap's range (what ``ai.settings.check_tree_options`` accepts)."""
CAP_STEP = 10_000
NO_BREAK = "\u00a0"
"""Between a legend entry's shape and words, so a wrapped legend never separates them."""
DETAILS_MIN_HEIGHT = 60
"""The details pane's least height (it scrolls below its natural ~170 px)."""
REPLAY_SHARE = 0.22
OVERVIEW_SHARE = 0.2
DETAILS_SHARE = 0.24
"""Shares of the splitter's height for the panes under the textbook view, which has the rest."""
NOT_RECORDED = ("The last search ran while this tab was hidden (or \"Record the tree\" was off), so it recorded no "
                "tree: the engine's next search, or a hint, is drawn here.")
CANCELLED = "search cancelled before it answered (the position changed, or another search began)"
WINDOW_TITLE = "Search tree — Plyground"
WINDOW_FLAGS = (
    Qt.WindowType.Tool
    | Qt.WindowType.WindowTitleHint
    | Qt.WindowType.WindowMinMaxButtonsHint
    | Qt.WindowType.WindowCloseButtonHint
)


def pass_title(tree_pass: TreePass) -> str:
    """``Iteration 3``, ``Iteration 3 · aspiration re-search``, ``Iteration 5 · MTD(f) probe``."""
    words = f"Iteration {tree_pass.iteration}"
    return f"{words} · {tree_pass.label}" if tree_pass.label else words


class TreeWindow(QWidget):
    """The floating window the panel's body moves into; closing it puts the body back. It
    belongs to the app's window (``owner``), so it stays above it when the board is clicked,
    and can still be moved to a second screen."""

    closed = Signal()

    def __init__(self, owner: QWidget | None = None) -> None:
        # A tool window: the window manager keeps it above its owner (a plain parented window
        # carries no transient hint and drops behind the board at the first click).
        super().__init__(owner, WINDOW_FLAGS)
        self.setWindowTitle(WINDOW_TITLE)
        self.setObjectName("treeWindow")
        self.column = QVBoxLayout(self)
        self.column.setContentsMargins(0, 0, 0, 0)
        self.resize(900, 700)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        self.closed.emit()
        super().closeEvent(event)


class TreePanel(QWidget):
    """The search tree, live. Signals: ``node_selected(int)`` (a node's visit index),
    ``recording_wanted(bool)``, ``algorithm_requested(str)``, ``pass_shown(int)``."""

    node_selected = Signal(int)
    recording_wanted = Signal(bool)
    algorithm_requested = Signal(str)
    pass_shown = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("treePanel")
        self.tree = SearchTree()
        self._shares_tree = False
        """The tree is fed by its owner (the bridge adds each batch before passing it on)."""
        self.options = TreeOptions()
        self.texts: NodeTexts | None = None
        self.settings: SearchSettings | None = None
        self._move_text: MoveNamer | None = None
        self._line_texts: LineNamer | None = None
        self._theme: Theme = LIGHT
        self._wanted = False
        self._pending_move: Any = None
        self._has_pending_move = False
        self._passes_listed = 0
        self._detail_stamp: tuple[Any, ...] | None = None
        self._splitter_shared = False
        self._records = True
        """Whether the search shown records its tree (set when it starts)."""
        self._stopped_marked = False
        """The passes the search stopped inside are marked in the pass box (once it is over)."""
        self._nothing_searched = ""
        """Why the search shown has no tree although it finished (a book move ...)."""

        self.view = TextbookView()
        self.view.setObjectName("treeTextbookView")
        self.details = NodeDetails()
        self.details.setObjectName("treeNodeDetails")
        self.overview = IcicleView()
        self.overview.setObjectName("treeOverview")
        self.replay = ReplayBar()
        self.replay.setObjectName("treeReplay")
        self.mcts_view = MctsView()
        self.mcts_view.setObjectName("treeMctsView")
        self._snapshot: MctsSnapshot | None = None

        # -- the bar
        self.pass_box = QComboBox()
        self.pass_box.setObjectName("treePassBox")
        self.pass_box.setToolTip("Which call of the search at the root to draw: one per iteration of iterative "
                                 "deepening, more for aspiration re-searches and MTD(f)'s probes")
        self.pass_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.pass_box.setMinimumContentsLength(PASS_BOX_CHARACTERS)
        self.pass_box.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.pass_box.addItem(LATEST_PASS, None)
        self.record_box = QCheckBox("Record the tree")
        self.record_box.setObjectName("treeRecordBox")
        self.record_box.setToolTip(RECORD_TIP)
        self.record_box.setChecked(True)
        self.fit_button = self._tool("Fit", "Show the whole drawn tree (key 0). Zoom with the wheel or the + and − "
                                     "keys, pan by dragging; the arrow keys walk from node to node, Enter "
                                     "opens or closes one")
        self.float_button = self._tool("Float", "Show the tree in a window of its own (and back)")
        self.panes_button = self._tool("Show", "Which parts to show under the tree: the whole-tree overview, the "
                                       "replay of the search step by step, the selected node's details")
        self.panes_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.panes_menu = QMenu(self.panes_button)
        self.panes_button.setMenu(self.panes_menu)
        self.pane_actions: dict[str, QAction] = {}
        # Two rows, so that the bar fits the engine dock at its narrowest (300 px).
        passes = QHBoxLayout()
        passes.setContentsMargins(0, 0, 0, 0)
        passes.addWidget(self.pass_box, 1)
        passes.addWidget(self.float_button)
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.record_box)
        bar.addStretch(1)
        bar.addWidget(self.panes_button)
        bar.addWidget(self.fit_button)

        self.status = QLabel("")
        self.status.setObjectName("treeStatus")
        self.status.setWordWrap(True)
        self.legend = QLabel(self._legend_text())
        self.legend.setObjectName("treeLegend")
        self.legend.setWordWrap(True)
        self.legend.setToolTip(
            "T: settled by the transposition table; S: by the exact solver; H: cut by a heuristic (null move, "
            "reverse futility) before its children.\nUnder a closed node, '2/31 ▾': 2 of its 31 moves were searched "
            "before a cut-off pruned the rest; click it (or double-click the node) to open it.\nValues are in the "
            "root player's view (MAX); ≥ and ≤ mark bounds: a node that failed high or low.")

        # -- the compiled search's notice
        self.native_page = QWidget()
        self.native_page.setObjectName("treeNativePage")
        self.native_text = QLabel(
            "The compiled search (native) records no tree: it runs in C for strength and cannot be watched. "
            f"The same algorithm in Python ({ALGORITHMS[PYTHON_TWIN].summary}) records every node."
        )
        self.native_text.setWordWrap(True)
        self.native_button = QPushButton("Watch PVS in Python")
        self.native_button.setObjectName("treeNativeButton")
        self.native_button.setToolTip("Switch the engine's algorithm to PVS in Python (Settings tab) so that its tree is drawn")
        self.native_button.clicked.connect(lambda: self.algorithm_requested.emit(PYTHON_TWIN))
        native_layout = QVBoxLayout(self.native_page)
        native_layout.addStretch(1)
        native_layout.addWidget(self.native_text)
        native_layout.addWidget(self.native_button, 0, Qt.AlignmentFlag.AlignHCenter)
        native_layout.addStretch(2)

        self.mcts_page = QScrollArea()  # its table wants ~420 px: it scrolls in a narrow dock
        self.mcts_page.setWidget(self.mcts_view)
        self.mcts_page.setWidgetResizable(True)
        self.mcts_page.setFrameShape(QFrame.Shape.NoFrame)
        self.views = QStackedWidget()
        self.views.addWidget(self.view)
        self.views.addWidget(self.native_page)
        self.views.addWidget(self.mcts_page)

        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("treeSplitter")
        self.splitter.setChildrenCollapsible(False)
        self.replay_page = QScrollArea()  # the bar is wider than the dock at its narrowest: it scrolls
        self.replay_page.setWidget(self.replay)
        self.replay_page.setWidgetResizable(True)
        self.replay_page.setFrameShape(QFrame.Shape.NoFrame)
        self.replay_page.setMinimumHeight(DETAILS_MIN_HEIGHT)
        self.splitter.addWidget(self.replay_page)
        self.splitter.addWidget(self.views)
        self.overview_page = QScrollArea()  # a short dock scrolls it rather than grow taller
        self.overview_page.setWidget(self.overview)
        self.overview_page.setWidgetResizable(True)
        self.overview_page.setFrameShape(QFrame.Shape.NoFrame)
        self.overview_page.setMinimumHeight(DETAILS_MIN_HEIGHT)
        self.splitter.addWidget(self.overview_page)
        self.details_page = QScrollArea()  # scrolls in a short dock instead of making it taller
        self.details_page.setWidget(self.details)
        self.details_page.setWidgetResizable(True)
        self.details_page.setFrameShape(QFrame.Shape.NoFrame)
        self.details_page.setMinimumHeight(DETAILS_MIN_HEIGHT)
        self.splitter.addWidget(self.details_page)
        for position, stretch in enumerate((2, 5, 2, 3)):
            self.splitter.setStretchFactor(position, stretch)
        for name, pane, shown in (
            ("Overview", self.overview_page, True),
            ("Replay", self.replay_page, False),
            ("Details", self.details_page, True),
        ):
            action = QAction(name, self)
            action.setCheckable(True)
            action.setChecked(shown)
            pane.setVisible(shown)
            action.toggled.connect(pane.setVisible)
            action.toggled.connect(lambda _on: self.share_splitter())
            action.toggled.connect(lambda _on: self._show_tree_in_panes())
            self.panes_menu.addAction(action)
            self.pane_actions[name] = action
        self.panes_menu.addSeparator()
        self.cap_box = QSpinBox()
        self.cap_box.setObjectName("treeCapBox")
        self.cap_box.setRange(CAP_MIN, CAP_MAX)
        self.cap_box.setSingleStep(CAP_STEP)
        self.cap_box.setGroupSeparatorShown(True)
        self.cap_box.setValue(self.options.cap)
        self.cap_box.setPrefix("Record at most ")
        self.cap_box.setSuffix(" nodes")
        self.cap_box.setToolTip("Past this many nodes the search keeps its top plies whole and samples the rest "
                                "(the status says 'sampled past N'); from the next search on")
        self.cap_box.valueChanged.connect(self._on_cap_changed)
        cap_action = QWidgetAction(self)
        cap_action.setDefaultWidget(self.cap_box)
        self.panes_menu.addAction(cap_action)
        self.windows_action = QAction("α-β windows on the nodes", self)
        self.windows_action.setCheckable(True)
        self.windows_action.setToolTip("Write each node's window [α, β] under its value, as the lecture notes do")
        self.windows_action.toggled.connect(self.view.set_windows_shown)
        self.panes_menu.addAction(self.windows_action)

        self.body = QWidget()
        self.body.setObjectName("treeBody")
        body_layout = QVBoxLayout(self.body)
        body_layout.setContentsMargins(4, 4, 4, 4)
        body_layout.setSpacing(4)
        body_layout.addLayout(passes)
        body_layout.addLayout(bar)
        body_layout.addWidget(self.status)
        body_layout.addWidget(self.legend)
        body_layout.addWidget(self.splitter, 1)

        self.floating_note = QWidget()
        note_layout = QVBoxLayout(self.floating_note)
        note_label = QLabel("The search tree is in its own window.")
        note_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        note_label.setWordWrap(True)
        self.dock_button = QPushButton("Put it back here")
        self.dock_button.setObjectName("treeDockButton")
        self.dock_button.clicked.connect(self.dock)
        note_layout.addStretch(1)
        note_layout.addWidget(note_label)
        note_layout.addWidget(self.dock_button, 0, Qt.AlignmentFlag.AlignHCenter)
        note_layout.addStretch(2)
        self.floating_note.hide()

        self.column = QVBoxLayout(self)
        self.column.setContentsMargins(0, 0, 0, 0)
        self.column.addWidget(self.body)
        self.column.addWidget(self.floating_note)
        self.tree_window: TreeWindow | None = None

        self.view.node_clicked.connect(self._on_node_clicked)
        self.overview.node_chosen.connect(self.select)
        self.replay.node_reached.connect(self._on_replay_reached)
        self.replay.visited_changed.connect(self._on_replay_visited)
        self.view.layout_changed.connect(self._refresh)
        self.pass_box.currentIndexChanged.connect(self._on_pass_chosen)
        self.record_box.toggled.connect(lambda _checked: self._update_wanted())
        self.fit_button.clicked.connect(self.view.fit)
        self.float_button.clicked.connect(self.toggle_floating)
        self._refresh()

    def _tool(self, text: str, tip: str) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setToolTip(tip)
        return button

    @staticmethod
    def _legend_text() -> str:
        kinds = "  ".join(f"{kind.symbol}{NO_BREAK}{kind.short_name.replace(' ', NO_BREAK)}" for kind in NodeKind)
        pv, pruned = (words.replace(" ", NO_BREAK) for words in ("thick: principal variation", "dashed ✕: pruned"))
        return f"{kinds}  ·  {pv}  ·  {pruned}"

    # ---------------------------------------------------------------- the app's calls
    def set_move_namer(self, move_text: MoveNamer | None, line_texts: LineNamer | None) -> None:
        """Name moves as the board labels them (``board.move_text`` / ``board.line_texts``)."""
        self._move_text = move_text
        self._line_texts = line_texts
        self.overview.set_move_namer(move_text, line_texts)
        self.replay.set_move_namer(move_text, line_texts)
        self.mcts_view.set_move_namer(move_text, line_texts)

    def set_theme(self, theme: Theme) -> None:
        self._theme = theme
        self.view.set_theme(theme)
        self.details.set_theme(theme)
        self.overview.set_theme(theme)
        self.replay.set_theme(theme)
        self.mcts_view.set_theme(theme)

    def start(
        self, root_state: GameState, game_class: type[GameState], settings: SearchSettings, records: bool = True
    ) -> None:
        """A search of ``root_state`` starts: the old tree goes; the new one grows as
        batches come (``records``: whether this search records its tree at all)."""
        if not isinstance(root_state, game_class):
            raise ValueError(f"the root state is a {type(root_state).__name__}, not a {game_class.__name__}")
        self.settings = settings
        self._records = records
        self._nothing_searched = ""
        self.tree = SearchTree()
        self._shares_tree = False
        self.texts = NodeTexts(root_state.copy(), self._move_text, self._line_texts)
        self._has_pending_move = False
        self._reset_passes()
        self.details.clear()
        self._detail_stamp = None
        self.view.set_tree(self.tree, self.texts)
        self.overview.set_root(self.texts.root)
        self.replay.set_root(self.texts.root)
        self._show_tree_in_panes()
        self._snapshot = None
        if settings.algorithm == MCTS_ALGORITHM:
            self.mcts_view.start(self.texts.root, game_class, settings)
        else:
            self.mcts_view.clear()
        self._show_kind_of_search(settings.algorithm)
        self._refresh()

    def use_tree(self, tree: SearchTree) -> None:
        """Draw ``tree``, which its owner fills (the bridge's ``tree``: it adds each batch
        before ``tree_batch_received``), instead of putting one together here."""
        self.tree = tree
        self._shares_tree = True
        self._reset_passes()
        self.view.set_tree(tree, self.texts)
        self._show_tree_in_panes()
        self._refresh()

    def add_batch(self, batch: TreeBatch) -> None:
        """Take in one batch of the current search (costs the batch's size; the drawing
        follows at most every ``textbook.LAYOUT_INTERVAL_MS``). A shared tree already has it."""
        if self.texts is None:
            return
        if not self._shares_tree:
            self.tree.add(batch)
        self.view.tree_changed()

    def search_finished(self, finished: Finished) -> None:
        """The search's answer: one that searched nothing (a book move, a forced answer, the
        only legal move) says so, instead of waiting for a tree that never comes."""
        texts = self.texts
        self._nothing_searched = ""
        if texts is not None and self.tree.nodes and finished.pv:
            self.view.set_answer_line(finished.pv)
        if texts is None or self.tree.nodes or finished.best_move is None:
            self._refresh_status()
            return
        try:
            move = texts.root.move_name(finished.best_move)
        except Exception:  # noqa: BLE001 - the sentence must not fail on a move it cannot name
            move = "The move"
        if finished.book:
            self._nothing_searched = (f"{move} came from the opening book: nothing was searched, so there is no tree. "
                                      "Turn the book off (Settings → Opening book) to watch the engine search these "
                                      "positions.")
        elif finished.forced or finished.only_move:
            self._nothing_searched = f"{move} was the only move to play: nothing was searched, so there is no tree."
        self._refresh_status()

    def search_cancelled(self, tree: SearchTree) -> None:
        """The search drawn was cancelled before it answered (a take-back, a new game, a new
        search): ``tree`` grows no more. The status says so, and its open passes read stopped."""
        if tree is not self.tree:
            return
        self.view.tree_changed()
        self._refresh()

    def add_snapshot(self, snapshot: MctsSnapshot) -> None:
        """MCTS's tree as it stands (each snapshot is whole: the newest is kept)."""
        if self.texts is None:
            return
        self._snapshot = snapshot
        self.mcts_view.add_snapshot(snapshot)
        self._refresh_status()

    def _show_kind_of_search(self, algorithm: str | None) -> None:
        """The textbook view with its controls for the depth-first searches, MCTS's own
        view for MCTS, the notice for the compiled search."""
        depth_first = algorithm not in (NATIVE_ALGORITHM, MCTS_ALGORITHM)
        page = self.view if depth_first else (self.mcts_page if algorithm == MCTS_ALGORITHM else self.native_page)
        self.views.setCurrentWidget(page)
        for widget in (self.pass_box, self.fit_button, self.panes_button, self.legend):
            widget.setVisible(depth_first)
        self.status.setVisible(algorithm != MCTS_ALGORITHM)  # the MCTS view says it in its own summary
        for name, pane in (("Overview", self.overview_page), ("Replay", self.replay_page), ("Details", self.details_page)):
            pane.setVisible(depth_first and self.pane_actions[name].isChecked())

    def clear(self) -> None:
        """No search (a new game): nothing drawn."""
        self.settings = None
        self.tree = SearchTree()
        self._shares_tree = False
        self.texts = None
        self._has_pending_move = False
        self._reset_passes()
        self.details.clear()
        self.view.set_tree(None, None)
        self.overview.clear()
        self.replay.set_tree(None)
        self.mcts_view.clear()
        self._snapshot = None
        self._show_kind_of_search(None)
        self._refresh()

    def select(self, index: int) -> None:
        """Select node ``index``: open its path, centre the view on it, show its details;
        ``node_selected`` follows."""
        if index not in self.tree:
            return
        self.view.reveal(index)
        self._sync_pass_box()
        self._select(index)

    def highlight_move(self, move: Any) -> bool:
        """"Why not this move?": select the root child of ``move`` in the pass shown, open
        it so that its cut-off (or its refutation) shows, and ring it. False when the move
        is not in the tree yet: it is highlighted when its node arrives."""
        self._pending_move = move
        self._has_pending_move = True
        return self._try_highlight()

    def shown_pass(self) -> int | None:
        """The pass the view draws (``None`` before the first)."""
        number = self.view.shown_pass_number()
        return number

    # ---------------------------------------------------------------- floating
    def is_floating(self) -> bool:
        return self.tree_window is not None

    def toggle_floating(self) -> None:
        if self.tree_window is None:
            self.float_out()
        else:
            self.dock()

    def float_out(self) -> None:
        """Move the panel's body into a window of its own (the tab says where it went)."""
        if self.tree_window is not None:
            return
        window = TreeWindow(self.window())
        window.closed.connect(self.dock)
        self.column.removeWidget(self.body)
        window.column.addWidget(self.body)
        self.body.show()
        self.floating_note.show()
        self.float_button.setText("Dock")
        self.float_button.setToolTip("Put the tree back into the engine dock")
        self.tree_window = window
        window.show()
        self.share_splitter()
        self._update_wanted()

    def dock(self) -> None:
        """Put the body back into the tab."""
        window = self.tree_window
        if window is None:
            return
        self.tree_window = None
        window.column.removeWidget(self.body)
        self.column.insertWidget(0, self.body)
        self.floating_note.hide()
        self.body.show()
        self.float_button.setText("Float")
        self.float_button.setToolTip("Show the tree in a window of its own (and back)")
        window.closed.disconnect(self.dock)
        window.close()
        window.deleteLater()
        self.share_splitter()
        self._update_wanted()

    def share_splitter(self) -> None:
        """Most of the height to the textbook view, the rest to the panes shown under it."""
        total = max(1, self.splitter.height())
        shares = {self.replay_page: REPLAY_SHARE, self.views: 0.0, self.overview_page: OVERVIEW_SHARE,
                  self.details_page: DETAILS_SHARE}
        sizes = [round(total * share) if pane.isVisibleTo(self.body) else 0 for pane, share in shares.items()]
        if sizes[0]:  # the replay's buttons, its event line and a few rows of its α-β table, whole
            sizes[0] = max(sizes[0], self.replay.minimumSizeHint().height())
        sizes[1] = max(0, total - sum(sizes))
        self.splitter.setSizes(sizes)

    # ---------------------------------------------------------------- recording
    def is_recording_wanted(self) -> bool:
        """"Record the tree" is on and the tree is on screen (this tab or its window)."""
        on_screen = self.isVisible() or (self.tree_window is not None and self.tree_window.isVisible())
        return self.record_box.isChecked() and on_screen

    def _update_wanted(self) -> None:
        wanted = self.is_recording_wanted()
        if wanted != self._wanted:
            self._wanted = wanted
            self.recording_wanted.emit(wanted)
        self._refresh_status()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if not self._splitter_shared:
            self._splitter_shared = True
            self.share_splitter()
        self._update_wanted()

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802
        super().hideEvent(event)
        self._update_wanted()

    # ---------------------------------------------------------------- internals
    def _show_tree_in_panes(self) -> None:
        """The overview and the replay read the panel's tree (the same object again: it
        grew); a hidden pane reads nothing until it is shown (reading costs the GUI time)."""
        if self.overview_page.isVisibleTo(self.body):
            self.overview.set_tree(self.tree, self.view.shown_pass_number())
        if self.replay_page.isVisibleTo(self.body):
            self.replay.set_tree(self.tree)

    def _on_replay_reached(self, index: int) -> None:
        """The replay's step: shown in the textbook view, the overview and the details."""
        if index in self.tree:
            self.overview.set_tree(self.tree, self.tree.node(index).pass_number)
            self.overview.set_marked(index)
            self.select(index)

    def _on_replay_visited(self, through: int | None) -> None:
        """Nodes the replay has not reached yet are drawn faded (``None``: no replay)."""
        self.view.set_visited_through(through)
        self.overview.set_visited_through(through)

    def _select(self, index: int) -> None:
        self.overview.set_marked(index)
        self.view.select(index)
        if self.texts is not None:
            self.details.show_node(self.tree, index, self.texts)
            self._detail_stamp = self._stamp(index)
        self.node_selected.emit(index)

    def _on_node_clicked(self, index: int) -> None:
        self._select(index)

    def _stamp(self, index: int) -> tuple[Any, ...]:
        node = self.tree.node(index)
        return (index, node.value, node.bound, len(node.children), node.skipped, node.unrecorded)

    def _on_cap_changed(self, cap: int) -> None:
        """A new cap: the recording options the next search gets (``recording_wanted`` again)."""
        self.options = dataclasses.replace(self.options, cap=cap)
        if self._wanted:
            self.recording_wanted.emit(True)

    def _on_pass_chosen(self, position: int) -> None:
        number = self.pass_box.itemData(position)
        self.view.show_pass(number)
        self.overview.set_tree(self.tree, self.view.shown_pass_number())
        shown = self.shown_pass()
        if shown is not None:
            self.pass_shown.emit(shown)

    def _reset_passes(self) -> None:
        self._stopped_marked = False
        self.pass_box.blockSignals(True)
        self.pass_box.clear()
        self.pass_box.addItem(LATEST_PASS, None)
        self.pass_box.blockSignals(False)
        self._passes_listed = 0

    def _sync_pass_box(self) -> None:
        """The box shows the pass the view draws (a selection may have moved it)."""
        self._list_passes()
        number = self.view.pass_number
        position = 0 if number is None else self.pass_box.findData(number)
        if position >= 0 and position != self.pass_box.currentIndex():
            self.pass_box.blockSignals(True)
            self.pass_box.setCurrentIndex(position)
            self.pass_box.blockSignals(False)

    def _list_passes(self) -> None:
        for tree_pass in self.tree.passes[self._passes_listed:]:
            self.pass_box.addItem(f"{tree_pass.number + 1}. {pass_title(tree_pass)}", tree_pass.number)
        self._passes_listed = len(self.tree.passes)
        if (self.tree.complete or self.tree.cancelled) and not self._stopped_marked:
            self._stopped_marked = True
            for tree_pass in self.tree.passes:
                root = tree_pass.root
                if root in self.tree and self.tree.node(root).is_open:
                    position = self.pass_box.findData(tree_pass.number)
                    self.pass_box.setItemText(position, f"{self.pass_box.itemText(position)} (stopped)")

    def _refresh(self) -> None:
        """After each layout (throttled): the pass list, the status, a pending highlight,
        and the details of a selected node that changed."""
        self._list_passes()
        self._show_tree_in_panes()
        self._try_highlight()
        selected = self.view.selected
        if selected is not None and selected in self.tree and self.texts is not None:
            stamp = self._stamp(selected)
            if stamp != self._detail_stamp:
                self._detail_stamp = stamp
                self.details.show_node(self.tree, selected, self.texts)
        self._refresh_status()

    def _try_highlight(self) -> bool:
        if not self._has_pending_move:
            return False
        root = self.view.shown_root()
        if root is None:
            return False
        match = None
        for child in self.tree.node(root).children:
            if self.tree.node(child).move == self._pending_move:
                match = child  # the last search of the move (a re-search after a probe) is its verdict
        if match is None:
            return False
        self._has_pending_move = False
        self.view.highlighted = match
        self.view.rules.opened[match] = True
        self.view.reveal(match)
        self._sync_pass_box()
        self._select(match)
        return True

    def _mostly_table_cuts(self) -> bool:
        """Whether most nodes the textbook view draws below the root are table cuts."""
        model = self.view.layout_model
        if model is None:
            return False
        kinds = [item.node_kind for item in model.items if item.kind is ItemKind.NODE and item.ply > 0]
        return bool(kinds) and sum(kind is NodeKind.TT_CUT for kind in kinds) * 2 > len(kinds)

    def _mcts_status(self) -> str:
        snapshot = self._snapshot
        if snapshot is None:
            return "Waiting for the tree…" if self._records else NOT_RECORDED
        trees = f"; {snapshot.workers} trees searched in parallel, the first shown" if snapshot.workers > 1 else ""
        finished = "" if snapshot.complete else " …"
        return (f"{snapshot.iterations:,} iterations, {snapshot.tree_size:,} nodes in the tree, "
                f"{len(snapshot.nodes_shown):,} shown{trees}{finished}")

    def _refresh_status(self) -> None:
        tree = self.tree
        texts = self.texts
        if self.settings is not None and self.settings.algorithm == NATIVE_ALGORITHM:
            self.status.setText("The compiled search records no tree.")
            return
        if self.settings is not None and self.settings.algorithm == MCTS_ALGORITHM:
            self.status.setText(self._mcts_status())
            return
        if texts is None:
            recording = "" if self.record_box.isChecked() else " Switch on \"Record the tree\" to draw it."
            self.status.setText(f"The engine's next search is drawn here.{recording}")
            return
        if not tree.nodes:
            if self._nothing_searched:
                self.status.setText(self._nothing_searched)
                return
            if tree.cancelled:
                self.status.setText(f"The {CANCELLED}: none of its tree had arrived.")
                return
            self.status.setText(f"Waiting for the tree…\n{texts.view_caption()}" if self._records else NOT_RECORDED)
            return
        # Mid-search a batch's count may lag its last entries by a node or two: every recorded
        # node was searched, so the count shown is never below the recorded one.
        # Node visits recorded: a root split's workers share each pass's root (one node drawn,
        # visited once per worker), counted as the search counts it; nodes sampled away past
        # the cap are not.
        recorded = tree.recorded_nodes
        parts = [f"{recorded:,} nodes recorded of {max(tree.searched_nodes, recorded):,} searched"]
        if tree.sampled:
            parts.append(f"sampled past {self.options.cap:,}")
        if tree.helper_nodes:
            parts.append(f"helpers searched {tree.helper_nodes:,} (not shown)")
        if self.view.layout_model is not None and self.view.layout_model.budget_reached:
            parts.append("some nodes kept closed (too many to draw)")
        if tree.helper_nodes and self._mostly_table_cuts():
            parts.append("most nodes drawn were settled by table entries the helper threads wrote: set Threads "
                         "to 1 (Settings) to draw the whole tree")
        if self.view.is_showing_stopped_pass():
            parts.append("the last pass was stopped inside: the one before it is drawn")
        if tree.cancelled:
            parts.append(CANCELLED)
        finished = "" if tree.complete or tree.cancelled else " …"
        self.status.setText(f"{'; '.join(parts)}{finished}\n{texts.view_caption()}")
