/*
 * games.othello._fast.Searcher: the compiled Othello search, the engine's ``native``
 * algorithm for Othello (games/othello/native.py is its Python side).
 *
 * Why: the readable search (ai/search over OthelloState) visits ~200k nodes a second, each
 * paying Python's ~1 us an operation for a few bit operations. This file searches the same
 * tree at C speed:
 *  - the same rules: a side without a move passes (the pass is a move and uses a ply of
 *    depth, as OthelloState's PASS does); a position where neither side can move is over and
 *    scores its exact final margin (empties to the winner) times ``margin_scale``;
 *  - the same EVAL at the horizon: othello_evaluate (_fast.c, the double of
 *    evaluation.evaluate_to_move) clamped to +-``eval_limit``, exactly OthelloState.evaluate;
 *  - the same exact solver at the same reach: at most ``solver_empties`` empties inside the
 *    tree and at the horizon, at most ``root_solver_empties`` at the root, through the
 *    ``solve`` callable (games.othello.exact's solver, C when built); solved values are
 *    stored as exact at any depth, as the Python search's try_solver does;
 *  - PVS (Reinefeld 1983; Marsland & Campbell 1982) with iterative deepening, aspiration
 *    windows, a transposition table, and move ordering by the table's move, killers and
 *    history. No forward pruning and no reductions: at a fixed depth the value is the
 *    Python PVS's (and plain minimax's) with the ``exact`` settings, to the last bit of the
 *    double (scores are the very doubles Python compares; a null window is (alpha,
 *    nextafter(alpha)), as ai.search.pvs's next_up).
 * threads > 1: Lazy SMP, helper threads searching the same root beside it and sharing the
 *    table; only the thread Python called solves (a helper evaluates there instead).
 * The GIL is released while it runs, taken back for poll and solve.
 */

#include "_fast.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define SQUARES 64
#define PASS 64       /* state.PASS: the pass move */
#define NO_MOVE 255   /* a table entry without a best move */
#define MAX_PLY 128   /* a game has at most 60 placements and fewer passes */
#define MAX_DEPTH 100
#define MAX_MOVES 36  /* at most 33 legal moves in any Othello position */
#define DEFAULT_POLL_INTERVAL 4096
#define SOLVED_DEPTH 255 /* a table entry that is exact at any depth */

/* The shared deepening half reads MATE_BOUND for mate scores; Othello has none (its proven
 * values are final margins on the EVAL's scale), so no score comes near it. */
#define MATE_BOUND (1 << 30)
#define INFINITE_SCORE 1e18

/* The root's exact solve is tried at this iteration: a stop or a deadline during the solve
 * (a 20-empty solve takes a few tenths of a second, some several seconds) then answers with
 * this deep a search's move, not depth 1's, and depths 1-5 cost a few milliseconds there.
 * The solve's own poll (``solver_poll``) gives it up at its share of the move's limits
 * (ai.search.native.root_solve_poll, as ai.search.common.solve_root in the Python search):
 * then the deepening goes on from this depth in what is left. */
#define ROOT_SOLVE_DEPTH 6

/* Aspiration windows: one disc wide around the score two iterations back (see search_root),
 * doubled on each fail. From the start and eight random positions to depth 11 and 12 they
 * saved 2-3% of the nodes against no window (28.4M against 29.1M, 70.9M against 73.0M); a
 * window around the last score, as chess and checkers centre it, cost 8% more nodes. */
#define ASPIRATION_MIN_DEPTH 5
#define ASPIRATION_WINDOW 100.0 /* one disc of final margin, in hundredths */
#define ASPIRATION_WIDEST 3200.0
#define HISTORY_MAX 16384

#define SEARCH_SCORE double
#define SEARCH_SCORE_CODE "d"
#define SEARCH_SETTLED(s) ((s)->settled)

