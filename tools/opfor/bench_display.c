/* tools/opfor/bench_display.c — `opfor bench display`: drawing and sending the orders card.
 *
 * Calls the display library's measurement (display/display_bench.c) five times and reports,
 * per panel and refresh kind, the median render time, driver time, bytes on the wire and the
 * software's share of the panel's own refresh time (target: under 5 percent).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "cli.h"
#include "json_out.h"
#include "opfor/display_bench.h"
#include "opfor/error.h"

#define RUNS 5
#define TARGET_SHARE 0.05

int opfor_bench_display(int argc, char **argv) {
    int json = 0, usage_rc;
    long reps = 10;
    char about[400];
    snprintf(about, sizeof about,
             "Renders the orders card and drives each panel's refresh against the\n"
             "emulator; prints the median of %d runs per panel and refresh kind: render\n"
             "time, driver time, bytes sent, the panel's own refresh time, and the\n"
             "software's share of it (target under %.0f%%).",
             RUNS, TARGET_SHARE * 100);
    const opfor_cli_opt_t opts[] = {
        {.name = "--reps",
         .type = OPFOR_CLI_WHOLE,
         .whole = &reps,
         .lo = 1,
         .hi = 1000,
         .arg = "N",
         .help = "refreshes per run (default 10)"},
        OPFOR_CLI_JSON_OPT(&json),
        {0},
    };
    const opfor_cli_spec_t spec = {.cmd = "bench display", .about = about, .opts = opts};
    if (opfor_cli_parse(&spec, argc, argv, 1, &usage_rc))
        return usage_rc;
    opfor_display_bench_row_t runs[RUNS][OPFOR_DISPLAY_BENCH_ROWS];
    size_t n = 0;
    for (int r = 0; r < RUNS; r++) {
        int rc = opfor_display_bench((unsigned)reps, runs[r], OPFOR_DISPLAY_BENCH_ROWS, &n);
        if (rc != 0)
            return opfor_cli_fail("bench display: %s", opfor_strerror(rc));
    }
    opfor_json_t j;
    if (json) {
        opfor_json_init(&j, stdout);
        opfor_json_obj_begin(&j);
        opfor_json_kv_int(&j, "runs", RUNS);
        opfor_json_kv_num(&j, "target_share", TARGET_SHARE);
        opfor_json_key(&j, "rows");
        opfor_json_arr_begin(&j);
    } else {
        printf("%-12s %-8s %10s %10s %10s %10s %8s\n", "panel", "refresh", "render ms", "driver ms",
               "bytes", "panel ms", "share");
    }
    int all_ok = 1;
    for (size_t k = 0; k < n; k++) {
        double render[RUNS], send[RUNS], panel[RUNS];
        for (int r = 0; r < RUNS; r++) {
            render[r] = runs[r][k].render_ms;
            send[r] = runs[r][k].send_ms;
            panel[r] = runs[r][k].panel_ms;
        }
        double rm = opfor_bench_median(render, RUNS), sm = opfor_bench_median(send, RUNS),
               pm = opfor_bench_median(panel, RUNS);
        double share = pm > 0 ? (rm + sm) / pm : 0;
        int ok = share < TARGET_SHARE;
        all_ok &= ok;
        const opfor_display_bench_row_t *row = &runs[0][k];
        if (json) {
            opfor_json_obj_begin(&j);
            opfor_json_kv_str(&j, "panel", row->panel);
            opfor_json_kv_str(&j, "refresh", opfor_epd_refresh_name(row->kind));
            opfor_json_kv_num(&j, "render_ms", rm);
            opfor_json_kv_num(&j, "driver_ms", sm);
            opfor_json_kv_int(&j, "bytes", (int64_t)row->bytes);
            opfor_json_kv_int(&j, "transfers", (int64_t)row->transfers);
            opfor_json_kv_num(&j, "panel_ms", pm);
            opfor_json_kv_num(&j, "share", share);
            opfor_json_kv_bool(&j, "meets_target", ok);
            opfor_json_obj_end(&j);
        } else {
            printf("%-12s %-8s %10.2f %10.2f %10lu %10.0f %7.2f%%%s\n", row->panel,
                   opfor_epd_refresh_name(row->kind), rm, sm, row->bytes, pm, share * 100,
                   ok ? "" : "  (over target)");
        }
    }
    if (json) {
        opfor_json_arr_end(&j);
        opfor_json_kv_bool(&j, "meets_target", all_ok);
        opfor_json_obj_end(&j);
        opfor_json_end(&j);
    }
    return OPFOR_EXIT_OK;
}
