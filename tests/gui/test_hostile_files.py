"""Hostile game files and pastes: whatever the text, reading it gives a game or one
``RecordError`` with a one-line message of reasonable length — never another exception —
and reading is linear in the text's length (a 5 MB file is allowed in)."""

from __future__ import annotations

import codecs
import io
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import chess.pgn
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.records import MAX_FILE_CHARS
from gui.gamefile import GameRecord, RecordError, read_game, read_game_file, read_paste

MESSAGE_LIMIT = 300
"""A reading error is one line a person reads: never the hostile text itself."""

VALID = {
    "pgn": '[Event "x"]\n[Result "*"]\n\n1. e4 { [%eval 0.30] } e5 2. Nf3 Nc6 *\n',
    "pdn": '[GameType "21"]\n\n1. 11-15 {[%eval 0.50]} 23-19 2. 8-11 *\n',
    "json": '{"format": "plyground-game", "version": 1, "game": "tictactoe", "moves": ["b2", "a1"], "result": "*"}',
}

HOSTILE: dict[str, str] = {
    "json nested 100,000 deep": '{"a":' * 100_000 + "1" + "}" * 100_000,
    "json list nested 100,000 deep": '{"format": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "json 5,000-digit integer": '{"format": "plyground-game", "version": ' + "9" * 5_000 + "}",
    "json 5,000-digit float": '{"format": "plyground-game", "version": 1e' + "9" * 5_000 + "}",
    "json moves not text": '{"format": "plyground-game", "version": 1, "game": "chess", "moves": [1, 2]}',
    "json players not a pair": '{"format": "plyground-game", "version": 1, "game": "chess", "players": [[], {}]}',
    "json evaluations object": '{"format": "plyground-game", "version": 1, "game": "chess", "evaluations": {"a": 1}}',
    "json start not text": '{"format": "plyground-game", "version": 1, "game": "chess", "start": ["x"]}',
    "json game a list": '{"format": "plyground-game", "version": 1, "game": ["chess"]}',
    "pgn 100,000 unclosed braces": "1. e4 " + "{" * 100_000,
    "pgn 100,000 unclosed brackets": "1. e4 " + "[" * 100_000,
    "pgn tagged unclosed brackets": '[Event "x"]\n\n1. e4 ' + "[" * 100_000,
    "pgn one 100,000-letter word": "1. e4 " + "x" * 100_000 + " *",
    "pgn null bytes": "1. e4\x00e5 *",
    "pdn 100,000 unclosed braces": "1. 11-15 " + "{" * 100_000,
    "pdn 100,000-digit move": "1. " + "1" * 100_000 + "-15 *",
    "binary": "\x00\x01\x02\xff" * 1000,
}


def assert_one_line(message: str) -> None:
    assert message and "\n" not in message.strip() and len(message) <= MESSAGE_LIMIT, message[:500]
    assert "Traceback" not in message


@pytest.mark.parametrize("text", list(HOSTILE.values()), ids=list(HOSTILE))
def test_a_hostile_file_is_one_short_record_error(text: str) -> None:
    for hint in (None, "pgn", "pdn", "json"):
        with pytest.raises(RecordError) as caught:
            read_game(text, hint)
        assert_one_line(str(caught.value))


@pytest.mark.parametrize("text", list(HOSTILE.values()), ids=list(HOSTILE))
def test_a_hostile_paste_is_one_short_record_error(text: str) -> None:
    for preferred in ("chess", "checkers", "othello", "backgammon", "tictactoe"):
        with pytest.raises(RecordError) as caught:
            read_paste(text, preferred)
        assert_one_line(str(caught.value))


def test_deep_variations_read_or_fail_with_one_message() -> None:
    check_reads_or_refuses(lambda: read_game("1. e4 " + "( 1. d4 " * 10_000 + ")" * 10_000 + " *"))


def check_reads_or_refuses(read: Callable[[], GameRecord]) -> None:
    try:
        record = read()
    except RecordError as error:
        assert_one_line(str(error))
    else:
        record.replay()  # what was read is a game the rules accept


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(VALID)), st.data())
def test_fuzzed_game_files_read_or_fail_with_one_message(kind: str, data: st.DataObject) -> None:
    """Valid files cut, spliced with hostile pieces and character noise."""
    text = VALID[kind]
    cut = data.draw(st.integers(0, len(text)))
    piece = data.draw(st.sampled_from(["{", "}", "[", "]", "(", ")", ";", "%", '"', "\\", "\n[", "#", "1-0", "\ufeff", "\x00", "99999999999999999999", "e9", "=K"]))
    noise = data.draw(st.text(max_size=20))
    check_reads_or_refuses(lambda: read_game(text[:cut] + piece + noise + text[cut:], data.draw(st.sampled_from([None, "pgn", "pdn", "json"]))))


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200), st.sampled_from(["chess", "checkers", "othello", "backgammon", "tictactoe"]))
def test_fuzzed_pastes_read_or_fail_with_one_message(text: str, preferred: str) -> None:
    check_reads_or_refuses(lambda: read_paste(text, preferred))


