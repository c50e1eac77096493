// The backend over `reversi serve`'s HTTP API and event streams: seats, admin token, reconnecting.
import { BackendError, Unreachable } from "./backend.js";

// ---- seats ------------------------------------------------------------------------------

/** This browser's seat in game `id` as stored: { token, guest, code?, color? }, or null. */
export function tokenFor(id) {
  try {
    return JSON.parse(localStorage.getItem("reversi-seat-" + id) || "null");
  } catch (_) {
    return null;
  }
}

function saveSeat(id, seat) {
  localStorage.setItem("reversi-seat-" + id, JSON.stringify(seat));
}

// ---- connection -------------------------------------------------------------------------

const conn = { down: false, probe: null, listeners: new Set() };

function tell(up) {
  for (const f of [...conn.listeners]) f(up);
}

/** Whether the server answers at all. */
async function reachable() {
  try {
    await fetch("/api/site", { cache: "no-store" });
    return true;
  } catch (_) {
    return false;
  }
}

/** No answer from the server: say so, and ask it every so often until it answers. */
function serverDown() {
  if (conn.down) return;
  conn.down = true;
  conn.probe = setInterval(async () => {
    if (await reachable()) serverUp();
  }, 1500);
  tell(false);
}

/** The server answered again. */
function serverUp() {
  if (!conn.down) return;
  conn.down = false;
  clearInterval(conn.probe);
  conn.probe = null;
  tell(true);
}

/** Calls `f` once, the next time the server answers again; returns a function that forgets it. */
function whenUp(f) {
  const once = (up) => {
    if (!up) return;
    conn.listeners.delete(once);
    f();
  };
  conn.listeners.add(once);
  return () => conn.listeners.delete(once);
}

// ---- requests ---------------------------------------------------------------------------

/** Asks the person for the server's admin token (deleting and importing history games need
 *  it); `refused` when the one given before was refused. */
function askAdminToken(refused) {
  return prompt(refused
    ? "The server refused that admin token. Its admin token (printed when it started):"
    : "This needs the server's admin token (printed when it started):");
}

/** Sends a request; returns the response, its body (JSON when it parses) and its text. Throws a
 *  BackendError with the server's message for a refusal, Unreachable when there is no answer
 *  at all (and the connection listeners hear of it), and the browser's AbortError when
 *  `signal` fires. A game's own routes carry this browser's seat token. */
async function request(method, path, body, raw, signal) {
  const headers = {};
  const game = path.match(/^\/api\/games\/(\d+)\//);
  const seat = game ? tokenFor(Number(game[1])) : null;
  if (seat) headers["x-player-token"] = seat.token;
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
    const given = askAdminToken(refused);
    if (given && given.trim()) {
      sessionStorage.setItem("reversi-admin-token", given.trim());
      return request(method, path, body, raw, signal);
    }
  }
  if (!resp.ok) {
    const msg = data && data.error ? data.error : resp.status + " " + resp.statusText;
    throw new BackendError(msg, resp.status);
  }
  return { resp, data, text };
}

/** A request's body: `api("POST", "/api/games", {...})`. Also the tests' hook (window.api). */
export async function api(method, path, body, raw, signal) {
  return (await request(method, path, body, raw, signal)).data;
}

// ---- live games -------------------------------------------------------------------------

/** Follows game `id`'s event stream. When it breaks, finds out whether the server is down
 *  (then waits until it answers again) or the stream alone ended (then waits longer after
 *  each failure in a row); either way it reads the game again and follows it anew. */
