"""The About box (version, licences, icon) and the startup probe that bench/startup.py and
the packaging check read (``gui.about``, ``gui.startup_probe``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot

from gui.about import AboutDialog, LicenceTextsDialog, about_html, app_icon, app_version, components, licence_texts

ROOT = Path(__file__).resolve().parent.parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256)


def test_about_reports_the_pyproject_version_and_every_licence() -> None:
    assert app_version() == PYPROJECT["project"]["version"]
    assert "GNU General Public License" in about_html() and "ABSOLUTELY NO WARRANTY" in about_html()
    listed = " ".join(f"{part.name} {part.licence}" for part in components())
    for text in ("GPL-3.0-or-later", "LGPL-3.0", "python-chess", "PySide6", "DejaVu", "Burnett", "PSF-2.0"):
        assert text in listed, text
    texts = licence_texts()
    assert "GNU GENERAL PUBLIC LICENSE" in texts and "Third-party notices" in texts


def test_about_dialog_shows_the_icon_and_opens_the_licence_texts(qtbot: QtBot) -> None:
    assert sorted(size.width() for size in app_icon().availableSizes()) == list(ICON_SIZES)
    dialog = AboutDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    shown = [label.text() for label in dialog.findChildren(QLabel)]
    assert "GPL-3.0-or-later" in shown and "LGPL-3.0-only" in shown
    assert all(label.width() >= label.sizeHint().width() for label in dialog.findChildren(QLabel)
               if not label.wordWrap())  # nothing clipped
    texts = LicenceTextsDialog(dialog)
    qtbot.addWidget(texts)
    assert "END OF TERMS AND CONDITIONS" in texts.text.toPlainText()


def test_help_about_opens_this_box(qtbot: QtBot, bridge: Any, data_directory: Path) -> None:
    from gui.main_window import MainWindow

    window = MainWindow(bridge=bridge, data_directory=data_directory, offer_resume=False)
    qtbot.addWidget(window)
    window.show()
    shown: list[QWidget | None] = []

    def close_the_box() -> None:  # the box is modal: look at it and close it from the event loop
        box = QApplication.activeModalWidget()
        shown.append(box)
        if box is not None:
            box.close()

    QTimer.singleShot(0, close_the_box)
    window.actions_by_name["about"].trigger()
    window.shutdown()
    assert len(shown) == 1 and isinstance(shown[0], AboutDialog)


def test_startup_probe_reports_the_first_paint_and_ends_the_app(tmp_path: Path) -> None:
    report = tmp_path / "painted.json"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PLYGROUND_STARTUP_PROBE=str(report),
               XDG_CONFIG_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path), PLYGROUND_DATA_DIR=str(tmp_path))
    result = subprocess.run([sys.executable, "-m", "gui"], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    probe = json.loads(report.read_text())
    assert probe["painted_at"] > 0 and probe["font"] in probe["families"]
    assert probe["version"] == PYPROJECT["project"]["version"] and probe["window_icon_sizes"]
