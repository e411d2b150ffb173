/* tests/fuzz/fuzz_scenario.c — libFuzzer target for the scenario loader, with the ruleset's
 * checks (the path every Viktoria! scenario takes: opfor_viktoria_scenario_load_string).
 *
 * Any bytes go in as scenario text (not NUL-terminated: the loader must respect len). It
 * must never crash or leak. Beyond that it checks the loader's promises: on failure the
 * diagnostic's line/column are not negative and *sc holds nothing to free; on success the
 * counts are within the maxima, every unit's figures lie inside the figure array, and the
 * struct's terrain queries run on the result without trouble.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opfor/scenario.h"
#include "opfor/viktoria/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    opfor_scenario_t *sc = malloc(sizeof *sc);
    if (!sc)
        return 0;
    /* An exact-size copy, so reading past len is caught by ASan. */
    char *text = malloc(size ? size : 1);
    if (!text) {
        free(sc);
        return 0;
    }
    if (size)
        memcpy(text, data, size);
    opfor_diag_t d;
    int rc = opfor_viktoria_scenario_load_string(text, size, "fuzz", sc, &d);
    if (rc != 0) {
        if (rc > 0 || d.line < 0 || d.col < 0 || sc->doc || sc->text)
            abort();
    } else {
        if (sc->nunits < 0 || sc->nunits > OPFOR_MAX_UNITS || sc->nfigures > OPFOR_MAX_FIGURES ||
            sc->nobjectives > OPFOR_MAX_OBJECTIVES || sc->table.nfeatures > OPFOR_MAX_FEATURES)
            abort();
        for (int i = 0; i < sc->nunits; i++) {
            const opfor_unit_t *u = &sc->units[i];
            if (u->first + u->count > sc->nfigures || u->side > 1)
                abort();
        }
        /* Exercise the queries on whatever terrain came out. */
        opfor_pt_t a = opfor_pt(0, 0), b = opfor_pt(sc->table.width, sc->table.depth);
        opfor_los_t los;
        opfor_path_t path;
        opfor_terrain_los(&sc->table, a, b, &los);
        opfor_terrain_cover(&sc->table, a, b, OPFOR_RADIUS_FOOT, NULL);
        if (opfor_terrain_path(&sc->table, a, b, &path) == 0 && !(path.rough >= 0.0f))
            abort();
        if (sc->nfigures > 0)
            opfor_terrain_los(&sc->table, sc->figures[0].pos, sc->figures[sc->nfigures - 1].pos,
                              NULL);
    }
    opfor_scenario_free(sc);
    free(text);
    free(sc);
    return 0;
}
