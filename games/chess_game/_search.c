/*
 * games.chess_game._search: a native chess search (the optional hot path behind
 * games/chess_game/native.py), about a hundred times the speed of the python-chess engine.
 *
 * Board: bitboards, square s = bit s with a1 = 0, h1 = 7, a8 = 56, h8 = 63 (python-chess's
 * numbering). A piece code joins type and colour as python-chess's tables do:
 * code = piece_type * 2 + color, piece types 1..6 (pawn..king), color 1 = White, 0 = Black.
 * Sliding attacks come from "fancy" magic bitboards (Pradyumna Kannan; the magics are found
 * at module load by the trial-and-error search of Tord Romstad, Chessprogramming wiki
 * "Looking for Magics"). Moves are generated pseudo-legally and checked with a pin mask
 * (Stockfish's Position::legal); positions are copied on make (copy-make: ~250 bytes, no
 * unmake to get wrong), with an incremental Zobrist key and material + piece-square score.
 *
 * Evaluation: an exact port of games/chess_game/evaluation.py (PeSTO material and tapered
 * piece-square tables, mobility, king-zone attacks and king attack, pawn shield, bishop pair,
 * rooks on open files, pawn threats, doubled, isolated and passed pawns, free passers and
 * the kings' distances to them), the weights handed over by set_weights() from tables.py. Both
 * halves are summed as exact integers and tapered once, (mg * phase + eg * (24 - phase)) / 24
 * in double precision, so evaluate() equals ChessState.evaluate bit for bit (the build turns
 * off fused multiply-add). The search uses that value rounded half to even, as Python's
 * round() does, plus the learned network's correction when set_network() gave one (the
 * "network" section below; games/chess_game/network.py is its Python reference).
 *
 * Search (Chessprogramming wiki pages of the same names; the details follow Stockfish and
 * Ethereal where a number had to be chosen):
 *  - iterative deepening with aspiration windows around the last score;
 *  - principal variation search, fail-soft, with a triangular PV table;
 *  - a transposition table of two-entry buckets (one kept by depth, one always replaced),
 *    mate scores stored relative to the node (ply adjustment);
 *  - mate-distance pruning, check extension, internal iterative reduction;
 *  - singular extension (built with -DSINGULAR_MIN_DEPTH=8; off by default: it cost 1.7
 *    times the nodes a depth, and no gain in play was shown): a table move whose
 *    alternatives all stay 2 * depth below its (lower-bound) score in a half-depth search
 *    without it is searched a ply deeper; when they reach beta too, the node is cut;
 *  - at non-PV nodes: reverse futility pruning, razoring, null-move pruning
 *    (R = 3 + depth / 6 + a bonus for a large margin, verified at high depth);
 *  - per move: late move pruning, futility pruning, SEE pruning of quiet moves and losing
 *    captures, late move reductions (the log(depth) * log(move number) formula);
 *  - move ordering: table move, winning captures by MVV-LVA, queen promotions, two killers,
 *    the countermove, history (gravity formula, bonus for the cut move and malus for the
 *    quiet moves tried before it), losing captures last (continuation history, by the
 *    moves one and two plies back, is built with -DCONT_HISTORY=1: no gain measured);
 *  - quiescence search: captures and queen promotions with stand pat, delta pruning and SEE
 *    pruning; every evasion when in check (so mates are seen at the horizon);
 *  - draws inside the tree: repetition of any position since the last irreversible move
 *    (the game's history included), the fifty-move rule (a mate on the hundredth ply still
 *    counts), K v K, K + minor v K and bishops all on one colour.
 *
 * The search runs with the GIL released; every poll_interval nodes it takes the GIL back
 * to call poll(nodes, True), which may raise to stop it (the exception comes out of
 * search()). Depth 1 always finishes, so the caller always has a move.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#pragma GCC target("popcnt")
#define CHECK_POPCNT 1
#endif

typedef uint64_t u64;
typedef uint16_t Move; /* from | to << 6 | promotion piece type << 12; 0 = no move */

/* ------------------------------------------------------------------ vocabulary */

enum { BLACK = 0, WHITE = 1 };
enum { NO_PIECE_TYPE = 0, PAWN = 1, KNIGHT, BISHOP, ROOK, QUEEN, KING };
#define PIECE_CODES 14
#define NO_SQUARE 64
#define NO_MOVE 0
#define NULL_MOVE 0 /* the move "played" by a null-move search: no countermove, no piece */

#define CASTLE_WHITE_KING 1
#define CASTLE_WHITE_QUEEN 2
#define CASTLE_BLACK_KING 4
#define CASTLE_BLACK_QUEEN 8

#define MATE 32000
#define MATE_BOUND (MATE - 1000) /* |score| >= this: a mate, distance MATE - |score| plies */
#define INFINITE_SCORE (MATE + 1)
#define EVAL_NONE (-MATE - 2) /* static eval of a node in check: none */
#define DRAW_SCORE 0

#define MAX_DEPTH 128 /* iterative deepening stops here */
#define MAX_PLY 256   /* stack size: MAX_DEPTH plus extensions plus quiescence */
#define MAX_MOVES 256
#define DEFAULT_HASH_MB 64
#define MAX_HASH_MB 65536
#define DEFAULT_POLL_INTERVAL 4096
#define FIFTY_MOVE_PLIES 100

#define FILE_A 0x0101010101010101ULL
#define FILE_H 0x8080808080808080ULL
#define RANK_1 0x00000000000000FFULL
#define RANK_3 0x0000000000FF0000ULL
#define RANK_6 0x0000FF0000000000ULL
#define RANK_8 0xFF00000000000000ULL
#define NOT_FILE_A (~FILE_A)
#define NOT_FILE_H (~FILE_H)
#define DARK_SQUARES 0xAA55AA55AA55AA55ULL

/* Search parameters. The numbers are Stockfish's and Ethereal's of about 2019, scaled to
 * this evaluation (a pawn is 82-94 centipawns here). Each can be set at build time
 * (-DRFP_MARGIN=100) to build a variant and measure it against this one
 * (bench/chess_native_variants.py). */
#ifndef ASPIRATION_MIN_DEPTH
#define ASPIRATION_MIN_DEPTH 4
#endif
#ifndef ASPIRATION_WINDOW
#define ASPIRATION_WINDOW 20
#endif
#ifndef RFP_MAX_DEPTH
#define RFP_MAX_DEPTH 7
#endif
#ifndef RFP_MARGIN
#define RFP_MARGIN 85
#endif
#ifndef RAZOR_MAX_DEPTH
#define RAZOR_MAX_DEPTH 2
#endif
#ifndef RAZOR_MARGIN
#define RAZOR_MARGIN 300
#endif
#ifndef NMP_MIN_DEPTH
#define NMP_MIN_DEPTH 3
#endif
#ifndef NMP_VERIFY_DEPTH
#define NMP_VERIFY_DEPTH 12 /* null-move cut-offs from this depth on are verified (zugzwang) */
#endif
#ifndef IIR_MIN_DEPTH
#define IIR_MIN_DEPTH 4
#endif
#ifndef LMP_MAX_DEPTH
#define LMP_MAX_DEPTH 8
#endif
#ifndef FUTILITY_MAX_DEPTH
#define FUTILITY_MAX_DEPTH 8
#endif
#ifndef FUTILITY_BASE
#define FUTILITY_BASE 90
#endif
#ifndef FUTILITY_PER_DEPTH
#define FUTILITY_PER_DEPTH 90
#endif
#ifndef SEE_QUIET_MARGIN
#define SEE_QUIET_MARGIN 25   /* quiet moves below -margin * lmr_depth^2 are pruned */
#endif
#ifndef SEE_CAPTURE_MARGIN
#define SEE_CAPTURE_MARGIN 90 /* captures below -margin * depth are pruned */
#endif
#ifndef SEE_PRUNE_MAX_DEPTH
#define SEE_PRUNE_MAX_DEPTH 7
#endif
#ifndef QS_CHECKS
#define QS_CHECKS 0 /* 1: the first ply of quiescence also tries quiet checks that do not lose material */
#endif
#ifndef LMR_MIN_DEPTH
#define LMR_MIN_DEPTH 3
#endif
#ifndef DELTA_MARGIN
#define DELTA_MARGIN 200 /* a capture that cannot lift stand pat to alpha even with this, is skipped */
#endif
#ifndef CONT_HISTORY
#define CONT_HISTORY 0 /* 1: continuation history (the move one and two plies back) orders and reduces quiets;
                        * measured 49.3% (-5, -46 .. +37) over 150 games at 0.05 s: off */
#endif
#ifndef SINGULAR_MIN_DEPTH
/* singular extensions from this depth on; 0: off (bench/STRENGTH.md, "Chess: compiled search parameters") */
#define SINGULAR_MIN_DEPTH 0
#endif
#ifndef SINGULAR_MARGIN
#define SINGULAR_MARGIN 2 /* the other moves must stay margin * depth below the table's score */
#endif
#define HISTORY_MAX 16384
#define HISTORY_BONUS_MAX 1600
#ifndef HISTORY_LMR_DIVISOR
#define HISTORY_LMR_DIVISOR 6000
#endif

/* Ordering scores: bands that never overlap. */
#define ORDER_TT_MOVE (1 << 30)
#define ORDER_GOOD_CAPTURE (1 << 28)
#define ORDER_PROMOTION ((1 << 28) - 1000) /* a quiet queen promotion: after the good captures */
#define ORDER_KILLER_1 (1 << 27)
#define ORDER_KILLER_2 ((1 << 27) - 1)
#define ORDER_COUNTERMOVE ((1 << 27) - 2)
#define ORDER_BAD_CAPTURE (-(1 << 28))
#define ORDER_UNDERPROMOTION (-(1 << 29))

static const int SEE_VALUE[7] = {0, 100, 320, 330, 500, 950, 20000}; /* see.py's SEE_VALUES */
#define MAX_PHASE 24 /* the tapering divisor, folded by the compiler: set_weights checks tables.MAX_PHASE is it */

static inline int popcount(u64 b) { return __builtin_popcountll(b); }
static inline int lsb(u64 b) { return __builtin_ctzll(b); }
static inline int pop_lsb(u64 *b)
{
    const int s = __builtin_ctzll(*b);
    *b &= *b - 1;
    return s;
}
static inline u64 bit(int s) { return 1ULL << s; }
static inline int more_than_one(u64 b) { return (b & (b - 1)) != 0; }
static inline int code_of(int type, int color) { return type * 2 + color; }
static inline int type_of(int code) { return code >> 1; }
static inline int color_of(int code) { return code & 1; }
static inline int move_from(Move m) { return m & 63; }
static inline int move_to(Move m) { return (m >> 6) & 63; }
static inline int move_promotion(Move m) { return m >> 12; }
static inline Move make_move_code(int from, int to, int promotion) { return (Move)(from | to << 6 | promotion << 12); }

/* ------------------------------------------------------------------ attack tables */

static u64 KNIGHT_ATTACKS[64], KING_ATTACKS[64], PAWN_ATTACKS[2][64];
static u64 BETWEEN[64][64]; /* squares strictly between two aligned squares, else 0 */
static u64 LINE[64][64];    /* the whole line through two aligned squares, else 0 */

typedef struct {
    u64 mask, magic;
    u64 *attacks;
    int shift;
} Magic;

static Magic ROOK_MAGICS[64], BISHOP_MAGICS[64];
static u64 ROOK_TABLE[102400], BISHOP_TABLE[5248]; /* the sizes for masks without edges */

static const int ROOK_STEPS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int BISHOP_STEPS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static u64 slide(int square, u64 occupied, const int steps[4][2])
{
    u64 attacks = 0;
    for (int d = 0; d < 4; ++d) {
        int file = square % 8 + steps[d][0], rank = square / 8 + steps[d][1];
        while (file >= 0 && file < 8 && rank >= 0 && rank < 8) {
            const int s = rank * 8 + file;
            attacks |= bit(s);
            if (occupied & bit(s)) break;
            file += steps[d][0];
            rank += steps[d][1];
        }
    }
    return attacks;
}

/* The magic numbers, found once by the trial-and-error search of "Looking for Magics"
 * (random sparse candidates from xorshift64*, seed 0x2545F4914F6CDD1D, each kept when no two
 * occupancies that attack differently share an index) and written down here: the search
 * took ~0.35 s, paid by every process that imported the module (the app and each worker of
 * its pool). Filling the attack tables below still checks every magic against every
 * occupancy, so a wrong number here fails the import instead of a move. */
static const u64 ROOK_MAGIC_NUMBERS[64] = {
    0x008000908064c000ULL, 0x0040200040001000ULL, 0x0180100080a0010aULL, 0x8880041000800800ULL,
    0x1200100201200804ULL, 0x0200020004011008ULL, 0x2180010000800600ULL, 0x0200005088210204ULL,
    0x0400800040008021ULL, 0x0400400020005000ULL, 0x8240801000200080ULL, 0x8611001004200900ULL,
    0x008180800c001800ULL, 0x0100800200800400ULL, 0x0a02000102000408ULL, 0x8020802300104280ULL,
    0x0080004000402000ULL, 0xe010104000402000ULL, 0x0800808010002000ULL, 0xa280210008100100ULL,
    0x0001818014000800ULL, 0xa002010100080400ULL, 0x0080240001020870ULL, 0x0001020004048845ULL,
    0x0081826280004004ULL, 0x2020810900284000ULL, 0x0200100080802000ULL, 0x0200080080100080ULL,
    0x8083080100100500ULL, 0x4406000901000400ULL, 0x0005020080800100ULL, 0x0090204200008114ULL,
    0x0010400094800420ULL, 0x0900804000802002ULL, 0x0201001841002000ULL, 0x4100080080801000ULL,
    0x4540040080800800ULL, 0x0002001004040020ULL, 0x0281195814001002ULL, 0x1240800040800100ULL,
    0x0880042000524004ULL, 0x02c080410206002cULL, 0x0801200241050010ULL, 0x8400080010008080ULL,
    0x0008000500090010ULL, 0x0082009084020008ULL, 0x4012000108020004ULL, 0x9000104d08860004ULL,
    0x2004204114800100ULL, 0x0148802112400300ULL, 0x0202842000100880ULL, 0x001b080080900080ULL,
    0x001a002008100600ULL, 0x0004008004020080ULL, 0x5181000600040300ULL, 0x0000044401128a00ULL,
    0x8044110480002441ULL, 0x2008110084402202ULL, 0x90806005090010c1ULL, 0x000420310a004a42ULL,
    0x0023001004020801ULL, 0x0882001008040102ULL, 0x000230088118020cULL, 0x0000019025040042ULL,
};
static const u64 BISHOP_MAGIC_NUMBERS[64] = {
    0x0084100082040048ULL, 0x40020404508a0441ULL, 0x1210011200200000ULL, 0x13080601c8070440ULL,
    0x0804042008004001ULL, 0x2009100804063030ULL, 0x3008420211408021ULL, 0x240026080a080210ULL,
    0x0000200204014405ULL, 0x0018020408420048ULL, 0x0000282812408321ULL, 0x0800040420840008ULL,
    0x1000440504050240ULL, 0x0008020290041080ULL, 0x8001808828080480ULL, 0x0402102138080400ULL,
    0x0020902460028220ULL, 0x0308012001910204ULL, 0x0010400800812201ULL, 0x0248000402122010ULL,
    0x0481040820081a02ULL, 0x0001024a00808401ULL, 0x0002000148063840ULL, 0x0002050500424221ULL,
    0x200820d008025000ULL, 0x0012200010010228ULL, 0x014401043003002aULL, 0x0044080020220040ULL,
    0x0024040000410041ULL, 0x8108008001100080ULL, 0x20020840020812a4ULL, 0x008d02060820a400ULL,
    0x2010080601081000ULL, 0x8801014800200800ULL, 0x1100805008010400ULL, 0x2001020084080080ULL,
    0x6002008400160020ULL, 0x0820810b04020080ULL, 0x0122420204004808ULL, 0x00690121050a0240ULL,
    0x0000841040100800ULL, 0x2012111009100202ULL, 0x4428201050000810ULL, 0x2000441414006801ULL,
    0x0110202140401c00ULL, 0x8101200091003080ULL, 0x080210110210010cULL, 0x1144082200400020ULL,
    0x0004020111085000ULL, 0x0000420090080800ULL, 0x10000a0484440810ULL, 0x0808082108480000ULL,
    0x0000002060411180ULL, 0x0030400841110000ULL, 0x2005900408408085ULL, 0x0105010c0408880aULL,
    0x88010080b0080220ULL, 0x004002030888a409ULL, 0x0084010120b41004ULL, 0x0801080072150400ULL,
    0x0000004104608200ULL, 0x0080404004082092ULL, 0x0088400408026048ULL, 0x01202c41094d0600ULL,
};

