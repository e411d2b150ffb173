/* opfor/viktoria/model.h — the numbers behind the Viktoria! calculator.
 *
 * The rules (seed 000, sections V.B and VI to XIII) name the fields of the game app but print
 * none of its numbers, so opfor supplies a model: every chance is a base log-odds by quality
 * plus one additive log-odds term per field, turned into a chance by the logistic function
 * and only then rendered as a dice roll. docs/viktoria-model.md explains the scale and lists
 * every default. The defaults live in rulesets/viktoria/model.yaml, compiled into the binary;
 * a game master may load an edited copy. The model is one plain struct (no pointers), loaded
 * once and copied with memcpy; queries only read it.
 */
#ifndef OPFOR_VIKTORIA_MODEL_H
#define OPFOR_VIKTORIA_MODEL_H

#include "opfor/dice.h"
#include "opfor/error.h"
#include "opfor/vocab.h"

/* Range brackets, nearest first. Each ranged thing has its own four upper edges. */
typedef enum opfor_viktoria_bracket {
    OPFOR_VK_POINT_BLANK = 0,
    OPFOR_VK_SHORT,
    OPFOR_VK_MEDIUM,
    OPFOR_VK_LONG,
    OPFOR_VK_BRACKET_COUNT
} opfor_viktoria_bracket_t;

/* Things measured in range brackets. */
typedef enum opfor_viktoria_ranged {
    OPFOR_VK_R_PISTOL = 0, /* 9 in at most (VI) */
    OPFOR_VK_R_CARBINE,    /* 36 in at most (VI) */
    OPFOR_VK_R_RIFLE,      /* no limit on the table (VI) */
    OPFOR_VK_R_MG,         /* no limit on the table (VI) */
    OPFOR_VK_R_ARTILLERY,  /* field guns, and off-board fire at the longest bracket (IX) */
    OPFOR_VK_R_BOMB,       /* 6 in at most (VI) */
    OPFOR_VK_R_MESMERISM,  /* 9 in at most (VI, XII.B) */
    OPFOR_VK_R_COUNT
} opfor_viktoria_ranged_t;

/* Personal firearms: the first three ranged things. */
#define OPFOR_VK_FIREARM_COUNT 3

/* Targets and testers are a quality, or Transport (wagons, guns, vehicles, walkers: IX,
 * XII.C, XII.E). Transport takes the slot after the last quality. */
#define OPFOR_VK_TRANSPORT OPFOR_Q_COUNT
#define OPFOR_VK_CLASS_COUNT (OPFOR_Q_COUNT + 1)

/* Hand-to-hand weapons (VI, X). */
typedef enum opfor_viktoria_melee {
    OPFOR_VK_SWORD = 0,
    OPFOR_VK_LANCE,
    OPFOR_VK_BAYONET, /* or spear */
    OPFOR_VK_DAGGER,  /* dagger, club, improvised weapon */
    OPFOR_VK_MELEE_COUNT
} opfor_viktoria_melee_t;

/* What a blast comes from (IX): a thrown bomb, a field gun's shell, a heavy gun's shell. */
typedef enum opfor_viktoria_blast {
    OPFOR_VK_BLAST_BOMB = 0,
    OPFOR_VK_BLAST_SHELL,
    OPFOR_VK_BLAST_HEAVY,
    OPFOR_VK_BLAST_COUNT
} opfor_viktoria_blast_t;

/* Effect tables: what a hit that is not saved does (one D6, see opfor_viktoria_effect_t). */
typedef enum opfor_viktoria_effect_kind {
    OPFOR_VK_EFFECT_FIREARM = 0,
    OPFOR_VK_EFFECT_MG,
    OPFOR_VK_EFFECT_BLAST,
    OPFOR_VK_EFFECT_SWORD,
    OPFOR_VK_EFFECT_LANCE,
    OPFOR_VK_EFFECT_BAYONET,
    OPFOR_VK_EFFECT_DAGGER,
    OPFOR_VK_EFFECT_COUNT
} opfor_viktoria_effect_kind_t;

/* Movement actions (VI, VIII). */
typedef enum opfor_viktoria_move {
    OPFOR_VK_MOVE_ADVANCE = 0,
    OPFOR_VK_MOVE_RUN, /* run on foot, gallop mounted */
    OPFOR_VK_MOVE_CHARGE,
    OPFOR_VK_MOVE_CRAWL,
    OPFOR_VK_MOVE_COUNT
} opfor_viktoria_move_t;

