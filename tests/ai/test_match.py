"""``plyground match``: short matches between built-in players, the game files they write
(read back with the games' own readers and an independent one), and the external drivers
against fake UCI and GTP engines that crash, hang and play illegal moves."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from ai.cli import main
from ai.match.records import read_games
from games import new_game

ENGINES = Path(__file__).parent / "engines"
PROJECT_ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def fake_uci(mode: str = "good", after: int = 0) -> str:
    return f"uci:{sys.executable} {ENGINES / 'fake_uci.py'} {mode} {after}"


def fake_gtp(mode: str = "good", after: int = 0) -> str:
    return f"gtp:{sys.executable} {ENGINES / 'fake_gtp.py'} {mode} {after}"


@pytest.fixture(autouse=True)
def _project_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake GTP engine imports the project's Othello rules."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")])))


# ------------------------------------------------------------------ built-in players
def test_tictactoe_match_pairs_openings_and_alternates_colours(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "games.json"
    status, text, err = run(capsys, "match", "--game", "tictactoe", "--a", "depth=1", "--b", "algorithm=alphabeta,depth=9",
                            "--games", "6", "--out", str(out))
    assert status == 0, err
    assert err == ""  # no progress bar when stderr is not a terminal
    records = read_games(out.read_text(), "tictactoe")
    assert len(records) == 6
    for first, second in zip(records[::2], records[1::2]):
        assert first.moves[0] == second.moves[0]  # one opening, both colours
        assert first.players == tuple(reversed(second.players)) == ("depth=1", "algorithm=alphabeta,depth=9")
    assert len({record.moves[0] for record in records}) == 3
    # A perfect player never loses at tic-tac-toe: B (full-depth alpha-beta) scores at least half.
    assert all(record.result in ("1/2-1/2", "1-0" if record.players[0] != "depth=1" else "0-1") for record in records)
    assert "score: A " in text and "Elo " in text and "likelihood of superiority" in text


def test_checkers_match_writes_pdn_that_pydraughts_replays(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    draughts = pytest.importorskip("draughts")
    from draughts.PDN import PDNReader

    out = tmp_path / "games.pdn"
    status, text, err = run(capsys, "match", "--game", "checkers", "--a", "depth=2", "--b", "depth=1,quiescence=off",
                            "--games", "2", "--out", str(out))
    assert status == 0, err
    ours = read_games(out.read_text(), "checkers")
    theirs = PDNReader(pdn_text=out.read_text()).games
    assert len(ours) == len(theirs) == 2
    for record, game in zip(ours, theirs):
        final = record.replay()
        assert final.is_terminal() or "adjudicated" in record.reason
        assert game.moves == record.moves
        board = draughts.Board(variant="english")
        for move in game.moves:
            board.push(draughts.Move(board, pdn_move=move))
        assert board.fen.split(":")[0] == final.to_text().split(":")[0]
        assert {"2-0": "1-0", "0-2": "0-1", "1-1": "1/2-1/2"}[game.game_ending] == record.result


def test_a_draw_is_adjudicated_after_max_plies(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "games.json"
    status, text, _ = run(capsys, "match", "--game", "othello", "--a", "depth=1", "--b", "depth=1", "--games", "2",
                          "--max-plies", "6", "--out", str(out))
    assert status == 0
    records = read_games(out.read_text(), "othello")
    assert all(r.result == "1/2-1/2" and "adjudicated" in r.reason and len(r.moves) == 4 + 6 for r in records)
    assert "draws: 2" in text


def test_backgammon_pairs_share_their_dice(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "games.json"
    status, text, err = run(capsys, "match", "--game", "backgammon", "--a", "algorithm=star2,depth=1",
                            "--b", "algorithm=expectiminimax,depth=1", "--games", "2", "--out", str(out), "--max-plies", "20")
    assert status == 0, err
    first, second = read_games(out.read_text(), "backgammon")
    assert first.moves[0] == second.moves[0]  # the same opening roll ...
    assert first.players == tuple(reversed(second.players))  # ... with colours swapped
    assert "points a game for A" in text


def test_openings_file_of_move_lines(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    book = tmp_path / "book.txt"
    book.write_text("# corner and centre\na1 b2\nb2\n")
    out = tmp_path / "games.json"
    status, _, _ = run(capsys, "match", "--game", "tictactoe", "--a", "depth=2", "--b", "depth=2", "--games", "4",
                       "--openings", str(book), "--out", str(out))
    assert status == 0
    records = read_games(out.read_text(), "tictactoe")
    assert [r.moves[:2] for r in records[:2]] == [["a1", "b2"]] * 2
    assert [r.moves[0] for r in records[2:]] == ["b2"] * 2
    assert records[0].opening_plies == 2


def test_chess_openings_from_epd(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    book = tmp_path / "book.epd"
    book.write_text('4k3/8/8/8/8/8/4P3/4K3 w - - id "pawn";\n')
    out = tmp_path / "games.pgn"
    status, _, err = run(capsys, "match", "--game", "chess", "--a", "depth=1", "--b", fake_uci(), "--games", "2",
                         "--openings", str(book), "--out", str(out), "--max-plies", "8")
    assert status == 0, err
    records = read_games(out.read_text(), "chess")
    assert all(r.start.startswith("4k3/8/8/8/8/8/4P3/4K3 w") for r in records)
    assert '[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]' in out.read_text()


# --------------------------------------------------------------------- UCI drivers
def test_uci_engine_plays_whole_games_in_pgn(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from games.chess_game.pgn import from_pgn

    out = tmp_path / "games.pgn"
    status, text, err = run(capsys, "match", "--game", "chess", "--a", "depth=1", "--b", fake_uci(), "--games", "2",
                            "--time", "0.05", "--out", str(out), "--max-plies", "30")
    assert status == 0, err
    games = out.read_text().split("\n\n[")
    assert len(games) == 2
    first = from_pgn(games[0])  # the strict reader of games/ accepts every game written
    assert first.headers["White"] == "depth=1" and first.headers["Black"].startswith("uci:")
    assert len(first.moves) >= 6  # six plies of opening book at least


@pytest.mark.parametrize(
    ("mode", "reason"),
    [("crash", "crashed"), ("illegal", "illegal"), ("hang", "no move within 1 s")],
)
def test_a_failing_uci_engine_forfeits_and_the_match_goes_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, mode: str, reason: str
) -> None:
    out = tmp_path / "games.pgn"
    status, text, err = run(capsys, "match", "--game", "chess", "--a", "depth=1", "--b", fake_uci(mode, 1),
                            "--games", "2", "--time", "0.05", "--move-timeout", "1", "--out", str(out))
    assert status == 0, err
    records = read_games(out.read_text(), "chess")
    assert len(records) == 2  # the engine was started again for game 2
    for record in records:
        b_colour = 1 if record.players[1].startswith("uci:") else 0
        assert record.result == ("1-0" if b_colour == 1 else "0-1")
        assert "forfeits" in record.reason and reason in record.reason
    assert "score: A 2 - 0 B" in text
    assert text.count(reason) >= 2  # each forfeit listed with its reason


def test_uci_spec_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    cases = [
        (fake_uci() + "?NoSuchOption=1", "no option 'NoSuchOption'"),
        ("uci:no-such-engine-here", "not found"),
        (f"uci:{sys.executable} -c 'import sys; sys.exit(1)'", "did not start"),
    ]
    for spec, message in cases:
        status, _, err = run(capsys, "match", "--game", "chess", "--a", "depth=1", "--b", spec, "--games", "2")
        assert status == 2
        assert err.count("\n") == 1 and message in err and "Traceback" not in err


# --------------------------------------------------------------------- GTP drivers
def test_gtp_engine_plays_othello(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "games.json"
    status, text, err = run(capsys, "match", "--game", "othello", "--a", "depth=1", "--b", fake_gtp(), "--games", "2",
                            "--out", str(out))
    assert status == 0, err
    for record in read_games(out.read_text(), "othello"):
        assert record.replay().is_terminal()
        assert "forfeits" not in record.reason


@pytest.mark.parametrize(("mode", "reason"), [("crash", "exited"), ("illegal", "illegal"), ("hang", "within 1 s")])
def test_a_failing_gtp_engine_forfeits(capsys: pytest.CaptureFixture[str], tmp_path: Path, mode: str, reason: str) -> None:
    out = tmp_path / "games.json"
    status, text, err = run(capsys, "match", "--game", "othello", "--a", "depth=1", "--b", fake_gtp(mode, 2),
                            "--games", "2", "--move-timeout", "1", "--out", str(out))
    assert status == 0, err
    records = read_games(out.read_text(), "othello")
    assert len(records) == 2
    assert all("forfeits" in r.reason and reason in r.reason for r in records)
    assert "score: A 2 - 0 B" in text


# ------------------------------------------------------------------------- errors
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "chess", "--a", "depth=x", "--b", "depth=1"], "depth: 'x' is not a whole number"),
        (["--game", "chess", "--a", "colour=red", "--b", "depth=1"], "unknown key 'colour'"),
        (["--game", "chess", "--a", "algorithm=star9", "--b", "depth=1"], "'star9' is not an algorithm"),
        (["--game", "backgammon", "--a", "algorithm=pvs", "--b", "depth=1"], "chance nodes"),
        (["--game", "chess", "--a", "quiescence=maybe", "--b", "depth=1"], "on or off"),
        (["--game", "chess", "--a", "level=11", "--b", "depth=1"], "levels are 1-10"),
        (["--game", "chess", "--a", "time=nan", "--b", "depth=1"], "time: must be a positive number, not nan"),
        (["--game", "othello", "--a", "uci:stockfish", "--b", "depth=1"], "UCI engines play chess"),
        (["--game", "chess", "--a", "gtp:gtp-rhino", "--b", "depth=1"], "GTP engines play Othello"),
        (["--game", "tictactoe", "--a", "depth=1", "--b", "depth=1", "--openings", "/nonexistent/book"], "No such file"),
        (["--game", "tictactoe", "--a", "depth=1", "--b", "depth=1", "--depth", "0"], "argument --depth: 0 is out of range"),
        (["--game", "tictactoe", "--a", "depth=1", "--b", "depth=1", "--time", "nan"], "argument --time: must be a positive number"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    status, _, err = run(capsys, "match", *argv, *([] if "--games" in argv else ["--games", "2"]))
    assert status == 2
    assert err.count("\n") == 1 and message in err, err


def test_bad_games_count_and_bad_opening_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "match", "--game", "tictactoe", "--a", "depth=1", "--b", "depth=1", "--games", "0")
    assert status == 2 and "argument --games: 0 is out of range" in err and err.count("\n") == 1
    book = tmp_path / "book.txt"
    book.write_text("a1 a1\n")
    status, _, err = run(capsys, "match", "--game", "tictactoe", "--a", "depth=1", "--b", "depth=1", "--games", "2",
                         "--openings", str(book))
    assert status == 2 and f"{book}:1" in err and err.count("\n") == 1


def test_named_level_and_default_specs() -> None:
    from ai.levels import level_play
    from ai.match.players import LevelPlayer, SpecError, make_player, parse_builtin

    player = make_player("level=5", "chess")
    assert isinstance(player, LevelPlayer) and player.play == level_play("chess", 5)
    with pytest.raises(SpecError, match="stands alone"):
        parse_builtin("level=5,depth=2", "chess")
    assert parse_builtin("default", "backgammon").settings.algorithm == "star2"
    assert parse_builtin("algorithm=mtdf,quiescence=off,tt_megabytes=8", "chess").settings.quiescence is False
    assert new_game("tictactoe")  # the registry is reachable from here


# ------------------------------------------------------------------ real gnubg, if here
def test_gnubg_plays_backgammon_with_paired_dice(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import shutil

    if not (shutil.which("gnubg") or Path("/usr/games/gnubg").exists()):
        pytest.skip("GNU Backgammon is not installed (Debian package gnubg)")
    out = tmp_path / "games.json"
    status, text, err = run(capsys, "match", "--game", "backgammon", "--a", "algorithm=star2,depth=1", "--b", "gnubg",
                            "--games", "2", "--out", str(out))
    assert status == 0, err
    records = read_games(out.read_text(), "backgammon")
    assert all(record.replay().is_terminal() and "forfeits" not in record.reason for record in records)
    assert records[0].moves[:1] == records[1].moves[:1]


def test_progress_bar_only_on_a_terminal() -> None:
    import io

    from ai.cli.match import ProgressBar
    from ai.match.records import GameRecord
    from ai.match.runner import GameOutcome, MatchResult

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    result = MatchResult("tictactoe", ("a", "b"))
    result.outcomes.append(GameOutcome(1, GameRecord("tictactoe", "........."), 0, 1.0, 1.0))
    terminal, pipe = Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        bar = ProgressBar(stream, 4)
        bar.update(result)
        bar.finish()
    assert "[######" in terminal.getvalue() and "1/4" in terminal.getvalue() and "A 1 - 0 B" in terminal.getvalue()
    assert pipe.getvalue() == ""


@pytest.mark.parametrize("game", ["tictactoe", "checkers", "chess", "othello", "backgammon"])
def test_built_in_openings_are_legal_and_distinct(game: str) -> None:
    from ai.match.openings import built_in

    openings = built_in(game, seed=3)
    assert len({(o.start, o.moves) for o in openings}) == len(openings)
    for opening in openings:
        assert not opening.state(game).is_terminal()
    assert [o.moves for o in openings] == [o.moves for o in built_in(game, seed=3)]  # seeded: reproducible
    if game == "othello":  # perft(4) = 244 lines, 60 up to the symmetries of the start
        from games.othello.patterns import images

        classes = set()
        for opening in openings:
            state = opening.state(game)
            classes.add(min(zip(images(state.own), images(state.opponent))))
        assert len(openings) == len(classes) == 60


def test_threads_play_on_the_engine_pool_and_leave_no_process(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import multiprocessing

    out = tmp_path / "games.json"
    status, text, err = run(capsys, "match", "--game", "tictactoe", "--a", "depth=9", "--b", "algorithm=mtdf,depth=9",
                            "--games", "2", "--threads", "2", "--out", str(out))
    assert status == 0, err
    assert all(record.result == "1/2-1/2" for record in read_games(out.read_text(), "tictactoe"))  # perfect play draws
    assert multiprocessing.active_children() == []


def test_games_that_cannot_be_written_are_named_and_the_summary_still_comes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills during the match: one message names the file and the reason, the
    games go on, the summary is printed, and the status says output was lost."""
    import errno

    out = tmp_path / "games.json"
    real_write = Path.write_text

    def full_disk(self: Path, *args: object, **kwargs: object) -> int:
        if self == out:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "write_text", full_disk)
    status, text, err = run(capsys, "match", "--game", "tictactoe", "--a", "depth=1", "--b", "depth=1", "--games", "3", "--out", str(out))
    assert status == 1
    assert "score: " in text and "in 3 games" in text
    assert err.splitlines() == [f"plyground: error: cannot write the games to {str(out)!r}: No space left on device"]
