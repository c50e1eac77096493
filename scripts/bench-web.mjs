#!/usr/bin/env node
// Load benchmark of `reversi serve` (a command, not a test): starts the server on a free port
// with a fresh database and its default limits, plays GAMES games through the JSON API,
// CONCURRENT at a time (a person playing the first legal square against a computer level),
// and prints:
// - the game creations (all CONCURRENT start at once: a burst) — p50, p95, max and when the
//   last was answered;
// - the move requests — how many a second (over the whole run, and sustained: between 10 % and
//   90 % of them answered), p50, p95, p99, max; how long the computer's replies took to be seen
//   and how many polls (GET /api/games/ID) that took;
// - the errors, and whether every game was stored exactly (its moves and result read back
//   from /api/history/ID after the run);
// - the CPU time of the server process (utime + stime from /proc/PID/stat, all its threads)
//   beside the benchmark's own (process.cpuUsage(): Node's thread, its GC and I/O threads),
//   each in seconds and in cores used (CPU seconds / wall seconds), and the machine's CPU split
//   (/proc/stat), so that a figure says whether the server or the client was the limit;
// - the server's memory (resident set) at the peak and after the games, and the machine's
//   load average (before, as the games end, and at the end, after --settle and --victim).
//
// --think-ms MEAN: each person thinks before each move, a random time drawn from an
// exponential distribution of that mean (0, the default: instant players, which measures
// saturation). --poll-ms: how often a person looks whether the computer has answered (100).
// --watch has each game follow its event stream as a page does (one more connection a game).
// --victim measures, while the games run, how long a weak computer takes to answer while two
// level-60 hints run. --serve-args passes more options to `reversi serve` (quoted, split at
// spaces).
//
//   node scripts/bench-web.mjs [--bin target/release/reversi] [--games 200]
//        [--concurrent 200] [--level 1] [--think-ms 0] [--poll-ms 100] [--watch] [--victim]
//        [--settle SECONDS] [--serve-args "--connections 1024"]
//
// Needs Node 18 or later (fetch). Linux only for the CPU, memory and load figures (/proc).

import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
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
const THINK_MS = Number(args["think-ms"] || 0);
const POLL_MS = Number(args["poll-ms"] || 100);
const CORES = cpus().length;

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

/** Clock ticks a second, the unit of /proc's CPU times. */
const TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Process `pid`'s CPU time so far (user + system, every thread), in seconds. */
function processCpu(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The fields after the command name (which is in parentheses and may hold spaces): the
    // first is field 3 (state), so utime (14) and stime (15) are the 12th and 13th.
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / TICKS;
  } catch {
    return NaN;
  }
}

/** The benchmark's own CPU time so far (user + system), in seconds. */
function clientCpu() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** The machine's CPU ticks so far by kind (/proc/stat's first line). */
function machineCpu() {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
      .split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    return { user, nice, system: system + irq + softirq, idle, iowait, steal };
  } catch {
    return null;
  }
}

function pct(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const ms = (x) => (Number.isFinite(x) ? x.toFixed(1) : "-");

/** A person's thinking time before a move: exponential with mean THINK_MS. */
function thinkTime() {
  return THINK_MS > 0 ? -THINK_MS * Math.log(1 - Math.random()) : 0;
}

const sleep = (t) => new Promise((r) => setTimeout(r, t));

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

const creations = []; // ms each
let lastCreated = NaN; // ms after the start, when the last game creation was answered
const latencies = []; // ms each move request took
const answeredAt = []; // ms after the start, when each move request was answered
const replyWaits = []; // ms from a move's answer to the computer's reply being seen
const errors = [];
let polls = 0; // GET /api/games/ID made while the computer was to move
const played = []; // { id, moves, result } as the client last saw each game that ended
let started = 0;

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
  const t = performance.now();
  const created = await call(url, "POST", "/api/games", { black: "human", white: `ai:${LEVEL}` });
  const now = performance.now();
  creations.push(now - t);
  lastCreated = Number.isFinite(lastCreated) ? Math.max(lastCreated, now - started) : now - started;
  let g = created.game;
  const token = created.token;
  const stop = new AbortController();
  const watching = args.watch
    ? watch(url, g.id, stop.signal).catch((e) => { if (e.name !== "AbortError") errors.push(e.message); })
    : null;
  try {
    g = await moves(url, g, token);
    played.push({ id: g.id, moves: g.moves, result: g.result });
  } finally {
    stop.abort();
    await watching;
  }
}