/* One D6 after a failed save (or a failed test): below `wound` a scratch, from `wound` a
 * wound, from `kill` dead; a figure already wounded dies from `wounded_kill`. A face of 7
 * means "never". */
typedef struct opfor_viktoria_effect {
    int wound;        /* lowest face that wounds an unwounded figure, 1..7 */
    int kill;         /* lowest face that kills an unwounded figure, wound..7 */
    int wounded_kill; /* lowest face that kills a wounded figure, 1..kill */
} opfor_viktoria_effect_t;

/* Every coefficient. Log-odds terms are added, then p = sigmoid(sum). Arrays indexed by
 * quality run civilian..elite; by class, civilian..elite then transport. */
typedef struct opfor_viktoria_model {
    int version; /* model file format, 1 */
    /* Upper edge of each bracket in inches; the last may be +infinity (no limit). */
    double range_edge[OPFOR_VK_R_COUNT][OPFOR_VK_BRACKET_COUNT];

    struct {
        double actor[OPFOR_Q_COUNT];         /* firer's quality: the base chance */
        double target[OPFOR_VK_CLASS_COUNT]; /* how hard the target is to hit */
        double cover[OPFOR_COVER_COUNT];     /* cover conceals the target */
        double range[OPFOR_VK_FIREARM_COUNT] /* by weapon and bracket */
                    [OPFOR_VK_BRACKET_COUNT];
        double target_running; /* target running or galloping */
        double target_prone;   /* target prone or crawling */
        double moving;         /* firer moving (moving fire) */
        double actor_wounded;  /* firer wounded */
        double target_wounded; /* target wounded: easier to hit (IX) */
        double actor_mounted;  /* firing from the saddle */
        double target_mounted; /* a rider is a bigger target */
        double sharpshooter;   /* expert shot (IV) */
    } fire_hit;                /* to hit with pistol, carbine, rifle */

    struct {
        double target[OPFOR_VK_CLASS_COUNT]; /* base save by the target's class */
        double cover[OPFOR_COVER_COUNT];     /* cover that stops bullets */
        double weapon[OPFOR_VK_FIREARM_COUNT];
        double range[OPFOR_VK_BRACKET_COUNT]; /* spent bullets at long range */
        double target_wounded;
        double target_mounted;
    } fire_save; /* the target's saving throw against personal firearms */

    struct {
        double actor[OPFOR_VK_CLASS_COUNT]; /* the tester's class */
        double cover[OPFOR_COVER_COUNT];
        double range[OPFOR_VK_BRACKET_COUNT];
        double actor_mounted;
        double moving; /* the MG fires from a moving platform */
    } mg;              /* test versus MG: chance to pass (not be hit) */

    struct {
        double actor[OPFOR_VK_CLASS_COUNT];
        double cover[OPFOR_COVER_COUNT];
        double blast[OPFOR_VK_BLAST_COUNT];
        double actor_mounted;
    } blast; /* test versus blast: chance to pass (unharmed) */

    struct {
        double range[OPFOR_VK_BRACKET_COUNT]; /* chance the shell lands on the aim point */
        opfor_dice_t deviation[OPFOR_VK_BRACKET_COUNT]; /* inches when it misses */
    } artillery;

    struct {
        double actor[OPFOR_Q_COUNT];
        double range[OPFOR_VK_BRACKET_COUNT];
        opfor_dice_t deviation[OPFOR_VK_BRACKET_COUNT];
    } bomb; /* chance the bomb lands on the aim point */

    struct {
        int need;       /* 2D6 score for fire to arrive with no registration */
        int comms_fail; /* a natural total at or below this loses communications */
    } support;          /* call for supporting (off-board) fire */

    struct {
        double actor[OPFOR_Q_COUNT];
        double target[OPFOR_Q_COUNT]; /* the defender's skill */
        double cover[OPFOR_COVER_COUNT];
        double weapon[OPFOR_VK_MELEE_COUNT];
        double weapon_charging[OPFOR_VK_MELEE_COUNT]; /* extra for this weapon when charging */
        double charging;                              /* attacker charging (X) */
        double actor_mounted;
        double target_mounted;
        double actor_wounded;
        double target_wounded;
    } melee_hit;

    struct {
        double target[OPFOR_Q_COUNT];
        double cover[OPFOR_COVER_COUNT];
        double weapon[OPFOR_VK_MELEE_COUNT];
        double target_wounded;
        double target_mounted;
    } melee_save;

    opfor_viktoria_effect_t effect[OPFOR_VK_EFFECT_COUNT];

    struct {
        double actor[OPFOR_Q_COUNT];  /* the mesmerist */
        double target[OPFOR_Q_COUNT]; /* the subject's strength of will */
        double range[OPFOR_VK_BRACKET_COUNT];
    } mesmerise;

    struct {
        double actor[OPFOR_Q_COUNT];
    } resist; /* test versus mesmerism: chance to break the spell */

    struct {
        double actor[OPFOR_Q_COUNT];
    } heal; /* heal / bind wounds: chance the wound is bound */

    struct {
        double actor[OPFOR_Q_COUNT]; /* best quality in the unit */
        double general;
        double musician;
        double colours;
        double half_strength;
    } morale, rally; /* check morale, rally: chance to pass */

    struct {
        double actor[OPFOR_Q_COUNT]; /* the unit leader's quality */
        double per_inch;             /* per inch beyond the command radius */
    } command;                       /* test for out-of-command: chance to act freely */

    struct {
        int foot[OPFOR_VK_MOVE_COUNT][OPFOR_Q_COUNT];    /* X inches on foot */
        int mounted[OPFOR_VK_MOVE_COUNT][OPFOR_Q_COUNT]; /* X inches mounted (no crawl) */
        int transport_foot[2];    /* transport advance, run: drawn at a walk */
        int transport_mounted[2]; /* transport advance, run: horse-drawn at speed */
        int wounded;              /* added to X when wounded (advance, run, charge) */
        int crawl_wounded;        /* added to X when a wounded figure crawls */
    } move;

    struct {
        int level_down; /* D6 faces up to this lower the level one step (0: never) */
        int level_up;   /* D6 faces from this raise it one step (7: never) */
        int back2;      /* 2D6 totals up to this back the wind two points */
        int back1;      /* ... up to this (above back2) back it one point */
        int veer1;      /* 2D6 totals from this veer it one point */
        int veer2;      /* ... from this veer it two points */
    } weather;
} opfor_viktoria_model_t;

