"""What the app says about a weak level's move: the engine panel names the move played and
what its search preferred, with the score the eval graph keeps; the status bar says who is
thinking in one plain sentence; a hint in a backgammon match speaks in match winning chances."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from ai.events import Finished, Score
from ai.levels import LevelChoice
from games.backgammon.state import BackgammonState
from gui.panels import display
from gui.panels.engine_panel import EnginePanel
from gui.players import COMPUTER, HUMAN, PlayerConfig, level_note
from gui.session import GameSession, score_from_text
from gui.engine_bridge import EngineBridge
from tests.gui.engine_doubles import ScriptedPool, ThreadedEnginePool


def test_a_sides_strength_reads_in_a_sentence_without_nested_parentheses() -> None:
    level = PlayerConfig(kind=COMPUTER, strength="level", level=4).for_game("chess")
    assert level.strength_text() == "level 4, PVS search"
    assert level.describe() == "Computer (level 4, PVS search)"
    depth = PlayerConfig(kind=COMPUTER, strength="depth", depth=6, algorithm="mtdf").for_game("chess")
    assert depth.strength_text() == "MTD(f), depth 6" and depth.describe() == "Computer (MTD(f), depth 6)"
    timed = PlayerConfig(kind=COMPUTER, strength="time", seconds=2.5, algorithm="mcts").for_game("othello")
    assert timed.strength_text() == "MCTS, 2.5 s/move"
    assert PlayerConfig(kind=HUMAN).strength_text() == "" and PlayerConfig(kind=HUMAN).describe() == "Human"


def test_the_level_note_says_plainly_what_the_top_levels_share() -> None:
    """Levels that never err differ only in their search, and say so; backgammon's levels 9
    and 10 say they are the same search; the overlooking levels say they overlook moves."""
    assert "overlooks some quiet moves" in level_note("chess", 1)
    for game, first in (("chess", 6), ("checkers", 6)):
        for number in range(first, 11):
            assert f"levels {first}-10 differ only in how much they search" in level_note(game, number)
    for number in (9, 10):
        assert "levels 9 and 10 play the same two-ply search" in level_note("backgammon", number)
    assert "when that fits in its budget" in level_note("backgammon", 8)
    # Othello's top three are the compiled search, on budgets a ply or more apart.
    for number in (8, 9, 10):
        note = level_note("othello", number)
        assert note.startswith("The level picks its engine: the compiled search") and "levels 7-10" in note
    assert level_note("othello", 7).startswith("The level picks its engine: the PVS search")


def test_the_status_says_who_thinks_and_how_strong_once(qtbot: QtBot) -> None:
    pool = ScriptedPool()
    bridge = EngineBridge(pool)
    side = PlayerConfig(kind=COMPUTER, strength="level", level=4).for_game("chess")
    session = GameSession(bridge, "chess", (PlayerConfig(kind=HUMAN), side), seed=1)
    try:
        assert session.play_text("e4") is None
        qtbot.waitUntil(lambda: session.is_thinking, timeout=10_000)
        text = session.status_text()
        assert text == "Black is thinking… (level 4, PVS search)"
        assert "((" not in text and "))" not in text and text.count("(") == 1
    finally:
        session.close()
        bridge.shutdown()


def test_the_panel_says_what_a_beginner_played_and_agrees_with_the_game_record(qtbot: QtBot) -> None:
    """Chess level 1 against a human, seeded: for each of its moves the session says what it
    played; where it overlooked moves or played another than its search's best, the panel's
    status reads "Level 1 played <the move in the game> (...)", and the panel's score is the
    one kept with that move (the eval graph's and the file's), not its search's best."""
    bridge = EngineBridge(ThreadedEnginePool())  # the real engine, in a thread of this process
    beginner = PlayerConfig(kind=COMPUTER, strength="level", level=1).for_game("chess")
    panel = EnginePanel()
    panel.connect_bridge(bridge)
    session = GameSession(bridge, "chess", (PlayerConfig(kind=HUMAN), beginner), seed=3)
    choices: list[LevelChoice] = []
    session.level_played.connect(choices.append)
    session.level_played.connect(panel.on_level_played)
    checked = said = 0
    try:
        for reply in ("e4", "Nf3", "Bc4", "d4", "O-O"):
            if session.is_over or reply not in [session.state.move_name(m) for m in session.state.legal_moves()]:
                break
            moves = len(session.move_names())
            assert session.play_text(reply) is None
            qtbot.waitUntil(lambda: len(session.move_names()) == moves + 2, timeout=20_000)
            if not choices or choices[-1].move != session.history[-1].move:
                continue  # a book move or a move with no choice: the search's answer stands
            choice = choices[-1]
            played = session.move_names()[-1]
            status = panel.status_label.text()
            checked += 1
            if not choice.deviated and not choice.overlooked:  # its best among every move: said so
                assert status.startswith(f"Best move {played} ("), status
                continue
            said += 1
            assert status.startswith(f"Level 1 played {played} ("), status
            if choice.deviated:
                before = session.state_at(len(session.history) - 1)
                assert f"its search preferred {before.move_name(choice.best_move)}, " in status
            if choice.overlooked:
                assert f"it looked at {choice.looked_at} of {choice.legal} moves" in status
            kept = score_from_text(session.history[-1].evaluation, session.game_class, session.state.to_move())
            assert kept is not None
            shown = display.score_text(kept, session.game_class)
            assert panel.score_label.text() == shown  # the graph's score, the panel's score
        assert checked >= 3 and said >= 1, (checked, said)  # level 1 overlooks moves: said at least once
    finally:
        session.close()
        bridge.shutdown()
        panel.deleteLater()


def test_a_hint_in_a_backgammon_match_says_the_match_winning_chance(qtbot: QtBot) -> None:
    """At a match score the hint's notice speaks as the eval bar and the panel do: the match
    winning chance first (``display.match_odds``), not the money equity."""
    state = BackgammonState.initial(match_length=7, score=(3, 4))
    state.play(next(o for o, _ in state.chance_outcomes() if state.move_name(o) == "X 3-1"))
    pool = ScriptedPool()
    bridge = EngineBridge(pool)
    session = GameSession(bridge, "backgammon", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)),
                          start=state.to_text(), seed=1)
    notices: list[str] = []
    session.notice.connect(notices.append)
    try:
        qtbot.waitUntil(session.can_human_move, timeout=10_000)
        mover = session.state.to_move()
        session.request_hint()
        qtbot.waitUntil(lambda: len(pool.requests) == 1, timeout=10_000)
        move = session.state.legal_moves()[0]
        score = Score(0.12 * session.game_class.SCORE_UNIT_SIZE, mover)
        pool.send(1, [Finished(1, move, score, (move,), 1, 1, 10, 100.0, 0.1)])
        qtbot.waitUntil(lambda: any(text.startswith("Hint:") for text in notices), timeout=10_000)
        said = next(text for text in notices if text.startswith("Hint:"))
        odds = display.match_odds(session.state)
        assert odds is not None
        assert display.score_text(score, session.game_class, odds=odds) in said and "MWC" in said, said
    finally:
        session.close()
        bridge.shutdown()
