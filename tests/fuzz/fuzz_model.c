/* tests/fuzz/fuzz_model.c — libFuzzer target for the Viktoria! model loader.
 *
 * A game master edits model.yaml by hand, so any bytes may arrive. The loader must never
 * crash, hang or leak; on failure the diagnostic's position is not negative; on success the
 * model answers a calculator query without trouble.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/viktoria/calc.h"
#include "opfor/viktoria/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
    int rc = opfor_viktoria_model_load_string(text, "fuzz", m, &d);
    if (rc > 0)
        abort();
    if (rc < 0 && (d.line < 0 || d.col < 0))
        abort();
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
