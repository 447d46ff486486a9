"""A beginner overlooks moves (``ai.levels.noticed_moves``): it always sees captures and
promotions, each quiet move with its level's chance; the search then looks at those alone,
in the app and in the match alike; and what it played is said beside what its search
preferred (``level_choice``)."""

from __future__ import annotations

import random
from dataclasses import replace

from ai.engine import run_search
from ai.events import Finished, PvLine, Score
from ai.levels import GAME_LEVELS, LevelPlay, level_choice, level_play, level_rng, noticed_moves, request_for_level
from ai.match.players import LevelPlayer, make_player
from ai.match.protocol import GameHistory
from games import get_game, new_game

# After 1.e4 d5: White may take on d5 (exd5), its only capture; 29 other moves are quiet.
SCANDINAVIAN = ["e4", "d5"]


def after(game: str, names: list[str]):  # noqa: ANN202 - a GameState of the game
    state = new_game(game)
    for name in names:
        state.play(state.parse_move(name))
    return state


def overlooking(notice: float) -> LevelPlay:
    return replace(level_play("chess", 1), notice=notice)


def test_captures_are_always_seen_and_quiet_moves_with_the_levels_chance() -> None:
    state = after("chess", SCANDINAVIAN)
    legal = [state.move_name(move) for move in state.legal_moves()]
    captures = {state.move_name(move) for move in state.noisy_moves()}
    assert captures == {"exd5"} and len(legal) == 31
    play = overlooking(0.5)
    rng = random.Random(3)
    seen_quiet = 0
    for _ in range(400):
        seen = noticed_moves(play, state, rng)
        assert seen and set(seen) <= set(legal) and len(set(seen)) == len(seen)
        assert "exd5" in seen or seen == ()  # () only when every move was seen
        seen_quiet += len(seen) - 1 if seen else len(legal) - 1
    share = seen_quiet / (400 * 30)
    assert 0.46 < share < 0.54  # 0.5 of the quiet moves (12,000 draws: sd 0.005)


def test_a_level_that_sees_everything_searches_every_move_and_draws_nothing() -> None:
    state = after("chess", SCANDINAVIAN)
    rng = random.Random(1)
    before = rng.getstate()
    for number in range(1, 11):
        play = level_play("chess", number)
        if play.notice >= 1.0:
            assert noticed_moves(play, state, rng) == ()
    assert rng.getstate() == before  # a level that sees all keeps its seeded mistakes as they were
    assert noticed_moves(overlooking(0.5), new_game("tictactoe"), random.Random(2)) != ()  # any game


def test_a_level_that_sees_nothing_quiet_still_has_a_move() -> None:
    start = new_game("chess")  # no capture at the start: one quiet move at random
    seen = noticed_moves(overlooking(0.0), start, random.Random(4))
    assert len(seen) == 1 and start.parse_move(seen[0]) in start.legal_moves()
    assert noticed_moves(overlooking(0.0), after("chess", SCANDINAVIAN), random.Random(4)) == ("exd5",)


def test_the_search_looks_only_at_the_moves_seen() -> None:
    state = after("chess", SCANDINAVIAN)
    play = overlooking(0.3)
    seen = noticed_moves(play, state, random.Random(8))
    finished = run_search(request_for_level(play, None, SCANDINAVIAN, root_moves=seen), shared={})
    assert finished.error is None
    assert state.move_name(finished.best_move) in seen
    assert {state.move_name(line.move) for line in finished.lines} <= set(seen)


def test_the_match_level_overlooks_what_the_app_level_overlooks() -> None:
    """The match's ``level=1`` draws the moves it sees from its side's generator, seeded as
    the app's (``level_rng(seed, 1, side)``), and asks the same request."""
    state = after("chess", SCANDINAVIAN)
    player = make_player("level=1", "chess", seed=7)
    assert isinstance(player, LevelPlayer)
    player.new_game(new_game("chess"))
    start = new_game("chess").to_text()
    request = player.request(GameHistory(start, list(SCANDINAVIAN)), state)
    app_rng = level_rng(7, 1, state.to_move())
    expected = request_for_level(level_play("chess", 1), start, SCANDINAVIAN,
                                 root_moves=noticed_moves(level_play("chess", 1), state, app_rng))
    assert request == expected
    assert level_play("chess", 1).notice < 1.0 and request.root_moves  # level 1 overlooks moves


def test_the_weakest_levels_overlook_more_and_the_top_levels_nothing() -> None:
    for game, table in GAME_LEVELS.items():
        notices = [play.notice for play in table]
        assert notices == sorted(notices), game
        assert all(play.notice == 1.0 for play in table[5:]), game  # levels 6-10 never err
        assert all(0.0 < notice <= 1.0 for notice in notices), game


def test_a_level_choice_says_what_was_played_and_what_the_search_preferred() -> None:
    white = 0
    lines = (
        PvLine(1, "Nf6", Score(6.0, white), ("Nf6", "Nc3")),
        PvLine(2, "e6", Score(-10.0, white), ("e6", "d4")),
    )
    finished = Finished(4, "Nf6", Score(6.0, white), ("Nf6", "Nc3"), 1, 1, 300, 1000.0, 0.1, lines=lines)
    play = level_play("chess", 1)
    choice = level_choice(finished, play, "e6", white, looked_at=12, legal=20)
    assert choice.deviated and choice.move == "e6" and choice.best_move == "Nf6"
    assert choice.score == Score(-10.0, white) and choice.line == ("e6", "d4")  # the line of the move played
    assert choice.best_score == Score(6.0, white) and choice.search_id == 4 and choice.level == 1
    assert (choice.looked_at, choice.legal, choice.overlooked) == (12, 20, 8)
    best = level_choice(finished, play, "Nf6", white, looked_at=0, legal=20)  # 0: every move searched
    assert not best.deviated and best.overlooked == 0 and best.line == ("Nf6", "Nc3")
    assert get_game("chess").SCORE_UNIT_SIZE == 100  # the scores above are centipawns
