/*
 * games.checkers._fast: the checkers search's hot paths in C, each the same function as its
 * pure-Python twin in games/checkers/state.py and evaluation.py (which run when this optional
 * extension is not built, or with PLYGROUND_PYTHON_HOTPATHS=1):
 *  - captures(mover, opponent, kings, player): every capture of the side to move as a tuple
 *    of CheckersMove, in the order of CheckersState._find_captures (origins by ascending bit,
 *    each origin's jump directions in bitboards.DIRECTIONS / MAN_DIRECTIONS order, depth
 *    first), () when there is none;
 *  - quiet_moves(mover, kings, empty, player): the steps as a list, in the order of
 *    CheckersState.perft_moves (direction by direction, destinations ascending), made of
 *    the move objects of state.QUIET_MOVES;
 *  - evaluate(black, white, kings, player, weights): evaluation.evaluate_for_black, the same
 *    double to the last bit (the products and sums in the Python order; no FMA contraction).
 * tests/games/test_checkers_native.py checks each against the Python code.
 *
 * Nothing about the rules' geometry is written twice: load() receives the masks, the
 * square numbers of the bits and the step tables from games/checkers/bitboards.py and
 * evaluation.py. Boards are Python ints in the ghost layout (35 bits).
 */

#include "_fast.h"

int loaded = 0;
static int bit_count = 0;
static PyObject *move_type = NULL;                                 /* CheckersMove */
static PyObject *square_objects[MAX_BITS];                         /* PDN square ints */
static PyObject *quiet_table[DIRECTION_COUNT][MAX_BITS];           /* [direction][destination bit] */
static int directions[DIRECTION_COUNT];                            /* DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT */
u64 valid, crown_row[2];
static u64 centre, double_corners, move_system, edge, row_mask[ROWS];
static u64 dog_hole[2], dog_shut[2], runaway_zone[2], back_row[2];
static long move_pieces, full_set, runaway_rows;

Hop hops[DIRECTION_COUNT][MAX_BITS];

static int on_board(int bit) { return bit >= 0 && bit < bit_count && ((valid >> bit) & 1); }

static u64 board_of(PyObject *object, int *error)
{
    unsigned long long value = PyLong_AsUnsignedLongLong(object);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) {
        *error = 1;
        return 0;
    }
    return (u64)value;
}

/* The three boards every search entry point takes (captures, quiet_moves, evaluate), read
 * once load() has run: 0, or -1 with the Python error set. */
static int three_boards(PyObject *first, PyObject *second, PyObject *third, u64 boards[3])
{
    if (!loaded) {
        PyErr_SetString(PyExc_RuntimeError, "games.checkers._fast: load() first");
        return -1;
    }
    int error = 0;
    boards[0] = board_of(first, &error);
    boards[1] = board_of(second, &error);
    boards[2] = board_of(third, &error);
    return error ? -1 : 0;
}

/* load(move_type, square_of_bit, quiet_tables, directions, masks): see the module comment.
 * masks: (valid, centre, double_corners, system, edge, row masks x8, dog_hole x2, dog_shut
 * x2, runaway_zone x2, back_row x2, crown_row x2, move_pieces, full_set, runaway_rows). */
