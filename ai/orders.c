/* ai/orders.c — an order from the AI's decision (opfor/orders.h).
 *
 * The ruleset words the chosen action through its `order` hook; here the search's part is
 * added: a reason that joins the deciding terms with the search's value, the runner-up and
 * the alternatives from the search's statistics, and the text form of the whole order.
 */
#include "opfor/orders.h"

#include <string.h>

#include "opfor/ruleset_ai.h"
#include "opfor/text.h"

const char *opfor_order_terms(const opfor_order_t *o, int max, char *buf, size_t n) {
    return opfor_order_terms_text(o->terms, o->nterms, max, buf, n);
}

int opfor_order_from_action(const opfor_game_t *g, const void *state, const opfor_action_t *a,
                            opfor_order_t *out) {
    if (!g || !g->rs || !state || !a || !out)
        return OPFOR_EINVAL;
    memset(out, 0, sizeof *out);
    out->unit = out->target = -1;
    int cur = opfor_game_current(g, state);
    if (cur < 0)
        return OPFOR_EINVAL;
    const opfor_ruleset_ai_t *ai = g->rs->ai;
    if (ai && ai->order) {
        int rc = ai->order(g->ctx, state, a, out);
        if (rc < 0)
            return rc;
    } else {
        out->side = cur;
        out->kind = a->kind;
        opfor_game_action_str(g, state, a, out->sentence, sizeof out->sentence);
    }
    /* the reason: the deciding terms, unless the ruleset gave its own words and no terms */
    if (out->nterms > 0 || !out->reason[0])
        opfor_order_terms(out, 3, out->reason, sizeof out->reason);
    return 0;
}

int opfor_order_from_decision(const opfor_game_t *g, const void *state,
                              const opfor_ai_decision_t *d, opfor_order_t *out) {
    if (!d)
        return OPFOR_EINVAL;
    int rc = opfor_order_from_action(g, state, &d->action, out);
    if (rc)
        return rc;
    const opfor_mcts_result_t *r = &d->search;
    out->iterations = r->iterations;
    out->elapsed_ms = r->elapsed_ms;
    char terms[sizeof out->reason]; /* the deciding terms, from opfor_order_from_action */
    memcpy(terms, out->reason, sizeof terms);
    if (r->stop == OPFOR_MCTS_STOP_FORCED || r->nchoices < 1) {
        size_t len = 0;
        opfor_text_appendf(out->reason, sizeof out->reason, &len, "the only thing it can do (%s)",
                           terms);
    } else {
        const opfor_mcts_choice_t *c = &r->top[d->chosen];
        out->value = c->value;
        size_t len = 0;
        opfor_text_appendf(out->reason, sizeof out->reason, &len,
                           "%s; value %+.2f over %u of %llu playouts%s", terms, c->value, c->visits,
                           (unsigned long long)r->iterations,
                           d->chosen > 0 ? " (a near-best choice)" : "");
    }
    if (d->has_runner_up) {
        out->has_runner_up = 1;
        out->runner_up_value = d->runner_up.value;
        opfor_game_action_str(g, state, &d->runner_up.action, out->runner_up,
                              sizeof out->runner_up);
    }
    out->nalts = r->nchoices < OPFOR_ORDER_MAX_ALTS ? r->nchoices : OPFOR_ORDER_MAX_ALTS;
    for (int i = 0; i < out->nalts; i++) {
        opfor_order_alt_t *x = &out->alts[i];
        opfor_game_action_str(g, state, &r->top[i].action, x->text, sizeof x->text);
        x->visits = r->top[i].visits;
        x->value = r->top[i].value;
        x->prior = r->top[i].prior;
        x->chosen = i == d->chosen;
    }
    return 0;
}

const char *opfor_order_format(const opfor_order_t *o, int verbose, char *buf, size_t n) {
    if (!buf || n == 0)
        return buf;
    size_t len = 0;
    buf[0] = 0;
    opfor_text_appendf(buf, n, &len, "%s\n  why: %s\n", o->sentence, o->reason);
    if (o->has_runner_up)
        opfor_text_appendf(buf, n, &len, "  runner-up: %s (value %+.2f)\n", o->runner_up,
                           o->runner_up_value);
    if (verbose) {
        uint64_t total = o->iterations ? o->iterations : 1;
        for (int i = 0; i < o->nalts; i++) {
            const opfor_order_alt_t *x = &o->alts[i];
            opfor_text_appendf(buf, n, &len,
                               "  %c %d. %-46s visits %6u (%5.1f%%) value %+.2f score %+.2f\n",
                               x->chosen ? '*' : ' ', i + 1, x->text, x->visits,
                               100.0 * x->visits / (double)total, x->value, (double)x->prior);
        }
        if (o->iterations)
            opfor_text_appendf(buf, n, &len, "  search: %llu playouts in %.1f ms\n",
                               (unsigned long long)o->iterations, o->elapsed_ms);
    }
    return buf;
}
