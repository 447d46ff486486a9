"""Convert a GNU Backgammon match equity table (XML, ``met.dtd``) into the JSON Plyground reads.

Run: ``.venv/bin/python -m tools.backgammon_met /usr/share/gnubg/met/Kazaross-XG2.xml
resources/met/kazaross-xg2.json``.

gnubg's file carries a pre-Crawford table (row ``i``, column ``j``: the match winning chance
of a player ``i + 1`` away against an opponent ``j + 1`` away; the 1-away row is the
Crawford game) and one post-Crawford row (``i``: the chance of the trailer ``i + 1`` away
against a leader 1 away, after the Crawford game). The file's licence comment (copy and
distribute with the copyright notice and the notice preserved) is copied into the JSON
``notice`` field word for word; ``games.backgammon.met`` checks the result when it loads it.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from games.backgammon.met import MatchEquityTable, METError

GNUBG = "/usr/games/gnubg"


def gnubg_version() -> str:
    """``GNU Backgammon 1.07.001 20230103`` (the first line of ``gnubg --version``)."""
    try:
        output = subprocess.run([GNUBG, "--version"], capture_output=True, text=True, timeout=30).stdout
    except OSError:
        return "GNU Backgammon (version unknown)"
    return output.splitlines()[0].strip() if output else "GNU Backgammon (version unknown)"


def notice_of(text: str) -> str:
    """The licence comment at the top of the XML file, its lines dedented."""
    match = re.search(r"<!--(.*?)-->", text, re.S)
    if match is None:
        raise METError("the MET file has no copyright comment to preserve")
    lines = [line.strip() for line in match.group(1).strip("\n").splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def rows(table: ElementTree.Element) -> list[list[float]]:
    return [[float(cell.text or "nan") for cell in row.findall("me")] for row in table.findall("row")]


def convert(path: Path) -> dict[str, object]:
    text = path.read_text(encoding="utf-8")
    root = ElementTree.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", text))
    info = root.find("info")
    pre = root.find("pre-crawford-table")
    post = root.find("post-crawford-table")
    if info is None or pre is None or post is None:
        raise METError(f"{path}: expected <info>, <pre-crawford-table> and <post-crawford-table>")
    post_rows = rows(post)
    if len(post_rows) != 1:
        raise METError(f"{path}: one post-Crawford row for both players expected, found {len(post_rows)}")
    return {
        "format": 1,
        "name": (info.findtext("name") or path.stem).strip(),
        "description": (info.findtext("description") or "").strip(),
        "source": f"{path.name} as shipped with {gnubg_version()} ({path}), converted by tools/backgammon_met.py",
        "notice": notice_of(text),
        "length": int((info.findtext("length") or "0").strip()),
        "pre_crawford": rows(pre),
        "post_crawford": post_rows[0],
    }


def dumps(document: dict[str, object]) -> str:
    """JSON with one table row per line (a 25 x 25 table reads as a table)."""
    text = json.dumps(document, indent=1)
    return re.sub(r"\[\s+([-0-9.,\s]+?)\s+\]", lambda match: "[" + ", ".join(number.strip() for number in match.group(1).split(",")) + "]", text) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("xml", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    try:
        document = convert(args.xml)
        MatchEquityTable.from_document(document, str(args.out))
    except (OSError, ElementTree.ParseError, METError, ValueError) as error:
        sys.exit(f"error: {error}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(dumps(document), encoding="utf-8")
    print(f"wrote {args.out}: {document['name']}, {document['length']} x {document['length']}")


if __name__ == "__main__":
    main()