static PyObject *Fast_load(PyObject *self, PyObject *args)
{
    PyObject *type, *squares, *tables, *direction_tuple, *masks;
    if (!PyArg_ParseTuple(args, "OO!O!O!O!", &type, &PyTuple_Type, &squares, &PyTuple_Type, &tables,
                          &PyTuple_Type, &direction_tuple, &PyTuple_Type, &masks))
        return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(squares);
    if (count <= 0 || count > MAX_BITS - 2 * 5) {
        PyErr_SetString(PyExc_ValueError, "square_of_bit: wrong length");
        return NULL;
    }
    if (PyTuple_GET_SIZE(tables) != DIRECTION_COUNT || PyTuple_GET_SIZE(direction_tuple) != DIRECTION_COUNT ||
        PyTuple_GET_SIZE(masks) != 5 + ROWS + 10 + 3) {
        PyErr_SetString(PyExc_ValueError, "load: wrong table sizes");
        return NULL;
    }
    int error = 0;
    u64 values[5 + ROWS + 10 + 3];
    for (int i = 0; i < 5 + ROWS + 10 + 3; i++)
        values[i] = board_of(PyTuple_GET_ITEM(masks, i), &error);
    int new_directions[DIRECTION_COUNT];
    for (int d = 0; d < DIRECTION_COUNT; d++) {
        long direction = PyLong_AsLong(PyTuple_GET_ITEM(direction_tuple, d));
        if (direction == -1 && PyErr_Occurred())
            return NULL;
        if (direction < -9 || direction > 9) {
            PyErr_SetString(PyExc_ValueError, "load: direction out of range");
            return NULL;
        }
        new_directions[d] = (int)direction;
        PyObject *table = PyTuple_GET_ITEM(tables, d);
        if (!PyTuple_Check(table) || PyTuple_GET_SIZE(table) != count) {
            PyErr_SetString(PyExc_ValueError, "load: a quiet table has the wrong length");
            return NULL;
        }
    }
    if (error)
        return NULL;
    /* Everything checked: replace the old state. */
    for (int bit = 0; bit < MAX_BITS; bit++) {
        Py_CLEAR(square_objects[bit]);
        for (int d = 0; d < DIRECTION_COUNT; d++)
            Py_CLEAR(quiet_table[d][bit]);
    }
    Py_XSETREF(move_type, Py_NewRef(type));
    bit_count = (int)count;
    for (int bit = 0; bit < bit_count; bit++) {
        square_objects[bit] = Py_NewRef(PyTuple_GET_ITEM(squares, bit));
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            PyObject *move = PyTuple_GET_ITEM(PyTuple_GET_ITEM(tables, d), bit);
            quiet_table[d][bit] = move == Py_None ? NULL : Py_NewRef(move);
        }
    }
    int i = 0;
    valid = values[i++];
    centre = values[i++];
    double_corners = values[i++];
    move_system = values[i++];
    edge = values[i++];
    for (int row = 0; row < ROWS; row++)
        row_mask[row] = values[i++];
    for (int side = 0; side < 2; side++) dog_hole[side] = values[i++];
    for (int side = 0; side < 2; side++) dog_shut[side] = values[i++];
    for (int side = 0; side < 2; side++) runaway_zone[side] = values[i++];
    for (int side = 0; side < 2; side++) back_row[side] = values[i++];
    for (int side = 0; side < 2; side++) crown_row[side] = values[i++];
    move_pieces = (long)values[i++];
    full_set = (long)values[i++];
    runaway_rows = (long)values[i++];
    for (int d = 0; d < DIRECTION_COUNT; d++) {
        directions[d] = new_directions[d];
        for (int bit = 0; bit < MAX_BITS; bit++) {
            /* as bitboards.STEP and JUMP: a jump needs its middle and its landing on the board */
            int middle = bit + directions[d], landing = bit + 2 * directions[d];
            if (bit < bit_count && on_board(middle) && on_board(landing)) {
                hops[d][bit].middle = middle;
                hops[d][bit].landing = landing;
            } else {
                hops[d][bit].middle = hops[d][bit].landing = -1;
            }
        }
    }
    loaded = 1;
    Py_RETURN_NONE;
}


/* ------------------------------------------------------------------ captures */

/* A Python list being filled with CheckersMove objects, one per capture walked. */
typedef struct {
    JumpWalk walk;  /* first: emit receives it and casts back */
    PyObject *moves;
} MoveObjects;

static int emit_move_object(JumpWalk *walk, int hop_count)
{
    MoveObjects *search = (MoveObjects *)walk;
    PyObject *path = PyTuple_New(hop_count + 1);
    PyObject *captured = PyTuple_New(hop_count);
    if (path == NULL || captured == NULL) {
        Py_XDECREF(path);
        Py_XDECREF(captured);
        return -1;
    }
    for (int i = 0; i <= hop_count; i++)
        PyTuple_SET_ITEM(path, i, Py_NewRef(square_objects[walk->path[i]]));
    for (int i = 0; i < hop_count; i++)
        PyTuple_SET_ITEM(captured, i, Py_NewRef(square_objects[walk->jumped[i]]));
    PyObject *pair = PyTuple_Pack(2, path, captured);
    Py_DECREF(path);
    Py_DECREF(captured);
    if (pair == NULL)
        return -1;
    PyObject *arguments = PyTuple_Pack(1, pair);
    Py_DECREF(pair);
    if (arguments == NULL)
        return -1;
    PyObject *move = PyTuple_Type.tp_new((PyTypeObject *)move_type, arguments, NULL);
    Py_DECREF(arguments);
    if (move == NULL)
        return -1;
    int status = PyList_Append(search->moves, move);
    Py_DECREF(move);
    return status;
}

