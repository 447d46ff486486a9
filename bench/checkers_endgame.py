"""Build the checkers endgame databases shipped in ``resources/endgames/checkers_4.xz``.

Run: ``.venv/bin/python bench/checkers_endgame.py [--output PATH]`` (needs a C compiler;
about 2.5 minutes of one core). It compiles ``bench/checkers_endgame.c`` (the retrograde
generator; its comment and ``games/checkers/endgame.py`` describe the layout), runs it, and
compresses its tables with LZMA into the resource the app reads. The app itself never runs
the generator: the databases are data, like the evaluation weights.

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
sys.path.insert(0, str(ROOT))

from games.checkers.endgame import DATABASE_FILE, DATABASE_FOLDER, TOTAL_SIZE  # noqa: E402

SOURCE = ROOT / "bench" / "checkers_endgame.c"
OUTPUT = ROOT / "resources" / DATABASE_FOLDER / DATABASE_FILE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--raw", type=Path, help="use these already generated raw tables")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        raw = args.raw
        if raw is None:
            compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
            if compiler is None:
                sys.exit("error: no C compiler (cc, gcc or clang) on PATH")
            program = Path(folder) / "checkers_endgame"
            subprocess.run([compiler, "-O2", "-o", str(program), str(SOURCE)], check=True)
            raw = Path(folder) / "tables.bin"
            started = time.perf_counter()
            subprocess.run([str(program), str(raw)], check=True)
            print(f"generated in {time.perf_counter() - started:.0f} s")
        data = raw.read_bytes()
        if len(data) != TOTAL_SIZE:
            sys.exit(f"error: {raw}: {len(data)} bytes, expected {TOTAL_SIZE}")
        packed = lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_bytes(packed)
    print(f"{args.output}: {len(data):,} bytes of tables, {len(packed):,} compressed")


if __name__ == "__main__":
    main()
