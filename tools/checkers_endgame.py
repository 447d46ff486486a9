"""Build the checkers endgame databases shipped in ``resources/endgames/``: ``checkers_4.xz``
(every position of 2-4 pieces) and ``checkers_5.blk`` (three kings against two pieces).

Run: ``.venv/bin/python -m tools.checkers_endgame`` (needs a C compiler; a few minutes of one
core; ``--four-only`` builds just the first file in under a minute).
It compiles ``tools/checkers_endgame.c`` (the retrograde generator; its comment and
``games/checkers/endgame.py`` describe the layout), runs it, and compresses its tables into
the resources the app reads: LZMA for the small file, zlib blocks for the large one (read a
block at a time). The app itself never runs the generator: the databases are data, like the
evaluation weights.

``tests/games/test_checkers_endgame.py`` checks the shipped file against the rules as
``CheckersState`` implements them (an independent move generator) and against known results.
"""

from __future__ import annotations

import argparse
import lzma
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from games.checkers.endgame import (
    DATABASE_FILE,
    DATABASE_FOLDER,
    FIVE_FILE,
    FIVE_SIZE,
    TOTAL_SIZE,
    pack_blocks,
)

SOURCE = ROOT / "tools" / "checkers_endgame.c"
FOLDER = ROOT / "resources" / DATABASE_FOLDER


def read_raw(path: Path, size: int) -> bytes:
    data = path.read_bytes()
    if len(data) != size:
        sys.exit(f"error: {path}: {len(data)} bytes, expected {size}")
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=FOLDER, help="where to write the two files")
    parser.add_argument("--four-only", action="store_true", help="build only the tables of 2-4 pieces")
    parser.add_argument("--raw", type=Path, nargs="+", metavar="FILE",
                        help="use these already generated raw tables (2-4 pieces, then 5)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        raws = args.raw
        if raws is None:
            compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
            if compiler is None:
                sys.exit("error: no C compiler (cc, gcc or clang) on PATH")
            program = Path(folder) / "checkers_endgame"
            # -march=native: the generator counts bits all the time (popcnt); it runs here only.
            subprocess.run([compiler, "-O3", "-march=native", "-o", str(program), str(SOURCE)], check=True)
            raws = [Path(folder) / "tables_4.bin"] + ([] if args.four_only else [Path(folder) / "tables_5.bin"])
            started = time.perf_counter()
            subprocess.run([str(program), *map(str, raws)], check=True)
            print(f"generated in {time.perf_counter() - started:.0f} s")
        args.folder.mkdir(parents=True, exist_ok=True)
        four = read_raw(raws[0], TOTAL_SIZE)
        packed = lzma.compress(four, preset=9 | lzma.PRESET_EXTREME)
        (args.folder / DATABASE_FILE).write_bytes(packed)
        print(f"{args.folder / DATABASE_FILE}: {len(four):,} bytes of tables, {len(packed):,} compressed")
        if len(raws) > 1:
            five = read_raw(raws[1], FIVE_SIZE)
            packed = pack_blocks(five)
            (args.folder / FIVE_FILE).write_bytes(packed)
            print(f"{args.folder / FIVE_FILE}: {len(five):,} bytes of tables, {len(packed):,} compressed")


if __name__ == "__main__":
    main()
