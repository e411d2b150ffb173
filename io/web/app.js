// io/web/app.js — the table page's code (docs/web.md): a MessagePack-RPC client over the page's
// WebSocket (binary messages, one frame each, the same methods as every other client) and the
// calculator screen, built from `calc.list`'s typed fields so that nothing here names a ruleset.
// MessagePack is @msgpack/msgpack's browser bundle (the global MessagePack), served beside this.
"use strict";

const API_LEVEL = 5;

// ------------------------------------------------------------------ the RPC client

// One connection to opford that comes back by itself: when it drops (a phone that slept, a
// network that went, a daemon restarted) it reopens after 0.5 s, then 1, 2, 4, 8 s at most, and
// at once when the page becomes visible again or the browser is back online; onOpen runs after
// every open (the first and each reopen), so the page says hello again and refreshes.
class Rpc {
  constructor(url, onState, onOpen) {
    this.url = url;
    this.onState = onState;
    this.onOpen = onOpen;
    this.nextId = 1;
    this.waiting = new Map(); // id -> {resolve, reject}
    this.listeners = new Map(); // notification method -> [fn]
    this.ws = null;
    this.delay = 500;
    this.timer = null;
    const soon = () => { if (!this.connected()) this.reopen(0); };
    document.addEventListener("visibilitychange", () => { if (!document.hidden) soon(); });
    window.addEventListener("online", soon);
  }

  connected() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  open() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    this.onState("connecting");
    const ws = new WebSocket(this.url);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.onState("open");
      Promise.resolve(this.onOpen()).catch((e) => console.error(e));
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.onState("closed");
      for (const w of this.waiting.values()) w.reject(new Error("connection closed"));
      this.waiting.clear();
      this.reopen(this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
    ws.onmessage = (ev) => this.receive(ev.data);
  }

  // Gives up reconnecting (a refused token).
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  reopen(ms) {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), ms);
  }

  receive(data) {
    let msg;
    try {
      msg = MessagePack.decode(new Uint8Array(data));
    } catch (e) {
      console.error("undecodable message", e);
      return;
    }
    if (!Array.isArray(msg)) return;
    if (msg[0] === 1) { // [1, id, error, result]
      const w = this.waiting.get(msg[1]);
      if (!w) return;
      this.waiting.delete(msg[1]);
      if (msg[2] != null) {
        const e = new Error(msg[2][1]);
        e.code = msg[2][0];
        w.reject(e);
      } else {
        w.resolve(msg[3]);
      }
    } else if (msg[0] === 2) { // [2, method, params]
      for (const fn of this.listeners.get(msg[1]) || []) fn(msg[2]);
    }
  }

  call(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new Error("not connected"));
        return;
      }
      this.waiting.set(id, { resolve, reject });
      this.ws.send(MessagePack.encode([0, id, method, [params || {}]]));
    });
  }

  on(method, fn) {
    if (!this.listeners.has(method)) this.listeners.set(method, []);
    this.listeners.get(method).push(fn);
  }
}

// ------------------------------------------------------------------ helpers

const $ = (id) => document.getElementById(id);

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

// An exact chance for people: a percentage with one decimal (two below 1 %).
function percent(p) {
  if (p == null || Number.isNaN(p)) return "";
  const v = p * 100;
  if (v > 0 && v < 1) return v.toFixed(2) + " %";
  return v.toFixed(1) + " %";
}

function showError(e) {
  $("calc-error").textContent = e ? String(e.message || e) : "";
}

// ------------------------------------------------------------------ the calculator

const calc = {
  rpc: null,
  actions: [], // calc.list's actions of the chosen ruleset
  seq: 0, // answers to older requests are dropped
};

