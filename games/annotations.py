"""A game review as values: move marks, what each move lost, and each side's figures.

A review looks at every decision of a finished game and asks two numbers of the engine: the
value of the best move and the value of the move played, both from the mover's point of
view and at the same depth. Their difference, measured in the game's own unit, is what the
move *lost*; a mark (best, good, inaccuracy, mistake, blunder) says how much, and the marks
are those of the tools players know:

* chess as Lichess analyses it: the drop in the mover's winning chances, marks at 0.1 / 0.2
  / 0.3 on the [-1, 1] scale, and Lichess's accuracy percentage (``WinChanceScale``);
* Othello in discs of the final margin, as NBoard and Edax count an error (``EvaluationScale``);
* checkers in the EVAL's unit, men (``EvaluationScale``);
* backgammon in equity per unit of cube, with GNU Backgammon's thresholds, its error rate
  per side (mEMG) and its rating words (``EquityScale``);
* tic-tac-toe in game-theoretic value: a move that turns a win into a draw or a draw into a
  loss is a blunder (``GameValueScale``).

Each game declares its scale by naming ``Reviewed`` among its state class's bases and
setting ``REVIEW_SCALE`` (as ``games.capabilities`` declares the search's abilities); front
ends ask ``review_scale(game)`` and never a game's name.

Nothing here searches: ``ai.review`` runs the searches and builds these values. A review
travels with its game (``games.records``: PGN/PDN comments and NAGs, a JSON field) through
``GameReview.to_json``/``from_json``, which checks every field of a hostile file.
"""

from __future__ import annotations

import enum
import math
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Final, Protocol, cast

Player = int
"""0 or 1 (``games.base.Player``; this module imports nothing from the rules)."""


class ReviewError(ValueError):
    """A review that cannot be read (a hostile or damaged file's "review"), or a game that
    has no review scale; the message says what is wrong."""


class Mark(enum.Enum):
    """What a move was worth, as review tools print it.

    ``nag`` is the PGN Numeric Annotation Glyph (PGN standard 10, "Numeric Annotation Glyphs":
    $1 good move "!", $2 poor move "?", $4 very poor move "??", $6 questionable move "?!");
    Lichess writes $6/$2/$4 for its inaccuracies, mistakes and blunders and nothing for the
    other moves, and so do we.
    """

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"
    BOOK = "book"
    """Played from the opening book (the record says so): not judged."""
    ONLY_MOVE = "only move"
    """The only legal move: nothing to judge."""

    @property
    def word(self) -> str:
        """The mark as a word: ``Blunder``, ``Only move``."""
        return self.value.capitalize()

    @property
    def symbol(self) -> str:
        """The annotation symbol after the move (``??``), "" for a mark that has none."""
        return _SYMBOLS.get(self, "")

    @property
    def nag(self) -> int | None:
        """The PGN NAG written for this mark, ``None`` where nothing is written."""
        return _NAGS.get(self)

    @property
    def is_error(self) -> bool:
        """An inaccuracy, a mistake or a blunder."""
        return self in ERRORS

    @property
    def is_judged(self) -> bool:
        """Whether the move was judged at all (book and only moves were not)."""
        return self not in (Mark.BOOK, Mark.ONLY_MOVE)

    @classmethod
    def from_nag(cls, nag: int) -> Mark | None:
        """The error mark a NAG stands for ($6, $2, $4), else ``None``."""
        for mark, number in _NAGS.items():
            if number == nag:
                return mark
        return None


_NAGS: Final[dict[Mark, int]] = {Mark.INACCURACY: 6, Mark.MISTAKE: 2, Mark.BLUNDER: 4}
_SYMBOLS: Final[dict[Mark, str]] = {Mark.INACCURACY: "?!", Mark.MISTAKE: "?", Mark.BLUNDER: "??"}
ERRORS: Final[tuple[Mark, ...]] = (Mark.INACCURACY, Mark.MISTAKE, Mark.BLUNDER)
"""The error marks, mildest first."""


@dataclass(frozen=True)
class Value:
    """A search value from the mover's point of view: ``score`` in evaluation units (the
    engine's ``Score.value``: centipawns, hundredths of a disc, equity points ...) and, for a
    proven result, ``win_in_plies`` (positive: the mover wins in that many plies; negative:
    loses), as ``ai.events.Score`` carries them."""

    score: float
    win_in_plies: int | None = None

    @property
    def outcome(self) -> int:
        """+1 a proven win for the mover, -1 a proven loss, 0 nothing proven."""
        if self.win_in_plies is None:
            return 0
        sign = self.win_in_plies or self.score
        return 1 if sign > 0 else -1

    def mate_in_moves(self) -> int | None:
        """Chess's "mate in N" (the winner's moves), signed like ``win_in_plies``."""
        if self.win_in_plies is None:
            return None
        moves = (abs(self.win_in_plies) + 1) // 2
        return moves if self.outcome > 0 else -moves

    def negated(self) -> Value:
        """The same value seen by the other player."""
        return Value(-self.score, None if self.win_in_plies is None else -self.win_in_plies)


@dataclass(frozen=True)
class Thresholds:
    """The smallest loss (in the scale's unit) of an inaccuracy, a mistake and a blunder."""

    inaccuracy: float
    mistake: float
    blunder: float

    def mark(self, loss: float) -> Mark | None:
        """The error mark of ``loss``, ``None`` below an inaccuracy."""
        if loss >= self.blunder:
            return Mark.BLUNDER
        if loss >= self.mistake:
            return Mark.MISTAKE
        if loss >= self.inaccuracy:
            return Mark.INACCURACY
        return None


