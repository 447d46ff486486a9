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
 * Nothing about the rules' geometry or the EVAL's numbers is written twice: load() receives
 * the square numbers of the bits and the step tables from games/checkers/bitboards.py, and
 * the masks and constants of evaluation.py by name (evaluation.native_masks), refusing a
 * missing or unknown one; it also refuses an evaluation.FEATURE_NAMES that differs from the
 * terms this EVAL computes (TERM_NAMES), since the weights cross as a tuple in that order.
 * Boards are Python ints in the ghost layout (35 bits).
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

/* evaluation.FEATURE_NAMES as this EVAL computes them, by the TERM_* of _fast.h. */
static const char *const TERM_NAMES[WEIGHT_COUNT] = {
    [TERM_MEN] = "men",
    [TERM_KINGS] = "kings",
    [TERM_BACK_RANK] = "back_rank",
    [TERM_CENTRE] = "centre",
    [TERM_MOBILITY] = "mobility",
    [TERM_RUNAWAY] = "runaway",
    [TERM_ADVANCEMENT] = "advancement",
    [TERM_TRADE] = "trade",
    [TERM_DOUBLE_CORNER] = "double_corner",
    [TERM_THE_MOVE] = "the_move",
    [TERM_TRAPPED_KINGS] = "trapped_kings",
    [TERM_DOG_HOLE] = "dog_hole",
    [TERM_KING_EDGE] = "king_edge",
    [TERM_SIMPLIFY] = "simplify",
};

/* The masks and numbers of evaluation.native_masks(), by name: where each lands, and how
 * many boards it is (1, ROWS, or one per player). */
typedef struct {
    const char *name;
    int count;
    u64 *boards; /* NULL: a number, into *number */
    long *number;
} MaskField;
static const MaskField MASK_FIELDS[] = {
    {"VALID", 1, &valid, NULL},
    {"CENTRE", 1, &centre, NULL},
    {"DOUBLE_CORNERS", 1, &double_corners, NULL},
    {"SYSTEM", 1, &move_system, NULL},
    {"EDGE", 1, &edge, NULL},
    {"ROW_MASKS", ROWS, row_mask, NULL},
    {"DOG_HOLE", 2, dog_hole, NULL},
    {"DOG_HOLE_SHUT", 2, dog_shut, NULL},
    {"RUNAWAY_ZONE", 2, runaway_zone, NULL},
    {"BACK_ROW", 2, back_row, NULL},
    {"CROWN_ROW", 2, crown_row, NULL},
    {"MOVE_PIECES", 1, NULL, &move_pieces},
    {"FULL_SET", 1, NULL, &full_set},
    {"RUNAWAY_ROWS", 1, NULL, &runaway_rows},
};
#define MASK_FIELD_COUNT ((int)(sizeof(MASK_FIELDS) / sizeof(MASK_FIELDS[0])))
#define MASK_VALUE_COUNT (5 + ROWS + 10 + 3) /* the counts above, summed */

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

/* ``names`` (evaluation.FEATURE_NAMES) is exactly TERM_NAMES, in order: 0, or -1 with a
 * ValueError naming the first difference. */
static int check_term_names(PyObject *names)
{
    PyObject *fast = PySequence_Fast(names, "load: feature names must be a sequence");
    if (!fast) return -1;
    const Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t i = 0; i < count || i < WEIGHT_COUNT; i++) {
        const char *given = NULL;
        if (i < count) {
            PyObject *name = PySequence_Fast_GET_ITEM(fast, i);
            given = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
            if (!given) {
                Py_DECREF(fast);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "load: a feature name is not a str");
                return -1;
            }
        }
        const char *known = i < WEIGHT_COUNT ? TERM_NAMES[i] : NULL;
        if (!given || !known || strcmp(given, known)) {
            PyErr_Format(PyExc_ValueError,
                         "the checkers EVAL terms differ at position %zd: evaluation.FEATURE_NAMES has %s%s%s, "
                         "games/checkers/_fast.c computes %s%s%s",
                         i, given ? "'" : "", given ? given : "nothing", given ? "'" : "", known ? "'" : "",
                         known ? known : "nothing", known ? "'" : "");
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

/* Whether ``name`` is one of MASK_FIELDS. */
static int is_mask_name(PyObject *key)
{
    const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
    if (!name) return 0;
    for (int f = 0; f < MASK_FIELD_COUNT; f++)
        if (!strcmp(name, MASK_FIELDS[f].name)) return 1;
    return 0;
}

/* The values of ``masks`` (a mapping by MASK_FIELDS' names) flattened in MASK_FIELDS order
 * into ``values``: 0, or -1 with a KeyError for a missing or unknown name, or another error. */
static int read_masks(PyObject *masks, u64 values[MASK_VALUE_COUNT])
{
    if (!PyDict_Check(masks)) {
        PyErr_SetString(PyExc_TypeError, "load: masks is a dict by name (evaluation.native_masks())");
        return -1;
    }
    PyObject *key, *value;
    Py_ssize_t position = 0;
    while (PyDict_Next(masks, &position, &key, &value))
        if (!is_mask_name(key)) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_KeyError, "load: mask %R is unknown to games/checkers/_fast.c", key);
            return -1;
        }
    int i = 0, error = 0;
    for (int f = 0; f < MASK_FIELD_COUNT; f++) {
        const MaskField *field = &MASK_FIELDS[f];
        PyObject *item = PyDict_GetItemString(masks, field->name);
        if (!item) {
            PyErr_Format(PyExc_KeyError, "load: mask %s is missing", field->name);
            return -1;
        }
        if (field->count == 1 && !PyTuple_Check(item)) {
            values[i++] = board_of(item, &error);
        } else if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != field->count) {
            PyErr_Format(PyExc_ValueError, "load: mask %s is a tuple of %d", field->name, field->count);
            return -1;
        } else {
            for (int k = 0; k < field->count; k++) values[i++] = board_of(PyTuple_GET_ITEM(item, k), &error);
        }
        if (error) return -1;
    }
    return 0;
}