/* state._add_jumps: 1 if a jump was available, 0 if not, -1 when emit failed. The captured
 * pieces stay on the board (not jumpable twice, not landable on) until the move ends; a
 * man reaching the crown row stops there. */
static int add_jumps(JumpWalk *walk, int bit, u64 opponent, u64 empty, int hop_count)
{
    int found = 0;
    u64 here = (u64)1 << bit;
    if (hop_count >= MAX_HOPS)
        return 0;
    for (int i = 0; i < walk->order_count; i++) {
        const Hop hop = hops[walk->order[i]][bit];
        if (hop.landing < 0)
            continue;
        u64 middle = (u64)1 << hop.middle, landing = (u64)1 << hop.landing;
        if (!(middle & opponent) || !(landing & empty))
            continue;
        found = 1;
        walk->path[hop_count + 1] = hop.landing;
        walk->jumped[hop_count] = hop.middle;
        int longer = 0;
        if (!(landing & walk->crown)) {
            longer = add_jumps(walk, hop.landing, opponent ^ middle, (empty ^ landing) | here, hop_count + 1);
            if (longer < 0)
                return -1;
        }
        if (!longer && walk->emit(walk, hop_count + 1) < 0)
            return -1;
    }
    return found;
}

static const int KING_ORDER[DIRECTION_COUNT] = {0, 1, 2, 3};
static const int MAN_ORDER[2][2] = {{0, 1}, {2, 3}}; /* Black down, White up */

u64 capture_starts(u64 mover, u64 opponent, u64 kings, int player)
{
    u64 empty = valid ^ (mover | opponent);
    u64 down = player == 0 ? mover : mover & kings, up = player == 0 ? mover & kings : mover;
    u64 starts = 0;
    if (down)
        starts = down & (((opponent >> 4) & (empty >> 8)) | ((opponent >> 5) & (empty >> 10)));
    if (up)
        starts |= up & (((opponent << 4) & (empty << 8)) | ((opponent << 5) & (empty << 10)));
    return starts;
}

int walk_captures(JumpWalk *walk, u64 starts, u64 mover, u64 opponent, u64 kings, int player)
{
    u64 empty = valid ^ (mover | opponent);
    while (starts) {
        u64 low = starts & (~starts + 1);
        starts ^= low;
        int bit = __builtin_ctzll(low);
        walk->path[0] = bit;
        if (low & kings) {
            walk->order = KING_ORDER;
            walk->order_count = DIRECTION_COUNT;
            walk->crown = 0;
        } else {
            walk->order = MAN_ORDER[player];
            walk->order_count = 2;
            walk->crown = crown_row[player];
        }
        if (add_jumps(walk, bit, opponent, empty | low, 0) < 0)
            return -1;
    }
    return 0;
}

static PyObject *Fast_captures(PyObject *self, PyObject *args)
{
    PyObject *mover_object, *opponent_object, *kings_object;
    int player;
    u64 boards[3];
    if (!PyArg_ParseTuple(args, "OOOi", &mover_object, &opponent_object, &kings_object, &player) ||
        three_boards(mover_object, opponent_object, kings_object, boards) < 0)
        return NULL;
    u64 mover = boards[0], opponent = boards[1], kings = boards[2];
    if (player != 0 && player != 1) {
        PyErr_SetString(PyExc_ValueError, "player must be 0 or 1");
        return NULL;
    }
    u64 starts = capture_starts(mover, opponent, kings, player);
    if (!starts)
        return PyTuple_New(0);
    MoveObjects search;
    search.walk.emit = emit_move_object;
    search.moves = PyList_New(0);
    if (search.moves == NULL)
        return NULL;
    if (walk_captures(&search.walk, starts, mover, opponent, kings, player) < 0) {
        Py_DECREF(search.moves);
        return NULL;
    }
    PyObject *result = PyList_AsTuple(search.moves);
    Py_DECREF(search.moves);
    return result;
}

/* ------------------------------------------------------------------ steps */

static int append_steps(PyObject *moves, int direction, u64 destinations)
{
    while (destinations) {
        int bit = __builtin_ctzll(destinations);
        destinations &= destinations - 1;
        PyObject *move = quiet_table[direction][bit];
        if (move == NULL) {
            PyErr_SetString(PyExc_ValueError, "quiet_moves: a step off the board");
            return -1;
        }
        if (PyList_Append(moves, move) < 0)
            return -1;
    }
    return 0;
}

