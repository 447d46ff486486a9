/*
 * Othello's rules on bitboards, shared by the two C files of games/othello: _fast.c (move
 * generation and EVAL for the Python search) and _solver.c (the exact endgame solver), each
 * its own extension module, so this is a header of static inline functions.
 *
 * Positions are (p, o): the discs of the side to move and of the other side as 64-bit
 * boards, square s = bit s with a1 = 0, h1 = 7, a8 = 56, h8 = 63 (Edax's order, as in
 * games/othello/bitboard.py). A file that wants the POPCNT instruction sets its target
 * before including this header (_solver.c does, and checks the CPU at import).
 */
#ifndef PLYGROUND_OTHELLO_BITBOARD_H
#define PLYGROUND_OTHELLO_BITBOARD_H

#include <stdint.h>

typedef uint64_t u64;

#define NOT_EDGE_FILES 0x7E7E7E7E7E7E7E7EULL /* files b..g: a shift by 1, 7 or 9 cannot wrap from them */

static inline int popcount(u64 b) { return __builtin_popcountll(b); }

/* The squares where the side owning p may play: bitboard.legal_moves_mask. From each of
 * p's discs, a run of o's discs in one of the 8 directions (Kogge-Stone style, six steps:
 * a run is at most six discs long) ending next to an empty square. */
static inline u64 legal_moves(u64 p, u64 o)
{
    const u64 inner = o & NOT_EDGE_FILES;
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

#endif
