/* opfor/ruleset_calc.h — a ruleset's calculator: its actions as typed forms and one answer
 * schema shared by every ruleset.
 *
 * The calculator answers "what do I need, and what are my chances" for one roll or test of
 * the rules, or, given the dice rolled at the table, "what happened". Every ruleset answers in
 * the same opfor_calc_answer_t (dice thrown, score needed, chance, expected value, the whole
 * distribution, named facts such as breakpoints, notes), so `opfor calc RULESET ACTION`, the
 * daemon's calc.* methods and the table page print any ruleset's answers the same way.
 */
#ifndef OPFOR_RULESET_CALC_H
#define OPFOR_RULESET_CALC_H

#include <stddef.h>

#include "opfor/error.h"
#include "opfor/form.h"

#define OPFOR_CALC_MAX_DIST 48     /* outcomes of a distribution */
#define OPFOR_CALC_MAX_FACTS 16    /* named facts */
#define OPFOR_CALC_MAX_NOTES 8     /* lines of working */
#define OPFOR_CALC_MAX_TEXT 2048   /* the ruleset's own wording of its parts, bytes */
#define OPFOR_CALC_MAX_EXTRA 512   /* nodes of the ruleset's own parts */
#define OPFOR_CALC_EXTRA_POOL 8192 /* bytes of their keys and strings */
#define OPFOR_CALC_MAX_DEPTH 16    /* maps and arrays open at once in the extra tree */

/* Parts of an answer a caller may do without (opfor_calc_run_skip): the daemon sends the
 * ruleset's lines of text and the distribution only when a client asks for the shared
 * schema. */
enum {
    OPFOR_CALC_SKIP_TEXT = 1u << 0, /* text: the ruleset's lines for people */
    OPFOR_CALC_SKIP_DIST = 1u << 1  /* dist: the distribution of outcomes */
};

/* One outcome of a roll with several (hits 0..6, a move of 3..18 inches). */
typedef struct opfor_calc_outcome {
    char label[64]; /* "2 hits", "5 in" */
    double value;   /* the outcome as a number */
    double p;       /* its chance */
} opfor_calc_outcome_t;

/* One named number of an answer ("quarter": 3, "modifier": -1). */
typedef struct opfor_calc_fact {
    char name[24];  /* key on the wire: "quarter" */
    char label[48]; /* for people: "Quarter of the army" */
    double value;   /* the number */
    char text[64];  /* how it reads, when not just the number ("3 stands") */
    char unit[8];   /* the number's unit ("in"), shown after it; an infinite value reads
                       "no limit" (nil on the wire) */
} opfor_calc_fact_t;

/* What a node of a ruleset's own parts of an answer holds (see opfor_calc_answer_t.extra). */
typedef enum opfor_calc_node_type {
    OPFOR_CALC_NODE_MAP = 0, /* a map: its entries (nodes with keys) follow, up to its END */
    OPFOR_CALC_NODE_ARRAY,   /* an array: its items (nodes without keys) follow, up to END */
    OPFOR_CALC_NODE_END,     /* closes the latest MAP or ARRAY */
    OPFOR_CALC_NODE_STR,     /* text */
    OPFOR_CALC_NODE_INT,     /* a whole number (num) */
    OPFOR_CALC_NODE_NUM,     /* a number (num; nil on the wire when not finite) */
    OPFOR_CALC_NODE_BOOL,    /* true or false (num 1 or 0) */
    OPFOR_CALC_NODE_NIL      /* nothing */
} opfor_calc_node_type_t;

/* One node: a value, or the start or end of a map or array. */
typedef struct opfor_calc_node {
    int type;   /* opfor_calc_node_type_t */
    int key;    /* offset of its key in the pool (inside a map, and at the top), -1 none */
    int str;    /* STR: offset of its text in the pool */
    int klen;   /* bytes of its key (without the NUL) */
    int slen;   /* STR: bytes of its text (without the NUL) */
    int end;    /* MAP, ARRAY: the node after its END, 0 while it is open */
    int count;  /* MAP, ARRAY: its entries */
    double num; /* INT, NUM, BOOL */
} opfor_calc_node_t;

