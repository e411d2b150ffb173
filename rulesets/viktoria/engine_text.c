/* rulesets/viktoria/engine_text.c — the Viktoria! engine's words: action kinds by name and an
 * action as one line a player reads ("Fusiliers advance to x 30.0 y 22.0").
 */
#include <stdio.h>
#include <string.h>

#include "engine_list_int.h"

static const char *const KIND_NAMES[OPFOR_VK_KIND_COUNT] = {
    "roll",         "select_unit", "stand",      "rally",         "load",    "advance",
    "run",          "crawl",       "charge",     "fire",          "fire_mg", "fire_artillery",
    "call_support", "throw_bomb",  "heal",       "mesmerize",     "limber",  "unlimber",
    "mount",        "dismount",    "split",      "merge",         "to_rear", "fight",
    "react_stand",  "react_fire",  "react_flee", "react_counter", "control", "embark",
    "drive",
};

const char *opfor_vk_kind_name(int kind) {
    return kind >= 0 && kind < OPFOR_VK_KIND_COUNT ? KIND_NAMES[kind] : "?";
}

/* The kinds whose text is the unit's name and a set phrase, the target's name after it for
 * those marked. */
static const struct {
    const char *text;
    int target;
} KIND_TEXT[OPFOR_VK_KIND_COUNT] = {
    [OPFOR_VK_STAND] = {" stands", 0},
    [OPFOR_VK_RALLY] = {" tries to rally", 0},
    [OPFOR_VK_LOAD] = {" loads", 0},
    [OPFOR_VK_CHARGE] = {" charges ", 1},
    [OPFOR_VK_THROW_BOMB] = {" throws bombs at ", 1},
    [OPFOR_VK_HEAL] = {"'s medics bind wounds", 0},
    [OPFOR_VK_MESMERIZE] = {" tries to mesmerise a figure of ", 1},
    [OPFOR_VK_LIMBER] = {" limbers", 0},
    [OPFOR_VK_UNLIMBER] = {" unlimbers", 0},
    [OPFOR_VK_MOUNT] = {" mounts", 0},
    [OPFOR_VK_DISMOUNT] = {" dismounts", 0},
    [OPFOR_VK_MERGE] = {" joins ", 1},
    [OPFOR_VK_FIGHT] = {" fights on in the melee", 0},
    [OPFOR_VK_REACT_STAND] = {" stands to receive the charge", 0},
    [OPFOR_VK_REACT_FIRE] = {" fires at the chargers", 0},
    [OPFOR_VK_REACT_COUNTER] = {" counter-charges", 0},
};

/* The remount or dismount of a move (VIII), as a clause after it, or "". */
static const char *mount_words(const opfor_vk_action_t *a) {
    int end = a->arc == OPFOR_VK_AT_END;
    if (a->flags & OPFOR_VK_AF_MOUNT)
        return end ? ", remounting where it stops" : ", remounting first";
    if (a->flags & OPFOR_VK_AF_DISMOUNT)
        return end ? ", dismounting where it stops" : ", dismounting first";
    return "";
}

