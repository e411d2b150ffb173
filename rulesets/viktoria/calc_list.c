/* rulesets/viktoria/calc_list.c — a calculator field as an action list describes it: the
 * name of its kind and the table of names it takes, shared by the CLI's `--list --json` and
 * the daemon's `calc.list` so both lists say the same thing.
 */
#include "opfor/viktoria/calc_list.h"

const char *opfor_viktoria_kind_name(opfor_viktoria_field_kind_t kind) {
    static const char *const names[] = {
        [OPFOR_VK_FK_QUALITY] = "quality", [OPFOR_VK_FK_CLASS] = "class",
        [OPFOR_VK_FK_ENUM] = "choice",     [OPFOR_VK_FK_BOOL] = "flag",
        [OPFOR_VK_FK_INT] = "number",      [OPFOR_VK_FK_RANGE] = "range",
        [OPFOR_VK_FK_INCHES] = "inches",
    };
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

const opfor_name_t *opfor_viktoria_field_names(const opfor_viktoria_action_field_t *af) {
    switch (af->kind) {
    case OPFOR_VK_FK_QUALITY:
        return opfor_quality_names;
    case OPFOR_VK_FK_CLASS:
    case OPFOR_VK_FK_ENUM:
        return opfor_viktoria_field_get(af->id)->values;
    case OPFOR_VK_FK_RANGE:
        return opfor_viktoria_bracket_names;
    default:
        return NULL;
    }
}

const opfor_name_t *opfor_viktoria_name_next(const opfor_name_t *names, const opfor_name_t *from) {
    for (const opfor_name_t *p = from; p->name; p++) {
        const opfor_name_t *q = names;
        while (q != p && q->value != p->value)
            q++;
        if (q == p)
            return p;
    }
    return NULL;
}

size_t opfor_viktoria_name_count(const opfor_name_t *names) {
    size_t n = 0;
    for (const opfor_name_t *p = opfor_viktoria_name_next(names, names); p;
         p = opfor_viktoria_name_next(names, p + 1))
        n++;
    return n;
}
