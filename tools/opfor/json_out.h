/* tools/opfor/json_out.h — a small streaming JSON writer for `--json` output.
 *
 * The writer tracks nesting and commas so callers only say what comes next. Output is
 * compact, one document per line. Strings are escaped per RFC 8259; non-finite numbers
 * are written as null. It never allocates.
 */
#ifndef OPFOR_JSON_OUT_H
#define OPFOR_JSON_OUT_H

#include <stdint.h>
#include <stdio.h>

#define OPFOR_JSON_MAX_DEPTH 32

typedef struct opfor_json {
    FILE *out;
    int depth;                                 /* current nesting */
    unsigned char first[OPFOR_JSON_MAX_DEPTH]; /* 1 until the first member at each depth */
    int after_key;                             /* a key was just written */
} opfor_json_t;

void opfor_json_init(opfor_json_t *j, FILE *out);
void opfor_json_obj_begin(opfor_json_t *j);
void opfor_json_obj_end(opfor_json_t *j);
void opfor_json_arr_begin(opfor_json_t *j);
void opfor_json_arr_end(opfor_json_t *j);
void opfor_json_key(opfor_json_t *j, const char *key);
void opfor_json_str(opfor_json_t *j, const char *s);
void opfor_json_int(opfor_json_t *j, int64_t v);
void opfor_json_num(opfor_json_t *j, double v);
void opfor_json_bool(opfor_json_t *j, int v);
void opfor_json_null(opfor_json_t *j);
/* Ends the document with a newline. */
void opfor_json_end(opfor_json_t *j);

/* Shorthands for "key": value inside an object. */
void opfor_json_kv_str(opfor_json_t *j, const char *key, const char *s);
void opfor_json_kv_int(opfor_json_t *j, const char *key, int64_t v);
void opfor_json_kv_num(opfor_json_t *j, const char *key, double v);
void opfor_json_kv_bool(opfor_json_t *j, const char *key, int v);

#endif
