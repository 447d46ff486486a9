"""A game opened from a file keeps its own tags — players, event, site, date, round — when
it is saved again, copied, autosaved and resumed, as chess databases (SCID, ChessBase) keep a
game's header; a game played in the app names its sides and today's date."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from games import new_game
from games.records import GameRecord, RecordError, RecordTags, read_game, write_game
from gui.players import HUMAN, PlayerConfig

HUMANS = (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN))

OPERA_TAGS = {
    "Event": "Opera game",
    "Site": "Paris FRA",
    "Date": "1858.??.??",
    "Round": "?",
    "White": "Morphy",
    "Black": "Duke and Count",
    "Result": "1-0",
}
OPERA_MOVES = (
    "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 "
    "10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0"
)
OPERA_PGN = "".join(f'[{name} "{value}"]\n' for name, value in OPERA_TAGS.items()) + "\n" + OPERA_MOVES + "\n"
OPERA = RecordTags(players=("Morphy", "Duke and Count"), event="Opera game", site="Paris FRA", date="1858.??.??")
"""The Opera game's tags as read: the unknown round ``?`` is empty."""


def pgn_tags(text: str) -> dict[str, str]:
    """The tag pairs of a PGN or PDN text, by name."""
    return dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', text, re.MULTILINE))


def seven_tags(text: str) -> dict[str, str]:
    """PGN's Seven Tag Roster of ``text`` (the app may add others, e.g. ``Termination``)."""
    tags = pgn_tags(text)
    return {name: tags.get(name, "(missing)") for name in OPERA_TAGS}


# ---------------------------------------------------------------- the records
def test_a_pgn_read_keeps_its_seven_tags_and_writes_them_back() -> None:
    record = read_game(OPERA_PGN, "pgn")
    assert record.tags() == OPERA
    assert seven_tags(write_game(record, "pgn")) == OPERA_TAGS


def test_pdn_and_json_carry_the_event_site_and_round() -> None:
    state = new_game("checkers")
    names = []
    for _ in range(4):
        move = state.legal_moves()[0]
        names.append(state.move_name(move))
        state.play(move)
    tags = RecordTags(("Marion Tinsley", "Don Lafferty"), "World championship", "Petal, Mississippi", "1987.03.01", "12")
    record = GameRecord("checkers", new_game("checkers").to_text(), names, players=tags.players, date=tags.date,
                        round=tags.round, event=tags.event, site=tags.site)
    for fmt in ("pdn", "json"):
        assert read_game(write_game(record, fmt), fmt).tags() == tags, fmt
    written = pgn_tags(write_game(record, "pdn"))
    assert (written["Event"], written["Site"], written["Round"]) == ("World championship", "Petal, Mississippi", "12")


def test_a_record_without_its_own_event_or_site_gets_the_apps() -> None:
    record = GameRecord("chess", new_game("chess").to_text(), ["e4"])
    tags = pgn_tags(write_game(record, "pgn"))
    assert (tags["Event"], tags["Site"]) == ("Plyground game", "Plyground")
    assert "event" not in json.loads(write_game(record, "json")) and "site" not in json.loads(write_game(record, "json"))


@pytest.mark.parametrize("value", [3, None, ["Opera"], {"a": 1}, True])
def test_a_json_event_or_site_that_is_not_text_is_one_clear_error(value: object) -> None:
    for key in ("event", "site"):
        document = {"format": "plyground-game", "version": 1, "game": "othello", "moves": [], key: value}
        with pytest.raises(RecordError, match='"event" and "site" must be text'):
            read_game(json.dumps(document), "json")


def test_an_old_json_file_without_event_or_site_still_reads() -> None:
    record = read_game('{"format": "plyground-game", "version": 1, "game": "othello", "moves": ["f5"]}', "json")
    assert record.tags() == RecordTags() and record.moves == ["f5"]


LICHESS_PGN = """[Event "Rated blitz game"]
[Site "https://lichess.org/abcdefgh"]
[Date "2024.01.02"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]
[WhiteElo "1850"]
[BlackElo "1790"]
[ECO "C20"]
[Opening "King's Pawn Game"]
[Annotator "lichess.org"]
[PlyCount "99"]
[TimeControl "300+3"]

1. e4 { [%clk 0:05:00] } e5 { [%clk 0:05:00] } 2. Qh5 1-0
"""
LICHESS_OTHER = (("WhiteElo", "1850"), ("BlackElo", "1790"), ("ECO", "C20"), ("Opening", "King's Pawn Game"),
                 ("Annotator", "lichess.org"))


def test_a_files_other_tags_are_kept_in_order_in_every_format() -> None:
    record = read_game(LICHESS_PGN, "pgn")
    assert record.other_tags == LICHESS_OTHER  # PlyCount is the moves' and TimeControl the clock's: not kept twice
    again = write_game(record, "pgn")
    assert list(pgn_tags(again))[-5:] == [name for name, _ in LICHESS_OTHER] and "PlyCount" not in again
    assert read_game(again, "pgn").other_tags == LICHESS_OTHER
    assert read_game(write_game(record, "json"), "json").other_tags == LICHESS_OTHER
    checkers = GameRecord("checkers", new_game("checkers").to_text(), ["11-15"], other_tags=(("Annotator", "Tinsley"),))
    pdn = write_game(checkers, "pdn")
    assert pgn_tags(pdn)["Annotator"] == "Tinsley" and read_game(pdn, "pdn").other_tags == checkers.other_tags


