/*
 * games.othello._solver: the exact Othello endgame solver in C (the hot path of
 * games/othello/solver.py, same values, ~100x the speed).
 *
 * Positions are (P, O): the discs of the side to move and of the other side as 64-bit
 * boards, square s = bit s with a1 = 0, h1 = 7, a8 = 56, h8 = 63 (Edax's order, as in
 * games/othello/bitboard.py). A value is the final disc margin for the side to move under
 * perfect play, empty squares to the winner (the FFO convention).
 *
 * The search (after Edax, Richard Delorme's endgame code, and Gunnar Andersson's notes):
 *  - at the root, MTD(f): null-window tests "value >= g" from g = 0 until the bounds meet
 *    (13% fewer nodes than a full-window PVS root on FFO #40-#44 and #47);
 *  - principal variation search at PV nodes, null-window search (NWS) elsewhere;
 *  - fastest-first ordering: the move leaving the opponent the fewest replies (corner
 *    replies counted twice) first, then corner stability, potential mobility and square
 *    type (Edax's "fast" move evaluation), parity near the end; at 18+ empties a 1-3 ply
 *    search on a rough mobility evaluation orders the moves instead (sort_by_search);
 *  - a transposition table of bounds and best moves (two-slot buckets: one kept by depth,
 *    one always replaced), owned by each Solver object;
 *  - enhanced transposition cutoffs: a child the table already knows to be bad enough for
 *    the opponent cuts before any child is searched (from 10 empties on: 2% fewer nodes);
 *  - stability cutoffs: the opponent's stable discs cap our score (64 - 2 * stable), so a
 *    null window above that cap fails low at once;
 *  - at <= SHALLOW_EMPTIES no move generation: empty squares are tried directly, odd
 *    quadrants first (parity), with special code for the last 3, 2 and 1 empties.
 *
 * The search runs with the GIL released; every POLL_INTERVAL nodes it takes the GIL back
 * to check for signals, to call the poll callback (which may raise to stop the solve) and
 * to see the stop flag that Solver.stop() sets from another thread.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Population counts are the solver's most frequent operation: on x86-64 use the POPCNT
 * instruction (every x86-64 CPU since 2008-2009 has it; the module refuses to load
 * without it, and the pure-Python solver takes over, see PyInit__solver). */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#pragma GCC target("popcnt")
#define CHECK_POPCNT 1
#endif

#include "_bitboard.h"

#define SCORE_MAX 64
#define SHALLOW_EMPTIES 7     /* at most this many empties: direct squares, parity order */
#define TABLE_MIN_EMPTIES 8   /* positions with at least this many empties use the table */
#define PARITY_MAX_EMPTIES 12 /* below this, odd-quadrant moves get an ordering bonus */
#define DEFAULT_TABLE_BITS 20 /* 2^20 buckets of two entries: 32 MB */
#define DEFAULT_POLL_INTERVAL 32768
#define NO_MOVE 255
#define PASS 64

/* Far from the end (SORT_MIN_EMPTIES and more), moves are ordered by a 1-3 ply search on a
 * rough evaluation (mobility, potential mobility, corners: rough_eval), not by fastest-first
 * alone. It pays from 18 empties on, and costs nodes below: on FFO #40-#49, #49 takes 3.46G
 * nodes without it and 1.44G with it, #46 290M and 187M, #47 110M and 66M, #45 about the
 * same, #41-#44 20-30% more; from 16 empties on it costs more everywhere. Novello and Edax
 * order by a pattern evaluation here, which this file does not have. */
#define SORT_MIN_EMPTIES 18 /* nodes with at least this many empties sort by a search */
#define SORT_DEPTH_STEP 2   /* its depth: 1 + (empties - SORT_MIN_EMPTIES) / SORT_DEPTH_STEP */
#define SORT_MAX_DEPTH 3
#define W_MOBILITY 16 /* rough_eval's weights */
#define W_POTENTIAL 4
#define W_CORNER 100
#define FF_MOBILITY (1 << 15) /* fastest-first ordering's weights (list_moves) */
#define FF_POTENTIAL (1 << 5)
#define FF_CORNER_STABILITY (1 << 11)
#define FF_PARITY (1 << 3)
#define ETC_MIN 9 /* enhanced transposition cutoffs from this many empties in the child */

static inline int first_square(u64 b) { return __builtin_ctzll(b); }

/* ------------------------------------------------------------------ tables */

static u64 RAYS[64][8];       /* squares beyond s in each direction (0-3 up, 4-7 down) */
static u64 NEIGHBOURS[64];
static int QUADRANT_BIT[64];  /* 1, 2, 4 or 8 */
static u64 QUADRANT_MASK[16]; /* union of the quadrants in a 4-bit set */
static unsigned char EDGE_STABLE[256 * 256];
static u64 UNPACK_FILE_A[256];
static u64 DIAGONALS_7[15], DIAGONALS_9[15];

