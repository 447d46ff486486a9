"""The main window: the start page and the game view, the menus and shortcuts, files,
autosave and the engine dock.

Shortcuts are the menu actions' own (F1 lists them from the actions, so the list cannot
drift): Ctrl+N new game, Ctrl+O open, Ctrl+S save, Ctrl+Z undo, Ctrl+Y / Ctrl+Shift+Z redo,
Ctrl+E set up, F flip, H hint, Space think/stop, P pause/resume, Ctrl+C / Ctrl+Shift+C copy,
Ctrl+V paste, Ctrl+Shift+D dark theme, Escape back to the live position. A shortcut with
Ctrl, Alt or Meta works wherever the focus is: a text field of the window (the move box, a
spin box) does not keep it for its own editing (``ShortcutKeeper``). Single keys are typed
into the move box while it has the focus; Escape leaves the box, and then they act.

Engine widgets (the panels helper's) plug in through ``add_engine_panel(widget, title)``
(tabs of the "Engine" dock) and ``game_view.set_eval_bar(widget)``; they connect to
``window.bridge`` (the one ``EngineBridge``) and to ``window.session_changed`` (the new
``GameSession`` of each game).
"""

from __future__ import annotations

import dataclasses
import datetime
import threading
from pathlib import Path
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from PySide6.QtCore import QByteArray, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QGuiApplication, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QFrame,
    QLabel,
    QAbstractSpinBox,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ai import options
from ai.events import Finished, Iteration, Score
from ai.settings import SearchSettings
from ai.tt import Bound
from games.backgammon.mat import MAT_EXTENSION, MatError
from games.clock import TimeControl
from gui import autosave
from gui.engine_bridge import EngineBridge
from gui.dialogs.new_game import NewGameDialog, game_title
from gui.gamefile import BACKGROUND_BYTES, GameRecord, RecordError, default_extension, one_line, read_paste, try_read_game_file, write_game
from gui.game_view import GameView
from gui.players import PlayerConfig
from gui.race import open_race
from gui.session import GameSession, Outcome, Result, named
from gui.match_session import MatchSession
from gui.settings import Settings, data_dir, stored_data_problems
from gui.panels.engine_panel import EnginePanel
from gui.panels.eval_bar import EvalBar
from gui.panels.display import player_names
from gui.panels.eval_graph import EvalGraph
from gui.panels.move_list import record_movers, sheet_moves
from gui.panels.features import FeaturesPanel
from gui.panels.settings_panel import SettingsPanel
from gui.panels.why_not import WhyNotPanel, analysis_for
from gui.panels.tree.panel import TreePanel
from gui.review.controller import ReviewController
from gui.review.panel import ReviewPanel
from gui.review.runner import ReviewRunner
from gui.start_page import StartPage
from gui.theme import BOARD_SCHEMES, DEFAULT_BOARD, THEMES, Theme, theme_named

APP_NAME = "Plyground"
NOTICE_MS = 6000
ENGINE_DOCK_SHARE = 0.3
COMPACT_WIDTH = 1000
"""Below this window width the board has priority: the game's column (players, moves,
controls) becomes the first tab of the engine dock instead of a column of its own, so that
at 900×600 the board is about 520 px instead of 260."""
GRAPH_ASPECT = 0.45
"""The eval graph's height over its width in its own tab (Lichess's is wide and low)."""
MAX_OPEN_BYTES = 5_000_000
FILE_FILTERS = "Games (*.pgn *.pdn *.json);;Chess PGN (*.pgn);;Checkers PDN (*.pdn);;Plyground JSON (*.json);;All files (*)"
ActionDef = tuple[str, str, Callable[[], object], Any]
"""A menu action: its name in ``actions_by_name``, its text, its slot and its shortcut(s)."""


COMMAND_MODIFIERS = (
    Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier
)
"""A key with one of these is a command, never text: the window's shortcut wins over a text
field's own binding of it (QLineEdit keeps Ctrl+Z, Ctrl+E, Ctrl+Home … for editing)."""
TEXT_FIELDS = (QLineEdit, QAbstractSpinBox)
EXTRA_KEYS = (
    ("← → ↑ ↓, Home, End", "Step through the moves (move list)"),
    ("Esc in the move box", "Leave the box: single-key shortcuts act again"),
)
"""Keys that are no menu action, for the F1 list."""


NUMBER_CHARACTERS = frozenset("0123456789.,+-eE")


def is_number_text(text: str) -> bool:
    """Whether a key's text can be part of a number typed into a spin box (a letter such as
    F, H or P, or a space, cannot: there it is the window's shortcut)."""
    return bool(text) and all(character in NUMBER_CHARACTERS for character in text)


class ShortcutKeeper(QObject):
    """An event filter for the window's text fields: a command key that is one of the
    window's enabled actions goes to the action, not to the field, so Ctrl+Z takes back a
    move even while the move box has the focus; in a spin box (numbers only) so do the
    single keys that cannot be part of a number. Two keys stay the field's when it has
    something to do with them: Ctrl+C with text selected copies that text, and Ctrl+V
    pastes into the field when the clipboard holds no position or game (``wants_key``)."""

    def __init__(self, actions: Callable[[], list[QAction]], wants_key: Callable[[QObject, QKeySequence], bool]) -> None:
        super().__init__()
        self._actions = actions
        self._wants_key = wants_key

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            if event.modifiers() & COMMAND_MODIFIERS or (isinstance(watched, QAbstractSpinBox) and not is_number_text(event.text())):
                pressed = QKeySequence(event.keyCombination())
                for action in self._actions():
                    if action.isEnabled() and any(pressed.matches(keys) == QKeySequence.SequenceMatch.ExactMatch for keys in action.shortcuts()):
                        if self._wants_key(watched, pressed):
                            return False
                        event.ignore()  # not overridden: the shortcut map gives it to the action
                        return True
        return super().eventFilter(watched, event)


def make_bridge() -> EngineBridge:
    """The app's one ``EngineBridge``; its worker pool starts on the first search, with as
    many processes as the engine settings' ``threads``."""
    return EngineBridge()


def result_score(result: Result) -> Score | None:
    """A finished game's result as a score for the eval bar and graph (player 0's view):
    a win over at the root (``won`` under the winner's initial), a draw even; ``None`` while
    the game goes on."""
    if result is Result.UNFINISHED:
        return None
    if result.winner is None:
        return Score(0.0, 0)
    return Score(1.0 if result.winner == 0 else -1.0, 0, 0)


def left_out_text(record: GameRecord) -> str:
    """What the reader left out of a game file (``GameRecord.left_out``: a damaged review,
    clock readings, a time control not understood), as the end of the sentence that says
    the game was opened: "" when nothing was."""
    if not record.left_out:
        return ""
    more = len(record.left_out) - 1
    return f"; left out: {one_line(record.left_out[0], 160)}" + (f" (and {more} more)" if more else "")


def saved_moves(record: GameRecord) -> int:
    """A saved game's length as its move list will number it."""
    movers = record_movers(record.game, record.start, record.moves)
    return len(record.moves) if movers is None else sheet_moves(movers, record.moves)


def apply_theme(app: QApplication, name: str, board: str = DEFAULT_BOARD) -> Theme:
    """The Fusion style with the theme's palette for every standard widget; returns the
    theme (the boards and panels paint with it)."""
    theme = theme_named(name if name in THEMES else "light", board if board in BOARD_SCHEMES else DEFAULT_BOARD)
    app.setStyle("Fusion")
    app.setPalette(theme.qpalette())
    return theme


