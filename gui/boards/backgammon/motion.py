"""The opponent's play sliding in, hop by hop.

When the board is given a state that continues the shown game with a checker play it did
not ask for, the play's checkers slide there one hop after the other, each along the same
bow as the move arrows. ``slide_hops`` decides whether a new state slides and rebuilds the
boards before each hop from the state's history; ``PlaySlide`` runs the animation and says,
for a frame, which checker is where.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, QVariantAnimation

from games.backgammon.board import BAR, OFF, Board, Hop, Play, O, X, take_back
from games.backgammon.state import CHECKER_PLAY, BackgammonState
from games.base import GameState, Player

TURN_EVENTS = 5
"""The most a game moves on between two positions a session shows: a double, a take, a
roll and a play (and the opponent's cube turn); more than that is a jump, not slid."""

SlidingHop = tuple[Player, Hop, tuple[Board, Board]]
"""A hop with its mover and O's and X's boards before it."""


def continues_without_play(previous: GameState | None, state: GameState | None) -> bool:
    """Whether ``state`` is ``previous`` (the same game) with nothing new but rolls and cube
    actions: no checker has moved, so what is sliding may go on sliding."""
    if not isinstance(previous, BackgammonState) or not isinstance(state, BackgammonState):
        return False
    old, new = previous.history, state.history
    if len(new) < len(old) or (old and new[len(old) - 1] != old[-1]):
        return False
    return all(snapshot[0] != CHECKER_PLAY or not move for snapshot, move, _ in new[len(old) :])


def boards_before(state: BackgammonState, mover: Player, play: Play, hits: Sequence[bool]) -> tuple[Board, Board]:
    """O's and X's boards before ``play`` (the latest checker play of ``state``), rebuilt by
    taking its hops back."""
    before = (list(state.boards[O]), list(state.boards[X]))
    take_back(before[mover], before[1 - mover], play, hits)
    return before


def apply_hop(boards: tuple[Board, Board], mover: Player, hop: Hop) -> None:
    """Play ``hop`` of ``mover`` on ``boards`` (O's, X's), a blot it lands on to the bar."""
    source, target = hop
    mine, theirs = boards[mover], boards[1 - mover]
    mine[source] -= 1
    mine[target] += 1
    if target != OFF and theirs[BAR - target] == 1:
        theirs[BAR - target] = 0
        theirs[BAR] += 1


def last_play(state: BackgammonState) -> tuple[Player, Play, tuple[Board, Board]] | None:
    """The latest checker play in ``state``'s history (after a roll or cube action it is
    still the play to mark), with its mover and the boards before it; ``None`` when there
    is none or it moved nothing."""
    for snapshot, move, hits in reversed(state.history):
        phase, player = snapshot[0], snapshot[1]
        if phase != CHECKER_PLAY:
            continue
        if not move or hits is None:
            return None
        return player, move, boards_before(state, player, move, hits)
    return None


def slide_hops(
    previous: BackgammonState, shown: BackgammonState, requested: tuple[Player, Play] | None
) -> list[SlidingHop]:
    """The hops to slide from ``previous`` to ``shown``: those of the latest checker play
    among the few events between them, unless it is the play the board asked for
    (``requested``: it is on the board already) or ``shown`` does not continue ``previous``
    (a loaded game, a position from the history). Empty: nothing slides."""
    old, new = previous.history, shown.history
    if not 0 < len(new) - len(old) <= TURN_EVENTS:
        return []  # nothing new, or a jump
    if old and new[len(old) - 1] != old[-1]:
        return []  # not the game shown going on
    for snapshot, move, hits in reversed(new[len(old) :]):
        if snapshot[0] != CHECKER_PLAY:
            continue
        mover = snapshot[1]
        if not move or hits is None or requested == (mover, move):
            return []
        boards = boards_before(shown, mover, move, hits)
        hops: list[SlidingHop] = []
        for hop in move:
            hops.append((mover, hop, (list(boards[O]), list(boards[X]))))
            apply_hop(boards, mover, hop)
        return hops
    return []


def smoothstep(fraction: float) -> float:
    """Ease in and out: slow at the start and the end of a hop."""
    return fraction * fraction * (3 - 2 * fraction)


class PlaySlide:
    """The animation of a play's hops, one ``hop_ms`` after the other."""

    def __init__(self, parent: QObject) -> None:
        self.animation = QVariantAnimation(parent)
        """Runs from 0 to 1 over the whole play; connect its ``valueChanged`` to repaint."""
        self.animation.setStartValue(0.0)
        self.animation.setEndValue(1.0)
        self._hops: list[SlidingHop] = []

    def is_running(self) -> bool:
        return bool(self._hops)

    def start(self, hops: list[SlidingHop], hop_ms: int) -> None:
        self._hops = hops
        self.animation.stop()
        self.animation.setDuration(hop_ms * len(hops))
        self.animation.start()

    def stop(self) -> bool:
        """Stop sliding; whether anything was sliding."""
        if not self._hops:
            return False
        self._hops = []
        self.animation.stop()
        return True

    def frame(self) -> tuple[Player, Hop, tuple[Board, Board], float]:
        """The hop sliding now, the boards without its checker, and how far it has gone
        (eased)."""
        progress = float(self.animation.currentValue() or 0.0) * len(self._hops)
        index = min(int(progress), len(self._hops) - 1)
        mover, hop, boards = self._hops[index]
        lifted = (list(boards[O]), list(boards[X]))
        lifted[mover][hop[0]] -= 1
        fraction = min(max(progress - index, 0.0), 1.0)
        return mover, hop, lifted, smoothstep(fraction)


__all__ = ["TURN_EVENTS", "PlaySlide", "boards_before", "continues_without_play", "last_play", "slide_hops"]