static const int STEP_RANK[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int STEP_FILE[8] = {1, 1, 0, -1, -1, -1, 0, 1};

static const int SQUARE_VALUE[64] = {
    18, 4,  16, 12, 12, 16, 4,  18,
    4,  2,  6,  8,  8,  6,  2,  4,
    16, 6,  14, 10, 10, 14, 6,  16,
    12, 8,  10, 0,  0,  10, 8,  12,
    12, 8,  10, 0,  0,  10, 8,  12,
    16, 6,  14, 10, 10, 14, 6,  16,
    4,  2,  6,  8,  8,  6,  2,  4,
    18, 4,  16, 12, 12, 16, 4,  18,
};

/* A null window at ``alpha`` fails low at once when the opponent's stable discs cap the
 * score at or below alpha; stability is only worth computing when alpha is this high
 * (Edax's NWS_STABILITY_THRESHOLD, by empties). */
static const int STABILITY_THRESHOLD[65] = {
    99, 99, 99, 99, 6,  8,  10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32,
    34, 36, 38, 40, 42, 44, 46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56,
    58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
};

static int find_edge_stable(int old_p, int old_o, int stable)
{
    const int empty = ~(old_p | old_o) & 0xff;
    stable &= old_p;
    if (!stable || !empty) return stable;
    for (int x = 0; x < 8; ++x) {
        if (!(empty & (1 << x))) continue;
        for (int side = 0; side < 2; ++side) {
            /* side 0: we play x; side 1: they do (a disc may also land with no flip on
             * this edge, flipping along another line, which both branches include). */
            int p = side ? old_o : old_p, o = side ? old_p : old_o, y;
            p |= 1 << x;
            if (x > 1) {
                for (y = x - 1; y > 0 && (o & (1 << y)); --y) ;
                if (y < x - 1 && (p & (1 << y)))
                    for (y = x - 1; y > 0 && (o & (1 << y)); --y) { o ^= 1 << y; p ^= 1 << y; }
            }
            if (x < 6) {
                for (y = x + 1; y < 7 && (o & (1 << y)); ++y) ;
                if (y > x + 1 && (p & (1 << y)))
                    for (y = x + 1; y < 7 && (o & (1 << y)); ++y) { o ^= 1 << y; p ^= 1 << y; }
            }
            stable = side ? find_edge_stable(o, p, stable) : find_edge_stable(p, o, stable);
            if (!stable) return stable;
        }
    }
    return stable;
}

static void init_tables(void)
{
    for (int s = 0; s < 64; ++s) {
        int rank = s / 8, file = s % 8;
        for (int d = 0; d < 8; ++d) {
            u64 ray = 0;
            for (int r = rank + STEP_RANK[d], f = file + STEP_FILE[d]; r >= 0 && r < 8 && f >= 0 && f < 8;
                 r += STEP_RANK[d], f += STEP_FILE[d])
                ray |= 1ULL << (r * 8 + f);
            RAYS[s][d] = ray;
        }
        u64 around = 0;
        for (int r = rank - 1; r <= rank + 1; ++r)
            for (int f = file - 1; f <= file + 1; ++f)
                if (r >= 0 && r < 8 && f >= 0 && f < 8 && (r != rank || f != file)) around |= 1ULL << (r * 8 + f);
        NEIGHBOURS[s] = around;
        QUADRANT_BIT[s] = 1 << ((rank >= 4) * 2 + (file >= 4));
    }
    for (int set = 0; set < 16; ++set) {
        u64 mask = 0;
        for (int s = 0; s < 64; ++s)
            if (set & QUADRANT_BIT[s]) mask |= 1ULL << s;
        QUADRANT_MASK[set] = mask;
    }
    for (int e = 0; e < 256; ++e) {
        u64 b = 0;
        for (int k = 0; k < 8; ++k)
            if (e & (1 << k)) b |= 1ULL << (8 * k);
        UNPACK_FILE_A[e] = b;
    }
    for (int k = 0; k < 15; ++k) {
        u64 d7 = 0, d9 = 0;
        for (int s = 0; s < 64; ++s) {
            if (s / 8 + s % 8 == k) d7 |= 1ULL << s;
            if (s / 8 - s % 8 + 7 == k) d9 |= 1ULL << s;
        }
        DIAGONALS_7[k] = d7;
        DIAGONALS_9[k] = d9;
    }
    memset(EDGE_STABLE, 0, sizeof EDGE_STABLE);
    for (int p = 0; p < 256; ++p)
        for (int o = 0; o < 256; ++o)
            if (!(p & o)) EDGE_STABLE[p * 256 + o] = (unsigned char)find_edge_stable(p, o, p);
}

/* ------------------------------------------------------------------ rules */

static inline u64 flips(u64 p, u64 o, int square)
{
    u64 flipped = 0;
    const u64 *rays = RAYS[square];
    /* Directions 0-3 go to higher squares: the nearest square that is not the opponent's
     * is the lowest set bit of (~o & ray); all squares of the ray before it are theirs. */
    for (int d = 0; d < 4; ++d) {
        const u64 ray = rays[d], stop = ray & ~o;
        const u64 first = stop & (0 - stop);
        if (first & p) flipped |= (first - 1) & ray;
    }
    /* Directions 4-7 go to lower squares: the nearest is the highest set bit. */
    for (int d = 4; d < 8; ++d) {
        const u64 ray = rays[d], stop = ray & ~o;
        if (!stop) continue;
        const u64 first = 1ULL << (63 - __builtin_clzll(stop));
        if (first & p) flipped |= ray & ~((first << 1) - 1);
    }
    return flipped;
}

static inline int final_score(u64 p, u64 o)
{
    const int own = popcount(p), other = popcount(o);
    if (own > other) return 64 - 2 * other;
    if (own < other) return 2 * own - 64;
    return 0;
}

static inline u64 potential_moves(u64 p, u64 o)
{
    /* Empty squares next to an opponent disc. */
    const u64 h = o & NOT_EDGE_FILES;
    return ((h << 1) | (h >> 1) | (o << 8) | (o >> 8) | (h << 7) | (h >> 7) | (h << 9) | (h >> 9)) & ~(p | o);
}

static inline int corner_stability(u64 p)
{
    const u64 stable = ((((0x0100000000000001ULL & p) << 1) | ((0x8000000000000080ULL & p) >> 1) |
                         ((0x0000000000000081ULL & p) << 8) | ((0x8100000000000000ULL & p) >> 8) |
                         0x8100000000000081ULL) & p);
    return popcount(stable);
}

static inline u64 pack_file_a(u64 b)
{
    return ((b & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56;
}

/* The discs of ``p`` that no sequence of moves can flip (a lower bound: edges exactly,
 * inner discs when each of their four lines is full or leans on a stable disc). */
static int stable_count(u64 p, u64 o)
{
    const u64 filled = p | o;
    u64 full_h = 0, full_v = 0, full_d7 = 0, full_d9 = 0;
    for (int r = 0; r < 8; ++r) {
        const u64 row = 0xFFULL << (8 * r);
        if ((filled & row) == row) full_h |= row;
    }
    for (int f = 0; f < 8; ++f) {
        const u64 column = 0x0101010101010101ULL << f;
        if ((filled & column) == column) full_v |= column;
    }
    for (int k = 0; k < 15; ++k) {
        if ((filled & DIAGONALS_7[k]) == DIAGONALS_7[k]) full_d7 |= DIAGONALS_7[k];
        if ((filled & DIAGONALS_9[k]) == DIAGONALS_9[k]) full_d9 |= DIAGONALS_9[k];
    }
    u64 stable = EDGE_STABLE[(p & 0xff) * 256 + (o & 0xff)];
    stable |= (u64)EDGE_STABLE[(p >> 56) * 256 + (o >> 56)] << 56;
    stable |= UNPACK_FILE_A[EDGE_STABLE[pack_file_a(p) * 256 + pack_file_a(o)]];
    stable |= UNPACK_FILE_A[EDGE_STABLE[pack_file_a(p >> 7) * 256 + pack_file_a(o >> 7)]] << 7;
    const u64 central = p & 0x007E7E7E7E7E7E00ULL;
    stable |= central & full_h & full_v & full_d7 & full_d9;
    if (!stable) return 0;
    u64 old;
    do {
        old = stable;
        const u64 h = (stable >> 1) | (stable << 1) | full_h;
        const u64 v = (stable >> 8) | (stable << 8) | full_v;
        const u64 d7 = (stable >> 7) | (stable << 7) | full_d7;
        const u64 d9 = (stable >> 9) | (stable << 9) | full_d9;
        stable |= h & v & d7 & d9 & central;
    } while (stable != old);
    return popcount(stable);
}

/* ------------------------------------------------------------------ table */

typedef struct {
    u64 p, o;
    signed char lower, upper;
    unsigned char move, empties;
} Entry;

static inline u64 hash_position(u64 p, u64 o)
{
    u64 h = p * 0x9E3779B97F4A7C15ULL ^ (o + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 29);
}

/* ------------------------------------------------------------------ search state */

typedef struct {
    PyObject_HEAD
    Entry *table;       /* 2 << table_bits entries */
    int table_bits;
    u64 nodes;          /* nodes of the current solve */
    u64 next_poll;
    u64 reported;
    long long poll_interval;
    PyObject *poll;     /* borrowed during a solve */
    PyThreadState *thread;
    volatile int stop_requested;
    int stopped;        /* the search is unwinding: a stop or an error */
    int failed;         /* a Python exception is pending (saved below) */
    int busy;
    PyObject *error_type, *error_value, *error_traceback;
} Solver;

static PyObject *SolveStopped;

static void poll_now(Solver *s)
{
    s->next_poll = s->nodes + (u64)s->poll_interval;
    PyEval_RestoreThread(s->thread);
    int fail = PyErr_CheckSignals() != 0;
    if (!fail && s->poll != NULL) {
        const u64 count = s->nodes - s->reported;
        s->reported = s->nodes;
        PyObject *answer = PyObject_CallFunction(s->poll, "KO", (unsigned long long)count, Py_True);
        if (answer == NULL) fail = 1;
        Py_XDECREF(answer);
    }
    if (fail) {
        PyErr_Fetch(&s->error_type, &s->error_value, &s->error_traceback);
        s->failed = 1;
        s->stopped = 1;
    } else if (s->stop_requested) {
        s->stopped = 1;
    }
    s->thread = PyEval_SaveThread();
}

#define COUNT_NODE(s)                                  \
    do {                                               \
        if (++(s)->nodes >= (s)->next_poll) poll_now(s); \
    } while (0)

static inline Entry *probe(Solver *s, u64 p, u64 o)
{
    if (!s->table) return NULL;
    Entry *bucket = s->table + ((hash_position(p, o) & ((1ULL << s->table_bits) - 1)) << 1);
    if (bucket[0].p == p && bucket[0].o == o && bucket[0].empties) return &bucket[0];
    if (bucket[1].p == p && bucket[1].o == o && bucket[1].empties) return &bucket[1];
    return NULL;
}

static void store(Solver *s, u64 p, u64 o, int empties, int alpha, int beta, int score, int move)
{
    if (!s->table || s->stopped) return;
    Entry *bucket = s->table + ((hash_position(p, o) & ((1ULL << s->table_bits) - 1)) << 1);
    Entry *entry;
    int lower = -SCORE_MAX, upper = SCORE_MAX;
    if (bucket[0].p == p && bucket[0].o == o && bucket[0].empties) {
        entry = &bucket[0];
        lower = entry->lower;
        upper = entry->upper;
    } else if (bucket[1].p == p && bucket[1].o == o && bucket[1].empties) {
        entry = &bucket[1];
        lower = entry->lower;
        upper = entry->upper;
    } else if (empties >= bucket[0].empties) {
        bucket[1] = bucket[0]; /* the deeper slot's old entry moves to the other slot */
        entry = &bucket[0];
    } else {
        entry = &bucket[1];
    }
    if (score <= alpha) {
        if (score < upper) upper = score;
    } else if (score >= beta) {
        if (score > lower) lower = score;
    } else {
        lower = upper = score;
    }
    if (lower > upper) { /* cannot happen with exact bounds; keep the newest */
        lower = score <= alpha ? -SCORE_MAX : score;
        upper = score >= beta ? SCORE_MAX : score;
    }
    entry->p = p;
    entry->o = o;
    entry->lower = (signed char)lower;
    entry->upper = (signed char)upper;
    entry->move = (unsigned char)move;
    entry->empties = (unsigned char)empties;
}

/* ------------------------------------------------------------------ the last empties */

/* The final margin for p (to move) when ``square`` is the only empty square. */
static inline int last_score(Solver *s, u64 p, u64 o, int square)
{
    COUNT_NODE(s);
    const int own = popcount(p);
    u64 f = (NEIGHBOURS[square] & o) ? flips(p, o, square) : 0;
    if (f) return 2 * (own + popcount(f)) - 62;
    f = (NEIGHBOURS[square] & p) ? flips(o, p, square) : 0;
    if (f) return 2 * (own - popcount(f)) - 64;
    const int difference = 2 * own - 63;
    return difference > 0 ? difference + 1 : difference - 1;
}

static int solve_2(Solver *s, u64 p, u64 o, int alpha, int beta, int x1, int x2, int passed)
{
    COUNT_NODE(s);
    int best = -SCORE_MAX - 1, score;
    u64 f;
    if ((NEIGHBOURS[x1] & o) && (f = flips(p, o, x1))) {
        best = -last_score(s, o ^ f, p | f | (1ULL << x1), x2);
        if (best >= beta) return best;
    }
    if ((NEIGHBOURS[x2] & o) && (f = flips(p, o, x2))) {
        score = -last_score(s, o ^ f, p | f | (1ULL << x2), x1);
        if (score > best) best = score;
    }
    if (best > -SCORE_MAX - 1) return best;
    if (passed) return final_score(p, o);
    return -solve_2(s, o, p, -beta, -alpha, x1, x2, 1);
}

static int shallow(Solver *s, u64 p, u64 o, int alpha, int beta, u64 empty, int parity, int passed);

static int solve_3(Solver *s, u64 p, u64 o, int alpha, int beta, u64 empty, int parity, int passed)
{
    COUNT_NODE(s);
    int best = -SCORE_MAX - 1, score;
    const u64 odd = QUADRANT_MASK[parity];
    u64 regions[2] = {empty & odd, empty & ~odd};
    for (int r = 0; r < 2; ++r) {
        u64 region = regions[r];
        while (region) {
            const int x = first_square(region);
            region &= region - 1;
            u64 f;
            if (!(NEIGHBOURS[x] & o) || !(f = flips(p, o, x))) continue;
            const u64 rest = empty & ~(1ULL << x);
            const int y = first_square(rest), z = first_square(rest & (rest - 1));
            score = -solve_2(s, o ^ f, p | f | (1ULL << x), -beta, -alpha, y, z, 0);
            if (s->stopped) return 0;
            if (score > best) {
                best = score;
                if (score > alpha) {
                    alpha = score;
                    if (alpha >= beta) return best;
                }
            }
        }
    }
    if (best > -SCORE_MAX - 1) return best;
    if (passed) return final_score(p, o);
    return -solve_3(s, o, p, -beta, -alpha, empty, parity, 1);
}

/* Negamax at few empties: each empty square tried directly, odd quadrants first. */
static int shallow(Solver *s, u64 p, u64 o, int alpha, int beta, u64 empty, int parity, int passed)
{
    COUNT_NODE(s);
    const int empties = popcount(empty);
    if (!passed && alpha >= STABILITY_THRESHOLD[empties]) {
        const int upper = SCORE_MAX - 2 * stable_count(o, p);
        if (upper <= alpha) return upper;
        if (upper < beta) beta = upper;
    }
    int best = -SCORE_MAX - 1, score;
    const u64 odd = QUADRANT_MASK[parity];
    u64 regions[2] = {empty & odd, empty & ~odd};
    for (int r = 0; r < 2; ++r) {
        u64 region = regions[r];
        while (region) {
            const int x = first_square(region);
            region &= region - 1;
            u64 f;
            if (!(NEIGHBOURS[x] & o) || !(f = flips(p, o, x))) continue;
            const u64 rest = empty & ~(1ULL << x);
            const u64 child_p = o ^ f, child_o = p | f | (1ULL << x);
            if (empties > 4)
                score = -shallow(s, child_p, child_o, -beta, -alpha, rest, parity ^ QUADRANT_BIT[x], 0);
            else
                score = -solve_3(s, child_p, child_o, -beta, -alpha, rest, parity ^ QUADRANT_BIT[x], 0);
            if (s->stopped) return 0;
            if (score > best) {
                best = score;
                if (score > alpha) {
                    alpha = score;
                    if (alpha >= beta) return best;
                }
            }
        }
    }
    if (best > -SCORE_MAX - 1) return best;
    if (passed) return final_score(p, o);
    return -shallow(s, o, p, -beta, -alpha, empty, parity, 1);
}

static inline int quadrant_parity(u64 empty)
{
    int parity = 0;
    for (int q = 0; q < 4; ++q)
        if (popcount(empty & QUADRANT_MASK[1 << q]) & 1) parity |= 1 << q;
    return parity;
}

/* Any position with at most SHALLOW_EMPTIES empties (or fewer than 3). */
static int solve_small(Solver *s, u64 p, u64 o, int alpha, int beta)
{
    const u64 empty = ~(p | o);
    const int empties = popcount(empty);
    if (empties == 0) {
        COUNT_NODE(s);
        return final_score(p, o);
    }
    if (empties == 1) return last_score(s, p, o, first_square(empty));
    if (empties == 2) return solve_2(s, p, o, alpha, beta, first_square(empty), first_square(empty & (empty - 1)), 0);
    if (empties == 3) return solve_3(s, p, o, alpha, beta, empty, quadrant_parity(empty), 0);
    return shallow(s, p, o, alpha, beta, empty, quadrant_parity(empty), 0);
}

/* ------------------------------------------------------------------ deep search */

typedef struct {
    u64 flipped;
    u64 replies; /* the child's moves (the opponent's replies) */
    int square;
    int score;
} Move;

/* The moves of p in ``moves``, each with its ordering score (higher first). */
static int list_moves(u64 p, u64 o, u64 moves, int empties, int table_move, Move *list)
{
    const int parity = empties < PARITY_MAX_EMPTIES ? quadrant_parity(~(p | o)) : 0;
    int count = 0;
    while (moves) {
        const int x = first_square(moves);
        moves &= moves - 1;
        Move *m = &list[count++];
        m->square = x;
        m->flipped = flips(p, o, x);
        const u64 child_p = o ^ m->flipped, child_o = p | m->flipped | (1ULL << x);
        m->replies = legal_moves(child_p, child_o);
        if (!child_p) {
            m->score = 1 << 30; /* wipe-out */
        } else if (x == table_move) {
            m->score = 1 << 29;
        } else {
            int score = SQUARE_VALUE[x];
            if (parity & QUADRANT_BIT[x]) score += FF_PARITY;
            score += (36 - popcount(potential_moves(child_p, child_o))) * FF_POTENTIAL;
            score += corner_stability(child_o) * FF_CORNER_STABILITY;
            score += (36 - popcount(m->replies) - popcount(m->replies & 0x8100000000000081ULL)) * FF_MOBILITY;
            m->score = score;
        }
    }
    return count;
}

/* Bring the best-scored move of list[from..count) to ``from`` (lazy selection sort). */
static inline void select_best(Move *list, int from, int count)
{
    int best = from;
    for (int i = from + 1; i < count; ++i)
        if (list[i].score > list[best].score) best = i;
    if (best != from) {
        Move t = list[from];
        list[from] = list[best];
        list[best] = t;
    }
}

/* A rough midgame score for p to move (no patterns: mobility, potential mobility and
 * corners), only to order moves far from the end. */
static int rough_eval(u64 p, u64 o, u64 p_moves)
{
    const u64 corners = 0x8100000000000081ULL;
    const u64 o_moves = legal_moves(o, p);
    int score = W_MOBILITY * (popcount(p_moves) + popcount(p_moves & corners) - popcount(o_moves) -
                              popcount(o_moves & corners));
    score += W_POTENTIAL * (popcount(potential_moves(p, o)) - popcount(potential_moves(o, p)));
    score += W_CORNER * (popcount(p & corners) - popcount(o & corners));
    return score;
}

/* Negamax alpha-beta on rough_eval to ``depth`` plies (the shallow search that orders
 * the moves of nodes far from the end). */
static int rough_search(Solver *s, u64 p, u64 o, u64 moves, int depth, int alpha, int beta, int passed)
{
    COUNT_NODE(s);
    if (!moves) {
        const u64 replies = legal_moves(o, p);
        if (!replies) return final_score(p, o) * 1000;
        if (passed) return final_score(p, o) * 1000;
        return -rough_search(s, o, p, replies, depth, -beta, -alpha, 1);
    }
    if (depth == 0) return rough_eval(p, o, moves);
    int best = -1000000;
    while (moves) {
        const int x = first_square(moves);
        moves &= moves - 1;
        const u64 f = flips(p, o, x);
        const u64 child_p = o ^ f, child_o = p | f | (1ULL << x);
        const int score = -rough_search(s, child_p, child_o, legal_moves(child_p, child_o), depth - 1, -beta, -alpha, 0);
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) break;
            }
        }
    }
    return best;
}

