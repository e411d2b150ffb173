/* rulesets/viktoria/builtin.c — the table of built-in Viktoria! scenarios.
 *
 * The arrays come from cmake/embed.cmake (one per YAML file in rulesets/viktoria/scenarios/).
 * Adding a scenario file means adding its two extern lines and one row below; the
 * builtin tests load every row, so a missing or broken file fails them.
 */
#include "opfor/viktoria/builtin.h"
#include "opfor/viktoria/scenario.h"

#include <stdio.h>
#include <string.h>

extern const unsigned char opfor_viktoria_scenario_patrol_default[];
extern const unsigned long opfor_viktoria_scenario_patrol_default_len;
extern const unsigned char opfor_viktoria_scenario_competitive_default[];
extern const unsigned long opfor_viktoria_scenario_competitive_default_len;

typedef struct builtin {
    const char *name;          /* file stem */
    const unsigned char *text; /* NUL-terminated YAML */
    const unsigned long *len;  /* bytes before the NUL */
} builtin_t;

static const builtin_t builtins[] = {
    {"patrol_default", opfor_viktoria_scenario_patrol_default,
     &opfor_viktoria_scenario_patrol_default_len},
    {"competitive_default", opfor_viktoria_scenario_competitive_default,
     &opfor_viktoria_scenario_competitive_default_len},
};
#define NBUILTINS (sizeof builtins / sizeof builtins[0])

size_t opfor_viktoria_builtin_count(void) {
    return NBUILTINS;
}

const char *opfor_viktoria_builtin_name(size_t i) {
    return i < NBUILTINS ? builtins[i].name : NULL;
}

const char *opfor_viktoria_builtin_text(const char *name, size_t *len) {
    if (!name)
        return NULL;
    if (strncmp(name, "builtin:", 8) == 0)
        name += 8;
    for (size_t i = 0; i < NBUILTINS; i++) {
        if (strcmp(builtins[i].name, name) == 0) {
            if (len)
                *len = (size_t)*builtins[i].len;
            return (const char *)builtins[i].text;
        }
    }
    return NULL;
}

int opfor_viktoria_builtin_load(const char *name, opfor_scenario_t *sc, opfor_diag_t *diag) {
    size_t len = 0;
    const char *text = opfor_viktoria_builtin_text(name, &len);
    if (!text) {
        char list[256];
        size_t used = 0;
        list[0] = '\0';
        for (size_t i = 0; i < NBUILTINS; i++) {
            int w =
                snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", builtins[i].name);
            if (w < 0 || (size_t)w >= sizeof list - used)
                break;
            used += (size_t)w;
        }
        opfor_diag_clear(diag);
        return opfor_diag_set(diag, OPFOR_ENOENT, 0, 0,
                              "no built-in scenario '%s'; built-in scenarios: %s", name ? name : "",
                              list);
    }
    char label[128];
    if (strncmp(name, "builtin:", 8) == 0)
        name += 8;
    snprintf(label, sizeof label, "builtin:%s", name);
    return opfor_viktoria_scenario_load_string(text, len, label, sc, diag);
}
