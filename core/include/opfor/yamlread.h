/* opfor/yamlread.h — typed readers over a parsed YAML document (libfyaml nodes).
 *
 * The scenario loader (core/scenario.c) and a ruleset's own settings files
 * walk their documents with a strict schema: an unknown
 * key, a value of the wrong kind or out of range is reported at its line and column with what
 * was expected. These readers are that shared walk. Each takes the node to read, a fallback
 * node (alt) whose position is used when the node has none, and a short name of what is read
 * (`what`) for the message. Only the first error is kept: once one is recorded, every reader
 * returns it without looking further.
 */
#ifndef OPFOR_YAMLREAD_H
#define OPFOR_YAMLREAD_H

#include <stdarg.h>
#include <stddef.h>

#include "opfor/error.h"
#include "opfor/vocab.h"

struct fy_node;

/* A reader's state. The two documents read differ in a few details, chosen by strict:
 *   strict = 1 (scenarios): a missing value or an alias is reported as such before its kind is
 *     looked at; every value is read as text of at most 255 bytes, and longer text or a NUL
 *     inside is an error; numbers beyond -1e9..1e9 are not numbers.
 *   strict = 0 (a ruleset's settings): a missing value or an alias is a value of the wrong
 *     kind; numbers are text of at most 63 bytes (longer is an error), while a name longer
 *     than 63 bytes or a true/false longer than 15 is simply not a known value. */
typedef struct opfor_yaml_rd {
    opfor_diag_t *diag; /* receives the first error; its file is set by the caller */
    int err;            /* first error, 0 while none */
    int strict;
} opfor_yaml_rd_t;

/* One key of a mapping: its name and, once read, its key and value nodes. */
typedef struct opfor_yaml_field {
    const char *key;
    struct fy_node *k;
    struct fy_node *v;
} opfor_yaml_field_t;

/* 1-based line and column of a node: a scalar's own token; a collection's first key or item.
 * 0 when the node has none (an empty collection, or NULL). */
struct fy_document;
/* Parses text (len bytes) into *doc with libfyaml quietly, its syntax errors collected: 0 with
 * *doc to release with fy_document_destroy (NULL, and 0, for a text that is empty or only
 * comments: the caller decides whether that is allowed), or OPFOR_EPARSE with d
 * at the first error's line and column ("YAML syntax: ..."), OPFOR_ENOMEM. The one way every
 * reader of a YAML text starts (models, collections, scenarios). */
int opfor_yaml_parse(const char *text, size_t len, struct fy_document **doc, opfor_diag_t *d);

void opfor_yaml_mark(struct fy_node *n, int *line, int *col);

/* Fills d with the message at node n (or alt when n has no position), under err. */
void opfor_yaml_vreport(opfor_diag_t *d, int err, struct fy_node *n, struct fy_node *alt,
                        const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

/* Records the first error at node n (or alt when n has no position) and returns it; when an
 * error is already recorded, returns that one and records nothing. */
int opfor_yaml_fail(opfor_yaml_rd_t *rd, int err, struct fy_node *n, struct fy_node *alt,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* A scalar quoted for a message (at most 40 characters, non-printable ones as '?'), or
 * "a list", "a mapping", "nothing". buf is used for the scalar; 48 bytes suffice. */
const char *opfor_yaml_shown(struct fy_node *n, char *buf, size_t size);

/* Each of these returns 0, or the first error (negative) once one is recorded. */

/* n is present and not an alias. */
int opfor_yaml_not_alias(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                         const char *what);
/* n is a mapping / a sequence (present and not an alias). */
int opfor_yaml_want_map(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                        const char *what);
int opfor_yaml_want_seq(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                        const char *what);

/* Copies a scalar's text into buf (NUL-terminated): shorter than size, no NUL inside. */
int opfor_yaml_get_str(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                       const char *what, char *buf, size_t size);
/* A number within lo..hi. */
int opfor_yaml_get_num(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                       const char *what, double lo, double hi, double *out);
/* A whole number within lo..hi. */
int opfor_yaml_get_int(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                       const char *what, long lo, long hi, int *out);
/* true/yes/on or false/no/off, in any case. */
int opfor_yaml_get_bool(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                        const char *what, int *out);
/* One of table's names; the error lists them. */
int opfor_yaml_get_enum(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                        const char *what, const opfor_name_t *table, int *out);

/* How opfor_yaml_get_bits combines names. */
#define OPFOR_YAML_BITS_SHIFT 1u /* a name's value v stands for bit 1 << v (else v is the bit) */
#define OPFOR_YAML_BITS_NONE 2u  /* the single name "none" stands for no bits */
/* Bits from one of table's names or a list of them ([] for none), or'ed together. */
int opfor_yaml_get_bits(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                        const char *what, const opfor_name_t *table, unsigned how, unsigned *out);

/* Reads mapping n into f[0..nf) (values stay NULL for absent keys). An unknown or non-scalar
 * key is an error listing the allowed keys, and so is a key without a value. */
int opfor_yaml_read_fields(opfor_yaml_rd_t *rd, struct fy_node *n, struct fy_node *alt,
                           const char *what, opfor_yaml_field_t *f, int nf);

#endif