/* Far from the end, replace the fast ordering scores by a shallow search's values (the
 * table move and a wipe-out stay first). */
static void sort_by_search(Solver *s, u64 p, u64 o, Move *list, int count, int empties)
{
    if (empties < SORT_MIN_EMPTIES || count < 2) return;
    int depth = 1 + (empties - SORT_MIN_EMPTIES) / SORT_DEPTH_STEP;
    if (depth > SORT_MAX_DEPTH) depth = SORT_MAX_DEPTH;
    for (int i = 0; i < count; ++i) {
        Move *m = &list[i];
        if (m->score >= (1 << 29)) continue;
        const u64 child_p = o ^ m->flipped, child_o = p | m->flipped | (1ULL << m->square);
        const int value = -rough_search(s, child_p, child_o, m->replies, depth - 1, -1000000, 1000000, 0);
        m->score = value + (1 << 24);
    }
}

static int nws(Solver *s, u64 p, u64 o, int alpha, u64 moves, int empties, int passed);

static int nws_child(Solver *s, u64 p, u64 o, int alpha, u64 moves, int empties)
{
    if (empties <= SHALLOW_EMPTIES) return solve_small(s, p, o, alpha, alpha + 1);
    return nws(s, p, o, alpha, moves, empties, 0);
}

/* The null-window move loop of nws and root_nws: the moves of `list` best first (each
 * picked by select_best as it is reached) until one scores at least beta. Returns the best
 * score (0 once the solve is stopped) and its square in *best_move. */
