/* io/pack_forms.c — a ruleset's typed forms (opfor/form.h) as game.state's `reports` and
 * `actions`: everything a generic client needs to build a form and check it before sending
 * (docs/protocol.md, "Forms in game.state"). The table game may give a UNIT field the units the
 * rules allow now (`values`); without it the field takes any unit of the game.
 */
#include <stddef.h>

#include "pack_int.h"

static void pack_str_or_nil(msgpack_packer *pk, const char *key, const char *s) {
    opfor_rpc_pack_cstr(pk, key);
    if (s && s[0])
        opfor_rpc_pack_cstr(pk, s);
    else
        msgpack_pack_nil(pk);
}

static void pack_default(msgpack_packer *pk, const opfor_field_t *fd) {
    opfor_rpc_pack_cstr(pk, "default");
    if (fd->flags & (OPFOR_FIELD_REQUIRED | OPFOR_FIELD_OPTIONAL)) {
        msgpack_pack_nil(pk);
        return;
    }
    switch (fd->type) {
    case OPFOR_FIELD_INT:
    case OPFOR_FIELD_NUM:
        msgpack_pack_double(pk, fd->def);
        break;
    case OPFOR_FIELD_BOOL:
        if (fd->def != 0)
            msgpack_pack_true(pk);
        else
            msgpack_pack_false(pk);
        break;
    case OPFOR_FIELD_CHOICE:
    case OPFOR_FIELD_TEXT:
        if (fd->def_text && fd->def_text[0])
            opfor_rpc_pack_cstr(pk, fd->def_text);
        else
            msgpack_pack_nil(pk);
        break;
    default:
        msgpack_pack_nil(pk);
    }
}

static void pack_field(msgpack_packer *pk, const opfor_form_t *f, int k, opfor__form_values_fn fn,
                       void *ud) {
    const opfor_field_t *fd = &f->fields[k];
    const int limits = fd->min != 0 || fd->max != 0;
    msgpack_pack_map(pk, 13);
    opfor__kv_str(pk, "name", fd->name);
    opfor__kv_str(pk, "label", fd->label ? fd->label : fd->name);
    opfor__kv_str(pk, "help", fd->help ? fd->help : "");
    opfor__kv_str(pk, "type", opfor_field_type_name(fd->type));
    opfor__kv_bool(pk, "required", (fd->flags & OPFOR_FIELD_REQUIRED) != 0);
    opfor__kv_bool(pk, "optional", (fd->flags & OPFOR_FIELD_OPTIONAL) != 0);
    opfor__kv_bool(pk, "list", (fd->flags & OPFOR_FIELD_LIST) != 0);
    opfor_rpc_pack_cstr(pk, "min");
    if (limits)
        msgpack_pack_double(pk, fd->min);
    else
        msgpack_pack_nil(pk);
    opfor_rpc_pack_cstr(pk, "max");
    if (limits)
        msgpack_pack_double(pk, fd->max);
    else
        msgpack_pack_nil(pk);
    pack_default(pk, fd);
    opfor_rpc_pack_cstr(pk, "choices");
    if (fd->choices) {
        size_t n = 0;
        while (fd->choices[n])
            n++;
        msgpack_pack_array(pk, n);
        for (size_t i = 0; i < n; i++)
            opfor_rpc_pack_cstr(pk, fd->choices[i]);
    } else {
        msgpack_pack_nil(pk);
    }
    opfor_rpc_pack_cstr(pk, "values");
    if (!fn || !fn(ud, f, k, pk))
        msgpack_pack_nil(pk);
    pack_str_or_nil(pk, "unit", fd->unit);
}

void opfor__pack_forms(msgpack_packer *pk, const opfor_form_t *forms, int n,
                       opfor__form_values_fn fn, void *ud) {
    msgpack_pack_array(pk, (size_t)(forms && n > 0 ? n : 0));
    for (int i = 0; forms && i < n; i++) {
        const opfor_form_t *f = &forms[i];
        msgpack_pack_map(pk, 5);
        opfor__kv_str(pk, "name", f->name);
        opfor__kv_str(pk, "title", f->title ? f->title : f->name);
        opfor__kv_str(pk, "help", f->help ? f->help : "");
        pack_str_or_nil(pk, "section", f->section);
        opfor_rpc_pack_cstr(pk, "fields");
        msgpack_pack_array(pk, (size_t)(f->nfields > 0 ? f->nfields : 0));
        for (int k = 0; k < f->nfields; k++)
            pack_field(pk, f, k, fn, ud);
    }
}
