/* rulesets/duel/duel.c — the dice duel's rules and its descriptor (the rules are in
 * opfor/duel/duel.h): scenario, opening, legal actions, apply, the explicit 1D6 chance node,
 * returns, the hidden hand (resample, view), serialization, phrases and the table's picture.
 *
 * The state is 64 bytes of plain memory; hands are kept sorted so equal positions are equal
 * bytes. Every hook checks its action against the list `legal` would make, so an unlisted
 * action is refused with the state untouched.
 */
#include "opfor/duel/duel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duel_int.h"
#include "opfor/hash.h"

#define C(ctx) ((const opfor_duel_ctx_t *)(ctx))
#define S(st) ((const opfor_duel_state_t *)(st))

const opfor_duel_ctx_t opfor_duel_default_ctx = {10, 8, 5};

static const char *const SIDE_NAMES[OPFOR_DUEL_SIDES] = {"Red", "Blue"};

const char *opfor_duel_side_name(int side) {
    return side >= 0 && side < OPFOR_DUEL_SIDES ? SIDE_NAMES[side] : "?";
}

int opfor_duel_need(int card, int defence) {
    int need = defence - card + 1; /* die + card > defence */
    return need < 1 ? 1 : need > OPFOR_DUEL_FACES ? OPFOR_DUEL_FACES + 1 : need;
}

int opfor_duel_damage(int card, int face, int defence) {
    int d = face + card - defence;
    return d > 0 ? d : 0;
}

/* ---------------------------------------------------------------- actions */

static opfor_action_t action(int kind, int arg, int sub) {
    opfor_action_t a = opfor_action_make(kind);
    a.arg = (uint16_t)arg;
    a.sub = (uint8_t)sub;
    return a;
}

opfor_action_t opfor_duel_pass(void) {
    return action(OPFOR_DUEL_PASS, 0, 0);
}
opfor_action_t opfor_duel_play(int card) {
    return action(OPFOR_DUEL_PLAY, card, 0);
}
opfor_action_t opfor_duel_roll(void) {
    return action(OPFOR_DUEL_ROLL, 0, 0);
}
opfor_action_t opfor_duel_force(int face) {
    return action(OPFOR_DUEL_FORCE, 0, face);
}

/* ---------------------------------------------------------------- hands */

/* Sort key: known cards ascending, then unknown cards, then empty slots. */
static int key(uint8_t c) {
    return c == 0 ? 255 : c;
}

static void sort_hand(uint8_t *h) {
    for (int i = 1; i < OPFOR_DUEL_HAND; i++)
        for (int j = i; j > 0 && key(h[j - 1]) > key(h[j]); j--) {
            uint8_t t = h[j];
            h[j] = h[j - 1];
            h[j - 1] = t;
        }
}

int opfor__duel_hand_count(const opfor_duel_state_t *s, int side) {
    int n = 0;
    for (int i = 0; i < OPFOR_DUEL_HAND; i++)
        n += s->hand[side][i] != 0;
    return n;
}

int opfor__duel_holds(const opfor_duel_state_t *s, int side, int card) {
    for (int i = 0; i < OPFOR_DUEL_HAND; i++)
        if (s->hand[side][i] == card && card >= 1 && card <= OPFOR_DUEL_VALUES)
            return 1;
    return 0;
}

/* Fills side's hand up to OPFOR_DUEL_HAND from the top of the deck. */
static void refill(opfor_duel_state_t *s, int side) {
    for (int i = 0; i < OPFOR_DUEL_HAND && s->ndeck > 0; i++)
        if (s->hand[side][i] == 0) {
            s->hand[side][i] = s->deck[--s->ndeck];
            s->deck[s->ndeck] = 0;
        }
    sort_hand(s->hand[side]);
}

