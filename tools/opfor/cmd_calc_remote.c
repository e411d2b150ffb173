/* tools/opfor/cmd_calc_remote.c — `opfor calc ... --connect ADDR`: the calculator asked of a
 * daemon (opford's `calc` and `calc.list` methods) instead of computed here.
 *
 *   opfor calc viktoria ACTION [--FIELD VALUE ...] [--model FILE] [--json] --connect ADDR
 *   opfor calc viktoria --list [--json] --connect ADDR
 *
 * Same words as the local calculator; fields go to the daemon as text and it checks them, so
 * its errors (naming the field and what is allowed) are printed as they come. The answer is
 * read back into a request and result and printed by the local printer (cmd_calc.c), so the
 * text is the local calculator's; a fact's label and unit, which the answer leaves out, come
 * from the local tables. Useful where the daemon runs a game master's edited model (`model:`
 * in its config).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_calc.h"
#include "game_rpc.h"
#include "opfor/rpc.h"
#include "opfor/viktoria/calc.h"

/* Reads the model file into a fresh buffer (*len bytes); 0, or an exit code after saying why. */
static int read_model(const char *path, char **out, size_t *len) {
    enum { MAX = 1024 * 1024 };
    FILE *f = fopen(path, "rb");
    if (!f)
        return opfor_cli_fail("calc: %s: cannot open: %s", path, strerror(errno));
    char *buf = malloc(MAX + 1);
    size_t n = buf ? fread(buf, 1, MAX + 1, f) : 0;
    int err = ferror(f) ? errno : 0;
    fclose(f);
    if (!buf)
        return opfor_cli_fail("calc: out of memory");
    if (err || n > MAX) {
        free(buf);
        return err ? opfor_cli_fail("calc: %s: cannot read: %s", path, strerror(err))
                   : opfor_cli_fail("calc: %s: larger than 1 MiB", path);
    }
    *out = buf;
    *len = n;
    return 0;
}

/* A daemon's `calc` answer read back into the request and result the local printer takes;
 * the strings live in pool. */
typedef struct reply {
    opfor_viktoria_req_t req;
    opfor_viktoria_result_t res;
    char pool[16384];
    size_t used;
} reply_t;

/* A copy of string object o in r's pool ("" when o is not a string or the pool is full). */
static const char *keep(reply_t *r, const msgpack_object *o) {
    if (!o || o->type != MSGPACK_OBJECT_STR || r->used + o->via.str.size + 1 > sizeof r->pool)
        return "";
    char *s = r->pool + r->used;
    memcpy(s, o->via.str.ptr, o->via.str.size);
    s[o->via.str.size] = '\0';
    r->used += o->via.str.size + 1;
    return s;
}

static const char *keep_key(reply_t *r, const msgpack_object *m, const char *key) {
    return keep(r, opfor__rpc_get(m, key));
}

/* The array under key (NULL when absent); *n its length, capped at max. */
static const msgpack_object *array_at(const msgpack_object *m, const char *key, int max, int *n) {
    const msgpack_object *a = opfor__rpc_get(m, key);
    *n = 0;
    if (!a || a->type != MSGPACK_OBJECT_ARRAY)
        return NULL;
    *n = a->via.array.size < (uint32_t)max ? (int)a->via.array.size : max;
    return a->via.array.ptr;
}

/* The roll whose text is need ("4+", "6, then 6+", "8+ on 2D6"): the scores are not sent
 * apart from the text, and every roll formats differently. 0, or -1 when none matches. */
static int roll_from_text(const char *need, opfor_roll_t *out) {
    char buf[64];
    for (int kind = OPFOR_ROLL_NEVER; kind <= OPFOR_ROLL_2D6; kind++)
        for (int n = 0; n <= 12; n++)
            for (int n2 = 0; n2 <= 6; n2++) {
                opfor_roll_t t = {.kind = (opfor_roll_kind_t)kind, .need = n, .need2 = n2};
                if (strcmp(opfor_roll_format(&t, buf, sizeof buf), need) == 0) {
                    *out = t;
                    return 0;
                }
            }
    return -1;
}

