// The search instance (docs/web-engine.md) in a module worker: the computer's moves, hints, analyses.
//
// Messages in: first `{ module, timeOrigin, warm }`, the engine compiled by the page (never
// compiled again here), the page's clock's origin (the engine's clock is the page's) and
// whether to warm the engine up at once (see below), then `{ id, method, args }`, one search each, run in turn. Messages out:
// `{ id, report }` while a search runs (the computer's thinking, an analysis's progress),
// then `{ id, ok }` with its value or `{ id, error: { message, status } }`. A search runs to
// its end or its level's time: the page stops one by terminating this worker.
import { instantiateEngine } from "./engine.js";

let gotModule;
const moduleGiven = new Promise((resolve) => { gotModule = resolve; });
let engine = null;

// Searches run one at a time, in the order they came; the first waits for the module (and
// the instance made as soon as it comes).
let queue = moduleGiven.then(async ({ module, timeOrigin, warm }) => {
  try {
    engine = await instantiateEngine(module, { timeOrigin });
    // An instance's first 8x8 search first sets up the engine's tables (half a second): done
    // now, while nobody waits, by a search of the start at level 1.
    if (warm) engine.call("hints", { game: { size: 8, rules: "othello", start: null, moves: [] }, level: 1 });
  } catch (_) {
    if (engine && engine.broken) engine = null;
  }
});

async function run({ id, method, args }) {
  try {
    // A trap leaves an instance half-changed: the next search gets a new one (milliseconds).
    if (!engine || engine.broken) {
      const { module, timeOrigin } = await moduleGiven;
      engine = await instantiateEngine(module, { timeOrigin });
    }
    const ok = engine.call(method, args, (report) => self.postMessage({ id, report }));
    self.postMessage({ id, ok });
  } catch (e) {
    self.postMessage({ id, error: { message: String(e.message || e), status: e.status ?? 500 } });
  }
}

self.onmessage = (e) => {
  const msg = e.data;
  if (msg.module) gotModule(msg);
  else queue = queue.then(() => run(msg));
};
