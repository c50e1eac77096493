// reversi serve's page: talks to the JSON API, renders the board, history, replay and
// analysis, and follows live games over server-sent events. Plain JavaScript, no build step.
"use strict";

const $ = (id) => document.getElementById(id);
const VIEWS = ["new-view", "game-view", "history-view", "replay-view", "editor-view"];

const app = {
  game: null,        // the live game's latest state
  gameId: null,
  events: null,      // EventSource of the live game
  hints: null,       // { ply, byMove: {f5: candidate} }
  anim: { flipped: new Set(), placed: null },
  cursor: null,      // focused square name on the game board
  lastSettings: null,
  replay: null,      // { record, analysis, index, line } (line: the index of the line shown)
  jobs: { hint: null, analysis: null }, // AbortControllers of the requests under way
  historyPage: 1,
  pendingNotice: null, // the notice for the view a redirect leads to
  site: null,        // how people reach the server (GET /api/site)
  thought: null,     // the computer's latest search report in this game (a "thinking" event)
};

// ---- API --------------------------------------------------------------------------------

function tokenFor(id) {
  try {
    return JSON.parse(localStorage.getItem("reversi-seat-" + id) || "null");
  } catch (_) {
    return null;
  }
}

function saveSeat(id, seat) {
  localStorage.setItem("reversi-seat-" + id, JSON.stringify(seat));
}

/** A request that failed because the server could not be reached (not a refusal). */
class Unreachable extends Error {}

/** Sends a request; returns the response and its body (JSON when it parses). Throws the
 *  server's error message for a refusal, `Unreachable` when there is no answer at all (then
 *  the page shows that it is reconnecting), and the browser's AbortError when `signal` fires. */
async function request(method, path, body, raw, signal) {
  const headers = {};
  const seat = app.gameId != null ? tokenFor(app.gameId) : null;
  if (seat && path.startsWith("/api/games/" + app.gameId + "/")) headers["x-player-token"] = seat.token;
  let payload;
  if (raw !== undefined) {
    headers["content-type"] = "text/plain";
    payload = raw;
  } else if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  // Deleting and importing history games need the server's admin token (printed at its
  // start): asked for when refused, then kept for this browser session.
  const admin = sessionStorage.getItem("reversi-admin-token");
  if (admin && method !== "GET" && path.startsWith("/api/history")) headers["x-admin-token"] = admin;
  let resp;
  try {
    resp = await fetch(path, { method, headers, body: payload, signal });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    serverDown();
    throw new Unreachable("The server cannot be reached; the page reconnects when it is back.");
  }
  serverUp();
  const text = await resp.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (_) { data = text; }
  if (resp.status === 401 && path.startsWith("/api/history")) {
    const refused = sessionStorage.getItem("reversi-admin-token") !== null;
    sessionStorage.removeItem("reversi-admin-token");
    const given = prompt(refused
      ? "The server refused that admin token. Its admin token (printed when it started):"
      : "This needs the server's admin token (printed when it started):");
    if (given && given.trim()) {
      sessionStorage.setItem("reversi-admin-token", given.trim());
      return request(method, path, body, raw, signal);
    }
  }
  if (!resp.ok) {
    const msg = data && data.error ? data.error : resp.status + " " + resp.statusText;
    const err = new Error(msg);
    err.status = resp.status;
    throw err;
  }
  return { resp, data };
}

async function api(method, path, body, raw, signal) {
  return (await request(method, path, body, raw, signal)).data;
}

// ---- connection -------------------------------------------------------------------------

const conn = { down: false, probe: null, retry: 0, retryTimer: null };

/** No answer from the server: say so, and ask it every so often until it answers. */
function serverDown() {
  if (conn.down) return;
  conn.down = true;
  document.body.dataset.connection = "down";
  $("connection").hidden = false;
  announce("Lost the connection to the server; reconnecting.");
  conn.probe = setInterval(async () => {
    try {
      await fetch("/api/site", { cache: "no-store" });
    } catch (_) {
      return;
    }
    serverUp();
  }, 1500);
}

/** The server answered again: clear the notice and bring the view up to date. */
function serverUp() {
  if (!conn.down) return;
  conn.down = false;
  document.body.dataset.connection = "up";
  clearInterval(conn.probe);
  conn.probe = null;
  $("connection").hidden = true;
  announce("Connected to the server again.");
  refresh();
}

/** Shows the current view again from fresh data: after reconnecting, or when a live game's
 *  event stream ended. */
function refresh() {
  if (!$("game-view").hidden && app.gameId != null) {
    stopEvents();
    openGame(app.gameId).catch(showError);
  } else if (!$("history-view").hidden) {
    openHistory(app.historyPage || 1).catch(showError);
  }
}

function showError(e) {
  // Unreachable servers have their own notice; cancelled requests are no error.
  if (e && (e instanceof Unreachable || e.name === "AbortError")) return;
  const el = $("error");
  el.textContent = e ? String(e.message || e) : "";
  el.hidden = !e;
}

function announce(text) {
  const el = $("announce");
  el.textContent = "";
  // A fresh node each time so screen readers repeat identical messages.
  window.setTimeout(() => { el.textContent = text; }, 30);
}

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// ---- levels -----------------------------------------------------------------------------

// The levels as the server describes them (name, human rating, time per move: the names
// come from the program's one list, `Level::NAMED`); the numbers alone if the request fails.
async function fillLevels() {
  let levels = null;
  try {
    levels = await api("GET", "/api/levels");
  } catch (_) {
    levels = null;
  }
  const label = (n) => {
    const l = levels && levels.find((x) => x.level === n);
    const name = l && l.name;
    const time = l ? `≤ ${l.time_s} s` : null;
    const like = l && l.human_rating ? `like a ${l.human_rating} player` : null;
    const extra = [name, like, time].filter(Boolean).join(", ");
    return extra ? `${n} (${extra})` : String(n);
  };
  for (const sel of document.querySelectorAll("select.level")) {
    for (let n = 1; n <= 60; n++) {
      const o = document.createElement("option");
      o.value = String(n);
      o.textContent = label(n);
      sel.appendChild(o);
    }
  }
  document.querySelector("select[name=black-level]").value = "3";
  document.querySelector("select[name=white-level]").value = "3";
  $("hint-level").value = "6";
  // The analysis that rates each side's game on the human scale, when there is one.
  const scale = levels && levels.find((x) => x.human_scale);
  $("analysis-level").value = scale ? String(scale.level) : "4";
  $("editor-level").value = "3";
  $("editor-analysis-level").value = "6";
}

// ---- routing ----------------------------------------------------------------------------

function show(view) {
  for (const v of VIEWS) $(v).hidden = v !== view;
}

function stopEvents() {
  if (app.events) app.events.close();
  app.events = null;
  clearTimeout(conn.retryTimer);
  if (app.clockTimer) clearInterval(app.clockTimer);
  app.clockTimer = null;
}

/** Stops a hint or analysis under way (the server stops its search when the request goes). */
function cancelJob(which) {
  const job = app.jobs[which];
  if (job) job.abort();
}

