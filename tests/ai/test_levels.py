"""Levels 1-10 per game (``ai.levels``): the table, the weakness's choice, the budgets that
keep each level's time promise, the match runner's level, and the measured ratings' file."""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest

from ai.engine import run_search
from ai.events import Finished, PvLine, RootMoveStat, Score
from ai.levels import (
    DECISIVE_LOSS,
    GAME_LEVELS,
    LEVELS,
    NODES_PER_SECOND,
    LevelPlay,
    LevelRating,
    LevelRatingsError,
    RatingBound,
    RatingScale,
    candidates,
    choice_weights,
    choose_move,
    level_play,
    level_rating,
    level_ratings,
    level_rng,
    parse_level_ratings,
    played_score,
    ratings_json,
    request_for_level,
    strongest_play,
)
from ai.match.players import LevelPlayer, make_player
from ai.match.protocol import GameHistory
from ai.scores import WIN_SCORE
from ai.search import get_algorithm
from ai.settings import Limits
from games import CHANCE, GAME_NAMES, GameState, get_game, new_game


def finished_with_lines(values: list[float], view: int = 0, best_index: int = 0) -> Finished:
    """An answer whose MultiPV lines score ``values`` (search scale, ``view``'s view), moves
    named by their index."""
    lines = tuple(
        PvLine(rank + 1, f"m{index}", Score(value, view), (f"m{index}",), depth=3)
        for rank, (index, value) in enumerate(sorted(enumerate(values), key=lambda pair: -pair[1]))
    )
    best = lines[0]
    return Finished(0, best.move, best.score, best.pv, 3, 3, 100, 1000.0, 0.1, lines=lines)


# ------------------------------------------------------------------ the table
@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_has_ten_levels_that_can_play_it(game: str) -> None:
    kind = get_game(game)
    plays = [level_play(game, number) for number in range(1, len(LEVELS) + 1)]
    assert [play.number for play in plays] == list(range(1, 11)) and len(GAME_LEVELS[game]) == 10
    for play in plays:
        get_algorithm(play.algorithm).check_game(kind)  # raises for an engine the game cannot use
        assert play.nodes > 0 and play.seconds > 0 and play.settings().threads == 1
        assert play.limits().nodes == play.nodes and play.limits().time == play.level.seconds
        assert play.lines >= 1 and (play.temperature == 0.0 or play.lines > 1 or play.algorithm == "expectiminimax")
    temperatures = [play.temperature for play in plays]
    assert temperatures == sorted(temperatures, reverse=True) and temperatures[-1] == 0.0
    assert not plays[-1].is_weak and plays[0].is_weak
    assert game in DECISIVE_LOSS
    # the compiled search plays the top levels, the watched Python search the lowest
    if kind.NATIVE_SEARCH is not None:
        assert plays[-1].algorithm == "native" and plays[0].algorithm != "native"
    assert strongest_play(game) == plays[-1]


def test_level_names_claim_no_title_and_times_grow() -> None:
    titles = ("master", "grandmaster", "expert", "candidate", "champion", "world")
    for promise in LEVELS:
        assert not any(title in promise.name.lower() for title in titles), promise.name
    seconds = [promise.seconds for promise in LEVELS]
    assert seconds == sorted(seconds)
    assert LEVELS[2].label == "Level 3 · Casual"
    with pytest.raises(ValueError, match="1-10"):
        level_play("chess", 11)
    with pytest.raises(ValueError, match="no levels"):
        level_play("go", 3)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_budget_grows_with_the_level_and_fits_in_half_its_time(game: str) -> None:
    """At the engine's measured speed a level's budget takes at most half its time cap, so
    the budget, not the machine's load, ends its searches."""
    plays = GAME_LEVELS[game]
    for lower, higher in zip(plays, plays[1:]):
        if lower.algorithm == higher.algorithm:
            assert lower.nodes <= higher.nodes, (lower, higher)
    for play in plays:
        assert play.nodes / NODES_PER_SECOND[(game, play.algorithm)] <= play.seconds / 2, play