enum { BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

typedef int Move; /* a square 0..63, or PASS */

/* A table entry: the bookkeeping word and the score's double, written with the key as
 * three words (check = key ^ data ^ score) so that threads sharing the table without locks
 * never take a torn entry for a valid one. */
typedef struct {
    uint8_t depth;
    uint8_t generation_bound; /* generation << 2 | bound; 0: an empty slot */
    uint8_t move;             /* best move; NO_MOVE: none */
    uint8_t unused[5];
} TTEntryWord;

typedef struct {
    uint8_t depth;
    uint8_t generation_bound;
    uint8_t move;
    double score;
} TTEntry;

typedef struct {
    u64 check, data, score;
} TTSlot;

#define TT_BUCKET 2 /* [0] deepest, [1] newest */
#define HASHFULL_SAMPLE 2000

typedef struct {
    TTSlot slot[TT_BUCKET];
} TTBucket;

typedef struct {
    u64 p, o; /* the side to move's discs, the other side's */
} Position;

typedef struct {
    Move moves[MAX_MOVES];
    int scores[MAX_MOVES];
    int count;
} MoveList;

typedef struct Searcher {
    PyObject_HEAD
    TTBucket *table;
    size_t bucket_count;
    uint8_t generation;
    int table_used; /* a search has written to the table since it was made or cleared */
    /* what the table's values were computed with: cleared when any of it changes */
    unsigned long model_version;
    double eval_limit, margin_scale;
    int solver_empties, root_solver_empties, has_signature;
    PyObject *solve, *solver_poll;
    int settled;       /* the last iteration's value is exact: deeper ones change nothing */
    double iteration_scores[MAX_DEPTH + 1]; /* each completed iteration's score */
    u64 horizon_leaves; /* leaves the depth limit cut (EVAL, or a table entry that is not exact) */
    int history[2][SQUARES + 1];
    Move killers[MAX_PLY][2];
    Position stack[MAX_PLY + 1];
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_length[MAX_PLY + 1];
    u64 *keys; /* unused by Othello (no repetitions); the shared half frees it */
    MoveList root_moves;
    int restricted; /* the root searches only some of its moves */
    int root_depth, seldepth, completed_depth, busy, stopped, deferred;
    int partial_depth, partial_seldepth, partial_length;
    double partial_score;
    Move partial_pv[MAX_PLY + 1];
    u64 nodes, reported, next_poll, qnodes, tt_probes, tt_hits, cutoffs, first_move_cutoffs;
    long long poll_interval;
    PyObject *poll;
    PyThreadState *thread;
    PyObject *error_type, *error_value, *error_traceback;
    /* Lazy SMP: helper threads search the same root and share the table */
    struct Searcher **helpers; /* calloc'd plain structs, not Python objects */
    int helper_count, active_helpers, max_depth;
    int stop_helpers;          /* set by the main searcher when it is done */
    const int *stop_flag;      /* a helper's: its main searcher's stop_helpers; NULL: the main one */
} Searcher;

static double search_root(Searcher *s, int depth, double previous);
static int prepare_helper(Searcher *self, Searcher *helper, int index);
static PyObject *line_list(const Move *line, int length);
static void clear_tables(Searcher *s);
static inline u64 read_slot(const TTSlot *slot, TTEntry *entry);
#include "../_native_search.h"

/* ------------------------------------------------------------------ rules */

static u64 RAYS[SQUARES][8]; /* squares beyond s in each direction (0-3 upward, 4-7 downward) */

static void init_rays(void)
{
    static const int step_rank[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    static const int step_file[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    for (int s = 0; s < SQUARES; ++s)
        for (int d = 0; d < 8; ++d) {
            u64 ray = 0;
            for (int r = s / 8 + step_rank[d], f = s % 8 + step_file[d]; r >= 0 && r < 8 && f >= 0 && f < 8;
                 r += step_rank[d], f += step_file[d])
                ray |= 1ULL << (r * 8 + f);
            RAYS[s][d] = ray;
        }
}

/* The discs of o that p playing ``square`` turns over (bitboard.flips). Along each ray the
 * nearest square that is not o's ends the run: it flips the run when it is p's. */
static inline u64 flips(u64 p, u64 o, int square)
{
    u64 flipped = 0;
    const u64 *rays = RAYS[square];
    for (int d = 0; d < 4; ++d) { /* upward: the nearest is the lowest set bit */
        const u64 ray = rays[d], stop = ray & ~o;
        const u64 first = stop & (0 - stop);
        if (first & p) flipped |= (first - 1) & ray;
    }
    for (int d = 4; d < 8; ++d) { /* downward: the nearest is the highest set bit */
        const u64 ray = rays[d], stop = ray & ~o;
        if (!stop) continue;
        const u64 first = 1ULL << (63 - __builtin_clzll(stop));
        if (first & p) flipped |= ray & ~((first << 1) - 1);
    }
    return flipped;
}

/* The child of (p, o) after ``move``, from the new side to move's view. */
static inline void play(const Position *parent, Position *child, Move move)
{
    if (move == PASS) {
        child->p = parent->o;
        child->o = parent->p;
        return;
    }
    const u64 flipped = flips(parent->p, parent->o, move);
    child->p = parent->o ^ flipped;
    child->o = parent->p | flipped | (1ULL << move);
}

/* bitboard.final_margin: the disc difference for p, empty squares to the winner. */
static inline int final_margin(u64 p, u64 o)
{
    const int mine = popcount(p), theirs = popcount(o);
    if (mine > theirs) return SQUARES - 2 * theirs;
    if (mine < theirs) return 2 * mine - SQUARES;
    return 0;
}

/* Leaf count in Aart Bik's convention (OthelloState.perft): a forced pass uses a ply, a
 * finished game is one leaf at any remaining depth. */
static u64 perft(u64 p, u64 o, int depth)
{
    if (depth == 0) return 1;
    u64 moves = legal_moves(p, o);
    if (!moves) return legal_moves(o, p) ? perft(o, p, depth - 1) : 1;
    if (depth == 1) return (u64)popcount(moves);
    u64 total = 0;
    for (; moves; moves &= moves - 1) {
        const Position parent = {p, o};
        Position child;
        play(&parent, &child, __builtin_ctzll(moves));
        total += perft(child.p, child.o, depth - 1);
    }
    return total;
}

/* A position's table key. The value of (p, o) for the side to move does not depend on its
 * colour, so the colour is not hashed: both colours' positions share entries. */
static inline u64 position_key(u64 p, u64 o)
{
    u64 h = p * 0x9E3779B97F4A7C15ULL ^ (o + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 29);
}

/* ------------------------------------------------------------------ table */

static inline u64 double_bits(double value)
{
    u64 bits;
    memcpy(&bits, &value, sizeof bits);
    return bits;
}

/* The slot's entry into ``entry``; returns the key it was stored under (0 when empty). */
static inline u64 read_slot(const TTSlot *slot, TTEntry *entry)
{
    const u64 data = __atomic_load_n(&slot->data, __ATOMIC_RELAXED);
    const u64 score = __atomic_load_n(&slot->score, __ATOMIC_RELAXED);
    const u64 check = __atomic_load_n(&slot->check, __ATOMIC_RELAXED);
    TTEntryWord word;
    memcpy(&word, &data, sizeof word);
    entry->depth = word.depth;
    entry->generation_bound = word.generation_bound;
    entry->move = word.move;
    memcpy(&entry->score, &score, sizeof score);
    return word.generation_bound ? check ^ data ^ score : 0;
}

static int tt_probe(Searcher *s, u64 key, TTEntry *found)
{
    ++s->tt_probes;
    TTBucket *bucket = &s->table[key & (s->bucket_count - 1)];
    for (int i = 0; i < TT_BUCKET; ++i)
        if (read_slot(&bucket->slot[i], found) == key) {
            ++s->tt_hits;
            return 1;
        }
    return 0;
}

static void tt_store(Searcher *s, u64 key, int depth, int bound, double score, Move move)
{
    TTBucket *bucket = &s->table[key & (s->bucket_count - 1)];
    TTEntry first, second;
    const u64 first_key = read_slot(&bucket->slot[0], &first), second_key = read_slot(&bucket->slot[1], &second);
    /* the first slot keeps the deepest entry of this search; the other takes the rest */
    TTSlot *slot = &bucket->slot[0];
    u64 old_key = first_key;
    TTEntry old = first;
    if ((second_key == key && first_key != key) ||
        (first_key != key && first_key && (first.generation_bound >> 2) == s->generation && first.depth > depth)) {
        slot = &bucket->slot[1];
        old_key = second_key;
        old = second;
    }
    TTEntryWord word;
    memset(&word, 0, sizeof word);
    /* a search that found no best move keeps the old one */
    word.move = move != NO_MOVE ? (uint8_t)move : old_key == key ? old.move : NO_MOVE;
    word.depth = (uint8_t)(depth < 0 ? 0 : depth > SOLVED_DEPTH ? SOLVED_DEPTH : depth);
    word.generation_bound = (uint8_t)(s->generation << 2 | bound);
    u64 data;
    memcpy(&data, &word, sizeof data);
    const u64 bits = double_bits(score);
    __atomic_store_n(&slot->data, data, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->score, bits, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->check, key ^ data ^ bits, __ATOMIC_RELAXED);
}

static void clear_tables(Searcher *s)
{
    if (s->table_used) memset(s->table, 0, s->bucket_count * sizeof(TTBucket)); /* a new one is zero */
    s->table_used = 0;
    memset(s->history, 0, sizeof s->history);
    memset(s->killers, 0, sizeof s->killers);
    s->generation = 0;
}

/* ------------------------------------------------------------------ values */

/* OthelloState.evaluate for the side to move of a position that is not over. */
static inline double evaluate(const Searcher *s, u64 p, u64 o, u64 moves)
{
    const double value = othello_evaluate(p, o, moves);
    return value < -s->eval_limit ? -s->eval_limit : value > s->eval_limit ? s->eval_limit : value;
}

#define MARGIN_LIMIT 65 /* the solver's widest window: (-65, 65) */

/* The final margin of (p, o) for p from the solver, fail-soft within the margins (low,
 * high) (exact inside, a bound outside), with a best move (-1: none); 0 when there is no
 * answer: no solver here, a stop under way, the solve failed (which stops the search), or
 * the solve gave way (``solve`` answered None: the root solve spent its share of the
 * move's limits, and the search goes on without it). ``poll``: what the solve reports its
 * nodes to (NULL: nothing). */
static int call_solver(Searcher *s, u64 p, u64 o, PyObject *poll, int low, int high, int *margin, int *move)
{
    if (!s->solve || s->stopped || s->deferred) return 0;
    PyEval_RestoreThread(s->thread);
    PyObject *answer = PyObject_CallFunction(s->solve, "KKOii", (unsigned long long)p, (unsigned long long)o,
                                             poll ? poll : Py_None, low, high);
    int found = 0;
    if (answer == NULL) {
        hold_error(s);
    } else if (answer == Py_None) {
        /* the solve gave way: no answer, and no error */
    } else if (PyArg_ParseTuple(answer, "ii", margin, move)) {
        found = 1;
    } else {
        hold_error(s);
    }
    Py_XDECREF(answer);
    s->thread = PyEval_SaveThread();
    return found;
}

static inline int empties_of(u64 p, u64 o) { return SQUARES - popcount(p | o); }

/* The solver's window for the search's window (alpha, beta): margins (low, high) with
 * low * scale <= alpha and high * scale >= beta, so that a margin the solver proves at or
 * below low (at or above high) is a fail low (high) of the node as well. A null window
 * makes a solve several times cheaper than the whole one. */
static void margin_window(const Searcher *s, double alpha, double beta, int *low, int *high)
{
    double lower = floor(alpha / s->margin_scale), upper = ceil(beta / s->margin_scale);
    if (lower * s->margin_scale > alpha) lower -= 1;
    if (upper * s->margin_scale < beta) upper += 1;
    *low = lower < -MARGIN_LIMIT ? -MARGIN_LIMIT : lower > MARGIN_LIMIT - 1 ? MARGIN_LIMIT - 1 : (int)lower;
    *high = upper > MARGIN_LIMIT ? MARGIN_LIMIT : upper < -MARGIN_LIMIT + 1 ? -MARGIN_LIMIT + 1 : (int)upper;
    if (*high <= *low) *high = *low + 1;
}

/* A solve of (p, o) within the search's window, as a node's value: 1 and ``*value`` (and
 * the bound it is, for the table) when the solver answered. */
static int solve_node(Searcher *s, u64 p, u64 o, double alpha, double beta, double *value, int *bound)
{
    int low, high, margin, move;
    margin_window(s, alpha, beta, &low, &high);
    if (!call_solver(s, p, o, NULL, low, high, &margin, &move)) return 0;
    *value = margin * s->margin_scale;
    *bound = margin <= low ? BOUND_UPPER : margin >= high ? BOUND_LOWER : BOUND_EXACT;
    return 1;
}

/* The horizon (ai.search.quiescence's static leaf): a finished game's margin, the solver's
 * value within its reach, else EVAL. */
static double leaf(Searcher *s, u64 p, u64 o, u64 moves, double alpha, double beta)
{
    if (!moves && !legal_moves(o, p)) return final_margin(p, o) * s->margin_scale;
    if (s->solver_empties && empties_of(p, o) <= s->solver_empties) {
        double value;
        int bound;
        if (solve_node(s, p, o, alpha, beta, &value, &bound)) return value;
        if (s->stopped) return 0;
    }
    ++s->horizon_leaves;
    return evaluate(s, p, o, moves);
}

/* ------------------------------------------------------------------ move order */

#define ORDER_TABLE (1 << 30)
#define ORDER_KILLER (1 << 20)

/* The table's move first, then the killers, then by history. Ordering by the EVAL of each
 * child instead (a one-ply search's order, from depth 2..6 on) saved at most 7% of the
 * nodes to depth 10-12 from the start and six random openings and cost 3-120% more time
 * (CPU seconds, one core): the history already orders Othello's moves about as well. */
static void list_moves(const Searcher *s, u64 moves, int ply, Move table_move, MoveList *list)
{
    list->count = 0;
    if (!moves) {
        list->moves[0] = PASS;
        list->scores[0] = 0;
        list->count = 1;
        return;
    }
    const int *history = s->history[ply & 1];
    for (; moves; moves &= moves - 1) {
        const Move m = __builtin_ctzll(moves);
        int score;
        if (m == table_move) score = ORDER_TABLE;
        else if (m == s->killers[ply][0]) score = ORDER_KILLER + 1;
        else if (m == s->killers[ply][1]) score = ORDER_KILLER;
        else score = history[m];
        list->moves[list->count] = m;
        list->scores[list->count++] = score;
    }
}

/* The best remaining move to the front of what is left (selection sort, one step). */
static void pick_move(MoveList *list, int from)
{
    int best = from;
    for (int i = from + 1; i < list->count; ++i)
        if (list->scores[i] > list->scores[best]) best = i;
    if (best != from) {
        const Move m = list->moves[from];
        const int score = list->scores[from];
        list->moves[from] = list->moves[best];
        list->scores[from] = list->scores[best];
        list->moves[best] = m;
        list->scores[best] = score;
    }
}

static void update_history(Searcher *s, int ply, Move m, int bonus)
{
    int *entry = &s->history[ply & 1][m];
    *entry += bonus - *entry * abs(bonus) / HISTORY_MAX; /* gravity: stays within +-HISTORY_MAX */
}

static void note_cutoff(Searcher *s, const MoveList *list, int index, int ply, int depth)
{
    const Move m = list->moves[index];
    ++s->cutoffs;
    s->first_move_cutoffs += index == 0;
    if (m == PASS) return;
    const int bonus = (depth * depth < 400 ? depth * depth : 400) * 16;
    update_history(s, ply, m, bonus);
    for (int j = 0; j < index; ++j) update_history(s, ply, list->moves[j], -bonus);
    if (s->killers[ply][0] != m) {
        s->killers[ply][1] = s->killers[ply][0];
        s->killers[ply][0] = m;
    }
}

/* ------------------------------------------------------------------ search */

/* The fail-soft PVS value of stack[ply] for its side to move (ai.search.negamax's node with
 * ai.search.pvs's child rule, the exact settings' steps only). */
static double search(Searcher *s, int ply, double alpha, double beta, int depth)
{
    const Position *position = &s->stack[ply];
    const u64 p = position->p, o = position->o;
    s->pv_length[ply] = ply;
    if (ply > s->seldepth) s->seldepth = ply;
    const u64 moves = legal_moves(p, o);
    if (depth <= 0) return leaf(s, p, o, moves, alpha, beta);
    if (ply >= MAX_PLY - 1) { /* never in a game (at most 60 placements and fewer passes) */
        ++s->horizon_leaves;
        return evaluate(s, p, o, moves);
    }
    if (!moves && !legal_moves(o, p)) return final_margin(p, o) * s->margin_scale;

    const u64 key = position_key(p, o);
    TTEntry stored;
    Move table_move = NO_MOVE;
    if (tt_probe(s, key, &stored)) {
        table_move = stored.move;
        if (ply > 0 && stored.depth >= depth) {
            const int bound = stored.generation_bound & 3;
            if (bound == BOUND_EXACT || (bound == BOUND_LOWER && stored.score >= beta) ||
                (bound == BOUND_UPPER && stored.score <= alpha)) {
                s->horizon_leaves += stored.depth != SOLVED_DEPTH;
                return stored.score;
            }
        }
    }
    if (ply > 0 && s->solver_empties && empties_of(p, o) <= s->solver_empties) {
        double value;
        int bound;
        if (solve_node(s, p, o, alpha, beta, &value, &bound)) {
            tt_store(s, key, SOLVED_DEPTH, bound, value, table_move);
            return value;
        }
        if (s->stopped) return 0;
    }

    const u64 horizon_before = s->horizon_leaves;
    MoveList list;
    if (ply == 0) {
        list = s->root_moves;
        for (int i = 0; i < list.count; ++i) {
            const Move m = list.moves[i];
            list.scores[i] = m == table_move ? ORDER_TABLE : s->history[0][m];
        }
    } else {
        list_moves(s, moves, ply, table_move, &list);
    }
    const double old_alpha = alpha;
    double best = -INFINITE_SCORE;
    Move best_move = NO_MOVE;
    for (int i = 0; i < list.count; ++i) {
        pick_move(&list, i);
        const Move m = list.moves[i];
        Position *child = &s->stack[ply + 1];
        play(position, child, m);
        TABLE_PREFETCH(s, position_key(child->p, child->o));
        if (count_node(s)) return 0;
        double value;
        if (i == 0) {
            value = -search(s, ply + 1, -beta, -alpha, depth - 1);
        } else {
            value = -search(s, ply + 1, -nextafter(alpha, INFINITY), -alpha, depth - 1);
            if (!s->stopped && alpha < value && value < beta) value = -search(s, ply + 1, -beta, -alpha, depth - 1);
        }
        if (s->stopped) return 0;
        if (value > best) {
            best = value;
            best_move = m;
            if (value > alpha) {
                alpha = value;
                update_pv(s, ply, m);
                if (ply == 0) record_partial(s, value);
                if (value >= beta) {
                    note_cutoff(s, &list, i, ply, depth);
                    break;
                }
            }
        }
    }
    /* a root that searched only some moves has not the position's value: not stored */
    if (!(ply == 0 && s->restricted)) {
        const int bound = best >= beta ? BOUND_LOWER : best > old_alpha ? BOUND_EXACT : BOUND_UPPER;
        /* a subtree no horizon touched holds the game's value: exact at any depth */
        const int stored_depth = s->horizon_leaves == horizon_before ? SOLVED_DEPTH : depth;
        tt_store(s, key, stored_depth, bound, best, bound == BOUND_UPPER ? NO_MOVE : best_move);
    }
    return best;
}

/* The root solved exactly (ai.search.common.solve_root): the solver's value and move, or
 * with a restricted root each listed move's child solved. 1 when solved (the value in
 * ``*value``, the move as pv[0]); 0 when not (a stop, or beyond the solver). */
static int solve_root(Searcher *s, double *value)
{
    const Position *root = &s->stack[0];
    int margin, move;
    if (!s->restricted) {
        if (!call_solver(s, root->p, root->o, s->solver_poll, -MARGIN_LIMIT, MARGIN_LIMIT, &margin, &move)) return 0;
        for (int i = 0; i < s->root_moves.count; ++i)
            if (s->root_moves.moves[i] == move) {
                *value = margin * s->margin_scale;
                s->pv[0][0] = move;
                s->pv_length[0] = 1;
                return 1;
            }
        return 0;
    }
    double best = -INFINITE_SCORE;
    Move best_move = NO_MOVE;
    for (int i = 0; i < s->root_moves.count; ++i) {
        Position child;
        play(root, &child, s->root_moves.moves[i]);
        double child_value;
        if (!legal_moves(child.p, child.o) && !legal_moves(child.o, child.p)) {
            child_value = -final_margin(child.p, child.o) * s->margin_scale;
        } else {
            if (!call_solver(s, child.p, child.o, s->solver_poll, -MARGIN_LIMIT, MARGIN_LIMIT, &margin, &move)) return 0;
            child_value = -margin * s->margin_scale;
        }
        if (child_value > best) best = child_value, best_move = s->root_moves.moves[i];
    }
    *value = best;
    s->pv[0][0] = best_move;
    s->pv_length[0] = 1;
    return 1;
}

/* One iteration: the root's exact solve when it is within reach (tried once, at depth
 * ROOT_SOLVE_DEPTH or the last depth asked if that is less), else aspiration windows
 * around the previous score, widened on a fail. */
static double search_root(Searcher *s, int depth, double previous)
{
    s->seldepth = 0;
    const int solve_depth = s->max_depth < ROOT_SOLVE_DEPTH ? s->max_depth : ROOT_SOLVE_DEPTH;
    if (!s->stop_flag && s->root_solver_empties && depth == solve_depth &&
        empties_of(s->stack[0].p, s->stack[0].o) <= s->root_solver_empties) {
        double value;
        if (solve_root(s, &value)) {
            s->settled = 1;
            s->seldepth = empties_of(s->stack[0].p, s->stack[0].o);
            return value;
        }
        if (s->stopped) return 0;
    }
    /* Othello's values swing with the parity of the depth (the side that moved last looks
     * better), so the window is centred on the score two iterations back, not one. */
    (void)previous;
    double delta = ASPIRATION_WINDOW, alpha = -INFINITE_SCORE, beta = INFINITE_SCORE;
    if (depth >= ASPIRATION_MIN_DEPTH) {
        alpha = s->iteration_scores[depth - 2] - delta;
        beta = s->iteration_scores[depth - 2] + delta;
    }
    const u64 horizon_before = s->horizon_leaves;
    for (;;) {
        s->seldepth = 0;
        const double score = search(s, 0, alpha, beta, depth);
        if (s->stopped) return 0;
        /* no leaf was cut by the depth limit (ai.iterative's rule): the value is exact */
        s->settled = s->horizon_leaves == horizon_before;
        if (score <= alpha) {
            beta = (alpha + beta) / 2;
            alpha = delta > ASPIRATION_WIDEST ? -INFINITE_SCORE : score - delta;
        } else if (score >= beta) {
            beta = delta > ASPIRATION_WIDEST ? INFINITE_SCORE : score + delta;
        } else {
            s->iteration_scores[depth] = score;
            return score;
        }
        delta *= 2;
    }
}

/* ------------------------------------------------------------------ Python glue */

static int read_board(PyObject *object, u64 *board)
{
    const unsigned long long value = PyLong_AsUnsignedLongLong(object);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "a bitboard is an int in 0 .. 2**64 - 1");
        return -1;
    }
    *board = (u64)value;
    return 0;
}

/* (own, opponent) into ``p``: the discs of the side to move and of the other side. */
static int read_position(PyObject *tuple, Position *p)
{
    PyObject *own, *opponent;
    if (!PyTuple_Check(tuple) || !PyArg_ParseTuple(tuple, "OO", &own, &opponent)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "a position is a tuple (own, opponent) of bitboards");
        return -1;
    }
    if (read_board(own, &p->p) < 0 || read_board(opponent, &p->o) < 0) return -1;
    if (p->p & p->o) {
        PyErr_SetString(PyExc_ValueError, "own and opponent share a square");
        return -1;
    }
    return 0;
}

