// Browser tests of the static site (scripts/build-web: the page with the engine compiled to
// WebAssembly, no server) in Debian's headless Chromium, driven by Playwright, served by
// `python3 -m http.server` on a free port.
//
// One command, from the repository's root (after `npm ci` in apps/reversi/tests/e2e):
//
//   REVERSI_WASM=target/wasm32-unknown-unknown/wasm/reversi_wasm.wasm node apps/reversi/tests/e2e/static.mjs
//
// REVERSI_SITE=DIR tests a site built already (else the script builds one into a new
// temporary folder with scripts/build-web, which compiles the engine with cargo unless
// REVERSI_WASM names it). SCREENSHOT_DIR (target/e2e-screenshots/static), CHROMIUM
// (/usr/bin/chromium), E2E_ONLY=WORDS|WORDS (the tests whose names contain them; the later
// tests use games the earlier ones played). Prints one line per test and the times measured; exits
// 1 on a failure.
import { createByScript, launchChromium, waitMoves } from "./common.mjs";
import { mkdirSync, mkdtempSync, readFileSync, cpSync, appendFileSync, rmSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { axeViolations } from "./axe.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "../../../..");
const SHOTS = process.env.SCREENSHOT_DIR || join(ROOT, "target/e2e-screenshots/static");
const TIMEOUT = 30000;
mkdirSync(SHOTS, { recursive: true });

// ---- the site and its server --------------------------------------------------------------

/** Builds the site into `dir` with scripts/build-web (its page files from `web`, its engine
 *  from `wasm`, when given). */
function buildSite(dir, { web, wasm } = {}) {
  const env = { ...process.env };
  if (web) env.REVERSI_WEB_DIR = web;
  if (wasm) env.REVERSI_WASM = wasm;
  const built = spawnSync(join(ROOT, "scripts/build-web"), [dir], { env, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`scripts/build-web failed:\n${built.stdout}\n${built.stderr}`);
  return built.stdout;
}

let SITE = process.env.REVERSI_SITE;
const ownSite = !SITE;
if (!SITE) {
  SITE = join(mkdtempSync(join(tmpdir(), "reversi-site-")), "site");
  process.stdout.write(buildSite(SITE));
}

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.on("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/** `python3 -m http.server` on `port`, serving the site; resolves once it answers. */
async function startServer(port) {
  const child = spawn("python3", ["-m", "http.server", String(port), "--bind", "127.0.0.1", "-d", SITE],
    { stdio: ["ignore", "ignore", "ignore"] });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return child;
    } catch (_) { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error("python3 -m http.server did not start");
}

function stopServer(child) {
  return new Promise((res) => {
    if (child.exitCode !== null || child.signalCode !== null) { res(); return; }
    child.once("exit", () => res());
    child.kill("SIGKILL");
  });
}

const PORT = await freePort();
const BASE = `http://127.0.0.1:${PORT}/`;
let server = await startServer(PORT);

const browser = await launchChromium();

// ---- helpers ------------------------------------------------------------------------------

const errors = []; // the pages' uncaught errors, checked after each test
const timings = {}; // what the tests measured, printed at the end

/** A browser context (its own storage, like another person's browser) and a page in it. */
async function newContext(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, ...options });
  context.setDefaultTimeout(TIMEOUT);
  return context;
}

async function newPage(context) {
  const page = await context.newPage();
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") console.log(`  console: ${m.text()}`); });
  page.on("dialog", (d) => d.accept());
  return page;
}

/** Opens the site at `hash` and waits until the engine has started (the levels are listed). */
async function open(page, hash = "#/new") {
  await page.goto(BASE + hash);
  await page.waitForFunction(() => document.querySelectorAll("select[name=white-level] option").length === 60);
}

const boardAttr = (page, name) => page.locator("#board").getAttribute(name);

async function untilMyTurnOrOver(page, timeout = TIMEOUT) {
  await page.waitForFunction(() => {
    const b = document.getElementById("board");
    return b.dataset.over === "true" || b.dataset.myTurn === "true";
  }, null, { timeout });
  return (await boardAttr(page, "data-over")) === "true";
}



/** Plays the first legal square every turn until the game ends; returns the moves clicked. */
async function playOut(page, timeout = TIMEOUT) {
  let clicks = 0;
  while (!(await untilMyTurnOrOver(page, timeout))) {
    const before = await boardAttr(page, "data-moves");
    await page.locator("#board .sq.legal").first().click();
    clicks++;
    await page.waitForFunction((m) => document.getElementById("board").dataset.moves !== m, before);
  }
  return clicks;
}

const state = {}; // games the tests share

/** The browser context the tests after the first game share (its history, its service
 *  worker): the one that game was played in, or a new one if that test failed. */
async function shared() {
  if (!state.context) state.context = await newContext();
  return state.context;
}

// ---- the tests ----------------------------------------------------------------------------

const tests = {
  async "the first visit: the engine starts and a game shows its legal moves"() {
    const context = await newContext();
    const page = await newPage(context);
    const t0 = Date.now();
    await open(page);
    const ready = Date.now() - t0;
    // What needs a server is not offered, and the page says where to get one.
    assert.equal(await page.locator("input[name=remote]").isVisible(), false);
    assert.equal(await page.locator("#server-note").isVisible(), true);
    assert.match(await page.locator("#server-note").textContent(), /Play with a server/);
    assert.equal(await page.locator("#notice").isHidden(), true);
    await page.screenshot({ path: `${SHOTS}/new-game.png` });
    // An app to install: its manifest.
    const manifest = await page.evaluate(async () =>
      (await fetch(document.querySelector('link[rel="manifest"]').href)).json());
    assert.equal(manifest.display, "standalone");
    assert.ok(manifest.icons.some((i) => i.src === "favicon.svg"), JSON.stringify(manifest.icons));
    const t1 = Date.now();
    await page.click("#start");
    await page.waitForFunction(() => document.querySelectorAll("#board .sq.legal").length === 4);
    const start = Date.now() - t1;
    timings["first visit: page opened to engine ready (levels listed), ms"] = ready;
    timings["first visit: Start game to legal moves shown, ms"] = start;
    timings["first visit: the two, without the test's own steps between, ms"] = ready + start;
    assert.equal(await page.locator("#board .sq.black, #board .sq.white").count(), 4);
    // The explorer counts this browser's games: none yet.
    await page.waitForFunction(() => document.querySelector("#explorer p").textContent !== "");
    assert.equal(await page.locator("#explorer").isVisible(), true);
    assert.equal(await page.locator("#explorer p").textContent(), "No stored game reached this position.");
    await page.screenshot({ path: `${SHOTS}/first-game.png` });
    await context.close();
  },

  async "a whole game against the computer, its record kept across a reload"() {
    const context = await newContext();
    const page = await newPage(context);
    await open(page);
    const id = await createByScript(page, { size: 8, rules: "othello", black: "human", white: "ai:1" });
    let clicks = 0;
    while (!(await untilMyTurnOrOver(page))) {
      const before = await boardAttr(page, "data-moves");
      await page.locator("#board .sq.legal").first().click();
      clicks++;
      await page.waitForFunction((m) => document.getElementById("board").dataset.moves !== m, before);
      if (clicks === 10) {
        await untilMyTurnOrOver(page);
        // One line on the search behind the computer's last move (checked by the next test).
        await page.waitForSelector("#think-last:not([hidden])");
        state.thinkLast = { text: await page.locator("#think-last").textContent(), moves: await boardAttr(page, "data-moves") };
        await page.waitForTimeout(600);
        await page.screenshot({ path: `${SHOTS}/midgame.png`, fullPage: true });
      }
    }
    assert.ok(clicks >= 10, `only ${clicks} moves were clicked`);
    await page.waitForSelector("#result:not([hidden])");
    assert.match(await page.locator("#result-text").textContent(), /^(Black wins|White wins|Draw) \d+-\d+$/);
    assert.equal(await page.locator("#save-error").isHidden(), true);
    state.fullGame = id;
    state.fullGameMoves = Number(await boardAttr(page, "data-moves"));
    await page.screenshot({ path: `${SHOTS}/game-over.png`, fullPage: true });
    // A game left half-way, then the page reloaded: both are in the history, and the
    // unfinished one opens where it was.
    const half = await createByScript(page, { size: 8, rules: "othello", black: "human", white: "ai:1" });
    await page.click('[data-square="f5"]');
    await waitMoves(page, 2);
    await page.reload();
    await page.waitForSelector("#game-view:not([hidden])");
    await waitMoves(page, 2);
    assert.equal(await page.locator("#save-error").isHidden(), true);
    await page.goto(BASE + "#/history");
    await page.waitForSelector(`#history-table tr[data-id="${id}"]`);
    assert.match(await page.locator(`#history-table tr[data-id="${id}"]`).textContent(), /\d+-\d+/);
    const row = page.locator(`#history-table tr[data-id="${half}"]`);
    assert.match(await row.textContent(), /in progress/);
    await row.locator("a.continue").click();
    await page.waitForSelector("#game-view:not([hidden])");
    await waitMoves(page, 2);
    await page.click("#board .sq.legal >> nth=0");
    await waitMoves(page, 4);
    await page.screenshot({ path: `${SHOTS}/history.png`, fullPage: true });
    // The context is kept: the history, replay and offline tests use it. (The page is not: one
    // tab at a time keeps the history.)
    await page.close();
    state.context = context;
  },

  async "the computer's last search is told as its own"() {
    assert.ok(state.thinkLast, "no game was played");
    // White's search, about White's move (the last one played, Black to move).
    assert.match(state.thinkLast.text, /^White (played [a-h][1-8]|passed)\. Its search: [^ ]+ for White /);
  },

  async "a second tab plays but does not save, and says so"() {
    const first = await newPage(await shared());
    await open(first);
    const second = await newPage(await shared());
    await open(second);
    await createByScript(second, { size: 6, rules: "othello", black: "human", white: "human" });
    await second.waitForSelector("#save-error:not([hidden])");
    assert.match(await second.locator("#save-error").textContent(), /open in another tab/);
    await second.goto(BASE + "#/history");
    await second.waitForSelector("#history-table tbody tr");
    await second.setInputFiles("#import-file", {
      name: "upload.txt", mimeType: "text/plain", buffer: Buffer.from("d3e3f6c5b5b6f3f2e2d2c1d1c3b4e1g3 B+4\n"),
    });
    await second.click("#import-form button[type=submit]");
    await second.waitForSelector("#error:not([hidden])");
    assert.match(await second.locator("#error").textContent(), /^Not saved: the page is open in another tab/);
    await second.close();
    // The first tab's games are saved as before.
    await createByScript(first, { size: 6, rules: "othello", black: "human", white: "human" });
    assert.equal(await first.locator("#save-error").isHidden(), true);
    await first.close();
  },

  async "hints show every legal move's score; undo and redo"() {
    const page = await newPage(await shared());
    await open(page);
    await createByScript(page, { size: 8, rules: "othello", black: "human", white: "ai:1" });
    await page.click('[data-square="f5"]');
    await waitMoves(page, 2);
    await untilMyTurnOrOver(page);
    const legal = await page.locator("#board .sq.legal").count();
    await page.selectOption("#hint-level", "4");
    await page.click("#hint");
    await page.waitForFunction((n) => document.querySelectorAll("#board .sq.hinted").length === n, legal);
    for (const sq of await page.locator("#board .sq.hinted").all()) {
      assert.match(await sq.locator(".hint-score").textContent(), /^(<=)?[+-]\d+$/);
      // (The opening book's moves are labelled so.)
      assert.match(await sq.locator(".hint-kind").textContent(), /^(exact|depth \d+|book)$/);
    }
    await page.waitForTimeout(600);
    await page.screenshot({ path: `${SHOTS}/hints.png`, fullPage: true });
    // A hint cancelled: its worker stops, and the next hint still answers.
    await page.selectOption("#hint-level", "60");
    await page.click("#hint");
    await page.waitForSelector("#hint-cancel:not([hidden])");
    await page.click("#hint-cancel");
    await page.waitForFunction(() => document.getElementById("hint-status").textContent === "Cancelled.");
    await page.selectOption("#hint-level", "2");
    await page.keyboard.press("h");
    await page.waitForFunction((n) => document.querySelectorAll("#board .sq.hinted").length === n, legal);
    // Undo and redo, by button and by key.
    await page.click("#undo");
    await waitMoves(page, 0);
    assert.equal(await page.locator('[data-square="f5"]').getAttribute("aria-label"), "f5, empty, legal move");
    await page.click("#redo");
    await waitMoves(page, 2);
    await page.keyboard.press("u");
    await waitMoves(page, 0);
    await page.keyboard.press("r");
    await waitMoves(page, 2);
    await page.close();
  },

  async "the move sound: off at first, its switch kept across a reload, a click for each disc placed"() {
    const page = await newPage(await shared());
    await open(page);
    await createByScript(page, { size: 8, rules: "othello", black: "human", white: "ai:1" });
    const sound = () => page.evaluate(() => app.sound);
    const box = page.locator("#move-sound");
    assert.equal(await box.isChecked(), false);
    assert.equal((await page.locator("label:has(#move-sound)").textContent()).trim(), "Click sound when a disc is placed");
    // Off: moves make no sound, and no audio context is made.
    await page.click('[data-square="f5"]');
    await waitMoves(page, 2);
    await untilMyTurnOrOver(page);
    assert.deepEqual(await sound(), { on: false, played: 0, context: null });
    // Switched on from the keyboard: one click, to hear what it is.
    await page.locator("#game-image").focus();
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement.id), "move-sound");
    await page.keyboard.press("Space");
    assert.equal(await box.isChecked(), true);
    const first = await sound();
    assert.equal(first.on, true);
    assert.equal(first.played, 1);
    assert.notEqual(first.context, null);
    // Kept across a reload; a move and the computer's reply: a click each.
    await page.reload();
    await page.waitForSelector("#game-view:not([hidden])");
    await waitMoves(page, 2);
    assert.equal(await box.isChecked(), true);
    await untilMyTurnOrOver(page);
    await page.locator("#board .sq.legal").first().click();
    await page.waitForFunction(() => app.sound.played >= 2 || document.getElementById("board").dataset.over === "true");
    const after = await sound();
    assert.equal(after.played, 2, JSON.stringify(after));
    assert.notEqual(after.context, null);
    timings["move sound: the audio context's state after two clicks"] = after.context;
    // Off again, and kept off.
    await box.click();
    assert.equal(await page.evaluate(() => localStorage.getItem("reversi-move-sound")), "off");
    await page.close();
  },

  async "the replay of a stored game: slider, keys, analysis, a variation kept"() {
    const page = await newPage(await shared());
    await open(page, `#/replay/${state.fullGame}`);
    await page.waitForSelector("#replay-view:not([hidden])");
    const max = Number(await page.locator("#replay-slider").getAttribute("max"));
    assert.equal(max, state.fullGameMoves);
    await page.locator("#replay-slider").fill("0");
    assert.equal(await page.locator("#replay-board .sq.black, #replay-board .sq.white").count(), 4);
    await page.locator("h2#replay-title").click();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    assert.equal(await page.locator("#replay-board").getAttribute("data-index"), "2");
    assert.match(await page.locator("#replay-opening").textContent(), /^Opening: /);
    // The analysis runs in the worker, telling its progress.
    await page.evaluate(() => {
      window.statuses = [];
      const el = document.getElementById("analysis-status");
      new MutationObserver(() => window.statuses.push(el.textContent)).observe(el, { childList: true, characterData: true, subtree: true });
    });
    await page.selectOption("#analysis-level", "2");
    await page.click("#analyze");
    await page.waitForFunction(() => /^Analysed at level 2\./.test(document.getElementById("analysis-status").textContent),
      null, { timeout: 120000 });
    assert.equal(await page.locator("#graph .point").count(), max + 1);
    const statuses = await page.evaluate(() => window.statuses);
    assert.ok(statuses.some((t) => /^Analysing at level 2… \(\d+ of \d+ positions\)$/.test(t)), statuses.join(" | "));
    await page.screenshot({ path: `${SHOTS}/analysis.png`, fullPage: true });
    // Another move at move 2: a variation, stored at once (it is there after a reload).
    await page.locator("#replay-slider").fill("2");
    const played = await page.locator("#replay-board").evaluate((b) =>
      [...b.querySelectorAll(".sq.legal")].map((s) => s.dataset.square));
    const main = await page.locator("#replay-moves li").nth(2).textContent();
    const other = played.find((sq) => !main.startsWith(sq));
    await page.click(`#replay-board [data-square="${other}"]`);
    await page.waitForFunction(() => document.getElementById("replay-lines").children.length === 2);
    await page.reload();
    await page.waitForSelector("#replay-view:not([hidden])");
    await page.waitForFunction(() => document.getElementById("replay-lines").children.length === 2);
    await page.close();
  },

  async "axe-core finds no WCAG A or AA violation on the main views, light and dark"() {
    const page = await newPage(await shared());
    for (const colorScheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme });
      const check = async (view) => {
        const found = await axeViolations(page);
        assert.deepEqual(found, [], `${colorScheme} ${view}:\n${found.join("\n")}`);
      };
      await open(page);
      await check("new game");
      // A game in progress: a move, the computer's reply, hints on the board, the explorer.
      await createByScript(page, { size: 8, rules: "othello", black: "human", white: "ai:1" });
      await page.click('[data-square="f5"]');
      await waitMoves(page, 2);
      await untilMyTurnOrOver(page);
      await page.selectOption("#hint-level", "2");
      await page.click("#hint");
      await page.waitForSelector("#board .sq.hinted");
      await page.waitForFunction(() => document.querySelector("#explorer p").textContent !== "");
      await check("game with hints");
      await page.goto(BASE + "#/history");
      await page.waitForSelector("#history-table tbody tr");
      await check("history");
      // A replay, with its explorer.
      const id = state.fullGame || Number(await page.locator("#history-table tbody tr").first().getAttribute("data-id"));
      await page.goto(BASE + `#/replay/${id}`);
      await page.waitForSelector("#replay-view:not([hidden])");
      await page.locator("#replay-slider").fill("1");
      await page.waitForFunction(() => document.querySelector("#replay-explorer p").textContent !== "");
      await check("replay");
    }
    await page.close();
  },

  async "GGF export (a download) and import"() {
    const page = await newPage(await shared());
    await open(page, "#/history");
    const row = page.locator(`#history-table tr[data-id="${state.fullGame}"]`);
    await row.waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), row.locator("a", { hasText: "GGF" }).click()]);
    assert.equal(download.suggestedFilename(), `reversi-game-${state.fullGame}.ggf`);
    const ggf = readFileSync(await download.path(), "utf8");
    assert.match(ggf, /^\(;GM\[Othello\]/);
    // The game exported, imported again: a duplicate, skipped. A transcript: added.
    await page.setInputFiles("#import-file", { name: "again.ggf", mimeType: "text/plain", buffer: Buffer.from(ggf) });
    await page.click("#import-form button[type=submit]");
    await page.waitForFunction(() => /0 added, 1 skipped/.test(document.getElementById("import-status").textContent));
    const before = await page.locator("#history-table tbody tr").count();
    await page.setInputFiles("#import-file", {
      name: "upload.txt", mimeType: "text/plain", buffer: Buffer.from("d3e3f6c5b5b6f3f2e2d2c1d1c3b4e1g3 B+4\n"),
    });
    await page.click("#import-form button[type=submit]");
    await page.waitForFunction(() => /1 added/.test(document.getElementById("import-status").textContent));
    await page.waitForFunction((n) => document.querySelectorAll("#history-table tbody tr").length === n + 1, before);
    // Deleted, and gone after a reload too.
    const ids = await page.locator("#history-table tbody tr").evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.id)));
    const imported = Math.max(...ids);
    await page.locator(`#history-table tr[data-id="${imported}"] button.delete`).click();
    await page.waitForFunction((n) => document.querySelectorAll("#history-table tbody tr").length === n, before);
    await page.reload();
    await page.waitForSelector("#history-table tbody tr");
    assert.equal(await page.locator(`#history-table tr[data-id="${imported}"]`).count(), 0);
    assert.equal(await page.locator("#history-table tbody tr").count(), before);
    await page.screenshot({ path: `${SHOTS}/history-after-import.png`, fullPage: true });
    await page.close();
  },

  async "the opening explorer: this browser's finished games from a position, each move valued"() {
    // A browser of its own, so that its games are these alone; its stopped search workers
    // counted.
    const context = await newContext();
    await context.addInitScript(() => {
      window.workersStopped = 0;
      const terminate = Worker.prototype.terminate;
      Worker.prototype.terminate = function () {
        window.workersStopped++;
        return terminate.call(this);
      };
    });
    const page = await newPage(context);
    await open(page, "#/history");
    await page.waitForSelector("#history-view:not([hidden])");
    // Three short games with their scores: two from f5, one from e6 (f5's mirror image). The
    // last leaves the opening book after three moves.
    await page.setInputFiles("#import-file", {
      name: "openings.txt", mimeType: "text/plain",
      buffer: Buffer.from("f5d6c3d3c4 37-27\nf5f6 32-32\ne6f6g6g7g8h8 40-24\n"),
    });
    await page.click("#import-form button[type=submit]");
    await page.waitForFunction(() => /3 added/.test(document.getElementById("import-status").textContent));
    await page.waitForFunction(() => document.querySelectorAll("#history-table tbody tr").length === 3);
    const ids = (await page.locator("#history-table tbody tr").evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.id))))
      .sort((a, b) => a - b);
    /** The explorer's table beside board `view`: [move, games, black wins, draws, margin, value]. */
    const table = (view) => page.locator(`#${view} tbody tr`).evaluateAll((trs) =>
      trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    const valued = (rows) => rows.every((r) => /^(<=)?[+-]\d+ \((book|exact|depth \d+)\)$/.test(r[5]));
    // The game view, at the start: the three games.
    await createByScript(page, { size: 8, rules: "othello", black: "human", white: "human" });
    await page.waitForFunction(() => /^3 stored games/.test(document.querySelector("#explorer p").textContent));
    assert.equal(await page.locator("#explorer p").textContent(),
      "3 stored games reached this position (in any orientation).");
    let rows = await table("explorer");
    assert.equal(rows.reduce((n, r) => n + Number(r[1]), 0), 3, JSON.stringify(rows));
    assert.ok(valued(rows), JSON.stringify(rows));
    // The replay of the first game after f5: d6 (one game) and f6 (two, one of them mirrored),
    // the book's values.
    await page.goto(BASE + `#/replay/${ids[0]}`);
    await page.waitForSelector("#replay-view:not([hidden])");
    assert.equal(await page.locator("#replay-slider").getAttribute("max"), "5");
    await page.locator("#replay-slider").fill("1");
    await page.waitForFunction(() => document.querySelectorAll("#replay-explorer tbody tr").length === 2);
    rows = (await table("replay-explorer")).sort();
    assert.deepEqual(rows.map((r) => r.slice(0, 2)), [["d6", "1"], ["f6", "2"]]);
    assert.deepEqual(rows.map((r) => r[4]), ["+10.0", "+8.0"]);
    assert.ok(valued(rows), JSON.stringify(rows));
    await page.screenshot({ path: `${SHOTS}/explorer.png`, fullPage: true });
    // The third game out of the book: stepped through at once, each position's search stops
    // when the next position is shown, and the last is valued by a search.
    await page.goto(BASE + `#/replay/${ids[2]}`);
    await page.waitForSelector("#replay-view:not([hidden])");
    assert.equal(await page.locator("#replay-slider").getAttribute("max"), "6");
    await page.locator("h2#replay-title").click();
    await page.keyboard.press("Home");
    for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowRight");
    assert.equal(await page.locator("#replay-board").getAttribute("data-index"), "5");
    await page.waitForFunction(() => {
      const tr = document.querySelector("#replay-explorer tbody tr");
      return tr && tr.firstElementChild.textContent === "h8" && tr.lastElementChild.textContent !== "";
    });
    rows = await table("replay-explorer");
    assert.equal(rows.length, 1, JSON.stringify(rows));
    assert.equal(rows[0][1], "1");
    assert.match(rows[0][5], /^[+-]\d+ \(depth \d+\)$/);
    assert.equal(await page.locator("#replay-explorer p").textContent(),
      "1 stored game reached this position (in any orientation).");
    // The searches of moves 3 and 4 (out of the book) were stopped by the next position.
    assert.ok(await page.evaluate(() => window.workersStopped) >= 2,
      `${await page.evaluate(() => window.workersStopped)} search workers stopped`);
    await page.screenshot({ path: `${SHOTS}/explorer-searched.png`, fullPage: true });
    await context.close();
  },

  async "a timed game: the clocks run and a side loses on time"() {
    const page = await newPage(await shared());
    await open(page);
    await createByScript(page, { size: 8, rules: "othello", black: "human", white: "ai:1", clock: "1m" });
    await page.waitForSelector("#clocks:not([hidden])");
    assert.match(await page.locator("#clocks").textContent(), /Black (1:00|0:5\d) +White 1:00 \(1m each\)/);
    assert.equal(await page.locator("#clocks .clock.running").getAttribute("data-side"), "black");
    await createByScript(page, { size: 8, rules: "othello", black: "human", white: "ai:1", clock: "2s" });
    await page.waitForSelector("#result:not([hidden])", { timeout: 10000 });
    assert.equal(await page.locator("#result-text").textContent(), "Black's time ran out. White wins on time");
    await page.close();
  },

  async "the position editor reads, checks and analyses positions, and plays from one"() {
    const page = await newPage(await shared());
    await open(page, "#/editor");
    await page.waitForFunction(() => /4 legal moves/.test(document.getElementById("editor-status").textContent));
    await page.click("#editor-clear");
    await page.waitForFunction(() => !document.getElementById("editor-problem").hidden);
    assert.match(await page.locator("#editor-problem").textContent(), /centre squares are never empty/);
    await page.fill("#editor-paste", "f5d6c3");
    await page.click("#editor-paste-form button[type=submit]");
    await page.waitForFunction(() => document.getElementById("editor-problem").hidden &&
      /White to move/.test(document.getElementById("editor-status").textContent));
    assert.equal(await page.locator("#editor-board").getAttribute("data-position"),
      "------------------X--------XX------OXX-----O-------------------- O");
    // Every legal move scored, in the search worker.
    await page.selectOption("#editor-analysis-level", "2");
    await page.click("#editor-analyze");
    await page.waitForFunction(() => /scored at level 2/.test(document.getElementById("editor-analysis-status").textContent));
    const legal = await page.locator("#editor-board .sq.legal").count();
    assert.equal(await page.locator("#editor-analysis tbody tr").count(), legal);
    await page.screenshot({ path: `${SHOTS}/editor.png`, fullPage: true });
    // The picture of the board: an SVG with its discs, drawn in the browser.
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#editor-image")]);
    const svg = readFileSync(await download.path(), "utf8");
    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.equal((svg.match(/class="disc black"/g) || []).length, 5);
    assert.equal((svg.match(/class="disc white"/g) || []).length, 2);
    // Play from here: White (to move) against the computer as Black.
    await page.selectOption("#editor-black", "computer");
    await page.selectOption("#editor-white", "human");
    await page.selectOption("#editor-level", "1");
    await page.click("#editor-play");
    await page.waitForSelector("#game-view:not([hidden])");
    await untilMyTurnOrOver(page);
    assert.equal(await boardAttr(page, "data-turn"), "white");
    assert.equal(await page.locator("#board .sq.black, #board .sq.white").count(), 7);
    await page.close();
  },

  async "a level-10 reply, timed"() {
    const page = await newPage(await shared());
    await open(page);
    // From a middle game out of the opening book (16 moves played): searched replies.
    await createByScript(page, { size: 8, rules: "othello", black: "human", white: "ai:10",
      position: "d3e3f6c5b5b6f3f2e2d2c1d1c3b4e1g3" });
    const replies = [];
    for (let i = 0; i < 4; i++) {
      await untilMyTurnOrOver(page);
      const n = Number(await boardAttr(page, "data-moves"));
      const t = Date.now();
      await page.locator("#board .sq.legal").first().click();
      await page.waitForFunction((m) => {
        const b = document.getElementById("board");
        return Number(b.dataset.moves) >= m + 2 || b.dataset.over === "true";
      }, n, { timeout: 60000 });
      replies.push(Date.now() - t);
    }
    timings["level-10 replies, 8x8 middle game, 4 moves (ms each)"] = replies.join(", ");
    await page.close();
  },

  async "a 6x6 game against perfect play (level 60): the computer wins or draws"() {
    const page = await newPage(await shared());
    await open(page);
    await createByScript(page, { size: 6, rules: "othello", black: "human", white: "ai:60" });
    const t = Date.now();
    await playOut(page, 120000);
    timings["6x6 against level 60, whole game (ms)"] = Date.now() - t;
    const text = await page.locator("#result-text").textContent();
    assert.match(text, /^(White wins|Draw) \d+-\d+$/, text);
    await page.screenshot({ path: `${SHOTS}/perfect-6x6.png`, fullPage: true });
    await page.close();
  },

  async "the page answers at once while a long search runs in the worker; undo stops it"() {
    const page = await newPage(await shared());
    await open(page);
    // Level 60 thinks about Black's first move on 10x10 (no book) for its whole time, 10 s.
    await createByScript(page, { size: 10, rules: "othello", black: "ai:60", white: "human" });
    await page.waitForSelector("#think-live:not([hidden])");
    assert.equal(await boardAttr(page, "data-thinking"), "true");
    // Keys pressed while it thinks: how long each waited for its handler (the event's own
    // time to the handler), and any long task on the page's thread meanwhile.
    await page.evaluate(() => {
      window.delays = [];
      window.longTasks = [];
      document.addEventListener("keydown", (e) => window.delays.push(performance.now() - e.timeStamp));
      new PerformanceObserver((list) => {
        for (const t of list.getEntries()) window.longTasks.push(t.duration);
      }).observe({ type: "longtask" });
    });
    for (let i = 0; i < 10; i++) {
      const t = Date.now();
      await page.keyboard.press("l");
      await page.waitForFunction((k) => window.delays.length === k, i + 1);
      await page.waitForTimeout(Math.max(0, 200 - (Date.now() - t)));
    }
    const { delays, longTasks, thinking } = await page.evaluate(() => ({
      delays: window.delays, longTasks: window.longTasks,
      thinking: document.getElementById("board").dataset.thinking,
    }));
    assert.equal(thinking, "true", "the search ended before the keys were pressed");
    const worst = Math.max(...delays);
    timings["key handler delay while level 60 thinks (worst of 10, ms)"] = worst.toFixed(1);
    assert.ok(worst < 100, `a key waited ${worst} ms`);
    assert.deepEqual(longTasks.filter((d) => d >= 100), []);
    // Leaving the game stops its search; coming back starts it again.
    await page.goto(BASE + "#/new");
    await page.goto(page.url().replace("#/new", `#/game/${await page.evaluate(() => app.gameId)}`));
    await page.waitForSelector("#think-live:not([hidden])");
    await page.close();
    // Against level 60 as White: a move, then undo while it thinks: the search is dropped
    // and the board is back at once.
    const p2 = await newPage(await shared());
    await open(p2);
    await createByScript(p2, { size: 10, rules: "othello", black: "human", white: "ai:60" });
    await p2.click("#board .sq.legal >> nth=0");
    await p2.waitForSelector("#think-live:not([hidden])");
    const t = Date.now();
    await p2.click("#undo");
    await waitMoves(p2, 0);
    assert.equal(await p2.locator("#board").getAttribute("data-thinking"), "false");
    timings["undo while level 60 thinks, to the board back (ms)"] = Date.now() - t;
    assert.ok(Date.now() - t < 2000, `undo took ${Date.now() - t} ms`);
    assert.equal(await p2.locator("#thinking").isHidden(), true);
    // The next move is searched by the fresh worker.
    await p2.click("#board .sq.legal >> nth=1");
    await p2.waitForSelector("#think-live:not([hidden])");
    await p2.close();
  },

  async "offline: after the first visit, a reload with no network still plays"() {
    const page = await newPage(await shared());
    await open(page);
    // The service worker has the site.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((r) => navigator.serviceWorker.addEventListener("controllerchange", r, { once: true }));
      }
    });
    await (await shared()).setOffline(true);
    await stopServer(server);
    try {
      const t = Date.now();
      await page.reload();
      await page.waitForFunction(() => document.querySelectorAll("select[name=white-level] option").length === 60);
      timings["offline reload: engine ready (ms)"] = Date.now() - t;
      await createByScript(page, { size: 8, rules: "othello", black: "human", white: "ai:3" });
      await page.click('[data-square="f5"]');
      await waitMoves(page, 2);
      await page.goto(BASE + `#/replay/${state.fullGame}`);
      await page.waitForSelector("#replay-view:not([hidden])");
      await page.screenshot({ path: `${SHOTS}/offline.png`, fullPage: true });
    } finally {
      await (await shared()).setOffline(false);
      server = await startServer(PORT);
    }
    await page.close();
  },

  async "a new build replaces the old cache"() {
    // (It builds the site again: not a site it was given.)
    if (!ownSite) return;
    const page = await newPage(await shared());
    await open(page);
    const before = await page.evaluate(() => caches.keys());
    // The same page with a changed style sheet: a new version.
    const tmp = mkdtempSync(join(tmpdir(), "reversi-web-"));
    const web = join(tmp, "web");
    cpSync(process.env.REVERSI_WEB_DIR || join(ROOT, "apps/reversi/web"), web, { recursive: true });
    appendFileSync(join(web, "style.css"), "\n/* another build */\n");
    cpSync(join(SITE, "reversi.wasm"), join(tmp, "reversi.wasm"));
    try {
      buildSite(SITE, { web, wasm: join(tmp, "reversi.wasm") });
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    await page.reload();
    // Ask for the update check a navigation makes anyway: after the offline test the browser
    // may wait before it looks at sw.js again.
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      if (registration) await registration.update().catch(() => {});
    });
    await page.waitForFunction(
      () => /new version/.test(document.getElementById("notice").textContent),
      null,
      { timeout: 60000 },
    );
    // (The new worker controls the page before its activation has deleted the old cache.)
    await page.waitForFunction(async () => (await caches.keys()).length === 1);
    const after = await page.evaluate(() => caches.keys());
    assert.notDeepEqual(after, before);
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll("select[name=white-level] option").length === 60);
    const css = await page.evaluate(() => fetch("style.css").then((r) => r.text()));
    assert.match(css, /another build/);
    await page.close();
  },
};

// ---- running them -------------------------------------------------------------------------

let failed = 0;
let ran = 0;
const started = Date.now();
const only = process.env.E2E_ONLY;
for (const [name, run] of Object.entries(tests)) {
  if (only && !only.split("|").some((words) => name.includes(words))) continue;
  ran++;
  const t0 = Date.now();
  errors.length = 0;
  try {
    await run();
    assert.deepEqual(errors, [], "errors on the page");
    console.log(`ok - ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAILED - ${name} (${Date.now() - t0} ms)\n${e.stack || e}`);
  }
}
if (state.context) await state.context.close();
await browser.close();
await stopServer(server);
for (const [what, value] of Object.entries(timings)) console.log(`time: ${what}: ${value}`);
console.log(`${ran - failed} passed, ${failed} failed in ${Date.now() - started} ms`);
process.exit(failed ? 1 : 0);