async function route() {
  showError(null);
  setNotice(app.pendingNotice);
  app.pendingNotice = null;
  const hash = location.hash || "#/new";
  const parts = hash.replace(/^#\/?/, "").split("/");
  if (parts[0] !== "game") cancelJob("hint");
  if (parts[0] !== "replay") cancelJob("analysis");
  try {
    if (parts[0] === "game" && parts[1]) {
      await openGame(Number(parts[1]));
    } else if (parts[0] === "join" && parts[1]) {
      await joinGame(Number(parts[1]), parts[2] || "");
    } else if (parts[0] === "history") {
      stopEvents();
      await openHistory(Math.max(1, Number(parts[1]) || 1));
    } else if (parts[0] === "replay" && parts[1]) {
      stopEvents();
      await openReplay(Number(parts[1]));
      // From a finished game's "Analyse this game": analysed at once, and the address made
      // the replay's own (a reload shows the replay, not another analysis).
      if (parts[2] === "analyse") {
        history.replaceState(null, "", `#/replay/${parts[1]}`);
        analyze();
      }
    } else if (parts[0] === "editor") {
      stopEvents();
      openEditor();
    } else {
      stopEvents();
      show("new-view");
    }
  } catch (e) {
    showError(e);
  }
}

/** A line above the view that explains how the page got there (a spectator, a game that
 *  is no longer being played); null clears it. */
function setNotice(text) {
  const el = $("notice");
  el.textContent = text || "";
  el.hidden = !text;
}

// ---- new game ---------------------------------------------------------------------------

function readForm() {
  const f = $("new-form");
  const side = (c) => f[c].value === "human" ? "human" : "ai:" + f[c + "-level"].value;
  const s = { size: Number(f.size.value), rules: f.rules.value, black: side("black"), white: side("white") };
  if (f.clock.value) s.clock = f.clock.value;
  if (f.remote.checked) {
    if (s.black !== "human" || s.white !== "human") {
      throw new Error("A game over a link needs a human on both sides.");
    }
    s.remote = f["remote-side"].value;
  }
  return s;
}

async function createGame(settings) {
  const created = await api("POST", "/api/games", settings);
  app.lastSettings = settings;
  saveSeat(created.game.id, { token: created.token, guest: false, code: created.join_code });
  location.hash = "#/game/" + created.game.id;
}

function swapSides() {
  const f = $("new-form");
  for (const [a, b] of [["black", "white"], ["black-level", "white-level"]]) {
    const t = f[a].value;
    f[a].value = f[b].value;
    f[b].value = t;
  }
  syncForm();
}

/** The new-game form shows what applies: a level for a computer side only, and who the person
 *  joining plays only for a game between two browsers (which has people on both sides). */
function syncForm(changed) {
  const f = $("new-form");
  if (changed === f.remote && f.remote.checked) {
    f.black.value = "human";
    f.white.value = "human";
  } else if ((changed === f.black || changed === f.white) && changed.value !== "human") {
    f.remote.checked = false;
  }
  $("black-level-label").hidden = f.black.value === "human";
  $("white-level-label").hidden = f.white.value === "human";
  $("remote-side-label").hidden = !f.remote.checked;
}

// ---- live game --------------------------------------------------------------------------

/** Follows the game's event stream. When it breaks, the page finds out whether the server is
 *  down (then it shows that it is reconnecting) or the stream alone ended (then it reads the
 *  game again, waiting longer after each failure in a row). */
function watch(id) {
  const ev = new EventSource(`/api/games/${id}/events`);
  ev.addEventListener("open", () => { conn.retry = 0; });
  ev.addEventListener("state", (e) => render(JSON.parse(e.data)));
  ev.addEventListener("thinking", (e) => renderThinking(JSON.parse(e.data)));
  ev.onerror = async () => {
    if (app.events !== ev) return;
    ev.close();
    app.events = null;
    let reachable = true;
    try {
      await fetch("/api/site", { cache: "no-store" });
    } catch (_) {
      reachable = false;
    }
    if (!reachable) {
      serverDown();
      return;
    }
    const wait = Math.min(30000, 1000 * 2 ** conn.retry);
    conn.retry++;
    clearTimeout(conn.retryTimer);
    conn.retryTimer = setTimeout(() => {
      if (app.gameId === id && !app.events && !$("game-view").hidden) openGame(id).catch(showError);
    }, wait);
  };
  app.events = ev;
}

async function openGame(id) {
  if (app.gameId !== id) {
    stopEvents();
    app.gameId = id;
    app.game = null;
    app.hints = null;
    app.cursor = null;
    clearThinking();
  }
  show("game-view");
  let g;
  try {
    g = await api("GET", `/api/games/${id}`);
  } catch (e) {
    if (e.status === 404) return gameGone(id);
    throw e;
  }
  if (!app.events) watch(id);
  render(g);
}

/** The server does not have the game in play (it ended and was put away, the server was
 *  restarted, or it never existed): its record from the history, if there is one. */
async function gameGone(id) {
  stopEvents();
  let record = null;
  try {
    record = await api("GET", `/api/history/${id}`);
  } catch (e) {
    if (e.status !== 404) throw e;
  }
  if (!record) throw new Error(`There is no game ${id}: it is not being played and not in the history.`);
  const why = record.info.status === "in_progress"
    ? "is no longer being played on the server (it may have been restarted)"
    : "has ended";
  app.pendingNotice = `Game ${id} ${why}: here is its record.`;
  location.replace("#/replay/" + id);
}

async function joinGame(id, code) {
  if (!tokenFor(id)) {
    try {
      const joined = await api("POST", `/api/games/${id}/join`, { code });
      saveSeat(id, { token: joined.token, guest: true, color: joined.color });
    } catch (e) {
      // A taken seat, a wrong code, or a game with no seat to take: watch instead of a blank
      // page.
      if (e.status !== 409 && e.status !== 403) throw e;
      app.pendingNotice = `You cannot join game ${id} (${e.message}): you are watching it.`;
      location.replace("#/game/" + id);
      return;
    }
  }
  location.replace("#/game/" + id);
}

// ---- clocks -----------------------------------------------------------------------------

/** `4:58`, `1:02:03` (whole seconds rounded up), tenths under ten seconds (`0:09.3`), as the
 *  terminal shows them. */
function clockText(ms) {
  const total = Math.max(0, ms);
  const pad = (n) => String(n).padStart(2, "0");
  if (total < 10000) return `0:${pad(Math.floor(total / 1000))}.${Math.floor(total % 1000 / 100)}`;
  const s = Math.ceil(total / 1000);
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
}

/** The clocks of a timed game, the running one counting down from the view's reading. */
function renderClocks(g) {
  const el = $("clocks");
  if (app.clockTimer) { clearInterval(app.clockTimer); app.clockTimer = null; }
  if (!g.clock) { el.hidden = true; el.textContent = ""; return; }
  el.hidden = false;
  const received = performance.now();
  const c = g.clock;
  const draw = () => {
    const spent = c.running ? performance.now() - received : 0;
    const left = { black: c.black_ms, white: c.white_ms };
    if (c.running) left[c.running] -= spent;
    const [black, white] = ["black", "white"].map((side) => {
      const span = document.createElement("span");
      span.className = "clock" + (c.running === side ? " running" : "") + (left[side] < 10000 ? " low" : "");
      span.dataset.side = side;
      span.textContent = `${cap(side)} ${clockText(left[side])}`;
      return span;
    });
    el.replaceChildren(black, document.createTextNode(" "), white,
      document.createTextNode(` (${c.setting} each)`));
    // At zero the server decides: ask it for the state (it ends the game on time).
    if (c.running && left[c.running] <= 0 && app.clockTimer) {
      clearInterval(app.clockTimer);
      app.clockTimer = null;
      setTimeout(() => api("GET", `/api/games/${g.id}`).then(render).catch(() => {}), 100);
    }
  };
  draw();
  if (c.running && !g.over) app.clockTimer = setInterval(draw, 100);
}

/** Whether this browser may move for `color` now. */
function mine(g, color) {
  const seat = tokenFor(g.id);
  if (!seat) return false;
  const side = color === "black" ? g.black : g.white;
  if (side !== "human") return false;
  return seat.guest ? g.remote === color : g.remote !== color;
}

const computer = (p) => p !== "human";
const other = (color) => (color === "black" ? "white" : "black");

/** Who this browser is in the game: a player of which side, or a spectator. */
function seatText(g) {
  const seat = tokenFor(g.id);
  if (!seat) return "You are watching this game: only its players can move.";
  if (seat.guest) {
    return `You play ${cap(g.remote)}; your opponent plays ${cap(other(g.remote))} from the other browser.`;
  }
  if (g.remote) {
    const me = other(g.remote);
    return `You play ${cap(me)}; the person who joins by the link plays ${cap(g.remote)}.`;
  }
  const humans = ["black", "white"].filter((c) => !computer(g[c]));
  if (humans.length === 2) return "Both sides are played at this board.";
  if (humans.length === 1) {
    const foe = other(humans[0]);
    return `You play ${cap(humans[0])} against the computer (${g[foe].replace("ai:", "level ")}).`;
  }
  return "The computer plays both sides.";
}

/** The pass notice as what happened: which move was the pass, and what followed it. */
function passText(g) {
  if (!g.passed || g.over) return "";
  const n = g.moves.length;
  const k = g.moves[n - 1] === "PA" ? n - 1 : g.moves[n - 2] === "PA" ? n - 2 : -1;
  if (k < 0) return "";
  let text = `Move ${k + 1}: ${cap(g.passed)} had no legal move and passed`;
  if (k === n - 2) text += `; then ${cap(other(g.passed))} played ${g.moves[n - 1]}`;
  return text + ".";
}

/** The join link, from the address people reach the server by (GET /api/site). */
async function showShareLink(g) {
  if (!app.site) {
    try {
      app.site = await api("GET", "/api/site");
    } catch (_) {
      app.site = { base: location.origin + "/", warning: null };
    }
  }
  if (!app.game || app.game.id !== g.id) return;
  // The seat goes to whoever brings the game's join code, which only this link carries.
  $("share-link").value = `${app.site.base}#/join/${g.id}/${(tokenFor(g.id) || {}).code || ""}`;
  const warn = $("share-warning");
  warn.hidden = !app.site.warning;
  warn.textContent = app.site.warning || "";
}

function render(g) {
  if (!g || g.id !== app.gameId) return;
  const prev = app.game;
  // A reply can arrive after the event that followed it (the computer answers fast).
  if (prev && prev.id === g.id && g.version < prev.version) return;
  const fresh = !prev || prev.moves.length !== g.moves.length || prev.moves.join() !== g.moves.join();
  app.game = g;
  if (fresh) {
    app.hints = null;
    // A hint for a position that has gone is no use.
    if (prev) cancelJob("hint");
    // Animate what this change flipped; later renders of the same position keep the classes
    // (so nothing replays or stops half-way).
    app.anim = prev && g.last
      ? { flipped: new Set(g.last.flipped), placed: g.last.square }
      : { flipped: new Set(), placed: null };
  }
  const seat = tokenFor(g.id);
  const myTurn = !g.over && g.human_turn && mine(g, g.turn);

  $("game-title").textContent = `Game ${g.id}: ${g.size}x${g.size} ${g.rules}, ` +
    `Black ${label(g.black)} vs White ${label(g.white)}`;
  $("seat").textContent = seatText(g);
  $("game-view").dataset.role = !seat ? "spectator" : seat.guest ? "guest" : "owner";
  const board = $("board");
  board.dataset.turn = g.turn || "";
  board.dataset.myTurn = String(myTurn);
  board.dataset.moves = String(g.moves.length);
  board.dataset.over = String(g.over);
  board.dataset.thinking = String(g.thinking);
  drawBoard(board, g.board, {
    legal: new Set(g.legal),
    showLegal: $("show-legal").checked,
    last: g.last && g.last.square,
    flipped: app.anim.flipped,
    placed: app.anim.placed,
    hints: app.hints && app.hints.byMove,
    clickable: myTurn,
    onPlay: play,
    cursor: app.cursor,
    onCursor: (sq) => { app.cursor = sq; },
  });
  board.setAttribute("aria-label", `Board, ${g.size} by ${g.size}`);

  $("counts").innerHTML = `<span class="disc black" aria-hidden="true"></span> Black ${g.counts.black}` +
    ` &nbsp; <span class="disc white" aria-hidden="true"></span> White ${g.counts.white}`;
  let status;
  if (g.over) status = "Game over";
  else if (myTurn) status = `${cap(g.turn)} to move: your turn`;
  else if (g.thinking) status = `${cap(g.turn)} to move: the computer is thinking`;
  else if (g.remote && !g.joined) status = `${cap(g.turn)} to move; waiting for the opponent to join`;
  else if (!seat) status = `${cap(g.turn)} to move`;
  else status = `${cap(g.turn)} to move: waiting for the opponent`;
  $("status").textContent = status;

  renderClocks(g);

  const pass = passText(g);
  $("pass-notice").hidden = !pass;
  $("pass-notice").textContent = pass;
  $("save-error").hidden = !g.save_error;
  $("save-error").textContent = g.save_error ? `This game is not being saved: ${g.save_error}` : "";

  const result = $("result");
  result.hidden = !g.over;
  if (g.over) {
    let text = g.result ? g.result.text : "";
    if (g.resigned) text = `${cap(g.resigned)} resigned.` + (text ? " " + text : "");
    if (g.lost_on_time) text = `${cap(g.lost_on_time)}'s time ran out. ` + text;
    $("result-text").textContent = text;
    // The game is in the history: step through it, or have the engine go over it.
    $("result-replay").href = `#/replay/${g.id}`;
    $("result-analyse").href = `#/replay/${g.id}/analyse`;
  }
  // Spectators see the game, not the players' buttons.
  for (const id of ["undo", "redo", "hint", "resign", "hint-level-label", "again"]) $(id).hidden = !seat;
  $("undo").disabled = !g.can_undo || !seat;
  $("redo").disabled = !g.can_redo || !seat;
  $("hint").disabled = g.over || g.legal.length === 0 || !!app.jobs.hint;
  $("resign").disabled = g.over || !seat;

  showThinking(g);

  const share = $("share");
  share.hidden = !g.remote || !seat || seat.guest;
  if (!share.hidden) {
    showShareLink(g);
    $("share-status").textContent = g.joined ? "Your opponent has joined." : "Waiting for your opponent to join…";
  }

  showOpening($("opening"), g.opening);
  showExplorer($("explorer"), g.over ? null : g.board, g.turn);
  const list = $("moves");
  list.innerHTML = "";
  g.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = m === "PA" ? "pass" : m;
    list.appendChild(li);
  });

  if (fresh && prev) announceChange(prev, g);
  if (!prev) announce(`${status}. ${seatText(g)}`);
}

