"""The evaluation's feature breakdown of the current position: EVAL(s) = Σ wᵢ·fᵢ(s), one row
per named feature (weight, value, product), and the sum, from a named player's view.

The numbers come from ``state.evaluation_features(player)``; the sum equals
``state.evaluate(player)`` (a property of every game, tested in games/).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QTableView, QVBoxLayout, QWidget

from games.base import GameState, Player
from gui.dialogs.new_game import game_title
from gui.panels.display import FIXED_VIEW, player_names
from gui.panels.engine_panel import ALIGN_TEXT, Column, RowsModel, make_table, tabular_font

FEATURE_COLUMNS = [
    Column("Feature", "king_passer_distance__", ALIGN_TEXT),  # the longest name (chess), and room
    Column("Weight wᵢ", "-9999.00"),
    Column("Value fᵢ", "-9999.00"),
    Column("wᵢ·fᵢ", "-99999.00"),
]


def number_text(value: float) -> str:
    """Integers as integers (weights usually are), others with two decimals."""
    if value == int(value) and abs(value) < 1e9:
        return f"{int(value):+d}" if value else "0"
    rounded = round(value, 2)
    return f"{rounded:+.2f}" if rounded else "0"


class FeaturesPanel(QWidget):
    """Shows the feature breakdown of a state; ``set_state`` after every move."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.title_label = QLabel("Evaluation")
        self.title_label.setObjectName("featuresTitle")
        self.title_label.setWordWrap(True)
        layout.addWidget(self.title_label)
        self.model = RowsModel([Column(c.header, c.widest, c.align) for c in FEATURE_COLUMNS], self)
        self.view: QTableView = make_table(self.model, tabular_font(self.font()))
        self.view.setAlternatingRowColors(True)
        layout.addWidget(self.view, 1)
        self.total_label = QLabel("")
        self.total_label.setObjectName("featuresTotal")
        bold = QFont(self.font())
        bold.setBold(True)
        self.total_label.setFont(bold)
        self.total_label.setAlignment(Qt.AlignmentFlag.AlignRight)
        layout.addWidget(self.total_label)

    def set_state(self, state: GameState | None, player: Player | None = None) -> None:
        """Break down EVAL of ``state`` for ``player`` (default: player 0, the view of every
        score in the panels)."""
        if state is None:
            self.model.clear()
            self.title_label.setText("Evaluation")
            self.total_label.setText("")
            return
        game = type(state)
        if player is None:
            player = FIXED_VIEW
        features = state.evaluation_features(player)
        name = player_names(game)[player]
        rows = []
        total = 0.0
        for feature, (weight, value) in features.items():
            product = weight * value
            total += product
            rows.append((feature.replace("_", " "), number_text(weight), number_text(value), number_text(product)))
        self.model.replace(rows)
        if state.is_terminal():
            self.title_label.setText(f"Game over: {state.termination_reason()}")
        elif not rows:
            self.title_label.setText(f"{game_title(game.NAME)} has no evaluation features")
        else:
            self.title_label.setText(f"EVAL for {name} = Σ wᵢ·fᵢ")
        self.total_label.setText(f"Σ = {number_text(total)}" if rows else "")

    def rows(self) -> list[tuple[str, ...]]:
        return list(self.model.rows)