/* Fill one piece's attack tables from its magics; 0 when a magic maps two occupancies with
 * different attacks to one index (the table above would be wrong). */
static int init_magics(Magic *magics, u64 *table, const int steps[4][2], const u64 numbers[64])
{
    static u64 filled[4096 / 64 + 1];
    u64 *next = table;
    for (int s = 0; s < 64; ++s) {
        const u64 edges = ((RANK_1 | RANK_8) & ~(RANK_1 << (8 * (s / 8)))) | ((FILE_A | FILE_H) & ~(FILE_A << (s % 8)));
        Magic *m = &magics[s];
        m->mask = slide(s, 0, steps) & ~edges;
        m->shift = 64 - popcount(m->mask);
        m->magic = numbers[s];
        m->attacks = next;
        memset(filled, 0, sizeof filled);
        int size = 0;
        u64 subset = 0;
        do { /* every subset of the mask (the Carry-Rippler trick) */
            const u64 attacks = slide(s, subset, steps);
            const unsigned index = (unsigned)((subset * m->magic) >> m->shift);
            if (filled[index / 64] & bit(index % 64)) {
                if (m->attacks[index] != attacks) return 0;
            } else {
                filled[index / 64] |= bit(index % 64);
                m->attacks[index] = attacks;
            }
            ++size;
            subset = (subset - m->mask) & m->mask;
        } while (subset);
        next += size;
    }
    return 1;
}

static inline u64 rook_attacks(int s, u64 occupied)
{
    const Magic *m = &ROOK_MAGICS[s];
    return m->attacks[((occupied & m->mask) * m->magic) >> m->shift];
}
static inline u64 bishop_attacks(int s, u64 occupied)
{
    const Magic *m = &BISHOP_MAGICS[s];
    return m->attacks[((occupied & m->mask) * m->magic) >> m->shift];
}

/* Evaluation masks: the same sets as tables.py. */
static u64 FILE_MASKS[8], ADJACENT_FILES[8];
static u64 PASSED_PAWN_MASKS[2][64]; /* [color][square]: own and adjacent files, ahead */
static u64 FRONT_FILE_MASKS[2][64];  /* [color][square]: own file, ahead */
static u64 KING_SHIELD_MASKS[2][64]; /* [color][king square]: 3 files, 1 and 2 ranks ahead */
static u64 KING_ZONES[64];           /* the king's square and its neighbours */
static int DISTANCE[64][64];         /* king steps between two squares */
static int CASTLING_MASK[64];        /* rights kept when a piece leaves or reaches a square */

static u64 ranks_ahead(int color, int rank)
{
    u64 mask = 0;
    for (int r = 0; r < 8; ++r)
        if (color == WHITE ? r > rank : r < rank) mask |= RANK_1 << (8 * r);
    return mask;
}

/* Zobrist keys (any good 64-bit random numbers: splitmix64 from a fixed seed). */
static u64 PIECE_KEYS[PIECE_CODES][64], CASTLING_KEYS[16], EN_PASSANT_KEYS[8], BLACK_TO_MOVE_KEY;