@dataclass(frozen=True)
class MoveReview:
    """One reviewed decision: the move played, what it lost and what was better.

    Values are from the mover's point of view; ``expected_before``/``expected_after`` are
    the scale's reading of the best and the played value (chess: winning chances in
    [-1, 1]; Othello: discs; backgammon: equity per unit of cube ...), and ``loss`` is their
    difference, never negative."""

    ply: int
    """Index of the move in the game record's moves (chance plies are never reviewed)."""
    mover: Player
    move: str
    """The move played, by name."""
    mark: Mark
    loss: float
    """What the move lost, in the scale's unit (``ReviewScale.unit``); 0 for book and only moves."""
    played: Value
    best: Value
    best_move: str
    """The engine's best move by name (the move played itself when it was best)."""
    best_line: tuple[str, ...] = ()
    """The line the best move begins, by name (``best_move`` first)."""
    expected_before: float = 0.0
    expected_after: float = 0.0
    stake: float = 1.0
    """What one game was played for at this move (backgammon's cube value; 1 elsewhere):
    equities are judged per unit of it, as GNU Backgammon normalises its errors."""
    cube: bool = False
    """A cube decision (backgammon's double / take / pass), which GNU Backgammon counts
    apart from checker play."""
    counted: bool = True
    """Whether the decision counts in its side's figures. Every judged move does, except a
    "no double" that was neither close nor got wrong: GNU Backgammon counts every double,
    take and pass, but a roll without doubling only when close (``GNUBG_CLOSE_CUBE``), so
    that the many turns where nobody would double do not dilute a player's error rate."""

    @property
    def is_best(self) -> bool:
        return self.mark is Mark.BEST

    def expected_for(self, player: Player, after: bool = True) -> float:
        """``expected_after`` (or ``expected_before``) seen by ``player`` (the eval graph
        draws one player's view)."""
        value = self.expected_after if after else self.expected_before
        return value if player == self.mover else -value


@dataclass(frozen=True)
class ReviewSettings:
    """How hard the engine looked: the algorithm and the limits of each search (what the
    review says it was made with; ``None`` = no such limit)."""

    algorithm: str
    depth: int | None = None
    nodes: int | None = None
    seconds: float | None = None

    def describe(self) -> str:
        """``pvs, depth 12, 1.5 s per move``."""
        parts = [self.algorithm]
        if self.depth is not None:
            parts.append(f"depth {self.depth}")
        if self.nodes is not None:
            parts.append(f"{self.nodes:,} nodes")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        return ", ".join(parts) + " per move"

    @classmethod
    def parse(cls, text: str) -> ReviewSettings:
        """The inverse of ``describe`` (``ReviewError`` for another text)."""
        match = _SETTINGS_TEXT.fullmatch(text.strip())
        if match is None:
            raise ReviewError(f"not a review's settings: {text[:80]!r}")
        algorithm, depth, nodes, seconds = match.groups()
        return cls(
            algorithm,
            None if depth is None else int(depth),
            None if nodes is None else int(nodes.replace(",", "")),
            None if seconds is None else float(seconds),
        )


_SETTINGS_TEXT: Final = re.compile(
    r"([\w.-]{1,64})(?:, depth (\d{1,6}))?(?:, ([\d,]{1,20}) nodes)?(?:, (\d{1,7}(?:\.\d{1,6})?) s)? per move"
)


@dataclass(frozen=True)
class SideSummary:
    """One player's figures over the moves the review judged (book and only moves apart)."""

    player: Player
    judged: int
    """Decisions judged."""
    inaccuracies: int
    mistakes: int
    blunders: int
    average_loss: float
    """Mean loss per judged decision, in the scale's unit."""
    accuracy: float | None = None
    """A percentage where the game has one: Lichess's accuracy in chess, the share of moves
    keeping the game's value in tic-tac-toe; ``None`` elsewhere."""
    error_rate: float | None = None
    """Backgammon: GNU Backgammon's error rate, mEMG (thousandths of equity lost per
    unforced decision, checker play and cube together)."""
    checker_error_rate: float | None = None
    cube_error_rate: float | None = None
    rating: str | None = None
    """GNU Backgammon's word for ``error_rate`` ("World class" ...)."""
    centipawn_loss: float | None = None
    """Chess: Lichess's average centipawn loss (``lichess_centipawn_loss``)."""
    headline: str = ""
    """The figure a player reads first, in words: ``Accuracy 87%``, ``Average loss 1.2
    discs``, ``Error rate 4.1 (Expert)``."""

    @property
    def errors(self) -> int:
        return self.inaccuracies + self.mistakes + self.blunders


