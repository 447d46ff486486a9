/* Retrograde generator of the English draughts endgame databases (every position with up
 * to MAX_PIECES pieces): win, loss or draw for the side to move, and the distance to the
 * end of the game in plies under perfect play (the winner wins as fast as it can, the
 * loser holds out as long as it can). Draw rules (repetition, the 40-move rule) are
 * ignored, as in every checkers database.
 *
 * Built and run by tools/checkers_endgame.py, which documents the file format; this
 * program writes the raw tables (one byte a position) to the path given as argv[1].
 *
 * Positions are seen from the side to move ("mover"), whose men move down the board
 * (towards squares 29-32, as Black's do); a position with White to move is the board
 * turned round (square s -> 33 - s) with the colours swapped. Squares here are 0-31 (PDN
 * square - 1). A table covers one material signature (mover men, mover kings, opponent
 * men, opponent kings); its index is a mixed-radix number of four combination ranks
 * (colexicographic), one per group of like pieces: mover men on squares 0-27 (a man on the
 * last row would be a king), opponent men on squares 4-31, kings anywhere. Indices whose
 * groups overlap are impossible positions and stay 0.
 *
 * Value byte: 0 = draw (or impossible), otherwise 1 + distance; an odd distance is a win
 * for the side to move, an even one a loss (0: it has no move now).
 *
 * Usage: checkers_endgame OUTPUT4 [OUTPUT5]. OUTPUT4 gets every table of 2 to 4 pieces.
 * With OUTPUT5 the 5-piece tables of three kings against two pieces (either side to move:
 * 0,3,x,y and x,y,0,3) are solved too and written there, in the same canonical order. They
 * need no other 5-piece table: a capture leaves four pieces, a promotion of the two pieces'
 * man stays among them. Those are the long king endings, where a search alone wanders; where
 * the three have a man its advance gives the search progress, and all 3-against-2 tables
 * with their distances would take 49 MB compressed (these: 6.7 MB).
 *
 * The generator is a forward fixed point by passes rather than unmove generation: in pass
 * i a position becomes a win in i if one of its moves reaches a loss in i - 1, and a loss
 * in i if every move reaches a win in at most i - 1 (positions of other, already finished
 * tables count with their stored distance). Tables are finished in order of fewer pieces,
 * then fewer men; a signature is solved together with its colour-swapped twin, since the
 * quiet moves of one lead into the other.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PIECES 5
#define NSQ 32
#define MAX_CHILDREN 128

typedef struct { uint32_t mm, mk, om, ok; } Pos;

static int nb[NSQ][4], jp[NSQ][4];
static uint64_t binom[NSQ + 1][MAX_PIECES + 1];

static int sq_row(int s) { return s / 4; }
static int sq_col(int s) { int r = s / 4, p = s % 4; return 2 * p + (r % 2 == 0 ? 1 : 0); }
static int sq_at(int r, int c) {
    if (r < 0 || r > 7 || c < 0 || c > 7 || (r + c) % 2 == 0) return -1;
    return r * 4 + c / 2;
}

static void init_geometry(void) {
    static const int dr[4] = {1, 1, -1, -1}, dc[4] = {-1, 1, -1, 1};
    for (int s = 0; s < NSQ; s++)
        for (int d = 0; d < 4; d++) {
            nb[s][d] = sq_at(sq_row(s) + dr[d], sq_col(s) + dc[d]);
            jp[s][d] = sq_at(sq_row(s) + 2 * dr[d], sq_col(s) + 2 * dc[d]);
        }
    for (int n = 0; n <= NSQ; n++)
        for (int k = 0; k <= MAX_PIECES; k++)
            binom[n][k] = k == 0 ? 1 : (n == 0 ? 0 : binom[n - 1][k - 1] + binom[n - 1][k]);
}

static uint32_t rotate(uint32_t b) { /* square s -> 31 - s: reverse the 32 bits */
    uint32_t r = 0;
    for (int i = 0; i < 32; i++) if (b >> i & 1) r |= 1u << (31 - i);
    return r;
}

/* ------------------------------------------------------------------ tables */
typedef struct {
    int c[4];          /* mover men, mover kings, opponent men, opponent kings */
    uint64_t size;
    int16_t *dist;     /* -1 unknown, -2 impossible, else distance */
    int done;
} Table;

static Table tables[MAX_PIECES + 1][MAX_PIECES + 1][MAX_PIECES + 1][MAX_PIECES + 1];

/* Which tables this run solves and writes: all of 2-4 pieces, and three kings against two. */
static int wanted(int a, int b, int x, int y, int with_five) {
    int n = a + b + x + y;
    if (a + b == 0 || x + y == 0 || n < 2) return 0;
    if (n <= 4) return 1;
    return with_five && n == 5 && ((a == 0 && b == 3) || (x == 0 && y == 3));
}

