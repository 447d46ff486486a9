"""Match files: every game of a match in one file, in the game's native format.

The record type and the writers and readers are ``games/records.py`` (the app's game files
use the same ones); what is particular to a match file lives here: several games to a file
(PGN and PDN games one after another, separated by a blank line; Plyground JSON one object
a line) and the ``Event`` tag "Plyground match".

Reading checks every move (``GameRecord.replay``), so a file that was written can always be
read back, and reading is how the tests check the files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from games.records import (
    JSON_EXTENSION,
    RecordError,
    default_extension,
    from_json,
    read_pdn,
    read_pgn,
    to_json,
    write_pdn,
    write_pgn,
)
from games.records import GameRecord as GameRecord

MATCH_EVENT = "Plyground match"

_GAME_START = re.compile(r"\n\s*\n(?=\[)")
"""Where the next game of a PGN/PDN match file starts: a blank line, then its tags."""


def write_games(records: Iterable[GameRecord], game: str) -> str:
    """Every record as one text in the game's format (games separated by a blank line,
    JSON one object a line)."""
    fmt = default_extension(game)
    if fmt == "pgn":
        return "\n".join(write_pgn(record, MATCH_EVENT) for record in records)
    if fmt == "pdn":
        return "\n".join(write_pdn(record, MATCH_EVENT) for record in records)
    assert fmt == JSON_EXTENSION
    return "".join(json.dumps(to_json(record), ensure_ascii=False) + "\n" for record in records)


def read_games(text: str, game: str) -> list[GameRecord]:
    """The records of a match file written by ``write_games`` (every move checked)."""
    fmt = default_extension(game)
    if fmt == "pgn":
        return [read_pgn(chunk) for chunk in _split_games(text)]
    if fmt == "pdn":
        return [read_pdn(chunk) for chunk in _split_games(text)]
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                records.append(from_json(json.loads(line)))
            except (json.JSONDecodeError, RecordError) as error:
                raise RecordError(f"line {number}: {error}") from None
    return records


def _split_games(text: str) -> list[str]:
    return [chunk.strip() + "\n" for chunk in _GAME_START.split(text.strip()) if chunk.strip()]
