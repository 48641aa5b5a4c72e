// The players' page: one document from the kiosk, counted down here.
// The kiosk pushes a new document on every change of the night (a websocket at
// /live) and a heartbeat with its shared time every 10 s; the countdown runs on
// this phone from the kiosk's shared time when it sent the document or the last
// heartbeat, so a push a second late moves nothing and a page opened after a quiet
// hour is as right as the wall.
"use strict";

const HEARD_WITHIN_MS = 30000; // three missed heartbeats: the Wi-Fi is gone
const $ = (id) => document.getElementById(id);
let doc = null;
let receivedAt = 0;
let heardAt = 0;
// Set when the live connection closes or fails, cleared when one opens: a page
// still opening its first connection, with the night just fetched, is not stale.
let lost = false;
let lang = null;
let retry = 1000;

function fill(template, values) {
  return String(template || "").replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
}

function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds - 1e-9));
  const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

function words() {
  return (doc && doc.words && doc.words[lang]) || {};
}

function elapsed() {
  // Shared seconds since the document was made: until the kiosk sent it (its
  // "served", the kiosk's shared time, not this phone's clock), then counted
  // here from when it arrived (the kiosk may run fast: --speed).
  if (!doc) return 0;
  const sent = typeof doc.served === "number" ? Math.max(0, doc.served - doc.now) : 0;
  return sent + ((performance.now() - receivedAt) / 1000) * (doc.speed || 1);
}

function countdown() {
  if (!doc || !doc.tournament || !doc.clock) return;
  const c = doc.clock, w = words();
  const gone = c.running ? elapsed() : 0;
  const digits = $("digits");
  if (c.remaining === null) {
    digits.textContent = "--:--";
  } else {
    const left = c.remaining - gone;
    digits.textContent = clockText(left);
    digits.classList.toggle("last", c.running && !c.on_break && left <= 60);
  }
  digits.classList.toggle("stopped", !c.running);
  const until = $("until-break");
  if (c.until_break === null || !w.until_break_label) {
    until.textContent = "";
  } else {
    until.textContent = `${w.until_break_label}: ${clockText(c.until_break - gone)}`;
  }
}

function rows(table, items) {
  table.replaceChildren(...items.map((r) => {
    const tr = document.createElement("tr");
    for (const v of [r.place, r.name, r.points]) {
      const td = document.createElement("td");
      td.textContent = v || "";
      tr.append(td);
    }
    return tr;
  }));
}

function searchSeats() {
  const w = words(), list = $("found");
  const query = $("search").value.trim().toLocaleLowerCase();
  if (!doc || !doc.seats || query.length < 2) { list.replaceChildren(); return; }
  // Those waiting for a seat (F2) are found too, with their place on the list.
  const waiting = (doc.waiting || []).map((name, i) => ({ name, waiting: i + 1 }));
  const hits = [...doc.seats, ...waiting]
    .filter((p) => p.name.toLocaleLowerCase().includes(query)).slice(0, 8);
  if (!hits.length) {
    const li = document.createElement("li");
    li.textContent = w.no_match;
    list.replaceChildren(li);
    return;
  }
  const placed = new Map((w.placed || []).map((r) => [r.name, r.place]));
  list.replaceChildren(...hits.map((p) => {
    const li = document.createElement("li");
    const name = document.createElement("span");
    name.textContent = p.name;
    const where = document.createElement("span");
    where.className = "where";
    if (p.waiting) {
      where.textContent = fill(w.waiting_you, { count: waiting.length, place: p.waiting });
    } else if (p.place) {
      where.textContent = fill(w.out, { place: placed.get(p.name) || p.place });
    } else if (p.table) {
      where.textContent = fill(w.table_seat, { table: p.table, seat: p.seat });
    } else {
      where.textContent = w.not_seated;
    }
    li.append(name, where);
    if (p.move && !p.place) {
      const move = document.createElement("span");
      move.className = "move";
      move.textContent = fill(w.move_to, { table: p.move[0], seat: p.move[1] });
      li.append(move);
    }
    return li;
  }));
}