/** The name of the opening line followed, when there is one (8x8 Othello only). */
function showOpening(el, name) {
  el.hidden = !name;
  el.textContent = name ? `Opening: ${name}` : "";
}

function label(p) {
  return p === "human" ? "(human)" : `(computer ${p.replace("ai:", "")})`;
}

function announceChange(prev, g) {
  const parts = [];
  if (g.moves.length > prev.moves.length) {
    const start = prev.moves.length;
    for (let i = start; i < g.moves.length; i++) {
      const mv = g.moves[i];
      if (mv === "PA") continue;
      if (i === g.moves.length - 1 || (i === g.moves.length - 2 && g.moves[i + 1] === "PA")) {
        const n = g.last && g.last.square === mv ? g.last.flipped.length : 0;
        parts.push(`${cap(g.last ? g.last.color : "")} played ${mv}` + (n ? `, flipping ${n} disc${n > 1 ? "s" : ""}.` : "."));
      } else {
        parts.push(`Played ${mv}.`);
      }
    }
  } else {
    parts.push(`Moves taken back; ${g.moves.length} moves played.`);
  }
  const pass = passText(g);
  if (pass) parts.push(pass);
  if (g.over) parts.push("Game over. " + (g.result ? g.result.text : "") + ".");
  else if (g.turn) parts.push(`${cap(g.turn)} to move.`);
  announce(parts.join(" "));
}

