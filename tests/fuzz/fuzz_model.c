/* tests/fuzz/fuzz_model.c — libFuzzer target for the Viktoria! model loader.
 *
 * A game master edits model.yaml by hand, so any bytes may arrive. The loader must never
 * crash, hang or leak; on failure the diagnostic's position is not negative; on success the
 * model answers a calculator query without trouble.
 *
 * Every load starts from the built-in model, whose parse is the same for every input: it is
 * done once (LLVMFuzzerInitialize) and each input is loaded over it, which is what
 * opfor_viktoria_model_load_string() does after parsing the defaults itself. One input in 16
 * also goes through that public call, which must give the same result and diagnostic.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "opfor/viktoria/calc.h"
#include "opfor/viktoria/model.h"

static opfor__vk_model_base_t *base; /* the built-in model, parsed once */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    opfor_diag_t d;
    if (opfor__viktoria_model_base_new(&base, &d) != 0)
        abort();
    return 0;
}

/* The public call on the same text must agree with the load over the base. */
static void same_as_public(const char *text, int rc, const opfor_viktoria_model_t *m,
                           const opfor_diag_t *d) {
    opfor_viktoria_model_t *m2 = malloc(sizeof *m2);
    if (!m2)
        return;
    opfor_diag_t d2;
    opfor_diag_clear(&d2);
    int rc2 = opfor_viktoria_model_load_string(text, "fuzz", m2, &d2);
    if (rc2 != rc)
        abort();
    if (rc == 0 && memcmp(m, m2, sizeof *m) != 0)
        abort();
    if (rc != 0 && (d->line != d2.line || d->col != d2.col || strcmp(d->msg, d2.msg) != 0 ||
                    strcmp(d->file, d2.file) != 0))
        abort();
    free(m2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    opfor_viktoria_model_t *m = malloc(sizeof *m);
    if (!text || !m) {
        free(text);
        free(m);
        return 0;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    opfor_diag_t d;
    opfor_diag_clear(&d);
    int rc = opfor__viktoria_model_load_over(base, text, "fuzz", m, &d);
    if (rc > 0)
        abort();
    if (rc < 0 && (d.line < 0 || d.col < 0))
        abort();
    if (size % 16 == 0)
        same_as_public(text, rc, m, &d);
    if (rc == 0) {
        opfor_viktoria_req_t req;
        opfor_viktoria_result_t res;
        if (opfor_viktoria_req_init(&req, OPFOR_VK_A_FIRE_RIFLE) != 0)
            abort();
        if (opfor_viktoria_calc(m, &req, &res, &d) == 0) {
            const opfor_viktoria_named_roll_t *hit = opfor_viktoria_result_roll(&res, "hit");
            if (hit && !(hit->roll.p_rendered >= 0 && hit->roll.p_rendered <= 1))
                abort();
        }
    }
    free(text);
    free(m);
    return 0;
}
