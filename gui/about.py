"""The About box, the app's icon and the licence notices.

Plyground is GPL-3.0-or-later because it uses python-chess (GPL-3.0-or-later). The GPL asks an
interactive program to show its licence notice and tell the user how to read the licence:
``show_about(parent)`` does both, with the version (from the installed package's metadata,
falling back to ``pyproject.toml`` in a source checkout) and every bundled third-party part
with its licence. The full texts (``LICENSE``, ``THIRD_PARTY_NOTICES.md``, ``licenses/``) sit
next to the program in a build and at the project root in a checkout; the "Licence texts"
button shows them. The icon is read through ``gui.resources`` like every bundled file.
"""

from __future__ import annotations

import platform
import sys
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from PySide6 import __version__ as PYSIDE_VERSION
from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from gui.resources import read_bytes

APP_NAME = "Plyground"
DISTRIBUTION = "plyground"
"""The name the package is installed under (``importlib.metadata``)."""
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256)
"""The PNG sizes in ``resources/icons/`` (made by ``packaging/make_icons.py``)."""
ABOUT_ICON_SIZE = 64
TEXT_WIDTH = 560
"""Pixels the About box's paragraphs wrap at."""
LICENCE_FILES = ("LICENSE", "THIRD_PARTY_NOTICES.md")
"""The notices shown by "Licence texts", in this order; both are shipped with every build."""
GPL_URL = "https://www.gnu.org/licenses/gpl-3.0.html"
PROJECT_ROOT = Path(__file__).resolve().parent.parent
"""The source checkout's root (where ``pyproject.toml`` and ``LICENSE`` are) when not frozen."""


@dataclass(frozen=True)
class Component:
    """One part of the program and the licence it is used under."""

    name: str
    role: str
    licence: str


def _python_chess_version() -> str:
    import chess

    return str(chess.__version__)


def components() -> tuple[Component, ...]:
    """Plyground and what it bundles, with versions read at run time."""
    return (
        Component(f"{APP_NAME} {app_version()}", "this program", "GPL-3.0-or-later"),
        Component(f"python-chess {_python_chess_version()}", "chess rules, PGN", "GPL-3.0-or-later"),
        Component(f"Qt {qVersion()} / PySide6 {PYSIDE_VERSION}", "user interface", "LGPL-3.0-only"),
        Component("DejaVu Sans", "the bundled font", "Bitstream Vera licence, public domain"),
        Component("Chess pieces by Colin M.L. Burnett", "piece art, via python-chess", "GPL-3.0-or-later"),
        Component(f"Python {platform.python_version()}", "interpreter", "PSF-2.0"),
    )


def app_version() -> str:
    """Plyground's version: the installed package's metadata, else ``pyproject.toml``.

    A frozen build carries the metadata (the spec copies it); a checkout that was never
    installed still has ``pyproject.toml``. ``"unknown"`` if neither is there.
    """
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        pass
    try:
        with open(PROJECT_ROOT / "pyproject.toml", "rb") as file:
            return str(tomllib.load(file)["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


def app_icon() -> QIcon:
    """The app's icon with one pixmap per size (crisp in title bars, docks and task bars)."""
    icon = QIcon()
    for size in ICON_SIZES:
        pixmap = QPixmap()
        if pixmap.loadFromData(read_bytes("icons", f"plyground-{size}.png"), "PNG"):
            icon.addPixmap(pixmap)
    return icon


def notices_folder() -> Path:
    """Where ``LICENSE`` and ``THIRD_PARTY_NOTICES.md`` are: the build's bundle, else the checkout."""
    bundle = getattr(sys, "_MEIPASS", None)
    return Path(bundle) if bundle else PROJECT_ROOT


def licence_texts() -> str:
    """The full notices, or where to find them if this installation has no copy."""
    parts = []
    for name in LICENCE_FILES:
        path = notices_folder() / name
        try:
            parts.append(f"===== {name} =====\n\n{path.read_text(encoding='utf-8')}")
        except OSError:
            parts.append(f"===== {name} =====\n\n(not found at {path}; the GPL is at {GPL_URL})")
    return "\n\n".join(parts)


def about_html() -> str:
    """The About text: name, version and the GPL notice (the parts' table is ``components()``)."""
    return (
        f"<h2>{APP_NAME} {app_version()}</h2>"
        "<p>Play five classic games against a search engine and watch it think.</p>"
        f"<p>{APP_NAME} is free software: you can redistribute it and/or modify it under the terms of "
        "the GNU General Public License as published by the Free Software Foundation, either version 3 "
        "of the License, or (at your option) any later version. It comes with ABSOLUTELY NO WARRANTY. "
        f'See "Licence texts" below or <a href="{GPL_URL}">{GPL_URL}</a>.</p>'
    )


NOTICES_NOTE = (
    "Qt is used under the LGPL-3.0 as separate shared libraries, which you may replace. Full texts: "
    "LICENSE, THIRD_PARTY_NOTICES.md and licenses/ beside the program."
)


class LicenceTextsDialog(QDialog):
    """The full licence and notices, read-only and scrollable."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"{APP_NAME} — licence texts")
        self.text = QPlainTextEdit(licence_texts())
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.resize(720, 560)


class AboutDialog(QDialog):
    """Name, version, icon, licence notice and the licences of what the build bundles."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"About {APP_NAME}")
        icon = QLabel()
        icon.setPixmap(app_icon().pixmap(ABOUT_ICON_SIZE, ABOUT_ICON_SIZE))
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.text = QLabel(about_html())
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        self.text.setOpenExternalLinks(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        parts = QGridLayout()
        parts.addWidget(QLabel("<b>Built with</b>"), 0, 0, 1, 3)
        for row, part in enumerate(components(), start=1):
            for column, text in enumerate((part.name, part.role, part.licence)):
                parts.addWidget(QLabel(text), row, column)
        parts.setHorizontalSpacing(18)
        note = QLabel(f"<small>{NOTICES_NOTE}</small>")
        note.setWordWrap(True)
        text_column = QVBoxLayout()
        text_column.addWidget(self.text)
        text_column.addSpacing(6)
        text_column.addLayout(parts)
        text_column.addWidget(note)
        top = QHBoxLayout()
        top.addWidget(icon)
        top.addLayout(text_column, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.licence_button = QPushButton("Licence texts…")
        buttons.addButton(self.licence_button, QDialogButtonBox.ButtonRole.HelpRole)
        self.licence_button.clicked.connect(self.show_licence_texts)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(buttons)
        # Not the dialog's own minimum width: that would stop the layout from widening it to fit
        # the table. The wrapped texts get a width to wrap at instead.
        self.text.setMinimumWidth(TEXT_WIDTH)
        note.setMinimumWidth(TEXT_WIDTH)

    def show_licence_texts(self) -> None:
        LicenceTextsDialog(self).exec()


def show_about(parent: QWidget | None = None) -> None:
    """Show the About box (modal to ``parent``); what the Help → About menu entry calls."""
    AboutDialog(parent).exec()
