"""Build step for the native pieces of Othello: the exact endgame solver
``games.othello._solver`` and the pattern EVAL ``games.othello._fast``.

Everything else is in pyproject.toml. Both extensions are optional: without a C compiler (or
Python headers) the install still succeeds, and ``games.othello.exact`` and
``games.othello.evaluation`` fall back to their pure-Python code (same values, slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.othello._solver",
            sources=["games/othello/_solver.c"],
            extra_compile_args=["-O3", "-std=c11"],
            optional=True,
        ),
        Extension(
            "games.othello._fast",
            sources=["games/othello/_fast.c"],
            extra_compile_args=["-O3", "-std=c11"],
            optional=True,
        ),
    ]
)
