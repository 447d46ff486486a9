"""Whether the compiled extensions must be there, for the tests that compare them with Python.

The C extensions are optional (setup.py builds them when it can), so a test of one has to
decide what its absence means. A skip is right on a machine that cannot build them; anywhere
else a skip would let a broken build stop the C/Python comparison without a word. So a
missing extension *fails* its tests when:

* ``PLYGROUND_EXPECT_NATIVE`` is set to anything but 0 (``make test``, and so CI, sets it), or
* it is unset and a C compiler is installed (setup.py would have built the extension).

It is skipped, with the reason in the skip message, when ``PLYGROUND_EXPECT_NATIVE=0``, when no
C compiler is found, or when ``PLYGROUND_PYTHON_HOTPATHS`` asks for the Python paths on purpose.
"""

from __future__ import annotations

import functools
import importlib
import os
import shutil
import sysconfig
from collections.abc import Callable
from typing import Any, Final, TypeVar

import pytest

from games.native import FORCE_PYTHON_VARIABLE

EXPECT_VARIABLE: Final = "PLYGROUND_EXPECT_NATIVE"
"""Set to 1 where the extensions must be built (``make test``), 0 to accept their absence."""

Test = TypeVar("Test", bound=Callable[..., Any])


def c_compiler() -> str | None:
    """The C compiler setup.py would use (the one Python was built with), if installed."""
    command = (sysconfig.get_config_var("CC") or "cc").split()
    return shutil.which(command[0]) if command else None


def expected() -> tuple[bool, str]:
    """(whether a missing extension is an error here, the reason in words)."""
    if os.environ.get(FORCE_PYTHON_VARIABLE, "") not in ("", "0"):
        return False, f"{FORCE_PYTHON_VARIABLE} asks for the Python paths"
    setting = os.environ.get(EXPECT_VARIABLE)
    if setting is not None:
        return setting != "0", f"{EXPECT_VARIABLE}={setting}"
    compiler = c_compiler()
    if compiler is None:
        return False, "no C compiler is installed"
    return True, f"a C compiler is installed ({compiler}); {EXPECT_VARIABLE}=0 accepts the Python paths"


def _message(what: str, backend: str) -> tuple[bool, str]:
    must, why = expected()
    if must:
        return True, f"{what} is not built, but the compiled extensions are expected here ({why}): {backend}"
    return False, f"{what} is not built ({why}): {backend}"


def require_module(available: bool, what: str, backend: str) -> None:
    """At the top of a test module that needs ``what`` throughout: nothing when it loaded;
    else the module fails to collect when the extension is expected, and is skipped when not."""
    if available:
        return
    must, message = _message(what, backend)
    if must:
        pytest.fail(message, pytrace=False)
    pytest.skip(message, allow_module_level=True)


def requires(available: bool, what: str, backend: str) -> Callable[[Test], Test]:
    """Decorator for one test that needs ``what``: the test as it is when it loaded; else a
    test that fails (the extension is expected) or is skipped (it is not)."""

    def decorate(test: Test) -> Test:
        if available:
            return test
        must, message = _message(what, backend)
        if not must:
            return pytest.mark.skip(reason=message)(test)

        @functools.wraps(test)
        def missing(*args: Any, **kwargs: Any) -> None:
            pytest.fail(message, pytrace=False)

        return missing  # type: ignore[return-value]

    return decorate


def import_extension(name: str) -> tuple[Any, str]:
    """The extension module ``name`` imported directly (whatever ``PLYGROUND_PYTHON_HOTPATHS``
    says: its own tests run when it is built), or ``None`` and why not."""
    try:
        return importlib.import_module(name), f"{name} loaded"
    except ImportError as error:
        return None, f"{name} did not load: {error}"