async function play(sq) {
  try {
    showError(null);
    render(await api("POST", `/api/games/${app.gameId}/moves`, { square: sq }));
  } catch (e) {
    showError(e);
  }
}

async function gameAction(what) {
  try {
    showError(null);
    render(await api("POST", `/api/games/${app.gameId}/${what}`));
  } catch (e) {
    showError(e);
  }
}

/** Marks a hint or analysis as under way (spinner, cancel button, its button disabled) or
 *  done. */
function setBusy(which, busy) {
  $(`${which}-busy`).hidden = !busy;
  $(`${which}-cancel`).hidden = !busy;
  // Once done, the hint button's state is the game's again (render sets it).
  const button = $(which === "hint" ? "hint" : "analyze");
  button.disabled = busy;
  button.setAttribute("aria-busy", String(busy));
}

/** Runs one hint or analysis request at a time, with a way to stop it; `run(signal)` does
 *  the request. Returns its result, or null when it was cancelled or failed. */
async function runJob(which, status, text, run) {
  if (app.jobs[which]) return null;
  const ctrl = new AbortController();
  app.jobs[which] = ctrl;
  setBusy(which, true);
  $(status).textContent = text;
  try {
    showError(null);
    return await run(ctrl.signal);
  } catch (e) {
    $(status).textContent = e.name === "AbortError" ? "Cancelled." : "";
    showError(e);
    return null;
  } finally {
    app.jobs[which] = null;
    setBusy(which, false);
  }
}

async function hints() {
  const g = app.game;
  if (!g || g.over || !tokenFor(g.id) || app.jobs.hint) return;
  const level = Number($("hint-level").value);
  const h = await runJob("hint", "hint-status", `Searching at level ${level}…`,
    (signal) => api("POST", `/api/games/${g.id}/hints`, { level }, undefined, signal));
  if (app.game) render(app.game);
  if (!h) return;
  $("hint-status").textContent = "";
  const byMove = {};
  for (const c of h.candidates) byMove[c.square] = c;
  if (app.game && app.game.moves.length === h.ply) {
    app.hints = { ply: h.ply, byMove };
    render(app.game);
    const best = h.candidates[0];
    if (best) announce(`Hints: best ${best.square} ${best.label} (${best.kind}).`);
  }
}

function clearThinking() {
  app.thought = null;
  if (app.game) showThinking(app.game);
}

/** A search report's score, e.g. `+2 for White (depth 12)`. */
function thoughtScore(t) {
  return t.best ? `${t.best.label} for ${cap(t.color)} (${t.best.kind})` : "";
}

/** The computer's search: its figures while it thinks ("Searching…" until the first report),
 *  then one line on the search that chose its last move, until the game ends or that move is
 *  taken back; nothing in a game without the computer. */
function showThinking(g) {
  const t = app.thought;
  const live = !g.over && g.thinking;
  const last = !g.over && !g.thinking && t && t.ply < g.moves.length ? t : null;
  $("thinking").hidden = !live && !last;
  $("thinking-title").textContent = live ? "Computer thinking" : "Computer's last search";
  const current = live && t && t.ply === g.moves.length ? t : null;
  $("think-wait").hidden = !live || !!current;
  $("think-live").hidden = !current;
  $("think-last").hidden = !last;
  if (current) {
    $("think-depth").textContent = String(current.depth);
    $("think-score").textContent = thoughtScore(current) || "none yet";
    $("think-pv").textContent = current.pv.join(" ");
    $("think-nodes").textContent = current.nodes.toLocaleString("en");
  }
  if (last) {
    const played = g.moves[last.ply] === "PA" ? "passed" : `played ${g.moves[last.ply]}`;
    const line = last.pv.length > 8 ? last.pv.slice(0, 8).join(" ") + " …" : last.pv.join(" ");
    const found = [thoughtScore(last) || `depth ${last.depth}`, line ? `line ${line}` : "",
      last.nodes ? `${last.nodes.toLocaleString("en")} nodes` : ""].filter(Boolean).join(", ");
    // A line cut short ends in "…", which needs no full stop after it.
    const stop = found.endsWith("…") ? "" : ".";
    $("think-last").textContent = `${cap(last.color)} ${played}. Its search: ${found}${stop}`;
  }
}

function renderThinking(t) {
  // Reports can trail the move they were about, or the end of the game.
  const g = app.game;
  if (!g || g.over || t.ply !== g.moves.length) return;
  app.thought = t;
  showThinking(g);
}

// ---- history ----------------------------------------------------------------------------

function playerText(p) {
  return p.kind === "computer" ? `${p.name} (level ${p.level || "?"})` : p.name;
}

function resultText(g) {
  if (g.status === "in_progress") return "in progress";
  if (g.result) return `${g.result.black}-${g.result.white}` + (g.status === "abandoned" ? " (abandoned)" : "");
  return g.status;
}

const HISTORY_PAGE = 50;

/** A stored time in the reader's own time zone: `2026-11-22T18:04:05Z` becomes
 *  `2026-11-22 19:04` in Paris. Dates without a time (imported games) stay as they are. */