# ------------------------------------------------------------------ the weakness
def test_weights_fall_with_the_loss_and_the_top_level_plays_the_best() -> None:
    losses = [0.0, 0.1, 0.3, 3.0]  # pawns: the best, two inaccuracies, a hanging piece
    weights = choice_weights(losses, 1.2)
    assert math.isclose(sum(weights), 1.0)
    assert weights == sorted(weights, reverse=True)
    assert math.isclose(weights[3] / weights[0], math.exp(-3.0 / 1.2))  # the softmax, worked by hand
    assert choice_weights(losses, 0.0) == [1.0, 0.0, 0.0, 0.0]
    assert choice_weights([0.5, 0.0, 0.0], 0.0) == [0.0, 1.0, 0.0]  # the first least loss
    assert choice_weights([], 1.0) == []


def test_a_beginner_errs_small_often_and_hangs_a_piece_rarely() -> None:
    """Chess level 1 on a hand-made set of lines: the best move, two inaccuracies of 0.1 and
    0.3 pawns, and a move that hangs a knight (3 pawns). Over 4000 seeded choices the small
    mistakes are common and the piece rarely hung; the cooler levels err less."""
    finished = finished_with_lines([35.0, 25.0, 5.0, -265.0])
    counts = {}
    for number in (1, 2, 3, 4):
        play = level_play("chess", number)
        rng = random.Random(number)
        counts[number] = Counter(choose_move(finished, play, 0, rng) for _ in range(4000))
    beginner = counts[1]
    assert beginner["m1"] + beginner["m2"] > 1200  # small mistakes: about 42% of the moves
    assert beginner["m3"] < 200  # the knight: about 2.4%
    assert beginner["m0"] > beginner["m1"] > beginner["m2"] > beginner["m3"]
    hung = [counts[number]["m3"] for number in (1, 2, 3, 4)]
    best = [counts[number]["m0"] for number in (1, 2, 3, 4)]
    assert hung == sorted(hung, reverse=True) and hung[3] == 0
    assert best == sorted(best)
    top = level_play("chess", 10)
    assert {choose_move(finished, top, 0, random.Random(seed)) for seed in range(50)} == {"m0"}


def test_losses_are_in_the_games_unit_from_the_movers_view() -> None:
    # Black to move; the lines score from White's view (view 0): Black's best is White's least.
    finished = finished_with_lines([-50.0, -20.0, 250.0], view=0)
    black = candidates(finished, level_play("chess", 1), 1)
    assert [(c.move, round(c.loss, 2)) for c in black] == [("m0", 0.0), ("m1", 0.3), ("m2", 3.0)]
    assert played_score(finished, "m1", 1) == Score(-20.0, 0)


def test_a_thrown_away_mate_is_a_blunder_capped_at_the_decisive_loss() -> None:
    mate = WIN_SCORE - 3
    finished = finished_with_lines([mate, mate - 2, 120.0, -mate])
    found = candidates(finished, level_play("chess", 1), 0)
    assert [round(c.loss, 2) for c in found] == [0.0, 0.02, DECISIVE_LOSS["chess"], DECISIVE_LOSS["chess"]]
    picks = Counter(choose_move(finished, level_play("chess", 1), 0, random.Random(3)) for _ in range(2000))
    assert picks["m0"] + picks["m1"] > 1980  # a slower mate is as good; letting it go is rare


def test_backgammon_weak_levels_choose_among_every_plays_equity() -> None:
    """The one-ply expectiminimax scores every play (gnubg's weak players pick among the
    plays' equities with noise): the choice reads ``root_moves``."""
    stats = tuple(RootMoveStat(move, 0, value) for move, value in (("a", 0.10), ("b", 0.08), ("c", -0.30)))
    finished = Finished(0, "a", Score(0.10, 0), ("a",), 1, 1, 4, 40.0, 0.1, root_moves=stats)
    play = level_play("backgammon", 1)
    assert play.algorithm == "expectiminimax" and play.is_weak
    assert [(c.move, round(c.loss, 3)) for c in candidates(finished, play, 0)] == [("a", 0.0), ("b", 0.02), ("c", 0.4)]
    picks = Counter(choose_move(finished, play, 0, random.Random(5)) for _ in range(3000))
    assert picks["b"] > 900 and picks["c"] < 100
    assert played_score(finished, "b", 0) == Score(0.08, 0)


def test_an_answer_that_was_no_choice_is_played_as_it_came() -> None:
    finished = finished_with_lines([10.0, 0.0, -5.0])
    play = level_play("chess", 1)
    for flag in ("book", "forced", "only_move"):
        answer = Finished(**{**finished.__dict__, flag: True})
        assert {choose_move(answer, play, 0, random.Random(seed)) for seed in range(30)} == {"m0"}
    single = Finished(0, "m0", Score(1.0), ("m0",), 1, 1, 1, 1.0, 0.0)
    assert choose_move(single, play, 0, random.Random(0)) == "m0"