// One input for one typed field (calc.list: kind, type, values, min, max, default, allowed).
function fieldInput(f) {
  const id = "f-" + f.name;
  const def = f.default;
  let input;
  if (f.kind === "flag" || f.type === "bool") {
    input = el("input", { id, name: f.name, type: "checkbox" });
    input.checked = def === true || def === "yes" || def === "true";
    const wrap = el("div", { class: "field flag" }, input, el("label", { for: id, text: f.label || f.name }));
    return wrap;
  }
  if (Array.isArray(f.values) && f.values.length && f.kind !== "range") {
    input = el("select", { id, name: f.name });
    if (def == null) input.append(el("option", { value: "", text: "—" }));
    for (const v of f.values) input.append(el("option", { value: String(v), text: String(v).replace(/_/g, " ") }));
    if (def != null) input.value = String(def);
  } else {
    // numbers, inches, and ranges (inches or a bracket name: offered as suggestions)
    input = el("input", { id, name: f.name });
    if (f.kind === "range" && Array.isArray(f.values)) {
      const list = el("datalist", { id: id + "-list" });
      for (const v of f.values) list.append(el("option", { value: String(v) }));
      input.setAttribute("list", id + "-list");
      input.setAttribute("inputmode", "decimal");
      input.after(list);
      const wrap = el("div", { class: "field" }, el("label", { for: id, text: f.label || f.name }), input, list);
      if (def != null) input.value = String(def);
      input.title = f.allowed || "";
      return wrap;
    }
    if (f.kind === "number" || f.kind === "inches" || f.type === "int" || f.type === "number") {
      input.type = "number";
      input.setAttribute("inputmode", "decimal");
      input.step = f.type === "int" ? "1" : "any";
      if (f.min != null) input.min = String(f.min);
      if (f.max != null) input.max = String(f.max);
    }
    if (def != null) input.value = String(def);
  }
  input.title = f.allowed || "";
  return el("div", { class: "field" }, el("label", { for: id, text: f.label || f.name }), input);
}

function currentAction() {
  return calc.actions.find((a) => a.name === $("calc-action").value);
}

// The form's values: only what differs from the field's default is sent (the daemon fills in
// the rest), numbers as numbers.
function formFields(action) {
  const out = {};
  for (const f of action.fields) {
    const input = $("f-" + f.name);
    if (!input) continue;
    let v;
    if (input.type === "checkbox") {
      v = input.checked;
      const def = f.default === true || f.default === "yes" || f.default === "true";
      if (v === def) continue;
    } else {
      v = input.value.trim();
      if (v === "" || v === String(f.default ?? "")) continue;
      if (/^-?\d+(\.\d+)?$/.test(v)) v = Number(v);
    }
    out[f.name] = v;
  }
  return out;
}

// The answer: the first roll's score needed and its exact chance (the calculator's `rolls`, when
// it has them: p_exact, and p_rendered for the dice as rolled; else the shared schema's `p`),
// every roll, and the end results (`outcomes`, else the shared `distribution`).
function renderAnswer(r) {
  const rolls = Array.isArray(r.rolls) ? r.rolls : [];
  const first = rolls[0];
  $("calc-needed").textContent = r.needed || (first && first.need) || "no roll";
  $("calc-dice").textContent = r.dice || (first && first.dice) || "";
  const exact = first && first.p_exact != null ? first.p_exact : r.p;
  $("calc-chance").textContent = exact != null ? "exact " + percent(exact) : "";
  $("calc-dice-p").textContent =
    first && first.p_rendered != null ? "on the dice " + percent(first.p_rendered) : "";
  const dist = $("calc-dist");
  dist.replaceChildren();
  const row = (cls, ...cells) => el("tr", { class: cls }, ...cells.map((c, i) =>
    el(i === 0 ? "th" : "td", { class: i ? "p" : "", text: c })));
  if (rolls.length) {
    dist.append(row("head", "Roll", "need", "exact"));
    for (const x of rolls) dist.append(row("", x.label || x.name, x.need || "", percent(x.p_exact)));
  }
  const outs = Array.isArray(r.outcomes) && r.outcomes.length ? r.outcomes : null;
  if (outs) {
    dist.append(row("head", "Result", "exact", "dice"));
    for (const o of outs) dist.append(row("", o.label || o.name, percent(o.p_exact), percent(o.p_rendered)));
  } else if (Array.isArray(r.distribution) && r.distribution.length) {
    dist.append(row("head", "Result", "chance", ""));
    for (const d of r.distribution) dist.append(row("", d.label, percent(d.p), ""));
  }
  $("calc-text").textContent = r.text || "";
}

