/*
 * tools/othello_label.c: a plain fixed-depth alpha-beta in C for labelling training positions
 * of the Othello pattern EVAL (tools/othello_label.py builds and drives it). Dev-only: the
 * app's engine never loads it.
 *
 * It reuses the shipped extension's code (move generation, flips, both EVALs, the pattern-model
 * loader) by including games/othello/_fast.c, so a search here sees exactly the values the
 * engine's EVAL gives. Module: othello_label (its own PyInit; _fast's stays unused).
 *
 *   load / set_classic: as games.othello._fast (the Python driver hands them over the same way);
 *   search(own, opponent, depth, model, exact_empties) -> (value, nodes): negamax value for
 *       the side to move in hundredths of a disc; model 0 = classic EVAL, 1 = pattern EVAL;
 *       at exact_empties or fewer empty squares it searches to the end of the game (exact).
 *   root_values(own, opponent, depth, model, exact_empties) -> [(square, value), ...]: every
 *       legal move's value (searched depth - 1 below it), for play with noise.
 */

#include "../games/othello/_fast.c"

static long long label_nodes = 0;
static int label_model = 0, label_exact = 0;

static double final_value(u64 p, u64 o)
{
    const int mine = popcount(p), theirs = popcount(o);
    int margin = 0;
    if (mine > theirs)
        margin = 64 - 2 * theirs;
    else if (mine < theirs)
        margin = 2 * mine - 64;
    return 100.0 * margin;
}

static double leaf_value(u64 p, u64 o, u64 moves)
{
    double value = label_model ? pattern_value(p, o, moves) : classic_value(p, o, moves);
    if (value > 6400.0)
        value = 6400.0;
    if (value < -6400.0)
        value = -6400.0;
    return value;
}

static double negamax(u64 p, u64 o, int depth, double alpha, double beta, int passed)
{
    label_nodes++;
    const u64 moves = legal_moves(p, o);
    if (!moves) {
        if (passed || !legal_moves(o, p))
            return final_value(p, o);
        return -negamax(o, p, depth, -beta, -alpha, 1);
    }
    const int empties = SQUARES - popcount(p | o);
    const int exact = empties <= label_exact;
    if (!exact && depth <= 0)
        return leaf_value(p, o, moves);
    int squares[32], count = 0;
    u64 children_p[32], children_o[32];
    double keys[32];
    for (u64 rest = moves; rest; rest &= rest - 1) {
        const int square = __builtin_ctzll(rest);
        const u64 flipped = flips_of(p, o, square);
        squares[count] = square;
        children_p[count] = o & ~flipped;
        children_o[count] = p | flipped | (1ULL << square);
        count++;
    }
    /* Order: deep enough nodes by the children's static value (best for us first), exact
     * nodes by the opponent's mobility (fastest first). */
    if ((exact && empties > 6) || (!exact && depth >= 3)) {
        for (int i = 0; i < count; i++) {
            const u64 reply = legal_moves(children_p[i], children_o[i]);
            keys[i] = exact ? (double)popcount(reply)
                            : leaf_value(children_p[i], children_o[i], reply);
        }
        for (int i = 1; i < count; i++) {
            const double key = keys[i];
            const u64 cp = children_p[i], co = children_o[i];
            const int sq = squares[i];
            int j = i - 1;
            while (j >= 0 && keys[j] > key) {
                keys[j + 1] = keys[j];
                children_p[j + 1] = children_p[j];
                children_o[j + 1] = children_o[j];
                squares[j + 1] = squares[j];
                j--;
            }
            keys[j + 1] = key;
            children_p[j + 1] = cp;
            children_o[j + 1] = co;
            squares[j + 1] = sq;
        }
    }
    double best = -1e9;
    for (int i = 0; i < count; i++) {
        double value;
        if (i == 0) {
            value = -negamax(children_p[i], children_o[i], depth - 1, -beta, -alpha, 0);
        } else {
            /* PVS: a null window first (the values are multiples of small units; 1 is fine). */
            value = -negamax(children_p[i], children_o[i], depth - 1, -alpha - 1, -alpha, 0);
            if (value > alpha && value < beta)
                value = -negamax(children_p[i], children_o[i], depth - 1, -beta, -value, 0);
        }
        if (value > best) {
            best = value;
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta)
                    break;
            }
        }
    }
    return best;
}

static int parse_search_args(PyObject *args, u64 *p, u64 *o, int *depth)
{
    int model, exact;
    if (!PyArg_ParseTuple(args, "KKiii", p, o, depth, &model, &exact))
        return 0;
    if ((model == 1 && !loaded) || (model == 0 && !classic_loaded)) {
        PyErr_SetString(PyExc_RuntimeError, "the model asked for is not loaded");
        return 0;
    }
    if (*p & *o) {
        PyErr_SetString(PyExc_ValueError, "own and opponent overlap");
        return 0;
    }
    label_model = model;
    label_exact = exact;
    return 1;
}

static PyObject *Label_search(PyObject *module, PyObject *args)
{
    (void)module;
    u64 p, o;
    int depth;
    if (!parse_search_args(args, &p, &o, &depth))
        return NULL;
    label_nodes = 0;
    const double value = negamax(p, o, depth, -1e9, 1e9, 0);
    return Py_BuildValue("dL", value, label_nodes);
}

static PyObject *Label_root_values(PyObject *module, PyObject *args)
{
    (void)module;
    u64 p, o;
    int depth;
    if (!parse_search_args(args, &p, &o, &depth))
        return NULL;
    PyObject *list = PyList_New(0);
    if (list == NULL)
        return NULL;
    for (u64 rest = legal_moves(p, o); rest; rest &= rest - 1) {
        const int square = __builtin_ctzll(rest);
        const u64 flipped = flips_of(p, o, square);
        const double value = -negamax(o & ~flipped, p | flipped | (1ULL << square), depth - 1, -1e9, 1e9, 0);
        PyObject *item = Py_BuildValue("id", square, value);
        if (item == NULL || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(item);
    }
    return list;
}

static PyMethodDef label_methods[] = {
    {"set_classic", Fast_set_classic, METH_VARARGS, "as games.othello._fast.set_classic"},
    {"load", Eval_load, METH_VARARGS, "as games.othello._fast.load"},
    {"search", Label_search, METH_VARARGS,
     "search(own, opponent, depth, model, exact_empties) -> (value, nodes)"},
    {"root_values", Label_root_values, METH_VARARGS,
     "root_values(own, opponent, depth, model, exact_empties) -> [(square, value), ...]"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef label_module = {
    PyModuleDef_HEAD_INIT, "othello_label", "Fixed-depth Othello search for labelling (dev only).", -1,
    label_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_othello_label(void)
{
    return PyModule_Create(&label_module);
}
