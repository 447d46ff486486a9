"""The game in progress, written after every move so that no game is ever lost.

The autosave is a Plyground JSON game file (see ``gui.gamefile``) with one more key,
``"autosave"``: the sides' settings and whether the app closed cleanly. It is written
atomically (a temporary file in the same directory, flushed and synced, then
``os.replace``), so a crash or a kill in the middle of a write leaves the previous complete
file, never half of one. At start-up a file that says ``"clean_exit": false`` means the app
died during a game: the app offers to resume it.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from gui.gamefile import GameRecord, RecordError, read_game, write_game
from gui.players import PlayerConfig

AUTOSAVE_NAME = "autosave.json"


@dataclass
class Autosaved:
    record: GameRecord
    players: tuple[PlayerConfig, PlayerConfig]
    clean_exit: bool
    finished: bool


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` in one step: readers see the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def save(
    directory: Path,
    record: GameRecord,
    players: tuple[PlayerConfig, PlayerConfig],
    *,
    clean_exit: bool = False,
    finished: bool = False,
) -> Path:
    document = json.loads(write_game(record, "json"))
    document["autosave"] = {
        "players": [side.to_dict() for side in players],
        "clean_exit": clean_exit,
        "finished": finished,
    }
    path = directory / AUTOSAVE_NAME
    write_atomically(path, json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    return path


def load(directory: Path) -> Autosaved | None:
    """The autosaved game, or ``None`` when there is none or it cannot be read (a file
    that fails to read is never the reason the app does not start)."""
    path = directory / AUTOSAVE_NAME
    try:
        text = path.read_text(encoding="utf-8")
        record = read_game(text, "json")
        extra = json.loads(text).get("autosave", {})
    except (OSError, ValueError, RecordError):
        return None
    if not isinstance(extra, dict):
        extra = {}
    sides = extra.get("players")
    if isinstance(sides, list) and len(sides) == 2:
        players = (PlayerConfig.from_dict(sides[0]).for_game(record.game), PlayerConfig.from_dict(sides[1]).for_game(record.game))
    else:
        players = (PlayerConfig(), PlayerConfig(kind="computer").for_game(record.game))
    return Autosaved(
        record=record,
        players=players,
        clean_exit=bool(extra.get("clean_exit", True)),
        finished=bool(extra.get("finished", False)),
    )


def mark_clean_exit(directory: Path) -> None:
    """Record that the app closed normally (the game stays for "Continue")."""
    saved = load(directory)
    if saved is not None and not saved.clean_exit:
        save(directory, saved.record, saved.players, clean_exit=True, finished=saved.finished)
