"""The standalone build's inputs, checked fast (the build itself is ``make package`` in CI).

The spec must be valid Python and carry the licences; the frozen entry must call
``freeze_support()`` before anything else runs (spawned workers re-run the script); one
executable serves both the app and the engine's command line; the licence files, the icons
and the desktop entry are complete and consistent with ``pyproject.toml``.
"""

from __future__ import annotations

import ast
import configparser
import importlib.util
import struct
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
SPEC = (PACKAGING / "plyground.spec").read_text()
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256)


def load_module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


# ------------------------------------------------------------------ spec and entry point
def test_spec_is_python_and_collects_the_dynamically_imported_packages() -> None:
    compile(SPEC, "plyground.spec", "exec")
    for package in ("games", "ai", "gui"):
        assert f'collect_submodules("{package}")' in SPEC
    assert "upx=False" in SPEC and "upx=True" not in SPEC


def test_spec_ships_the_licences_and_the_version_metadata() -> None:
    assert 'NOTICES = ["LICENSE", "THIRD_PARTY_NOTICES.md"]' in SPEC
    assert '(os.path.join(SPECPATH, "licenses"), "licenses")' in SPEC
    assert "copy_metadata(NAME)" in SPEC and 'NAME = "plyground"' in SPEC
    assert '"linux", "plyground.desktop"' in SPEC


def test_freeze_support_comes_first_in_the_main_block() -> None:
    tree = ast.parse((PACKAGING / "run_app.py").read_text())
    main_blocks = [
        node for node in tree.body
        if isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
        and getattr(node.test.left, "id", None) == "__name__"
    ]
    assert len(main_blocks) == 1
    first = main_blocks[0].body[0]
    assert isinstance(first, ast.Expr) and ast.unparse(first.value) == "multiprocessing.freeze_support()"
    # and no project module is imported at the top of the script, before it
    top_imports = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    names = {alias.name.split(".")[0] for node in top_imports for alias in node.names}
    names |= {node.module.split(".")[0] for node in top_imports if isinstance(node, ast.ImportFrom) and node.module}
    assert not names & {"ai", "games", "gui"}


@pytest.mark.parametrize(
    ("argv", "entry"),
    [([], "gui"), (["--smoke-test"], "gui"), (["perft", "--game", "chess", "--depth", "1"], "cli"),
     (["uci"], "cli"), (["analyse"], "cli"), (["--help"], "gui"), (["--self-test"], "gui")],
)
def test_one_executable_serves_app_and_command_line(argv: list[str], entry: str) -> None:
    assert load_module(PACKAGING / "run_app.py").choose_entry(argv) == entry


def test_the_cli_route_runs_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    assert load_module(PACKAGING / "run_app.py").main(["perft", "--game", "tictactoe", "--depth", "2"]) == 0
    assert capsys.readouterr().out.strip() == "72"


# ------------------------------------------------------------------------------ licences
def test_plyground_is_gpl3_or_later_with_the_full_licence_text() -> None:
    assert PYPROJECT["project"]["license"] == "GPL-3.0-or-later"
    text = (ROOT / "LICENSE").read_text()
    assert text.lstrip().startswith("GNU GENERAL PUBLIC LICENSE")
    assert "Version 3, 29 June 2007" in text and "END OF TERMS AND CONDITIONS" in text
    for pattern in PYPROJECT["project"]["license-files"]:
        assert list(ROOT.glob(pattern)), f"license-files entry {pattern} matches nothing"


def test_third_party_notices_name_every_bundled_part_and_their_texts_exist() -> None:
    notices = (ROOT / "THIRD_PARTY_NOTICES.md").read_text()
    for part in ("python-chess", "Qt", "PySide6", "LGPL-3.0", "DejaVu", "Burnett", "PSF-2.0", "PyInstaller", "ICU"):
        assert part in notices, part
    assert (PACKAGING / "licenses" / "LGPL-3.0.txt").read_text().lstrip().startswith("GNU LESSER GENERAL PUBLIC")
    for name in ("LGPL-3.0.txt", "Python-PSF-2.0.txt"):
        assert f"licenses/{name}" in notices and (PACKAGING / "licenses" / name).stat().st_size > 1000


def test_system_library_licences_are_looked_up_only_for_system_paths() -> None:
    licences = load_module(PACKAGING / "system_licenses.py")
    assert licences.copyright_files(["/work/venv/site-packages/PySide6/Qt/lib/libQt6Core.so.6"]) == {}
    assert "/lib/x86_64-linux-gnu/libz.so.1" in licences.candidate_paths("/usr/lib/x86_64-linux-gnu/libz.so.1")


# ------------------------------------------------------------------ icons and desktop entry
def test_icon_pngs_have_their_sizes_and_the_svg_is_xml() -> None:
    icons = ROOT / "resources" / "icons"
    for size in ICON_SIZES:
        assert png_size(icons / f"plyground-{size}.png") == (size, size)
    import xml.etree.ElementTree as ElementTree

    assert ElementTree.parse(icons / "plyground.svg").getroot().tag.endswith("svg")


def test_windows_and_macos_icons_hold_png_images_of_the_listed_sizes() -> None:
    ico = (PACKAGING / "icons" / "plyground.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind, count) == (0, 1, len(ICON_SIZES))
    sizes = [ico[6 + 16 * index] or 256 for index in range(count)]
    assert sizes == list(ICON_SIZES)
    icns = (PACKAGING / "icons" / "plyground.icns").read_bytes()
    assert icns[:4] == b"icns" and struct.unpack(">I", icns[4:8])[0] == len(icns)
    assert b"ic08" in icns and b"\x89PNG" in icns


DESKTOP_KEYS = {
    "Type", "Version", "Name", "GenericName", "Comment", "Exec", "Icon", "Terminal", "Categories",
    "Keywords", "StartupNotify", "StartupWMClass",
}
"""Keys of the freedesktop Desktop Entry Specification 1.4 that the entry may use."""


def test_desktop_entry_has_the_required_keys_and_valid_values() -> None:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read_string((PACKAGING / "linux" / "plyground.desktop").read_text())
    assert parser.sections() == ["Desktop Entry"]
    entry = parser["Desktop Entry"]
    assert set(entry) <= DESKTOP_KEYS, set(entry) - DESKTOP_KEYS
    assert entry["Type"] == "Application" and entry["Name"] == "Plyground"
    assert entry["Exec"].split()[0] == "plyground" and entry["Terminal"] == "false"
    assert entry["Icon"] == "plyground"  # the hicolor name the spec installs
    for key in ("Categories", "Keywords"):
        assert entry[key].endswith(";")
    assert "Game" in entry["Categories"].split(";")
    assert entry["StartupNotify"] in ("true", "false")
