"""Screenshots of the search made visible: the tree tab (tic-tac-toe's whole tree, chess
mid-search with its cut stubs, backgammon's chance nodes, MCTS), the replay stopped half-way,
several best lines, "why not this move?" and the algorithm race with its chart, light and dark
(offscreen ``grab()``).

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m tools.gui_screens_search [--out DIR] [--only NAME ...]

The default output is ``docs/screens/search-<name>-<theme>.png``, kept in the repository for
the README. Every picture is made through the real window as a user makes it: a game started
from the new-game choices, the Tree tab opened (which switches recording on), the engine's move
or a hint searched in the pool, then the widget clicked or stepped as a person would.
"""

from __future__ import annotations

import sys
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from ai.events import Iteration
from ai.tree.model import NodeKind
from games import get_game, new_game
from gui.main_window import MainWindow
from gui.panels.tree.panel import TreePanel
from gui.players import COMPUTER, HUMAN, PlayerConfig
from gui.race import open_race
from gui.session import GameSession
from gui.settings import default_engine_settings
from tools.gui_screens import Shot, run, stop_search
from tools.gui_screens_app import settle, spin

TREE_DOCK_SHARE = 0.55
"""The engine dock's share of the window's width while the tree is shown (the app's own is
about 30 %, made for the number tables; a tree wants more room)."""
ENGINE_DOCK_SHARE = 0.45
"""The engine dock's share for the number tables with several best lines (their lines are long)."""
ITALIAN = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R b KQkq - 5 4"
"""The Italian game, four knights (Black to move): a quiet middle game with every piece to play."""
MCTS_MOVES = ("b2",)
"""Tic-tac-toe, X in the centre: O must answer in a corner (an edge loses), which MCTS learns."""
LONG_THINK_SECONDS = 60
"""The computer's time when the picture is taken mid-search (the search is stopped after)."""
CHESS_PASS_NODES = 4_000
"""Nodes of the pass being searched when the chess picture is taken: a few iterations done,
the last one well under way."""
MCTS_SECONDS = 4
MULTIPV_LINES = 3
MULTIPV_DEPTH = 5
"""Iterations done before the MultiPV picture (chess depth 5 takes the Python PVS a few seconds)."""
WHY_NOT_MOVE = "b5"
"""The student's question in the Italian game: why not chase the bishop with b5 (it drops a pawn)?"""
RACE_DEPTH = 4
RACE_SIZE = (1100, 800)
RACE_SECONDS = 600
"""Chess's minimax to depth 4 searches about 200,000 nodes per iteration: a minute or two here."""
SEARCH_SECONDS = 120
"""The longest any search of these pictures may take before the picture is given up."""


def widen_engine_dock(window: MainWindow, share: float = TREE_DOCK_SHARE) -> None:
    window.resizeDocks([window.engine_dock], [int(window.width() * share)], Qt.Orientation.Horizontal)
    settle()


def start(
    window: MainWindow, game: str, first: PlayerConfig, second: PlayerConfig,
    *, position: str | None = None, moves: tuple[str, ...] = (),
) -> GameSession:
    """A new game, paused, as the new-game dialog starts it with these two sides, from a
    pasted position (``position``, or the one ``moves`` reach from the start)."""
    if moves:
        state = new_game(game) if position is None else get_game(game).from_text(position)
        for move in moves:
            state.play_checked(state.parse_move(move))
        position = state.to_text()
    session = window.start_game(game, (first.for_game(game), second.for_game(game)), start=position, manual_dice=False, paused=True)
    settle()
    return session


def wait_for_search(window: MainWindow) -> None:
    session = window.session
    assert session is not None
    spin(lambda: session.is_thinking, 10)
    if not spin(lambda: not session.is_thinking, SEARCH_SECONDS):
        raise RuntimeError(f"the search in {session.game} did not finish in {SEARCH_SECONDS} s")
    settle(400)


def open_tree_tab(window: MainWindow) -> TreePanel:
    """The engine dock's "Tree" tab, shown (so the next search records its tree)."""
    panel = window.tree_panel
    window.engine_tabs.setCurrentWidget(panel)
    widen_engine_dock(window)
    return panel


def use_settings(window: MainWindow, **changes: object) -> None:
    """The settings panel's switches for the next game, as a user sets them there (the
    others at their defaults, whatever the last picture changed). The opening book is off:
    a move from the book is played without a search, so there would be no tree to show."""
    window.settings.engine_settings = replace(default_engine_settings(), book=False, **changes)  # type: ignore[arg-type]
    window.settings.textbook = False