function watchGame(id, on) {
  let ev = null, stopped = false, retry = 0, timer = null, forget = null;
  const open = () => {
    const source = new EventSource(`/api/games/${id}/events`);
    source.addEventListener("open", () => { retry = 0; });
    source.addEventListener("state", (e) => on.state(JSON.parse(e.data)));
    source.addEventListener("thinking", (e) => { if (on.thinking) on.thinking(JSON.parse(e.data)); });
    source.onerror = async () => {
      if (stopped || ev !== source) return;
      source.close();
      ev = null;
      if (!(await reachable())) {
        serverDown();
        if (!stopped) forget = whenUp(resume);
        return;
      }
      const wait = Math.min(30000, 1000 * 2 ** retry);
      retry++;
      clearTimeout(timer);
      timer = setTimeout(resume, wait);
    };
    ev = source;
  };
  const resume = async () => {
    forget = null;
    if (stopped || ev) return;
    let g;
    try {
      g = await api("GET", `/api/games/${id}`);
    } catch (e) {
      if (stopped) return;
      if (e instanceof Unreachable) { forget = whenUp(resume); return; }
      stopped = true;
      if (on.error) on.error(e);
      return;
    }
    if (stopped || ev) return;
    on.state(g);
    open();
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    if (forget) forget();
    if (ev) ev.close();
    ev = null;
  };
}

// ---- the backend ------------------------------------------------------------------------

/** The backend over the server this page came from (see backend.js for each method). */
export function createHttpBackend() {
  const post = (path, body, signal) => api("POST", path, body, undefined, signal);
  let site = null;
  return {
    capabilities: {
      sharedGames: true, sharedHistory: true, history: true, importExport: true,
      explorer: true, positionImage: true, clocks: true,
    },
    seat: tokenFor,
    onConnection(listener) {
      conn.listeners.add(listener);
      return () => conn.listeners.delete(listener);
    },

    async createGame(settings) {
      const created = await post("/api/games", settings);
      saveSeat(created.game.id, { token: created.token, guest: false, code: created.join_code });
      return created;
    },
    getGame: (id) => api("GET", `/api/games/${id}`),
    async joinGame(id, code) {
      const joined = await post(`/api/games/${id}/join`, { code });
      saveSeat(id, { token: joined.token, guest: true, color: joined.color });
      return joined;
    },
    play: (id, square) => post(`/api/games/${id}/moves`, { square }),
    undo: (id) => post(`/api/games/${id}/undo`),
    redo: (id) => post(`/api/games/${id}/redo`),
    resign: (id) => post(`/api/games/${id}/resign`),
    hints: (id, level, { signal } = {}) => post(`/api/games/${id}/hints`, { level }, signal),
    watchGame,
    async site() {
      if (!site) site = await api("GET", "/api/site");
      return site;
    },

    levels: () => api("GET", "/api/levels"),

    async listGames({ limit, offset }) {
      const { resp, data } = await request("GET", `/api/history?limit=${limit}&offset=${offset}`);
      return { games: data, total: Number(resp.headers.get("x-total-count") || data.length) };
    },
    getRecord: (id) => api("GET", `/api/history/${id}`),
    async deleteGame(id) {
      await api("DELETE", `/api/history/${id}`);
    },
    importGames: (name, text) =>
      api("POST", `/api/history/import?name=${encodeURIComponent(name)}`, undefined, text),
    async exportGame(id, format) {
      const { text } = await request("GET", `/api/history/${id}/export?format=${encodeURIComponent(format)}`);
      return { filename: `reversi-game-${id}.${format === "ggf" ? "ggf" : "txt"}`, type: "text/plain", text };
    },
    playVariation: (id, { line, ply, move }) => post(`/api/history/${id}/variations`, { line, ply, move }),
    analyzeGame: (id, level, { signal } = {}) => post(`/api/history/${id}/analysis`, { level }, signal),

    readPosition: ({ position, size, rules }) => post("/api/position", { position, size, rules }),
    analyzePosition: ({ position, rules, level }) => post("/api/position/analysis", { position, rules, level }),
    async positionImage({ position, rules, last, legal, caption }) {
      const params = new URLSearchParams({ position, rules });
      if (last) params.set("last", last);
      if (legal) params.set("legal", "1");
      if (caption) params.set("caption", caption);
      const { text } = await request("GET", "/api/position/svg?" + params);
      return { filename: "reversi-position.svg", type: "image/svg+xml", text };
    },
    explore: (position, { signal } = {}) =>
      api("GET", `/api/explore?position=${encodeURIComponent(position)}`, undefined, undefined, signal),
  };
}
