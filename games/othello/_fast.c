/*
 * games.othello._fast: the midgame search's hot paths in C, each the same function as its
 * pure-Python twin (which runs when this optional extension is not built):
 *  - legal_moves(own, opponent), flips(own, opponent, square), squares(board): the move
 *    generator of games/othello/bitboard.py (legal_moves_mask, flips, squares_of);
 *  - the two EVALs of games/othello/evaluation.py: the classic weighted features
 *    (classic_evaluate) and the pattern model (pattern_evaluate), the same values to the
 *    last bit of the float (sums in the Python order).
 * tests/games/test_othello_native_eval.py checks each against the Python one. The compiled
 * search (games/othello/_search.c, linked into this module as Searcher) evaluates its leaves
 * with othello_evaluate: the model handed over last, as evaluation.evaluate_to_move.
 *
 * Nothing about Othello strategy lives here: the pattern geometry (which squares each
 * instance reads, in digit order, and the digit permutation that maps a pattern onto
 * itself) comes from games/othello/patterns.py and the fitted tables from the weights file,
 * both handed over by load(). This module only expands the tables and adds them up.
 *
 * Positions are (P, O): the discs of the side to move and of the other side as 64-bit
 * boards, square s = bit s (a1 = 0, h8 = 63), as in games/othello/bitboard.py.
 *
 * load(phase_of_empties, scalars, instances, permutations, tables): see Eval_load.
 * evaluate(own, opponent, own_moves) -> float: the pattern model's EVAL for the side to move
 * in hundredths of a disc; the sum is ordered as the Python one so the doubles are equal.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_bitboard.h"
#include "_fast.h"

#define SQUARES 64
#define MAX_PATTERNS 32
#define MAX_INSTANCES 128
#define MAX_PATTERN_SQUARES 10
#define MAX_PHASES 64

/* The pattern model's per-phase scalars (evaluation.SCALAR_NAMES), read by name by load(). */
enum { SCALAR_BIAS, SCALAR_MOBILITY, SCALAR_POTENTIAL_MOBILITY, SCALAR_PARITY, SCALAR_COUNT };
static const char *const SCALAR_NAMES[SCALAR_COUNT] = {"bias", "mobility", "potential_mobility", "parity"};

typedef struct {
    int pattern;                          /* its pattern's number */
    int length;                           /* squares read */
    int squares[MAX_PATTERN_SQUARES];     /* board square of digit i */
} Instance;

/* The model in use (one per process, like the Python module state it mirrors). */
static int loaded = 0;
static int pattern_count = 0, instance_count = 0, phase_count = 0;
static Instance instances[MAX_INSTANCES];
static int pattern_size[MAX_PATTERNS];      /* 3 ** squares */
static size_t pattern_offset[MAX_PATTERNS]; /* where its table starts inside a phase */
static size_t phase_size = 0;               /* entries of one phase's tables */
static unsigned char phase_of_empties[SQUARES + 1];
static double scalars[MAX_PHASES][SCALAR_COUNT];
static int32_t *tables = NULL;              /* phase_count * phase_size, full (both readings) */

/* The model handed over last (load or set_classic), which evaluation.evaluate_to_move reads
 * as the current one; othello_model_version counts hand-overs, so that a searcher's table
 * filled under another model is cleared. */
enum { MODEL_NONE, MODEL_PATTERN, MODEL_CLASSIC };
static int current_model = MODEL_NONE;
unsigned long othello_model_version = 0;

/* ------------------------------------------------------------------ rules */

/* Every square touching b in the 8 directions, and b (evaluation.neighbours). */
static inline u64 neighbours(u64 b)
{
    const u64 row = b | ((b << 1) & 0xFEFEFEFEFEFEFEFEULL) | ((b >> 1) & 0x7F7F7F7F7F7F7F7FULL);
    return row | (row << 8) | (row >> 8);
}

/* ------------------------------------------------------------------ move generation */

static int bitboard_argument(PyObject *object, u64 *out)
{
    *out = PyLong_AsUnsignedLongLong(object);
    if (*out == (u64)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "a bitboard is an int in 0 .. 2**64 - 1");
        return 0;
    }
    return 1;
}

