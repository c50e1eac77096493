// reversi serve's page: talks to the JSON API, renders the board, history, replay and
// analysis, and follows live games over server-sent events. Plain JavaScript, no build step.
"use strict";

const $ = (id) => document.getElementById(id);
const COLS = "abcdefghijklmnop";
const LEVEL_NAMES = { 1: "beginner", 3: "easy", 6: "medium", 10: "hard", 16: "expert", 24: "master", 60: "perfect" };
const VIEWS = ["new-view", "game-view", "history-view", "replay-view"];

const app = {
  game: null,        // the live game's latest state
  gameId: null,
  events: null,      // EventSource of the live game
  hints: null,       // { ply, byMove: {f5: candidate} }
  anim: { flipped: new Set(), placed: null },
  cursor: null,      // focused square name on the game board
  lastSettings: null,
  replay: null,      // { record, analysis, index }
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

async function api(method, path, body, raw) {
  const headers = {};
  const seat = app.gameId != null ? tokenFor(app.gameId) : null;
  if (seat && path.startsWith("/api/games/" + app.gameId)) headers["x-player-token"] = seat.token;
  let payload;
  if (raw !== undefined) {
    headers["content-type"] = "text/plain";
    payload = raw;
  } else if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  // Deleting and importing history games need the server's admin token (printed at its
  // start): asked for once, then kept in this browser.
  const admin = localStorage.getItem("reversi-admin-token");
  if (admin && path.startsWith("/api/history")) headers["x-admin-token"] = admin;
  const resp = await fetch(path, { method, headers, body: payload });
  const text = await resp.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (_) { data = text; }
  if (resp.status === 401 && path.startsWith("/api/history")) {
    const given = prompt("This needs the server's admin token (printed when it started):");
    if (given) {
      localStorage.setItem("reversi-admin-token", given.trim());
      return api(method, path, body, raw);
    }
  }
  if (!resp.ok) {
    const msg = data && data.error ? data.error : resp.status + " " + resp.statusText;
    throw new Error(msg);
  }
  return data;
}

function showError(e) {
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

// The levels as the server describes them (name, time per move); the names alone if the
// request fails.
async function fillLevels() {
  let levels = null;
  try {
    levels = await api("GET", "/api/levels");
  } catch (_) {
    levels = null;
  }
  const label = (n) => {
    const l = levels && levels.find((x) => x.level === n);
    const name = (l && l.name) || LEVEL_NAMES[n];
    const time = l ? `≤ ${l.time_s} s` : null;
    const extra = [name, time].filter(Boolean).join(", ");
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
  $("analysis-level").value = "4";
}

// ---- routing ----------------------------------------------------------------------------

function show(view) {
  for (const v of VIEWS) $(v).hidden = v !== view;
}

function stopEvents() {
  if (app.events) app.events.close();
  app.events = null;
  if (app.clockTimer) clearInterval(app.clockTimer);
  app.clockTimer = null;
}

async function route() {
  showError(null);
  const hash = location.hash || "#/new";
  const parts = hash.replace(/^#\/?/, "").split("/");
  try {
    if (parts[0] === "game" && parts[1]) {
      await openGame(Number(parts[1]));
    } else if (parts[0] === "join" && parts[1]) {
      await joinGame(Number(parts[1]), parts[2] || "");
    } else if (parts[0] === "history") {
      stopEvents();
      await openHistory();
    } else if (parts[0] === "replay" && parts[1]) {
      stopEvents();
      await openReplay(Number(parts[1]));
    } else {
      stopEvents();
      show("new-view");
    }
  } catch (e) {
    showError(e);
  }
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
}

// ---- live game --------------------------------------------------------------------------

async function openGame(id) {
  if (app.gameId !== id || !app.events) {
    stopEvents();
    app.gameId = id;
    app.game = null;
    app.hints = null;
    app.cursor = null;
    clearThinking();
    const ev = new EventSource(`/api/games/${id}/events`);
    ev.addEventListener("state", (e) => render(JSON.parse(e.data)));
    ev.addEventListener("thinking", (e) => renderThinking(JSON.parse(e.data)));
    app.events = ev;
  }
  show("game-view");
  render(await api("GET", `/api/games/${id}`));
}

async function joinGame(id, code) {
  if (!tokenFor(id)) {
    const joined = await api("POST", `/api/games/${id}/join`, { code });
    saveSeat(id, { token: joined.token, guest: true, color: joined.color });
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

function squareName(col, row) {
  return COLS[col] + (row + 1);
}

function discName(ch) {
  return ch === "X" ? "black" : ch === "O" ? "white" : "empty";
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
    // Animate what this change flipped; later renders of the same position keep the classes
    // (so nothing replays or stops half-way).
    app.anim = prev && g.last
      ? { flipped: new Set(g.last.flipped), placed: g.last.square }
      : { flipped: new Set(), placed: null };
  }
  const myTurn = !g.over && g.human_turn && mine(g, g.turn);

  $("game-title").textContent = `Game ${g.id}: ${g.size}x${g.size} ${g.rules}, ` +
    `Black ${label(g.black)} vs White ${label(g.white)}`;
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
  else status = `${cap(g.turn)} to move: waiting for the opponent`;
  $("status").textContent = status;

  renderClocks(g);

  const notice = $("pass-notice");
  notice.hidden = !g.passed || g.over;
  notice.textContent = g.passed ? `${cap(g.passed)} has no legal move and passes.` : "";

  const result = $("result");
  result.hidden = !g.over;
  if (g.over) {
    let text = g.result ? g.result.text : "";
    if (g.resigned) text = `${cap(g.resigned)} resigned.` + (text ? " " + text : "");
    if (g.lost_on_time) text = `${cap(g.lost_on_time)}'s time ran out. ` + text;
    $("result-text").textContent = text;
  }
  $("undo").disabled = !g.can_undo || !tokenFor(g.id);
  $("redo").disabled = !g.can_redo || !tokenFor(g.id);
  $("hint").disabled = g.over || g.legal.length === 0;
  $("resign").disabled = g.over || !tokenFor(g.id);

  const share = $("share");
  share.hidden = !g.remote || (tokenFor(g.id) || {}).guest;
  if (g.remote) {
    $("share-link").value = `${location.origin}/#/join/${g.id}/${(tokenFor(g.id) || {}).code || ""}`;
    $("share-status").textContent = g.joined ? "Your opponent has joined." : "Waiting for your opponent to join…";
  }

  showOpening($("opening"), g.opening);
  const list = $("moves");
  list.innerHTML = "";
  g.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = m === "PA" ? "pass" : m;
    list.appendChild(li);
  });

  if (fresh && prev) announceChange(prev, g);
  if (!prev) announce(status);
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
  if (g.passed && !g.over) parts.push(`${cap(g.passed)} has no legal move and passes.`);
  if (g.over) parts.push("Game over. " + (g.result ? g.result.text : "") + ".");
  else if (g.turn) parts.push(`${cap(g.turn)} to move.`);
  announce(parts.join(" "));
}

function drawBoard(board, rows, o) {
  const n = rows.length;
  board.style.setProperty("--n", n);
  const wanted = n * n;
  if (board.children.length !== wanted) {
    board.innerHTML = "";
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "sq";
        b.dataset.square = squareName(c, r);
        b.dataset.col = c;
        b.dataset.row = r;
        b.innerHTML = '<span class="disc" aria-hidden="true"></span><span class="hint-label" aria-hidden="true"></span>';
        board.appendChild(b);
      }
    }
  }
  let focusable = o.cursor;
  if (!focusable || !board.querySelector(`[data-square="${focusable}"]`)) {
    focusable = [...o.legal][0] || squareName(0, 0);
  }
  for (const b of board.children) {
    const sq = b.dataset.square;
    const r = Number(b.dataset.row), c = Number(b.dataset.col);
    const who = discName(rows[r][c]);
    const legal = o.legal.has(sq);
    const hint = o.hints ? o.hints[sq] : null;
    b.className = "sq " + who;
    if (legal && o.showLegal) b.classList.add("legal");
    if (sq === o.last) b.classList.add("last");
    if (o.flipped.has(sq)) b.classList.add("flip");
    if (sq === o.placed) b.classList.add("placed");
    if (hint) b.classList.add("hinted");
    const hl = b.querySelector(".hint-label");
    hl.replaceChildren();
    if (hint) {
      const score = document.createElement("span");
      score.className = "hint-score";
      score.textContent = hint.label;
      const kind = document.createElement("span");
      kind.className = "hint-kind";
      kind.textContent = hint.exact ? "exact" : hint.depth ? "d" + hint.depth : hint.kind;
      hl.append(score, kind);
    }
    if (hint) b.title = `${hint.label} (${hint.kind})`; else b.removeAttribute("title");
    let name = `${sq}, ${who}`;
    if (legal) name += ", legal move";
    if (sq === o.last) name += ", last move";
    if (hint) name += `, hint ${hint.label} ${hint.exact ? "exact" : hint.kind}`;
    b.setAttribute("aria-label", name);
    b.setAttribute("aria-disabled", String(!(o.clickable && legal)));
    b.tabIndex = sq === focusable ? 0 : -1;
    b.onclick = o.onPlay ? () => { if (o.clickable && legal) o.onPlay(sq); } : null;
    b.onfocus = () => { if (o.onCursor) o.onCursor(sq); };
    b.onkeydown = (e) => moveCursor(e, board, n);
  }
}

function moveCursor(e, board, n) {
  const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
  if (!d) return;
  e.preventDefault();
  e.stopPropagation();
  const b = e.currentTarget;
  const c = Math.min(n - 1, Math.max(0, Number(b.dataset.col) + d[0]));
  const r = Math.min(n - 1, Math.max(0, Number(b.dataset.row) + d[1]));
  const next = board.querySelector(`[data-col="${c}"][data-row="${r}"]`);
  if (next) {
    b.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  }
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

async function hints() {
  const g = app.game;
  if (!g || g.over) return;
  try {
    showError(null);
    $("hint").setAttribute("aria-busy", "true");
    const level = Number($("hint-level").value);
    const h = await api("POST", `/api/games/${g.id}/hints`, { level });
    const byMove = {};
    for (const c of h.candidates) byMove[c.square] = c;
    if (app.game && app.game.moves.length === h.ply) {
      app.hints = { ply: h.ply, byMove };
      render(app.game);
      const best = h.candidates[0];
      if (best) announce(`Hints: best ${best.square} ${best.label} (${best.kind}).`);
    }
  } catch (e) {
    showError(e);
  } finally {
    $("hint").removeAttribute("aria-busy");
  }
}

function clearThinking() {
  for (const id of ["think-depth", "think-score", "think-pv", "think-nodes"]) $(id).textContent = "-";
}

function renderThinking(t) {
  $("think-depth").textContent = String(t.depth);
  $("think-score").textContent = t.best ? `${t.best.label} for ${t.color} (${t.best.kind})` : "-";
  $("think-pv").textContent = t.pv.length ? t.pv.join(" ") : "-";
  $("think-nodes").textContent = t.nodes.toLocaleString("en");
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

async function openHistory() {
  show("history-view");
  const games = await api("GET", "/api/history?limit=200");
  const body = $("history-table").querySelector("tbody");
  body.innerHTML = "";
  $("history-empty").hidden = games.length > 0;
  for (const g of games) {
    const tr = document.createElement("tr");
    tr.dataset.id = g.id;
    const cells = [String(g.id), (g.started_at || "").slice(0, 16).replace("T", " "), playerText(g.black),
      playerText(g.white), `${g.size}x${g.size} ${g.rules}`, resultText(g)];
    for (const c of cells) {
      const td = document.createElement("td");
      td.textContent = c;
      tr.appendChild(td);
    }
    const td = document.createElement("td");
    td.className = "actions";
    td.innerHTML =
      `<a href="#/replay/${g.id}" class="replay">Replay</a> ` +
      `<a href="/api/history/${g.id}/export?format=ggf" download>GGF</a> ` +
      `<a href="/api/history/${g.id}/export?format=transcript" download>Transcript</a> ` +
      `<button type="button" class="delete" aria-label="Delete game ${g.id}">Delete</button>`;
    td.querySelector(".delete").onclick = async () => {
      if (!window.confirm(`Delete game ${g.id}?`)) return;
      try {
        await api("DELETE", `/api/history/${g.id}`);
        announce(`Game ${g.id} deleted.`);
        await openHistory();
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
    await openHistory();
  } catch (err) {
    showError(err);
  }
}

// ---- replay and analysis ----------------------------------------------------------------

async function openReplay(id) {
  show("replay-view");
  const record = await api("GET", `/api/history/${id}`);
  app.replay = { record, analysis: null, index: record.positions.length - 1 };
  const i = record.info;
  $("replay-title").textContent = `Replay of game ${id}`;
  $("replay-info").textContent = `${playerText(i.black)} (Black) vs ${playerText(i.white)} (White), ` +
    `${i.size}x${i.size} ${i.rules}, ${resultText(i)}`;
  const slider = $("replay-slider");
  slider.max = String(record.positions.length - 1);
  $("graph").innerHTML = "";
  $("analysis-status").textContent = "";
  renderReplayMoves();
  replayTo(app.replay.index);
}

function replayTo(index) {
  const r = app.replay;
  if (!r) return;
  const last = r.record.positions.length - 1;
  r.index = Math.max(0, Math.min(last, index));
  const step = r.record.positions[r.index];
  $("replay-slider").value = String(r.index);
  const board = $("replay-board");
  board.dataset.index = String(r.index);
  drawBoard(board, step.board, {
    legal: new Set(), showLegal: false, last: step.mv && step.mv !== "PA" ? step.mv : null,
    flipped: new Set(), placed: null, hints: null, clickable: false, onPlay: null, cursor: null,
  });
  let text = r.index === 0 ? "Start position" : `After move ${r.index}: ${step.mv === "PA" ? "pass" : step.mv}`;
  text += `. Black ${step.counts.black}, White ${step.counts.white}.`;
  if (r.analysis) {
    const e = r.analysis.evals[r.index];
    text += ` Evaluation ${e > 0 ? "+" : ""}${e} for Black.`;
    const m = r.analysis.moves[r.index - 1];
    if (m && m.loss > 0) text += ` ${cap(m.color)} lost ${m.loss} disc${m.loss > 1 ? "s" : ""} (${m.verdict}; best ${m.best.square}).`;
  }
  $("replay-status").textContent = text;
  showOpening($("replay-opening"), step.opening);
  for (const li of $("replay-moves").children) li.classList.toggle("current", Number(li.dataset.ply) === r.index - 1);
  for (const c of $("graph").querySelectorAll("circle")) c.classList.toggle("current", Number(c.dataset.index) === r.index);
}

function renderReplayMoves() {
  const r = app.replay;
  const list = $("replay-moves");
  list.innerHTML = "";
  r.record.moves.forEach((mv, ply) => {
    const li = document.createElement("li");
    li.dataset.ply = ply;
    const a = r.analysis && r.analysis.moves[ply];
    const btn = document.createElement("button");
    btn.type = "button";
    btn.textContent = mv === "PA" ? "pass" : mv;
    if (a) {
      li.classList.add(a.verdict);
      if (a.verdict === "mistake" || a.verdict === "blunder") {
        btn.textContent += ` -${a.loss} ${a.best.square}`;
        btn.setAttribute("aria-label", `${mv}: ${a.verdict}, lost ${a.loss} discs; best was ${a.best.square}`);
        btn.title = `${a.verdict}: lost ${a.loss} discs; best was ${a.best.square}`;
      }
    }
    btn.onclick = () => replayTo(ply + 1);
    li.appendChild(btn);
    list.appendChild(li);
  });
}

async function analyze() {
  const r = app.replay;
  if (!r) return;
  try {
    showError(null);
    const level = Number($("analysis-level").value);
    $("analysis-status").textContent = `Analysing at level ${level}…`;
    $("analyze").disabled = true;
    r.analysis = await api("POST", `/api/history/${r.record.info.id}/analysis`, { level });
    const mistakes = r.analysis.moves.filter((m) => m.verdict === "mistake" || m.verdict === "blunder").length;
    $("analysis-status").textContent = `Analysed at level ${level}: Black lost ${r.analysis.black_loss} discs, ` +
      `White ${r.analysis.white_loss}; ${mistakes} mistake${mistakes === 1 ? "" : "s"} marked.`;
    drawGraph(r.analysis);
    renderReplayMoves();
    replayTo(r.index);
  } catch (e) {
    showError(e);
    $("analysis-status").textContent = "";
  } finally {
    $("analyze").disabled = false;
  }
}

function drawGraph(a) {
  const svgNS = "http://www.w3.org/2000/svg";
  const W = 480, H = 200, pad = 16;
  const n = a.evals.length;
  const maxAbs = Math.max(4, ...a.evals.map((e) => Math.abs(e)));
  const x = (i) => pad + (n > 1 ? (i * (W - 2 * pad)) / (n - 1) : 0);
  const y = (e) => H / 2 - (e * (H / 2 - pad)) / maxAbs;
  const svg = document.createElementNS(svgNS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", "Evaluation graph: discs for Black after each move; choose a point to go there");
  const axis = document.createElementNS(svgNS, "line");
  axis.setAttribute("x1", pad); axis.setAttribute("x2", W - pad);
  axis.setAttribute("y1", H / 2); axis.setAttribute("y2", H / 2);
  axis.setAttribute("class", "axis");
  svg.appendChild(axis);
  const line = document.createElementNS(svgNS, "polyline");
  line.setAttribute("points", a.evals.map((e, i) => `${x(i)},${y(e)}`).join(" "));
  line.setAttribute("class", "eval-line");
  svg.appendChild(line);
  a.evals.forEach((e, i) => {
    const c = document.createElementNS(svgNS, "circle");
    const m = i > 0 ? a.moves[i - 1] : null;
    c.setAttribute("cx", x(i));
    c.setAttribute("cy", y(e));
    c.setAttribute("r", m && (m.verdict === "mistake" || m.verdict === "blunder") ? 6 : 4);
    c.setAttribute("class", "point" + (m ? " " + m.verdict : ""));
    c.setAttribute("tabindex", "0");
    c.setAttribute("role", "button");
    c.dataset.index = String(i);
    let name = i === 0 ? "Start" : `Move ${i} ${m.played === "PA" ? "pass" : m.played}`;
    name += `: ${e > 0 ? "+" : ""}${e} for Black`;
    if (m && m.loss > 0) name += `, ${m.verdict}, lost ${m.loss}`;
    c.setAttribute("aria-label", name);
    const title = document.createElementNS(svgNS, "title");
    title.textContent = name;
    c.appendChild(title);
    c.addEventListener("click", () => replayTo(i));
    c.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); replayTo(i); } });
    svg.appendChild(c);
  });
  $("graph").innerHTML = "";
  $("graph").appendChild(svg);
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
  $("analyze").onclick = analyze;
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", route);
  route();
}

document.addEventListener("DOMContentLoaded", init);
