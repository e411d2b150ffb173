/* rulesets/viktoria/model_int.h — private to the Viktoria! model loader and its tests.
 *
 * The loader is driven by one flat schema: every leaf of model.yaml is a row naming its
 * dotted path, where it lives in opfor_viktoria_model_t, its type, its allowed span and the
 * order the rules imply against the row before it. Walking a YAML document is then a
 * lookup per scalar, and the tests can enumerate the rows to prove every key loads.
 */
#ifndef OPFOR_VIKTORIA_MODEL_INT_H
#define OPFOR_VIKTORIA_MODEL_INT_H

#include <stddef.h>

#include "opfor/viktoria/model.h"

/* The model text compiled in by CMake (opfor_embed), NUL-terminated. */
extern const unsigned char opfor_viktoria_model_yaml[];
extern const unsigned long opfor_viktoria_model_yaml_len;

typedef enum opfor__vk_type {
    OPFOR__VK_DBL = 0, /* finite double (log-odds term) */
    OPFOR__VK_EDGE,    /* positive double or .inf (bracket edge, inches) */
    OPFOR__VK_INT,     /* whole number (die face, inches) */
    OPFOR__VK_DICE,    /* dice text ("2d6"), stored as opfor_dice_t */
} opfor__vk_type_t;

typedef struct opfor__vk_leaf {
    const char *path;      /* dotted key path in model.yaml, e.g. "fire.hit.sharpshooter" */
    size_t off;            /* byte offset in opfor_viktoria_model_t */
    opfor__vk_type_t type; /* how the scalar is read and stored */
    signed char sign;      /* +1: must be >= 0, -1: must be <= 0, 0: either */
    signed char order;     /* +1: >= the previous leaf, -1: <= it, 0: unrelated */
    double lo, hi;         /* allowed span (inclusive) */
} opfor__vk_leaf_t;

/* The schema rows, in file order; *count receives their number. */
const opfor__vk_leaf_t *opfor__viktoria_schema(size_t *count);

/* The built-in model parsed once, with where each value was set: what every load of a text
 * starts from. opfor_viktoria_model_load_string() makes one per call; a caller that loads
 * many texts (the model fuzz target) makes it once and loads each over it. */
typedef struct opfor__vk_model_base opfor__vk_model_base_t;

/* Parses the built-in model into a new base (*out). On error *out is NULL, diag says why. */
int opfor__viktoria_model_base_new(opfor__vk_model_base_t **out, opfor_diag_t *diag);
/* Frees a base (NULL is a no-op). */
void opfor__viktoria_model_base_free(opfor__vk_model_base_t *b);
/* Exactly opfor_viktoria_model_load_string(text, name, m, diag) with the defaults taken from
 * b (left unchanged, so one base serves any number of loads): same result, same diagnostic. */
int opfor__viktoria_model_load_over(const opfor__vk_model_base_t *b, const char *text,
                                    const char *name, opfor_viktoria_model_t *m,
                                    opfor_diag_t *diag);

#endif
