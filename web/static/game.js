// The game page: the picture, the decision with its options as buttons (keys 1-9, 0, then
// letters), the play-by-play and box score; the managers' moves appear as the page polls.
"use strict";

const $ = (id) => document.getElementById(id);
const GAME = new URLSearchParams(window.location.search).get("id");
const KEYS = "1234567890abcdefgijklmnopqrstuvwxyz";   // h is the hint
const SVG = "http://www.w3.org/2000/svg";
let current = null;
let paused = false;
let timer = null;
let busy = false;

async function api(path, body) {
  const init = body === undefined ? {} : {method: "POST", headers: {"content-type": "application/json"},
                                          body: JSON.stringify(body)};
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.status = response.status;
    throw error;
  }
  return data;
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// -- the picture ----------------------------------------------------------------------------
const BASES = [[235, 150], [150, 65], [65, 150]];     // first, second, third

function drawDiamond(p) {
  const d = $("diamond");
  d.textContent = "";
  d.appendChild(svg("rect", {x: 0, y: 0, width: 300, height: 300, class: "grass"}));
  d.appendChild(svg("polygon", {points: "150,235 235,150 150,65 65,150", class: "infield"}));
  d.appendChild(svg("polygon", {points: "150,245 160,235 160,225 140,225 140,235", class: "plate"}));
  (p.runners || [null, null, null]).forEach((runner, i) => {
    const [x, y] = BASES[i];
    const base = svg("rect", {x: x - 11, y: y - 11, width: 22, height: 22,
                              transform: `rotate(45 ${x} ${y})`,
                              class: runner ? "base occupied" : "base", "data-base": i + 1});
    if (runner) base.appendChild(svg("title", {}, runner));
    d.appendChild(base);
    if (runner) {
      const dy = i === 1 ? -20 : 32;
      d.appendChild(svg("text", {x: x, y: y + dy, class: "runner", "text-anchor": "middle"},
                        String(runner).slice(0, 18)));
    }
  });
  if (p.at_bat) d.appendChild(svg("text", {x: 150, y: 272, class: "batter", "text-anchor": "middle"},
                                  String(p.at_bat).slice(0, 40)));
}

function drawSituation(p, game) {
  const arrow = p.half === 0 ? "\u25B2 Top" : "\u25BC Bottom";
  $("inning").textContent = game.over ? "Final" : `${arrow} of the ${p.inning}`;
  const outs = $("outs");
  outs.textContent = "Outs ";
  for (let i = 0; i < 3; i++) outs.appendChild(el("span", "\u25CF", i < p.outs ? "out on" : "out"));
  $("count").textContent = p.count || "";
  $("at-bat").textContent = p.at_bat || "";
  const notes = $("notes");
  notes.textContent = "";
  for (const note of p.notes || []) notes.appendChild(el("li", note));
  $("series").textContent = p.series || "";
  $("last-play").textContent = p.last_play ? "Last play: " + p.last_play : "";
  $("final").textContent = p.final || "";
}

function lineScore(table, teams, line, runs, hits, errors) {
  table.textContent = "";
  const n = Math.max(line[0].length, line[1].length, 1);
  const head = el("tr");
  head.appendChild(el("th", ""));
  for (let i = 1; i <= n; i++) head.appendChild(el("th", i));
  for (const h of ["R", "H", "E"]) head.appendChild(el("th", h));
  table.appendChild(head);
  for (const t of [0, 1]) {
    const row = el("tr");
    row.appendChild(el("th", teams[t]));
    for (let i = 0; i < n; i++) row.appendChild(el("td", i < line[t].length ? line[t][i] : ""));
    row.appendChild(el("td", runs[t], "total"));
    row.appendChild(el("td", hits ? hits[t] : "", "total"));
    row.appendChild(el("td", errors ? errors[t] : "", "total"));
    table.appendChild(row);
  }
}

function boxScore(box) {
  const holder = $("box-score");
  holder.textContent = "";
  if (!box) { holder.textContent = "This ruleset keeps no box score."; return; }
  const line = el("table", null, "line-score");
  line.id = "box-line";
  lineScore(line, box.teams, box.line_score, box.runs, box.hits, box.errors);
  holder.appendChild(line);
  (box.batting || []).forEach((lines, t) => {
    if (!lines.length) return;
    const table = el("table", null, "batting");
    table.dataset.team = t;
    table.appendChild(el("caption", box.teams[t]));
    const keys = Object.keys(lines[0]).filter((k) => k !== "name");
    const head = el("tr");
    head.appendChild(el("th", "batter"));
    for (const k of keys) head.appendChild(el("th", k));
    table.appendChild(head);
    for (const b of lines) {
      const row = el("tr");
      row.appendChild(el("td", b.name));
      for (const k of keys) row.appendChild(el("td", b[k]));
      table.appendChild(row);
    }
    holder.appendChild(table);
  });
}