static void write_tables(const char *path, int pieces_low, int pieces_high, int with_five) {
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); exit(1); }
    /* Canonical order: a, b, x, y ascending (mover men, mover kings, opponent men, opponent kings). */
    for (int a = 0; a <= MAX_PIECES; a++)
        for (int b = 0; a + b <= MAX_PIECES; b++)
            for (int x = 0; a + b + x <= MAX_PIECES; x++)
                for (int y = 0; a + b + x + y <= MAX_PIECES; y++) {
                    Table *t = &tables[a][b][x][y];
                    int n = a + b + x + y;
                    if (n < pieces_low || n > pieces_high || !wanted(a, b, x, y, with_five)) continue;
                    uint8_t *bytes = malloc(t->size);
                    for (uint64_t i = 0; i < t->size; i++) bytes[i] = t->dist[i] < 0 ? 0 : (uint8_t)(t->dist[i] + 1);
                    if (fwrite(bytes, 1, t->size, f) != t->size) { perror(path); exit(1); }
                    free(bytes);
                }
    if (fclose(f)) { perror(path); exit(1); }
}
static int max_dist_seen = 0;

static uint64_t group_size(int group, int k) { return binom[(group == 0 || group == 2) ? 28 : 32][k]; }

static uint64_t group_rank(uint32_t b, int offset) {
    uint64_t r = 0; int i = 0;
    while (b) { int s = __builtin_ctz(b); b &= b - 1; r += binom[s - offset][++i]; }
    return r;
}

static uint64_t index_of(const Table *t, Pos p) {
    uint64_t i = group_rank(p.mm, 0);
    i = i * group_size(2, t->c[2]) + group_rank(p.om, 4);
    i = i * group_size(1, t->c[1]) + group_rank(p.mk, 0);
    i = i * group_size(3, t->c[3]) + group_rank(p.ok, 0);
    return i;
}

static uint32_t unrank(uint64_t r, int k, int offset, int n) {
    uint32_t b = 0;
    for (int i = k; i >= 1; i--) {
        int s = n - 1;
        while (binom[s][i] > r) s--;
        r -= binom[s][i];
        b |= 1u << (s + offset);
        n = s;
    }
    return b;
}

static int position_of(const Table *t, uint64_t index, Pos *p) {
    uint64_t s3 = group_size(3, t->c[3]), s1 = group_size(1, t->c[1]), s2 = group_size(2, t->c[2]);
    uint64_t rok = index % s3; index /= s3;
    uint64_t rmk = index % s1; index /= s1;
    uint64_t rom = index % s2; index /= s2;
    p->mm = unrank(index, t->c[0], 0, 28);
    p->om = unrank(rom, t->c[2], 4, 28);
    p->mk = unrank(rmk, t->c[1], 0, 32);
    p->ok = unrank(rok, t->c[3], 0, 32);
    uint32_t all = 0; int total = 0;
    uint32_t g[4] = {p->mm, p->mk, p->om, p->ok};
    for (int i = 0; i < 4; i++) { all |= g[i]; total += __builtin_popcount(g[i]); }
    return __builtin_popcount(all) == total;
}

/* --------------------------------------------------------------- move generation */
typedef struct { Pos child[MAX_CHILDREN]; int n; } Children;

static void emit(Children *out, uint32_t mm, uint32_t mk, uint32_t om, uint32_t ok) {
    /* The child is seen from the opponent, now to move: turn the board round. */
    Pos c = {rotate(om), rotate(ok), rotate(mm), rotate(mk)};
    if (out->n < MAX_CHILDREN) out->child[out->n++] = c;
    else { fprintf(stderr, "too many children\n"); exit(1); }
}

static int jump_from(Children *out, int sq, int king, uint32_t mm, uint32_t mk, uint32_t om, uint32_t ok, uint32_t occ) {
    int found = 0;
    for (int d = 0; d < (king ? 4 : 2); d++) {
        int mid = nb[sq][d], land = jp[sq][d];
        if (mid < 0 || land < 0) continue;
        uint32_t midb = 1u << mid, landb = 1u << land;
        if (!((om | ok) & midb) || (occ & landb)) continue;
        found = 1;
        uint32_t nom = om & ~midb, nok = ok & ~midb;
        if (!king && sq_row(land) == 7) {
            emit(out, mm, mk | landb, nom, nok);
            continue;
        }
        if (!jump_from(out, land, king, mm, mk, nom, nok, (occ | landb) & ~(1u << sq))) {
            if (king) emit(out, mm, mk | landb, nom, nok);
            else emit(out, mm | landb, mk, nom, nok);
        }
    }
    return found;
}

