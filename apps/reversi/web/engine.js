// The engine compiled to WebAssembly (docs/web-engine.md): compiling reversi.wasm, and one instance's `call`.
//
// Used on the page's thread (the game instance, backend-local.js) and in the search worker
// (search-worker.js). The module is compiled once, on the page; a worker is handed the
// compiled module and only instantiates it.
import { BackendError } from "./backend.js";

/** Where the engine is: beside this module. */
export const WASM_URL = new URL("reversi.wasm", import.meta.url);

/** Compiles the engine from `url`: streamed, or from its bytes when the server does not say
 *  `application/wasm` (streaming compilation insists on that type). */
export async function compileEngine(url = WASM_URL) {
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(`Cannot load the engine (${url}): ${resp.status} ${resp.statusText}`);
  if (WebAssembly.compileStreaming && /^application\/wasm\b/.test(resp.headers.get("content-type") || "")) {
    try {
      return await WebAssembly.compileStreaming(resp.clone());
    } catch (e) {
      // A module that does not compile fails the same way from its bytes, below.
      if (!(e instanceof TypeError)) throw e;
    }
  }
  return WebAssembly.compile(await resp.arrayBuffer());
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An instance of the compiled engine `module`: `{ call(method, args, onReport) }`. Its clock
 *  (`now_ms`) is the page's `performance.now()`, in a worker too: `timeOrigin` is the page's
 *  `performance.timeOrigin` (a worker's own starts when the worker does).
 *
 *  `call` runs one request to its end on the calling thread and returns its value; a refusal
 *  throws a BackendError with the engine's message and status. `onReport(report)` hears the
 *  progress reports (JSON) the request makes while it runs (a search's thinking, an analysis's
 *  progress). A trap inside the engine (a bug) throws a BackendError with status 500, and the
 *  instance is not to be used again (`broken` says so): its memory may be half-changed. */
export async function instantiateEngine(module, { timeOrigin = performance.timeOrigin } = {}) {
  const offset = performance.timeOrigin - timeOrigin;
  let exports = null;
  let onReport = null;
  const bytes = (ptr, len) => new Uint8Array(exports.memory.buffer, ptr, len);
  const imports = {
    env: {
      now_ms: () => performance.now() + offset,
      // The wall clock, for the dates of stored games.
      date_ms: () => Date.now(),
      report: (ptr, len) => {
        if (!onReport) return;
        let report;
        try {
          report = JSON.parse(decoder.decode(bytes(ptr, len)));
        } catch (_) {
          return;
        }
        // A listener's failure must not unwind through the engine.
        try { onReport(report); } catch (e) { console.error(e); }
      },
    },
  };
  const instance = await WebAssembly.instantiate(module, imports);
  exports = instance.exports;
  const engine = {
    broken: false,
    call(method, args = {}, report = null) {
      if (engine.broken) throw new BackendError("The engine failed earlier; reload the page.", 500);
      const request = encoder.encode(JSON.stringify({ ...args, method }));
      const ptr = exports.alloc(request.length);
      bytes(ptr, request.length).set(request);
      let text;
      onReport = report;
      try {
        const len = exports.call(ptr, request.length);
        // Read after the call: the memory may have grown (a new buffer) during it.
        text = decoder.decode(bytes(exports.response_ptr(), len));
        exports.dealloc(ptr, request.length);
      } catch (e) {
        engine.broken = true;
        throw new BackendError(`The engine failed (${method}): ${e.message}`, 500);
      } finally {
        onReport = null;
      }
      const response = JSON.parse(text);
      if (response.error) throw new BackendError(response.error.message, response.error.status);
      return response.ok;
    },
  };
  return engine;
}
