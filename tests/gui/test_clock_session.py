"""Clocks in a game: increments, flag fall with the right result, pause, take-back restoring
the readings of the position, a computer's flag stopping the engine. Time is a fake
``now()`` handed to the session: nothing sleeps, nothing depends on the machine's speed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from ai.events import Finished, Score
from games.clock import TimeControl
from gui.engine_bridge import EngineBridge
from gui.players import COMPUTER, HUMAN, PlayerConfig
from gui import session as session_module
from gui.session import GameSession, Result
from tests.gui.engine_doubles import ScriptedPool

HUMAN_SIDE = PlayerConfig(kind=HUMAN)
BLITZ = TimeControl.of(180, 2)
"""3+2: three minutes, two seconds added after each move."""


class FakeTime:
    """A clock a test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def make_session(bridge: Any, fake_time: FakeTime) -> Iterator[Callable[..., GameSession]]:
    made: list[GameSession] = []

    def make(game: str, players: tuple[PlayerConfig, PlayerConfig], control: TimeControl | None = BLITZ, **options: Any) -> GameSession:
        session = GameSession(bridge, game, players, seed=1, time_control=control, clock_now=fake_time, **options)
        made.append(session)
        return session

    yield make
    for session in made:
        session.close()


def play(session: GameSession, fake_time: FakeTime, moves: list[tuple[str, float]]) -> None:
    """Each move after thinking the seconds given."""
    for name, seconds in moves:
        fake_time.advance(seconds)
        assert session.play_text(name) is None, name


def remaining(session: GameSession) -> tuple[float, float]:
    readings = session.clock_readings()
    assert readings is not None
    return readings.remaining


def test_a_game_without_a_time_control_has_no_clock(make_session: Callable[..., GameSession], fake_time: FakeTime) -> None:
    session = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE), control=None)
    play(session, fake_time, [("e4", 5)])
    assert session.clock is None and session.clock_readings() is None
    assert session.history[0].clock is None


def test_each_move_costs_its_time_and_earns_the_increment(make_session: Callable[..., GameSession], fake_time: FakeTime) -> None:
    session = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE))
    # Each side's first move is untimed (Lichess): 30 s of thought cost nothing, earn nothing.
    play(session, fake_time, [("e4", 30), ("e5", 30)])
    assert remaining(session) == (180, 180)
    assert [entry.clock for entry in session.history] == [180, 180]
    # From then on: 180 - 10 + 2 = 172 for White, 180 - 25 + 2 = 157 for Black.
    play(session, fake_time, [("Nf3", 10), ("Nc6", 25)])
    assert [entry.clock for entry in session.history[2:]] == [172, 157]
    fake_time.advance(4)
    readings = session.clock_readings()
    assert readings is not None and readings.turn == 0 and readings.running
    assert readings.remaining == (168, 157)  # White's clock runs, Black's stands


def test_the_flag_ends_the_game_at_once_with_a_loss(qtbot: QtBot, make_session: Callable[..., GameSession], fake_time: FakeTime) -> None:
    session = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE))
    play(session, fake_time, [("e4", 1), ("e5", 1), ("Nf3", 100)])
    fake_time.advance(179.9)  # Black has 180: 0.1 s left
    assert not session.check_flag() and not session.is_over
    fake_time.advance(0.2)
    with qtbot.waitSignal(session.game_over, timeout=1000) as over:
        assert session.check_flag()
    assert over.args[0].result is Result.FIRST_WINS
    assert session.reason == "Black ran out of time"
    assert session.status_text() == "White wins — Black ran out of time"
    readings = session.clock_readings()
    assert readings is not None and readings.flagged == 1 and readings.remaining[1] == 0 and not readings.running
    assert not session.can_human_move()


