"""Colours of the whole app: one frozen ``Theme`` that every widget paints with.

A theme is plain data (colour strings, ``#rrggbb`` or ``#aarrggbb`` as Qt reads them), so it
can be compared, stored in settings by name and passed between widgets freely; ``color``
turns a field into a ``QColor`` when painting. Two window palettes (``LIGHT``, ``DARK``) and
a few board schemes (``BOARD_SCHEMES``) combine: ``theme_named("dark", board="green")``.

The highlight colours follow Lichess (translucent greens over the squares, a red radial glow
for check, a translucent arrow for the engine's move), so a Lichess player reads them at once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from PySide6.QtGui import QColor, QPalette

Colour = str
"""A colour as Qt parses it: ``#rrggbb`` or ``#aarrggbb`` (alpha first)."""


@lru_cache(maxsize=512)
def color(value: Colour) -> QColor:
    """The ``QColor`` of a theme colour string (cached: painting asks for it often).

    The returned object is shared: copy it (``QColor(color(x))``) before changing it.
    """
    parsed = QColor(value)
    if not parsed.isValid():
        raise ValueError(f"{value!r} is not a colour: use #rrggbb or #aarrggbb")
    return parsed


@dataclass(frozen=True)
class BoardScheme:
    """The squares of a chequered board (chess, checkers) or the felt of a uniform one."""

    name: str
    light: Colour
    dark: Colour
    coordinates_on_light: Colour
    """Text drawn over a light square (checkers square numbers)."""
    coordinates_on_dark: Colour


BOARD_SCHEMES: dict[str, BoardScheme] = {
    "brown": BoardScheme("brown", "#f0d9b5", "#b58863", "#946f51", "#f0d9b5"),
    "green": BoardScheme("green", "#ffffdd", "#86a666", "#6d8b4f", "#ffffdd"),
    "blue": BoardScheme("blue", "#dee3e6", "#8ca2ad", "#788a94", "#dee3e6"),
}
"""Board colour schemes for chess and checkers, by name (Lichess's classic three)."""

DEFAULT_BOARD = "brown"


@dataclass(frozen=True)
class Theme:
    """Every colour a widget needs. Fields are grouped: window, board, highlights, pieces."""

    name: str
    # -- window
    window: Colour
    panel: Colour
    text: Colour
    muted_text: Colour
    accent: Colour
    # -- boards
    board: BoardScheme
    coordinates: Colour
    """File/rank labels in the margin round a board."""
    othello_felt: Colour = "#2f7d4a"
    othello_lines: Colour = "#1d5632"
    grid_lines: Colour = "#5a5a5a"
    """Tic-tac-toe's grid."""
    # -- highlights (translucent, painted over the squares)
    last_move: Colour = "#699bc700"
    selection: Colour = "#8014551e"
    legal_destination: Colour = "#8014551e"
    hover: Colour = "#4d14551e"
    check: Colour = "#ffff0000"
    best_move_arrow: Colour = "#b3003088"
    review_move_arrow: Colour = "#c08e44ad"
    """The game review's better move: violet, apart from the engine's blue arrow, the
    player's green ones and the review's own mark colours (blue, orange, red)."""
    annotation: Colour = "#aa15781b"
    """The player's own arrows and rings (right-drag / right-click), Lichess green."""
    forced_capture: Colour = "#b3d4500a"
    edit_problem: Colour = "#ccb02020"
    # -- pieces
    disc_black: Colour = "#1c1c1c"
    disc_white: Colour = "#f4f4f0"
    checker_dark: Colour = "#2b2622"
    checker_light: Colour = "#efe4cf"
    crown: Colour = "#e0b028"
    mark_x: Colour = "#2f6fb0"
    mark_o: Colour = "#c0392b"
    win_line: Colour = "#d0e8a317"
    palette_background: Colour = "#ffe9e6e1"
    palette_selected: Colour = "#8014551e"

    def color(self, field_name: str) -> QColor:
        """The ``QColor`` of the field called ``field_name`` (``theme.color("check")``)."""
        return color(getattr(self, field_name))

    @property
    def is_dark(self) -> bool:
        """Whether the window is dark (light text on dark panels)."""
        return color(self.window).lightnessF() < 0.5

    def with_board(self, scheme: str) -> Theme:
        """This theme with the board scheme named ``scheme`` (see ``BOARD_SCHEMES``)."""
        return replace(self, board=board_scheme(scheme))

    def qpalette(self) -> QPalette:
        """A ``QPalette`` for ``QApplication.setPalette`` so standard widgets match."""
        palette = QPalette()
        window, panel, text = color(self.window), color(self.panel), color(self.text)
        accent = color(self.accent)
        for role, value in (
            (QPalette.ColorRole.Window, window),
            (QPalette.ColorRole.Base, panel),
            (QPalette.ColorRole.AlternateBase, window),
            (QPalette.ColorRole.Button, panel),
            (QPalette.ColorRole.WindowText, text),
            (QPalette.ColorRole.Text, text),
            (QPalette.ColorRole.ButtonText, text),
            (QPalette.ColorRole.ToolTipBase, panel),
            (QPalette.ColorRole.ToolTipText, text),
            (QPalette.ColorRole.PlaceholderText, color(self.muted_text)),
            (QPalette.ColorRole.Highlight, accent),
            (QPalette.ColorRole.HighlightedText, QColor("#ffffff")),
            (QPalette.ColorRole.Link, accent),
        ):
            palette.setColor(role, value)
        disabled = QColor(color(self.muted_text))
        for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
            palette.setColor(QPalette.ColorGroup.Disabled, role, disabled)
        return palette


def board_scheme(name: str) -> BoardScheme:
    """The board scheme called ``name``; ``ValueError`` lists the known ones."""
    try:
        return BOARD_SCHEMES[name]
    except KeyError:
        raise ValueError(f"unknown board scheme {name!r}; choose one of {', '.join(BOARD_SCHEMES)}") from None


LIGHT = Theme(
    name="light",
    window="#f4f2ef",
    panel="#ffffff",
    text="#2b2b2b",
    muted_text="#7a7774",
    accent="#3679b5",
    board=BOARD_SCHEMES[DEFAULT_BOARD],
    coordinates="#6e6a65",
    grid_lines="#4a4a4a",
    palette_background="#ffe6e2dc",
)

DARK = Theme(
    name="dark",
    window="#161512",
    panel="#262421",
    text="#d0cdc8",
    muted_text="#8b8883",
    accent="#5a9fd6",
    board=BOARD_SCHEMES[DEFAULT_BOARD],
    coordinates="#9a958e",
    grid_lines="#c8c4be",
    best_move_arrow="#b34d8fd6",
    review_move_arrow="#c8b57bd6",
    mark_x="#6aa8e8",
    mark_o="#ec7063",
    palette_background="#ff7a766f",
)

THEMES: dict[str, Theme] = {theme.name: theme for theme in (LIGHT, DARK)}
"""The window themes by name (what the settings store)."""


def theme_named(name: str = "light", board: str = DEFAULT_BOARD) -> Theme:
    """The window theme ``name`` with the board scheme ``board``; ``ValueError`` if unknown."""
    try:
        theme = THEMES[name]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}; choose one of {', '.join(THEMES)}") from None
    return theme.with_board(board)


__all__ = [
    "BOARD_SCHEMES",
    "DARK",
    "DEFAULT_BOARD",
    "LIGHT",
    "THEMES",
    "BoardScheme",
    "Colour",
    "Theme",
    "board_scheme",
    "color",
    "theme_named",
]
