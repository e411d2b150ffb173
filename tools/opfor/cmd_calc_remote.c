/* tools/opfor/cmd_calc_remote.c — `opfor calc ... --connect ADDR`: the calculator asked of a
 * daemon (opford's `calc` and `calc.list` methods) instead of computed here.
 *
 *   opfor calc viktoria ACTION [--FIELD VALUE ...] [--model FILE] [--json] --connect ADDR
 *   opfor calc viktoria --list [--json] --connect ADDR
 *
 * Same words as the local calculator; fields go to the daemon as text and it checks them, so
 * its errors (naming the field and what is allowed) are printed as they come. Useful where
 * the daemon runs a game master's edited model (`model:` in its config).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
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
    if (rc == 0 && json) {
        opfor__rpc_print_json(stdout, res);
    } else if (rc == 0 && list) {
        const msgpack_object *acts = opfor__rpc_get(res, "actions");
        for (uint32_t i = 0; acts && acts->type == MSGPACK_OBJECT_ARRAY && i < acts->via.array.size;
             i++) {
            char name[64], summary[200];
            printf("  %-20s %s\n",
                   opfor__rpc_str(&acts->via.array.ptr[i], "name", name, sizeof name),
                   opfor__rpc_str(&acts->via.array.ptr[i], "summary", summary, sizeof summary));
        }
    } else if (rc == 0) {
        char title[128], rules[64];
        printf("%s (Viktoria! %s)\n", opfor__rpc_str(res, "title", title, sizeof title),
               opfor__rpc_str(res, "rules", rules, sizeof rules));
        const char *lists[2] = {"rolls", "outcomes"};
        for (int l = 0; l < 2; l++) {
            const msgpack_object *a = opfor__rpc_get(res, lists[l]);
            for (uint32_t i = 0; a && a->type == MSGPACK_OBJECT_ARRAY && i < a->via.array.size;
                 i++) {
                const msgpack_object *r = &a->via.array.ptr[i];
                char label[64], need[64], dice[16];
                if (l == 0)
                    printf("  %-18s %-18s on %-4s (%.1f%%)\n",
                           opfor__rpc_str(r, "label", label, sizeof label),
                           opfor__rpc_str(r, "need", need, sizeof need),
                           opfor__rpc_str(r, "dice", dice, sizeof dice),
                           100.0 * opfor__rpc_num(r, "p_exact", 0));
                else
                    printf("  %-18s %.1f%%\n", opfor__rpc_str(r, "label", label, sizeof label),
                           100.0 * opfor__rpc_num(r, "p_exact", 0));
            }
        }
    }
    msgpack_sbuffer_destroy(&sb);
    opfor_client_close(c);
    return rc;
}
