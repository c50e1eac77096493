#!/usr/bin/env node
// Load benchmark of `reversi serve` (a command, not a test): starts the server on a free port
// with a fresh database and its default limits, plays GAMES games through the JSON API,
// CONCURRENT at a time (a person playing the first legal square against a computer level),
// and prints the errors, the latency of the move requests (p50, p95, max), the server's memory
// (resident set) at the peak and after the games, and the machine's load average (before, as
// the games end, and at the end, after --settle and --victim). --watch has
// each game follow its event stream as a page does (one more connection a game). Optionally,
// while the games run, VICTIM mode measures how long a weak computer takes to answer while two
// level-60 hints run. --serve-args passes more options to `reversi serve` (quoted, split at
// spaces).
//
//   node scripts/bench-web.mjs [--bin target/release/reversi] [--games 200]
//        [--concurrent 200] [--level 1] [--watch] [--victim] [--settle SECONDS]
//        [--serve-args "--connections 1024"]
//
// Needs Node 18 or later (fetch). Linux only for the memory and load figures (/proc).

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// `--name value`, or `--name` alone for true; --serve-args always takes the next argument
// (which starts with -- itself).
const args = {};
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (!a.startsWith("--")) continue;
  const next = process.argv[i + 1];
  const takes = next !== undefined && (a === "--serve-args" || !next.startsWith("--"));
  args[a.slice(2)] = takes ? next : true;
  if (takes) i++;
}
const BIN = args.bin || "target/release/reversi";
const GAMES = Number(args.games || 200);
const CONCURRENT = Number(args.concurrent || GAMES);
const LEVEL = Number(args.level || 1);

function rssMiB(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
    return Math.round(Number(line.split(/\s+/)[1]) / 1024);
  } catch {
    return NaN;
  }
}

/** The 1, 5 and 15 minute load averages. */
function loadavg() {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "?";
  }
}

function pct(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const SERVE_ARGS = [
  "serve", "--addr", "127.0.0.1:0", "--db", "DB", "--no-admin-token",
  ...(typeof args["serve-args"] === "string" ? args["serve-args"].split(/\s+/).filter(Boolean) : []),
];

async function startServer(dir) {
  const child = spawn(
    BIN,
    SERVE_ARGS.map((a) => (a === "DB" ? join(dir, "games.sqlite3") : a)),
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/\S+\//);
      if (m) resolve(m[0].replace(/\/$/, ""));
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  return { child, url };
}

async function call(url, method, path, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers["x-player-token"] = token;
  const res = await fetch(url + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // A body that is not JSON is reported as an error below.
  }
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 120)}`);
  return json;
}

const latencies = [];
const errors = [];

/** Follows game `id`'s event stream, as a page does, until `signal` fires. */
async function watch(url, id, signal) {
  const res = await fetch(`${url}/api/games/${id}/events`, { signal });
  if (!res.ok) throw new Error(`GET /api/games/${id}/events: ${res.status} ${(await res.text()).slice(0, 120)}`);
  const reader = res.body.getReader();
  for (;;) {
    const { done } = await reader.read();
    if (done) return;
  }
}

/// One game: a person (Black) plays the first legal square, the computer answers.
async function playGame(url) {
  const created = await call(url, "POST", "/api/games", { black: "human", white: `ai:${LEVEL}` });
  let g = created.game;
  const token = created.token;
  const stop = new AbortController();
  const watching = args.watch
    ? watch(url, g.id, stop.signal).catch((e) => { if (e.name !== "AbortError") errors.push(e.message); })
    : null;
  try {
    await moves(url, g, token);
  } finally {
    stop.abort();
    await watching;
  }
}

async function moves(url, g, token) {
  while (!g.over) {
    if (!g.human_turn) {
      // A page would hear the reply on its event stream; polling stands in for it.
      await new Promise((r) => setTimeout(r, 100));
      g = await call(url, "GET", `/api/games/${g.id}`);
      continue;
    }
    const started = performance.now();
    g = await call(url, "POST", `/api/games/${g.id}/moves`, { square: g.legal[0] }, token);
    latencies.push(performance.now() - started);
  }
}

async function victim(url) {
  const busy = await call(url, "POST", "/api/games", { white: "human" });
  const hints = [1, 2].map(() =>
    call(url, "POST", `/api/games/${busy.game.id}/hints`, { level: 60 }).catch((e) => e),
  );
  await new Promise((r) => setTimeout(r, 500));
  const started = performance.now();
  const v = await call(url, "POST", "/api/games", { black: "ai:1", white: "human" });
  let g = v.game;
  while (!g.human_turn) {
    await new Promise((r) => setTimeout(r, 5));
    g = await call(url, "GET", `/api/games/${g.id}`);
  }
  const ms = performance.now() - started;
  await call(url, "DELETE", `/api/history/${busy.game.id}`);
  await Promise.all(hints);
  return ms;
}

const dir = mkdtempSync(join(tmpdir(), "reversi-bench-web-"));
const loadBefore = loadavg();
const { child, url } = await startServer(dir);
console.log(`server: ${BIN} ${SERVE_ARGS.join(" ").replace("DB", "<fresh database>")}`);
try {
  const idle = rssMiB(child.pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(child.pid))), 200);
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < GAMES) {
      next += 1;
      await playGame(url).catch((e) => errors.push(e.message));
    }
  };
  const victimMs = args.victim ? victim(url).catch((e) => e) : null;
  await Promise.all(Array.from({ length: Math.min(CONCURRENT, GAMES) }, worker));
  clearInterval(sampler);
  const loadEnd = loadavg();
  const seconds = (performance.now() - started) / 1000;
  const sorted = latencies.slice().sort((a, b) => a - b);
  const status = await call(url, "GET", "/api/server");
  console.log(`games: ${GAMES} (${CONCURRENT} at a time, a person against level ${LEVEL}` +
    `${args.watch ? ", each watched by its event stream" : ""}) in ${seconds.toFixed(1)} s`);
  console.log(`errors: ${errors.length}${errors.length ? " — first: " + errors[0] : ""}`);
  console.log(
    `move requests: ${sorted.length}, p50 ${pct(sorted, 50).toFixed(1)} ms, p95 ${pct(sorted, 95).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`,
  );
  console.log(`memory (RSS): ${idle} MiB at start, ${peak} MiB at the peak, ${rssMiB(child.pid)} MiB after the games`);
  console.log(`games still in memory right after: ${status.games_loaded}`);
  if (args.settle) {
    // Ended games leave memory a minute after they end (the history serves them).
    await new Promise((r) => setTimeout(r, Number(args.settle) * 1000));
    const later = await call(url, "GET", "/api/server");
    console.log(`after ${args.settle} s more: ${rssMiB(child.pid)} MiB, ${later.games_loaded} games in memory`);
  }
  if (victimMs) {
    const ms = await victimMs;
    console.log(`level 1's first move while two level-60 hints run: ${typeof ms === "number" ? ms.toFixed(0) + " ms" : ms}`);
  }
  console.log(
    `load average (1, 5, 15 min): ${loadBefore} before, ${loadEnd} as the games end, ${loadavg()} at the end`,
  );
} finally {
  child.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}
