"""The game in progress, written after every move so that no game is ever lost.

The autosave is a Plyground JSON game file (see ``gui.gamefile``) with one more key,
``"autosave"``: the sides' settings and whether the app closed cleanly. It is written
atomically (a temporary file in the same directory, flushed and synced, then
``os.replace``), so a crash or a kill in the middle of a write leaves the previous complete
file, never half of one. At start-up a file that says ``"clean_exit": false`` means the app
died during a game: the app offers to resume it.
"""

from __future__ import annotations

import errno
import json
import os
import stat
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
    """Write ``text`` to the file ``path`` names, in one step: readers see the old or the
    new file, never half of one.

    What a save must do to the user's file (the rules a text editor keeps):

    * a symbolic link is written through: the file it points to gets the text and the link
      stays (replacing the link would leave the real file unchanged while "Saved" shows);
    * the file keeps its permissions (and, where allowed, its owner): a 0664 file stays
      0664; a new file gets the usual ``0666`` less the umask, not a temporary file's 0600;
    * a folder that does not exist is refused, never made (a typing slip in a path must
      not grow folders);
    * only a regular file is replaced: a device (``/dev/full``), a pipe or a folder is
      refused, so a save never replaces a device node.

    The text goes to a temporary file beside the target, flushed and synced, then
    ``os.replace``-d over it. When the folder does not let a file be made but the file
    itself may be written, the file is overwritten in place instead.
    """
    target = Path(os.path.realpath(path))
    folder = target.parent
    if not folder.is_dir():
        raise FileNotFoundError(errno.ENOENT, f"the folder {folder} does not exist")
    try:
        status = os.stat(target)
    except FileNotFoundError:
        status = None
    if status is not None and stat.S_ISDIR(status.st_mode):
        raise IsADirectoryError(errno.EISDIR, f"{target} is a folder, not a file")
    if status is not None and not stat.S_ISREG(status.st_mode):
        raise OSError(errno.EINVAL, f"{target} is not a regular file (a device or a pipe): choose a file to save to")
    data = text.encode("utf-8")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except PermissionError:
        if status is None or not os.access(target, os.W_OK):
            raise
        with open(target, "r+b") as file:  # a read-only folder: the file's own bytes, in place
            file.write(data)
            file.truncate()
            file.flush()
            os.fsync(file.fileno())
        return
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fchmod(file.fileno(), stat.S_IMODE(status.st_mode) if status is not None else NEW_FILE_MODE & ~_umask())
            if status is not None and (status.st_uid, status.st_gid) != (os.getuid(), os.getgid()):
                try:
                    os.fchown(file.fileno(), status.st_uid, status.st_gid)
                except OSError:
                    pass  # only the owner's group or root may give a file away: it stays the writer's
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


NEW_FILE_MODE = 0o666
"""A new file's permissions before the umask, as ``open`` makes one."""


def _umask() -> int:
    """The process's umask (reading it means setting it: set straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


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
    directory.mkdir(parents=True, exist_ok=True)  # the app's own folder may be made again
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