static int nws_moves(Solver *s, u64 p, u64 o, int beta, Move *list, int count, int empties, int *best_move)
{
    int best = -SCORE_MAX - 1;
    *best_move = NO_MOVE;
    for (int i = 0; i < count; ++i) {
        select_best(list, i, count);
        const Move *m = &list[i];
        const int score = -nws_child(s, o ^ m->flipped, p | m->flipped | (1ULL << m->square), -beta, m->replies,
                                     empties - 1);
        if (s->stopped) return 0;
        if (score > best) {
            best = score;
            *best_move = m->square;
            if (score >= beta) break;
        }
    }
    return best;
}

/* Null-window search: is the value of p to move above alpha? Fail-soft. */
static int nws(Solver *s, u64 p, u64 o, int alpha, u64 moves, int empties, int passed)
{
    (void)passed; /* a pass is searched like any node; the flag only documents the call */
    COUNT_NODE(s);
    if (s->stopped) return 0;
    const int beta = alpha + 1;
    if (!moves) {
        const u64 replies = legal_moves(o, p);
        if (!replies) return final_score(p, o);
        return -nws(s, o, p, -beta, replies, empties, 1);
    }
    if (alpha >= STABILITY_THRESHOLD[empties]) {
        const int upper = SCORE_MAX - 2 * stable_count(o, p);
        if (upper <= alpha) return upper;
    }
    int table_move = NO_MOVE;
    const Entry *entry = probe(s, p, o);
    if (entry) {
        if (entry->lower >= beta) return entry->lower;
        if (entry->upper <= alpha) return entry->upper;
        table_move = entry->move;
    }
    Move list[33];
    const int count = list_moves(p, o, moves, empties, table_move, list);
    sort_by_search(s, p, o, list, count, empties);
    if (empties - 1 >= ETC_MIN && s->table) {
        for (int i = 0; i < count; ++i) {
            const u64 child_p = o ^ list[i].flipped, child_o = p | list[i].flipped | (1ULL << list[i].square);
            const Entry *child = probe(s, child_p, child_o);
            if (child && -child->upper >= beta) return -child->upper;
        }
    }
    int best_move;
    const int best = nws_moves(s, p, o, beta, list, count, empties, &best_move);
    if (s->stopped) return 0;
    store(s, p, o, empties, alpha, beta, best, best_move);
    return best;
}

