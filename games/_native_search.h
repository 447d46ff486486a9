/*
 * The half of a compiled game search that talks to Python and runs threads, shared by
 * games/chess_game/_search.c and games/checkers/_search.c (each its own extension module,
 * so this is a header of static functions, included once by each).
 *
 * What it does: counts nodes and calls ``poll`` every ``poll_interval`` of them with the GIL
 * taken back (a poll that raises stops the search, but depth 1 always finishes first); runs
 * Lazy SMP helper threads that search the same root beside the main searcher, share its
 * table and never call Python; deepens iteration by iteration, reporting each completed one
 * to ``on_iteration``; keeps what a cut iteration had found (``interrupted``).
 *
 * The including file defines first:
 *  - ``Move``, ``MATE_BOUND`` (scores beyond it are wins or losses in plies) and
 *    ``MAX_DEPTH`` (the deepest iteration);
 *  - the table: ``TTEntry`` (with ``generation_bound``), ``TTSlot``, buckets of ``TT_BUCKET``
 *    slots, ``read_slot(slot, &entry)`` (the key a slot holds, 0 when empty) and
 *    ``HASHFULL_SAMPLE``, how many slots ``hashfull`` looks at;
 *  - ``Searcher``, a struct with the fields used below under these names (nodes, next_poll,
 *    reported, poll_interval, poll, thread, stopped, deferred, busy, completed_depth,
 *    root_depth, seldepth, max_depth, error_type/value/traceback, pv, pv_length, partial_*,
 *    helpers, helper_count, active_helpers, stop_helpers, stop_flag, keys, table, the
 *    counters);
 *  - prototypes of ``search_root(s, depth, previous)`` (one aspiration-window iteration),
 *    ``prepare_helper(self, helper, index)`` (a helper made ready to search this root; it
 *    sets ``helper->root_depth`` to the depth before its first), ``line_list(moves, n)``
 *    (a line as Python objects) and ``clear_tables(s)`` (forget the table and history).
 * Optionally (Othello's search):
 *  - ``SEARCH_SCORE`` and ``SEARCH_SCORE_CODE``: the type of a score and its Py_BuildValue
 *    code (``int`` and "i" by default), for a search whose EVAL is a double it must compare
 *    exactly as the Python search does;
 *  - ``SEARCH_SETTLED(s)``: true when the iteration just completed proved the root's value
 *    (an exact solve), so that no deeper iteration is started (0 by default).
 */
#ifndef PLYGROUND_NATIVE_SEARCH_H
#define PLYGROUND_NATIVE_SEARCH_H

#include <pthread.h>
#include <stdint.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#ifndef SEARCH_SCORE
#define SEARCH_SCORE int
#define SEARCH_SCORE_CODE "i"
#endif
#ifndef SEARCH_SETTLED
#define SEARCH_SETTLED(s) 0
#endif

#define HELPER_POLL_INTERVAL 1024 /* nodes between a helper's looks at its stop flag */
#define MAX_THREADS 256

/* The transposition table's memory: zeroed, its pages touched only when written.
 *
 * On Linux a table of 2 MB or more is a mapping of its own, aligned to 2 MB and marked for
 * transparent huge pages (``madvise``; the kernel's default "madvise" mode gives them only
 * when asked). The search probes the table at random, so with 4 KB pages nearly every probe
 * of a 64 MB table also misses the TLB and walks the page tables. With them the same search
 * ran 1.15 times faster (chess bench depth 17, 1946 -> 1695 ms; checkers depth 18, 1.19
 * times; bench/STRENGTH.md, "Compiled searches: speed"). Elsewhere, calloc. */
#define HUGE_PAGE_BYTES ((size_t)2 << 20)

static void *table_alloc(size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= HUGE_PAGE_BYTES) {
        const size_t size = bytes + HUGE_PAGE_BYTES; /* room to align the start */
        char *base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == MAP_FAILED) return NULL;
        char *table = (char *)(((uintptr_t)base + HUGE_PAGE_BYTES - 1) & ~(uintptr_t)(HUGE_PAGE_BYTES - 1));
        if (table > base) munmap(base, (size_t)(table - base));
        const size_t tail = (size_t)(base + size - (table + bytes));
        if (tail) munmap(table + bytes, tail);
        madvise(table, bytes, MADV_HUGEPAGE); /* a hint: without huge pages it still works */
        return table;
    }