static PyObject *module_perft(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *position;
    int depth;
    if (!PyArg_ParseTuple(args, "Oi:search_perft", &position, &depth)) return NULL;
    Position p;
    if (read_position(position, &p) < 0) return NULL;
    if (depth < 0 || depth > 20) {
        PyErr_SetString(PyExc_ValueError, "depth must be 0..20");
        return NULL;
    }
    u64 count;
    Py_BEGIN_ALLOW_THREADS
    count = perft(p.p, p.o, depth);
    Py_END_ALLOW_THREADS
    return PyLong_FromUnsignedLongLong(count);
}

static PyObject *line_list(const Move *line, int length)
{
    PyObject *list = PyList_New(length);
    if (!list) return NULL;
    for (int i = 0; i < length; ++i) {
        PyObject *item = PyLong_FromLong(line[i]);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

static int Searcher_init(Searcher *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"hash_mb", NULL};
    int megabytes = 16;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|i:Searcher", keywords, &megabytes)) return -1;
    if (megabytes < 1 || megabytes > 65536) {
        PyErr_SetString(PyExc_ValueError, "hash_mb must be 1..65536");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "cannot re-initialise a Searcher while it searches");
        return -1;
    }
    size_t buckets = 1;
    while (buckets * 2 * sizeof(TTBucket) <= (size_t)megabytes << 20) buckets *= 2;
    TTBucket *table = table_alloc(buckets * sizeof(TTBucket));
    if (!table) {
        PyErr_NoMemory();
        return -1;
    }
    table_free(self->table, self->bucket_count * sizeof(TTBucket));
    self->table = table;
    self->bucket_count = buckets;
    self->has_signature = 0;
    self->table_used = 0;
    clear_tables(self);
    return 0;
}