double opfor__duel_standing(const opfor_duel_ctx_t *c, const opfor_duel_state_t *s) {
    double gap = ((double)s->hp[0] - (double)s->hp[1]) / (double)c->hp;
    double cards = 0.0;
    for (int i = 0; i < OPFOR_DUEL_HAND; i++) {
        int a = s->hand[0][i], b = s->hand[1][i];
        cards += (a >= 1 && a <= OPFOR_DUEL_VALUES ? a
                  : a                              ? 3.5
                                                   : 0) -
                 (b >= 1 && b <= OPFOR_DUEL_VALUES ? b
                  : b                              ? 3.5
                                                   : 0);
    }
    double v = 0.8 * gap + 0.01 * cards;
    return v > 0.9 ? 0.9 : v < -0.9 ? -0.9 : v;
}

/* ---------------------------------------------------------------- the scenario */

static int ctx_check(const opfor_duel_ctx_t *c) {
    return c->hp >= 1 && c->hp <= OPFOR_DUEL_MAX_HP && c->rounds >= 1 &&
           c->rounds <= OPFOR_DUEL_MAX_ROUNDS && c->defence >= 0 &&
           c->defence <= OPFOR_DUEL_MAX_DEFENCE;
}

/* Reads `key: value` lines into c. */
static int ctx_read(FILE *f, const char *path, opfor_duel_ctx_t *c, opfor_diag_t *d) {
    char line[256];
    for (int ln = 1; fgets(line, sizeof line, f); ln++) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        size_t len = strlen(p);
        while (len > 0 && (p[len - 1] == '\n' || p[len - 1] == '\r' || p[len - 1] == ' ' ||
                           p[len - 1] == '\t'))
            p[--len] = 0;
        if (!*p)
            continue;
        char *colon = strchr(p, ':');
        if (!colon)
            return opfor_diag_set(d, OPFOR_EPARSE, ln, 1, "expected `key: value`, got '%s'", p);
        *colon = 0;
        char *val = colon + 1;
        while (*val == ' ' || *val == '\t')
            val++;
        char *end = NULL;
        errno = 0;
        long v = strtol(val, &end, 10);
        int col = (int)(val - line) + 1;
        if (end == val || *end || errno)
            return opfor_diag_set(d, OPFOR_EPARSE, ln, col, "%s: '%s' is not a whole number", p,
                                  val);
        int *slot = !strcmp(p, "hp")        ? &c->hp
                    : !strcmp(p, "rounds")  ? &c->rounds
                    : !strcmp(p, "defence") ? &c->defence
                                            : NULL;
        if (!slot)
            return opfor_diag_set(d, OPFOR_EPARSE, ln, 1,
                                  "unknown key '%s' (expected hp, rounds or defence)", p);
        if (v < -1000 || v > 1000)
            return opfor_diag_set(d, OPFOR_EPARSE, ln, col, "%s: %ld is out of range", p, v);
        *slot = (int)v;
        if (!ctx_check(c))
            return opfor_diag_set(d, OPFOR_EPARSE, ln, col,
                                  "%s: %ld is out of range (hp 1..%d, rounds 1..%d, "
                                  "defence 0..%d)",
                                  p, v, OPFOR_DUEL_MAX_HP, OPFOR_DUEL_MAX_ROUNDS,
                                  OPFOR_DUEL_MAX_DEFENCE);
    }
    (void)path;
    return 0;
}

static int duel_ctx_new(const char *scenario, void **ctx, opfor_diag_t *d) {
    if (!ctx)
        return OPFOR_EINVAL;
    *ctx = NULL;
    if (d)
        opfor_diag_clear(d);
    opfor_duel_ctx_t *c = malloc(sizeof *c);
    if (!c)
        return OPFOR_ENOMEM;
    *c = opfor_duel_default_ctx;
    if (scenario) {
        FILE *f = fopen(scenario, "r");
        if (!f) {
            free(c);
            return opfor_diag_set(d, OPFOR_ENOENT, 0, 0, "cannot open '%s'", scenario);
        }
        int rc = ctx_read(f, scenario, c, d);
        fclose(f);
        if (rc < 0) {
            if (d)
                snprintf(d->file, sizeof d->file, "%s", scenario);
            free(c);
            return rc;
        }
    }
    *ctx = c;
    return 0;
}

static void duel_ctx_free(void *ctx) {
    free(ctx);
}

/* ---------------------------------------------------------------- the game */

