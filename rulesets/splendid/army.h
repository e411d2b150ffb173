/* rulesets/splendid/army.h — A Splendid Victory!'s army generator (§Appendix – Generating an
 * Army): a player's collection read from YAML, the throws turned into units under the unit
 * limits of §How do stands form a unit?, and the army written as a scenario's `units:` list.
 * The tables are data (model.yaml `army:`, opfor_sv_army_t).
 */
#ifndef OPFOR_SPLENDID_ARMY_H
#define OPFOR_SPLENDID_ARMY_H

#include <stddef.h>
#include <stdint.h>

#include "splendid_int.h"

#define SV_ARMY_MAX_THROWS 20
#define SV_ARMY_MAX_UNITS (SV_ARMY_MAX_THROWS * SV_ARMY_PER_THROW)
#define SV_COLLECTION_MAX 96 /* owned units, counts expanded */
#define SV_NAME_MAX 40

/* One unit a player owns (a collection file's entry, one per `count`). */
typedef struct sv_owned {
    char name[SV_NAME_MAX];
    int type;               /* SV_U_* */
    int stands[SV_S_COUNT]; /* per stand kind */
    int quality;            /* 0 raw, 1 regular, 2 veteran */
    int lance;              /* Mounted: lance-armed */
    int line, col;          /* where the file names it */
} sv_owned_t;

typedef struct sv_collection {
    int n;
    sv_owned_t u[SV_COLLECTION_MAX];
} sv_collection_t;

/* One unit fielded. */
typedef struct sv_fielded {
    char name[SV_NAME_MAX];
    int type;               /* SV_U_* fielded */
    int thrown;             /* SV_U_* the throw gave (differs when substituted) */
    int throw_no;           /* 1-based */
    int stands[SV_S_COUNT]; /* after the limits */
    int trimmed;            /* stands not fielded (over the limits) */
    int quality;
    int lance;
    int owned;    /* index in the collection, -1: a default unit */
    int dropped;  /* 1: not fielded after all (a count limit, R-22) */
    char why[96]; /* when dropped */
} sv_fielded_t;

/* A throw that fielded nothing for one of its types. */
typedef struct sv_missing {
    int throw_no, type;
    char why[96];
} sv_missing_t;

typedef struct sv_army {
    int nthrows;
    int totals[SV_ARMY_MAX_THROWS];
    int nunits; /* fielded and dropped */
    sv_fielded_t units[SV_ARMY_MAX_UNITS];
    int nmissing;
    sv_missing_t missing[SV_ARMY_MAX_UNITS];
    int subs;   /* Sub-Commanders (one Commander besides) */
    int stands; /* every stand fielded, command stands included */
} sv_army_t;

/* How the generator chooses where the table leaves the player a choice (8). */
enum { SV_PICK_AUTO = 0, SV_PICK_FIRST, SV_PICK_SECOND };

/* Reads a collection file (path) or text (name labels it) into *c. 0, or OPFOR_EPARSE /
 * OPFOR_ERANGE / OPFOR_ENOENT with diag (file, line and column). */
int sv_collection_load(const opfor_sv_army_t *tab, const char *path, sv_collection_t *c,
                       opfor_diag_t *diag);
int sv_collection_load_text(const opfor_sv_army_t *tab, const char *text, size_t len,
                            const char *name, sv_collection_t *c, opfor_diag_t *diag);

/* Fields the throws totals[0..n) (each 2..12): from collection c (NULL: the table's default
 * units), substituting when subst is set, choosing by pick, then applying the limits
 * (heavy_floor: the floor reading of R-15). Fills *army. */
void sv_army_field(const opfor_sv_army_t *tab, const int *totals, int n, const sv_collection_t *c,
                   int subst, int pick, int heavy_floor, sv_army_t *army);

/* Writes army as a scenario's `units:` list (docs/splendid.md section 6) for side, drawn up
 * along edge ("bottom" or "top"), into buf (n bytes). The length, or -1 when it does not fit. */
int sv_army_yaml(const sv_army_t *army, const char *side, int top_edge, char *buf, size_t n);

/* A unit's stands, all kinds. */
int sv_stands_of(const int *stands);

#endif