/* Principal variation search within (alpha, beta). Fail-soft. */
static int pvs(Solver *s, u64 p, u64 o, int alpha, int beta, u64 moves, int empties, int passed, int *best_square)
{
    (void)passed;
    if (empties <= SHALLOW_EMPTIES && best_square == NULL) return solve_small(s, p, o, alpha, beta);
    COUNT_NODE(s);
    if (s->stopped) return 0;
    if (!moves) {
        const u64 replies = legal_moves(o, p);
        if (!replies) return final_score(p, o);
        if (best_square) *best_square = PASS;
        return -pvs(s, o, p, -beta, -alpha, replies, empties, 1, NULL);
    }
    int table_move = NO_MOVE;
    const Entry *entry = probe(s, p, o);
    if (entry) {
        table_move = entry->move;
        if (best_square == NULL) {
            if (entry->lower >= beta) return entry->lower;
            if (entry->upper <= alpha) return entry->upper;
            if (entry->lower == entry->upper) return entry->lower;
        }
    }
    const int original_alpha = alpha;
    Move list[33];
    const int count = list_moves(p, o, moves, empties, table_move, list);
    sort_by_search(s, p, o, list, count, empties);
    int best = -SCORE_MAX - 1, best_move = NO_MOVE;
    for (int i = 0; i < count; ++i) {
        select_best(list, i, count);
        const Move *m = &list[i];
        const u64 child_p = o ^ m->flipped, child_o = p | m->flipped | (1ULL << m->square);
        int score;
        if (i == 0) {
            score = -pvs(s, child_p, child_o, -beta, -alpha, m->replies, empties - 1, 0, NULL);
        } else {
            score = -nws_child(s, child_p, child_o, -alpha - 1, m->replies, empties - 1);
            if (!s->stopped && score > alpha && score < beta)
                score = -pvs(s, child_p, child_o, -beta, -score, m->replies, empties - 1, 0, NULL);
        }
        if (s->stopped) return 0;
        if (score > best) {
            best = score;
            best_move = m->square;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) break;
            }
        }
    }
    store(s, p, o, empties, original_alpha, beta, best, best_move);
    if (best_square) *best_square = best_move;
    return best;
}