static int duel_init(const void *ctx, void *state, uint64_t seed) {
    if (!ctx || !state || !ctx_check(C(ctx)))
        return OPFOR_EINVAL;
    opfor_duel_state_t *s = state;
    memset(s, 0, sizeof *s);
    opfor_rng_seed(&s->rng, seed, 0xD1CE);
    for (int i = 0; i < OPFOR_DUEL_DECK; i++)
        s->deck[i] = (uint8_t)(1 + i % OPFOR_DUEL_VALUES);
    opfor_rng_t shuffle;
    opfor_rng_derive(&shuffle, seed, 0xDEC);
    for (int i = OPFOR_DUEL_DECK - 1; i > 0; i--) {
        int j = (int)opfor_rng_below(&shuffle, (uint32_t)i + 1);
        uint8_t t = s->deck[i];
        s->deck[i] = s->deck[j];
        s->deck[j] = t;
    }
    s->ndeck = OPFOR_DUEL_DECK;
    refill(s, 0);
    refill(s, 1);
    s->hp[0] = s->hp[1] = (uint8_t)C(ctx)->hp;
    s->turn = 0;
    s->phase = OPFOR_DUEL_DECIDE;
    s->winner = OPFOR_DUEL_NONE;
    return 0;
}

static int duel_current(const void *ctx, const void *state) {
    const opfor_duel_state_t *s = S(state);
    if (s->phase == OPFOR_DUEL_OVER)
        return OPFOR_PLAYER_TERMINAL;
    if (s->phase == OPFOR_DUEL_ROLLING)
        return OPFOR_PLAYER_CHANCE;
    return s->turn;
}

static int duel_legal(const void *ctx, const void *state, opfor_action_t *out, int max) {
    const opfor_duel_state_t *s = S(state);
    opfor_action_t acts[OPFOR_DUEL_MAX_ACTIONS];
    int n = 0;
    if (s->phase == OPFOR_DUEL_ROLLING) {
        acts[n++] = opfor_duel_roll();
    } else if (s->phase == OPFOR_DUEL_DECIDE) {
        int last = 0;
        for (int i = 0; i < OPFOR_DUEL_HAND; i++) {
            int c = s->hand[s->turn][i];
            if (c >= 1 && c <= OPFOR_DUEL_VALUES && c != last)
                acts[n++] = opfor_duel_play(c);
            last = c;
        }
        acts[n++] = opfor_duel_pass();
    }
    for (int i = 0; i < n && i < max; i++)
        out[i] = acts[i];
    return n < max ? n : max;
}

/* The turn of side s->turn is over: check the end, else hand over. */
static void end_turn(const opfor_duel_ctx_t *c, opfor_duel_state_t *s) {
    int side = s->turn, other = 1 - side;
    refill(s, side);
    s->moves++;
    if (s->hp[other] == 0) {
        s->phase = OPFOR_DUEL_OVER;
        s->winner = (uint8_t)side;
    } else if (s->moves >= 2 * c->rounds) {
        s->phase = OPFOR_DUEL_OVER;
        s->winner = s->hp[0] > s->hp[1]   ? OPFOR_DUEL_RED
                    : s->hp[1] > s->hp[0] ? OPFOR_DUEL_BLUE
                                          : OPFOR_DUEL_DRAW;
    } else {
        s->turn = (uint8_t)other;
        s->phase = OPFOR_DUEL_DECIDE;
    }
}

/* The die shows face: side s->turn's card s->pending hits (or not). */
static void resolve(const opfor_duel_ctx_t *c, opfor_duel_state_t *s, int face) {
    int side = s->turn, other = 1 - side;
    int dmg = opfor_duel_damage(s->pending, face, c->defence);
    s->hp[other] = (uint8_t)(s->hp[other] > dmg ? s->hp[other] - dmg : 0);
    s->last_kind = OPFOR_DUEL_PLAY;
    s->last_side = (uint8_t)side;
    s->last_card = s->pending;
    s->last_roll = (uint8_t)face;
    s->last_damage = (uint8_t)dmg;
    s->pending = 0;
    end_turn(c, s);
}

