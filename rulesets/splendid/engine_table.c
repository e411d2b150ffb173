/* rulesets/splendid/engine_table.c — the dice a real table threw, applied beside the engine's
 * own throws (docs/splendid.md 11): a test's die put in the engine's hand before it throws it
 * (sv_table_load), a unit's fire at the fire phase's chance node and a unit's hand-to-hand
 * attack resolved with the dice given instead of the game's stream. Nothing here is a new rule:
 * the numbers are the engine's (sv_fire_dice, sv_cv, sv_outflanks, the model's needs).
 */
#include <string.h>

#include "engine_int.h"

/* How many streams sv_table_load tries: four given dice are found in 6^4 = 1296 tries on
 * average; the bound leaves a wide margin (design). */
#define SV_TABLE_LOAD_TRIES (1u << 20)

int sv_table_load(sv_state_t *s, const int *dice, int n) {
    if (n < 0 || n > 4)
        return OPFOR_ERANGE;
    for (int i = 0; i < n; i++)
        if (dice[i] < 1 || dice[i] > 6)
            return OPFOR_EINVAL;
    /* a child stream of the game's own, keyed by a counter: the same report loads the same
     * stream on every machine, so a replayed log rebuilds the game exactly */
    uint64_t seed = opfor_rng_mix64(s->rng.state ^ opfor_rng_mix64(s->rng.inc));
    for (uint32_t key = 0; key < SV_TABLE_LOAD_TRIES; key++) {
        opfor_rng_t r;
        opfor_rng_derive(&r, seed, key);
        opfor_rng_t t = r;
        int ok = 1;
        for (int i = 0; i < n && ok; i++)
            ok = opfor_rng_d6(&t) == dice[i];
        if (ok) {
            s->rng = r;
            return 0;
        }
    }
    return OPFOR_ERANGE;
}

int sv_table_peek(const sv_state_t *s) {
    opfor_rng_t t = s->rng;
    return opfor_rng_d6(&t);
}

static int count_hits(const int *dice, int n, int need) {
    int hits = 0;
    for (int i = 0; i < n; i++)
        hits += dice[i] <= need;
    return hits;
}

static void add_markers(sv_unit_t *t, int hits) {
    int m = t->markers + hits;
    t->markers = (uint8_t)(m > 255 ? 255 : m);
}

int sv_table_fire_need(const sv_ctx_t *c, const sv_unit_t *u) {
    return c->model.fire_need[c->opt.unit_quality ? u->quality : 1];
}

/* §The Firing Procedure: unit ui's declared fire thrown with dice d (as many as sv_fire_dice
 * gives it); the misses of a regular or heavy gun bounce through (§Bounce-Through) to the
 * next unit with dice b (nb of them, as many as the misses), or the game's dice when nb is
 * 0. Marks it fired; when no declared fire is left the node is passed (the hand-to-hand phase
 * follows). The hits on the target and on the bounce target into hits[2], b's unit in *bt. */
int sv_table_fire(const sv_ctx_t *c, sv_state_t *s, int ui, const int *d, int n, const int *b,
                  int nb, int hits[2], int *bt) {
    sv_unit_t *u = &s->u[ui];
    if (s->phase != SV_P_FIRE_ROLL || u->target >= s->nunits)
        return OPFOR_EILLEGAL;
    int t = u->target;
    if (n != sv_fire_dice(c, s, ui, t))
        return OPFOR_EINVAL;
    int need = sv_table_fire_need(c, u);
    hits[0] = count_hits(d, n, need);
    hits[1] = 0;
    *bt = -1;
    int misses = n - hits[0];
    if ((u->kind == SV_GUN || u->kind == SV_HEAVYGUN) && misses > 0) {
        *bt = sv_bounce_target(c, s, ui, t);
        if (*bt >= 0) {
            if (nb && nb != misses)
                return OPFOR_EINVAL;
            hits[1] = nb ? count_hits(b, nb, need) : sv_roll(s, misses, need);
        }
    }
    if (nb && *bt < 0)
        return OPFOR_EINVAL;
    add_markers(&s->u[t], hits[0]);
    if (*bt >= 0)
        add_markers(&s->u[*bt], hits[1]);
    u->flags |= SV_F_RED;
    u->target = 0xFF;
    int left = 0;
    for (int i = 0; i < s->nunits; i++)
        left |= s->u[i].target != 0xFF;
    if (!left) { /* the node throws nothing more: on to the hand-to-hand phase */
        opfor_action_t roll;
        memset(&roll, 0, sizeof roll);
        roll.kind = SV_A_ROLL;
        roll.unit = roll.target = OPFOR_ACTION_NONE;
        return sv_engine_apply(c, s, &roll);
    }
    return 0;
}

/* The dice unit ui throws when it attacks ti with all its stands (§How do you resolve
 * hand-to-hand combat?: one die a stand, two when it outflanks), its first stand type's
 * (pikes, hand-to-hand weapons) first: into first and second; their scores needed into
 * need[2]. */