def test_a_flag_against_a_lone_king_is_a_draw(qtbot: QtBot, make_session: Callable[..., GameSession], fake_time: FakeTime) -> None:
    """FIDE Laws 6.9: the flag loses unless the opponent cannot checkmate by any series of
    legal moves; then the game is drawn."""
    # White has king and queen, Black a lone king: Black's flag loses, White's flag draws.
    start = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"
    session = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE), start=start)
    play(session, fake_time, [("Qd2", 1), ("Kf7", 1)])
    fake_time.advance(181)
    assert session.check_flag()
    assert session.result is Result.DRAW and "cannot checkmate" in session.reason

    black_flags = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE), start=start)
    play(black_flags, fake_time, [("Qd2", 1), ("Kf7", 1), ("Qd3", 1)])
    fake_time.advance(181)
    assert black_flags.check_flag()
    assert black_flags.result is Result.FIRST_WINS and black_flags.reason == "Black ran out of time"


def test_a_move_made_after_the_flag_fell_does_not_count(make_session: Callable[..., GameSession], fake_time: FakeTime) -> None:
    session = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE))
    play(session, fake_time, [("e4", 1), ("e5", 1)])
    fake_time.advance(200)  # the flag timer was late: the move comes after White's time ran out
    session.play_text("Nf3")
    assert session.move_names() == ["e4", "e5"]
    assert session.result is Result.SECOND_WINS and session.reason == "White ran out of time"


def test_pausing_stops_the_clocks(make_session: Callable[..., GameSession], fake_time: FakeTime) -> None:
    session = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE))
    play(session, fake_time, [("e4", 1), ("e5", 1)])
    fake_time.advance(10)
    session.set_paused(True)
    fake_time.advance(500)  # far past the flag, but paused
    assert remaining(session) == (170, 180)
    assert not session.check_flag()
    assert "clocks are paused" in session.status_text()
    readings = session.clock_readings()
    assert readings is not None and not readings.running
    session.set_paused(False)
    fake_time.advance(5)
    assert remaining(session) == (165, 180)


def test_take_back_and_redo_never_give_time_back(make_session: Callable[..., GameSession], fake_time: FakeTime) -> None:
    """A take-back leaves the clocks as they read, the player to move on the clock: else a
    player could think, take back and replay the same moves with the time refunded. A redo
    neither: its moves carry the readings of now, so the game's readings never run back."""
    session = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE))
    play(session, fake_time, [("e4", 1), ("e5", 1), ("Nf3", 20), ("Nc6", 30)])
    assert remaining(session) == (162, 152)
    play(session, fake_time, [("Bb5", 40), ("a6", 50)])
    assert remaining(session) == (124, 104)
    fake_time.advance(41)  # White thinks 41 s after a6, then takes back
    session.undo()  # two humans: one move back at a time; Black to move, on the clock
    assert session.move_names() == ["e4", "e5", "Nf3", "Nc6", "Bb5"]
    assert remaining(session) == (83, 104)
    fake_time.advance(4)
    assert remaining(session) == (83, 100)
    session.undo()  # White to move after Nc6: White's clock runs from what it read
    assert remaining(session) == (83, 100)
    fake_time.advance(3)
    session.redo()  # Black to move after Bb5 again: nothing refunded, Black's clock on
    assert remaining(session) == (80, 100) and session.history[-1].clock == 80
    session.redo()
    assert session.move_names()[-1] == "a6" and remaining(session) == (80, 100) and session.history[-1].clock == 100
    readings = [entry.clock for entry in session.history]
    assert [readings[index] for index in (0, 2, 4)] == [180, 162, 80] and [readings[index] for index in (1, 3, 5)] == [180, 152, 100]
    for _ in range(6):
        session.undo()  # back to the start: the clocks still read what they did
    assert session.history == [] and remaining(session) == (80, 100)


def test_a_game_lost_on_time_cannot_be_taken_back(make_session: Callable[..., GameSession], fake_time: FakeTime) -> None:
    session = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE))
    play(session, fake_time, [("e4", 1), ("e5", 1), ("Nf3", 30)])
    assert session.can_undo()
    fake_time.advance(500)
    assert session.check_flag() and session.is_over
    assert not session.can_undo()
    session.undo()  # refused: the flag stays fallen
    assert session.is_over and session.move_names() == ["e4", "e5", "Nf3"] and remaining(session)[1] == 0