# ------------------------------------------------------------------ budgets and time
def middlegame(game: str, plies: int = 16, seed: int = 3) -> tuple[GameState, list[str]]:
    state = new_game(game)
    rng = random.Random(seed)
    names: list[str] = []
    while len(names) < plies and not state.is_terminal():
        moves = [outcome for outcome, _ in state.chance_outcomes()] if state.to_move() == CHANCE else state.legal_moves()
        move = rng.choice(moves)
        names.append(state.move_name(move))
        state.play(move)
    if state.to_move() == CHANCE:
        move = state.chance_outcomes()[4][0]
        names.append(state.move_name(move))
        state.play(move)
    return state, names


CHEAP_SHARE = 64
"""The most expensive levels are searched on a 64th of their budget: what is checked is
that the engine stops at its node budget (no timing), which the share does not change."""


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("number", [1, 10])
def test_a_level_stops_at_its_node_budget_in_the_start_and_a_middlegame(game: str, number: int) -> None:
    play = level_play(game, number)
    if number == 10:
        play = LevelPlay(play.game, play.level, play.algorithm, play.nodes // CHEAP_SHARE, play.depth, play.lines,
                         play.temperature, play.solver)
    for plies in (0, 16):
        state, names = middlegame(game, plies)
        if state.is_terminal() or state.to_move() == CHANCE:
            continue
        finished = run_search(request_for_level(play, None, names), shared={})
        assert finished.error is None and finished.best_move in state.legal_moves()
        slack = 4096  # the compiled search polls its node count every 4096 nodes
        assert finished.nodes <= play.nodes + slack, (game, number, plies, finished.nodes)
        move = choose_move(finished, play, state.to_move(), level_rng(1, 1, state.to_move()))
        assert move in state.legal_moves()


# ------------------------------------------------------------------ the match plays the app's level
def test_the_match_level_asks_the_apps_request_and_errs_with_the_same_seed() -> None:
    player = make_player("level=3", "othello", seed=11)
    assert isinstance(player, LevelPlayer)
    state, names = middlegame("othello", 12)
    start = new_game("othello").to_text()
    player.new_game(new_game("othello"))
    request = player.request(GameHistory(start, list(names)))
    assert request == request_for_level(level_play("othello", 3), start, names)
    assert request.settings.multipv == level_play("othello", 3).lines and request.limits.nodes == 8_000
    finished = finished_with_lines([0.0, -100.0, -150.0, -400.0])
    mover = state.to_move()
    ours = [choose_move(finished, player.play, mover, player.rng(mover)) for _ in range(40)]
    app = level_rng(11, 1, mover)  # the app's generator for that side, seeded alike
    assert ours == [choose_move(finished, level_play("othello", 3), mover, app) for _ in range(40)]
    assert len(set(ours)) > 1  # a weak level: not always the best


def test_a_level_match_replays_with_its_seed() -> None:
    state = new_game("tictactoe")

    def moves(seed: int) -> list[str]:
        player = make_player("level=1", "tictactoe", seed=seed)
        played = []
        for game in range(3):
            player.new_game(state.copy())
            played.append(state.move_name(player.choose(state.copy(), GameHistory(state.to_text()), None)))  # type: ignore[arg-type]
        return played

    assert moves(4) == moves(4)
    assert len({tuple(moves(seed)) for seed in range(6)}) > 1


# ------------------------------------------------------------------ measured ratings
def rating(game: str = "chess", number: int = 5, **changes: object) -> LevelRating:
    fields = dict(game=game, level=number, value=1640.0, low=1560.0, high=1720.0, scale=RatingScale.ELO,
                  opponent="Stockfish", games=200, anchor="UCI_Elo 1350-2850", command="python -m bench.levels --game chess")
    fields.update(changes)
    return LevelRating(**fields)  # type: ignore[arg-type]