// -- the decision ---------------------------------------------------------------------------
function drawDecision(game) {
  const box = $("options");
  box.textContent = "";
  const d = game.decision;
  const who = (seat) => `${seat} (${game.players[seat]})`;
  $("hint").disabled = !d || d.options.length < 2;
  if (game.over) {
    $("decision-title").textContent = "Game over";
    $("status").textContent = game.picture.final || "The game is over.";
    return;
  }
  if (!d) {
    $("decision-title").textContent = "Waiting";
    $("status").textContent = game.to_act ? `${who(game.to_act)} to decide${paused ? " (paused)" : "..."}` : "";
    return;
  }
  $("decision-title").textContent = `Your decision: ${d.kind.replace(/_/g, " ")}`;
  $("status").textContent = "Choose an option (click it, or press its key).";
  d.options.forEach((option, i) => {
    const b = el("button", null, "option");
    b.type = "button";
    b.dataset.action = option.action;
    b.dataset.key = KEYS[i] || "";
    if (KEYS[i]) b.appendChild(el("kbd", KEYS[i]));
    b.appendChild(el("span", option.label, "label"));
    b.appendChild(el("span", "", "hint"));
    b.addEventListener("click", () => act(option.action));
    box.appendChild(b);
  });
}

function drawMoves(game) {
  const list = $("moves");
  list.textContent = "";
  for (const m of game.moves.slice(-40)) {
    const text = `${m.seat} ${m.kind.replace(/_/g, " ")}${m.label ? ": " + m.label : ""}`;
    const li = el("li", text, m.seat === game.seat ? "mine" : "theirs");
    li.value = m.number + 1;
    list.appendChild(li);
  }
}

function render(game) {
  current = game;
  document.title = `dugout: ${game.picture.title || game.env}`;
  document.body.dataset.decision = game.decision_number;
  document.body.dataset.over = game.over ? "true" : "false";
  document.body.dataset.yourTurn = game.your_turn ? "true" : "false";
  $("title").textContent = `${game.picture.title || game.env} (${game.env}, ${game.mode})`;
  $("players").textContent = Object.entries(game.players).map(([s, p]) => `${s}: ${p}`).join(" \u00B7 ")
    + (game.mode === "watch" ? ` \u00B7 watching through ${game.seat}'s eyes` : "");
  const p = game.picture;
  drawDiamond(p);
  drawSituation(p, game);
  lineScore($("line-score"), p.teams, p.line_score, p.runs, p.hits, p.errors);
  drawDecision(game);
  $("scorecard").textContent = game.scorecard;
  boxScore(game.box_score);
  drawMoves(game);
  $("text").textContent = game.text;
  $("view").textContent = JSON.stringify(game.view, null, 1);
  $("pause").hidden = game.mode !== "watch" || game.over;
  $("after").hidden = !game.over;
  if (game.over) showAfter(game);
  schedule();
}

function schedule() {
  clearTimeout(timer);
  if (!current || current.over || current.your_turn || paused) return;
  timer = setTimeout(refresh, Math.max(150, Math.min(1000, current.delay * 500)));
}

async function refresh() {
  try { render(await api(`/api/games/${encodeURIComponent(GAME)}`)); }
  catch (e) { $("error").textContent = e.message; }
}

async function act(action) {
  if (busy || !current || !current.your_turn) return;
  busy = true;
  $("error").textContent = "";
  try {
    render(await api(`/api/games/${encodeURIComponent(GAME)}/action`,
                     {decision: current.decision_number, action: action}));
  } catch (e) {
    $("error").textContent = e.message;
    await refresh();
  } finally { busy = false; }
}

async function hint() {
  if (!current || !current.decision) return;
  $("hint").disabled = true;
  $("status").textContent = "The search manager is thinking...";
  try {
    const h = await api(`/api/games/${encodeURIComponent(GAME)}/hint`, {decision: current.decision_number});
    for (const o of h.options) {
      const b = document.querySelector(`button.option[data-action="${o.action}"] .hint`);
      if (b && o.win !== null) b.textContent = ` win ${(100 * o.win).toFixed(1)}%` + (o.se !== null ? ` \u00B1${(100 * o.se).toFixed(1)}` : "");
      if (b && o.action === h.best) b.parentElement.classList.add("best");
    }
    $("status").textContent = `Hint: your chance of winning after each option, by ${h.search} over ${h.worlds} worlds drawn from your view.`;
  } catch (e) { $("error").textContent = e.message; }
}

// -- after the game -------------------------------------------------------------------------
let replayShown = false;

function showAfter(game) {
  $("download").href = `/api/games/${encodeURIComponent(GAME)}/download`;
  $("gif").href = `/api/games/${encodeURIComponent(GAME)}/gif`;
  const slider = $("replay-step");
  slider.max = game.decision_number;
  if (!replayShown) { replayShown = true; slider.value = game.decision_number; replay(); }
}