/* A writer of a ruleset's own parts as they are made (opfor_calc_answer_t.writer): instead of
 * storing each node in the answer's tree, the opfor_calc_extra_* calls hand it to node(), in
 * the same order and under the same limits as the tree, so a caller that only passes the parts
 * on (the daemon packing MessagePack) does it in one pass. type is an opfor_calc_node_type_t;
 * key (klen bytes) is NULL where the tree has no key; s (slen bytes) is the text of a STR,
 * else NULL; num the number of an INT, NUM or BOOL (an INT as the tree holds it, a double).
 * Returns 0, or nonzero when the writer has no room: the answer is then marked overflowed
 * and nothing more is written (the caller may ask again without a writer, for the tree). */
typedef struct opfor_calc_writer {
    void *ctx; /* the writer's own state, passed to node() */
    int (*node)(void *ctx, int type, const char *key, size_t klen, const char *s, size_t slen,
                double num);
} opfor_calc_writer_t;

/* The answer to one calculator question. Clear it before filling (opfor_calc_answer_clear;
 * opfor_calc_run does). */
typedef struct opfor_calc_answer {
    unsigned skip; /* OPFOR_CALC_SKIP_*: parts the caller does without */
    /* A roll the rules forbid (a gun beyond its range, a formation that may not charge) is
     * an answer, not an error: allowed 0 and the reason naming the rule. Front ends show it
     * as such: `opfor calc` prints "Not allowed: REASON" and exits 0, its --json and the
     * daemon's `calc` answer carry "allowed": false and "reason" (every answer carries
     * "allowed"). Bad input (an unknown field, a value out of its range, dice that do not
     * match) is not a forbidden roll: the run hook returns OPFOR_EINVAL naming the field. */
    int allowed;      /* 0: the rules forbid this roll (reason says why) */
    char reason[200]; /* why not, when not allowed */
    char title[64];   /* what was asked: "Rifle fire, veteran at soldier, soft cover" */
    char dice[32];    /* dice thrown: "6D6", "2D6", "1" (a count as notation) */
    int ndice;        /* dice thrown as a number (0 when not fixed) */
    char needed[32];  /* score needed: "4+", "6 then 4+", "8+ on 2D6", "" none */
    double p;         /* chance of success (of the needed score; 0..1) */
    int has_expected; /* 1: expected is meaningful */
    double expected;  /* expected value (hits, inches, casualties) */
    int ndist;        /* outcomes listed (0: a single pass/fail roll) */
    opfor_calc_outcome_t dist[OPFOR_CALC_MAX_DIST];
    int nfacts; /* facts listed */
    opfor_calc_fact_t facts[OPFOR_CALC_MAX_FACTS];
    int nnotes; /* lines of working */
    char notes[OPFOR_CALC_MAX_NOTES][160];
    int rolled;        /* 1: dice rolled at the table were given; outcome says what happened */
    int success;       /* with rolled: 1 when the roll succeeded */
    char outcome[160]; /* with rolled: "2 hits: 5 and 6 beat 4+" */
    /* ---- a ruleset's own parts, beyond the schema (both optional) ---- */
    /* Lines for people (each ending in '\n') wording the parts below; printed after the
     * question and before the facts in place of the generic dice/needed/chance lines. */
    char text[OPFOR_CALC_MAX_TEXT];
    /* Keyed values written into the answer's map (JSON, the wire) after "fields" and before
     * "facts", as a tree of nodes in order (build it with opfor_calc_extra_*). */
    int nextra;
    opfor_calc_node_t extra[OPFOR_CALC_MAX_EXTRA];
    int open[OPFOR_CALC_MAX_DEPTH];   /* the maps and arrays not yet closed, innermost last */
    int depth;                        /* entries of open */
    int pool_used;                    /* bytes of pool in use */
    char pool[OPFOR_CALC_EXTRA_POOL]; /* the nodes' keys and strings, NUL-terminated */
    int overflow;                     /* 1: a part did not fit and was left out */
    /* Optional: where the parts go instead of the tree (set by opfor_calc_run_to, kept by
     * opfor_calc_answer_clear; NULL: the tree). With a writer, nextra stays 0 and nwritten
     * counts the nodes written, against the tree's limits. A run hook clears *out only before
     * adding its first part. */
    const opfor_calc_writer_t *writer;
    int nwritten; /* nodes handed to the writer */
} opfor_calc_answer_t;

