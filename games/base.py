"""The game protocol every Plyground game implements.

The vocabulary is the textbook's (Russell & Norvig, *AIMA* ch. 5: TO-MOVE, ACTIONS, RESULT,
IS-TERMINAL, UTILITY, EVAL) with OpenSpiel's chance model: dice are a pseudo-player
``CHANCE`` whose ``chance_outcomes()`` lists every outcome with its probability.

A state is mutable. The fast path for search is make/unmake (``play``/``undo``), as in
python-chess; ``result(move)`` is the textbook's pure RESULT (a copy plus ``play``).

Moves are game-specific hashable, picklable values (an ``int`` square for Othello, a
``chess.Move`` for chess, a tuple for backgammon ...). A state's ``play`` trusts its
argument to be one of its ``legal_moves()`` (or, at a chance node, one of the outcomes
of ``chance_outcomes()``): validation happens once at the edge, in ``parse_move`` and
``play_checked``, never in the search's inner loop.

Scores: ``utility(player)`` is the game-theoretic payoff at a terminal state and
``evaluate(player)`` the heuristic EVAL at a non-terminal one, both from the point of
view of ``player``. How the engine puts the two on one scale is described by the class
attributes ``UTILITY_KIND`` and ``EVAL_SCALE``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol, TypeVar

Player = int
"""0 or 1 for the two players (0 moves first), or ``CHANCE``."""

NodePoll = Callable[[int, bool], None]
"""``poll(nodes, check)``: a game's own long computation (Othello's exact endgame solver)
reports the nodes it searched since its last report, now and then and once at the end with
``check=False``; with ``check=True`` the callee may raise to stop it (the engine's
``SearchStopped``), which is how a time limit or a stop request reaches a long solve."""


class SolveAbandoned(Exception):
    """What a root solve's ``NodePoll`` raises to give the solve up (it has spent its share of
    the move's limits): the solve ends without an answer and the search goes on without it."""


NativeIterationSink = Callable[["NativeIteration"], bool]
"""``on_iteration(report) -> stop``: what a game's compiled search (``GameState.native_searcher``)
calls after each completed depth; a true answer ends the deepening there."""

CHANCE: Player = -1
"""The chance pseudo-player (OpenSpiel's convention)."""

Move = Hashable
"""A game-specific, hashable, picklable move value."""

UtilityKind = Literal["win_loss", "margin", "equity"]

S = TypeVar("S", bound="GameState")

MOVE_CODE_LIMIT = 1 << 62
"""Every move code is below this (``encode_move``): a code fits one 64-bit word of a shared
transposition table with room to spare."""


@dataclass(frozen=True)
class NativeIteration:
    """One completed depth of a game's compiled search, as the game reports it (the engine
    turns it into its ``Iteration`` event; ``games`` never imports ``ai``)."""

    depth: int
    seldepth: int
    score: float
    """Evaluation units from the side to move at the root's view; meaningless (0) when
    ``win_in_plies`` is set."""
    win_in_plies: int | None
    """A proven result: the side to move wins in that many plies (positive) or loses
    (negative); ``None`` for an estimate."""
    nodes: int
    """Nodes searched since the search began."""
    pv: tuple[Any, ...]
    """The principal variation from the root, as move values (never empty)."""


