/* tools/opfor/json_out.c — the streaming JSON writer declared in json_out.h. */
#include "json_out.h"

#include <math.h>

void opfor_json_init(opfor_json_t *j, FILE *out) {
    j->out = out;
    j->depth = 0;
    j->first[0] = 1;
    j->after_key = 0;
}

/* Writes the separator a new value needs at the current depth. */
static void sep(opfor_json_t *j) {
    if (j->after_key) {
        j->after_key = 0;
        return;
    }
    if (j->depth > 0 && !j->first[j->depth])
        fputc(',', j->out);
    j->first[j->depth] = 0;
}

static void open(opfor_json_t *j, char c) {
    sep(j);
    fputc(c, j->out);
    if (j->depth + 1 < OPFOR_JSON_MAX_DEPTH)
        j->depth++;
    j->first[j->depth] = 1;
}

static void close_(opfor_json_t *j, char c) {
    fputc(c, j->out);
    if (j->depth > 0)
        j->depth--;
}

void opfor_json_obj_begin(opfor_json_t *j) {
    open(j, '{');
}
void opfor_json_obj_end(opfor_json_t *j) {
    close_(j, '}');
}
void opfor_json_arr_begin(opfor_json_t *j) {
    open(j, '[');
}
void opfor_json_arr_end(opfor_json_t *j) {
    close_(j, ']');
}

static void raw_str(opfor_json_t *j, const char *s) {
    fputc('"', j->out);
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
        switch (*p) {
        case '"':
            fputs("\\\"", j->out);
            break;
        case '\\':
            fputs("\\\\", j->out);
            break;
        case '\n':
            fputs("\\n", j->out);
            break;
        case '\r':
            fputs("\\r", j->out);
            break;
        case '\t':
            fputs("\\t", j->out);
            break;
        default:
            if (*p < 0x20)
                fprintf(j->out, "\\u%04x", *p);
            else
                fputc(*p, j->out);
        }
    }
    fputc('"', j->out);
}

void opfor_json_key(opfor_json_t *j, const char *key) {
    sep(j);
    raw_str(j, key);
    fputc(':', j->out);
    j->after_key = 1;
}

void opfor_json_str(opfor_json_t *j, const char *s) {
    sep(j);
    if (s)
        raw_str(j, s);
    else
        fputs("null", j->out);
}

void opfor_json_int(opfor_json_t *j, int64_t v) {
    sep(j);
    fprintf(j->out, "%lld", (long long)v);
}

void opfor_json_num(opfor_json_t *j, double v) {
    sep(j);
    if (isfinite(v))
        fprintf(j->out, "%.10g", v);
    else
        fputs("null", j->out);
}

void opfor_json_bool(opfor_json_t *j, int v) {
    sep(j);
    fputs(v ? "true" : "false", j->out);
}

void opfor_json_null(opfor_json_t *j) {
    sep(j);
    fputs("null", j->out);
}

void opfor_json_end(opfor_json_t *j) {
    fputc('\n', j->out);
    fflush(j->out);
}

void opfor_json_kv_str(opfor_json_t *j, const char *key, const char *s) {
    opfor_json_key(j, key);
    opfor_json_str(j, s);
}
void opfor_json_kv_int(opfor_json_t *j, const char *key, int64_t v) {
    opfor_json_key(j, key);
    opfor_json_int(j, v);
}
void opfor_json_kv_num(opfor_json_t *j, const char *key, double v) {
    opfor_json_key(j, key);
    opfor_json_num(j, v);
}
void opfor_json_kv_bool(opfor_json_t *j, const char *key, int v) {
    opfor_json_key(j, key);
    opfor_json_bool(j, v);
}
