"""Evaluation weights as data: the JSON documents a game's EVAL reads its numbers from.

Samuel's checkers player learned its evaluation weights; so do ours (the tuners in
``tools/tune_<game>.py``). Keeping the numbers out of the code means a tuned set ships as a
file in ``resources/weights/``, and a match can pit two sets against each other
(``plyground match --a weights=new.json --b default``) without touching a line of code.

A weights document is a JSON object::

    {"game": "chess", "format": 1, "description": "...", "weights": {name: value, ...}}

where each value is a number or a (nested) list of numbers; the game interprets the names
(``GameState.set_weights``). Anything else is refused here with one line saying what is
wrong, before a search starts.
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from pathlib import Path
from collections.abc import Iterable, Mapping
from typing import Any, Final

WEIGHTS_PACKAGE: Final = "resources"
WEIGHTS_FOLDER: Final = "weights"
FORMAT: Final = 1
MAX_FILE_BYTES: Final = 64 * 1024 * 1024
"""A weights file larger than this is refused rather than read (pattern tables are a few MB)."""


class WeightsError(ValueError):
    """A weights file or document that cannot be used; the message says why, in one line."""


def read_weights(path: str | Path, game: str | None = None) -> dict[str, Any]:
    """The ``weights`` mapping of the document in the file ``path`` (checked: see
    ``check_document``; ``game``, when given, must be the document's game)."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if not path.is_file():  # a device or a pipe (/dev/zero) has no size and never ends
            raise WeightsError(f"weights file {str(path)!r} is not a regular file")
        if size > MAX_FILE_BYTES:
            raise WeightsError(f"weights file {str(path)!r} is {size:,} bytes, more than the {MAX_FILE_BYTES:,} allowed")
        text = path.read_text(encoding="utf-8")
    except WeightsError:
        raise
    except UnicodeDecodeError:
        raise WeightsError(f"weights file {str(path)!r} is not UTF-8 text") from None
    except OSError as error:
        raise WeightsError(f"cannot read weights file {str(path)!r}: {error.strerror or error}") from None
    return parse_weights(text, str(path), game)


def parse_weights(text: str, source: str, game: str | None = None) -> dict[str, Any]:
    """The ``weights`` mapping of the JSON document ``text`` (``source`` names it in errors)."""
    try:
        document = json.loads(text, parse_constant=_refuse_constant)
    except (json.JSONDecodeError, RecursionError) as error:
        raise WeightsError(f"weights file {source!r} is not valid JSON: {error}") from None
    except WeightsError as error:
        raise WeightsError(f"weights file {source!r}: {error}") from None
    return check_document(document, source, game)


def check_document(document: Any, source: str, game: str | None = None) -> dict[str, Any]:
    """The document's ``weights`` once its shape is right, else ``WeightsError``."""
    if not isinstance(document, dict):
        raise WeightsError(f"weights file {source!r} must hold a JSON object")
    named = document.get("game")
    if not isinstance(named, str):
        raise WeightsError(f"weights file {source!r} has no \"game\" name")
    if game is not None and named != game:
        raise WeightsError(f"weights file {source!r} is for {named}, not {game}")
    if document.get("format") != FORMAT:
        raise WeightsError(f"weights file {source!r} has format {document.get('format')!r}; this version reads {FORMAT}")
    weights = document.get("weights")
    if not isinstance(weights, dict) or not weights:
        raise WeightsError(f"weights file {source!r} has no \"weights\" object")
    for name, value in weights.items():
        if not _numbers(value):
            raise WeightsError(f"weights file {source!r}: {name!r} must be a number or a list of numbers")
    return weights


_PLAIN_NUMBERS: Final = frozenset((int, float))


def _numbers(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is a finite number or a (nested, at most 4 deep) list of them."""
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return math.isfinite(value)
    if isinstance(value, list) and depth < 4:
        if set(map(type, value)) <= _PLAIN_NUMBERS:  # fast path: a flat list (large tables)
            return all(map(math.isfinite, value))
        return all(_numbers(item, depth + 1) for item in value)
    return False


def _refuse_constant(name: str) -> Any:
    """JSON's non-standard ``NaN``/``Infinity``: no weight may be one."""
    raise WeightsError(f"{name} is not a weight")


@cache
def shipped_weights(file_name: str, game: str) -> dict[str, Any]:
    """The packaged weights ``resources/weights/<file_name>`` (read once per process)."""
    source = resources.files(WEIGHTS_PACKAGE).joinpath(WEIGHTS_FOLDER, file_name)
    return parse_weights(source.read_text(encoding="utf-8"), f"resources/weights/{file_name}", game)


def named_numbers(weights: Mapping[str, Any], names: Iterable[str], game: str) -> dict[str, float]:
    """``weights`` as ``{name: float}`` when it gives exactly the numbers ``names`` lists (the
    form of a plain linear EVAL), else ``WeightsError`` saying what is missing or extra."""
    expected = set(names)
    missing, extra = sorted(expected - set(weights)), sorted(set(weights) - expected)
    if missing or extra:
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + ([f"unknown {', '.join(extra)}"] if extra else [])
        raise WeightsError(f"{game} weights: {'; '.join(parts)}")
    numbers = {}
    for name in expected:
        value = weights[name]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise WeightsError(f"{game} weights: {name} must be a finite number")
        numbers[name] = float(value)
    return numbers


def weights_document(game: str, weights: dict[str, Any], description: str, **extra: Any) -> dict[str, Any]:
    """A document ``read_weights`` accepts, for the tuners to write (``extra``: e.g. how it was made)."""
    return {"game": game, "format": FORMAT, "description": description, **extra, "weights": weights}


__all__ = ["FORMAT", "WeightsError", "check_document", "named_numbers", "parse_weights", "read_weights", "shipped_weights", "weights_document"]
