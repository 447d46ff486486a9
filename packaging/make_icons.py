"""Render Plyground's icon (``resources/icons/plyground.svg``) in every size a platform asks for.

Writes, from the one SVG:

* ``resources/icons/plyground-<N>.png`` for N in ``PNG_SIZES``: the window icon the app sets
  at run time (one pixmap per size, so small sizes are not scaled down blurrily) and the
  Linux hicolor theme icons installed next to the one-dir build;
* ``packaging/icons/plyground.ico`` (Windows: PNG images inside an ICO container, readable
  since Windows Vista) and ``packaging/icons/plyground.icns`` (macOS: PNG images in the
  ``icp4``..``ic10`` slots) for the spec's ``EXE(icon=...)``/``BUNDLE(icon=...)``.

Run after editing the SVG and commit the results:
``QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/make_icons.py``.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ROOT = Path(__file__).resolve().parent.parent
SVG = ROOT / "resources" / "icons" / "plyground.svg"
PNG_DIR = ROOT / "resources" / "icons"
PLATFORM_DIR = ROOT / "packaging" / "icons"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
ICNS_SLOTS = (("icp4", 16), ("icp5", 32), ("icp6", 64), ("ic07", 128), ("ic08", 256), ("ic09", 512), ("ic10", 1024))
"""Apple's icon types that hold a PNG, with their pixel size (``ic10`` is 512 pt at 2x)."""


def render_png(renderer: QSvgRenderer, size: int) -> bytes:
    """The SVG rendered antialiased on a transparent ``size`` x ``size`` image, as PNG bytes."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise RuntimeError(f"could not encode the {size} px icon as PNG")
    buffer.close()
    return bytes(data.data())


def ico_file(pngs: dict[int, bytes]) -> bytes:
    """An ICO container of PNG images (ICONDIR, one ICONDIRENTRY per size, then the data)."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    entries = b""
    offset = len(header) + 16 * len(pngs)
    for size, png in pngs.items():
        dimension = 0 if size >= 256 else size  # 0 means 256 in an ICONDIRENTRY
        entries += struct.pack("<BBBBHHII", dimension, dimension, 0, 0, 1, 32, len(png), offset)
        offset += len(png)
    return header + entries + b"".join(pngs.values())


def icns_file(pngs: dict[str, bytes]) -> bytes:
    """An ICNS container: ``icns`` + total length, then (type, length incl. header, PNG) blocks."""
    blocks = b"".join(kind.encode("ascii") + struct.pack(">I", 8 + len(png)) + png for kind, png in pngs.items())
    return b"icns" + struct.pack(">I", 8 + len(blocks)) + blocks


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 (QPainter needs it)
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        print(f"make_icons: {SVG} is not a valid SVG", file=sys.stderr)
        return 1
    for size in PNG_SIZES:
        (PNG_DIR / f"plyground-{size}.png").write_bytes(render_png(renderer, size))
    PLATFORM_DIR.mkdir(exist_ok=True)
    (PLATFORM_DIR / "plyground.ico").write_bytes(ico_file({size: render_png(renderer, size) for size in ICO_SIZES}))
    (PLATFORM_DIR / "plyground.icns").write_bytes(
        icns_file({kind: render_png(renderer, size) for kind, size in ICNS_SLOTS})
    )
    print(f"wrote {len(PNG_SIZES)} PNGs to {PNG_DIR} and plyground.ico/.icns to {PLATFORM_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