def test_the_computer_flagging_stops_its_search(qtbot: QtBot, fake_time: FakeTime) -> None:
    """The engine's search is stopped the moment its side's flag falls; its late answer is
    dropped (the pool double answers only when told to)."""
    pool = ScriptedPool()
    bridge = EngineBridge(pool)
    thinker = PlayerConfig(kind=COMPUTER, strength="time", seconds=30.0).for_game("chess")
    session = GameSession(bridge, "chess", (HUMAN_SIDE, thinker), seed=1, time_control=BLITZ, clock_now=fake_time)
    try:
        session.play_text("e4")
        qtbot.waitUntil(lambda: len(pool.requests) == 1, timeout=5000)
        reply = session.state.parse_move("e5")
        pool.send(1, [Finished(1, reply, Score(0.0), (reply,), 1, 1, 1, 1.0, 0.01)]).join()
        qtbot.waitUntil(lambda: len(session.history) == 2, timeout=5000)  # the computer's untimed first move
        play(session, fake_time, [("Nf3", 2)])
        qtbot.waitUntil(lambda: len(pool.requests) == 2 and session.is_thinking, timeout=5000)
        fake_time.advance(181)
        with qtbot.waitSignal(session.game_over, timeout=1000):
            session.check_flag()
        assert not session.is_thinking
        qtbot.waitUntil(lambda: 2 in pool.stopped or None in pool.stopped, timeout=2000)  # the bridge stops the pool off the GUI thread
        assert session.result is Result.FIRST_WINS and session.reason == "Black ran out of time"
        late = session.state.parse_move("Nc6")
        pool.send(2, [Finished(2, late, Score(0.0), (late,), 1, 1, 1, 1.0, 0.01)]).join()
        qtbot.wait(50)
        assert session.move_names() == ["e4", "e5", "Nf3"]
    finally:
        session.close()
        bridge.shutdown()


FORCED_PASS_START = "OOOOOXOOOOOOXXOOOXOXXXOOOXXOXXXOOXOOXXXOOXXXXX-OOXXXXX---XXXXXX- O"
"""Othello, White (O) to move: after g6 g7 a8, Black has no move and must pass."""


def test_a_forced_pass_costs_no_time(qtbot: QtBot, make_session: Callable[..., GameSession], fake_time: FakeTime) -> None:
    """A player without a move passes; the app plays the pass after a notice, and neither
    the notice's time nor the player's wait is charged, nor an increment earned
    (``games.clock``: forced moves are free)."""
    session = make_session("othello", (HUMAN_SIDE, HUMAN_SIDE), start=FORCED_PASS_START)
    play(session, fake_time, [("g6", 1), ("g7", 1), ("a8", 5)])  # the first two untimed
    assert remaining(session) == (180, 177)  # White (O) is player 1 in Othello
    fake_time.advance(7)
    qtbot.waitUntil(lambda: session.move_names()[-1:] == ["pass"], timeout=5000)
    assert session.history[-1].clock == 180
    assert remaining(session) == (180, 177)


def test_the_computer_takes_its_time_from_its_clock_within_its_level(qtbot: QtBot, fake_time: FakeTime) -> None:
    """A computer on the clock searches for the share of its clock a UCI engine would take
    (``ai.timing``), never longer than its level allows: a strong level at 1+0 gets the
    clock's share with its node budget kept; a beginner at 30+20 keeps its own short time."""
    from ai.levels import level_play
    from ai.timing import clock_budget

    for control, number, clock_decides in ((TimeControl.of(60, 0), 10, True), (TimeControl.of(1800, 20), 1, False)):
        pool = ScriptedPool()
        bridge = EngineBridge(pool)
        side = PlayerConfig(kind=COMPUTER, strength="level", level=number).for_game("chess")
        session = GameSession(bridge, "chess", (side, HUMAN_SIDE), seed=1, time_control=control, clock_now=fake_time)
        try:
            qtbot.waitUntil(lambda: len(pool.requests) == 1, timeout=5000)
            limits = pool.requests[0].limits
            level = level_play("chess", number).limits()
            budget = clock_budget(session.state, control.base[0], control.increment[0])
            assert limits.nodes == level.nodes and limits.depth == level.depth
            if clock_decides:
                assert level.time is not None and budget.hard < level.time
                assert limits.time == budget.hard and limits.from_clock
            else:
                assert limits == level
        finally:
            session.close()
            bridge.shutdown()


