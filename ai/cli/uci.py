"""``plyground uci``: the UCI chess engine on stdin/stdout (the protocol is ``ai.uci``)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ai.cli.arguments import UsageError


def add_parser(commands: Any) -> None:
    uci = commands.add_parser("uci", help="run as a UCI chess engine on stdin/stdout")
    uci.set_defaults(handler=command_uci)


def command_uci(_args: argparse.Namespace) -> int:
    """Speak UCI on stdin/stdout until ``quit``."""
    from ai.uci import serve  # python-chess loads when the engine runs, not for --help

    if sys.stdin is None:  # started with stdin closed (``<&-``): Python gives no stream at all
        raise UsageError("the standard input is closed: no UCI command can be read")
    return serve(sys.stdin, sys.stdout)