static PyObject *Fast_legal_moves(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    u64 p, o;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "legal_moves(own, opponent) takes 2 bitboards");
        return NULL;
    }
    if (!bitboard_argument(args[0], &p) || !bitboard_argument(args[1], &o))
        return NULL;
    return PyLong_FromUnsignedLongLong(legal_moves(p, o));
}

/* The opponent discs that playing `square` turns over (0: not a legal move), by walking the
 * 8 rays from the square (the Python one uses precomputed rays; the set is the same). */
static u64 flips_of(u64 p, u64 o, int square)
{
    static const int rank_steps[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    static const int file_steps[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    const int rank = square >> 3, file = square & 7;
    u64 flipped = 0;
    for (int direction = 0; direction < 8; direction++) {
        u64 run = 0;
        int r = rank + rank_steps[direction], f = file + file_steps[direction];
        while (r >= 0 && r < 8 && f >= 0 && f < 8 && (o >> (8 * r + f) & 1)) {
            run |= 1ULL << (8 * r + f);
            r += rank_steps[direction];
            f += file_steps[direction];
        }
        if (run && r >= 0 && r < 8 && f >= 0 && f < 8 && (p >> (8 * r + f) & 1))
            flipped |= run;
    }
    return flipped;
}

static PyObject *Fast_flips(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    u64 p, o;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "flips(own, opponent, square) takes 2 bitboards and a square");
        return NULL;
    }
    if (!bitboard_argument(args[0], &p) || !bitboard_argument(args[1], &o))
        return NULL;
    const long square = PyLong_AsLong(args[2]);
    if (square < 0 || square >= SQUARES) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "a square is 0..63");
        }
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(flips_of(p, o, (int)square));
}

/* The squares of a bitboard in increasing order, as a list. */
static PyObject *Fast_squares(PyObject *module, PyObject *board_object)
{
    (void)module;
    u64 board;
    if (!bitboard_argument(board_object, &board))
        return NULL;
    PyObject *list = PyList_New(popcount(board));
    if (list == NULL)
        return NULL;
    for (Py_ssize_t i = 0; board; i++, board &= board - 1)
        PyList_SET_ITEM(list, i, PyLong_FromLong(__builtin_ctzll(board)));
    return list;
}

/* ------------------------------------------------------------------ evaluate */

/* The pattern model's EVAL for the side to move p (a model must be loaded). */
static double pattern_value(u64 p, u64 o, u64 p_moves)
{
    /* Per square: its digit (0 empty, 1 the side to move's, 2 the other side's). */
    int digit[SQUARES];
    for (int square = 0; square < SQUARES; square++)
        digit[square] = (int)((p >> square) & 1) + 2 * (int)((o >> square) & 1);
    const u64 occupied = p | o;
    const int empties = SQUARES - popcount(occupied);
    const int phase = phase_of_empties[empties];
    const int32_t *phase_tables = tables + (size_t)phase * phase_size;
    long score = 0;
    for (int number = 0; number < instance_count; number++) {
        const Instance *instance = &instances[number];
        int index = 0;
        for (int position = instance->length - 1; position >= 0; position--)
            index = 3 * index + digit[instance->squares[position]];
        score += phase_tables[pattern_offset[instance->pattern] + (size_t)index];
    }
    const u64 empty = ~occupied;
    const double *weights = scalars[phase];
    double value = (double)score + weights[SCALAR_BIAS];
    value += weights[SCALAR_MOBILITY] * (double)(popcount(p_moves) - popcount(legal_moves(o, p)));
    value += weights[SCALAR_POTENTIAL_MOBILITY]
             * (double)(popcount(neighbours(o) & empty) - popcount(neighbours(p) & empty));
    value += weights[SCALAR_PARITY] * (empties & 1 ? 1.0 : -1.0);
    return value;
}

static PyObject *Eval_evaluate(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "evaluate(own, opponent, own_moves) takes 3 bitboards");
        return NULL;
    }
    if (!loaded) {
        PyErr_SetString(PyExc_RuntimeError, "no pattern model loaded (call load first)");
        return NULL;
    }
    const u64 p = PyLong_AsUnsignedLongLong(args[0]);
    const u64 o = PyLong_AsUnsignedLongLong(args[1]);
    const u64 p_moves = PyLong_AsUnsignedLongLong(args[2]);
    if (PyErr_Occurred())
        return NULL;
    return PyFloat_FromDouble(pattern_value(p, o, p_moves));
}