/* The root's moves (a forced pass is the one move PASS), only those of ``root_moves``
 * (squares, or PASS) when given. */
static int collect_root_moves(Searcher *self, const Position *root, PyObject *root_moves)
{
    MoveList all;
    const u64 moves = legal_moves(root->p, root->o);
    all.count = 0;
    if (moves || legal_moves(root->o, root->p)) list_moves(self, moves, 0, NO_MOVE, &all);
    self->root_moves.count = 0;
    self->restricted = 0;
    if (root_moves == Py_None) {
        self->root_moves = all;
        return 0;
    }
    PyObject *sequence = PySequence_Fast(root_moves, "root_moves must be a list of squares");
    if (!sequence) return -1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(sequence); ++i) {
        const long wanted = PyLong_AsLong(PySequence_Fast_GET_ITEM(sequence, i));
        if (wanted == -1 && PyErr_Occurred()) {
            Py_DECREF(sequence);
            return -1;
        }
        int legal = 0, listed = 0;
        for (int j = 0; j < all.count; ++j) legal |= all.moves[j] == wanted;
        for (int j = 0; j < self->root_moves.count; ++j) listed |= self->root_moves.moves[j] == wanted;
        if (!legal) {
            Py_DECREF(sequence);
            PyErr_SetString(PyExc_ValueError, "a root move is not legal in this position");
            return -1;
        }
        if (!listed) {
            self->root_moves.scores[self->root_moves.count] = 0;
            self->root_moves.moves[self->root_moves.count++] = (Move)wanted;
        }
    }
    Py_DECREF(sequence);
    self->restricted = self->root_moves.count < all.count;
    return 0;
}

