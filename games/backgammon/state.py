"""``BackgammonState``: money backgammon with the doubling cube, behind ``games.base``.

Players: 0 is **O** and 1 is **X**, as in gnubg (whose Match ID stores "player 0/1" with the
same meaning, and which draws X at the bottom). Each player's checkers are a ``Board`` in
their own numbering (see ``board``).

One turn is a sequence of nodes, each a ``Phase`` of the state (``phase``: the opening
roll, a cube decision, a take decision, the roll, the checker play, the end). At the end
the result is a single game, a gammon (the loser has borne off nothing) or a backgammon
(and still has a checker on the bar or in the winner's home board): 1, 2 or 3 times the
cube. With the Jacoby rule (money play only, off by default) gammons count single while the
cube has not been turned.

Money play scores equities in points: ``utility`` is +-points at the end, ``evaluate``
estimates the same: the learned network's cubeless chances (``network``), turned into
cubeful equity by Janowski's model with a live cube (``cube``: the search's double, take and
pass decisions come from it) and times the cube value; the hand-featured linear EVAL, the
baseline the network is measured against, is ``linear_evaluate``.

In a match (``match_length`` > 0, ``score``, ``crawford``: see ``match``) a game is worth
what it does to the match: ``match_winning_chance`` is the position's cubeful match winning
chance (MWC) from the match equity table (``met``) by the match cube model (``match_cube``,
gnubg's 0-ply ``Cl2CfMatch``), and ``utility``/``evaluate`` give that chance as gnubg's
normalized match equity (+1 = a single game won with the cube at 1, -1 = one lost; in the
order of the MWCs), so that the search plays for the match score: gammons count as much as
they matter at the score. No doubling in the Crawford game, none with a cube that already
wins the match for its would-be doubler (a dead cube, which also keeps the post-Crawford
leader from doubling), and never the Jacoby rule.

Text: ``PositionID:MatchID`` exactly as gnubg's ``set gnubgid`` takes it (see ``gnubg_ids``
for the layout and the three spare-bit flags Plyground adds); ``str(state)`` is gnubg's
text diagram (``diagram``). Moves as integers: ``codec``; Zobrist keys: ``hashing``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from games.annotations import BACKGAMMON_SCALE, Reviewed, ReviewScale
from games.backgammon import codec, cube, evaluation, gnubg_ids, match_cube, network, notation
from games.backgammon.board import (
    BAR,
    CHECKERS,
    DIE_FACES,
    HOME_POINTS,
    OFF,
    PLAYER_NAMES,
    Board,
    O,
    Play,
    Roll,
    X,
    empty_board,
    is_race,
    pip_count,
    starting_board,
    take_back,
)
from games.backgammon.diagram import diagram
from games.backgammon.gnubg_ids import CENTRED, MatchKey
from games.backgammon.hashing import (
    CHECKER_KEYS,
    CRAWFORD_KEY,
    CUBE_KEYS,
    CUBE_OWNERS,
    CUBELESS_KEY,
    DICE_KEYS,
    DIE_VALUES,
    DROPPED_KEY,
    JACOBY_KEY,
    MATCH_LENGTH_KEY,
    PHASE_KEYS,
    SCORE0_KEY,
    SCORE1_KEY,
    board_key,
)
from games.backgammon.movegen import generate_plays, hit_points
from games.backgammon.notation import DOUBLE, DROP, NO_DOUBLE, TAKE
from games.backgammon.phase import (
    CHECKER_PLAY,
    CUBE_DECISION,
    GAME_OVER,
    OPENING,
    ROLL,
    TAKE_DECISION,
    Phase,
)
from games.base import CHANCE, BadPositionError, GameState, IllegalMoveError, Player
from games.capabilities import CaptureScores, Chance
from games.zobrist import MASK64

SINGLE, GAMMON, BACKGAMMON = 1, 2, 3
RESULT_NAMES = {SINGLE: "a single game", GAMMON: "a gammon", BACKGAMMON: "a backgammon"}
MAX_CUBE = 1 << gnubg_ids.MAX_CUBE_LOG
"""32768: the largest cube a Match ID can hold."""

Move = Any
"""A play (tuple of hops), a roll (tuple of two ints) or a cube action (str)."""

OPENING_OUTCOMES: tuple[tuple[Roll, float], ...] = tuple(
    ((first, second), 1 / 30)
    for first in range(1, DIE_FACES + 1)
    for second in range(1, DIE_FACES + 1)
    if first != second
)
ROLL_OUTCOMES: tuple[tuple[Roll, float], ...] = tuple(
    ((high, low), (1 if high == low else 2) / 36)
    for high in range(DIE_FACES, 0, -1)
    for low in range(high, 0, -1)
)

SNAPSHOT_FIELDS: tuple[str, ...] = (
    "phase",
    "player",
    "dice",
    "cube_value",
    "cube_owner",
    "game_winner",
    "points",
    "dropped",
    "_checker_key",
    "_key",
)
"""What ``play`` records in ``history`` to be restored by ``undo`` (the checkers are put
back from the play's hops instead). Phase and player come first: readers of ``history``
(the board's animation) take them from there."""
Snapshot = tuple[Any, ...]
"""The values of ``SNAPSHOT_FIELDS``, in that order."""


def _snapshot_functions(fields: tuple[str, ...]) -> tuple[Callable[[Any], Snapshot], Callable[[Any, Snapshot], None]]:
    """``record(state)`` and ``restore(state, snapshot)`` over ``fields``: one tuple built and
    one tuple assignment, generated from the list as ``dataclasses`` generates ``__init__``
    from the fields. Play and undo run at every node of a search: the plain tuple takes a
    quarter of a microsecond each way, ``attrgetter`` and a loop of ``setattr`` over the list
    two to four times that (measured on this state)."""
    attributes = ", ".join(f"state.{name}" for name in fields)
    source = f"def record(state):\n    return ({attributes},)\n\ndef restore(state, snapshot):\n    {attributes}, = snapshot\n"
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # noqa: S102 (the source is built from our own field names)
    return namespace["record"], namespace["restore"]


_record, _restore = _snapshot_functions(SNAPSHOT_FIELDS)


class BackgammonState(GameState, CaptureScores, Chance, Reviewed):
    """A backgammon position with its turn phase, dice and doubling cube (see module doc)."""

    NAME: ClassVar[str] = "backgammon"
    REVIEW_SCALE: ClassVar[ReviewScale] = BACKGAMMON_SCALE
    """How a review measures this game's moves (``games.annotations``)."""
    PLAYER_NAMES: ClassVar[tuple[str, str]] = PLAYER_NAMES
    HAS_CHANCE: ClassVar[bool] = True
    UTILITY_KIND = "equity"
    EVAL_SCALE: ClassVar[float] = 1.0
    SCORE_UNIT: ClassVar[str] = "points"
    """Equity: points won per game (1/2/3 times the cube)."""
    SCORE_DECIMALS: ClassVar[int] = 3
    DEFAULT_ALGORITHM: ClassVar[str] = "star2"
    WEIGHTS_FILE: ClassVar[str | None] = network.WEIGHTS_FILE
    race_weights: ClassVar[dict[str, float]] = evaluation.RACE_WEIGHTS
    contact_weights: ClassVar[dict[str, float]] = evaluation.CONTACT_WEIGHTS

    __slots__ = (
        "boards",
        "player",
        "phase",
        "dice",
        "cube_value",
        "cube_owner",
        "cube_enabled",
        "jacoby",
        "match_length",
        "score",
        "crawford",
        "gnubg_jacoby_off",
        "game_winner",
        "points",
        "dropped",
        "history",
        "_checker_key",
        "_key",
        "_cached_key",
        "_cached_moves",
    )

    @classmethod
    def set_weights(cls, weights: Mapping[str, Any] | None) -> None:
        """EVAL's network from a weights document (``network.from_weights``; ``None``: the
        packaged ``backgammon_net.json``)."""
        network.use_weights(weights)

    def __init__(
        self,
        boards: tuple[Board, Board] | None = None,
        *,
        player: Player = O,
        phase: Phase = OPENING,
        dice: Roll = (0, 0),
        cube_value: int = 1,
        cube_owner: int = CENTRED,
        cube_enabled: bool = True,
        jacoby: bool = False,
        match_length: int = 0,
        score: tuple[int, int] = (0, 0),
        crawford: bool = False,
        gnubg_jacoby_off: bool | None = None,
    ) -> None:
        """Trusting constructor: use ``initial``, ``from_text`` or ``from_points`` (which
        validate) rather than this. ``gnubg_jacoby_off``: the Match ID's gnubg bit 67
        (``gnubg_ids``), by default set in a match as gnubg sets it."""
        self.boards: list[Board] = [list(board) for board in boards] if boards else [starting_board(), starting_board()]
        self.player = player
        self.phase = Phase(phase)
        self.dice = dice
        self.cube_value = cube_value
        self.cube_owner = cube_owner
        self.cube_enabled = cube_enabled
        self.jacoby = jacoby
        self.match_length = match_length
        self.score = score
        self.crawford = crawford
        self.gnubg_jacoby_off = bool(match_length) if gnubg_jacoby_off is None else gnubg_jacoby_off
        self.game_winner: Player = -1
        self.points = 0
        self.dropped = False
        self.history: list[tuple[Any, ...]] = []
        self._checker_key = board_key(O, self.boards[O]) ^ board_key(X, self.boards[X])
        self._key = self._checker_key ^ self._state_key()
        self._cached_key = -1
        self._cached_moves: list[Move] = []

    # --------------------------------------------------------------- queries
    def pip_count(self, player: Player) -> int:
        """Pips ``player`` still has to travel."""
        return pip_count(self.boards[player])

    def expected_moves_left(self) -> float:
        """Turns the player to move still needs (a clock is shared out over them,
        ``ai.timing``): the pip count over an average roll's 49/6 pips (a double moves four
        times), plus one for the pips bearing off wastes."""
        mover = self.to_move()
        return self.pip_count(self.player if mover == CHANCE else mover) / (49 / 6) + 1.0

    def checkers_off(self, player: Player) -> int:
        """Checkers ``player`` has borne off."""
        return self.boards[player][OFF]

    def can_double(self, player: Player) -> bool:
        """Whether ``player`` may offer a double at the start of a turn (cube rules only:
        the caller knows whether it is that player's turn). In a match nobody turns a cube
        that is dead for them: one whose value already wins them the match (so the
        post-Crawford leader, 1 point away, never doubles)."""
        return (
            self.cube_enabled
            and not self.crawford
            and self.cube_value < MAX_CUBE
            and (self.cube_owner == CENTRED or self.cube_owner == player)
            and (self.match_length == 0 or self.score[player] + self.cube_value < self.match_length)
        )

    def is_race(self) -> bool:
        """No contact left between the two armies."""
        return is_race(self.boards[O], self.boards[X])

    def _gammons_count(self) -> bool:
        """False while the Jacoby rule makes gammons single (money play, cube not turned)."""
        return not (self.jacoby and self.match_length == 0 and self.cube_value == 1)

    def _doubling_possible(self) -> bool:
        return self.cube_enabled and not self.crawford and self.cube_value < MAX_CUBE

    # ------------------------------------------------------------- protocol
    @classmethod
    def initial(
        cls,
        *,
        cube_enabled: bool = True,
        jacoby: bool = False,
        match_length: int = 0,
        score: tuple[int, int] = (0, 0),
        crawford: bool = False,
    ) -> BackgammonState:
        """The starting position before the opening roll: money play (cube on by default),
        or a game of a match to ``match_length`` at ``score`` (O's points, X's points),
        ``crawford`` when it is the Crawford game. ``BadPositionError`` for a match that
        cannot be (a finished one, Jacoby in a match, Crawford at another score, ...)."""
        if isinstance(match_length, bool) or not isinstance(match_length, int) or not 0 <= match_length <= gnubg_ids.MAX_MATCH_LENGTH:
            raise BadPositionError(f"a match is 1-{gnubg_ids.MAX_MATCH_LENGTH} points long (0 = money play), not {match_length!r}")
        if (
            not isinstance(score, tuple)
            or len(score) != 2
            or not all(isinstance(points, int) and not isinstance(points, bool) and points >= 0 for points in score)
        ):
            raise BadPositionError(f"a match score is two whole numbers of points, not {score!r}")
        if match_length == 0 and score != (0, 0):
            raise BadPositionError(f"money play has no match score ({score[0]}-{score[1]})")
        gnubg_ids.check_match_rules(
            MatchKey(
                game_state=gnubg_ids.GAME_NOT_STARTED,
                match_length=match_length,
                score=score,
                crawford=bool(crawford),
                jacoby=jacoby,
                cubeless=not cube_enabled,
            )
        )
        return cls(cube_enabled=cube_enabled, jacoby=jacoby, match_length=match_length, score=score, crawford=bool(crawford))

    def to_move(self) -> Player:
        phase = self.phase
        if phase == OPENING or phase == ROLL:
            return CHANCE
        if phase == TAKE_DECISION:
            return 1 - self.player
        return self.player

    def legal_moves(self) -> list[Move]:
        phase = self.phase
        if phase == CHECKER_PLAY:
            if self._cached_key != self._key:
                mover = self.player
                self._cached_moves = generate_plays(
                    self.boards[mover], self.boards[1 - mover], self.dice[0], self.dice[1]
                )
                self._cached_key = self._key
            return list(self._cached_moves)
        if phase == CUBE_DECISION:
            return [NO_DOUBLE, DOUBLE]
        if phase == TAKE_DECISION:
            return [TAKE, DROP]
        if phase == ROLL or phase == OPENING:
            return [outcome for outcome, _ in self.chance_outcomes()]
        return []

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.phase == ROLL:
            return list(ROLL_OUTCOMES)
        if self.phase == OPENING:
            return list(OPENING_OUTCOMES)
        raise ValueError(f"no dice are rolled in the {self.phase.label} phase")

    def roll_moves(self, text: str) -> list[Move]:
        """The moves that roll the dice ``text`` (``3-1``) from here.

        A gnubg position is usually at the cube decision of the player on roll: that player
        rolls without doubling (``roll``), then the dice are thrown. Positions where the roll
        cannot come next (a take pending, the game over, other dice already rolled) are
        errors that say why; dice equal to the ones already rolled need no move.
        """
        if self.phase == GAME_OVER:
            raise IllegalMoveError("the game is over in this position, nothing is rolled any more")
        moves: list[Move] = []
        if self.phase == CUBE_DECISION:  # roll without doubling
            moves.append(NO_DOUBLE)
        elif self.phase == TAKE_DECISION:
            raise IllegalMoveError(
                f"a double is pending: {PLAYER_NAMES[1 - self.player]} must take or drop "
                f"before {PLAYER_NAMES[self.player]} rolls"
            )
        elif self.phase == CHECKER_PLAY:
            wanted = notation.parse_roll(text)
            if wanted == self.dice:
                return []  # the position already has exactly these dice
            raise IllegalMoveError(
                f"the dice disagree with the position: {PLAYER_NAMES[self.player]}'s dice are already "
                f"rolled ({notation.roll_name(self.dice)})"
            )
        rolled = self.copy()
        for move in moves:
            rolled.play(move)
        return [*moves, rolled.parse_move(text)]

    def play(self, move: Move) -> None:
        snapshot = _record(self)
        phase = self.phase
        hits: list[bool] | None = None
        if phase == CHECKER_PLAY:
            hits = self._play_checkers(move)
        elif phase == ROLL:
            self.dice = move
            self.phase = CHECKER_PLAY
        elif phase == CUBE_DECISION:
            self.phase = TAKE_DECISION if move == DOUBLE else ROLL
        elif phase == TAKE_DECISION:
            if move == TAKE:
                self.cube_value *= 2
                self.cube_owner = 1 - self.player
                self.phase = ROLL
            else:
                self._end_game(self.player, self.cube_value, dropped=True)
        elif phase == OPENING:
            first, second = move
            self.player = O if first > second else X
            self.dice = (max(first, second), min(first, second))
            self.phase = CHECKER_PLAY
        else:
            raise IllegalMoveError("the game is over: no move is legal")
        self._key = self._checker_key ^ self._state_key()
        self.history.append((snapshot, move, hits))

    def _play_checkers(self, play: Play) -> list[bool]:
        mover = self.player
        mine, theirs = self.boards[mover], self.boards[1 - mover]
        my_keys, their_keys = CHECKER_KEYS[mover], CHECKER_KEYS[1 - mover]
        key = self._checker_key
        hits = []
        for source, target in play:
            count = mine[source]
            key ^= my_keys[source][count] ^ my_keys[source][count - 1]
            mine[source] = count - 1
            count = mine[target]
            key ^= my_keys[target][count] ^ my_keys[target][count + 1]
            mine[target] = count + 1
            hit = bool(target) and theirs[BAR - target] == 1
            if hit:
                blot = BAR - target
                bar_count = theirs[BAR]
                key ^= their_keys[blot][1] ^ their_keys[blot][0]
                key ^= their_keys[BAR][bar_count] ^ their_keys[BAR][bar_count + 1]
                theirs[blot] = 0
                theirs[BAR] = bar_count + 1
            hits.append(hit)
        self._checker_key = key
        self.dice = (0, 0)
        if mine[OFF] == CHECKERS:
            self._end_game(mover, self.cube_value * self._result_multiplier(mover), dropped=False)
        else:
            self.player = 1 - mover
            self.phase = CUBE_DECISION if self.can_double(self.player) else ROLL
        return hits

    def _result_multiplier(self, winner: Player) -> int:
        loser = self.boards[1 - winner]
        if loser[OFF] or not self._gammons_count():
            return SINGLE
        # The winner's home board is the loser's points 19..24.
        if loser[BAR] or any(loser[point] for point in range(BAR - HOME_POINTS, BAR)):
            return BACKGAMMON
        return GAMMON

    def _end_game(self, winner: Player, points: int, dropped: bool) -> None:
        self.phase = GAME_OVER
        self.player = winner
        self.game_winner = winner
        self.points = points
        self.dropped = dropped

    def undo(self) -> None:
        snapshot, move, hits = self.history.pop()
        _restore(self, snapshot)
        if hits is not None:
            take_back(self.boards[self.player], self.boards[1 - self.player], move, hits)

    def copy(self) -> BackgammonState:
        clone = BackgammonState.__new__(BackgammonState)
        for name in self.__slots__:
            setattr(clone, name, getattr(self, name))
        clone.boards = [list(self.boards[O]), list(self.boards[X])]
        clone.history = list(self.history)
        clone._cached_moves = list(self._cached_moves)
        return clone

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def utility(self, player: Player) -> float:
        """+-points at the end of a money game; in a match, the match equity the result
        leaves (normalized: see module doc)."""
        if self.phase != GAME_OVER:
            return 0.0
        won = self.points if player == self.game_winner else -self.points
        if self.match_length:
            context = self.match_context(player)
            return match_cube.normalized(context.after(won), context)
        return float(won)

    def winner(self) -> Player | None:
        """Who won the game (never a draw): read from the result, not from ``utility``'s
        sign, which in a match is the match equity the result leaves."""
        return self.game_winner if self.phase == GAME_OVER else None

    def stake(self) -> float:
        """The cube in money play; in a match the cube's worth at the score against one
        point (``match_cube.cube_weight``): an equity over the stake is then per unit of the
        cube in both, as GNU Backgammon normalises errors (EMG in a match)."""
        if self.match_length:
            return match_cube.cube_weight(self.match_context(O))
        return float(self.cube_value)

    def forfeit_points(self) -> float | None:
        """A money game forfeited is lost at the cube's value, as a single game; in a match
        the match layer scores it (a flag loses the match: WBF and USBGF clock rules)."""
        return None if self.match_length else float(self.cube_value)

    def _match_equity_limit(self) -> float:
        """The largest normalized match equity either player can reach (MWC 1)."""
        return max(match_cube.normalized(1.0, self.match_context(player)) for player in (O, X))

    def utility_bounds(self) -> tuple[float, float]:
        """Sound bounds of the result from here, in points.

        Without further doubling: 3 times the cube (a backgammon), or 1 times it while the
        Jacoby rule keeps gammons single. When the cube can still be turned, nothing but the
        Match ID's 32768 limit bounds it, so the bound is 3 * 32768: sound but loose, which
        makes Star1/Star2 pruning ineffective in cube games (search the cubeless game with
        ``cube_enabled=False`` for tight bounds).
        """
        if self.match_length:
            top = self._match_equity_limit()
            return (-top, top)
        if self.phase == GAME_OVER:
            return (-float(self.points), float(self.points))
        if self._doubling_possible():
            top = float(evaluation.EQUITY_LIMIT * MAX_CUBE)
        else:
            top = float(self._equity_limit() * self.cube_value)
        return (-top, top)

    def _equity_limit(self) -> float:
        return evaluation.EQUITY_LIMIT if self._gammons_count() else float(SINGLE)

    def termination_reason(self) -> str:
        if self.phase != GAME_OVER:
            return ""
        name = PLAYER_NAMES[self.game_winner]
        plural = "s" if self.points != 1 else ""
        if self.dropped:
            return f"{PLAYER_NAMES[1 - self.game_winner]} dropped the cube: {name} wins {self.points} point{plural}"
        multiplier = self.points // self.cube_value
        return f"{name} bore off all checkers and wins {RESULT_NAMES[multiplier]}: {self.points} point{plural}"

    def key(self) -> int:
        return self._key

    def encode_move(self, move: Move) -> int:
        """The move's integer code (``codec``: the same for every position)."""
        return codec.encode_move(move)

    def decode_move(self, code: int) -> Move:
        return codec.decode_move(code)

    def _state_key(self) -> int:
        """Zobrist part of everything but the checkers (recomputed: a handful of lookups)."""
        key = PHASE_KEYS[self.phase * 2 + self.player] ^ DICE_KEYS[self.dice[0] * DIE_VALUES + self.dice[1]]
        key ^= CUBE_KEYS[(self.cube_value.bit_length() - 1) * CUBE_OWNERS + self.cube_owner + 1]
        if not self.cube_enabled:
            key ^= CUBELESS_KEY
        if self.jacoby:
            key ^= JACOBY_KEY
        if self.crawford:
            key ^= CRAWFORD_KEY
        if self.dropped:
            key ^= DROPPED_KEY
        if self.match_length:
            key ^= (
                MATCH_LENGTH_KEY * self.match_length
                ^ SCORE0_KEY * (self.score[0] + 1)
                ^ SCORE1_KEY * (self.score[1] + 1)
            ) & MASK64
        return key

    # ------------------------------------------------------------ knowledge
    def capture_score(self, move: Move) -> int:
        """Pips the opponent loses to the play's hits (a blot hit on my point p loses p)."""
        if self.phase != CHECKER_PLAY or not isinstance(move, tuple):
            return 0
        mover = self.player
        return sum(hit_points(self.boards[mover], self.boards[1 - mover], move))

    def _on_roll(self) -> Player | None:
        """The player who rolls next (the doubler while a take is pending); ``None`` at the
        opening roll."""
        return None if self.phase == OPENING else self.player

    def _linear_terms(self, player: Player) -> tuple[tuple[str, ...], dict[str, float], tuple[float, ...]]:
        board, opponent = self.boards[player], self.boards[1 - player]
        on_roll = self._on_roll()
        sign = 0 if on_roll is None else (1 if on_roll == player else -1)
        if is_race(board, opponent):
            return evaluation.RACE_FEATURES, self.race_weights, evaluation.race_values(board, opponent, sign)
        return evaluation.CONTACT_FEATURES, self.contact_weights, evaluation.contact_values(board, opponent, sign)

    def chances(self, player: Player) -> network.Probabilities:
        """The network's five chances (``network.OUTPUTS``) for ``player``, cubeless.

        The network reads positions from the side on roll; for the other side its answer is
        flipped, so both players' chances are the same numbers seen from two sides. Before the
        opening roll nobody is on roll: the average of both readings. After a dance (the side
        not on roll is on the bar) the network is blind (``network.is_trained_position``):
        the side on roll looks one roll ahead (``network.lookahead_probabilities``; the known
        dice only once they are rolled), so that a search that reaches the position after
        the opponent's dance scores it as well as the position after a play."""
        net = network.current_network()
        board, opponent = self.boards[player], self.boards[1 - player]
        on_roll = self._on_roll()
        if on_roll is not None and not network.is_trained_position(self.boards[on_roll], self.boards[1 - on_roll]):
            rolls = ((self.dice, 1.0),) if self.phase == CHECKER_PLAY else ROLL_OUTCOMES
            ahead = network.lookahead_probabilities(
                net, self.boards[on_roll], self.boards[1 - on_roll], rolls, self._gammons_count()
            )
            return ahead if on_roll == player else network.flip(ahead)
        if on_roll == player:
            return net.probabilities(board, opponent)
        if on_roll is not None:
            return network.flip(net.probabilities(opponent, board))
        mine, theirs = net.probabilities(board, opponent), network.flip(net.probabilities(opponent, board))
        return tuple((a + b) / 2 for a, b in zip(mine, theirs))  # type: ignore[return-value]

    def evaluate(self, player: Player) -> float:
        """Equity estimate for ``player`` in points.

        Cubeless games (and match play, scored here in points): cube * the network's cubeless
        equity. Money games with a live cube: cube * Janowski's cubeful equity (``cube``) from
        the same chances, and at a cube decision the value with both sides deciding right
        (double when it gains, take when taking loses less than passing), so that a search
        doubles, takes and passes by the chances. In a match: ``match_winning_chance`` as
        normalized match equity (module doc)."""
        if self.phase == GAME_OVER:
            return self.utility(player)
        on_roll = self._on_roll()
        if on_roll is not None and on_roll != player:
            return -self.evaluate(on_roll)  # exactly antisymmetric
        if self.match_length:
            return match_cube.normalized(self._match_chance(player), self.match_context(player))
        chances = self.chances(player)
        if on_roll is None or not self._cube_is_live():
            return self.cube_value * network.cubeless_equity(chances, self._gammons_count())
        return self.cube_value * self._cubeful_value(player, chances)

    def match_context(self, player: Player) -> match_cube.MatchContext:
        """The match score from ``player``'s side (away scores, cube, Crawford game)."""
        if not self.match_length:
            raise ValueError("money play has no match score")
        return match_cube.MatchContext(
            self.match_length - self.score[player], self.match_length - self.score[1 - player], self.cube_value, self.crawford
        )

    def match_winning_chance(self, player: Player) -> float:
        """``player``'s chance to win the match from here (0..1): the cubeful MWC of the
        match cube model (``match_cube``) from the network's chances; at the end of a game,
        the match equity table's value of the new score."""
        if self.phase == GAME_OVER:
            won = self.points if player == self.game_winner else -self.points
            return self.match_context(player).after(won)
        on_roll = self._on_roll()
        if on_roll is not None and on_roll != player:
            return 1.0 - self.match_winning_chance(on_roll)
        return self._match_chance(player)

    def _match_chance(self, player: Player) -> float:
        """The MWC of ``player``, who is on roll (or nobody is, before the opening roll)."""
        context = self.match_context(player)
        chances = self.chances(player)
        if self._on_roll() is None or not self.cube_enabled:
            return match_cube.dead_cube_mwc(chances, context)
        if self.phase in (CUBE_DECISION, TAKE_DECISION):
            decision = self._match_cube_decision(player, chances)
            return decision.after_double if self.phase == TAKE_DECISION else decision.best
        ownership: cube.Ownership = (
            "centred" if self.cube_owner == CENTRED else "mine" if self.cube_owner == player else "theirs"
        )
        efficiency = match_cube.efficiency(self.boards[player], self.boards[1 - player])
        return match_cube.cubeful_mwc(chances, context, ownership, efficiency)

    def _match_cube_decision(self, on_roll: Player, chances: network.Probabilities) -> cube.CubeDecision:
        """The match cube decision from the network's chances as they are, as in money play
        (measured against gnubg's 0-ply decisions at match scores: ``tools/backgammon_match_cube.py``)."""
        board, opponent = self.boards[on_roll], self.boards[1 - on_roll]
        return match_cube.match_cube_decision(
            chances,
            self.match_context(on_roll),
            self.cube_owner == CENTRED,
            match_cube.efficiency(board, opponent),
        )

    def _cube_is_live(self) -> bool:
        """Money play with the cube in use and still turnable by somebody."""
        return self._doubling_possible() and self.match_length == 0

    def _cubeful_value(self, on_roll: Player, chances: network.Probabilities) -> float:
        """Cubeful equity per unit of cube for the player on roll, at this phase."""
        efficiency = cube.cube_efficiency(self.is_race(), pip_count(self.boards[on_roll]))
        gammons_count = self._gammons_count()
        if self.phase in (CUBE_DECISION, TAKE_DECISION):  # valued as cube_advice decides it
            decision = cube.cube_decision(chances, self.cube_owner == CENTRED, efficiency, gammons_count)
            # At a take decision the doubler's view: the opponent answers right.
            return decision.after_double if self.phase == TAKE_DECISION else decision.best
        ownership: cube.Ownership = (
            "centred" if self.cube_owner == CENTRED else "mine" if self.cube_owner == on_roll else "theirs"
        )
        return cube.cubeful_equity(chances, ownership, efficiency, gammons_count)

    def forced_answer(self) -> Move | None:
        """At a cube or take decision (a live-cube money game or a match), the decision the
        chances give (``cube_advice``), answered without a search as gnubg answers cube decisions
        by evaluation. A search would compare "no double" searched a ply deeper than
        "double, take" (the take decision spends a ply), which favours not doubling."""
        advice = self.cube_advice()
        if advice is None:
            return None
        if self.phase == CUBE_DECISION:
            return DOUBLE if advice.should_double else NO_DOUBLE
        return TAKE if advice.should_take else DROP

    def cube_advice(self) -> cube.CubeDecision | None:
        """The cube decision of the player on roll from the network's chances (0 ply), at a
        cube or take decision: per unit of the cube in a live-cube money game, in match
        winning chances in a match (``match_cube``); ``None`` elsewhere."""
        if self.phase not in (CUBE_DECISION, TAKE_DECISION):
            return None
        if self.match_length:
            return self._match_cube_decision(self.player, self.chances(self.player))
        if not self._cube_is_live():
            return None
        efficiency = cube.cube_efficiency(self.is_race(), pip_count(self.boards[self.player]))
        return cube.cube_decision(
            self.chances(self.player), self.cube_owner == CENTRED, efficiency, self._gammons_count()
        )

    def evaluation_features(self, player: Player) -> Mapping[str, tuple[float, float]]:
        """EVAL as a named sum: the network's chances for ``player`` with their weights in the
        cubeless equity (win 2, gammons +-1, backgammons +-1, the constant -1), then ``cube``:
        what the cube adds (its value, ownership and a pending decision), so that the
        breakdown sums to ``evaluate``."""
        if self.phase == GAME_OVER:
            return {"result": (1.0, self.utility(player))}
        win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = self.chances(player)
        gammon_weight = 1.0 if self._gammons_count() else 0.0
        features = {
            "win": (2.0, win),
            "constant": (-1.0, 1.0),
            "win_gammon": (gammon_weight, win_gammon),
            "win_backgammon": (gammon_weight, win_backgammon),
            "lose_gammon": (-gammon_weight, lose_gammon),
            "lose_backgammon": (-gammon_weight, lose_backgammon),
        }
        cubeless = sum(weight * value for weight, value in features.values())
        features["cube"] = (1.0, self.evaluate(player) - cubeless)
        return features

    def linear_evaluate(self, player: Player) -> float:
        """The hand-featured linear EVAL (``evaluation``): cube * limit * tanh(linear / limit).
        Kept as the measured baseline of the network (bench/backgammon_eval.py)."""
        if self.phase == GAME_OVER:
            return self.utility(player)
        names, weights, values = self._linear_terms(player)
        linear = 0.0
        for name, value in zip(names, values):
            linear += weights[name] * value
        return self.cube_value * evaluation.squash(linear, self._equity_limit())

    # ----------------------------------------------------------------- text
    def match_key(self) -> MatchKey:
        """The Match ID fields of this state."""
        phase = self.phase
        game_state = gnubg_ids.GAME_PLAYING
        if phase == OPENING:
            game_state = gnubg_ids.GAME_NOT_STARTED
        elif phase == GAME_OVER:
            game_state = gnubg_ids.GAME_DROPPED if self.dropped else gnubg_ids.GAME_OVER
        turn = 1 - self.player if phase == TAKE_DECISION or (phase == GAME_OVER and self.dropped) else self.player
        return MatchKey(
            cube_value=self.cube_value,
            cube_owner=self.cube_owner,
            player_on_roll=self.player,
            crawford=self.crawford,
            game_state=game_state,
            turn=turn,
            doubled=phase == TAKE_DECISION,
            dice=self.dice,
            match_length=self.match_length,
            score=self.score,
            cubeless=not self.cube_enabled,
            jacoby=self.jacoby,
            declined_double=phase == ROLL and self.can_double(self.player),
            gnubg_jacoby_off=self.gnubg_jacoby_off,
        )

    def position_id(self) -> str:
        """gnubg's 14-character Position ID (the player on roll's checkers second)."""
        return gnubg_ids.encode_position_id(self.boards[1 - self.player], self.boards[self.player])

    def match_id(self) -> str:
        """gnubg's 12-character Match ID (plus Plyground's spare-bit rule flags)."""
        return gnubg_ids.encode_match_id(self.match_key())

    def to_text(self) -> str:
        return f"{self.position_id()}:{self.match_id()}"

    @classmethod
    def from_text(cls, text: str) -> BackgammonState:
        """``PositionID:MatchID`` (gnubg's ``set gnubgid`` form, with or without the
        command), the two ids separated by white space, gnubg's labelled display
        (``Position ID: ...  Match ID: ...``, other text around it ignored), or a bare
        Position ID.

        A bare Position ID is a money game with a centred cube, X on roll, dice not rolled.
        """
        if not isinstance(text, str):
            raise BadPositionError(f"a gnubg id is text, not {type(text).__name__}")
        position_text, match_text = gnubg_ids.split_gnubg_ids(text)
        match = MatchKey() if match_text is None else gnubg_ids.decode_match_id(match_text)
        return cls._from_match_key(position_text, match)

    @classmethod
    def _from_match_key(cls, position_text: str, match: MatchKey) -> BackgammonState:
        on_roll = O if match.game_state == gnubg_ids.GAME_NOT_STARTED else match.player_on_roll
        names = (PLAYER_NAMES[1 - on_roll], PLAYER_NAMES[on_roll])
        not_on_roll_board, on_roll_board = gnubg_ids.decode_position_id(position_text, names)
        boards: list[Board] = [empty_board(), empty_board()]
        boards[on_roll], boards[1 - on_roll] = on_roll_board, not_on_roll_board
        gnubg_ids.check_match_rules(match)
        gnubg_ids.check_boards(boards[O], boards[X])
        state = cls(
            (boards[O], boards[X]),
            player=on_roll,
            cube_value=match.cube_value,
            cube_owner=match.cube_owner,
            cube_enabled=not match.cubeless,
            jacoby=match.jacoby,
            match_length=match.match_length,
            score=match.score,
            crawford=match.crawford,
            gnubg_jacoby_off=match.gnubg_jacoby_off,
        )
        state._set_phase_from(match)
        state._key = state._checker_key ^ state._state_key()
        return state

    def _set_phase_from(self, match: MatchKey) -> None:
        """Set phase, dice and result from the Match ID; reject what cannot happen."""
        name = PLAYER_NAMES[self.player]
        finished = [player for player in (O, X) if self.boards[player][OFF] == CHECKERS]
        if match.game_state == gnubg_ids.GAME_NOT_STARTED:
            if match.dice != (0, 0) or match.doubled:
                raise BadPositionError("the match id says no game has started, yet dice or a double are set")
            self.phase = OPENING
            return
        if match.game_state == gnubg_ids.GAME_OVER:
            if not finished:
                raise BadPositionError(
                    "the match id says the game is over, but neither player has borne off all 15 checkers"
                )
            self.player = finished[0]
            self._end_game(finished[0], self.cube_value * self._result_multiplier(finished[0]), dropped=False)
            return
        if match.game_state == gnubg_ids.GAME_DROPPED:
            self._end_game(self.player, self.cube_value, dropped=True)
            return
        if finished:
            raise BadPositionError(
                f"{PLAYER_NAMES[finished[0]]} has borne off all 15 checkers, so the game is over, "
                "but the match id says it is still being played"
            )
        if match.doubled:
            if match.turn == self.player:
                raise BadPositionError(f"{name} has offered a double, so the other player must decide (turn bit)")
            if match.dice != (0, 0):
                raise BadPositionError("a double is offered before rolling, but the dice are set")
            if not self.can_double(self.player):
                raise BadPositionError(f"{name} has offered a double but may not double ({self._cube_text()})")
            self.phase = TAKE_DECISION
            return
        if match.turn != self.player:
            raise BadPositionError(f"{name} is on roll but the match id gives the decision to the other player")
        if match.dice == (0, 0):
            if match.declined_double and not self.can_double(self.player):
                raise BadPositionError(f"the match id says {name} declined to double, but {name} may not double")
            self.phase = ROLL if match.declined_double or not self.can_double(self.player) else CUBE_DECISION
            return
        if 0 in match.dice:
            raise BadPositionError(f"only one die is set ({match.dice[0]} and {match.dice[1]})")
        if match.declined_double:
            raise BadPositionError("the declined-double flag is set although the dice are already rolled")
        self.dice = (max(match.dice), min(match.dice))
        self.phase = CHECKER_PLAY

    def _cube_text(self) -> str:
        if not self.cube_enabled:
            return "cube play is off"
        if self.crawford:
            return "this is the Crawford game"
        if self.match_length and self.score[self.player] + self.cube_value >= self.match_length:
            away = self.match_length - self.score[self.player]
            return f"{PLAYER_NAMES[self.player]} needs {away} point{'s' if away != 1 else ''}: the cube at {self.cube_value} is dead"
        if self.cube_owner == CENTRED:
            return f"the cube is centred at {self.cube_value}"
        return f"{PLAYER_NAMES[self.cube_owner]} owns the cube at {self.cube_value}"

    @classmethod
    def from_points(
        cls,
        on_roll: Mapping[int, int],
        opponent: Mapping[int, int],
        *,
        player: Player = X,
        dice: Roll | None = None,
        cube_enabled: bool = True,
        jacoby: bool = False,
        cube_value: int = 1,
        cube_owner: int = CENTRED,
    ) -> BackgammonState:
        """A money-game position from ``{point: checkers}`` maps in each owner's numbering
        (25 = bar); checkers not placed are borne off. With ``dice`` the player on roll is to
        play them, else to double or roll. Validated like ``from_text``."""
        if dice is not None and not all(notation.is_die(die) for die in dice):
            raise BadPositionError(f"dice {dice} are not two dice 1-6")
        boards: list[Board] = [empty_board(), empty_board()]
        for owner, placement in ((player, on_roll), (1 - player, opponent)):
            for point, count in placement.items():
                if not 1 <= point <= BAR or count < 0:
                    raise BadPositionError(f"{PLAYER_NAMES[owner]}: {count} checkers on point {point} is impossible")
                boards[owner][point] += count
            placed = sum(boards[owner])
            if placed > CHECKERS:
                raise BadPositionError(f"{PLAYER_NAMES[owner]} has {placed} checkers (at most {CHECKERS})")
            boards[owner][OFF] = CHECKERS - placed
        match = MatchKey(
            cube_value=cube_value,
            cube_owner=cube_owner,
            player_on_roll=player,
            turn=player,
            dice=dice if dice is not None else (0, 0),
            cubeless=not cube_enabled,
            jacoby=jacoby,
        )
        position = gnubg_ids.encode_position_id(boards[1 - player], boards[player])
        return cls._from_match_key(position, match)

    def parse_move(self, text: str) -> Move:
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move is text, not {type(text).__name__}")
        phase = self.phase
        if phase == GAME_OVER:
            raise IllegalMoveError("the game is over: no move is legal")
        if phase == OPENING:
            return self._parse_opening(text)
        if phase == ROLL:
            return notation.parse_roll(text)
        if phase in (CUBE_DECISION, TAKE_DECISION):
            return self._parse_cube_action(text)
        return self._parse_play(text)

    def _parse_opening(self, text: str) -> Roll:
        words = text.strip().split()
        starters = [word for word in words if word.upper() in PLAYER_NAMES]
        dice_words = [word for word in words if word.upper() not in PLAYER_NAMES]
        if len(starters) > 1 or not dice_words:
            raise IllegalMoveError(
                f"{text!r}: an opening roll is two dice, optionally with who threw the higher one, "
                f"e.g. 'X 6-5' (X threw the 6)"
            )
        high, low = notation.parse_roll(" ".join(dice_words))
        if high == low:
            raise IllegalMoveError(f"{text!r}: the opening roll cannot be a double (equal dice are thrown again)")
        # A bare roll ("6-5", as gnubg and ``perft --dice`` give it) goes to the side the
        # position names as on roll.
        starter = PLAYER_NAMES.index(starters[0].upper()) if starters else self.player
        return (high, low) if starter == O else (low, high)

    def _parse_cube_action(self, text: str) -> str:
        action = notation.cube_action(text)
        expected = (NO_DOUBLE, DOUBLE) if self.phase == CUBE_DECISION else (TAKE, DROP)
        if action not in expected:
            who = PLAYER_NAMES[self.to_move()]
            raise IllegalMoveError(f"{text!r}: {who} must answer the cube first: {expected[0]} or {expected[1]}")
        return action

    def _parse_play(self, text: str) -> Play:
        mover = self.player
        names = (PLAYER_NAMES[mover], PLAYER_NAMES[1 - mover])
        return notation.match_play(text, self.boards[mover], self.boards[1 - mover], self.dice, self.legal_moves(), names)

    def move_name(self, move: Move) -> str:
        phase = self.phase
        if isinstance(move, str):
            return move
        if phase == OPENING and isinstance(move, tuple) and len(move) == 2 and all(isinstance(die, int) for die in move):
            first, second = move
            return f"{PLAYER_NAMES[O if first > second else X]} {notation.roll_name(move)}"
        if phase == ROLL and isinstance(move, tuple) and len(move) == 2 and all(isinstance(die, int) for die in move):
            return notation.roll_name(move)
        if phase == CHECKER_PLAY and isinstance(move, tuple) and all(isinstance(hop, tuple) for hop in move):
            mover = self.player
            return notation.format_play(self.boards[mover], self.boards[1 - mover], move)
        return repr(move)

    # ------------------------------------------------------------- display
    def __str__(self) -> str:
        """A gnubg-style text diagram: X at the bottom, points in X's numbering."""
        return diagram(self)



__all__ = [
    "CHECKER_PLAY",
    "CUBE_DECISION",
    "GAME_OVER",
    "MAX_CUBE",
    "OPENING",
    "OPENING_OUTCOMES",
    "PHASE_NAMES",
    "PLAYER_NAMES",
    "RESULT_NAMES",
    "ROLL",
    "ROLL_OUTCOMES",
    "SNAPSHOT_FIELDS",
    "TAKE_DECISION",
    "BackgammonState",
    "O",
    "Phase",
    "X",
]
