"""Screenshots of the engine panels fed by real searches, in light and dark palettes.

    QT_QPA_PLATFORM=offscreen python -m tools.gui_panel_screens [--out DIR]

For tic-tac-toe, chess, Othello and backgammon: a position a few moves into a game, a real
search (events delivered to the panels as the bridge would), the eval graph of the moves so
far, the feature breakdown and the settings panel. Writes ``<game>-<palette>.png``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication, QHBoxLayout, QTabWidget, QVBoxLayout, QWidget

from ai.engine import search
from ai.events import CurrentMove, Finished, Score
from ai.settings import Limits, SearchSettings
from games import new_game
from games.base import GameState
from gui.engine_bridge import SearchInfo
from gui.panels.engine_panel import EnginePanel
from gui.panels.eval_bar import EvalBar
from gui.panels.eval_graph import EvalGraph
from gui.panels.features import FeaturesPanel
from gui.panels.settings_panel import SettingsPanel
from gui.players import default_algorithm
from gui.resources import load_fonts
from gui.theme import theme_named
from tests.gui.test_readability import feed as feed_panel  # events to the panel as the bridge hands them

OPENINGS: dict[str, tuple[tuple[str, ...], SearchSettings | None, Limits]] = {
    "tictactoe": (("b2", "a1", "c3"), SearchSettings(algorithm="mcts"), Limits(nodes=4000)),
    "chess": (("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6"), None, Limits(depth=5)),
    "othello": (("d3", "c5", "f6", "f5", "e6", "e3"), None, Limits(depth=6)),
    "backgammon": (("31", "8/5 6/5", "roll", "42"), None, Limits(depth=2)),
}
"""Per game: moves to play from the start, the settings (None: the game's default), limits."""


def play_opening(name: str, moves: tuple[str, ...]) -> tuple[GameState, list[GameState]]:
    """The state after ``moves`` (dice rolls included for backgammon) and every position on
    the way, for the eval graph."""
    state = new_game(name)
    positions = [state.copy()]
    for text in moves:
        state.play_checked(state.parse_move(text))
        positions.append(state.copy())
    return state, positions


def quick_score(state: GameState) -> Score | None:
    """A shallow search's score for the graph (None at the end of the game)."""
    if state.is_terminal():
        return None
    settings = SearchSettings(algorithm=default_algorithm(type(state).NAME))
    return search(state, settings, Limits(depth=2)).score


class Screen(QWidget):
    """Eval bar, engine panel and graph on the left; features and settings in tabs."""

    def __init__(self) -> None:
        super().__init__()
        self.bar = EvalBar()
        self.panel = EnginePanel()
        self.graph = EvalGraph()
        self.features = FeaturesPanel()
        self.settings = SettingsPanel()
        left = QVBoxLayout()
        row = QHBoxLayout()
        row.addWidget(self.bar)
        row.addWidget(self.panel, 1)
        left.addLayout(row, 1)
        left.addWidget(self.graph)
        self.tabs = tabs = QTabWidget()
        tabs.addTab(self.features, "Evaluation")
        tabs.addTab(self.settings, "Settings")
        layout = QHBoxLayout(self)
        layout.addLayout(left, 3)
        layout.addWidget(tabs, 2)
        self.resize(1180, 680)


def replay(panel: EnginePanel, info: SearchInfo, events: list[object], finished: Finished | None) -> None:
    """Hand ``events`` to ``panel`` as the bridge would (``finished``: None = still thinking)."""
    panel.on_search_started(info)
    feed_panel(panel, events, finished)


def feed(screen: Screen, name: str) -> tuple[SearchInfo, list[object]]:
    moves, settings, limits = OPENINGS[name]
    state, positions = play_opening(name, moves)
    game = type(state)
    screen.settings.set_game(game)
    if settings is None:
        settings = screen.settings.settings()
    screen.settings.set_settings(settings)
    events: list[object] = []
    finished = search(state, settings, limits, on_event=events.append, search_id=1)
    info = SearchInfo(1, state.copy(), settings, limits)
    assert isinstance(finished, Finished)
    replay(screen.panel, info, events, finished)
    screen.bar.set_game(game)
    screen.bar.set_score(finished.score)
    screen.graph.set_game(game)
    screen.graph.set_scores([quick_score(position) for position in positions[:-1]] + [finished.score])
    screen.graph.set_current_ply(len(positions) - 1)
    screen.features.set_state(state)
    return info, events


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/screens/panels", help="directory for the PNGs")
    parser.add_argument("--games", nargs="*", default=list(OPENINGS), choices=list(OPENINGS))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([sys.argv[0]])
    app.setStyle("Fusion")
    load_fonts()
    for name in args.games:
        for palette_name in ("light", "dark"):
            theme = theme_named(palette_name)
            app.setPalette(theme.qpalette())
            screen = Screen()
            screen.bar.set_theme(theme)
            screen.graph.set_theme(theme)
            info, events = feed(screen, name)
            narrow = EnginePanel()  # a narrow dock, mid-search (the last current move shown)
            narrow.resize(390, 520)
            last_current = max((i for i, e in enumerate(events) if isinstance(e, CurrentMove)), default=len(events) - 1)
            replay(narrow, info, events[: last_current + 1], None)
            narrow.show()
            app.processEvents()
            narrow.grab().save(str(out / f"{name}-{palette_name}-narrow-live.png"))
            narrow.close()
            screen.show()
            app.processEvents()
            path = out / f"{name}-{palette_name}.png"
            screen.grab().save(str(path))
            print(path)
            screen.tabs.setCurrentWidget(screen.settings)
            app.processEvents()
            path = out / f"{name}-{palette_name}-settings.png"
            screen.tabs.grab().save(str(path))
            print(path)
            screen.close()
            screen.deleteLater()
            app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
