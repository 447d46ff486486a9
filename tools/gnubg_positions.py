"""Training positions for the backgammon network, labelled by GNU Backgammon.

Runs INSIDE gnubg (never imported by the app), from the repository root (``PYTHONPATH`` puts
the project's packages on gnubg's Python path)::

    PYTHONPATH=. BG_SEED=11 BG_GAMES=2500 BG_PLIES=1 BG_OUT=/tmp/positions.txt \
        /usr/games/gnubg -t -q -r -p tools/gnubg_positions.py

gnubg plays cubeless games against itself. At every turn it lists **every legal play** of
the roll with its chances (``gnubg.hint``: one call a turn); each play's resulting position
becomes a training line, so the network learns to rank all the candidates a 1-ply player
compares, not only the plays a strong player picks. The ``BG_PLIES`` setting (default 1) is
the depth of gnubg's evaluation: at 1 or 2 plies gnubg's move filter evaluates the best
candidates (up to 8 within 0.16 of the best) at that depth and the rest at 0 ply; each line
says which. The game goes on with gnubg's best play, or, with a per-game probability (0 to
0.3), a random one of its five best, so that the positions include a weaker player's choices.

One line a position, the side on roll being the one about to roll after the play: 25 counts
of the side NOT on roll (points 1..24 in its own numbering, then the bar), 25 of the side on
roll, then its win, win gammon, win backgammon, lose gammon, lose backgammon, then the plies
of that evaluation. ``tools/train_backgammon.py`` reads these files.
"""

import os
import random

import gnubg  # type: ignore[import-not-found]  # only inside gnubg

from games.backgammon import BackgammonState
from games.base import CHANCE
from tools.gnubg_hints import use_hints

DEVIATION_RATES = (0.0, 0.05, 0.1, 0.2, 0.3)
"""Per game: how often the played move is a random one of gnubg's five best."""
DEVIATION_CANDIDATES = 5
SEARCHED_CANDIDATES = 12
SEARCH_WINDOW = 0.24
"""gnubg's move filter at every depth: up to this many plays within this equity of the best."""
SHALLOW_KEPT = 6
"""Of the plays gnubg's filter left at 0 ply, at most this many (at random) are written."""


def main() -> None:
    seed = int(os.environ.get("BG_SEED", "1"))
    games = int(os.environ.get("BG_GAMES", "10"))
    plies = int(os.environ.get("BG_PLIES", "1"))
    rng = random.Random(seed)
    use_hints(plies, SEARCHED_CANDIDATES, SEARCH_WINDOW)
    written = 0
    with open(os.environ.get("BG_OUT", "positions.txt"), "w") as out:
        for _ in range(games):
            deviation = rng.choice(DEVIATION_RATES)
            state = BackgammonState.initial(cube_enabled=False)
            state.play(rng.choice([outcome for outcome, _ in state.chance_outcomes()]))
            while not state.is_terminal():
                if state.to_move() == CHANCE:
                    state.play(rng.choice([outcome for outcome, _ in state.chance_outcomes()]))
                    continue
                plays = state.legal_moves()
                if len(plays) == 1:
                    state.play(plays[0])
                    continue
                gnubg.command("set gnubgid " + state.to_text())
                hints = gnubg.hint(1000)["hint"]
                chosen = None
                shallow = [hint for hint in hints if hint["context"]["plies"] < plies]
                dropped = set(map(id, shallow)) - set(map(id, rng.sample(shallow, min(SHALLOW_KEPT, len(shallow)))))
                for rank, hint in enumerate(hints):
                    play = state.parse_move(hint["move"])
                    child = state.result(play)
                    if rank == 0:
                        chosen = play
                    if child.is_terminal() or id(hint) in dropped:
                        continue
                    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = hint["details"]["probs"]
                    mover, on_roll = child.boards[state.player], child.boards[1 - state.player]
                    chances = (1.0 - win, lose_gammon, lose_backgammon, win_gammon, win_backgammon)
                    out.write(
                        " ".join(map(str, mover[1:] + on_roll[1:])) + " "
                        + " ".join("%.5f" % x for x in chances) + " %d\n" % hint["context"]["plies"]
                    )
                    written += 1
                if rng.random() < deviation:
                    chosen = state.parse_move(rng.choice(hints[:DEVIATION_CANDIDATES])["move"])
                state.play(chosen)
            out.flush()
    print("@@ DONE", written)


main()