function render() {
  if (!doc) return;
  if (!lang || !doc.langs.includes(lang)) lang = doc.lang;
  const w = words();
  document.documentElement.lang = lang;
  $("lang").replaceChildren(...doc.langs.map((code) => {
    const o = document.createElement("option");
    o.value = code;
    o.textContent = (doc.words[code] && doc.words[code].language_name) || code;
    o.selected = code === lang;
    return o;
  }));
  $("lang").setAttribute("aria-label", w.language || "");
  document.title = w.title || "Pubpoker";
  $("find-seat").textContent = w.find_seat || "";
  $("search").placeholder = w.seat_hint || "";
  $("read-only").textContent = w.read_only || "";
  $("night").hidden = !doc.tournament;
  $("empty").hidden = !!doc.tournament;
  $("empty").textContent = w.no_tournament || "";
  markStale();
  if (!doc.tournament) return;
  $("name").textContent = w.name;
  $("badges").replaceChildren(...(w.badges || []).map((b) => {
    const s = document.createElement("span");
    s.textContent = b;
    return s;
  }));
  $("level").textContent = w.level;
  $("blinds").textContent = w.blinds;
  $("next").textContent = w.next;
  $("paused").hidden = !w.paused;
  $("paused").textContent = w.paused;
  $("players-label").textContent = w.players_label;
  $("players").textContent = w.players;
  $("average-label").textContent = w.average_label;
  $("average").textContent = w.average;
  // The waiting list (F2): how many, then who, in order.
  $("waiting-box").hidden = !w.waiting;
  $("waiting-title").textContent = w.waiting || "";
  $("waiting").replaceChildren(...(doc.waiting || []).map((name) => {
    const li = document.createElement("li");
    li.textContent = name;
    return li;
  }));
  $("results-title").textContent = doc.finished ? w.results : w.busts;
  $("results-box").hidden = !(w.placed || []).length;
  $("winner").hidden = !w.winner;
  $("winner").textContent = w.winner ? `${w.winner_label}: ${w.winner}` : "";
  rows($("placed"), w.placed || []);
  $("standings-box").hidden = !(w.standings || []).length;
  $("standings-title").textContent = w.standings_title;
  rows($("standings"), w.standings || []);
  searchSeats();
  countdown();
}

function markStale() {
  const stale = lost || performance.now() - heardAt > HEARD_WITHIN_MS;
  const banner = $("stale");
  banner.hidden = !stale;
  banner.textContent = doc ? words().stale : "…";
  document.body.classList.toggle("is-stale", stale);
}

function take(text) {
  heardAt = performance.now();
  const next = JSON.parse(text);
  if (!next || typeof next !== "object") return;
  if (!next.words) {
    // The heartbeat: the kiosk's shared time now, to count on from.
    if (doc && typeof next.served === "number") {
      doc.served = next.served;
      receivedAt = heardAt;
      countdown();
    }
    markStale();
    return;
  }
  doc = next;
  receivedAt = heardAt;
  render();
}

function follow() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/live`);
  ws.onopen = () => { lost = false; retry = 1000; };
  ws.onmessage = (event) => { take(event.data); };
  ws.onclose = () => {
    lost = true;
    markStale();
    // Back as soon as the Wi-Fi is: the first message after is the whole night.
    setTimeout(follow, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

$("lang").addEventListener("change", (e) => {
  lang = e.target.value;
  try { localStorage.setItem("pubpoker-lang", lang); } catch (err) { /* private mode */ }
  render();
});
$("search").addEventListener("input", searchSeats);
try { lang = localStorage.getItem("pubpoker-lang"); } catch (err) { lang = null; }
const asked = new URLSearchParams(location.search).get("lang");
if (asked) lang = asked;
fetch("/night.json").then((r) => r.text()).then((t) => { if (!doc) take(t); }).catch(() => {});
follow();
setInterval(() => { countdown(); markStale(); }, 250);