def test_ratings_round_trip_and_read_as_the_dialog_shows_them() -> None:
    ratings = [rating(), rating("tictactoe", 2, value=81.0, low=78.5, high=83.4, scale=RatingScale.PERFECT_SHARE,
                                opponent="perfect play", games=4520, anchor="", command="")]
    read = parse_level_ratings(ratings_json(ratings))
    assert read == {("chess", 5): ratings[0], ("tictactoe", 2): ratings[1]}
    assert ratings[0].text() == "≈1640 Elo (1560–1720) vs Stockfish"
    assert ratings[1].text() == "81% perfect moves (78–83%)"
    points = rating("backgammon", 7, value=-0.14, low=-0.23, high=0.05, scale=RatingScale.POINTS, opponent="gnubg 0-ply")
    assert parse_level_ratings(ratings_json([points])) == {("backgammon", 7): points}
    assert points.text() == "\u22120.14 points a game (\u22120.23 to +0.05) vs gnubg 0-ply"


def test_a_level_that_lost_or_won_every_game_reads_as_a_bound() -> None:
    below = rating(number=1, value=983.0, low=983.0, high=983.0, games=36, bound=RatingBound.AT_MOST)
    above = rating("othello", 10, value=2400.0, low=2400.0, high=2400.0, games=6, bound=RatingBound.AT_LEAST,
                   anchor="Elo, GRhino level 1 (gtp-rhino -l 1) = 1000", opponent="GRhino")
    assert parse_level_ratings(ratings_json([below, above])) == {("chess", 1): below, ("othello", 10): above}
    assert below.text() == "below ≈983 Elo vs Stockfish (lost all 36 games it played)"
    assert above.text() == "above ≈2400 Elo where GRhino level 1 = 1000 (won all 6 games it played)"


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"bound": "never"}, "bound must be one of at-least, at-most"),
        ({"bound": "at-most"}, "only an Elo rating can be a bound"),  # an interval, not one number
        ({"bound": "at-most", "low": 1640.0, "high": 1640.0, "scale": "points"}, "only an Elo rating can be a bound"),
    ],
)
def test_a_bad_bound_is_refused(changes: dict, problem: str) -> None:
    text = json.dumps({"format": 1, "games": {"chess": {"5": {**rating().to_json(), **changes}}}})
    with pytest.raises(LevelRatingsError, match=problem):
        parse_level_ratings(text)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "not JSON"),
        ("[]", "not a ratings file"),
        ('{"format": 2, "games": {}}', "not a ratings file"),
        ('{"format": 1, "games": {"go": {}}}', "'go' is not a game with levels"),
        ('{"format": 1, "games": {"chess": {"11": {}}}}', "levels are 1-10"),
        ('{"format": 1, "games": {"chess": {"x": {}}}}', "levels are 1-10"),
        ('{"format": 1, "games": {"chess": {"5": []}}}', "not an object"),
        ('{"format": 1, "games": {"chess": {"5": {"value": NaN}}}}', "not JSON"),
        ('{"format": 1, "games": {"chess": {"5": {"value": "1600"}}}}', "value must be a number"),
        ('{"format": 1, "games": {"chess": {"5": {"value": 1, "low": 2, "high": 3}}}}', "does not hold"),
        ('{"format": 1, "games": {"chess": {"5": {"value": 1e400, "low": 0, "high": 3}}}}', "value must be a number"),
    ],
)
def test_a_bad_ratings_file_is_refused_with_a_reason(text: str, problem: str) -> None:
    with pytest.raises(LevelRatingsError, match=problem):
        parse_level_ratings(text, "levels.json")


def test_bad_entry_fields_are_named() -> None:
    good = rating().to_json()
    for name, value, problem in (("scale", "fide", "scale must be one of"), ("games", 0, "games must be"),
                                 ("games", True, "games must be"), ("opponent", "", "opponent must be"),
                                 ("command", "x" * 501, "command must be")):
        text = json.dumps({"format": 1, "games": {"chess": {"5": {**good, name: value}}}})
        with pytest.raises(LevelRatingsError, match=problem):
            parse_level_ratings(text)


def test_the_shipped_ratings_are_read_and_a_level_not_measured_has_none() -> None:
    from importlib import resources

    text = resources.files("resources").joinpath("levels.json").read_text(encoding="utf-8")
    shipped = parse_level_ratings(text)  # raises on any bad entry
    assert level_ratings() == shipped
    for game in GAME_NAMES:
        for number in range(1, 11):
            assert level_rating(game, number) == shipped.get((game, number))


