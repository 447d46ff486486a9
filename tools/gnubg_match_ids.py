"""Print GNU Backgammon's own Position and Match IDs for a list of match set-ups.

Runs INSIDE gnubg (never imported by the app); ``tools/backgammon_match_cube.py --ids``
starts it::

    BG_IN=setups.json BG_OUT=ids.json /usr/games/gnubg -t -q -r -p tools/gnubg_match_ids.py

``setups.json`` is a list of ``{"name": ..., "commands": [gnubg commands]}``; each set-up
starts from a fresh state with both players human and a fixed seed (``new match N`` rolls
the opening roll). ``ids.json`` gets the same list with ``position_id`` and ``match_id`` as
gnubg shows them after the commands.
"""

import json
import os

import gnubg  # type: ignore[import-not-found]  # only inside gnubg


def main() -> None:
    with open(os.environ["BG_IN"]) as source:
        setups = json.load(source)
    for command in ("set player 0 human", "set player 1 human"):
        gnubg.command(command)
    for setup in setups:
        for command in setup["commands"]:
            gnubg.command(command)
        setup["position_id"] = gnubg.positionid()
        setup["match_id"] = gnubg.matchid()
    with open(os.environ["BG_OUT"], "w") as out:
        json.dump(setups, out, indent=1)
    print("@@ DONE")


main()
