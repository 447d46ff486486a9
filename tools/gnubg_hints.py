"""Set up GNU Backgammon's hints for the scripts that run INSIDE gnubg (never imported by the app).

``tools/gnubg_positions.py`` and ``tools/gnubg_judge.py`` both ask ``gnubg.hint`` for every
legal play of a roll with its chances, cubeless, at a given depth; this is that set-up.
"""

import gnubg  # type: ignore[import-not-found]  # only inside gnubg

MAX_FILTERED_PLIES = 3
"""Move filters are set for 1..3 plies (deeper hints are too slow to use here)."""


def use_hints(plies: int, candidates: int, window: float) -> None:
    """Cubeless money play between two humans (gnubg never moves itself), one thread, hints at
    ``plies`` without pruning nets; at every depth the filter keeps up to ``candidates``
    plays within ``window`` of the best for the full depth (the rest stay at 0 ply)."""
    for command in (
        "set player 0 human", "set player 1 human", "set jacoby off", "set cube use off", "new game",
        "set threads 1", f"set evaluation chequerplay evaluation plies {plies}",
        "set evaluation chequerplay evaluation prune off",
        *(f"set evaluation movefilter {depth} 0 0 {candidates} {window}" for depth in range(1, MAX_FILTERED_PLIES + 1)),
    ):
        gnubg.command(command)