#endif
    return calloc(1, bytes);
}

/* Give back a table of ``bytes`` from table_alloc (NULL is nothing to free). */
static void table_free(void *table, size_t bytes)
{
    if (!table) return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= HUGE_PAGE_BYTES) {
        munmap(table, bytes);
        return;
    }
#endif
    (void)bytes;
    free(table);
}

/* Tell the cache the table's bucket for ``key`` will be read soon: called as soon as a
 * move's child key is known, so that the load (most of a probe's time: the table is far
 * bigger than the caches) overlaps the work before the child probes it. */
#define TABLE_PREFETCH(s, key) __builtin_prefetch(&(s)->table[(key) & ((s)->bucket_count - 1)])

/* Win and loss scores are stored as distances from the node, not from the root. */
static inline int score_to_tt(int score, int ply)
{
    return score >= MATE_BOUND ? score + ply : score <= -MATE_BOUND ? score - ply : score;
}
static inline int score_from_tt(int score, int ply)
{
    return score >= MATE_BOUND ? score - ply : score <= -MATE_BOUND ? score + ply : score;
}

/* The nodes of a search: the main searcher's and its running helpers' (read while they
 * count: a moment's figure). */
static u64 total_nodes(const Searcher *s)
{
    u64 total = s->nodes;
    for (int i = 0; i < s->active_helpers; ++i) total += __atomic_load_n(&s->helpers[i]->nodes, __ATOMIC_RELAXED);
    return total;
}

/* Python's exception of a failed call, kept to be raised when the search has unwound. */
static void hold_error(Searcher *s)
{
    PyErr_Fetch(&s->error_type, &s->error_value, &s->error_traceback);
    if (s->completed_depth == 0) {
        s->deferred = 1; /* depth 1 always finishes: there must be a best move */
        s->next_poll = UINT64_MAX;
    } else {
        s->stopped = 1;
    }
}

static void poll_now(Searcher *s)
{
    s->next_poll = s->nodes + (u64)s->poll_interval;
    PyEval_RestoreThread(s->thread);
    int fail = PyErr_CheckSignals() != 0;
    if (!fail) {
        const u64 total = total_nodes(s);
        const u64 count = total - s->reported;
        s->reported = total;
        PyObject *answer = PyObject_CallFunction(s->poll, "KO", (unsigned long long)count, Py_True);
        if (answer == NULL) fail = 1;
        Py_XDECREF(answer);
    }
    if (fail) hold_error(s);
    s->thread = PyEval_SaveThread();
}

/* Count a node (one per move made); 1 when the search must unwind. A helper thread never
 * calls Python: it only looks at its main searcher's stop flag. */
static inline int count_node(Searcher *s)
{
    if (++s->nodes >= s->next_poll) {
        if (s->stop_flag) {
            s->next_poll = s->nodes + HELPER_POLL_INTERVAL;
            if (__atomic_load_n(s->stop_flag, __ATOMIC_RELAXED)) s->stopped = 1;
        } else {
            poll_now(s);
        }
    }
    return s->stopped;
}

static inline void update_pv(Searcher *s, int ply, Move m)
{
    s->pv[ply][ply] = m;
    for (int i = ply + 1; i < s->pv_length[ply + 1]; ++i) s->pv[ply][i] = s->pv[ply + 1][i];
    s->pv_length[ply] = s->pv_length[ply + 1] > ply + 1 ? s->pv_length[ply + 1] : ply + 1;
}

/* A root move of the iteration under way raised alpha (its line is pv[0]): keep it. */
static void record_partial(Searcher *s, SEARCH_SCORE score)
{
    s->partial_depth = s->root_depth;
    s->partial_score = score;
    s->partial_seldepth = s->seldepth;
    s->partial_length = s->pv_length[0];
    memcpy(s->partial_pv, s->pv[0], sizeof(Move) * (size_t)s->pv_length[0]);
}

/* ------------------------------------------------------------------ helper threads */

static void free_helpers(Searcher *self)
{
    for (int i = 0; i < self->helper_count; ++i) {
        free(self->helpers[i]->keys);
        free(self->helpers[i]);
    }
    free(self->helpers);
    self->helpers = NULL;
    self->helper_count = self->active_helpers = 0;
}