@pytest.mark.parametrize("tags", [[1, 2], {"ECO": 3}, "ECO", {"ECO": ["C20"]}])
def test_json_tags_that_are_not_text_are_left_out_and_the_game_reads(tags: object) -> None:
    document = {"format": "plyground-game", "version": 1, "game": "othello", "moves": ["f5"], "tags": tags}
    record = read_game(json.dumps(document), "json")
    assert record.moves == ["f5"] and record.other_tags == ()
    assert any('"tags"' in line for line in record.left_out)


def test_a_tag_that_is_no_tag_name_or_unknown_is_dropped_and_the_count_is_bounded() -> None:
    many = {f"Tag{n}": "x" for n in range(500)}
    document = {"format": "plyground-game", "version": 1, "game": "othello", "moves": [],
                "tags": {"bad name": "x", "Unknown": "?", "Event": "twice", **many}}
    record = read_game(json.dumps(document), "json")
    assert len(record.other_tags) == 100 and record.other_tags[0] == ("Tag0", "x")


# ---------------------------------------------------------------- in the app
@pytest.fixture
def window(window: Any) -> Any:
    """The shared window (``tests/gui/conftest.py``), which replaces its game without a dialog."""
    window.ask = lambda question: True
    return window


def test_an_opened_game_saved_again_keeps_its_tags(window: Any, qtbot: Any, tmp_path: Path) -> None:
    opened = tmp_path / "opera.pgn"
    opened.write_text(OPERA_PGN, encoding="utf-8")
    assert window.open_path(opened), window.last_error
    qtbot.waitUntil(lambda: window.session.is_over)  # the rules end the game at the mate, as the file says
    saved = tmp_path / "opera-again.pgn"
    assert window.save_to(saved)
    assert seven_tags(saved.read_text(encoding="utf-8")) == OPERA_TAGS
    assert window.session.to_record().tags() == OPERA  # what the review reads and keeps in reviews/


def test_an_opened_game_shows_its_players_and_who_plays_on(window: Any, tmp_path: Path) -> None:
    opened = tmp_path / "lichess.pgn"
    opened.write_text(LICHESS_PGN.replace('"Bob"', '"<b>Bob</b>"').replace("1-0", "*").replace("2. Qh5", ""),
                      encoding="utf-8")
    assert window.open_path(opened), window.last_error
    labels = [label.text() for label in window.game_view.player_labels]
    sides = [window.session.players[n].describe().split(" ")[0] for n in range(2)]
    assert "Alice · now" in labels[0] and sides[0] in labels[0]
    assert "&lt;b&gt;Bob&lt;/b&gt; · now" in labels[1]  # a name is text, never markup
    saved = tmp_path / "again.pgn"
    assert window.save_to(saved)
    assert read_game(saved.read_text(encoding="utf-8"), "pgn").other_tags == LICHESS_OTHER


def test_a_game_the_app_saved_names_its_sides_once(window: Any, tmp_path: Path) -> None:
    """A file whose players are the app's own sides (saved by the app, or the autosave
    resumed) reads "White: Human", not "Human · now Human"."""
    window.start_game("chess", HUMANS)
    assert window.session.play_text("e4") is None
    saved = tmp_path / "mine.pgn"
    assert window.save_to(saved)
    assert window.open_path(saved), window.last_error
    labels = [label.text() for label in window.game_view.player_labels]
    for player, label in enumerate(labels):  # the sides the settings give the opened game
        side = window.session.players[player].describe()
        assert ("· now" in label) == (side != "Human"), label
    assert "· now" not in labels[0] and "Human" in labels[0]


def test_an_opened_game_keeps_its_tags_through_the_autosave(window: Any, qtbot: Any, tmp_path: Path) -> None:
    opened = tmp_path / "opera.pgn"
    opened.write_text(OPERA_PGN, encoding="utf-8")
    assert window.open_path(opened), window.last_error
    qtbot.waitUntil(lambda: window.session.is_over)
    window.show_start_page()
    assert window.continue_last_game()
    qtbot.waitUntil(lambda: window.session.is_over)
    assert window.session.move_names()[-1] == "Rd8#"
    saved = tmp_path / "resumed.pgn"
    assert window.save_to(saved)
    assert seven_tags(saved.read_text(encoding="utf-8")) == OPERA_TAGS


def test_a_pasted_game_with_players_keeps_them_while_played_on(window: Any) -> None:
    from gui.players import HUMAN, PlayerConfig

    window.settings.set_players("chess", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)))
    assert window.paste_text('[White "Anand"]\n[Event "Blitz"]\n\n1. e4 e5 *\n')
    assert window.session.play_text("Nf3") is None
    record = read_game(write_game(window.current_record(), "pgn"), "pgn")
    # a name the file leaves unknown stays unknown: never the file's White beside the app's "Human"
    assert (record.players, record.event, record.moves) == (("Anand", ""), "Blitz", ["e4", "e5", "Nf3"])
    assert record.date == window.record_date()  # the file gave no date: the day it was saved


def test_a_game_played_in_the_app_names_its_sides_and_today(window: Any, tmp_path: Path) -> None:
    from gui.players import HUMAN, PlayerConfig

    window.start_game("chess", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)))
    assert window.session.play_text("e4") is None
    saved = tmp_path / "played.pgn"
    assert window.save_to(saved)
    tags = pgn_tags(saved.read_text(encoding="utf-8"))
    assert (tags["White"], tags["Black"], tags["Event"], tags["Site"]) == ("Human", "Human", "Plyground game", "Plyground")
    assert tags["Date"] == window.record_date()
    # resumed from the autosave, it still is the app's game
    window.show_start_page()
    assert window.continue_last_game()
    assert window.session.to_record().players == ("Human", "Human")
    assert window.current_record().date == window.record_date()
