/* opfor/evaluator.h — what the search asks of a heuristic: evaluate, prior, playout policy.
 *
 * The evaluator is part of the ruleset interface (opfor/ruleset_ai.h: a ruleset gives its
 * own through opfor_ruleset_t.ai); this header stays for the search's callers.
 */
#ifndef OPFOR_EVALUATOR_H
#define OPFOR_EVALUATOR_H

#include "opfor/ruleset_ai.h"

#endif