static u64 splitmix64(u64 *state)
{
    u64 z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Late move reductions, Stockfish 10's shape: 0.75 + ln(depth) ln(move number) / 2.25. */
#define LMR_SIZE 64
static int LMR_TABLE[LMR_SIZE][LMR_SIZE];

static int init_tables(void)
{
    static const int knight_steps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king_steps[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    for (int s = 0; s < 64; ++s) {
        const int file = s % 8, rank = s / 8;
        for (int i = 0; i < 8; ++i) {
            int f = file + knight_steps[i][0], r = rank + knight_steps[i][1];
            if (f >= 0 && f < 8 && r >= 0 && r < 8) KNIGHT_ATTACKS[s] |= bit(r * 8 + f);
            f = file + king_steps[i][0], r = rank + king_steps[i][1];
            if (f >= 0 && f < 8 && r >= 0 && r < 8) KING_ATTACKS[s] |= bit(r * 8 + f);
        }
        const u64 b = bit(s);
        PAWN_ATTACKS[WHITE][s] = ((b & NOT_FILE_A) << 7) | ((b & NOT_FILE_H) << 9);
        PAWN_ATTACKS[BLACK][s] = ((b & NOT_FILE_A) >> 9) | ((b & NOT_FILE_H) >> 7);
        KING_ZONES[s] = KING_ATTACKS[s] | b;
        for (int t = 0; t < 64; ++t) {
            const int file_steps = abs(file - t % 8), rank_steps = abs(rank - t / 8);
            DISTANCE[s][t] = file_steps > rank_steps ? file_steps : rank_steps;
        }
    }
    if (!init_magics(ROOK_MAGICS, ROOK_TABLE, ROOK_STEPS, ROOK_MAGIC_NUMBERS) ||
        !init_magics(BISHOP_MAGICS, BISHOP_TABLE, BISHOP_STEPS, BISHOP_MAGIC_NUMBERS))
        return 0;
    for (int a = 0; a < 64; ++a)
        for (int b = 0; b < 64; ++b) {
            if (a == b) continue;
            if (slide(a, 0, BISHOP_STEPS) & bit(b)) {
                LINE[a][b] = (slide(a, 0, BISHOP_STEPS) & slide(b, 0, BISHOP_STEPS)) | bit(a) | bit(b);
                BETWEEN[a][b] = slide(a, bit(b), BISHOP_STEPS) & slide(b, bit(a), BISHOP_STEPS);
            } else if (slide(a, 0, ROOK_STEPS) & bit(b)) {
                LINE[a][b] = (slide(a, 0, ROOK_STEPS) & slide(b, 0, ROOK_STEPS)) | bit(a) | bit(b);
                BETWEEN[a][b] = slide(a, bit(b), ROOK_STEPS) & slide(b, bit(a), ROOK_STEPS);
            }
        }
    for (int f = 0; f < 8; ++f) FILE_MASKS[f] = FILE_A << f;
    for (int f = 0; f < 8; ++f)
        ADJACENT_FILES[f] = (f > 0 ? FILE_MASKS[f - 1] : 0) | (f < 7 ? FILE_MASKS[f + 1] : 0);
    for (int color = 0; color < 2; ++color)
        for (int s = 0; s < 64; ++s) {
            const int file = s % 8, rank = s / 8;
            PASSED_PAWN_MASKS[color][s] = (FILE_MASKS[file] | ADJACENT_FILES[file]) & ranks_ahead(color, rank);
            FRONT_FILE_MASKS[color][s] = FILE_MASKS[file] & ranks_ahead(color, rank);
            const int step = color == WHITE ? 1 : -1;
            u64 ranks = 0;
            for (int distance = 1; distance <= 2; ++distance) {
                const int ahead = rank + step * distance;
                if (ahead >= 0 && ahead < 8) ranks |= RANK_1 << (8 * ahead);
            }
            KING_SHIELD_MASKS[color][s] = (FILE_MASKS[file] | ADJACENT_FILES[file]) & ranks;
        }
    for (int s = 0; s < 64; ++s) CASTLING_MASK[s] = 15;
    CASTLING_MASK[0] = 15 & ~CASTLE_WHITE_QUEEN;
    CASTLING_MASK[7] = 15 & ~CASTLE_WHITE_KING;
    CASTLING_MASK[4] = 15 & ~(CASTLE_WHITE_KING | CASTLE_WHITE_QUEEN);
    CASTLING_MASK[56] = 15 & ~CASTLE_BLACK_QUEEN;
    CASTLING_MASK[63] = 15 & ~CASTLE_BLACK_KING;
    CASTLING_MASK[60] = 15 & ~(CASTLE_BLACK_KING | CASTLE_BLACK_QUEEN);
    u64 seed = 0x5EED0C4E55ULL;
    for (int c = 0; c < PIECE_CODES; ++c)
        for (int s = 0; s < 64; ++s) PIECE_KEYS[c][s] = splitmix64(&seed);
    CASTLING_KEYS[0] = 0;
    u64 single[4];
    for (int i = 0; i < 4; ++i) single[i] = splitmix64(&seed);
    for (int rights = 0; rights < 16; ++rights) {
        CASTLING_KEYS[rights] = 0;
        for (int i = 0; i < 4; ++i)
            if (rights & (1 << i)) CASTLING_KEYS[rights] ^= single[i];
    }
    for (int f = 0; f < 8; ++f) EN_PASSANT_KEYS[f] = splitmix64(&seed);
    BLACK_TO_MOVE_KEY = splitmix64(&seed);
    for (int d = 1; d < LMR_SIZE; ++d)
        for (int n = 1; n < LMR_SIZE; ++n) LMR_TABLE[d][n] = (int)(0.75 + log((double)d) * log((double)n) / 2.25);
    return 1;
}

/* ------------------------------------------------------------------ weights */

/* The EVAL's numbers come from Python and only from there: set_weights(weights, constants)
 * hands over tables.CURRENT_WEIGHTS and the named constants of tables.py the terms compute
 * with (games/chess_game/native.py). C names each term only to know which count a weight
 * multiplies, and refuses a name it does not know as firmly as one that is missing: a term
 * added, renamed or dropped on one side fails at the first hand-over with a message naming
 * it, instead of evaluating without it. */
enum {
    W_KNIGHT_MOBILITY,
    W_BISHOP_MOBILITY,
    W_ROOK_MOBILITY,
    W_QUEEN_MOBILITY,
    W_KING_ZONE_ATTACKS,
    W_KING_PAWN_SHIELD,
    W_BISHOP_PAIR,
    W_DOUBLED_PAWNS,
    W_ISOLATED_PAWNS,
    W_ROOK_OPEN_FILE,
    W_ROOK_SEMI_OPEN_FILE,
    W_PAWN_THREATS,
    W_KING_ATTACK,
    W_PASSED_PAWN_FREE,
    W_KING_PASSER_DISTANCE,
    W_MINOR_THREATS,
    W_ROOK_THREATS,
    W_HANGING_PIECES,
    W_KING_OPEN_FILES,
    PAIR_WEIGHT_COUNT
};
/* tables.PAIR_WEIGHTS, by the enum above (the order is C's own: each is read by name). */
static const char *const PAIR_WEIGHT_NAMES[PAIR_WEIGHT_COUNT] = {
    "knight_mobility",  "bishop_mobility", "rook_mobility",       "queen_mobility",
    "king_zone_attacks", "king_pawn_shield", "bishop_pair",       "doubled_pawns",
    "isolated_pawns",   "rook_open_file",  "rook_semi_open_file", "pawn_threats",
    "king_attack",      "passed_pawn_free", "king_passer_distance", "minor_threats",
    "rook_threats",     "hanging_pieces",  "king_open_files",
};
static const char *const PIECE_NAMES[7] = {NULL, "pawn", "knight", "bishop", "rook", "queen", "king"};
/* The weights that are not count pairs: material, <piece>_squares (PIECE_NAMES) and these. */
#define MATERIAL_WEIGHT "material"
#define PASSED_PAWNS_WEIGHT "passed_pawns"

/* The EVAL's weights and constants, from set_weights(): pst_* are material plus piece-square
 * bonus per piece code and square, White's view (Black's pieces negative), as
 * tables._piece_scores builds them; pair[] the (mg, eg) weights of the count features; the
 * rest tables.py's constants of the same names (phase_weights is PHASE_WEIGHTS). */
typedef struct {
    int pst_mg[PIECE_CODES][64], pst_eg[PIECE_CODES][64];
    int pair[PAIR_WEIGHT_COUNT][2];
    int passed[8][2];
    int phase_weights[7];
    int king_attack_units[7];
    int king_attack_unit_cap, king_attack_min_attackers;
    int passer_free_factors[8], passer_distance_factors[8];
} Weights;

static Weights WEIGHTS;
static int weights_ready = 0;   /* set_weights has been called */
static int searches_running = 0; /* set_weights may not change the tables under a search */
static unsigned weights_version = 0; /* one step per set_weights: the table's evals go stale */

/* ------------------------------------------------------------------ network */

/* An optional learned correction to the EVAL (games/chess_game/network.py holds its Python
 * twin and the file format; tools/chess_net_train.py trains it): 768 inputs a perspective
 * (a piece's type, its colour relative to the perspective, its square, mirrored top to
 * bottom for Black), NET_HIDDEN units whose weights both perspectives share, clipped ReLU,
 * the side to move's half first, one output. The first layer is a sum of one weight row per
 * piece, so each position keeps both sums (its accumulators) and put_piece/remove_piece add
 * or take away a row: a move costs two to four rows, never the whole layer (the NNUE idea of
 * Yu Nasu, 2018). All integers: int16 first layer (weights times ft_scale), int32 output. */
#define NET_INPUTS 768
#define NET_HIDDEN 64

typedef struct {
    int ready;     /* set_network has given a network, and the search adds its output */
    int ft_scale;  /* first-layer scale: the clipped ReLU's top */
    int divisor;   /* ft_scale * out_scale: output / divisor is the raw output */
    int output_cp; /* centipawns of a raw output of 1 */
    int16_t features[NET_INPUTS][NET_HIDDEN];
    int16_t bias[NET_HIDDEN];
    int16_t output[2 * NET_HIDDEN];
    int32_t output_bias;
} Network;

static Network NET;

/* The input of a piece of ``code`` on ``s`` for the perspective of ``view``. */
static inline int net_input(int view, int code, int s)
{
    const int plane = type_of(code) - 1 + (color_of(code) == view ? 0 : 6);
    return plane * 64 + (view == WHITE ? s : s ^ 56);
}

/* ------------------------------------------------------------------ position */

typedef struct {
    u64 pieces[PIECE_CODES]; /* by piece code; 0 and 1 unused */
    u64 colour[2];
    u64 occupied;
    u64 key;
    u64 checkers;  /* enemy pieces giving check to the side to move */
    int mg, eg;    /* material + piece-square score, White's view, kept incrementally */
    int phase;     /* PeSTO phase units (may pass 24 after promotions; tapering caps it) */
    int halfmove;  /* plies since the last capture or pawn move */
    int repetition_window; /* plies back a repetition can reach: min(halfmove, since null) */
    int fullmove;
    unsigned char board[64]; /* piece code or 0 */
    unsigned char side, castling, en_passant;
    int16_t accumulator[2][NET_HIDDEN] __attribute__((aligned(32))); /* [perspective]: the network's first layer */
} Position;

static inline u64 pieces_of(const Position *p, int type, int color) { return p->pieces[code_of(type, color)]; }
static inline int king_square(const Position *p, int color) { return lsb(p->pieces[code_of(KING, color)]); }

static inline u64 attackers_to(const Position *p, int s, u64 occupied)
{
    return (PAWN_ATTACKS[BLACK][s] & p->pieces[code_of(PAWN, WHITE)]) |
           (PAWN_ATTACKS[WHITE][s] & p->pieces[code_of(PAWN, BLACK)]) |
           (KNIGHT_ATTACKS[s] & (p->pieces[code_of(KNIGHT, WHITE)] | p->pieces[code_of(KNIGHT, BLACK)])) |
           (KING_ATTACKS[s] & (p->pieces[code_of(KING, WHITE)] | p->pieces[code_of(KING, BLACK)])) |
           (bishop_attacks(s, occupied) & (p->pieces[code_of(BISHOP, WHITE)] | p->pieces[code_of(BISHOP, BLACK)] |
                                           p->pieces[code_of(QUEEN, WHITE)] | p->pieces[code_of(QUEEN, BLACK)])) |
           (rook_attacks(s, occupied) & (p->pieces[code_of(ROOK, WHITE)] | p->pieces[code_of(ROOK, BLACK)] |
                                         p->pieces[code_of(QUEEN, WHITE)] | p->pieces[code_of(QUEEN, BLACK)]));
}

static inline int is_attacked(const Position *p, int s, int by, u64 occupied)
{
    return (attackers_to(p, s, occupied) & p->colour[by]) != 0;
}

/* Add (``sign`` 1) or take away (-1) the first-layer weight rows of ``code`` on ``s`` in both
 * views' sums. Inlined with a constant sign, it compiles to the plain adds and subtracts. */
static inline void net_update(Position *p, int code, int s, int sign)
{
    if (!NET.ready) return;
    const int16_t *white = NET.features[net_input(WHITE, code, s)], *black = NET.features[net_input(BLACK, code, s)];
    for (int i = 0; i < NET_HIDDEN; ++i) p->accumulator[WHITE][i] += (int16_t)(sign * white[i]);
    for (int i = 0; i < NET_HIDDEN; ++i) p->accumulator[BLACK][i] += (int16_t)(sign * black[i]);
}

static inline void put_piece(Position *p, int code, int s)
{
    p->pieces[code] |= bit(s);
    p->colour[color_of(code)] |= bit(s);
    p->occupied |= bit(s);
    p->board[s] = (unsigned char)code;
    p->key ^= PIECE_KEYS[code][s];
    p->mg += WEIGHTS.pst_mg[code][s];
    p->eg += WEIGHTS.pst_eg[code][s];
    net_update(p, code, s, 1);
}

static inline void remove_piece(Position *p, int s)
{
    const int code = p->board[s];
    p->pieces[code] ^= bit(s);
    p->colour[color_of(code)] ^= bit(s);
    p->occupied ^= bit(s);
    p->board[s] = 0;
    p->key ^= PIECE_KEYS[code][s];
    p->mg -= WEIGHTS.pst_mg[code][s];
    p->eg -= WEIGHTS.pst_eg[code][s];
    net_update(p, code, s, -1);
}

/* Whether a pawn of the side to move could capture en passant on ``target`` (the key hashes
 * the en passant file only then, as Polyglot does, so transpositions meet). */
static inline int en_passant_possible(const Position *p, int target)
{
    return (PAWN_ATTACKS[p->side ^ 1][target] & pieces_of(p, PAWN, p->side)) != 0;
}

static void finish_position(Position *p)
{
    const int us = p->side;
    p->checkers = attackers_to(p, king_square(p, us), p->occupied) & p->colour[us ^ 1];
}

/* Copy-make: the child is written from the parent and the move (a legal one). */
static void make_move(const Position *p, Position *n, Move m)
{
    const int from = move_from(m), to = move_to(m), promotion = move_promotion(m);
    const int us = p->side, them = us ^ 1;
    const int code = p->board[from], type = type_of(code);
    memcpy(n, p, sizeof(Position));
    n->key ^= BLACK_TO_MOVE_KEY;
    if (p->en_passant != NO_SQUARE) n->key ^= EN_PASSANT_KEYS[p->en_passant & 7];
    n->en_passant = NO_SQUARE;
    n->halfmove++;
    n->repetition_window++;
    if (p->board[to]) {
        n->phase -= WEIGHTS.phase_weights[type_of(p->board[to])];
        remove_piece(n, to);
        n->halfmove = 0;
    }
    remove_piece(n, from);
    put_piece(n, promotion ? code_of(promotion, us) : code, to);
    if (type == PAWN) {
        n->halfmove = 0;
        if (promotion) n->phase += WEIGHTS.phase_weights[promotion];
        if (to == p->en_passant) {
            remove_piece(n, to + (us == WHITE ? -8 : 8));
        } else if (to - from == 16 || from - to == 16) {
            const int target = (from + to) / 2;
            n->side = (unsigned char)them; /* en_passant_possible asks about the side to move */
            if (en_passant_possible(n, target)) {
                n->en_passant = (unsigned char)target;
                n->key ^= EN_PASSANT_KEYS[target & 7];
            }
        }
    } else if (type == KING && (to - from == 2 || from - to == 2)) {
        const int rook_from = to > from ? from + 3 : from - 4, rook_to = to > from ? from + 1 : from - 1;
        remove_piece(n, rook_from);
        put_piece(n, code_of(ROOK, us), rook_to);
    }
    const int rights = p->castling & CASTLING_MASK[from] & CASTLING_MASK[to];
    if (rights != p->castling) {
        n->key ^= CASTLING_KEYS[p->castling] ^ CASTLING_KEYS[rights];
        n->castling = (unsigned char)rights;
    }
    n->side = (unsigned char)them;
    if (n->halfmove == 0) n->repetition_window = 0;
    if (us == BLACK) n->fullmove++;
    finish_position(n);
}

/* The key after ``m`` but for a new en-passant square (a double push that can be taken):
 * make_move's key in nearly every case, known before the move is made, so that the table's
 * bucket for the child is fetched while the node weighs the move and makes it. */
static inline u64 key_after(const Position *p, Move m)
{
    const int from = move_from(m), to = move_to(m), promotion = move_promotion(m);
    const int us = p->side, code = p->board[from];
    u64 key = p->key ^ BLACK_TO_MOVE_KEY ^ PIECE_KEYS[code][from] ^ PIECE_KEYS[promotion ? code_of(promotion, us) : code][to];
    if (p->board[to]) key ^= PIECE_KEYS[p->board[to]][to];
    if (p->en_passant != NO_SQUARE) {
        key ^= EN_PASSANT_KEYS[p->en_passant & 7];
        if (to == p->en_passant && type_of(code) == PAWN) key ^= PIECE_KEYS[code ^ 1][to + (us == WHITE ? -8 : 8)];
    }
    if (type_of(code) == KING && (to - from == 2 || from - to == 2)) {
        const int rook = code_of(ROOK, us);
        key ^= PIECE_KEYS[rook][to > from ? from + 3 : from - 4] ^ PIECE_KEYS[rook][to > from ? from + 1 : from - 1];
    }
    const int rights = p->castling & CASTLING_MASK[from] & CASTLING_MASK[to];
    if (rights != p->castling) key ^= CASTLING_KEYS[p->castling] ^ CASTLING_KEYS[rights];
    return key;
}

static void make_null_move(const Position *p, Position *n)
{
    memcpy(n, p, sizeof(Position));
    n->key ^= BLACK_TO_MOVE_KEY;
    if (p->en_passant != NO_SQUARE) n->key ^= EN_PASSANT_KEYS[p->en_passant & 7];
    n->en_passant = NO_SQUARE;
    n->halfmove++;
    n->repetition_window = 0; /* the position after a pass is not one the game can reach */
    n->side ^= 1;
    n->checkers = 0;
}

static u64 compute_key(const Position *p)
{
    u64 key = p->side == BLACK ? BLACK_TO_MOVE_KEY : 0;
    for (int s = 0; s < 64; ++s)
        if (p->board[s]) key ^= PIECE_KEYS[p->board[s]][s];
    key ^= CASTLING_KEYS[p->castling];
    if (p->en_passant != NO_SQUARE) key ^= EN_PASSANT_KEYS[p->en_passant & 7];
    return key;
}

/* Pieces (of either colour) that alone stand between ``king`` and a slider of ``color``. */
static u64 slider_blockers(const Position *p, int king, int color)
{
    u64 blockers = 0;
    u64 snipers = (rook_attacks(king, 0) & (pieces_of(p, ROOK, color) | pieces_of(p, QUEEN, color))) |
                  (bishop_attacks(king, 0) & (pieces_of(p, BISHOP, color) | pieces_of(p, QUEEN, color)));
    while (snipers) {
        const u64 between = BETWEEN[king][pop_lsb(&snipers)] & p->occupied;
        if (between && !more_than_one(between)) blockers |= between;
    }
    return blockers;
}

static inline int non_pawn_material(const Position *p, int color)
{
    return (p->colour[color] & ~pieces_of(p, PAWN, color) & ~pieces_of(p, KING, color)) != 0;
}

/* K v K, K + minor v K, and nothing but bishops on squares of one colour. */
static int insufficient_material(const Position *p)
{
    const u64 heavy_or_pawns = p->pieces[code_of(PAWN, WHITE)] | p->pieces[code_of(PAWN, BLACK)] |
                               p->pieces[code_of(ROOK, WHITE)] | p->pieces[code_of(ROOK, BLACK)] |
                               p->pieces[code_of(QUEEN, WHITE)] | p->pieces[code_of(QUEEN, BLACK)];
    if (heavy_or_pawns) return 0;
    const u64 knights = p->pieces[code_of(KNIGHT, WHITE)] | p->pieces[code_of(KNIGHT, BLACK)];
    const u64 bishops = p->pieces[code_of(BISHOP, WHITE)] | p->pieces[code_of(BISHOP, BLACK)];
    if (popcount(knights | bishops) <= 1) return 1;
    return !knights && (!(bishops & DARK_SQUARES) || !(bishops & ~DARK_SQUARES));
}

/* ------------------------------------------------------------------ FEN and UCI text */

static int square_from_text(const char *text)
{
    if (text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8') return -1;
    return (text[1] - '1') * 8 + (text[0] - 'a');
}

/* Parse a FEN into ``p``; on error return -1 with ``error`` set. Castling rights whose king
 * or rook is not at home are dropped, and an en passant square is kept only when a capture
 * there is possible (as python-chess cleans them). */
static int parse_fen(const char *fen, Position *p, const char **error)
{
    memset(p, 0, sizeof(Position));
    p->en_passant = NO_SQUARE;
    p->fullmove = 1;
    if (NET.ready) {
        memcpy(p->accumulator[WHITE], NET.bias, sizeof(NET.bias));
        memcpy(p->accumulator[BLACK], NET.bias, sizeof(NET.bias));
    }
    const char *c = fen;
    while (*c == ' ') ++c;
    int rank = 7, file = 0;
    for (; *c && *c != ' '; ++c) {
        if (*c == '/') {
            if (file != 8 || rank == 0) return *error = "the board part needs 8 ranks of 8 squares", -1;
            --rank;
            file = 0;
        } else if (*c >= '1' && *c <= '8') {
            file += *c - '0';
            if (file > 8) return *error = "a rank has more than 8 squares", -1;
        } else {
            const char *letters = "pnbrqk";
            const char *found = strchr(letters, *c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
            if (!found || !*found || file > 7) return *error = "unknown piece letter or a rank too long", -1;
            const int type = (int)(found - letters) + 1, color = (*c >= 'A' && *c <= 'Z') ? WHITE : BLACK;
            put_piece(p, code_of(type, color), rank * 8 + file);
            p->phase += WEIGHTS.phase_weights[type];
            ++file;
        }
    }
    if (rank != 0 || file != 8) return *error = "the board part needs 8 ranks of 8 squares", -1;
    while (*c == ' ') ++c;
    if (*c == 'w' || *c == 'b') {
        p->side = *c == 'w' ? WHITE : BLACK;
        ++c;
    } else {
        return *error = "the side to move must be w or b", -1;
    }
    if (*c && *c != ' ') return *error = "the side to move must be w or b", -1;
    while (*c == ' ') ++c;
    int rights = 0;
    if (*c == '-') {
        ++c;
    } else {
        for (; *c && *c != ' '; ++c) {
            switch (*c) {
            case 'K': rights |= CASTLE_WHITE_KING; break;
            case 'Q': rights |= CASTLE_WHITE_QUEEN; break;
            case 'k': rights |= CASTLE_BLACK_KING; break;
            case 'q': rights |= CASTLE_BLACK_QUEEN; break;
            default: return *error = "castling rights must be - or letters of KQkq", -1;
            }
        }
    }
    const int white_king_home = p->board[4] == code_of(KING, WHITE), black_king_home = p->board[60] == code_of(KING, BLACK);
    if (!white_king_home || p->board[7] != code_of(ROOK, WHITE)) rights &= ~CASTLE_WHITE_KING;
    if (!white_king_home || p->board[0] != code_of(ROOK, WHITE)) rights &= ~CASTLE_WHITE_QUEEN;
    if (!black_king_home || p->board[63] != code_of(ROOK, BLACK)) rights &= ~CASTLE_BLACK_KING;
    if (!black_king_home || p->board[56] != code_of(ROOK, BLACK)) rights &= ~CASTLE_BLACK_QUEEN;
    p->castling = (unsigned char)rights;
    while (*c == ' ') ++c;
    if (*c && *c != '-') {
        const int target = square_from_text(c);
        if (target < 0) return *error = "bad en passant square", -1;
        c += 2;
        const int us = p->side, pushed = target + (us == WHITE ? -8 : 8);
        if ((target / 8 == (us == WHITE ? 5 : 2)) && p->board[pushed] == code_of(PAWN, us ^ 1) && !p->board[target] &&
            en_passant_possible(p, target))
            p->en_passant = (unsigned char)target;
    } else if (*c) {
        ++c;
    }
    if (*c && *c != ' ') return *error = "bad en passant square", -1;
    while (*c == ' ') ++c;
    if (*c) {
        char *end;
        const long halfmove = strtol(c, &end, 10);
        if (end == c || halfmove < 0 || halfmove > 100000) return *error = "bad halfmove clock", -1;
        p->halfmove = (int)halfmove;
        c = end;
        while (*c == ' ') ++c;
        if (*c) {
            const long fullmove = strtol(c, &end, 10);
            if (end == c || fullmove < 0 || fullmove > 1000000) return *error = "bad fullmove number", -1;
            p->fullmove = fullmove < 1 ? 1 : (int)fullmove;
            c = end;
            while (*c == ' ') ++c;
            if (*c) return *error = "unexpected text after the fullmove number", -1;
        }
    }
    if (popcount(pieces_of(p, KING, WHITE)) != 1 || popcount(pieces_of(p, KING, BLACK)) != 1)
        return *error = "each side needs exactly one king", -1;
    if ((pieces_of(p, PAWN, WHITE) | pieces_of(p, PAWN, BLACK)) & (RANK_1 | RANK_8))
        return *error = "a pawn stands on the first or last rank", -1;
    if (is_attacked(p, king_square(p, p->side ^ 1), p->side, p->occupied))
        return *error = "the side not to move is in check", -1;
    p->repetition_window = p->halfmove;
    p->key = compute_key(p);
    finish_position(p);
    return 0;
}

static void move_text(Move m, char *out)
{
    const int from = move_from(m), to = move_to(m), promotion = move_promotion(m);
    out[0] = (char)('a' + from % 8);
    out[1] = (char)('1' + from / 8);
    out[2] = (char)('a' + to % 8);
    out[3] = (char)('1' + to / 8);
    out[4] = promotion ? " pnbrqk"[promotion] : '\0';
    out[5] = '\0';
}

/* ------------------------------------------------------------------ move generation */

typedef struct {
    Move moves[MAX_MOVES];
    int scores[MAX_MOVES];
    int count;
} MoveList;

static inline void add_promotions(MoveList *list, int from, int to, int noisy_only)
{
    list->moves[list->count++] = make_move_code(from, to, QUEEN);
    if (!noisy_only) {
        list->moves[list->count++] = make_move_code(from, to, KNIGHT);
        list->moves[list->count++] = make_move_code(from, to, ROOK);
        list->moves[list->count++] = make_move_code(from, to, BISHOP);
    }
}

/* Pseudo-legal moves: every one (noisy_only = 0) or captures and queen promotions. */
static void generate_moves(const Position *p, MoveList *list, int noisy_only)
{
    const int us = p->side, them = us ^ 1;
    const u64 own = p->colour[us], enemy = p->colour[them], occupied = p->occupied;
    const u64 targets = noisy_only ? enemy : ~own;
    const u64 pawns = pieces_of(p, PAWN, us);
    const u64 last_rank = us == WHITE ? RANK_8 : RANK_1;
    const int forward = us == WHITE ? 8 : -8;
    list->count = 0;

    u64 single = (us == WHITE ? pawns << 8 : pawns >> 8) & ~occupied;
    u64 promotions = single & last_rank;
    while (promotions) {
        const int to = pop_lsb(&promotions);
        add_promotions(list, to - forward, to, noisy_only);
    }
    if (!noisy_only) {
        u64 pushes = single & ~last_rank;
        u64 doubles = (us == WHITE ? (single & RANK_3) << 8 : (single & RANK_6) >> 8) & ~occupied;
        while (pushes) {
            const int to = pop_lsb(&pushes);
            list->moves[list->count++] = make_move_code(to - forward, to, 0);
        }
        while (doubles) {
            const int to = pop_lsb(&doubles);
            list->moves[list->count++] = make_move_code(to - 2 * forward, to, 0);
        }
    }
    const u64 left = us == WHITE ? (pawns & NOT_FILE_A) << 7 : (pawns & NOT_FILE_A) >> 9;
    const u64 right = us == WHITE ? (pawns & NOT_FILE_H) << 9 : (pawns & NOT_FILE_H) >> 7;
    const int left_step = us == WHITE ? 7 : -9, right_step = us == WHITE ? 9 : -7;
    for (int side = 0; side < 2; ++side) {
        u64 captures = (side ? right : left) & enemy;
        const int step = side ? right_step : left_step;
        while (captures) {
            const int to = pop_lsb(&captures);
            if (bit(to) & last_rank) add_promotions(list, to - step, to, noisy_only);
            else list->moves[list->count++] = make_move_code(to - step, to, 0);
        }
    }
    if (p->en_passant != NO_SQUARE) {
        u64 takers = PAWN_ATTACKS[them][p->en_passant] & pawns;
        while (takers) list->moves[list->count++] = make_move_code(pop_lsb(&takers), p->en_passant, 0);
    }
    for (int type = KNIGHT; type <= KING; ++type) {
        u64 movers = pieces_of(p, type, us);
        while (movers) {
            const int from = pop_lsb(&movers);
            u64 attacks;
            switch (type) {
            case KNIGHT: attacks = KNIGHT_ATTACKS[from]; break;
            case BISHOP: attacks = bishop_attacks(from, occupied); break;
            case ROOK: attacks = rook_attacks(from, occupied); break;
            case QUEEN: attacks = bishop_attacks(from, occupied) | rook_attacks(from, occupied); break;
            default: attacks = KING_ATTACKS[from]; break;
            }
            attacks &= targets;
            while (attacks) list->moves[list->count++] = make_move_code(from, pop_lsb(&attacks), 0);
        }
    }
    if (!noisy_only && !p->checkers && (p->castling & (us == WHITE ? 3 : 12))) {
        const int home = us == WHITE ? 4 : 60;
        const int king_side = us == WHITE ? CASTLE_WHITE_KING : CASTLE_BLACK_KING;
        const int queen_side = us == WHITE ? CASTLE_WHITE_QUEEN : CASTLE_BLACK_QUEEN;
        if ((p->castling & king_side) && !(occupied & (bit(home + 1) | bit(home + 2))) &&
            !is_attacked(p, home + 1, them, occupied) && !is_attacked(p, home + 2, them, occupied))
            list->moves[list->count++] = make_move_code(home, home + 2, 0);
        if ((p->castling & queen_side) && !(occupied & (bit(home - 1) | bit(home - 2) | bit(home - 3))) &&
            !is_attacked(p, home - 1, them, occupied) && !is_attacked(p, home - 2, them, occupied))
            list->moves[list->count++] = make_move_code(home, home - 2, 0);
    }
}

/* Whether a pseudo-legal move leaves the own king safe (``pinned``: own pieces pinned to it). */
static inline int is_legal(const Position *p, Move m, u64 pinned)
{
    const int us = p->side, them = us ^ 1;
    const int from = move_from(m), to = move_to(m), king = king_square(p, us);
    if (from == king) {
        if (to - from == 2 || from - to == 2) return 1; /* generate_moves checked its path */
        return !(attackers_to(p, to, p->occupied ^ bit(from)) & p->colour[them]);
    }
    if (to == p->en_passant && type_of(p->board[from]) == PAWN) {
        const int victim = to + (us == WHITE ? -8 : 8);
        const u64 occupied = (p->occupied ^ bit(from) ^ bit(victim)) | bit(to);
        return !(attackers_to(p, king, occupied) & p->colour[them] & ~bit(victim));
    }
    if (p->checkers) {
        if (more_than_one(p->checkers)) return 0;
        if (!((BETWEEN[king][lsb(p->checkers)] | p->checkers) & bit(to))) return 0;
    }
    return !(pinned & bit(from)) || (LINE[from][king] & bit(to));
}

static inline u64 pinned_pieces(const Position *p)
{
    return slider_blockers(p, king_square(p, p->side), p->side ^ 1) & p->colour[p->side];
}

/* Whether the move checks the enemy king; castling, en passant and promotions say yes
 * (only the pruning asks, and those moves are never pruned as quiet moves anyway). */
static inline int gives_check(const Position *p, Move m, u64 discoverers)
{
    const int from = move_from(m), to = move_to(m), type = type_of(p->board[from]);
    const int enemy_king = king_square(p, p->side ^ 1);
    if (move_promotion(m) || (type == PAWN && to == p->en_passant) || (type == KING && (to - from == 2 || from - to == 2)))
        return 1;
    if ((discoverers & bit(from)) && !(LINE[from][enemy_king] & bit(to))) return 1;
    const u64 occupied = (p->occupied ^ bit(from)) | bit(to);
    switch (type) {
    case PAWN: return (PAWN_ATTACKS[p->side][to] & bit(enemy_king)) != 0;
    case KNIGHT: return (KNIGHT_ATTACKS[to] & bit(enemy_king)) != 0;
    case BISHOP: return (bishop_attacks(to, occupied) & bit(enemy_king)) != 0;
    case ROOK: return (rook_attacks(to, occupied) & bit(enemy_king)) != 0;
    case QUEEN: return ((bishop_attacks(to, occupied) | rook_attacks(to, occupied)) & bit(enemy_king)) != 0;
    default: return 0;
    }
}

static int has_legal_move(const Position *p)
{
    MoveList list;
    generate_moves(p, &list, 0);
    const u64 pinned = pinned_pieces(p);
    for (int i = 0; i < list.count; ++i)
        if (is_legal(p, list.moves[i], pinned)) return 1;
    return 0;
}

static u64 perft(const Position *p, int depth)
{
    MoveList list;
    generate_moves(p, &list, 0);
    const u64 pinned = pinned_pieces(p);
    u64 total = 0;
    Position child;
    for (int i = 0; i < list.count; ++i) {
        if (!is_legal(p, list.moves[i], pinned)) continue;
        if (depth == 1) {
            ++total; /* bulk counting: the leaves need no make */
        } else {
            make_move(p, &child, list.moves[i]);
            total += perft(&child, depth - 1);
        }
    }
    return total;
}

/* ------------------------------------------------------------------ evaluation */

/* The values of evaluation._side_activity, in its order. */
enum { A_KNIGHT_MOBILITY, A_BISHOP_MOBILITY, A_ROOK_MOBILITY, A_QUEEN_MOBILITY, A_ZONE_ATTACKS,
       A_KING_ATTACK, A_ROOK_OPEN_FILE, A_ROOK_SEMI_OPEN_FILE, ACTIVITY_COUNT };

/* Mobility, king-zone attacks, king attack and rooks on open files of one side, and the
 * squares its knights and bishops, its rooks, and its pieces attack (covers[0..2]):
 * evaluation._side_activity. */
static void side_activity(const Position *p, int color, u64 mobility_area, u64 enemy_king_zone,
                          int counts[ACTIVITY_COUNT], u64 covers[3])
{
    const u64 occupied = p->occupied;
    const u64 own_pawns = pieces_of(p, PAWN, color);
    const u64 all_pawns = own_pawns | pieces_of(p, PAWN, !color);
    int zone = 0, attackers = 0, units = 0, open_files = 0, semi_open_files = 0;
    u64 minor_attacks = 0, rook_attacks_all = 0, covered = 0;
    for (int type = KNIGHT; type <= QUEEN; ++type) {
        u64 movers = pieces_of(p, type, color);
        int mobility = 0;
        while (movers) {
            const int s = pop_lsb(&movers);
            u64 attacks;
            switch (type) {
            case KNIGHT: attacks = KNIGHT_ATTACKS[s]; break;
            case BISHOP: attacks = bishop_attacks(s, occupied); break;
            case ROOK: attacks = rook_attacks(s, occupied); break;
            default: attacks = bishop_attacks(s, occupied) | rook_attacks(s, occupied); break;
            }
            if (type <= BISHOP) minor_attacks |= attacks;
            else if (type == ROOK) rook_attacks_all |= attacks;
            else covered |= attacks;
            mobility += popcount(attacks & mobility_area);
            if (attacks & enemy_king_zone) {
                zone += popcount(attacks & enemy_king_zone);
                ++attackers;
                units += WEIGHTS.king_attack_units[type];
            }
            if (type == ROOK && !(FILE_MASKS[s & 7] & own_pawns)) {
                if (FILE_MASKS[s & 7] & all_pawns) ++semi_open_files;
                else ++open_files;
            }
        }
        counts[type - KNIGHT] = mobility;
    }
    counts[A_ZONE_ATTACKS] = zone;
    if (units > WEIGHTS.king_attack_unit_cap) units = WEIGHTS.king_attack_unit_cap;
    counts[A_KING_ATTACK] = attackers >= WEIGHTS.king_attack_min_attackers ? units * units / 4 : 0;
    counts[A_ROOK_OPEN_FILE] = open_files;
    counts[A_ROOK_SEMI_OPEN_FILE] = semi_open_files;
    covers[0] = minor_attacks;
    covers[1] = rook_attacks_all;
    covers[2] = covered | minor_attacks | rook_attacks_all;
}

/* How many of the king's file and its neighbours hold none of its own pawns:
 * evaluation._open_king_files. */
static int open_king_files(int king, u64 own_pawns)
{
    const int file = king & 7;
    int open = 0;
    for (int near = file - 1; near <= file + 1; ++near)
        if (near >= 0 && near < 8 && !(FILE_MASKS[near] & own_pawns)) ++open;
    return open;
}

/* Doubled, isolated and passed pawns of one side, and the passed pawns' bitboard:
 * evaluation._side_pawn_counts. */
static u64 side_pawn_counts(u64 own, u64 enemy, int color, int *doubled, int *isolated, int passed[8])
{
    *doubled = *isolated = 0;
    for (int file = 0; file < 8; ++file) {
        const int on_file = popcount(own & FILE_MASKS[file]);
        if (on_file) {
            *doubled += on_file - 1;
            if (!(own & ADJACENT_FILES[file])) *isolated += on_file;
        }
    }
    memset(passed, 0, 8 * sizeof(int));
    u64 passers = 0, pawns = own;
    while (pawns) {
        const int s = pop_lsb(&pawns);
        if (!(enemy & PASSED_PAWN_MASKS[color][s]) && !(own & FRONT_FILE_MASKS[color][s])) {
            const int rank = s >> 3;
            passed[color == WHITE ? rank : 7 - rank]++;
            passers |= bit(s);
        }
    }
    return passers;
}

/* Free passers and the kings' distances to them, of one side: evaluation._side_passer_counts. */
static void side_passer_counts(u64 passers, int color, u64 occupied, int own_king, int enemy_king,
                               int *free_passers, int *king_distance)
{
    *free_passers = *king_distance = 0;
    const int step = color == WHITE ? 8 : -8;
    while (passers) {
        const int s = pop_lsb(&passers);
        const int rank = color == WHITE ? s >> 3 : 7 - (s >> 3);
        const int front = s + step;
        if (!(occupied & bit(front))) *free_passers += WEIGHTS.passer_free_factors[rank];
        *king_distance += WEIGHTS.passer_distance_factors[rank] * (DISTANCE[enemy_king][front] - DISTANCE[own_king][front]);
    }
}

/* The untapered numerator of the EVAL, White's view: mg * phase + eg * (24 - phase), an
 * exact integer (the Python EVAL divides the same integer by 24, see taper()). */
static long long eval_numerator(const Position *p)
{
    const u64 white = p->colour[WHITE], black = p->colour[BLACK];
    const u64 white_pawns = pieces_of(p, PAWN, WHITE), black_pawns = pieces_of(p, PAWN, BLACK);
    const u64 white_pawn_attacks = ((white_pawns & NOT_FILE_A) << 7) | ((white_pawns & NOT_FILE_H) << 9);
    const u64 black_pawn_attacks = ((black_pawns & NOT_FILE_A) >> 9) | ((black_pawns & NOT_FILE_H) >> 7);
    const int white_king = king_square(p, WHITE), black_king = king_square(p, BLACK);
    int white_side[ACTIVITY_COUNT], black_side[ACTIVITY_COUNT];
    u64 white_covers[3], black_covers[3];
    side_activity(p, WHITE, ~white & ~black_pawn_attacks, KING_ZONES[black_king], white_side, white_covers);
    side_activity(p, BLACK, ~black & ~white_pawn_attacks, KING_ZONES[white_king], black_side, black_covers);
    int counts[PAIR_WEIGHT_COUNT];
    for (int i = 0; i <= A_ZONE_ATTACKS; ++i) counts[W_KNIGHT_MOBILITY + i] = white_side[i] - black_side[i];
    counts[W_KING_ATTACK] = white_side[A_KING_ATTACK] - black_side[A_KING_ATTACK];
    counts[W_ROOK_OPEN_FILE] = white_side[A_ROOK_OPEN_FILE] - black_side[A_ROOK_OPEN_FILE];
    counts[W_ROOK_SEMI_OPEN_FILE] = white_side[A_ROOK_SEMI_OPEN_FILE] - black_side[A_ROOK_SEMI_OPEN_FILE];
    const u64 pieces = p->occupied & ~(white_pawns | black_pawns | p->pieces[code_of(KING, WHITE)] |
                                       p->pieces[code_of(KING, BLACK)]);
    counts[W_PAWN_THREATS] =
        popcount(white_pawn_attacks & black & pieces) - popcount(black_pawn_attacks & white & pieces);
    const u64 queens = p->pieces[code_of(QUEEN, WHITE)] | p->pieces[code_of(QUEEN, BLACK)];
    const u64 majors = queens | p->pieces[code_of(ROOK, WHITE)] | p->pieces[code_of(ROOK, BLACK)];
    counts[W_MINOR_THREATS] = popcount(white_covers[0] & black & majors) - popcount(black_covers[0] & white & majors);
    counts[W_ROOK_THREATS] = popcount(white_covers[1] & black & queens) - popcount(black_covers[1] & white & queens);
    const u64 white_all = white_covers[2] | white_pawn_attacks | KING_ATTACKS[white_king];
    const u64 black_all = black_covers[2] | black_pawn_attacks | KING_ATTACKS[black_king];
    counts[W_KING_OPEN_FILES] = open_king_files(white_king, white_pawns) - open_king_files(black_king, black_pawns);
    counts[W_HANGING_PIECES] =
        popcount(white_all & black & pieces & ~black_all) - popcount(black_all & white & pieces & ~white_all);
    counts[W_KING_PAWN_SHIELD] = popcount(KING_SHIELD_MASKS[WHITE][white_king] & white_pawns) -
                                 popcount(KING_SHIELD_MASKS[BLACK][black_king] & black_pawns);
    counts[W_BISHOP_PAIR] = (popcount(pieces_of(p, BISHOP, WHITE)) >= 2) - (popcount(pieces_of(p, BISHOP, BLACK)) >= 2);
    int white_doubled, white_isolated, black_doubled, black_isolated, white_passed[8], black_passed[8];
    const u64 white_passers =
        side_pawn_counts(white_pawns, black_pawns, WHITE, &white_doubled, &white_isolated, white_passed);
    const u64 black_passers =
        side_pawn_counts(black_pawns, white_pawns, BLACK, &black_doubled, &black_isolated, black_passed);
    counts[W_DOUBLED_PAWNS] = white_doubled - black_doubled;
    counts[W_ISOLATED_PAWNS] = white_isolated - black_isolated;
    int white_free, white_distance, black_free, black_distance;
    side_passer_counts(white_passers, WHITE, p->occupied, white_king, black_king, &white_free, &white_distance);
    side_passer_counts(black_passers, BLACK, p->occupied, black_king, white_king, &black_free, &black_distance);
    counts[W_PASSED_PAWN_FREE] = white_free - black_free;
    counts[W_KING_PASSER_DISTANCE] = white_distance - black_distance;
    long long mg = p->mg, eg = p->eg;
    for (int i = 0; i < PAIR_WEIGHT_COUNT; ++i) {
        mg += (long long)counts[i] * WEIGHTS.pair[i][0];
        eg += (long long)counts[i] * WEIGHTS.pair[i][1];
    }
    for (int rank = 0; rank < 8; ++rank) {
        const int passed = white_passed[rank] - black_passed[rank];
        mg += (long long)passed * WEIGHTS.passed[rank][0];
        eg += (long long)passed * WEIGHTS.passed[rank][1];
    }
    const int phase = p->phase < MAX_PHASE ? p->phase : MAX_PHASE;
    return mg * phase + eg * (MAX_PHASE - phase);
}

static double evaluate_white(const Position *p) { return (double)eval_numerator(p) / MAX_PHASE; }

/* floor(a / b) for b > 0, as Python's // (C's / truncates toward zero). */
static inline long long floor_div(long long a, long long b)
{
    const long long q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* The network's correction in centipawns, side to move's view (0 without a network). */
static int network_score(const Position *p)
{
    if (!NET.ready) return 0;
    const int16_t *us = p->accumulator[p->side], *them = p->accumulator[p->side ^ 1];
    const int16_t top = (int16_t)NET.ft_scale, *weights = NET.output;
    int32_t sum = 0;
#ifdef __SSE2__
    /* Packed clamps and multiply-adds, eight units at a time (x86-64 always has SSE2; GCC does
     * not vectorise the plain loop below: callgrind counts about 650 instructions an
     * evaluation for it, under 100 for this). Unaligned loads: a Position inside a Python
     * object is only as aligned as Python's allocator makes it. */
    const __m128i zero = _mm_setzero_si128(), ceiling = _mm_set1_epi16(top);
    __m128i total = zero;
    for (int i = 0; i < NET_HIDDEN; i += 8) {
        const __m128i mine = _mm_min_epi16(_mm_max_epi16(_mm_loadu_si128((const __m128i *)(us + i)), zero), ceiling);
        const __m128i theirs = _mm_min_epi16(_mm_max_epi16(_mm_loadu_si128((const __m128i *)(them + i)), zero), ceiling);
        total = _mm_add_epi32(total, _mm_madd_epi16(mine, _mm_loadu_si128((const __m128i *)(weights + i))));
        total = _mm_add_epi32(total, _mm_madd_epi16(theirs, _mm_loadu_si128((const __m128i *)(weights + NET_HIDDEN + i))));
    }
    total = _mm_add_epi32(total, _mm_shuffle_epi32(total, _MM_SHUFFLE(1, 0, 3, 2)));
    total = _mm_add_epi32(total, _mm_shuffle_epi32(total, _MM_SHUFFLE(2, 3, 0, 1)));
    sum = _mm_cvtsi128_si32(total);
#else
    for (int i = 0; i < NET_HIDDEN; ++i) {
        const int16_t mine = us[i] < 0 ? 0 : us[i] > top ? top : us[i];
        const int16_t theirs = them[i] < 0 ? 0 : them[i] > top ? top : them[i];
        sum += (int32_t)mine * weights[i] + (int32_t)theirs * weights[NET_HIDDEN + i];
    }
#endif
    sum += NET.output_bias;
    return (int)floor_div((long long)sum * NET.output_cp, NET.divisor);
}

/* The search's EVAL: round(evaluate_white), half to even like Python's round(), from the
 * side to move's view, plus the network's correction when there is one. Integer arithmetic
 * gives the same rounding as the double would. */
static int evaluate(const Position *p)
{
    const long long numerator = eval_numerator(p);
    long long quotient = numerator / MAX_PHASE, remainder = numerator % MAX_PHASE;
    if (remainder < 0) {
        remainder += MAX_PHASE;
        quotient -= 1;
    }
    if (2 * remainder > MAX_PHASE || (2 * remainder == MAX_PHASE && (quotient & 1))) quotient += 1;
    int score = (int)quotient;
    if (p->side != WHITE) score = -score;
    score += network_score(p);
    if (score > MATE_BOUND - 1) score = MATE_BOUND - 1; /* absurd weights must not fake a mate */
    if (score < -MATE_BOUND + 1) score = -MATE_BOUND + 1;
    return score;
}

/* ------------------------------------------------------------------ static exchange */

/* Whether the exchange started by ``m`` on its target square wins at least ``threshold``
 * (Stockfish's Position::see_ge: no pins, the king captures last). */
static int see_at_least(const Position *p, Move m, int threshold)
{
    const int from = move_from(m), to = move_to(m);
    if (move_promotion(m) || (type_of(p->board[from]) == PAWN && to == p->en_passant) ||
        (type_of(p->board[from]) == KING && (to - from == 2 || from - to == 2)))
        return 0 >= threshold;
    int swap = SEE_VALUE[type_of(p->board[to])] - threshold;
    if (swap < 0) return 0;
    swap = SEE_VALUE[type_of(p->board[from])] - swap;
    if (swap <= 0) return 1;
    u64 occupied = p->occupied ^ bit(from) ^ bit(to);
    int side = p->side, result = 1;
    u64 attackers = attackers_to(p, to, occupied);
    const u64 diagonal = p->pieces[code_of(BISHOP, WHITE)] | p->pieces[code_of(BISHOP, BLACK)] |
                         p->pieces[code_of(QUEEN, WHITE)] | p->pieces[code_of(QUEEN, BLACK)];
    const u64 straight = p->pieces[code_of(ROOK, WHITE)] | p->pieces[code_of(ROOK, BLACK)] |
                         p->pieces[code_of(QUEEN, WHITE)] | p->pieces[code_of(QUEEN, BLACK)];
    for (;;) {
        side ^= 1;
        attackers &= occupied;
        const u64 own = attackers & p->colour[side];
        if (!own) break;
        result ^= 1;
        u64 pieces;
        if ((pieces = own & pieces_of(p, PAWN, side))) {
            if ((swap = SEE_VALUE[PAWN] - swap) < result) break;
            occupied ^= pieces & -pieces;
            attackers |= bishop_attacks(to, occupied) & diagonal;
        } else if ((pieces = own & pieces_of(p, KNIGHT, side))) {
            if ((swap = SEE_VALUE[KNIGHT] - swap) < result) break;
            occupied ^= pieces & -pieces;
        } else if ((pieces = own & pieces_of(p, BISHOP, side))) {
            if ((swap = SEE_VALUE[BISHOP] - swap) < result) break;
            occupied ^= pieces & -pieces;
            attackers |= bishop_attacks(to, occupied) & diagonal;
        } else if ((pieces = own & pieces_of(p, ROOK, side))) {
            if ((swap = SEE_VALUE[ROOK] - swap) < result) break;
            occupied ^= pieces & -pieces;
            attackers |= rook_attacks(to, occupied) & straight;
        } else if ((pieces = own & pieces_of(p, QUEEN, side))) {
            if ((swap = SEE_VALUE[QUEEN] - swap) < result) break;
            occupied ^= pieces & -pieces;
            attackers |= (bishop_attacks(to, occupied) & diagonal) | (rook_attacks(to, occupied) & straight);
        } else { /* the king: it may capture only if the other side has no attacker left */
            return (attackers & ~p->colour[side]) ? result ^ 1 : result;
        }
    }
    return result;
}

/* ------------------------------------------------------------------ transposition table */

enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

typedef struct {
    int16_t score, eval;
    Move move;
    uint8_t depth;      /* 0: a quiescence entry */
    uint8_t generation_bound; /* generation << 2 | bound */
} TTEntry;              /* 8 bytes: one word, written and read whole */

/* A slot holds the entry and the position's key XOR the entry (Hyatt's lockless hashing):
 * the helper threads of a Lazy SMP search write the table at the same time without locks,
 * and a slot torn by two writers no longer matches its key, so it is a miss, never a wrong
 * hit. */
typedef struct {
    u64 check; /* key ^ data */
    u64 data;  /* the TTEntry */
} TTSlot;

static inline u64 entry_word(const TTEntry *entry)
{
    u64 word;
    memcpy(&word, entry, sizeof word);
    return word;
}

#define TT_BUCKET 2 /* slot 0 kept by depth, slot 1 always replaced */
#define HASHFULL_SAMPLE 1000

typedef struct {
    TTSlot slot[TT_BUCKET];
} TTBucket;

/* A slot's key and entry, read once each (another thread may be writing it). */
static inline u64 read_slot(const TTSlot *slot, TTEntry *entry)
{
    const u64 check = __atomic_load_n(&slot->check, __ATOMIC_RELAXED);
    const u64 data = __atomic_load_n(&slot->data, __ATOMIC_RELAXED);
    memcpy(entry, &data, sizeof data);
    return check ^ data;
}

/* ------------------------------------------------------------------ the searcher */

typedef struct SearcherObject {
    PyObject_HEAD
    TTBucket *table;    /* a helper's is its main searcher's */
    size_t bucket_count; /* a power of two */
    int hash_mb;
    int table_written; /* 0 while the table holds nothing but zeros */
    uint8_t generation;  /* 6 bits, one step per search */
    unsigned weights_version; /* of the evals and scores in the table */
    int history[2][64 * 64];
    Move killers[MAX_PLY + 2][2];
    Move countermoves[PIECE_CODES][64];
    /* continuation history: [piece, to] of a move one or two plies back, then [piece, to]
     * of the quiet move now (int16: the gravity formula keeps it within +-HISTORY_MAX) */
    int16_t continuation[PIECE_CODES][64][PIECE_CODES][64];
    Move excluded[MAX_PLY + 2]; /* the table move a singular-extension search leaves out */

    /* Lazy SMP: ``helpers`` are plain C copies of this struct (never seen by Python) that
     * search the same root at the same time, each in its own thread with its own stacks
     * and move-ordering tables, sharing only the table. They stop when ``stop_helpers``
     * is set; a helper's ``stop_flag`` points at its main searcher's. */
    struct SearcherObject **helpers;
    int helper_count;   /* allocated (kept between searches: their histories too) */
    int active_helpers; /* running in this search */
    int stop_helpers;
    const int *stop_flag; /* NULL in the main searcher */
    size_t keys_capacity;
    int max_depth;

    /* one search */
    Position stack[MAX_PLY + 2];
    int eval_stack[MAX_PLY + 2];
    Move move_stack[MAX_PLY + 2];          /* the move played from each ply */
    unsigned char piece_stack[MAX_PLY + 2]; /* the piece code that played it */
    Move pv[MAX_PLY + 2][MAX_PLY + 2];
    int pv_length[MAX_PLY + 2];
    u64 *keys;         /* the game's position keys, then the search path's */
    int root_index;    /* keys[root_index] is the root's key */
    MoveList root_moves;
    int root_depth, seldepth, null_move_min_ply;
    u64 nodes, next_poll, reported;
    long long poll_interval;
    PyObject *poll;    /* borrowed during a search */
    PyThreadState *thread;
    int completed_depth;
    int stopped;       /* unwinding: poll raised */
    int busy;
    PyObject *error_type, *error_value, *error_traceback;
    int deferred;      /* poll raised during depth 1: finish it first, then raise */

    /* What the iteration under way has found so far: a root move searched to the end that
     * raised alpha (the previous best is searched first, so a later one that raised alpha
     * beat it). When a stop cuts the iteration short this is a better answer than the last
     * completed iteration's (``Searcher.interrupted``). */
    int partial_depth; /* 0: nothing yet */

    /* What the engine's events show of a search (``Searcher.counters``): quiescence nodes,
     * table probes and hits, beta cut-offs and those made by the first move tried. */
    u64 qnodes, tt_probes, tt_hits, cutoffs, first_move_cutoffs;
    int partial_score, partial_seldepth, partial_length;
    Move partial_pv[MAX_PLY + 2];
} Searcher;

static int search_root(Searcher *s, int depth, int previous);
static int prepare_helper(Searcher *self, Searcher *helper, int index);
static PyObject *line_list(const Move *line, int length);
static void clear_tables(Searcher *s);
#include "../_native_search.h"

/* The table's entry for ``key`` copied into ``found``; 0 when there is none. */
static int tt_probe(Searcher *s, u64 key, TTEntry *found)
{
    TTBucket *bucket = &s->table[key & (s->bucket_count - 1)];
    for (int i = 0; i < TT_BUCKET; ++i)
        if (read_slot(&bucket->slot[i], found) == key) return 1;
    return 0;
}

static void tt_store(Searcher *s, u64 key, int depth, int bound, int score, int eval, Move move, int ply)
{
    TTBucket *bucket = &s->table[key & (s->bucket_count - 1)];
    TTSlot *slot = &bucket->slot[0];
    TTEntry old;
    u64 old_key = read_slot(slot, &old);
    const int generation = s->generation;
    if (!(old_key == key || depth >= old.depth || (old.generation_bound >> 2) != generation)) {
        slot = &bucket->slot[1];
        old_key = read_slot(slot, &old);
    }
    if (old_key == key && !move) move = old.move; /* keep the old best move */
    TTEntry entry;
    entry.score = (int16_t)score_to_tt(score, ply);
    entry.eval = (int16_t)eval;
    entry.move = move;
    entry.depth = (uint8_t)(depth < 0 ? 0 : depth);
    entry.generation_bound = (uint8_t)(generation << 2 | bound);
    const u64 data = entry_word(&entry);
    __atomic_store_n(&slot->data, data, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->check, key ^ data, __ATOMIC_RELAXED);
}

static inline int history_of(const Searcher *s, int side, Move m) { return s->history[side][m & 4095]; }

static inline void update_history(Searcher *s, int side, Move m, int bonus)
{
    int *entry = &s->history[side][m & 4095];
    *entry += bonus - *entry * abs(bonus) / HISTORY_MAX; /* gravity: stays within +-HISTORY_MAX */
}

/* The continuation-history entry of quiet move ``m`` (by ``piece``) after the move played
 * ``back`` plies before ``ply``; NULL at the root's edge or after a null move. */
static inline int16_t *continuation_of(Searcher *s, int ply, int back, int piece, Move m)
{
    if (!CONT_HISTORY || ply < back) return NULL;
    const Move previous = s->move_stack[ply - back];
    if (previous == NULL_MOVE) return NULL;
    return &s->continuation[s->piece_stack[ply - back]][move_to(previous)][piece][move_to(m)];
}

/* A quiet move's history for ordering and reductions: its own, plus how it did after the
 * move one and two plies back. */
static inline int quiet_history(Searcher *s, const Position *p, int ply, Move m)
{
    int score = history_of(s, p->side, m);
    const int piece = p->board[move_from(m)];
    for (int back = 1; back <= 2; ++back) {
        const int16_t *entry = continuation_of(s, ply, back, piece, m);
        if (entry) score += *entry;
    }
    return score;
}

static inline void update_quiet_history(Searcher *s, const Position *p, int ply, Move m, int bonus)
{
    update_history(s, p->side, m, bonus);
    const int piece = p->board[move_from(m)];
    for (int back = 1; back <= 2; ++back) {
        int16_t *entry = continuation_of(s, ply, back, piece, m);
        if (entry) *entry = (int16_t)(*entry + bonus - *entry * abs(bonus) / HISTORY_MAX);
    }
}

static inline int is_capture(const Position *p, Move m)
{
    return p->board[move_to(m)] || (move_to(m) == p->en_passant && type_of(p->board[move_from(m)]) == PAWN);
}

static inline int mvv_lva(const Position *p, Move m)
{
    const int victim = p->board[move_to(m)] ? type_of(p->board[move_to(m)]) : PAWN;
    return SEE_VALUE[victim] * 16 - type_of(p->board[move_from(m)]);
}

/* Ordering scores for a node's moves (see the ORDER_ bands). */
static void score_moves(Searcher *s, const Position *p, MoveList *list, Move tt_move, int ply)
{
    const Move killer_1 = s->killers[ply][0], killer_2 = s->killers[ply][1];
    Move counter = NO_MOVE;
    if (ply > 0 && s->move_stack[ply - 1] != NULL_MOVE)
        counter = s->countermoves[s->piece_stack[ply - 1]][move_to(s->move_stack[ply - 1])];
    for (int i = 0; i < list->count; ++i) {
        const Move m = list->moves[i];
        int score;
        if (m == tt_move) {
            score = ORDER_TT_MOVE;
        } else if (is_capture(p, m)) {
            const int victim = p->board[move_to(m)] ? type_of(p->board[move_to(m)]) : PAWN;
            const int attacker = type_of(p->board[move_from(m)]);
            /* SEE only where the capture might lose: a cheaper piece takes a dearer one safely */
            const int good = SEE_VALUE[victim] >= SEE_VALUE[attacker] || see_at_least(p, m, 0);
            score = (good ? ORDER_GOOD_CAPTURE : ORDER_BAD_CAPTURE) + mvv_lva(p, m);
            if (move_promotion(m)) score += move_promotion(m) == QUEEN ? SEE_VALUE[QUEEN] : ORDER_UNDERPROMOTION;
        } else if (move_promotion(m)) {
            score = move_promotion(m) == QUEEN ? ORDER_PROMOTION : ORDER_UNDERPROMOTION;
        } else if (m == killer_1) {
            score = ORDER_KILLER_1;
        } else if (m == killer_2) {
            score = ORDER_KILLER_2;
        } else if (m == counter) {
            score = ORDER_COUNTERMOVE;
        } else {
            score = quiet_history(s, p, ply, m);
        }
        list->scores[i] = score;
    }
}

/* The best remaining move, swapped to position ``index`` (selection sort, done lazily:
 * a cut-off on an early move spares sorting the rest). */
static inline Move pick_move(MoveList *list, int index)
{
    int best = index;
    for (int i = index + 1; i < list->count; ++i)
        if (list->scores[i] > list->scores[best]) best = i;
    const Move m = list->moves[best];
    const int score = list->scores[best];
    list->moves[best] = list->moves[index];
    list->scores[best] = list->scores[index];
    list->moves[index] = m;
    list->scores[index] = score;
    return m;
}

/* Repetition of any position since the last irreversible move (or null move), the game's
 * history included: a draw inside the tree even the first time. */
static int is_repetition(const Searcher *s, const Position *p, int ply)
{
    const int index = s->root_index + ply;
    const int window = p->repetition_window < index ? p->repetition_window : index;
    for (int back = 4; back <= window; back += 2)
        if (s->keys[index - back] == p->key) return 1;
    return 0;
}

static inline void enter_node(Searcher *s, int ply)
{
    s->pv_length[ply] = ply;
    if (ply + 1 > s->seldepth) s->seldepth = ply + 1;
}

static int quiescence(Searcher *s, int ply, int alpha, int beta, int pv_node, int checks)
{
    const Position *p = &s->stack[ply];
    enter_node(s, ply);
    ++s->qnodes;
    if (insufficient_material(p)) return DRAW_SCORE;
    const int in_check = p->checkers != 0;
    if (p->halfmove >= FIFTY_MOVE_PLIES && (!in_check || has_legal_move(p))) return DRAW_SCORE;
    if (ply >= MAX_PLY - 1) return in_check ? DRAW_SCORE : evaluate(p);

    Move tt_move = NO_MOVE;
    int eval = EVAL_NONE;
    TTEntry found;
    const TTEntry *entry = tt_probe(s, p->key, &found) ? &found : NULL;
    ++s->tt_probes;
    s->tt_hits += entry != NULL;
    if (entry) {
        const int score = score_from_tt(entry->score, ply), bound = entry->generation_bound & 3;
        if (!pv_node && (bound == BOUND_EXACT || (bound == BOUND_LOWER && score >= beta) ||
                         (bound == BOUND_UPPER && score <= alpha)))
            return score;
        tt_move = entry->move;
        eval = entry->eval;
    }
    int best = -INFINITE_SCORE;
    if (!in_check) {
        if (eval == EVAL_NONE) eval = evaluate(p);
        best = eval; /* stand pat: the side to move need not capture */
        if (best >= beta) {
            if (!entry) tt_store(s, p->key, 0, BOUND_LOWER, best, eval, NO_MOVE, ply);
            return best;
        }
        if (best > alpha) alpha = best;
    }
    const int old_alpha = alpha;
    MoveList list;
    const int quiet_checks = checks && !in_check;
    generate_moves(p, &list, !in_check && !quiet_checks);
    score_moves(s, p, &list, tt_move, ply);
    const u64 pinned = pinned_pieces(p);
    const u64 discoverers =
        quiet_checks ? slider_blockers(p, king_square(p, p->side ^ 1), p->side) & p->colour[p->side] : 0;
    Move best_move = NO_MOVE;
    int legal = 0;
    for (int i = 0; i < list.count; ++i) {
        const Move m = pick_move(&list, i);
        if (quiet_checks && !is_capture(p, m) && !move_promotion(m) &&
            (!gives_check(p, m, discoverers) || !see_at_least(p, m, 0)))
            continue; /* of the quiet moves, only the safe checks */
        if (!is_legal(p, m, pinned)) continue;
        TABLE_PREFETCH(s, key_after(p, m));
        ++legal;
        if (!in_check && best > -MATE_BOUND && (is_capture(p, m) || move_promotion(m))) {
            if (!move_promotion(m) && eval + SEE_VALUE[p->board[move_to(m)] ? type_of(p->board[move_to(m)]) : PAWN] +
                                              DELTA_MARGIN <= alpha)
                continue; /* delta pruning: even winning the piece cannot reach alpha */
            if (list.scores[i] < 0) continue; /* a losing capture (SEE < 0, see score_moves) */
        }
        make_move(p, &s->stack[ply + 1], m);
        if (count_node(s)) return 0;
        s->move_stack[ply] = m;
        s->piece_stack[ply] = p->board[move_from(m)];
        const int score = -quiescence(s, ply + 1, -beta, -alpha, pv_node, 0);
        if (s->stopped) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                if (score >= beta) {
                    ++s->cutoffs;
                    s->first_move_cutoffs += legal == 1;
                    break;
                }
                alpha = score;
            }
        }
    }
    if (in_check && !legal) return -MATE + ply;
    const int bound = best >= beta ? BOUND_LOWER : (pv_node && best > old_alpha) ? BOUND_EXACT : BOUND_UPPER;
    tt_store(s, p->key, 0, bound, best, in_check ? EVAL_NONE : eval, best_move, ply);
    return best;
}

static int search(Searcher *s, int ply, int alpha, int beta, int depth, int cut_node, int pv_node)
{
    if (depth <= 0) return quiescence(s, ply, alpha, beta, pv_node, QS_CHECKS);
    Position *p = &s->stack[ply];
    enter_node(s, ply);
    const int in_check = p->checkers != 0;
    s->killers[ply + 2][0] = s->killers[ply + 2][1] = NO_MOVE;
    if (ply > 0) {
        if (p->halfmove >= FIFTY_MOVE_PLIES && (!in_check || has_legal_move(p))) return DRAW_SCORE;
        if (insufficient_material(p) || is_repetition(s, p, ply)) return DRAW_SCORE;
        if (ply >= MAX_PLY - 1) return in_check ? DRAW_SCORE : evaluate(p);
        /* mate-distance pruning: no line from here beats a mate already found nearer */
        if (alpha < -MATE + ply) alpha = -MATE + ply;
        if (beta > MATE - ply - 1) beta = MATE - ply - 1;
        if (alpha >= beta) return alpha;
    }

    /* a singular-extension search of this node: every move but ``excluded`` (the table's),
     * so neither the table's score nor the pruning that trusts it applies, and its result
     * is not this position's value: it is not stored */
    const Move excluded = s->excluded[ply];
    Move tt_move = NO_MOVE;
    int eval = EVAL_NONE, tt_score = 0, tt_bound = BOUND_NONE, tt_depth = 0;
    TTEntry found;
    const TTEntry *entry = tt_probe(s, p->key, &found) ? &found : NULL;
    ++s->tt_probes;
    s->tt_hits += entry != NULL;
    if (entry) {
        tt_score = score_from_tt(entry->score, ply);
        tt_bound = entry->generation_bound & 3;
        tt_move = entry->move;
        tt_depth = entry->depth;
        if (!pv_node && !excluded && entry->depth >= depth &&
            (tt_bound == BOUND_EXACT || (tt_bound == BOUND_LOWER && tt_score >= beta) ||
             (tt_bound == BOUND_UPPER && tt_score <= alpha)))
            return tt_score;
        eval = entry->eval;
    }
    if (ply == 0 && s->root_moves.count) {
        /* the table's move may be one the caller excluded (searchmoves) */
        int allowed = 0;
        for (int i = 0; i < s->root_moves.count; ++i) allowed |= s->root_moves.moves[i] == tt_move;
        if (!allowed) tt_move = NO_MOVE;
    }
    if (in_check) {
        eval = EVAL_NONE;
        s->eval_stack[ply] = EVAL_NONE;
    } else {
        if (eval == EVAL_NONE) eval = evaluate(p);
        s->eval_stack[ply] = eval;
        /* a table score is a better guess than the static eval when its bound allows */
        if (entry && (tt_bound == BOUND_EXACT || (tt_bound == BOUND_LOWER && tt_score > eval) ||
                      (tt_bound == BOUND_UPPER && tt_score < eval)))
            eval = tt_score;
    }
    const int improving =
        !in_check && ply >= 2 && s->eval_stack[ply - 2] != EVAL_NONE && s->eval_stack[ply] > s->eval_stack[ply - 2];

    if (!pv_node && !in_check && !excluded) {
        /* reverse futility: far enough above beta that a quiet move will not lose it all */
        if (depth <= RFP_MAX_DEPTH && eval - RFP_MARGIN * (depth - improving) >= beta && eval < MATE_BOUND)
            return eval;
        /* razoring: hopeless at low depth unless a capture saves it */
        if (depth <= RAZOR_MAX_DEPTH && eval + RAZOR_MARGIN * depth <= alpha) {
            const int score = quiescence(s, ply, alpha, alpha + 1, 0, 0);
            if (s->stopped) return 0;
            if (score <= alpha) return score;
        }
        /* null-move pruning: pass; if that still holds beta, a real move would too (not in
         * zugzwang-prone positions: the side must have a piece) */
        if (depth >= NMP_MIN_DEPTH && eval >= beta && ply >= s->null_move_min_ply && ply > 0 &&
            s->move_stack[ply - 1] != NULL_MOVE && non_pawn_material(p, p->side) && beta > -MATE_BOUND) {
            int reduction = 3 + depth / 6 + ((eval - beta) / 200 < 3 ? (eval - beta) / 200 : 3);
            make_null_move(p, &s->stack[ply + 1]);
            TABLE_PREFETCH(s, s->stack[ply + 1].key);
            if (count_node(s)) return 0;
            s->move_stack[ply] = NULL_MOVE;
            s->piece_stack[ply] = 0;
            s->keys[s->root_index + ply + 1] = s->stack[ply + 1].key;
            int score = -search(s, ply + 1, -beta, -beta + 1, depth - reduction, !cut_node, 0);
            if (s->stopped) return 0;
            if (score >= beta) {
                if (score >= MATE_BOUND) score = beta; /* an unproven mate: the pass is not a move */
                if (depth < NMP_VERIFY_DEPTH || s->null_move_min_ply) return score;
                s->null_move_min_ply = ply + 3 * (depth - reduction) / 4;
                const int verified = search(s, ply, beta - 1, beta, depth - reduction, 0, 0);
                s->null_move_min_ply = 0;
                if (s->stopped) return 0;
                if (verified >= beta) return score;
            }
        }
    }
    /* internal iterative reduction: without a table move this node was never searched
     * here; a shallower search is cheaper and fills the table for the next iteration */
    if (!tt_move && depth >= IIR_MIN_DEPTH && (pv_node || cut_node) && !excluded) --depth;

    MoveList list;
    if (ply == 0) memcpy(&list, &s->root_moves, sizeof(MoveList));
    else generate_moves(p, &list, 0);
    score_moves(s, p, &list, tt_move, ply);
    const u64 pinned = pinned_pieces(p);
    const u64 discoverers = slider_blockers(p, king_square(p, p->side ^ 1), p->side) & p->colour[p->side];
    const int old_alpha = alpha;
    int best = -INFINITE_SCORE, legal = 0, quiet_count = 0, skip_quiets = 0;
    Move best_move = NO_MOVE, quiets[MAX_MOVES];
    const Move previous = ply > 0 ? s->move_stack[ply - 1] : NO_MOVE;
    const int lmp_limit = (3 + depth * depth) / (2 - improving);

    for (int i = 0; i < list.count; ++i) {
        const Move m = pick_move(&list, i);
        if (m == excluded || !is_legal(p, m, pinned)) continue;
        ++legal;
        const int capture = is_capture(p, m), quiet = !capture && !move_promotion(m);
        if (quiet && skip_quiets) continue;
        TABLE_PREFETCH(s, key_after(p, m));
        const int checks = gives_check(p, m, discoverers);
        const int reduction = LMR_TABLE[depth < LMR_SIZE ? depth : LMR_SIZE - 1][legal < LMR_SIZE ? legal : LMR_SIZE - 1];

        /* shallow-depth pruning, once a move has saved us from being mated */
        if (ply > 0 && best > -MATE_BOUND && non_pawn_material(p, p->side)) {
            if (quiet && !checks) {
                if (!pv_node && depth <= LMP_MAX_DEPTH && legal > lmp_limit) {
                    skip_quiets = 1; /* late move pruning: this far down the list, the rest fail low */
                    continue;
                }
                const int lmr_depth = depth - 1 - reduction > 0 ? depth - 1 - reduction : 0;
                if (!in_check && lmr_depth <= FUTILITY_MAX_DEPTH &&
                    eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * lmr_depth <= alpha)
                    continue; /* futility: a quiet move will not make up the margin */
                if (lmr_depth <= SEE_PRUNE_MAX_DEPTH && !see_at_least(p, m, -SEE_QUIET_MARGIN * lmr_depth * lmr_depth))
                    continue;
            } else if (capture && !checks && depth <= SEE_PRUNE_MAX_DEPTH && list.scores[i] < 0 &&
                       !see_at_least(p, m, -SEE_CAPTURE_MARGIN * depth)) {
                continue; /* a capture that loses too much material */
            }
        }

        /* singular extension: when every other move falls well short of the table move's
         * score (a shallower search without it), the table move is the only good one and is
         * searched a ply deeper; when even the others reach beta, two moves hold it and the
         * node is cut (multi-cut) */
        int singular = 0;
        if (SINGULAR_MIN_DEPTH && m == tt_move && ply > 0 && depth >= SINGULAR_MIN_DEPTH && !excluded &&
            tt_depth >= depth - 3 && (tt_bound & BOUND_LOWER) && abs(tt_score) < MATE_BOUND &&
            ply < 2 * s->root_depth) {
            const int singular_beta = tt_score - SINGULAR_MARGIN * depth;
            s->excluded[ply] = m;
            const int score = search(s, ply, singular_beta - 1, singular_beta, (depth - 1) / 2, cut_node, 0);
            s->excluded[ply] = NO_MOVE;
            if (s->stopped) return 0;
            if (score < singular_beta) singular = 1;
            else if (singular_beta >= beta) return singular_beta;
            enter_node(s, ply); /* the excluded search reset this node's line */
        }

        Position *child = &s->stack[ply + 1];
        make_move(p, child, m);
        if (count_node(s)) return 0;
        s->move_stack[ply] = m;
        s->piece_stack[ply] = p->board[move_from(m)];
        s->keys[s->root_index + ply + 1] = child->key;
        /* check extension: a check is searched one ply deeper (bounded so that perpetual
         * checks cannot run the stack out) */
        const int extension = singular || (child->checkers && ply < 2 * s->root_depth);
        const int new_depth = depth - 1 + extension;
        int score;
        if (legal > 1 + pv_node && depth >= LMR_MIN_DEPTH && (quiet || list.scores[i] < 0)) {
            /* late move reductions: moves late in a well-ordered list rarely matter */
            int r = reduction;
            r += !improving;
            r -= pv_node;
            r += cut_node;
            if (quiet) {
                r -= list.scores[i] >= ORDER_COUNTERMOVE; /* killers and the countermove */
                r -= quiet_history(s, p, ply, m) / HISTORY_LMR_DIVISOR;
            }
            if (extension) --r;
            if (r < 0) r = 0;
            if (r > new_depth - 1) r = new_depth - 1 > 0 ? new_depth - 1 : 0;
            score = -search(s, ply + 1, -alpha - 1, -alpha, new_depth - r, 1, 0);
            if (!s->stopped && score > alpha && r > 0)
                score = -search(s, ply + 1, -alpha - 1, -alpha, new_depth, !cut_node, 0);
        } else if (!pv_node || legal > 1) {
            score = -search(s, ply + 1, -alpha - 1, -alpha, new_depth, !cut_node, 0);
        } else {
            score = alpha + 1; /* the first move of a PV node: full window below */
        }
        if (!s->stopped && pv_node && score > alpha && (legal == 1 || score < beta))
            score = -search(s, ply + 1, -beta, -alpha, new_depth, 0, 1);
        if (s->stopped) return 0;

        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                if (pv_node) update_pv(s, ply, m);
                if (ply == 0) record_partial(s, score);
                if (score >= beta) {
                    ++s->cutoffs;
                    s->first_move_cutoffs += legal == 1;
                    break;
                }
                alpha = score;
            }
        }
        if (quiet && quiet_count < MAX_MOVES) quiets[quiet_count++] = m;
    }

    if (!legal) return excluded ? alpha : in_check ? -MATE + ply : DRAW_SCORE;
    if (best == -INFINITE_SCORE) best = alpha; /* every move pruned (cannot happen at ply 0) */
    if (excluded) return best;

    if (best >= beta && best_move && !is_capture(p, best_move) && !move_promotion(best_move)) {
        const int bonus = depth * depth < HISTORY_BONUS_MAX ? depth * depth : HISTORY_BONUS_MAX;
        update_quiet_history(s, p, ply, best_move, bonus);
        for (int i = 0; i < quiet_count; ++i) update_quiet_history(s, p, ply, quiets[i], -bonus);
        if (s->killers[ply][0] != best_move) {
            s->killers[ply][1] = s->killers[ply][0];
            s->killers[ply][0] = best_move;
        }
        if (ply > 0 && previous != NULL_MOVE) s->countermoves[s->piece_stack[ply - 1]][move_to(previous)] = best_move;
    }
    const int bound = best >= beta ? BOUND_LOWER : (pv_node && best > old_alpha) ? BOUND_EXACT : BOUND_UPPER;
    tt_store(s, p->key, depth, bound, best, in_check ? EVAL_NONE : s->eval_stack[ply], best_move, ply);
    return best;
}

/* One iteration: aspiration windows around the previous score, widened on a fail. */
static int search_root(Searcher *s, int depth, int previous)
{
    int delta = ASPIRATION_WINDOW, alpha = -INFINITE_SCORE, beta = INFINITE_SCORE;
    if (depth >= ASPIRATION_MIN_DEPTH && abs(previous) < MATE_BOUND) {
        alpha = previous - delta;
        beta = previous + delta;
    }
    for (;;) {
        s->seldepth = 0;
        const int score = search(s, 0, alpha, beta, depth, 0, 1);
        if (s->stopped) return 0;
        if (score <= alpha && alpha > -INFINITE_SCORE) {
            beta = (alpha + beta) / 2;
            alpha = score - delta > -INFINITE_SCORE ? score - delta : -INFINITE_SCORE;
        } else if (score >= beta && beta < INFINITE_SCORE) {
            beta = score + delta < INFINITE_SCORE ? score + delta : INFINITE_SCORE;
        } else {
            return score;
        }
        delta += delta / 2;
        if (delta > 1000) alpha = -INFINITE_SCORE, beta = INFINITE_SCORE;
    }
}

/* ------------------------------------------------------------------ Python glue */

static int parse_position_argument(const char *fen, Position *p)
{
    const char *error = NULL;
    if (parse_fen(fen, p, &error) < 0) {
        PyErr_Format(PyExc_ValueError, "bad FEN '%s': %s", fen, error);
        return -1;
    }
    return 0;
}

/* The legal move written ``text`` in UCI (e2e4, e7e8q), or NO_MOVE. */
static Move find_uci_move(const Position *p, const char *text)
{
    const size_t length = strlen(text);
    if (length < 4 || length > 5) return NO_MOVE;
    const int from = square_from_text(text), to = square_from_text(text + 2);
    if (from < 0 || to < 0) return NO_MOVE;
    int promotion = 0;
    if (length == 5) {
        const char *letters = " pnbrqk";
        const char *found = strchr(letters + 2, text[4]);
        if (!found || !*found || found - letters > QUEEN) return NO_MOVE;
        promotion = (int)(found - letters);
    }
    const Move wanted = make_move_code(from, to, promotion);
    MoveList list;
    generate_moves(p, &list, 0);
    const u64 pinned = pinned_pieces(p);
    for (int i = 0; i < list.count; ++i)
        if (list.moves[i] == wanted && is_legal(p, wanted, pinned)) return wanted;
    return NO_MOVE;
}

static int require_weights(void)
{
    if (!weights_ready) {
        PyErr_SetString(PyExc_RuntimeError, "set_weights first");
        return -1;
    }
    return 0;
}

static PyObject *module_perft(PyObject *Py_UNUSED(module), PyObject *args)
{
    const char *fen;
    int depth;
    if (!PyArg_ParseTuple(args, "si:perft", &fen, &depth)) return NULL;
    if (depth < 0) {
        PyErr_SetString(PyExc_ValueError, "depth must be at least 0");
        return NULL;
    }
    Position p;
    if (parse_position_argument(fen, &p) < 0) return NULL;
    u64 total = 1;
    if (depth > 0) {
        Py_BEGIN_ALLOW_THREADS
        total = perft(&p, depth);
        Py_END_ALLOW_THREADS
    }
    return PyLong_FromUnsignedLongLong(total);
}

static PyObject *module_evaluate(PyObject *Py_UNUSED(module), PyObject *args)
{
    const char *fen;
    if (!PyArg_ParseTuple(args, "s:evaluate", &fen)) return NULL;
    if (require_weights() < 0) return NULL;
    Position p;
    if (parse_position_argument(fen, &p) < 0) return NULL;
    return PyFloat_FromDouble(evaluate_white(&p));
}

/* Read ``value`` as nested lists of ints of ``shape`` into ``out`` (row-major). */
static int read_int_array(const char *name, PyObject *value, const int *shape, int dimensions, int *out)
{
    if (dimensions == 0) {
        if (!PyLong_Check(value) || PyBool_Check(value)) {
            PyErr_Format(PyExc_TypeError, "chess weight %s: %R is not an int", name, value);
            return -1;
        }
        const long number = PyLong_AsLong(value);
        if (number == -1 && PyErr_Occurred()) return -1;
        if (number > 100000 || number < -100000) {
            PyErr_Format(PyExc_ValueError, "chess weight %s: %ld is beyond +-100000", name, number);
            return -1;
        }
        *out = (int)number;
        return 0;
    }
    if (!PyList_Check(value) && !PyTuple_Check(value)) {
        PyErr_Format(PyExc_TypeError, "chess weight %s: expected a list of %d items", name, shape[0]);
        return -1;
    }
    if (PySequence_Size(value) != shape[0]) {
        PyErr_Format(PyExc_ValueError, "chess weight %s: expected a list of %d items", name, shape[0]);
        return -1;
    }
    int stride = 1;
    for (int d = 1; d < dimensions; ++d) stride *= shape[d];
    for (int i = 0; i < shape[0]; ++i) {
        PyObject *item = PySequence_GetItem(value, i);
        if (!item) return -1;
        const int result = read_int_array(name, item, shape + 1, dimensions - 1, out + i * stride);
        Py_DECREF(item);
        if (result < 0) return -1;
    }
    return 0;
}

static int read_weight(PyObject *weights, const char *name, const int *shape, int dimensions, int *out)
{
    PyObject *value = PyMapping_GetItemString(weights, name);
    if (!value) {
        if (PyErr_ExceptionMatches(PyExc_KeyError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_KeyError, "chess weight %s is missing", name);
        }
        return -1;
    }
    const int result = read_int_array(name, value, shape, dimensions, out);
    Py_DECREF(value);
    return result;
}

/* Whether ``name`` is one of the weights the C EVAL reads. */
static int is_weight_name(const char *name)
{
    if (!strcmp(name, MATERIAL_WEIGHT) || !strcmp(name, PASSED_PAWNS_WEIGHT)) return 1;
    for (int i = 0; i < PAIR_WEIGHT_COUNT; ++i)
        if (!strcmp(name, PAIR_WEIGHT_NAMES[i])) return 1;
    const char *suffix = strstr(name, "_squares");
    if (suffix && !strcmp(suffix, "_squares"))
        for (int type = PAWN; type <= KING; ++type)
            if ((size_t)(suffix - name) == strlen(PIECE_NAMES[type]) && !strncmp(name, PIECE_NAMES[type], (size_t)(suffix - name)))
                return 1;
    return 0;
}

/* A key of ``mapping`` that ``known`` does not accept: KeyError naming it (``what``: whose
 * key), -1; 0 when every key is known. */
static int refuse_unknown_keys(PyObject *mapping, const char *what, int (*known)(const char *))
{
    PyObject *keys = PyMapping_Keys(mapping);
    if (!keys) return -1;
    const Py_ssize_t count = PyList_GET_SIZE(keys);
    for (Py_ssize_t i = 0; i < count; ++i) {
        PyObject *key = PyList_GET_ITEM(keys, i);
        const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (!name || !known(name)) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_KeyError, "%s %R is unknown to the compiled EVAL (games/chess_game/_search.c)", what, key);
            Py_DECREF(keys);
            return -1;
        }
    }
    Py_DECREF(keys);
    return 0;
}

