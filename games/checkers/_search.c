/*
 * games.checkers._fast.Searcher: the compiled checkers search, the engine's ``native``
 * algorithm for checkers (games/checkers/native.py is its Python side).
 *
 * Why: the readable search (ai/search over CheckersState) visits ~150k nodes a second, and
 * the problems of problems.json are decided 20 plies and more deep ("the move" in men
 * endings). This file searches the same rules with the same EVAL (evaluate_for_black, the
 * Python double) at ~25 times the speed:
 *  - moves: the ghost-layout bitboards of bitboards.py, hops from load(); captures are
 *    mandatory, every capture path is a move (as perft counts them), a man crowned during
 *    a capture ends it there;
 *  - draws as CheckersState has them: threefold repetition (a repetition inside the tree
 *    already counts), the 40-move rule (80 plies without a capture or a man move; a side
 *    left without a move on the 80th loses first); no move at all loses;
 *  - PVS with aspiration windows and iterative deepening, a transposition table of
 *    two-slot buckets, killers and history, late move reductions and reverse futility
 *    pruning (never at a node that must capture, nor for a move that offers a capture),
 *    quiescence that plays out pending captures, and no null move (zugzwang is everywhere
 *    in checkers);
 *  - the endgame databases through a Python callable (probe), their wins as mates.
 * threads > 1: Lazy SMP, helper threads searching the same root beside it and sharing the
 *    table (only the thread Python called reports, polls and probes the databases).
 * The GIL is released while it runs, taken back for poll and probe.
 */

#include "_fast.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define MATE 30000
#define MATE_BOUND (MATE - 1000) /* beyond this a score is a win or loss in plies */
#define INFINITE_SCORE 32000
#define DRAW_SCORE 0
#define MAX_PLY 128
#define MAX_DEPTH 100
#define MAX_MOVES 128
#define NO_PROGRESS_LIMIT 80  /* state.NO_PROGRESS_LIMIT */
#define SHORTEST_REPEAT 4     /* state.SHORTEST_REPEAT_PLIES */
#define DEFAULT_POLL_INTERVAL 4096

#define ASPIRATION_MIN_DEPTH 5
#define HISTORY_MAX 16384
#define TT_DEPTH_DATABASE 120 /* a database value is exact at any depth */

