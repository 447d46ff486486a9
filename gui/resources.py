"""The one loader of files under ``resources/``: fonts and piece art.

Files are read with ``importlib.resources`` from the ``resources`` package, never relative to
the working directory, so the same code works from a checkout, an installed wheel and the
frozen app. Fonts are registered from bytes (``addApplicationFontFromData``), which needs no
file path at all.

Chess pieces are SVG (python-chess's set, see ``resources/pieces/chess/README.md``). A
``QSvgRenderer`` per piece draws it at any size; rendered pixmaps are cached per (piece,
logical size, device-pixel ratio), so a paint event only blits and a resize renders anew.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from importlib import resources
from importlib.resources.abc import Traversable

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer

RESOURCE_PACKAGE = "resources"
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
FONT_FAMILY = "DejaVu Sans"
"""The bundled family: the app's default font, so text renders on a machine with no fonts."""
CHESS_PIECE_LETTERS = "KQRBNP"
PIXMAP_CACHE_SIZE = 96
"""Rendered pixmaps kept: 12 pieces at a few sizes (board, drag, palette, promotion chooser)."""


class ResourceError(RuntimeError):
    """A bundled file is missing or unreadable: the installation is broken."""


def resource(*parts: str) -> Traversable:
    """The bundled file ``resources/<parts...>`` (a ``Traversable``, maybe inside a zip)."""
    path = resources.files(RESOURCE_PACKAGE)
    for part in parts:
        path = path / part
    return path


def read_bytes(*parts: str) -> bytes:
    """The bytes of ``resources/<parts...>``; ``ResourceError`` naming it if it is missing."""
    path = resource(*parts)
    try:
        return path.read_bytes()
    except OSError as error:
        raise ResourceError(f"bundled file resources/{'/'.join(parts)} is missing: {error}") from error


# ---------------------------------------------------------------------------- fonts
_loaded_families: list[str] = []


def load_fonts(set_default: bool = True) -> list[str]:
    """Register the bundled DejaVu fonts with Qt (once) and return their family names.

    Call after the ``QGuiApplication`` exists and before the first widget is shown: without
    a system font every glyph would be an empty box. With ``set_default`` the bundled family
    becomes the application font (keeping the platform's point size).
    """
    if not _loaded_families:
        for name in FONT_FILES:
            font_id = QFontDatabase.addApplicationFontFromData(QByteArray(read_bytes("fonts", name)))
            if font_id < 0:
                raise ResourceError(f"Qt could not load the bundled font resources/fonts/{name}")
            for family in QFontDatabase.applicationFontFamilies(font_id):
                if family not in _loaded_families:
                    _loaded_families.append(family)
    if set_default and QGuiApplication.instance() is not None:
        font = QFont(QGuiApplication.font())
        font.setFamilies([FONT_FAMILY])
        QGuiApplication.setFont(font)
    return list(_loaded_families)


def board_font(pixel_size: float, bold: bool = False) -> QFont:
    """The bundled family at ``pixel_size`` pixels, for text painted on boards."""
    font = QFont()
    font.setFamilies([FONT_FAMILY])
    font.setPixelSize(max(1, round(pixel_size)))
    font.setBold(bold)
    font.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    return font


# ----------------------------------------------------------------------- chess pieces
def chess_piece_file(symbol: str) -> str:
    """The file name of a piece in python-chess's notation: ``K`` -> ``wK.svg``, ``n`` -> ``bN.svg``."""
    if len(symbol) != 1 or symbol.upper() not in CHESS_PIECE_LETTERS:
        raise ValueError(f"{symbol!r} is not a chess piece: use one of KQRBNP (white) or kqrbnp (black)")
    return ("w" if symbol.isupper() else "b") + symbol.upper() + ".svg"


def chess_piece_svg(symbol: str) -> bytes:
    """The SVG of the chess piece ``symbol`` (``K``..``P`` white, ``k``..``p`` black)."""
    return read_bytes("pieces", "chess", chess_piece_file(symbol))


class SvgPieceSet:
    """Renders a set of SVG pieces crisply at any size, with a bounded pixmap cache."""

    def __init__(self, load_svg: Callable[[str], bytes], cache_size: int = PIXMAP_CACHE_SIZE) -> None:
        self._load_svg = load_svg
        self._renderers: dict[str, QSvgRenderer] = {}
        self._pixmaps: OrderedDict[tuple[str, int, float], QPixmap] = OrderedDict()
        self._cache_size = cache_size

    def renderer(self, symbol: str) -> QSvgRenderer:
        """The (cached) SVG renderer of ``symbol``."""
        found = self._renderers.get(symbol)
        if found is None:
            found = QSvgRenderer(QByteArray(self._load_svg(symbol)))
            if not found.isValid():
                raise ResourceError(f"the SVG of piece {symbol!r} is not valid")
            self._renderers[symbol] = found
        return found

    def pixmap(self, symbol: str, size: float, device_pixel_ratio: float = 1.0) -> QPixmap:
        """``symbol`` rendered for a ``size`` x ``size`` square (logical pixels) on a screen of
        ``device_pixel_ratio``: the pixmap has ``round(size * ratio)`` real pixels and that
        ratio, so it is drawn 1:1 on a high-DPI screen instead of being scaled and blurred."""
        pixels = max(1, round(size * device_pixel_ratio))
        key = (symbol, pixels, round(device_pixel_ratio, 3))
        found = self._pixmaps.get(key)
        if found is not None:
            self._pixmaps.move_to_end(key)
            return found
        pixmap = QPixmap(pixels, pixels)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        self.renderer(symbol).render(painter, QRectF(0, 0, pixels, pixels))
        painter.end()
        pixmap.setDevicePixelRatio(device_pixel_ratio)
        self._pixmaps[key] = pixmap
        if len(self._pixmaps) > self._cache_size:
            self._pixmaps.popitem(last=False)
        return pixmap

    def cached_count(self) -> int:
        """How many rendered pixmaps the cache holds (for tests and diagnostics)."""
        return len(self._pixmaps)


_chess_pieces: SvgPieceSet | None = None


def chess_pieces() -> SvgPieceSet:
    """The shared chess piece set (one cache for every chess board and dialog)."""
    global _chess_pieces
    if _chess_pieces is None:
        _chess_pieces = SvgPieceSet(chess_piece_svg)
    return _chess_pieces


__all__ = [
    "FONT_FAMILY",
    "ResourceError",
    "SvgPieceSet",
    "board_font",
    "chess_piece_svg",
    "chess_pieces",
    "load_fonts",
    "read_bytes",
    "resource",
]
