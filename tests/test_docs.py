"""What the documents point at exists: the README's images and links, every ``python -m
bench.X`` / ``tools.X`` command written in a document or a docstring, and every section of
``bench/STRENGTH.md`` that a comment cites by name. A script moved or a section renamed
without its citations fails here, naming the file and the line."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STRENGTH = ROOT / "bench" / "STRENGTH.md"
MODULE_COMMAND = re.compile(r"-m ((?:bench|tools)\.[a-z_]+)\b")
STRENGTH_CITATION = re.compile(r"bench/STRENGTH\.md`{0,2},\s+\\?\"([^\"\\]+)\\?\"")
MARKDOWN_LINK = re.compile(r"\]\(([^)#\s]+)\)")


def tracked_text_files() -> list[Path]:
    """The repository's tracked text files (not the archive: it quotes old commands as they ran)."""
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    suffixes = {".py", ".md", ".c", ".h", ".json", ".toml", ".txt", ".sh", ""}
    return [ROOT / name for name in names
            if Path(name).suffix in suffixes and name != "docs/strength-archive.md" and (ROOT / name).is_file()
            and (ROOT / name).stat().st_size < 2_000_000]


def lines_matching(pattern: re.Pattern[str]) -> list[tuple[str, str]]:
    """(``file:line``, match) for every match of ``pattern`` in the tracked text files."""
    found = []
    for path in tracked_text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            found.extend((f"{path.relative_to(ROOT)}:{number}", match) for match in pattern.findall(line))
    return found


def test_every_module_command_names_a_module_that_exists() -> None:
    commands = lines_matching(MODULE_COMMAND)
    assert commands, "no python -m bench/tools command found: the pattern is wrong"
    missing = [(where, module) for where, module in commands if not (ROOT / (module.replace(".", "/") + ".py")).is_file()]
    assert not missing, missing


def citations_of_strength_sections() -> list[tuple[str, str]]:
    """(file, section name) for every citation of a section in the tracked files (the file's
    path, a comma, the heading in double quotes); a citation may wrap over comment lines, so
    each file is read as one line of its words."""
    found = []
    for path in tracked_text_files():
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError:
            continue
        words = " ".join(line.strip().lstrip("#*/").strip() for line in lines)
        found.extend((str(path.relative_to(ROOT)), name) for name in STRENGTH_CITATION.findall(words))
    return found


def test_every_cited_strength_section_exists() -> None:
    headings = {line[3:].strip() for line in STRENGTH.read_text(encoding="utf-8").splitlines() if line.startswith("## ")}
    citations = citations_of_strength_sections()
    assert citations, "no citation of a bench/STRENGTH.md section found: the pattern is wrong"
    missing = [(where, name) for where, name in citations if " ".join(name.split()) not in headings]
    assert not missing, f"sections cited but not in bench/STRENGTH.md {sorted(headings)}: {missing}"


@pytest.mark.parametrize("document", ["README.md", "bench/STRENGTH.md", "resources/weights/README.md"])
def test_relative_links_and_images_exist(document: str) -> None:
    path = ROOT / document
    links = [link for link in MARKDOWN_LINK.findall(path.read_text(encoding="utf-8")) if "://" not in link]
    missing = [link for link in links if not (path.parent / link).exists() and link != "ARCHITECTURE.md"]
    assert not missing, f"{document} links to files that do not exist: {missing}"


def test_the_readme_shows_screenshots_from_docs() -> None:
    images = [link for link in MARKDOWN_LINK.findall((ROOT / "README.md").read_text(encoding="utf-8")) if link.endswith(".png")]
    assert images and all(link.startswith("docs/screens/") for link in images), images