/* ------------------------------------------------------------------ numbers by name */

/* The EVAL's numbers come from evaluation.py by name: a name this file does not know is
 * refused as firmly as a missing one, so a term or constant added, renamed or dropped on one
 * side fails at the hand-over with a message naming it, instead of evaluating without it. */

/* The index of ``key`` in ``names`` (``count`` of them), or -1 (also for a key that is not a str). */
static int name_index(PyObject *key, const char *const *names, int count)
{
    const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
    if (name == NULL) {
        PyErr_Clear();
        return -1;
    }
    for (int i = 0; i < count; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

/* 0 when ``mapping`` (a dict) has exactly the keys ``names``; else -1 with a KeyError naming
 * the first unknown or missing one (``what``: whose names they are). */
static int check_names(PyObject *mapping, const char *const *names, int count, const char *what)
{
    if (!PyDict_Check(mapping)) {
        PyErr_Format(PyExc_TypeError, "%s: a dict by name expected", what);
        return -1;
    }
    PyObject *key, *value;
    Py_ssize_t position = 0;
    while (PyDict_Next(mapping, &position, &key, &value))
        if (name_index(key, names, count) < 0) {
            PyErr_Format(PyExc_KeyError, "%s: %R is unknown to games/othello/_fast.c", what, key);
            return -1;
        }
    for (int i = 0; i < count; i++)
        if (PyDict_GetItemString(mapping, names[i]) == NULL) {
            PyErr_Format(PyExc_KeyError, "%s: %s is missing", what, names[i]);
            return -1;
        }
    return 0;
}

/* ``mapping[name]``: one int (``count`` 0) or a sequence of ``count`` ints, into ``out``. */
static int read_ints(PyObject *mapping, const char *name, int count, u64 *out)
{
    PyObject *value = PyDict_GetItemString(mapping, name);
    if (count == 0) {
        out[0] = PyLong_AsUnsignedLongLong(value);
        return out[0] == (u64)-1 && PyErr_Occurred() ? -1 : 0;
    }
    PyObject *fast = PySequence_Fast(value, name);
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %d numbers expected", name, count);
        return -1;
    }
    for (int i = 0; i < count; i++)
        out[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
    Py_DECREF(fast);
    return PyErr_Occurred() ? -1 : 0;
}

/* ------------------------------------------------------------------ classic EVAL */

/* The classic model's features (evaluation.FEATURE_NAMES), as classic_value computes them. */
enum {
    CLASSIC_MOBILITY,
    CLASSIC_POTENTIAL_MOBILITY,
    CLASSIC_CORNERS,
    CLASSIC_X_SQUARES,
    CLASSIC_C_SQUARES,
    CLASSIC_EDGE_STABILITY,
    CLASSIC_PARITY,
    CLASSIC_DISCS,
    CLASSIC_FEATURES
};
static const char *const CLASSIC_NAMES[CLASSIC_FEATURES] = {
    "mobility", "potential_mobility", "corners", "x_squares", "c_squares", "edge_stability", "parity", "discs",
};

/* The constants classic_value computes with (evaluation.native_classic_constants()). */
enum {
    K_PARITY_EMPTIES,
    K_DISC_PHASE_EMPTIES,
    K_CORNERS,
    K_X_SQUARES,
    K_C_SQUARES,
    K_EDGES,
    K_EDGE_RAY_CORNERS,
    K_EDGE_RAYS,
    K_EDGE_RAYS_UPWARD,
    CLASSIC_CONSTANT_COUNT
};
static const char *const CLASSIC_CONSTANT_NAMES[CLASSIC_CONSTANT_COUNT] = {
    "PARITY_EMPTIES", "DISC_PHASE_EMPTIES", "CORNERS", "X_SQUARES", "C_SQUARES", "EDGES",
    "EDGE_RAY_CORNERS", "EDGE_RAYS", "EDGE_RAYS_UPWARD",
};
static const int CLASSIC_CONSTANT_SIZES[CLASSIC_CONSTANT_COUNT] = {0, 0, 4, 4, 4, 4, 8, 8, 8};

/* The model set_classic made the one in use; weights[i] is CLASSIC_NAMES[i]'s. */
typedef struct {
    double weights[CLASSIC_FEATURES];
    int parity_empties, disc_phase_empties;
    u64 corner_squares;  /* every corner */
    u64 corner_bit[4];   /* per corner: the corner, its X-square, its two C-squares */
    u64 x_square[4];
    u64 c_squares[4];
    u64 edges[4];        /* evaluation.EDGES */
    u64 ray_corner[8];   /* evaluation.EDGE_RAYS: corner, the other 7 squares of the edge, upward? */
    u64 ray_mask[8];
    int ray_upward[8];
} ClassicModel;
static ClassicModel classic;
static int classic_loaded = 0;

/* evaluation.edge_stable_discs: own discs on a full edge, and unbroken runs from an own corner. */
static u64 edge_stable_discs(u64 own, u64 occupied)
{
    u64 stable = 0;
    for (int edge = 0; edge < 4; edge++)
        if ((occupied & classic.edges[edge]) == classic.edges[edge])
            stable |= own & classic.edges[edge];
    if (!(own & classic.corner_squares))
        return stable;
    for (int ray = 0; ray < 8; ray++) {
        if (!(own & classic.ray_corner[ray]))
            continue;
        const u64 blockers = classic.ray_mask[ray] & ~own;
        if (!blockers) {
            stable |= classic.ray_corner[ray] | classic.ray_mask[ray];
        } else if (classic.ray_upward[ray]) {
            stable |= classic.ray_corner[ray] | (classic.ray_mask[ray] & ((blockers & (0 - blockers)) - 1));
        } else {
            const int length = 64 - __builtin_clzll(blockers); /* Python's bit_length */
            const u64 above = length >= 64 ? 0 : ~((1ULL << length) - 1);
            stable |= classic.ray_corner[ray] | (classic.ray_mask[ray] & above);
        }
    }
    return stable;
}

/* set_classic(weights, constants): the classic model from now on. ``weights``: a dict by
 * evaluation.FEATURE_NAMES, in CLASSIC_NAMES' order (the sum of classic_value adds the terms
 * in that order, as evaluation.classic_evaluate's sum() does, so another order would round
 * differently: it is refused); ``constants``: a dict by CLASSIC_CONSTANT_NAMES. On error the
 * model in use stays. */
static PyObject *Fast_set_classic(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *weights, *constants;
    if (!PyArg_ParseTuple(args, "O!O!:set_classic", &PyDict_Type, &weights, &PyDict_Type, &constants))
        return NULL;
    if (check_names(weights, CLASSIC_NAMES, CLASSIC_FEATURES, "classic weights") < 0
        || check_names(constants, CLASSIC_CONSTANT_NAMES, CLASSIC_CONSTANT_COUNT, "classic constants") < 0)
        return NULL;
    ClassicModel fresh;
    PyObject *key, *value;
    Py_ssize_t position = 0;
    for (int i = 0; PyDict_Next(weights, &position, &key, &value); i++) {
        if (name_index(key, CLASSIC_NAMES, CLASSIC_FEATURES) != i) {
            PyErr_Format(PyExc_ValueError, "classic weights: %R comes where games/othello/_fast.c sums %s", key,
                         CLASSIC_NAMES[i]);
            return NULL;
        }
        fresh.weights[i] = PyFloat_AsDouble(value);
        if (fresh.weights[i] == -1.0 && PyErr_Occurred())
            return NULL;
    }
    u64 numbers[CLASSIC_CONSTANT_COUNT][8];
    for (int k = 0; k < CLASSIC_CONSTANT_COUNT; k++)
        if (read_ints(constants, CLASSIC_CONSTANT_NAMES[k], CLASSIC_CONSTANT_SIZES[k], numbers[k]) < 0)
            return NULL;
    fresh.parity_empties = (int)numbers[K_PARITY_EMPTIES][0];
    fresh.disc_phase_empties = (int)numbers[K_DISC_PHASE_EMPTIES][0];
    if (fresh.disc_phase_empties < 1 || fresh.disc_phase_empties > SQUARES) {
        PyErr_SetString(PyExc_ValueError, "set_classic: DISC_PHASE_EMPTIES is 1..64");
        return NULL;
    }
    fresh.corner_squares = 0;
    for (int corner = 0; corner < 4; corner++) {
        fresh.corner_bit[corner] = numbers[K_CORNERS][corner];
        fresh.x_square[corner] = numbers[K_X_SQUARES][corner];
        fresh.c_squares[corner] = numbers[K_C_SQUARES][corner];
        fresh.edges[corner] = numbers[K_EDGES][corner];
        fresh.corner_squares |= fresh.corner_bit[corner];
    }
    for (int ray = 0; ray < 8; ray++) {
        fresh.ray_corner[ray] = numbers[K_EDGE_RAY_CORNERS][ray];
        fresh.ray_mask[ray] = numbers[K_EDGE_RAYS][ray];
        fresh.ray_upward[ray] = numbers[K_EDGE_RAYS_UPWARD][ray] != 0;
    }
    classic = fresh;
    classic_loaded = 1;
    current_model = MODEL_CLASSIC;
    ++othello_model_version;
    Py_RETURN_NONE;
}

/* evaluation.classic_evaluate with the model of set_classic, summed feature by feature from 0
 * in FEATURE_NAMES order, as Python's sum() does. */
static double classic_value(u64 p, u64 o, u64 p_moves)
{
    const u64 occupied = p | o, empty = ~occupied;
    const int empties = SQUARES - popcount(occupied);
    u64 x_mask = 0, c_mask = 0;
    for (int corner = 0; corner < 4; corner++)
        if (empty & classic.corner_bit[corner]) {
            x_mask |= classic.x_square[corner];
            c_mask |= classic.c_squares[corner];
        }
    const int parity = empties <= classic.parity_empties ? (empties & 1 ? 1 : -1) : 0;
    const int late = classic.disc_phase_empties - empties > 0 ? classic.disc_phase_empties - empties : 0;
    const double lateness = (double)late / (double)classic.disc_phase_empties;
    double values[CLASSIC_FEATURES];
    values[CLASSIC_MOBILITY] = (double)(popcount(p_moves) - popcount(legal_moves(o, p)));
    values[CLASSIC_POTENTIAL_MOBILITY] = (double)(popcount(neighbours(o) & empty) - popcount(neighbours(p) & empty));
    values[CLASSIC_CORNERS] = (double)(popcount(p & classic.corner_squares) - popcount(o & classic.corner_squares));
    values[CLASSIC_X_SQUARES] = (double)(popcount(p & x_mask) - popcount(o & x_mask));
    values[CLASSIC_C_SQUARES] = (double)(popcount(p & c_mask) - popcount(o & c_mask));
    values[CLASSIC_EDGE_STABILITY] =
        (double)(popcount(edge_stable_discs(p, occupied)) - popcount(edge_stable_discs(o, occupied)));
    values[CLASSIC_PARITY] = (double)parity;
    values[CLASSIC_DISCS] = (double)(popcount(p) - popcount(o)) * lateness;
    double value = 0.0;
    for (int i = 0; i < CLASSIC_FEATURES; i++)
        value += classic.weights[i] * values[i];
    return value;
}

int othello_has_model(void) { return current_model != MODEL_NONE; }

double othello_evaluate(u64 p, u64 o, u64 p_moves)
{
    return current_model == MODEL_PATTERN ? pattern_value(p, o, p_moves) : classic_value(p, o, p_moves);
}

/* classic(own, opponent, own_moves) -> float: classic_value for the side to move. */
static PyObject *Fast_classic(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    u64 p, o, p_moves;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "classic(own, opponent, own_moves) takes 3 bitboards");
        return NULL;
    }
    if (!classic_loaded) {
        PyErr_SetString(PyExc_RuntimeError, "no classic model loaded (call set_classic first)");
        return NULL;
    }
    if (!bitboard_argument(args[0], &p) || !bitboard_argument(args[1], &o) || !bitboard_argument(args[2], &p_moves))
        return NULL;
    return PyFloat_FromDouble(classic_value(p, o, p_moves));
}

