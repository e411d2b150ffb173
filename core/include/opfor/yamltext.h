/* opfor/yamltext.h — checking YAML text before it is parsed.
 *
 * Every YAML loader in opfor (scenarios, a ruleset's model, the daemon's config) calls
 * opfor_yaml_text_check() first: it keeps bytes that are not text away from libfyaml, whose
 * 0.7 scanner can loop on some invalid input, and gives the user a line and column.
 */
#ifndef OPFOR_YAMLTEXT_H
#define OPFOR_YAMLTEXT_H

#include <stddef.h>

#include "opfor/error.h"

/* Checks that text[0..len) is YAML-printable UTF-8: valid UTF-8 (no overlong forms,
 * surrogates or values past U+10FFFF) and no control characters other than tab, line feed
 * and carriage return (YAML 1.2, 5.1). Returns 0, or fills d (1-based line, column in
 * characters, and what was wrong) and returns OPFOR_EPARSE. */
int opfor_yaml_text_check(const char *text, size_t len, opfor_diag_t *d);

#endif