const char *opfor_vk_action_str(const opfor_vk_ctx_t *ctx, const opfor_vk_state_t *st,
                                const opfor_vk_action_t *a, char *buf, size_t n) {
    if (!buf || n == 0)
        return buf;
    const char *un = a->unit < st->nunits ? st->units[a->unit].name : "?";
    const char *tn = a->target < st->nunits ? st->units[a->target].name : "?";
    float dist = 0.0f, via_dist = 1e30f;
    if (a->unit < st->nunits) {
        vk_ugeo_t g;
        vk_unit_geo(st, a->unit, &g);
        dist = opfor_dist(g.c, a->dest);
        via_dist = opfor_dist(g.c, a->via);
    }
    if (a->kind < OPFOR_VK_KIND_COUNT && KIND_TEXT[a->kind].text) {
        int hold = (a->flags & OPFOR_VK_AF_HOLD) &&
                   (a->kind == OPFOR_VK_CHARGE ||
                    (a->kind >= OPFOR_VK_REACT_STAND && a->kind <= OPFOR_VK_REACT_COUNTER));
        snprintf(buf, n, "%s%s%s%s", un, KIND_TEXT[a->kind].text,
                 KIND_TEXT[a->kind].target ? tn : "",
                 hold ? ", then holds: no follow-up advance" : "");
        return buf;
    }
    static const char *const ARC[] = {"45-degree", "90-degree", "double 45-degree", "180-degree"};
    switch (a->kind) {
    case OPFOR_VK_ROLL:
        snprintf(buf, n, "Roll the dice (%s)",
                 st->phase == OPFOR_VK_PH_START_TURN   ? "start of turn"
                 : st->phase == OPFOR_VK_PH_INITIATIVE ? "initiative"
                                                       : "command test");
        break;
    case OPFOR_VK_SELECT_UNIT:
        snprintf(buf, n, "%s takes the initiative with %s", ctx->sc.sides[st->side].name, un);
        break;
    case OPFOR_VK_ADVANCE:
        if ((a->flags & OPFOR_VK_AF_FIRE) && (a->flags & OPFOR_VK_AF_FIRE_VIA) && via_dist < 0.25f)
            snprintf(buf, n, "%s fires at %s, then advances toward (%.0f, %.0f)%s", un, tn,
                     a->dest.x, a->dest.y, mount_words(a));
        else if ((a->flags & OPFOR_VK_AF_FIRE) && (a->flags & OPFOR_VK_AF_FIRE_VIA))
            snprintf(buf, n, "%s advances toward (%.0f, %.0f), firing at %s at (%.0f, %.0f)%s", un,
                     a->dest.x, a->dest.y, tn, a->via.x, a->via.y, mount_words(a));
        else if (a->flags & OPFOR_VK_AF_FIRE)
            snprintf(buf, n, "%s advances toward (%.0f, %.0f), firing at %s%s", un, a->dest.x,
                     a->dest.y, tn, mount_words(a));
        else
            snprintf(buf, n, "%s advances toward (%.0f, %.0f), %.0f in away%s", un, a->dest.x,
                     a->dest.y, dist, mount_words(a));
        break;
    case OPFOR_VK_RUN:
        snprintf(buf, n, "%s runs toward (%.0f, %.0f), %.0f in away%s", un, a->dest.x, a->dest.y,
                 dist, mount_words(a));
        break;
    case OPFOR_VK_SPLIT:
        if (a->figure == OPFOR_VK_NO_FIGURE)
            snprintf(buf, n, "%s splits in two", un);
        else
            snprintf(buf, n, "%s splits off the %d figures nearest (%.0f, %.0f)", un, a->figure,
                     a->dest.x, a->dest.y);
        break;
    case OPFOR_VK_TO_REAR:
        snprintf(buf, n, "%s %s", un,
                 (a->flags & OPFOR_VK_AF_RETURN) ? "calls its bound wounded back from the rear"
                                                 : "sends its wounded to the rear");
        break;
    case OPFOR_VK_CRAWL:
        if (dist < 0.5f)
            snprintf(buf, n, "%s takes cover where it stands%s%s", un,
                     (a->flags & OPFOR_VK_AF_FIRE) ? ", firing at " : "",
                     (a->flags & OPFOR_VK_AF_FIRE) ? tn : "");
        else
            snprintf(buf, n, "%s crawls toward (%.0f, %.0f)%s%s", un, a->dest.x, a->dest.y,
                     (a->flags & OPFOR_VK_AF_FIRE) ? ", firing at " : "",
                     (a->flags & OPFOR_VK_AF_FIRE) ? tn : "");
        break;
    case OPFOR_VK_FIRE:
        snprintf(buf, n, "%s fires at %s%s%s", un,
                 (a->flags & OPFOR_VK_AF_AT_CRAFT) ? "the balloon of " : "", tn,
                 (a->flags & OPFOR_VK_AF_AIM_WOUNDED)   ? ", aiming at the wounded"
                 : (a->flags & OPFOR_VK_AF_AIM_GENERAL) ? ", aiming at its leaders"
                                                        : "");
        break;
    case OPFOR_VK_FIRE_MG:
        snprintf(buf, n, "%s fires a %s arc toward %s", un, ARC[a->arc & 3],
                 a->target < st->nunits ? tn : "the aim point");
        break;
    case OPFOR_VK_FIRE_ARTILLERY:
        if (a->flags & OPFOR_VK_AF_VIA) { /* a walker's shots split (XII.E) */
            if (a->figure != OPFOR_VK_NO_FIGURE && a->figure < st->nfigures)
                snprintf(buf, n,
                         "%s fires a shell at (%.0f, %.0f), one at (%.0f, %.0f) and one at "
                         "(%.0f, %.0f)",
                         un, a->dest.x, a->dest.y, a->via.x, a->via.y, st->figures[a->figure].pos.x,
                         st->figures[a->figure].pos.y);
            else
                snprintf(buf, n, "%s fires a shell at (%.0f, %.0f) and two at (%.0f, %.0f)", un,
                         a->dest.x, a->dest.y, a->via.x, a->via.y);
            break;
        }
        snprintf(buf, n, "%s fires at (%.0f, %.0f)%s%s", un, a->dest.x, a->dest.y,
                 a->target < st->nunits ? ", on " : "", a->target < st->nunits ? tn : "");
        break;
    case OPFOR_VK_CALL_SUPPORT:
        snprintf(buf, n, "%s calls for supporting fire on (%.0f, %.0f)", un, a->dest.x, a->dest.y);
        break;
    case OPFOR_VK_REACT_FLEE: {
        int mv = vk_flight_move(a->arc);
        snprintf(buf, n, "%s %s away from the charge", un,
                 mv == VK_MV_CRAWL     ? "crawls"
                 : mv == VK_MV_ADVANCE ? "advances"
                                       : "runs");
        break;
    }
    case OPFOR_VK_CONTROL:
        if (a->flags & OPFOR_VK_AF_MOVE)
            snprintf(buf, n, "The mesmerised figure of %s walks toward (%.0f, %.0f)", un, a->dest.x,
                     a->dest.y);
        else if (a->flags & OPFOR_VK_AF_STRIKE)
            snprintf(buf, n, "The mesmerised figure of %s strikes a fellow of %s", un, tn);
        else if (a->flags & OPFOR_VK_AF_SELF)
            snprintf(buf, n, "The mesmerised figure of %s turns his weapon on himself", un);
        else if (a->target < st->nunits)
            snprintf(buf, n, "The mesmerised figure of %s fires on %s", un, tn);
        else
            snprintf(buf, n, "The mesmerised figure of %s stands idle", un);
        break;
    default:
        if (!vk_machine_str(ctx, st, a, buf, n)) /* XII.C-D: EMBARK, DRIVE */
            snprintf(buf, n, "?");
        break;
    }
    return buf;
}