void sv_table_melee_dice(const sv_ctx_t *c, const sv_state_t *s, int ui, int ti, int *first,
                         int *second, int need[2]) {
    const sv_unit_t *u = &s->u[ui], *t = &s->u[ti];
    int per = sv_outflanks(c, u, t) ? 2 : 1;
    int f = (u->kind == SV_PM || u->kind == SV_FOOT) ? u->a : u->n;
    *first = f * per;
    *second = (u->n - f) * per;
    need[0] = sv_cv(c, u, 1, t);
    need[1] = sv_cv(c, u, 0, t);
}

/* Unit ui (the unit asked in the hand-to-hand phase, or the one whose attack waits for a
 * re-throw) attacks ti with dice d: its hits into *hits. A unit in command that has not
 * re-thrown stops at its re-throw decision as the engine's own attack does (§Re-throws); a
 * re-throw reported with its dice replaces the attack's. */
int sv_table_melee(const sv_ctx_t *c, sv_state_t *s, int ui, int ti, const int *d, int n,
                   int *hits) {
    sv_unit_t *u = &s->u[ui];
    int first, second, need[2];
    sv_table_melee_dice(c, s, ui, ti, &first, &second, need);
    if (n != first + second)
        return OPFOR_EINVAL;
    *hits = count_hits(d, first, need[0]) + count_hits(d + first, second, need[1]);
    if (s->phase == SV_P_RETHROW) {
        if (s->cur != ui || u->target != ti || (u->flags & SV_F_RETHROWN))
            return OPFOR_EILLEGAL;
        u->flags |= SV_F_RETHROWN;
        s->hits = (uint8_t)*hits;
        opfor_action_t keep;
        memset(&keep, 0, sizeof keep);
        keep.kind = SV_A_KEEP;
        keep.unit = (uint8_t)ui;
        keep.target = OPFOR_ACTION_NONE;
        return sv_engine_apply(c, s, &keep);
    }
    if (s->phase != SV_P_MELEE || s->cur != ui)
        return OPFOR_EILLEGAL;
    u->flags |= SV_F_DECIDED;
    u->target = (uint8_t)ti;
    s->split_left = 0;
    s->split_k = 1;
    s->split_i = 0;
    s->activations++;
    if (!(u->flags & SV_F_RETHROWN) && sv_in_command(c, s, ui)) {
        s->phase = SV_P_RETHROW;
        s->cur = (uint8_t)ui;
        s->side = u->side;
        s->hits = (uint8_t)*hits;
        return 0;
    }
    add_markers(&s->u[ti], *hits);
    sv_settle(c, s);
    return 0;
}

/* How many dice the engine throws when it applies a (on a copy of s, with the game's stream):
 * the throws between the stream before and after. -1 when a is refused or throws over 64. */
static int dice_thrown(const sv_ctx_t *c, const sv_state_t *s, const opfor_action_t *a) {
    sv_state_t x;
    memcpy(&x, s, sizeof x);
    if (sv_engine_apply(c, &x, a) < 0)
        return -1;
    opfor_rng_t r = s->rng;
    for (int n = 0; n <= 64; n++) {
        if (r.state == x.rng.state && r.inc == x.rng.inc)
            return n;
        opfor_rng_d6(&r);
    }
    return -1;
}

int sv_table_deffire_dice(const sv_ctx_t *c, const sv_state_t *s) {
    if (s->phase != SV_P_REACT)
        return -1;
    opfor_action_t a;
    memset(&a, 0, sizeof a);
    a.kind = SV_A_DEFFIRE;
    a.unit = s->charged;
    a.target = s->charger;
    return dice_thrown(c, s, &a);
}

/* §Reactions 6: the charged unit's defensive fire thrown with dice d (as many as the engine
 * throws). What follows from it depends on its hits only (none, one, two or more): the engine
 * throws it from a child stream whose dice fall in the same of those three, and the charger's
 * markers are then the table's hits. */
int sv_table_deffire(const sv_ctx_t *c, sv_state_t *s, const int *d, int n, int *hits) {
    int want = sv_table_deffire_dice(c, s);
    if (want < 0)
        return OPFOR_EILLEGAL;
    if (n != want)
        return OPFOR_EINVAL;
    const sv_unit_t *t = &s->u[s->charged];
    int need = sv_table_fire_need(c, t);
    int h = count_hits(d, n, need), cls = h >= 2 ? 2 : h;
    uint64_t seed = opfor_rng_mix64(s->rng.state ^ opfor_rng_mix64(s->rng.inc));
    for (uint32_t key = 0; key < SV_TABLE_LOAD_TRIES; key++) {
        opfor_rng_t r;
        opfor_rng_derive(&r, seed, key);
        opfor_rng_t x = r;
        int e = 0;
        for (int i = 0; i < n; i++)
            e += opfor_rng_d6(&x) <= need;
        if ((e >= 2 ? 2 : e) != cls)
            continue;
        int ch = s->charger;
        int m0 = s->u[ch].markers;
        s->rng = r;
        opfor_action_t a;
        memset(&a, 0, sizeof a);
        a.kind = SV_A_DEFFIRE;
        a.unit = s->charged;
        a.target = (uint8_t)ch;
        int rc = sv_engine_apply(c, s, &a);
        if (rc < 0)
            return rc;
        int m = m0 + h;
        s->u[ch].markers = (uint8_t)(m > 255 ? 255 : m);
        *hits = h;
        return 0;
    }
    return OPFOR_ERANGE;
}