async function runCalc() {
  const action = currentAction();
  if (!action) return;
  const seq = ++calc.seq;
  $("calc-outcome").textContent = "";
  try {
    const r = await calc.rpc.call("calc", {
      ruleset: $("calc-ruleset").value, action: action.name, fields: formFields(action), schema: true,
    });
    if (seq !== calc.seq) return;
    showError(null);
    renderAnswer(r);
  } catch (e) {
    if (seq === calc.seq) showError(e);
  }
}

async function runRolled(ev) {
  ev.preventDefault();
  const action = currentAction();
  const rolled = $("calc-dice-in").value.trim();
  if (!action || !rolled) return;
  try {
    const r = await calc.rpc.call("calc", {
      ruleset: $("calc-ruleset").value, action: action.name, fields: formFields(action), schema: true, rolled,
    });
    showError(null);
    renderAnswer(r);
    $("calc-outcome").textContent = r.outcome || (r.success ? "success" : "failure");
  } catch (e) {
    showError(e);
  }
}

function showAction() {
  const a = currentAction();
  const form = $("calc-fields");
  form.replaceChildren();
  if (!a) return;
  $("calc-summary").textContent = (a.summary || "") + (a.rules ? " (" + a.rules + ")" : "");
  for (const f of a.fields) form.append(fieldInput(f));
  runCalc();
}

async function loadRuleset() {
  const list = await calc.rpc.call("calc.list", { ruleset: $("calc-ruleset").value });
  calc.actions = list.actions || [];
  const sel = $("calc-action");
  sel.replaceChildren();
  for (const a of calc.actions) sel.append(el("option", { value: a.name, text: a.title || a.name }));
  showAction();
}


// ------------------------------------------------------------------ the games screen

// The games in the daemon (game.list), a new one (game.new: the ruleset, its scenario and mode
// when hello's ruleset_info lists them, and the AI level, all from the protocol, not from any
// ruleset), and one game followed live: its summary from game.state and its events through
// subscribe, caught up after a reconnect from the last seq seen (or read whole again when the
// daemon no longer keeps what was missed). The players' link (hello's `link`) lists, follows
// and plays games, but has no buttons to start or close one.
const games = { open: null, seq: 0, rulesets: [], info: [], state: null, players: false };

function eventText(ev) {
  const d = ev.data || {};
  const pick = d.sentence || d.text || d.why || d.result || d.holder || "";
  const text = Array.isArray(pick) ? pick.join(" ") : String(pick);
  return (ev.turn ? "turn " + ev.turn + " · " : "") + ev.kind + (text ? ": " + text : "");
}

function showEvent(ev) {
  if (ev.seq <= games.seq) return;
  games.seq = ev.seq;
  const li = el("li", { text: eventText(ev), value: String(ev.seq) });
  $("game-events").prepend(li);
  if (ev.kind === "closed" || ev.kind === "game_over") listGames().catch(gamesError);
  if (!games.refreshing) { // one game.state for a burst of events
    games.refreshing = true;
    setTimeout(() => {
      games.refreshing = false;
      refreshState().catch(gamesError);
    }, 50);
  }
}

function gamesError(e) {
  $("games-error").textContent = e ? String(e.message || e) : "";
}

async function listGames() {
  const r = await calc.rpc.call("game.list", {});
  const t = $("games-list");
  t.replaceChildren();
  const head = el("tr", { class: "head" });
  for (const h of ["Game", "Status", ""]) head.append(el("th", { text: h }));
  t.append(head);
  for (const g of r.games || []) {
    const open = el("button", { type: "button", text: "Open" });
    open.addEventListener("click", () => openGame(g.game).catch(gamesError));
    t.append(el("tr", { "data-game": g.game },
      el("td", { text: g.game + " · " + (g.ruleset || "") + " · " + (g.scenario || "") }),
      el("td", { class: "status-cell", text: g.status || "" }), el("td", {}, open)));
  }
  gamesError(null);
}

