"""bench/LEVELS.md, resources/levels.json and the app's level list agree.

Every level of every game (``ai.levels.GAME_LEVELS``) has a row in LEVELS.md's table of its
game; a level with a rating in resources/levels.json shows the same numbers in that row, and
a level without one says "not measured". Both files are what ``python -m bench.levels --write``
makes of the recorded matches (``bench/levels_results.json``) for the levels as they are now
(a level whose recipe changed since its matches has no rating): a table edited by hand, a
ratings file from other matches or a level changed without being measured again fails here.
Nothing is played: the fit of the recorded results takes milliseconds.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from ai.levels import GAME_LEVELS, LEVELS, RATINGS_FILE, RatingBound, RatingScale, parse_level_ratings
from ai.match.stats import Z_95
from bench import levels as bench_levels

ROOT = Path(__file__).resolve().parent.parent
LEVELS_MD = ROOT / "bench" / "LEVELS.md"
RATINGS = ROOT / "resources" / RATINGS_FILE


def block(text: str, game: str) -> str:
    start, end = f"<!-- levels:{game} -->", f"<!-- /levels:{game} -->"
    assert start in text and end in text, f"LEVELS.md has no generated block for {game}"
    return text.split(start, 1)[1].split(end, 1)[0]


def level_rows(table: str) -> dict[int, str]:
    """The first row of each level in a generated table (``| N | recipe | ...``)."""
    rows: dict[int, str] = {}
    for line in table.splitlines():
        match = re.match(r"\|\s*(\d+)\s*\|", line)
        if match and int(match.group(1)) not in rows:
            rows[int(match.group(1))] = line
    return rows


@pytest.fixture(scope="module")
def document() -> str:
    return LEVELS_MD.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def ratings() -> dict[tuple[str, int], object]:
    return parse_level_ratings(RATINGS.read_text(encoding="utf-8"), str(RATINGS))  # type: ignore[return-value]


@pytest.mark.parametrize("game", list(GAME_LEVELS))
def test_every_level_has_a_row(document: str, game: str) -> None:
    rows = level_rows(block(document, game))
    assert sorted(rows) == [level.number for level in LEVELS], f"{game}: rows for levels {sorted(rows)}"


@pytest.mark.parametrize("game", list(GAME_LEVELS))
def test_the_rows_show_the_ratings_file(document: str, ratings: dict, game: str) -> None:
    rows = level_rows(block(document, game))
    for level in LEVELS:
        row = rows[level.number]
        rating = ratings.get((game, level.number))
        if rating is None:
            assert "not measured" in row or "every game" in row, f"{game} level {level.number}: no rating, but {row!r}"
            continue
        scale = rating.scale
        if scale is RatingScale.PERFECT_SHARE:
            shown = [f"{rating.value:.1f}%", f"{rating.low:.1f}", f"{rating.high:.1f}%"]
        elif scale is RatingScale.ELO:
            shown = [f"{rating.value:.0f}", f"{rating.low:.0f}", f"{rating.high:.0f}"]
        else:
            shown = [f"{rating.value:+.2f}", f"{rating.low:+.2f}", f"{rating.high:+.2f}"]
        for text in shown:
            assert text in row, f"{game} level {level.number}: {text} (resources/levels.json) not in {row!r}"


@pytest.mark.parametrize("game", list(GAME_LEVELS))
def test_the_rows_name_the_levels_as_the_app_plays_them(document: str, game: str) -> None:
    rows = level_rows(block(document, game))
    for level in LEVELS:
        recipe = bench_levels.recipe_text(game, level.number)
        assert f"| {recipe} |" in rows[level.number], f"{game} level {level.number}: LEVELS.md does not show {recipe!r}"


def test_the_files_are_what_the_recorded_matches_give(document: str) -> None:
    records = bench_levels.load_results()
    expected = json.loads(bench_levels.ratings_json(bench_levels.ratings(records)))
    assert json.loads(RATINGS.read_text(encoding="utf-8")) == expected, "run: python -m bench.levels --write"
    for game in GAME_LEVELS:
        assert bench_levels.markdown_table(game, records) in block(document, game), (
            f"LEVELS.md's {game} table is not the recorded matches': run python -m bench.levels --write")


def test_a_rating_is_only_kept_for_the_recipe_that_was_played() -> None:
    played = [r for r in bench_levels.load_results() if r.get("recipe_a") and bench_levels.is_current(r)]
    assert played, "bench/levels_results.json holds no match of a level as it is now"
    changed = dict(played[0])
    changed["recipe_a"] = {**changed["recipe_a"], "nodes": changed["recipe_a"]["nodes"] + 1}
    assert not bench_levels.is_current(changed)


def match(a: str, b: str, wins: int, draws: int, losses: int) -> dict:
    return {"a": a, "b": b, "wins": wins, "draws": draws, "losses": losses}


def test_one_match_against_an_anchor_is_the_anchor_plus_the_match_elo() -> None:
    # 60 of 100 points is +70.4 Elo (-400 log10(1/0.6 - 1)). The per-game variance is
    # (50 * 0.4^2 + 20 * 0.1^2 + 30 * 0.6^2) / 100 = 0.19, the mean's standard error
    # sqrt(0.19 / 100), and the interval's low end the score 0.6 - 1.96 SE through the curve.
    estimates = bench_levels.elo_ratings([match("level:1", "sf", 50, 20, 30)], {"sf": 1500.0})
    assert estimates["level:1"].value == pytest.approx(1570.4, abs=0.1)
    low_score = 0.6 - Z_95 * math.sqrt(0.19 / 100)
    assert estimates["level:1"].low == pytest.approx(1500 - 400 * math.log10(1 / low_score - 1), abs=0.1)


def test_a_chain_adds_up_and_widens() -> None:
    # B scores 75% against the anchor (+190.8), C 75% against B: C is 381.7 above the anchor,
    # less sure than B.
    records = [match("b", "anchor", 75, 0, 25), match("c", "b", 75, 0, 25)]
    estimates = bench_levels.elo_ratings(records, {"anchor": 1000.0})
    assert estimates["b"].value == pytest.approx(1190.8, abs=0.2)
    assert estimates["c"].value == pytest.approx(1381.7, abs=0.4)
    width = lambda key: estimates[key].high - estimates[key].low  # noqa: E731
    assert width("c") > width("b")


def test_a_long_chain_stays_finite_however_far_it_climbs() -> None:
    # Twelve rungs, each 75% (+190.8) against the one below: the top is 2,290 above the
    # anchor. Every rung drew games with the one below, so every rating is finite.
    names = ["anchor", *(f"level:{n}" for n in range(1, 13))]
    records = [match(upper, lower, 70, 10, 20) for lower, upper in zip(names, names[1:])]
    estimates = bench_levels.elo_ratings(records, {"anchor": 2000.0})
    assert estimates["level:12"].value == pytest.approx(2000 + 12 * 190.8, abs=2.0)
    assert estimates["level:12"].bound is None


def test_a_group_that_won_every_game_against_the_rest_has_no_rating() -> None:
    # a and b split their games, and together won every game against the anchor: no finite
    # Elo for either, though neither won every game it played; c, which drew, is rated.
    records = [match("a", "b", 5, 0, 5), match("a", "anchor", 10, 0, 0), match("b", "anchor", 10, 0, 0),
               match("c", "anchor", 4, 2, 4)]
    estimates = bench_levels.elo_ratings(records, {"anchor": 1000.0})
    assert "a" not in estimates and "b" not in estimates
    assert estimates["c"].value == pytest.approx(1000.0, abs=0.5)


def test_a_clean_sweep_is_a_bound_not_a_rating() -> None:
    estimates = bench_levels.elo_ratings([match("level:9", "sf", 10, 0, 0)], {"sf": 2500.0})
    assert estimates["level:9"].bound is RatingBound.AT_LEAST
    assert estimates["level:9"].value == pytest.approx(2500 + 400 * math.log10(0.7 / 0.3), abs=0.5)  # 1 - 3/10


def test_superseded_matches_stay_on_file_out_of_the_ratings_and_are_not_replayed() -> None:
    current = [r for r in bench_levels.load_results() if r.get("recipe_a") and bench_levels.is_current(r)]
    record = dict(current[0])
    game, level = record["game"], int(record["a"].split(":")[1])
    records = [record]
    assert bench_levels.supersede(records, game, [level], "the engine changed") == 1
    assert record["superseded"] == "the engine changed" and not bench_levels.is_current(record)
    assert bench_levels.supersede(records, game, [level], "again") == 0  # the first reason stays
    planned = bench_levels.Planned(game, record["a"], record["b"], record["games"], record["seed"])
    assert bench_levels.played(records, planned)  # kept as played: a new seed measures again
    row = next(r for r in bench_levels.level_rows(game, records) if r.number == level)
    assert row.estimate is None and row.note == "(the engine changed)"
