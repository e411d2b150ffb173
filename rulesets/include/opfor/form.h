/* opfor/form.h — typed descriptions of what a person fills in: a calculator's fields, the
 * reports the table may send, a ruleset's own table actions.
 *
 * A ruleset describes each of its forms as const data (a name, a title, fields with a type,
 * limits, choices and a default), so a generic client (the CLI's option parser, the daemon's
 * `*.list` methods, the table page) builds its questions and checks the answers without
 * knowing the ruleset. Values travel as opfor_value_t, one per field in field order; a field
 * the person left out has `set` 0 and the ruleset takes its default.
 */
#ifndef OPFOR_FORM_H
#define OPFOR_FORM_H

#include <stddef.h>

/* What a field holds. */
typedef enum opfor_field_type {
    OPFOR_FIELD_INT = 0, /* a whole number within [min, max] */
    OPFOR_FIELD_NUM,     /* a number within [min, max] (inches, a chance) */
    OPFOR_FIELD_BOOL,    /* yes or no (a flag on the command line) */
    OPFOR_FIELD_CHOICE,  /* one of `choices` */
    OPFOR_FIELD_TEXT,    /* free text (a name) */
    OPFOR_FIELD_UNIT,    /* a unit of the game, by name */
    OPFOR_FIELD_POINT,   /* a point on the table, "x,y" in inches */
    OPFOR_FIELD_DICE,    /* dice rolled at the table, "2,5,1" (each within [min, max]) */
    OPFOR_FIELD_TYPE_COUNT
} opfor_field_type_t;

/* Field flags. */
enum {
    OPFOR_FIELD_REQUIRED = 1u << 0, /* no default: the form is refused without it */
    OPFOR_FIELD_LIST = 1u << 1,     /* several values, comma-separated (text, unit, int) */
    OPFOR_FIELD_ADVANCED = 1u << 2, /* hidden behind "more" on small screens */
    OPFOR_FIELD_OPTIONAL = 1u << 3, /* no default: left out, the field is unset (nil) */
    OPFOR_FIELD_PATH = 1u << 4      /* TEXT naming a file on the machine that answers (a
                                       collection): the daemon refuses it from clients, as it
                                       reads no file a client names */
};

/* One field of a form. Strings are static; `choices` ends with NULL. An INT or NUM field
 * with choices also takes one of those names instead of a number (a range of "20" inches or
 * "medium"): the value is then `named`, its num the name's index. */
typedef struct opfor_field {
    const char *name;           /* key on the wire and flag on the command line ("range") */
    const char *label;          /* for people ("Range (inches)") */
    const char *help;           /* one line */
    int type;                   /* opfor_field_type_t */
    unsigned flags;             /* OPFOR_FIELD_* */
    double min, max;            /* INT, NUM, DICE: the limits (both 0: none) */
    double def;                 /* INT, NUM, BOOL: the default */
    const char *def_text;       /* CHOICE, TEXT: the default ("" or NULL: none) */
    const char *const *choices; /* CHOICE: the names, NULL-terminated */
    /* ---- optional, added for the calculator (NULL: none) ---- */
    const char *unit;      /* INT, NUM: the unit a value reads in ("in": "20 in") */
    const char *kind;      /* the ruleset's key for the field's kind ("range"); NULL: the
                              type's name (opfor_field_type_name) */
    const char *kind_text; /* the kind for people when it differs from kind ("quality or
                              transport") */
    const char *alias;     /* another name the field answers to ("colors") */
} opfor_field_t;

/* One form: a calculator action, a report, a table action. */
typedef struct opfor_form {
    const char *name;            /* key ("fire_rifle", "casualties", "initiative") */
    const char *title;           /* for people ("Rifle fire") */
    const char *help;            /* one line */
    const char *section;         /* the rule it serves, as the seed numbers it ("IX") */
    const opfor_field_t *fields; /* nfields entries */
    int nfields;
} opfor_form_t;

/* One value of a field. */
typedef struct opfor_value {
    int set;          /* 0: left out (take the default) */
    double num;       /* INT, NUM, BOOL (0/1), CHOICE (index into choices) */
    const char *text; /* TEXT, UNIT, POINT, DICE and LIST values as written (not owned) */
    int named;        /* INT, NUM with choices: 1 when a name was given (num is its index) */
} opfor_value_t;

/* The form named name (case-insensitive) among n forms, or NULL. */
const opfor_form_t *opfor_form_find(const opfor_form_t *forms, int n, const char *name);
/* The index of the field named name or its alias (case-insensitive, '-' equal to '_'), or
 * -1. */
int opfor_form_field(const opfor_form_t *f, const char *name);
/* "int", "number", "bool", "choice", "text", "unit", "point", "dice"; "?" out of range. */
const char *opfor_field_type_name(int type);
/* Reads text as the value of field fd into *v (text is kept, not copied). 0, or
 * OPFOR_EINVAL / OPFOR_ERANGE with a message naming the field and what it allows in
 * msg (n bytes). */
int opfor_field_parse(const opfor_field_t *fd, const char *text, opfor_value_t *v, char *msg,
                      size_t n);
/* Checks vals[f->nfields] against f: required fields set, numbers within limits, choices
 * in range. 0, or OPFOR_EINVAL with a message naming the first bad field in msg. */
int opfor_form_check(const opfor_form_t *f, const opfor_value_t *vals, char *msg, size_t n);
/* The value field fd takes from v: v itself when set, else the field's default (set 1, or
 * set 0 when the field has none: OPFOR_FIELD_OPTIONAL, REQUIRED, a CHOICE or TEXT without
 * def_text). Returns out->set. */
int opfor_field_resolve(const opfor_field_t *fd, const opfor_value_t *v, opfor_value_t *out);
/* A resolved value as people read it: a choice's name, "yes"/"no", "3", "20 in" (with the
 * field's unit), the text as written, or "unset". Returns buf. */
const char *opfor_field_text(const opfor_field_t *fd, const opfor_value_t *v, char *buf, size_t n);

#endif