/* Clears a for a new answer, keeping a->skip and a->writer (set both first): every count and string
 * emptied, without writing the whole of its arrays (an answer is about 39 KB; the daemon clears one
 * per request). */
void opfor_calc_answer_clear(opfor_calc_answer_t *a);

typedef struct opfor_ruleset_calc {
    const opfor_form_t *actions; /* the calculator's actions, each a form */
    int nactions;
    /* Optional: loads the ruleset's model of chances from a file (NULL: the built-in one)
     * into *model, released with model_free. 0, OPFOR_ENOENT, OPFOR_EPARSE with diag. NULL:
     * the ruleset has no model file (run gets model NULL). */
    int (*model_load)(const char *path, void **model, opfor_diag_t *diag);
    void (*model_free)(void *model);
    /* Answers action `form` (one of actions) with vals[form->nfields] (checked by
     * opfor_form_check first) and, when `rolled` is not NULL or "", the dice rolled at the
     * table ("2,5,1"). 0 and *out (a forbidden roll is 0 with out->allowed 0 and the reason:
     * opfor_calc_forbid), or OPFOR_EINVAL with msg (n bytes) naming the field. *out comes cleared,
     * with out->skip naming the parts the caller does without (the hook may leave them empty). */
    int (*run)(const void *model, const opfor_form_t *form, const opfor_value_t *vals,
               const char *rolled, opfor_calc_answer_t *out, char *msg, size_t n);

    /* ---- optional, beyond the first draft (NULL: the generic behaviour) ---- */

    /* Loads a model from YAML text (a daemon's client may send one inline) into *model,
     * released with model_free; name labels the text in diag. NULL: the calculator takes
     * no inline model. */
    int (*model_load_text)(const char *text, const char *name, void **model, opfor_diag_t *diag);
    /* Reads text as field `field` of form into *v, for fields that take more spellings than
     * opfor_field_parse knows ("20in", aliases) or refusals worded the ruleset's way. text
     * NULL means a bare flag. Same contract as opfor_field_parse (msg names the field as a
     * command-line flag, "--range"). NULL: opfor_field_parse. */
    int (*parse)(const void *model, const opfor_form_t *form, int field, const char *text,
                 opfor_value_t *v, char *msg, size_t n);
    /* What field `field` of form allows, for people ("inches 0-9, or point_blank (to 2 in),
     * ..."), which may depend on the model; into buf (n bytes). NULL: worded from the
     * field's type, limits and choices. */
    const char *(*allowed)(const void *model, const opfor_form_t *form, int field, char *buf,
                           size_t n);
    /* For `opfor calc --help`: what the calculator answers (a paragraph, lines ending in
     * '\n') and example command lines ("  opfor calc NAME ACTION ...\n"). NULL: none. */
    const char *help;
    const char *examples;
    /* Optional: the answer to action `form` as a file another tool reads (A Splendid
     * Victory!'s generated army as a scenario's `units:` list), for `opfor calc NAME ACTION
     * ... --out FILE`. Writes NUL-terminated text into buf (n bytes) and returns its length,
     * or a negative error with msg (OPFOR_ENOTSUP when this action writes no file). NULL: no
     * action writes one. */
    int (*export_file)(const void *model, const opfor_form_t *form, const opfor_value_t *vals,
                       const char *rolled, char *buf, size_t n, char *msg, size_t mn);
} opfor_ruleset_calc_t;

/* ---------------------------------------------------------------- rulesets/calc.c */

/* Reads text as field `field` of form through the calculator's parse hook, or
 * opfor_field_parse without one. text NULL (a bare flag) reads as "yes". */
int opfor_calc_parse(const opfor_ruleset_calc_t *c, const void *model, const opfor_form_t *form,
                     int field, const char *text, opfor_value_t *v, char *msg, size_t n);
/* What field `field` allows, through the allowed hook or worded from the field: the choices
 * ("none, soft, hard"), "yes, no", "0..20", "a number" ... Returns buf. */
const char *opfor_calc_allowed(const opfor_ruleset_calc_t *c, const void *model,
                               const opfor_form_t *form, int field, char *buf, size_t n);
/* Checks vals with opfor_form_check, clears *out (opfor_calc_answer_clear) and runs the
 * action. The run hook's result, or OPFOR_EINVAL with msg. */
