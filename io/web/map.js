// io/web/map.js — the table page's map (docs/web.md): the game's drawable scene (game.state's
// `scene`, docs/protocol.md; flags as in core/include/opfor/scene.h) drawn as inline SVG. It
// knows only the scene's closed vocabulary (shape styles, unit flags, arrow kinds), never a
// ruleset: terrain, objectives and zones, every unit as a rectangle turned to its facing in its
// side's colour with its name written under it, the acting unit ringed, its target
// cross-haired, newly spotted units dashed with their placement arrow, the order's move and
// fire arrows; zones (command radii) on demand; a tap on a unit names it and its state. app.js calls TableMap.show(state) each time
// it reads game.state (after every burst of events), so the map follows the game live.
// Dragging a unit (a mouse or pen drag; a finger's long press, then the drag) moves it, and on
// release the map hands the unit and the point in inches to app.js's onDrop (TableMap.init),
// which reports it; the daemon's checks decide, and a refusal puts the unit back, saying why.
"use strict";

const TableMap = (() => {
  const NS = "http://www.w3.org/2000/svg";
  // OPFOR_SCENE_U_* (core/include/opfor/scene.h)
  const F = { AI: 1, ACTING: 2, TARGET: 4, SPOTTED: 8, SHAKEN: 16, HIDDEN: 32 };
  // Side colours by side index: strong and told apart in daylight and by most colour-blind eyes.
  const SIDE = ["#1f5fbf", "#c0392b", "#2e7d32", "#8e24aa", "#ef6c00", "#00838f", "#6d4c41", "#455a64"];
  const state = { root: null, svg: null, scene: null, zones: false, picked: null, sides: [],
    onDrop: null, drag: null, noClick: false };
  const LONG_PRESS_MS = 350; // a finger held this long on a unit picks it up
  const SLOP_PX = 8; // a mouse moved this far drags; a finger moved this far before the long press scrolls

  function svgEl(tag, attrs, ...children) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    for (const c of children) e.append(c);
    return e;
  }

  const r2 = (v) => Math.round(v * 100) / 100;
  // Scene points are inches from the south-west corner, y north; the SVG's y goes down.
  const X = (p) => r2(p[0]);
  const Y = (p) => r2(state.scene.depth - p[1]);
  const pts = (list) => list.map((p) => X(p) + "," + Y(p)).join(" ");
  const sideColour = (s) => SIDE[(s | 0) % SIDE.length];

  function flagWords(u) {
    const w = [];
    if (u.flags & F.AI) w.push("the AI's");
    if (u.flags & F.ACTING) w.push("acting now");
    if (u.flags & F.TARGET) w.push("the order's target");
    if (u.flags & F.SPOTTED) w.push("newly spotted");
    if (u.flags & F.SHAKEN) w.push("wavering");
    if (u.flags & F.HIDDEN) w.push("hidden: only its place is known");
    return w;
  }

  function defs() {
    const d = svgEl("defs");
    for (const k of ["move", "fire", "place"])
      d.append(svgEl("marker", { id: "ah-" + k, viewBox: "0 0 10 10", refX: 9, refY: 5,
        markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse", class: "head a-" + k },
      svgEl("path", { d: "M0,0 L10,5 L0,10 z" })));
    const hatch = svgEl("pattern", { id: "hatch", width: 1.5, height: 1.5, patternUnits: "userSpaceOnUse",
      patternTransform: "rotate(45)" }, svgEl("line", { x1: 0, y1: 0, x2: 0, y2: 1.5, class: "hatch" }));
    d.append(hatch);
    return d;
  }

  function shape(s) {
    const cls = "shape s-" + s.style + (s.closed ? " area" : " line");
    const attrs = { class: cls, points: pts(s.points || []) };
    const e = svgEl(s.closed ? "polygon" : "polyline", attrs);
    if (s.name) e.append(svgEl("title", {}, s.name));
    return e;
  }

  const NAME_CHARS = 14; // a longer name is cut with "…"
  const shortName = (n) => (n.length > NAME_CHARS ? n.slice(0, NAME_CHARS - 1) + "…" : n);

  // The unit's name written upright under its rectangle (over it at the table's near edge),
  // font in table inches (the table's width / 36: about 10 px at 360 px), anchored so that
  // it stays on the table. The names are a layer of their own over the units (a unit's
  // element stays its rectangle, for taps), and take no taps; a drag moves the name too.
  function nameLabel(u, sc) {
    const w = Math.max(u.w || 0, 0), d = Math.max(u.d || 0, 0);
    const fs = sc.font, half = Math.max(w, d, 1.2) / 2; // a unit without a size: its 0.6 in dot
    const x = X(u.at), y = Y(u.at);
    const below = y + half + fs * 1.1 <= sc.depth;
    const dy = below ? half + fs * 0.95 : -(half + fs * 0.3);
    const anchor = x < sc.width * 0.15 ? "start" : x > sc.width * 0.85 ? "end" : "middle";
    const dx = anchor === "start" ? -Math.min(x, half) : anchor === "end" ? Math.min(sc.width - x, half) : 0;
    return svgEl("text", { class: "name", "data-id": u.id, x: r2(x + dx), y: r2(y + dy), "font-size": r2(fs),
      "text-anchor": anchor, "stroke-width": r2(fs * 0.18) }, shortName(u.name || ""));
  }

  function unit(u) {
    const w = Math.max(u.w || 0, 0), d = Math.max(u.d || 0, 0);
    const colour = sideColour(u.side);
    const cls = ["unit", "side-" + u.side];
    if (u.flags & F.AI) cls.push("ai");
    if (u.flags & F.ACTING) cls.push("acting");
    if (u.flags & F.TARGET) cls.push("target");
    if (u.flags & F.SPOTTED) cls.push("spotted");
    if (u.flags & F.SHAKEN) cls.push("shaken");
    if (u.flags & F.HIDDEN) cls.push("hidden");
    const g = svgEl("g", { class: cls.join(" "), "data-id": u.id, "data-name": u.name || "",
      transform: `translate(${X(u.at)},${Y(u.at)}) rotate(${r2(u.facing || 0)})` });
    const fill = u.flags & F.HIDDEN ? "#9e9e9e" : u.flags & F.AI ? colour : "#fff";
    if (u.flags & F.ACTING) // a ring around the acting unit
      g.append(svgEl("rect", { class: "ring", x: -w / 2 - 1, y: -d / 2 - 1, width: w + 2, height: d + 2, rx: 0.6 }));
    if (w > 0 && d > 0) {
      g.append(svgEl("rect", { class: "body", x: -w / 2, y: -d / 2, width: w, height: d, fill, stroke: colour }));
      g.append(svgEl("line", { class: "front", x1: -w / 2, y1: -d / 2, x2: w / 2, y2: -d / 2, stroke: colour }));
    } else {
      g.append(svgEl("circle", { class: "body", r: 0.6, fill, stroke: colour }));
    }
    if (u.flags & F.SHAKEN)
      g.append(svgEl("rect", { class: "shaken-mark", x: -w / 2, y: -d / 2, width: Math.max(w, 1), height: Math.max(d, 1) }));
    if (u.flags & F.TARGET) {
      const r = Math.max(w, d) / 2 + 1.2;
      g.append(svgEl("circle", { class: "cross", r }),
        svgEl("line", { class: "cross", x1: -r - 0.6, y1: 0, x2: r + 0.6, y2: 0 }),
        svgEl("line", { class: "cross", x1: 0, y1: -r - 0.6, x2: 0, y2: r + 0.6 }));
    }
    g.append(svgEl("title", {}, [u.name || "unit", ...flagWords(u)].join(" · ")));
    return g;
  }

  function arrow(a) {
    return svgEl("line", { class: "arrow a-" + a.kind, x1: X(a.from), y1: Y(a.from), x2: X(a.to), y2: Y(a.to),
      "marker-end": `url(#ah-${a.kind})` });
  }

  function describe(u) {
    if (!u) return "Tap a unit to see what it is.";
    const side = state.sides[u.side] ? state.sides[u.side] : "side " + (u.side + 1);
    const words = flagWords(u);
    return (u.name || "unit") + " · " + side + (words.length ? " · " + words.join(" · ") : "");
  }

  function pick(id) {
    state.picked = id;
    for (const g of state.svg.querySelectorAll(".unit"))
      g.classList.toggle("picked", id != null && g.dataset.id === String(id));
    const u = state.scene && id != null ? state.scene.units.find((x) => String(x.id) === String(id)) : null;
    state.root.querySelector("#map-info").textContent = describe(u);
  }

  // The pointer's place in the SVG's user units (inches, y down), or null.
  function svgPoint(ev) {
    const m = state.svg.getScreenCTM();
    return m ? new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse()) : null;
  }

  // The nearest unit within 3 inches of p (units are small on a phone; the whole area around
  // one is its touch target), or null.
  function nearest(p) {
    let best = null, bestD = 3 * 3;
    for (const u of state.scene.units) {
      const dx = X(u.at) - p.x, dy = Y(u.at) - p.y, dd = dx * dx + dy * dy;
      if (dd <= bestD) { best = u; bestD = dd; }
    }
    return best;
  }

  // A tap picks the nearest unit, or nothing.
  function tap(ev) {
    if (state.noClick) { // the click that ends a drag
      state.noClick = false;
      return;
    }
    if (!state.scene) return;
    const p = svgPoint(ev);
    if (!p) return;
    const best = nearest(p);
    pick(best ? best.id : null);
  }

  // ---- dragging a unit to where it really stands

  const info = (text) => { state.root.querySelector("#map-info").textContent = text; };
  const unitEl = (id) => state.svg.querySelector(`.unit[data-id="${CSS.escape(String(id))}"]`);

  function down(ev) {
    if (!state.scene || !state.onDrop || ev.button > 0 || state.drag) return;
    const p = svgPoint(ev);
    const u = p && nearest(p);
    if (!u) return;
    const d = { u, id: ev.pointerId, x0: ev.clientX, y0: ev.clientY, touch: ev.pointerType === "touch",
      active: false, at: null, timer: null };
    state.drag = d;
    if (d.touch) d.timer = setTimeout(() => { if (state.drag === d) lift(d); }, LONG_PRESS_MS);
  }

  // The unit is picked up: it follows the pointer from now on.
  function lift(d) {
    d.active = true;
    try { state.svg.setPointerCapture(d.id); } catch (e) { /* the pointer went already */ }
    pick(d.u.id);
    const g = unitEl(d.u.id);
    if (g) g.classList.add("dragging");
    state.svg.classList.add("dragging");
    info("Put " + (d.u.name || "the unit") + " where it stands on the table, then let go.");
  }

  function move(ev) {
    const d = state.drag;
    if (!d || ev.pointerId !== d.id) return;
    const far = Math.hypot(ev.clientX - d.x0, ev.clientY - d.y0) > SLOP_PX;
    if (!d.active) {
      if (!far) return;
      if (d.touch) { // the finger moved before the long press: the page scrolls
        clearTimeout(d.timer);
        state.drag = null;
        return;
      }
      lift(d);
    }
    ev.preventDefault();
    const p = svgPoint(ev);
    const g = unitEl(d.u.id);
    if (!p || !g) return;
    d.at = p;
    g.setAttribute("transform", `translate(${r2(p.x)},${r2(p.y)}) rotate(${r2(d.u.facing || 0)})`);
    const n = state.svg.querySelector(`.names .name[data-id="${CSS.escape(String(d.u.id))}"]`);
    if (n) n.setAttribute("transform", `translate(${r2(p.x - X(d.u.at))},${r2(p.y - Y(d.u.at))})`);
  }

  // Puts the map back as the last state drew it (the unit where it was).
  function snapBack(d) {
    if (state.scene) draw(state.scene);
    pick(d.u.id);
  }

  function up(ev) {
    const d = state.drag;
    if (!d || ev.pointerId !== d.id) return;
    clearTimeout(d.timer);
    state.drag = null;
    state.svg.classList.remove("dragging");
    if (!d.active) return; // a tap: the click names the unit
    state.noClick = ev.type === "pointerup";
    setTimeout(() => { state.noClick = false; }, 0);
    if (ev.type !== "pointerup" || !d.at) {
      snapBack(d);
      return;
    }
    const at = { x: r2(d.at.x), y: r2(state.scene.depth - d.at.y) }; // inches, y north
    const name = d.u.name || "the unit";
    info("Reporting " + name + " at " + at.x + ", " + at.y + " in…");
    state.root.dataset.drop = "sent";
    Promise.resolve(state.onDrop(d.u, at)).then(() => {
      state.root.dataset.drop = "done";
      info(name + " stands at " + at.x + ", " + at.y + " in (reported).");
    }, (e) => {
      snapBack(d);
      state.root.dataset.drop = "refused";
      info(name + " was not moved: " + String((e && e.message) || e));
    });
  }

  function draw(scene) {
    const svg = state.svg;
    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${r2(scene.width)} ${r2(scene.depth)}`);
    svg.append(defs(), svgEl("rect", { class: "table", x: 0, y: 0, width: r2(scene.width), height: r2(scene.depth) }));
    const ground = svgEl("g", { class: "terrain" });
    const zones = svgEl("g", { class: "zones" });
    for (const s of scene.shapes || []) (s.style === "zone" ? zones : ground).append(shape(s));
    const arrows = svgEl("g", { class: "arrows" });
    for (const a of scene.arrows || []) arrows.append(arrow(a));
    const units = svgEl("g", { class: "units" });
    const sc = { width: scene.width, depth: scene.depth, font: Math.max(scene.width / 36, 0.5) };
    const names = svgEl("g", { class: "names" });
    for (const u of scene.units || []) {
      units.append(unit(u));
      if (u.name) names.append(nameLabel(u, sc));
    }
    const labels = svgEl("g", { class: "labels" });
    for (const l of scene.labels || []) labels.append(svgEl("text", { x: X(l.at), y: Y(l.at) }, l.text));
    svg.append(ground, zones, arrows, units, names, labels);
    const nz = (scene.shapes || []).filter((s) => s.style === "zone").length;
    const btn = state.root.querySelector("#map-zones");
    btn.disabled = nz === 0;
    btn.textContent = nz ? (state.zones ? "Hide" : "Show") + " command radii" : "No command radii in this picture";
    btn.setAttribute("aria-pressed", state.zones && nz ? "true" : "false");
    svg.classList.toggle("zones-on", state.zones);
    svg.dataset.units = String((scene.units || []).length);
  }

  // The legend: each side in the scene with its colour (names from game.state's `sides`).
  function legend(scene) {
    const box = state.root.querySelector("#map-legend");
    box.replaceChildren();
    const seen = [...new Set((scene.units || []).map((u) => u.side))].sort((a, b) => a - b);
    for (const s of seen) {
      const sw = document.createElement("span");
      sw.className = "swatch";
      sw.style.background = sideColour(s);
      const item = document.createElement("span");
      item.append(sw, state.sides[s] || "side " + (s + 1));
      box.append(item);
    }
  }

  // Draws game.state's scene (or says there is none). st: the game.state answer, or null.
  function show(st) {
    if (!state.root) return;
    const scene = st && st.scene;
    state.sides = st && Array.isArray(st.sides) ? st.sides.map((s) => (s && s.name) || "") : [];
    state.root.hidden = false;
    const note = state.root.querySelector("#map-note");
    if (!scene || !scene.width || !scene.depth) {
      state.scene = null;
      state.svg.replaceChildren();
      state.svg.dataset.units = "0";
      note.textContent = st ? "This game has no picture of the table." : "";
      return;
    }
    note.textContent = "";
    state.scene = scene;
    draw(scene);
    legend(scene);
    const still = scene.units.some((u) => String(u.id) === String(state.picked));
    pick(still ? state.picked : null);
    state.svg.dataset.drawn = String(Number(state.svg.dataset.drawn || 0) + 1); // for the tests
  }

  // root: the map's element; onDrop(unit, {x, y}): reports a unit dragged to (x, y) inches,
  // a promise that fails with the daemon's reason (the unit then goes back); null: no dragging.
  function init(root, onDrop) {
    state.root = root;
    state.svg = root.querySelector("svg");
    state.onDrop = onDrop || null;
    state.svg.addEventListener("click", tap);
    state.svg.addEventListener("pointerdown", down);
    state.svg.addEventListener("pointermove", move);
    state.svg.addEventListener("pointerup", up);
    state.svg.addEventListener("pointercancel", up);
    // a finger that holds a unit does not scroll the page, nor open the long-press menu
    state.svg.addEventListener("touchmove", (ev) => {
      if (state.drag && state.drag.active) ev.preventDefault();
    }, { passive: false });
    state.svg.addEventListener("contextmenu", (ev) => { if (state.drag) ev.preventDefault(); });
    root.querySelector("#map-zones").addEventListener("click", () => {
      state.zones = !state.zones;
      if (state.scene) draw(state.scene);
    });
  }

  return { init, show };
})();
