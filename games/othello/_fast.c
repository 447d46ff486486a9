/*
 * games.othello._fast: the midgame search's hot paths in C, each the same function as its
 * pure-Python twin (which runs when this optional extension is not built):
 *  - legal_moves(own, opponent), flips(own, opponent, square), squares(board): the move
 *    generator of games/othello/bitboard.py (legal_moves_mask, flips, squares_of);
 *  - the two EVALs of games/othello/evaluation.py: the classic weighted features
 *    (classic_evaluate) and the pattern model (pattern_evaluate), the same values to the
 *    last bit of the float (sums in the Python order).
 * tests/games/test_othello_native_eval.py checks each against the Python one.
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

typedef uint64_t u64;

#define SQUARES 64
#define MAX_PATTERNS 32
#define MAX_INSTANCES 128
#define MAX_PATTERN_SQUARES 10
#define MAX_PHASES 64
#define SCALAR_COUNT 4 /* bias, mobility, potential mobility, parity (SCALAR_NAMES order) */

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

/* ------------------------------------------------------------------ rules */

/* The side owning p's legal moves (the same set as bitboard.legal_moves_mask). */
static inline u64 legal_moves(u64 p, u64 o)
{
    const u64 inner = o & 0x7E7E7E7E7E7E7E7EULL;
    u64 moves = 0, t;
#define FILL(shift, mask, op)                                                               \
    t = (mask) & (p op (shift));                                                            \
    t |= (mask) & (t op (shift));                                                           \
    t |= (mask) & (t op (shift));                                                           \
    t |= (mask) & (t op (shift));                                                           \
    t |= (mask) & (t op (shift));                                                           \
    t |= (mask) & (t op (shift));                                                           \
    moves |= t op (shift);
    FILL(1, inner, <<)
    FILL(1, inner, >>)
    FILL(8, o, <<)
    FILL(8, o, >>)
    FILL(7, inner, <<)
    FILL(7, inner, >>)
    FILL(9, inner, <<)
    FILL(9, inner, >>)
#undef FILL
    return moves & ~(p | o);
}

/* Every square touching b in the 8 directions, and b (evaluation.neighbours). */
static inline u64 neighbours(u64 b)
{
    const u64 row = b | ((b << 1) & 0xFEFEFEFEFEFEFEFEULL) | ((b >> 1) & 0x7F7F7F7F7F7F7F7FULL);
    return row | (row << 8) | (row >> 8);
}

static inline int popcount(u64 b) { return __builtin_popcountll(b); }

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
    double value = (double)score + weights[0];
    value += weights[1] * (double)(popcount(p_moves) - popcount(legal_moves(o, p)));
    value += weights[2] * (double)(popcount(neighbours(o) & empty) - popcount(neighbours(p) & empty));
    value += weights[3] * (empties & 1 ? 1.0 : -1.0);
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

/* ------------------------------------------------------------------ classic EVAL */

#define CLASSIC_FEATURES 8 /* evaluation.FEATURE_NAMES order */
static double classic_weights[CLASSIC_FEATURES];
static int parity_empties = 0, disc_phase_empties = 1, classic_loaded = 0;

#define CORNER_SQUARES 0x8100000000000081ULL

/* Per corner (a1, h1, a8, h8): its X-square and its two C-squares (evaluation._CORNER_NEIGHBOURS). */
static const u64 CORNER_BIT[4] = {1ULL << 0, 1ULL << 7, 1ULL << 56, 1ULL << 63};
static const u64 X_SQUARE[4] = {1ULL << 9, 1ULL << 14, 1ULL << 49, 1ULL << 54};
static const u64 C_SQUARES[4] = {(1ULL << 1) | (1ULL << 8), (1ULL << 6) | (1ULL << 15),
                                 (1ULL << 48) | (1ULL << 57), (1ULL << 55) | (1ULL << 62)};

/* Rank 1, rank 8, file a, file h (evaluation.EDGES). */
static const u64 EDGE_MASKS[4] = {0xFFULL, 0xFF00000000000000ULL, 0x0101010101010101ULL, 0x8080808080808080ULL};

/* (corner, the other 7 squares of an edge from it, runs upward?) (evaluation.EDGE_RAYS). */
static const u64 RAY_CORNER[8] = {1ULL << 0, 1ULL << 0, 1ULL << 7, 1ULL << 7,
                                  1ULL << 56, 1ULL << 56, 1ULL << 63, 1ULL << 63};
static const u64 RAY_MASK[8] = {0xFEULL, 0x0101010101010100ULL, 0x7FULL, 0x8080808080808000ULL,
                                0xFE00000000000000ULL, 0x0001010101010101ULL, 0x7F00000000000000ULL,
                                0x0080808080808080ULL};
static const int RAY_UPWARD[8] = {1, 1, 0, 1, 1, 0, 0, 0};

