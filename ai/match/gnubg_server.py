"""Run INSIDE GNU Backgammon (``gnubg -t -q -p gnubg_server.py``), never imported by the app.

gnubg's embedded Python module answers one request a line on stdin::

    PLIES POSITION_ID DIE DIE      ->  "@@ 8/5 6/5"      (the best play, gnubg notation)
                                       "@@ ERROR text"
    CUBE PLIES GNUBG_ID            ->  "@@ Double, take"  (gnubg's cubeful money decision)

for the player on roll in the position (gnubg's Position ID is written from that player's
side), cubeless, with an evaluation context of PLIES (0 = the neural net alone). Lines not
starting with ``@@`` are gnubg's own chatter and are ignored by the driver. A cube request
gives the position ``PositionID:MatchID`` at the cube decision of the player on roll (money
play, Jacoby off) and gets gnubg's verdict for both sides ("No double, take", "Double,
pass", "Too good to redouble, pass", ...).
"""

import sys

import gnubg  # type: ignore[import-not-found]  # only inside gnubg

PREFIX = "@@ "


def answer(text: str) -> None:
    sys.stdout.write(PREFIX + text + "\n")
    sys.stdout.flush()


def cube_verdict(plies: int, gnubg_id: str) -> str:
    gnubg.command(f"set gnubgid {gnubg_id}")
    gnubg.command("set jacoby off")
    return gnubg.cfevaluate(gnubg.board(), gnubg.cubeinfo(), gnubg.evalcontext(1, plies, 0, 1, 0.0))[5]


def main() -> None:
    for command in ("set player 0 human", "set player 1 human", "set jacoby off", "set cube use off", "new game"):
        gnubg.command(command)
    answer("READY")
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            return
        if words[0] == "CUBE":
            try:
                answer(cube_verdict(int(words[1]), words[2]))
            except Exception as error:  # noqa: BLE001 - reported to the driver
                answer(f"ERROR {error}")
            continue
        try:
            plies, position, die1, die2 = int(words[0]), words[1], int(words[2]), int(words[3])
            gnubg.command(f"set board {position}")
            gnubg.command(f"set dice {die1} {die2}")
            context = gnubg.evalcontext(0, plies, 1, 1, 0.0)
            board = gnubg.board()
            move = gnubg.findbestmove(board, gnubg.cubeinfo(), context)
            answer(gnubg.movetupletostring(move, board) if any(move) else "NOMOVE")
        except Exception as error:  # noqa: BLE001 - reported to the driver, which forfeits the game
            answer(f"ERROR {error}")


main()