class NativeSearcher(Protocol):
    """A game's own compiled search (chess: ``games.chess_game.native``): the exception to
    "search written once", kept for playing strength, with the readable algorithms of
    ``ai.search`` beside it. It owns a transposition table that outlives one search."""

    def search(
        self,
        state: GameState,
        max_depth: int,
        poll: NodePoll,
        on_iteration: NativeIterationSink,
        root_moves: Sequence[Any] = (),
        poll_interval: int = 4096,
        threads: int = 1,
        root_solve_poll: NodePoll | None = None,
    ) -> None:
        """Deepen from ``state`` (only read) to ``max_depth``, reporting each completed
        depth to ``on_iteration`` and every ``poll_interval`` nodes to ``poll(nodes, True)``
        (which raises to stop: the exception propagates; then once ``poll(rest, False)``).
        Depth 1 always completes, unless the root has no legal move (nothing is reported).
        ``threads`` > 1: that many threads search at once (Lazy SMP, sharing the table);
        the nodes reported are all of theirs. ``root_solve_poll``: where a search that solves
        its root exactly (Othello's) reports that solve's nodes instead of ``poll``; raising
        ``SolveAbandoned`` there gives the solve up and the deepening goes on (``None``:
        ``poll``; a search without a root solve never calls it)."""

    def interrupted(self, state: GameState) -> NativeIteration | None:
        """After a search of ``state`` that a stop cut short: what the cut iteration had
        found, when it found a better root move than the last completed one (searched
        first); ``None`` otherwise."""
        ...

    def counters(self) -> tuple[int, int, int, int, int]:
        """Of the search under way (or the last): quiescence nodes, table probes, table
        hits, beta cut-offs, and cut-offs by the first move tried (move-ordering quality)."""
        ...

    def hashfull(self) -> float:
        """Fraction (0..1) of the table in use."""
        ...

    def clear(self) -> None:
        """Forget the table and the move-ordering history (a new game)."""


class GameError(ValueError):
    """Base class of every error about user-supplied game input."""


class IllegalMoveError(GameError):
    """A move that is not legal here, or text that names no move.

    The message says exactly what is wrong, e.g. ``"square 33 does not exist"`` or
    ``"11-15 is not legal: black must capture (e.g. 14x23)"``.
    """


class BadPositionError(GameError):
    """Position text that is malformed or describes an impossible position.

    The message says exactly what is wrong, e.g. ``"white has 16 checkers"``.
    """


def other(player: Player) -> Player:
    """The opponent of ``player`` (0 <-> 1)."""
    return 1 - player