static PyObject *Fast_quiet_moves(PyObject *self, PyObject *args)
{
    PyObject *mover_object, *kings_object, *empty_object;
    int player;
    u64 boards[3];
    if (!PyArg_ParseTuple(args, "OOOi", &mover_object, &kings_object, &empty_object, &player) ||
        three_boards(mover_object, kings_object, empty_object, boards) < 0)
        return NULL;
    u64 mover = boards[0], kings = boards[1], empty = boards[2];
    empty &= valid;
    u64 mover_kings = mover & kings;
    PyObject *moves = PyList_New(0);
    if (moves == NULL)
        return NULL;
    int status;
    if (player == 0) /* DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT */
        status = append_steps(moves, 0, (mover << 4) & empty) || append_steps(moves, 1, (mover << 5) & empty) ||
                 append_steps(moves, 2, (mover_kings >> 5) & empty) || append_steps(moves, 3, (mover_kings >> 4) & empty);
    else /* UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT */
        status = append_steps(moves, 2, (mover >> 5) & empty) || append_steps(moves, 3, (mover >> 4) & empty) ||
                 append_steps(moves, 0, (mover_kings << 4) & empty) || append_steps(moves, 1, (mover_kings << 5) & empty);
    if (status) {
        Py_DECREF(moves);
        return NULL;
    }
    return moves;
}

/* ------------------------------------------------------------------ EVAL */

static u64 black_cone_blocked(u64 white)
{
    u64 blocked = 0;
    for (long step = 0; step < runaway_rows; step++) {
        u64 source = white | blocked;
        u64 grown = ((source >> 4) | (source >> 5)) & valid;
        if (grown == blocked)
            break;
        blocked = grown;
    }
    return blocked;
}

static u64 white_cone_blocked(u64 black)
{
    u64 blocked = 0;
    for (long step = 0; step < runaway_rows; step++) {
        u64 source = black | blocked;
        u64 grown = ((source << 4) | (source << 5)) & valid;
        if (grown == blocked)
            break;
        blocked = grown;
    }
    return blocked;
}

/* evaluation.trapped_king_count */
static int trapped_king_count(u64 own_kings, u64 enemy, u64 kings, u64 empty, int player)
{
    u64 open = empty | own_kings, up, down;
    if (player == 0) {
        up = enemy;
        down = enemy & kings;
    } else {
        up = enemy & kings;
        down = enemy;
    }
    u64 attacked = ((up >> 5) & (open << 5)) | ((up >> 4) & (open << 4));
    if (down)
        attacked |= ((down << 4) & (open >> 4)) | ((down << 5) & (open >> 5));
    u64 safe = empty & ~attacked;
    u64 free_kings = ((safe >> 4) | (safe >> 5) | (safe << 4) | (safe << 5)) & own_kings;
    u64 capturing = own_kings & (((enemy >> 4) & (empty >> 8)) | ((enemy >> 5) & (empty >> 10)) |
                                 ((enemy << 4) & (empty << 8)) | ((enemy << 5) & (empty << 10)));
    return popcount(own_kings & ~free_kings & ~capturing);
}

