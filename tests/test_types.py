"""The type hints are checked by a tool, not only read: mypy over ``games``, ``ai`` and ``gui``
(the settings are ``[tool.mypy]`` in pyproject.toml).

Why in the suite: the hints are the contract between the engine, the bridge and the panels
(dataclass messages, ``GameState`` subclasses); a mistyped one is a bug waiting for the
one game whose state lacks the attribute (as the backgammon board's ``phase`` reads were
until this check named them)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_app_packages_type_check(monkeypatch: pytest.MonkeyPatch) -> None:
    api = pytest.importorskip("mypy.api", reason="mypy is in the test extra; run `make setup`")
    monkeypatch.chdir(ROOT)  # the config names the packages from the project's root
    with tempfile.TemporaryDirectory() as cache:
        stdout, stderr, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", cache])
    assert status == 0, stdout + stderr
