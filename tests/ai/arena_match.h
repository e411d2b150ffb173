/* tests/ai/arena_match.h — the arena configuration the AI tests start from: the defaults
 * with one match of policy a against policy b over a ruleset and its contexts.
 * Shared by test_arena.c and test_director.c, which otherwise wrote these lines each time.
 */
#ifndef OPFOR_TESTS_ARENA_MATCH_H
#define OPFOR_TESTS_ARENA_MATCH_H

#include "opfor/arena.h"

/* The defaults, then rs over ctxs with a against b. */
static inline void arena_match(opfor_arena_config_t *cfg, const opfor_ruleset_t *rs,
                               const void *const *ctxs, const char *a, const char *b) {
    opfor_arena_config_default(cfg);
    cfg->rs = rs;
    cfg->ctxs = ctxs;
    cfg->a = a;
    cfg->b = b;
}

#endif