def show_panes(panel: TreePanel, **heights: int) -> None:
    """The Show menu's panes under the tree: those named shown with their height (pixels,
    ``views`` the tree itself), the others hidden, as a user drags the splitter."""
    for name, action in panel.pane_actions.items():
        action.setChecked(name.lower() in heights)
    settle()
    pages = {"replay": panel.replay_page, "views": panel.views, "overview": panel.overview_page, "details": panel.details_page}
    sizes = [0] * panel.splitter.count()
    for name, height in heights.items():
        sizes[panel.splitter.indexOf(pages[name])] = height
    panel.splitter.setSizes(sizes)
    settle()


def tree_tictactoe(window: MainWindow) -> QWidget:
    """Tic-tac-toe from the empty board: the computer (X) searches the whole game, nine
    plies, with alpha-beta and move ordering, no table and one thread, so that every node
    it visits is in the one tree drawn."""
    use_settings(window, transposition_table=False, iterative_deepening=False, threads=1)
    computer = PlayerConfig(kind=COMPUTER, algorithm="alphabeta", strength="depth", depth=9)
    session = start(window, "tictactoe", computer, PlayerConfig(kind=HUMAN))
    panel = open_tree_tab(window)
    show_panes(panel, views=420, overview=230)
    session.step()
    wait_for_search(window)
    return window