function localTime(stamp) {
  if (!stamp) return "";
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?Z$/.test(stamp)) return stamp.replace("T", " ");
  const d = new Date(stamp);
  if (Number.isNaN(d.getTime())) return stamp;
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The time zone the history's times are shown in, for its column heading. */
function zoneName() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "local time";
  } catch (_) {
    return "local time";
  }
}

/** One page of the history, newest first (page 1 the newest 50). */
async function openHistory(page) {
  show("history-view");
  const { resp, data: games } = await request("GET",
    `/api/history?limit=${HISTORY_PAGE}&offset=${(page - 1) * HISTORY_PAGE}`);
  const total = Number(resp.headers.get("x-total-count") || games.length);
  const pages = Math.max(1, Math.ceil(total / HISTORY_PAGE));
  if (page > pages && total > 0) {
    location.replace(`#/history/${pages}`);
    return;
  }
  app.historyPage = page;
  $("history-date").textContent = `Started (${zoneName()})`;
  const first = (page - 1) * HISTORY_PAGE + 1;
  $("history-range").textContent = total === 0 ? "" :
    `Games ${first}-${first + games.length - 1} of ${total}, newest first (page ${page} of ${pages})`;
  $("history-pages").hidden = total === 0;
  $("history-newer").disabled = page <= 1;
  $("history-older").disabled = page >= pages;
  $("history-newer").onclick = () => { location.hash = page - 1 > 1 ? `#/history/${page - 1}` : "#/history"; };
  $("history-older").onclick = () => { location.hash = `#/history/${page + 1}`; };
  const body = $("history-table").querySelector("tbody");
  body.innerHTML = "";
  $("history-empty").hidden = games.length > 0;
  $("history-table").hidden = games.length === 0;
  const headings = [...$("history-table").querySelectorAll("thead th")].map((th) => th.textContent);
  for (const g of games) {
    const tr = document.createElement("tr");
    tr.dataset.id = g.id;
    const cells = [String(g.id), localTime(g.started_at), playerText(g.black),
      playerText(g.white), `${g.size}x${g.size} ${g.rules}`, resultText(g)];
    cells.forEach((c, k) => {
      const td = document.createElement("td");
      td.textContent = c;
      // The phone layout shows each game as a card, each value under its heading.
      td.dataset.label = headings[k];
      if (k === 1 && g.started_at) {
        td.title = `${g.started_at.replace("T", " ").replace("Z", "")} UTC`;
        td.className = "date";
      }
      tr.appendChild(td);
    });
    const td = document.createElement("td");
    td.className = "actions";
    const play = g.status === "in_progress" ? `<a href="#/game/${g.id}" class="continue">Open</a> ` : "";
    td.innerHTML = play +
      `<a href="#/replay/${g.id}" class="replay">Replay</a> ` +
      `<a href="/api/history/${g.id}/export?format=ggf" download>GGF</a> ` +
      `<a href="/api/history/${g.id}/export?format=transcript" download>Transcript</a> ` +
      `<button type="button" class="delete" aria-label="Delete game ${g.id}">Delete</button>`;
    td.querySelector(".delete").onclick = async () => {
      if (!window.confirm(`Delete game ${g.id}?`)) return;
      try {
        await api("DELETE", `/api/history/${g.id}`);
        announce(`Game ${g.id} deleted.`);
        await openHistory(app.historyPage);
      } catch (e) {
        showError(e);
      }
    };
    tr.appendChild(td);
    body.appendChild(tr);
  }
}

async function importFile(e) {
  e.preventDefault();
  const file = $("import-file").files[0];
  if (!file) {
    showError(new Error("Choose a file to import first."));
    return;
  }
  try {
    showError(null);
    const text = await file.text();
    const r = await api("POST", `/api/history/import?name=${encodeURIComponent(file.name)}`, undefined, text);
    $("import-status").textContent = `${r.added} added, ${r.skipped} skipped as duplicates.`;
    await openHistory(app.historyPage);
  } catch (err) {
    showError(err);
  }
}

// ---- replay and analysis ----------------------------------------------------------------

async function openReplay(id) {
  show("replay-view");
  const record = await api("GET", `/api/history/${id}`);
  app.replay = { record, analysis: null, index: record.positions.length - 1, line: 0 };
  const i = record.info;
  $("replay-title").textContent = `Replay of game ${id}`;
  $("replay-info").textContent = `${playerText(i.black)} (Black) vs ${playerText(i.white)} (White), ` +
    `${i.size}x${i.size} ${i.rules}, ${resultText(i)}`;
  const slider = $("replay-slider");
  slider.max = String(record.positions.length - 1);
  $("graph").replaceChildren();
  $("analysis-status").textContent = "";
  $("replay-continue").hidden = !record.live || record.info.status !== "in_progress";
  $("replay-continue").href = `#/game/${id}`;
  renderLines();
  renderReplayMoves();
  replayTo(app.replay.index);
}

function replayTo(index) {
  const r = app.replay;
  if (!r) return;
  const positions = shownLine(r).positions;
  const last = positions.length - 1;
  r.index = Math.max(0, Math.min(last, index));
  const step = positions[r.index];
  $("replay-slider").max = String(last);
  $("replay-slider").value = String(r.index);
  const board = $("replay-board");
  board.dataset.index = String(r.index);
  board.dataset.line = String(r.line);
  // Any legal square plays another move from here (a variation, saved at once).
  board.dataset.myTurn = "true";
  drawBoard(board, step.board, {
    legal: new Set(step.legal), showLegal: true, last: step.mv && step.mv !== "PA" ? step.mv : null,
    flipped: new Set(), placed: null, hints: null, clickable: true, onPlay: playVariation,
    cursor: r.cursor, onCursor: (sq) => { r.cursor = sq; },
  });
  $("replay-pass").hidden = !step.must_pass;
  let text = r.index === 0 ? "Start position" : `After move ${r.index}: ${step.mv === "PA" ? "pass" : step.mv}`;
  text += `. Black ${step.counts.black}, White ${step.counts.white}.`;
  if (r.analysis && r.line === 0) {
    const e = r.analysis.evals[r.index];
    text += ` Evaluation ${e > 0 ? "+" : ""}${e} for Black.`;
    const m = r.analysis.moves[r.index - 1];
    if (m && m.loss > 0) text += ` ${cap(m.color)} lost ${m.loss} disc${m.loss > 1 ? "s" : ""} (${m.verdict}; best ${m.best.square}).`;
  }
  $("replay-status").textContent = text;
  showOpening($("replay-opening"), step.opening);
  showExplorer($("replay-explorer"), step.board, step.turn);
  for (const li of $("replay-moves").children) li.classList.toggle("current", Number(li.dataset.ply) === r.index - 1);
  for (const li of $("replay-lines").children) li.classList.toggle("current", Number(li.dataset.line) === r.line);
  for (const c of $("graph").querySelectorAll(".point, tbody tr")) c.classList.toggle("current", Number(c.dataset.index) === r.index);
}

