"""Training positions for the backgammon network, labelled by GNU Backgammon 0-ply.

Runs INSIDE gnubg (never imported by the app)::

    BG_SEED=11 BG_GAMES=2500 BG_OUT=/tmp/positions.txt /usr/games/gnubg -t -q -r -p bench/gnubg_positions.py

gnubg plays cubeless games against itself with per-game evaluation noise (0 to 0.25, so
that the positions include the mistakes a weaker player makes), and before each roll
writes the position with gnubg's 0-ply chances for the side on roll. One line a position:
25 counts of the side NOT on roll (points 1..24 in its own numbering, then the bar), 25 of
the side on roll, then win, win gammon, win backgammon, lose gammon, lose backgammon.
``bench/train_backgammon.py`` reads these files.
"""

import os
import random

import gnubg  # type: ignore[import-not-found]  # only inside gnubg

NOISE_LEVELS = (0.0, 0.02, 0.05, 0.1, 0.15, 0.25)
START = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]


def main() -> None:
    seed = int(os.environ.get("BG_SEED", "1"))
    games = int(os.environ.get("BG_GAMES", "10"))
    rng = random.Random(seed)
    for command in ("set player 0 human", "set player 1 human", "set jacoby off", "set cube use off", "new game"):
        gnubg.command(command)
    cube = gnubg.cubeinfo()
    exact = gnubg.evalcontext(0, 0, 1, 1, 0.0)
    written = 0
    with open(os.environ.get("BG_OUT", "positions.txt"), "w") as out:
        for _ in range(games):
            noisy = gnubg.evalcontext(0, 0, 1, 0, rng.choice(NOISE_LEVELS))
            opponent, mover = list(START), list(START)
            opening = True
            while True:
                board = (tuple(opponent), tuple(mover))
                if not opening:
                    chances = gnubg.evaluate(board, cube, exact)[:5]
                    out.write(" ".join(map(str, opponent + mover)) + " " + " ".join("%.5f" % x for x in chances) + "\n")
                    written += 1
                die1, die2 = rng.randint(1, 6), rng.randint(1, 6)
                if opening and die1 == die2:
                    continue  # the opening roll is never a double
                opening = False
                gnubg.command("set board " + gnubg.positionid(board))
                gnubg.command("set dice %d %d" % (die1, die2))
                move = gnubg.findbestmove(gnubg.board(), cube, noisy)
                for index in range(0, len(move), 2):
                    source, target = move[index], move[index + 1]
                    if source <= 0 and target <= 0:
                        break
                    mover[source - 1] -= 1
                    if target > 0:
                        mover[target - 1] += 1
                        if opponent[24 - target] == 1:  # a hit: the blot goes to the bar
                            opponent[24 - target] = 0
                            opponent[24] += 1
                if sum(mover) == 0:
                    break
                opponent, mover = mover, opponent
    print("@@ DONE", written)


main()