def replay(window: MainWindow) -> QWidget:
    """Tic-tac-toe's whole tree again, the replay bar open and stepped half-way through the
    search, then on to the next cut-off: the path's windows as the search held them there,
    the nodes not yet visited faded."""
    tree_tictactoe(window)
    panel = window.tree_panel
    show_panes(panel, replay=270, views=300, overview=110)
    bar = panel.replay
    steps = bar.replay
    assert steps is not None, "the replay has no tree"
    bar.go_to(len(steps) // 2)
    bar.next_cut()
    settle(400)
    return window


def tree_chess(window: MainWindow) -> QWidget:
    """Chess, the Italian game: the computer (Black, PVS, one thread) thinks for long; the
    picture is taken mid-search, the latest iteration growing, the root moves' refutations
    and the cut stubs of the moves they pruned in view."""
    use_settings(window, threads=1)
    computer = PlayerConfig(kind=COMPUTER, algorithm="pvs", strength="time", seconds=LONG_THINK_SECONDS)
    session = start(window, "chess", PlayerConfig(kind=HUMAN), computer, position=ITALIAN)
    panel = open_tree_tab(window)
    session.step()

    grown: list[int] = []

    def latest_pass_grown() -> bool:
        tree = panel.tree  # a new tree when the search starts
        if tree.passes and tree.pass_nodes(tree.passes[-1].number) >= CHESS_PASS_NODES:
            grown.append(tree.passes[-1].number)
        return bool(grown)

    spin(latest_pass_grown, SEARCH_SECONDS)
    show_panes(panel, views=430, overview=150, details=170)
    shown = grown[0] if grown else len(panel.tree.passes) - 1
    # That pass chosen in the pass box (once listed), so the view stays on it when the next begins.
    spin(lambda: panel.pass_box.findData(shown) >= 0, 5)
    panel.pass_box.setCurrentIndex(panel.pass_box.findData(shown))
    tree = panel.tree
    root = tree.node(tree.passes[shown].root)
    cut = next((child for child in tree.children(root.index) if child.skipped), None)
    if cut is not None:  # a root move refuted: its refutation and the moves it pruned
        panel.view.set_open(cut.index, True)
        panel.select(cut.index)
        settle(600)
        panel.view.centre_on(cut.index)
    settle(300)
    return window


def tree_backgammon(window: MainWindow) -> QWidget:
    """Backgammon after the opening roll: Star2 two plies deep, so that below each of the
    computer's plays the chance node's 21 rolls show with their probabilities."""
    use_settings(window, threads=1)
    computer = PlayerConfig(kind=COMPUTER, algorithm="star2", strength="depth", depth=2)
    session = start(window, "backgammon", computer, computer)  # whoever wins the opening roll, the computer moves
    panel = open_tree_tab(window)
    show_panes(panel, views=470, overview=120, details=160)
    session.step()  # the opening roll
    spin(lambda: session.is_computer_turn(), 5)
    session.step()
    wait_for_search(window)
    tree = panel.tree
    line = tree.principal_variation(tree.passes[-1].root)
    chance = next((node for node in line if node.kind is NodeKind.CHANCE), None)
    if chance is not None:  # the dice below the computer's play: the 21 rolls
        panel.select(chance.index)
    settle(400)
    return window


def tree_mcts(window: MainWindow) -> QWidget:
    """MCTS on tic-tac-toe where O must block (X threatens the a1-c3 diagonal) for a few
    seconds: per move its visits, mean value, exploration term and UCT total, and the visits
    growing unevenly over the iterations, the block taking more and more of them."""
    use_settings(window, threads=1)
    computer = PlayerConfig(kind=COMPUTER, algorithm="mcts", strength="time", seconds=MCTS_SECONDS)
    session = start(window, "tictactoe", PlayerConfig(kind=HUMAN), computer, moves=MCTS_MOVES)
    open_tree_tab(window)
    session.step()
    wait_for_search(window)
    return window


def multipv(window: MainWindow) -> QWidget:
    """Chess, the Italian game, three best lines: the Engine tab while the computer thinks,
    each line with its own score, a few iterations in."""
    use_settings(window, threads=1, multipv=MULTIPV_LINES)
    computer = PlayerConfig(kind=COMPUTER, algorithm="pvs", strength="time", seconds=LONG_THINK_SECONDS)
    session = start(window, "chess", PlayerConfig(kind=HUMAN), computer, position=ITALIAN)
    window.engine_tabs.setCurrentWidget(window.engine_panel)
    widen_engine_dock(window, ENGINE_DOCK_SHARE)
    depths: list[int] = []

    def note(iteration: Iteration) -> None:
        depths.append(iteration.depth)

    window.bridge.iteration_received.connect(note)
    session.step()
    spin(lambda: max(depths, default=0) >= MULTIPV_DEPTH, SEARCH_SECONDS)
    window.bridge.iteration_received.disconnect(note)
    settle(300)
    return window


def why_not(window: MainWindow) -> QWidget:
    """"Why not this move?" on the Italian game: the human (Black), with the Tree tab open,
    asks why not ``WHY_NOT_MOVE`` before any analysis: the engine first searches the position
    for its best move (the PVS the computer side plays, its tree recorded; a hint would be
    the compiled search, which records none), then the move alone to that depth, and
    answers with its refutation; the tree rings the move where the best move's search cut it."""
    use_settings(window, threads=1)
    computer = PlayerConfig(kind=COMPUTER, algorithm="pvs", strength="level")
    session = start(window, "chess", computer, PlayerConfig(kind=HUMAN), position=ITALIAN)
    open_tree_tab(window)
    session.set_paused(False)
    window.actions_by_name["why_not"].trigger()
    panel = window.why_not_panel
    window.game_view.board.move_requested.emit(session.state.parse_move(WHY_NOT_MOVE))
    if not spin(lambda: panel.result is not None, SEARCH_SECONDS):
        raise RuntimeError("why not: no answer")
    settle(400)
    return window


def race(window: MainWindow) -> QWidget:
    """The algorithm race on chess's start position, depth 4, every entrant: the table, the
    verdict and the chart of nodes per depth beside b^d and b^(d/2), once the race is over."""
    start(window, "chess", PlayerConfig(kind=HUMAN), PlayerConfig(kind=COMPUTER))
    dialog = open_race(window, window)
    assert dialog is not None
    dialog.resize(*RACE_SIZE)
    dialog.depth_box.setValue(RACE_DEPTH)
    finished: list[object] = []
    dialog.race_finished.connect(finished.append)
    dialog.start()
    if not spin(lambda: bool(finished), RACE_SECONDS):
        raise RuntimeError(f"the race did not finish in {RACE_SECONDS} s")
    settle(400)
    return dialog


SHOTS: tuple[Shot, ...] = (
    Shot("tree-tictactoe", tree_tictactoe),
    Shot("tree-chess", tree_chess),
    Shot("replay", replay),
    Shot("tree-backgammon", tree_backgammon),
    Shot("tree-mcts", tree_mcts),
    Shot("multipv", multipv),
    Shot("why-not", why_not),
    Shot("race", race),
)


def main() -> int:
    return run(SHOTS, "search", __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
