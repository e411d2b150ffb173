/* display/display_render.c — draws the orders card (display_card.h) with Cairo + Pango into a
 * 1-bit frame: a large layout (text column plus mini-map) and a compact one for the 2.13 inch
 * panel. Laid out upright on an A8 surface with anti-aliasing off (hinting full), then
 * thresholded and rotated bit by bit into the native frame, so glyph hinting is the same at
 * every rotation.
 */
#include "opfor/display_card.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *side_label(const opfor_card_t *c) {
    if (c->side_name[0])
        return c->side_name;
    return c->initiative == OPFOR_CARD_SIDE_PLAYER ? "Player" : "Enemy";
}

int opfor_card_render_panel(const opfor_card_t *card, const opfor_epd_panel_t *panel, int rotation,
                            opfor_epd_frame_t *out, opfor_card_layout_t *layout) {
    if (!panel)
        return OPFOR_EINVAL;
    if (rotation < 0)
        rotation = panel->default_rotation;
    return opfor_card_render(card, panel->width, panel->height, rotation, out, layout);
}

static void copy_str(char *dst, size_t size, const char *src) {
    snprintf(dst, size, "%s", src);
}

void opfor_card_qr_set(opfor_card_t *c, int x, int y, int dark) {
    if (x < 0 || y < 0 || x >= OPFOR_CARD_QR_MAX || y >= OPFOR_CARD_QR_MAX)
        return;
    uint8_t bit = (uint8_t)(1u << (x % 8));
    if (dark)
        c->qr[y][x / 8] |= bit;
    else
        c->qr[y][x / 8] &= (uint8_t)~bit;
}

int opfor_card_qr_dark(const opfor_card_t *c, int x, int y) {
    if (x < 0 || y < 0 || x >= c->qr_width || y >= c->qr_width || x >= OPFOR_CARD_QR_MAX ||
        y >= OPFOR_CARD_QR_MAX)
        return 0;
    return (c->qr[y][x / 8] >> (x % 8)) & 1;
}

void opfor_card_sample(opfor_card_t *c) {
    memset(c, 0, sizeof *c);
    c->initiative = OPFOR_CARD_SIDE_OPFOR;
    copy_str(c->unit, sizeof c->unit, "2nd Rifle Section");
    copy_str(c->turn, sizeof c->turn, "Turn 3");
    c->n_orders = 3;
    copy_str(c->orders[0], sizeof c->orders[0], "Advance 6\" to the stone wall");
    copy_str(c->orders[1], sizeof c->orders[1], "Fire at the MG team in the farmhouse");
    copy_str(c->orders[2], sizeof c->orders[2], "Leader stays with the section");
    c->n_needed = 3;
    copy_str(c->needed[0], sizeof c->needed[0], "Hit 5+ (moving)");
    copy_str(c->needed[1], sizeof c->needed[1], "Target saves 4+ (hard cover)");
    copy_str(c->needed[2], sizeof c->needed[2], "Critical on a second 6");
    opfor_scene_t *m = &c->map;
    m->width = 48;
    m->depth = 36;
    /* drawn as points from the top-left corner (y down), stored from the south-west one */
    static const struct {
        uint8_t style, closed, n;
        float v[12][2];
    } t[] = {
        {OPFOR_SCENE_WOODS, 1, 7, {{3, 4}, {12, 2}, {17, 6}, {15, 13}, {9, 15}, {4, 12}, {2, 8}}},
        {OPFOR_SCENE_BUILDING, 1, 4, {{30, 8}, {37, 8}, {37, 13}, {30, 13}}},
        {OPFOR_SCENE_HILL, 1, 6, {{22, 22}, {30, 19}, {38, 22}, {37, 29}, {28, 31}, {21, 28}}},
        {OPFOR_SCENE_ROAD, 0, 4, {{0, 18}, {14, 18}, {26, 15}, {48, 15}}},
        {OPFOR_SCENE_LINEAR, 0, 2, {{18, 9}, {27, 11}}},
        {OPFOR_SCENE_WATER, 0, 4, {{6, 36}, {9, 29}, {7, 24}, {0, 21}}},
        {OPFOR_SCENE_ROUGH, 1, 4, {{40, 28}, {46, 27}, {47, 34}, {41, 34}}},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        opfor_scene_shape_t sh;
        memset(&sh, 0, sizeof sh);
        sh.style = t[i].style;
        sh.closed = t[i].closed;
        sh.n = t[i].n;
        for (int j = 0; j < t[i].n; j++)
            sh.v[j] = (opfor_scene_pt_t){t[i].v[j][0], m->depth - t[i].v[j][1]};
        opfor_scene_add_shape(m, &sh);
    }
    static const struct {
        float x, y;
        uint8_t flags;
        const char *name;
    } u[] = {
        {20, 6, OPFOR_SCENE_U_AI | OPFOR_SCENE_U_ACTING, "2nd Rifle Section"},
        {33.5f, 10.5f, OPFOR_SCENE_U_TARGET, "MG Team"},
        {12, 25, 0, "1st Squad"},
        {40, 20, 0, "Sniper"},
        {8, 9, OPFOR_SCENE_U_AI, "Platoon HQ"},
        {44, 4, OPFOR_SCENE_U_AI | OPFOR_SCENE_U_SPOTTED, "Scout Car"},
    };
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
        opfor_scene_unit_t su;
        memset(&su, 0, sizeof su);
        su.at = (opfor_scene_pt_t){u[i].x, m->depth - u[i].y};
        su.flags = u[i].flags;
        su.id = (uint16_t)i;
        copy_str(su.name, sizeof su.name, u[i].name);
        opfor_scene_add_unit(m, &su);
    }
    /* the section fires at the target; the spotted unit came in from the east edge */
    opfor_scene_add_arrow(m, OPFOR_SCENE_FIRE, m->units[0].at, m->units[1].at);
    opfor_scene_add_arrow(m, OPFOR_SCENE_PLACE, (opfor_scene_pt_t){48, m->depth - 4},
                          m->units[5].at);
}

#ifdef OPFOR_HAVE_PANGOCAIRO

#include <cairo.h>
#include <glib.h>
#include <pango/pangocairo.h>

/* Drawing state for one render. */
typedef struct pen {
    cairo_t *cr;            /* on the logical A8 surface */
    PangoLayout *lay;       /* reused for every text block */
    int w, h;               /* logical size */
    opfor_card_layout_t *L; /* counts what had to be shortened or cut (drawing only) */
} pen_t;

static void ink(cairo_t *cr) {
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
    cairo_set_source_rgba(cr, 0, 0, 0, 1);
}

static void paper(cairo_t *cr) {
    cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
}

/* Copies s, replacing bytes that are not valid UTF-8 by '?' (Pango would complain). */
static void sanitize(char *dst, size_t size, const char *s) {
    size_t n = 0;
    const char *p = s;
    while (*p && n + 1 < size) {
        const gchar *end = NULL;
        if (g_utf8_validate(p, -1, &end)) {
            size_t len = strlen(p);
            if (n + len >= size)
                len = size - 1 - n;
            memcpy(dst + n, p, len);
            n += len;
            break;
        }
        size_t good = (size_t)(end - p);
        if (n + good >= size)
            good = size - 1 - n;
        memcpy(dst + n, p, good);
        n += good;
        p = end;
        if (n + 1 < size && *p) {
            dst[n++] = '?';
            p++;
        }
    }
    /* never cut a multi-byte sequence in half */
    dst[n] = '\0';
    const gchar *end = NULL;
    if (!g_utf8_validate(dst, -1, &end))
        dst[end - dst] = '\0';
}

enum { ALIGN_LEFT = 0, ALIGN_RIGHT = 1 };

/* ---- fitting text: shorten words, never cut a number ----
 *
 * A text that does not fit its box (width, lines) is first shortened: words the table reads
 * the same way in short ("inches" -> "in", "Section" -> "Sec", "To hit" -> "Hit"), in two
 * stages, the lighter first. Only when the shortest form still does not fit is it cut, at a
 * word, with an ellipsis; such a cut is counted in the layout, and counted again as cutting a
 * term when the words it hides hold a digit (a number, a score, a dice term such as 3d6+6) or
 * follow one (its unit, "in", and what comes after). A card whose layout shows no cut term
 * tells the table every number it needs. */

/* Whole-word replacements, applied in order; from "" never occurs. */
typedef struct abbrev {
    const char *from, *to;
} abbrev_t;

static const abbrev_t SHORT_LIGHT[] = {
    {"inches", "in"}, {"in away", "in"},   {"toward", "to"}, {"To hit", "Hit"}, {"to hit", "hit"},
    {"(move ", "("},  {"the ", ""},        {"The ", ""},     {"a ", ""},        {"and ", "& "},
    {"with ", "w/ "}, {"leaders", "ldrs"}, {NULL, NULL},
};

