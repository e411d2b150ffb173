/* io/web_files.c — the table page's files, built into opford (io/CMakeLists.txt embeds
 * io/web/ and the @msgpack/msgpack bundle fetched from npm at build time), so the binary alone
 * serves the page: `make run` needs no install step and no path to find. */
#include "web_int.h"

#include <string.h>

extern const unsigned char opfor_web_index_html[], opfor_web_app_js[], opfor_web_map_js[],
    opfor_web_play_js[], opfor_web_style_css[], opfor_web_msgpack_js[];
extern const unsigned long opfor_web_index_html_len, opfor_web_app_js_len, opfor_web_map_js_len,
    opfor_web_play_js_len, opfor_web_style_css_len, opfor_web_msgpack_js_len;

static const opfor_web_file_t files[] = {
    {"/index.html", "text/html; charset=utf-8", opfor_web_index_html, &opfor_web_index_html_len},
    {"/app.js", "text/javascript; charset=utf-8", opfor_web_app_js, &opfor_web_app_js_len},
    {"/map.js", "text/javascript; charset=utf-8", opfor_web_map_js, &opfor_web_map_js_len},
    {"/play.js", "text/javascript; charset=utf-8", opfor_web_play_js, &opfor_web_play_js_len},
    {"/style.css", "text/css; charset=utf-8", opfor_web_style_css, &opfor_web_style_css_len},
    {"/msgpack.min.js", "text/javascript; charset=utf-8", opfor_web_msgpack_js,
     &opfor_web_msgpack_js_len},
};

const opfor_web_file_t *opfor__web_file(const char *path) {
    if (strcmp(path, "/") == 0)
        path = "/index.html";
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (strcmp(files[i].path, path) == 0)
            return &files[i];
    return NULL;
}
