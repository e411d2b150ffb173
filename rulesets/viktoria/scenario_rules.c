/* rulesets/viktoria/scenario_rules.c — the scenario's `rules:` block: which of Viktoria!'s
 * optional rules a game is played with (docs/scenario-format.md, "Rules block").
 *
 *   rules:
 *     machines: yes         # XII: automatons, walkers, vehicles, flying craft
 *     weather_events: yes   # XIII: a weather event at the start of every turn
 *     sequence: side_by_side_fixed   # V.A: competitive | side_by_side | side_by_side_fixed
 *
 * One reader serves the loader's check (scenario_check.c, so `opfor scenario check` and every
 * game refuse a bad key at its file:line:column) and opfor_vk_ctx_init (so opford, the arena,
 * selfplay and the benches all play the options the scenario names). Without the block a
 * scenario that puts a machine on the table gets the machine rules: XII is optional only for
 * games that leave such things out.
 */
#include "opfor/viktoria/engine.h"
#include "opfor/viktoria/scenario.h"
#include "opfor/yamlread.h"

#include <libfyaml.h>
#include <string.h>

const opfor_name_t opfor_vk_seq_names[] = {
    {"competitive", OPFOR_VK_SEQ_COMPETITIVE},
    {"side_by_side", OPFOR_VK_SEQ_SIDE_BY_SIDE},
    {"side_by_side_fixed", OPFOR_VK_SEQ_SIDE_BY_SIDE_FIXED},
    {NULL, 0},
};

/* Whether the scenario puts a machine (XII) on the table. */
static int has_machine(const opfor_scenario_t *sc) {
    for (int u = 0; u < sc->nunits; u++)
        switch (sc->units[u].type) {
        case OPFOR_UT_AUTOMATON:
        case OPFOR_UT_WALKER:
        case OPFOR_UT_VEHICLE:
        case OPFOR_UT_BALLOON:
        case OPFOR_UT_DIRIGIBLE:
        case OPFOR_UT_AEROPLANE:
            return 1;
        default:
            break;
        }
    return 0;
}

int opfor_vk_scenario_options(struct opfor_yaml_rd *rd, const opfor_scenario_t *sc,
                              opfor_vk_options_t *opt) {
    struct fy_node *n = opfor_scenario_block(sc, "rules");
    int machines = has_machine(sc), weather = 0, seq = OPFOR_VK_SEQ_COMPETITIVE;
    if (n) {
        enum { MACH, WEATHER, SEQ, NF };
        opfor_yaml_field_t f[NF] = {
            {"machines", 0, 0}, {"weather_events", 0, 0}, {"sequence", 0, 0}};
        if (opfor_yaml_read_fields(rd, n, NULL, "rules", f, NF) ||
            (f[MACH].v &&
             opfor_yaml_get_bool(rd, f[MACH].v, f[MACH].k, "machines (XII)", &machines)) ||
            (f[WEATHER].v && opfor_yaml_get_bool(rd, f[WEATHER].v, f[WEATHER].k,
                                                 "weather_events (XIII)", &weather)) ||
            (f[SEQ].v && opfor_yaml_get_enum(rd, f[SEQ].v, f[SEQ].k, "sequence (V.A)",
                                             opfor_vk_seq_names, &seq)))
            return rd->err;
    }
    opt->specials |= machines;
    opt->weather_events |= weather;
    if (opt->seq == OPFOR_VK_SEQ_COMPETITIVE)
        opt->seq = (opfor_vk_seq_t)seq;
    return 0;
}
