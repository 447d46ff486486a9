"""The evaluation's feature breakdown of the current position: EVAL(s) = Σ wᵢ·fᵢ(s), one row
per named feature (weight, value, product), and the sum, from a named player's view.

The numbers come from ``state.evaluation_features(player)``; the sum equals
``state.evaluate(player)`` (a property of every game, tested in games/). Weights and values
are the evaluation's own numbers; the products and their sum are in the game's unit (pawns,
men, discs, points), as the engine panel's scores are, so Σ reads like the headline beside it.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QHeaderView, QLabel, QVBoxLayout, QWidget

from ai import display as scores
from ai.events import Score
from games.base import GameState, Player
from gui.dialogs.new_game import game_title
from gui.panels.display import FIXED_VIEW, player_names, score_text
from gui.panels.engine_panel import ALIGN_TEXT, Column, RowsModel, make_table, tabular_font

FEATURE_COLUMNS = [
    Column("Feature", "", ALIGN_TEXT),  # takes the width left, elided, its whole name in a tooltip
    Column("Weight wᵢ", "+9999"),
    Column("Value fᵢ", "+9999"),
    Column("wᵢ·fᵢ", "+99.99", tip="Weight times value, in the game's unit (the headline's)"),
]
"""The numbers' columns start as wide as their header or a typical number and grow to the
widest text of the game shown (never shrinking while it is shown, so nothing jumps)."""
PRODUCT = 3


def number_text(value: float) -> str:
    """Integers as integers (weights usually are), others with two decimals."""
    if value == int(value) and abs(value) < 1e9:
        return f"{int(value):+d}" if value else "0"
    rounded = round(value, 2)
    return f"{rounded:+.2f}" if rounded else "0"


def unit_text(value: float, game: type[GameState]) -> str:
    """An evaluation-scale number in the game's unit, as the engine panel writes scores
    (``-8`` centipawns: ``-0.08``)."""
    return scores.value_text(Score(value), game) if value else "0"


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
        self.model = RowsModel([Column(c.header, c.widest, c.align, c.tip) for c in FEATURE_COLUMNS], self)
        self.view = make_table(self.model, tabular_font(self.font()))
        self.view.setAlternatingRowColors(True)
        header = self.view.horizontalHeader()
        header.setStretchLastSection(False)  # the names take the width the numbers leave
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self._game: type[GameState] | None = None
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
            rows.append((feature.replace("_", " "), number_text(weight), number_text(value), unit_text(product, game)))
        self._fit_columns(game, rows)
        self.model.replace(rows)
        if state.is_terminal():
            self.title_label.setText(f"Game over: {state.termination_reason()}")
        elif not rows:
            self.title_label.setText(f"{game_title(game.NAME)} has no evaluation features")
        else:
            self.title_label.setText(f"EVAL for {name} = Σ wᵢ·fᵢ")
        if rows:  # the sum in the game's unit, and as the engine's headline says a score
            total_score = Score(total, player)
            self.total_label.setText(f"Σ = {unit_text(total, game)} {game.SCORE_UNIT} · {score_text(total_score, game)}")
        else:
            self.total_label.setText("")

    def _fit_columns(self, game: type[GameState], rows: Sequence[tuple[str, ...]]) -> None:
        """The numbers' columns as wide as their widest text (of this game so far)."""
        if game is not self._game:
            self._game = game
            for column, spec in enumerate(FEATURE_COLUMNS):
                self.model.columns[column].widest = spec.widest
            self.model.columns[PRODUCT].tip = f"Weight times value, in {game.SCORE_UNIT} (as the headline's score)"
        metrics = QFontMetrics(self.view.font())
        for column in range(1, len(FEATURE_COLUMNS)):
            spec = self.model.columns[column]
            widest = max((row[column] for row in rows), key=metrics.horizontalAdvance, default=spec.widest)
            if metrics.horizontalAdvance(widest) > metrics.horizontalAdvance(spec.widest):
                spec.widest = widest
            self.view.size_column(column)  # type: ignore[attr-defined]

    def rows(self) -> list[tuple[str, ...]]:
        return list(self.model.rows)
