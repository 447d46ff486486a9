"""The Othello opening book: positions near the start with the values of their moves.

The book is data (``resources/books/othello_book.json``), made by ``tools/othello_book.py``
from the engine's own searches: every position up to a few plies deep (all moves, so that
any reply is covered) is expanded, the frontier positions are searched at a fixed depth, and
the values are backed up by negamax through the book tree. A book move is one whose value is
within ``BOOK_MARGIN`` of the best, so the engine varies its openings among moves that the
search could not tell apart.

Positions are stored once per class of symmetric positions: the key is the smallest of the
8 symmetric images of ``(own, opponent)`` (side to move first), and the moves are squares of
that image. The start position is symmetric, so f5, d3, c4 and e6 are one entry's four
readings. Document::

    {"game": "othello", "format": 1, "description": "...", "search": "...",
     "positions": {"<own hex> <opponent hex>": [[square, value], ...], ...}}

where ``square`` is 0..63 in the canonical image and ``value`` the move's backed-up value
for the side to move in hundredths of a disc. Read once, on first use, through
``importlib.resources``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any, Final

from games.othello.bitboard import Bitboard, Square
from games.othello.patterns import IMAGE_NAMES, IMAGE_SOURCES, images

BOOK_PACKAGE: Final = "resources"
BOOK_PATH: Final = ("books", "othello_book.json")
BOOK_FORMAT: Final = 1

BOOK_MARGIN: Final = 60
"""Moves within this many hundredths of a disc of the best are book moves (0.6 disc: less
than the search's own error at the book's depth, so the choice among them is a coin toss to
the engine, and a matter of variety to its opponents)."""

Key = tuple[Bitboard, Bitboard]


class BookError(ValueError):
    """A book document that cannot be used; the message says what is wrong."""


def canonical(own: Bitboard, opponent: Bitboard) -> tuple[Key, int]:
    """The smallest symmetric image of the position and the number of the image (its index
    in ``IMAGE_NAMES``)."""
    pairs = list(zip(images(own), images(opponent), strict=True))
    best = min(range(len(pairs)), key=pairs.__getitem__)
    return pairs[best], best


def key_text(key: Key) -> str:
    return f"{key[0]:x} {key[1]:x}"


def parse_book(document: Any, source: str) -> dict[Key, tuple[tuple[Square, int], ...]]:
    """The positions of a book document, checked; ``BookError`` names the problem."""
    if not isinstance(document, dict) or document.get("game") != "othello":
        raise BookError(f"book {source!r} is not an Othello book (a JSON object with \"game\": \"othello\")")
    if document.get("format") != BOOK_FORMAT:
        raise BookError(f"book {source!r} has format {document.get('format')!r}; this version reads {BOOK_FORMAT}")
    positions = document.get("positions")
    if not isinstance(positions, dict):
        raise BookError(f"book {source!r} has no \"positions\" object")
    book: dict[Key, tuple[tuple[Square, int], ...]] = {}
    for text, moves in positions.items():
        try:
            own_text, opponent_text = text.split()
            key = (int(own_text, 16), int(opponent_text, 16))
            entries = tuple((int(square), int(value)) for square, value in moves)
        except (ValueError, TypeError) as error:
            raise BookError(f"book {source!r}: position {text!r} is malformed ({error})") from None
        if any(not 0 <= square < 64 for square, _ in entries) or key[0] & key[1]:
            raise BookError(f"book {source!r}: position {text!r} has an impossible square")
        book[key] = entries
    return book


@cache
def shipped_book() -> Mapping[Key, tuple[tuple[Square, int], ...]]:
    """The packaged book (empty if none is packaged)."""
    source = resources.files(BOOK_PACKAGE).joinpath(*BOOK_PATH)
    if not source.is_file():
        return {}
    return parse_book(json.loads(source.read_text(encoding="utf-8")), "/".join(BOOK_PATH))


def book_entries(own: Bitboard, opponent: Bitboard,
                 book: Mapping[Key, tuple[tuple[Square, int], ...]] | None = None,
                 ) -> list[tuple[Square, int]]:
    """Every move the book has for this position with its value (side to move's view), in
    this position's own orientation; empty when the position is not in the book."""
    if book is None:
        book = shipped_book()  # whether a search may use it is ai.engine.books_allowed's question
    if not book:
        return []
    key, image = canonical(own, opponent)
    entries = book.get(key, ())
    sources = IMAGE_SOURCES[IMAGE_NAMES[image]]
    return [(sources[square], value) for square, value in entries]


def book_moves(own: Bitboard, opponent: Bitboard,
               book: Mapping[Key, tuple[tuple[Square, int], ...]] | None = None,
               ) -> list[tuple[Square, float]]:
    """The book's moves here (within ``BOOK_MARGIN`` of the best), each with weight 1."""
    entries = book_entries(own, opponent, book)
    if not entries:
        return []
    best = max(value for _, value in entries)
    moves = sorted({square for square, value in entries if value >= best - BOOK_MARGIN})
    return [(square, 1.0) for square in moves]