/* Root null-window test: is the value of p to move above alpha? Fail-soft; a move that
 * proves it goes to *best_square. */
static int root_nws(Solver *s, u64 p, u64 o, int alpha, u64 moves, int empties, int *best_square)
{
    COUNT_NODE(s);
    const int beta = alpha + 1;
    int table_move = NO_MOVE;
    const Entry *entry = probe(s, p, o);
    if (entry) table_move = entry->move;
    Move list[33];
    const int count = list_moves(p, o, moves, empties, table_move, list);
    int best_move;
    const int best = nws_moves(s, p, o, beta, list, count, empties, &best_move);
    if (s->stopped) return 0;
    store(s, p, o, empties, alpha, beta, best, best_move);
    if (best >= beta) *best_square = best_move;
    return best;
}

/* The exact root value by a sequence of null-window tests (MTD(f), Plaat 1996, from a
 * first guess of 0): final margins are even, so each test "value >= g" is the window
 * (g - 1, g), and the table keeps every bound and best move between tests, which makes
 * the later tests cheap. Used when the whole window (-65, 65) is asked for. Each test
 * steps by one margin (2) from the last bound: a test above the value costs as much as a
 * proof, so doubling the step while tests fail the same way costs more (FFO #40, +38:
 * 35.2M nodes instead of 20.6M). */