/* ------------------------------------------------------------------ load */

/* A Python sequence of ints as a C array (at most `capacity`); -1 with an error set. */
static Py_ssize_t int_list(PyObject *sequence, long *out, Py_ssize_t capacity, const char *what)
{
    PyObject *fast = PySequence_Fast(sequence, what);
    if (fast == NULL)
        return -1;
    const Py_ssize_t length = PySequence_Fast_GET_SIZE(fast);
    if (length > capacity) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %zd numbers, at most %zd", what, length, capacity);
        return -1;
    }
    for (Py_ssize_t i = 0; i < length; i++) {
        out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return length;
}

/*
 * load(phase_of_empties, scalars, instances, permutations, tables)
 *   phase_of_empties: 65 ints, the phase of each empty count 0..64;
 *   scalars: a dict by SCALAR_NAMES (an unknown or missing name is refused), per name one
 *       float a phase;
 *   instances: per instance, (pattern number, squares in digit order);
 *   permutations: per pattern, () or the digit permutation mapping it onto itself (a
 *       configuration and its mirror reading share one value: patterns.symmetric_index_table);
 *   tables: per phase, per pattern, a buffer of C ints [index, value, index, value, ...].
 * Replaces the model in use; on error the old one stays.
 */
static PyObject *Eval_load(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *phases_arg, *scalars_arg, *instances_arg, *permutations_arg, *tables_arg;
    if (!PyArg_ParseTuple(args, "OOOOO:load", &phases_arg, &scalars_arg, &instances_arg,
                          &permutations_arg, &tables_arg))
        return NULL;
    long phase_values[SQUARES + 1];
    if (int_list(phases_arg, phase_values, SQUARES + 1, "phase_of_empties") != SQUARES + 1) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "phase_of_empties has 65 entries");
        return NULL;
    }
    const Py_ssize_t new_phase_count = PySequence_Size(tables_arg);
    if (new_phase_count < 1 || new_phase_count > MAX_PHASES) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "between 1 and %d phases", MAX_PHASES);
        return NULL;
    }
    if (check_names(scalars_arg, SCALAR_NAMES, SCALAR_COUNT, "scalars") < 0)
        return NULL;
    double new_scalars[MAX_PHASES][SCALAR_COUNT];
    for (int i = 0; i < SCALAR_COUNT; i++) {
        PyObject *per_phase = PySequence_Fast(PyDict_GetItemString(scalars_arg, SCALAR_NAMES[i]), "scalars");
        if (per_phase == NULL || PySequence_Fast_GET_SIZE(per_phase) != new_phase_count) {
            Py_XDECREF(per_phase);
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "scalar %s has one number a phase", SCALAR_NAMES[i]);
            return NULL;
        }
        for (Py_ssize_t phase = 0; phase < new_phase_count; phase++)
            new_scalars[phase][i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(per_phase, phase));
        Py_DECREF(per_phase);
        if (PyErr_Occurred())
            return NULL;
    }
    for (int empties = 0; empties <= SQUARES; empties++)
        if (phase_values[empties] < 0 || phase_values[empties] >= new_phase_count) {
            PyErr_SetString(PyExc_ValueError, "phase_of_empties names a phase with no scalars");
            return NULL;
        }

    /* Patterns: sizes and self-symmetries. */
    PyObject *permutation_list = PySequence_Fast(permutations_arg, "permutations");
    if (permutation_list == NULL)
        return NULL;
    const Py_ssize_t new_pattern_count = PySequence_Fast_GET_SIZE(permutation_list);
    if (new_pattern_count < 1 || new_pattern_count > MAX_PATTERNS) {
        Py_DECREF(permutation_list);
        PyErr_Format(PyExc_ValueError, "between 1 and %d patterns", MAX_PATTERNS);
        return NULL;
    }
    long permutations[MAX_PATTERNS][MAX_PATTERN_SQUARES];
    Py_ssize_t permutation_length[MAX_PATTERNS];
    for (Py_ssize_t number = 0; number < new_pattern_count; number++) {
        permutation_length[number] = int_list(PySequence_Fast_GET_ITEM(permutation_list, number),
                                              permutations[number], MAX_PATTERN_SQUARES, "permutation");
        if (permutation_length[number] < 0) {
            Py_DECREF(permutation_list);
            return NULL;
        }
    }
    Py_DECREF(permutation_list);

    /* Instances: pattern number and squares; a pattern's size is 3 ** its length. */
    PyObject *instance_list = PySequence_Fast(instances_arg, "instances");
    if (instance_list == NULL)
        return NULL;
    const Py_ssize_t new_instance_count = PySequence_Fast_GET_SIZE(instance_list);
    if (new_instance_count < 1 || new_instance_count > MAX_INSTANCES) {
        Py_DECREF(instance_list);
        PyErr_Format(PyExc_ValueError, "between 1 and %d instances", MAX_INSTANCES);
        return NULL;
    }
    Instance new_instances[MAX_INSTANCES];
    int new_length[MAX_PATTERNS];
    for (Py_ssize_t number = 0; number < new_pattern_count; number++)
        new_length[number] = -1;
    for (Py_ssize_t number = 0; number < new_instance_count; number++) {
        PyObject *item = PySequence_Fast_GET_ITEM(instance_list, number);
        long pattern;
        PyObject *squares;
        if (!PyArg_ParseTuple(item, "lO:instance", &pattern, &squares)) {
            Py_DECREF(instance_list);
            return NULL;
        }
        long square_values[MAX_PATTERN_SQUARES];
        const Py_ssize_t length = int_list(squares, square_values, MAX_PATTERN_SQUARES, "instance squares");
        if (length < 0) {
            Py_DECREF(instance_list);
            return NULL;
        }
        if (pattern < 0 || pattern >= new_pattern_count || length < 1
            || (new_length[pattern] >= 0 && new_length[pattern] != length)
            || (permutation_length[pattern] != 0 && permutation_length[pattern] != length)) {
            Py_DECREF(instance_list);
            PyErr_SetString(PyExc_ValueError, "an instance's pattern number or square count does not fit");
            return NULL;
        }
        new_length[pattern] = (int)length;
        new_instances[number].pattern = (int)pattern;
        new_instances[number].length = (int)length;
        for (Py_ssize_t i = 0; i < length; i++) {
            if (square_values[i] < 0 || square_values[i] >= SQUARES) {
                Py_DECREF(instance_list);
                PyErr_SetString(PyExc_ValueError, "a square is 0..63");
                return NULL;
            }
            new_instances[number].squares[i] = (int)square_values[i];
        }
    }
    Py_DECREF(instance_list);
    int new_size[MAX_PATTERNS];
    size_t new_offset[MAX_PATTERNS], new_phase_size = 0;
    for (Py_ssize_t number = 0; number < new_pattern_count; number++) {
        if (new_length[number] < 0) {
            PyErr_SetString(PyExc_ValueError, "a pattern has no instance");
            return NULL;
        }
        new_size[number] = 1;
        for (int i = 0; i < new_length[number]; i++)
            new_size[number] *= 3;
        new_offset[number] = new_phase_size;
        new_phase_size += (size_t)new_size[number];
    }

    /* Tables: expand each phase's sparse entries, filling both readings of a symmetric one. */
    PyObject *table_rows = PySequence_Fast(tables_arg, "tables");
    if (table_rows == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(table_rows) != new_phase_count) {
        Py_DECREF(table_rows);
        PyErr_SetString(PyExc_ValueError, "tables has one row per phase");
        return NULL;
    }
    int32_t *new_tables = calloc((size_t)new_phase_count * new_phase_size, sizeof(int32_t));
    if (new_tables == NULL) {
        Py_DECREF(table_rows);
        return PyErr_NoMemory();
    }
    int powers[MAX_PATTERN_SQUARES];
    for (Py_ssize_t phase = 0; phase < new_phase_count; phase++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(table_rows, phase), "tables row");
        if (row == NULL || PySequence_Fast_GET_SIZE(row) != new_pattern_count) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a tables row has one buffer per pattern");
            goto fail_row;
        }
        for (Py_ssize_t number = 0; number < new_pattern_count; number++) {
            Py_buffer view;
            if (PyObject_GetBuffer(PySequence_Fast_GET_ITEM(row, number), &view, PyBUF_FORMAT) < 0)
                goto fail_row;
            if (view.itemsize != (Py_ssize_t)sizeof(int) || view.format == NULL || strcmp(view.format, "i") != 0
                || (view.len / view.itemsize) % 2 != 0) {
                PyBuffer_Release(&view);
                PyErr_SetString(PyExc_ValueError, "a table is array('i', [index, value, ...])");
                goto fail_row;
            }
            const int *entries = view.buf;
            const Py_ssize_t count = view.len / view.itemsize;
            int32_t *table = new_tables + (size_t)phase * new_phase_size + new_offset[number];
            const int length = new_length[number];
            const Py_ssize_t symmetric = permutation_length[number];
            for (int i = 0; i < length && symmetric; i++) {
                powers[i] = 1;
                for (long k = 0; k < permutations[number][i]; k++)
                    powers[i] *= 3;
            }
            for (Py_ssize_t i = 0; i < count; i += 2) {
                const int index = entries[i];
                if (index < 0 || index >= new_size[number]) {
                    PyBuffer_Release(&view);
                    PyErr_SetString(PyExc_ValueError, "a table index is out of its pattern's range");
                    goto fail_row;
                }
                table[index] = entries[i + 1];
                if (symmetric) {
                    int value = index, mirror = 0;
                    for (int position = 0; position < length; position++) {
                        mirror += (value % 3) * powers[position];
                        value /= 3;
                    }
                    table[mirror] = entries[i + 1];
                }
            }
            PyBuffer_Release(&view);
        }
        Py_DECREF(row);
        continue;
    fail_row:
        Py_XDECREF(row);
        Py_DECREF(table_rows);
        free(new_tables);
        return NULL;
    }
    Py_DECREF(table_rows);

    /* Commit. */
    free(tables);
    tables = new_tables;
    pattern_count = (int)new_pattern_count;
    instance_count = (int)new_instance_count;
    phase_count = (int)new_phase_count;
    phase_size = new_phase_size;
    memcpy(instances, new_instances, sizeof(Instance) * (size_t)new_instance_count);
    for (int number = 0; number < pattern_count; number++) {
        pattern_size[number] = new_size[number];
        pattern_offset[number] = new_offset[number];
    }
    for (int empties = 0; empties <= SQUARES; empties++)
        phase_of_empties[empties] = (unsigned char)phase_values[empties];
    memcpy(scalars, new_scalars, sizeof(new_scalars));
    loaded = 1;
    current_model = MODEL_PATTERN;
    ++othello_model_version;
    Py_RETURN_NONE;
}