enum { BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

typedef struct {
    u64 from, to, captured; /* one-bit boards (equal for a king's tour back home); jumped pieces */
} Move;

typedef struct {
    u64 side[2]; /* Black's and White's pieces */
    u64 kings;
    u64 key;
    int player;  /* to move: 0 Black, 1 White */
    int quiet;   /* plies since the last capture or man move */
} Position;

typedef struct {
    Move moves[MAX_MOVES];
    int scores[MAX_MOVES];
    int count;
} MoveList;

/* A table entry: 8 bytes, written with its key as two words (check = key ^ data) so that
 * threads sharing the table without locks never take a torn entry for a valid one. The
 * best move is kept as its two squares; among captures with the same ends the first
 * generated is tried first (an ordering hint only). */
typedef struct {
    int16_t score;
    uint8_t depth;
    uint8_t generation_bound; /* generation << 2 | bound; 0: an empty slot */
    uint8_t from, to;         /* bit numbers of the best move; 255: none */
    uint8_t unused[2];
} TTEntry;

typedef struct {
    u64 check, data;
} TTSlot;

#define TT_BUCKET 2 /* [0] deepest, [1] newest */
#define HASHFULL_SAMPLE 2000

typedef struct {
    TTSlot slot[TT_BUCKET];
} TTBucket;

/* The search's tunable numbers, per Searcher so that two settings can play each other in
 * one process (bench/checkers_native_variants.py); the engine uses the defaults. */
typedef struct {
    int lmr_min_depth;          /* late move reductions from this depth (0: none) */
    int lmr_first_moves;        /* moves searched unreduced before them at a non-PV node */
    int rfp_max_depth;          /* reverse futility up to this depth (0: none) */
    int rfp_margin;             /* its margin per ply (a man is 100) */
    int single_reply_extension; /* a node with one move searches it a ply deeper (1) */
    int aspiration_window;      /* half width of the first window, from depth 5 */
} Parameters;

static const Parameters DEFAULT_PARAMETERS = {
    .lmr_min_depth = 3, .lmr_first_moves = 1, .rfp_max_depth = 3, .rfp_margin = 80,
    .single_reply_extension = 0, .aspiration_window = 30,
};

#define PARAMETER_COUNT 6
static const struct {
    const char *name;
    size_t offset;
    int low, high;
} PARAMETER_FIELDS[PARAMETER_COUNT] = {
    {"lmr_min_depth", offsetof(Parameters, lmr_min_depth), 0, 100},
    {"lmr_first_moves", offsetof(Parameters, lmr_first_moves), 1, 100},
    {"rfp_max_depth", offsetof(Parameters, rfp_max_depth), 0, 100},
    {"rfp_margin", offsetof(Parameters, rfp_margin), 0, 10000},
    {"single_reply_extension", offsetof(Parameters, single_reply_extension), 0, 1},
    {"aspiration_window", offsetof(Parameters, aspiration_window), 1, 10000},
};

typedef struct Searcher {
    PyObject_HEAD
    Parameters parameters;
    TTBucket *table;
    size_t bucket_count;
    uint8_t generation;
    double weights[WEIGHT_COUNT];
    int has_weights;
    int history[2][MAX_BITS][MAX_BITS];
    Move killers[MAX_PLY][2];
    Position stack[MAX_PLY + 1];
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_length[MAX_PLY + 1];
    u64 *keys; /* the game's keys since its last irreversible move, then the line searched */
    size_t keys_capacity;
    int root_index; /* where the root's key is in keys */
    MoveList root_moves;
    int root_depth, seldepth, completed_depth, busy, stopped, deferred;
    int partial_depth, partial_score, partial_seldepth, partial_length;
    Move partial_pv[MAX_PLY + 1];
    u64 nodes, reported, next_poll, qnodes, tt_probes, tt_hits, cutoffs, first_move_cutoffs;
    long long poll_interval;
    PyObject *poll, *probe;
    int probe_pieces;
    PyThreadState *thread;
    PyObject *error_type, *error_value, *error_traceback;
    /* Lazy SMP: helper threads search the same root and share the table */
    struct Searcher **helpers; /* calloc'd plain structs, not Python objects */
    int helper_count, active_helpers, max_depth;
    int stop_helpers;          /* set by the main searcher when it is done */
    const int *stop_flag;      /* a helper's: its main searcher's stop_helpers; NULL: the main one */
} Searcher;

static int search_root(Searcher *s, int depth, int previous);
static int prepare_helper(Searcher *self, Searcher *helper, int index);
static PyObject *line_list(const Move *line, int length);
static void clear_tables(Searcher *s);
static inline u64 read_slot(const TTSlot *slot, TTEntry *entry);
#include "../_native_search.h"

/* ------------------------------------------------------------------ keys */

static u64 piece_keys[2][2][MAX_BITS]; /* [player][is king][bit] */
static u64 white_to_move_key;

static u64 splitmix(u64 *state)
{
    u64 z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void init_keys(void)
{
    u64 state = 0xC0EC4E25ULL;
    for (int player = 0; player < 2; ++player)
        for (int king = 0; king < 2; ++king)
            for (int bit = 0; bit < MAX_BITS; ++bit) piece_keys[player][king][bit] = splitmix(&state);
    white_to_move_key = splitmix(&state);
}

static u64 key_of(const Position *p)
{
    u64 key = p->player ? white_to_move_key : 0;
    for (int player = 0; player < 2; ++player)
        for (u64 pieces = p->side[player]; pieces; pieces &= pieces - 1) {
            const int bit = __builtin_ctzll(pieces);
            key ^= piece_keys[player][(p->kings >> bit) & 1][bit];
        }
    return key;
}

/* ------------------------------------------------------------------ moves */

static inline int bit_of(u64 board) { return __builtin_ctzll(board); }

static void push_move(MoveList *list, u64 from, u64 to, u64 captured)
{
    if (list->count < MAX_MOVES) { /* never reached in a game: a position has few dozen moves */
        Move *m = &list->moves[list->count++];
        m->from = from;
        m->to = to;
        m->captured = captured;
    }
}

/* A move list being filled by _fast.c's walk over the capture paths. */
typedef struct {
    JumpWalk walk; /* first: emit receives it and casts back */
    MoveList *list;
} MoveWalk;

static int emit_move(JumpWalk *walk, int hop_count)
{
    u64 captured = 0;
    for (int i = 0; i < hop_count; ++i) captured |= (u64)1 << walk->jumped[i];
    push_move(((MoveWalk *)walk)->list, (u64)1 << walk->path[0], (u64)1 << walk->path[hop_count], captured);
    return 0;
}

/* The pieces of the side to move that can jump now. */
static u64 jumpers(const Position *p)
{
    return capture_starts(p->side[p->player], p->side[!p->player], p->kings, p->player);
}

static void generate_captures(const Position *p, u64 starts, MoveList *list)
{
    MoveWalk walk = {.walk = {.emit = emit_move}, .list = list};
    walk_captures(&walk.walk, starts, p->side[p->player], p->side[!p->player], p->kings, p->player);
}

static void add_steps(MoveList *list, u64 destinations, int shift)
{
    for (; destinations; destinations &= destinations - 1) {
        const u64 to = destinations & (~destinations + 1);
        push_move(list, shift > 0 ? to >> shift : to << -shift, to, 0);
    }
}

static void generate_steps(const Position *p, MoveList *list)
{
    const int player = p->player;
    const u64 mover = p->side[player];
    const u64 empty = valid ^ (mover | p->side[!player]);
    const u64 kings = mover & p->kings;
    const u64 down = player == 0 ? mover : kings, up = player == 0 ? kings : mover;
    if (down) {
        add_steps(list, (down << 4) & empty, 4);
        add_steps(list, (down << 5) & empty, 5);
    }
    if (up) {
        add_steps(list, (up >> 4) & empty, -4);
        add_steps(list, (up >> 5) & empty, -5);
    }
}

/* Every move by the rules of movement (the captures if any, else the steps); 1 when they
 * are captures. */
static int generate(const Position *p, MoveList *list)
{
    list->count = 0;
    const u64 starts = jumpers(p);
    if (starts) {
        generate_captures(p, starts, list);
        return 1;
    }
    generate_steps(p, list);
    return 0;
}

static void make_move(const Position *p, Position *child, const Move *m)
{
    const int player = p->player, opponent = !player;
    u64 kings = p->kings, key = p->key ^ white_to_move_key;
    const int from = bit_of(m->from), to = bit_of(m->to);
    *child = *p;
    if (kings & m->from) {
        key ^= piece_keys[player][1][from] ^ piece_keys[player][1][to];
        kings ^= m->from ^ m->to;
        child->quiet = p->quiet + 1;
    } else {
        const int crowned = (m->to & crown_row[player]) != 0;
        key ^= piece_keys[player][0][from] ^ piece_keys[player][crowned][to];
        if (crowned) kings |= m->to;
        child->quiet = 0;
    }
    if (m->captured) {
        child->quiet = 0;
        for (u64 taken = m->captured; taken; taken &= taken - 1) {
            const int bit = bit_of(taken);
            key ^= piece_keys[opponent][(kings >> bit) & 1][bit];
        }
        kings &= ~m->captured;
        child->side[opponent] &= ~m->captured;
    }
    child->side[player] ^= m->from ^ m->to;
    child->kings = kings;
    child->key = key;
    child->player = opponent;
}

static u64 perft(const Position *p, int depth)
{
    MoveList list;
    generate(p, &list);
    if (depth <= 1) return depth == 1 ? (u64)list.count : 1;
    u64 total = 0;
    for (int i = 0; i < list.count; ++i) {
        Position child;
        make_move(p, &child, &list.moves[i]);
        total += perft(&child, depth - 1);
    }
    return total;
}

static inline int same_move(const Move *a, const Move *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured;
}

/* ------------------------------------------------------------------ Python calls */

/* The databases' value of ``p`` for the side to move at ``ply``, as a search score; 0 in
 * ``found`` when they do not hold it (or the probe failed, which stops the search). */
static int probe_database(Searcher *s, const Position *p, int ply, int *found)
{
    *found = 0;
    if (s->deferred || s->stopped) return 0;
    PyEval_RestoreThread(s->thread);
    PyObject *answer = PyObject_CallFunction(s->probe, "KKKi", (unsigned long long)p->side[0],
                                             (unsigned long long)p->side[1], (unsigned long long)p->kings, p->player);
    int score = 0;
    if (answer == NULL) {
        hold_error(s);
    } else if (answer != Py_None) {
        int outcome, distance;
        if (PyArg_ParseTuple(answer, "ii", &outcome, &distance)) {
            if (distance < 0) distance = 0;
            if (distance > MATE_BOUND / 2) distance = MATE_BOUND / 2;
            score = outcome > 0 ? MATE - ply - distance : outcome < 0 ? -MATE + ply + distance : DRAW_SCORE;
            *found = 1;
        } else {
            hold_error(s);
        }
    }
    Py_XDECREF(answer);
    s->thread = PyEval_SaveThread();
    return score;
}

/* Whether the databases can hold ``p`` (endgame.EndgameDatabase.value_byte's rule, so that
 * a position they do not hold costs no call into Python): both sides on the board, at most
 * ``pieces`` of them, and at exactly ``pieces`` only three kings against two pieces. */
static int in_databases(const Position *p, int pieces)
{
    const u64 black = p->side[0], white = p->side[1];
    const int count = popcount(black | white);
    if (!black || !white || count > pieces) return 0;
    if (count < pieces) return 1;
    return ((black & ~p->kings) == 0 && popcount(black) == 3) || ((white & ~p->kings) == 0 && popcount(white) == 3);
}

/* ------------------------------------------------------------------ table */

static inline u64 entry_word(const TTEntry *entry)
{
    u64 word;
    memcpy(&word, entry, sizeof word);
    return word;
}

/* The slot's entry into ``entry``; returns the key it was stored under (0 when empty). */
static inline u64 read_slot(const TTSlot *slot, TTEntry *entry)
{
    const u64 data = __atomic_load_n(&slot->data, __ATOMIC_RELAXED);
    const u64 check = __atomic_load_n(&slot->check, __ATOMIC_RELAXED);
    memcpy(entry, &data, sizeof data);
    return entry->generation_bound ? check ^ data : 0;
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

static void tt_store(Searcher *s, u64 key, int depth, int bound, int score, const Move *move, int ply)
{
    TTBucket *bucket = &s->table[key & (s->bucket_count - 1)];
    TTEntry first, second, old;
    const u64 first_key = read_slot(&bucket->slot[0], &first), second_key = read_slot(&bucket->slot[1], &second);
    /* the first slot keeps the deepest entry of this search; the other takes the rest */
    TTSlot *slot = &bucket->slot[0];
    u64 old_key = first_key;
    old = first;
    if ((second_key == key && first_key != key) ||
        (first_key != key && first_key && (first.generation_bound >> 2) == s->generation && first.depth > depth)) {
        slot = &bucket->slot[1];
        old_key = second_key;
        old = second;
    }
    TTEntry entry;
    memset(&entry, 0, sizeof entry);
    if (move) {
        entry.from = (uint8_t)bit_of(move->from);
        entry.to = (uint8_t)bit_of(move->to);
    } else if (old_key == key) { /* a search that found no best move keeps the old one */
        entry.from = old.from;
        entry.to = old.to;
    } else {
        entry.from = entry.to = 255;
    }
    entry.score = (int16_t)score_to_tt(score, ply);
    entry.depth = (uint8_t)(depth < 0 ? 0 : depth);
    entry.generation_bound = (uint8_t)(s->generation << 2 | bound);
    const u64 data = entry_word(&entry);
    __atomic_store_n(&slot->data, data, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->check, key ^ data, __ATOMIC_RELAXED);
}

static void clear_tables(Searcher *s)
{
    memset(s->table, 0, s->bucket_count * sizeof(TTBucket));
    memset(s->history, 0, sizeof s->history);
    memset(s->killers, 0, sizeof s->killers);
    s->generation = 0;
}

/* ------------------------------------------------------------------ search */

static inline int evaluate(const Searcher *s, const Position *p)
{
    const double value = evaluate_for_black(p->side[0], p->side[1], p->kings, p->player, s->weights);
    double mine = p->player == 0 ? value : -value;
    if (mine > MATE_BOUND - 1) mine = MATE_BOUND - 1;
    if (mine < -(MATE_BOUND - 1)) mine = -(MATE_BOUND - 1);
    return (int)(mine >= 0 ? mine + 0.5 : mine - 0.5);
}

/* A draw by repetition: the position occurred before inside the line searched, or twice
 * before in the game (then this is the third time). */
static int is_repetition(const Searcher *s, const Position *p, int ply)
{
    if (p->quiet < SHORTEST_REPEAT) return 0;
    const int here = s->root_index + ply;
    int seen = 0;
    for (int back = SHORTEST_REPEAT; back <= p->quiet && here - back >= 0; back += 2) {
        if (s->keys[here - back] != p->key) continue;
        if (here - back >= s->root_index) return 1;
        if (++seen >= 2) return 1;
    }
    return 0;
}

static void update_history(Searcher *s, int player, const Move *m, int bonus)
{
    int *entry = &s->history[player][bit_of(m->from)][bit_of(m->to)];
    *entry += bonus - *entry * abs(bonus) / HISTORY_MAX; /* gravity: stays within +-HISTORY_MAX */
}

#define ORDER_TABLE (1 << 30)
#define ORDER_CAPTURE (1 << 24)
#define ORDER_KILLER (1 << 20)

static void score_moves(const Searcher *s, const Position *p, MoveList *list, int ply, const TTEntry *entry)
{
    int table_move_seen = 0;
    for (int i = 0; i < list->count; ++i) {
        const Move *m = &list->moves[i];
        int score;
        if (entry && !table_move_seen && entry->from != 255 && bit_of(m->from) == entry->from &&
            bit_of(m->to) == entry->to)
            score = ORDER_TABLE, table_move_seen = 1;
        else if (m->captured) /* more pieces first, kings before men */
            score = ORDER_CAPTURE + 16 * popcount(m->captured) + popcount(m->captured & p->kings);
        else if (same_move(m, &s->killers[ply][0]))
            score = ORDER_KILLER + 1;
        else if (same_move(m, &s->killers[ply][1]))
            score = ORDER_KILLER;
        else
            score = s->history[p->player][bit_of(m->from)][bit_of(m->to)];
        list->scores[i] = score;
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

static int search(Searcher *s, int ply, int alpha, int beta, int depth, int pv_node)
{
    const Position *p = &s->stack[ply];
    s->pv_length[ply] = ply;
    if (ply > s->seldepth) s->seldepth = ply;
    if (ply > 0) {
        if (is_repetition(s, p, ply)) return DRAW_SCORE;
        /* mate distance: no line from here ends sooner than one found nearer the root */
        if (alpha < -MATE + ply) alpha = -MATE + ply;
        if (beta > MATE - ply - 1) beta = MATE - ply - 1;
        if (alpha >= beta) return alpha;
    }

    MoveList list;
    const int must_capture = ply == 0 ? s->root_moves.count && s->root_moves.moves[0].captured : generate(p, &list);
    if (ply == 0) list = s->root_moves;
    if (list.count == 0) return -MATE + ply; /* blocked or no pieces: lost */
    if (ply > 0 && p->quiet >= NO_PROGRESS_LIMIT) return DRAW_SCORE;
    if (ply >= MAX_PLY - 1) return evaluate(s, p);
    /* the databases' positions are looked up even at the horizon: an exact value beats EVAL */
    const int database_node = s->probe && ply > 0 && in_databases(p, s->probe_pieces);
    if (depth <= 0 && !must_capture && !database_node) return evaluate(s, p); /* quiet: the horizon */
    if (depth <= 0) ++s->qnodes;

    TTEntry stored;
    const TTEntry *entry = tt_probe(s, p->key, &stored) ? &stored : NULL;
    if (entry && ply > 0 && entry->depth >= (depth > 0 ? depth : 0) &&
        (!pv_node || entry->depth == TT_DEPTH_DATABASE)) {
        const int score = score_from_tt(entry->score, ply), bound = entry->generation_bound & 3;
        if ((bound == BOUND_EXACT) || (bound == BOUND_LOWER && score >= beta) || (bound == BOUND_UPPER && score <= alpha))
            return score;
    }
    if (database_node) {
        int found;
        const int score = probe_database(s, p, ply, &found);
        if (s->stopped) return 0;
        if (found) {
            tt_store(s, p->key, TT_DEPTH_DATABASE, BOUND_EXACT, score, NULL, ply);
            return score;
        }
        if (depth <= 0 && !must_capture) return evaluate(s, p);
    }

    const Parameters *tuned = &s->parameters;
    /* reverse futility: far enough above beta, a quiet position keeps its lead a few plies */
    if (!pv_node && !must_capture && ply > 0 && depth > 0 && depth <= tuned->rfp_max_depth && abs(beta) < MATE_BOUND) {
        const int eval = evaluate(s, p);
        if (eval - tuned->rfp_margin * depth >= beta) return eval;
    }
    /* a forced move (most often a capture) costs no depth, within bounds */
    const int extension = tuned->single_reply_extension && list.count == 1 && ply < 2 * s->root_depth;

    score_moves(s, p, &list, ply, entry);
    const int old_alpha = alpha;
    int best = -INFINITE_SCORE, legal = 0;
    Move best_move = {0, 0, 0};
    int have_best = 0;
    for (int i = 0; i < list.count; ++i) {
        pick_move(&list, i);
        const Move m = list.moves[i];
        Position *child = &s->stack[ply + 1];
        make_move(p, child, &m);
        TABLE_PREFETCH(s, child->key);
        if (count_node(s)) return 0;
        s->keys[s->root_index + ply + 1] = child->key;
        ++legal;
        const int new_depth = depth - 1 + extension;
        int score;
        /* late move reductions: a quiet move late in the list, which offers no capture */
        if (tuned->lmr_min_depth && legal > tuned->lmr_first_moves + 2 * pv_node && depth >= tuned->lmr_min_depth &&
            !must_capture && list.scores[i] < ORDER_KILLER && !jumpers(child)) {
            int r = 1 + (legal > 6 && depth >= 6);
            if (r > new_depth - 1) r = new_depth - 1 > 0 ? new_depth - 1 : 0;
            score = -search(s, ply + 1, -alpha - 1, -alpha, new_depth - r, 0);
            if (!s->stopped && score > alpha && r > 0) score = -search(s, ply + 1, -alpha - 1, -alpha, new_depth, 0);
        } else if (!pv_node || legal > 1) {
            score = -search(s, ply + 1, -alpha - 1, -alpha, new_depth, 0);
        } else {
            score = alpha + 1; /* the first move of a PV node: full window below */
        }
        if (!s->stopped && pv_node && score > alpha && (legal == 1 || score < beta))
            score = -search(s, ply + 1, -beta, -alpha, new_depth, 1);
        if (s->stopped) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                have_best = 1;
                if (pv_node) update_pv(s, ply, m);
                if (ply == 0) record_partial(s, score);
                if (score >= beta) {
                    ++s->cutoffs;
                    s->first_move_cutoffs += legal == 1;
                    if (!m.captured && depth > 0) {
                        const int bonus = depth * depth < 400 ? depth * depth : 400;
                        update_history(s, p->player, &m, bonus * 16);
                        for (int j = 0; j < i; ++j)
                            if (!list.moves[j].captured) update_history(s, p->player, &list.moves[j], -bonus * 16);
                        if (!same_move(&s->killers[ply][0], &m)) {
                            s->killers[ply][1] = s->killers[ply][0];
                            s->killers[ply][0] = m;
                        }
                    }
                    break;
                }
                alpha = score;
            }
        }
    }
    const int bound = best >= beta ? BOUND_LOWER : (pv_node && best > old_alpha) ? BOUND_EXACT : BOUND_UPPER;
    tt_store(s, p->key, depth, bound, best, have_best ? &best_move : NULL, ply);
    return best;
}

/* One iteration: aspiration windows around the previous score, widened on a fail. */
static int search_root(Searcher *s, int depth, int previous)
{
    int delta = s->parameters.aspiration_window, alpha = -INFINITE_SCORE, beta = INFINITE_SCORE;
    if (depth >= ASPIRATION_MIN_DEPTH && abs(previous) < MATE_BOUND) {
        alpha = previous - delta;
        beta = previous + delta;
    }
    for (;;) {
        s->seldepth = 0;
        const int score = search(s, 0, alpha, beta, depth, 1);
        if (s->stopped) return 0;
        if (score <= alpha && alpha > -INFINITE_SCORE) {
            beta = (alpha + beta) / 2;
            alpha = score - delta > -INFINITE_SCORE ? score - delta : -INFINITE_SCORE;
        } else if (score >= beta && beta < INFINITE_SCORE) {
            beta = score + delta < INFINITE_SCORE ? score + delta : INFINITE_SCORE;
        } else {
            return score;
        }
        delta += delta / 2;
        if (delta > 1000) alpha = -INFINITE_SCORE, beta = INFINITE_SCORE;
    }
}

/* ------------------------------------------------------------------ Python glue */

static int read_board(PyObject *object, u64 *board)
{
    const unsigned long long value = PyLong_AsUnsignedLongLong(object);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (value & ~valid) {
        PyErr_SetString(PyExc_ValueError, "a board has bits off the 32 squares");
        return -1;
    }
    *board = (u64)value;
    return 0;
}

/* (black, white, kings, player[, quiet]) into ``p``, its key computed. */
static int read_position(PyObject *tuple, Position *p, int with_quiet)
{
    PyObject *black, *white, *kings;
    int player, quiet = 0;
    if (!PyTuple_Check(tuple)) {
        PyErr_SetString(PyExc_TypeError, "a position is a tuple (black, white, kings, player, quiet)");
        return -1;
    }
    if (with_quiet ? !PyArg_ParseTuple(tuple, "OOOii", &black, &white, &kings, &player, &quiet)
                   : !PyArg_ParseTuple(tuple, "OOOi", &black, &white, &kings, &player))
        return -1;
    if (read_board(black, &p->side[0]) < 0 || read_board(white, &p->side[1]) < 0 || read_board(kings, &p->kings) < 0)
        return -1;
    if (player != 0 && player != 1) {
        PyErr_SetString(PyExc_ValueError, "player must be 0 or 1");
        return -1;
    }
    if ((p->side[0] & p->side[1]) || (p->kings & ~(p->side[0] | p->side[1]))) {
        PyErr_SetString(PyExc_ValueError, "the boards overlap, or a king stands on an empty square");
        return -1;
    }
    if (quiet < 0) quiet = 0;
    p->player = player;
    p->quiet = quiet;
    p->key = key_of(p);
    return 0;
}

static int require_loaded(void)
{
    if (!loaded) {
        PyErr_SetString(PyExc_RuntimeError, "games.checkers._fast: load() first");
        return -1;
    }
    return 0;
}

static PyObject *module_perft(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *position;
    int depth;
    if (!PyArg_ParseTuple(args, "O!i", &PyTuple_Type, &position, &depth) || require_loaded() < 0) return NULL;
    Position p;
    if (read_position(position, &p, 0) < 0) return NULL;
    if (depth < 0 || depth > 30) {
        PyErr_SetString(PyExc_ValueError, "depth must be 0..30");
        return NULL;
    }
    u64 count;
    Py_BEGIN_ALLOW_THREADS
    count = perft(&p, depth);
    Py_END_ALLOW_THREADS
    return PyLong_FromUnsignedLongLong(count);
}

static PyObject *move_tuple(const Move *m)
{
    return Py_BuildValue("KKK", (unsigned long long)m->from, (unsigned long long)m->to,
                         (unsigned long long)m->captured);
}

static PyObject *line_list(const Move *line, int length)
{
    PyObject *list = PyList_New(length);
    if (!list) return NULL;
    for (int i = 0; i < length; ++i) {
        PyObject *item = move_tuple(&line[i]);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* ``parameters`` (a dict of PARAMETER_FIELDS names) over the defaults: 0, or -1 with the error set. */
static int read_parameters(PyObject *given, Parameters *out)
{
    *out = DEFAULT_PARAMETERS;
    if (given == NULL || given == Py_None) return 0;
    if (!PyDict_Check(given)) {
        PyErr_SetString(PyExc_TypeError, "parameters must be a dict of names and ints");
        return -1;
    }
    PyObject *name, *value;
    Py_ssize_t position = 0;
    while (PyDict_Next(given, &position, &name, &value)) {
        int found = -1;
        for (int i = 0; i < PARAMETER_COUNT; ++i)
            if (PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, PARAMETER_FIELDS[i].name) == 0) found = i;
        if (found < 0) {
            PyErr_Format(PyExc_ValueError, "unknown search parameter %R", name);
            return -1;
        }
        const long number = PyLong_AsLong(value);
        if (number == -1 && PyErr_Occurred()) return -1;
        if (number < PARAMETER_FIELDS[found].low || number > PARAMETER_FIELDS[found].high) {
            PyErr_Format(PyExc_ValueError, "search parameter %s must be %d..%d", PARAMETER_FIELDS[found].name,
                         PARAMETER_FIELDS[found].low, PARAMETER_FIELDS[found].high);
            return -1;
        }
        *(int *)((char *)out + PARAMETER_FIELDS[found].offset) = (int)number;
    }
    return 0;
}

static PyObject *Searcher_parameters(Searcher *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *result = PyDict_New();
    if (!result) return NULL;
    for (int i = 0; i < PARAMETER_COUNT; ++i) {
        PyObject *value = PyLong_FromLong(*(const int *)((const char *)&self->parameters + PARAMETER_FIELDS[i].offset));
        if (!value || PyDict_SetItemString(result, PARAMETER_FIELDS[i].name, value) < 0) {
            Py_XDECREF(value);
            Py_DECREF(result);
            return NULL;
        }
        Py_DECREF(value);
    }
    return result;
}

static int Searcher_init(Searcher *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"hash_mb", "parameters", NULL};
    int megabytes = 16;
    PyObject *given = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|iO:Searcher", keywords, &megabytes, &given)) return -1;
    Parameters parameters;
    if (read_parameters(given, &parameters) < 0) return -1;
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
    self->parameters = parameters;
    clear_tables(self);
    return 0;
}



/* The game's positions before the root, oldest first (the irreversible part already cut
 * off by the caller), then room for the line searched. */
static int read_history(Searcher *self, PyObject *history, const Position *root)
{
    PyObject *sequence = PySequence_Fast(history, "history must be a list of (black, white, kings, player)");
    if (!sequence) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(sequence);
    if (count > root->quiet) count = root->quiet; /* only positions since the last irreversible move can repeat */
    const Py_ssize_t skip = PySequence_Fast_GET_SIZE(sequence) - count;
    const size_t capacity = (size_t)count + MAX_PLY + 4;
    if (capacity > self->keys_capacity) {
        u64 *keys = realloc(self->keys, capacity * sizeof(u64));
        if (!keys) {
            Py_DECREF(sequence);
            PyErr_NoMemory();
            return -1;
        }
        self->keys = keys;
        self->keys_capacity = capacity;
    }
    for (Py_ssize_t i = 0; i < count; ++i) {
        Position p;
        if (read_position(PySequence_Fast_GET_ITEM(sequence, skip + i), &p, 0) < 0) {
            Py_DECREF(sequence);
            return -1;
        }
        self->keys[i] = p.key;
    }
    Py_DECREF(sequence);
    self->root_index = (int)count;
    self->keys[count] = root->key;
    return 0;
}

/* The root's moves, only those of ``root_moves`` (triples of boards) when given. */
static int collect_root_moves(Searcher *self, const Position *root, PyObject *root_moves)
{
    MoveList all;
    generate(root, &all);
    if (root->quiet >= NO_PROGRESS_LIMIT) all.count = 0; /* drawn by the 40-move rule */
    self->root_moves.count = 0;
    if (root_moves == Py_None) {
        self->root_moves = all;
        return 0;
    }
    PyObject *sequence = PySequence_Fast(root_moves, "root_moves must be a list of (from, to, captured)");
    if (!sequence) return -1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(sequence); ++i) {
        unsigned long long from, to, captured;
        PyObject *item = PySequence_Fast_GET_ITEM(sequence, i);
        if (!PyTuple_Check(item) || !PyArg_ParseTuple(item, "KKK", &from, &to, &captured)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a root move is a tuple (from, to, captured)");
            Py_DECREF(sequence);
            return -1;
        }
        const Move wanted = {from, to, captured};
        int legal = 0;
        for (int j = 0; j < all.count; ++j)
            if (same_move(&all.moves[j], &wanted)) legal = 1;
        if (!legal) {
            Py_DECREF(sequence);
            PyErr_SetString(PyExc_ValueError, "a root move is not legal in this position");
            return -1;
        }
        int listed = 0;
        for (int j = 0; j < self->root_moves.count; ++j)
            if (same_move(&self->root_moves.moves[j], &wanted)) listed = 1;
        if (!listed) push_move(&self->root_moves, from, to, captured);
    }
    Py_DECREF(sequence);
    return 0;
}

/* Helper ``index`` set to search this search's root: the shared table, copies of the rest. */
static int prepare_helper(Searcher *self, Searcher *helper, int index)
{
    const size_t capacity = (size_t)self->root_index + MAX_PLY + 4;
    if (capacity > helper->keys_capacity) {
        u64 *keys = realloc(helper->keys, capacity * sizeof(u64));
        if (!keys) return 0;
        helper->keys = keys;
        helper->keys_capacity = capacity;
    }
    memcpy(helper->keys, self->keys, ((size_t)self->root_index + 1) * sizeof(u64));
    helper->root_index = self->root_index;
    helper->parameters = self->parameters;
    helper->table = self->table;
    helper->bucket_count = self->bucket_count;
    helper->generation = self->generation;
    memcpy(helper->weights, self->weights, sizeof helper->weights);
    memcpy(helper->history, self->history, sizeof helper->history);
    memset(helper->killers, 0, sizeof helper->killers);
    helper->stack[0] = self->stack[0];
    helper->root_moves = self->root_moves;
    helper->nodes = helper->qnodes = helper->tt_probes = helper->tt_hits = 0;
    helper->cutoffs = helper->first_move_cutoffs = 0;
    helper->stopped = helper->deferred = 0;
    helper->completed_depth = helper->partial_depth = 0;
    helper->next_poll = HELPER_POLL_INTERVAL;
    helper->stop_flag = &self->stop_helpers;
    helper->probe = NULL;
    helper->max_depth = self->max_depth;
    helper->root_depth = index % 2; /* the depth before its first: odd helpers start a ply deeper */
    return 1;
}

static PyObject *Searcher_search(Searcher *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"position", "history",    "max_depth", "poll",  "on_iteration", "weights",
                               "poll_interval", "root_moves", "threads", "probe", "probe_pieces", NULL};
    PyObject *position, *history, *poll, *on_iteration, *weights, *root_moves = Py_None, *probe = Py_None;
    int max_depth, threads = 1, probe_pieces = 0;
    long long poll_interval = DEFAULT_POLL_INTERVAL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOiOOO|LOiOi:search", keywords, &position, &history, &max_depth,
                                     &poll, &on_iteration, &weights, &poll_interval, &root_moves, &threads, &probe,
                                     &probe_pieces))
        return NULL;
    if (require_loaded() < 0) return NULL;
    if (!self->table) {
        PyErr_SetString(PyExc_RuntimeError, "Searcher.__init__ was not called");
        return NULL;
    }
    if (check_request(self, threads, poll, on_iteration, poll_interval, &max_depth) < 0) return NULL;
    if (probe != Py_None && !PyCallable_Check(probe)) {
        PyErr_SetString(PyExc_TypeError, "probe must be callable");
        return NULL;
    }
    double new_weights[WEIGHT_COUNT];
    if (read_weights(weights, new_weights) < 0) return NULL;
    Position root;
    if (read_position(position, &root, 1) < 0) return NULL;
    if (read_history(self, history, &root) < 0) return NULL;
    if (collect_root_moves(self, &root, root_moves) < 0) return NULL;
    if (!self->has_weights || memcmp(new_weights, self->weights, sizeof new_weights) != 0) {
        clear_tables(self); /* scores made with other weights */
        memcpy(self->weights, new_weights, sizeof new_weights);
        self->has_weights = 1;
    }

    self->busy = 1;
    Py_INCREF(poll);
    self->poll = poll;
    self->probe = probe == Py_None ? NULL : Py_NewRef(probe);
    self->probe_pieces = probe_pieces;
    self->poll_interval = poll_interval;
    self->nodes = self->reported = 0;
    self->qnodes = self->tt_probes = self->tt_hits = self->cutoffs = self->first_move_cutoffs = 0;
    self->next_poll = (u64)poll_interval;
    self->stopped = self->deferred = 0;
    self->completed_depth = self->partial_depth = 0;
    self->error_type = self->error_value = self->error_traceback = NULL;
    self->generation = (uint8_t)((self->generation + 1) & 63);
    if (self->generation == 0) self->generation = 1; /* 0 with no bound marks an empty slot */
    for (int side = 0; side < 2; ++side) /* the old history counts less in a new position */
        for (int from = 0; from < MAX_BITS; ++from)
            for (int to = 0; to < MAX_BITS; ++to) self->history[side][from][to] /= 2;
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
    Py_CLEAR(self->probe);
    return end_search(self, poll, failed);
}

