/* io/web_tokens.c — the table page's two tokens (docs/web.md): the game master's and the
 * players', kept in <state-dir>/web-tokens (mode 0600) so the links printed at start stay the
 * same across restarts. Made once from the operating system's random source (uv_random): a
 * secret must not come from a seeded stream, which anyone with the seed could replay.
 */
#include "web_int.h"

#include "diag_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TOKENS_FILE "web-tokens"
#define TOKEN_BYTES 16 /* 128 bits, written as 32 hex digits */

static int make_token(char out[OPFOR_WEB_TOKEN_MAX]) {
    unsigned char raw[TOKEN_BYTES];
    if (uv_random(NULL, NULL, raw, sizeof raw, 0, NULL) != 0)
        return -1;
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(out + 2 * i, 3, "%02x", raw[i]);
    return 0;
}

static int token_ok(const char *t) {
    size_t n = strlen(t);
    if (n < 16 || n >= OPFOR_WEB_TOKEN_MAX)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((t[i] >= '0' && t[i] <= '9') || (t[i] >= 'a' && t[i] <= 'z') ||
              (t[i] >= 'A' && t[i] <= 'Z') || t[i] == '-' || t[i] == '_'))
            return 0;
    return 1;
}

int opfor__web_tokens_load(const char *state_dir, opfor_web_tokens_t *t, opfor_diag_t *d) {
    char path[OPFOR_CONFIG_PATH_MAX + 32];
    memset(t, 0, sizeof *t);
    if (snprintf(path, sizeof path, "%s/" TOKENS_FILE, state_dir) >= (int)sizeof path)
        return opfor__diag_msg(d, OPFOR_ERANGE, "state-dir path too long");
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd >= 0) {
        struct stat st;
        char buf[512];
        ssize_t n = fstat(fd, &st) == 0 ? read(fd, buf, sizeof buf - 1) : -1;
        close(fd);
        if (n < 0)
            return opfor__diag_msg(d, OPFOR_EIO, "cannot read %s: %s", path, strerror(errno));
        if (st.st_mode & 077)
            return opfor__diag_msg(d, OPFOR_EINVAL,
                                   "%s is readable by others: chmod 600 it (or delete it for "
                                   "new links)",
                                   path);
        buf[n] = '\0';
        char gm[OPFOR_WEB_TOKEN_MAX] = "", pl[OPFOR_WEB_TOKEN_MAX] = "";
        if (sscanf(buf, "gm %63s player %63s", gm, pl) != 2 || !token_ok(gm) || !token_ok(pl) ||
            strcmp(gm, pl) == 0)
            return opfor__diag_msg(d, OPFOR_EINVAL,
                                   "%s: want two lines, 'gm TOKEN' and 'player TOKEN' (16 to "
                                   "63 letters, digits, - or _; different); delete it for new "
                                   "links",
                                   path);
        memcpy(t->gm, gm, sizeof gm);
        memcpy(t->player, pl, sizeof pl);
        return 0;
    }
    if (errno != ENOENT)
        return opfor__diag_msg(d, OPFOR_EIO, "cannot open %s: %s", path, strerror(errno));
    if (make_token(t->gm) < 0 || make_token(t->player) < 0)
        return opfor__diag_msg(d, OPFOR_EIO, "no random source for the page's tokens");
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return opfor__diag_msg(d, OPFOR_EIO, "cannot create %s: %s", path, strerror(errno));
    char text[160];
    int len = snprintf(text, sizeof text, "gm %s\nplayer %s\n", t->gm, t->player);
    int ok = write(fd, text, (size_t)len) == len;
    ok = close(fd) == 0 && ok;
    if (!ok) {
        unlink(path);
        return opfor__diag_msg(d, OPFOR_EIO, "cannot write %s", path);
    }
    t->created = 1;
    return 0;
}

/* Compares in constant time for equal lengths (the tokens' lengths are no secret). */
static int same(const char *want, const char *got) {
    size_t a = strlen(want), b = strlen(got);
    unsigned diff = (unsigned)(a ^ b);
    for (size_t i = 0; i < a; i++)
        diff |= (unsigned)(unsigned char)want[i] ^ (unsigned)(unsigned char)(i < b ? got[i] : 0);
    return a > 0 && diff == 0;
}

int opfor__web_token_role(const opfor_web_tokens_t *t, const char *token) {
    if (same(t->gm, token))
        return OPFOR_WEB_GM;
    if (same(t->player, token))
        return OPFOR_WEB_PLAYER;
    return 0;
}