/* At least ``count`` helpers allocated (0 with an exception set when memory runs out). */
static int ensure_helpers(Searcher *self, int count)
{
    if (count <= self->helper_count) return 1;
    Searcher **grown = realloc(self->helpers, (size_t)count * sizeof *grown);
    if (!grown) {
        PyErr_NoMemory();
        return 0;
    }
    self->helpers = grown;
    while (self->helper_count < count) {
        Searcher *helper = calloc(1, sizeof(Searcher));
        if (!helper) {
            PyErr_NoMemory();
            return 0;
        }
        self->helpers[self->helper_count++] = helper;
    }
    return 1;
}

/* A helper thread: iterative deepening without aspiration callbacks or Python, until its
 * main searcher raises the stop flag or the depth limit is reached. */
static void *helper_main(void *argument)
{
    Searcher *helper = argument;
    SEARCH_SCORE score = 0;
    for (int depth = helper->root_depth + 1; depth <= helper->max_depth; ++depth) {
        helper->root_depth = depth;
        score = search_root(helper, depth, score);
        if (helper->stopped) break;
        helper->completed_depth = depth;
        if (SEARCH_SETTLED(helper)) break;
    }
    return NULL;
}

/* Up to ``count`` helpers started on ``threads``; how many run (fewer when memory runs out:
 * the search goes on with those). */
static int start_helpers(Searcher *self, int count, pthread_t *threads)
{
    self->active_helpers = 0;
    self->stop_helpers = 0;
    if (!count) return 0;
    if (!threads || !ensure_helpers(self, count)) {
        PyErr_Clear(); /* no memory for helpers: search alone */
        return 0;
    }
    int started = 0;
    for (int i = 0; i < count; ++i) {
        if (!prepare_helper(self, self->helpers[i], i + 1)) {
            PyErr_Clear();
            break;
        }
        self->active_helpers = i + 1; /* counted before it runs: total_nodes reads it */
        if (pthread_create(&threads[i], NULL, helper_main, self->helpers[i]) != 0) {
            self->active_helpers = i;
            break;
        }
        started = i + 1;
    }
    return started;
}

/* The helpers told to stop and waited for, with the GIL released (they stop within
 * HELPER_POLL_INTERVAL nodes). */
static void join_helpers(Searcher *self, pthread_t *threads, int started)
{
    if (!started) return;
    __atomic_store_n(&self->stop_helpers, 1, __ATOMIC_RELAXED);
    self->thread = PyEval_SaveThread();
    for (int i = 0; i < started; ++i) pthread_join(threads[i], NULL);
    PyEval_RestoreThread(self->thread);
    self->thread = NULL;
}

/* ------------------------------------------------------------------ deepening */

/* The arguments every search takes, checked (0, or -1 with a ValueError, TypeError or
 * RuntimeError set); ``max_depth`` is cut to MAX_DEPTH. */
static int check_request(Searcher *self, int threads, PyObject *poll, PyObject *on_iteration, long long poll_interval,
                         int *max_depth)
{
    if (threads < 1 || threads > MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "threads must be 1..%d", MAX_THREADS);
        return -1;
    }
    if (!PyCallable_Check(poll) || !PyCallable_Check(on_iteration)) {
        PyErr_SetString(PyExc_TypeError, "poll and on_iteration must be callable");
        return -1;
    }
    if (poll_interval < 1) {
        PyErr_SetString(PyExc_ValueError, "poll_interval must be at least 1 node");
        return -1;
    }
    if (*max_depth < 1) {
        PyErr_SetString(PyExc_ValueError, "max_depth must be at least 1");
        return -1;
    }
    if (*max_depth > MAX_DEPTH) *max_depth = MAX_DEPTH;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Searcher is already searching (one search at a time)");
        return -1;
    }
    return 0;
}

enum { DEEPENED = 0, POLL_FAILED = 1, CALLBACK_FAILED = 2 };

/* Iterations 1..max_depth (none when the root has no move), each reported to
 * ``on_iteration(depth, seldepth, score, nodes, pv)``, until it answers true, a poll raises
 * or ``max_depth`` is done; with the GIL released while each iteration searches. */
