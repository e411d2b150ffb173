/* rulesets/order.c — the reason of an order as words (opfor/order.h): the terms of a score
 * ranked by size, one phrase for the search's orders (ai/orders.c) and a ruleset's own
 * planner alike.
 */
#include "opfor/order.h"

#include <stdio.h>

const char *opfor_order_terms_text(const opfor_order_term_t *terms, int nterms, int max, char *buf,
                                   size_t n) {
    if (!buf || n == 0)
        return buf;
    buf[0] = 0;
    int used[OPFOR_ORDER_MAX_TERMS] = {0};
    int nt = nterms < OPFOR_ORDER_MAX_TERMS ? nterms : OPFOR_ORDER_MAX_TERMS;
    size_t len = 0;
    int shown = 0;
    for (int k = 0; k < max && k < nt; k++) {
        int best = -1;
        double bv = 0.05;
        for (int i = 0; i < nt; i++) {
            double a = terms[i].value < 0 ? -terms[i].value : terms[i].value;
            if (!used[i] && a >= bv) {
                bv = a;
                best = i;
            }
        }
        if (best < 0)
            break;
        used[best] = 1;
        int w = snprintf(buf + len, n - len, "%s%s %+.2f", shown ? ", " : "",
                         terms[best].label[0] ? terms[best].label : terms[best].name,
                         terms[best].value);
        if (w < 0 || (size_t)w >= n - len)
            break;
        len += (size_t)w;
        shown++;
    }
    if (!shown)
        snprintf(buf, n, "no strong reason");
    return buf;
}