static int duel_apply(const void *ctx, void *state, const opfor_action_t *a) {
    opfor_duel_state_t *s = state;
    const opfor_duel_ctx_t *c = C(ctx);
    if (s->phase == OPFOR_DUEL_ROLLING) {
        opfor_action_t f = opfor_duel_force(a->sub);
        if (opfor_action_eq(a, &f) && a->sub >= 1 && a->sub <= OPFOR_DUEL_FACES) {
            resolve(c, s, a->sub);
            return 0;
        }
        opfor_action_t r = opfor_duel_roll();
        if (!opfor_action_eq(a, &r))
            return OPFOR_EILLEGAL;
        resolve(c, s, opfor_rng_d6(&s->rng));
        return 0;
    }
    if (s->phase != OPFOR_DUEL_DECIDE)
        return OPFOR_EILLEGAL;
    opfor_action_t acts[OPFOR_DUEL_MAX_ACTIONS];
    int n = duel_legal(ctx, state, acts, OPFOR_DUEL_MAX_ACTIONS), k = 0;
    while (k < n && !opfor_action_eq(a, &acts[k]))
        k++;
    if (k == n)
        return OPFOR_EILLEGAL;
    int side = s->turn;
    if (a->kind == OPFOR_DUEL_PASS) {
        if (s->hp[side] < c->hp)
            s->hp[side]++;
        s->last_kind = OPFOR_DUEL_PASS;
        s->last_side = (uint8_t)side;
        s->last_card = s->last_roll = s->last_damage = 0;
        end_turn(c, s);
        return 0;
    }
    for (int i = 0; i < OPFOR_DUEL_HAND; i++)
        if (s->hand[side][i] == a->arg) {
            s->hand[side][i] = 0;
            break;
        }
    sort_hand(s->hand[side]);
    s->used[a->arg - 1]++;
    s->pending = (uint8_t)a->arg;
    s->phase = OPFOR_DUEL_ROLLING;
    return 0;
}

static int duel_chance_outcomes(const void *ctx, const void *state, opfor_chance_outcome_t *out,
                                int max) {
    if (S(state)->phase != OPFOR_DUEL_ROLLING)
        return 0;
    if (max < OPFOR_DUEL_FACES)
        return OPFOR_ERANGE;
    for (int f = 1; f <= OPFOR_DUEL_FACES; f++) {
        out[f - 1].action = opfor_duel_force(f);
        out[f - 1].p = 1.0 / OPFOR_DUEL_FACES;
    }
    return OPFOR_DUEL_FACES;
}

static int duel_returns(const void *ctx, const void *state, double *out) {
    const opfor_duel_state_t *s = S(state);
    if (s->phase == OPFOR_DUEL_OVER) {
        out[0] = s->winner == OPFOR_DUEL_RED ? 1.0 : s->winner == OPFOR_DUEL_BLUE ? -1.0 : 0.0;
    } else {
        out[0] = opfor__duel_standing(C(ctx), s);
    }
    out[1] = -out[0];
    return 0;
}

static int duel_evaluate(const void *ctx, const void *state, double *out) {
    out[0] = opfor__duel_standing(C(ctx), S(state));
    out[1] = -out[0];
    return 0;
}

/* ---------------------------------------------------------------- hidden information */

/* Redraws the observer's opponent's hand and the deck's order from the cards the observer
 * has not seen: the deck's composition less the cards played, the one in play and its own. */
