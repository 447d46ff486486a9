"""Chess: python-chess's rules behind the Plyground game protocol.

The package is called ``chess_game`` so that it can never shadow python-chess's ``chess``.

* ``state``: ``ChessState`` (moves are ``chess.Move``, positions FEN, move names SAN), with
  an incremental polyglot key and PeSTO score;
* ``evaluation`` and ``tables``: the EVAL and its weights, kept as data;
* ``notation``: FEN/SAN/UCI parsing with precise error messages;
* ``pgn``: whole games as PGN (``to_pgn``/``from_pgn``).
"""

from __future__ import annotations

from games.chess_game.pgn import PgnError, PgnGame, from_pgn, game_result, to_pgn
from games.chess_game.state import ChessState

__all__ = ["ChessState", "PgnError", "PgnGame", "from_pgn", "game_result", "to_pgn"]
