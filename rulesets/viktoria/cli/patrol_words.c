/* rulesets/viktoria/cli/patrol_words.c — reading the commands typed at the table (see
 * cmd_patrol_int.h): the one terminal game (cmd_patrol_remote.c, local or against a daemon) reads
 * and splits them here. Own file so tests/cli can include it alone.
 */
#include <ctype.h>
#include <stdio.h>
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

int opfor__patrol_read_command(FILE *in, char *line, size_t size, int prompt, char **w, int max) {
    for (;;) {
        if (prompt) {
            printf("> ");
            fflush(stdout);
        }
        if (!fgets(line, (int)size, in))
            return -1;
        size_t len = strlen(line);
        if (len + 1 == size && line[len - 1] != '\n') {
            int c = fgetc(in);
            if (c != EOF && c != '\n') { /* longer than line: drop it whole */
                while ((c = fgetc(in)) != EOF && c != '\n')
                    ;
                printf("That line is too long (over %zu characters): ignored.\n", size - 1);
                continue;
            }
        }
        int n = opfor__patrol_words(line, w, max);
        if (n == 0 || w[0][0] == '#')
            continue;
        for (char *c = w[0]; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        return n;
    }
}