async function refreshState() {
  if (!games.open) return;
  const st = await calc.rpc.call("game.state", { game: games.open });
  const parts = [];
  if (st.status) parts.push(st.status);
  if (st.turn != null) parts.push("turn " + st.turn + (st.turn_limit ? " of " + st.turn_limit : ""));
  if (st.pending) parts.push("initiative: " + st.pending);
  if (st.verdict) parts.push(st.verdict);
  $("game-summary").textContent = parts.join(" · ");
  $("game-title").textContent = (st.title || st.scenario || "") + " (" + games.open + ")";
  games.state = st;
  TableMap.show(st); // the map (map.js), drawn again from this state's scene
  TablePlay.show(st, games.open); // the Play section (play.js), from the same state
  return st;
}

// A unit dragged on the map to where it stands (at: inches): the game's own `move` report
// (game.state's `reports`, fields `unit` and `at` "x,y") when it has one, else `report`'s
// `moves`, checked against the state the map was drawn from (`seen`). The daemon's checks
// decide; a refusal rejects with its reason and the map puts the unit back.
async function dropUnit(u, at) {
  const st = games.state;
  if (!games.open || !st || st.game !== games.open) throw new Error("no game is open");
  const form = (st.reports || []).find((r) => r && r.name === "move");
  if (form)
    return calc.rpc.call("game.report", {
      game: games.open, form: "move", fields: { unit: u.name, at: at.x + "," + at.y },
    });
  const params = { game: games.open, moves: [{ unit: u.name, x: at.x, y: at.y }] };
  if (st.log_seq != null) params.seen = st.log_seq;
  return calc.rpc.call("report", params);
}

async function follow(after) {
  const sub = await calc.rpc.call("subscribe", { game: games.open, after });
  if (sub.missed) { // the daemon no longer keeps them all: read the game again
    $("game-events").replaceChildren();
    games.seq = sub.seq;
  }
  for (const ev of sub.events || []) showEvent(ev);
  await refreshState();
}

async function openGame(id) {
  if (games.open && games.open !== id) await calc.rpc.call("unsubscribe", { game: games.open }).catch(() => {});
  games.open = id;
  games.seq = 0;
  $("game-events").replaceChildren();
  $("game").hidden = false;
  document.body.dataset.game = id;
  await follow(0);
}

// The chosen ruleset's scenarios and modes (hello's ruleset_info: `scenarios` [{name, title}],
// `modes` [str]) as two lists; a ruleset that lists none shows none (the daemon's default).
function newGameChoices() {
  const info = games.info.find((i) => i.name === $("new-ruleset").value) || {};
  const fill = (key, items) => {
    const sel = $("new-" + key);
    sel.replaceChildren(el("option", { value: "", text: "the game's default" })); // the daemon's choice
    for (const it of items) sel.append(el("option", { value: it.name, text: it.title }));
    $("new-" + key + "-field").hidden = items.length === 0;
  };
  const scenarios = Array.isArray(info.scenarios) ? info.scenarios : [];
  fill("scenario", scenarios.filter((x) => x && x.name).map((x) => ({ name: x.name, title: x.title || x.name.replace(/_/g, " ") })));
  const modes = Array.isArray(info.modes) ? info.modes : [];
  fill("mode", modes.filter((m) => typeof m === "string").map((m) => ({ name: m, title: m.replace(/_/g, " ") })));
}

async function newGame(ev) {
  ev.preventDefault();
  const params = { ruleset: $("new-ruleset").value, level: $("new-level").value };
  for (const key of ["scenario", "mode"])
    if (!$("new-" + key + "-field").hidden && $("new-" + key).value) params[key] = $("new-" + key).value;
  const seed = $("new-seed").value.trim();
  if (seed !== "") params.seed = Number(seed);
  try {
    const st = await calc.rpc.call("game.new", params);
    await listGames();
    await openGame(st.game);
  } catch (e) {
    gamesError(e);
  }
}

async function closeGame() {
  if (!games.open) return;
  try {
    await calc.rpc.call("game.close", { game: games.open });
    await listGames();
  } catch (e) {
    gamesError(e);
  }
}

