// The game view: open, join and follow a game; its board, moves, undo/redo, resign, hints, share link.
import { backend } from "./backend.js";
import { createBoard } from "./board.js";
import { showExplorer } from "./explorer.js";
import { clearThinking, renderClocks, renderThinking, showThinking, stopClocks } from "./game-panels.js";
import { initSound, moveSound } from "./sound.js";
import {
  $, announce, cancelJob, cap, downloadPosition, jobRunning, noticeNext, runJob, show, showError,
  showOpening, shown,
} from "./ui.js";

const cur = {
  id: null,          // the game shown
  game: null,        // its latest state
  hints: null,       // { ply, byMove: {f5: candidate} }
  cursor: null,      // focused square name on the board
  unwatch: null,     // stops following the game
  lastSettings: null,
  site: null,        // how people reach the backend (join links)
};

let board = null;

export const currentGame = () => cur.game;
export const currentGameId = () => cur.id;

/** Stops following the game shown (and its clocks). */
export function stopWatching() {
  if (cur.unwatch) cur.unwatch();
  cur.unwatch = null;
  stopClocks();
}

/** Starts a game with `settings` (see backend.js) and shows it. */
export async function createGame(settings) {
  const created = await backend.createGame(settings);
  cur.lastSettings = settings;
  location.hash = "#/game/" + created.game.id;
}

function watch(id) {
  cur.unwatch = backend.watchGame(id, {
    state: render,
    thinking: (t) => renderThinking(t, cur.game),
    error: (e) => {
      cur.unwatch = null;
      if (cur.id !== id || !shown("game-view")) return;
      if (e.status === 404) gameGone(id).catch(showError); else showError(e);
    },
  });
}

export async function openGame(id) {
  if (cur.id !== id) {
    stopWatching();
    cur.id = id;
    cur.game = null;
    cur.hints = null;
    cur.cursor = null;
    clearThinking();
  }
  show("game-view");
  let g;
  try {
    g = await backend.getGame(id);
  } catch (e) {
    if (e.status === 404) return gameGone(id);
    throw e;
  }
  if (!cur.unwatch) watch(id);
  render(g);
}

/** The game shown, read again (the backend answers again): only when it is not being
 *  followed already (a subscription recovers by itself). */
export function refreshGame() {
  if (cur.id != null && !cur.unwatch) openGame(cur.id).catch(showError);
}

/** The backend does not have the game in play (it ended and was put away, the server was
 *  restarted, or it never existed): its record from the history, if there is one. */
async function gameGone(id) {
  stopWatching();
  let record = null;
  if (backend.capabilities.history) {
    try {
      record = await backend.getRecord(id);
    } catch (e) {
      if (e.status !== 404) throw e;
    }
  }
  if (!record) throw new Error(`There is no game ${id}: it is not being played and not in the history.`);
  const why = record.info.status === "in_progress"
    ? "is no longer being played on the server (it may have been restarted)"
    : "has ended";
  noticeNext(`Game ${id} ${why}: here is its record.`);
  location.replace("#/replay/" + id);
}

export async function joinGame(id, code) {
  if (!backend.seat(id)) {
    try {
      await backend.joinGame(id, code);
    } catch (e) {
      // A taken seat, a wrong code, or a game with no seat to take: watch instead of a blank
      // page.
      if (e.status !== 409 && e.status !== 403) throw e;
      noticeNext(`You cannot join game ${id} (${e.message}): you are watching it.`);
      location.replace("#/game/" + id);
      return;
    }
  }
  location.replace("#/game/" + id);
}

/** Whether this browser may move for `color` now. */
function mine(g, color) {
  const seat = backend.seat(g.id);
  if (!seat) return false;
  const side = color === "black" ? g.black : g.white;
  if (side !== "human") return false;
  return seat.guest ? g.remote === color : g.remote !== color;
}

const computer = (p) => p !== "human";
const other = (color) => (color === "black" ? "white" : "black");

