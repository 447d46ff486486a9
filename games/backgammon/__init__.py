"""Backgammon (money play and matches, with the doubling cube) in GNU Backgammon's conventions.

* ``board``: points, boards, hops and plays in the mover's numbering (bar 25, off 0).
* ``movegen``: every distinct legal play of a roll, deduplicated by resulting position.
* ``gnubg_ids``: gnubg's Position ID and Match ID, encoded and decoded.
* ``notation``: ``24/18 13/11``-style play names and their lenient parser; rolls; cube actions.
* ``network``: the learned EVAL, a small network fitted to gnubg 0-ply (weights in
  ``resources/weights/backgammon_net.json``); ``BackgammonState.evaluate`` uses it.
* ``cube``: Janowski's cubeful money equity and cube decisions from the network's chances.
* ``match``: a match to N points (score, Crawford rule, the games played); ``met``: the match
  equity table (Kazaross XG2, as data); ``match_cube``: cube decisions and cubeful match
  winning chances at a match score (gnubg's 0-ply ``Cl2CfMatch``).
* ``evaluation``: named race/contact linear features and weights: the baseline the network
  is measured against (``BackgammonState.linear_evaluate``) and the shot-risk helpers.
* ``phase``: the phases of a turn (``Phase``, an ``IntEnum``).
* ``hashing``: the Zobrist keys; ``codec``: moves as integers; ``diagram``: gnubg's text board.
* ``turn``: a turn entered hop by hop (what a board may offer next), for the GUI.
* ``state``: ``BackgammonState``, the ``games.base.GameState`` protocol.
"""

from __future__ import annotations

from games.backgammon.board import BAR, NO_MOVE, OFF, Board, Hop, O, Play, Roll, X
from games.backgammon.evaluation import CONTACT_WEIGHTS, RACE_WEIGHTS
from games.backgammon.gnubg_ids import CENTRED, MatchKey
from games.backgammon.notation import DOUBLE, DROP, NO_DOUBLE, NO_MOVE_NAME, TAKE
from games.backgammon.phase import CHECKER_PLAY, CUBE_DECISION, GAME_OVER, OPENING, ROLL, TAKE_DECISION, Phase
from games.backgammon.state import BackgammonState

__all__ = [
    "BAR",
    "CENTRED",
    "CHECKER_PLAY",
    "CONTACT_WEIGHTS",
    "CUBE_DECISION",
    "DOUBLE",
    "DROP",
    "GAME_OVER",
    "NO_DOUBLE",
    "NO_MOVE",
    "NO_MOVE_NAME",
    "O",
    "OFF",
    "OPENING",
    "Phase",
    "RACE_WEIGHTS",
    "ROLL",
    "TAKE",
    "TAKE_DECISION",
    "X",
    "BackgammonState",
    "Board",
    "Hop",
    "MatchKey",
    "Play",
    "Roll",
]
