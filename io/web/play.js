// io/web/play.js — the table page's Play section (docs/web.md): the followed game played from
// the page, for every ruleset, built only from what game.state says (docs/protocol.md, "Forms
// in game.state"): a button per table action (`actions`), "AI orders" while `ai_to_order`, the
// AI's last order with its reason, runner-up and needs, one form per report (`reports`) built
// from its typed fields (a unit from `values`, a point typed or tapped on the map), and Undo while
// `can_undo`; where the state lists a table side's legal actions (`legal`) or the dice's outcomes
// (`outcomes`), a button for each (game.act, game.roll). Every call sends `seen` (the log_seq shown), so a report made against a state
// another device has changed is refused; a refusal is shown in words beside its form and the
// form keeps what was typed. The page reads game.state again after every burst of events
// (app.js), and TablePlay.show(state) redraws from it. Nothing here names a ruleset.
"use strict";

const TablePlay = (() => {
  const s = {
    root: null, rpc: null, game: null, st: null, schema: "", order: null, orderKey: null,
    armed: null, // the POINT input a tap on the map fills, or null
    chosen: null, // the report form on screen
  };

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c);
    return e;
  }
  const q = (sel) => s.root.querySelector(sel);
  const pct = (p) => (p == null || Number.isNaN(p) ? "" : (p * 100).toFixed(1) + " %");
  const fmt = (v) => (typeof v === "number" ? (Math.round(v * 100) / 100).toString() : String(v));

  // ---------------------------------------------------------------- one typed field

  function unitOptions(sel, f) {
    const keep = sel.value;
    const list = Array.isArray(f.values) ? f.values : [];
    sel.replaceChildren(el("option", { value: "", text: list.length ? "— choose —" : "— none allowed now —" }));
    for (const v of list) sel.append(el("option", { value: v, text: v }));
    sel.value = list.includes(keep) ? keep : "";
  }

  function fieldInput(form, f, prefix) {
    const id = prefix + "-" + f.name;
    const label = el("label", { for: id, text: f.label + (f.required ? "" : " (optional)") });
    let input;
    let extra = null;
    if (f.type === "unit" && Array.isArray(f.values)) {
      input = el("select", { id });
      unitOptions(input, f);
    } else if (f.type === "choice" && Array.isArray(f.choices)) {
      input = el("select", { id });
      if (!f.required || f.default == null) input.append(el("option", { value: "", text: f.required ? "— choose —" : "—" }));
      for (const c of f.choices) input.append(el("option", { value: c, text: c.replace(/_/g, " ") }));
      input.value = f.default != null ? f.default : "";
    } else if (f.type === "bool") {
      input = el("input", { id, type: "checkbox" });
      input.checked = f.default === true;
    } else if (f.type === "int" || f.type === "number") {
      input = el("input", { id, type: "number", inputmode: f.type === "int" ? "numeric" : "decimal" });
      if (f.min != null) input.min = f.min;
      if (f.max != null) input.max = f.max;
      if (f.type === "number") input.step = "any";
      if (f.default != null) input.value = fmt(f.default);
    } else if (f.type === "point") {
      input = el("input", { id, inputmode: "decimal", placeholder: "x,y (inches)" });
      extra = el("button", { type: "button", class: "tap", "aria-pressed": "false", text: "Tap the map" });
      extra.addEventListener("click", () => arm(s.armed === input ? null : input));
    } else {
      input = el("input", { id, inputmode: "text" });
      if (f.default != null) input.value = String(f.default);
    }
    input.dataset.field = f.name;
    input.dataset.type = f.type;
    if (f.help) input.title = f.help;
    const wrap = el("div", { class: "field" + (f.type === "bool" ? " flag" : "") }, label);
    wrap.append(extra ? el("div", { class: "inline" }, input, extra) : input);
    return wrap;
  }

  // The values typed into a form, as game.report's `fields` (empty ones left out).
  function values(formEl) {
    const out = {};
    for (const i of formEl.querySelectorAll("[data-field]")) {
      if (i.type === "checkbox") { out[i.dataset.field] = i.checked; continue; }
      const v = i.value.trim();
      if (v === "") continue;
      out[i.dataset.field] = (i.dataset.type === "int" || i.dataset.type === "number") && !Number.isNaN(Number(v)) ? Number(v) : v;
    }
    return out;
  }

  // ---------------------------------------------------------------- a point from the map

  function arm(input) {
    s.armed = input;
    for (const b of s.root.querySelectorAll("button.tap")) {
      const on = input != null && b.previousSibling === input;
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.textContent = on ? "Tap on the map…" : "Tap the map";
    }
  }

  // A small cross where the tapped point is, on top of the map's drawing (gone with the map's
  // next redraw, which follows the report).
  function mark(svg, x, y) {
    for (const m of svg.querySelectorAll(".play-mark")) m.remove();
    const NS = "http://www.w3.org/2000/svg";
    const g = document.createElementNS(NS, "g");
    g.setAttribute("class", "play-mark");
    g.setAttribute("transform", `translate(${x.toFixed(2)},${y.toFixed(2)})`);
    for (const [x1, y1, x2, y2] of [[-1, -1, 1, 1], [-1, 1, 1, -1]]) {
      const l = document.createElementNS(NS, "line");
      for (const [k, v] of Object.entries({ x1, y1, x2, y2 })) l.setAttribute(k, String(v));
      g.append(l);
    }
    svg.append(g);
  }

  // A tap on the map while a point field is armed: the table point under the finger (the map's
  // view box is the table in inches, y drawn downwards from the north edge).
  function mapTap(ev) {
    if (!s.armed || !s.st || !s.st.scene) return;
    const svg = ev.currentTarget;
    const m = svg.getScreenCTM();
    if (!m) return;
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
    const x = Math.min(Math.max(p.x, 0), s.st.scene.width);
    const y = Math.min(Math.max(s.st.scene.depth - p.y, 0), s.st.scene.depth);
    s.armed.value = x.toFixed(1) + "," + y.toFixed(1);
    mark(svg, x, s.st.scene.depth - y);
    s.armed.dispatchEvent(new Event("change"));
    arm(null);
  }

  // ---------------------------------------------------------------- sending

  async function send(method, form, formEl, errEl) {
    errEl.textContent = "";
    const params = { game: s.game, form: form.name, fields: formEl ? values(formEl) : {} };
    if (s.st && s.st.log_seq != null) params.seen = s.st.log_seq;
    try {
      await s.rpc.call(method, params);
      if (formEl) for (const i of formEl.querySelectorAll("[data-type=point]")) i.value = "";
      errEl.textContent = "";
    } catch (e) {
      errEl.textContent = String(e.message || e); // the daemon's reason; the input stays
    }
  }

  async function aiOrders() {
    const err = q("#play-ai-error");
    err.textContent = "";
    const b = q("#play-ai");
    b.disabled = true;
    b.textContent = "The AI is thinking…";
    try {
      s.order = await s.rpc.call("ai.orders", { game: s.game });
      showOrder(s.order);
    } catch (e) {
      err.textContent = String(e.message || e);
    } finally {
      b.disabled = false;
      b.textContent = "AI orders";
    }
  }

  async function undo() {
    const err = q("#play-undo-error");
    err.textContent = "";
    const params = { game: s.game };
    if (s.st && s.st.undo_report != null) params.report = s.st.undo_report;
    try {
      await s.rpc.call("game.undo", params);
    } catch (e) {
      err.textContent = String(e.message || e);
    }
  }

  // A table side's legal actions (game.act) and the dice at a chance node (game.roll), where
  // the state lists them; rebuilt from every state.
  function showMoves(st) {
    const box = q("#play-moves");
    box.replaceChildren();
    const err = el("p", { class: "error", role: "alert" });
    const act = (method, params) => async () => {
      err.textContent = "";
      try { await s.rpc.call(method, Object.assign({ game: s.game }, params)); } catch (e) { err.textContent = String(e.message || e); }
    };
    const legal = st.status === "active" && Array.isArray(st.legal) ? st.legal : [];
    const chance = st.status === "active" && st.to_move === "chance";
    if (legal.length) box.append(el("h4", { text: "Side " + (Number(st.to_move) + 1) + " to move" }));
    legal.forEach((phrase, i) => {
      const b = el("button", { type: "button", class: "move", text: phrase });
      b.addEventListener("click", act("game.act", { action: i }));
      box.append(b);
    });
    if (chance) {
      box.append(el("h4", { text: "The dice" }));
      for (const o of Array.isArray(st.outcomes) ? st.outcomes : []) {
        const b = el("button", { type: "button", class: "move", text: o.text + (o.p != null ? " (" + pct(o.p) + ")" : "") });
        b.addEventListener("click", act("game.roll", { outcome: o.index }));
        box.append(b);
      }
      const b = el("button", { type: "button", class: "move", text: "Roll for me" });
      b.addEventListener("click", act("game.roll", { outcome: "auto" }));
      box.append(b);
    }
    box.append(err);
    box.hidden = !legal.length && !chance;
  }

  // ---------------------------------------------------------------- the order

  function showOrder(o) {
    const key = o ? JSON.stringify(o) : "";
    if (key === s.orderKey) return; // the same order: leave it on screen as it is
    s.orderKey = key;
    const box = q("#play-order");
    box.replaceChildren();
    box.hidden = !o;
    if (!o) return;
    box.append(el("h4", { text: "The AI's order" + (o.turn ? " · turn " + o.turn : "") }),
      el("p", { class: "sentence", id: "play-sentence", text: o.sentence || o.action || "" }));
    if (o.command) box.append(el("p", { class: "summary", text: "Command: " + o.command }));
    if (o.reason) box.append(el("p", { class: "summary", id: "play-reason", text: "Why: " + o.reason }));
    if (o.runner_up) {
      let v = o.runner_up.value;
      if (v == null && Array.isArray(o.alternatives)) {
        const alt = o.alternatives.find((a) => !a.chosen);
        if (alt) v = alt.value;
      }
      box.append(el("p", { class: "summary", id: "play-runner", text: "Runner-up: " + (o.runner_up.sentence || "") +
        (v != null ? " (value " + (Math.round(v * 100) / 100).toFixed(2) + ")" : "") }));
    }
    if (Array.isArray(o.needs) && o.needs.length) {
      const t = el("table", { class: "dist", id: "play-needs" });
      for (const n of o.needs) {
        const times = n.count ? " ×" + n.count + (n.per ? " per " + n.per : "") : n.per ? " per " + n.per : "";
        t.append(el("tr", {}, el("td", { text: (n.label || n.name || "") + times }),
          el("td", { text: (n.need || "") + (n.dice && !String(n.need || "").includes(" on ") ? " on " + n.dice : "") }),
          el("td", { class: "p", text: pct(n.p) })));
      }
      box.append(t);
    }
  }

  // ---------------------------------------------------------------- the forms

  function schemaOf(st) {
    const strip = (forms) => (forms || []).map((f) => [f.name, f.title, (f.fields || []).map((x) => [x.name, x.type, x.label])]);
    return JSON.stringify([s.game, strip(st.actions), strip(st.reports)]);
  }

  function buildForms(st) {
    const acts = q("#play-actions");
    acts.replaceChildren();
    for (const f of st.actions || []) {
      const formEl = el("form", { class: "play-form", "data-form": f.name, autocomplete: "off" });
      const fieldsBox = el("div", { class: "fields" });
      for (const fd of f.fields || []) fieldsBox.append(fieldInput(f, fd, "pa-" + f.name));
      const err = el("p", { class: "error", role: "alert" });
      const b = el("button", { type: "submit", class: "action", text: f.title || f.name });
      if (f.help) b.title = f.help;
      formEl.append(fieldsBox, b, err);
      formEl.addEventListener("submit", (ev) => { ev.preventDefault(); send("game.action", f, formEl, err); });
      acts.append(formEl);
    }
    const pick = q("#play-report");
    const box = q("#play-reports");
    pick.replaceChildren();
    box.replaceChildren();
    for (const f of st.reports || []) {
      pick.append(el("option", { value: f.name, text: f.title || f.name }));
      const formEl = el("form", { class: "play-form", "data-form": f.name, autocomplete: "off" });
      if (f.help) formEl.append(el("p", { class: "summary", text: f.help }));
      const fieldsBox = el("div", { class: "fields" });
      for (const fd of f.fields || []) fieldsBox.append(fieldInput(f, fd, "pr-" + f.name));
      const err = el("p", { class: "error", role: "alert" });
      formEl.append(fieldsBox, el("button", { type: "submit", text: "Report" }), err);
      formEl.addEventListener("submit", (ev) => { ev.preventDefault(); send("game.report", f, formEl, err); });
      box.append(formEl);
    }
    q("#play-report-box").hidden = !(st.reports || []).length;
    if (!(st.reports || []).some((f) => f.name === s.chosen)) s.chosen = st.reports && st.reports.length ? st.reports[0].name : null;
    pick.value = s.chosen || "";
    showChosen();
  }

  function showChosen() {
    for (const f of s.root.querySelectorAll("#play-reports form")) f.hidden = f.dataset.form !== s.chosen;
  }

  // New `values` for unit fields, keeping what was chosen when it is still allowed.
  function refreshValues(st) {
    for (const [list, prefix] of [[st.actions, "pa-"], [st.reports, "pr-"]])
      for (const f of list || [])
        for (const fd of f.fields || []) {
          if (fd.type !== "unit" || !Array.isArray(fd.values)) continue;
          const sel = document.getElementById(prefix + f.name + "-" + fd.name);
          if (sel && sel.tagName === "SELECT") unitOptions(sel, fd);
        }
  }

  // ---------------------------------------------------------------- public

  function show(st, game) {
    if (!s.root) return;
    if (!st) { s.root.hidden = true; return; }
    if (game !== s.game) { s.order = null; arm(null); }
    s.game = game;
    s.st = st;
    s.root.hidden = false;
    const active = st.status === "active";
    const schema = schemaOf(st);
    if (schema !== s.schema) {
      s.schema = schema;
      buildForms(st);
    }
    refreshValues(st);
    for (const b of s.root.querySelectorAll("#play-actions button, #play-reports button"))
      b.disabled = !active;
    q("#play-ai-box").hidden = !(active && st.ai_to_order === true);
    q("#play-undo-box").hidden = !(active && st.can_undo === true);
    if (!(active && st.can_undo === true)) q("#play-undo-error").textContent = "";
    showOrder(st.order || null);
    showMoves(st);
    q("#play-note").textContent = active ? "" : "This game is " + st.status + ": nothing more can be played.";
    s.root.dataset.logSeq = String(st.log_seq); // for the tests
  }

  function init(root, rpc, svg) {
    s.root = root;
    s.rpc = rpc;
    q("#play-ai").addEventListener("click", aiOrders);
    q("#play-undo").addEventListener("click", undo);
    q("#play-report").addEventListener("change", (ev) => { s.chosen = ev.target.value; showChosen(); });
    if (svg) svg.addEventListener("click", mapTap);
  }

  return { init, show };
})();