/* The EVAL of evaluation.weighted_evaluation for Black, ``w`` in FEATURE_NAMES order. */
double evaluate_for_black(u64 black, u64 white, u64 kings, int player, const double *w)
{
    u64 black_men = black & ~kings, white_men = white & ~kings;
    u64 black_kings = black & kings, white_kings = white & kings;
    u64 occupied = black | white, empty = valid ^ occupied;
    long black_count = popcount(black), white_count = popcount(white);
    long black_king_count = popcount(black_kings), white_king_count = popcount(white_kings);
    long lead = black_count - white_count, total = black_count + white_count;

    long mobility = popcount((black << 4) & empty) + popcount((black << 5) & empty);
    mobility -= popcount((white >> 4) & empty) + popcount((white >> 5) & empty);
    if (black_kings)
        mobility += popcount((black_kings >> 4) & empty) + popcount((black_kings >> 5) & empty);
    if (white_kings)
        mobility -= popcount((white_kings << 4) & empty) + popcount((white_kings << 5) & empty);

    long runaway = 0;
    u64 black_candidates = black_men & runaway_zone[0];
    if (black_candidates)
        runaway += popcount(black_candidates & ~black_cone_blocked(white));
    u64 white_candidates = white_men & runaway_zone[1];
    if (white_candidates)
        runaway -= popcount(white_candidates & ~white_cone_blocked(black));

    long advancement = 0;
    for (int row = 0; row < ROWS; row++)
        advancement += row * popcount(black_men & row_mask[row]) - (ROWS - 1 - row) * popcount(white_men & row_mask[row]);

    /* The Python sum, term by term in its order (each product and sum rounded as there). */
    double value = w[0] * (double)((black_count - black_king_count) - (white_count - white_king_count));
    value = value + w[1] * (double)(black_king_count - white_king_count);
    value = value + w[2] * (double)(popcount(black_men & back_row[0]) - popcount(white_men & back_row[1]));
    value = value + w[3] * (double)(popcount(black & centre) - popcount(white & centre));
    value = value + w[4] * (double)mobility;
    value = value + w[5] * (double)runaway;
    value = value + w[6] * (double)advancement;
    if (w[7] != 0.0)
        value = value + w[7] * (double)(lead * (full_set - total));
    if (w[8] != 0.0 && lead) {
        if (lead < 0)
            value = value + w[8] * (double)popcount(black_kings & double_corners);
        else
            value = value + w[8] * (double)(-popcount(white_kings & double_corners));
    }
    if (w[9] != 0.0 && lead == 0 && total <= move_pieces && black_king_count == white_king_count)
        value = value + w[9] * (((popcount(occupied & move_system) + player) & 1) ? 1.0 : -1.0);
    if (w[10] != 0.0 && kings) {
        long trapped = 0;
        if (black_kings)
            trapped += trapped_king_count(black_kings, white, kings, empty, 0);
        if (white_kings)
            trapped -= trapped_king_count(white_kings, black, kings, empty, 1);
        value = value + w[10] * (double)trapped;
    }
    if (w[11] != 0.0) {
        long dog = 0;
        if ((black_men & dog_hole[0]) && (white & dog_shut[0]))
            dog += 1;
        if ((white_men & dog_hole[1]) && (black & dog_shut[1]))
            dog -= 1;
        value = value + w[11] * (double)dog;
    }
    if (w[12] != 0.0 && kings)
        value = value + w[12] * (double)(popcount(black_kings & edge) - popcount(white_kings & edge));
    if (w[13] != 0.0 && total)
        value = value + w[13] * ((double)(lead * full_set) / (double)total);
    return value;
}

/* The weight tuple of evaluation.WEIGHT_VALUES read into ``w``: 0, or -1 with the error set. */
int read_weights(PyObject *weight_tuple, double *w)
{
    if (!PyTuple_Check(weight_tuple) || PyTuple_GET_SIZE(weight_tuple) != WEIGHT_COUNT) {
        PyErr_SetString(PyExc_ValueError, "weights: a tuple of 14 numbers expected");
        return -1;
    }
    for (int i = 0; i < WEIGHT_COUNT; i++) {
        w[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(weight_tuple, i));
        if (w[i] == -1.0 && PyErr_Occurred())
            return -1;
    }
    return 0;
}

static PyObject *Fast_evaluate(PyObject *self, PyObject *args)
{
    PyObject *black_object, *white_object, *kings_object, *weight_tuple;
    int player;
    if (!PyArg_ParseTuple(args, "OOOiO!", &black_object, &white_object, &kings_object, &player, &PyTuple_Type,
                          &weight_tuple))
        return NULL;
    u64 boards[3];
    if (three_boards(black_object, white_object, kings_object, boards) < 0)
        return NULL;
    double w[WEIGHT_COUNT];
    if (read_weights(weight_tuple, w) < 0)
        return NULL;
    return PyFloat_FromDouble(evaluate_for_black(boards[0], boards[1], boards[2], player, w));
}

static PyMethodDef methods[] = {
    {"load", Fast_load, METH_VARARGS, "load(move_type, square_of_bit, quiet_tables, directions, masks)"},
    {"captures", Fast_captures, METH_VARARGS, "captures(mover, opponent, kings, player) -> tuple of moves"},
    {"quiet_moves", Fast_quiet_moves, METH_VARARGS, "quiet_moves(mover, kings, empty, player) -> list of moves"},
    {"evaluate", Fast_evaluate, METH_VARARGS, "evaluate(black, white, kings, player, weights) -> float (Black's view)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fast", "Checkers hot paths in C.", -1, methods};

PyMODINIT_FUNC PyInit__fast(void)
{
    PyObject *result = PyModule_Create(&module);
    if (result != NULL && add_searcher(result) < 0)
        Py_CLEAR(result);
    return result;
}