/* tables.py's constants that the count terms compute with, each read by its Python name. */
typedef struct {
    const char *name;
    int count; /* ints in the list; 0: a single int */
    size_t offset; /* into Weights */
} ConstantField;
static const ConstantField CONSTANT_FIELDS[] = {
    {"PHASE_WEIGHTS", 7, offsetof(Weights, phase_weights)},
    {"KING_ATTACK_UNITS", 7, offsetof(Weights, king_attack_units)},
    {"KING_ATTACK_UNIT_CAP", 0, offsetof(Weights, king_attack_unit_cap)},
    {"KING_ATTACK_MIN_ATTACKERS", 0, offsetof(Weights, king_attack_min_attackers)},
    {"PASSER_FREE_FACTORS", 8, offsetof(Weights, passer_free_factors)},
    {"PASSER_DISTANCE_FACTORS", 8, offsetof(Weights, passer_distance_factors)},
};
#define CONSTANT_FIELD_COUNT ((int)(sizeof(CONSTANT_FIELDS) / sizeof(CONSTANT_FIELDS[0])))
#define MAX_PHASE_CONSTANT "MAX_PHASE"

static int is_constant_name(const char *name)
{
    if (!strcmp(name, MAX_PHASE_CONSTANT)) return 1;
    for (int i = 0; i < CONSTANT_FIELD_COUNT; ++i)
        if (!strcmp(name, CONSTANT_FIELDS[i].name)) return 1;
    return 0;
}

