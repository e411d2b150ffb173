/* tools/opford/display_sink.c — opford's e-ink display (display_sink.h).
 *
 * Lives in the daemon binary, not in io/, because io must not depend on display/: the server
 * only offers a generic event listener. The listener runs on the loop thread and does the cheap
 * part (decode the event and state, build the card); the panel work runs on the display
 * thread of display_out.c, since a refresh keeps BUSY active for up to four seconds and the
 * loop must keep serving clients. Every game's events are shown; the memo follows the game
 * that spoke last. Once the server has started, the panel shows the most recently changed active
 * game where it stands (its open order, or who holds the initiative), so a restarted daemon's
 * panel goes on showing the table's card; "Waiting for orders" only when no game is active.
 */
#include "display_sink.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "card_build.h"
#include "card_qr.h"
#include "display_out.h"

struct opford_display {
    opfor_dout_t *out;      /* the panel and its thread */
    opfor_card_memo_t memo; /* last spotting, last seq (loop thread only) */
    opfor_card_t card;      /* scratch card (loop thread only) */
    int journal;            /* log lines with "<N>" priorities for journald */
    int log_level;          /* lines above this level are dropped */
    unsigned long events;   /* events seen */
    unsigned long cards;    /* cards handed to the panel */
};

/* Called from the loop thread and the display thread: one fprintf per line. */
static void log_line(void *ud, int level, const char *line) {
    static const int prio[] = {3, 4, 6, 7};
    const opford_display_t *d = ud;
    if (level > d->log_level || level < 0 || level > 3)
        return;
    if (d->journal)
        fprintf(stderr, "<%d>%s: %s\n", prio[level], opfor_log_level_name(level), line);
    else
        fprintf(stderr, "opford: %s: %s\n", opfor_log_level_name(level), line);
}

int opford_display_check(const opfor_config_t *cfg, char *err, size_t errsize) {
    if (!cfg->display[0])
        return 0;
    opfor_dout_config_t dc;
    int rc = opfor_dout_config_from(cfg, &dc, err, errsize);
    return rc == OPFOR_ENOENT ? 0 : rc;
}

static void on_event(void *ud, const char *event, size_t event_len, const char *state,
                     size_t state_len) {
    opford_display_t *d = ud;
    d->events++;
    msgpack_unpacked ev, st;
    msgpack_unpacked_init(&ev);
    msgpack_unpacked_init(&st);
    size_t off = 0;
    const msgpack_object *stp = NULL;
    if (!event) { /* opfor_server_show_current: where the current game stands */
        if (state && state_len &&
            msgpack_unpack_next(&st, state, state_len, &off) == MSGPACK_UNPACK_SUCCESS &&
            opfor_card_from_state(&st.data, &d->memo, &d->card) == 1) {
            opfor_dout_show(d->out, &d->card);
            d->cards++;
        } else {
            log_line(d, OPFOR_LOG_WARN, "display: a malformed game state was ignored");
        }
        goto out;
    }
    if (msgpack_unpack_next(&ev, event, event_len, &off) != MSGPACK_UNPACK_SUCCESS) {
        log_line(d, OPFOR_LOG_WARN, "display: an event that is not MessagePack was ignored");
        goto out;
    }
    off = 0;
    if (state && state_len &&
        msgpack_unpack_next(&st, state, state_len, &off) == MSGPACK_UNPACK_SUCCESS)
        stp = &st.data;
    int rc = opfor_card_from_event(&ev.data, stp, &d->memo, &d->card);
    if (rc == 1) {
        opfor_dout_show(d->out, &d->card);
        d->cards++;
    } else if (rc < 0) {
        log_line(d, OPFOR_LOG_WARN, "display: a malformed event was ignored");
    }
out:
    msgpack_unpacked_destroy(&ev);
    msgpack_unpacked_destroy(&st);
}

int opford_display_start(opford_display_t **out, opfor_server_t *srv, const opfor_config_t *cfg,
                         int journal, char *err, size_t errsize) {
    *out = NULL;
    if (!cfg->display[0])
        return 0;
    opfor_dout_config_t dc;
    int rc = opfor_dout_config_from(cfg, &dc, err, errsize);
    if (rc < 0)
        return rc;
    opford_display_t *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errsize, "display: out of memory");
        return OPFOR_ENOMEM;
    }
    d->journal = journal;
    d->log_level = cfg->log_level;
    rc = opfor_dout_open(&d->out, &dc, log_line, d, err, errsize);
    if (rc < 0) {
        free(d);
        return rc;
    }
    opfor_server_on_event(srv, on_event, d);
    *out = d;
    return 0;
}

void opford_display_resume(opford_display_t *d, opfor_server_t *srv) {
    if (!d)
        return;
    if (opfor_server_show_current(srv) == 1)
        return; /* the card of the game under way, as before a restart */
    /* A Pi without a screen: the panel is where the players find the table page's link (the
     * players' one; the game master's stays in opford's own output). */
    char link[200], line[240];
    int have_link = opfor_server_http_link(srv, 2, link, sizeof link) == 0;
    if (have_link)
        snprintf(line, sizeof line, "Players' page: %s", link);
    else
        snprintf(line, sizeof line, "Start or resume a game: each order appears here");
    opfor_card_waiting(&d->card, "Waiting for orders", line);
    if (have_link) { /* as a QR code for the phones' cameras, the link too long to type */
        opfor_card_t tmp = d->card;
        opfor_card_waiting(&d->card, "Waiting for orders",
                           "Players' page: scan the code with a phone on this network");
        int qr = opfor_card_set_qr(&d->card, link) == 0;
        if (!qr)
            d->card = tmp; /* too long for a code: the link as text */
        log_line(d, OPFOR_LOG_INFO,
                 qr ? "display: the waiting card shows the players' link as a QR code"
                    : "display: the waiting card shows the players' link (too long for a QR "
                      "code)");
    }
    opfor_dout_show(d->out, &d->card);
}

void opford_display_stop(opford_display_t *d, opfor_server_t *srv) {
    if (!d)
        return;
    if (srv)
        opfor_server_on_event(srv, NULL, NULL);
    char line[128];
    snprintf(line, sizeof line, "display: %lu event(s), %lu card(s)", d->events, d->cards);
    log_line(d, OPFOR_LOG_INFO, line);
    opfor_dout_close(d->out);
    free(d);
}