async function replay() {
  const step = Number($("replay-step").value);
  try {
    const r = await api(`/api/games/${encodeURIComponent(GAME)}/replay/${step}`);
    const m = r.move ? ` \u00B7 ${r.move.seat} ${r.move.kind.replace(/_/g, " ")}${r.move.label ? ": " + r.move.label : ""}` : "";
    $("replay-where").textContent = `after move ${r.step} of ${r.steps}${m}`;
    $("replay-text").textContent = r.text;
  } catch (e) { $("error").textContent = e.message; }
}

function moveReplay(to) {
  const slider = $("replay-step");
  slider.value = Math.max(0, Math.min(Number(slider.max), to));
  replay();
}

function curve(points) {
  const w = 520, h = 180, pad = 28;
  const plot = svg("svg", {viewBox: `0 0 ${w} ${h}`, width: w, height: h, class: "curve"});
  const last = Math.max(1, ...points.map((p) => p[0]));
  const x = (s) => pad + (w - 2 * pad) * s / last;
  const y = (v) => h - pad - (h - 2 * pad) * v;
  plot.appendChild(svg("line", {x1: pad, x2: w - pad, y1: y(0.5), y2: y(0.5), class: "even"}));
  plot.appendChild(svg("text", {x: 2, y: y(1) + 4}, "100%"));
  plot.appendChild(svg("text", {x: 2, y: y(0) + 4}, "0%"));
  const pts = points.filter((p) => p[1] !== null).map((p) => `${x(p[0])},${y(p[1])}`).join(" ");
  plot.appendChild(svg("polyline", {points: pts, class: "win"}));
  return plot;
}

async function analyse() {
  const box = $("analysis");
  box.textContent = "The search manager is pricing your decisions...";
  try {
    const a = await api(`/api/games/${encodeURIComponent(GAME)}/analysis`, {});
    box.textContent = "";
    box.appendChild(el("p", `${a.decisions} of ${a.seat}'s decisions with a choice, priced by ${a.search} from ${a.seat}'s view at the time: ${a.seat}'s chance of winning after each choice.`));
    box.appendChild(curve(a.curve));
    const table = el("table", null, "costliest");
    table.id = "costliest";
    const head = el("tr");
    for (const h of ["move", "situation", "decision", "played", "win", "best", "best win", "cost"]) head.appendChild(el("th", h));
    table.appendChild(head);
    const pct = (v) => v === null ? "" : (100 * v).toFixed(1) + "%";
    for (const r of a.costliest) {
      const played = r.options.find((o) => o.action === r.chosen);
      const best = r.options.find((o) => o.action === r.best);
      const row = el("tr");
      const where = `${r.half ? "B" : "T"}${r.inning} ${r.outs} out, ${r.score[0]}-${r.score[1]}`;
      for (const v of [r.step + 1, where, r.kind, played.label, pct(r.win), best.label, pct(best.mean),
                       pct(r.cost) + (r.beyond_noise ? " ??" : " ?")]) row.appendChild(el("td", v));
      table.appendChild(row);
    }
    box.appendChild(el("h3", a.costliest.length ? "The costliest decisions" : "No decision cost anything by the search's estimate."));
    if (a.costliest.length) box.appendChild(table);
  } catch (e) { box.textContent = ""; $("error").textContent = e.message; }
}

async function save() {
  try {
    const entry = await api(`/api/games/${encodeURIComponent(GAME)}/save`, {name: `${current.env} ${new Date().toLocaleTimeString()}`});
    $("saved-note").textContent = `saved as "${entry.name}" (load it from the start page)`;
  } catch (e) { $("error").textContent = e.message; }
}

function keydown(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.target.tagName === "INPUT") return;
  const key = event.key.toLowerCase();
  if (key === "h") { hint(); return; }
  const button = document.querySelector(`button.option[data-key="${key}"]`);
  if (button) { event.preventDefault(); button.click(); }
}

function main() {
  if (!GAME) { $("error").textContent = "no game id: start a game from the start page"; return; }
  $("hint").addEventListener("click", hint);
  $("save").addEventListener("click", save);
  $("analyse").addEventListener("click", analyse);
  $("pause").addEventListener("click", () => {
    paused = !paused;
    $("pause").textContent = paused ? "Resume" : "Pause";
    if (!paused) refresh(); else schedule();
  });
  $("replay-step").addEventListener("input", replay);
  $("replay-first").addEventListener("click", () => moveReplay(0));
  $("replay-back").addEventListener("click", () => moveReplay(Number($("replay-step").value) - 1));
  $("replay-next").addEventListener("click", () => moveReplay(Number($("replay-step").value) + 1));
  $("replay-last").addEventListener("click", () => moveReplay(Number($("replay-step").max)));
  document.addEventListener("keydown", keydown);
  refresh();
}

main();
