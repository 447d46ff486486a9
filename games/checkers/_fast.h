/*
 * What the two C files of games.checkers._fast share: _fast.c (move generation and EVAL for
 * the Python search, and load(), which fills the geometry below from bitboards.py) and
 * _search.c (the compiled search, Searcher, which reads that geometry and calls the EVAL).
 */
#ifndef PLYGROUND_CHECKERS_FAST_H
#define PLYGROUND_CHECKERS_FAST_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef uint64_t u64;

#define MAX_BITS 64
#define MAX_HOPS 16 /* a capture jumps at most 12 pieces */
#define ROWS 8
#define DIRECTION_COUNT 4

/* The EVAL's terms, in the order of evaluation.FEATURE_NAMES: a weight tuple crosses from
 * Python in that order (evaluation.WEIGHT_VALUES), so load() takes FEATURE_NAMES and refuses
 * it unless it names exactly these terms in this order (TERM_NAMES in _fast.c). */
enum {
    TERM_MEN,
    TERM_KINGS,
    TERM_BACK_RANK,
    TERM_CENTRE,
    TERM_MOBILITY,
    TERM_RUNAWAY,
    TERM_ADVANCEMENT,
    TERM_TRADE,
    TERM_DOUBLE_CORNER,
    TERM_THE_MOVE,
    TERM_TRAPPED_KINGS,
    TERM_DOG_HOLE,
    TERM_KING_EDGE,
    TERM_SIMPLIFY,
    WEIGHT_COUNT
};

/* A jump from a bit: the jumped bit, the landing bit (-1: none that way). */
typedef struct {
    int middle, landing;
} Hop;

/* One walk over the capture paths of a position (state._add_jumps): ``emit`` hears each
 * whole capture, its bits in ``path[0..hops]`` (origin, then every landing) and
 * ``jumped[0..hops-1]``, and answers 0, or -1 to stop the walk (an error set). Embed it
 * first in a struct of your own to carry what emit fills. */
typedef struct JumpWalk JumpWalk;
struct JumpWalk {
    int (*emit)(JumpWalk *walk, int hops);
    const int *order; /* direction indices tried, in order */
    int order_count;
    u64 crown;        /* where a man's capture stops (0 for a king) */
    int path[MAX_HOPS + 1];
    int jumped[MAX_HOPS];
};

extern int loaded;                           /* load() has run: the tables below are filled */
extern u64 valid;                            /* every real square (bitboards.VALID) */
extern u64 crown_row[2];                     /* where each player's men are crowned */
extern Hop hops[DIRECTION_COUNT][MAX_BITS];  /* [DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT][bit] */

static inline int popcount(u64 board) { return __builtin_popcountll(board); }

/* The pieces of ``player`` (``mover``) that can jump now. */
u64 capture_starts(u64 mover, u64 opponent, u64 kings, int player);
/* Every capture of those ``starts``, in CheckersState._find_captures' order, to
 * ``walk->emit``: 0, or -1 when emit stopped it. */
int walk_captures(JumpWalk *walk, u64 starts, u64 mover, u64 opponent, u64 kings, int player);
/* evaluation.weighted_evaluation, Black's view, to the last bit of the Python double. */
double evaluate_for_black(u64 black, u64 white, u64 kings, int player, const double *w);
/* A tuple of WEIGHT_COUNT numbers into ``w``: 0, or -1 with a Python error set. */
int read_weights(PyObject *weight_tuple, double *w);
/* Adds the Searcher type (_search.c) to the module: 0, or -1 with a Python error set. */
int add_searcher(PyObject *module);

#endif
