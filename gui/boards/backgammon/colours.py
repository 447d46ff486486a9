"""The backgammon board's palettes: wood, felt, checkers and the marks drawn over them."""

from __future__ import annotations

from dataclasses import dataclass, replace

from gui.theme import Theme


@dataclass(frozen=True)
class BoardColours:
    """The board's palette; ``for_theme`` picks one from the app's theme."""

    background: str
    """Round the board (the window's colour)."""
    frame: str
    """The wooden frame."""
    frame_text: str
    """The point numbers on the frame."""
    field: str
    """The felt the points are on."""
    tray: str
    """The trays (bear-off and cube)."""
    points: tuple[str, str]
    """The two colours the points alternate in."""
    checkers: tuple[str, str]
    """Player O's and player X's checker colours (also their dice)."""
    checker_edges: tuple[str, str]
    """Each player's checker edges and rings."""
    checker_text: tuple[str, str]
    """Text on each player's checkers (stack counts) and the pips of their dice."""
    label_text: str
    """Names and status beside the board."""
    label_dim: str
    """Pip counts and checkers off."""
    highlight: str
    """Where the picked-up checker may go."""
    selection: str
    """The ring round the picked-up checker and round a picked die."""
    best_move: str
    """The engine's arrows and the ring round its button."""
    last_move: str
    """The last move's arrows."""
    button: str
    """The buttons' faces."""
    button_text: str
    """The buttons' words, the undo arrow, and the dice picker's text."""
    cube: str
    """The doubling cube's face."""
    cube_text: str
    """The number on the cube."""
    overlay: str
    """The dice picker's panel."""

    @staticmethod
    def light() -> BoardColours:
        return BoardColours(
            background="#f3efe6",
            frame="#7b4f2c",
            frame_text="#f4e7d0",
            field="#ecdfc4",
            tray="#d9c7a3",
            points=("#a8432f", "#3d5a6c"),
            checkers=("#8e1f22", "#f6f1e4"),
            checker_edges=("#3f0b0c", "#7e7560"),
            checker_text=("#f6f1e4", "#2b2620"),
            label_text="#2b2620",
            label_dim="#6b6257",
            highlight="#f2c230",
            selection="#ff9f1a",
            best_move="#1f6fd1",
            last_move="#5b5248",
            button="#fbf7ee",
            button_text="#2b2620",
            cube="#fbf7ee",
            cube_text="#1d1a16",
            overlay="#fbf7ee",
        )

    @staticmethod
    def dark() -> BoardColours:
        return BoardColours(
            background="#1e1f22",
            frame="#3a2c22",
            frame_text="#cdbfa8",
            field="#264337",
            tray="#1c3229",
            points=("#9b3b2f", "#b9a27a"),
            checkers=("#b0282c", "#ece6d6"),
            checker_edges=("#4a0c0e", "#8d8470"),
            checker_text=("#ece6d6", "#26221c"),
            label_text="#e4e0d8",
            label_dim="#a09a90",
            highlight="#f2c230",
            selection="#ffae3d",
            best_move="#5aa2ff",
            last_move="#d8d0c0",
            button="#34373c",
            button_text="#ece6d6",
            cube="#ece6d6",
            cube_text="#1d1a16",
            overlay="#2b2d31",
        )

    @staticmethod
    def for_theme(theme: Theme) -> BoardColours:
        """The board's own wood, felt and checkers, light or dark as the theme is, with the
        theme's window, text, panel and engine-arrow colours so it sits among the others."""
        base = BoardColours.dark() if theme.is_dark else BoardColours.light()
        felt = FELTS.get((theme.board.name, theme.is_dark))
        if felt is not None:
            base = replace(base, frame=felt[0], field=felt[1], tray=felt[2], points=felt[3])
        return replace(
            base,
            background=theme.window,
            label_text=theme.text,
            label_dim=theme.muted_text,
            button=theme.panel,
            button_text=theme.text,
            overlay=theme.panel,
            best_move=theme.best_move_arrow,
        )


FELTS: dict[tuple[str, bool], tuple[str, str, str, tuple[str, str]]] = {
    ("brown", False): ("#7b4f2c", "#ecdfc4", "#d9c7a3", ("#a8432f", "#3d5a6c")),
    ("green", False): ("#5b3d24", "#3e7b55", "#336648", ("#e6d8b8", "#a23a2c")),
    ("blue", False): ("#43535f", "#d8e0e6", "#c2ccd4", ("#b04a36", "#4f6f82")),
    ("brown", True): ("#2a1f18", "#4a3b2f", "#3b2f26", ("#9b3b2f", "#c2ab80")),
    ("green", True): ("#3a2c22", "#264337", "#1c3229", ("#9b3b2f", "#b9a27a")),
    ("blue", True): ("#222a31", "#26333d", "#1d2830", ("#9b3b2f", "#a8b4bd")),
}
"""Frame, field, tray and the two point colours for each of the app's board schemes
(``gui.theme.BOARD_SCHEMES``), light and dark: the scheme the player chose for the grid
boards picks the felt here."""


__all__ = ["FELTS", "BoardColours"]