class ReviewScale(ABC):
    """How one game measures a move's loss and names it: the unit, the thresholds of the
    marks, and the per-side figures. ``expected`` turns a search value into the unit."""

    unit: str
    """The unit of ``MoveReview.loss`` as a player reads it."""
    decimals: int = 2
    """Decimals of one move's loss (tic-tac-toe's is a whole game value)."""
    thresholds: Thresholds
    words: Mapping[Mark, str] = {}
    """The game's own words for the error marks where its tools have their own (GNU
    Backgammon's "doubtful", "bad", "very bad"); the others are ``Mark.word``."""

    @abstractmethod
    def expected(self, value: Value, stake: float = 1.0) -> float:
        """``value`` (the mover's) read in the scale's unit."""

    def loss(self, best: Value, played: Value, stake: float = 1.0) -> float:
        """What playing ``played`` instead of ``best`` lost, never negative (a searched move
        cannot beat the best one; a deeper search of it sometimes scores a hair above)."""
        return max(0.0, self.expected(best, stake) - self.expected(played, stake))

    def mark(self, best: Value, played: Value, stake: float = 1.0, *, is_best_move: bool = False) -> Mark:
        """The mark of a move worth ``played`` where ``best`` was possible."""
        if is_best_move:
            return Mark.BEST
        loss = self.loss(best, played, stake)
        error = self.thresholds.mark(loss)
        if error is not None:
            return error
        # Equal in the scale's unit and no worse in the engine's: a best move (a slower mate,
        # though as sure a win, is only good).
        return Mark.BEST if loss == 0 and played.score >= best.score else Mark.GOOD

    @property
    def average_decimals(self) -> int:
        """Decimals of a side's average loss: at least two, since a mean of whole units needs
        hundredths (one blunder of a whole game value in three tic-tac-toe moves is 0.33, which
        no decimal would show as 0)."""
        return max(self.decimals, 2)

    def loss_words(self, loss: float) -> str:
        """What a move lost, said beside the values before and after it: ``4.0 discs lost``."""
        return f"{loss:.{self.decimals}f} {self.unit} lost"

    def word(self, mark: Mark) -> str:
        """The mark in this game's words."""
        return self.words.get(mark, mark.word)

    def verdict(self, move: MoveReview) -> str:
        """What a reviewer says of ``move``'s error: the mark's word (``word``)."""
        return self.word(move.mark)

    def summaries(self, moves: Sequence[MoveReview]) -> tuple[SideSummary, SideSummary]:
        """Both players' figures over ``moves`` (a whole review, in ply order)."""
        return (self.summary(moves, 0), self.summary(moves, 1))

    def summary(self, moves: Sequence[MoveReview], player: Player) -> SideSummary:
        judged = [move for move in moves if move.mover == player and move.mark.is_judged and move.counted]
        average = sum(move.loss for move in judged) / len(judged) if judged else 0.0
        counts = {mark: sum(1 for move in judged if move.mark is mark) for mark in ERRORS}
        return SideSummary(
            player=player,
            judged=len(judged),
            inaccuracies=counts[Mark.INACCURACY],
            mistakes=counts[Mark.MISTAKE],
            blunders=counts[Mark.BLUNDER],
            average_loss=average,
            headline=f"Average loss {average:.{self.average_decimals}f} {self.unit}" if judged else "",
        )


# --------------------------------------------------------------------------- chess: Lichess
LICHESS_CP_CEILING: Final = 1000.0
"""Lichess clamps evaluations to ±1000 centipawns, and reads a forced mate as the ceiling of
its sign (lila ``WinPercent.fromMate``: ``Cp(CEILING * mate.signum)``)."""
LICHESS_MULTIPLIER: Final = 0.00368208
"""Winning chances ``2 / (1 + exp(-0.00368208 * cp)) - 1`` (lila ``WinPercent.winningChances``,
fitted to real games in lila pull request 11148; https://lichess.org/page/accuracy)."""
LICHESS_INITIAL_CP: Final = 15.0
"""Lichess's evaluation of the start position before the first move (lila ``Eval.Cp.initial``)."""


def winning_chances(cp: float) -> float:
    """Lichess's winning chances in [-1, 1] of an evaluation of ``cp`` centipawns (clamped
    to ±1000 first, as lila's ``WinPercent.fromCentiPawns`` does)."""
    cp = max(-LICHESS_CP_CEILING, min(LICHESS_CP_CEILING, cp))
    return max(-1.0, min(1.0, 2 / (1 + math.exp(-LICHESS_MULTIPLIER * cp)) - 1))


def win_percent(cp: float) -> float:
    """Lichess's Win% in [0, 100]: ``50 + 50 * winning_chances(cp)``."""
    return 50 + 50 * winning_chances(cp)


def lichess_cp(value: Value) -> float:
    """The centipawns Lichess reads ``value`` as: the score clamped to ±1000, a mate the
    ceiling of its sign."""
    if value.win_in_plies is not None:
        return math.copysign(LICHESS_CP_CEILING, value.outcome or 1)
    return max(-LICHESS_CP_CEILING, min(LICHESS_CP_CEILING, value.score))


def move_accuracy(win_before: float, win_after: float) -> float:
    """Lichess's accuracy of one move from the mover's Win% before and after it (lila
    ``AccuracyPercent.fromWinPercents``, https://lichess.org/page/accuracy):
    ``103.1668 * exp(-0.04354 * (before - after)) - 3.1669``, plus lila's one-point
    "uncertainty bonus", clamped to [0, 100]; 100 when the move lost nothing."""
    if win_after >= win_before:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * (win_before - win_after)) - 3.166924740191411
    return max(0.0, min(100.0, raw + 1))


def _population_deviation(values: Sequence[float]) -> float:
    mean = sum(values) / len(values)
    return math.sqrt(sum((value - mean) ** 2 for value in values) / len(values))


def lichess_game_accuracy(
    white_cps: Sequence[float], white_starts: bool = True, initial_cp: float = LICHESS_INITIAL_CP
) -> tuple[float | None, float | None]:
    """(White's, Black's) game accuracy from the evaluations after each move (centipawns,
    White's view, mates as ±1000), as lila's ``AccuracyPercent.gameAccuracy`` computes it:

    1. Win% of every position, the start (``initial_cp``) included;
    2. a window of ``clamp(moves / 10, 2, 8)`` positions slides over them (the first
       windows repeat the opening one); each window's volatility is its population
       standard deviation clamped to [0.5, 12];
    3. each move's accuracy (``move_accuracy``, from its mover's Win% before and after)
       weighs as its window's volatility;
    4. a side's accuracy is the mean of the volatility-weighted mean and the harmonic mean
       of its moves' accuracies (lila ``Maths.harmonicMean``, which reads an accuracy below
       1% as 1% so that a 0% move cannot divide by zero).

    ``None`` for a side without moves."""
    by_side = _weighted_move_accuracies(white_cps, white_starts, initial_cp)
    return (_side_accuracy(by_side[0]), _side_accuracy(by_side[1]))


