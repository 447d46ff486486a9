"""Text and numbers of the engine displays: moves named by the search's root state, scores
from a named player's view, counts people can read at a glance.

Events carry values, never text (text made in a worker could not follow the app's
numbering or words); the root state the search started from names them.
Scores come through the engine's one score display (``ai.display``), so the app says
"mate in 3" and "+0.35" exactly as the command line does.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ai import display
from ai.events import Finished, Score
from games.backgammon import match_cube
from games.backgammon.state import BackgammonState
from games.base import GameState

MoveNamer = Callable[[GameState, Any], str]
"""Names a move played from a state (the board's ``move_text``: backgammon's points in the
numbering the board shows)."""
LineNamer = Callable[[GameState, Sequence[Any]], list[str]]
"""Names a line of moves played from a state, one name a move (the board's ``line_texts``)."""

FIXED_VIEW = 0
"""Every score in the panels is seen by player 0 (White in chess, Black in checkers and
Othello, x, O), named next to it, so a sign means the same thing on every line."""

NO_VALUE = "–"
MOVE_SEPARATOR = "  "


@dataclass(frozen=True)
class MatchOdds:
    """The score of a backgammon match, as the displays read the engine's equities there.

    At a match score the engine scores positions in GNU Backgammon's normalized match
    equity (EMG: +1 = a single game won with the cube at 1, -1 one lost), a straight line
    in the match winning chance (MWC) at the score. A tournament player reads a percentage
    at a match score as the MWC, as gnubg prints it ("55.0% MWC"), so the bar, the graph
    and the engine panel turn equities into MWCs here, through the one conversion the
    engine's own scale comes from (``match_cube.normalized_mwc``)."""

    context: match_cube.MatchContext
    """The score from player 0's side."""

    def chance(self, equity: float) -> float:
        """Player 0's MWC (0..1) for player 0's normalized match equity ``equity``."""
        return min(1.0, max(0.0, match_cube.normalized_mwc(equity, self.context)))


def match_odds(state: GameState | None) -> MatchOdds | None:
    """The match score ``state`` is played at (``None``: money play, another game)."""
    if isinstance(state, BackgammonState) and state.match_length:
        return MatchOdds(state.match_context(FIXED_VIEW))
    return None


MWC_DECIMALS = 1
"""A match winning chance is shown as gnubg shows it, to a tenth of a percent; it reads as
even (nobody named ahead) where it rounds to 50.0%."""


def match_chance(score: Score, game: type[GameState], odds: MatchOdds) -> float:
    """Player 0's match winning chance for an estimate ``score`` (a proven result: 1 or 0,
    the game's result)."""
    seen = score.for_player(FIXED_VIEW)
    if seen.is_win:
        return 1.0 if seen.outcome > 0 else 0.0
    return odds.chance(display.in_units(seen, game))


def match_leader(score: Score, game: type[GameState], odds: MatchOdds) -> int | None:
    """The player more likely to win the match, as its percentage shows it: ``None`` where
    the MWC reads 50.0% (the player ahead in the game may trail in the match)."""
    chance = round(100.0 * match_chance(score, game, odds), MWC_DECIMALS)
    if chance == 50.0:
        return None
    return FIXED_VIEW if chance > 50.0 else 1 - FIXED_VIEW


def capitalised(text: str) -> str:
    """``text`` with its first letter a capital (``x has three in a row`` -> ``X has …``)."""
    return text[:1].upper() + text[1:]


def player_names(game: type[GameState]) -> tuple[str, str]:
    """The players' names as the app shows them: capitalised like every other label
    (tic-tac-toe's ``x``/``o`` become ``X``/``O``)."""
    first, second = game.PLAYER_NAMES
    return capitalised(first), capitalised(second)


def move_text(root: GameState, move: Any) -> str:
    """``move`` (played from ``root``) in the game's notation."""
    if move is None:
        return NO_VALUE
    return root.move_name(move)


def line_text(root: GameState, moves: Sequence[Any]) -> str:
    """A principal variation played from ``root``, in the game's notation."""
    return joined_line(root.line_names(moves) if moves else [])


def joined_line(names: Sequence[str]) -> str:
    """Move names as one line: two spaces between them, `` | `` when a name has spaces of
    its own (a backgammon turn)."""
    if not names:
        return NO_VALUE
    separator = " | " if any(" " in name for name in names) else MOVE_SEPARATOR
    return separator.join(names)


def score_value_text(score: Score, game: type[GameState]) -> str:
    """The score as seen by player 0, without the player's name (a column headed with
    the name): ``+0.35``, ``mate in 3``, ``mated in 2``, ``win in 5 plies``."""
    return display.value_text(score.for_player(FIXED_VIEW), game)


def winner_of(score: Score) -> int:
    """The player a proven result ``score`` says wins."""
    seen = score.for_player(FIXED_VIEW)
    return FIXED_VIEW if seen.outcome > 0 else 1 - FIXED_VIEW


def result_words(score: Score, game: type[GameState], bound: display.Bound = "exact") -> str:
    """A proven result said by its winner, as a sentence: ``White mates in 3``, ``X wins in
    5 plies``, ``Black has won`` (the game is over at the root). A bound (``bound`` from
    ``score.view``, an aspiration fail) says which way the truth may lie: ``White mates
    in ≤ 3`` (at least that fast), ``at best White mates in 3``."""
    winner = winner_of(score)
    name = player_names(game)[winner]
    plies = score.plies_to_end or 0
    _, winners_bound = display.turned(score, bound, winner)
    at_most = "≤ " if winners_bound == "lower" else ""
    if plies == 0:
        words = f"{name} has won"
    elif game.WIN_WORDING == "mate":
        words = f"{name} mates in {at_most}{(plies + 1) // 2}"
    else:
        words = f"{name} wins in {at_most}{plies} {'ply' if plies == 1 else 'plies'}"
    return f"at best {words}" if winners_bound == "upper" else words


def leader(score: Score, game: type[GameState], odds: MatchOdds | None = None) -> int | None:
    """The player ``score`` says is ahead, as its text shows it: ``None`` when it reads as
    even (``+0.00`` at the game's decimals), so a name never changes sides on a rounding.
    At a match score (``odds``) the player ahead is the one more likely to win the match."""
    seen = score.for_player(FIXED_VIEW)
    if seen.is_win:
        return winner_of(score)
    if odds is not None:
        return match_leader(score, game, odds)
    shown = round(display.in_units(seen, game), game.SCORE_DECIMALS)
    if shown == 0:
        return None
    return FIXED_VIEW if shown > 0 else 1 - FIXED_VIEW


def score_text(
    score: Score, game: type[GameState], bound: display.Bound = "exact", odds: MatchOdds | None = None
) -> str:
    """The score said by the side it favours, as the eval bar says it (the leader's initial
    over the margin): ``White +0.35``, ``O equity +0.120``; an even score is player 0's
    (``White +0.00``), as the tables' scores are. A proven result names its winner (``White
    mates in 3``, ``X wins in 5 plies``). An aspiration bound (``bound`` from ``score.view``)
    turns with the view: ``Black ≥ +0.35``. The tables keep one player's view (their header
    names it) so that their rows compare line by line.

    At a backgammon match score (``odds``) the match winning chance comes first, both
    numbers of the player more likely to win the match, as gnubg prints them: ``O 55.0%
    MWC · EMG +0.290`` (a trailer can be ahead in the game: ``X 75.0% MWC · EMG -0.120``)."""
    if score.is_win:
        return result_words(score, game, bound)
    ahead = leader(score, game, odds)
    view = FIXED_VIEW if ahead is None else ahead
    seen, seen_bound = display.turned(score, bound, view)
    value = display.value_text(seen, game)
    mark = "" if seen_bound == "exact" else ("≥ " if seen_bound == "lower" else "≤ ")
    name = player_names(game)[view]
    if odds is not None:
        chance = match_chance(score, game, odds)
        own = chance if view == FIXED_VIEW else 1.0 - chance
        return f"{name} {mark}{100.0 * own:.{MWC_DECIMALS}f}% MWC · EMG {mark}{value}"
    if game.UTILITY_KIND == "equity":
        return f"{name} equity {mark}{value}"
    return f"{name} {mark}{value}"


def view_score_text(score: Score, game: type[GameState], view: int = FIXED_VIEW) -> str:
    """The score as player ``view`` sees it, named (``White -0.08 pawns``): a sum the panel
    shows from one player's view (the evaluation's breakdown)."""
    seen = score.for_player(view)
    text = f"{player_names(game)[view]} {display.value_text(seen, game)}"
    return text if seen.is_win else f"{text} {game.SCORE_UNIT}"


def bound_mark(bound: display.Bound, score: Score) -> str:
    """``≥``/``≤`` for an aspiration fail, from player 0's view (turned round with the score)."""
    _, seen_bound = display.turned(score, bound, FIXED_VIEW)
    if seen_bound == "exact":
        return ""
    return "≥ " if seen_bound == "lower" else "≤ "


def widest_score_value(game: type[GameState]) -> str:
    """The widest text a score column of ``game`` holds (``score_value_text`` with a bound
    mark): it sets the column's width once, so rows never cut a score."""
    loss = Score(-1.0, FIXED_VIEW, -99)
    estimate = "9" * 3 + "." + "9" * game.SCORE_DECIMALS if game.SCORE_DECIMALS else "9" * 4
    return max(f"≤ {display.value_text(loss, game)}", f"≥ -{estimate}", key=len)


BAR_DIGITS = 3
"""Significant digits of an estimate on the eval bar (``0.35``, ``12.3``, ``148``): the
number stays within the bar's width at a readable size; the headline has the rest."""


def bar_label(score: Score, game: type[GameState]) -> str:
    """The short score on the eval bar, under the leader's initial, Lichess-style: the
    margin without its sign (the initial says whose it is: ``1.25``, ``12.3``), rounded to
    ``BAR_DIGITS`` significant digits, chess's mate as ``#3`` / ``#-3`` (from player 0's,
    i.e. White's, view, as Lichess writes it), another game's proven win as ``wins`` /
    ``in 5`` (two lines: plies), ``won`` when the game is over."""
    seen = score.for_player(FIXED_VIEW)
    if seen.is_win:
        if not seen.plies_to_end:
            return "won"  # the game is over: the initial above says who won
        if game.WIN_WORDING == "mate":
            return f"#{seen.mate_in_moves()}"
        return f"wins\nin {seen.plies_to_end}"
    text = score_value_text(score, game).lstrip("+-")
    whole = len(text.split(".")[0])
    if "." in text and whole >= BAR_DIGITS:
        return text.split(".")[0]
    if "." in text and len(text) - 1 > BAR_DIGITS:
        return f"{float(text):.{BAR_DIGITS - whole}f}"
    return text


SPREAD_PAWNS = 5.4
"""Lichess's winning-chance curve: 50 % + 50 % * tanh(pawns / 5.4) (its 0.00368 per cp)."""
SPREAD_DISCS = 16.0
"""Othello: a 16-disc margin is most of the way to a sure win."""


def player0_share(
    score: Score | None, game: type[GameState], stake: float = 1.0, odds: MatchOdds | None = None
) -> float:
    """How much of the eval bar is player 0's (0..1): a proven win is all of it; at a
    backgammon match score (``odds``) player 0's match winning chance; an equity game
    reads equity per ``stake`` (the position's ``GameState.stake``: a doubled cube doubles
    the equity, not the chances) as a win chance ((1 + E) / 2, gammons ignored); otherwise
    a winning-chance curve over the score in the game's units."""
    if score is None:
        return 0.5
    seen = score.for_player(FIXED_VIEW)
    if seen.is_win:  # ``outcome`` keeps the winner of a game already over at the root
        return 1.0 if seen.outcome > 0 else 0.0
    if odds is not None:
        return match_chance(score, game, odds)
    units = display.in_units(seen, game)
    if game.UTILITY_KIND == "equity":
        return min(1.0, max(0.0, (1.0 + units / stake) / 2.0))
    if game.UTILITY_KIND == "margin":
        return 0.5 + 0.5 * math.tanh(units / SPREAD_DISCS)
    return 0.5 + 0.5 * math.tanh(units / SPREAD_PAWNS)


def is_game_evaluation(finished: Finished, choices: int) -> bool:
    """Whether a computer's move search answered with an evaluation of the game's position,
    the one thing the eval bar and graph show: a search of at least one full depth among
    ``choices`` >= 2 legal moves. Not a book move (nothing searched: a static evaluation),
    not a known answer or the only legal move (a trivial or static score of a reply with no
    choice), not a failed search. A hint is never the game's evaluation either: it is
    advice, searched with the hint's own small limits, and its caller does not ask."""
    if finished.error is not None or finished.book or finished.forced or finished.only_move:
        return False
    return choices >= 2 and finished.depth >= 1


def count_text(count: float) -> str:
    """``12,345,678`` (exact: a student compares node counts)."""
    return f"{int(count):,}"


def rate_text(per_second: float) -> str:
    """``1.23 M/s``, ``845 k/s``, ``912 /s``."""
    if per_second >= 1e6:
        return f"{per_second / 1e6:.2f} M/s"
    if per_second >= 1e3:
        return f"{per_second / 1e3:.0f} k/s"
    return f"{per_second:.0f} /s"


def seconds_text(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds < 100 else f"{seconds:.0f} s"


def percent_text(fraction: float, compact: bool = False) -> str:
    return f"{100.0 * fraction:.1f}{'' if compact else ' '}%"


def ebf_text(ebf: float) -> str:
    """The effective branching factor b* (at depth 1 it is the depth's own node count)."""
    if not ebf:
        return NO_VALUE
    return f"{ebf:.2f}" if ebf < 100 else f"{ebf:.0f}"


def comparison_text(chosen: Score, best: Score, game: type[GameState], mover: int) -> str:
    """What choosing a move scored ``chosen`` instead of one scored ``best`` costs the
    player ``mover`` who chooses, in the game's words, as a verb phrase: ``loses 1.20
    pawns``, ``allows mate in 3``, ``misses mate in 2``, ``is as good``; ``scores 0.10 pawns
    more`` when a search of the move alone rates it higher (a selective search's tree
    differs with its root)."""
    own, other = chosen.for_player(mover), best.for_player(mover)
    if own.is_win or other.is_win:
        if own.is_win and other.is_win and own.outcome == other.outcome and own.plies_to_end == other.plies_to_end:
            return "is as good"
        if own.is_win and own.outcome < 0:
            return f"walks into {'mate' if game.WIN_WORDING == 'mate' else 'a lost game'} ({display.result_text(own, game)})"
        if other.is_win and other.outcome > 0:
            return f"misses {display.result_text(other, game)}"
        if own.is_win and own.outcome > 0:
            return f"wins too ({display.result_text(own, game)})"
        return f"scores {display.value_text(own, game)} against a loss ({display.result_text(other, game)})"
    difference = round((other.value - own.value) / game.SCORE_UNIT_SIZE, game.SCORE_DECIMALS)
    if difference == 0:
        return "is as good"
    amount = f"{abs(difference):.{game.SCORE_DECIMALS}f} {game.SCORE_UNIT}"
    return f"loses {amount}" if difference > 0 else f"scores {amount} more"