def test_backgammon_the_next_movers_clock_runs_through_the_roll(qtbot: QtBot, make_session: Callable[..., GameSession], fake_time: FakeTime) -> None:
    """After a move the opponent's clock starts; with manual dice it runs while the roll is
    entered (the roll is the roller's turn, as on a tournament clock)."""
    session = make_session("backgammon", (HUMAN_SIDE, HUMAN_SIDE), manual_dice=True)
    clock = session.clock
    assert clock is not None
    for _ in range(20):  # until both have made their untimed first move and a roll is due
        if session.waits_for_dice():
            if clock.is_timed:
                break
            session.roll_dice()
            continue
        mover = session.state.to_move()
        readings = session.clock_readings()
        assert readings is not None and readings.turn == mover  # the mover's clock is on
        play(session, fake_time, [(session.state.move_name(session.state.legal_moves()[0]), 1)])
    assert session.waits_for_dice() and clock.is_timed
    # A turn is "roll" (or "double"), the dice, then the checker play: one press a turn.
    assert clock.moves == (1, 1)
    assert all((entry.clock is None) == (entry.name == "roll" or entry.mover not in (0, 1)) for entry in session.history)
    roller = session.clock_readings()
    assert roller is not None and roller.running and roller.turn is not None
    before = roller.remaining[roller.turn]
    fake_time.advance(6)  # entering the dice takes six seconds of the roller's time
    after = session.clock_readings()
    assert after is not None and after.remaining[roller.turn] == before - 6


def test_computers_watched_on_a_clock_think_at_once(make_session: Callable[..., GameSession]) -> None:
    """Two computers without a clock pause between moves so people can follow them; on a
    clock the pause would be charged to the mover, so there is none. Against a person the
    computer always starts at once."""
    computer = PlayerConfig(kind=COMPUTER).for_game("chess")
    paused = {"paused": True}
    watched_untimed = make_session("chess", (computer, computer), control=None, **paused)
    watched_on_clock = make_session("chess", (computer, computer), **paused)
    against_a_person = make_session("chess", (HUMAN_SIDE, computer), control=None, **paused)
    assert watched_untimed.move_delay_ms() == session_module.WATCHING_DELAY_MS > 0
    assert watched_on_clock.move_delay_ms() == 0
    assert against_a_person.move_delay_ms() == session_module.COMPUTER_MOVE_DELAY_MS == 0


def test_no_move_while_a_game_on_the_clock_is_paused(make_session: Callable[..., GameSession], fake_time: FakeTime) -> None:
    """Paused, the clocks stand: a move then would be thought for free and earn its
    increment. The board and the move box refuse it and say how to play on."""
    session = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE))
    play(session, fake_time, [("e4", 1), ("e5", 1), ("Nf3", 20), ("Nc6", 30)])
    session.set_paused(True)
    fake_time.advance(600)
    notices: list[str] = []
    session.notice.connect(notices.append)
    assert not session.can_human_move()
    assert session.play_text("Bb5") == "the game is paused: press P to start the clocks and play on"
    assert not session.play_move(session.state.parse_move("Bb5"))
    assert notices == ["The game is paused: press P to start the clocks and play on"]
    assert session.move_names() == ["e4", "e5", "Nf3", "Nc6"] and remaining(session) == (162, 152)
    session.set_paused(False)
    fake_time.advance(2)
    assert session.play_text("Bb5") is None and remaining(session) == (162, 152)  # 162 - 2 + 2
    # Without a clock, a paused game still takes a move for either side (analysis).
    free = make_session("chess", (HUMAN_SIDE, HUMAN_SIDE), control=None)
    free.set_paused(True)
    assert free.play_text("e4") is None
