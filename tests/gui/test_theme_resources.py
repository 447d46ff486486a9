"""Themes parse, and bundled files load through ``gui.resources`` from any working directory."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest
from PySide6.QtGui import QFontDatabase, QGuiApplication, QPalette
from pytestqt.qtbot import QtBot

from gui import resources
from gui.theme import BOARD_SCHEMES, DARK, LIGHT, THEMES, Theme, color, theme_named


@pytest.mark.parametrize("theme", THEMES.values(), ids=list(THEMES))
def test_every_theme_colour_parses(theme: Theme) -> None:
    for field in dataclasses.fields(Theme):
        if field.name not in ("name", "board"):
            assert theme.color(field.name).isValid(), field.name
    for scheme in BOARD_SCHEMES.values():
        for value in (scheme.light, scheme.dark, scheme.coordinates_on_light, scheme.coordinates_on_dark):
            assert color(value).isValid()


def test_theme_names_and_board_schemes(qtbot: QtBot) -> None:
    assert theme_named("dark", "green") == dataclasses.replace(DARK, board=BOARD_SCHEMES["green"])
    assert LIGHT.with_board("blue").board.name == "blue"
    with pytest.raises(ValueError, match="unknown theme 'sepia'"):
        theme_named("sepia")
    with pytest.raises(ValueError, match="unknown board scheme 'red'"):
        LIGHT.with_board("red")
    with pytest.raises(ValueError, match="is not a colour"):
        color("#12")
    assert DARK.is_dark and not LIGHT.is_dark
    palette = DARK.qpalette()
    assert palette.color(QPalette.ColorRole.Window).name() == DARK.window


def test_fonts_load_from_the_package_whatever_the_working_directory(qtbot: QtBot, tmp_path: Path) -> None:
    previous = os.getcwd()
    os.chdir(tmp_path)
    try:
        families = resources.load_fonts()
    finally:
        os.chdir(previous)
    assert resources.FONT_FAMILY in families
    assert resources.FONT_FAMILY in QFontDatabase.families()
    assert QGuiApplication.font().family() == resources.FONT_FAMILY
    assert resources.load_fonts() == families  # once only


def test_chess_pieces_render_per_size_and_pixel_ratio(qtbot: QtBot) -> None:
    pieces = resources.SvgPieceSet(resources.chess_piece_svg)
    small = pieces.pixmap("N", 40, 1.0)
    sharp = pieces.pixmap("N", 40, 2.0)
    assert (small.width(), sharp.width()) == (40, 80)
    assert sharp.devicePixelRatio() == 2.0
    assert pieces.pixmap("N", 40, 1.0) is small and pieces.cached_count() == 2
    image = sharp.toImage()
    assert image.pixelColor(40, 40).alpha() > 0  # the knight is drawn, not a blank square
    for symbol in "KQRBNPkqrbnp":
        assert pieces.renderer(symbol).isValid()


def test_bad_piece_and_missing_file_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="is not a chess piece"):
        resources.chess_piece_file("X")
    with pytest.raises(resources.ResourceError, match="resources/pieces/nothing.svg is missing"):
        resources.read_bytes("pieces", "nothing.svg")