static PyMethodDef Searcher_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Searcher_search, METH_VARARGS | METH_KEYWORDS,
     "search(position, history, max_depth, poll, on_iteration, weights, poll_interval=4096,\n"
     "       root_moves=None, threads=1, probe=None, probe_pieces=0) -> None\n\n"
     "Iterative deepening from ``position`` = (black, white, kings, player, quiet plies), after the\n"
     "game's earlier positions ``history`` = [(black, white, kings, player), ...] oldest first\n"
     "(they count for repetitions). ``weights``: evaluation.WEIGHT_VALUES. After each completed\n"
     "depth, on_iteration(depth, seldepth, score, nodes, pv) hears the side to move's score (a man\n"
     "is 100; MATE - plies when it wins, -(MATE - plies) when it loses) and the PV as (from, to,\n"
     "captured) boards; a true answer stops the search. poll(nodes, True) hears the nodes every\n"
     "poll_interval nodes and may raise to stop it (the exception comes out of search; depth 1\n"
     "always finishes first); poll(nodes, False) hears the rest once at a normal end.\n"
     "``root_moves`` restricts the root. probe(black, white, kings, player) -> (outcome, plies)\n"
     "or None is asked at positions of fewer than ``probe_pieces`` pieces, or of that many with\n"
     "three kings against two (what the endgame databases hold), even at the horizon.\n"
     "No legal move at the root: on_iteration is never called. ``threads`` > 1 (up to 256) adds\n"
     "Lazy SMP helper threads sharing the table (the nodes reported are all threads')."},
    {"clear", (PyCFunction)Searcher_clear, METH_NOARGS, "Forget the table, history, killers (a new game)."},
    {"interrupted", (PyCFunction)Searcher_interrupted, METH_NOARGS,
     "interrupted() -> (depth, seldepth, score, nodes, pv) or None\n\n"
     "After a search a stop cut short: the best root move the cut iteration had searched to\n"
     "the end, when one raised alpha; None otherwise."},
    {"counters", (PyCFunction)Searcher_counters, METH_NOARGS,
     "counters() -> (qnodes, tt_probes, tt_hits, cutoffs, first_move_cutoffs)"},
    {"hashfull", (PyCFunction)Searcher_hashfull, METH_NOARGS,
     "Permille of the table's slots written by the last search (from a sample)."},
    {"parameters", (PyCFunction)Searcher_parameters, METH_NOARGS,
     "parameters() -> dict: the tunable numbers this Searcher searches with."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "games.checkers._fast.Searcher",
    .tp_basicsize = sizeof(Searcher),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Searcher(hash_mb=16, parameters=None): a checkers search with its own transposition\n"
              "table, history and killers, kept from search to search until clear(). ``parameters``\n"
              "overrides tunable numbers by name (see parameters()). One search at a time; the GIL\n"
              "is released while it runs.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Searcher_init,
    .tp_dealloc = (destructor)Searcher_dealloc,
    .tp_methods = Searcher_methods,
};

static PyMethodDef search_functions[] = {
    {"search_perft", (PyCFunction)module_perft, METH_VARARGS,
     "search_perft((black, white, kings, player), depth) -> int\n\n"
     "Leaf count with the compiled search's own move generator (tests compare it with perft)."},
    {NULL, NULL, 0, NULL},
};

int add_searcher(PyObject *module)
{
    init_keys();
    if (PyType_Ready(&SearcherType) < 0) return -1;
    if (PyModule_AddObjectRef(module, "Searcher", (PyObject *)&SearcherType) < 0 ||
        PyModule_AddIntConstant(module, "MATE", MATE) < 0 || PyModule_AddIntConstant(module, "MATE_BOUND", MATE_BOUND) < 0 ||
        PyModule_AddIntConstant(module, "MAX_DEPTH", MAX_DEPTH) < 0)
        return -1;
    return PyModule_AddFunctions(module, search_functions);
}
