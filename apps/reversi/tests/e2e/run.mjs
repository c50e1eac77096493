// Browser tests of `reversi serve`'s page in Debian's headless Chromium, driven by Playwright.
// Run by tests/web_e2e.rs (cargo test) against a fresh server: REVERSI_URL is its address,
// SCREENSHOT_DIR where the screenshots go, REVERSI_BIN the program (for the tests that start
// and stop a server of their own). Prints one line per test; exits 1 on a failure.
import { createByScript, launchChromium, waitMoves } from "./common.mjs";
import { mkdirSync, mkdtempSync } from "node:fs";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { tmpdir } from "node:os";
import { join } from "node:path";
import assert from "node:assert/strict";
import { axeViolations } from "./axe.mjs";

const BASE = process.env.REVERSI_URL;
const SHOTS = process.env.SCREENSHOT_DIR || "screenshots";
if (!BASE) {
  console.error("REVERSI_URL is not set");
  process.exit(2);
}
mkdirSync(SHOTS, { recursive: true });

const browser = await launchChromium();

const TIMEOUT = 20000;
const BIN = process.env.REVERSI_BIN;
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** Starts `reversi serve` (for the tests that need a server of their own); resolves to { url, child } once it listens. */
function startServer(args, env = {}) {
  // REVERSI_WEB_DIR: serve the page's files from that folder (`--web-dir`), as the server the
  // script was given may, so that an edited page is tested without a rebuild.
  const webDir = process.env.REVERSI_WEB_DIR ? ["--web-dir", process.env.REVERSI_WEB_DIR] : [];
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, ["serve", "--no-book", ...webDir, ...args],
      { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } });
    child.on("error", reject);
    const lines = createInterface({ input: child.stdout });
    lines.once("line", (line) => {
      const url = line.split(/\s+/).find((w) => w.startsWith("http://"));
      if (url) resolve({ url, child }); else reject(new Error("no URL in: " + line));
    });
    // Keep reading, so that the server never blocks on a full pipe.
    lines.on("line", () => {});
  });
}

function stopServer(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) { resolve(); return; }
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}


/** Boxes of the visible elements matching `selector` that are smaller than 44x44 CSS px. */
async function smallTargets(page, selector) {
  return page.locator(selector).evaluateAll((els) => els
    .filter((el) => el.offsetParent !== null && getComputedStyle(el).visibility !== "hidden")
    .map((el) => ({ el: el.id || el.textContent.trim().slice(0, 20), r: el.getBoundingClientRect() }))
    .filter(({ r }) => r.width < 44 || r.height < 44)
    .map(({ el, r }) => `${el} ${Math.round(r.width)}x${Math.round(r.height)}`));
}

async function newPage(options = {}) {
  // A desktop screen, 1280x900, unless told otherwise.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  context.setDefaultTimeout(TIMEOUT);
  const page = await context.newPage();
  page.on("pageerror", (e) => { throw new Error("page error: " + e.message); });
  page.on("dialog", (d) => d.accept());
  return page;
}

const boardAttr = (page, name) => page.locator("#board").getAttribute(name);

/** Waits until this browser may move or the game is over; true when over. */
async function untilMyTurnOrOver(page) {
  await page.waitForFunction(() => {
    const b = document.getElementById("board");
    return b.dataset.over === "true" || b.dataset.myTurn === "true";
  });
  return (await boardAttr(page, "data-over")) === "true";
}


/** Starts a game from the new-game form. */
async function startGame(page, { size = "8", black = "human", white = "computer", whiteLevel = "1", remote = false }) {
  await page.goto(BASE + "#/new");
  await page.selectOption("select[name=size]", size);
  await page.selectOption("select[name=black]", black);
  await page.selectOption("select[name=white]", white);
  // The level is shown (and chosen) for a computer side only.
  if (white === "computer") await page.selectOption("select[name=white-level]", whiteLevel);
  if (remote) await page.check("input[name=remote]");
  await page.click("#start");
  await page.waitForSelector("#game-view:not([hidden])");
  await page.waitForFunction(() => document.getElementById("board").dataset.moves !== undefined);
  return Number(page.url().split("/").pop());
}

const state = {};

