// The bench in WebAssembly under Node: the same positions, depths and node counts as the
// native `reversi bench` (the signature pinned in crates/engine/tests/bench.rs), so that the
// browser's engine is known to search exactly as the native one.
// Usage: node apps/wasm/tests/bench.mjs REVERSI_WASM [EXPECTED_SIGNATURE]
// Prints each position and the nodes per second; exits 1 when the signature differs.
import { readFileSync } from "node:fs";

const [file, expected = "92165921"] = process.argv.slice(2);
if (!file) {
  console.error("usage: node bench.mjs REVERSI_WASM [EXPECTED_SIGNATURE]");
  process.exit(2);
}
let memory = null;
const decoder = new TextDecoder();
const text = (ptr, len) => decoder.decode(new Uint8Array(memory.buffer, ptr, len));
const { instance } = await WebAssembly.instantiate(readFileSync(file), {
  env: {
    now_ms: () => performance.now(),
    date_ms: () => Date.now(),
    report: (ptr, len) => {
      const p = JSON.parse(text(ptr, len));
      console.log(`${p.search.padEnd(9)} ${String(p.empties).padStart(2)} empties  score ${String(p.score).padStart(3)}  ${String(p.nodes).padStart(11)} nodes  ${p.ms.toFixed(0).padStart(6)} ms`);
    },
  },
});
const wasm = instance.exports;
memory = wasm.memory;

function call(request) {
  const bytes = new TextEncoder().encode(JSON.stringify(request));
  const ptr = wasm.alloc(bytes.length);
  new Uint8Array(memory.buffer, ptr, bytes.length).set(bytes);
  const len = wasm.call(ptr, bytes.length);
  const answer = JSON.parse(text(wasm.response_ptr(), len));
  wasm.dealloc(ptr, bytes.length);
  return answer;
}

const answer = call({ method: "bench" });
if (answer.error) {
  console.error("bench failed:", answer.error.message);
  process.exit(1);
}
const r = answer.ok;
console.log(`signature ${r.signature}  ${(r.ms / 1000).toFixed(2)} s  ${(r.nodes_per_second / 1e6).toFixed(2)} M nodes/s`);
if (String(r.signature) !== expected) {
  console.error(`the WebAssembly bench signature ${r.signature} differs from the native ${expected}`);
  process.exit(1);
}
console.log("the WebAssembly bench signature equals the native one");
