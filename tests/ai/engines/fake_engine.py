"""What the fake engines of the match tests share: the stdin command loop and the script of
how they misbehave.

A fake engine is run as ``python fake_<protocol>.py [MODE] [AFTER]``: ``MODE`` says how it
misbehaves once it has answered ``AFTER`` (default 0) move requests: ``good`` never,
``crash`` exits with status 3, ``illegal`` answers an illegal move, ``hang`` never answers.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping

Handler = Callable[[list[str]], object]
"""A command's handler gets the line's words (the command first); ``QUIT`` ends the loop."""
QUIT = object()


class Script:
    """``MODE`` and ``AFTER`` from the command line, and how many moves were answered."""

    def __init__(self, argv: list[str]) -> None:
        self.mode = argv[1] if len(argv) > 1 else "good"
        self.after = int(argv[2]) if len(argv) > 2 else 0
        self.answered = 0

    def next_answer(self) -> str | None:
        """How to answer this move request: ``"good"``, ``"illegal"``, or ``None`` for no
        answer at all (``hang``); ``crash`` exits here."""
        misbehaving = self.answered >= self.after
        if misbehaving and self.mode == "crash":
            sys.exit(3)
        if misbehaving and self.mode == "hang":
            return None
        self.answered += 1
        return "illegal" if misbehaving and self.mode == "illegal" else "good"


def serve(handlers: Mapping[str, Handler], unknown: Callable[[list[str]], None] | None = None) -> None:
    """Read commands from stdin until it closes or a handler returns ``QUIT``; blank lines
    are skipped, a command without a handler goes to ``unknown`` (ignored without one)."""
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        handler = handlers.get(words[0])
        if handler is None:
            if unknown is not None:
                unknown(words)
            continue
        if handler(words) is QUIT:
            return
