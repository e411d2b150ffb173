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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "game_rpc.h"
#include "opfor/rpc.h"

int opfor__calc_remote(int argc, char **argv) {
    const char *addr = NULL, *action = NULL, *model = NULL;
    int json = 0, list = 0, nfields = 0;
    const char *fk[64], *fv[64];
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
        } else if (!strncmp(s, "--", 2)) {
            if (nfields >= 64)
                return opfor_cli_usage_error("calc: too many fields");
            fk[nfields] = s + 2; /* a flag without a value means yes */
            fv[nfields++] = i + 1 < argc && strncmp(argv[i + 1], "--", 2) ? argv[++i] : "yes";
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
        FILE *f = fopen(model, "rb");
        yaml = malloc(1024 * 1024 + 1);
        ylen = f && yaml ? fread(yaml, 1, 1024 * 1024, f) : 0;
        if (f)
            fclose(f);
        if (!f || !yaml) {
            free(yaml);
            return opfor_cli_fail("calc: %s: cannot read the model", model);
        }
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
