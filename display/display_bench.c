/* display/display_bench.c — the display benchmark (display_bench.h): render the sample card and
 * push full, fast and partial refreshes of it through the driver into the emulator.
 *
 * Allocates its frames and emulator on the heap once per panel; the measured loops allocate
 * nothing themselves.
 */
#include "opfor/display_bench.h"

#include "opfor/display_card.h"
#include "opfor/epd_emu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double wall_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

typedef struct bench_state {
    opfor_card_t card_a, card_b; /* the sample and the same with one order changed */
    opfor_epd_frame_t a, b;      /* their frames */
    opfor_epd_t dev;             /* driver */
} bench_state_t;

static int bench_panel(const opfor_epd_panel_t *p, unsigned reps, bench_state_t *s,
                       opfor_display_bench_row_t *rows) {
    opfor_card_sample(&s->card_a);
    memcpy(&s->card_b, &s->card_a, sizeof s->card_a);
    snprintf(s->card_b.orders[1], sizeof s->card_b.orders[1], "%s",
             "Fire at the cavalry by the road");
    double t0 = wall_ms();
    int rc = 0;
    for (unsigned i = 0; i < reps && !rc; i++)
        rc = opfor_card_render_panel(&s->card_a, p, -1, &s->a, NULL);
    double render = (wall_ms() - t0) / reps;
    if (!rc)
        rc = opfor_card_render_panel(&s->card_b, p, -1, &s->b, NULL);
    if (rc)
        return rc;
    opfor_epd_emu_config_t cfg = {p, 0, 1u << 30, -1, 0};
    opfor_epd_emu_t *e = NULL;
    rc = opfor_epd_emu_new(&cfg, &e);
    if (rc)
        return rc;
    opfor_epd_transport_t *t = opfor_epd_emu_transport(e);
    rc = opfor_epd_open(&s->dev, p, t);
    if (!rc)
        rc = opfor_epd_wake(&s->dev, OPFOR_EPD_REFRESH_FULL);
    if (!rc)
        rc = opfor_epd_refresh(&s->dev, OPFOR_EPD_REFRESH_FULL, &s->a, NULL, NULL);
    opfor_epd_rect_t box;
    opfor_epd_frame_diff(&s->a, &s->b, &box);
    static const opfor_epd_refresh_t kinds[3] = {OPFOR_EPD_REFRESH_FULL, OPFOR_EPD_REFRESH_FAST,
                                                 OPFOR_EPD_REFRESH_PARTIAL};
    for (int k = 0; k < 3 && !rc; k++) {
        unsigned long bytes0 = t->bytes_cmd + t->bytes_data, tr0 = t->transfers;
        uint64_t sim0 = opfor_epd_emu_now_ms(e);
        double w0 = wall_ms();
        for (unsigned i = 0; i < reps && !rc; i++) {
            /* alternate between the two cards so every refresh has something to change */
            const opfor_epd_frame_t *next = (i & 1) ? &s->a : &s->b;
            const opfor_epd_frame_t *shown = (i & 1) ? &s->b : &s->a;
            rc = opfor_epd_refresh(&s->dev, kinds[k], next, shown, &box);
        }
        if (rc)
            break;
        opfor_display_bench_row_t *r = &rows[k];
        r->panel = p->name;
        r->kind = kinds[k];
        r->render_ms = render;
        r->send_ms = (wall_ms() - w0) / reps;
        r->bytes = (t->bytes_cmd + t->bytes_data - bytes0) / reps;
        r->transfers = (t->transfers - tr0) / reps;
        r->panel_ms = (double)(opfor_epd_emu_now_ms(e) - sim0) / reps;
        /* an odd count leaves b on the panel: put a back for the next kind (not measured) */
        if (reps & 1)
            rc = opfor_epd_refresh(&s->dev, OPFOR_EPD_REFRESH_FULL, &s->a, &s->b, NULL);
    }
    opfor_epd_emu_free(e);
    return rc;
}

int opfor_display_bench(unsigned reps, opfor_display_bench_row_t *rows, size_t max_rows,
                        size_t *n_rows) {
    if (!rows || !n_rows)
        return OPFOR_EINVAL;
    *n_rows = 0;
    if (reps < 1)
        reps = 1;
    bench_state_t *s = calloc(1, sizeof *s);
    if (!s)
        return OPFOR_ENOMEM;
    int rc = 0;
    opfor_display_bench_row_t tmp[3];
    for (int i = 0; opfor_epd_panels[i] && !rc; i++) {
        rc = bench_panel(opfor_epd_panels[i], reps, s, tmp);
        for (int k = 0; k < 3 && !rc && *n_rows < max_rows; k++)
            rows[(*n_rows)++] = tmp[k];
    }
    free(s);
    return rc;
}
