// The backend in the browser, no server: the engine compiled to WebAssembly, games kept in IndexedDB.
//
// Two kinds of engine instance (docs/web-engine.md): the **game** instance on this thread (the
// games being played, the history, the views: every call answers at once), and **search**
// instances in Web Workers (search-worker.js) for the computer's moves, hints and analyses,
// which take up to a level's time. A search is stopped by terminating its worker; the next
// one starts in a fresh worker from the module compiled here once. Two workers: one for the
// computer's moves, one for hints and analyses, so that neither waits behind the other.
//
// The history lives in IndexedDB (database `reversi`, store `games`, keyed by `id`): read at
// the start and handed to the game instance (`load`); after each call that can change it,
// what changed (`changes`) is written in one transaction before the call answers. One tab
// keeps the history at a time (a Web Lock): a second tab plays but does not save, and says so
// in each game's `save_error`, since both would hand out the same new game numbers.
import { BackendError } from "./backend.js";
import { compileEngine, instantiateEngine, WASM_URL } from "./engine.js";

const WORKER_URL = new URL("./search-worker.js", import.meta.url);

/** The level of the explorer's searches (the server's default, and the engine's). */
const EXPLORER_LEVEL = 6;

const aborted = () => new DOMException("The search was cancelled.", "AbortError");

// ---- searches in workers ----------------------------------------------------------------

/** One search worker and the searches waiting for it, run one at a time. A search whose
 *  signal fires is dropped if it waits, or stopped by terminating the worker if it runs (a
 *  fresh worker is started at once for the next). */
class Searcher {
  /** `eager`: a worker is started now, and again as soon as one is stopped, so that a search
   *  never waits for one to start. */
  constructor(module, { eager = false } = {}) {
    this.module = module;
    this.eager = eager;
    this.worker = null;
    this.queue = [];
    this.current = null;
    this.seq = 0;
    if (eager) this.start();
  }

  /** A worker ready to search (it instantiates the module while nothing asks it yet). */
  start() {
    if (this.worker) return;
    const worker = new Worker(WORKER_URL, { type: "module" });
    worker.onmessage = (e) => this.message(e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      this.fail(new BackendError(`The search worker failed: ${e.message || "it did not start"}.`, 500));
    };
    worker.onmessageerror = () => this.fail(new BackendError("The search worker sent an unreadable answer.", 500));
    worker.postMessage({ module: this.module, timeOrigin: performance.timeOrigin, warm: this.eager });
    this.worker = worker;
  }

  stopWorker() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
  }

  /** Runs `method` with `args` in the worker: a promise of its value. `onReport` hears its
   *  progress reports; `signal` stops it (the promise then rejects with an AbortError). */
  run(method, args, { onReport = null, signal = null } = {}) {
    return new Promise((resolve, reject) => {
      if (signal && signal.aborted) { reject(aborted()); return; }
      const task = { id: ++this.seq, method, args, onReport, resolve, reject, signal, stop: null };
      if (signal) {
        task.stop = () => this.cancel(task);
        signal.addEventListener("abort", task.stop, { once: true });
      }
      this.queue.push(task);
      this.next();
    });
  }

  next() {
    if (this.current || this.queue.length === 0) return;
    this.start();
    const task = this.queue.shift();
    this.current = task;
    this.worker.postMessage({ id: task.id, method: task.method, args: task.args });
  }

  done(task) {
    if (task.signal && task.stop) task.signal.removeEventListener("abort", task.stop);
    if (this.current === task) this.current = null;
  }

  message(msg) {
    const task = this.current;
    if (!task || msg.id !== task.id) return;
    if ("report" in msg) {
      if (task.onReport) task.onReport(msg.report);
      return;
    }
    this.done(task);
    if (msg.error) task.reject(new BackendError(msg.error.message, msg.error.status));
    else task.resolve(msg.ok);
    this.next();
  }

  cancel(task) {
    if (this.current === task) {
      this.stopWorker();
      this.done(task);
      if (this.eager) this.start();
    } else {
      const i = this.queue.indexOf(task);
      if (i < 0) return;
      this.queue.splice(i, 1);
      this.done(task);
    }
    task.reject(aborted());
    this.next();
  }

  /** The worker broke (it did not load, or died): the search under way fails, the next ones
   *  get a new worker. */
  fail(error) {
    this.stopWorker();
    const task = this.current;
    if (task) {
      this.done(task);
      task.reject(error);
    }
    this.next();
  }
}