const tests = {
  async "a full game against the computer by clicking, with its end and play again"() {
    const page = await newPage();
    state.fullGame = await startGame(page, { whiteLevel: "1" });
    const label = await page.locator('[data-square="f5"]').getAttribute("aria-label");
    assert.equal(label, "f5, empty, legal move");
    assert.equal(await page.locator('[data-square="d4"]').getAttribute("aria-label"), "d4, white");
    let clicks = 0;
    while (!(await untilMyTurnOrOver(page))) {
      const before = await boardAttr(page, "data-moves");
      await page.locator("#board .sq.legal").first().click();
      clicks++;
      await page.waitForFunction((m) => document.getElementById("board").dataset.moves !== m, before);
      if (clicks === 14) {
        await untilMyTurnOrOver(page);
        // The last-move marker and one line on the search that chose the computer's move are
        // on show mid-game (the figures of a search only while it runs).
        assert.equal(await page.locator("#board .sq.last").count(), 1);
        await page.waitForSelector("#think-last:not([hidden])");
        assert.equal(await page.locator("#thinking-title").textContent(), "Computer's last search");
        assert.match(await page.locator("#think-last").textContent(),
          /^White (played [a-h][1-8]|passed)\. Its search: (<=)?[+-]\d+ for White \([^)]+\)(, line [^,]+)?(, [\d,]+ nodes)?(\.|[^.]…)$/);
        // A line cut short ends in "…", with no full stop after it.
        assert.doesNotMatch(await page.locator("#think-last").textContent(), /…\.$/);
        assert.equal(await page.locator("#think-live").isHidden(), true);
        await page.waitForTimeout(600); // let the flips finish
        await page.screenshot({ path: `${SHOTS}/board-midgame.png`, fullPage: true });
      }
    }
    assert.ok(clicks >= 10, `only ${clicks} moves were clicked`);
    await page.waitForSelector("#result:not([hidden])");
    const text = await page.locator("#result-text").textContent();
    assert.match(text, /^(Black wins|White wins|Draw) \d+-\d+$/);
    await page.waitForFunction(() => /Game over/.test(document.getElementById("announce").textContent));
    // The computer's last search is not left on show once the game is over.
    assert.equal(await page.locator("#thinking").isHidden(), true);
    // A finished game offers its replay and its analysis besides another game.
    assert.equal(await page.locator("#result-replay").getAttribute("href"), `#/replay/${state.fullGame}`);
    assert.equal(await page.locator("#result-analyse").getAttribute("href"), `#/replay/${state.fullGame}/analyse`);
    const b = await page.locator("#board .sq.black").count();
    const w = await page.locator("#board .sq.white").count();
    const counts = (await page.locator("#counts").textContent()).match(/Black (\d+)\s+White (\d+)/);
    assert.deepEqual([Number(counts[1]), Number(counts[2])], [b, w]);
    state.fullGameMoves = Number(await boardAttr(page, "data-moves"));
    await page.waitForTimeout(600);
    await page.screenshot({ path: `${SHOTS}/board-end.png`, fullPage: true });
    await page.click("#again");
    await page.waitForFunction((id) => !location.hash.endsWith("/" + id), state.fullGame);
    await waitMoves(page, 0);
    assert.equal(await page.locator("#board .sq.legal").count(), 4);
    // Back to the finished game: "Analyse this game" opens its replay and analyses it.
    await page.goto(`${BASE}#/game/${state.fullGame}`);
    await page.waitForSelector("#result:not([hidden])");
    await page.evaluate(() => { document.getElementById("analysis-level").value = "1"; });
    await page.click("#result-analyse");
    await page.waitForSelector("#replay-view:not([hidden])");
    await page.waitForFunction(() => /^Analysed at level 1\./.test(document.getElementById("analysis-status").textContent),
      null, { timeout: 60000 });
    // The address is the replay's own: a reload replays, it does not analyse again.
    assert.equal(await page.evaluate(() => location.hash), `#/replay/${state.fullGame}`);
    await page.context().close();
  },

  async "the computer's search shows its figures while it thinks"() {
    const page = await newPage();
    await page.goto(BASE + "#/new");
    // Level 59 searches the first move for its whole 20 s budget: time to see it.
    const id = await createByScript(page, { size: 8, rules: "othello", black: "ai:59", white: "human" });
    await page.waitForSelector("#think-live:not([hidden])");
    assert.equal(await page.locator("#thinking-title").textContent(), "Computer thinking");
    assert.match(await page.locator("#think-depth").textContent(), /^\d+$/);
    assert.match(await page.locator("#think-pv").textContent(), /^[a-h][1-8]( [a-h][1-8])*$/);
    assert.equal(await page.locator("#think-last").isHidden(), true);
    await page.screenshot({ path: `${SHOTS}/thinking.png` });
    // Deleting the game stops its search (the server runs two at a time).
    const deleted = await page.request.delete(`${BASE}api/history/${id}`);
    assert.equal(deleted.status(), 204, await deleted.text());
    await page.context().close();
  },

  async "the new-game form shows a level for a computer side only, and the joining side for two browsers"() {
    const page = await newPage();
    await page.goto(BASE + "#/new");
    const shown = (sel) => page.locator(sel).isVisible();
    assert.equal(await shown("select[name=black-level]"), false);
    assert.equal(await shown("select[name=white-level]"), true);
    assert.equal(await shown("select[name=remote-side]"), false);
    await page.selectOption("select[name=black]", "computer");
    assert.equal(await shown("select[name=black-level]"), true);
    // Two browsers: people on both sides, and who joins plays which.
    await page.check("input[name=remote]");
    assert.equal(await shown("select[name=remote-side]"), true);
    assert.deepEqual([await page.inputValue("select[name=black]"), await page.inputValue("select[name=white]")],
      ["human", "human"]);
    assert.equal(await shown("select[name=black-level]"), false);
    assert.equal(await shown("select[name=white-level]"), false);
    await page.selectOption("select[name=white]", "computer");
    assert.equal(await page.isChecked("input[name=remote]"), false);
    assert.equal(await shown("select[name=remote-side]"), false);
    await page.screenshot({ path: `${SHOTS}/new-game.png` });
    await page.context().close();
  },

  async "a timed game shows both clocks counting down and is lost on time"() {
    const page = await newPage();
    // From the form: a one-minute clock for each side, shown beside the counts.
    await page.goto(BASE + "#/new");
    await page.selectOption("select[name=white-level]", "1");
    await page.selectOption("select[name=clock]", "1m");
    await page.click("#start");
    await page.waitForSelector("#clocks:not([hidden])");
    assert.match(await page.locator("#clocks").textContent(), /Black (1:00|0:5\d) +White 1:00 \(1m each\)/);
    assert.equal(await page.locator("#clocks .clock.running").getAttribute("data-side"), "black");
    // A two-second game (the API takes any clock): Black waits and loses on time.
    await page.evaluate(() => createGame({ size: 8, rules: "othello", black: "human", white: "ai:1", clock: "2s" }));
    await page.waitForSelector("#result:not([hidden])", { timeout: 10000 });
    const text = await page.locator("#result-text").textContent();
    assert.equal(text, "Black's time ran out. White wins on time");
    assert.match(await page.locator("#clocks").textContent(), /Black 0:00\.0/);
    await page.context().close();
  },

  async "undo and redo, by button and by keyboard, and keyboard play"() {
    const page = await newPage();
    await startGame(page, { whiteLevel: "1" });
    // Arrow keys move the cursor from d3 (the first legal square) to c4; Enter plays it.
    await page.locator('[data-square="d3"]').focus();
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowDown");
    assert.equal(await page.evaluate(() => document.activeElement.dataset.square), "c4");
    await page.keyboard.press("Enter");
    await waitMoves(page, 2);
    await untilMyTurnOrOver(page);
    assert.equal(await page.locator("#moves li").first().textContent(), "c4");
    await page.click("#undo");
    await waitMoves(page, 0);
    // The search for the move taken back is gone with it.
    assert.equal(await page.locator("#thinking").isHidden(), true);
    assert.equal(await page.locator('[data-square="c4"]').getAttribute("aria-label"), "c4, empty, legal move");
    await page.waitForFunction(() => /taken back/.test(document.getElementById("announce").textContent));
    await page.click("#redo");
    await waitMoves(page, 2);
    await page.keyboard.press("u");
    await waitMoves(page, 0);
    await page.keyboard.press("r");
    await waitMoves(page, 2);
    // Legal-move dots toggle with the checkbox or l.
    await untilMyTurnOrOver(page);
    assert.ok((await page.locator("#board .sq.legal").count()) > 0);
    await page.keyboard.press("l");
    assert.equal(await page.locator("#board .sq.legal").count(), 0);
    await page.keyboard.press("l");
    assert.ok((await page.locator("#board .sq.legal").count()) > 0);
    await page.context().close();
  },

  async "hints show every legal move's score, labelled exact or by depth"() {
    const page = await newPage();
    await startGame(page, { whiteLevel: "1" });
    await page.click('[data-square="f5"]');
    // Until the reply arrives the board still says it is our turn.
    await waitMoves(page, 2);
    await untilMyTurnOrOver(page);
    const legal = await page.locator("#board .sq.legal").count();
    await page.selectOption("#hint-level", "4");
    await page.click("#hint");
    await page.waitForFunction((n) => document.querySelectorAll("#board .sq.hinted").length === n, legal);
    for (const sq of await page.locator("#board .sq.hinted").all()) {
      assert.match(await sq.locator(".hint-score").textContent(), /^(<=)?[+-]\d+$/);
      // "depth 4", never "d4", which reads as a square.
      assert.match(await sq.locator(".hint-kind").textContent(), /^(exact|depth \d+)$/);
      assert.match(await sq.getAttribute("aria-label"), /, legal move, hint (<=)?[+-]\d+ (exact|depth \d+)$/);
    }
    await page.waitForTimeout(600);
    await page.screenshot({ path: `${SHOTS}/board-hints.png`, fullPage: true });
    // Exact on a small board: 4x4 is solved at this level.
    const small = await newPage();
    await startGame(small, { size: "4", white: "human" });
    await small.selectOption("#hint-level", "20");
    await small.keyboard.press("h");
    await small.waitForFunction(() => document.querySelectorAll("#board .sq.hinted").length === 4);
    assert.match(await small.locator("#board .sq.hinted").first().getAttribute("aria-label"), / exact$/);
    await small.context().close();
    await page.context().close();
  },

  async "a forced pass is shown and announced"() {
    const page = await newPage();
    await startGame(page, { size: "4", white: "human" });
    for (const [i, sq] of ["b1", "c1", "d3", "a1"].entries()) {
      await page.click(`[data-square="${sq}"]`);
      await page.waitForFunction((n) => Number(document.getElementById("board").dataset.moves) >= n, i + 1);
    }
    await page.waitForSelector("#pass-notice:not([hidden])");
    // Told as what happened, with the move number of the pass.
    assert.equal(await page.locator("#pass-notice").textContent(), "Move 5: Black had no legal move and passed.");
    await page.waitForFunction(() => /Black had no legal move and passed/.test(document.getElementById("announce").textContent));
    assert.equal(await boardAttr(page, "data-turn"), "white");
    assert.equal((await page.locator("#moves li").last().textContent()), "pass");
    // After White's reply it still reads right, and says what followed; one move later it is gone.
    const reply = await page.locator("#board .sq.legal").first().getAttribute("data-square");
    await page.click(`[data-square="${reply}"]`);
    await waitMoves(page, 6);
    assert.equal(await page.locator("#pass-notice").textContent(),
      `Move 5: Black had no legal move and passed; then White played ${reply}.`);
    if ((await boardAttr(page, "data-over")) === "false") {
      const before = Number(await boardAttr(page, "data-moves"));
      await page.locator("#board .sq.legal").first().click();
      await page.waitForFunction((n) => Number(document.getElementById("board").dataset.moves) > n, before);
      assert.equal(await page.locator("#pass-notice").isHidden(), true);
    }
    // Two people at one board: no computer, so no thinking panel.
    assert.equal(await page.locator("#thinking").isHidden(), true);
    await page.context().close();
  },

  async "the history list, replay with slider and arrow keys, download, upload and delete"() {
    const page = await newPage();
    await page.goto(BASE + "#/history");
    const row = page.locator(`#history-table tr[data-id="${state.fullGame}"]`);
    await row.waitFor();
    assert.match(await row.textContent(), /finished|\d+-\d+/);
    // Download as GGF.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      row.locator("a", { hasText: "GGF" }).click(),
    ]);
    const path = await download.path();
    const { readFileSync } = await import("node:fs");
    assert.match(readFileSync(path, "utf8"), /^\(;GM\[Othello\]/);
    // Upload a transcript. The list reloads after the import, so wait for the new row rather
    // than counting rows at once (that raced), and find it by id: transcripts have no date and
    // need not sort first.
    const ids = () => page.locator("#history-table tbody tr")
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-id")));
    const before = await ids();
    await page.setInputFiles("#import-file", {
      name: "upload.txt", mimeType: "text/plain", buffer: Buffer.from("d3e3f6c5b5b6f3f2e2d2c1d1c3b4e1g3 B+4\n"),
    });
    await page.click("#import-form button[type=submit]");
    await page.waitForFunction(() => /1 added/.test(document.getElementById("import-status").textContent));
    await page.waitForFunction((n) => document.querySelectorAll("#history-table tbody tr").length === n + 1, before.length);
    const after = await ids();
    const rows = after.length;
    const uploadedId = after.find((id) => !before.includes(id));
    assert.ok(uploadedId, "the uploaded game is listed");
    const uploaded = page.locator(`#history-table tr[data-id="${uploadedId}"]`);
    await uploaded.locator("button.delete").click();
    await page.waitForFunction((n) => document.querySelectorAll("#history-table tbody tr").length === n - 1, rows);
    assert.equal(await page.locator(`#history-table tr[data-id="${uploadedId}"]`).count(), 0);
    // Replay the full game.
    await row.locator("a.replay").click();
    await page.waitForSelector("#replay-view:not([hidden])");
    // The record arrives after the view shows: its length is the slider's max.
    await page.waitForSelector("#replay-slider[max]", { state: "attached" });
    const max = Number(await page.locator("#replay-slider").getAttribute("max"));
    // The computer's level-1 replies vary with what its shared table holds: compare with the
    // game as played rather than a fixed length.
    assert.equal(max, state.fullGameMoves);
    assert.equal(await page.locator("#replay-board").getAttribute("data-index"), String(max));
    await page.locator("#replay-slider").fill("0");
    assert.equal(await page.locator("#replay-board").getAttribute("data-index"), "0");
    assert.equal(await page.locator("#replay-board .sq.black, #replay-board .sq.white").count(), 4);
    await page.locator("h2#replay-title").click();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    assert.equal(await page.locator("#replay-board").getAttribute("data-index"), "2");
    assert.match(await page.locator("#replay-status").textContent(), /^After move 2: /);
    // Every reply to Black's first move is one of the three named two-move openings.
    assert.match(await page.locator("#replay-opening").textContent(),
      /^Opening: (Diagonal|Parallel|Perpendicular) Opening$/);
    await page.keyboard.press("ArrowLeft");
    assert.equal(await page.locator("#replay-board").getAttribute("data-index"), "1");
    assert.equal(await page.locator("#replay-opening").isHidden(), true);
    assert.equal(await page.locator("#replay-board .sq.black, #replay-board .sq.white").count(), 5);
    await page.context().close();
  },

  async "the analysis graph: points to jump to and the mistakes marked"() {
    const page = await newPage();
    await page.goto(`${BASE}#/replay/${state.fullGame}`);
    await page.waitForSelector("#replay-view:not([hidden])");
    const positions = Number(await page.locator("#replay-slider").getAttribute("max")) + 1;
    await page.selectOption("#analysis-level", "2");
    await page.click("#analyze");
    await page.waitForFunction(() => /^Analysed/.test(document.getElementById("analysis-status").textContent), null, { timeout: 60000 });
    assert.equal(await page.locator("#graph .point").count(), positions);
    // Axes: values either side of a zero line, move numbers from 0 every 10, their titles, a
    // legend.
    assert.equal(await page.locator("#graph line.zero").count(), 1);
    const values = await page.locator("#graph .tick.value").allTextContents();
    assert.ok(values.includes("0") && values.some((v) => v.startsWith("+")) && values.some((v) => v.startsWith("\u2212")), values.join());
    const moves = await page.locator("#graph .tick.move").allTextContents();
    assert.deepEqual(moves.slice(0, 3), ["0", "10", "20"]);
    assert.deepEqual(await page.locator("#graph .axis-title").allTextContents(), ["move", "discs for Black"]);
    assert.equal(await page.locator("#graph .legend li").count(), 4);
    // The same values as a table, a row a position, each a way to go there.
    assert.equal(await page.locator("#graph .eval-table tbody tr").count(), positions);
    await page.locator("#graph .eval-table summary").click();
    const row = page.locator('#graph .eval-table tbody tr[data-index="12"]');
    const point = await page.locator('#graph .point[data-index="12"]').getAttribute("aria-label");
    assert.match(point, new RegExp(`: ${(await row.locator("td").nth(2).textContent()).replace("+", "\\+")} for Black`));
    await row.locator("button").click();
    assert.equal(await page.locator("#replay-board").getAttribute("data-index"), "12");
    await page.locator('#graph .point[data-index="10"]').click();
    assert.equal(await page.locator("#replay-board").getAttribute("data-index"), "10");
    assert.match(await page.locator("#replay-status").textContent(), /Evaluation [+-]?\d+ for Black/);
    const marked = await page.locator("#replay-moves li.mistake, #replay-moves li.blunder").count();
    const points = await page.locator("#graph .point.mistake, #graph .point.blunder").count();
    assert.equal(marked, points);
    // Playing the first legal square every move loses discs somewhere.
    assert.ok(marked > 0, "no mistake marked");
    // Mistakes and blunders differ by more than size: a blunder is a diamond, marked ?? in the
    // move list (a mistake ?), which a legend reads; the summary says what its totals add up.
    for (const li of await page.locator("#replay-moves li.blunder, #replay-moves li.mistake").all()) {
      const blunder = (await li.getAttribute("class")).includes("blunder");
      assert.match(await li.locator("button").first().textContent(),
        blunder ? /^[a-p]\d+\?\? \u2212\d+, best [a-p]\d+$/ : /^[a-p]\d+\? \u2212\d+, best [a-p]\d+$/);
    }
    assert.equal(await page.locator("#graph path.point.blunder").count(),
      await page.locator("#replay-moves li.blunder").count());
    assert.equal(await page.locator("#graph circle.point.blunder").count(), 0);
    assert.equal(await page.locator("#replay-moves-legend").isVisible(), true);
    assert.match(await page.locator("#analysis-status").textContent(),
      /^Analysed at level 2\. Discs lost against the best move, added up over each side's moves: Black \d+ over \d+ moves \([\d.]+ a move\); White \d+ over \d+ moves/);
    // Another level than the human scale's: the summary says which level rates the game.
    const levels = await (await page.request.get(`${BASE}api/levels`)).json();
    const scale = levels.find((l) => l.human_scale);
    assert.ok(scale, "a level carries the human scale");
    assert.match(await page.locator("#analysis-status").textContent(),
      new RegExp(`Analyse at level ${scale.level} for each side's tournament rating\\.$`));
    // The level choosers name the rating a measured level plays like.
    const rated = levels.find((l) => l.name && l.human_rating);
    assert.match(await page.locator(`select[name=white-level] option[value="${rated.level}"]`).textContent(),
      new RegExp(`like a ${rated.human_rating.replace("+", "\\+")} player`));
    await page.screenshot({ path: `${SHOTS}/analysis.png`, fullPage: true });
    // At the scale's level each side of the 8x8 game is rated, with its range.
    await page.selectOption("#analysis-level", String(scale.level));
    await page.click("#analyze");
    await page.waitForFunction(() => /Played: /.test(document.getElementById("analysis-status").textContent), null, { timeout: 120000 });
    assert.match(await page.locator("#analysis-status").textContent(),
      /Played: Black like a (under )?\d+\+? tournament player \(90% range \d+–\d+\); White like a .*One game says little/);
    await page.context().close();
  },

  async "two browsers play each other through a shared link"() {
    const host = await newPage();
    const guest = await newPage({ reducedMotion: "reduce" });
    const id = await startGame(host, { white: "human", remote: true });
    await host.waitForFunction(() => document.getElementById("share-link").value !== "");
    const link = await host.locator("#share-link").inputValue();
    // Built from the address the browser used, and carrying the game's join code (without it
    // nobody takes the seat); the server listens on 127.0.0.1 alone, so the page says that the
    // link works on this machine only.
    assert.match(link, new RegExp(`^${BASE.replace(/\/$/, "")}/#/join/${id}/[0-9a-f]{32}$`));
    assert.match(await host.locator("#share-warning").textContent(), /this machine only.*--public-url/);
    assert.equal(await host.locator("#seat").textContent(),
      "You play Black; the person who joins by the link plays White.");
    await guest.goto(link);
    await guest.waitForSelector("#game-view:not([hidden])");
    await host.waitForFunction(() => /has joined/.test(document.getElementById("share-status").textContent));
    // The guest is told its colour, on the page and to screen readers.
    assert.equal(await guest.locator("#seat").textContent(),
      "You play White; your opponent plays Black from the other browser.");
    assert.equal(await guest.locator("#share").isHidden(), true);
    // The guest plays White: Black's squares are not theirs.
    assert.equal(await guest.locator("#board").getAttribute("data-my-turn"), "false");
    assert.equal(await guest.locator('[data-square="f5"]').getAttribute("aria-disabled"), "true");
    await host.click('[data-square="f5"]');
    await guest.waitForSelector('[data-square="f5"].black');
    await guest.waitForFunction(() => document.getElementById("board").dataset.myTurn === "true");
    // Reduced motion: the guest's flipped disc does not spin; the host's does.
    const anim = (p) => p.evaluate(() => {
      const d = document.querySelector("#board .sq.flip .disc");
      return d ? getComputedStyle(d).animationName : null;
    });
    assert.equal(await anim(guest), "none");
    assert.equal(await anim(host), "flip");
    await guest.waitForFunction(() =>
      /Black played f5, flipping 1 disc\. White to move\./.test(document.getElementById("announce").textContent));
    await guest.click('[data-square="d6"]');
    await host.waitForSelector('[data-square="d6"].white');
    await waitMoves(host, 2);
    assert.equal(await host.locator("#board").getAttribute("data-my-turn"), "true");
    await host.click('[data-square="c3"]');
    await waitMoves(guest, 3);
    assert.deepEqual(await guest.locator("#moves li").allTextContents(), ["f5", "d6", "c3"]);
    // f5 d6 is a named line, and c3 leaves it named.
    assert.equal(await guest.locator("#opening").textContent(), "Opening: Perpendicular Opening");
    // A third visitor with the same link: both seats are taken, so it watches, read-only.
    const third = await newPage();
    await third.goto(link);
    await third.waitForFunction((n) => location.hash === `#/game/${n}` &&
      document.getElementById("board").dataset.moves === "3", id);
    assert.equal(await third.locator("#game-view").getAttribute("data-role"), "spectator");
    assert.match(await third.locator("#notice").textContent(), /already taken.*you are watching it/);
    assert.equal(await third.locator("#seat").textContent(), "You are watching this game: only its players can move.");
    assert.equal(await third.locator("#board").getAttribute("data-my-turn"), "false");
    for (const b of ["#undo", "#redo", "#hint", "#resign"]) assert.equal(await third.locator(b).isHidden(), true, b);
    // Keyboard hints are for the players (who have a keyboard): not for a spectator.
    assert.equal(await third.locator("#game-view p.keys").isHidden(), true);
    assert.equal(await third.locator("#show-legal + .key-hint").isHidden(), true);
    assert.equal(await host.locator("#game-view p.keys").isVisible(), true);
    assert.equal(await third.locator("#error").isHidden(), true);
    // It follows the game as it goes on.
    await guest.locator("#board .sq.legal").first().click();
    await waitMoves(third, 4);
    await third.waitForTimeout(600);
    await third.screenshot({ path: `${SHOTS}/spectator.png`, fullPage: true });
    await third.context().close();
    await host.context().close();
    await guest.context().close();
  },

  async "coordinates around every board size, and the favicon"() {
    const page = await newPage();
    await page.goto(BASE + "#/new");
    for (const n of [4, 6, 8, 10, 12, 14, 16]) {
      await createByScript(page, { size: n, rules: "othello", black: "human", white: "human" });
      const letters = "abcdefghijklmnop".slice(0, n).split("");
      const numbers = Array.from({ length: n }, (_, i) => String(i + 1));
      for (const [where, want] of [["top", letters], ["bottom", letters], ["left", numbers], ["right", numbers]]) {
        assert.deepEqual(await page.locator(`#game-view .coords.${where} span`).allTextContents(), want, `${n}x${n} ${where}`);
      }
      // Each label sits over its column or beside its row: the last ones too (p, 16).
      const centre = (loc) => loc.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2];
      });
      const last = letters[n - 1] + n;
      const [sx, sy] = await centre(page.locator(`[data-square="${last}"]`));
      const [lx] = await centre(page.locator("#game-view .coords.top span").last());
      const [, ly] = await centre(page.locator("#game-view .coords.left span").last());
      assert.ok(Math.abs(sx - lx) < 1.5 && Math.abs(sy - ly) < 1.5, `${n}x${n}: ${last} at ${sx},${sy}; labels at ${lx},${ly}`);
      if (n === 16) await page.screenshot({ path: `${SHOTS}/board-16x16.png`, fullPage: true });
    }
    // The replay board has them too.
    await page.goto(`${BASE}#/replay/${state.fullGame}`);
    await page.waitForSelector("#replay-view:not([hidden])");
    // The labels come with the loaded game, which may follow the view's showing.
    await page.locator("#replay-view .coords.top span").first().waitFor();
    assert.equal(await page.locator("#replay-view .coords.top span").count(), 8);
    const icon = await page.locator("link[rel=icon]").getAttribute("href");
    const resp = await page.request.get(BASE.replace(/\/$/, "") + icon);
    assert.equal(resp.status(), 200);
    assert.equal(resp.headers()["content-type"], "image/svg+xml");
    assert.match(await resp.text(), /^<svg /);
    await page.context().close();
  },

  async "hints and analyses show a spinner, run one at a time and can be cancelled"() {
    const page = await newPage();
    const requests = [];
    page.on("request", (r) => { if (/\/(hints|analysis)$/.test(r.url())) requests.push(r.url()); });
    await page.goto(BASE + "#/new");
    await createByScript(page, { size: 8, rules: "othello", black: "human", white: "human" });
    // A slow search (level 59, 20 s per move): the spinner and cancel show, and the
    // button and key do nothing while it runs.
    await page.selectOption("#hint-level", "59");
    await page.click("#hint");
    await page.waitForSelector("#hint-busy:not([hidden]) .spinner");
    assert.equal(await page.locator("#hint").isDisabled(), true);
    assert.equal(await page.locator("#hint").getAttribute("aria-busy"), "true");
    assert.match(await page.locator("#hint-status").textContent(), /^Searching at level 59/);
    await page.locator("h2#game-title").click();
    await page.keyboard.press("h");
    await page.screenshot({ path: `${SHOTS}/hint-running.png` });
    await page.click("#hint-cancel");
    await page.waitForSelector("#hint-busy", { state: "hidden" });
    assert.equal(await page.locator("#hint-cancel").isHidden(), true);
    assert.equal(await page.locator("#hint").isDisabled(), false);
    assert.equal(await page.locator("#hint-status").textContent(), "Cancelled.");
    assert.equal(await page.locator("#board .sq.hinted").count(), 0);
    assert.equal(requests.length, 1, "one hint request, not one a press");
    assert.equal(await page.locator("#error").isHidden(), true);
    // A quick one after it still answers.
    await page.selectOption("#hint-level", "2");
    await page.click("#hint");
    await page.waitForFunction(() => document.querySelectorAll("#board .sq.hinted").length === 4);
    assert.equal(await page.locator("#hint-status").textContent(), "");
    // A hint running when the position changes is stopped: it would be about a gone position.
    await page.selectOption("#hint-level", "59");
    await page.click("#hint");
    await page.waitForSelector("#hint-busy:not([hidden])");
    await page.click('[data-square="f5"]');
    await waitMoves(page, 1);
    await page.waitForSelector("#hint-busy", { state: "hidden" });
    assert.equal(await page.locator("#hint").isDisabled(), false);

    // The same for an analysis.
    await page.goto(`${BASE}#/replay/${state.fullGame}`);
    await page.waitForSelector("#replay-view:not([hidden])");
    await page.selectOption("#analysis-level", "59");
    await page.click("#analyze");
    await page.waitForSelector("#analysis-busy:not([hidden]) .spinner");
    assert.equal(await page.locator("#analyze").isDisabled(), true);
    assert.match(await page.locator("#analysis-status").textContent(), /^Analysing at level 59/);
    await page.screenshot({ path: `${SHOTS}/analysis-running.png` });
    await page.click("#analysis-cancel");
    await page.waitForSelector("#analysis-busy", { state: "hidden" });
    assert.equal(await page.locator("#analyze").isDisabled(), false);
    assert.equal(await page.locator("#analysis-status").textContent(), "Cancelled.");
    assert.equal(await page.locator("#graph svg").count(), 0);
    await page.context().close();
  },

  async "a replay branches: a move played there is a variation, listed after a reload"() {
    const page = await newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(BASE + "#/history");
    await page.waitForSelector("#history-view:not([hidden])");
    // A game of its own (its line tested nowhere else): d3 c5 d6 is not the game's d3 e3.
    const id = await page.evaluate(async () => {
      await api("POST", "/api/history/import?name=branch.txt", undefined, "d3e3f6c5b5b6f3f2e2d2c1d1c3b4e1g3 B+4\n");
      const games = await api("GET", "/api/history?limit=0");
      return Math.max(...games.filter((g) => g.moves === 16).map((g) => g.id));
    });
    await page.goto(`${BASE}#/replay/${id}`);
    await page.waitForSelector("#replay-view:not([hidden])");
    // The list of lines is drawn once the game has loaded, after the view shows.
    await page.waitForSelector("#replay-lines li");
    assert.equal(await page.locator("#replay-lines li").count(), 1);
    await page.locator('#replay-moves li[data-ply="0"] button').click();
    assert.equal(await page.locator("#replay-board").getAttribute("data-index"), "1");
    assert.equal(await page.locator("#replay-board .sq.legal").count(), 3);
    await page.locator('#replay-board [data-square="c5"]').click();
    await page.waitForFunction(() => document.querySelectorAll("#replay-lines li").length === 2);
    assert.equal(await page.locator("#replay-board").getAttribute("data-line"), "1");
    assert.equal(await page.locator("#replay-board").getAttribute("data-index"), "2");
    assert.match(await page.locator("#replay-lines li.current").textContent(), /^Variation 1 from move 2: c5$/);
    // Going on at its end extends it; stepping back and forwards follows it.
    await page.locator('#replay-board .sq.legal').first().click();
    await page.waitForFunction(() => document.getElementById("replay-board").dataset.index === "3");
    await page.click("#replay-prev");
    await page.click("#replay-prev");
    await page.click("#replay-next");
    assert.equal(await page.locator("#replay-board").getAttribute("data-index"), "2");
    assert.equal(await page.locator("#replay-moves li").count(), 3);
    await page.screenshot({ path: `${SHOTS}/replay-variation.png`, fullPage: true });
    // Kept: after a reload the variation is listed, and the main line marks where it parts.
    await page.reload();
    await page.waitForSelector("#replay-view:not([hidden])");
    await page.waitForFunction(() => document.querySelectorAll("#replay-lines li").length === 2);
    const branch = page.locator("#replay-moves li.branch");
    assert.equal(await branch.count(), 1);
    assert.equal(await branch.getAttribute("data-ply"), "1");
    assert.match(await branch.textContent(), /^e3\(also c5\)$/);
    await branch.locator("button.alt").click();
    assert.equal(await page.locator("#replay-board").getAttribute("data-line"), "1");
    assert.equal(await page.locator("#replay-moves li").count(), 3);
    await page.locator('#replay-lines li[data-line="0"] button').click();
    assert.equal(await page.locator("#replay-moves li").count(), 16);
    // An illegal square is not offered: the board plays legal squares only.
    assert.equal(await page.locator('#replay-board [data-square="a1"]').getAttribute("aria-disabled"), "true");
    await page.context().close();
    const phone = await newPage(PHONE);
    await phone.goto(`${BASE}#/replay/${id}`);
    await phone.waitForFunction(() => document.querySelectorAll("#replay-lines li").length === 2);
    await phone.locator("#replay-lines li[data-line=\"1\"] button").tap();
    assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth) <= 390);
    assert.deepEqual(await smallTargets(phone, "#replay-lines button, #replay-moves button"), []);
    await phone.screenshot({ path: `${SHOTS}/phone-replay-variation.png`, fullPage: true });
    await phone.context().close();
  },

  async "the position editor: set up, refuse the impossible, analyse, play from it, download its picture"() {
    const page = await newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(BASE + "#/editor");
    await page.waitForSelector("#editor-view:not([hidden])");
    const pos = () => page.locator("#editor-board").getAttribute("data-position");
    await page.waitForFunction(() => /4 legal moves/.test(document.getElementById("editor-status").textContent));
    // Clearing leaves the centre empty: impossible under the Othello rule, refused with the reason.
    await page.click("#editor-clear");
    await page.waitForFunction(() => !document.getElementById("editor-problem").hidden);
    assert.match(await page.locator("#editor-problem").textContent(), /centre squares are never empty/);
    assert.equal(await page.locator("#editor-play").isDisabled(), true);
    // A pasted transcript, read by the server.
    await page.fill("#editor-paste", "f5d6c3");
    await page.click("#editor-paste-form button[type=submit]");
    await page.waitForFunction(() => document.getElementById("editor-problem").hidden &&
      /White to move/.test(document.getElementById("editor-status").textContent));
    assert.equal(await pos(), "------------------X--------XX------OXX-----O-------------------- O");
    // Clear starts afresh: the paste box forgets the transcript read.
    await page.click("#editor-clear");
    await page.waitForFunction(() => !document.getElementById("editor-problem").hidden);
    assert.equal(await page.inputValue("#editor-paste"), "");
    await page.fill("#editor-paste", "f5d6c3");
    await page.click("#editor-paste-form button[type=submit]");
    await page.waitForFunction(() => document.getElementById("editor-problem").hidden &&
      /White to move/.test(document.getElementById("editor-status").textContent));
    // Click a square to cycle it: empty, black, white; the side to move is a choice.
    await page.locator('#editor-board [data-square="a1"]').click();
    await page.waitForFunction(() => document.getElementById("editor-board").dataset.position.startsWith("X"));
    await page.locator('#editor-board [data-square="a1"]').click();
    await page.waitForFunction(() => document.getElementById("editor-board").dataset.position.startsWith("O"));
    await page.locator('#editor-board [data-square="a1"]').click();
    await page.waitForFunction(() => document.getElementById("editor-board").dataset.position.startsWith("-"));
    await page.check('input[name=editor-turn][value=black]');
    await page.waitForFunction(() => document.getElementById("editor-board").dataset.position.endsWith(" X") &&
      /Black to move/.test(document.getElementById("editor-status").textContent));
    await page.check('input[name=editor-turn][value=white]');
    await page.waitForFunction(() => /White to move/.test(document.getElementById("editor-status").textContent));
    // Analyse: every legal move scored, on the board and in the table.
    await page.selectOption("#editor-analysis-level", "2");
    await page.click("#editor-analyze");
    await page.waitForFunction(() => /scored at level 2/.test(document.getElementById("editor-analysis-status").textContent));
    const legal = await page.locator("#editor-board .sq.legal").count();
    assert.equal(await page.locator("#editor-analysis tbody tr").count(), legal);
    // The Kind column ("depth 2") does not wrap.
    assert.equal(await page.locator("#editor-analysis tbody td:nth-child(3)").first()
      .evaluate((td) => getComputedStyle(td).whiteSpace), "nowrap");
    assert.equal(await page.locator("#editor-board .sq.hinted").count(), legal);
    await page.screenshot({ path: `${SHOTS}/editor.png`, fullPage: true });
    // The picture of the board: an SVG with its discs.
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#editor-image")]);
    const { readFileSync } = await import("node:fs");
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
    await page.waitForFunction(() => document.getElementById("board").dataset.moves !== undefined);
    assert.equal(await page.locator("#board .sq.black").count(), 5);
    assert.equal(await page.locator("#board .sq.white").count(), 2);
    assert.match(await page.locator("#status").textContent(), /White/);
    // The game's own board picture, too.
    const [shot] = await Promise.all([page.waitForEvent("download"), page.click("#game-image")]);
    assert.match(readFileSync(await shot.path(), "utf8"), /class="disc white"/);
    await page.context().close();
    // A phone: the editor fits, every control big enough to tap.
    const phone = await newPage(PHONE);
    await phone.goto(BASE + "#/editor");
    await phone.waitForFunction(() => /4 legal moves/.test(document.getElementById("editor-status").textContent));
    assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth) <= 390);
    assert.deepEqual(await smallTargets(phone, "#editor-view button:not(.sq), #editor-view select"), []);
    await phone.screenshot({ path: `${SHOTS}/phone-editor.png`, fullPage: true });
    await phone.context().close();
  },

  async "a 16x16 board at 1280x900 keeps the controls beside it, in reach"() {
    const page = await newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(BASE + "#/new");
    await createByScript(page, { size: 16, rules: "othello", black: "human", white: "ai:1" });
    for (const b of ["#undo", "#hint", "#resign"]) {
      const box = await page.locator(b).boundingBox();
      assert.ok(box.y + box.height <= 900, `${b} ends at ${box.y + box.height}, below the fold`);
    }
    const board = await page.locator("#board").boundingBox();
    const undo = await page.locator("#undo").boundingBox();
    assert.ok(undo.x > board.x + board.width, "the controls are beside the board");
    assert.equal(await page.locator("#game-view .board-zoom").isHidden(), true);
    await page.screenshot({ path: `${SHOTS}/desktop-16x16.png` });
    await page.context().close();
  },

  async "a phone (390x844): the board, controls and history fit, touch targets 44 px"() {
    const page = await newPage(PHONE);
    await page.goto(BASE + "#/new");
    assert.deepEqual(await smallTargets(page, "header a, #new-view button, #new-view select, #new-view label.check"), []);
    await createByScript(page, { size: 8, rules: "othello", black: "human", white: "ai:1" });
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(await width() <= 390, `the page is ${await width()} px wide`);
    const sq = await page.locator('[data-square="a1"]').boundingBox();
    assert.ok(sq.width >= 44 && sq.height >= 44, `8x8 squares are ${sq.width}x${sq.height}`);
    assert.deepEqual(await smallTargets(page, "#game-view button:not(.sq), #game-view select, #game-view label.check"), []);
    await page.locator('[data-square="f5"]').tap();
    await waitMoves(page, 2);
    await page.waitForTimeout(600);
    await page.screenshot({ path: `${SHOTS}/phone-8x8.png`, fullPage: true });
    // No keyboard hints on a touch screen.
    assert.equal(await page.locator("#undo").innerText(), "Undo");
    assert.equal(await page.locator("#game-view p.keys").isHidden(), true);
    // 16x16: every square on screen (they cannot all be 44 px at this width), with legal-move
    // dots big enough to see, and bigger squares on offer.
    await createByScript(page, { size: 16, rules: "othello", black: "human", white: "human" });
    assert.ok(await width() <= 390, `the page is ${await width()} px wide`);
    const p16 = await page.locator('[data-square="p16"]').boundingBox();
    assert.ok(p16.x + p16.width <= 390, `p16 ends at ${p16.x + p16.width}`);
    const dot = await page.locator("#board .sq.legal").first().evaluate((el) => getComputedStyle(el, "::after").width);
    assert.ok(parseFloat(dot) >= 8, `legal-move dots are ${dot}`);
    await page.screenshot({ path: `${SHOTS}/phone-16x16.png` });
    const zoom = page.locator("#game-view .zoom");
    assert.equal(await zoom.isVisible(), true);
    await zoom.tap();
    // Bigger squares scroll in the board's box; the page keeps its width, and the controls
    // stay on screen below the board.
    const sq16 = await page.locator('[data-square="h8"]').boundingBox();
    assert.ok(sq16.width >= 44, `zoomed squares are ${sq16.width} px`);
    assert.ok(await width() <= 390, `the page is ${await width()} px wide`);
    for (const b of ["#undo", "#hint", "#resign"]) {
      const box = await page.locator(b).boundingBox();
      assert.ok(box.y >= 0 && box.y + box.height <= 844, `${b} is at ${box.y}`);
    }
    await page.locator('[data-square="h7"]').tap();
    await waitMoves(page, 1);
    await page.screenshot({ path: `${SHOTS}/phone-16x16-bigger.png` });
    await zoom.tap();
    assert.equal(await zoom.textContent(), "Bigger squares");
    // The analysis graph is drawn at the phone's width: its axis text keeps its size.
    await page.goto(`${BASE}#/replay/${state.fullGame}`);
    await page.waitForSelector("#replay-view:not([hidden])");
    await page.selectOption("#analysis-level", "1");
    await page.locator("#analyze").tap();
    await page.waitForSelector("#graph .tick.value", { timeout: 60000 });
    const tick = await page.locator("#graph .tick.value").first().boundingBox();
    assert.ok(tick.height >= 12, `axis text is ${tick.height} px high`);
    await page.screenshot({ path: `${SHOTS}/phone-analysis.png`, fullPage: true });
    // The history: cards that fit, with links big enough to tap.
    await page.goto(BASE + "#/history");
    await page.waitForSelector("#history-table tbody tr");
    assert.ok(await width() <= 390, `the history is ${await width()} px wide`);
    assert.deepEqual(await smallTargets(page, "#history-view button, #history-view td.actions a"), []);
    await page.screenshot({ path: `${SHOTS}/phone-history.png` });
    await page.context().close();
  },

  async "axe-core finds no WCAG A or AA violation (contrast included) on the main views, light and dark"() {
    for (const colorScheme of ["light", "dark"]) {
      const page = await newPage({ colorScheme });
      const check = async (view) => {
        const found = await axeViolations(page);
        assert.deepEqual(found, [], `${colorScheme} ${view}:\n${found.join("\n")}`);
      };
      await page.goto(BASE + "#/new");
      await page.waitForSelector("#new-view:not([hidden])");
      // The levels are filled in from the server.
      await page.waitForFunction(() => document.querySelectorAll("select[name=white-level] option").length > 0);
      await check("new game");
      // A game in progress: a move played, the computer's reply, its search, hints on the board.
      await createByScript(page, { size: 8, rules: "othello", black: "human", white: "ai:1" });
      await page.click('[data-square="f5"]');
      await waitMoves(page, 2);
      await untilMyTurnOrOver(page);
      await page.selectOption("#hint-level", "2");
      await page.click("#hint");
      await page.waitForSelector("#board .sq.hinted");
      await check("game with hints");
      // A finished game: its result.
      await page.goto(`${BASE}#/game/${state.fullGame}`);
      await page.waitForSelector("#game-view:not([hidden]) #result:not([hidden])");
      await check("finished game");
      await page.goto(BASE + "#/history");
      await page.waitForSelector("#history-table tbody tr");
      await check("history");
      // A replay with its analysis: the graph, the marked moves, the table opened.
      await page.goto(`${BASE}#/replay/${state.fullGame}`);
      await page.waitForSelector("#replay-view:not([hidden])");
      await page.selectOption("#analysis-level", "1");
      await page.click("#analyze");
      await page.waitForSelector("#graph svg", { timeout: 60000 });
      await page.locator("#graph .eval-table summary").click();
      await page.locator('#graph .point[data-index="12"]').click();
      await check("replay with analysis");
      await page.goto(BASE + "#/editor");
      await page.waitForFunction(() => /legal move/.test(document.getElementById("editor-status").textContent));
      await check("editor");
      await page.context().close();
      // The phone's own layouts: the game under the board, the history as cards.
      const phone = await newPage({ ...PHONE, colorScheme });
      await phone.goto(BASE + "#/new");
      await createByScript(phone, { size: 8, rules: "othello", black: "human", white: "ai:1" });
      await phone.waitForFunction(() => document.getElementById("board").dataset.myTurn === "true");
      const found = await axeViolations(phone);
      assert.deepEqual(found, [], `${colorScheme} phone game:\n${found.join("\n")}`);
      await phone.goto(BASE + "#/history");
      await phone.waitForSelector("#history-table tbody tr");
      const cards = await axeViolations(phone);
      assert.deepEqual(cards, [], `${colorScheme} phone history:\n${cards.join("\n")}`);
      await phone.context().close();
    }
  },

  async "the server goes away: the page says it is reconnecting and recovers"() {
    assert.ok(BIN, "REVERSI_BIN is not set");
    const dir = mkdtempSync(join(tmpdir(), "reversi-e2e-"));
    const db = join(dir, "games.sqlite3");
    const publicUrl = "http://reversi.example:9000/";
    let server = await startServer(["--addr", "127.0.0.1:0", "--db", db, "--public-url", publicUrl]);
    const addr = new URL(server.url).host;
    const page = await newPage();
    try {
      await page.goto(server.url + "#/new");
      // --public-url: the join link names it (with the game's join code), with no warning.
      const id = await createByScript(page, { size: 8, rules: "othello", black: "human", white: "human", remote: "white" });
      await page.waitForFunction(() => document.getElementById("share-link").value !== "");
      assert.match(await page.locator("#share-link").inputValue(), new RegExp(`^${publicUrl}#/join/${id}/[0-9a-f]{32}$`));
      assert.equal(await page.locator("#share-warning").isHidden(), true);
      await page.click('[data-square="f5"]');
      await waitMoves(page, 1);
      await stopServer(server.child);
      await page.waitForSelector("#connection:not([hidden])");
      assert.match(await page.locator("#connection").textContent(), /Reconnecting to the server/);
      assert.equal(await page.evaluate(() => document.body.dataset.connection), "down");
      await page.screenshot({ path: `${SHOTS}/reconnecting.png` });
      // A request while it is down: no error box, the notice says it all. (Undo is off between
      // two browsers, so a hint it is.)
      await page.click("#hint");
      assert.equal(await page.locator("#error").isHidden(), true);
      server = await startServer(["--addr", addr, "--db", db, "--public-url", publicUrl]);
      await page.waitForSelector("#connection", { state: "hidden", timeout: 15000 });
      assert.equal(await page.evaluate(() => document.body.dataset.connection), "up");
      // The game is back and live: the new server reopened it from the history with its seats
      // (the open seat still waits for the link's guest).
      await page.waitForSelector("#game-view:not([hidden])");
      await waitMoves(page, 1);
      assert.equal(await page.locator("#replay-view").isHidden(), true);
      assert.equal(await page.locator("#share-status").textContent(), "Waiting for your opponent to join…");
      assert.match(await page.locator('[data-square="f5"]:visible').first().getAttribute("class"), /^sq black\b/);
      assert.equal(await page.locator("#error").isHidden(), true);
      // The opponent joins and moves on the new server: the open page shows it (the reopened
      // game's versions go on rising, so the page does not take its states for stale ones).
      const code = await page.evaluate((n) => tokenFor(n).code, id);
      const joined = await page.request.post(`${server.url}api/games/${id}/join`, { data: { code } });
      assert.equal(joined.status(), 200, await joined.text());
      const moved = await page.request.post(`${server.url}api/games/${id}/moves`,
        { data: { square: "d6" }, headers: { "x-player-token": (await joined.json()).token } });
      assert.equal(moved.status(), 200, await moved.text());
      await waitMoves(page, 2);
      await page.waitForSelector('#board [data-square="d6"].white');
    } finally {
      await page.context().close();
      await stopServer(server.child);
    }
  },

  async "deleting and importing ask for the admin token once, and a wrong one again"() {
    assert.ok(BIN, "REVERSI_BIN is not set");
    const dir = mkdtempSync(join(tmpdir(), "reversi-e2e-"));
    const token = "e2e-admin-secret";
    const server = await startServer(["--addr", "127.0.0.1:0", "--db", join(dir, "games.sqlite3")],
      { REVERSI_ADMIN_TOKEN: token });
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    context.setDefaultTimeout(TIMEOUT);
    const page = await context.newPage();
    page.on("pageerror", (e) => { throw new Error("page error: " + e.message); });
    // The prompts the page shows, answered from this list (confirm dialogs are accepted).
    const answers = ["wrong-token", token];
    const prompts = [];
    page.on("dialog", (d) => {
      if (d.type() !== "prompt") return d.accept();
      prompts.push(d.message());
      return d.accept(answers.shift());
    });
    try {
      await page.goto(server.url + "#/new");
      for (let i = 0; i < 2; i++) {
        await createByScript(page, { size: 8, rules: "othello", black: "human", white: "human" });
      }
      await page.goto(server.url + "#/history");
      await page.waitForFunction(() => document.querySelectorAll("#history-table tbody tr").length === 2);
      // Refused without the token: asked for it; a wrong one is refused and asked for again.
      await page.locator("#history-table tbody tr").first().locator("button.delete").click();
      await page.waitForFunction(() => document.querySelectorAll("#history-table tbody tr").length === 1);
      assert.equal(prompts.length, 2);
      assert.match(prompts[0], /admin token/);
      assert.match(prompts[1], /refused that admin token/);
      assert.equal(await page.locator("#error").isHidden(), true);
      // Kept for the session: the next delete and an upload ask nothing.
      await page.locator("#history-table tbody tr").first().locator("button.delete").click();
      await page.waitForFunction(() => document.querySelectorAll("#history-table tbody tr").length === 0);
      await page.setInputFiles("#import-file", {
        name: "upload.txt", mimeType: "text/plain", buffer: Buffer.from("d3e3f6c5b5b6f3f2e2d2c1d1c3b4e1g3 B+4\n"),
      });
      await page.click("#import-form button[type=submit]");
      await page.waitForFunction(() => /1 added/.test(document.getElementById("import-status").textContent));
      assert.equal(prompts.length, 2);
    } finally {
      await page.context().close();
      await stopServer(server.child);
    }
  },

  // Last: it adds many games, and the history test before wants its upload on the first page.
  async "the history in local time, a page of 50 at a time"() {
    const page = await newPage({ timezoneId: "Asia/Kolkata" });
    await page.goto(BASE + "#/new");
    await page.evaluate(async () => {
      for (let i = 0; i < 55; i++) {
        const r = await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" },
          body: JSON.stringify({ black: "human", white: "human" }) });
        if (!r.ok) throw new Error("create failed: " + r.status);
      }
    });
    const newest = (await (await page.request.get(BASE + "api/history?limit=1")).json())[0];
    const total = Number((await page.request.get(BASE + "api/history?limit=1")).headers()["x-total-count"]);
    assert.ok(total >= 56, `only ${total} games`);
    await page.goto(BASE + "#/history");
    await page.waitForSelector("#history-table tbody tr");
    // (Chromium names the zone by its older name.)
    assert.match(await page.locator("#history-date").textContent(), /^Started \(Asia\/(Kolkata|Calcutta)\)$/);
    assert.equal(await page.locator("#history-table tbody tr").count(), 50);
    assert.equal(await page.locator("#history-range").textContent(),
      `Games 1-50 of ${total}, newest first (page 1 of ${Math.ceil(total / 50)})`);
    assert.equal(await page.locator("#history-newer").isDisabled(), true);
    // Kolkata is UTC+5:30 all year.
    const local = new Date(Date.parse(newest.started_at) + 330 * 60000).toISOString().slice(0, 16).replace("T", " ");
    const first = page.locator(`#history-table tr[data-id="${newest.id}"] td.date`);
    assert.equal(await first.textContent(), local);
    assert.match(await first.getAttribute("title"), / UTC$/);
    await page.click("#history-older");
    await page.waitForFunction(() => location.hash === "#/history/2");
    await page.waitForFunction((n) => document.querySelectorAll("#history-table tbody tr").length === n, Math.min(50, total - 50));
    assert.equal(await page.locator(`#history-table tr[data-id="${newest.id}"]`).count(), 0);
    assert.match(await page.locator("#history-range").textContent(), /^Games 51-/);
    assert.equal(await page.locator("#history-newer").isDisabled(), false);
    await page.screenshot({ path: `${SHOTS}/history-page-2.png`, fullPage: true });
    await page.click("#history-newer");
    await page.waitForFunction(() => location.hash === "#/history");
    await page.waitForSelector(`#history-table tr[data-id="${newest.id}"]`);
    await page.context().close();
  },
};

let failed = 0;
let ran = 0;
const started = Date.now();
// E2E_ONLY=WORDS runs the tests whose names contain them (while working on one).
const only = process.env.E2E_ONLY;
for (const [name, run] of Object.entries(tests)) {
  if (only && !name.includes(only)) continue;
  ran++;
  const t0 = Date.now();
  try {
    await run();
    console.log(`ok - ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAILED - ${name} (${Date.now() - t0} ms)\n${e.stack || e}`);
  }
}
await browser.close();
console.log(`${ran - failed} passed, ${failed} failed in ${Date.now() - started} ms`);
process.exit(failed ? 1 : 0);