int opfor_calc_run(const opfor_ruleset_calc_t *c, const void *model, const opfor_form_t *form,
                   const opfor_value_t *vals, const char *rolled, opfor_calc_answer_t *out,
                   char *msg, size_t n);
/* The same, leaving out the parts named in skip (OPFOR_CALC_SKIP_*). */
int opfor_calc_run_skip(const opfor_ruleset_calc_t *c, const void *model, const opfor_form_t *form,
                        const opfor_value_t *vals, const char *rolled, unsigned skip,
                        opfor_calc_answer_t *out, char *msg, size_t n);
/* The same, the ruleset's own parts handed to writer as they are made instead of stored in
 * out's tree (writer NULL: the tree, as opfor_calc_run_skip). After an answer with
 * out->overflow set, what the writer got may lack parts the tree would keep: ask again with
 * writer NULL for those. */
int opfor_calc_run_to(const opfor_ruleset_calc_t *c, const void *model, const opfor_form_t *form,
                      const opfor_value_t *vals, const char *rolled, unsigned skip,
                      const opfor_calc_writer_t *writer, opfor_calc_answer_t *out, char *msg,
                      size_t n);
/* "12.3%" with one decimal (two below 1%). Returns buf. */
const char *opfor_calc_pct(double p, char *buf, size_t n);
/* The calculator's action names, comma-separated ("fire_rifle, advance, ..."). Returns buf. */
const char *opfor_calc_action_list(const opfor_ruleset_calc_t *c, char *buf, size_t n);
/* The form's field names, comma-separated, each after prefix ("--actor, --target" with
 * prefix "--"; "(none)" without any). Returns buf. */
const char *opfor_calc_field_list(const opfor_form_t *form, const char *prefix, char *buf,
                                  size_t n);
/* The field named name in any action of c (to say which action it belongs to), or NULL. */
const opfor_field_t *opfor_calc_field_anywhere(const opfor_ruleset_calc_t *c, const char *name);
/* Adds a fact (text NULL: none, unit NULL: none); 0, or OPFOR_ERANGE when full (a->overflow
 * set). */
int opfor_calc_fact(opfor_calc_answer_t *a, const char *name, const char *label, double value,
                    const char *unit, const char *text);
/* Marks a as a roll the rules forbid (allowed 0) with the reason, printf-style ("a frame gun
 * cannot fire beyond 20 in"); returns 0, so a run hook may `return opfor_calc_forbid(...)`. */
int opfor_calc_forbid(opfor_calc_answer_t *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Adds a note; 0 or OPFOR_ERANGE when full. */
int opfor_calc_note(opfor_calc_answer_t *a, const char *text);

/* Building the extra tree: each call appends a node with key (NULL inside arrays). 0, or
 * OPFOR_ERANGE when the nodes or the pool are full: a->overflow is then set, nothing more is
 * added, and walkers stop at the first entry left unclosed. With a->writer set, each node goes
 * to the writer instead, under the same limits (a writer's refusal counts as full). */
int opfor_calc_extra_map(opfor_calc_answer_t *a, const char *key);
int opfor_calc_extra_array(opfor_calc_answer_t *a, const char *key);
int opfor_calc_extra_end(opfor_calc_answer_t *a);
int opfor_calc_extra_str(opfor_calc_answer_t *a, const char *key, const char *s);
int opfor_calc_extra_int(opfor_calc_answer_t *a, const char *key, long long v);
int opfor_calc_extra_num(opfor_calc_answer_t *a, const char *key, double v);
int opfor_calc_extra_bool(opfor_calc_answer_t *a, const char *key, int v);
int opfor_calc_extra_nil(opfor_calc_answer_t *a, const char *key);
/* Walking it: the key of node i ("" none), its text (STR), the index just past node i and
 * everything inside it (-1 when it was left unclosed), and the number of complete direct
 * entries of a MAP or ARRAY at i. Walk the top level with
 * `for (i = 0; i >= 0 && i < a->nextra; i = opfor_calc_extra_next(a, i))`, stopping at -1
 * before using an entry whose next is -1. */
const char *opfor_calc_extra_key(const opfor_calc_answer_t *a, int i);
const char *opfor_calc_extra_text(const opfor_calc_answer_t *a, int i);
int opfor_calc_extra_next(const opfor_calc_answer_t *a, int i);
int opfor_calc_extra_count(const opfor_calc_answer_t *a, int i);

#endif