function renderReplayMoves() {
  const r = app.replay;
  const list = $("replay-moves");
  list.innerHTML = "";
  $("replay-moves-legend").hidden = !(r.line === 0 && r.analysis);
  const line = shownLine(r);
  line.moves.forEach((mv, ply) => {
    const li = document.createElement("li");
    li.dataset.ply = ply;
    const a = r.line === 0 && r.analysis && r.analysis.moves[ply];
    const btn = document.createElement("button");
    btn.type = "button";
    btn.textContent = mv === "PA" ? "pass" : mv;
    if (a) {
      li.classList.add(a.verdict);
      if (a.verdict === "mistake" || a.verdict === "blunder") {
        // The legend above the list reads these: "c4?? −10, best e6".
        btn.textContent += `${a.verdict === "blunder" ? "??" : "?"} \u2212${a.loss}, best ${a.best.square}`;
        btn.setAttribute("aria-label", `${mv}: ${a.verdict}, lost ${a.loss} discs; best was ${a.best.square}`);
        btn.title = `${a.verdict}: lost ${a.loss} discs; best was ${a.best.square}`;
      }
    }
    btn.onclick = () => replayTo(ply + 1);
    li.appendChild(btn);
    addBranchMarks(li, line, ply);
    list.appendChild(li);
  });
  // Lines that go on after this one ends.
  if (line.branches.some((b) => b.ply === line.moves.length)) {
    const li = document.createElement("li");
    li.dataset.ply = line.moves.length;
    li.className = "line-end";
    addBranchMarks(li, line, line.moves.length);
    list.appendChild(li);
  }
}

// The opening explorer beside a board: the moves the history's games played from its position
// (GET /api/explore). Answers for a position no longer shown are dropped.
const explorerAsked = {};