/* evaluation.edge_stable_discs: own discs on a full edge, and unbroken runs from an own corner. */
static u64 edge_stable_discs(u64 own, u64 occupied)
{
    u64 stable = 0;
    for (int edge = 0; edge < 4; edge++)
        if ((occupied & EDGE_MASKS[edge]) == EDGE_MASKS[edge])
            stable |= own & EDGE_MASKS[edge];
    if (!(own & CORNER_SQUARES))
        return stable;
    for (int ray = 0; ray < 8; ray++) {
        if (!(own & RAY_CORNER[ray]))
            continue;
        const u64 blockers = RAY_MASK[ray] & ~own;
        if (!blockers) {
            stable |= RAY_CORNER[ray] | RAY_MASK[ray];
        } else if (RAY_UPWARD[ray]) {
            stable |= RAY_CORNER[ray] | (RAY_MASK[ray] & ((blockers & (0 - blockers)) - 1));
        } else {
            const int length = 64 - __builtin_clzll(blockers); /* Python's bit_length */
            const u64 above = length >= 64 ? 0 : ~((1ULL << length) - 1);
            stable |= RAY_CORNER[ray] | (RAY_MASK[ray] & above);
        }
    }
    return stable;
}

static PyObject *Fast_set_classic(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *weights;
    int parity, disc_phase;
    if (!PyArg_ParseTuple(args, "Oii:set_classic", &weights, &parity, &disc_phase))
        return NULL;
    PyObject *fast = PySequence_Fast(weights, "weights");
    if (fast == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != CLASSIC_FEATURES || disc_phase < 1) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "set_classic takes %d weights and a disc phase of 1 or more", CLASSIC_FEATURES);
        return NULL;
    }
    double values[CLASSIC_FEATURES];
    for (int i = 0; i < CLASSIC_FEATURES; i++)
        values[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
    Py_DECREF(fast);
    if (PyErr_Occurred())
        return NULL;
    memcpy(classic_weights, values, sizeof(values));
    parity_empties = parity;
    disc_phase_empties = disc_phase;
    classic_loaded = 1;
    Py_RETURN_NONE;
}

/* evaluation.classic_evaluate with the weights of set_classic, summed feature by feature
 * from 0 as Python's sum() does. */
static double classic_value(u64 p, u64 o, u64 p_moves)
{
    const u64 occupied = p | o, empty = ~occupied;
    const int empties = SQUARES - popcount(occupied);
    u64 x_mask = 0, c_mask = 0;
    for (int corner = 0; corner < 4; corner++)
        if (empty & CORNER_BIT[corner]) {
            x_mask |= X_SQUARE[corner];
            c_mask |= C_SQUARES[corner];
        }
    const int parity = empties <= parity_empties ? (empties & 1 ? 1 : -1) : 0;
    const int late = disc_phase_empties - empties > 0 ? disc_phase_empties - empties : 0;
    const double lateness = (double)late / (double)disc_phase_empties;
    const double values[CLASSIC_FEATURES] = {
        (double)(popcount(p_moves) - popcount(legal_moves(o, p))),
        (double)(popcount(neighbours(o) & empty) - popcount(neighbours(p) & empty)),
        (double)(popcount(p & CORNER_SQUARES) - popcount(o & CORNER_SQUARES)),
        (double)(popcount(p & x_mask) - popcount(o & x_mask)),
        (double)(popcount(p & c_mask) - popcount(o & c_mask)),
        (double)(popcount(edge_stable_discs(p, occupied)) - popcount(edge_stable_discs(o, occupied))),
        (double)parity,
        (double)(popcount(p) - popcount(o)) * lateness,
    };
    double value = 0.0;
    for (int i = 0; i < CLASSIC_FEATURES; i++)
        value += classic_weights[i] * values[i];
    return value;
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
        PyErr_SetString(PyExc_RuntimeError, "no classic weights loaded (call set_classic first)");
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
 *   scalars: per phase, SCALAR_COUNT floats;
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
    PyObject *scalar_rows = PySequence_Fast(scalars_arg, "scalars");
    if (scalar_rows == NULL)
        return NULL;
    const Py_ssize_t new_phase_count = PySequence_Fast_GET_SIZE(scalar_rows);
    if (new_phase_count < 1 || new_phase_count > MAX_PHASES) {
        Py_DECREF(scalar_rows);
        PyErr_Format(PyExc_ValueError, "between 1 and %d phases", MAX_PHASES);
        return NULL;
    }
    double new_scalars[MAX_PHASES][SCALAR_COUNT];
    for (Py_ssize_t phase = 0; phase < new_phase_count; phase++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(scalar_rows, phase), "scalars row");
        if (row == NULL || PySequence_Fast_GET_SIZE(row) != SCALAR_COUNT) {
            Py_XDECREF(row);
            Py_DECREF(scalar_rows);
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "a scalars row has %d numbers", SCALAR_COUNT);
            return NULL;
        }
        for (int i = 0; i < SCALAR_COUNT; i++)
            new_scalars[phase][i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(row, i));
        Py_DECREF(row);
        if (PyErr_Occurred()) {
            Py_DECREF(scalar_rows);
            return NULL;
        }
    }
    Py_DECREF(scalar_rows);
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
    Py_RETURN_NONE;
}

static PyMethodDef eval_methods[] = {
    {"legal_moves", (PyCFunction)(void (*)(void))Fast_legal_moves, METH_FASTCALL,
     "legal_moves(own, opponent) -> the side owning own's legal squares as a bitboard."},
    {"flips", (PyCFunction)(void (*)(void))Fast_flips, METH_FASTCALL,
     "flips(own, opponent, square) -> the discs playing square turns over (0: not legal)."},
    {"squares", Fast_squares, METH_O, "squares(board) -> its squares in increasing order."},
    {"set_classic", Fast_set_classic, METH_VARARGS,
     "set_classic(weights, parity_empties, disc_phase_empties): the classic EVAL's weights."},
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
    return PyModule_Create(&eval_module);
}