static int duel_resample(const void *ctx, void *state, int observer, opfor_rng_t *rng) {
    if (observer < 0 || observer >= OPFOR_DUEL_SIDES || !rng)
        return OPFOR_EINVAL;
    opfor_duel_state_t *s = state;
    int other = 1 - observer;
    int left[OPFOR_DUEL_VALUES + 1];
    for (int v = 1; v <= OPFOR_DUEL_VALUES; v++)
        left[v] = OPFOR_DUEL_DECK / OPFOR_DUEL_VALUES - s->used[v - 1];
    for (int i = 0; i < OPFOR_DUEL_HAND; i++) {
        int c = s->hand[observer][i];
        if (c >= 1 && c <= OPFOR_DUEL_VALUES)
            left[c]--;
    }
    uint8_t pool[OPFOR_DUEL_DECK];
    int n = 0;
    for (int v = 1; v <= OPFOR_DUEL_VALUES; v++)
        for (int k = 0; k < left[v] && n < OPFOR_DUEL_DECK; k++)
            pool[n++] = (uint8_t)v;
    int nhand = opfor__duel_hand_count(s, other);
    if (n != nhand + s->ndeck)
        return OPFOR_EINVAL; /* not a state of this game */
    for (int i = n - 1; i > 0; i--) {
        int j = (int)opfor_rng_below(rng, (uint32_t)i + 1);
        uint8_t t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
    memset(s->hand[other], 0, OPFOR_DUEL_HAND);
    for (int i = 0; i < nhand; i++)
        s->hand[other][i] = pool[i];
    sort_hand(s->hand[other]);
    memset(s->deck, 0, sizeof s->deck);
    for (int i = 0; i < s->ndeck; i++)
        s->deck[i] = pool[nhand + i];
    return 0;
}

static int duel_reseed(const void *ctx, void *state, uint64_t seed) {
    opfor_rng_seed(&((opfor_duel_state_t *)state)->rng, seed, 0xD1CE);
    return 0;
}

/* A side sees its own hand and what was played; the other hand's cards, the deck's order and
 * the dice stream become unknown (the counts stay). */
static int duel_view(const void *ctx, const void *state, int viewer, void *out) {
    if (viewer < OPFOR_VIEW_ALL || viewer >= OPFOR_DUEL_SIDES)
        return OPFOR_EINVAL;
    opfor_duel_state_t *v = out;
    memcpy(v, state, sizeof *v);
    if (viewer == OPFOR_VIEW_ALL)
        return 0;
    int other = 1 - viewer;
    for (int i = 0; i < OPFOR_DUEL_HAND; i++)
        if (v->hand[other][i])
            v->hand[other][i] = OPFOR_DUEL_UNKNOWN;
    for (int i = 0; i < v->ndeck; i++)
        v->deck[i] = OPFOR_DUEL_UNKNOWN;
    memset(&v->rng, 0, sizeof v->rng);
    return 0;
}

static int duel_progress(const void *ctx, const void *state, opfor_progress_t *out) {
    out->turn = S(state)->moves / 2u;
    out->activation = S(state)->moves;
    return 0;
}

/* ---------------------------------------------------------------- portable bytes */

#define SER_MAGIC "DUEL"
#define SER_VERSION 1
/* magic, version, rng (2 x u64 LE), then the 48 bytes after the rng in field order */
#define SER_LEN (4 + 1 + 16 + (sizeof(opfor_duel_state_t) - sizeof(opfor_rng_t)))

static void put64(unsigned char *p, uint64_t v) {
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static int duel_serialize(const void *ctx, const void *state, void *buf, size_t size, size_t *len) {
    if (len)
        *len = SER_LEN;
    if (!buf || size < SER_LEN)
        return OPFOR_ERANGE;
    const opfor_duel_state_t *s = S(state);
    unsigned char *p = buf;
    memcpy(p, SER_MAGIC, 4);
    p[4] = SER_VERSION;
    put64(p + 5, s->rng.state);
    put64(p + 13, s->rng.inc);
    /* every field after the rng is a byte: the layout is the same on every machine */
    memcpy(p + 21, (const unsigned char *)s + sizeof(opfor_rng_t), sizeof *s - sizeof(opfor_rng_t));
    return 0;
}

static int card_ok(int c) {
    return c >= 0 && c <= OPFOR_DUEL_UNKNOWN;
}

static int duel_deserialize(const void *ctx, void *state, const void *buf, size_t len) {
    const unsigned char *p = buf;
    if (!buf || len != SER_LEN || memcmp(p, SER_MAGIC, 4) != 0 || p[4] != SER_VERSION)
        return OPFOR_EPARSE;
    opfor_duel_state_t t;
    memset(&t, 0, sizeof t);
    t.rng.state = get64(p + 5);
    t.rng.inc = get64(p + 13);
    memcpy((unsigned char *)&t + sizeof(opfor_rng_t), p + 21, sizeof t - sizeof(opfor_rng_t));
    /* refuse what no game reaches */
    int ok = t.ndeck <= OPFOR_DUEL_DECK && t.turn < OPFOR_DUEL_SIDES &&
             t.phase <= OPFOR_DUEL_OVER && t.winner <= OPFOR_DUEL_NONE &&
             (t.phase == OPFOR_DUEL_ROLLING) == (t.pending != 0) &&
             t.pending <= OPFOR_DUEL_VALUES && t.last_side < OPFOR_DUEL_SIDES &&
             t.last_kind <= OPFOR_DUEL_PLAY && t.last_card <= OPFOR_DUEL_VALUES &&
             t.last_roll <= OPFOR_DUEL_FACES;
    for (int sd = 0; sd < OPFOR_DUEL_SIDES && ok; sd++) {
        for (int i = 0; i < OPFOR_DUEL_HAND; i++)
            ok &=
                card_ok(t.hand[sd][i]) && (i == 0 || key(t.hand[sd][i - 1]) <= key(t.hand[sd][i]));
        ok &= t.hp[sd] <= OPFOR_DUEL_MAX_HP;
    }
    for (int i = 0; i < OPFOR_DUEL_DECK && ok; i++)
        ok &= i < t.ndeck ? t.deck[i] >= 1 && t.deck[i] <= OPFOR_DUEL_UNKNOWN : t.deck[i] == 0;
    for (int v = 0; v < OPFOR_DUEL_VALUES && ok; v++)
        ok &= t.used[v] <= OPFOR_DUEL_DECK / OPFOR_DUEL_VALUES;
    for (size_t i = 0; i < sizeof t.pad && ok; i++)
        ok &= t.pad[i] == 0;
    if (!ok)
        return OPFOR_EPARSE;
    memcpy(state, &t, sizeof t);
    return 0;
}

static uint64_t duel_hash(const void *ctx, const void *state) {
    return opfor_fnv1a(OPFOR_FNV1A_BASIS_SHORT, state, sizeof(opfor_duel_state_t));
}

/* ---------------------------------------------------------------- words and pictures */

static const char *duel_action_str(const void *ctx, const void *state, const opfor_action_t *a,
                                   char *buf, size_t n) {
    const opfor_duel_state_t *s = S(state);
    const char *who = opfor_duel_side_name(s->turn);
    switch (a->kind) {
    case OPFOR_DUEL_PASS:
        snprintf(buf, n, "%s guards (pass, heal 1)", who);
        break;
    case OPFOR_DUEL_PLAY:
        snprintf(buf, n, "%s attacks with the %u (needs %d+ on 1D6)", who, a->arg,
                 opfor_duel_need(a->arg, C(ctx)->defence));
        break;
    case OPFOR_DUEL_ROLL:
        snprintf(buf, n, "roll 1D6 for %s's %u against defence %d", who, s->pending,
                 C(ctx)->defence);
        break;
    case OPFOR_DUEL_FORCE:
        snprintf(buf, n, "the die shows %u", a->sub);
        break;
    default:
        snprintf(buf, n, "unknown duel action %u", a->kind);
    }
    return buf;
}

/* What happened last, for people: "Red attacked with the 4, rolled 3: 2 damage". */
static void last_event(const opfor_duel_state_t *s, char *buf, size_t n) {
    const char *who = opfor_duel_side_name(s->last_side);
    if (s->last_kind == OPFOR_DUEL_PASS)
        snprintf(buf, n, "%s guarded", who);
    else if (s->last_kind == OPFOR_DUEL_PLAY)
        snprintf(buf, n, "%s: card %u + die %u, %u dmg", who, s->last_card, s->last_roll,
                 s->last_damage);
    else
        snprintf(buf, n, "the duel begins");
}

/* The table: 24 x 12 inches, Red at the west, Blue at the east; labels carry hit points, the
 * viewer's hand (the other's as a count), the deck and the last turn. */
static int duel_scene(const void *ctx, const void *state, int viewer, opfor_scene_t *out) {
    if (viewer < OPFOR_VIEW_ALL || viewer >= OPFOR_DUEL_SIDES)
        return OPFOR_EINVAL;
    opfor_duel_state_t v;
    duel_view(ctx, state, viewer, &v);
    out->width = 24.0f;
    out->depth = 12.0f;
    for (int sd = 0; sd < OPFOR_DUEL_SIDES; sd++) {
        opfor_scene_unit_t u;
        memset(&u, 0, sizeof u);
        u.at.x = sd == 0 ? 6.0f : 18.0f;
        u.at.y = 6.0f;
        u.w = 2.0f;
        u.d = 1.0f;
        u.facing = sd == 0 ? 90.0f : 270.0f;
        u.side = (uint8_t)sd;
        u.id = (uint16_t)sd;
        if (v.phase != OPFOR_DUEL_OVER && v.turn == sd)
            u.flags |= OPFOR_SCENE_U_ACTING;
        if (v.phase == OPFOR_DUEL_ROLLING && v.turn != sd)
            u.flags |= OPFOR_SCENE_U_TARGET;
        if (v.hp[sd] * 3 <= C(ctx)->hp)
            u.flags |= OPFOR_SCENE_U_SHAKEN;
        snprintf(u.name, sizeof u.name, "%s %uhp", opfor_duel_side_name(sd), v.hp[sd]);
        int rc = opfor_scene_add_unit(out, &u);
        if (rc < 0)
            return rc;
        char hand[OPFOR_SCENE_NAME_LEN];
        size_t k = (size_t)snprintf(hand, sizeof hand, "%s hand:", opfor_duel_side_name(sd));
        for (int i = 0; i < OPFOR_DUEL_HAND && v.hand[sd][i]; i++)
            k += (size_t)snprintf(hand + k, sizeof hand - k, " %c",
                                  v.hand[sd][i] == OPFOR_DUEL_UNKNOWN ? '?' : '0' + v.hand[sd][i]);
        opfor_scene_add_label(out, (opfor_scene_pt_t){u.at.x - 3.0f, 3.0f}, hand);
    }
    if (v.phase == OPFOR_DUEL_ROLLING) {
        int t = v.turn;
        opfor_scene_add_arrow(out, OPFOR_SCENE_FIRE, (opfor_scene_pt_t){t ? 17.0f : 7.0f, 6.0f},
                              (opfor_scene_pt_t){t ? 7.0f : 17.0f, 6.0f});
    }
    char text[OPFOR_SCENE_NAME_LEN];
    last_event(&v, text, sizeof text);
    opfor_scene_add_label(out, (opfor_scene_pt_t){8.0f, 10.0f}, text);
    snprintf(text, sizeof text, "round %u, deck %u", v.moves / 2u + 1, v.ndeck);
    opfor_scene_add_label(out, (opfor_scene_pt_t){8.0f, 1.0f}, text);
    return 0;
}

/* ---------------------------------------------------------------- the descriptor */

const opfor_ruleset_t opfor_duel_ruleset = {
    .name = "duel",
    .title = "Dice duel (test ruleset)",
    .max_players = OPFOR_DUEL_SIDES,
    .state_size = sizeof(opfor_duel_state_t),
    .max_actions = OPFOR_DUEL_MAX_ACTIONS,
    .flags = OPFOR_RS_CHANCE | OPFOR_RS_HIDDEN | OPFOR_RS_ZERO_SUM,
    .ctx_new = duel_ctx_new,
    .ctx_free = duel_ctx_free,
    .init = duel_init,
    .current = duel_current,
    .legal = duel_legal,
    .apply = duel_apply,
    .chance_outcomes = duel_chance_outcomes,
    .returns = duel_returns,
    .evaluate = duel_evaluate,
    .resample = duel_resample,
    .reseed = duel_reseed,
    .progress = duel_progress,
    .serialize = duel_serialize,
    .deserialize = duel_deserialize,
    .hash = duel_hash,
    .action_str = duel_action_str,
    .rules_version = "1",
    .view = duel_view,
    .scene = duel_scene,
    .ai = &opfor__duel_ai,
    .calc = &opfor__duel_calc,
    .session = &opfor__duel_session,
};