SideAccuracies = tuple[list[tuple[float, float]], list[tuple[float, float]]]
"""(White's, Black's) moves as (accuracy, volatility weight)."""


def _weighted_move_accuracies(white_cps: Sequence[float], white_starts: bool, initial_cp: float) -> SideAccuracies:
    """Steps 1-3 of ``lichess_game_accuracy``: each move's accuracy and weight, by side."""
    wins = [win_percent(cp) for cp in [initial_cp, *white_cps]]
    size = max(2, min(8, len(white_cps) // 10))
    windows = [wins[:size]] * (min(size, len(wins)) - 2) + [wins[i : i + size] for i in range(len(wins) - size + 1)]
    weights = [max(0.5, min(12.0, _population_deviation(window))) for window in windows]
    by_side: SideAccuracies = ([], [])
    for index in range(min(len(wins) - 1, len(weights))):
        white = (index % 2 == 0) == white_starts
        before, after = wins[index], wins[index + 1]
        accuracy = move_accuracy(before, after) if white else move_accuracy(100 - before, 100 - after)
        by_side[0 if white else 1].append((accuracy, weights[index]))
    return by_side


def lichess_centipawn_loss(moves: Sequence[MoveReview]) -> float | None:
    """Lichess's average centipawn loss of ``moves`` (one player's): the mean over them of
    what each lost in centipawns, each value read as Lichess reads it (``lichess_cp``:
    clamped to ±1000, a mate as the ceiling), a gain counting 0 (lila ``AccuracyCP``);
    ``None`` without moves. Lichess rounds it to a whole number."""
    if not moves:
        return None
    return sum(max(0.0, lichess_cp(move.best) - lichess_cp(move.played)) for move in moves) / len(moves)


def _side_accuracy(moves: Sequence[tuple[float, float]]) -> float | None:
    if not moves:
        return None
    weighted = sum(accuracy * weight for accuracy, weight in moves) / sum(weight for _, weight in moves)
    harmonic = len(moves) / sum(1 / max(1.0, accuracy) for accuracy, _ in moves)
    return (weighted + harmonic) / 2


class WinChanceScale(ReviewScale):
    """Chess as Lichess judges it (lila ``Advice``): a move's loss is the drop of the mover's
    winning chances (``winning_chances``, [-1, 1]); 0.1 is an inaccuracy, 0.2 a mistake,
    0.3 a blunder. Where a forced mate appears or disappears Lichess judges by its mate rules
    (lila ``MateAdvice``): walking into a forced mate is a blunder unless the position was
    already lost by more than 7 pawns (a mistake) or 10 (an inaccuracy); letting a forced
    mate go is judged the same way by what is left."""

    unit = "win chance"
    thresholds = Thresholds(0.1, 0.2, 0.3)

    def loss_words(self, loss: float) -> str:
        """Nothing: Lichess says a chess move's loss by the evaluations before and after it,
        ``(0.25 → -4.30) Blunder. Nxd5 was best.`` (its PGN comments), never as a number of
        its own, and "0.58 win chance" (chances in [-1, 1]) would read as a share of them."""
        return ""

    def expected(self, value: Value, stake: float = 1.0) -> float:
        return winning_chances(lichess_cp(value))

    def mark(self, best: Value, played: Value, stake: float = 1.0, *, is_best_move: bool = False) -> Mark:
        if is_best_move:
            return Mark.BEST
        mate = self._mate_mark(best, played)
        if mate is not None:
            return mate
        return super().mark(best, played, stake)

    def verdict(self, move: MoveReview) -> str:
        """Lichess's words: a mate walked into or let go is said as such (lila
        ``MateSequence``: "Checkmate is now unavoidable", "Lost forced checkmate sequence"),
        any other error by its mark."""
        best, played = move.best, move.played
        if best.outcome >= 0 and played.outcome < 0:
            return "Checkmate is now unavoidable"
        if best.outcome > 0 and played.outcome <= 0:
            return "Lost forced checkmate sequence"
        return self.word(move.mark)

    @staticmethod
    def _mate_mark(best: Value, played: Value) -> Mark | None:
        """lila ``MateAdvice``: a mate created against the mover or a mate of the mover's lost;
        ``None`` when no such thing happened (a mate only delayed is no error there)."""
        created = best.outcome >= 0 and played.outcome < 0
        lost = best.outcome > 0 and played.outcome <= 0
        if created:
            cp = 0.0 if best.outcome else best.score  # lila reads a mate's cp as 0 here
            return Mark.INACCURACY if cp < -999 else Mark.MISTAKE if cp < -700 else Mark.BLUNDER
        if lost:
            cp = 0.0 if played.outcome else played.score
            return Mark.INACCURACY if cp > 999 else Mark.MISTAKE if cp > 700 else Mark.BLUNDER
        return None

    def summaries(self, moves: Sequence[MoveReview]) -> tuple[SideSummary, SideSummary]:
        """Lichess's game accuracy from the played moves' values (every reviewed ply, so the
        volatility windows see the whole game), the start read as the first move's best
        value (Lichess's fixed +0.15 holds only for the standard start). Plies missing from
        a partial review (a failed search) split the game into runs of consecutive plies,
        each read from its own first position, so that every move stays its mover's."""
        ordered = sorted(moves, key=lambda move: move.ply)
        if not ordered:
            return super().summaries(moves)
        runs: list[list[MoveReview]] = []
        for move in ordered:
            if runs and runs[-1][-1].ply + 1 == move.ply:
                runs[-1].append(move)
            else:
                runs.append([move])
        by_side: SideAccuracies = ([], [])
        for run in runs:
            first = run[0]
            initial = lichess_cp(first.best if first.mover == 0 else first.best.negated())
            cps = [lichess_cp(move.played if move.mover == 0 else move.played.negated()) for move in run]
            for side, accuracies in zip(by_side, _weighted_move_accuracies(cps, first.mover == 0, initial)):
                side.extend(accuracies)
        white, black = _side_accuracy(by_side[0]), _side_accuracy(by_side[1])
        sides = []
        for player, accuracy in ((0, white), (1, black)):
            base = super().summary(moves, player)
            headline = f"Accuracy {accuracy:.0f}%" if accuracy is not None else base.headline
            loss = lichess_centipawn_loss([move for move in ordered if move.mover == player])
            sides.append(_replace_summary(base, accuracy=accuracy, headline=headline, centipawn_loss=loss))
        return (sides[0], sides[1])

    def summary(self, moves: Sequence[MoveReview], player: Player) -> SideSummary:
        return self.summaries(moves)[player]


def _replace_summary(summary: SideSummary, **changes: Any) -> SideSummary:
    return replace(summary, **changes)


# --------------------------------------------------------------------------- Othello, checkers
class EvaluationScale(ReviewScale):
    """A loss in the evaluation's own unit (Othello: discs of the final margin; checkers:
    men), with the thresholds of that unit. A proven result reads as ``cap`` units: losing
    a won game costs as much as the largest lead the scale tells apart."""

    def __init__(self, unit: str, units_per_eval: float, thresholds: Thresholds, cap: float, decimals: int = 1) -> None:
        self.unit = unit
        self.decimals = decimals
        self.units_per_eval = units_per_eval
        self.thresholds = thresholds
        self.cap = cap

    def expected(self, value: Value, stake: float = 1.0) -> float:
        if value.win_in_plies is not None:
            return math.copysign(self.cap, value.outcome or 1)
        return max(-self.cap, min(self.cap, value.score / self.units_per_eval))

    def __repr__(self) -> str:
        return f"EvaluationScale({self.unit!r}, {self.thresholds})"


OTHELLO_SCALE: Final = EvaluationScale("discs", 100.0, Thresholds(2.0, 4.0, 8.0), cap=64.0, decimals=1)
"""Othello in discs of the final margin, as NBoard and Edax show a move's loss. Every
final margin on a full board is even (a disc changes hands whole), so 2 discs is the
smallest loss that can change a finished score: an inaccuracy. 4 discs (two swapped discs)
is a mistake, 8 a blunder: about what a corner conceded early costs in the evaluation (a
corner and its stable edge), the error every Othello player learns first."""

CHECKERS_SCALE: Final = EvaluationScale("men", 100.0, Thresholds(0.25, 0.5, 1.0), cap=5.0, decimals=2)
"""Checkers in men, the EVAL's unit (``games.checkers.evaluation``: a man is 100). A
blunder gives away at least a man (a missed capture, a shot walked into); half a man is a
mistake (a king's worth over a man is about 0.4 of one); a quarter of a man, about what a
back-rank guard or the opposition is worth in the EVAL, an inaccuracy. Leads are counted up
to 5 men, where the game is decided, and a proven win or loss (the endgame databases) reads
as that cap."""


# --------------------------------------------------------------------------- backgammon: gnubg
GNUBG_RATINGS: Final[tuple[tuple[float, str], ...]] = (
    (0.002, "Supernatural"),
    (0.005, "World class"),
    (0.008, "Expert"),
    (0.012, "Advanced"),
    (0.018, "Intermediate"),
    (0.026, "Casual player"),
    (0.035, "Beginner"),
)
"""GNU Backgammon's rating of an error rate (equity lost per unforced decision, per unit of
cube): below each number its word, above the last "Awful!" (gnubg ``analysis.c``,
``arThrsRating`` and ``aszRating``)."""
GNUBG_WORST_RATING: Final = "Awful!"
GNUBG_CLOSE_CUBE: Final = 0.16
"""A roll without doubling counts in GNU Backgammon's error rate when the cube decision was
close: the best choice and doubling lie within 0.16 of each other per unit of cube (gnubg
``eval.c``, ``isCloseCubedecision``: ``Optimal - min(DoubleTake, 1) < 0.16``); a double, a
take and a pass always count (``analysis.c``, ``updateStatcontext``). A wrong "no double"
that was not close counts here too (gnubg adds its error but not the decision), so that an
error rate stays the mean loss of the decisions counted."""


def gnubg_rating(error_per_decision: float) -> str:
    """GNU Backgammon's word for an error rate (``GNUBG_RATINGS``)."""
    for limit, word in GNUBG_RATINGS:
        if error_per_decision < limit:
            return word
    return GNUBG_WORST_RATING


class EquityScale(ReviewScale):
    """Backgammon as GNU Backgammon analyses it: the loss is cubeful equity per unit of cube
    (the engine's money equity divided by the cube value, gnubg's "normalised" EMG); a loss of
    0.03 is doubtful, 0.06 bad, 0.12 very bad. Those are the defaults of the GNU Backgammon
    installed here (``show analysis`` in gnubg 1.07.001: "-0.030 doubtful, -0.060 bad,
    -0.120 very bad"); older manuals print 0.04 / 0.08 / 0.16.

    A side's error rate is its total loss over its unforced decisions, in thousandths
    (mEMG), checker play and cube decisions also apart, and GNU Backgammon's rating word
    goes with it; a "no double" counts only when close or wrong (``MoveReview.counted``)."""

    unit = "equity"
    decimals = 3
    thresholds = Thresholds(0.03, 0.06, 0.12)
    words = {Mark.INACCURACY: "Doubtful", Mark.MISTAKE: "Bad", Mark.BLUNDER: "Very bad"}

    def expected(self, value: Value, stake: float = 1.0) -> float:
        return value.score / stake if stake > 0 else value.score

    def summary(self, moves: Sequence[MoveReview], player: Player) -> SideSummary:
        base = super().summary(moves, player)
        judged = [move for move in moves if move.mover == player and move.mark.is_judged and move.counted]
        if not judged:
            return base
        checker = [move.loss for move in judged if not move.cube]
        cube = [move.loss for move in judged if move.cube]
        rate = sum(move.loss for move in judged) / len(judged)
        rating = gnubg_rating(rate)
        return _replace_summary(
            base,
            error_rate=1000 * rate,
            checker_error_rate=1000 * sum(checker) / len(checker) if checker else None,
            cube_error_rate=1000 * sum(cube) / len(cube) if cube else None,
            rating=rating,
            headline=f"Error rate {1000 * rate:.1f} ({rating})",
        )


# --------------------------------------------------------------------------- tic-tac-toe
class GameValueScale(ReviewScale):
    """A solved game judged by its game-theoretic value: +1 won, 0 drawn, -1 lost (a value
    the search did not prove reads as a draw). A move that changes it (a win thrown to a draw,
    a draw to a loss) is a blunder; there is nothing smaller to lose. The accuracy is the
    share of judged moves that kept the value."""

    unit = "game value"
    decimals = 0
    thresholds = Thresholds(1.0, 1.0, 1.0)

    def expected(self, value: Value, stake: float = 1.0) -> float:
        return float(value.outcome)

    def summary(self, moves: Sequence[MoveReview], player: Player) -> SideSummary:
        base = super().summary(moves, player)
        if not base.judged:
            return base
        accuracy = 100 * (base.judged - base.errors) / base.judged
        return _replace_summary(base, accuracy=accuracy, headline=f"Accuracy {accuracy:.0f}%")


CHESS_SCALE: Final = WinChanceScale()
BACKGAMMON_SCALE: Final = EquityScale()
TICTACTOE_SCALE: Final = GameValueScale()


class Reviewed(Protocol):
    """A game whose moves a review can judge: it names this among its state class's bases
    and sets ``REVIEW_SCALE`` (``games.capabilities``'s way of declaring an ability)."""

    __slots__ = ()

    REVIEW_SCALE: ClassVar[ReviewScale]


def review_scale(game: type) -> ReviewScale:
    """The scale ``game`` (a state class) declares; ``ReviewError`` when it declares none."""
    if Reviewed not in game.__mro__:
        raise ReviewError(f"{getattr(game, 'NAME', game.__name__)} has no review scale: its moves cannot be judged")
    return cast("type[Reviewed]", game).REVIEW_SCALE


# --------------------------------------------------------------------------- the review
MAX_LINE: Final = 64
"""Moves kept of a better move's line (a review line longer than this is noise)."""
MAX_NAME: Final = 64
"""Characters of a move's name in a review file (the longest real one is a backgammon play
of four hops, about 20)."""
MAX_MOVES: Final = 10_000
"""Reviewed moves in one file (a game file holds far fewer moves)."""


@dataclass(frozen=True)
class GameReview:
    """A whole game reviewed: every judged decision in ply order, how strong the review was,
    and the scale the game measures with (from the game, never stored in a file)."""

    game: str
    settings: ReviewSettings
    moves: tuple[MoveReview, ...]
    scale: ReviewScale = field(compare=False, repr=False, default=CHESS_SCALE)

    def summaries(self) -> tuple[SideSummary, SideSummary]:
        """Both players' figures (``SideSummary``)."""
        return self.scale.summaries(self.moves)

    def summary(self, player: Player) -> SideSummary:
        return self.summaries()[player]

    def for_ply(self, ply: int) -> MoveReview | None:
        """The review of the move at ``ply`` (``None``: a chance ply, or not reviewed)."""
        for move in self.moves:
            if move.ply == ply:
                return move
        return None

    def next_error(self, after_ply: int, player: Player | None = None, at_least: Mark = Mark.INACCURACY) -> MoveReview | None:
        """The first error at a ply after ``after_ply`` at least as bad as ``at_least``
        (of ``player``, or of either side): "next mistake" navigation."""
        floor = ERRORS.index(at_least) if at_least in ERRORS else 0
        for move in sorted(self.moves, key=lambda item: item.ply):
            if move.ply > after_ply and move.mark in ERRORS[floor:] and (player is None or move.mover == player):
                return move
        return None

    def previous_error(self, before_ply: int, player: Player | None = None, at_least: Mark = Mark.INACCURACY) -> MoveReview | None:
        """The last such error at a ply before ``before_ply``."""
        floor = ERRORS.index(at_least) if at_least in ERRORS else 0
        for move in sorted(self.moves, key=lambda item: -item.ply):
            if move.ply < before_ply and move.mark in ERRORS[floor:] and (player is None or move.mover == player):
                return move
        return None

    def for_moves(self, moves: Sequence[str]) -> GameReview | None:
        """The review of the game whose moves are ``moves``: the reviewed moves that are still
        that game's at their ply (a game taken back or changed since its review keeps the
        review of the moves it still has), ``None`` when none is."""
        kept = tuple(move for move in self.moves if move.ply < len(moves) and moves[move.ply] == move.move)
        if not kept:
            return None
        return self if len(kept) == len(self.moves) else replace(self, moves=kept)

    def comment(self, move: MoveReview) -> str:
        """The words of a judged error in Lichess's style: ``Blunder. Nxd5 was best.``
        (empty for a move that is no error)."""
        if not move.mark.is_error:
            return ""
        return f"{self.scale.verdict(move)}. {move.best_move} was best."

    # ----------------------------------------------------------------------- JSON
    def to_json(self) -> dict[str, object]:
        """The review as a JSON object (the ``review`` field of a Plyground game file)."""
        return {
            "settings": {
                "algorithm": self.settings.algorithm,
                "depth": self.settings.depth,
                "nodes": self.settings.nodes,
                "seconds": self.settings.seconds,
            },
            "moves": [_move_to_json(move) for move in self.moves],
        }

    @classmethod
    def from_json(cls, document: object, game: str, scale: ReviewScale, record_moves: Sequence[str] | None = None) -> GameReview:
        """The review in a decoded ``review`` field, every field checked (``ReviewError``
        says which is wrong). With ``record_moves`` (the game's moves by name) each reviewed
        move must be the record's move at its ply. Losses and expected values are computed
        again from the values by ``scale``, so a file cannot make them disagree."""
        if not isinstance(document, dict):
            raise ReviewError('"review" must be an object with "settings" and "moves"')
        settings = _settings_from_json(document.get("settings"))
        entries = document.get("moves")
        if not isinstance(entries, list):
            raise ReviewError('"review": "moves" must be a list')
        if len(entries) > MAX_MOVES:
            raise ReviewError(f'"review" has {len(entries):,} moves: more than any game')
        moves: list[MoveReview] = []
        seen: set[int] = set()
        for number, entry in enumerate(entries, start=1):
            move = _move_from_json(entry, number, scale)
            if move.ply in seen:
                raise ReviewError(f'"review" move {number}: ply {move.ply} is reviewed twice')
            if record_moves is not None:
                if move.ply >= len(record_moves):
                    raise ReviewError(f'"review" move {number}: ply {move.ply} is past the game\'s {len(record_moves)} moves')
                if record_moves[move.ply] != move.move:
                    raise ReviewError(f'"review" move {number}: the game\'s move at ply {move.ply} is not {move.move!r}')
            seen.add(move.ply)
            moves.append(move)
        moves.sort(key=lambda item: item.ply)
        return cls(game=game, settings=settings, moves=tuple(moves), scale=scale)


def make_move_review(
    scale: ReviewScale,
    *,
    ply: int,
    mover: Player,
    move: str,
    played: Value,
    best: Value,
    best_move: str,
    best_line: Sequence[str] = (),
    stake: float = 1.0,
    cube: bool = False,
    counted: bool = True,
    mark: Mark | None = None,
) -> MoveReview:
    """A ``MoveReview`` with its loss, expected values and mark computed by ``scale`` (the
    mark given instead for book and only moves, which are not judged)."""
    is_best = move == best_move
    if mark is None:
        mark = scale.mark(best, played, stake, is_best_move=is_best)
    loss = scale.loss(best, played, stake) if mark.is_judged and not is_best else 0.0
    return MoveReview(
        ply=ply,
        mover=mover,
        move=move,
        mark=mark,
        loss=loss,
        played=played,
        best=best,
        best_move=best_move,
        best_line=(tuple(best_line) or ((best_move,) if best_move else ()))[:MAX_LINE],
        expected_before=scale.expected(best, stake),
        expected_after=scale.expected(played, stake),
        stake=stake,
        cube=cube,
        counted=counted,
    )


def _value_to_json(value: Value) -> list[object]:
    return [value.score, value.win_in_plies]


def _move_to_json(move: MoveReview) -> dict[str, object]:
    document: dict[str, object] = {
        "ply": move.ply,
        "mover": move.mover,
        "move": move.move,
        "mark": move.mark.value,
        "played": _value_to_json(move.played),
        "best": _value_to_json(move.best),
        "best_move": move.best_move,
        "best_line": list(move.best_line),
    }
    if move.stake != 1.0:
        document["stake"] = move.stake
    if move.cube:
        document["cube"] = True
    if not move.counted:
        document["counted"] = False
    return document


def _settings_from_json(document: object) -> ReviewSettings:
    if not isinstance(document, dict):
        raise ReviewError('"review": "settings" must be an object')
    algorithm = document.get("algorithm")
    if not isinstance(algorithm, str) or not 0 < len(algorithm) <= MAX_NAME:
        raise ReviewError('"review": "settings.algorithm" must be an algorithm\'s name')
    depth = _optional_count(document.get("depth"), "settings.depth")
    nodes = _optional_count(document.get("nodes"), "settings.nodes")
    seconds = document.get("seconds")
    if seconds is not None and not (_is_number(seconds) and 0 < seconds < 1e7):
        raise ReviewError('"review": "settings.seconds" must be a positive number of seconds or null')
    return ReviewSettings(algorithm, depth, nodes, None if seconds is None else float(seconds))


def _optional_count(value: object, name: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 10**12:
        raise ReviewError(f'"review": "{name}" must be a positive whole number or null')
    return value


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _value_from_json(value: object, where: str) -> Value:
    if not (isinstance(value, list) and len(value) == 2 and _is_number(value[0])):
        raise ReviewError(f"{where} must be [score, plies to a proven result or null] with a finite score")
    score, plies = value
    if abs(score) > 1e9:
        raise ReviewError(f"{where}: score {score!r} is out of any evaluation's range")
    if plies is not None and (not isinstance(plies, int) or isinstance(plies, bool) or abs(plies) > 10_000):
        raise ReviewError(f"{where}: plies to a proven result must be a whole number or null")
    return Value(float(score), plies)


def _name(value: object, where: str, empty: bool = False) -> str:
    if not isinstance(value, str) or len(value) > MAX_NAME or (not value and not empty) or not value.isprintable():
        raise ReviewError(f"{where} must be a move's name (at most {MAX_NAME} printable characters)")
    return value


def _move_from_json(entry: object, number: int, scale: ReviewScale) -> MoveReview:
    where = f'"review" move {number}'
    if not isinstance(entry, dict):
        raise ReviewError(f"{where} must be an object")
    ply = entry.get("ply")
    if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply < MAX_MOVES:
        raise ReviewError(f"{where}: \"ply\" must be a move's index in the game")
    mover = entry.get("mover")
    if mover not in (0, 1) or isinstance(mover, bool):
        raise ReviewError(f'{where}: "mover" must be 0 or 1')
    try:
        mark = Mark(entry.get("mark"))
    except ValueError:
        raise ReviewError(f'{where}: "mark" must be one of {", ".join(mark.value for mark in Mark)}') from None
    move = _name(entry.get("move"), f'{where}: "move"')
    best_move = _name(entry.get("best_move"), f'{where}: "best_move"', empty=True)
    line = entry.get("best_line", [])
    if not isinstance(line, list) or len(line) > MAX_LINE:
        raise ReviewError(f'{where}: "best_line" must be a list of at most {MAX_LINE} moves')
    best_line = tuple(_name(name, f'{where}: "best_line"') for name in line)
    stake = entry.get("stake", 1.0)
    if not (_is_number(stake) and 0 < stake <= 1e6):
        raise ReviewError(f'{where}: "stake" must be a positive number')
    cube = entry.get("cube", False)
    counted = entry.get("counted", True)
    if not isinstance(cube, bool) or not isinstance(counted, bool):
        raise ReviewError(f'{where}: "cube" and "counted" must be true or false')
    played = _value_from_json(entry.get("played"), f'{where}: "played"')
    best = _value_from_json(entry.get("best"), f'{where}: "best"')
    # A judged move's mark follows from its values and is judged again (a file whose mark
    # disagrees was edited by hand); book and only moves keep theirs.
    return make_move_review(
        scale,
        ply=ply,
        mover=cast(int, mover),
        move=move,
        played=played,
        best=best,
        best_move=best_move,
        best_line=best_line,
        stake=float(stake),
        cube=cube,
        counted=counted,
        mark=None if mark.is_judged else mark,
    )


# --------------------------------------------------------------------------- PGN and PDN
REVIEW_COMMAND: Final = re.compile(r"\[%review\s+([^\]]*)\]")
"""A move's review inside a PGN/PDN comment, as an embedded command (PGN standard 8.2.5,
the form of Lichess's ``[%eval]`` and ``[%clk]``): ``[%review blunder Nf6 -28 -1053 d3 Bc5]``
= the mark, the best move, the best and the played value (the mover's view, evaluation
units; ``999995@5``: a proven result, the plies to it after the ``@``, negative for a loss),
then the rest of the best line.
Readers that do not know it show nothing of it; the words beside it are for people."""


def review_command(move: MoveReview) -> str:
    """``move`` as a ``[%review ...]`` command (``REVIEW_COMMAND``)."""
    words = [move.mark.name.lower(), move.best_move or "-", _value_token(move.best), _value_token(move.played)]
    words += list(move.best_line[1:])
    return f"[%review {' '.join(words)}]"


def _value_token(value: Value) -> str:
    score = f"{value.score:.10g}"
    return score if value.win_in_plies is None else f"{score}@{value.win_in_plies}"


def move_from_command(text: str, ply: int, mover: Player, move: str, scale: ReviewScale) -> MoveReview:
    """The ``MoveReview`` a ``[%review ...]`` command's text (what is inside) says of ``move``
    at ``ply``, checked as strictly as the JSON form (``ReviewError``)."""
    words = text.split()
    if len(words) < 4 or len(words) > 4 + MAX_LINE:
        raise ReviewError(f"move {ply + 1}: a [%review] needs a mark, a best move and two values")
    mark_word, best_move, best, played = words[:4]
    mark = Mark.__members__.get(mark_word.upper())
    if mark is None:
        raise ReviewError(f"move {ply + 1}: {mark_word[:20]!r} is not a review mark")
    entry = {
        "ply": ply,
        "mover": mover,
        "move": move,
        "mark": mark.value,
        "best_move": "" if best_move == "-" else best_move,
        "best_line": ([] if best_move == "-" else [best_move]) + words[4:],
        "best": _value_from_token(best, ply),
        "played": _value_from_token(played, ply),
    }
    return _move_from_json(entry, ply + 1, scale)


def _value_from_token(token: str, ply: int) -> list[object]:
    score, _, plies = token.partition("@")
    try:
        return [float(score), int(plies) if plies else None]
    except ValueError:
        raise ReviewError(f"move {ply + 1}: {token[:20]!r} is not a review value") from None


def error_words(review: GameReview, move: MoveReview, before: str, after: str) -> str:
    """Lichess's words for an error, with the evaluations before and after it as the reader
    writes them (White's view in chess): ``(0.28 → -10.53) Blunder. Nf6 was best.``; ""
    for a move that is no error."""
    if not move.mark.is_error:
        return ""
    return f"({before} → {after}) {review.comment(move)}"
