"""The game in progress, written after every move so that no game is ever lost.

The autosave is a Plyground JSON game file (see ``gui.gamefile``) with one more key,
``"autosave"``: the sides' settings, the clocks (a game on a clock: the time left with the
turn going on) and whether the app closed cleanly. It is written
atomically (a temporary file in the same directory, flushed and synced, then
``os.replace``), so a crash or a kill in the middle of a write leaves the previous complete
file, never half of one. At start-up a file that says ``"clean_exit": false`` means the app
died during a game: the app offers to resume it. A file that cannot be read is never
overwritten unseen: ``check`` (at start-up) and ``save`` keep it as ``autosave.json.bad``.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from gui.gamefile import MAX_FILE_BYTES, GameRecord, RecordError, one_line, read_game, write_game
from gui.players import COMPUTER, PlayerConfig, sides_from_data

AUTOSAVE_NAME = "autosave.json"


@dataclass
class Autosaved:
    record: GameRecord
    players: tuple[PlayerConfig, PlayerConfig]
    clean_exit: bool
    finished: bool
    match: object = None
    """A backgammon match's entry (``gui.match_session.MatchSession.to_dict``) as read,
    unchecked: the match session checks it against the game (``MatchSession.restore``)."""
    clock: object = None
    """The clocks when the game was saved (``games.clock.Clock.to_json``: the time control,
    each player's time left with the turn going on, whose turn) as read, unchecked: the
    session checks it (``GameSession.restore_clock_state``) and resumes it paused."""


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
    match: object = None,
    clock: object = None,
) -> Path:
    """Write the game; an autosave already there that cannot be read is first kept as
    ``autosave.json.bad`` (the user's last game is never silently overwritten)."""
    document = json.loads(write_game(record, "json"))
    document["autosave"] = {
        "players": [side.to_dict() for side in players],
        "clean_exit": clean_exit,
        "finished": finished,
    }
    if match is not None:  # the game is one of a backgammon match
        document["autosave"]["match"] = match
    if clock is not None:  # the game is played on a clock
        document["autosave"]["clock"] = clock
    path = directory / AUTOSAVE_NAME
    directory.mkdir(parents=True, exist_ok=True)  # the app's own folder may be made again
    if _signature(path) not in (None, _known_good.get(path)):
        try:
            _read(path)
        except UnreadableAutosave:
            if keep_aside(path) is None:  # no copy: the file is kept, this game is not autosaved
                raise OSError(errno.EEXIST, f"{path} cannot be read and cannot be moved aside: it is kept") from None
    write_atomically(path, json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    _known_good[path] = _signature(path)
    return path


class UnreadableAutosave(Exception):
    """The autosave file is there but is no game the app can resume; says why."""


BAD_SUFFIX = ".bad"
"""An unreadable autosave is kept beside it under this suffix, for the user to look at."""

_known_good: dict[Path, tuple[int, int, int] | None] = {}
"""The file (inode, size, modification time) last written or read successfully here: a
save checks what it replaces only when the file changed since (cheap on every move)."""


def _signature(path: Path) -> tuple[int, int, int] | None:
    try:
        status = path.stat()
    except OSError:
        return None
    return (status.st_ino, status.st_size, status.st_mtime_ns)


def _read(path: Path) -> tuple[GameRecord, dict[str, object]]:
    """The record and the ``autosave`` entry of ``path``; ``UnreadableAutosave`` says why
    not (``FileNotFoundError`` when there is no file)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a pipe would block the start for ever
            raise UnreadableAutosave("it is not a regular file")
        with open(path, "rb") as file:
            raw = file.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise
    except OSError as error:
        raise UnreadableAutosave(f"it cannot be read: {error.strerror or error}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise UnreadableAutosave(f"it is far bigger than a game ({MAX_FILE_BYTES:,} bytes at most)")
    try:
        text = raw.decode("utf-8")
        record = read_game(text, "json")
        extra = json.loads(text).get("autosave", {})
    except (ValueError, RecordError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        raise UnreadableAutosave(str(error).splitlines()[0] if str(error) else type(error).__name__) from None
    return record, extra if isinstance(extra, dict) else {}


def _players(extra: dict[str, object], game: str) -> tuple[tuple[PlayerConfig, PlayerConfig], str]:
    """The sides saved with the game, or the default sides and why they were not used."""
    sides = extra.get("players")
    if sides is None:
        return (PlayerConfig(), PlayerConfig(kind=COMPUTER).for_game(game)), ""
    players, problem = sides_from_data(sides, game)
    return players, f"the sides saved with it: {problem}" if problem else ""


def keep_aside(path: Path) -> Path | None:
    """Move ``path`` to ``path.bad`` (replacing an older copy); the copy's path, or None
    when it could not be moved (then the file stays where it is)."""
    copy = path.with_name(path.name + BAD_SUFFIX)
    try:
        os.replace(path, copy)
    except OSError:
        return None
    return copy


def check(directory: Path) -> str | None:
    """At start-up: ``None`` when the autosave reads (or there is none), else the one
    message for the user. An unreadable file is kept as ``autosave.json.bad`` and no
    longer offered; a game whose sides cannot be read is offered with the default sides."""
    path = directory / AUTOSAVE_NAME
    try:
        record, extra = _read(path)
    except FileNotFoundError:
        return None
    except UnreadableAutosave as error:
        copy = keep_aside(path)
        where = f"it is kept as {copy}" if copy is not None else f"it stays as {path}"
        return f"The autosaved game could not be read ({one_line(str(error), 160)}): {where}, and a new autosave starts."
    _known_good[path] = _signature(path)
    _sides, problem = _players(extra, record.game)
    if problem:
        return f"The autosaved game is kept, but {problem}: human against computer instead."
    return None


def load(directory: Path) -> Autosaved | None:
    """The autosaved game, or ``None`` when there is none or it cannot be read (a file
    that fails to read is never the reason the app does not start: ``check`` says why)."""
    path = directory / AUTOSAVE_NAME
    try:
        record, extra = _read(path)
    except (FileNotFoundError, UnreadableAutosave):
        return None
    players, _problem = _players(extra, record.game)
    return Autosaved(
        record=record,
        players=players,
        clean_exit=bool(extra.get("clean_exit", True)),
        finished=bool(extra.get("finished", False)),
        match=extra.get("match"),
        clock=extra.get("clock"),
    )


def mark_clean_exit(directory: Path) -> None:
    """Record that the app closed normally (the game stays for "Continue")."""
    saved = load(directory)
    if saved is not None and not saved.clean_exit:
        save(directory, saved.record, saved.players, clean_exit=True, finished=saved.finished, match=saved.match, clock=saved.clock)