async function showExplorer(el, rows, turn) {
  const position = rows && turn && rows.length === 8
    ? `${rows.join("")} ${turn === "black" ? "X" : "O"}` : null;
  el.hidden = !position;
  if (!position || explorerAsked[el.id] === position) return;
  explorerAsked[el.id] = position;
  let e;
  try {
    e = await api("GET", `/api/explore?position=${encodeURIComponent(position)}`);
  } catch (err) {
    if (explorerAsked[el.id] === position) el.querySelector("p").textContent = `Explorer: ${err.message}`;
    return;
  }
  if (explorerAsked[el.id] !== position) return;
  const note = el.querySelector("p");
  const body = el.querySelector("tbody");
  body.replaceChildren();
  el.querySelector("table").hidden = e.moves.length === 0;
  note.textContent = e.moves.length === 0
    ? "No stored game reached this position."
    : `${e.games} stored game${e.games === 1 ? "" : "s"} reached this position (in any orientation).`;
  const pct = (n, d) => `${(100 * n / Math.max(d, 1)).toFixed(1)}%`;
  for (const m of e.moves) {
    const tr = document.createElement("tr");
    const margin = m.mean_disc_margin;
    const value = m.value ? `${m.value.label} (${m.value.kind})` : "";
    for (const text of [m.square, String(m.games), pct(m.black_wins, m.games), pct(m.draws, m.games),
      `${margin > 0 ? "+" : ""}${margin.toFixed(1)}`, value]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

async function analyze() {
  const r = app.replay;
  if (!r) return;
  const level = Number($("analysis-level").value);
  const analysis = await runJob("analysis", "analysis-status", `Analysing at level ${level}…`,
    (signal) => api("POST", `/api/history/${r.record.info.id}/analysis`, { level }, undefined, signal));
  if (!analysis || app.replay !== r) return;
  r.analysis = analysis;
  // The analysis is of the game's own moves.
  if (r.line !== 0) showLine(0);
  $("analysis-status").textContent = analysisSummary(analysis, level);
  drawGraph($("graph"), analysis, replayTo);
  renderReplayMoves();
  replayTo(r.index);
}

/** What the analysis found, saying what its totals add up: each move's loss against the best
 *  move in its position, summed over one side's moves (so a total can pass the board's
 *  squares), with the mean a move. */
function analysisSummary(a, level) {
  const count = (verdict) => a.moves.filter((m) => m.verdict === verdict).length;
  const side = (color, total) => {
    const n = a.moves.filter((m) => m.color === color && m.played !== "PA").length;
    const mean = n ? ` (${(total / n).toFixed(1)} a move)` : "";
    return `${cap(color)} ${total} over ${n} move${n === 1 ? "" : "s"}${mean}`;
  };
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `Analysed at level ${level}. Discs lost against the best move, added up over each ` +
    `side's moves: ${side("black", a.black_loss)}; ${side("white", a.white_loss)}. ` +
    `${plural(count("mistake"), "mistake")} (?) and ${plural(count("blunder"), "blunder")} (??) marked.` +
    performanceSummary(a);
}

/** Each side's rating for the game on the human scale, with its range, or how to get one. */
function performanceSummary(a) {
  if (a.performance && a.performance.length) {
    const each = a.performance.map((p) =>
      `${cap(p.color)} like a ${p.rating} tournament player (90% range ${p.low}–${p.high})`);
    return ` Played: ${each.join("; ")}. One game says little: the range is wide.`;
  }
  if (a.scale_level && a.scale_level !== a.level) {
    return ` Analyse at level ${a.scale_level} for each side's tournament rating.`;
  }
  return "";
}

// ---- variations in the replay ------------------------------------------------------------

/** The line the replay shows (the game's own moves, or a variation). */
function shownLine(r) {
  return r.record.lines[r.line];
}

/** The lines of the game to switch between: the main line, then each variation. */
function renderLines() {
  const r = app.replay;
  const list = $("replay-lines");
  list.replaceChildren();
  $("replay-lines-box").dataset.count = String(r.record.lines.length);
  for (const line of r.record.lines) {
    const li = document.createElement("li");
    li.dataset.line = String(line.index);
    li.classList.toggle("current", line.index === r.line);
    const btn = document.createElement("button");
    btn.type = "button";
    const own = line.moves.slice(line.from_ply, line.from_ply + 4).join(" ");
    btn.textContent = line.index === 0 ? "Main line" : cap(line.name) + `: ${own}${line.moves.length - line.from_ply > 4 ? " …" : ""}`;
    btn.onclick = () => showLine(line.index, line.index === 0 ? r.index : Math.max(r.index, line.from_ply + 1));
    li.appendChild(btn);
    list.appendChild(li);
  }
}

/** Shows line `index` at `ply` moves (its end when shorter). */
function showLine(index, ply) {
  const r = app.replay;
  if (!r || !r.record.lines[index]) return;
  r.line = index;
  renderLines();
  renderReplayMoves();
  replayTo(ply === undefined ? r.index : ply);
  announce(`${cap(r.record.lines[index].name)}, ${r.record.lines[index].moves.length} moves.`);
}

/** After move `ply` of `line` in the move list: the other moves played there, each a link to
 *  the line that has it. */
function addBranchMarks(li, line, ply) {
  const branch = line.branches.find((b) => b.ply === ply);
  if (!branch) return;
  const others = branch.moves.filter((m) => m.line !== line.index);
  if (others.length === 0) return;
  li.classList.add("branch");
  const span = document.createElement("span");
  span.className = "alternatives";
  span.append("(also ");
  others.forEach((m, k) => {
    if (k > 0) span.append(", ");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "alt";
    b.textContent = m.move === "PA" ? "pass" : m.move;
    const name = app.replay.record.lines[m.line].name;
    b.title = `${cap(name)}`;
    b.setAttribute("aria-label", `${m.move} instead, ${name}`);
    b.onclick = () => showLine(m.line, ply + 1);
    span.appendChild(b);
  });
  span.append(")");
  li.appendChild(span);
}

/** Plays `move` in the position shown: along a line that has it, or as a variation saved at
 *  once. */
async function playVariation(move) {
  const r = app.replay;
  if (!r) return;
  const line = shownLine(r);
  try {
    showError(null);
    const played = await api("POST", `/api/history/${r.record.info.id}/variations`,
      { line: line.id, ply: r.index, move });
    if (app.replay !== r) return;
    const before = r.record.lines.length;
    r.record.lines = played.lines;
    r.line = played.shown;
    renderLines();
    renderReplayMoves();
    replayTo(played.ply);
    const shown = played.lines[played.shown];
    announce(`${move} played: ${played.lines.length > before ? "new " : ""}${shown.name}.`);
  } catch (e) {
    showError(e);
  }
}

// ---- position editor --------------------------------------------------------------------

// The position being set up: each square "X", "O" or "-", row by row from a1. The server
// reads and checks it (POST /api/position), so the page holds no rules of its own.
const editor = { size: 8, rules: "othello", cells: [], turn: "black", view: null, hints: null, seq: 0, cursor: null };

/** The position as a board string (`---…OX… X`), as the server reads it. */
function editorText() {
  return editor.cells.join("") + " " + (editor.turn === "black" ? "X" : "O");
}

/** The start of the board and rule chosen: the four centre discs (Othello) or none. */
function editorStart() {
  const n = editor.size, m = n / 2 - 1;
  editor.cells = Array(n * n).fill("-");
  if (editor.rules === "othello") {
    editor.cells[m * n + m] = "O";
    editor.cells[m * n + m + 1] = "X";
    editor.cells[(m + 1) * n + m] = "X";
    editor.cells[(m + 1) * n + m + 1] = "O";
  }
  editor.turn = "black";
  editorChanged();
}

function openEditor() {
  show("editor-view");
  if (editor.cells.length !== editor.size * editor.size) editorStart(); else editorChanged();
}

/** Opens the editor on a board shown elsewhere (a replay position). */
function editPosition(rows, turn, rules) {
  editor.size = rows.length;
  editor.rules = rules;
  editor.cells = rows.join("").replace(/\./g, "-").split("");
  editor.turn = turn || "black";
  location.hash = "#/editor";
}

function drawEditor() {
  const n = editor.size;
  const rows = [];
  for (let r = 0; r < n; r++) rows.push(editor.cells.slice(r * n, (r + 1) * n).join("").replace(/-/g, "."));
  const board = $("editor-board");
  board.dataset.position = editorText();
  drawBoard(board, rows, {
    legal: new Set(editor.view ? editor.view.legal : []), showLegal: true, last: null,
    flipped: new Set(), placed: null, hints: editor.hints, clickable: false, onPlay: null,
    cursor: editor.cursor, onCursor: (sq) => { editor.cursor = sq; },
  });
  // Every square is a button here: it cycles empty, black, white.
  for (const b of board.children) {
    const i = Number(b.dataset.row) * n + Number(b.dataset.col);
    b.onclick = () => {
      editor.cells[i] = { "-": "X", X: "O", O: "-" }[editor.cells[i]];
      editor.cursor = b.dataset.square;
      editorChanged();
    };
    b.setAttribute("aria-disabled", "false");
    b.setAttribute("aria-label", `${b.dataset.square}, ${discName(rows[Number(b.dataset.row)][Number(b.dataset.col)])}: click to change`);
  }
  $("editor-size").value = String(editor.size);
  $("editor-rules").value = editor.rules;
  for (const r of document.querySelectorAll("input[name=editor-turn]")) r.checked = r.value === editor.turn;
}

/** The position changed: drawn at once, then checked by the server (the last answer wins). */
async function editorChanged() {
  editor.view = null;
  editor.hints = null;
  $("editor-analysis").hidden = true;
  $("editor-analysis-status").textContent = "";
  drawEditor();
  const seq = ++editor.seq;
  let view = null, problem = null;
  try {
    view = await api("POST", "/api/position", { position: editorText(), rules: editor.rules });
  } catch (e) {
    if (e instanceof Unreachable) return;
    problem = e.message;
  }
  if (seq !== editor.seq) return;
  editor.view = view;
  $("editor-problem").textContent = problem ? cap(problem) : "";
  $("editor-problem").hidden = !problem;
  for (const id of ["editor-play", "editor-analyze", "editor-image"]) $(id).disabled = !view;
  $("editor-play").disabled = !view || view.over;
  let text = "Not a position a game can reach.";
  if (view) {
    const counts = `Black ${view.counts.black}, White ${view.counts.white}.`;
    if (view.over) text = `Neither side can move: the game is over. ${counts}`;
    else if (view.must_pass) text = `${cap(view.turn)} to move has no square and passes. ${counts}`;
    else text = `${cap(view.turn)} to move, ${view.legal.length} legal move${view.legal.length === 1 ? "" : "s"}. ${counts}`;
  }
  $("editor-status").textContent = text;
  drawEditor();
}

/** Reads pasted text (board string, OBF, GGF or transcript) through the server. */
async function editorPaste(e) {
  e.preventDefault();
  const text = $("editor-paste").value.trim();
  if (!text) return;
  try {
    const v = await api("POST", "/api/position", { position: text, size: editor.size, rules: editor.rules });
    editor.size = v.size;
    editor.rules = v.rules;
    editor.cells = v.board.join("").replace(/\./g, "-").split("");
    editor.turn = v.turn;
    announce(`Read a ${v.format}: ${v.text}.`);
    editorChanged();
  } catch (err) {
    if (err instanceof Unreachable) return;
    $("editor-problem").textContent = `Cannot read that: ${err.message}`;
    $("editor-problem").hidden = false;
  }
}

async function editorPlay() {
  const level = $("editor-level").value;
  const side = (id) => ($(id).value === "human" ? "human" : "ai:" + level);
  try {
    showError(null);
    await createGame({ size: editor.size, rules: editor.rules, black: side("editor-black"),
      white: side("editor-white"), position: editorText() });
  } catch (e) {
    showError(e);
  }
}

/** Every move's score, as `reversi analyze` gives them, in the table and on the board. */
async function editorAnalyze() {
  const level = Number($("editor-analysis-level").value);
  const seq = editor.seq;
  $("editor-analyze").disabled = true;
  $("editor-analysis-busy").hidden = false;
  $("editor-analysis-status").textContent = `Analysing at level ${level}…`;
  try {
    const a = await api("POST", "/api/position/analysis", { position: editorText(), rules: editor.rules, level });
    if (seq !== editor.seq) return;
    const body = $("editor-analysis").querySelector("tbody");
    body.replaceChildren();
    editor.hints = {};
    for (const m of a.moves) {
      editor.hints[m.square] = m;
      const tr = document.createElement("tr");
      for (const text of [m.square, m.label, m.kind, m.line.join(" ")]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    $("editor-analysis").hidden = a.moves.length === 0;
    const pass = a.passed ? `${cap(a.passed)} passes; ` : "";
    $("editor-analysis-status").textContent = a.moves.length
      ? `${pass}${a.moves.length} move${a.moves.length === 1 ? "" : "s"} scored at level ${a.level}, best ${a.moves[0].square} ${a.moves[0].label}.`
      : "The game is over: no move to score.";
    drawEditor();
  } catch (e) {
    $("editor-analysis-status").textContent = "";
    showError(e);
  } finally {
    $("editor-analyze").disabled = !editor.view;
    $("editor-analysis-busy").hidden = true;
  }
}

function initEditor() {
  $("editor-board").dataset.myTurn = "true";
  $("editor-size").onchange = () => { editor.size = Number($("editor-size").value); editorStart(); };
  $("editor-rules").onchange = () => { editor.rules = $("editor-rules").value; editorChanged(); };
  for (const r of document.querySelectorAll("input[name=editor-turn]")) {
    r.onchange = () => { editor.turn = r.value; editorChanged(); };
  }
  // Clear and Start position start afresh: the paste box forgets what was read before.
  $("editor-clear").onclick = () => {
    editor.cells = editor.cells.map(() => "-");
    $("editor-paste").value = "";
    editorChanged();
  };
  $("editor-start").onclick = () => { $("editor-paste").value = ""; editorStart(); };
  const levelShown = () => {
    $("editor-level-label").hidden = $("editor-black").value === "human" && $("editor-white").value === "human";
  };
  $("editor-black").addEventListener("change", levelShown);
  $("editor-white").addEventListener("change", levelShown);
  levelShown();
  $("editor-paste-form").addEventListener("submit", editorPaste);
  $("editor-play").onclick = editorPlay;
  $("editor-analyze").onclick = editorAnalyze;
}

// ---- board pictures ---------------------------------------------------------------------

/** Downloads the server's SVG picture of a board (rows of X, O and .) with `turn` to move. */
function downloadImage({ rows, turn, rules, last, legal, caption }) {
  const params = new URLSearchParams({ position: rows.join("") + " " + (turn === "white" ? "O" : "X"), rules });
  if (last) params.set("last", last === "PA" ? "pass" : last);
  if (legal) params.set("legal", "1");
  if (caption) params.set("caption", caption);
  const a = document.createElement("a");
  a.href = "/api/position/svg?" + params;
  a.download = "reversi-position.svg";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

function initImages() {
  $("editor-image").onclick = () => {
    const n = editor.size, rows = [];
    for (let r = 0; r < n; r++) rows.push(editor.cells.slice(r * n, (r + 1) * n).join(""));
    downloadImage({ rows, turn: editor.turn, rules: editor.rules, legal: true });
  };
  $("replay-image").onclick = () => {
    const r = app.replay;
    if (!r) return;
    const step = shownLine(r).positions[r.index];
    downloadImage({ rows: step.board, turn: step.turn, rules: r.record.info.rules, last: step.mv,
      legal: true, caption: `Game ${r.record.info.id}, ` + (r.index ? `after move ${r.index}` : "start") });
  };
  $("replay-edit").onclick = () => {
    const r = app.replay;
    if (!r) return;
    const step = shownLine(r).positions[r.index];
    editPosition(step.board, step.turn, r.record.info.rules);
  };
  $("game-image").onclick = () => {
    const g = app.game;
    if (!g) return;
    downloadImage({ rows: g.board, turn: g.turn, rules: g.rules, last: g.last ? (g.last.square || "PA") : null,
      legal: !g.over, caption: `Game ${g.id}, after move ${g.moves.length}` });
  };
}

// ---- keys and wiring --------------------------------------------------------------------

function onKey(e) {
  const t = e.target;
  if (t && (t.tagName === "INPUT" && t.type !== "checkbox" && t.type !== "range" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (!$("game-view").hidden) {
    const k = e.key.toLowerCase();
    if (k === "u") { e.preventDefault(); gameAction("undo"); }
    else if (k === "r") { e.preventDefault(); gameAction("redo"); }
    else if (k === "h") { e.preventDefault(); hints(); }
    else if (k === "l") { e.preventDefault(); $("show-legal").click(); }
  } else if (!$("replay-view").hidden && app.replay && t !== $("replay-slider")) {
    if (e.key === "ArrowLeft") { e.preventDefault(); replayTo(app.replay.index - 1); }
    else if (e.key === "ArrowRight") { e.preventDefault(); replayTo(app.replay.index + 1); }
    else if (e.key === "Home") { e.preventDefault(); replayTo(0); }
    else if (e.key === "End") { e.preventDefault(); replayTo(Infinity); }
  }
}

function init() {
  fillLevels();
  $("new-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      showError(null);
      await createGame(readForm());
    } catch (err) {
      showError(err);
    }
  });
  $("swap").onclick = swapSides;
  for (const name of ["black", "white", "remote"]) {
    const field = $("new-form")[name];
    field.addEventListener("change", () => syncForm(field));
  }
  syncForm();
  $("undo").onclick = () => gameAction("undo");
  $("redo").onclick = () => gameAction("redo");
  $("resign").onclick = () => gameAction("resign");
  $("hint").onclick = hints;
  $("show-legal").onchange = () => app.game && render(app.game);
  $("again").onclick = async () => {
    const g = app.game;
    const settings = app.lastSettings && app.gameId === g.id ? app.lastSettings
      : { size: g.size, rules: g.rules, black: g.black, white: g.white, ...(g.remote ? { remote: g.remote } : {}) };
    try { await createGame(settings); } catch (e) { showError(e); }
  };
  $("copy-link").onclick = () => {
    $("share-link").select();
    if (navigator.clipboard) navigator.clipboard.writeText($("share-link").value).catch(() => {});
  };
  $("import-form").addEventListener("submit", importFile);
  $("replay-slider").addEventListener("input", (e) => replayTo(Number(e.target.value)));
  $("replay-prev").onclick = () => replayTo(app.replay.index - 1);
  $("replay-next").onclick = () => replayTo(app.replay.index + 1);
  $("replay-pass").onclick = () => playVariation("pass");
  initEditor();
  initImages();
  $("analyze").onclick = analyze;
  $("hint-cancel").onclick = () => cancelJob("hint");
  $("analysis-cancel").onclick = () => cancelJob("analysis");
  document.addEventListener("keydown", onKey);
  // Keyboard hints are hidden on a touch screen: decided at the start by the device's main
  // pointer, then by the pointer each tap or click comes from (a laptop's touch screen hides
  // them, its mouse shows them again). Read once rather than as a CSS media query, which
  // Chromium's full-page screenshots briefly turn off, showing the hints in phone screenshots.
  const root = document.documentElement;
  root.dataset.touch = String(matchMedia("(hover: none), (pointer: coarse)").matches);
  document.addEventListener("pointerdown", (e) => {
    root.dataset.touch = String(e.pointerType !== "mouse");
  }, { passive: true });
  window.addEventListener("hashchange", route);
  route();
}

document.addEventListener("DOMContentLoaded", init);