// ---- the history in IndexedDB -----------------------------------------------------------

const OTHER_TAB = "the page is open in another tab, which keeps the history; close it and reload this one";

const DB_NAME = "reversi";
const STORE = "games";

const request = (req) => new Promise((resolve, reject) => {
  req.onsuccess = () => resolve(req.result);
  req.onerror = () => reject(req.error);
});

function openDatabase() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "id" });
    req.onsuccess = () => {
      // A later build that changes the database's layout: this page lets go (its writes then
      // fail, and its games say they are not saved) rather than hold the new one up.
      req.result.onversionchange = () => req.result.close();
      resolve(req.result);
    };
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error("another tab holds an older version of the database"));
  });
}

/** Whether this tab may write the history: it holds the lock no other tab of the page holds
 *  (waiting a moment for it, for the page this one replaces on a reload). Browsers without
 *  Web Locks (or not on https) are trusted to have one tab. */
function claimHistory() {
  if (!navigator.locks) return Promise.resolve(true);
  const wait = AbortSignal.timeout ? { signal: AbortSignal.timeout(1500) } : { ifAvailable: true };
  return new Promise((resolve) => {
    navigator.locks.request("reversi-history", wait, (lock) => {
      if (!lock) { resolve(false); return undefined; }
      resolve(true);
      return new Promise(() => {}); // kept as long as the page is open
    }).catch(() => resolve(false));
  });
}

/** The stored games, and how to write changes: `{ records, read(), write(changes), problem,
 *  otherTab }`. `problem` says why games are not being saved (then `write` does nothing);
 *  `otherTab`, that another tab keeps them. */
async function openHistory() {
  let db;
  try {
    if (!globalThis.indexedDB) throw new Error("this browser has no IndexedDB");
    db = await openDatabase();
  } catch (e) {
    return {
      records: [], read: async () => [], write: async () => {},
      problem: `this browser does not let the page keep games (${e.message || e})`,
    };
  }
  const read = () => request(db.transaction(STORE).objectStore(STORE).getAll());
  const [records, mine] = await Promise.all([read(), claimHistory()]);
  const history = {
    records,
    read,
    otherTab: !mine,
    problem: mine ? null : OTHER_TAB,
    askedPersist: false,
    /** Writes `put` and removes `deleted` in one transaction; resolves once it is stored. */
    write({ put, deleted }) {
      if (history.problem || (put.length === 0 && deleted.length === 0)) return Promise.resolve();
      if (!history.askedPersist && navigator.storage && navigator.storage.persist) {
        // Ask once that the browser keep the history under storage pressure (no question in
        // Chromium; Firefox asks the person).
        history.askedPersist = true;
        navigator.storage.persist().catch(() => {});
      }
      return new Promise((resolve, reject) => {
        const tx = db.transaction(STORE, "readwrite");
        const store = tx.objectStore(STORE);
        for (const record of put) store.put(record);
        for (const id of deleted) store.delete(id);
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error || new Error("the write was aborted"));
      });
    },
  };
  return history;
}

// ---- the backend ------------------------------------------------------------------------

/** The backend over the engine in this browser (see backend.js for each method). Resolves
 *  once the engine is compiled and the stored games are read. */