async function moves(url, g, token) {
  let waiting = null;
  while (!g.over) {
    if (!g.human_turn) {
      // A page would hear the reply on its event stream; polling stands in for it.
      waiting ??= performance.now();
      await sleep(POLL_MS);
      polls += 1;
      g = await call(url, "GET", `/api/games/${g.id}`);
      continue;
    }
    if (waiting !== null) replyWaits.push(performance.now() - waiting);
    waiting = null;
    await sleep(thinkTime());
    const t = performance.now();
    g = await call(url, "POST", `/api/games/${g.id}/moves`, { square: g.legal[0] }, token);
    const now = performance.now();
    latencies.push(now - t);
    answeredAt.push(now - started);
    if (!g.human_turn) waiting = now;
  }
  return g;
}

/** Reads every game played back from the history; returns the ones stored otherwise. */
async function checkStored(url) {
  const wrong = [];
  let next = 0;
  const worker = async () => {
    while (next < played.length) {
      const p = played[next++];
      try {
        const h = await call(url, "GET", `/api/history/${p.id}`);
        const same = JSON.stringify(h.moves) === JSON.stringify(p.moves) &&
          h.info.status === "finished" &&
          JSON.stringify(h.info.result) === JSON.stringify(p.result);
        if (!same) wrong.push(`game ${p.id}: ${h.info.status}, ${h.moves.length} moves stored, ${p.moves.length} played`);
      } catch (e) {
        wrong.push(`game ${p.id}: ${e.message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return wrong;
}

async function victim(url) {
  const busy = await call(url, "POST", "/api/games", { white: "human" });
  const hints = [1, 2].map(() =>
    call(url, "POST", `/api/games/${busy.game.id}/hints`, { level: 60 }).catch((e) => e),
  );
  await sleep(500);
  const t = performance.now();
  const v = await call(url, "POST", "/api/games", { black: "ai:1", white: "human" });
  let g = v.game;
  while (!g.human_turn) {
    await sleep(5);
    g = await call(url, "GET", `/api/games/${g.id}`);
  }
  const took = performance.now() - t;
  await call(url, "DELETE", `/api/history/${busy.game.id}`);
  await Promise.all(hints);
  return took;
}

const dir = mkdtempSync(join(tmpdir(), "reversi-bench-web-"));
const loadBefore = loadavg();
const { child, url } = await startServer(dir);
console.log(`server (pid ${child.pid}): ${BIN} ${SERVE_ARGS.join(" ").replace("DB", "<fresh database>")}`);
try {
  const idle = rssMiB(child.pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(child.pid))), 200);
  const serverCpu0 = processCpu(child.pid);
  const clientCpu0 = clientCpu();
  const machine0 = machineCpu();
  started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < GAMES) {
      next += 1;
      await playGame(url).catch((e) => errors.push(e.message));
    }
  };
  const victimMs = args.victim ? victim(url).catch((e) => e) : null;
  await Promise.all(Array.from({ length: Math.min(CONCURRENT, GAMES) }, worker));
  const seconds = (performance.now() - started) / 1000;
  const serverCpu = processCpu(child.pid) - serverCpu0;
  const ownCpu = clientCpu() - clientCpu0;
  const machine1 = machineCpu();
  clearInterval(sampler);
  const loadEnd = loadavg();
  const sorted = latencies.slice().sort((a, b) => a - b);
  const made = creations.slice().sort((a, b) => a - b);
  const waits = replyWaits.slice().sort((a, b) => a - b);
  const status = await call(url, "GET", "/api/server");
  console.log(`games: ${GAMES} (${CONCURRENT} at a time, a person against level ${LEVEL}` +
    `${THINK_MS > 0 ? `, thinking ${THINK_MS} ms a move on average (exponential)` : ", answering at once"}` +
    `${args.watch ? ", each watched by its event stream" : ""}) in ${seconds.toFixed(1)} s`);
  console.log(`errors: ${errors.length}${errors.length ? " — first: " + errors[0] : ""}`);
  console.log(
    `game creations: ${made.length}, p50 ${ms(pct(made, 50))} ms, p95 ${ms(pct(made, 95))} ms, ` +
      `max ${ms(made[made.length - 1])} ms; the last answered ${ms(lastCreated)} ms after the start`,
  );
  // Sustained: the rate while the run is in full swing, between the answers to the 10 % and the
  // 90 % move requests (leaving out the creations' burst and the last games' tail).
  const at = answeredAt.slice().sort((a, b) => a - b);
  const lo = at[Math.floor(at.length * 0.1)];
  const hi = at[Math.floor(at.length * 0.9)];
  const sustained = at.length >= 10 && hi > lo ? (Math.floor(at.length * 0.9) - Math.floor(at.length * 0.1)) / ((hi - lo) / 1000) : NaN;
  console.log(
    `move requests: ${sorted.length}, ${(sorted.length / seconds).toFixed(0)} a second over the run, ` +
      `${sustained.toFixed(0)} a second sustained (10 %-90 % answered); ` +
      `p50 ${ms(pct(sorted, 50))} ms, p95 ${ms(pct(sorted, 95))} ms, p99 ${ms(pct(sorted, 99))} ms, ` +
      `max ${ms(sorted[sorted.length - 1])} ms`,
  );
  console.log(
    `computer's replies seen (polled every ${POLL_MS} ms): ${waits.length}, p50 ${ms(pct(waits, 50))} ms, ` +
      `p95 ${ms(pct(waits, 95))} ms; ${polls} polls (GET /api/games/ID), ${(polls / seconds).toFixed(0)} a second`,
  );
  console.log(
    `CPU: server ${serverCpu.toFixed(1)} s (${(serverCpu / seconds).toFixed(2)} cores), ` +
      `benchmark client ${ownCpu.toFixed(1)} s (${(ownCpu / seconds).toFixed(2)} cores), ` +
      `over ${seconds.toFixed(1)} s on ${CORES} cores`,
  );
  if (machine0 && machine1) {
    const d = Object.fromEntries(Object.keys(machine0).map((k) => [k, machine1[k] - machine0[k]]));
    const total = Object.values(d).reduce((a, b) => a + b, 0) || 1;
    const share = (k) => `${((100 * d[k]) / total).toFixed(0)} %`;
    console.log(
      `machine CPU: user ${share("user")}, nice ${share("nice")} (background jobs at nice > 0), ` +
        `system ${share("system")}, iowait ${share("iowait")}, idle ${share("idle")}, steal ${share("steal")}`,
    );
  }
  console.log(`memory (RSS): ${idle} MiB at start, ${peak} MiB at the peak, ${rssMiB(child.pid)} MiB after the games`);
  console.log(`games still in memory right after: ${status.games_loaded}`);
  const wrong = await checkStored(url);
  console.log(
    `stored: ${played.length - wrong.length} of ${played.length} games finished read back from the ` +
      `history with the same moves and result${wrong.length ? " — first wrong: " + wrong[0] : ""}`,
  );
  if (args.settle) {
    // Ended games leave memory a minute after they end (the history serves them).
    await sleep(Number(args.settle) * 1000);
    const later = await call(url, "GET", "/api/server");
    console.log(`after ${args.settle} s more: ${rssMiB(child.pid)} MiB, ${later.games_loaded} games in memory`);
  }
  if (victimMs) {
    const took = await victimMs;
    console.log(`level 1's first move while two level-60 hints run: ${typeof took === "number" ? took.toFixed(0) + " ms" : took}`);
  }
  console.log(
    `load average (1, 5, 15 min): ${loadBefore} before, ${loadEnd} as the games end, ${loadavg()} at the end`,
  );
} finally {
  child.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}