// After hello: the games list when this link may see games, and the open game caught up.
async function gamesAfterHello(hello) {
  const sel = $("new-ruleset");
  games.info = hello.ruleset_info || [];
  if (!sel.options.length) {
    for (const name of hello.rulesets || []) {
      const info = games.info.find((i) => i.name === name) || {};
      sel.append(el("option", { value: name, text: info.title || name }));
    }
    newGameChoices();
  }
  games.players = hello.link === "players";
  document.body.dataset.link = games.players ? "players" : "game_master";
  $("games-new").hidden = games.players; // the players' link starts and closes no game
  $("game-close").hidden = games.players;
  $("games-note").textContent = games.players
    ? "The players' view: follow and play the games here; the game master's link starts and closes them." : "";
  await listGames();
  if (games.open) await follow(games.seq);
}

function showScreen(name) {
  for (const b of document.querySelectorAll(".tabs button")) {
    const on = b.dataset.screen === name;
    b.setAttribute("aria-selected", on ? "true" : "false");
    $(b.dataset.screen).hidden = !on;
  }
  if (name === "games" && calc.rpc && calc.rpc.connected()) listGames().catch(() => {}); // games other clients started
}

// Says hello (again after a reconnect), fills the games list the first time, and refreshes the
// calculator's answer.
// The link's token (`#t=...`, docs/web.md): the fragment never leaves the browser in a request.
function linkToken() {
  const m = /(?:^#|&)t=([A-Za-z0-9_-]+)/.exec(location.hash);
  return m ? m[1] : null;
}

async function greet() {
  const params = { client: "opfor-web", api_level: API_LEVEL };
  const token = linkToken();
  if (token) params.token = token;
  let hello;
  try {
    hello = await calc.rpc.call("hello", params);
  } catch (e) {
    if (e.code === 1) { // UNAUTHORIZED: a missing or wrong token; retrying will not help
      calc.rpc.stop();
      throw new Error(token ? "This link's token is not right: ask the game master for the link."
        : "Open the page with the link opford printed (it carries a token).");
    }
    throw e;
  }
  const rs = $("calc-ruleset");
  if (!rs.options.length) {
    for (const info of hello.ruleset_info || []) {
      if ((info.parts || []).includes("calc")) rs.append(el("option", { value: info.name, text: info.title || info.name }));
    }
    if (rs.options.length) await loadRuleset();
  } else {
    await runCalc();
  }
  await gamesAfterHello(hello).catch(gamesError);
  showError(null);
  document.body.dataset.ready = "1"; // for the browser tests
  document.body.dataset.hellos = String(Number(document.body.dataset.hellos || 0) + 1);
}

function start() {
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/";
  const status = $("status");
  const words = { open: "connected", closed: "reconnecting…", connecting: "connecting…" };
  calc.rpc = new Rpc(url, (state) => {
    status.textContent = words[state];
    status.className = "status " + (state === "open" ? "ok" : state === "closed" ? "bad" : "");
  }, () => greet().catch(showError));
  const rs = $("calc-ruleset");
  rs.addEventListener("change", () => loadRuleset().catch(showError));
  $("calc-action").addEventListener("change", showAction);
  $("calc-fields").addEventListener("change", runCalc);
  $("calc-fields").addEventListener("submit", (ev) => { ev.preventDefault(); runCalc(); });
  $("calc-rolled").addEventListener("submit", runRolled);
  for (const b of document.querySelectorAll(".tabs button")) b.addEventListener("click", () => showScreen(b.dataset.screen));
  $("games-new").addEventListener("submit", newGame);
  $("new-ruleset").addEventListener("change", newGameChoices);
  $("game-close").addEventListener("click", closeGame);
  TableMap.init($("map"), dropUnit);
  TablePlay.init($("play"), calc.rpc, $("map-svg")); // a tap on the map may fill a point
  calc.rpc.on("event", (params) => {
    const ev = params && params[0];
    if (ev && ev.game === games.open) showEvent(ev);
  });
  calc.rpc.open();
}

start();