def test_a_level_spec_is_exact_or_without_its_cap_and_junk_is_refused() -> None:
    from ai.match.protocol import SpecError

    exact = make_player("level=7", "chess")
    uncapped = make_player("level=7, cap=off", "chess")
    assert isinstance(exact, LevelPlayer) and isinstance(uncapped, LevelPlayer)
    history = GameHistory(new_game("chess").to_text(), ["e4"])
    assert exact.request(history).limits.time == LEVELS[6].seconds
    assert uncapped.request(history).limits == Limits(depth=exact.play.depth, time=None, nodes=exact.play.nodes)
    for spec, problem in (("level=0", "levels are 1-10"), ("level=11", "levels are 1-10"), ("level=x", "must be a number"),
                          ("level=", "must be a number"), ("level=3,depth=2", "stands alone"),
                          ("level=3,cap=on", "stands alone"), ("level=99999999999999999999", "levels are 1-10")):
        with pytest.raises(SpecError, match=problem):
            make_player(spec, "checkers")


def test_the_level_player_counts_searches_the_time_cap_ended() -> None:
    player = make_player("level=1", "tictactoe", seed=1)
    assert isinstance(player, LevelPlayer)
    state = new_game("tictactoe")
    player.new_game(state.copy())
    player.choose(state.copy(), GameHistory(state.to_text()), None)  # type: ignore[arg-type]
    assert (player.searches, player.capped) == (1, 0)  # depth 1 ends it: neither budget nor cap


def test_a_level_player_frees_its_table_between_games() -> None:
    """A finished search's table lives on in its closures until a full collection: a
    new game releases it at once (64 MB a game otherwise)."""
    from ai.search.common import TT_KEY

    player = make_player("level=9", "tictactoe")
    assert isinstance(player, LevelPlayer)
    state = new_game("tictactoe")
    player.new_game(state.copy())
    player.choose(state.copy(), GameHistory(state.to_text()), None)  # type: ignore[arg-type]
    table = player.shared[TT_KEY]
    assert table.size > 1
    player.new_game(state.copy())
    assert table.size == 1 and player.shared == {}


def test_without_the_compiled_search_a_top_level_plays_the_games_own_algorithm(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build without the C extension: the level keeps its time and plays the game's
    default algorithm on a budget the Python search can afford."""
    from ai.levels import COMPILED_SPEEDUP

    chess = get_game("chess")
    monkeypatch.setattr(chess, "NATIVE_SEARCH", None)
    play = level_play("chess", 10)
    assert play.algorithm == chess.DEFAULT_ALGORITHM
    assert play.nodes == GAME_LEVELS["chess"][9].nodes // COMPILED_SPEEDUP and play.seconds == LEVELS[9].seconds
    assert play.nodes / NODES_PER_SECOND[("chess", play.algorithm)] <= play.seconds / 2


def test_an_unreadable_ratings_file_means_no_level_is_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    import ai.levels as levels

    class Garbage:
        def joinpath(self, *parts: str) -> Garbage:
            return self

        def read_text(self, encoding: str = "utf-8") -> str:
            return '{"format": 1, "games": {"chess": {"5": {"value": "strong"}}}}'

    monkeypatch.setattr(levels, "_RATINGS", None)
    monkeypatch.setattr(levels.resources, "files", lambda package: Garbage())
    assert level_rating("chess", 5) is None and level_ratings() == {}


def test_the_match_says_when_the_time_cap_cut_a_levels_searches(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A level whose time cap ends its searches before the node budget (here a cap of a
    millisecond against a budget of a billion nodes) played weaker than itself: the match
    says how often; without the cap it never happens."""
    import ai.match.players as players
    from ai.cli import main
    from ai.levels import Level

    def hurried(game: str, number: int) -> LevelPlay:
        return LevelPlay(game, Level(number, "Hurried", 0.001), "pvs", 10**9)

    monkeypatch.setattr(players, "level_play", hurried)
    assert main(["match", "--game", "tictactoe", "--a", "level=3", "--b", "level=3,cap=off", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "A: the time cap ended" in out and "B: the time cap" not in out


def test_a_ladders_rating_names_its_anchor_and_stockfishs_its_opponent() -> None:
    """Elo on a ladder anchored at a program's level is not chess Elo: the text says where
    its 1000 is; Stockfish's UCI_Elo scale is named by its opponent."""
    othello = rating("othello", 4, value=1470.0, low=1251.0, high=1690.0, opponent="GRhino",
                     anchor="Elo, GRhino level 1 (gtp-rhino -l 1) = 1000")
    assert othello.text() == "≈1470 Elo (1251–1690) where GRhino level 1 = 1000"
    assert rating().text() == "≈1640 Elo (1560–1720) vs Stockfish"
