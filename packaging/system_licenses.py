"""The licences of the build host's libraries that PyInstaller copies into the bundle.

PyInstaller bundles every shared library the Qt plugins and Python extensions link against
(libX11, libxcb-*, fontconfig, freetype, glib, ...). On a Debian build host each comes from a
package whose licence is in ``/usr/share/doc/<package>/copyright``; the spec calls
``copyright_files`` on the collected binaries and ships those files under
``licenses/system/<package>.copyright``, so the notices match exactly what this build contains.
On a host without dpkg (Windows, macOS, other distributions) the list is empty and the spec
says so in the build log.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable

SYSTEM_PREFIXES = ("/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/")
COPYRIGHT_FILE = "/usr/share/doc/{package}/copyright"


def candidate_paths(path: str) -> list[str]:
    """``path`` as given, resolved, and with/without ``/usr`` (dpkg knows one spelling under usrmerge)."""
    paths = [path, os.path.realpath(path)]
    for known in list(paths):
        paths.append(known[len("/usr") :] if known.startswith("/usr/") else "/usr" + known)
    return list(dict.fromkeys(paths))


def owning_packages(paths: Iterable[str]) -> dict[str, str]:
    """``{path: Debian package}`` for the ``paths`` dpkg knows, in one ``dpkg -S`` call."""
    spellings = {candidate: path for path in paths for candidate in candidate_paths(path)}
    if not spellings:
        return {}
    result = subprocess.run(["dpkg", "-S", *spellings], capture_output=True, text=True, check=False)
    owners: dict[str, str] = {}
    for line in result.stdout.splitlines():  # "libx11-6:amd64: /usr/lib/x86_64-linux-gnu/libX11.so.6"
        package, separator, owned = line.rpartition(": ")
        if separator and owned in spellings:
            owners.setdefault(spellings[owned], package.split(":", 1)[0].strip())
    return owners


def copyright_files(sources: Iterable[str]) -> dict[str, str]:
    """``{package: copyright file}`` for the system libraries among ``sources`` (source paths).

    Libraries that are not under a system prefix (PySide6's Qt, the interpreter) are covered
    by THIRD_PARTY_NOTICES.md; a system library dpkg does not know is listed as ``"?" + path``
    with an empty file name, so the build can say which notice is missing.
    """
    if shutil.which("dpkg") is None:
        return {}
    system = [source for source in sources if source.startswith(SYSTEM_PREFIXES)]
    owners = owning_packages(system)
    found: dict[str, str] = {}
    for source in system:
        package = owners.get(source)
        if package is None:
            found["?" + source] = ""
            continue
        copyright_path = COPYRIGHT_FILE.format(package=package)
        found[package] = copyright_path if os.path.exists(copyright_path) else ""
    return found
