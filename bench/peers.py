"""Peer engines for benchmarks, each in its own virtual environment under ``bench/.peers``.

Sunfish pins ``chess==1.9.4``, so it must never be installed beside the project: it gets a
private venv, created here on first use. Nothing in the app or the tests uses these.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv
from pathlib import Path

PEERS_DIR = Path(__file__).resolve().parent / ".peers"
PROJECT_ROOT = Path(__file__).resolve().parent.parent


def sunfish_command() -> list[str]:
    """The command that runs Sunfish as a UCI engine (installing it on first use)."""
    environment = PEERS_DIR / "sunfish"
    executable = environment / "bin" / "sunfish-uci"
    if not executable.exists():
        print("setting up the Sunfish peer in", environment, file=sys.stderr)
        venv.create(environment, with_pip=True)
        subprocess.run([str(environment / "bin" / "pip"), "install", "-q", "sunfish"], check=True)
    return [str(executable)]


def plyground_command() -> list[str]:
    """The command that runs Plyground's own UCI engine from this checkout."""
    return [sys.executable, "-m", "ai.cli", "uci"]


def stockfish_command() -> list[str] | None:
    """Debian's Stockfish, when installed (a strength reference, not a peer to beat)."""
    path = shutil.which("stockfish") or ("/usr/games/stockfish" if Path("/usr/games/stockfish").exists() else None)
    return [path] if path else None
