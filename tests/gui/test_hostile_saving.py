"""Saving writes the user's file, never replaces something else: through symbolic links,
keeping the file's permissions, refusing missing folders and files that are not regular
(a device, a pipe, a folder) — and still atomically for a regular file."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from gui.autosave import write_atomically


def test_a_symbolic_link_is_written_through(tmp_path: Path) -> None:
    real = tmp_path / "real.pgn"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.pgn"
    link.symlink_to(real)
    write_atomically(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text(encoding="utf-8") == "new"


def test_the_file_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "shared.pgn"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o664)
    write_atomically(path, "new")
    assert stat.S_IMODE(path.stat().st_mode) == 0o664 and path.read_text(encoding="utf-8") == "new"


def test_a_new_file_gets_the_umask_not_private_permissions(tmp_path: Path) -> None:
    mask = os.umask(0o022)
    try:
        write_atomically(tmp_path / "new.pgn", "text")
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "new.pgn").stat().st_mode) == 0o644


def test_a_missing_folder_is_refused_not_made(tmp_path: Path) -> None:
    with pytest.raises(OSError) as caught:
        write_atomically(tmp_path / "no" / "such" / "game.pgn", "text")
    assert "does not exist" in str(caught.value.strerror)
    assert not (tmp_path / "no").exists()


def test_a_pipe_or_a_folder_is_refused_and_left_alone(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.pgn"
    os.mkfifo(pipe)
    with pytest.raises(OSError) as caught:
        write_atomically(pipe, "text")
    assert "not a regular file" in str(caught.value.strerror)
    assert stat.S_ISFIFO(pipe.lstat().st_mode)
    folder = tmp_path / "folder.pgn"
    folder.mkdir()
    with pytest.raises(OSError):
        write_atomically(folder, "text")
    assert folder.is_dir()


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_device_is_refused(tmp_path: Path) -> None:
    """A device node of its own in a temporary folder (a null device): were the rule
    broken, the test would replace that node, never one of the system's."""
    device = tmp_path / "null"
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    with pytest.raises(OSError) as caught:
        write_atomically(device, "text")
    assert "not a regular file" in str(caught.value.strerror)
    assert stat.S_ISCHR(device.lstat().st_mode)


def test_a_regular_file_is_replaced_atomically(tmp_path: Path) -> None:
    path = tmp_path / "game.pgn"
    path.write_text("old", encoding="utf-8")
    inode = path.stat().st_ino
    write_atomically(path, "new")
    assert path.read_text(encoding="utf-8") == "new"
    assert path.stat().st_ino != inode  # a new file moved over the old one, not rewritten in place
    assert [entry.name for entry in tmp_path.iterdir()] == ["game.pgn"]  # no temporary left
