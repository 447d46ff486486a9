"""Build step for the one native piece: the Othello endgame solver ``games.othello._solver``.

Everything else is in pyproject.toml. The extension is optional: without a C compiler (or
Python headers) the install still succeeds and ``games.othello.exact`` falls back to the
pure-Python solver.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.othello._solver",
            sources=["games/othello/_solver.c"],
            extra_compile_args=["-O3", "-std=c11"],
            optional=True,
        )
    ]
)
