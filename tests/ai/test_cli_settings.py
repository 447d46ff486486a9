"""One validation of search settings (``ai.options``): the command line's options, a match
player's spec, UCI ``setoption`` and the table itself accept and refuse exactly the same
values, at both ends of every range, and no text makes the parser fail in another way."""

from __future__ import annotations

import io
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.cli import build_parser
from ai.match.players import SpecError, parse_builtin
from ai.options import LIMIT_RANGES, SETTING_RANGES, check_limits, check_setting, check_settings, parse_setting
from ai.settings import Limits, SearchSettings, SettingError

OPTIONS = {
    "aspiration_window": "--aspiration-window",
    "tt_megabytes": "--hash",
    "solver_empties": "--solver-empties",
    "exploration": "--exploration",
    "playout_depth": "--playout-depth",
    "seed": "--seed",
    "threads": "--threads",
    "depth": "--depth",
    "nodes": "--nodes",
}
"""The ``analyse`` option of each ranged field (``--time`` also takes ``inf``: no limit)."""
SPEC_FIELDS = sorted(set(OPTIONS) - {"threads"})
"""Fields a match spec may set (a spec's threads come from ``--threads``)."""


def edges(name: str) -> tuple[list[str], list[str]]:
    """Texts at the ends of ``name``'s range that must pass, and just outside that must not."""
    allowed = {**SETTING_RANGES, **LIMIT_RANGES}[name]
    high = allowed.upper()
    if allowed.kind is int:
        inside = [str(int(allowed.low)), str(int(high))]
        outside = [str(int(allowed.low) - 1), str(int(high) + 1), "nan", "1.5", ""]
    else:
        inside = ["1e-9" if allowed.positive else "0", "1e300"]
        outside = ["0" if allowed.positive else "-1e-9", "inf", "-inf", "nan", ""]
    return inside, outside


def cli_accepts(option: str, text: str) -> bool:
    try:
        build_parser().parse_args(["analyse", "--game", "chess", f"{option}={text}"])
    except SystemExit:
        return False
    return True


def spec_accepts(name: str, text: str) -> bool:
    try:
        parse_builtin(f"{name}={text}", "tictactoe")
    except SpecError:
        return False
    return True


def table_accepts(name: str, text: str) -> bool:
    try:
        parse_setting(name, text)
    except SettingError:
        return False
    return True


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_the_cli_and_the_table_agree_at_the_ends_of_each_range(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    inside, outside = edges(name)
    for text in inside:
        assert table_accepts(name, text) and cli_accepts(OPTIONS[name], text), (name, text)
    for text in outside:
        assert not table_accepts(name, text) and not cli_accepts(OPTIONS[name], text), (name, text)
        assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("name", SPEC_FIELDS)
def test_match_specs_and_the_table_agree_at_the_ends_of_each_range(name: str) -> None:
    inside, outside = edges(name)
    if name == "tt_megabytes":
        inside = inside[:1]  # the top of the range is accepted by the table above; a spec would not allocate it either
    for text in inside:
        assert spec_accepts(name, text), (name, text)
    for text in outside:
        if text:  # an empty value is a spec's own "not key=value" error
            assert not spec_accepts(name, text), (name, text)


@pytest.mark.parametrize(("name", "text"), [("time", "inf"), ("time", "nan"), ("time", "0"), ("playout", "bogus"), ("quiescence", "maybe")])
def test_specs_refuse_what_the_options_refuse(name: str, text: str) -> None:
    with pytest.raises(SpecError, match=name):
        parse_builtin(f"{name}={text}", "tictactoe")


def test_uci_setoption_uses_the_same_range() -> None:
    from ai.uci import HASH_MB_MAX, UciEngine

    output = io.StringIO()
    engine = UciEngine(output)
    try:
        for value in ("0", "-1", str(HASH_MB_MAX + 1), "nan"):
            engine.handle(f"setoption name Hash value {value}")
        engine.handle("setoption name Hash value 16")
    finally:
        engine.close()
    assert output.getvalue().count("info string error: Hash must be") == 4
    assert engine.settings.tt_megabytes == 16


def test_the_defaults_pass_and_each_bad_value_names_its_field() -> None:
    check_settings(SearchSettings())
    check_limits(Limits())
    check_limits(Limits(depth=3, time=0.5, nodes=1))
    for name, value in [("exploration", math.nan), ("tt_megabytes", 99_999_999), ("aspiration_window", -1.0),
                        ("playout", "bogus"), ("algorithm", "x"), ("book", "yes"), ("time", math.inf)]:
        with pytest.raises(SettingError) as refused:
            check_setting(name, value)
        assert refused.value.name == name and str(refused.value).startswith(f"{name}: ")


def test_words_for_switches_and_the_algorithms_own_quiescence() -> None:
    assert parse_setting("null_move", "off") is False and parse_setting("book", "YES") is True
    assert parse_setting("quiescence", "default") is None
    assert parse_setting("exploration", " 0.7 ") == 0.7


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(sorted({*SETTING_RANGES, *LIMIT_RANGES, "playout", "algorithm", "null_move", "quiescence"})), text=st.text(max_size=30))
def test_any_text_is_a_checked_value_or_one_setting_error(name: str, text: str) -> None:
    try:
        value = parse_setting(name, text)
    except SettingError as error:
        assert error.name == name and "\n" not in str(error)
        return
    check_setting(name, value)