@settings(max_examples=60, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
                    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
                    max_leaves=20))
def test_fuzzed_json_documents_read_or_fail_with_one_message(value: object) -> None:
    import json

    document = {"format": "plyground-game", "version": 1, "game": "chess", "moves": value}
    for text in (json.dumps(value), json.dumps(document)):
        check_reads_or_refuses(lambda: read_game(text, "json"))


def test_python_chess_reads_at_most_one_comment_per_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """``chess.pgn`` joins a node's comments by repeated concatenation (quadratic in their
    number): the strict reader hands it one comment per move at most, the first with an
    evaluation, so a file of a million comments reads in linear time."""
    seen: list[str] = []
    original = chess.pgn.read_game

    def spy(handle: io.StringIO, *args: object, **kwargs: object) -> object:
        text = handle.read()
        seen.append(text)
        return original(io.StringIO(text), *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(chess.pgn, "read_game", spy)
    text = "1. e4 " + "{ a } { b [%eval 0.20] } " * 2_000 + "e5 ; line\n" + "{c}" * 2_000 + " 2. Nf3 *"
    record = read_game(text, "pgn")
    assert record.moves == ["e4", "e5", "Nf3"]
    assert record.evaluations == ["+0.20", None, None]
    assert len(seen) == 1 and seen[0].count("{") <= len(record.moves)


HOSTILE_SHAPES: dict[str, Callable[[int], str]] = {
    "unclosed {": lambda n: "1. e4 " + "{" * n,
    "unclosed [": lambda n: "1. e4 " + "[" * n,
    "tagged, unclosed [": lambda n: '[Event "x"]\n\n1. e4 ' + "[" * n,
    "comments": lambda n: "1. e4 e5 " + "{a} " * (n // 4) + "*",
    "semicolons": lambda n: "1. e4 " + ";" * n + "\n*",
    "line comments": lambda n: "1. e4\n" + ";a\n" * (n // 3) + "*",
    "comments over lines": lambda n: "1. e4\n" + "{\n}\n" * (n // 4) + "*",
    "unclosed { with %": lambda n: "1. e4 " + "{%" * (n // 2),
    "pdn, unclosed {": lambda n: "1. 11-15 " + "{" * n,
    "pdn comments": lambda n: "1. 11-15 " + "{a} " * (n // 4) + "*",
    "json, brackets in a string": lambda n: '{"format": "' + "[" * n + '"}',
}


def best_time(text: str, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        try:
            read_game(text)
        except RecordError:
            pass
        times.append(time.perf_counter() - began)
    return min(times)


@pytest.mark.slow
@pytest.mark.parametrize("shape", list(HOSTILE_SHAPES))
def test_reading_grows_linearly_with_the_text(shape: str) -> None:
    """Eight times the text takes about eight times as long, far from the 64 times of a
    quadratic reader (the bound is generous: a loaded machine's noise stays inside it).
    Prints the times (``-s``) as the measurement."""
    make = HOSTILE_SHAPES[shape]
    small, large = 100_000, 800_000
    small_time = max(best_time(make(small)), 5e-3)
    large_time = best_time(make(large))
    print(f"\n{shape:28s} {small:>9,} chars: {small_time:.3f} s   {large:>9,} chars: {large_time:.3f} s")
    assert large_time < 24 * small_time + 0.1, (small_time, large_time)
    assert len(make(MAX_FILE_CHARS)) > 0


GAME_WITH_ACCENTS = '[Event "Café"]\n[White "Müller"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 *\n'


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "cp1252", "latin-1"])
def test_a_game_file_in_any_common_encoding_reads_the_same(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "game.pgn"
    path.write_bytes(GAME_WITH_ACCENTS.encode(encoding))
    record = read_game_file(path)
    assert record.players[0] == "Müller" and record.moves == ["e4", "e5", "Nf3"]


def test_a_file_that_never_ends_is_refused_after_the_limit(tmp_path: Path) -> None:
    with pytest.raises(RecordError) as caught:
        read_game_file(Path("/dev/zero"))
    assert_one_line(str(caught.value))
    broken = tmp_path / "broken.pgn"
    broken.write_bytes(codecs.BOM_UTF16_LE + b"\x00\xd8")  # a lone surrogate after the mark
    with pytest.raises(RecordError) as caught:
        read_game_file(broken)
    assert_one_line(str(caught.value))


@pytest.fixture
def window(qtbot: Any, bridge: Any, data_directory: Path) -> Iterator[Any]:
    from gui.main_window import MainWindow

    made = MainWindow(bridge=bridge, data_directory=data_directory, offer_resume=False, seed=3)
    made.ask = lambda question: True  # type: ignore[method-assign]
    qtbot.addWidget(made)
    yield made
    made.shutdown()


def test_hostile_files_and_pastes_leave_the_game_and_its_autosave_untouched(qtbot: Any, window: Any, tmp_path: Path, data_directory: Path) -> None:
    from gui.players import HUMAN, PlayerConfig

    session = window.start_game("chess", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)))
    assert session.play_text("d4") is None and session.play_text("d5") is None
    autosaved = (data_directory / "autosave.json").read_bytes()
    for number, (name, text) in enumerate(HOSTILE.items()):
        path = tmp_path / f"hostile-{number}.{['pgn', 'pdn', 'json'][number % 3]}"
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        window.last_error = ""
        window.open_path(path)  # a large one is read in the background: its error comes later
        qtbot.waitUntil(lambda: bool(window.last_error), timeout=60_000)
        header, _, reason = window.last_error.partition("\n")
        assert path.name in header and reason and "\n" not in reason and len(reason) <= MESSAGE_LIMIT + 40, name
        window.last_error = ""
        assert not window.paste_text(text), name
        assert window.last_error and "Traceback" not in window.last_error
        assert window.session is session and session.move_names() == ["d4", "d5"], name
    assert (data_directory / "autosave.json").read_bytes() == autosaved


def test_a_large_file_is_read_off_the_gui_thread(qtbot: Any, window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    import gui.main_window
    from gui.gamefile import BACKGROUND_BYTES, try_read_game_file

    readers: list[threading.Thread] = []

    def spy(path: Path) -> object:
        readers.append(threading.current_thread())
        return try_read_game_file(path)

    monkeypatch.setattr(gui.main_window, "try_read_game_file", spy)
    path = tmp_path / "commented.pgn"
    path.write_text("1. e4 { [%eval 0.20] } " + "{ a long note } " * (BACKGROUND_BYTES // 10) + "e5 2. Nf3 *", encoding="utf-8")
    small = tmp_path / "small.pgn"
    small.write_text("1. d4 d5 *", encoding="utf-8")
    assert window.open_path(small) and readers[-1] is threading.main_thread()
    before = window.session
    assert window.open_path(path)  # being read: the window goes on meanwhile
    qtbot.waitUntil(lambda: window.session is not before, timeout=60_000)
    assert readers[-1] is not threading.main_thread()
    assert window.session.move_names() == ["e4", "e5", "Nf3"] and window.file_path == path
    bad = tmp_path / "bad.pgn"
    bad.write_text("1. e4 " + "{" * BACKGROUND_BYTES, encoding="utf-8")
    window.last_error = ""
    assert window.open_path(bad)
    qtbot.waitUntil(lambda: bool(window.last_error), timeout=60_000)
    assert "bad.pgn" in window.last_error and window.session.move_names() == ["e4", "e5", "Nf3"]


@pytest.mark.parametrize(
    "text",
    [
        "1. e4 {a {b} e5 *",  # a '{' inside a comment is the comment's
        "1. e4 ; note {x\ne5 *",  # so is one inside a ';' comment, to the end of its line
        "1. e4 {a ; b} e5 *",  # and a ';' inside braces
        "1. e4 {a\n[not a header] } e5 *",  # a line starting with '[' inside a comment
        "1. e4\n% an escape line {\ne5 *",
        "1. e4 e5 *\n\n[Event \"next\"]\n\n1. d4 *",  # only the first game
    ],
)
def test_comments_read_as_a_pgn_reader_reads_them(text: str) -> None:
    assert read_game(text, "pgn").moves == ["e4", "e5"]


def test_the_first_evaluation_after_a_move_is_kept() -> None:
    record = read_game("1. e4 { [%eval 0.10] } { [%eval 0.20] ; x } e5 {[%eval -0.3] %clk 0:01} *", "pgn")
    assert record.evaluations == ["+0.10", "-0.30"]


def test_a_pipe_or_a_folder_is_refused_without_blocking(tmp_path: Path) -> None:
    import os

    pipe = tmp_path / "pipe.pgn"
    os.mkfifo(pipe)  # opening it would wait for a writer for ever
    with pytest.raises(RecordError) as caught:
        read_game_file(pipe)
    assert_one_line(str(caught.value))
    with pytest.raises(OSError):
        read_game_file(tmp_path)