/* Fills a fact's label and unit, which the answer leaves out, from the same action computed
 * here (the request as the daemon read it, else the action's defaults); the key otherwise. */
static void fact_labels(reply_t *r) {
    opfor_viktoria_model_t m;
    opfor_diag_t d;
    opfor_viktoria_req_t def;
    opfor_viktoria_result_t *local = malloc(sizeof *local);
    int ok = local && opfor_viktoria_model_default(&m, &d) == 0;
    if (ok && opfor_viktoria_calc(&m, &r->req, local, &d) != 0)
        ok = opfor_viktoria_req_init(&def, r->res.action) == 0 &&
             opfor_viktoria_calc(&m, &def, local, &d) == 0;
    for (int i = 0; i < r->res.nfacts; i++) {
        opfor_viktoria_fact_t *x = &r->res.facts[i];
        for (int k = 0; ok && k < local->nfacts; k++)
            if (strcmp(local->facts[k].name, x->name) == 0) {
                x->label = local->facts[k].label;
                x->unit = local->facts[k].unit;
            }
    }
    free(local);
}

/* Reads a `calc` answer into r: 0, or -1 when a part cannot be read. */
static int from_reply(const msgpack_object *o, reply_t *r) {
    char buf[160];
    int id = opfor_viktoria_action_find(opfor__rpc_str(o, "action", buf, sizeof buf));
    if (id < 0 || opfor_viktoria_req_init(&r->req, id) != 0)
        return -1;
    opfor_viktoria_result_t *res = &r->res;
    res->action = id;

    /* fields, as opfor_viktoria_req_set reads them */
    const msgpack_object *f = opfor__rpc_get(o, "fields");
    for (uint32_t i = 0; f && f->type == MSGPACK_OBJECT_MAP && i < f->via.map.size; i++) {
        const msgpack_object_kv *kv = &f->via.map.ptr[i];
        char name[64];
        const msgpack_object *v = &kv->val;
        if (kv->key.type != MSGPACK_OBJECT_STR || kv->key.via.str.size >= sizeof name)
            return -1;
        snprintf(name, sizeof name, "%.*s", (int)kv->key.via.str.size, kv->key.via.str.ptr);
        int fid = opfor_viktoria_field_find(name);
        if (fid < 0)
            return -1;
        if (v->type == MSGPACK_OBJECT_NIL) {
            r->req.v[fid] = OPFOR_VK_UNSET;
            continue;
        }
        if (v->type == MSGPACK_OBJECT_BOOLEAN)
            snprintf(buf, sizeof buf, "%s", v->via.boolean ? "yes" : "no");
        else if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
            snprintf(buf, sizeof buf, "%llu", (unsigned long long)v->via.u64);
        else if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
            snprintf(buf, sizeof buf, "%lld", (long long)v->via.i64);
        else if (v->type == MSGPACK_OBJECT_FLOAT32 || v->type == MSGPACK_OBJECT_FLOAT64)
            snprintf(buf, sizeof buf, "%.17g", v->via.f64);
        else if (v->type == MSGPACK_OBJECT_STR)
            snprintf(buf, sizeof buf, "%.*s", (int)v->via.str.size, v->via.str.ptr);
        else
            return -1;
        opfor_diag_t d;
        if (opfor_viktoria_req_set(&r->req, name, buf, &d) != 0)
            return -1;
    }

    int n;
    const msgpack_object *a = array_at(o, "rolls", OPFOR_VK_MAX_ROLLS, &n);
    for (int i = 0; i < n; i++) {
        opfor_viktoria_named_roll_t *x = &res->rolls[i];
        x->name = keep_key(r, &a[i], "name");
        x->label = keep_key(r, &a[i], "label");
        x->dice = keep_key(r, &a[i], "dice");
        x->success = keep_key(r, &a[i], "success");
        x->favours = (int)opfor__rpc_int(&a[i], "favours", 0);
        if (roll_from_text(opfor__rpc_str(&a[i], "need", buf, sizeof buf), &x->roll) != 0)
            return -1;
        x->roll.p_exact = opfor__rpc_num(&a[i], "p_exact", 0);
        x->roll.p_rendered = opfor__rpc_num(&a[i], "p_rendered", 0);
        x->roll.error = opfor__rpc_num(&a[i], "error", 0);
    }
    res->nrolls = n;

    a = array_at(o, "tables", OPFOR_VK_MAX_TABLES, &n);
    for (int i = 0; i < n; i++) {
        opfor_viktoria_table_t *t = &res->tables[i];
        t->name = keep_key(r, &a[i], "name");
        t->label = keep_key(r, &a[i], "label");
        t->dice = keep_key(r, &a[i], "dice");
        const msgpack_object *e = array_at(&a[i], "entries", OPFOR_VK_MAX_ENTRIES, &t->n);
        for (int k = 0; k < t->n; k++) {
            opfor_viktoria_entry_t *x = &t->e[k];
            const msgpack_object *v = opfor__rpc_get(&e[k], "result");
            x->lo = (int)opfor__rpc_int(&e[k], "lo", 0);
            x->hi = (int)opfor__rpc_int(&e[k], "hi", 0);
            x->text = keep_key(r, &e[k], "text");
            x->p = opfor__rpc_num(&e[k], "p", 0);
            x->value = v ? (int)opfor__rpc_int(&e[k], "result", OPFOR_VK_UNSET) : OPFOR_VK_UNSET;
            if (v && v->type == MSGPACK_OBJECT_STR &&
                opfor_vocab_lookup(opfor_compass_names,
                                   opfor__rpc_str(&e[k], "result", buf, sizeof buf),
                                   &x->value) != 0)
                return -1;
        }
    }
    res->ntables = n;

    a = array_at(o, "distances", OPFOR_VK_MAX_DISTS, &n);
    for (int i = 0; i < n; i++) {
        opfor_viktoria_distance_t *x = &res->dists[i];
        opfor_diag_t d;
        x->name = keep_key(r, &a[i], "name");
        x->label = keep_key(r, &a[i], "label");
        if (opfor_dice_parse(opfor__rpc_str(&a[i], "dice", buf, sizeof buf), &x->dice, &d) != 0)
            return -1;
        /* the scale comes as a number: back to the small fraction it was (1/2, 2/1) */
        double scale = opfor__rpc_num(&a[i], "scale", 1);
        x->num = x->den = 1;
        for (int den = 1; den <= 12; den++)
            if (fabs(scale * den - floor(scale * den + 0.5)) < 1e-9) {
                x->num = (int)floor(scale * den + 0.5);
                x->den = den;
                break;
            }
        x->min = opfor__rpc_num(&a[i], "min", 0);
        x->max = opfor__rpc_num(&a[i], "max", 0);
        x->mean = opfor__rpc_num(&a[i], "mean", 0);
    }
    res->ndists = n;

    a = array_at(o, "outcomes", OPFOR_VK_MAX_OUTCOMES, &n);
    for (int i = 0; i < n; i++) {
        opfor_viktoria_outcome_t *x = &res->outcomes[i];
        x->name = keep_key(r, &a[i], "name");
        x->label = keep_key(r, &a[i], "label");
        x->favours = (int)opfor__rpc_int(&a[i], "favours", 0);
        x->p_exact = opfor__rpc_num(&a[i], "p_exact", 0);
        x->p_rendered = opfor__rpc_num(&a[i], "p_rendered", 0);
    }
    res->noutcomes = n;

    /* facts: a map of key to a number (nil: no limit) or a word */
    f = opfor__rpc_get(o, "facts");
    for (uint32_t i = 0; f && f->type == MSGPACK_OBJECT_MAP && i < f->via.map.size &&
                         res->nfacts < OPFOR_VK_MAX_FACTS;
         i++) {
        const msgpack_object_kv *kv = &f->via.map.ptr[i];
        opfor_viktoria_fact_t *x = &res->facts[res->nfacts++];
        x->name = keep(r, &kv->key);
        x->label = x->name;
        x->unit = "";
        x->text = NULL;
        x->value = INFINITY;
        if (kv->val.type == MSGPACK_OBJECT_STR)
            x->text = keep(r, &kv->val);
        else if (kv->val.type == MSGPACK_OBJECT_POSITIVE_INTEGER)
            x->value = (double)kv->val.via.u64;
        else if (kv->val.type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
            x->value = (double)kv->val.via.i64;
        else if (kv->val.type == MSGPACK_OBJECT_FLOAT32 || kv->val.type == MSGPACK_OBJECT_FLOAT64)
            x->value = kv->val.via.f64;
        else if (kv->val.type != MSGPACK_OBJECT_NIL)
            return -1;
    }
    fact_labels(r);

    a = array_at(o, "notes", OPFOR_VK_MAX_NOTES, &n);
    for (int i = 0; i < n; i++)
        res->notes[i] = keep(r, &a[i]);
    res->nnotes = n;
    return 0;
}

int opfor__calc_remote(int argc, char **argv) {
    const char *addr = NULL, *action = NULL, *model = NULL;
    int json = 0, list = 0, nfields = 0;
    const char *fv[64];
    char fk[64][64];
    for (int i = 2; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "--json")) {
            json = 1;
        } else if (!strcmp(s, "--list")) {
            list = 1;
        } else if (!strcmp(s, "--connect") || !strcmp(s, "--model")) {
            if (++i >= argc)
                return opfor_cli_usage_error("calc: %s needs a value", s);
            *(s[2] == 'c' ? &addr : &model) = argv[i];
        } else if (!strncmp(s, "--connect=", 10)) {
            addr = s + 10;
        } else if (!strncmp(s, "--model=", 8)) {
            model = s + 8;
        } else if (!strncmp(s, "--", 2)) {
            if (nfields >= 64)
                return opfor_cli_usage_error("calc: too many fields");
            /* the same forms as the local calculator: --FIELD VALUE, --FIELD=VALUE, a bare
             * flag (yes) and --no-FLAG (no) */
            const char *eq = strchr(s + 2, '=');
            size_t n = eq ? (size_t)(eq - (s + 2)) : strlen(s + 2);
            if (n >= sizeof fk[0])
                n = sizeof fk[0] - 1;
            memcpy(fk[nfields], s + 2, n);
            fk[nfields][n] = 0;
            const opfor_viktoria_field_t *fd =
                opfor_viktoria_field_get(opfor_viktoria_field_find(fk[nfields]));
            const opfor_viktoria_field_t *neg =
                !eq && !fd && !strncmp(fk[nfields], "no-", 3)
                    ? opfor_viktoria_field_get(opfor_viktoria_field_find(fk[nfields] + 3))
                    : NULL;
            if (eq) {
                fv[nfields] = eq + 1;
            } else if (neg && neg->kind == OPFOR_VK_FK_BOOL) {
                memmove(fk[nfields], fk[nfields] + 3, strlen(fk[nfields] + 3) + 1);
                fv[nfields] = "no";
            } else if (neg) {
                return opfor_cli_usage_error("calc: --%s: only flags take no- (--%s is not a "
                                             "flag; write --%s VALUE)",
                                             fk[nfields], fk[nfields] + 3, fk[nfields] + 3);
            } else {
                fv[nfields] = i + 1 < argc && strncmp(argv[i + 1], "--", 2) ? argv[++i] : "yes";
            }
            nfields++;
        } else if (!action) {
            action = s;
        } else {
            return opfor_cli_usage_error("calc: unexpected argument '%s'", s);
        }
    }
    if (!list && !action)
        return opfor_cli_usage_error("calc: missing action (opfor calc viktoria --list shows "
                                     "them)");
    char *yaml = NULL;
    size_t ylen = 0;
    if (model) {
        int rc = read_model(model, &yaml, &ylen);
        if (rc)
            return rc;
    }
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    if (list) {
        msgpack_pack_map(&pk, 1);
        opfor_rpc_pack_cstr(&pk, "ruleset");
        opfor_rpc_pack_cstr(&pk, argv[1]);
    } else {
        msgpack_pack_map(&pk, 3 + (yaml ? 1 : 0));
        opfor_rpc_pack_cstr(&pk, "ruleset");
        opfor_rpc_pack_cstr(&pk, argv[1]);
        opfor_rpc_pack_cstr(&pk, "action");
        opfor_rpc_pack_cstr(&pk, action);
        opfor_rpc_pack_cstr(&pk, "fields");
        msgpack_pack_map(&pk, (size_t)nfields);
        for (int i = 0; i < nfields; i++) {
            opfor_rpc_pack_cstr(&pk, fk[i]);
            opfor_rpc_pack_cstr(&pk, fv[i]);
        }
        if (yaml) {
            opfor_rpc_pack_cstr(&pk, "model");
            msgpack_pack_str(&pk, ylen);
            msgpack_pack_str_body(&pk, yaml, ylen);
        }
    }
    free(yaml);
    opfor_client_t *c = opfor__rpc_open(addr);
    if (!c) {
        msgpack_sbuffer_destroy(&sb);
        return OPFOR_EXIT_FAIL;
    }
    const msgpack_object *res;
    int rc = opfor__rpc_call(c, "calc", list ? "calc.list" : "calc", &sb, &res);
    /* a combination the rules forbid is a wrong command line here too (exit 2, as locally) */
    if (rc && opfor_client_error_code(c) == OPFOR_RPC_E_ILLEGAL)
        rc = OPFOR_EXIT_USAGE;
    if (rc == 0 && json) {
        opfor__rpc_print_json(stdout, res);
    } else if (rc == 0 && list) {
        /* the local --list text, from the daemon's tables (its model's range edges) */
        const msgpack_object *acts = opfor__rpc_get(res, "actions");
        opfor_calc_print_list_head(stdout);
        for (uint32_t i = 0; acts && acts->type == MSGPACK_OBJECT_ARRAY && i < acts->via.array.size;
             i++) {
            const msgpack_object *a = &acts->via.array.ptr[i];
            char name[64], title[128], rules[64], summary[256], allowed[512], def[64];
            opfor_calc_print_list_action(stdout, opfor__rpc_str(a, "name", name, sizeof name),
                                         opfor__rpc_str(a, "title", title, sizeof title),
                                         opfor__rpc_str(a, "rules", rules, sizeof rules),
                                         opfor__rpc_str(a, "summary", summary, sizeof summary));
            const msgpack_object *fl = opfor__rpc_get(a, "fields");
            for (uint32_t k = 0; fl && fl->type == MSGPACK_OBJECT_ARRAY && k < fl->via.array.size;
                 k++) {
                const msgpack_object *x = &fl->via.array.ptr[k];
                opfor_calc_print_list_field(stdout, opfor__rpc_str(x, "name", name, sizeof name),
                                            opfor__rpc_str(x, "allowed", allowed, sizeof allowed),
                                            opfor__rpc_str(x, "default", def, sizeof def));
            }
        }
    } else if (rc == 0) {
        /* the one local printer, so the text matches `opfor calc` without --connect */
        reply_t *r = calloc(1, sizeof *r);
        if (!r)
            rc = opfor_cli_fail("calc: out of memory");
        else if (from_reply(res, r) != 0)
            rc = opfor_cli_fail("calc: the daemon's answer has a part this opfor cannot "
                                "read (a newer opford?); --json shows it as sent");
        else
            opfor_calc_print_text(stdout, &r->req, &r->res, 0);
        free(r);
    }
    msgpack_sbuffer_destroy(&sb);
    opfor_client_close(c);
    return rc;
}
