"""The rule that decides whether a missing C extension fails or skips its tests
(``tests/native_extensions.py``): a build that lost an extension must turn ``make test`` red."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.native import FORCE_PYTHON_VARIABLE
from tests import native_extensions
from tests.native_extensions import EXPECT_VARIABLE, expected, require_module, requires


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.delenv(EXPECT_VARIABLE, raising=False)
    monkeypatch.delenv(FORCE_PYTHON_VARIABLE, raising=False)
    return monkeypatch


def test_the_makefile_asks_for_the_extensions() -> None:
    """``make test`` (and so CI, .ci/run) runs the suite with the extensions expected."""
    makefile = (Path(__file__).resolve().parents[1] / "Makefile").read_text()
    test_recipe = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert f"{EXPECT_VARIABLE}=1" in test_recipe


@pytest.mark.parametrize(
    ("setting", "compiler", "must"),
    [("1", None, True), ("0", "/usr/bin/cc", False), (None, "/usr/bin/cc", True), (None, None, False)],
)
def test_expected_follows_the_variable_then_the_compiler(
    environment: pytest.MonkeyPatch, setting: str | None, compiler: str | None, must: bool
) -> None:
    if setting is not None:
        environment.setenv(EXPECT_VARIABLE, setting)
    environment.setattr(native_extensions, "c_compiler", lambda: compiler)
    assert expected()[0] is must


def test_asking_for_the_python_paths_is_never_an_error(environment: pytest.MonkeyPatch) -> None:
    environment.setenv(EXPECT_VARIABLE, "1")
    environment.setenv(FORCE_PYTHON_VARIABLE, "1")
    assert expected() == (False, f"{FORCE_PYTHON_VARIABLE} asks for the Python paths")


def test_a_missing_extension_fails_where_expected_and_skips_elsewhere(environment: pytest.MonkeyPatch) -> None:
    environment.setenv(EXPECT_VARIABLE, "1")
    with pytest.raises(pytest.fail.Exception, match="not built, but the compiled extensions are expected"):
        require_module(False, "the example extension", "did not load: no such file")
    failing = requires(False, "the example extension", "did not load")(lambda: None)
    with pytest.raises(pytest.fail.Exception, match="the example extension"):
        failing()
    environment.setenv(EXPECT_VARIABLE, "0")
    with pytest.raises(pytest.skip.Exception, match="PLYGROUND_EXPECT_NATIVE=0"):
        require_module(False, "the example extension", "did not load")

    def test() -> None:
        pass

    skipped = requires(False, "the example extension", "did not load")(test)
    assert [mark.name for mark in skipped.pytestmark] == ["skip"]  # type: ignore[attr-defined]


def test_a_loaded_extension_changes_nothing(environment: pytest.MonkeyPatch) -> None:
    environment.setenv(EXPECT_VARIABLE, "1")
    require_module(True, "the example extension", "loaded")

    def test() -> None:
        pass

    assert requires(True, "the example extension", "loaded")(test) is test
