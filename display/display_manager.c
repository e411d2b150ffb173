/* display/display_manager.c — the refresh policy (display_manager.h): which refresh, when, and
 * when to sleep.
 *
 * All decisions are made from the manager's own record (what is shown, how many partial
 * refreshes in a row, when the last full one happened) and the caller's clock, so the policy is
 * fully testable with a fake clock and the emulator.
 */
#include "opfor/display_manager.h"

#include <string.h>

void opfor_display_policy_default(opfor_display_policy_t *p) {
    memset(p, 0, sizeof *p);
    p->max_partials = 5;
    p->full_every_ms = 10u * 60u * 1000u;
    p->min_interval_ms = 2000;
    p->idle_sleep_ms = 60000;
    p->big_change_pct = 60;
    p->fast_for_big_changes = 1;
}

int opfor_display_init(opfor_display_t *m, opfor_epd_t *epd, const opfor_display_policy_t *pol,
                       opfor_display_clock_fn clock, void *clock_ctx) {
    if (!m || !epd || !epd->panel || !clock)
        return OPFOR_EINVAL;
    memset(m, 0, sizeof *m);
    m->epd = epd;
    if (pol)
        m->pol = *pol;
    else
        opfor_display_policy_default(&m->pol);
    m->clock = clock;
    m->clock_ctx = clock_ctx;
    m->asleep = epd->state != OPFOR_EPD_READY;
    return 0;
}

static uint64_t now(const opfor_display_t *m) {
    return m->clock(m->clock_ctx);
}

static void set_out(opfor_display_outcome_t *out, opfor_display_action_t a, opfor_epd_refresh_t k,
                    const opfor_epd_rect_t *w) {
    if (!out)
        return;
    out->action = a;
    out->kind = k;
    out->window = w ? *w : (opfor_epd_rect_t){0, 0, 0, 0};
}

/* Chooses and performs the refresh for f; the minimum interval is checked by the caller. */
static int refresh(opfor_display_t *m, const opfor_epd_frame_t *f, opfor_display_outcome_t *out) {
    const opfor_epd_panel_t *p = m->epd->panel;
    opfor_epd_rect_t all = {0, 0, p->width, p->height};
    opfor_epd_rect_t box = all;
    opfor_epd_refresh_t kind = OPFOR_EPD_REFRESH_FULL;
    uint64_t t = now(m);
    if (m->have_shown) {
        long changed = opfor_epd_frame_diff(&m->shown, f, &box);
        if (changed < 0)
            return (int)changed;
        if (changed == 0) {
            set_out(out, OPFOR_DISPLAY_UNCHANGED, OPFOR_EPD_REFRESH_NONE, NULL);
            return 0;
        }
        box = opfor_epd_rect_align8(&box, p->width);
        long area = (long)box.w * box.h, screen = (long)p->width * p->height;
        int due_full = m->partials_in_row >= m->pol.max_partials ||
                       t - m->last_full_ms >= m->pol.full_every_ms;
        if (due_full)
            kind = OPFOR_EPD_REFRESH_FULL;
        else if (area * 100 > screen * (long)m->pol.big_change_pct)
            kind = m->pol.fast_for_big_changes ? OPFOR_EPD_REFRESH_FAST : OPFOR_EPD_REFRESH_FULL;
        else
            kind = OPFOR_EPD_REFRESH_PARTIAL;
    }
    if (kind != OPFOR_EPD_REFRESH_PARTIAL)
        box = all;
    int rc = opfor_epd_refresh(m->epd, kind, f, m->have_shown ? &m->shown : NULL, &box);
    t = now(m);
    m->ever_refreshed = 1;
    m->last_refresh_ms = t;
    m->asleep = m->epd->state != OPFOR_EPD_READY;
    if (rc) {
        m->errors++;
        m->have_shown = 0; /* unknown: the next frame gets a full refresh */
        return rc;
    }
    memcpy(&m->shown, f, sizeof *f);
    m->have_shown = 1;
    m->counts[kind]++;
    if (kind == OPFOR_EPD_REFRESH_PARTIAL) {
        m->partials_in_row++;
    } else {
        m->partials_in_row = 0;
        if (kind == OPFOR_EPD_REFRESH_FULL)
            m->last_full_ms = t;
    }
    set_out(out, OPFOR_DISPLAY_SHOWN, kind, &box);
    return 0;
}

int opfor_display_show(opfor_display_t *m, const opfor_epd_frame_t *f,
                       opfor_display_outcome_t *out) {
    if (!m || !f)
        return OPFOR_EINVAL;
    const opfor_epd_panel_t *p = m->epd->panel;
    if (f->width != p->width || f->height != p->height)
        return OPFOR_EINVAL;
    set_out(out, OPFOR_DISPLAY_IDLE, OPFOR_EPD_REFRESH_NONE, NULL);
    if (m->ever_refreshed && now(m) - m->last_refresh_ms < m->pol.min_interval_ms) {
        if (m->have_shown && opfor_epd_frame_diff(&m->shown, f, NULL) == 0) {
            m->have_pending = 0; /* back to what is shown: nothing left to do */
            set_out(out, OPFOR_DISPLAY_UNCHANGED, OPFOR_EPD_REFRESH_NONE, NULL);
            return 0;
        }
        memcpy(&m->pending, f, sizeof *f);
        m->have_pending = 1;
        m->deferred++;
        set_out(out, OPFOR_DISPLAY_DEFERRED, OPFOR_EPD_REFRESH_NONE, NULL);
        return 0;
    }
    m->have_pending = 0;
    return refresh(m, f, out);
}

int opfor_display_tick(opfor_display_t *m, opfor_display_outcome_t *out) {
    if (!m)
        return OPFOR_EINVAL;
    set_out(out, OPFOR_DISPLAY_IDLE, OPFOR_EPD_REFRESH_NONE, NULL);
    uint64_t t = now(m);
    if (m->have_pending) {
        if (t - m->last_refresh_ms < m->pol.min_interval_ms)
            return 0;
        m->have_pending = 0;
        return refresh(m, &m->pending, out);
    }
    if (!m->asleep && m->ever_refreshed && t - m->last_refresh_ms >= m->pol.idle_sleep_ms) {
        int rc = opfor_epd_sleep(m->epd);
        m->asleep = m->epd->state != OPFOR_EPD_READY;
        if (rc) {
            m->errors++;
            m->have_shown = 0;
            return rc;
        }
        set_out(out, OPFOR_DISPLAY_SLEPT, OPFOR_EPD_REFRESH_NONE, NULL);
    }
    return 0;
}

uint64_t opfor_display_next_deadline(const opfor_display_t *m) {
    if (m->have_pending)
        return m->last_refresh_ms + m->pol.min_interval_ms;
    if (!m->asleep && m->ever_refreshed)
        return m->last_refresh_ms + m->pol.idle_sleep_ms;
    return UINT64_MAX;
}

int opfor_display_shutdown(opfor_display_t *m) {
    if (!m)
        return OPFOR_EINVAL;
    int rc = 0;
    if (m->have_pending) {
        m->have_pending = 0;
        rc = refresh(m, &m->pending, NULL);
    }
    int rc2 = opfor_epd_sleep(m->epd);
    m->asleep = m->epd->state != OPFOR_EPD_READY;
    return rc ? rc : rc2;
}