/* Every constant of CONSTANT_FIELDS from ``constants`` into ``fresh``, and MAX_PHASE checked
 * against the divisor compiled in: 0, or -1 with the error set. */
static int read_constants(PyObject *constants, Weights *fresh)
{
    if (refuse_unknown_keys(constants, "chess EVAL constant", is_constant_name) < 0) return -1;
    for (int i = 0; i < CONSTANT_FIELD_COUNT; ++i) {
        const ConstantField *field = &CONSTANT_FIELDS[i];
        const int shape[1] = {field->count};
        int *out = (int *)((char *)fresh + field->offset);
        if (read_weight(constants, field->name, shape, field->count ? 1 : 0, out) < 0) return -1;
    }
    int max_phase;
    if (read_weight(constants, MAX_PHASE_CONSTANT, NULL, 0, &max_phase) < 0) return -1;
    if (max_phase != MAX_PHASE) {
        PyErr_Format(PyExc_ValueError, "chess EVAL constant MAX_PHASE is %d; games/chess_game/_search.c tapers by %d",
                     max_phase, MAX_PHASE);
        return -1;
    }
    return 0;
}

static PyObject *module_set_weights(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *weights, *constants;
    if (!PyArg_ParseTuple(args, "OO:set_weights", &weights, &constants)) return NULL;
    if (!PyMapping_Check(weights) || !PyMapping_Check(constants)) {
        PyErr_SetString(PyExc_TypeError, "set_weights needs two mappings (tables.CURRENT_WEIGHTS, native.eval_constants())");
        return NULL;
    }
    if (searches_running) {
        PyErr_SetString(PyExc_RuntimeError, "cannot change the weights while a search runs");
        return NULL;
    }
    static Weights fresh; /* filled completely before it replaces WEIGHTS: a bad name changes nothing */
    memset(&fresh, 0, sizeof(fresh));
    if (refuse_unknown_keys(weights, "chess weight", is_weight_name) < 0 || read_constants(constants, &fresh) < 0)
        return NULL;
    int material[5][2];
    const int material_shape[2] = {5, 2}, square_shape[3] = {8, 8, 2}, pair_shape[1] = {2}, passed_shape[2] = {8, 2};
    if (read_weight(weights, MATERIAL_WEIGHT, material_shape, 2, &material[0][0]) < 0) return NULL;
    for (int type = PAWN; type <= KING; ++type) {
        int printed[64][2];
        char name[32];
        snprintf(name, sizeof(name), "%s_squares", PIECE_NAMES[type]);
        if (read_weight(weights, name, square_shape, 3, &printed[0][0]) < 0) return NULL;
        const int material_mg = type == KING ? 0 : material[type - 1][0];
        const int material_eg = type == KING ? 0 : material[type - 1][1];
        for (int color = 0; color < 2; ++color)
            for (int s = 0; s < 64; ++s) {
                /* printed rank 8 first, White's view: White's square s is printed index s ^ 56 */
                const int index = color == WHITE ? s ^ 56 : s, sign = color == WHITE ? 1 : -1;
                fresh.pst_mg[code_of(type, color)][s] = sign * (printed[index][0] + material_mg);
                fresh.pst_eg[code_of(type, color)][s] = sign * (printed[index][1] + material_eg);
            }
    }
    for (int i = 0; i < PAIR_WEIGHT_COUNT; ++i)
        if (read_weight(weights, PAIR_WEIGHT_NAMES[i], pair_shape, 1, fresh.pair[i]) < 0) return NULL;
    if (read_weight(weights, PASSED_PAWNS_WEIGHT, passed_shape, 2, &fresh.passed[0][0]) < 0) return NULL;
    memcpy(&WEIGHTS, &fresh, sizeof(Weights));
    weights_ready = 1;
    ++weights_version;
    Py_RETURN_NONE;
}

