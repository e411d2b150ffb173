/* tools/opford/display_sink.h — opford's e-ink display: game events in, orders cards out.
 *
 * With `display: epd:PANEL` or `sim:PANEL:DIR` (flag or config key) the daemon listens to every
 * event the server publishes (opfor_server_on_event), builds a card on the loop thread (quick,
 * card_build.h) and hands it to the display thread (display_out.h), which does the slow part:
 * rendering and refreshing the panel while BUSY is active, and the refresh policy's timers.
 */
#ifndef OPFORD_DISPLAY_SINK_H
#define OPFORD_DISPLAY_SINK_H

#include <stddef.h>

#include "opfor/config.h"
#include "opfor/server.h"

typedef struct opford_display opford_display_t;

/* Checks the display-* settings of cfg without opening anything. Returns 0 (also when no
 * display is configured) or OPFOR_EINVAL with err naming the setting and what is allowed. */
int opford_display_check(const opfor_config_t *cfg, char *err, size_t errsize);

/* Opens the configured panel and registers the event listener on srv (the panel shows nothing
 * until opford_display_resume). *out stays NULL when cfg has no display. journal: log lines carry
 * "<N>" priorities. Returns 0 or a negative OPFOR_E* code with err filled. */
int opford_display_start(opford_display_t **out, opfor_server_t *srv, const opfor_config_t *cfg,
                         int journal, char *err, size_t errsize);

/* After opfor_server_start: shows the card of the most recently changed active game where it
 * stands (its open order, or who holds the initiative), as before a restart, or a "Waiting for
 * orders" card when no game is active. NULL is fine. */
void opford_display_resume(opford_display_t *d, opfor_server_t *srv);

/* Removes the listener, draws what is still pending, puts the panel to sleep and frees. NULL is
 * fine. Call after uv_run() returned, before opfor_server_free(). */
void opford_display_stop(opford_display_t *d, opfor_server_t *srv);

#endif