class GameState(ABC):
    """One position of a game, with the moves that lead out of it.

    Subclasses set ``NAME`` (the registry name), ``PLAYER_NAMES`` and the scoring
    attributes, and implement the abstract methods. Everything here is pure: no I/O,
    no global random state, no Qt.
    """

    __slots__ = ()

    NAME: ClassVar[str]
    """Registry name: ``tictactoe``, ``checkers``, ``chess``, ``othello``, ``backgammon``."""

    PLAYER_NAMES: ClassVar[tuple[str, str]]
    """Display names of players 0 and 1, e.g. ``("Black", "White")``."""

    HAS_CHANCE: ClassVar[bool] = False
    """Whether the game has chance nodes (dice): algorithms for deterministic games refuse
    such games up front."""

    UTILITY_KIND: ClassVar[UtilityKind] = "win_loss"
    """How to read ``utility``:

    * ``"win_loss"``: +1 win, 0 draw, -1 loss. The engine scores terminals as
      "win in N plies" (mate scores) that dominate every ``evaluate`` value.
    * ``"margin"``: a signed margin (Othello's final disc difference). The engine scores
      a terminal as ``utility * EVAL_SCALE``, so an exact endgame score and a midgame
      estimate share one scale.
    * ``"equity"``: a signed number of points (backgammon: 1/2/3 times the cube). The
      engine scores a terminal as ``utility * EVAL_SCALE`` and ``evaluate`` estimates
      the same quantity.
    """

    EVAL_SCALE: ClassVar[float] = 1.0
    """Evaluation units per unit of utility (used for ``margin`` and ``equity`` games)."""

    # How people read this game's scores (``ai.display`` asks these; no front end knows a
    # game by name).
    SCORE_UNIT: ClassVar[str] = "points"
    """The unit a score is shown in: ``pawns`` (chess), ``men`` (checkers), ``discs``
    (Othello), ``points`` of equity (backgammon) ..."""
    SCORE_UNIT_SIZE: ClassVar[float] = 1.0
    """Evaluation units in one ``SCORE_UNIT`` (chess: 100 centipawns to the pawn)."""
    SCORE_DECIMALS: ClassVar[int] = 2
    """Decimals shown (``+0.35`` pawns, ``+0.123`` equity points, ``+2`` lines)."""
    WIN_WORDING: ClassVar[Literal["mate", "plies"]] = "plies"
    """How a proven result reads: ``mate`` = chess's "mate in N" (moves of the winner),
    ``plies`` = "win in N plies" / "loss in N plies"."""

    DEFAULT_ALGORITHM: ClassVar[str] = "pvs"
    """The algorithm a front end searches this game with unless told otherwise (a game
    with dice needs one that handles chance nodes)."""

    SELECTIVE_SEARCH: ClassVar[frozenset[str]] = frozenset()
    """The selective-search switches of ``ai.settings.SearchSettings`` this game takes
    (``check_extensions``, ``null_move``, ``late_move_reductions``, ``quiescence_checks``,
    ``see_pruning``, ``futility_pruning``): each is sound only for a game that declares the
    abilities it uses (``games.capabilities``: ``CheckAware``, and ``NullMoveSafe``,
    ``QuietChecks`` or ``ExchangeEvaluation``; ``SELECTIVE_NEEDS``) and listed only where a
    measurement showed that it pays. The others stay off whatever the settings say, and the
    app greys them out."""

    # ------------------------------------------------------------------ players
    @abstractmethod
    def to_move(self) -> Player:
        """TO-MOVE: 0 or 1, or ``CHANCE`` when the next event is a dice roll."""

    # ------------------------------------------------------------------ actions
    @abstractmethod
    def legal_moves(self) -> list[Any]:
        """ACTIONS: every legal move for the side to move (empty at a terminal state).

        A forced pass is an explicit move where the rules have one (Othello). At a chance
        node this is the list of outcomes (the same values as in ``chance_outcomes``).
        """

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """At a chance node: ``[(outcome, probability), ...]`` summing to 1.

        Games without chance never reach a chance node and keep this default.
        """
        raise ValueError(f"{self.NAME} has no chance nodes")

    def roll_moves(self, text: str) -> list[Any]:
        """The moves that bring the dice ``text`` (e.g. ``3-1``) into play from here, in
        order (games with dice: any pre-roll decision such as backgammon's "roll, no
        double", then the roll itself); empty when exactly these dice are already rolled.

        Raises ``GameError`` saying why the roll cannot come next. Games without dice say
        they have none.
        """
        raise GameError(f"{self.NAME} has no dice: there is nothing to roll")

    def set_roll(self, text: str) -> None:
        """Play ``roll_moves(text)``: roll the dice ``text`` for the side to move."""
        for move in self.roll_moves(text):
            self.play_checked(move)

    # --------------------------------------------------------------- transition
    @abstractmethod
    def play(self, move: Any) -> None:
        """Make ``move`` (a member of ``legal_moves()``, or a chance outcome) in place."""

    @abstractmethod
    def undo(self) -> None:
        """Unmake the last ``play``; the state (and ``key()``) is exactly as before."""

    @abstractmethod
    def copy(self: S) -> S:
        """An independent copy: playing on it never changes ``self``. Keeps the history
        needed by ``undo`` and by repetition rules."""

    def result(self: S, move: Any) -> S:
        """RESULT(s, a): the textbook's pure transition, a copy with ``move`` played."""
        child = self.copy()
        child.play(move)
        return child

    def play_checked(self, move: Any) -> None:
        """``play`` for moves from outside the search: raise ``IllegalMoveError`` first
        if ``move`` is not legal here, so that nothing is changed by a bad move."""
        if self.to_move() == CHANCE:
            outcomes = [outcome for outcome, _ in self.chance_outcomes()]
            if move not in outcomes:
                raise IllegalMoveError(f"{move!r} is not a possible chance outcome here")
        elif move not in self.legal_moves():
            if self.is_terminal():
                raise IllegalMoveError("the game is over: no move is legal")
            raise IllegalMoveError(f"{self.move_name(move)} is not a legal move here")
        self.play(move)

    # --------------------------------------------------------------------- end
    @abstractmethod
    def is_terminal(self) -> bool:
        """IS-TERMINAL: the game is over (includes draws by rule such as repetition)."""

    @abstractmethod
    def utility(self, player: Player) -> float:
        """UTILITY at a terminal state, from ``player``'s point of view (zero-sum)."""

    def utility_bounds(self) -> tuple[float, float]:
        """The least and greatest value ``utility`` (and ``evaluate / EVAL_SCALE``) can
        take from here; Star1/Star2 chance-node pruning (Ballard 1983) needs them."""
        return (-1.0, 1.0)

    def move_number(self) -> int:
        """The score sheet's number of the move to be played from here: 1 where a game
        starts; a position set up mid-game may carry its own (a FEN's move number)."""
        return 1

    def stake(self) -> float:
        """What one game is played for from here, in utility units: 1, or backgammon's cube
        value. An equity divided by it reads as a chance on the eval bar, whatever the cube."""
        return 1.0

    def forfeit_points(self) -> float | None:
        """The points the opponent of a player who forfeits here (a flag fall) wins, for a
        game scored in points (backgammon: the cube's value); ``None`` for a game simply won
        or lost, or where the forfeit is scored above the game (a backgammon match, where a
        flag loses the match)."""
        return None

    def expected_moves_left(self) -> float | None:
        """How many more moves the player to move expects to make in this game: a clock's
        time is shared out over them (``ai.timing``). ``None``: the game cannot say, and a
        default horizon applies."""
        return None

    def winner(self) -> Player | None:
        """At a terminal state: the winner, or ``None`` for a draw."""
        value = self.utility(0)
        if value > 0:
            return 0
        if value < 0:
            return 1
        return None

    def termination_reason(self) -> str:
        """A short human phrase for why the game ended ("checkmate", "threefold
        repetition", ...); empty while the game goes on."""
        return "game over" if self.is_terminal() else ""

    # ---------------------------------------------------------------- hashing
    @abstractmethod
    def key(self) -> int:
        """A 64-bit Zobrist key of the position (side to move and, where they matter,
        rights such as castling), updated incrementally by ``play``/``undo``."""

    def encode_move(self, move: Any) -> int:
        """The move as an integer ``0 <= code < MOVE_CODE_LIMIT``, so that a table packed as
        integers (the worker pool's shared-memory transposition table) can hold it.

        The code depends on the move alone, never on the position: any state of the same
        game decodes it, and ``decode_move(encode_move(m)) == m`` for every move and chance
        outcome the game can produce. Games without a codec cannot use a shared table."""
        raise NotImplementedError(f"{self.NAME} has no move codec (encode_move/decode_move)")

    def decode_move(self, code: int) -> Any:
        """The move ``encode_move`` turned into ``code`` (see there)."""
        raise NotImplementedError(f"{self.NAME} has no move codec (encode_move/decode_move)")

    # --------------------------------------------------------------- knowledge
    def evaluate(self, player: Player) -> float:
        """EVAL(s, p): a heuristic estimate of a non-terminal state for ``player``.

        A weighted linear sum of named features (see ``evaluation_features``). The default
        knows nothing and says 0.
        """
        return 0.0

    def evaluation_features(self, player: Player) -> Mapping[str, tuple[float, float]]:
        """The EVAL breakdown for display: ``{feature name: (weight, feature value)}``,
        with ``sum(weight * value) == evaluate(player)``."""
        return {}

    WEIGHTS_FILE: ClassVar[str | None] = None
    """The packaged file in ``resources/weights/`` EVAL reads its weights from (``None``:
    this game's EVAL has no tunable weights). See ``games.weights``."""

    @classmethod
    def set_network(cls, choice: str) -> None:
        """Make the compiled search add the learned network named by ``choice`` to EVAL
        from now on, in this process: ``""`` the shipped one (if the game ships one),
        ``"off"`` none, else a network file. A game without a network takes only ``""`` and
        ``"off"``; anything else raises ``ValueError``."""
        if choice not in ("", "off"):
            raise ValueError(f"{cls.NAME} has no learned network (network= takes only off here)")

    @classmethod
    def set_weights(cls, weights: Mapping[str, Any] | None) -> None:
        """Make EVAL use ``weights`` (a checked document's ``weights`` mapping; ``None``:
        the packaged ones) from now on, in this process. Per process because EVAL is the
        hottest code there is and reads module-level tables; the engine calls this before
        every search, so two players with different weights can take turns in one process.
        A mapping the game cannot use raises ``games.weights.WeightsError``."""
        if weights is not None:
            from games.weights import WeightsError

            raise WeightsError(f"{cls.NAME}'s evaluation has no tunable weights")

    def book_moves(self) -> Sequence[tuple[Any, float]]:
        """The opening book's moves here with their weights (empty: no book move). The engine
        plays one of them instead of searching when books are allowed (``SearchSettings.book``;
        ``ai.engine.books_allowed`` decides)."""
        return ()

    def forced_answer(self) -> Any | None:
        """A legal move the game knows to play here without any search, or ``None`` (search).

        Not a book: the engine plays it whatever its settings (the book switched off too),
        before searching, and its answer says ``forced``, not ``book``. For decisions a
        search would judge worse than the game's own rule (backgammon's cube decisions from
        the chances: a search would compare "no double" a ply deeper than "double, take")."""
        return None

    HAS_SOLVER: ClassVar[bool] = False
    """Whether ``solve`` can return exact values (Othello's endgame solver): true exactly when
    the game declares ``games.capabilities.ExactSolver`` (checked when a search is prepared)."""
    SOLVED_WIN: ClassVar[float | None] = None
    """Set when ``solve`` proves wins at a distance: a value of ``SOLVED_WIN - plies`` is a win
    for ``player`` that many plies from here, ``-(SOLVED_WIN - plies)`` a loss (checkers'
    endgame databases). The engine scores those as "win in N" counted from its root, like a
    finished game. ``None``: ``solve``'s values are in evaluation units (Othello's margins)."""
    SOLVER_WORDS: ClassVar[tuple[str, str]] = ("Exact solver at ≤", "empties")
    """How people name this game's exact solving and the unit of its reach (the engine's
    ``solver_empties`` setting): Othello solves at a number of empty squares, checkers'
    databases at a number of pieces."""

    SOLVER_REACH: ClassVar[int | None] = None
    """The most ``solve`` can ever cover, in ``SOLVER_WORDS``' unit (checkers: the databases'
    pieces); ``None`` when only time limits it (Othello). A ``solver_empties`` setting past it
    does what the reach does, and the app shows the reach."""

    SOLVER_NODE_COST: ClassVar[float] = 1.0
    """What one node ``solve`` reports costs in the engine's search nodes: a node limit (a
    level's budget, ``--nodes``) charges a solve's nodes at this rate, so that the budget buys
    the same work spent searching or solving. A compiled solver's nodes cost a fraction."""

    NATIVE_SEARCH: ClassVar[str | None] = None
    """What the game's compiled search is (``native_searcher``), or ``None`` when the game has
    none or it is not built: the engine offers the ``native`` algorithm only where it is set."""

    @classmethod
    def native_searcher(cls, table_megabytes: float) -> NativeSearcher:
        """A new compiled searcher with a table of about ``table_megabytes`` (only where
        ``NATIVE_SEARCH`` is set)."""
        raise NotImplementedError(f"{cls.NAME} has no compiled search")

    def solve(
        self, player: Player, max_empties: int, poll: NodePoll | None = None
    ) -> float | None:
        """An exact game-theoretic value for ``player`` in utility units, when the game's
        own fast solver can get it here (Othello: at most ``max_empties`` empty squares);
        ``None`` otherwise. The engine uses it as a perfect EVAL near the end. A long solve
        reports its node count to ``poll(nodes, check)`` as it goes, and stops when ``poll``
        raises (the engine's limits and stop request)."""
        return None

    def noisy_moves(self) -> list[Any]:
        """Moves quiescence search should still look at (chess: captures and
        promotions; checkers: pending captures). Empty for quiet games."""
        return []

    # The harmless defaults below let any front end ask any game; the search relies on them
    # only where the game declares the ability (``games.capabilities``: ``CaptureScores``,
    # ``CheckAware``, ``NullMoveSafe``, ``ExactSolver`` for ``solve`` above).
    def capture_score(self, move: Any) -> int:
        """Move-ordering hint: MVV-LVA style value of a capture, 0 for a quiet move."""
        return 0

    def is_in_check(self) -> bool:
        """Whether the side to move must answer a threat the rules force: in chess a check,
        in checkers a capture it must make. Selective search (``SELECTIVE_SEARCH``) never
        reduces or prunes the moves of such a node, nor the move that led to it; check
        extensions search it one ply deeper."""
        return False

    def can_null_move(self) -> bool:
        """Whether null-move pruning is sound enough here (chess, not in check, with
        pieces). Games without zugzwang-free null moves say no."""
        return False

    def play_null(self) -> None:
        """Pass the move without moving (only where ``can_null_move``)."""
        raise NotImplementedError(f"{self.NAME} has no null move")

    def undo_null(self) -> None:
        """Undo ``play_null``."""
        raise NotImplementedError(f"{self.NAME} has no null move")

    # -------------------------------------------------------------------- perft
    def perft(self, depth: int) -> int:
        """Leaf count of the legal-move tree to ``depth`` (the module function ``perft``
        states the convention). Games override this with a faster or literature-specific
        version."""
        return perft(self, depth)

    def perft_moves(self) -> list[Any]:
        """The root moves ``perft`` counts: ``legal_moves()`` unless the game's perft
        convention differs (chess and checkers perft ignore draws by rule)."""
        return self.legal_moves()

    def divide(self, depth: int) -> list[tuple[str, int]]:
        """Per root move: ``(move name, perft(depth - 1) of the child)``; the counts sum
        to ``perft(depth)``. ``depth`` must be at least 1."""
        if depth < 1:
            raise ValueError(f"divide needs a depth of at least 1, not {depth}")
        # A chance outcome uses no ply in perft (see ``perft`` below), so its child keeps the depth.
        child_depth = depth if self.to_move() == CHANCE else depth - 1
        rows: list[tuple[str, int]] = []
        for move in self.perft_moves():
            name = self.move_name(move)
            self.play(move)
            rows.append((name, self.perft(child_depth) if child_depth > 0 else 1))
            self.undo()
        return rows

    # --------------------------------------------------------------------- text
    @classmethod
    @abstractmethod
    def initial(cls: type[S]) -> S:
        """The standard starting position."""

    @classmethod
    @abstractmethod
    def from_text(cls: type[S], text: str) -> S:
        """Parse the game's position notation; raise ``BadPositionError`` naming the
        problem. ``from_text(s.to_text())`` reproduces ``s`` (up to history)."""

    @abstractmethod
    def to_text(self) -> str:
        """The position in the game's standard notation."""

    @abstractmethod
    def parse_move(self, text: str) -> Any:
        """Parse a move in the game's notation and check it is legal here; raise
        ``IllegalMoveError`` naming the problem."""

    @abstractmethod
    def move_name(self, move: Any) -> str:
        """The move in the game's notation, as its players write it (SAN for chess).
        ``parse_move(move_name(m)) == m`` for every legal ``m``."""

    def line_names(self, moves: Sequence[Any]) -> list[str]:
        """Names of a sequence of moves played from here (a principal variation);
        leaves ``self`` unchanged."""
        names: list[str] = []
        state = self.copy()
        for move in moves:
            names.append(state.move_name(move))
            state.play(move)
        return names

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_text({self.to_text()!r})"


def perft(state: GameState, depth: int) -> int:
    """Leaf count of the move tree of ``state`` to ``depth`` plies (make/unmake): the
    standard test of move generators.

    Convention (as in chess): ``perft(s, 0) == 1``; a node with no legal move contributes 0
    at any remaining depth. Chance nodes are expanded over every outcome without using up a
    ply, so for backgammon ``depth`` counts decisions. Games whose literature counts
    differently (Othello counts a finished game as one leaf at any depth) override
    ``GameState.perft`` and document the convention they follow.
    """
    if depth == 0:
        return 1
    if state.to_move() == CHANCE:
        total = 0
        for outcome, _probability in state.chance_outcomes():
            state.play(outcome)
            total += perft(state, depth)
            state.undo()
        return total
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        state.play(move)
        total += perft(state, depth - 1)
        state.undo()
    return total