/* Little-endian int16 values of a bytes-like argument into ``out``; -1 with ValueError when
 * the length is not ``count`` values. */
static int read_int16s(const char *name, const Py_buffer *buffer, int16_t *out, Py_ssize_t count)
{
    if (buffer->len != count * 2) {
        PyErr_Format(PyExc_ValueError, "set_network: %s needs %zd bytes (%zd int16 values), got %zd", name, count * 2,
                     count, buffer->len);
        return -1;
    }
    const unsigned char *bytes = buffer->buf;
    for (Py_ssize_t i = 0; i < count; ++i) out[i] = (int16_t)(uint16_t)(bytes[2 * i] | bytes[2 * i + 1] << 8);
    return 0;
}

static PyObject *module_set_network(PyObject *Py_UNUSED(module), PyObject *args)
{
    if (searches_running) {
        PyErr_SetString(PyExc_RuntimeError, "cannot change the network while a search runs");
        return NULL;
    }
    if (PyTuple_GET_SIZE(args) == 1 && PyTuple_GET_ITEM(args, 0) == Py_None) {
        NET.ready = 0;
        ++weights_version;
        Py_RETURN_NONE;
    }
    int hidden, ft_scale, out_scale, output_cp;
    long long output_bias;
    Py_buffer features, bias, output;
    if (!PyArg_ParseTuple(args, "iiiiy*y*y*L:set_network", &hidden, &ft_scale, &out_scale, &output_cp, &features, &bias,
                          &output, &output_bias))
        return NULL;
    static Network fresh; /* filled completely before it replaces NET: a bad argument changes nothing */
    memset(&fresh, 0, sizeof(fresh));
    int ok = 0;
    if (hidden != NET_HIDDEN) {
        PyErr_Format(PyExc_ValueError, "set_network: this build's network has %d hidden units, not %d", NET_HIDDEN, hidden);
    } else if (ft_scale < 1 || ft_scale > 32767 || out_scale < 1 || out_scale > 32767 || output_cp < 1 || output_cp > 10000) {
        PyErr_SetString(PyExc_ValueError, "set_network: the scales must be 1..32767 and output_cp 1..10000");
    } else if (read_int16s("feature_weights", &features, &fresh.features[0][0], (Py_ssize_t)NET_INPUTS * NET_HIDDEN) == 0 &&
               read_int16s("feature_bias", &bias, fresh.bias, NET_HIDDEN) == 0 &&
               read_int16s("output_weights", &output, fresh.output, 2 * NET_HIDDEN) == 0) {
        /* Bounds that keep every sum inside its integer type: at most 32 pieces add a row to
         * the bias (int16 accumulators), and the output sums 2 * NET_HIDDEN products of at most
         * ft_scale * |weight| (int32). */
        int largest = 0, largest_bias = 0, largest_output = 0;
        for (int f = 0; f < NET_INPUTS; ++f)
            for (int i = 0; i < NET_HIDDEN; ++i) largest = abs(fresh.features[f][i]) > largest ? abs(fresh.features[f][i]) : largest;
        for (int i = 0; i < NET_HIDDEN; ++i) largest_bias = abs(fresh.bias[i]) > largest_bias ? abs(fresh.bias[i]) : largest_bias;
        for (int i = 0; i < 2 * NET_HIDDEN; ++i)
            largest_output = abs(fresh.output[i]) > largest_output ? abs(fresh.output[i]) : largest_output;
        if (32LL * largest + largest_bias > 32767 ||
            2LL * NET_HIDDEN * ft_scale * largest_output + llabs(output_bias) > 2147483647LL) {
            PyErr_SetString(PyExc_ValueError, "set_network: weights too large for the integer sums");
        } else {
            fresh.ready = 1;
            fresh.ft_scale = ft_scale;
            fresh.divisor = ft_scale * out_scale;
            fresh.output_cp = output_cp;
            fresh.output_bias = (int32_t)output_bias;
            memcpy(&NET, &fresh, sizeof(Network));
            ++weights_version;
            ok = 1;
        }
    }
    PyBuffer_Release(&features);
    PyBuffer_Release(&bias);
    PyBuffer_Release(&output);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* network_evaluate(fen, moves=()): the correction after ``moves`` (UCI strings) are made
 * from ``fen`` by make_move, so a test sees the incrementally updated sums, not fresh ones. */
static PyObject *module_network_evaluate(PyObject *Py_UNUSED(module), PyObject *args)
{
    const char *fen;
    PyObject *moves = NULL;
    if (!PyArg_ParseTuple(args, "s|O:network_evaluate", &fen, &moves)) return NULL;
    Position p;
    if (parse_position_argument(fen, &p) < 0) return NULL;
    if (moves) {
        PyObject *sequence = PySequence_Fast(moves, "moves must be a list of UCI strings");
        if (!sequence) return NULL;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(sequence); ++i) {
            PyObject *item = PySequence_Fast_GET_ITEM(sequence, i);
            const char *text = PyUnicode_Check(item) ? PyUnicode_AsUTF8(item) : NULL;
            const Move m = text ? find_uci_move(&p, text) : NO_MOVE;
            if (m == NO_MOVE) {
                PyErr_Clear();
                PyErr_Format(PyExc_ValueError, "moves[%zd] = %R is not a legal UCI move there", i, item);
                Py_DECREF(sequence);
                return NULL;
            }
            Position next;
            make_move(&p, &next, m);
            p = next;
        }
        Py_DECREF(sequence);
    }
    return PyLong_FromLong(network_score(&p));
}

