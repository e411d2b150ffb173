/* tools/opfor/cmd_calc_remote.c — `opfor calc ... --connect ADDR`: any ruleset's calculator
 * asked of a daemon (opford's `calc` and `calc.list` methods) instead of computed here.
 *
 *   opfor calc RULESET ACTION [--FIELD VALUE ...] [--rolled DICE] [--model FILE] [--json]
 *       --connect ADDR
 *   opfor calc RULESET --list [--json] --connect ADDR
 *
 * Same words as the local calculator; fields go to the daemon as text and it checks them, so
 * its errors (naming the field and what is allowed) are printed as they come. The answer is
 * read back into values and the shared answer schema and printed by the local printer
 * (cmd_calc.c), so the text is the local calculator's; a fact's label and unit, which the
 * answer leaves out, come from the same action computed here. Useful where the daemon runs a
 * game master's edited model (`model:` in its config).
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
#include "opfor/rpc_num.h"
#include "opfor/vocab.h"

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

/* A daemon's `calc` answer read back into the values and answer the local printer takes;
 * strings the values point at live in pool. */
typedef struct reply {
    const opfor_form_t *form;
    opfor_value_t vals[64];
    opfor_calc_answer_t ans;
    char pool[4096];
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

/* String o into buf (n bytes); "" when it is not a string. */
static const char *str_of(const msgpack_object *o, char *buf, size_t n) {
    if (!o || o->type != MSGPACK_OBJECT_STR)
        snprintf(buf, n, "%s", "");
    else
        snprintf(buf, n, "%.*s", (int)o->via.str.size, o->via.str.ptr);
    return buf;
}

/* The index of name among fd's choices, or -1. */
static int choice_of(const opfor_field_t *fd, const char *name) {
    for (int k = 0; fd->choices && fd->choices[k]; k++)
        if (opfor_vocab_name_eq(fd->choices[k], name))
            return k;
    return -1;
}

/* One field's value from the answer's "fields" map: 0, or -1 when it cannot be read. */
static int value_from(reply_t *r, const opfor_field_t *fd, const msgpack_object *o,
                      opfor_value_t *v) {
    char buf[160];
    memset(v, 0, sizeof *v);
    if (o->type == MSGPACK_OBJECT_NIL)
        return 0; /* unset */
    v->set = 1;
    if (o->type == MSGPACK_OBJECT_BOOLEAN) {
        v->num = o->via.boolean;
        return 0;
    }
    if (opfor_rpc_num(o, &v->num) == 0)
        return 0;
    if (o->type != MSGPACK_OBJECT_STR)
        return -1;
    str_of(o, buf, sizeof buf);
    int k = choice_of(fd, buf);
    if (fd->type == OPFOR_FIELD_CHOICE && k < 0)
        return -1;
    if (k >= 0) {
        v->num = k;
        v->named = fd->type != OPFOR_FIELD_CHOICE;
        return 0;
    }
    v->text = keep(r, o);
    return 0;
}

/* Fills a fact's label and unit, which the answer leaves out, from the same action computed
 * here with the built-in model (the fields as the daemon read them and the dice rolled, else
 * without the dice, else the action's defaults); the key otherwise. */
static void fact_labels(const opfor_ruleset_calc_t *c, reply_t *r, const char *rolled) {
    void *model = NULL;
    opfor_diag_t d;
    char msg[256];
    opfor_value_t none[64];
    opfor_calc_answer_t *local = malloc(sizeof *local);
    int ok = local && (!c->model_load || c->model_load(NULL, &model, &d) == 0);
    /* with the dice rolled too: some facts come only with an outcome (an army's units) */
    if (ok &&
        (opfor_calc_run(c, model, r->form, r->vals, rolled, local, msg, sizeof msg) != 0 ||
         !local->allowed) &&
        (opfor_calc_run(c, model, r->form, r->vals, NULL, local, msg, sizeof msg) != 0 ||
         !local->allowed)) {
        memset(none, 0, sizeof none);
        ok = opfor_calc_run(c, model, r->form, none, NULL, local, msg, sizeof msg) == 0;
    }
    for (int i = 0; i < r->ans.nfacts; i++) {
        opfor_calc_fact_t *x = &r->ans.facts[i];
        for (int k = 0; ok && k < local->nfacts; k++)
            if (strcmp(local->facts[k].name, x->name) == 0) {
                memcpy(x->label, local->facts[k].label, sizeof x->label);
                memcpy(x->unit, local->facts[k].unit, sizeof x->unit);
            }
    }
    if (model && c->model_free)
        c->model_free(model);
    free(local);
}

/* Reads a `calc` answer into r: 0, or -1 when a part cannot be read. */
static int from_reply(const opfor_ruleset_calc_t *c, const msgpack_object *o, reply_t *r,
                      const char *rolled) {
    char buf[160];
    opfor_calc_answer_t *a = &r->ans;
    r->form =
        opfor_form_find(c->actions, c->nactions, opfor__rpc_str(o, "action", buf, sizeof buf));
    if (!r->form || r->form->nfields > (int)(sizeof r->vals / sizeof r->vals[0]))
        return -1;
    /* "allowed" (absent from an older daemon's answers: allowed) and, when false, "reason" */
    const msgpack_object *al = opfor__rpc_get(o, "allowed");
    a->allowed = !(al && al->type == MSGPACK_OBJECT_BOOLEAN && !al->via.boolean);
    opfor__rpc_str(o, "reason", a->reason, sizeof a->reason);
    opfor__rpc_str(o, "title", a->title, sizeof a->title);

    const msgpack_object *f = opfor__rpc_get(o, "fields");
    for (uint32_t i = 0; f && f->type == MSGPACK_OBJECT_MAP && i < f->via.map.size; i++) {
        const msgpack_object_kv *kv = &f->via.map.ptr[i];
        int fid = opfor_form_field(r->form, str_of(&kv->key, buf, sizeof buf));
        if (fid < 0 || value_from(r, &r->form->fields[fid], &kv->val, &r->vals[fid]) != 0)
            return -1;
    }

    /* facts: a map of key to a number (nil: no limit) or a word */
    f = opfor__rpc_get(o, "facts");
    for (uint32_t i = 0; f && f->type == MSGPACK_OBJECT_MAP && i < f->via.map.size &&
                         a->nfacts < OPFOR_CALC_MAX_FACTS;
         i++) {
        const msgpack_object_kv *kv = &f->via.map.ptr[i];
        opfor_calc_fact_t *x = &a->facts[a->nfacts++];
        str_of(&kv->key, x->name, sizeof x->name);
        memcpy(x->label, x->name, sizeof x->name); /* label[48] >= name[24] */
        x->value = INFINITY;
        if (kv->val.type == MSGPACK_OBJECT_STR)
            str_of(&kv->val, x->text, sizeof x->text);
        else if (opfor_rpc_num(&kv->val, &x->value) != 0 && kv->val.type != MSGPACK_OBJECT_NIL)
            return -1;
    }
    fact_labels(c, r, rolled);

    const msgpack_object *n = opfor__rpc_get(o, "notes");
    for (uint32_t i = 0; n && n->type == MSGPACK_OBJECT_ARRAY && i < n->via.array.size &&
                         a->nnotes < OPFOR_CALC_MAX_NOTES;
         i++)
        str_of(&n->via.array.ptr[i], a->notes[a->nnotes++], sizeof a->notes[0]);

    /* the shared schema's parts */
    str_of(opfor__rpc_get(o, "text"), a->text, sizeof a->text);
    str_of(opfor__rpc_get(o, "dice"), a->dice, sizeof a->dice);
    str_of(opfor__rpc_get(o, "needed"), a->needed, sizeof a->needed);
    a->p = opfor__rpc_num(o, "p", 0);
    a->has_expected = opfor_rpc_num(opfor__rpc_get(o, "expected"), &a->expected) == 0;
    const msgpack_object *d = opfor__rpc_get(o, "distribution");
    for (uint32_t i = 0; d && d->type == MSGPACK_OBJECT_ARRAY && i < d->via.array.size &&
                         a->ndist < OPFOR_CALC_MAX_DIST;
         i++) {
        opfor_calc_outcome_t *x = &a->dist[a->ndist++];
        opfor__rpc_str(&d->via.array.ptr[i], "label", x->label, sizeof x->label);
        x->value = opfor__rpc_num(&d->via.array.ptr[i], "value", 0);
        x->p = opfor__rpc_num(&d->via.array.ptr[i], "p", 0);
    }
    if (opfor__rpc_get(o, "outcome")) {
        a->rolled = 1;
        const msgpack_object *s = opfor__rpc_get(o, "success");
        a->success = s && s->type == MSGPACK_OBJECT_BOOLEAN && s->via.boolean;
        opfor__rpc_str(o, "outcome", a->outcome, sizeof a->outcome);
    }
    return 0;
}

int opfor__calc_remote(int argc, char **argv) {
    const opfor_ruleset_t *rs = opfor_ruleset_find(argv[1]);
    if (!rs || !rs->calc)
        return opfor_cli_usage_error("calc: unknown ruleset '%s'", argv[1]);
    const opfor_ruleset_calc_t *calc = rs->calc;
    const char *addr = NULL, *action = NULL, *model = NULL, *rolled = NULL;
    int json = 0, list = 0, nfields = 0;
    const char *fv[64];
    char fk[64][64];
    for (int i = 2; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "--json")) {
            json = 1;
        } else if (!strcmp(s, "--list")) {
            list = 1;
        } else if (!strcmp(s, "--connect") || !strcmp(s, "--model") || !strcmp(s, "--rolled")) {
            if (++i >= argc)
                return opfor_cli_usage_error("calc: %s needs a value", s);
            *(s[2] == 'c' ? &addr : s[2] == 'm' ? &model : &rolled) = argv[i];
        } else if (!strcmp(s, "--out") || !strncmp(s, "--out=", 6)) {
            return opfor_cli_usage_error("calc: --out writes a file here: ask without --connect");
        } else if (!strncmp(s, "--connect=", 10)) {
            addr = s + 10;
        } else if (!strncmp(s, "--model=", 8)) {
            model = s + 8;
        } else if (!strncmp(s, "--rolled=", 9)) {
            rolled = s + 9;
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
            const opfor_field_t *fd = opfor_calc_field_anywhere(calc, fk[nfields]);
            const opfor_field_t *neg = !eq && !fd && !strncmp(fk[nfields], "no-", 3)
                                           ? opfor_calc_field_anywhere(calc, fk[nfields] + 3)
                                           : NULL;
            if (eq) {
                fv[nfields] = eq + 1;
            } else if (neg && neg->type == OPFOR_FIELD_BOOL) {
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
        return opfor_cli_usage_error("calc: missing action (opfor calc %s --list shows them)",
                                     argv[1]);
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
        msgpack_pack_map(&pk, 4 + (yaml ? 1 : 0) + (rolled ? 1 : 0));
        opfor_rpc_pack_cstr(&pk, "ruleset");
        opfor_rpc_pack_cstr(&pk, argv[1]);
        opfor_rpc_pack_cstr(&pk, "action");
        opfor_rpc_pack_cstr(&pk, action);
        opfor_rpc_pack_cstr(&pk, "schema"); /* the shared schema's keys too: its text */
        msgpack_pack_true(&pk);
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
        if (rolled) {
            opfor_rpc_pack_cstr(&pk, "rolled");
            opfor_rpc_pack_cstr(&pk, rolled);
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
    /* an older daemon answers a combination the rules forbid with ILLEGAL: a wrong command
     * line (exit 2); a current one answers "allowed": false, printed as locally (exit 0) */
    if (rc && opfor_client_error_code(c) == OPFOR_RPC_E_ILLEGAL)
        rc = OPFOR_EXIT_USAGE;
    if (rc == 0 && json) {
        opfor__rpc_print_json(stdout, res);
    } else if (rc == 0 && list) {
        /* the local --list text, from the daemon's tables (its model's range edges) */
        const msgpack_object *acts = opfor__rpc_get(res, "actions");
        opfor_calc_print_list_head(stdout, rs);
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
        else if (from_reply(calc, res, r, rolled) != 0)
            rc = opfor_cli_fail("calc: the daemon's answer has a part this opfor cannot "
                                "read (a newer opford?); --json shows it as sent");
        else
            opfor_calc_print_text(stdout, rs, r->form, r->vals, &r->ans);
        free(r);
    }
    msgpack_sbuffer_destroy(&sb);
    opfor_client_close(c);
    return rc;
}
