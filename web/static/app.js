// The start page: choose a ruleset and its options, the players, and start a game.
"use strict";

const $ = (id) => document.getElementById(id);
let RULESETS = [];

async function api(path, body) {
  const init = body === undefined ? {} : {method: "POST", headers: {"content-type": "application/json"},
                                          body: JSON.stringify(body)};
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function ruleset() { return RULESETS.find((r) => r.id === $("env").value); }

function showRuleset() {
  const r = ruleset();
  const box = $("options");
  box.textContent = "";
  for (const option of r.options) {
    const label = document.createElement("label");
    label.textContent = option.name + " ";
    const input = document.createElement("input");
    input.name = option.name;
    input.dataset.option = option.name;
    input.dataset.default = option.default;
    input.value = option.default;
    input.size = Math.max(6, Math.min(28, option.default.length + 2));
    label.appendChild(input);
    box.appendChild(label);
  }
  const seat = $("seat");
  seat.textContent = "";
  for (const s of r.seats) {
    const o = document.createElement("option");
    o.value = o.textContent = s;
    seat.appendChild(o);
  }
  if (r.seats.includes("home")) seat.value = "home";
  const list = $("managers");
  list.textContent = "";
  for (const name of r.managers.concat(["search:sims=4", "ppo:PATH"])) {
    const o = document.createElement("option");
    o.value = name;
    list.appendChild(o);
  }
  document.querySelector('input[value="watch"]').disabled = r.solo;
  if (r.solo) document.querySelector('input[value="play"]').checked = true;
  showMode();
}

function showMode() {
  const watch = document.querySelector('input[name="mode"]:checked').value === "watch";
  $("play-fields").hidden = watch;
  $("watch-fields").hidden = !watch;
}

function options() {
  const out = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const text = input.value.trim();
    if (text === input.dataset.default || text === "") continue;
    try { out[input.dataset.option] = JSON.parse(text); }
    catch (e) { out[input.dataset.option] = text; }    // a plain string: level=basic
  }
  return out;
}

function players() {
  const r = ruleset();
  if (r.solo) return {[r.seats[0]]: "you"};
  const watch = document.querySelector('input[name="mode"]:checked').value === "watch";
  if (watch) return {away: $("away").value.trim(), home: $("home").value.trim()};
  const seat = $("seat").value;
  return {[seat]: "you", [seat === "away" ? "home" : "away"]: $("opponent").value.trim()};
}

async function start(event) {
  event.preventDefault();
  $("error").textContent = "";
  const watch = document.querySelector('input[name="mode"]:checked').value === "watch";
  const body = {env: $("env").value, options: options(), players: players(),
                delay: Number($("delay").value), search: $("search").value.trim()};
  body.seat = ruleset().solo ? ruleset().seats[0] : (watch ? $("viewer").value : $("seat").value);
  try {
    const game = await api("/api/games", body);
    window.location.href = "/game?id=" + encodeURIComponent(game.game);
  } catch (e) { $("error").textContent = e.message; }
}

async function showSaves() {
  const {saves} = await api("/api/saves");
  const list = $("saves");
  list.textContent = "";
  if (!saves.length) { list.innerHTML = "<li>none yet</li>"; return; }
  for (const s of saves) {
    const li = document.createElement("li");
    li.textContent = `${s.name}: ${s.env}, ${s.seat}, decision ${s.decision_number} (${s.time}) `;
    const b = document.createElement("button");
    b.textContent = "Load";
    b.type = "button";
    b.addEventListener("click", async () => {
      try {
        const game = await api(`/api/saves/${encodeURIComponent(s.id)}/load`, {});
        window.location.href = "/game?id=" + encodeURIComponent(game.game);
      } catch (e) { $("error").textContent = e.message; }
    });
    li.appendChild(b);
    list.appendChild(li);
  }
}

async function upload(event) {
  const file = event.target.files[0];
  if (!file) return;
  try {
    const save = JSON.parse(await file.text());
    await api("/api/saves", {save, name: file.name.slice(0, 80)});
    $("error").textContent = "";
    showSaves();
  } catch (e) { $("error").textContent = e.message; }
  event.target.value = "";
}

async function main() {
  RULESETS = (await api("/api/rulesets")).rulesets;
  for (const r of RULESETS) {
    const o = document.createElement("option");
    o.value = r.id;
    o.textContent = `${r.title} (${r.id})`;
    $("env").appendChild(o);
  }
  const wanted = new URLSearchParams(window.location.search).get("env");
  if (wanted && RULESETS.some((r) => r.id === wanted)) $("env").value = wanted;
  $("env").addEventListener("change", showRuleset);
  for (const radio of document.querySelectorAll('input[name="mode"]')) radio.addEventListener("change", showMode);
  $("new-game").addEventListener("submit", start);
  $("upload").addEventListener("change", upload);
  showRuleset();
  showSaves();
}

main().catch((e) => { $("error").textContent = e.message; });