/* load(move_type, square_of_bit, quiet_tables, directions, masks, feature_names): see the
 * module comment. On any error the old state stays. */
static PyObject *Fast_load(PyObject *self, PyObject *args)
{
    PyObject *type, *squares, *tables, *direction_tuple, *masks, *names;
    if (!PyArg_ParseTuple(args, "OO!O!O!OO", &type, &PyTuple_Type, &squares, &PyTuple_Type, &tables,
                          &PyTuple_Type, &direction_tuple, &masks, &names))
        return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(squares);
    if (count <= 0 || count > MAX_BITS - 2 * 5) {
        PyErr_SetString(PyExc_ValueError, "square_of_bit: wrong length");
        return NULL;
    }
    if (PyTuple_GET_SIZE(tables) != DIRECTION_COUNT || PyTuple_GET_SIZE(direction_tuple) != DIRECTION_COUNT) {
        PyErr_SetString(PyExc_ValueError, "load: wrong table sizes");
        return NULL;
    }
    u64 values[MASK_VALUE_COUNT];
    if (read_masks(masks, values) < 0 || check_term_names(names) < 0)
        return NULL;
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
    for (int f = 0; f < MASK_FIELD_COUNT; f++)
        for (int k = 0; k < MASK_FIELDS[f].count; k++, i++)
            if (MASK_FIELDS[f].boards)
                MASK_FIELDS[f].boards[k] = values[i];
            else
                *MASK_FIELDS[f].number = (long)values[i];
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
    double value = w[TERM_MEN] * (double)((black_count - black_king_count) - (white_count - white_king_count));
    value = value + w[TERM_KINGS] * (double)(black_king_count - white_king_count);
    value = value + w[TERM_BACK_RANK] * (double)(popcount(black_men & back_row[0]) - popcount(white_men & back_row[1]));
    value = value + w[TERM_CENTRE] * (double)(popcount(black & centre) - popcount(white & centre));
    value = value + w[TERM_MOBILITY] * (double)mobility;
    value = value + w[TERM_RUNAWAY] * (double)runaway;
    value = value + w[TERM_ADVANCEMENT] * (double)advancement;
    if (w[TERM_TRADE] != 0.0)
        value = value + w[TERM_TRADE] * (double)(lead * (full_set - total));
    if (w[TERM_DOUBLE_CORNER] != 0.0 && lead) {
        if (lead < 0)
            value = value + w[TERM_DOUBLE_CORNER] * (double)popcount(black_kings & double_corners);
        else
            value = value + w[TERM_DOUBLE_CORNER] * (double)(-popcount(white_kings & double_corners));
    }
    if (w[TERM_THE_MOVE] != 0.0 && lead == 0 && total <= move_pieces && black_king_count == white_king_count)
        value = value + w[TERM_THE_MOVE] * (((popcount(occupied & move_system) + player) & 1) ? 1.0 : -1.0);
    if (w[TERM_TRAPPED_KINGS] != 0.0 && kings) {
        long trapped = 0;
        if (black_kings)
            trapped += trapped_king_count(black_kings, white, kings, empty, 0);
        if (white_kings)
            trapped -= trapped_king_count(white_kings, black, kings, empty, 1);
        value = value + w[TERM_TRAPPED_KINGS] * (double)trapped;
    }
    if (w[TERM_DOG_HOLE] != 0.0) {
        long dog = 0;
        if ((black_men & dog_hole[0]) && (white & dog_shut[0]))
            dog += 1;
        if ((white_men & dog_hole[1]) && (black & dog_shut[1]))
            dog -= 1;
        value = value + w[TERM_DOG_HOLE] * (double)dog;
    }
    if (w[TERM_KING_EDGE] != 0.0 && kings)
        value = value + w[TERM_KING_EDGE] * (double)(popcount(black_kings & edge) - popcount(white_kings & edge));
    if (w[TERM_SIMPLIFY] != 0.0 && total)
        value = value + w[TERM_SIMPLIFY] * ((double)(lead * full_set) / (double)total);
    return value;
}

/* The weight tuple of evaluation.WEIGHT_VALUES read into ``w``: 0, or -1 with the error set. */
int read_weights(PyObject *weight_tuple, double *w)
{
    if (!PyTuple_Check(weight_tuple) || PyTuple_GET_SIZE(weight_tuple) != WEIGHT_COUNT) {
        PyErr_Format(PyExc_ValueError, "weights: a tuple of %d numbers expected (evaluation.WEIGHT_VALUES)", WEIGHT_COUNT);
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
    {"load", Fast_load, METH_VARARGS, "load(move_type, square_of_bit, quiet_tables, directions, masks, feature_names)"},
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