static int deepen(Searcher *self, PyObject *on_iteration, int any_move, int max_depth)
{
    SEARCH_SCORE score = 0;
    self->partial_depth = 0;
    for (int depth = 1; any_move && depth <= max_depth; ++depth) {
        self->root_depth = depth;
        self->partial_depth = 0;
        self->thread = PyEval_SaveThread();
        score = search_root(self, depth, score);
        PyEval_RestoreThread(self->thread);
        self->thread = NULL;
        if (self->stopped) return POLL_FAILED;
        self->completed_depth = depth;
        PyObject *pv = line_list(self->pv[0], self->pv_length[0]);
        if (!pv) return CALLBACK_FAILED;
        PyObject *answer = PyObject_CallFunction(on_iteration, "ii" SEARCH_SCORE_CODE "KN", depth, self->seldepth, score,
                                                 (unsigned long long)total_nodes(self), pv);
        if (!answer) return CALLBACK_FAILED;
        const int enough = PyObject_IsTrue(answer);
        Py_DECREF(answer);
        if (enough < 0) return CALLBACK_FAILED;
        if (self->deferred) return POLL_FAILED; /* the poll's exception, held back while depth 1 finished */
        if (enough || SEARCH_SETTLED(self)) break;
    }
    return DEEPENED;
}

/* How ``deepen`` ended, for Python: None after a last ``poll(rest, False)``, or NULL with
 * the poll's or on_iteration's exception. Ends the search (``poll`` released, not busy). */
static PyObject *end_search(Searcher *self, PyObject *poll, int failed)
{
    PyObject *result = NULL;
    if (failed == POLL_FAILED) {
        PyErr_Restore(self->error_type, self->error_value, self->error_traceback);
    } else if (failed == CALLBACK_FAILED) {
        Py_XDECREF(self->error_type); /* a held-back poll error loses to on_iteration's own */
        Py_XDECREF(self->error_value);
        Py_XDECREF(self->error_traceback);
    } else {
        const u64 total = total_nodes(self);
        PyObject *answer = PyObject_CallFunction(poll, "KO", (unsigned long long)(total - self->reported), Py_False);
        self->reported = total;
        if (answer) {
            Py_DECREF(answer);
            result = Py_NewRef(Py_None);
        }
    }
    self->error_type = self->error_value = self->error_traceback = NULL;
    self->poll = NULL;
    Py_DECREF(poll);
    self->busy = 0; /* the helpers' node counts stay readable until the next search */
    return result;
}

/* ------------------------------------------------------------------ Python methods */

static void Searcher_dealloc(Searcher *self)
{
    free_helpers(self);
    table_free(self->table, self->bucket_count * sizeof(TTBucket));
    free(self->keys);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Searcher_clear(Searcher *self, PyObject *Py_UNUSED(ignored))
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "cannot clear a Searcher while it searches");
        return NULL;
    }
    if (self->table) clear_tables(self);
    Py_RETURN_NONE;
}

static PyObject *Searcher_interrupted(Searcher *self, PyObject *Py_UNUSED(ignored))
{
    if (self->busy || self->partial_depth == 0 || self->partial_depth <= self->completed_depth) Py_RETURN_NONE;
    PyObject *line = line_list(self->partial_pv, self->partial_length);
    if (!line) return NULL;
    return Py_BuildValue("ii" SEARCH_SCORE_CODE "KN", self->partial_depth, self->partial_seldepth, self->partial_score,
                         (unsigned long long)total_nodes(self), line);
}

static PyObject *Searcher_hashfull(Searcher *self, PyObject *Py_UNUSED(ignored))
{
    if (!self->table) return PyLong_FromLong(0);
    int used = 0, sampled = 0;
    for (size_t b = 0; b < self->bucket_count && sampled < HASHFULL_SAMPLE; ++b)
        for (int i = 0; i < TT_BUCKET && sampled < HASHFULL_SAMPLE; ++i, ++sampled) {
            TTEntry entry;
            used += read_slot(&self->table[b].slot[i], &entry) != 0 && (entry.generation_bound >> 2) == self->generation;
        }
    return PyLong_FromLong(sampled ? used * 1000 / sampled : 0);
}

static PyObject *Searcher_counters(Searcher *self, PyObject *Py_UNUSED(ignored))
{
    return Py_BuildValue("KKKKK", (unsigned long long)self->qnodes, (unsigned long long)self->tt_probes,
                         (unsigned long long)self->tt_hits, (unsigned long long)self->cutoffs,
                         (unsigned long long)self->first_move_cutoffs);
}

#endif