static int root_mtd(Solver *s, u64 p, u64 o, u64 moves, int empties, int *best_square)
{
    int lower = -SCORE_MAX, upper = SCORE_MAX, test = 0, best_move = NO_MOVE;
    while (lower < upper) {
        if (test <= lower) test = lower + 2;
        if (test > upper) test = upper;
        const int value = root_nws(s, p, o, test - 1, moves, empties, &best_move);
        if (s->stopped) return 0;
        if (value >= test) {
            lower = value;
            test = lower + 2;
        } else {
            upper = value;
            test = upper;
        }
    }
    if (best_move == NO_MOVE) { /* never failed high: every move loses by the most */
        root_nws(s, p, o, lower - 1, moves, empties, &best_move);
        if (s->stopped) return 0;
    }
    *best_square = best_move;
    return lower;
}

/* ------------------------------------------------------------------ Python type */

static int parse_board(PyObject *value, const char *name, u64 *out)
{
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int bitboard, not %.100s", name, Py_TYPE(value)->tp_name);
        return -1;
    }
    const unsigned long long board = PyLong_AsUnsignedLongLong(value);
    if (board == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be a 64-bit bitboard (0 <= %s < 2**64)", name, name);
        return -1;
    }
    *out = board;
    return 0;
}

static int allocate_table(Solver *s)
{
    if (s->table) return 0;
    s->table = calloc((size_t)2 << s->table_bits, sizeof(Entry));
    if (!s->table) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *Solver_solve(Solver *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"own", "opponent", "poll", "alpha", "beta", NULL};
    PyObject *own_object, *opponent_object, *poll = Py_None;
    int alpha = -SCORE_MAX - 1, beta = SCORE_MAX + 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|Oii:solve", keywords, &own_object, &opponent_object, &poll,
                                     &alpha, &beta))
        return NULL;
    u64 p, o;
    if (parse_board(own_object, "own", &p) < 0 || parse_board(opponent_object, "opponent", &o) < 0) return NULL;
    if (p & o) {
        PyErr_SetString(PyExc_ValueError, "own and opponent share a square");
        return NULL;
    }
    if (poll != Py_None && !PyCallable_Check(poll)) {
        PyErr_SetString(PyExc_TypeError, "poll must be callable or None");
        return NULL;
    }
    if (alpha < -SCORE_MAX - 1 || beta > SCORE_MAX + 1 || alpha >= beta) {
        PyErr_SetString(PyExc_ValueError, "need -65 <= alpha < beta <= 65");
        return NULL;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Solver is already solving (one solve at a time per Solver)");
        return NULL;
    }
    const int empties = 64 - popcount(p | o);
    if (empties >= TABLE_MIN_EMPTIES && allocate_table(self) < 0) return NULL;

    self->busy = 1;
    self->nodes = 0;
    self->reported = 0;
    self->next_poll = (u64)self->poll_interval;
    self->poll = poll == Py_None ? NULL : poll;
    self->stop_requested = 0;
    self->stopped = 0;
    self->failed = 0;
    self->error_type = self->error_value = self->error_traceback = NULL;
    Py_INCREF(poll);

    int best_square = NO_MOVE, score;
    self->thread = PyEval_SaveThread();
    const u64 moves = legal_moves(p, o);
    if (!moves && !legal_moves(o, p)) {
        self->nodes = 1;
        score = final_score(p, o);
    } else {
        if (moves && alpha == -SCORE_MAX - 1 && beta == SCORE_MAX + 1 && empties > SHALLOW_EMPTIES)
            score = root_mtd(self, p, o, moves, empties, &best_square);
        else
            score = pvs(self, p, o, alpha, beta, moves, empties, 0, &best_square);
    }
    PyEval_RestoreThread(self->thread);
    self->thread = NULL;
    self->busy = 0;
    self->poll = NULL;

    PyObject *result = NULL;
    if (self->failed) {
        PyErr_Restore(self->error_type, self->error_value, self->error_traceback);
    } else if (self->stopped) {
        PyErr_SetString(SolveStopped, "the solve was stopped");
    } else {
        if (poll != Py_None) {
            PyObject *answer = PyObject_CallFunction(poll, "KO", (unsigned long long)(self->nodes - self->reported), Py_False);
            if (answer == NULL) goto done;
            Py_DECREF(answer);
        }
        PyObject *move = best_square == NO_MOVE ? Py_NewRef(Py_None) : PyLong_FromLong(best_square);
        result = Py_BuildValue("(iNK)", score, move, (unsigned long long)self->nodes);
    }
