"""Games as documents: every game saves and loads back move for move, in its own format and
in Plyground JSON; a bad file or paste is one clear error, never a half-read game."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from games import GAME_NAMES, new_game
from gui.gamefile import (
    GameRecord,
    RecordError,
    default_extension,
    read_game,
    read_paste,
    read_position,
    write_game,
)


def random_record(game: str, plies: int = 40, seed: int = 7) -> GameRecord:
    """A game of random legal moves (dice, passes and cube actions included)."""
    state = new_game(game)
    start = state.to_text()
    rng = random.Random(seed)
    names = []
    for _ in range(plies):
        if state.is_terminal():
            break
        move = rng.choice(state.legal_moves())
        names.append(state.move_name(move))
        state.play(move)
    evaluations = ["+0.35" if index % 3 == 1 else None for index in range(len(names))]
    return GameRecord(game, start, names, evaluations, ("Ada", "Computer (PVS, level 4 Club)"), "*", "", "2026.11.24")


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("fmt", ["native", "json"])
def test_every_game_round_trips(game: str, fmt: str) -> None:
    record = random_record(game)
    chosen = default_extension(game) if fmt == "native" else "json"
    back = read_game(write_game(record, chosen), chosen)
    assert back.game == game
    assert back.start == record.start
    assert back.moves == record.moves
    assert back.evaluations == record.evaluations
    assert back.players == record.players
    assert back.replay().key() == record.replay().key()


def test_pgn_carries_evaluations_as_eval_comments() -> None:
    record = GameRecord("chess", new_game("chess").to_text(), ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"],
                        [None, "+0.30", None, "mate in 2", None, "mate in 1", None], result="1-0")
    text = write_game(record, "pgn")
    assert "{ [%eval 0.30] }" in text and "[%eval #2]" in text
    assert '[Result "1-0"]' in text
    back = read_game(text, ".pgn")
    assert back.evaluations == record.evaluations and back.result == "1-0"


def test_pdn_from_a_set_up_position_numbers_moves_and_keeps_the_fen() -> None:
    start = "W:WK5,18,26:B2,9,K30"
    state = new_game("checkers", start)
    names = []
    for _ in range(3):
        move = state.legal_moves()[0]
        names.append(state.move_name(move))
        state.play(move)
    text = write_game(GameRecord("checkers", new_game("checkers", start).to_text(), names), "pdn")
    assert '[FEN "' in text and "1..." in text
    assert read_game(text).moves == names


def test_a_pdn_game_from_the_literature_reads() -> None:
    text = '[Event "Example"]\n[Black "A"]\n[White "B"]\n[Result "1-1"]\n\n1. 11-15 23-19 2. 8-11 22-17 3. 9-14 25-22 4. 4-8 1-1\n'
    record = read_game(text, "pdn")
    assert record.moves == ["11-15", "23-19", "8-11", "22-17", "9-14", "25-22", "4-8"]
    assert record.result == "1/2-1/2" and record.players == ("A", "B")


BAD_FILES = [
    ("", "pgn", "empty"),
    ("   \n", "json", "empty"),
    ("{not json", "json", "not valid JSON"),
    ("[1, 2]", "json", "JSON object"),
    ('{"format": "something-else"}', "json", "not a Plyground game file"),
    ('{"format": "plyground-game", "version": 9, "game": "chess"}', "json", "version 9"),
    ('{"format": "plyground-game", "version": 1, "game": "go"}', "json", '"game" must be one of'),
    ('{"format": "plyground-game", "version": 1, "game": "othello", "moves": ["d3", "a1"]}', "json", "move 2 ('a1')"),
    ('{"format": "plyground-game", "version": 1, "game": "othello", "moves": "d3"}', "json", '"moves" must be a list'),
    ('{"format": "plyground-game", "version": 1, "game": "tictactoe", "start": "xxxxxxxxx"}', "json", "start position"),
    ('{"format": "plyground-game", "version": 1, "game": "tictactoe", "result": "2-0"}', "json", '"result"'),
    ("1. e4 e5 2. Ke3 *", "pgn", "Ke3"),
    ("1. e4 hello *", "pgn", "hello"),
    ('[Event "x"\n1. e4 *', "pgn", "header"),
    ("1. 11-15 23-19 2. 11-16 *", "pdn", "PDN move 3"),
    ('[GameType "20"]\n1. 32-28 *', "pdn", "GameType 20"),
    ("1. 11-15 (23-19) *", "pdn", "variations"),
    ("1. 11-15 {unclosed", "pdn", "never closed"),
    ("x" * 6_000_000, "json", "far too long"),
]


@pytest.mark.parametrize(("text", "hint", "reason"), BAD_FILES, ids=[case[2] for case in BAD_FILES])
def test_a_bad_file_is_one_clear_error(text: str, hint: str, reason: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_game(text, hint)
    assert reason in str(caught.value)
    assert "\n" not in str(caught.value).strip()


PASTED = {
    "chess": "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "checkers": "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,15",
    "othello": "---------------------------OX------XXX-------------------------- O",
    "backgammon": "4HPwATDgc/ABMA",
    "tictactoe": "x...o....",
}


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_pasted_position_is_recognised_whatever_game_is_on(game: str) -> None:
    for preferred in GAME_NAMES:
        pasted = read_position(PASTED[game], preferred)
        assert pasted.game == game
        assert pasted.state.to_text() == new_game(game, PASTED[game]).to_text()


def test_a_bad_paste_names_the_current_games_reason() -> None:
    with pytest.raises(RecordError, match="as chess"):
        read_position("rnbqkbnr/pppppppp/8/8 w", "chess")
    with pytest.raises(RecordError, match="no text"):
        read_position("   ", "othello")


def test_a_pasted_game_is_read_as_a_game() -> None:
    record = read_paste("1. e4 e5 2. Nf3 *", "othello")
    assert record.game == "chess" and record.moves == ["e4", "e5", "Nf3"]
    as_json = write_game(random_record("othello", 10), "json")
    assert read_paste(as_json, "chess").moves == random_record("othello", 10).moves


def test_the_json_format_is_documented_and_stable() -> None:
    document = json.loads(write_game(random_record("backgammon", 12), "json"))
    assert document["format"] == "plyground-game" and document["version"] == 1
    assert set(document) <= {"format", "version", "game", "start", "moves", "evaluations", "players", "result", "reason", "date"}
    import gui.gamefile

    assert '"format": "plyground-game"' in (gui.gamefile.__doc__ or "")


# ---------------------------------------------------------------- in the app: saved evaluations, games past a claimable draw
EVALUATED_PGN = '[Event "x"]\n[Result "*"]\n\n1. e4 { [%eval 0.30] } e5 { [%eval 0.25] } 2. Qh5 { [%eval -1.20] } Nc6 *\n'


@pytest.fixture
def window(window: Any) -> Any:
    """The shared window (``tests/gui/conftest.py``), which replaces its game without a dialog."""
    window.ask = lambda question: True
    return window


def test_opening_a_file_fills_the_eval_graph_and_bar_and_continue_restores_them(window: Any, tmp_path: Path) -> None:
    path = tmp_path / "evaluated.pgn"
    path.write_text(EVALUATED_PGN, encoding="utf-8")
    assert window.open_path(path)
    graph = [None if score is None else round(score.value) for score in window.eval_graph.scores]
    assert graph == [None, 30, 25, -120, None]
    assert window.eval_bar.describe()  # the last saved score, not an empty bar
    shown = window.eval_bar.describe()
    window.show_start_page()
    assert window.continue_last_game()
    assert [None if score is None else round(score.value) for score in window.eval_graph.scores] == graph
    assert window.eval_bar.describe() == shown


@pytest.mark.parametrize("pgn", ["1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 e5 *",
                                 '[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 99 80"]\n\n80. Kd1 Kd8 81. e4 *'],
                         ids=["past threefold", "past fifty moves"])
def test_pasting_a_game_that_went_on_past_a_claimable_draw_keeps_it_playable(window: Any, pgn: str) -> None:
    from gui.players import HUMAN, PlayerConfig

    window.settings.set_players("chess", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)))
    assert window.paste_text(pgn)
    session = window.session
    assert session is not None and len(session.move_names()) in (3, 10) and not session.is_over
    assert session.play_text("d4" if len(session.move_names()) == 10 else "Kc7") is None


def test_the_window_opens_a_utf16_game_file(window: Any, tmp_path: Path) -> None:
    path = tmp_path / "windows.pgn"
    path.write_bytes('[White "Müller"]\n\n1. e4 e5 *\n'.encode("utf-16"))
    assert window.open_path(path), window.last_error
    assert window.session is not None and window.session.move_names() == ["e4", "e5"]
