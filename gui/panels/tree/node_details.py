"""The details of one node of the recorded tree: its position on a small board, the path
from the root in the game's notation, its α-β window, its value and bound, its kind, the
depth left, how many nodes its subtree holds, and the cut-off it made.

The board is the game's own board widget (``gui.boards``), drawn off screen into a picture:
the pane shows the position without taking the board's input or its minimum size, so it
fits a narrow dock.
"""

from __future__ import annotations

import math
from typing import cast

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QFormLayout, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from ai.tree.model import NodeKind, SearchTree
from games.base import GameState
from gui.boards import BoardWidget, board_for
from gui.panels.tree.node_text import BOUND_WORDS, KIND_WORDS, NodeTexts
from gui.theme import LIGHT, Theme

BOARD_PIXELS = 150
"""The picture's side in the pane."""
BOARD_RENDER = 360
"""The board is drawn this large and scaled down, so its text and pieces stay sharp."""
NULL_WINDOW_WIDTH = 1.0
"""A window this narrow (one unit of the search scale) is a null window (PVS, MTD(f))."""
OPEN_WALK_LIMIT = 20_000
"""A node still being searched is counted at most this far each time the pane refreshes
(about four times a second), so a selected root of a growing 100,000-node tree costs little."""
SIZE_CACHE_LIMIT = 4096
"""Closed nodes whose subtree counts are kept (a replay steps through many)."""
NO_NODE = "Click a node of the tree to see its position, window and value here."


class NodeDetails(QWidget):
    """What one node is; ``show_node(tree, index, texts)`` fills it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._theme: Theme = LIGHT
        self._board: BoardWidget | None = None
        self._game: type[GameState] | None = None
        self.index: int | None = None
        self._sizes: dict[int, tuple[int, int, int]] = {}
        """Node -> (recorded, visits, unrecorded) of the closed nodes of ``_sized_tree`` counted."""
        self._sized_tree: SearchTree | None = None
        self.picture = QLabel()
        self.picture.setObjectName("treeNodeBoard")
        self.picture.setFixedSize(BOARD_PIXELS, BOARD_PIXELS)
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.heading = QLabel(NO_NODE)
        self.heading.setWordWrap(True)
        self.heading.setObjectName("treeNodeHeading")
        self.rows: dict[str, QLabel] = {}
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        for name in ("Path", "Kind", "Window", "Value", "Depth left", "Subtree", "Cut-off"):
            label = QLabel("")
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            self.rows[name] = label
            form.addRow(f"{name}:", label)
        text_column = QVBoxLayout()
        text_column.addWidget(self.heading)
        text_column.addLayout(form)
        text_column.addStretch(1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.picture, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(text_column, 1)
        self.clear()

    def set_theme(self, theme: Theme) -> None:
        self._theme = theme
        if self._board is not None:
            self._board.set_theme(theme)

    def clear(self) -> None:
        self.index = None
        self.heading.setText(NO_NODE)
        for label in self.rows.values():
            label.setText("")
        self.picture.clear()
        self.picture.setVisible(False)

    def text(self, row: str) -> str:
        """A row's text (``"Path"``, ``"Window"`` ...), as shown."""
        return self.rows[row].text()

    def show_node(self, tree: SearchTree, index: int, texts: NodeTexts) -> None:
        """Fill the pane with node ``index`` of ``tree``, named by ``texts``."""
        if index not in tree:
            self.clear()
            return
        self.index = index
        node = tree.node(index)
        path = tree.path(index)
        ply = len(path) - 1
        number = node.pass_number + 1
        self.heading.setText(f"<b>{node.kind.symbol} Node {index:,}</b> — pass {number}, ply {ply}")
        self.rows["Path"].setText(texts.path_text(tree, index))
        kind = KIND_WORDS[node.kind]
        if node.kind.is_decision:
            kind = f"{kind} ({texts.player_name(texts.root_player if node.kind is NodeKind.MAX else 1 - texts.root_player)})"
        self.rows["Kind"].setText(kind)
        window = f"α, β = {texts.window_text(node.alpha, node.beta)}"
        if node.beta - node.alpha <= NULL_WINDOW_WIDTH:
            window += " — a null window: a test whether the value is above α, not a search for it"
        self.rows["Window"].setText(window)
        if node.is_open:
            value = "not returned yet (the search is inside this node, or stopped there)"
        else:
            value = f"{texts.value_text(node.value, node.bound, compact=False)}: {BOUND_WORDS[node.bound]}"
        self.rows["Value"].setText(value)
        depth = node.depth
        depth_text = f"{depth:g} {'ply' if depth == 1 else 'plies'}" if not math.isnan(depth) else "–"
        self.rows["Depth left"].setText(depth_text)
        if tree is not self._sized_tree:
            self._sizes.clear()
            self._sized_tree = tree
        known = self._sizes.get(index) if not node.is_open else None
        recorded = unrecorded = visits = 0
        limit = OPEN_WALK_LIMIT if node.is_open else None
        if known is not None:
            recorded, visits, unrecorded = known
        else:
            for member in tree.subtree(index):  # one walk for the counts (a root's is the whole pass)
                recorded += 1
                visits += member.visits  # a root split's shared root: once per worker
                unrecorded += member.unrecorded
                if limit is not None and recorded >= limit:
                    break
            if not node.is_open:  # a closed node's subtree never changes: counted once
                if len(self._sizes) > SIZE_CACHE_LIMIT:
                    self._sizes.clear()
                self._sizes[index] = (recorded, visits, unrecorded)
        size = visits + unrecorded
        if limit is not None and recorded >= limit:
            subtree = f"more than {size:,} nodes so far"
        else:
            subtree = f"{size:,} node{'s' if size != 1 else ''} searched{' so far' if node.is_open else ''}"
        if unrecorded:
            subtree += f" ({unrecorded:,} past the cap, not recorded)"
        subtree += f"; {len(node.children):,} child{'ren' if len(node.children) != 1 else ''} recorded"
        self.rows["Subtree"].setText(subtree)
        if node.was_cut:
            skipped = texts.skipped_names(tree, node)
            pruned = f"; pruned {len(skipped)}: {', '.join(skipped)}" if skipped else "; nothing left to prune"
            self.rows["Cut-off"].setText(texts.cut_label(tree, node) + pruned)
        else:
            self.rows["Cut-off"].setText("none")
        self._show_position(texts.position(tree, index), node.move if node.parent in tree else None)

    def _show_position(self, state: GameState, move: object) -> None:
        board = self._board_for(type(state))
        if board is None:
            self.picture.setVisible(False)
            return
        board.set_state(state)
        board.set_last_move(move)
        pixmap: QPixmap = board.grab()
        self.picture.setPixmap(pixmap.scaled(BOARD_PIXELS, BOARD_PIXELS, Qt.AspectRatioMode.KeepAspectRatio,
                                             Qt.TransformationMode.SmoothTransformation))
        self.picture.setVisible(True)

    def _board_for(self, game: type[GameState]) -> BoardWidget | None:
        """The game's board, made once per game, never shown (drawn into the picture)."""
        if self._game is not game:
            self._game = game
            try:
                board_class = board_for(game.NAME)
            except (ValueError, ImportError):
                self._board = None
                return None
            board = cast(type[BoardWidget], board_class)(self._theme)
            board.animation_ms = 0
            board.set_interactive(False)
            board.resize(BOARD_RENDER, BOARD_RENDER)
            self._board = board
        return self._board
