"""The fixed positions of ``plyground bench``, per game, with the depth each is searched to.

Why fixed: a bench is a signature as much as a speed test (Stockfish's ``bench`` is the
model). The same build, settings and depth on one thread visit the same number of nodes on
every machine, so a changed node count says the search changed, and nodes per second say
how fast this machine and build are. The positions are in each game's own notation and
cover the phases where each game's search behaves differently: the opening, a middlegame
with captures or flips to order, and an ending where the table and the endgame knowledge
(checkers' kings, chess's passed pawns) do the work.

The depths keep the whole default bench to tens of seconds on one core of a slow machine:
enough nodes for a stable rate, short enough to run after every change.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BenchSet:
    """The positions of one game and the depth (plies; backgammon: decisions) each is
    searched to."""

    depth: int
    positions: tuple[str, ...]


BENCH_SETS: dict[str, BenchSet] = {
    "tictactoe": BenchSet(
        depth=9,
        positions=(
            ".........",  # the empty board: the whole game tree
            "x...o....",  # after the centre reply to a corner
        ),
    ),
    "checkers": BenchSet(
        depth=11,
        positions=(
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",  # the start
            "B:W18,20,21,23,24,25,26,27,28,29,30:B1,2,5,6,7,8,11,12,14,16",  # early middlegame
            "B:WK6,20,21,22,23,26,27,28,29:B8,9,11,12,16",  # White has a king, four men up
        ),
    ),
    "chess": BenchSet(
        depth=6,
        positions=(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # the start
            "r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP2BPPP/R1BQ1RK1 w - - 0 8",  # a quiet middlegame
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  # Kiwipete: tactics
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",  # a rook ending (perft position 3)
        ),
    ),
    "othello": BenchSet(
        depth=9,
        positions=(
            "---------------------------OX------XO--------------------------- X",  # the start
            "---------X---X----XXX-----XXX-----OOOXOOXOXXXXX-O---OOOX------XO X",  # 36 empty
            "O-------XXX--X--O-XXX--OOOXOX--O-OXXXXXOXOOXOXOOO--XXOOO---X--XO X",  # 24 empty
        ),
    ),
    "backgammon": BenchSet(
        depth=2,
        positions=(
            "4HPwATDgc/ABMA:MIEFAAAAAAAA",  # the opening 3-1
            "rknwASKa5sEBMA:MAEKAAAAAAAA",  # a middlegame, 4-2 to play
            "d3gGBGBDPzAkAw:cAkHAAAAAAAA",  # contact late in the game, 6-1 to play
        ),
    ),
}
"""Per game (the registry's names), what ``plyground bench`` searches."""
