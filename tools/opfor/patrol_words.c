/* tools/opfor/patrol_words.c — splitting a line typed at the table into words (see
 * cmd_patrol_int.h): the local game (cmd_patrol_game.c) and the daemon's (cmd_patrol_remote.c)
 * read the same commands, so both split them here. Own file so tests/cli can include it alone.
 */
#include <string.h>

#include "cmd_patrol_int.h"

int opfor__patrol_words(char *line, char **w, int max) {
    int n = 0;
    char *s = line;
    while (n < max) {
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
            s++;
        if (!*s)
            break;
        if (*s == '"' || *s == '\'') {
            char q = *s++;
            w[n++] = s;
            char *e = strchr(s, q);
            if (!e) {
                s += strcspn(s, "\r\n");
                *s = '\0';
                break;
            }
            *e = '\0';
            s = e + 1;
            continue;
        }
        w[n++] = s;
        s += strcspn(s, " \t\r\n");
        if (!*s)
            break;
        *s++ = '\0';
    }
    return n;
}