/* Fills *m with the built-in defaults (rulesets/viktoria/model.yaml as compiled in).
 * Returns 0, or a negative OPFOR_E* code with diag filled if the embedded text is broken
 * (a build error: tests guard against it). */
int opfor_viktoria_model_default(opfor_viktoria_model_t *m, opfor_diag_t *diag);

/* Loads an edited model from path: the defaults first, then every value the file names.
 * A partial file changes only what it names. Unknown keys, bad values, values that break
 * an order the rules imply (a veteran worse than a soldier, cover that helps the firer)
 * and YAML syntax errors fail with OPFOR_EPARSE (OPFOR_EIO if unreadable) and diag naming
 * file:line:column. On error *m is untouched. */
int opfor_viktoria_model_load_file(const char *path, opfor_viktoria_model_t *m, opfor_diag_t *diag);

/* As load_file, from text in memory; name is used in diagnostics. */
int opfor_viktoria_model_load_string(const char *text, const char *name, opfor_viktoria_model_t *m,
                                     opfor_diag_t *diag);

/* Names of brackets ("point_blank", ...), ranged things ("pistol", ...), melee weapons,
 * blasts, effect tables, moves; tables end with {NULL, 0} as in vocab.h. */
extern const opfor_name_t opfor_viktoria_bracket_names[];
extern const opfor_name_t opfor_viktoria_ranged_names[];
extern const opfor_name_t opfor_viktoria_melee_names[];
extern const opfor_name_t opfor_viktoria_blast_names[];
extern const opfor_name_t opfor_viktoria_effect_names[];
extern const opfor_name_t opfor_viktoria_move_names[];
/* civilian..elite then transport. */
extern const opfor_name_t opfor_viktoria_class_names[];

/* The bracket that inches falls in for a ranged thing: 0..3, or OPFOR_ERANGE when beyond
 * its last edge, OPFOR_EINVAL when negative or not a number. */
int opfor_viktoria_bracket_of(const opfor_viktoria_model_t *m, opfor_viktoria_ranged_t r,
                              double inches);
/* The bracket of fire at or from a flying craft (XII.D): the bracket of the tabletop distance,
 * one bracket further for each altitude level between firer and target (levels >= 0). Past
 * the last bracket the target is out of range (OPFOR_ERANGE), unless that bracket has no
 * limit (.inf: rifles, MGs, guns), which it then stays in. Errors as opfor_viktoria_bracket_of. */
int opfor_viktoria_bracket_aloft(const opfor_viktoria_model_t *m, opfor_viktoria_ranged_t r,
                                 double inches, int levels);

#endif