/** Who this browser is in the game: a player of which side, or a spectator. */
function seatText(g) {
  const seat = backend.seat(g.id);
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

/** The join link, from the address people reach the backend by. */
async function showShareLink(g) {
  if (!cur.site) {
    try {
      cur.site = await backend.site();
    } catch (_) {
      cur.site = { base: location.origin + "/", warning: null };
    }
  }
  if (!cur.game || cur.game.id !== g.id) return;
  // The seat goes to whoever brings the game's join code, which only this link carries.
  $("share-link").value = `${cur.site.base}#/join/${g.id}/${(backend.seat(g.id) || {}).code || ""}`;
  const warn = $("share-warning");
  warn.hidden = !cur.site.warning;
  warn.textContent = cur.site.warning || "";
}

function label(p) {
  return p === "human" ? "(human)" : `(computer ${p.replace("ai:", "")})`;
}

function render(g) {
  if (!g || g.id !== cur.id) return;
  const prev = cur.game;
  // A reply can arrive after the event that followed it (the computer answers fast).
  if (prev && prev.id === g.id && g.version < prev.version) return;
  const fresh = !prev || prev.moves.length !== g.moves.length || prev.moves.join() !== g.moves.join();
  cur.game = g;
  if (fresh) {
    cur.hints = null;
    // A hint for a position that has gone is no use.
    if (prev) cancelJob("hint");
  }
  const seat = backend.seat(g.id);
  const myTurn = !g.over && g.human_turn && mine(g, g.turn);

  $("game-title").textContent = `Game ${g.id}: ${g.size}x${g.size} ${g.rules}, ` +
    `Black ${label(g.black)} vs White ${label(g.white)}`;
  $("seat").textContent = seatText(g);
  $("game-view").dataset.role = !seat ? "spectator" : seat.guest ? "guest" : "owner";
  const el = $("board");
  el.dataset.turn = g.turn || "";
  el.dataset.myTurn = String(myTurn);
  el.dataset.moves = String(g.moves.length);
  el.dataset.over = String(g.over);
  el.dataset.thinking = String(g.thinking);
  board.set({
    rows: g.board,
    legal: g.legal,
    showLegal: $("show-legal").checked,
    last: g.last && g.last.square,
    hints: cur.hints && cur.hints.byMove,
    movable: myTurn,
    cursor: cur.cursor,
    // What this change flipped is marked (not on a game's first showing); later renders of
    // the same position keep the marks, so nothing replays or stops half-way.
    animate: !!prev,
  });
  el.setAttribute("aria-label", `Board, ${g.size} by ${g.size}`);

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

  renderClocks(g, () => backend.getGame(g.id).then(render).catch(() => {}));

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
    $("result-replay").hidden = $("result-analyse").hidden = !backend.capabilities.history;
  }
  // Spectators see the game, not the players' buttons.
  for (const id of ["undo", "redo", "hint", "resign", "hint-level-label", "again"]) $(id).hidden = !seat;
  $("undo").disabled = !g.can_undo || !seat;
  $("redo").disabled = !g.can_redo || !seat;
  $("hint").disabled = g.over || g.legal.length === 0 || jobRunning("hint");
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
  g.moves.forEach((m) => {
    const li = document.createElement("li");
    li.textContent = m === "PA" ? "pass" : m;
    list.appendChild(li);
  });

  if (fresh && prev) announceChange(prev, g);
  // A click for each disc placed since the position shown (when the sound is on).
  if (fresh && prev && g.moves.length > prev.moves.length) {
    moveSound(g.moves.slice(prev.moves.length).filter((m) => m !== "PA").length);
  }
  if (!prev) announce(`${status}. ${seatText(g)}`);
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
    render(await backend.play(cur.id, sq));
  } catch (e) {
    showError(e);
  }
}

/** Undo, redo or resign in the game shown. */
async function gameAction(what) {
  try {
    showError(null);
    render(await backend[what](cur.id));
  } catch (e) {
    showError(e);
  }
}

async function hints() {
  const g = cur.game;
  if (!g || g.over || !backend.seat(g.id) || jobRunning("hint")) return;
  const level = Number($("hint-level").value);
  const h = await runJob("hint", "hint-status", `Searching at level ${level}…`,
    (signal) => backend.hints(g.id, level, { signal }));
  if (cur.game) render(cur.game);
  if (!h) return;
  $("hint-status").textContent = "";
  const byMove = {};
  for (const c of h.candidates) byMove[c.square] = c;
  if (cur.game && cur.game.moves.length === h.ply) {
    cur.hints = { ply: h.ply, byMove };
    render(cur.game);
    const best = h.candidates[0];
    if (best) announce(`Hints: best ${best.square} ${best.label} (${best.kind}).`);
  }
}

/** The game view's keys (u, r, h, l); true when `e` was one. */
export function onGameKey(e) {
  const k = e.key.toLowerCase();
  if (k === "u") gameAction("undo");
  else if (k === "r") gameAction("redo");
  else if (k === "h") hints();
  else if (k === "l") $("show-legal").click();
  else return false;
  e.preventDefault();
  return true;
}

export function initGame() {
  board = createBoard($("board"), {
    events: { play, cursor: (sq) => { cur.cursor = sq; } },
  });
  $("undo").onclick = () => gameAction("undo");
  $("redo").onclick = () => gameAction("redo");
  $("resign").onclick = () => gameAction("resign");
  $("hint").onclick = hints;
  $("hint-cancel").onclick = () => cancelJob("hint");
  $("show-legal").onchange = () => cur.game && render(cur.game);
  initSound();
  $("again").onclick = async () => {
    const g = cur.game;
    const settings = cur.lastSettings && cur.id === g.id ? cur.lastSettings
      : { size: g.size, rules: g.rules, black: g.black, white: g.white, ...(g.remote ? { remote: g.remote } : {}) };
    try { await createGame(settings); } catch (e) { showError(e); }
  };
  $("copy-link").onclick = () => {
    $("share-link").select();
    if (navigator.clipboard) navigator.clipboard.writeText($("share-link").value).catch(() => {});
  };
  $("game-image").onclick = () => {
    const g = cur.game;
    if (!g) return;
    downloadPosition({ rows: g.board, turn: g.turn, rules: g.rules, last: g.last ? (g.last.square || "PA") : null,
      legal: !g.over, caption: `Game ${g.id}, after move ${g.moves.length}` });
  };
}