done:
    Py_DECREF(poll);
    return result;
}

static PyObject *Solver_stop(Solver *self, PyObject *Py_UNUSED(ignored))
{
    self->stop_requested = 1;
    Py_RETURN_NONE;
}

static PyObject *Solver_clear(Solver *self, PyObject *Py_UNUSED(ignored))
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "cannot clear a Solver while it solves");
        return NULL;
    }
    if (self->table) memset(self->table, 0, ((size_t)2 << self->table_bits) * sizeof(Entry));
    Py_RETURN_NONE;
}

static PyObject *Solver_stability(Solver *Py_UNUSED(self), PyObject *args)
{
    PyObject *own_object, *opponent_object;
    if (!PyArg_ParseTuple(args, "OO:stable_discs", &own_object, &opponent_object)) return NULL;
    u64 p, o;
    if (parse_board(own_object, "own", &p) < 0 || parse_board(opponent_object, "opponent", &o) < 0) return NULL;
    if (p & o) {
        PyErr_SetString(PyExc_ValueError, "own and opponent share a square");
        return NULL;
    }
    return PyLong_FromLong(stable_count(p, o));
}

static int Solver_init(Solver *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"table_bits", "poll_interval", NULL};
    int table_bits = DEFAULT_TABLE_BITS;
    long long poll_interval = DEFAULT_POLL_INTERVAL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|iL:Solver", keywords, &table_bits, &poll_interval)) return -1;
    if (table_bits < 4 || table_bits > 28) {
        PyErr_SetString(PyExc_ValueError, "table_bits must be 4..28 (2**table_bits buckets of 48 bytes)");
        return -1;
    }
    if (poll_interval < 1) {
        PyErr_SetString(PyExc_ValueError, "poll_interval must be at least 1 node");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "cannot re-initialise a Solver while it solves");
        return -1;
    }
    free(self->table);
    self->table = NULL;
    self->table_bits = table_bits;
    self->poll_interval = poll_interval;
    return 0;
}

static void Solver_dealloc(Solver *self)
{
    free(self->table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Solver_get_table_bits(Solver *self, void *Py_UNUSED(closure)) { return PyLong_FromLong(self->table_bits); }

static PyMethodDef Solver_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))Solver_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(own, opponent, poll=None, alpha=-65, beta=65) -> (score, best_move, nodes)\n\n"
     "The exact final margin for ``own`` to move (fail-soft within (alpha, beta)), a best\n"
     "move (0..63, 64 for a forced pass, None when the game is over) and the nodes searched.\n"
     "``poll(nodes, check)`` hears the node count every poll_interval nodes (check=True; it\n"
     "may raise to stop the solve, and the exception comes out of solve) and once at the end\n"
     "(check=False). Solver.stop() from another thread makes solve raise SolveStopped."},
    {"stop", (PyCFunction)Solver_stop, METH_NOARGS, "Ask the running solve to stop at its next poll."},
    {"clear", (PyCFunction)Solver_clear, METH_NOARGS, "Empty the transposition table."},
    {"stable_discs", (PyCFunction)Solver_stability, METH_VARARGS,
     "stable_discs(own, opponent) -> the number of own discs found stable (a lower bound)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Solver_getset[] = {
    {"table_bits", (getter)Solver_get_table_bits, NULL, "log2 of the table's bucket count", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "games.othello._solver.Solver",
    .tp_basicsize = sizeof(Solver),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Solver(table_bits=20, poll_interval=32768): an exact endgame solver with its own\n"
              "transposition table (2**table_bits buckets of two 24-byte entries, allocated at the\n"
              "first solve of 8 or more empties and kept: every entry is a true bound, so later\n"
              "solves reuse it). One solve at a time per Solver; the GIL is released while it runs.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Solver_init,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
    .tp_getset = Solver_getset,
};

static struct PyModuleDef solver_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "games.othello._solver",
    .m_doc = "The exact Othello endgame solver in C (see games/othello/exact.py).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__solver(void)
{
#ifdef CHECK_POPCNT
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "games.othello._solver needs a CPU with the POPCNT instruction");
        return NULL;
    }
#endif
    init_tables();
    if (PyType_Ready(&SolverType) < 0) return NULL;
    PyObject *module = PyModule_Create(&solver_module);
    if (!module) return NULL;
    SolveStopped = PyErr_NewExceptionWithDoc("games.othello._solver.SolveStopped",
                                             "Solver.stop() ended the solve before it had a value.", NULL, NULL);
    if (!SolveStopped || PyModule_AddObjectRef(module, "SolveStopped", SolveStopped) < 0 ||
        PyModule_AddObjectRef(module, "Solver", (PyObject *)&SolverType) < 0 ||
        PyModule_AddIntConstant(module, "SHALLOW_EMPTIES", SHALLOW_EMPTIES) < 0 ||
        PyModule_AddIntConstant(module, "TABLE_MIN_EMPTIES", TABLE_MIN_EMPTIES) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
