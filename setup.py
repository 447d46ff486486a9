"""Build step for the native pieces: Othello's exact endgame solver ``games.othello._solver``
and pattern EVAL with its compiled search ``games.othello._fast``, the compiled chess search ``games.chess_game._search``,
and the checkers search's move generation and EVAL with its compiled search
``games.checkers._fast``.

Everything else is in pyproject.toml. The extensions are optional: without a C compiler (or
Python headers) the install still succeeds, and ``games.othello.exact``,
``games.othello.evaluation`` and ``games.checkers.state`` fall back to their pure-Python code
(same values, slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.othello._solver",
            sources=["games/othello/_solver.c"],
            depends=["games/othello/_bitboard.h"],
            extra_compile_args=["-O3", "-std=c11"],
            optional=True,
        ),
        Extension(
            "games.othello._fast",
            sources=["games/othello/_fast.c", "games/othello/_search.c"],
            depends=["games/othello/_bitboard.h", "games/othello/_fast.h", "games/_native_search.h"],
            # no fused multiply-add: the EVAL's double must equal the Python one, bit for bit
            extra_compile_args=["-O3", "-std=c11", "-ffp-contract=off"],
            libraries=["m"],
            optional=True,
        ),
        Extension(
            "games.chess_game._search",
            sources=["games/chess_game/_search.c"],
            depends=["games/_native_search.h"],
            # no fused multiply-add: the EVAL must equal the Python one, bit for bit
            extra_compile_args=["-O3", "-std=c11", "-ffp-contract=off"],
            optional=True,
        ),
        Extension(
            "games.checkers._fast",
            sources=["games/checkers/_fast.c", "games/checkers/_search.c"],
            depends=["games/checkers/_fast.h", "games/_native_search.h"],
            # no fused multiply-add: the EVAL's double must equal the Python one, bit for bit
            extra_compile_args=["-O3", "-std=c11", "-ffp-contract=off"],
            optional=True,
        ),
    ]
)