class MainWindow(QMainWindow):
    """The app's window."""

    session_changed = Signal(object)
    """A new ``GameSession`` is shown (engine panels reset for it)."""
    file_read = Signal(object, object)
    """``(path, GameRecord or its OSError/RecordError)`` from the thread that read a large file."""
    theme_changed = Signal(str)

    def __init__(
        self,
        *,
        settings: Settings | None = None,
        bridge: Any = None,
        data_directory: Path | None = None,
        seed: int | None = None,
        offer_resume: bool = True,
        workers: int | None = None,
        review_bridge: Any = None,
    ) -> None:
        super().__init__()
        self.setWindowTitle(APP_NAME)
        self.settings = settings or Settings()
        self.data_directory = data_directory or data_dir()
        self._owns_bridge = bridge is None
        """A bridge made here is shut down here; one handed in belongs to the caller."""
        self.bridge = bridge if bridge is not None else make_bridge()
        self.workers = workers
        """Worker processes for this run (``--workers``), else the engine settings' threads."""
        self.seed = seed
        self.session: GameSession | None = None
        self.match: MatchSession | None = None
        """The backgammon match the current game belongs to (``None``: a single game)."""
        self.file_path: Path | None = None
        self._shut_down = False
        self._autosaved: tuple[int, Result] | None = None
        self._autosave_problem = ""
        """The last autosave failure shown (the same one is not repeated on every move)."""
        self._kept: tuple[int, Result] | None = None
        """The game's signature when it was last saved to or opened from ``file_path``."""

        self.stack = QStackedWidget()
        self.start_page = StartPage()
        self.game_view = GameView()
        self.stack.addWidget(self.start_page)
        self.stack.addWidget(self.game_view)
        self.setCentralWidget(self.stack)
        self._page_policies = {page: page.sizePolicy() for page in (self.start_page, self.game_view)}
        self.stack.currentChanged.connect(self._size_stack_by_shown_page)
        self._size_stack_by_shown_page()
        self.start_page.game_chosen.connect(self.choose_new_game)
        self.start_page.continue_requested.connect(self.continue_last_game)
        self.game_view.status_changed.connect(self._on_status)
        self.game_view.setup_finished.connect(self._on_setup_finished)

        self.engine_dock = QDockWidget("Engine", self)
        self.engine_dock.setObjectName("engineDock")
        self.engine_tabs = QTabWidget()
        self.engine_tabs.setObjectName("engineTabs")
        self.engine_dock.setWidget(self.engine_tabs)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.engine_dock)
        self.engine_dock.hide()
        self.engine_dock.visibilityChanged.connect(lambda _visible: QTimer.singleShot(0, self.arrange_for_size))
        self.engine_dock.topLevelChanged.connect(lambda _floating: QTimer.singleShot(0, self.arrange_for_size))
        self.engine_panel = EnginePanel()
        self.engine_panel.connect_bridge(self.bridge)
        self.eval_graph = EvalGraph()
        self._graph_stakes: list[float] = []
        self._panel_history_length = 0
        self.features_panel = FeaturesPanel()
        self.settings_panel = SettingsPanel()
        self.eval_bar = EvalBar()
        self.add_engine_panel(self.engine_panel, "Engine")
        self.graph_page = QWidget()
        graph_layout = QVBoxLayout(self.graph_page)
        self.eval_graph.set_aspect(GRAPH_ASPECT)
        graph_layout.addWidget(self.eval_graph)
        self.graph_caption = QLabel("")
        self.graph_caption.setWordWrap(True)
        self.graph_caption.setObjectName("graphCaption")
        graph_layout.addWidget(self.graph_caption)
        graph_layout.addStretch(1)
        self.add_engine_panel(self.graph_page, "Graph")
        self.add_engine_panel(self.features_panel, "Evaluation")
        self.settings_page = QScrollArea()  # a long form: it scrolls in a small window
        self.settings_page.setWidget(self.settings_panel)
        self.settings_page.setWidgetResizable(True)
        self.settings_page.setFrameShape(QFrame.Shape.NoFrame)
        self.add_engine_panel(self.settings_page, "Settings")
        self.why_not_panel = WhyNotPanel(self.bridge)
        self.add_engine_panel(self.why_not_panel, "Why not?")
        # The game review: its own bridge and pool (made on the first review unless handed in).
        self.review_panel = ReviewPanel()
        self.add_engine_panel(self.review_panel, "Review")
        self.reviews = ReviewController(
            game_view=self.game_view, eval_graph=self.eval_graph, panel=self.review_panel, settings=self.settings,
            notify=lambda message: self.notify(message), data_directory=self.data_directory,
            runner=None if review_bridge is None else ReviewRunner(review_bridge), parent=self,
        )
        self.reviews.review_changed.connect(self._on_review_changed)
        self.reviews.runner.started.connect(lambda _total: self._show_review_tab())
        # The engine panel keeps the best move's analysis while a move is searched alone.
        self.engine_panel.set_search_filter(lambda _info: not self.why_not_panel.is_starting_search())
        self.game_view.why_not_asked.connect(self._ask_why_not)
        self.game_view.resign_requested.connect(self.resign)
        self.why_not_panel.result_shown.connect(self._why_not_answered)
        self.tree_panel = TreePanel()
        self._tree_search_id: int | None = None
        """The search the tree tab draws (its answer is the tab's; why-not's is not)."""
        # Second, beside the numbers it draws: the tab bar of a narrow dock shows it unscrolled.
        self.engine_tabs.insertTab(self.engine_tabs.indexOf(self.engine_panel) + 1, self.tree_panel, "Tree")
        self.game_view.set_eval_bar(self.eval_bar)
        self.game_view.orientation_changed.connect(self.eval_bar.set_flipped)
        self.eval_graph.ply_clicked.connect(lambda ply: self.game_view.moves.moves.show_ply(ply))
        self.game_view.moves.ply_selected.connect(self._on_ply_shown)
        self.settings_panel.settings_changed.connect(self._on_engine_settings_changed)
        self._loading_panels = False
        self.theme = theme_named(self.settings.theme, self.settings.board_theme)

        self.status_label = QLabel()
        self.status_label.setObjectName("statusLabel")
        # A normal (not permanent) widget: the status bar hides it while a notice ("Saved
        # game.pgn") shows, so the notice has the room instead of being painted under it.
        self.statusBar().addWidget(self.status_label, 1)
        self._build_actions()
        self.shortcut_keeper = ShortcutKeeper(self.actions, self._text_field_wants)
        self.game_view.moves.box.installEventFilter(self.shortcut_keeper)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_focus_changed)
        self.data_problems = stored_data_problems(self.settings, self.data_directory)
        """What was found unusable at start-up (set aside; shown once, in one message)."""
        if self.data_problems:
            QTimer.singleShot(0, lambda: self.error_message("\n".join(self.data_problems)))
        self.file_read.connect(self._open_read)
        self._refresh_continue()
        geometry = self.settings.window_geometry
        if geometry is None or not self.restoreGeometry(geometry):
            self.resize(1180, 760)
        self.bridge_iteration_connection()
        self.connect_tree_panel()
        if offer_resume:
            QTimer.singleShot(0, self.offer_resume)

    # ------------------------------------------------------------------ actions
    def _action(self, text: str, slot: Any, shortcuts: Any = None, *, checkable: bool = False, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcuts is not None:
            sequences = shortcuts if isinstance(shortcuts, list) else [shortcuts]
            action.setShortcuts([QKeySequence(sequence) for sequence in sequences])
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.setCheckable(checkable)
        if tip:
            action.setStatusTip(tip)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _session_slot(self, method: str) -> Callable[[], None]:
        """A slot that calls the current session's ``method`` (and does nothing between games)."""

        def slot() -> None:
            if self.session is not None:
                getattr(self.session, method)()

        return slot

    def _build_actions(self) -> None:
        self.actions_by_name: dict[str, QAction] = {}
        menu = self.menuBar()
        game = menu.addMenu("&Game")
        defs: list[ActionDef] = [
            ("new", "&New game…", self.new_game_dialog, QKeySequence.StandardKey.New),
            ("open", "&Open…", self.open_file, QKeySequence.StandardKey.Open),
            ("save", "&Save", self.save_file, QKeySequence.StandardKey.Save),
            ("save_as", "Save &as…", self.save_file_as, QKeySequence.StandardKey.SaveAs),
        ]
        for name, text, slot, keys in defs:
            self.actions_by_name[name] = action = self._action(text, slot, keys)
            game.addAction(action)
        export = self._action(
            "Export matc&h…", self.export_match,
            tip="A backgammon match: every game so far as a Jellyfish .mat file (gnubg, eXtreme Gammon and BGBlitz import it)",
        )
        self.actions_by_name["export_match"] = export
        game.addAction(export)
        game.aboutToShow.connect(lambda: export.setEnabled(self.match is not None and self.session is not None))
        game.addSeparator()
        self.actions_by_name["resign"] = self._action("&Resign", self.resign)
        game.addAction(self.actions_by_name["resign"])
        self.actions_by_name["claim_draw"] = self._action("&Claim a draw", self._session_slot("claim_draw"))
        game.addAction(self.actions_by_name["claim_draw"])
        self.actions_by_name["next_game"] = self._action(
            "Next ga&me of the match", self.next_match_game, "Ctrl+Shift+N", tip="A backgammon match: start its next game"
        )
        game.addAction(self.actions_by_name["next_game"])
        game.addSeparator()
        review_defs: list[ActionDef] = [
            ("review", "Re&view game", self.review_game, "Ctrl+R"),
            ("next_mistake", "Ne&xt mistake", lambda: self.reviews.step_mistake(self.review_panel.side_choice(), 1), "N"),
            ("previous_mistake", "Pre&vious mistake", lambda: self.reviews.step_mistake(self.review_panel.side_choice(), -1), "Shift+N"),
        ]
        for name, text, slot, keys in review_defs:
            self.actions_by_name[name] = action = self._action(text, slot, keys)
            game.addAction(action)
        self.actions_by_name["review_after_game"] = self._action(
            "Review games when they &end", self._set_review_after_game, checkable=True,
            tip="The engine reviews every move of a game you played as soon as it ends",
        )
        self.actions_by_name["review_after_game"].setChecked(self.settings.review_after_game)
        game.addAction(self.actions_by_name["review_after_game"])
        self.actions_by_name["home"] = self._action("Start &page", self.show_start_page, "Ctrl+Home")
        game.addAction(self.actions_by_name["home"])
        game.addSeparator()
        self.actions_by_name["quit"] = self._action("&Quit", self.close, QKeySequence.StandardKey.Quit)
        game.addAction(self.actions_by_name["quit"])

        edit = menu.addMenu("&Edit")
        edit_defs: list[ActionDef] = [
            ("undo", "&Take back", self._session_slot("undo"), ["Ctrl+Z"]),
            ("redo", "&Redo", self._session_slot("redo"), ["Ctrl+Y", "Ctrl+Shift+Z"]),
            ("copy_position", "&Copy position", self.copy_position, ["Ctrl+C"]),
            ("copy_game", "Copy &game", self.copy_game, ["Ctrl+Shift+C"]),
            ("paste", "&Paste position or game", self.paste, ["Ctrl+V"]),
            ("setup", "&Set up position…", self.begin_setup, ["Ctrl+E"]),
        ]
        for name, text, slot, keys in edit_defs:
            self.actions_by_name[name] = action = self._action(text, slot, keys)
            edit.addAction(action)

        view = menu.addMenu("&View")
        self.actions_by_name["flip"] = self._action("&Flip board", self.game_view.flip, "F")
        self.actions_by_name["dark"] = self._action("&Dark theme", self._toggle_dark, "Ctrl+Shift+D", checkable=True)
        self.actions_by_name["dark"].setChecked(self.settings.theme == "dark")
        self.actions_by_name["engine_dock"] = self.engine_dock.toggleViewAction()
        self.actions_by_name["engine_dock"].setText("&Engine panel")
        self.actions_by_name["engine_dock"].setShortcut(QKeySequence("Ctrl+Shift+E"))
        self.actions_by_name["live"] = self._action("Back to the &live position", self.back_to_live, "Esc")
        self.actions_by_name["tree"] = self._action(
            "Search &tree", self.show_tree, "Ctrl+Shift+T", tip="The engine's search tree: its tab in the engine dock"
        )
        for name in ("flip", "dark", "engine_dock", "tree", "live"):
            view.addAction(self.actions_by_name[name])
        boards = view.addMenu("&Board colours")
        group = QActionGroup(self)
        self.board_actions: dict[str, QAction] = {}
        for scheme in BOARD_SCHEMES:
            action = QAction(scheme.capitalize(), self, checkable=True)
            action.setChecked(scheme == self.settings.board_theme)
            action.triggered.connect(lambda _checked=False, chosen=scheme: self.set_theme(self.settings.theme, chosen))
            group.addAction(action)
            boards.addAction(action)
            self.board_actions[scheme] = action

        engine = menu.addMenu("E&ngine")
        engine_defs: list[ActionDef] = [
            ("hint", "&Hint", self._session_slot("request_hint"), "H"),
            ("think", "&Think / stop", self._session_slot("think_or_stop"), "Space"),
            ("pause", "&Pause / resume", self.game_view.toggle_pause, "P"),
            ("race", "Algorithm &race…", lambda: open_race(self, self), None),
        ]
        for name, text, slot, keys in engine_defs:
            self.actions_by_name[name] = action = self._action(text, slot, keys)
            engine.addAction(action)
        why_not = self._action(
            "&Why not this move?", self._toggle_why_not, "W", checkable=True,
            tip="Play a move on the board to have the engine search it alone and say what it costs (Esc cancels)",
        )
        self.actions_by_name["why_not"] = why_not
        engine.addAction(why_not)
        self.game_view.why_not_mode_changed.connect(why_not.setChecked)
        self.game_view.status_changed.connect(lambda _text: self._update_why_not())

        help_menu = menu.addMenu("&Help")
        self.actions_by_name["shortcuts"] = self._action("&Keyboard shortcuts", self.show_shortcuts, "F1")
        self.actions_by_name["about"] = self._action("&About Plyground", self.show_about)
        help_menu.addAction(self.actions_by_name["shortcuts"])
        help_menu.addAction(self.actions_by_name["about"])
        self._update_actions()

    def _update_actions(self) -> None:
        in_game = self.session is not None and self.stack.currentWidget() is self.game_view
        for name in ("save", "save_as", "resign", "undo", "redo", "copy_position", "copy_game", "flip", "hint", "think", "pause", "live",
                     "review", "next_mistake", "previous_mistake"):
            self.actions_by_name[name].setEnabled(in_game)
        self.actions_by_name["setup"].setEnabled(in_game and self.game_view.can_set_up())
        self._update_why_not()
        # a loaded game that stopped at a draw nobody claimed (threefold repetition, fifty moves)
        self.actions_by_name["claim_draw"].setEnabled(in_game and self.session is not None and self.session.claimable_draw() != "")
        # in a match (it says why while no next game may start); never in a single game
        self.actions_by_name["next_game"].setEnabled(in_game and self.match is not None)

    def _on_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        """Every text field of this window that takes the focus lets the window's command
        keys through (installing the filter again is a no-op)."""
        if isinstance(new, TEXT_FIELDS) and new.window() is self:
            new.installEventFilter(self.shortcut_keeper)

    def _text_field_wants(self, field: QObject, pressed: QKeySequence) -> bool:
        """Whether a text field keeps a command key of the window for itself: Ctrl+C with
        text selected, Ctrl+V of text that is no position or game (a move to type)."""
        if not isinstance(field, QLineEdit):
            return False
        if pressed.matches(QKeySequence(QKeySequence.StandardKey.Copy)) == QKeySequence.SequenceMatch.ExactMatch:
            return field.hasSelectedText()
        if pressed.matches(QKeySequence(QKeySequence.StandardKey.Paste)) == QKeySequence.SequenceMatch.ExactMatch:
            try:
                read_paste(QGuiApplication.clipboard().text(), self.session.game if self.session else None)
            except RecordError:
                return True
        return False

    def _update_why_not(self) -> None:
        """"Why not this move?" is offered while a move may be asked about (the engine is
        not busy with the game), and stays on to be switched off."""
        in_game = self.session is not None and self.stack.currentWidget() is self.game_view
        view = self.game_view
        self.actions_by_name["why_not"].setEnabled(in_game and (view.why_not_mode or view.can_ask_why_not()))

    def _toggle_why_not(self, checked: bool) -> None:
        self.actions_by_name["why_not"].setChecked(self.game_view.set_why_not_mode(checked))

    def _ask_why_not(self, move: Any) -> None:
        """A move entered in why-not mode: the engine is asked about it, the answer shown in
        its tab of the engine dock."""
        session = self.session
        if session is None:
            return
        info, iteration = self.engine_panel.last_analysis()
        # The Tree tab on screen stays there: it records the best move's search (when no
        # analysis is at hand) and rings the asked move where that search cut it; the verdict
        # then shows in the status bar. A floated tree stays on screen in its own window.
        keeps_tree = self.tree_panel.isVisible() and not self.tree_panel.is_floating()
        self.engine_dock.show()
        if not keeps_tree:
            self.engine_tabs.setCurrentWidget(self.why_not_panel)
        self.why_not_panel.ask(session, move, analysis_for(session.state, info, iteration), self.engine_settings())

    def _why_not_answered(self, result: Any) -> None:
        """An answer shown while its tab is not (the Tree tab kept): the verdict in the status bar."""
        if self.engine_tabs.currentWidget() is self.why_not_panel:
            return
        verdict = self.why_not_panel.verdict_text()
        self.notify(verdict if result.is_best else f"{verdict.rstrip('.')} — both lines in the \"Why not?\" tab")

    def back_to_live(self) -> None:
        """Escape: back to the live position, and out of the move box (where single keys
        are text) so that F, H, Space and P act again; it also ends why-not mode and
        cancels its search."""
        self.game_view.set_why_not_mode(False)
        self.why_not_panel.cancel()
        self.game_view.show_live()
        if self.game_view.moves.box.hasFocus():
            self.game_view.leave_move_box()

    def shortcut_rows(self) -> list[tuple[str, str]]:
        """The F1 list: every action with a shortcut, in menu order, then the keys that are
        no action."""
        rows: list[tuple[str, str]] = []
        for menu in self.menuBar().actions():
            submenu = menu.menu()
            for action in submenu.actions() if isinstance(submenu, QMenu) else []:
                texts = [keys.toString(QKeySequence.SequenceFormat.NativeText) for keys in action.shortcuts() if not keys.isEmpty()]
                if texts:
                    rows.append((", ".join(texts), action.text().replace("&", "").rstrip("…")))
        return rows + list(EXTRA_KEYS)

    # ------------------------------------------------------------------ engine area
    def fit_engine_dock(self) -> None:
        """Give the engine dock about 30 % of the window's width; the board keeps the rest."""
        self.resizeDocks([self.engine_dock], [max(300, int(self.width() * ENGINE_DOCK_SHARE))], Qt.Orientation.Horizontal)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802
        super().resizeEvent(event)
        self.arrange_for_size()
        if self.engine_dock.isVisible() and not self.engine_dock.isFloating():
            self.fit_engine_dock()

    def is_compact(self) -> bool:
        """Whether the game's column is a tab of the engine dock (a small window)."""
        return self.engine_tabs.indexOf(self.game_view.side_column) >= 0

    def arrange_for_size(self) -> None:
        """A window narrower than ``COMPACT_WIDTH`` with the engine dock beside the board
        shows the game's column as the dock's first tab; otherwise beside the board."""
        compact = (
            self.width() < COMPACT_WIDTH
            and self.stack.currentWidget() is self.game_view
            and not self.engine_dock.isHidden()
            and not self.engine_dock.isFloating()
        )
        if compact == self.is_compact():
            return
        column = self.game_view.side_column
        if compact:
            self.engine_tabs.insertTab(0, column, "Game")
            self.engine_tabs.setCurrentIndex(0)
        else:
            self.engine_tabs.removeTab(self.engine_tabs.indexOf(column))
            self.game_view.restore_side_column()

    def engine_settings(self) -> SearchSettings:
        """What a search uses: the user's settings, with the textbook preset while it is on."""
        own = self.own_engine_settings()
        return options.exact(own) if self.settings.textbook else own

    def own_engine_settings(self) -> SearchSettings:
        """The user's settings (the settings panel's switches), on this run's workers."""
        settings = self.settings.engine_settings
        return settings if self.workers is None else dataclasses.replace(settings, threads=max(1, self.workers))

    def add_engine_panel(self, widget: QWidget, title: str) -> None:
        """A tab of the "Engine" dock (engine panel, eval graph, features, settings …)."""
        self.engine_tabs.addTab(widget, title)

    def _connect_panels(self, session: GameSession) -> None:
        """Point the engine widgets at a new game."""
        game_class = session.game_class
        self._loading_panels = True
        try:
            self.engine_panel.clear()
            board = self.game_view.board  # moves named as the board labels them (backgammon's points)
            self.engine_panel.set_move_namer(board.move_text, board.line_texts)
            self.why_not_panel.clear()
            self.why_not_panel.set_move_namer(board.move_text, board.line_texts)
            session.state_changed.connect(self.why_not_panel.position_changed)
            self.tree_panel.clear()
            self.tree_panel.set_move_namer(board.move_text, board.line_texts)
            self.eval_bar.set_game(game_class)
            self.eval_bar.set_side_colors(getattr(self.game_view.board, "side_colors", None))
            self.eval_graph.set_game(game_class)
            self.eval_graph.set_side_colors(getattr(self.game_view.board, "side_colors", None))
            self.eval_bar.set_match_score(session.state)  # a backgammon match: match winning chances
            self.eval_graph.set_match_score(session.state)
            first, second = player_names(game_class)
            self.graph_caption.setText(
                f"The evaluation after each move: up is {first}'s advantage, down {second}'s. "
                "Click the graph to see that position."
            )
            self.settings_panel.set_game(game_class)
            algorithm = next((side.algorithm for side in session.players if side.is_computer), None)
            own = self.own_engine_settings()
            shown = own if algorithm is None else dataclasses.replace(own, algorithm=algorithm)
            self.settings_panel.set_settings(shown, textbook=self.settings.textbook)
        finally:
            self._loading_panels = False
        session.state_changed.connect(self._update_panels)
        session.move_played.connect(self._on_move_for_panels)
        session.level_played.connect(self.engine_panel.on_level_played)  # a weak level's move, said as played
        self._panel_history_length = len(session.history)
        self._update_panels()

    def _update_panels(self) -> None:
        session = self.session
        if session is None:
            return
        scores: list[Score | None] = [None, *[entry.score for entry in session.history]]
        scores = self.reviews.with_review_scores(scores)  # a reviewed game: the review's value after every move
        final = result_score(session.result)
        if final is not None:  # the last position is over: its score is the result, not the
            scores[-1] = final  # last search's forecast ("mates in 1" after the mate)
        if len(session.history) < self._panel_history_length and not session.is_thinking:
            self.engine_panel.show_taken_back()
        self._panel_history_length = len(session.history)
        stakes = session.stakes()
        if self.eval_graph.scores != scores or stakes != self._graph_stakes:
            self._graph_stakes = stakes
            self.eval_graph.set_scores(scores, ["", *self.game_view.move_names()], stakes)
        shown = self.game_view.shown_ply()
        self.eval_graph.set_current_ply(len(scores) - 1 if shown is None else shown)  # the live position too
        if session.is_over:
            names = player_names(session.game_class)
            self.engine_panel.show_game_over(session.result.text(names), named(session.reason, names))
        else:
            self.engine_panel.clear_game_over()
        state = session.state if shown is None else session.state_at(shown)
        if not state.is_terminal():
            self.features_panel.set_state(state)
        upto = len(scores) if shown is None else shown + 1
        last = next(((score, ply) for ply, score in reversed(list(enumerate(scores[:upto]))) if score is not None), None)
        if not session.is_thinking:  # the game's evaluation, never a hint's (display.is_game_evaluation)
            self.eval_bar.set_score(None if last is None else last[0], 1.0 if last is None else stakes[last[1]])

    def _on_move_for_panels(self, entry: Any) -> None:
        if entry.score is not None and self.session is not None:
            self.eval_bar.set_score(entry.score, self.session.state.stake())

    def _on_ply_shown(self, _ply: int) -> None:
        self._update_panels()

    def _on_engine_settings_changed(self, settings: SearchSettings) -> None:
        """The settings panel: every switch applies from the next search; an algorithm
        chosen there becomes the computer sides' algorithm."""
        if self._loading_panels:
            return
        session = self.session
        self.settings.engine_settings = self.settings_panel.own_settings()
        self.settings.textbook = self.settings_panel.is_textbook()
        if session is None:
            return
        session.engine_settings = settings
        if any(side.is_computer and side.algorithm != settings.algorithm for side in session.players):
            session.players = tuple(  # type: ignore[assignment]
                dataclasses.replace(side, algorithm=settings.algorithm) if side.is_computer else side
                for side in session.players
            )
            self.settings.set_players(session.game, session.players)
            self.game_view.refresh()

    def bridge_iteration_connection(self) -> None:
        """The engine's current best move drawn on the board while it thinks."""
        signal = getattr(self.bridge, "iteration_received", None)
        if signal is not None:
            signal.connect(self._on_iteration)

    def connect_tree_panel(self) -> None:
        """The "Tree" tab: each search's recorded tree from the bridge; the bridge records
        while the tab (or its window) is on screen and "Record the tree" is on; the compiled
        search's notice switches the algorithm (the settings panel's) to Python's PVS."""
        panel = self.tree_panel
        panel.set_theme(self.theme)
        bridge = self.bridge
        bridge.search_started.connect(self._start_tree)
        bridge.tree_started.connect(self._use_tree)
        bridge.tree_batch_received.connect(panel.add_batch)
        bridge.tree_cancelled.connect(panel.search_cancelled)
        bridge.mcts_snapshot_received.connect(panel.add_snapshot)
        bridge.search_finished.connect(self._finish_tree)
        panel.recording_wanted.connect(self._set_tree_recording)
        panel.algorithm_requested.connect(self._choose_algorithm)
        self.why_not_panel.move_cut_asked.connect(panel.highlight_move)
        self.theme_changed.connect(lambda _name: panel.set_theme(self.theme))
        self._set_tree_recording(panel.is_recording_wanted())

    def show_tree(self) -> None:
        """View → Search tree: the tree's tab shown (or its floating window raised)."""
        window = self.tree_panel.tree_window
        if window is not None:
            window.show()
            window.raise_()
            window.activateWindow()
            return
        self.engine_dock.show()
        self.engine_tabs.setCurrentWidget(self.tree_panel)

    def _start_tree(self, info: Any) -> None:
        """A search started (``SearchInfo``): the tree tab forgets the last one's tree
        (not for "why not?"'s search of a move alone: the best move's tree stays, to show
        where that move was cut)."""
        if self.why_not_panel.is_starting_search():
            return
        self._tree_search_id = info.search_id
        self.tree_panel.start(info.root, type(info.root), info.settings, records=info.tree is not None)

    def _finish_tree(self, finished: Finished) -> None:
        """The answer of the search the tab draws (not why-not's search of a move alone)."""
        if finished.search_id == self._tree_search_id:
            self.tree_panel.search_finished(finished)

    def _use_tree(self, tree: Any) -> None:
        """The bridge's tree of the search just started, unless it is "why not?"'s."""
        if not self.why_not_panel.is_starting_search():
            self.tree_panel.use_tree(tree)

    def _set_tree_recording(self, wanted: bool) -> None:
        self.bridge.record_tree = self.tree_panel.options if wanted else None

    def _choose_algorithm(self, name: str) -> None:
        """The settings panel's algorithm set to ``name`` (as if chosen there)."""
        box = self.settings_panel.algorithm
        index = box.findData(name)
        if index >= 0:
            box.setCurrentIndex(index)

    def _on_iteration(self, iteration: Iteration) -> None:
        session = self.session
        if session is None or not session.is_thinking or not iteration.pv:
            return
        self.game_view.show_best_move(iteration.pv[0])
        is_playing = not session.is_finding_hint() and len(session.state.legal_moves()) > 1  # no advice, no forced reply
        if iteration.bound is Bound.EXACT and is_playing:
            self.eval_bar.set_score(iteration.score, session.state.stake())

    # ------------------------------------------------------------------ games
    def choose_new_game(self, game: str) -> None:
        """A start-page card: the new-game dialog with that game selected."""
        self.new_game_dialog(game)

    def new_game_dialog(self, game: str | None = None) -> bool:
        chosen = game if isinstance(game, str) else (self.session.game if self.session else self.settings.last_game)
        from games import GAME_NAMES

        players_for = {name: self.settings.players(name) for name in GAME_NAMES}
        time_controls = {name: self.settings.time_control(name) for name in GAME_NAMES}
        dialog = NewGameDialog(chosen, players_for, manual_dice=self.settings.manual_dice, match_length=self.settings.match_length, time_controls=time_controls, parent=self)
        with self.away_from_board():
            accepted = dialog.exec() == NewGameDialog.DialogCode.Accepted
        if not accepted:
            return False
        name, players, manual_dice = dialog.choice()
        self.settings.set_players(name, players)
        self.settings.manual_dice = manual_dice
        self.settings.set_time_control(name, dialog.time_control())
        if dialog.match_row.isVisibleTo(dialog):  # backgammon chosen: its setting follows
            self.settings.match_length = dialog.match_length()
        if dialog.match_length():
            self.start_match(players, dialog.match_length(), manual_dice=manual_dice, time_control=dialog.time_control())
            return True
        self.start_game(name, players, manual_dice=manual_dice, paused=False, time_control=dialog.time_control())
        return True

    def start_game(
        self,
        game: str,
        players: tuple[PlayerConfig, PlayerConfig],
        *,
        start: str | None = None,
        manual_dice: bool | None = None,
        record: GameRecord | None = None,
        paused: bool | None = None,
        match: MatchSession | None = None,
        time_control: TimeControl | None = None,
    ) -> GameSession:
        """Replace the current game (stopping its search) by a new one, which the engine
        searches without the last game's table. A loaded game is on the clock its record
        names (none for a record without one); a new game on ``time_control``."""
        if self.session is not None:
            self.session.close()
            # A notice speaks of the game it came from ("Hint: a3 (X +0)"): it ends with it.
            self.statusBar().clearMessage()
        self.bridge.clear_memory()
        session = GameSession(
            self.bridge,
            game,
            players,
            start=start if record is None else record.start,
            seed=self.seed if match is None else match.game_seed(self.seed),  # each game of a match its own dice
            engine_settings=self.engine_settings(),
            manual_dice=self.settings.manual_dice if manual_dice is None else manual_dice,
            paused=True if record is not None and record.moves and any(p.is_computer for p in players) else paused,
            time_control=time_control if record is None else record.time_control,
            parent=self,
        )
        if record is not None:
            session.tags = record.tags()  # an opened game saved again keeps its players, event, date
            session.load_history(record.moves, record.evaluations, record.clocks)
            session.finish_from_record(record.result, record.reason)
        self.session = session
        self._autosaved = None
        self._kept = None
        session.move_played.connect(lambda _entry: self.autosave())
        session.game_over.connect(self._on_game_over)
        session.state_changed.connect(self.autosave)
        session.state_changed.connect(self._update_actions)
        session.notice.connect(self.notify)
        session.engine_failed.connect(self._on_engine_failed)
        self.settings.last_game = game
        self.game_view.set_theme(self.theme)
        self.game_view.attach(session)
        self.stack.setCurrentWidget(self.game_view)
        if not self.engine_dock.isVisible():
            self.engine_dock.show()
            self.fit_engine_dock()
        self.arrange_for_size()
        self._update_actions()
        self.setWindowTitle(f"{game_title(game)} — {APP_NAME}")
        self._connect_panels(session)
        self._follow_match(session, match)
        self._update_actions()  # the match's own actions follow the match
        self.reviews.attach(session, None if record is None else record.review)
        self.session_changed.emit(session)
        self.autosave()
        return session

    # ------------------------------------------------------------------ matches
    def start_match(
        self,
        players: tuple[PlayerConfig, PlayerConfig],
        length: int,
        *,
        manual_dice: bool | None = None,
        time_control: TimeControl | None = None,
    ) -> GameSession:
        """A backgammon match to ``length`` points: its first game (each game of it on a
        fresh clock of ``time_control``; a flag loses the match)."""
        match = MatchSession.new(length)
        return self.start_game(
            "backgammon", players, start=match.next_start(), manual_dice=manual_dice, paused=False, match=match, time_control=time_control
        )

    def next_match_game(self) -> bool:
        """The next game of the match, once the current one is over (Game → Next game,
        the board's button; by itself after a pause with the computer on both sides)."""
        match, session = self.match, self.session
        if match is None or session is None or not match.is_between_games():
            self.notify(MatchSession.why_no_next_game(match))
            return False
        following = match.advanced()
        clock = None if session.clock is None else session.clock.control
        self.start_game("backgammon", session.players, start=following.next_start(), paused=False, match=following, time_control=clock)
        self.notify(f"Game {following.game_number()} of the match: {following.text()}")
        return True

    def _follow_match(self, session: GameSession, match: MatchSession | None) -> None:
        """The match the new game belongs to: shown on the board, its next game offered."""
        if self.match is not None:
            self.match.release()
        self.match = match if match is not None else MatchSession.for_position(session.game, session.start_text)
        if self.match is None:
            return
        board = self.game_view.board
        board.next_game_requested.connect(self.next_match_game)
        self.match.next_game_wanted.connect(self.next_match_game)
        self.match.notice.connect(self.notify)
        self.match.changed.connect(self._update_actions)
        self.match.follow(session, board)

    def begin_setup(self) -> bool:
        """Edit → Set up position: place pieces on the board (tic-tac-toe, checkers,
        chess, Othello)."""
        if self.session is None or not self.game_view.can_set_up():
            self.notify("This board has no set-up mode: paste a position instead (Ctrl+V)")
            return False
        if not self.may_replace_game("Setting up a position"):
            return False
        return self.game_view.begin_setup()

    def _on_setup_finished(self, state: Any) -> None:
        session = self.session
        if session is None:
            return
        self.file_path = None
        self.start_game(session.game, session.players, start=state.to_text(), paused=False)
        self.notify("Playing from the position you set up")

    def _size_stack_by_shown_page(self, _index: int = 0) -> None:
        """The stack asks for the room of the page it shows, not of the widest page: the start
        page's row of game cards must not keep a game (with the engine dock beside it) from
        fitting a small window. A page with the Ignored size policy is left out."""
        ignored = QSizePolicy.Policy.Ignored
        for page, policy in self._page_policies.items():
            if page is self.stack.currentWidget():
                page.setSizePolicy(policy)
            else:
                page.setSizePolicy(ignored, ignored)
        self.stack.updateGeometry()  # a hidden page's new policy does not tell the layouts itself

    def show_start_page(self) -> None:
        self.statusBar().clearMessage()  # a notice speaks of the game being left
        self._refresh_continue()
        self.stack.setCurrentWidget(self.start_page)
        self.engine_dock.hide()
        self.arrange_for_size()
        self.status_label.clear()
        self.setWindowTitle(APP_NAME)
        self._update_actions()

    def continue_last_game(self) -> bool:
        """Resume the autosaved game."""
        saved = autosave.load(self.data_directory)
        if saved is None:
            self.notify("There is no saved game to continue")
            self._refresh_continue()
            return False
        match, match_problem = MatchSession.restore(saved.match, saved.record.game, saved.record.start)
        session = self.start_game(saved.record.game, saved.players, record=saved.record, match=match)
        if match_problem:
            self.error_message(f"The autosaved game is resumed, but {match_problem}.")
        if session.clock is not None and saved.record.moves and not session.is_over:
            problem = session.restore_clock_state(saved.clock) if saved.clock is not None else "none was saved"
            self.notify(
                ("The clocks wait, paused, as they stood when the game was saved: press P to go on" if not problem
                 else f"The clocks read as after the last move ({problem}), paused: press P to go on")
                + left_out_text(saved.record)
            )
        elif saved.record.left_out:
            self.notify(f"The autosaved game is resumed{left_out_text(saved.record)}")
        return True

    def offer_resume(self) -> None:
        """After a crash or a kill during a game: offer to resume it."""
        saved = autosave.load(self.data_directory)
        if saved is None or saved.clean_exit or saved.finished or not saved.record.moves:
            return
        count = saved_moves(saved.record)
        question = (
            f"Plyground stopped during your game of {game_title(saved.record.game)} "
            f"({count} move{'s' if count != 1 else ''}). Resume where it stopped?"
        )
        if self.ask(question):
            self.continue_last_game()

    def _game_signature(self) -> tuple[int, Result] | None:
        """What a kept copy of the game is compared by: its length and result."""
        return None if self.session is None else (len(self.session.history), self.session.result)

    def may_replace_game(self, what: str) -> bool:
        """Whether ``what`` (opening a file, a paste, a set-up) may replace the current game:
        a finished game, one without moves, or one saved to a file since its last move goes
        without a word; an unfinished one only if the player says yes (``ask``), since the
        replacement cannot be taken back and the autosave then holds the new game."""
        session = self.session
        if session is None or session.is_over or not session.history or self._kept == self._game_signature():
            return True
        count = sheet_moves([entry.mover for entry in session.history], session.move_names())
        return self.ask(
            f"{what} ends your unfinished game of {game_title(session.game)} "
            f"({count} move{'s' if count != 1 else ''}); it cannot be taken back. Go on?"
        )

    def resign(self) -> bool:
        """Game → Resign and the board's Resign button: asked first (one click next to Pause
        must not end a game, or decide a match), then the session resigns."""
        session = self.session
        if session is None or session.is_over:
            return False
        names = player_names(session.game_class)
        loser = session.resigner()
        stake = ""
        resigned = None if self.match is None else self.match.if_resigned(loser)
        if resigned is not None:
            result, after = resigned
            decides = " and the match" if after.is_over else ""
            stake = f" ({result.points} point{'s' if result.points != 1 else ''}{decides})"
        if not self.ask(f"Resign for {names[loser]}? {names[1 - loser]} wins the game{stake}."):
            return False
        session.resign()
        return True

    def ask(self, question: str) -> bool:
        """A yes/no question (tests replace this)."""
        with self.away_from_board():
            answer = QMessageBox.question(self, APP_NAME, question, QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def _refresh_continue(self) -> None:
        saved = autosave.load(self.data_directory)
        if saved is None or not saved.record.moves:
            self.start_page.set_continue(None)
            return
        record = saved.record
        count = saved_moves(record)
        state = "finished" if saved.finished else "in progress"
        self.start_page.set_continue(f"{game_title(record.game)}, {count} move{'s' if count != 1 else ''}, {state}")

    def autosave(self) -> None:
        """Write the game to the autosave file (atomically) when its moves changed."""
        session = self.session
        if session is None:
            return
        signature = (len(session.history), session.result)
        if signature == self._autosaved:
            return
        try:
            autosave.save(self.data_directory, self._record_to_keep(session), session.players, finished=session.is_over,
                          match=None if self.match is None else self.match.to_dict(), clock=session.clock_state())
        except OSError as error:
            message = f"Could not autosave: {error.strerror or error}"
            if message != self._autosave_problem:  # said once, not after every move
                self._autosave_problem = message
                self.notify(message)
            return
        self._autosaved = signature
        self._autosave_problem = ""

    def _on_game_over(self, _outcome: Outcome) -> None:
        self.autosave()
        if self.session is not None:
            self.notify(self.session.status_text())
        self.reviews.game_over()

    def _record_to_keep(self, session: GameSession) -> GameRecord:
        """The game as files and the autosave keep it: with its review while it is shown."""
        record = session.to_record()
        record.review = self.reviews.review_for_saving() if session is self.session else None
        return record

    def review_game(self) -> bool:
        """Game → Review game: the engine reviews the game shown (the "Review" tab shows it)."""
        if self.session is None:
            return False
        self._show_review_tab()
        return self.reviews.start()

    def _show_review_tab(self) -> None:
        """The "Review" tab in front (a review began: after a game, as chess.com's and
        Lichess's reviews take the screen when a game ends)."""
        self.engine_dock.show()
        self.engine_tabs.setCurrentWidget(self.review_panel)

    def _set_review_after_game(self, checked: bool) -> None:
        self.settings.review_after_game = bool(checked)

    def _on_review_changed(self) -> None:
        """A review came or went: the autosave keeps it (the game's moves did not change)."""
        self._autosaved = None
        self.autosave()
        self._update_panels()

    def _on_engine_failed(self, message: str) -> None:
        self.notify(f"The engine failed: {message}")
        box = QMessageBox(QMessageBox.Icon.Warning, APP_NAME, f"The engine could not move:\n{message}\n\n"
                          "The game is paused: make the move yourself, or press Space to try again.",
                          QMessageBox.StandardButton.Ok, self)
        box.setObjectName("engineFailedBox")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    # ------------------------------------------------------------------ files
    def record_date(self) -> str:
        return datetime.date.today().strftime("%Y.%m.%d")

    def current_record(self) -> GameRecord | None:
        if self.session is None:
            return None
        record = self._record_to_keep(self.session)
        record.date = record.date or self.record_date()  # an opened game keeps its own date
        if self.match is not None:  # the game's number in the match, as far as known; the match whole
            record.round = str(self.match.game_number())
            record.match = self.match.history()
        return record

    def save_file(self) -> bool:
        if self.session is None:
            return False
        if self.file_path is None:
            return self.save_file_as()
        return self.save_to(self.file_path)

    def save_file_as(self) -> bool:
        if self.session is None:
            return False
        extension = default_extension(self.session.game)
        suggested = str(self.settings.last_folder / f"{self.session.game}-{self.record_date().replace('.', '-')}.{extension}")
        with self.away_from_board():
            path, _filter = QFileDialog.getSaveFileName(self, "Save game", suggested, FILE_FILTERS)
        if not path:
            return False
        return self.save_to(Path(path))

    def save_to(self, path: Path) -> bool:
        record = self.current_record()
        if record is None:
            return False
        extension = path.suffix.lower().lstrip(".")
        fmt = extension if extension in ("pgn", "pdn", "json") else default_extension(record.game)
        if fmt == "pgn" and record.game != "chess" or fmt == "pdn" and record.game != "checkers":
            fmt = "json"
        try:
            text = write_game(record, fmt)
            autosave.write_atomically(path, text)
        except (OSError, RecordError) as error:
            self.error_message(f"Could not save {path.name}: {getattr(error, 'strerror', None) or error}")
            return False
        self.file_path = path
        self._kept = self._game_signature()
        self.settings.last_folder = path.absolute().parent
        self.notify(f"Saved {path.name} in {path.parent}")
        return True

    def export_match(self) -> bool:
        """Game → Export match…: the backgammon match so far, every game with its moves, as a
        Jellyfish ``.mat`` file, the text gnubg, eXtreme Gammon and BGBlitz import."""
        if self.match is None or self.session is None:
            self.notify("Export match writes a backgammon match: Game → New game starts one (Backgammon, Play: Match to N points)")
            return False
        name = f"match-{self.match.length}-points-{self.record_date().replace('.', '-')}.{MAT_EXTENSION}"
        with self.away_from_board():
            path, _filter = QFileDialog.getSaveFileName(
                self, "Export match", str(self.settings.last_folder / name), f"Jellyfish match files (*.{MAT_EXTENSION});;All files (*)"
            )
        if not path:
            return False
        return self.export_match_to(Path(path))

    def export_match_to(self, path: Path) -> bool:
        """Write the match's ``.mat`` file to ``path`` (atomically; ``.mat`` added to a name
        without an extension); a game the format cannot hold as moves is said."""
        if self.match is None:
            return False
        path = path if path.suffix else path.with_suffix(f".{MAT_EXTENSION}")
        try:
            exported = self.match.mat_file(self.record_date())
            autosave.write_atomically(path, exported.text)
        except (OSError, MatError) as error:
            self.error_message(f"Could not export {path.name}: {getattr(error, 'strerror', None) or error}")
            return False
        self.settings.last_folder = path.absolute().parent
        games = self.match.game_number()
        left_out = f"; {exported.left_out[0]}" if exported.left_out else ""
        self.notify(f"Exported the match ({games} game{'s' if games != 1 else ''}) to {path.name} in {path.parent}{left_out}")
        return True

    def open_file(self) -> bool:
        with self.away_from_board():
            path, _filter = QFileDialog.getOpenFileName(self, "Open game", str(self.settings.last_folder), FILE_FILTERS)
        if not path:
            return False
        return self.open_path(Path(path))

    def open_path(self, path: Path) -> bool:
        """Load the game in ``path``; a bad file leaves the current game untouched. A file
        over ``BACKGROUND_BYTES`` is read off the GUI thread (checking the largest file
        allowed takes seconds): ``True`` then says it is being read, and ``file_read``
        brings the game or the error back to ``_open_read``."""
        try:
            large = path.stat().st_size > BACKGROUND_BYTES
        except OSError:
            large = False  # reading says why
        if large:
            self.notify(f"Reading {path.name}…")
            threading.Thread(target=self._read_in_background, args=(path,), name="read-game-file", daemon=True).start()
            return True
        return self._open_read(path, try_read_game_file(path))

    def _read_in_background(self, path: Path) -> None:
        result = try_read_game_file(path)  # size, encoding (BOMs, UTF-16) and format checked
        try:
            self.file_read.emit(path, result)  # queued to the GUI thread
        except RuntimeError:
            pass  # the window was closed while the file was read

    def _open_read(self, path: Path, result: GameRecord | OSError | RecordError) -> bool:
        if isinstance(result, OSError):
            self.error_message(f"Could not open {path.name}: {result.strerror or result}")
            return False
        if isinstance(result, RecordError):
            self.error_message(f"{path.name} is not a game Plyground can read:\n{result}")
            return False
        record = result
        if not self.may_replace_game(f"Opening {path.name}"):
            return False
        self.load_record(record)
        self.file_path = path
        self._kept = self._game_signature()
        self.settings.last_folder = path.absolute().parent
        self.notify(f"Opened {path.name}{left_out_text(record)}")
        if record.match_problem:
            self.error_message(f"{path.name} is opened, but {record.match_problem}.")
        return True

    def load_record(self, record: GameRecord) -> GameSession:
        """Play on from ``record`` (opened or pasted), in the match it keeps or names."""
        players = self.settings.players(record.game)
        return self.start_game(record.game, players, record=record, match=MatchSession.for_record(record))

    def copy_position(self) -> None:
        if self.session is not None:
            QGuiApplication.clipboard().setText(self.session.state.to_text())
            self.notify("Position copied")

    def copy_game(self) -> None:
        record = self.current_record()
        if record is not None:
            QGuiApplication.clipboard().setText(write_game(record))
            self.notify("Game copied")

    def paste(self) -> bool:
        return self.paste_text(QGuiApplication.clipboard().text())

    def paste_text(self, text: str) -> bool:
        """Start from a pasted position or game; bad text leaves the game untouched."""
        preferred = self.session.game if self.session is not None else self.settings.last_game
        try:
            record = read_paste(text, preferred)
        except RecordError as error:
            self.error_message(f"Cannot paste this:\n{error}")
            return False
        if not self.may_replace_game(f"Pasting a {'game' if record.moves else 'position'}"):
            return False
        self.file_path = None
        self.load_record(record)
        self.notify(f"Pasted a {game_title(record.game)} {'game' if record.moves else 'position'}")
        if record.match_problem:
            self.error_message(f"The game is pasted, but {record.match_problem}.")
        return True

    # ------------------------------------------------------------------ messages
    def notify(self, message: str) -> None:
        self.statusBar().showMessage(message, NOTICE_MS)

    def error_message(self, message: str) -> None:
        """A clear message that does not block the event loop (tests read ``last_error``)."""
        self.last_error = message
        self.notify(message.splitlines()[0])
        box = QMessageBox(QMessageBox.Icon.Warning, APP_NAME, message, QMessageBox.StandardButton.Ok, self)
        box.setObjectName("errorBox")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    last_error = ""

    def _on_status(self, text: str) -> None:
        if self.stack.currentWidget() is self.game_view:
            self.status_label.setText(text)

    def show_shortcuts(self) -> None:
        """Help → Keyboard shortcuts (F1): the rows of ``shortcut_rows``, in a box that does
        not block the event loop."""
        rows = "".join(f"<tr><td><b>{keys}</b></td><td>{what}</td></tr>" for keys, what in self.shortcut_rows())
        box = QMessageBox(QMessageBox.Icon.NoIcon, "Keyboard shortcuts", f"<table cellpadding=3>{rows}</table>",
                          QMessageBox.StandardButton.Ok, self)
        box.setObjectName("shortcutsBox")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def show_about(self) -> None:
        """Help → About: version, licence notice and the bundled parts' licences (gui.about)."""
        from gui.about import show_about

        with self.away_from_board():
            show_about(self)

    @contextmanager
    def away_from_board(self) -> Iterator[None]:
        """Around a modal window (New game, Open, Save as, a question, About): it keeps the
        player from the board, so a human's clock stands while it is open (a computer's runs
        on with its search)."""
        session = self.session
        if session is not None:
            session.hold_clock(True)
        try:
            yield
        finally:
            if session is not None:
                session.hold_clock(False)

    def _toggle_dark(self, checked: bool) -> None:
        self.set_theme("dark" if checked else "light")

    def set_theme(self, name: str, board: str | None = None) -> None:
        """Light or dark (and a board colour scheme) for the whole window."""
        self.settings.theme = name
        if board is not None:
            self.settings.board_theme = board
        app = QApplication.instance()
        if isinstance(app, QApplication):
            self.theme = apply_theme(app, self.settings.theme, self.settings.board_theme)
        else:
            self.theme = theme_named(self.settings.theme, self.settings.board_theme)
        self.actions_by_name["dark"].setChecked(self.settings.theme == "dark")
        for scheme, action in self.board_actions.items():
            action.setChecked(scheme == self.settings.board_theme)
        self.game_view.set_theme(self.theme)
        self.theme_changed.emit(self.settings.theme)

    # ------------------------------------------------------------------ shutdown
    def shutdown(self) -> None:
        """Stop the search, record a clean exit, end the engine's processes (idempotent)."""
        if self._shut_down:
            return
        self._shut_down = True
        if self.session is not None:
            if self.session.clock is not None:
                self._autosaved = None  # the clocks ran since the last move: keep them as they stand
            self.autosave()
            self.session.close()
        try:
            autosave.mark_clean_exit(self.data_directory)
        except OSError:
            pass
        self.settings.window_geometry = QByteArray(self.saveGeometry())
        self.settings.sync()
        self.reviews.shutdown()
        if self._owns_bridge:
            self.bridge.shutdown()
        else:
            self.bridge.stop()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        self.shutdown()
        super().closeEvent(event)
