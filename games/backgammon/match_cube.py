"""The doubling cube in a match: cubeful match winning chances and cube decisions.

In a match a game is worth what its result does to the score: winning ``k`` points moves
the winner ``k`` nearer, and the match equity table (``met``) says what the new score is
worth. So the cube is decided in match winning chances (MWC), from the same cubeless
chances (win, gammons, backgammons) the money cube reads, by R. Janowski's live-cube model
applied to match equity as GNU Backgammon does at 0 ply (``Cl2CfMatch`` in gnubg's eval.c,
the cash points of ``GetPoints`` in its matchequity.c):

* **results**: winning or losing a single game, a gammon or a backgammon at cube ``c``
  moves the score by ``c``, ``2c`` or ``3c``; each is a MET lookup at the resulting away
  scores (after the Crawford game, or in it, a 1-away score is post-Crawford);
* **dead cube** MWC: the cubeless expectation of those lookups;
* **cash points**: the chance of winning at which the opponent is indifferent between
  taking and passing a double. Found from the highest useful cube down: at the level where
  the doubled cube would be dead (it would win the match for someone), from the MET alone
  (counting the opponent's automatic redouble when only the doubler is that close); below
  it, from the opponent's cash point one level up (the taker's redouble window):
  ``CP = 1 - CP_opponent(2c) * (DP - DTW) / (RDP - DTW)``, with DP = MWC after the
  opponent passes, DTW after winning the doubled game, RDP after passing the redouble;
* **live cube** MWC: linear in the chance of winning between the points where the cube
  changes hands (losing all, the opponent cashing, cashing, winning all), as in money play
  but with MWCs in place of -L, -1, +1 and W;
* **cubeful** MWC: ``x * live + (1 - x) * dead``, ``x`` the cube efficiency (``efficiency``:
  gnubg's 0.68 in contact, 0.6 to 0.7 in races by pip count, 0.6 with every checker home).

The cube is dead (the cubeful MWC is the dead one) in the Crawford game, when the cube
already wins the match for both players, and at 2-away 2-away (whoever doubles gives the
other a cube that decides the match, so gnubg scores it cubeless).

A decision compares, from the player on roll, "no double" (the cubeful MWC with the cube as
it is), "double, take" (at twice the cube, owned by the opponent) and "double, pass" (the
MWC after winning the current cube): ``cube.CubeDecision`` in MWC. Nobody doubles a cube
that is dead for them (``can_double`` of the state: the cube already wins them the match,
or they lead post-Crawford).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.backgammon.board import HOME_POINTS, OFF, Board, is_race, pip_count
from games.backgammon.cube import CubeDecision, Ownership, cube_efficiency
from games.backgammon.met import MatchEquityTable, shipped_met
from games.backgammon.network import Probabilities

BEAROFF_EFFICIENCY = 0.6
"""gnubg's cube efficiency in bear-off positions (``rOSCubeX``/``rTSCubeX``): every checker
of both players in their home boards."""

MIN_SWING = 1e-12
"""Below this half-difference between winning and losing the cube's points, a game decides
nothing and its normalized equity is 0."""

RESULT_MULTIPLIERS = (1, 2, 3)
"""Single game, gammon, backgammon."""

Shares = tuple[float, float, float]
"""How the games one side wins split into singles, gammons and backgammons (summing to 1)."""


@dataclass(frozen=True)
class MatchContext:
    """A match score seen from one player ("me"): points each side still needs, the cube,
    whether this game is the Crawford game, and the table to read results from."""

    my_away: int
    their_away: int
    cube: int = 1
    crawford_game: bool = False
    met: MatchEquityTable | None = None

    @property
    def table(self) -> MatchEquityTable:
        return self.met if self.met is not None else shipped_met()

    @property
    def results_are_post_crawford(self) -> bool:
        """A result reaching 1-away starts a post-Crawford game when this game is the
        Crawford game or after it; from earlier scores it starts the Crawford game."""
        return self.crawford_game or self.my_away == 1 or self.their_away == 1

    def swapped(self) -> MatchContext:
        """The same score seen by the opponent."""
        return MatchContext(self.their_away, self.my_away, self.cube, self.crawford_game, self.met)

    def with_cube(self, cube: int) -> MatchContext:
        return MatchContext(self.my_away, self.their_away, cube, self.crawford_game, self.met)

    def after(self, points: int) -> float:
        """My MWC after I win ``points`` (negative: after I lose ``-points``)."""
        post = self.results_are_post_crawford
        if points >= 0:
            return self.table.equity(self.my_away - points, self.their_away, post)
        return self.table.equity(self.my_away, self.their_away + points, post)

    @property
    def cube_is_dead(self) -> bool:
        """No cube action changes anything: the Crawford game, a cube that already wins the
        match for both, or 2-away 2-away (gnubg's ``fDoCubeful``)."""
        return (
            self.crawford_game
            or (self.my_away <= self.cube and self.their_away <= self.cube)
            or (self.my_away == 2 and self.their_away == 2)
        )


def result_shares(chances: Probabilities) -> tuple[Shares, Shares]:
    """``(my wins, my losses)`` split into single / gammon / backgammon (cumulative network
    outputs: the gammons include the backgammons)."""
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = chances
    if win > 0.0:
        wins = (1.0 - win_gammon / win, (win_gammon - win_backgammon) / win, win_backgammon / win)
    else:
        wins = (1.0, 0.0, 0.0)
    if win < 1.0:
        loss = 1.0 - win
        losses = (1.0 - lose_gammon / loss, (lose_gammon - lose_backgammon) / loss, lose_backgammon / loss)
    else:
        losses = (1.0, 0.0, 0.0)
    return wins, losses


def _expected(context: MatchContext, shares: Shares, stake: int) -> float:
    """My MWC averaged over a game won (``stake`` > 0) or lost (< 0) with these shares."""
    return sum(share * context.after(stake * multiplier) for share, multiplier in zip(shares, RESULT_MULTIPLIERS))


def dead_cube_mwc(chances: Probabilities, context: MatchContext) -> float:
    """My MWC if nobody turns the cube again: the cubeless expectation at the score."""
    wins, losses = result_shares(chances)
    win = chances[0]
    return win * _expected(context, wins, context.cube) + (1.0 - win) * _expected(context, losses, -context.cube)


def cash_points(chances: Probabilities, context: MatchContext) -> tuple[float, float]:
    """``(mine, theirs)``: the chance of winning (each for themself) at which a double of
    the current cube is a pass for the other side, with a live cube (module doc)."""
    wins, losses = result_shares(chances)
    sides = ((context, wins, losses), (context.swapped(), losses, wins))
    # The highest cube worth turning: doubled once more it would leave someone needing no
    # more than it (the doubled cube dead).
    top, levels = context.cube, 0
    while context.my_away - 1 >= 2 * top and context.their_away - 1 >= 2 * top:
        top, levels = top * 2, levels + 1
    above: tuple[float, float] = (1.0, 1.0)
    for level in range(levels, -1, -1):
        value = top >> (levels - level)
        points = []
        for side, (view, own_wins, own_losses) in enumerate(sides):
            double_pass = view.after(value)
            if level == levels:  # the MET alone decides the take
                # When only the doubler would then be that close, the taker redoubles at no
                # risk (the automatic redouble): the game is played for twice as much.
                redoubled = 2 * value if view.my_away - 1 < 2 * value <= view.their_away - 1 else value
                take_win = _expected(view, own_wins, 2 * redoubled)
                take_loss = _expected(view, own_losses, -2 * redoubled)
                points.append(_ratio(take_loss - double_pass, take_loss - take_win))
            else:
                redouble_pass = view.after(-2 * value)
                take_win = _expected(view, own_wins, 2 * value)
                points.append(1.0 - above[1 - side] * _ratio(double_pass - take_win, redouble_pass - take_win))
        above = (points[0], points[1])
    return above


def _ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator != 0.0 else 1.0


def cubeful_mwc(chances: Probabilities, context: MatchContext, ownership: Ownership, efficiency: float) -> float:
    """My cubeful MWC with the cube at ``context.cube`` held as ``ownership`` says."""
    dead = dead_cube_mwc(chances, context)
    if context.cube_is_dead:
        return dead
    win = chances[0]
    wins, losses = result_shares(chances)
    cube = context.cube
    win_all, lose_all = _expected(context, wins, cube), _expected(context, losses, -cube)
    cash, opponent_cash = context.after(cube), context.after(-cube)
    mine, theirs = cash_points(chances, context)
    their_cash_at = 1.0 - theirs  # my chance at which the opponent cashes
    if ownership != "mine" and win <= their_cash_at:  # (0, lose all) to (their cash, they cash)
        live = lose_all + (opponent_cash - lose_all) * win / their_cash_at if their_cash_at > 0.0 else lose_all
    elif ownership != "theirs" and win >= mine:  # (my cash, I cash) to (1, win all)
        live = cash + (win_all - cash) * (win - mine) / (1.0 - mine) if mine < 1.0 else win_all
    elif ownership == "centred":  # the doubling window: (their cash, they cash) to (my cash, I cash)
        live = opponent_cash + (cash - opponent_cash) * (win - their_cash_at) / (mine - their_cash_at)
    elif ownership == "mine":  # (0, lose all) to (my cash, I cash)
        live = lose_all + (cash - lose_all) * win / mine if mine > 0.0 else lose_all
    else:  # (their cash, they cash) to (1, win all)
        live = opponent_cash + (win_all - opponent_cash) * (win - their_cash_at) / (1.0 - their_cash_at)
    return efficiency * live + (1.0 - efficiency) * dead


def match_cube_decision(
    chances: Probabilities, context: MatchContext, centred: bool, efficiency: float
) -> CubeDecision:
    """The decision of the player on roll (who may double: the cube centred or theirs), in
    match winning chances: no double, double/take (the opponent then owns twice the cube),
    double/pass (I win the current cube)."""
    return CubeDecision(
        no_double=cubeful_mwc(chances, context, "centred" if centred else "mine", efficiency),
        double_take=cubeful_mwc(chances, context.with_cube(2 * context.cube), "theirs", efficiency),
        double_pass=context.after(context.cube),
    )


def efficiency(board: Board, opponent: Board) -> float:
    """Cube efficiency for the player on roll with ``board`` against ``opponent``: gnubg's
    by position class (bear-off 0.6, race by pips, contact 0.68)."""
    if _all_home(board) and _all_home(opponent):
        return BEAROFF_EFFICIENCY
    return cube_efficiency(is_race(board, opponent), pip_count(board))


def _all_home(board: Board) -> bool:
    return sum(board[point] for point in range(1, HOME_POINTS + 1)) + board[OFF] == sum(board)


def swing(context: MatchContext, cube: int) -> float:
    """Half the MWC between winning and losing ``cube`` points at the score (the same for
    both players): the unit of gnubg's normalized match equity at that cube."""
    return (context.after(cube) - context.after(-cube)) / 2.0


def cube_weight(context: MatchContext) -> float:
    """What the current cube is worth against a 1-cube at the score (``swing`` of the cube
    over that of one point): a normalized equity at cube 1 divided by it is gnubg's at the
    current cube, the unit its match error rates count in. 1 where no game moves the match."""
    unit = swing(context, 1)
    return swing(context, context.cube) / unit if unit >= MIN_SWING else 1.0


def normalized(mwc: float, context: MatchContext, cube: int = 1) -> float:
    """An MWC as gnubg's normalized match equity at the score with the cube at ``cube``:
    -1 after losing the cube's points, +1 after winning them, linear in between (so the
    order of MWCs is kept and the numbers read like money points per cube; gnubg prints
    cube decisions so, at the current cube)."""
    win, loss = context.after(cube), context.after(-cube)
    centre = (win + loss) / 2.0
    if win - centre < MIN_SWING:  # the game cannot change the match any more
        return 0.0
    return (mwc - centre) / (win - centre)


def normalized_mwc(equity: float, context: MatchContext, cube: int = 1) -> float:
    """The MWC a normalized match equity stands for at the score (``normalized`` read
    backwards, the same straight line): what a displayed percentage of an equity is, so
    that every match winning chance shown comes from one conversion. Where the game can no
    longer change the match, every equity stands for the score's own MWC."""
    win, loss = context.after(cube), context.after(-cube)
    centre = (win + loss) / 2.0
    if win - centre < MIN_SWING:
        return centre
    return centre + equity * (win - centre)


__all__ = [
    "BEAROFF_EFFICIENCY",
    "MatchContext",
    "cash_points",
    "cube_weight",
    "cubeful_mwc",
    "dead_cube_mwc",
    "efficiency",
    "match_cube_decision",
    "normalized",
    "normalized_mwc",
    "result_shares",
    "swing",
]
