/* rulesets/splendid/splendid_int.h — A Splendid Victory!'s internals shared by its files:
 * the calculator's descriptor and the small pieces of the rules it and the game stub use.
 */
#ifndef OPFOR_SPLENDID_INT_H
#define OPFOR_SPLENDID_INT_H

#include "opfor/ruleset.h"
#include "opfor/ruleset_calc.h"

extern const opfor_ruleset_calc_t opfor__sv_calc;

/* One rank's command (§Command, §Variable Command Quality): the range without variable
 * quality, and per quality (charismatic, inspiring, impersonal) the highest face of 1D6 that
 * gives it and its range, inches. */
typedef struct opfor_sv_command {
    int basic;
    int top[3];
    int range[3];
} opfor_sv_command_t;

/* Who may charge in open order (model.yaml readings.open_order_may_charge, R-16). */
enum { SV_OO_NONE = 0, SV_OO_MOUNTED, SV_OO_ALL };

/* The army generator (§Appendix – Generating an Army), all data (model.yaml `army:`). */
enum {
    SV_U_PIKE_MUSKET = 0, /* Pike and Musket */
    SV_U_FOOT,            /* Foot */
    SV_U_HEAVY_MOUNTED,   /* Heavy Mounted */
    SV_U_MOUNTED,         /* Mounted */
    SV_U_DRAGOON,         /* Dragoon */
    SV_U_FRAME_GUN,       /* artillery: a frame gun stand */
    SV_U_REGULAR_GUN,     /* artillery: a regular artillery stand */
    SV_U_HEAVY_GUN,       /* artillery: a heavy artillery stand */
    SV_U_COUNT
};
/* Stand kinds a unit is made of (a Pike and Musket unit mixes pikes and muskets, a Foot unit
 * hand-to-hand and light stands; every other unit has one kind). */
enum {
    SV_S_PIKE = 0,
    SV_S_MUSKET,
    SV_S_HAND_TO_HAND,
    SV_S_LIGHT,
    SV_S_HEAVY_MOUNTED,
    SV_S_MOUNTED,
    SV_S_DRAGOON,
    SV_S_FRAME_GUN,
    SV_S_REGULAR_GUN,
    SV_S_HEAVY_GUN,
    SV_S_COUNT
};
#define SV_ARMY_PER_THROW 3 /* units one throw may field */
#define SV_ARMY_SUBST 3     /* substitutes tried for a missing type */

typedef struct opfor_sv_army {
    /* per 2D6 total (index 2..12): the unit types fielded, SV_U_* (-1 ends); a choice
     * entry (8: Pike and Musket or Foot) lists both with choice set */
    signed char table[13][SV_ARMY_PER_THROW];
    unsigned char choice[13]; /* 1: the player picks one of the entry's types */
    /* per unit type: the stands of a default unit (no collection), per stand kind */
    unsigned char size[SV_U_COUNT][SV_S_COUNT];
    unsigned char min[SV_U_COUNT], max[SV_U_COUNT]; /* a unit's stands (§How do stands ...) */
    /* per unit type: the types that may stand in for it, in order (-1 ends), used only
     * when substitution is asked for */
    signed char subst[SV_U_COUNT][SV_ARMY_SUBST];
    unsigned char foot_average, mounted_average; /* stands per unit, at most */
    unsigned char heavy_per;                     /* one Heavy Mounted unit in every N mounted */
    unsigned char sub_per;                       /* one Sub-Commander per N other units */
} opfor_sv_army_t;

extern const char *const opfor__sv_unit_names[SV_U_COUNT];  /* "pike_and_musket", ... */
extern const char *const opfor__sv_unit_titles[SV_U_COUNT]; /* "Pike and Musket", ... */
extern const char *const opfor__sv_stand_names[SV_S_COUNT]; /* "pike", ... */

/* Terrain types of docs/splendid.md 5 (model.yaml `terrain:`): what a feature costs to move
 * through and what it changes in fire and hand-to-hand. Core's terrain kinds map onto them
 * (sv_terrain_type, engine_geom.c): woods; building as town; wall, hedge, fence and field works
 * as enclosures; rough ground as marsh; river; hill; road; open and impassable as open. */