/* Helper ``index`` set to search this search's root: the shared table, copies of the rest;
 * it never calls Python, so it does not solve (it evaluates there instead). */
static int prepare_helper(Searcher *self, Searcher *helper, int index)
{
    helper->table = self->table;
    helper->bucket_count = self->bucket_count;
    helper->generation = self->generation;
    helper->eval_limit = self->eval_limit;
    helper->margin_scale = self->margin_scale;
    helper->solver_empties = helper->root_solver_empties = 0;
    helper->solve = helper->solver_poll = NULL;
    helper->settled = 0;
    memcpy(helper->history, self->history, sizeof helper->history);
    for (int ply = 0; ply < MAX_PLY; ++ply) helper->killers[ply][0] = helper->killers[ply][1] = NO_MOVE;
    helper->stack[0] = self->stack[0];
    helper->root_moves = self->root_moves;
    helper->restricted = self->restricted;
    helper->nodes = helper->qnodes = helper->tt_probes = helper->tt_hits = 0;
    helper->cutoffs = helper->first_move_cutoffs = 0;
    helper->stopped = helper->deferred = 0;
    helper->completed_depth = helper->partial_depth = 0;
    helper->next_poll = HELPER_POLL_INTERVAL;
    helper->stop_flag = &self->stop_helpers;
    helper->max_depth = self->max_depth;
    helper->root_depth = index % 2; /* the depth before its first: odd helpers start a ply deeper */
    return 1;
}

