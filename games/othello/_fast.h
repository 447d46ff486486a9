/*
 * What the two C files of the games.othello._fast extension share: _fast.c (move
 * generation and the EVALs) and _search.c (the compiled search, which evaluates its leaves
 * with the EVAL of _fast.c).
 */
#ifndef PLYGROUND_OTHELLO_FAST_H
#define PLYGROUND_OTHELLO_FAST_H

#include <Python.h>

#include "_bitboard.h"

/* Whether a model has been handed over (load or set_classic). */
int othello_has_model(void);

/* The EVAL of the model handed over last for the side owning p, in hundredths of a disc:
 * evaluation.evaluate_to_move's double, before the clamp (p_moves: p's legal squares). */
double othello_evaluate(u64 p, u64 o, u64 p_moves);

/* How many models have been handed over: a searcher clears its table when it changes. */
extern unsigned long othello_model_version;

/* Adds the Searcher type and the search's functions to the module (0, or -1 with an error). */
int othello_add_searcher(PyObject *module);

#endif