enum {
    SV_T_OPEN = 0,
    SV_T_WOODS,
    SV_T_ENCLOSURES,
    SV_T_TOWN,
    SV_T_MARSH,
    SV_T_RIVER,
    SV_T_HILL,
    SV_T_ROAD,
    SV_T_COUNT
};
extern const char *const opfor__sv_terrain_names[SV_T_COUNT + 1]; /* "open", ...; NULL ends */

/* One terrain type's numbers (design, a game master's to change): inches of allowance spent
 * per inch moved inside (column_only: only for road columns, others as open); dice added to
 * fire at a unit inside (bounce-through included); CV added to a foot stand fighting from
 * inside. */
typedef struct opfor_sv_terrain {
    float move_factor;
    int column_only;
    int fire_dice;
    int cv;
} opfor_sv_terrain_t;

/* The calculator's model (model.yaml): per quality (raw, regular, veteran) the fire and
 * charge scores needed (that or less) and the hand-to-hand bonus; the commander's and a
 * sub-commander's command; the readings a game master may switch. */
typedef struct opfor_sv_model {
    int fire_need[3];
    int charge_need[3];
    int melee_bonus[3];
    opfor_sv_command_t command[2];
    int open_order_may_charge;  /* SV_OO_*: who may charge in open order */
    int command_stand_mounted;  /* 1: a command stand is a mounted stand in melee */
    int always_open_cv_penalty; /* 1: artillery crews and command stands -1 CV */
    int bounce_any_band;        /* 1: the first shot may be at any band */
    int quality_on_bounce;      /* 1: quality changes the bounce dice too */
    int heavy_mounted_floor;    /* 1: Heavy Mounted <= floor(mounted / 15), else ceil */
    opfor_sv_army_t army;       /* the army generator's tables (§Appendix) */
    opfor_sv_terrain_t terrain[SV_T_COUNT]; /* docs/splendid.md 5 (design) */
} opfor_sv_model_t;

/* The numbers of model.yaml as compiled in, used when a caller passes no model (its army
 * tables are opfor__sv_army_builtin: sv_army_of). */
extern const opfor_sv_model_t opfor__sv_model_builtin;
extern const opfor_sv_army_t opfor__sv_army_builtin;

/* The army tables of model (NULL: the built-in ones). */
static inline const opfor_sv_army_t *opfor__sv_army_of(const opfor_sv_model_t *model) {
    return model ? &model->army : &opfor__sv_army_builtin;
}

/* Reads model.yaml's `army:` map over *a (army_model.c). */
struct opfor_yaml_rd;
struct fy_node;
int opfor__sv_army_read(struct opfor_yaml_rd *rd, struct fy_node *n, struct fy_node *alt,
                        opfor_sv_army_t *a);
/* Reads a `terrain:` map (model.yaml's, or a scenario's splendid: block) over m->terrain: per
 * type, move_factor, column_only, fire_dice, cv; a type or field left out keeps its value. */
int opfor__sv_terrain_read(struct opfor_yaml_rd *rd, struct fy_node *n, struct fy_node *alt,
                           opfor_sv_model_t *m);
/* 1 when unit type (SV_U_*) may hold stands of kind (SV_S_*). */
int opfor__sv_kind_fits(int type, int kind);
/* Index of name among names[n] (case-insensitive, '-' and ' ' as '_'), or -1. */
int opfor__sv_name_index(const char *const *names, int n, const char *name);

/* model.yaml compiled in (path NULL), or an edited copy over it; released with
 * opfor__sv_model_free. 0, OPFOR_ENOENT or a parse error with diag (line and column). */
int opfor__sv_model_load(const char *path, void **model, opfor_diag_t *diag);
int opfor__sv_model_load_text(const char *text, const char *name, void **model, opfor_diag_t *diag);
void opfor__sv_model_free(void *model);

/* The breakpoint values of an army of `stands` stands (§The Determine Victory Phase): a
 * quarter, a third and a half, each rounded up. */
void opfor__sv_breakpoints(int stands, int *quarter, int *third, int *half);

#endif
