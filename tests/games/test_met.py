"""The match equity table: the shipped Kazaross XG2 table is gnubg's, checked, cited, and
garbage tables are refused with one clear message."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest

from games.backgammon.met import MAX_AWAY, METError, MatchEquityTable, shipped_met

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "resources" / "met" / "kazaross-xg2.json"
GNUBG_XML = Path("/usr/share/gnubg/met/Kazaross-XG2.xml")


def shipped_document() -> dict[str, Any]:
    return json.loads(SHIPPED.read_text(encoding="utf-8"))


def test_published_values_at_well_known_scores() -> None:
    met = shipped_met()
    assert met.name == "Kazaross XG2 25 point MET" and met.length == 25
    assert met.equity(1, 1) == 0.5 and met.equity(7, 7) == 0.5
    assert met.equity(1, 2) == pytest.approx(0.67736)  # the Crawford game, leader 1-away vs 2-away
    assert met.equity(2, 1) == pytest.approx(1 - 0.67736)
    assert met.equity(2, 1, post_crawford=True) == pytest.approx(0.48803)  # post-Crawford, the free drop
    assert met.equity(1, 2, post_crawford=True) == pytest.approx(1 - 0.48803)
    assert met.equity(1, 1, post_crawford=True) == 0.5  # double match point
    assert met.equity(3, 5) == pytest.approx(0.64795)
    assert met.equity(0, 3) == 1.0 and met.equity(4, -2) == 0.0  # somebody has won


@pytest.mark.skipif(not GNUBG_XML.exists(), reason="gnubg's MET files are not installed (Debian package gnubg-data)")
def test_the_json_is_gnubgs_xml_number_for_number() -> None:
    text = GNUBG_XML.read_text(encoding="utf-8")
    root = ElementTree.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", text))
    pre = [[float(cell.text or "") for cell in row.findall("me")] for row in root.iter("pre-crawford-table") for row in row.findall("row")]
    post = [float(cell.text or "") for cell in root.find("post-crawford-table").find("row").findall("me")]  # type: ignore[union-attr]
    document = shipped_document()
    assert document["pre_crawford"] == pre and document["post_crawford"] == post
    met = shipped_met()
    for mine in range(25):
        for theirs in range(25):
            assert met.equity(mine + 1, theirs + 1) == pre[mine][theirs]
    for away in range(24):  # gnubg reads the first length - 1 post-Crawford entries
        assert met.equity(away + 1, 1, post_crawford=True) == post[away]


def test_copyright_notice_and_source_are_kept() -> None:
    document = shipped_document()
    assert document["notice"].startswith("Copyright (C) 2011 Neil Kazaross")
    assert "provided the copyright\nnotice and this notice are preserved" in document["notice"]
    assert "GNU Backgammon" in document["source"] and "Kazaross-XG2.xml" in document["source"]
    notices = (ROOT / "THIRD_PARTY_NOTICES.md").read_text(encoding="utf-8")
    assert "resources/met/kazaross-xg2.json" in notices and "Neil Kazaross" in notices
    assert shipped_met().notice == document["notice"]


def test_table_is_symmetric_and_monotone_up_to_gnubgs_longest_match() -> None:
    met = shipped_met()
    for mine in range(1, MAX_AWAY + 1):
        for theirs in range(1, MAX_AWAY + 1):
            value = met.equity(mine, theirs)
            assert 0.0 <= value <= 1.0
            assert value + met.equity(theirs, mine) == pytest.approx(1.0, abs=1e-8), (mine, theirs)  # Φ(6) < 1
            if mine < MAX_AWAY:
                assert met.equity(mine + 1, theirs) <= value + 1e-12, (mine, theirs)
    post = [met.equity(away, 1, post_crawford=True) for away in range(1, MAX_AWAY + 1)]
    assert all(later <= earlier for earlier, later in zip(post, post[1:]))
    assert met.equity(40, 40) == pytest.approx(0.5, abs=1e-6)  # Montgomery's extension beyond 25
    assert 0.0 < met.equity(30, 20) < 0.5 < met.equity(20, 30) < 1.0


def test_scores_beyond_the_longest_match_are_refused() -> None:
    with pytest.raises(METError, match="beyond the table"):
        shipped_met().equity(MAX_AWAY + 1, 3)


def bad(document: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**document, **changes}


def flipped(document: dict[str, Any]) -> dict[str, Any]:
    pre = [list(row) for row in document["pre_crawford"]]
    pre[0][1] = 0.9
    return bad(document, pre_crawford=pre)


def not_monotone(document: dict[str, Any]) -> dict[str, Any]:
    pre = [list(row) for row in document["pre_crawford"]]
    pre[3][2], pre[2][3] = 0.7, 0.3  # 4-away beats 3-away against 3-away
    pre[2][2] = 0.5
    return bad(document, pre_crawford=pre)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: [], "a MET is a JSON object"),
        (lambda d: bad(d, format=2), "format must be 1"),
        (lambda d: bad(d, name=""), "'name'"),
        (lambda d: bad(d, length=0), "'length' must be a whole number"),
        (lambda d: bad(d, length=-1), "'length' must be a whole number"),
        (lambda d: bad(d, length=99), "'length' must be a whole number"),
        (lambda d: bad(d, length=math.nan), "'length' must be a whole number"),
        (lambda d: bad(d, length=True), "'length' must be a whole number"),
        (lambda d: bad(d, pre_crawford=d["pre_crawford"][:-1]), "must be 25 rows"),
        (lambda d: bad(d, pre_crawford=[row[:-1] for row in d["pre_crawford"]]), "25 numbers expected"),
        (lambda d: bad(d, pre_crawford=[["x"] * 25] * 25), "is not a chance"),
        (lambda d: bad(d, pre_crawford=[[math.nan] * 25] * 25), "is not a chance"),
        (lambda d: bad(d, post_crawford=[1.5] * 25), "is not a chance"),
        (lambda d: bad(d, post_crawford="0.5"), "25 numbers expected"),
        (lambda d: bad(d, post_crawford=[0.4] + d["post_crawford"][1:]), "must be 0.5"),
        (lambda d: bad(d, post_crawford=[0.5, 0.2, 0.3] + d["post_crawford"][3:]), "post-Crawford not monotone"),
        (flipped, "not symmetric"),
        (not_monotone, "not monotone"),
    ],
)
def test_garbage_tables_are_refused_with_one_line(make: Any, message: str) -> None:
    with pytest.raises(METError, match=re.escape(message)) as caught:
        MatchEquityTable.from_document(make(shipped_document()), "test.json")
    assert "\n" not in str(caught.value) and str(caught.value).startswith("test.json")


@pytest.mark.parametrize("text", ["", "{", "not json", "[1, 2", '{"format": 1, "name": "x", "length": 1e999}'])
def test_text_that_is_no_table_is_refused(text: str) -> None:
    with pytest.raises(METError):
        MatchEquityTable.from_text(text, "bad.json")


def test_a_small_table_extends_like_gnubg() -> None:
    """A 2-point table: the post-Crawford entry for 2-away comes from Zadeh's recurrence
    less the free drop (gnubg's 0.5 * (0.75 + 0.25) - 0.015)."""
    table = MatchEquityTable.from_document(
        {"format": 1, "name": "tiny", "length": 2, "pre_crawford": [[0.5, 0.7], [0.3, 0.5]], "post_crawford": [0.5, 0.49]}
    )
    assert table.equity(2, 1, post_crawford=True) == pytest.approx(0.5 - 0.015)
    assert table.equity(3, 3) == pytest.approx(0.5, abs=1e-6) and table.equity(1, 2) == 0.7