static const abbrev_t SHORT_HEAVY[] = {
    {"Advance", "Adv"},      {"advance", "adv"},   {"Section", "Sec"}, {"Company", "Coy"},
    {"Infantry", "Inf"},     {"Command", "Cmd"},   {"command", "cmd"}, {"Target", "Tgt"},
    {"target", "tgt"},       {"Critical", "Crit"}, {"second", "2nd"},  {"(charge ", "(chg "},
    {"charge", "chg"},       {"Charge", "Chg"},    {"moving", "mov"},  {"failed", "fail"},
    {"restricted", "restr"}, {"section", "sec"},   {"Morale", "Mor"},  {"Leader", "Ldr"},
    {"leader", "ldr"},       {NULL, NULL},
};

static int word_char(char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* Applies table to s in place (size bytes): each from that starts and ends at a word's
 * boundary (or at its own punctuation) becomes to. */
static void apply_short(char *s, size_t size, const abbrev_t *table) {
    char out[272];
    for (const abbrev_t *a = table; a->from; a++) {
        size_t fl = strlen(a->from), o = 0;
        const char *p = s;
        while (*p && o + 1 < sizeof out) {
            int at_start = p == s || !word_char(p[-1]);
            int ends = !word_char(a->from[fl - 1]) || !word_char(p[fl]);
            if (at_start && strncmp(p, a->from, fl) == 0 && ends) {
                size_t tl = strlen(a->to);
                if (o + tl >= sizeof out)
                    break;
                memcpy(out + o, a->to, tl);
                o += tl;
                p += fl;
                continue;
            }
            out[o++] = *p++;
        }
        if (o >= size)
            o = size - 1;
        memcpy(s, out, o);
        s[o] = '\0';
    }
}

/* Sets the layout's font and box for s (no ellipsis, every line); returns its line count. */
static int lay_out(pen_t *p, const char *s, int px, int bold, int w, int align) {
    if (w < 1)
        w = 1; /* a box with no room: every word on a line of its own */
    PangoFontDescription *fd = pango_font_description_new();
    pango_font_description_set_family(fd, "DejaVu Sans");
    pango_font_description_set_weight(fd, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_font_description_set_absolute_size(fd, (double)px * PANGO_SCALE);
    pango_layout_set_font_description(p->lay, fd);
    pango_font_description_free(fd);
    pango_layout_set_width(p->lay, w * PANGO_SCALE);
    pango_layout_set_wrap(p->lay, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_ellipsize(p->lay, PANGO_ELLIPSIZE_NONE);
    pango_layout_set_height(p->lay, -1);
    pango_layout_set_alignment(p->lay, align == ALIGN_RIGHT ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT);
    pango_layout_set_text(p->lay, s, -1);
    return pango_layout_get_line_count(p->lay);
}

/* Whether the word at w (up to a space or the end) holds a digit. */
static int word_has_digit(const char *w) {
    for (; *w && *w != ' '; w++)
        if (*w >= '0' && *w <= '9')
            return 1;
    return 0;
}

/* What fitting a text gave. */
typedef struct fitted {
    char s[264];   /* the text to draw */
    int shortened; /* 1: words were shortened */
    int cut;       /* 1: cut at a word with an ellipsis */
    int cut_terms; /* 1: the cut hid a number or a dice term (or what follows one) */
} fitted_t;

/* Fits s into at most max_lines lines w wide: as it is, shortened, or cut at a word. */
static void fit(pen_t *p, const char *s, int px, int bold, int w, int max_lines, int align,
                fitted_t *f) {
    memset(f, 0, sizeof *f);
    sanitize(f->s, sizeof f->s, s);
    if (max_lines < 1)
        max_lines = 1;
    if (lay_out(p, f->s, px, bold, w, align) <= max_lines)
        return;
    char t[sizeof f->s];
    memcpy(t, f->s, sizeof t);
    apply_short(t, sizeof t, SHORT_LIGHT);
    if (lay_out(p, t, px, bold, w, align) > max_lines)
        apply_short(t, sizeof t, SHORT_HEAVY);
    if (lay_out(p, t, px, bold, w, align) <= max_lines) {
        memcpy(f->s, t, sizeof t);
        f->shortened = 1;
        return;
    }
    /* cut at the last word boundary that leaves "words…" fitting */
    f->shortened = 1;
    f->cut = 1;
    size_t len = strlen(t);
    for (;;) {
        while (len > 0 && t[len - 1] == ' ')
            len--;
        size_t sp = len;
        while (sp > 0 && t[sp - 1] != ' ')
            sp--;
        if (sp == 0)
            break; /* one word left: Pango's own ellipsis below */
        len = sp;
        char cand[sizeof f->s + 4]; /* the words before sp, then an ellipsis */
        memcpy(cand, t, sp - 1);
        memcpy(cand + sp - 1, "\xE2\x80\xA6", 4);
        if (lay_out(p, cand, px, bold, w, align) <= max_lines) {
            /* the hidden words, and the last word kept (a number's unit may be hidden) */
            size_t k0 = sp - 1;
            while (k0 > 0 && t[k0 - 1] != ' ')
                k0--;
            int terms = word_has_digit(t + k0);
            for (const char *q = t + sp; *q; q++)
                if ((q == t + sp || q[-1] == ' ') && word_has_digit(q))
                    terms = 1;
            f->cut_terms = terms;
            memcpy(f->s, cand, sizeof f->s - 1);
            f->s[sizeof f->s - 1] = '\0';
            return;
        }
    }
    /* a single word too long for the box: Pango's ellipsis cuts it wherever it must */
    memcpy(f->s, t, sizeof t);
    f->cut_terms = strpbrk(t, "0123456789") != NULL;
}

/* Lays out s in a box w wide at font size px, at most max_lines lines, shortened or cut as
 * fit() says. Draws it at (x, y) unless measure_only (drawing counts shortenings and cuts in
 * the layout). Returns the height used in pixels and the box in *box. */
static int text(pen_t *p, const char *s, int px, int bold, int x, int y, int w, int max_lines,
                int align, int measure_only, opfor_epd_rect_t *box) {
    fitted_t f;
    fit(p, s, px, bold, w, max_lines, align, &f);
    lay_out(p, f.s, px, bold, w, align);
    pango_layout_set_ellipsize(p->lay, PANGO_ELLIPSIZE_END); /* a word longer than the box */
    pango_layout_set_height(p->lay, -(max_lines > 0 ? max_lines : 1));
    PangoRectangle logical;
    pango_layout_get_pixel_extents(p->lay, NULL, &logical);
    if (!measure_only) {
        cairo_move_to(p->cr, x, y);
        pango_cairo_show_layout(p->cr, p->lay);
        if (p->L) {
            p->L->shortened += f.shortened;
            p->L->cut += f.cut;
            p->L->cut_terms += f.cut_terms;
        }
    }
    if (box)
        *box = (opfor_epd_rect_t){x, y, w, logical.height};
    return logical.height;
}

/* Whether s fits w x max_lines at px as it is or shortened (no cut). */
static int fits(pen_t *p, const char *s, int px, int bold, int w, int max_lines) {
    fitted_t f;
    fit(p, s, px, bold, w, max_lines, ALIGN_LEFT, &f);
    return !f.cut;
}

static void fill_rect(cairo_t *cr, double x, double y, double w, double h) {
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill(cr);
}

static void hline(cairo_t *cr, double x0, double x1, double y, double width) {
    cairo_set_line_width(cr, width);
    cairo_move_to(cr, x0, y);
    cairo_line_to(cr, x1, y);
    cairo_stroke(cr);
}

/* Width in pixels of s on one line at font size px. */
static int text_width(pen_t *p, const char *s, int px, int bold) {
    text(p, s, px, bold, 0, 0, 10000, 1, ALIGN_LEFT, 1, NULL);
    PangoRectangle logical;
    pango_layout_get_pixel_extents(p->lay, NULL, &logical);
    return logical.width;
}

/* The mark in front of order line i: its number, a bullet when the lines are a choice, nothing
 * for notes. */
static void order_mark(const opfor_card_t *c, int i, char *buf, size_t n) {
    if (c->choice == OPFOR_CARD_NOTES || (i < 8 && (c->cont >> i) & 1))
        buf[0] = '\0';
    else if (c->choice)
        snprintf(buf, n, "\xE2\x80\xA2"); /* bullet */
    else
        snprintf(buf, n, "%d", i + 1);
}

/* The initiative bar: filled when the non-player side acts, outlined when the players do (or
 * nobody: a notes card's bar gives its side name as it is, "No initiative"). The turn note goes
 * to the right when both fit. */
static void header(pen_t *p, const opfor_card_t *c, opfor_epd_rect_t r, int px,
                   opfor_card_layout_t *L) {
    cairo_t *cr = p->cr;
    int pad = px / 2 > 4 ? px / 2 : 4;
    char title[64];
    int opfor = c->initiative != OPFOR_CARD_SIDE_PLAYER;
    if (c->choice == OPFOR_CARD_NOTES)
        snprintf(title, sizeof title, "%s", side_label(c));
    else
        snprintf(title, sizeof title, "%s to act", side_label(c)); /* "Germans to act" */
    ink(cr);
    if (opfor) {
        fill_rect(cr, r.x, r.y, r.w, r.h);
        paper(cr); /* text cut out of the bar */
    } else {
        cairo_set_line_width(cr, 2);
        cairo_rectangle(cr, r.x + 1, r.y + 1, r.w - 2, r.h - 2);
        cairo_stroke(cr);
    }
    int tpx = px * 3 / 4;
    int turn_w = c->turn[0] ? text_width(p, c->turn, tpx, 0) : 0;
    if (turn_w && text_width(p, title, px, 1) + turn_w + 3 * pad > r.w)
        turn_w = 0; /* no room: the initiative matters more */
    int title_w = r.w - 2 * pad - (turn_w ? turn_w + pad : 0);
    int th = text(p, title, px, 1, 0, 0, title_w, 1, ALIGN_LEFT, 1, NULL);
    text(p, title, px, 1, r.x + pad, r.y + (r.h - th) / 2, title_w, 1, ALIGN_LEFT, 0, NULL);
    if (turn_w) {
        int t2 = text(p, c->turn, tpx, 0, 0, 0, turn_w, 1, ALIGN_RIGHT, 1, NULL);
        text(p, c->turn, tpx, 0, r.x + r.w - pad - turn_w, r.y + (r.h - t2) / 2, turn_w, 1,
             ALIGN_RIGHT, 0, NULL);
    }
    ink(cr);
    L->header = r;
}

/* ---- mini-map ---- */

typedef struct mapxf {
    double ox, oy, s; /* device = origin + inches * s, inches from the top-left corner */
    float depth;      /* the table's depth: scene y (north up) becomes depth - y (down) */
} mapxf_t;

/* A point from the top-left corner of the table as drawn, in inches (y down). */
typedef struct dpt {
    float x, y;
} dpt_t;

/* A shape turned to drawing coordinates. */
typedef struct dshape {
    uint8_t style, closed, n;
    dpt_t v[OPFOR_SCENE_MAX_VERTS];
} dshape_t;

static dpt_t down(const mapxf_t *m, opfor_scene_pt_t p) {
    return (dpt_t){p.x, (float)(m->depth - p.y)};
}

static void to_dev(const mapxf_t *m, dpt_t q, double *x, double *y) {
    *x = m->ox + q.x * m->s;
    *y = m->oy + q.y * m->s;
}

static void scene_to_dev(const mapxf_t *m, opfor_scene_pt_t p, double *x, double *y) {
    to_dev(m, down(m, p), x, y);
}

static void path_shape(cairo_t *cr, const mapxf_t *m, const dshape_t *t) {
    cairo_new_path(cr);
    for (int i = 0; i < t->n; i++) {
        double x, y;
        to_dev(m, t->v[i], &x, &y);
        if (i == 0)
            cairo_move_to(cr, x, y);
        else
            cairo_line_to(cr, x, y);
    }
    if (t->closed)
        cairo_close_path(cr);
}

/* Fills the current path (kept) with a pattern of dots or hatch lines, clipped to it. */
static void texture(cairo_t *cr, int w, int h, int style) {
    cairo_save(cr);
    cairo_clip_preserve(cr);
    cairo_new_path(cr);
    if (style == 0) { /* woods: dense dots */
        for (int y = 0; y < h; y += 6)
            for (int x = (y / 6) % 2 * 3; x < w; x += 6)
                cairo_rectangle(cr, x, y, 2, 2);
        cairo_fill(cr);
    } else if (style == 1) { /* rough: sparse dots */
        for (int y = 0; y < h; y += 9)
            for (int x = (y / 9) % 2 * 4; x < w; x += 9)
                cairo_rectangle(cr, x, y, 2, 2);
        cairo_fill(cr);
    } else { /* hatch: 2 one way, 3 both ways */
        cairo_set_line_width(cr, 1);
        for (int k = -h; k < w; k += 5) {
            cairo_move_to(cr, k, 0);
            cairo_line_to(cr, k + h, h);
            if (style == 3) {
                cairo_move_to(cr, k + h, 0);
                cairo_line_to(cr, k, h);
            }
        }
        cairo_stroke(cr);
    }
    cairo_restore(cr);
}

static void stroke_style(cairo_t *cr, double width, const double *dash, int ndash) {
    cairo_set_line_width(cr, width);
    cairo_set_dash(cr, dash, ndash, 0);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
}

/* A closed area's texture (pattern number tx), then its outline path again for the stroke:
   the path is not part of the state texture() saves and restores. */
static void textured_area(pen_t *p, const mapxf_t *m, const dshape_t *t, int tx) {
    if (!t->closed)
        return;
    texture(p->cr, p->w, p->h, tx);
    path_shape(p->cr, m, t);
}

/* The centre of t's vertices, in drawing inches. */
static void centroid(const dshape_t *t, double *cx, double *cy) {
    *cx = *cy = 0;
    for (int i = 0; i < t->n; i++) {
        *cx += t->v[i].x;
        *cy += t->v[i].y;
    }
    *cx /= t->n;
    *cy /= t->n;
}

static void draw_shape(pen_t *p, const mapxf_t *m, const opfor_scene_shape_t *sh) {
    cairo_t *cr = p->cr;
    static const double d_woods[] = {5, 3}, d_hedge[] = {4, 2}, d_fence[] = {3, 2},
                        d_open[] = {1, 3}, d_rough[] = {2, 3}, d_works[] = {6, 2},
                        d_zone[] = {6, 4};
    dshape_t t;
    t.style = sh->style;
    t.closed = sh->closed;
    t.n = sh->n > OPFOR_SCENE_MAX_VERTS ? OPFOR_SCENE_MAX_VERTS : sh->n;
    if (t.n < 2)
        return;
    for (int i = 0; i < t.n; i++)
        t.v[i] = down(m, sh->v[i]);
    ink(cr);
    path_shape(cr, m, &t);
    switch (t.style) {
    case OPFOR_SCENE_WOODS:
        textured_area(p, m, &t, 0);
        stroke_style(cr, 2, d_woods, 2);
        break;
    case OPFOR_SCENE_BUILDING:
        textured_area(p, m, &t, 2);
        stroke_style(cr, 2, NULL, 0);
        break;
    case OPFOR_SCENE_IMPASSABLE:
        textured_area(p, m, &t, 3);
        stroke_style(cr, 2, NULL, 0);
        break;
    case OPFOR_SCENE_ROUGH:
        textured_area(p, m, &t, 1);
        stroke_style(cr, 1, d_rough, 2);
        break;
    case OPFOR_SCENE_HILL: {
        stroke_style(cr, 1, NULL, 0);
        if (t.closed) { /* an inner contour line */
            double cx, cy;
            centroid(&t, &cx, &cy);
            dshape_t in = t;
            for (int i = 0; i < t.n; i++) {
                in.v[i].x = (float)(cx + (t.v[i].x - cx) * 0.55);
                in.v[i].y = (float)(cy + (t.v[i].y - cy) * 0.55);
            }
            path_shape(cr, m, &in);
            stroke_style(cr, 1, NULL, 0);
        }
        break;
    }
    case OPFOR_SCENE_ROAD:
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
        cairo_set_line_width(cr, 7);
        cairo_stroke_preserve(cr);
        paper(cr);
        cairo_set_line_width(cr, 3);
        cairo_stroke(cr);
        ink(cr);
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
        break;
    case OPFOR_SCENE_WATER:
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
        stroke_style(cr, 5, NULL, 0);
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
        break;
    case OPFOR_SCENE_LINEAR:
        stroke_style(cr, 3, NULL, 0);
        break;
    case OPFOR_SCENE_HEDGE:
        stroke_style(cr, 3, d_hedge, 2);
        break;
    case OPFOR_SCENE_FENCE:
        stroke_style(cr, 1, d_fence, 2);
        break;
    case OPFOR_SCENE_WORKS:
        stroke_style(cr, 3, d_works, 2);
        break;
    case OPFOR_SCENE_ZONE:
        stroke_style(cr, 1, d_zone, 2);
        break;
    case OPFOR_SCENE_OBJECTIVE: { /* a heavy outline and a dot in the middle */
        stroke_style(cr, 2, NULL, 0);
        double cx, cy, x, y;
        centroid(&t, &cx, &cy);
        to_dev(m, (dpt_t){(float)cx, (float)cy}, &x, &y);
        cairo_arc(cr, x, y, 4, 0, 2 * G_PI);
        cairo_fill(cr);
        break;
    }
    default:
        stroke_style(cr, 1, d_open, 2);
        break;
    }
}

/* Arrow from (x0, y0) to (x1, y1) with a filled head of size hs. */
static void arrow(cairo_t *cr, double x0, double y0, double x1, double y1, double hs) {
    double dx = x1 - x0, dy = y1 - y0;
    double len = dx * dx + dy * dy;
    if (len < 1)
        return;
    len = sqrt(len);
    double ux = dx / len, uy = dy / len;
    double bx = x1 - ux * hs, by = y1 - uy * hs;
    cairo_set_line_width(cr, 2);
    cairo_move_to(cr, x0, y0);
    cairo_line_to(cr, bx, by);
    cairo_stroke(cr);
    cairo_move_to(cr, x1, y1);
    cairo_line_to(cr, bx - uy * hs * 0.5, by + ux * hs * 0.5);
    cairo_line_to(cr, bx + uy * hs * 0.5, by - ux * hs * 0.5);
    cairo_close_path(cr);
    cairo_fill(cr);
}

/* Point on the segment from (x0,y0) towards (x1,y1) at distance d from (x1,y1). */
static void short_of(double x0, double y0, double *x1, double *y1, double d) {
    double dx = *x1 - x0, dy = *y1 - y0;
    double len = sqrt(dx * dx + dy * dy);
    if (len <= d)
        return;
    *x1 -= dx / len * d;
    *y1 -= dy / len * d;
}

/* How the units of one map are drawn. */
typedef struct unitdraw {
    double u;    /* side of a size-0 unit's square marker, pixels */
    double ring; /* radius of its ring */
} unitdraw_t;

/* One unit in device terms: centre (whole pixels), half sizes along its frontage and its
 * facing, the facing's unit vector (y down), and its ring's radius. */
typedef struct dunit {
    double x, y;   /* centre */
    double hw, hd; /* half frontage, half depth, pixels */
    double fx, fy; /* facing, a unit vector in device axes */
    int marker;    /* 1: a size-0 unit, drawn as the square marker */
    double ring;   /* ring radius */
    double size;   /* its larger side, pixels */
} dunit_t;

static void unit_geom(const mapxf_t *m, const unitdraw_t *ud, const opfor_scene_unit_t *un,
                      dunit_t *g) {
    double x, y;
    scene_to_dev(m, un->at, &x, &y);
    g->x = (int)x;
    g->y = (int)y;
    g->marker = !(un->w > 0 && un->d > 0);
    double a = (double)un->facing * G_PI / 180.0;
    g->fx = sin(a);
    g->fy = -cos(a);
    if (g->marker) {
        g->hw = g->hd = ud->u / 2;
        g->ring = ud->ring;
        g->size = ud->u;
        return;
    }
    double w = un->w * m->s, d = un->d * m->s;
    g->hw = (w < 6 ? 6 : w) / 2;
    g->hd = (d < 4 ? 4 : d) / 2;
    double r = sqrt(g->hw * g->hw + g->hd * g->hd) + 4;
    g->ring = r > ud->ring ? r : ud->ring;
    g->size = 2 * (g->hw > g->hd ? g->hw : g->hd);
}

/* The path of g's rectangle grown by grow pixels on every side. */
static void unit_path(cairo_t *cr, const dunit_t *g, double grow) {
    if (g->marker) {
        cairo_rectangle(cr, g->x - g->hw - grow, g->y - g->hd - grow, 2 * (g->hw + grow),
                        2 * (g->hd + grow));
        return;
    }
    double rx = -g->fy, ry = g->fx; /* the frontage: facing turned a right angle clockwise */
    double hw = g->hw + grow, hd = g->hd + grow;
    cairo_move_to(cr, g->x - rx * hw + g->fx * hd, g->y - ry * hw + g->fy * hd);
    cairo_line_to(cr, g->x + rx * hw + g->fx * hd, g->y + ry * hw + g->fy * hd);
    cairo_line_to(cr, g->x + rx * hw - g->fx * hd, g->y + ry * hw - g->fy * hd);
    cairo_line_to(cr, g->x - rx * hw - g->fx * hd, g->y - ry * hw - g->fy * hd);
    cairo_close_path(cr);
}

/* Text of at most OPFOR_SCENE_NAME_LEN bytes at (x, y): centred there (centre 1) or with its
 * left end there, vertically centred; the ground under it cleared so it reads on terrain. */
static void map_text(pen_t *p, const char *s, size_t len, double x, double y, int centre) {
    char buf[OPFOR_SCENE_NAME_LEN + 1];
    size_t n = strnlen(s, len < sizeof buf - 1 ? len : sizeof buf - 1);
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (!buf[0])
        return;
    int px = 12;
    int w = text_width(p, buf, px, 0);
    int h = text(p, buf, px, 0, 0, 0, w + 2, 1, ALIGN_LEFT, 1, NULL);
    int x0 = (int)(centre ? x - w / 2.0 : x), y0 = (int)(y - h / 2.0);
    paper(p->cr);
    fill_rect(p->cr, x0 - 1, y0, w + 2, h);
    ink(p->cr);
    text(p, buf, px, 0, x0, y0, w + 2, 1, ALIGN_LEFT, 0, NULL);
}

/* A fire arrow: a dashed line, each end at a unit's centre (or inside its ring) pulled back to
 * just outside that ring; the target's end first. */
static void fire_line(cairo_t *cr, const mapxf_t *m, const unitdraw_t *ud, const opfor_scene_t *sc,
                      int nu, const opfor_scene_arrow_t *a) {
    double ax, ay, bx, by;
    scene_to_dev(m, a->from, &ax, &ay);
    scene_to_dev(m, a->to, &bx, &by);
    for (int end = 0; end < 2; end++) {
        double *px = end ? &ax : &bx, *py = end ? &ay : &by;
        double ox = end ? bx : ax, oy = end ? by : ay;
        int best = -1;
        double best_d2 = 0, cx = 0, cy = 0, ring = 0;
        for (int i = 0; i < nu; i++) { /* the nearest unit whose ring holds this end */
            dunit_t g;
            unit_geom(m, ud, &sc->units[i], &g);
            double ux, uy;
            scene_to_dev(m, sc->units[i].at, &ux, &uy);
            double d2 = (*px - ux) * (*px - ux) + (*py - uy) * (*py - uy);
            if (d2 >= (g.ring + 2) * (g.ring + 2) || (best >= 0 && d2 >= best_d2))
                continue;
            best = i;
            best_d2 = d2;
            cx = ux;
            cy = uy;
            ring = g.ring;
        }
        if (best >= 0) {
            *px = cx;
            *py = cy;
            short_of(ox, oy, px, py, ring + 2);
        }
    }
    static const double d[] = {4, 3};
    cairo_move_to(cr, ax, ay);
    cairo_line_to(cr, bx, by);
    stroke_style(cr, 2, d, 2);
}

/* A place arrow into the unit g (NULL: to the arrow's own end): from `from` (equal to `to`:
 * from the nearest table edge), started further out when too short to read, stopping short of
 * the unit. */
static void place_arrow(cairo_t *cr, const mapxf_t *m, const opfor_scene_t *sc,
                        const opfor_scene_arrow_t *a, const dunit_t *g) {
    dpt_t at = down(m, a->to), from = down(m, a->from);
    float tw = sc->width, th = sc->depth;
    if (a->from.x == a->to.x && a->from.y == a->to.y) { /* from the nearest edge */
        float dl = at.x, dr = tw - at.x, dt = at.y, db = th - at.y;
        if (dl <= dr && dl <= dt && dl <= db)
            from.x = 0;
        else if (dr <= dt && dr <= db)
            from.x = tw;
        else if (dt <= db)
            from.y = 0;
        else
            from.y = th;
    }
    double fx, fy, tx, ty;
    to_dev(m, from, &fx, &fy);
    if (!g) {
        to_dev(m, at, &tx, &ty);
        arrow(cr, fx, fy, tx, ty, 8);
        return;
    }
    double x = g->x, y = g->y, u = g->size;
    tx = x;
    ty = y;
    double dist = sqrt((fx - x) * (fx - x) + (fy - y) * (fy - y));
    if (dist < 3 * u) { /* too short to read: start further out */
        double ux = dist > 0.5 ? (fx - x) / dist : 1, uy = dist > 0.5 ? (fy - y) / dist : 0;
        fx = x + ux * 3 * u;
        fy = y + uy * 3 * u;
    }
    short_of(fx, fy, &tx, &ty, u / 2 + 6);
    arrow(cr, fx, fy, tx, ty, 8);
}

static void draw_unit(pen_t *p, const opfor_scene_unit_t *un, const dunit_t *g) {
    cairo_t *cr = p->cr;
    double x = g->x, y = g->y, ring = g->ring;
    int hidden = (un->flags & OPFOR_SCENE_U_HIDDEN) != 0;
    int filled = (un->flags & OPFOR_SCENE_U_AI) && !hidden;
    /* clear the ground under the unit so it reads on any terrain */
    paper(cr);
    unit_path(cr, g, 2);
    cairo_fill(cr);
    ink(cr);
    if (filled) {
        unit_path(cr, g, 0);
        cairo_fill(cr);
    } else if (g->marker) {
        cairo_set_line_width(cr, 2);
        cairo_rectangle(cr, x - g->hw + 1, y - g->hd + 1, 2 * g->hw - 2, 2 * g->hd - 2);
        if (hidden) {
            static const double d[] = {3, 2};
            stroke_style(cr, 2, d, 2);
        } else {
            cairo_stroke(cr);
        }
    } else {
        unit_path(cr, g, -1);
        static const double d[] = {3, 2};
        stroke_style(cr, 2, hidden ? d : NULL, hidden ? 2 : 0);
    }
    if (!g->marker) { /* its front: a tick out of the middle of the front edge */
        cairo_set_line_width(cr, 2);
        cairo_move_to(cr, x + g->fx * g->hd, y + g->fy * g->hd);
        cairo_line_to(cr, x + g->fx * (g->hd + 5), y + g->fy * (g->hd + 5));
        cairo_stroke(cr);
    }
    if (hidden)
        map_text(p, "?", 2, x, y, 1);
    if (un->flags & OPFOR_SCENE_U_SHAKEN) { /* struck through, in the colour that shows */
        if (filled)
            paper(cr);
        /* along the unit's own diagonal: rear left to front right (a marker stands upright) */
        double fx = g->marker ? 0 : g->fx, fy = g->marker ? -1 : g->fy;
        double rx = -fy * g->hw * 0.8, ry = fx * g->hw * 0.8;
        cairo_set_line_width(cr, 2);
        cairo_move_to(cr, x - rx - fx * g->hd * 0.8, y - ry - fy * g->hd * 0.8);
        cairo_line_to(cr, x + rx + fx * g->hd * 0.8, y + ry + fy * g->hd * 0.8);
        cairo_stroke(cr);
        ink(cr);
    }
    if (un->flags & OPFOR_SCENE_U_ACTING) {
        cairo_set_line_width(cr, 3);
        cairo_arc(cr, x, y, ring, 0, 2 * G_PI);
        cairo_stroke(cr);
    }
    if (un->flags & OPFOR_SCENE_U_TARGET) {
        cairo_set_line_width(cr, 2);
        cairo_arc(cr, x, y, ring, 0, 2 * G_PI);
        cairo_stroke(cr);
        double a = ring - 3, b = ring + 5;
        cairo_move_to(cr, x - b, y);
        cairo_line_to(cr, x - a, y);
        cairo_move_to(cr, x + a, y);
        cairo_line_to(cr, x + b, y);
        cairo_move_to(cr, x, y - b);
        cairo_line_to(cr, x, y - a);
        cairo_move_to(cr, x, y + a);
        cairo_line_to(cr, x, y + b);
        cairo_stroke(cr);
    }
    if (un->flags & OPFOR_SCENE_U_SPOTTED) {
        static const double d[] = {3, 2};
        if (g->marker)
            cairo_rectangle(cr, x - g->hw - 4.5, y - g->hd - 4.5, 2 * g->hw + 9, 2 * g->hd + 9);
        else
            unit_path(cr, g, 4.5);
        stroke_style(cr, 1, d, 2);
    }
}

/* ---- unit labels: the name where room allows, else a short tag and a legend ----
 *
 * A unit's name goes under it when it fits inside the table without touching another unit or
 * another label. Otherwise the unit gets a short tag of its name's initials ("Jager Picket" ->
 * "JP", "1st Section" -> "1S", "Uhlans" -> "Uh"; made unique with a digit), set beside it where
 * it touches nothing (right, left, above, below), and the tag is explained in a legend under
 * the table ("JP Jager Picket"). Everything comes from the scene's unit names, so a game of any
 * ruleset is labelled the same way. */

#define MAP_NAME_PX 12   /* a name under its unit */
#define MAP_TAG_PX 11    /* a tag beside its unit, and the legend */
#define MAP_LEGEND_GAP 6 /* between the table and the legend */

typedef struct lbox {
    double x0, y0, x1, y1;
} lbox_t;

/* How one unit is labelled. */
typedef struct ulabel {
    int unit;                        /* index in the scene */
    int tagged;                      /* 1: a tag (and a legend entry); 0: the full name */
    char text[OPFOR_SCENE_NAME_LEN]; /* what is drawn by the unit */
    double dx, dy;                   /* its top-left corner from the unit's centre */
    int w, h;                        /* its size */
    int lead;                        /* 1: set away from the unit, a leader line joins them */
} ulabel_t;

static int boxes_meet(const lbox_t *a, const lbox_t *b) {
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* The initials of name: the first letter of each word (every leading digit of a word that
 * starts with one), at most three; a one-word name gives its first two letters. */
static void unit_tag(const char *name, char *tag, size_t size) {
    size_t n = 0, words = 0;
    for (const char *q = name; *q && n + 1 < size && n < 3; q++) {
        int start = q == name || q[-1] == ' ' || q[-1] == '-';
        if (!start || !word_char(*q))
            continue;
        words++;
        if (*q >= '0' && *q <= '9') {
            while (*q >= '0' && *q <= '9' && n + 1 < size && n < 3)
                tag[n++] = *q++;
            q--;
        } else {
            tag[n++] = (char)(*q >= 'a' && *q <= 'z' ? *q - 'a' + 'A' : *q);
        }
    }
    if (words == 1 && n == 1 && word_char(name[1]) && n + 1 < size) {
        for (const char *q = name; *q; q++)
            if (word_char(*q)) {
                tag[n++] = q[1] && word_char(q[1]) ? q[1] : '\0';
                break;
            }
    }
    tag[n] = '\0';
}

/* The box a unit takes on the map (its ring when acting or targeted). */
static lbox_t unit_box(const opfor_scene_unit_t *un, const dunit_t *g) {
    double r = g->marker ? g->hw : (g->hw > g->hd ? g->hw : g->hd);
    if (un->flags & (OPFOR_SCENE_U_ACTING | OPFOR_SCENE_U_TARGET | OPFOR_SCENE_U_SPOTTED))
        r = g->ring + 2;
    return (lbox_t){g->x - r - 1, g->y - r - 1, g->x + r + 1, g->y + r + 1};
}

/* Decides every named unit's label for the map transform m (a translation of m decides the
 * same). Returns how many labels went into out. */
static int plan_labels(pen_t *p, const mapxf_t *m, const unitdraw_t *ud, const opfor_scene_t *sc,
                       int nu, double tw, double th, ulabel_t *out) {
    lbox_t units[OPFOR_SCENE_MAX_UNITS], placed[OPFOR_SCENE_MAX_UNITS];
    dunit_t g[OPFOR_SCENE_MAX_UNITS];
    for (int i = 0; i < nu; i++) {
        unit_geom(m, ud, &sc->units[i], &g[i]);
        units[i] = unit_box(&sc->units[i], &g[i]);
    }
    const lbox_t table = {m->ox + 2, m->oy + 2, m->ox + tw * m->s - 2, m->oy + th * m->s - 2};
    int nl = 0;
    for (int i = 0; i < nu; i++) {
        const opfor_scene_unit_t *un = &sc->units[i];
        char name[OPFOR_SCENE_NAME_LEN];
        snprintf(name, sizeof name, "%.*s", (int)sizeof un->name - 1, un->name);
        if (!name[0] || (un->flags & OPFOR_SCENE_U_HIDDEN))
            continue;
        ulabel_t *l = &out[nl];
        memset(l, 0, sizeof *l);
        l->unit = i;
        const dunit_t *gi = &g[i];
        lbox_t mine = units[i];
        double below = gi->marker ? gi->hd : fabs(gi->fx) * gi->hw + fabs(gi->fy) * gi->hd;
        if (un->flags & (OPFOR_SCENE_U_ACTING | OPFOR_SCENE_U_TARGET))
            below = gi->ring + 5;
        /* the candidates: the name under the unit, then the tag right, left, above, below */
        char tag[8];
        unit_tag(name, tag, sizeof tag);
        char base[8];
        snprintf(base, sizeof base, "%s", tag);
        for (int suffix = 2, clash = 1; clash && suffix < 100; suffix++) {
            clash = 0; /* unique among the tags so far: "LI", "LI2", "LI3" */
            for (int k = 0; k < nl && !clash; k++)
                clash = out[k].tagged && strcmp(out[k].text, tag) == 0;
            if (clash)
                snprintf(tag, sizeof tag, "%.4s%d", base, suffix);
        }
        int nw = text_width(p, name, MAP_NAME_PX, 0) + 2;
        int nh = text(p, name, MAP_NAME_PX, 0, 0, 0, nw + 2, 1, ALIGN_LEFT, 1, NULL);
        int tgw = text_width(p, tag, MAP_TAG_PX, 1) + 2;
        int tgh = text(p, tag, MAP_TAG_PX, 1, 0, 0, tgw + 2, 1, ALIGN_LEFT, 1, NULL);
        const double hr = (mine.x1 - mine.x0) / 2, vr = (mine.y1 - mine.y0) / 2;
        /* the candidates: the name under the unit, then the tag beside it in eight directions,
         * first touching the unit, then further out (with a leader line back to it) */
        struct {
            int tagged;
            double dx, dy;
        } cand[1 + 8 * 4];
        int nc = 0;
        cand[nc].tagged = 0;
        cand[nc].dx = -nw / 2.0;
        cand[nc++].dy = below + 10 - nh / 2.0;
        static const int dirs[8][2] = {{1, 0},  {-1, 0},  {0, -1}, {0, 1},
                                       {1, -1}, {-1, -1}, {1, 1},  {-1, 1}};
        for (int ring = 0; ring < 4; ring++) {
            double off = ring * 9.0;
            for (int d = 0; d < 8; d++) {
                int ex = dirs[d][0], ey = dirs[d][1];
                cand[nc].tagged = 1;
                cand[nc].dx = ex > 0 ? hr + 1 + off : ex < 0 ? -hr - 1 - off - tgw : -tgw / 2.0;
                cand[nc].dy = ey > 0 ? vr + 1 + off : ey < 0 ? -vr - 1 - off - tgh : -tgh / 2.0;
                nc++;
            }
        }
        int chosen = 1;
        for (int c = 0; c < nc; c++) {
            int w = cand[c].tagged ? tgw : nw, h = cand[c].tagged ? tgh : nh;
            lbox_t b = {gi->x + cand[c].dx, gi->y + cand[c].dy, gi->x + cand[c].dx + w,
                        gi->y + cand[c].dy + h};
            int ok = b.x0 >= table.x0 && b.x1 <= table.x1 && b.y0 >= table.y0 && b.y1 <= table.y1;
            for (int k = 0; ok && k < nu; k++)
                ok = k == i || !boxes_meet(&b, &units[k]);
            for (int k = 0; ok && k < nl; k++)
                ok = !boxes_meet(&b, &placed[k]);
            if (ok) {
                chosen = c;
                break;
            }
        }
        l->lead = chosen > 8; /* away from its unit: a leader line */
        l->tagged = cand[chosen].tagged;
        snprintf(l->text, sizeof l->text, "%s", l->tagged ? tag : name);
        l->dx = cand[chosen].dx;
        l->dy = cand[chosen].dy;
        l->w = l->tagged ? tgw : nw;
        l->h = l->tagged ? tgh : nh;
        placed[nl] =
            (lbox_t){gi->x + l->dx, gi->y + l->dy, gi->x + l->dx + l->w, gi->y + l->dy + l->h};
        nl++;
    }
    return nl;
}

/* The legend's size for the tagged labels in a box w wide: columns, rows and height. */
static int legend_height(pen_t *p, const opfor_scene_t *sc, const ulabel_t *ls, int nl, int w,
                         int *cols, int *colw) {
    int widest = 0, n = 0, row = 0;
    for (int i = 0; i < nl; i++) {
        if (!ls[i].tagged)
            continue;
        char e[OPFOR_SCENE_NAME_LEN * 2 + 4];
        snprintf(e, sizeof e, "%s %.*s", ls[i].text, (int)sizeof sc->units[0].name - 1,
                 sc->units[ls[i].unit].name);
        int ew = text_width(p, e, MAP_TAG_PX, 1);
        widest = ew > widest ? ew : widest;
        row = text(p, e, MAP_TAG_PX, 1, 0, 0, 10000, 1, ALIGN_LEFT, 1, NULL);
        n++;
    }
    if (!n)
        return 0;
    *colw = widest + 14;
    *cols = w / *colw < 1 ? 1 : w / *colw;
    if (*cols > n)
        *cols = n;
    return ((n + *cols - 1) / *cols) * row;
}

/* Draws the legend of the tagged labels from (x, y), at most h high: the tag in bold, then the
 * unit's name; what does not fit ends with "+N more". */
static void draw_legend(pen_t *p, const opfor_scene_t *sc, const ulabel_t *ls, int nl, int x, int y,
                        int w, int h) {
    int cols = 1, colw = w;
    if (!legend_height(p, sc, ls, nl, w, &cols, &colw))
        return;
    int k = 0, total = 0;
    int row = text(p, "Mg", MAP_TAG_PX, 1, 0, 0, 10000, 1, ALIGN_LEFT, 1, NULL);
    for (int i = 0; i < nl; i++)
        total += ls[i].tagged;
    ink(p->cr);
    for (int i = 0; i < nl; i++) {
        if (!ls[i].tagged)
            continue;
        int cx = x + (k % cols) * colw, cy = y + (k / cols) * row;
        if (cy + 2 * row > y + h && total - k > cols - k % cols) { /* the last row: the rest */
            char more[24];
            snprintf(more, sizeof more, "+%d more", total - k);
            text(p, more, MAP_TAG_PX, 0, cx, cy, colw, 1, ALIGN_LEFT, 0, NULL);
            return;
        }
        int tw = text_width(p, ls[i].text, MAP_TAG_PX, 1);
        text(p, ls[i].text, MAP_TAG_PX, 1, cx, cy, tw + 2, 1, ALIGN_LEFT, 0, NULL);
        char name[OPFOR_SCENE_NAME_LEN];
        snprintf(name, sizeof name, "%.*s", (int)sizeof name - 1, sc->units[ls[i].unit].name);
        text(p, name, MAP_TAG_PX, 0, cx + tw + 5, cy, colw - tw - 8, 1, ALIGN_LEFT, 0, NULL);
        k++;
    }
}

/* Draws a unit's label at its place: cleared ground, then the text. */
static void draw_label(pen_t *p, const ulabel_t *l, const dunit_t *g) {
    int x0 = (int)(g->x + l->dx), y0 = (int)(g->y + l->dy);
    if (l->lead) { /* from the unit's edge to the nearest point of the label */
        double lx = g->x < x0 ? x0 : g->x > x0 + l->w ? x0 + l->w : g->x;
        double ly = g->y < y0 ? y0 : g->y > y0 + l->h ? y0 + l->h : g->y;
        double dx = lx - g->x, dy = ly - g->y, len = sqrt(dx * dx + dy * dy);
        double r = (g->marker ? g->hw : (g->hw > g->hd ? g->hw : g->hd)) + 2;
        if (len > r + 1) {
            ink(p->cr);
            cairo_set_line_width(p->cr, 1);
            cairo_move_to(p->cr, g->x + dx * r / len, g->y + dy * r / len);
            cairo_line_to(p->cr, lx, ly);
            cairo_stroke(p->cr);
        }
    }
    paper(p->cr);
    fill_rect(p->cr, x0 - 1, y0, l->w + 2, l->h);
    ink(p->cr);
    text(p, l->text, l->tagged ? MAP_TAG_PX : MAP_NAME_PX, l->tagged, x0, y0, l->w + 2, 1,
         ALIGN_LEFT, 0, NULL);
}

static void draw_map(pen_t *p, const opfor_scene_t *sc, opfor_epd_rect_t r) {
    cairo_t *cr = p->cr;
    double tw = sc->width, th = sc->depth;
    int nu = sc->nunits > OPFOR_SCENE_MAX_UNITS ? OPFOR_SCENE_MAX_UNITS : sc->nunits;
    ulabel_t labels[OPFOR_SCENE_MAX_UNITS];
    int nlab = 0, leg_h = 0, leg_cols = 1, leg_colw = r.w;
    mapxf_t m;
    unitdraw_t ud;
    /* the table as large as the box allows; when units carry tags, their legend goes under
     * it, the table shrinking if the room left is too small for it */
    int reserve = 0;
    for (int pass = 0; pass < 2; pass++) {
        double avail_h = r.h - 4 - reserve;
        double s = (r.w - 4) / tw < avail_h / th ? (r.w - 4) / tw : avail_h / th;
        m = (mapxf_t){r.x + (r.w - tw * s) / 2, r.y + (r.h - th * s) / 2, s, sc->depth};
        ud.u = s * 1.5;
        ud.u = ud.u < 8 ? 8 : ud.u > 16 ? 16 : ud.u;
        ud.u = (int)ud.u;
        ud.ring = ud.u * 0.8 + 4;
        nlab = plan_labels(p, &m, &ud, sc, nu, tw, th, labels);
        leg_h = legend_height(p, sc, labels, nlab, r.w - 8, &leg_cols, &leg_colw);
        if (!leg_h)
            break;
        if (r.h - th * s - 4 >= leg_h + MAP_LEGEND_GAP || pass == 1) {
            m.oy = r.y + 2; /* the table at the top, the legend under it */
            break;
        }
        reserve = leg_h + MAP_LEGEND_GAP;
        if (reserve > r.h / 3)
            reserve = r.h / 3;
    }
    const double s = m.s;
    ink(cr);
    cairo_set_line_width(cr, 2);
    cairo_rectangle(cr, (int)m.ox + 1, (int)m.oy + 1, (int)(tw * s) - 2, (int)(th * s) - 2);
    cairo_stroke(cr);
    cairo_save(cr);
    cairo_rectangle(cr, (int)m.ox, (int)m.oy, (int)(tw * s), (int)(th * s));
    cairo_clip(cr);
    int ns = sc->nshapes > OPFOR_SCENE_MAX_SHAPES ? OPFOR_SCENE_MAX_SHAPES : sc->nshapes;
    for (int i = 0; i < ns; i++)
        draw_shape(p, &m, &sc->shapes[i]);
    int na = sc->narrows > OPFOR_SCENE_MAX_ARROWS ? OPFOR_SCENE_MAX_ARROWS : sc->narrows;
    int nl = sc->nlabels > OPFOR_SCENE_MAX_LABELS ? OPFOR_SCENE_MAX_LABELS : sc->nlabels;
    /* fire and move arrows under the units */
    ink(cr);
    uint32_t placed = 0; /* place arrows drawn with their unit */
    for (int i = 0; i < na; i++) {
        const opfor_scene_arrow_t *a = &sc->arrows[i];
        if (a->kind == OPFOR_SCENE_FIRE) {
            fire_line(cr, &m, &ud, sc, nu, a);
        } else if (a->kind == OPFOR_SCENE_MOVE) {
            double ax, ay, bx, by;
            scene_to_dev(&m, a->from, &ax, &ay);
            scene_to_dev(&m, a->to, &bx, &by);
            arrow(cr, ax, ay, bx, by, 8);
        }
    }
    for (int i = 0; i < nu; i++) {
        const opfor_scene_unit_t *un = &sc->units[i];
        dunit_t g;
        unit_geom(&m, &ud, un, &g);
        draw_unit(p, un, &g);
        for (int k = 0; k < na; k++) {
            const opfor_scene_arrow_t *a = &sc->arrows[k];
            if (a->kind != OPFOR_SCENE_PLACE || (placed >> k & 1u) || a->to.x != un->at.x ||
                a->to.y != un->at.y)
                continue;
            place_arrow(cr, &m, sc, a, &g);
            placed |= 1u << k;
        }
    }
    for (int k = 0; k < na; k++)
        if (sc->arrows[k].kind == OPFOR_SCENE_PLACE && !(placed >> k & 1u))
            place_arrow(cr, &m, sc, &sc->arrows[k], NULL);
    /* names or tags by their units, then the free labels */
    for (int i = 0; i < nlab; i++) {
        dunit_t g;
        unit_geom(&m, &ud, &sc->units[labels[i].unit], &g);
        draw_label(p, &labels[i], &g);
    }
    for (int i = 0; i < nl; i++) {
        double x, y;
        scene_to_dev(&m, sc->labels[i].at, &x, &y);
        map_text(p, sc->labels[i].text, sizeof sc->labels[i].text, x, y, 0);
    }
    cairo_restore(cr);
    for (int i = 0; i < nlab; i++) {
        p->L->tagged += labels[i].tagged;
        p->L->named += !labels[i].tagged;
    }
    if (leg_h) {
        int ly = (int)(m.oy + th * s) + MAP_LEGEND_GAP;
        int lh = r.y + r.h - ly < leg_h ? r.y + r.h - ly : leg_h;
        draw_legend(p, sc, labels, nlab, r.x + 4, ly, r.w - 8, r.y + r.h - ly);
        p->L->legend = (opfor_epd_rect_t){r.x + 4, ly, r.w - 8, lh};
    }
}

/* ---- the two layouts ---- */

/* An order line left out for want of room: counted as a cut (hiding a term when it holds a
 * digit). */
static void left_out(pen_t *p, const char *line) {
    p->L->cut++;
    for (const char *q = line; *q; q++)
        if (*q >= '0' && *q <= '9') {
            p->L->cut_terms++;
            return;
        }
}

/* The side in pixels of card c's QR code with its quiet zone, in whole pixels per module, the
 * largest that fits a square of side `room`; 0 when there is no code or its modules would be
 * under 2 pixels (too fine for a phone's camera on e-ink). */
static int qr_side(const opfor_card_t *c, int room) {
    int w = c->qr_width > OPFOR_CARD_QR_MAX ? OPFOR_CARD_QR_MAX : c->qr_width;
    if (w <= 0)
        return 0;
    int n = w + 2 * OPFOR_CARD_QR_QUIET, mod = room / n;
    return mod >= 2 ? n * mod : 0;
}

/* Draws card c's QR code, quiet zone included, as a square of side `side` (from qr_side)
 * centred in r: light paper, then each dark module as a whole-pixel square. */
static void draw_qr(pen_t *p, const opfor_card_t *c, opfor_epd_rect_t r, int side,
                    opfor_card_layout_t *L) {
    int w = c->qr_width > OPFOR_CARD_QR_MAX ? OPFOR_CARD_QR_MAX : c->qr_width;
    int mod = side / (w + 2 * OPFOR_CARD_QR_QUIET);
    int x0 = r.x + (r.w - side) / 2, y0 = r.y + (r.h - side) / 2;
    paper(p->cr);
    fill_rect(p->cr, x0, y0, side, side);
    ink(p->cr);
    x0 += OPFOR_CARD_QR_QUIET * mod;
    y0 += OPFOR_CARD_QR_QUIET * mod;
    for (int y = 0; y < w; y++)
        for (int x = 0; x < w; x++)
            if (opfor_card_qr_dark(c, x, y))
                fill_rect(p->cr, x0 + x * mod, y0 + y * mod, mod, mod);
    L->qr = (opfor_epd_rect_t){x0, y0, w * mod, w * mod};
    L->qr_module = mod;
}

static void layout_large(pen_t *p, const opfor_card_t *c, opfor_card_layout_t *L) {
    int W = p->w, H = p->h;
    int portrait = H > W;
    int has_map = c->map.width > 0 && c->map.depth > 0;
    int hdr_h = H / 10 > 40 ? H / 10 : 40;
    if (portrait)
        hdr_h = W / 10 > 40 ? W / 10 : 40;
    header(p, c, (opfor_epd_rect_t){0, 0, W, hdr_h}, hdr_h / 2, L);
    int m = 14; /* margin */
    opfor_epd_rect_t col = {m, hdr_h + 10, W - 2 * m, H - hdr_h - 10 - m};
    if (has_map) {
        if (portrait) {
            int th = (H - hdr_h) * 45 / 100;
            L->map = (opfor_epd_rect_t){m, hdr_h + th, W - 2 * m, H - hdr_h - th - m};
            col.h = th - 16;
        } else {
            int cw = W * 42 / 100;
            col.w = cw - 2 * m;
            L->map = (opfor_epd_rect_t){cw, hdr_h + 8, W - cw - m / 2, H - hdr_h - 8 - m / 2};
        }
        draw_map(p, &c->map, L->map);
        ink(p->cr);
    } else if (c->qr_width) { /* the code where the map would stand */
        opfor_epd_rect_t q;
        if (portrait) {
            int th = (H - hdr_h) * 45 / 100;
            q = (opfor_epd_rect_t){m, hdr_h + th, W - 2 * m, H - hdr_h - th - m};
        } else {
            int cw = W * 42 / 100;
            q = (opfor_epd_rect_t){cw, hdr_h + 8, W - cw - m / 2, H - hdr_h - 8 - m / 2};
        }
        int side = qr_side(c, q.w < q.h ? q.w : q.h);
        if (side) {
            if (portrait)
                col.h = q.y - col.y - 16;
            else
                col.w = W * 42 / 100 - 2 * m;
            draw_qr(p, c, q, side, L);
        }
    }
    int big = hdr_h * 62 / 100, body = hdr_h * 44 / 100, label = hdr_h * 32 / 100;
    int y = col.y;
    y += text(p, c->unit, big, 1, col.x, y, col.w, 2, ALIGN_LEFT, 0, &L->unit) + body / 2;
    /* scores needed sit at the bottom of the column; orders take what is between */
    int nn = c->n_needed > OPFOR_CARD_LINES ? OPFOR_CARD_LINES : c->n_needed;
    int no = c->n_orders > OPFOR_CARD_LINES ? OPFOR_CARD_LINES : c->n_orders;
    int need_h = 0;
    if (nn) {
        need_h = text(p, "SCORES NEEDED", label, 1, 0, 0, col.w, 1, ALIGN_LEFT, 1, NULL) + 6;
        for (int i = 0; i < nn; i++)
            need_h += text(p, c->needed[i], body, 0, 0, 0, col.w, 1, ALIGN_LEFT, 1, NULL);
    }
    int bottom = col.y + col.h - need_h - (nn ? body / 2 : 0);
    if (no) {
        int notes = c->choice == OPFOR_CARD_NOTES;
        if (!notes) {
            int lh = text(p, c->choice ? "ACTIVATE ONE" : "ORDERS", label, 1, col.x, y, col.w, 1,
                          ALIGN_LEFT, 0, NULL);
            hline(p->cr, col.x, col.x + col.w, y + lh + 2, 1);
            y += lh + 6;
        }
        int indent = notes ? 0 : body * 3 / 2;
        /* as many lines per order (three at most) as let them all fit */
        int lines = 3;
        for (; lines > 1; lines--) {
            int total = 0;
            for (int i = 0; i < no; i++)
                total += text(p, c->orders[i], body, 0, 0, 0, col.w - indent, lines, ALIGN_LEFT, 1,
                              NULL);
            if (y + total + no * 4 <= bottom)
                break;
        }
        for (int i = 0; i < no; i++) {
            int hgt =
                text(p, c->orders[i], body, 0, 0, 0, col.w - indent, lines, ALIGN_LEFT, 1, NULL);
            if (y + hgt > bottom) {
                for (; i < no; i++)
                    left_out(p, c->orders[i]);
                break;
            }
            char num[8];
            order_mark(c, i, num, sizeof num);
            if (num[0])
                text(p, num, body, 1, col.x, y, indent, 1, ALIGN_LEFT, 0, NULL);
            text(p, c->orders[i], body, 0, col.x + indent, y, col.w - indent, lines, ALIGN_LEFT, 0,
                 &L->orders[i]);
            y += hgt + 4;
        }
    }
    if (nn) {
        int ny = col.y + col.h - need_h;
        int lh = text(p, "SCORES NEEDED", label, 1, col.x, ny, col.w, 1, ALIGN_LEFT, 0, NULL);
        hline(p->cr, col.x, col.x + col.w, ny + lh + 2, 1);
        ny += lh + 6;
        for (int i = 0; i < nn; i++)
            ny += text(p, c->needed[i], body, 0, col.x, ny, col.w, 1, ALIGN_LEFT, 0, &L->needed[i]);
    }
}

/* The small card: the header, the unit, its orders and the scores needed on one or two bottom
 * lines. The font (12, 11 or 10 px) and the lines an order may take are the largest that let
 * every order and score be read whole, shortened if need be (fit()); only when none does is a
 * line cut, and that is counted in the layout. */
static void layout_compact(pen_t *p, const opfor_card_t *c, opfor_card_layout_t *L) {
    int W = p->w, H = p->h;
    int hdr_h = 20;
    header(p, c, (opfor_epd_rect_t){0, 0, W, hdr_h}, 13, L);
    int portrait = H > W;
    /* a QR code (a card with no scores) at the right, as tall as the room under the bar */
    int qside = c->n_needed ? 0 : qr_side(c, H - hdr_h - 2);
    if (qside > W / 2)
        qside = 0;
    int m = 4, tw = W - 2 * m - qside;
    int y = hdr_h + 2;
    if (qside)
        draw_qr(p, c, (opfor_epd_rect_t){W - qside, hdr_h + 1, qside, H - hdr_h - 1}, qside, L);
    y += text(p, c->unit, 15, 1, m, y, tw, portrait ? 2 : 1, ALIGN_LEFT, 0, &L->unit) + 1;
    int nn = c->n_needed > OPFOR_CARD_LINES ? OPFOR_CARD_LINES : c->n_needed;
    /* landscape: the scores joined on one block; portrait: one block each */
    char need[OPFOR_CARD_LINES][4 * OPFOR_CARD_NEED_LEN + 16];
    int nblocks = portrait ? nn : (nn ? 1 : 0);
    memset(need, 0, sizeof need);
    for (int i = 0; i < nn; i++) {
        char *dst = need[portrait ? i : 0];
        if (!portrait && i)
            strcat(dst, " \xC2\xB7 "); /* middle dot */
        strncat(dst, c->needed[i], OPFOR_CARD_NEED_LEN - 1);
    }
    int no = c->n_orders > OPFOR_CARD_LINES ? OPFOR_CARD_LINES : c->n_orders;
    char line[OPFOR_CARD_LINES][OPFOR_CARD_LINE_LEN + 8];
    for (int i = 0; i < no; i++) {
        char num[8];
        order_mark(c, i, num, sizeof num);
        snprintf(line[i], sizeof line[i], "%s%s%s", num, num[0] ? " " : "", c->orders[i]);
    }
    /* the largest font, then the most lines per order, with which everything fits whole */
    static const int sizes[] = {12, 11, 10};
    const int max_lines = portrait ? 3 : 2, need_lines = 2;
    int px = 10, lines = max_lines, found = 0;
    for (int si = 0; si < 3 && !found; si++) {
        for (int ln = max_lines; ln >= 1 && !found; ln--) {
            int total = 0, whole = 1;
            for (int i = 0; i < nblocks && whole; i++) {
                whole = fits(p, need[i], sizes[si], 1, tw, need_lines);
                total += text(p, need[i], sizes[si], 1, 0, 0, tw, need_lines, ALIGN_LEFT, 1, NULL);
            }
            for (int i = 0; i < no && whole; i++) {
                whole = fits(p, line[i], sizes[si], 0, tw, ln);
                total += text(p, line[i], sizes[si], 0, 0, 0, tw, ln, ALIGN_LEFT, 1, NULL);
            }
            if (whole && y + total + (nn ? 4 : 0) <= H) {
                px = sizes[si];
                lines = ln;
                found = 1;
            }
        }
    }
    int need_h = 0;
    for (int i = 0; i < nblocks; i++)
        need_h += text(p, need[i], px, 1, 0, 0, tw, need_lines, ALIGN_LEFT, 1, NULL);
    int bottom = H - (nn ? need_h + 4 : 0);
    for (int i = 0; i < no; i++) {
        int hgt = text(p, line[i], px, 0, 0, 0, tw, lines, ALIGN_LEFT, 1, NULL);
        if (y + hgt > bottom) {
            for (; i < no; i++)
                left_out(p, line[i]);
            break;
        }
        text(p, line[i], px, 0, m, y, tw, lines, ALIGN_LEFT, 0, &L->orders[i]);
        y += hgt;
    }
    if (nn) {
        ink(p->cr);
        int ny = H - need_h - 1;
        hline(p->cr, 0, W, ny - 1.5, 1);
        for (int i = 0; i < nblocks; i++)
            ny += text(p, need[i], px, 1, m, ny, tw, need_lines, ALIGN_LEFT, 0, &L->needed[i]);
    }
}

int opfor_card_render(const opfor_card_t *card, int native_w, int native_h, int rotation,
                      opfor_epd_frame_t *out, opfor_card_layout_t *layout) {
    if (!card || !out || !opfor_epd_rotation_valid(rotation))
        return OPFOR_EINVAL;
    int rc = opfor_epd_frame_init(out, native_w, native_h, 1);
    if (rc)
        return rc;
    opfor_card_layout_t tmp;
    opfor_card_layout_t *L = layout ? layout : &tmp;
    memset(L, 0, sizeof *L);
    int lw, lh;
    opfor_epd_logical_size(native_w, native_h, rotation, &lw, &lh);
    L->width = lw;
    L->height = lh;
    L->rotation = rotation;
    /* the large card needs 400 x 300 (landscape) or 300 x 400 (portrait) */
    L->compact = lh > lw ? (lw < 300 || lh < 400) : (lw < 400 || lh < 300);

    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, lw, lh);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return OPFOR_ENOMEM;
    }
    cairo_t *cr = cairo_create(s);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_NONE);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_FULL);
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_ON);
    cairo_set_font_options(cr, fo);
    /* A private font map, released below: Pango's process-wide default one would keep
     * fontconfig patterns alive forever (and be shared mutable state). */
    PangoFontMap *fm = pango_cairo_font_map_new();
    PangoContext *ctx = pango_font_map_create_context(fm);
    pango_cairo_update_context(cr, ctx);
    pango_cairo_context_set_font_options(ctx, fo);
    pango_cairo_context_set_resolution(ctx, 96);
    pen_t p = {cr, pango_layout_new(ctx), lw, lh, L};

    if (L->compact)
        layout_compact(&p, card, L);
    else
        layout_large(&p, card, L);

    g_object_unref(p.lay);
    g_object_unref(ctx);
    g_object_unref(fm);
    cairo_font_options_destroy(fo);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    const uint8_t *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    for (int y = 0; y < lh; y++) {
        const uint8_t *row = data + (size_t)y * (size_t)stride;
        for (int x = 0; x < lw; x++)
            if (row[x] >= 128) {
                int nx, ny;
                opfor_epd_logical_to_native(native_w, native_h, rotation, x, y, &nx, &ny);
                opfor_epd_frame_set(out, nx, ny, 0);
            }
    }
    cairo_surface_destroy(s);
    return 0;
}

#else

int opfor_card_render(const opfor_card_t *card, int native_w, int native_h, int rotation,
                      opfor_epd_frame_t *out, opfor_card_layout_t *layout) {
    return OPFOR_ENOTSUP;
}

#endif
