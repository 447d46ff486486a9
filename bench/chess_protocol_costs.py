"""The chess wrapper's per-call costs, and a plain alpha-beta loop's nodes/s through it.

Run: ``.venv/bin/python -m bench.chess_protocol_costs``. Prints microseconds per call of
the hot protocol methods (CPU time, best of 5 passes, on positions from random games) and
the nodes/s of a minimal alpha-beta on Bratko-Kopec positions: the ceiling the engine's
own overhead is measured against.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import chess


from games.chess_game import ChessState, evaluation
from tests.games.test_chess import epd_solutions, random_states

MATE = 1_000_000.0


class PlainAlphaBeta:
    """A bare engine for measuring the wrapper's per-node cost: negamax alpha-beta with a
    dict TT, MVV-LVA ordering, null-move pruning and stand-pat quiescence, through the
    protocol only."""

    def __init__(self) -> None:
        self.nodes = 0
        self.table: dict[int, tuple[int, float, chess.Move | None]] = {}

    def quiescence(self, state: ChessState, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        if state.is_terminal():
            return -MATE + ply if state.is_in_check() else 0.0
        best = state.evaluate(state.to_move())
        if best >= beta:
            return best
        alpha = max(alpha, best)
        noisy = state.noisy_moves()
        noisy.sort(key=state.capture_score, reverse=True)
        for move in noisy:
            state.play(move)
            score = -self.quiescence(state, -beta, -alpha, ply + 1)
            state.undo()
            if score >= beta:
                return score
            alpha = max(alpha, score)
            best = max(best, score)
        return best

    def search(self, state: ChessState, depth: int, alpha: float, beta: float, ply: int) -> float:
        if depth <= 0:
            return self.quiescence(state, alpha, beta, ply)
        self.nodes += 1
        if state.is_terminal():
            return -MATE + ply if state.is_in_check() else 0.0
        stored = self.table.get(state.key())
        best_move = stored[2] if stored else None
        if ply and depth >= 3 and state.can_null_move():
            state.play_null()
            score = -self.search(state, depth - 3, -beta, -beta + 1, ply + 1)
            state.undo_null()
            if score >= beta:
                return score
        moves = state.legal_moves()
        moves.sort(key=lambda m: (m == best_move, state.capture_score(m)), reverse=True)
        best = -MATE
        for move in moves:
            state.play(move)
            score = -self.search(state, depth - 1, -beta, -max(alpha, best), ply + 1)
            state.undo()
            if score > best:
                best, best_move = score, move
            if best >= beta:
                break
        self.table[state.key()] = (depth, best, best_move)
        return best


def plain_alpha_beta_nodes_per_second() -> None:
    """Nodes/s of ``PlainAlphaBeta`` on Bratko-Kopec positions (CPU time, 2 s each)."""
    rates = []
    for fen, _sans, _moves in epd_solutions("bk.epd")[:6]:
        state = ChessState.from_text(fen)
        engine = PlainAlphaBeta()
        started = time.process_time()
        depth = 0
        while time.process_time() - started < 2.0:
            depth += 1
            engine.search(state, depth, -MATE, MATE, 0)
        rates.append(engine.nodes / (time.process_time() - started))
        print(f"{engine.nodes:8d} nodes  {rates[-1]:8.0f} nodes/s  depth {depth}  {fen}")
    print(f"median {sorted(rates)[len(rates) // 2]:.0f} nodes/s")
def protocol_costs() -> None:
    """Microseconds per call (CPU time, best of 5 passes) of the hot protocol methods on
    positions from random games."""
    states = random_states(seed=1, count=300)
    moves = [state.legal_moves() for state in states]
    total_moves = sum(map(len, moves))

    def fresh(state: ChessState) -> ChessState:
        state._checkers = None  # as after play(): no cached check information
        return state

    def play_undo(index: int, state: ChessState) -> None:
        for move in moves[index]:
            state.play(move)
            state.undo()

    def capture_scores(index: int, state: ChessState) -> None:
        for move in moves[index]:
            state.capture_score(move)

    calls: dict[str, tuple[Callable[[int, ChessState], object], int]] = {
        "legal_moves": (lambda _i, s: fresh(s).legal_moves(), len(states)),
        "noisy_moves": (lambda _i, s: fresh(s).noisy_moves(), len(states)),
        "is_terminal": (lambda _i, s: fresh(s).is_terminal(), len(states)),
        "is_in_check": (lambda _i, s: fresh(s).is_in_check(), len(states)),
        "play+undo": (play_undo, total_moves),
        "evaluate (not cached)": (lambda _i, s: s.evaluate(0), len(states)),
        "evaluate (cached)": (lambda _i, s: s.evaluate(0), len(states)),
        "capture_score": (capture_scores, total_moves),
        "key": (lambda _i, s: s.key(), len(states)),
    }
    for name, (call, count) in calls.items():
        best = float("inf")
        for _pass in range(5):
            if name == "evaluate (not cached)":
                evaluation.eval_cache.clear()
            started = time.process_time()
            for index, state in enumerate(states):
                call(index, state)
            best = min(best, time.process_time() - started)
        print(f"{name:22s} {best / count * 1e6:7.2f} us")


if __name__ == "__main__":
    protocol_costs()
    plain_alpha_beta_nodes_per_second()