static void clear_tables(Searcher *self)
{
    /* A table no search has written is still table_alloc's zeros: not touching its pages keeps a
     * new Searcher (one per game in a match, one per position in ``plyground bench``) from
     * paying for writing its whole size before the first node. */
    if (self->table && self->table_written) memset(self->table, 0, self->bucket_count * sizeof(TTBucket));
    self->table_written = 0;
    memset(self->history, 0, sizeof(self->history));
    memset(self->killers, 0, sizeof(self->killers));
    memset(self->countermoves, 0, sizeof(self->countermoves));
    memset(self->continuation, 0, sizeof(self->continuation));
    self->generation = 0;
    for (int i = 0; i < self->helper_count; ++i) clear_tables(self->helpers[i]); /* their table is NULL */
}

static int Searcher_init(Searcher *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"hash_mb", NULL};
    int hash_mb = DEFAULT_HASH_MB;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|i:Searcher", keywords, &hash_mb)) return -1;
    if (hash_mb < 1 || hash_mb > MAX_HASH_MB) {
        PyErr_Format(PyExc_ValueError, "hash_mb must be 1..%d", MAX_HASH_MB);
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "cannot re-initialise a Searcher while it searches");
        return -1;
    }
    size_t buckets = 1;
    while (buckets * 2 * sizeof(TTBucket) <= (size_t)hash_mb << 20) buckets *= 2;
    table_free(self->table, self->bucket_count * sizeof(TTBucket));
    self->table = table_alloc(buckets * sizeof(TTBucket));
    self->table_written = 0;
    if (!self->table) {
        self->bucket_count = 0;
        PyErr_NoMemory();
        return -1;
    }
    self->bucket_count = buckets;
    self->hash_mb = hash_mb;
    clear_tables(self);
    return 0;
}