static PyObject *Searcher_search(Searcher *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"position",       "max_depth",       "poll",         "on_iteration",
                               "eval_limit",     "margin_scale",    "solve",        "solver_poll",
                               "solver_empties", "root_solver_empties", "poll_interval", "root_moves",
                               "threads",        NULL};
    PyObject *position, *poll, *on_iteration, *solve = Py_None, *solver_poll = Py_None, *root_moves = Py_None;
    int max_depth, threads = 1, solver_empties = 0, root_solver_empties = 0;
    double eval_limit, margin_scale;
    long long poll_interval = DEFAULT_POLL_INTERVAL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiOOdd|OOiiLOi:search", keywords, &position, &max_depth, &poll,
                                     &on_iteration, &eval_limit, &margin_scale, &solve, &solver_poll,
                                     &solver_empties, &root_solver_empties, &poll_interval, &root_moves, &threads))
        return NULL;
    if (!othello_has_model()) {
        PyErr_SetString(PyExc_RuntimeError, "games.othello._fast: no EVAL model loaded (load or set_classic first)");
        return NULL;
    }
    if (!self->table) {
        PyErr_SetString(PyExc_RuntimeError, "Searcher.__init__ was not called");
        return NULL;
    }
    if (check_request(self, threads, poll, on_iteration, poll_interval, &max_depth) < 0) return NULL;
    if (!(eval_limit > 0) || !isfinite(eval_limit) || !(margin_scale > 0) || !isfinite(margin_scale)) {
        PyErr_SetString(PyExc_ValueError, "eval_limit and margin_scale must be positive and finite");
        return NULL;
    }
    if (solver_empties < 0 || solver_empties > SQUARES || root_solver_empties < 0 || root_solver_empties > SQUARES) {
        PyErr_SetString(PyExc_ValueError, "solver_empties and root_solver_empties must be 0..64");
        return NULL;
    }
    if ((solve != Py_None && !PyCallable_Check(solve)) || (solver_poll != Py_None && !PyCallable_Check(solver_poll))) {
        PyErr_SetString(PyExc_TypeError, "solve and solver_poll must be callable or None");
        return NULL;
    }
    if (solve == Py_None) solver_empties = root_solver_empties = 0;
    Position root;
    if (read_position(position, &root) < 0) return NULL;
    if (collect_root_moves(self, &root, root_moves) < 0) return NULL;
    if (!self->has_signature || self->model_version != othello_model_version || self->eval_limit != eval_limit ||
        self->margin_scale != margin_scale || self->solver_empties != solver_empties ||
        self->root_solver_empties != root_solver_empties) {
        clear_tables(self); /* values computed under another EVAL or solver reach */
        self->model_version = othello_model_version;
        self->eval_limit = eval_limit;
        self->margin_scale = margin_scale;
        self->solver_empties = solver_empties;
        self->root_solver_empties = root_solver_empties;
        self->has_signature = 1;
    }

    self->busy = 1;
    self->table_used = 1;
    self->poll = Py_NewRef(poll);
    self->solve = solve == Py_None ? NULL : Py_NewRef(solve);
    self->solver_poll = solver_poll == Py_None ? NULL : Py_NewRef(solver_poll);
    self->settled = 0;
    self->poll_interval = poll_interval;
    self->nodes = self->reported = 0;
    self->qnodes = self->tt_probes = self->tt_hits = self->cutoffs = self->first_move_cutoffs = 0;
    self->next_poll = (u64)poll_interval;
    self->stopped = self->deferred = 0;
    self->completed_depth = self->partial_depth = 0;
    self->error_type = self->error_value = self->error_traceback = NULL;
    self->stop_flag = NULL;
    self->generation = (uint8_t)((self->generation + 1) & 63);
    if (self->generation == 0) self->generation = 1; /* 0 with no bound marks an empty slot */
    for (int side = 0; side < 2; ++side) /* the old history counts less in a new position */
        for (int square = 0; square <= SQUARES; ++square) self->history[side][square] /= 2;
    for (int ply = 0; ply < MAX_PLY; ++ply) self->killers[ply][0] = self->killers[ply][1] = NO_MOVE;
    self->stack[0] = root;
    self->max_depth = max_depth;

    /* Lazy SMP: the helpers search the same root beside this thread until it is done; what
     * they find reaches it through the table. Only this thread's iterations are reported. */
    const int helper_count = self->root_moves.count ? threads - 1 : 0;
    pthread_t *helper_threads = helper_count ? malloc((size_t)helper_count * sizeof(pthread_t)) : NULL;
    const int started = start_helpers(self, helper_count, helper_threads);
    const int failed = deepen(self, on_iteration, self->root_moves.count > 0, max_depth);
    join_helpers(self, helper_threads, started);
    free(helper_threads);
    Py_CLEAR(self->solve);
    Py_CLEAR(self->solver_poll);
    return end_search(self, poll, failed);
}

