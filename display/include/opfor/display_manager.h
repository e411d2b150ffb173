/* opfor/display_manager.h — the refresh policy over one panel, against ghosting: partial
 * refreshes of the changed window, a full one after max_partials in a row or full_every_ms,
 * at least min_interval_ms between refreshes (newest frame wins), deep sleep when idle and at
 * shutdown. Time comes from a caller's clock and the manager never sleeps itself: call
 * opfor_display_tick() when opfor_display_next_deadline() says.
 */
#ifndef OPFOR_DISPLAY_MANAGER_H
#define OPFOR_DISPLAY_MANAGER_H

#include <stdint.h>

#include "opfor/epd_device.h"

/* Policy knobs. */
typedef struct opfor_display_policy {
    unsigned max_partials;    /* partial refreshes in a row before a full one; default 5, 0 = never
                                 partial */
    uint64_t full_every_ms;   /* longest time since the last full refresh before a partial one is
                                 refused;   default 10 minutes */
    uint64_t min_interval_ms; /* shortest gap between two refreshes; default 2 s */
    uint64_t idle_sleep_ms;   /* deep sleep after this long without a refresh; default 60 s,
                                 0 = sleep right after each refresh */
    unsigned big_change_pct;  /* a change covering more than this share of the screen gets a
                                 whole-screen refresh instead of a partial one; default 60 */
    int fast_for_big_changes; /* 1: use the fast waveform for those (default 1), 0: full */
} opfor_display_policy_t;

/* Fills p with the defaults above. */
void opfor_display_policy_default(opfor_display_policy_t *p);

/* Monotonic milliseconds. */
typedef uint64_t (*opfor_display_clock_fn)(void *ctx);

/* What a call did. */
typedef enum opfor_display_action {
    OPFOR_DISPLAY_IDLE = 0,  /* nothing to do */
    OPFOR_DISPLAY_SHOWN,     /* refreshed: see kind and window */
    OPFOR_DISPLAY_UNCHANGED, /* the frame equals what is shown: no refresh */
    OPFOR_DISPLAY_DEFERRED,  /* too soon after the last refresh: kept as pending */
    OPFOR_DISPLAY_SLEPT      /* idle long enough: the panel went to deep sleep */
} opfor_display_action_t;

/* Outcome of opfor_display_show / opfor_display_tick. */
typedef struct opfor_display_outcome {
    opfor_display_action_t action; /* what happened */
    opfor_epd_refresh_t kind;      /* SHOWN: which refresh */
    opfor_epd_rect_t window;       /* SHOWN: the area refreshed (native pixels) */
} opfor_display_outcome_t;

/* The manager. About 100 KB (two frames): allocate it statically or on the heap. Fields are
 * read-only for callers. */
typedef struct opfor_display {
    opfor_epd_t *epd;             /* the panel (owned by the caller) */
    opfor_display_policy_t pol;   /* policy in force */
    opfor_display_clock_fn clock; /* time source */
    void *clock_ctx;              /* its argument */
    int have_shown;               /* shown holds what the panel displays */
    opfor_epd_frame_t shown;      /* the image on the panel */
    int have_pending;             /* a deferred frame waits in pending */
    opfor_epd_frame_t pending;    /* newest deferred frame */
    unsigned partials_in_row;     /* partial refreshes since the last full/fast one */
    int ever_refreshed;           /* last_refresh_ms is meaningful */
    uint64_t last_refresh_ms;     /* end of the last refresh */
    uint64_t last_full_ms;        /* end of the last full refresh */
    int asleep;                   /* the panel is in deep sleep */
    unsigned long counts[OPFOR_EPD_REFRESH_COUNT]; /* refreshes by kind */
    unsigned long deferred;                        /* frames held back */
    unsigned long errors;                          /* failed refreshes */
} opfor_display_t;

/* Prepares m over an opened device. pol may be NULL for the defaults. The first frame shown
 * always gets a full refresh (the panel content is unknown). */
int opfor_display_init(opfor_display_t *m, opfor_epd_t *epd, const opfor_display_policy_t *pol,
                       opfor_display_clock_fn clock, void *clock_ctx);

/* Asks for frame f (native size of the panel) to be shown. Picks the refresh: FULL when nothing
 * is known to be on the panel, after max_partials partial ones in a row or when full_every_ms
 * has passed since the last full one; FAST or FULL for a change larger than big_change_pct;
 * PARTIAL over the changed window otherwise. Too soon after the previous refresh the frame is
 * kept (DEFERRED) and shown by a later tick. out may be NULL. Errors from the device are
 * returned; after one the panel content counts as unknown. */
int opfor_display_show(opfor_display_t *m, const opfor_epd_frame_t *f,
                       opfor_display_outcome_t *out);

/* Periodic work: shows the pending frame once the minimum interval has passed, otherwise puts
 * the panel to sleep after idle_sleep_ms without a refresh. out may be NULL. */
int opfor_display_tick(opfor_display_t *m, opfor_display_outcome_t *out);

/* When opfor_display_tick next has something to do (clock ms), or UINT64_MAX for never. */
uint64_t opfor_display_next_deadline(const opfor_display_t *m);

/* Shows a pending frame now (ignoring the minimum interval), then puts the panel to sleep. */
int opfor_display_shutdown(opfor_display_t *m);

#endif