static void children_of(Pos p, Children *out) {
    out->n = 0;
    uint32_t occ = p.mm | p.mk | p.om | p.ok;
    for (uint32_t b = p.mm; b; b &= b - 1) {
        int s = __builtin_ctz(b); uint32_t sb = 1u << s;
        jump_from(out, s, 0, p.mm & ~sb, p.mk, p.om, p.ok, occ & ~sb);
    }
    for (uint32_t b = p.mk; b; b &= b - 1) {
        int s = __builtin_ctz(b); uint32_t sb = 1u << s;
        jump_from(out, s, 1, p.mm, p.mk & ~sb, p.om, p.ok, occ & ~sb);
    }
    if (out->n) return;
    for (uint32_t b = p.mm; b; b &= b - 1) {
        int s = __builtin_ctz(b); uint32_t sb = 1u << s;
        for (int d = 0; d < 2; d++) {
            int t = nb[s][d];
            if (t < 0 || (occ >> t & 1)) continue;
            if (sq_row(t) == 7) emit(out, p.mm & ~sb, p.mk | 1u << t, p.om, p.ok);
            else emit(out, (p.mm & ~sb) | 1u << t, p.mk, p.om, p.ok);
        }
    }
    for (uint32_t b = p.mk; b; b &= b - 1) {
        int s = __builtin_ctz(b); uint32_t sb = 1u << s;
        for (int d = 0; d < 4; d++) {
            int t = nb[s][d];
            if (t < 0 || (occ >> t & 1)) continue;
            emit(out, p.mm, (p.mk & ~sb) | 1u << t, p.om, p.ok);
        }
    }
}

/* Distance of a child position (-1: not known yet or a draw). */
static int child_dist(Pos c) {
    int a = __builtin_popcount(c.mm), b = __builtin_popcount(c.mk);
    int x = __builtin_popcount(c.om), y = __builtin_popcount(c.ok);
    if (a + b == 0) return 0; /* the side to move has no piece: lost */
    Table *t = &tables[a][b][x][y];
    if (!t->dist) { fprintf(stderr, "missing table %d%d%d%d\n", a, b, x, y); exit(1); }
    return t->dist[index_of(t, c)];
}

static void solve_group(Table **group, int count) {
    for (int g = 0; g < count; g++) {
        Table *t = group[g];
        t->dist = malloc(t->size * sizeof(int16_t));
        Children ch;
        for (uint64_t i = 0; i < t->size; i++) {
            Pos p;
            if (!position_of(t, i, &p)) { t->dist[i] = -2; continue; }
            children_of(p, &ch);
            t->dist[i] = ch.n ? -1 : 0;
        }
    }
    int external_max = max_dist_seen;
    for (int pass = 1;; pass++) {
        long changed = 0;
        for (int g = 0; g < count; g++) {
            Table *t = group[g];
            Children ch;
            for (uint64_t i = 0; i < t->size; i++) {
                if (t->dist[i] != -1) continue;
                Pos p;
                position_of(t, i, &p);
                children_of(p, &ch);
                int win = 0, all_won = 1;
                for (int k = 0; k < ch.n; k++) {
                    int d = child_dist(ch.child[k]);
                    if (d < 0 || d >= pass) { all_won = 0; continue; }
                    if (d % 2 == 0) { win = 1; break; }
                }
                if (win || all_won) {
                    t->dist[i] = (int16_t)pass;  /* win: pass is odd; loss: even */
                    changed++;
                    if (pass > max_dist_seen) max_dist_seen = pass;
                }
            }
        }
        if (!changed && pass > external_max + 1) break;
    }
    for (int g = 0; g < count; g++) group[g]->done = 1;
}

int main(int argc, char **argv) {
    if (argc != 2 && argc != 3) { fprintf(stderr, "usage: %s OUTPUT4 [OUTPUT5]\n", argv[0]); return 2; }
    int with_five = argc == 3;
    init_geometry();
    for (int a = 0; a <= MAX_PIECES; a++)
        for (int b = 0; a + b <= MAX_PIECES; b++)
            for (int x = 0; a + b + x <= MAX_PIECES; x++)
                for (int y = 0; a + b + x + y <= MAX_PIECES; y++) {
                    Table *t = &tables[a][b][x][y];
                    t->c[0] = a; t->c[1] = b; t->c[2] = x; t->c[3] = y;
                    t->size = group_size(0, a) * group_size(2, x) * group_size(1, b) * group_size(3, y);
                }
    /* Solve: fewer pieces first, then fewer men; each signature with its swapped twin. */
    for (int n = 2; n <= MAX_PIECES; n++)
        for (int men = 0; men <= n; men++)
            for (int a = 0; a <= men; a++)
                for (int b = 0; a + b <= n; b++) {
                    int x = men - a, y = n - men - b;
                    if (x < 0 || y < 0 || !wanted(a, b, x, y, with_five)) continue;
                    Table *t = &tables[a][b][x][y], *twin = &tables[x][y][a][b];
                    if (t->done) continue;
                    Table *group[2] = {t, twin};
                    solve_group(group, t == twin ? 1 : 2);
                    fprintf(stderr, "solved %d%d%d%d%s (max distance so far %d)\n", a, b, x, y,
                            t == twin ? "" : " and its twin", max_dist_seen);
                }
    if (max_dist_seen > 254) { fprintf(stderr, "distance %d does not fit a byte\n", max_dist_seen); return 1; }
    write_tables(argv[1], 2, 4, with_five);
    if (with_five) write_tables(argv[2], 5, 5, with_five);
    return 0;
}