static PyMethodDef Searcher_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Searcher_search, METH_VARARGS | METH_KEYWORDS,
     "search(position, max_depth, poll, on_iteration, eval_limit, margin_scale, solve=None,\n"
     "       solver_poll=None, solver_empties=0, root_solver_empties=0, poll_interval=4096,\n"
     "       root_moves=None, threads=1) -> None\n\n"
     "Iterative deepening from ``position`` = (own, opponent), the side to move's discs first.\n"
     "Leaves score the EVAL model handed over last, clamped to +-eval_limit; a finished game\n"
     "its final margin times margin_scale. solve(own, opponent, poll, low, high) -> (margin,\n"
     "move or -1), fail-soft within (low, high), answers positions of at most solver_empties\n"
     "empties inside the tree (poll None) and the root at most root_solver_empties (poll:\n"
     "solver_poll, which may raise to stop the search). The root is solved once, at depth 6 or\n"
     "max_depth if less, and an answer ends the deepening; a None answer (the solve gave way)\n"
     "lets the deepening go on from there. After each\n"
     "completed depth, on_iteration(depth, seldepth, score, nodes, pv) hears the side to move's\n"
     "score and the PV as squares (64: pass); a true answer stops the search. poll(nodes, True)\n"
     "hears the nodes every poll_interval nodes and may raise to stop it (the exception comes\n"
     "out of search; depth 1 always finishes first); poll(nodes, False) hears the rest once at a\n"
     "normal end. ``root_moves`` restricts the root. No legal move at the root: on_iteration is\n"
     "never called. ``threads`` > 1 (up to 256) adds Lazy SMP helper threads sharing the table."},
    {"clear", (PyCFunction)Searcher_clear, METH_NOARGS, "Forget the table, history, killers (a new game)."},
    {"interrupted", (PyCFunction)Searcher_interrupted, METH_NOARGS,
     "interrupted() -> (depth, seldepth, score, nodes, pv) or None\n\n"
     "After a search a stop cut short: the best root move the cut iteration had searched to\n"
     "the end, when one raised alpha; None otherwise."},
    {"counters", (PyCFunction)Searcher_counters, METH_NOARGS,
     "counters() -> (qnodes, tt_probes, tt_hits, cutoffs, first_move_cutoffs)"},
    {"hashfull", (PyCFunction)Searcher_hashfull, METH_NOARGS,
     "Permille of the table's slots written by the last search (from a sample)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "games.othello._fast.Searcher",
    .tp_basicsize = sizeof(Searcher),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Searcher(hash_mb=16): an Othello search with its own transposition table, history\n"
              "and killers, kept from search to search until clear(). One search at a time; the\n"
              "GIL is released while it runs.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Searcher_init,
    .tp_dealloc = (destructor)Searcher_dealloc,
    .tp_methods = Searcher_methods,
};

static PyMethodDef search_functions[] = {
    {"search_perft", (PyCFunction)module_perft, METH_VARARGS,
     "search_perft((own, opponent), depth) -> int\n\n"
     "Leaf count with the compiled search's own move generator (tests compare it with perft)."},
    {NULL, NULL, 0, NULL},
};

int othello_add_searcher(PyObject *module)
{
    init_rays();
    if (PyType_Ready(&SearcherType) < 0) return -1;
    if (PyModule_AddObjectRef(module, "Searcher", (PyObject *)&SearcherType) < 0 ||
        PyModule_AddIntConstant(module, "MAX_DEPTH", MAX_DEPTH) < 0 ||
        PyModule_AddIntConstant(module, "PASS", PASS) < 0)
        return -1;
    return PyModule_AddFunctions(module, search_functions);
}