export async function createLocalBackend({ wasmUrl = WASM_URL } = {}) {
  const [module, history] = await Promise.all([compileEngine(wasmUrl), openHistory()]);
  let game = await instantiateEngine(module);
  let saveProblem = history.problem;
  try {
    const { refused } = game.call("load", { records: history.records });
    if (refused && refused.length) console.warn("Stored games that did not read back:", refused);
  } catch (e) {
    // Never write over games that did not read back.
    history.problem = saveProblem = `the stored games could not be read (${e.message})`;
    game = await instantiateEngine(module);
  }
  const mover = new Searcher(module, { eager: true }); // the computer's moves
  const study = new Searcher(module); // hints and analyses
  // The explorer's values of moves the book lacks: short searches (level 6, a fraction of a
  // second), in a worker of their own so that they wait neither for an analysis nor for the
  // computer, nor hold up a hint. Started the first time one is needed.
  const valuer = new Searcher(module);

  /** The game instance: a new one, with the history read again, after one broke. */
  async function engine() {
    if (game.broken) {
      const fresh = await instantiateEngine(module);
      fresh.call("load", { records: await history.read() });
      game = fresh;
      for (const id of live.keys()) stopComputer(id);
    }
    return game;
  }

  // ---- saving ----

  /** Writes what the last calls changed; resolves once stored. A failure is shown in the
   *  games' `save_error` from then on. */
  function save() {
    let changes;
    try {
      changes = game.call("changes");
    } catch (e) {
      return Promise.resolve();
    }
    return history.write(changes).catch((e) => {
      saveProblem = `the browser refused to store it (${e && e.message ? e.message : e})`;
      for (const id of live.keys()) refresh(id);
    });
  }

  // ---- games being played: watchers and the computer's turn ----

  // id -> { watchers: Set, search: null | { job, ctrl }, version }
  const live = new Map();
  const entry = (id) => {
    let e = live.get(id);
    if (!e) {
      e = { watchers: new Set(), search: null, version: -1 };
      live.set(id, e);
    }
    return e;
  };

  /** A Game as handed out: thinking while its computer's search runs, and why it is not
   *  saved. */
  function view(g) {
    const e = live.get(g.id);
    g.thinking = !!(e && e.search);
    if (saveProblem && !g.save_error) g.save_error = saveProblem;
    return g;
  }

  /** Tells the game's watchers its state `g`. */
  function tell(g) {
    const e = entry(g.id);
    e.version = Math.max(e.version, g.version);
    for (const w of [...e.watchers]) w.state(g);
  }

  /** Tells the game's watchers its current state. */
  function refresh(id) {
    let g;
    try {
      g = game.call("getGame", { id });
    } catch (err) {
      gone(id, err);
      return;
    }
    tell(view(g));
  }

  /** The game can no longer be watched. */
  function gone(id, err) {
    const e = live.get(id);
    if (!e) return;
    stopComputer(id);
    const watchers = [...e.watchers];
    e.watchers.clear();
    for (const w of watchers) if (w.error) w.error(err);
  }

  /** Stops the computer's search in game `id`, if one runs. */
  function stopComputer(id) {
    const e = live.get(id);
    if (!e || !e.search) return;
    const { ctrl } = e.search;
    e.search = null;
    ctrl.abort();
  }

  /** Starts the computer's search when it is to move in game `id` (and none runs yet). */
  function computerTurn(id) {
    const e = entry(id);
    if (e.search || game.broken) return;
    let job;
    try {
      job = game.call("computerTurn", { id });
    } catch (_) {
      return;
    }
    if (!job) return;
    const search = { job, ctrl: new AbortController() };
    e.search = search;
    const onReport = (t) => {
      if (e.search !== search) return;
      for (const w of [...e.watchers]) if (w.thinking) w.thinking(t);
    };
    mover.run("chooseMove", { job }, { onReport, signal: search.ctrl.signal }).then((decision) => {
      if (e.search !== search) return;
      e.search = null;
      let g;
      try {
        g = game.call("computerMove", { id, job, decision });
      } catch (err) {
        // The game moved on since (409) or went away: show it as it is now.
        refresh(id);
        return;
      }
      save();
      computerTurn(id); // the computer again: it plays both sides, or the other side passed
      tell(view(g));
    }, (err) => {
      if (e.search !== search) return; // stopped on purpose
      e.search = null;
      gone(id, err);
    });
  }

  /** A change the page asked for in game `id` (play, undo, redo, resign): any search for the
   *  position before is stopped, the change saved, the computer set to move if it is its
   *  turn, the watchers told. */
  async function change(id, method, args = {}) {
    const eng = await engine();
    const g = eng.call(method, { ...args, id });
    stopComputer(id);
    const saved = save();
    computerTurn(id);
    const v = view(g);
    tell(v);
    await saved;
    return v;
  }

  /** Game `id` as it is now (reading it may end it on time), with the computer set to move
   *  if it is its turn. */
  async function current(id) {
    const eng = await engine();
    const g = eng.call("getGame", { id });
    const saved = save();
    computerTurn(id);
    const v = view(g);
    if (g.version > entry(id).version) tell(v);
    await saved;
    return v;
  }

  /** A change to the stored games only (a variation, an import, a deletion): refused in a
   *  tab that cannot save it, rather than lost at the next visit. */
  const historyEditable = () => {
    if (history.otherTab) throw new BackendError(`Not saved: ${OTHER_TAB}.`, 409);
  };

  const notHere = (what) => async () => {
    throw new BackendError(`${what} needs the server (reversi serve).`, 409);
  };

  return {
    capabilities: {
      sharedGames: false, sharedHistory: false, history: true, importExport: true,
      explorer: true, positionImage: true, clocks: true,
    },
    // Every game here is this browser's own.
    seat: () => ({ guest: false }),
    // Nothing to lose touch with.
    onConnection: () => () => {},

    async createGame(settings) {
      if (settings.remote) throw new BackendError("A game between two browsers needs the server (reversi serve).", 400);
      const eng = await engine();
      const created = eng.call("createGame", settings);
      const saved = save();
      computerTurn(created.game.id);
      view(created.game);
      await saved;
      return created;
    },
    getGame: current,
    joinGame: notHere("Joining a game from another browser"),
    play: (id, square) => change(id, "play", { square }),
    undo: (id) => change(id, "undo"),
    redo: (id) => change(id, "redo"),
    resign: (id) => change(id, "resign"),
    async hints(id, level, { signal } = {}) {
      const spec = (await engine()).call("gameSpec", { id });
      const found = await study.run("hints", { game: spec.game, level }, { signal });
      return { ply: spec.ply, candidates: found.candidates };
    },
    watchGame(id, on) {
      const e = entry(id);
      const w = { state: on.state, thinking: on.thinking, error: on.error };
      e.watchers.add(w);
      // The current state, after the caller has its unsubscribe function.
      queueMicrotask(() => {
        if (!e.watchers.has(w)) return;
        current(id).then((g) => { if (e.watchers.has(w)) w.state(g); }, (err) => {
          if (!e.watchers.delete(w)) return;
          if (e.watchers.size === 0) stopComputer(id);
          if (w.error) w.error(err);
        });
      });
      return () => {
        // Nobody watches the game any more: its computer stops thinking (it goes on when the
        // game is opened again).
        if (e.watchers.delete(w) && e.watchers.size === 0) stopComputer(id);
      };
    },
    site: notHere("A link for another browser"),

    levels: async () => (await engine()).call("levels"),

    listGames: async ({ limit, offset }) => (await engine()).call("listGames", { limit, offset }),
    getRecord: async (id) => (await engine()).call("getRecord", { id }),
    async deleteGame(id) {
      historyEditable();
      stopComputer(id);
      (await engine()).call("deleteGame", { id });
      await save();
      gone(id, new BackendError(`Game ${id} was deleted.`, 404));
      live.delete(id);
    },
    async importGames(name, text) {
      historyEditable();
      const added = (await engine()).call("importGames", { name, text });
      await save();
      return added;
    },
    exportGame: async (id, format) => (await engine()).call("exportGame", { id, format }),
    async playVariation(id, { line, ply, move }) {
      historyEditable();
      const played = (await engine()).call("playVariation", { id, line, ply, move });
      await save();
      return played;
    },
    async analyzeGame(id, level, { signal, progress } = {}) {
      const spec = (await engine()).call("recordSpec", { id });
      return study.run("analyzeGame", { game: spec, level }, { signal, onReport: progress || null });
    },

    readPosition: async ({ position, size, rules }) => (await engine()).call("readPosition", { position, size, rules }),
    analyzePosition: ({ position, rules, level }) => study.run("analyzePosition", { position, rules, level }),
    positionImage: async ({ position, rules, last, legal, caption }) =>
      (await engine()).call("positionImage", { position, rules, last, legal, caption }),
    async explore(position, { signal } = {}) {
      // This browser's finished 8x8 games, with the opening book's values.
      const found = (await engine()).call("explore", { position });
      const missing = found.moves.filter((m) => !m.value);
      if (missing.length === 0) return found;
      // The moves out of the book: valued by a search of the position, as the server does.
      // From now on a worker stopped because its position was overtaken is replaced at once,
      // and the new one sets up the engine's tables while nothing waits for it.
      valuer.eager = true;
      let searched;
      try {
        searched = await valuer.run("positionHints", { position, level: EXPLORER_LEVEL }, { signal });
      } catch (e) {
        // Overtaken (another position asked for): the caller drops it. A search that failed
        // leaves the games' figures, without the values.
        if (e.name === "AbortError") throw e;
        console.warn("The explorer's search failed:", e);
        return found;
      }
      const bySquare = new Map(searched.candidates.map((c) => [c.square, c]));
      for (const m of missing) m.value = bySquare.get(m.square) || null;
      return found;
    },
  };
}