static PyMethodDef eval_methods[] = {
    {"legal_moves", (PyCFunction)(void (*)(void))Fast_legal_moves, METH_FASTCALL,
     "legal_moves(own, opponent) -> the side owning own's legal squares as a bitboard."},
    {"flips", (PyCFunction)(void (*)(void))Fast_flips, METH_FASTCALL,
     "flips(own, opponent, square) -> the discs playing square turns over (0: not legal)."},
    {"squares", Fast_squares, METH_O, "squares(board) -> its squares in increasing order."},
    {"set_classic", Fast_set_classic, METH_VARARGS,
     "set_classic(weights, constants): the classic EVAL, its weights and constants by name."},
    {"classic", (PyCFunction)(void (*)(void))Fast_classic, METH_FASTCALL,
     "classic(own, opponent, own_moves) -> float: the classic EVAL for the side to move."},
    {"load", Eval_load, METH_VARARGS,
     "load(phase_of_empties, scalars, instances, permutations, tables): make a pattern model the one in use."},
    {"evaluate", (PyCFunction)(void (*)(void))Eval_evaluate, METH_FASTCALL,
     "evaluate(own, opponent, own_moves) -> float: the pattern EVAL for the side to move."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef eval_module = {
    PyModuleDef_HEAD_INIT, "_fast",
    "Othello move generation and pattern EVAL in C (games/othello/bitboard.py and evaluation.py use it when it loads).", -1,
    eval_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fast(void)
{
    PyObject *module = PyModule_Create(&eval_module);
    if (module && othello_add_searcher(module) < 0) Py_CLEAR(module);
    return module;
}