/* The moves of ``moves`` (a list of UCI strings) played from ``p``; keys recorded. */
static int play_game_moves(Searcher *self, Position *p, PyObject *moves)
{
    PyObject *sequence = PySequence_Fast(moves, "moves must be a list of UCI strings");
    if (!sequence) return -1;
    const Py_ssize_t count = PySequence_Fast_GET_SIZE(sequence);
    free(self->keys);
    self->keys_capacity = (size_t)count + MAX_PLY + 4;
    self->keys = malloc(self->keys_capacity * sizeof(u64));
    if (!self->keys) {
        Py_DECREF(sequence);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; ++i) {
        PyObject *item = PySequence_Fast_GET_ITEM(sequence, i);
        const char *text = PyUnicode_Check(item) ? PyUnicode_AsUTF8(item) : NULL;
        if (!text) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "moves[%zd] = %R is not a UCI move string", i, item);
            Py_DECREF(sequence);
            return -1;
        }
        const Move m = find_uci_move(p, text);
        if (m == NO_MOVE) {
            PyErr_Format(PyExc_ValueError, "moves[%zd] = %R is not a legal move there (UCI, like e2e4 or e7e8q)", i,
                         item);
            Py_DECREF(sequence);
            return -1;
        }
        self->keys[i] = p->key;
        Position next;
        make_move(p, &next, m);
        *p = next;
    }
    self->root_index = (int)count;
    self->keys[count] = p->key;
    Py_DECREF(sequence);
    return 0;
}

/* The root's legal moves, restricted to ``root_moves`` when given (UCI searchmoves). */
static int collect_root_moves(Searcher *self, const Position *p, PyObject *root_moves, int *any_legal)
{
    MoveList all;
    generate_moves(p, &all, 0);
    const u64 pinned = pinned_pieces(p);
    MoveList *legal = &self->root_moves;
    legal->count = 0;
    for (int i = 0; i < all.count; ++i)
        if (is_legal(p, all.moves[i], pinned)) legal->moves[legal->count++] = all.moves[i];
    *any_legal = legal->count > 0;
    if (root_moves == Py_None) return 0;
    PyObject *sequence = PySequence_Fast(root_moves, "root_moves must be a list of UCI strings or None");
    if (!sequence) return -1;
    const Py_ssize_t count = PySequence_Fast_GET_SIZE(sequence);
    MoveList chosen;
    chosen.count = 0;
    for (Py_ssize_t i = 0; i < count; ++i) {
        PyObject *item = PySequence_Fast_GET_ITEM(sequence, i);
        const char *text = PyUnicode_Check(item) ? PyUnicode_AsUTF8(item) : NULL;
        const Move m = text ? find_uci_move(p, text) : NO_MOVE;
        if (!text) PyErr_Clear();
        if (m == NO_MOVE) {
            PyErr_Format(PyExc_ValueError, "root_moves[%zd] = %R is not a legal move at the root", i, item);
            Py_DECREF(sequence);
            return -1;
        }
        int seen = 0;
        for (int j = 0; j < chosen.count; ++j) seen |= chosen.moves[j] == m;
        if (!seen) chosen.moves[chosen.count++] = m;
    }
    Py_DECREF(sequence);
    if (chosen.count) memcpy(legal, &chosen, sizeof(MoveList)); /* an empty list: no restriction */
    return 0;
}

static PyObject *line_list(const Move *line, int length)
{
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    for (int i = 0; i < length; ++i) {
        char text[6];
        move_text(line[i], text);
        PyObject *item = PyUnicode_FromString(text);
        if (!item || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(item);
    }
    return list;
}

/* ------------------------------------------------------------------ Lazy SMP */

/* What a new search resets of a searcher's move ordering: killers go, history halves
 * (old history still orders, but less loudly). */
static void age_heuristics(Searcher *s)
{
    memset(s->killers, 0, sizeof(s->killers));
    for (int side = 0; side < 2; ++side)
        for (int i = 0; i < 64 * 64; ++i) s->history[side][i] /= 2;
}

/* Helper ``index`` set up to search the main searcher's root: the same table, game history
 * and root moves, its own everything else. Odd helpers start one ply deeper, so that
 * helpers and main spread over two depths and fill the table ahead of each other. */
static int prepare_helper(Searcher *self, Searcher *helper, int index)
{
    if (helper->keys_capacity < self->keys_capacity) {
        free(helper->keys);
        helper->keys = malloc(self->keys_capacity * sizeof(u64));
        helper->keys_capacity = helper->keys ? self->keys_capacity : 0;
        if (!helper->keys) {
            PyErr_NoMemory();
            return 0;
        }
    }
    memcpy(helper->keys, self->keys, (size_t)(self->root_index + 1) * sizeof(u64));
    helper->root_index = self->root_index;
    helper->root_moves = self->root_moves;
    helper->table = self->table;
    helper->bucket_count = self->bucket_count;
    helper->generation = self->generation;
    helper->weights_version = self->weights_version;
    helper->stack[0] = self->stack[0];
    helper->eval_stack[0] = EVAL_NONE;
    helper->nodes = 0;
    helper->next_poll = HELPER_POLL_INTERVAL;
    helper->poll = NULL;
    helper->stopped = helper->deferred = 0;
    helper->completed_depth = helper->partial_depth = 0;
    helper->null_move_min_ply = 0;
    helper->qnodes = helper->tt_probes = helper->tt_hits = helper->cutoffs = helper->first_move_cutoffs = 0;
    helper->stop_flag = &self->stop_helpers;
    helper->max_depth = self->max_depth;
    helper->root_depth = index % 2; /* the depth before its first */
    age_heuristics(helper);
    return 1;
}

static PyObject *Searcher_search(Searcher *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"fen",           "moves",      "max_depth", "poll", "on_iteration",
                               "poll_interval", "root_moves", "threads",   NULL};
    const char *fen;
    PyObject *moves, *poll, *on_iteration, *root_moves = Py_None;
    int max_depth, threads = 1;
    long long poll_interval = DEFAULT_POLL_INTERVAL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "sOiOO|LOi:search", keywords, &fen, &moves, &max_depth, &poll,
                                     &on_iteration, &poll_interval, &root_moves, &threads))
        return NULL;
    if (check_request(self, threads, poll, on_iteration, poll_interval, &max_depth) < 0 || require_weights() < 0)
        return NULL;
    Position root;
    if (parse_position_argument(fen, &root) < 0) return NULL;
    if (play_game_moves(self, &root, moves) < 0) return NULL;
    int any_legal;
    if (collect_root_moves(self, &root, root_moves, &any_legal) < 0) return NULL;
    const int helper_count = any_legal ? threads - 1 : 0;
    if (!ensure_helpers(self, helper_count)) return NULL;
    pthread_t *helper_threads = helper_count ? malloc((size_t)helper_count * sizeof(pthread_t)) : NULL;
    if (helper_count && !helper_threads) return PyErr_NoMemory();

    self->busy = 1;
    ++searches_running;
    Py_INCREF(poll);
    Py_INCREF(on_iteration);
    self->poll = poll;
    self->poll_interval = poll_interval;
    self->nodes = self->reported = 0;
    self->qnodes = self->tt_probes = self->tt_hits = self->cutoffs = self->first_move_cutoffs = 0;
    self->next_poll = (u64)poll_interval;
    self->stopped = self->deferred = 0;
    self->completed_depth = 0;
    self->null_move_min_ply = 0;
    self->error_type = self->error_value = self->error_traceback = NULL;
    if (self->weights_version != weights_version) { /* scores made with other weights */
        clear_tables(self);
        self->weights_version = weights_version;
    }
    self->generation = (uint8_t)((self->generation + 1) & 63);
    self->table_written = 1;
    age_heuristics(self);
    self->stack[0] = root;
    self->eval_stack[0] = EVAL_NONE;
    self->max_depth = max_depth;

    /* Lazy SMP: the helpers search the same root beside this thread until it is done; what
     * they find reaches it through the table. Only this thread's iterations are reported. */
    const int started = start_helpers(self, helper_count, helper_threads);
    const int failed = deepen(self, on_iteration, any_legal, max_depth);
    join_helpers(self, helper_threads, started);
    free(helper_threads);
    Py_DECREF(on_iteration);
    --searches_running;
    return end_search(self, poll, failed);
}

static PyMethodDef module_methods[] = {
    {"perft", (PyCFunction)module_perft, METH_VARARGS,
     "perft(fen, depth) -> int\n\nLeaf count of the legal move tree (by the rules of movement: no draws)."},
    {"evaluate", (PyCFunction)module_evaluate, METH_VARARGS,
     "evaluate(fen) -> float\n\nThe EVAL in centipawns, White's view; equals\n"
     "ChessState.from_text(fen).evaluate(0) for the weights last given to set_weights()."},
    {"set_network", (PyCFunction)module_set_network, METH_VARARGS,
     "set_network(hidden, ft_scale, out_scale, output_cp, feature_weights, feature_bias, output_weights,\n"
     "output_bias) or set_network(None)\n\nThe network the search adds to the EVAL from now on (int16 arrays\n"
     "as little-endian bytes; games.chess_game.network reads the file); None: none."},
    {"network_evaluate", (PyCFunction)module_network_evaluate, METH_VARARGS,
     "network_evaluate(fen, moves=()) -> int\n\nThe network's correction in centipawns, side to move's view, after\n"
     "the UCI moves are made from fen (0 without a network)."},
    {"set_weights", (PyCFunction)module_set_weights, METH_VARARGS,
     "set_weights(weights, constants) -> None\n\nEvaluate with ``weights`` (tables.CURRENT_WEIGHTS: every name,\n"
     "nested int lists) and ``constants`` (tables.py's the terms compute with, by name:\n"
     "games.chess_game.native.eval_constants()) from now on. A missing or unknown name is a\n"
     "KeyError and changes nothing. evaluate() and search() raise RuntimeError until called."},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef Searcher_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Searcher_search, METH_VARARGS | METH_KEYWORDS,
     "search(fen, moves, max_depth, poll, on_iteration, poll_interval=4096, root_moves=None, threads=1)\n"
     "-> None\n\n"
     "Iterative deepening from the position after the UCI ``moves`` played from ``fen`` (their\n"
     "positions count for repetitions). After each completed depth, on_iteration(depth, seldepth,\n"
     "score, nodes, pv) hears the side to move's score in centipawns (MATE - plies when it mates,\n"
     "-(MATE - plies) when mated) and the PV as UCI strings; a true answer stops the search.\n"
     "poll(nodes, True) hears the nodes every poll_interval nodes and may raise to stop it (the\n"
     "exception comes out of search; depth 1 always finishes first); poll(nodes, False) hears the\n"
     "rest once at a normal end. ``root_moves`` restricts the root (UCI searchmoves). No legal\n"
     "move at the root: on_iteration is never called. ``threads`` > 1 adds Lazy SMP helper threads\n"
     "sharing the table (nodes reported are all threads'). ValueError for a bad FEN or move, or\n"
     "threads outside 1..256."},
    {"clear", (PyCFunction)Searcher_clear, METH_NOARGS, "Forget the table, history, killers (a new game)."},
    {"interrupted", (PyCFunction)Searcher_interrupted, METH_NOARGS,
     "interrupted() -> (depth, seldepth, score, nodes, pv) or None\n\n"
     "After a search a stop cut short: the best root move the cut iteration had searched to\n"
     "the end, when one raised alpha (it then beat the previous best, searched first), with\n"
     "its score (a lower bound after an aspiration fail high) and line; None otherwise."},
    {"counters", (PyCFunction)Searcher_counters, METH_NOARGS,
     "counters() -> (qnodes, tt_probes, tt_hits, cutoffs, first_move_cutoffs)\n\n"
     "Of the search under way or the last one (read them from on_iteration)."},
    {"hashfull", (PyCFunction)Searcher_hashfull, METH_NOARGS,
     "Permille of the table's slots written by the last search (UCI hashfull, from a sample)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "games.chess_game._search.Searcher",
    .tp_basicsize = sizeof(Searcher),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Searcher(hash_mb=64): a chess search with its own transposition table (two-entry\n"
              "buckets of 16-byte entries), history, killers and countermoves, kept from search to\n"
              "search until clear(). One search at a time; the GIL is released while it runs.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Searcher_init,
    .tp_dealloc = (destructor)Searcher_dealloc,
    .tp_methods = Searcher_methods,
};

static struct PyModuleDef search_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "games.chess_game._search",
    .m_doc = "A native chess search: bitboard move generation, the EVAL of evaluation.py and a\n"
             "PVS alpha-beta search (see games/chess_game/native.py for the Python side).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__search(void)
{
#ifdef CHECK_POPCNT
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "games.chess_game._search needs a CPU with the POPCNT instruction");
        return NULL;
    }
#endif
    if (!init_tables()) {
        PyErr_SetString(PyExc_ImportError, "games.chess_game._search: a magic number does not fit its square");
        return NULL;
    }
    if (PyType_Ready(&SearcherType) < 0) return NULL;
    PyObject *module = PyModule_Create(&search_module);
    if (!module) return NULL;
    if (PyModule_AddObjectRef(module, "Searcher", (PyObject *)&SearcherType) < 0 ||
        PyModule_AddIntConstant(module, "MATE", MATE) < 0 ||
        PyModule_AddIntConstant(module, "MATE_BOUND", MATE_BOUND) < 0 ||
        PyModule_AddIntConstant(module, "MAX_DEPTH", MAX_DEPTH) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
