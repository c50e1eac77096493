// Browser tests of `reversi serve`'s page in Debian's headless Chromium, driven by Playwright.
// Run by tests/web_e2e.rs (cargo test) against a fresh server: REVERSI_URL is its address,
// SCREENSHOT_DIR where the screenshots go. Prints one line per test; exits 1 on a failure.
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import assert from "node:assert/strict";

const BASE = process.env.REVERSI_URL;
const SHOTS = process.env.SCREENSHOT_DIR || "screenshots";
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
if (!BASE) {
  console.error("REVERSI_URL is not set");
  process.exit(2);
}
mkdirSync(SHOTS, { recursive: true });

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
});

const TIMEOUT = 20000;

async function newPage(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, ...options });
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

async function waitMoves(page, n) {
  await page.waitForFunction((m) => document.getElementById("board").dataset.moves === String(m), n);
}

/** Starts a game from the new-game form. */
async function startGame(page, { size = "8", black = "human", white = "computer", whiteLevel = "1", remote = false }) {
  await page.goto(BASE + "#/new");
  await page.selectOption("select[name=size]", size);
  await page.selectOption("select[name=black]", black);
  await page.selectOption("select[name=white]", white);
  await page.selectOption("select[name=white-level]", whiteLevel);
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
        // The last-move marker and the computer's search are on show mid-game.
        assert.equal(await page.locator("#board .sq.last").count(), 1);
        assert.notEqual(await page.locator("#think-depth").textContent(), "-");
        await page.waitForTimeout(600); // let the flips finish
        await page.screenshot({ path: `${SHOTS}/board-midgame.png`, fullPage: true });
      }
    }
    assert.ok(clicks >= 10, `only ${clicks} moves were clicked`);
    await page.waitForSelector("#result:not([hidden])");
    const text = await page.locator("#result-text").textContent();
    assert.match(text, /^(Black wins|White wins|Draw) \d+-\d+$/);
    await page.waitForFunction(() => /Game over/.test(document.getElementById("announce").textContent));
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
      assert.match(await sq.locator(".hint-kind").textContent(), /^(exact|d\d+)$/);
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
    assert.equal(await page.locator("#pass-notice").textContent(), "Black has no legal move and passes.");
    await page.waitForFunction(() => /passes/.test(document.getElementById("announce").textContent));
    assert.equal(await boardAttr(page, "data-turn"), "white");
    assert.equal((await page.locator("#moves li").last().textContent()), "pass");
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
    assert.equal(await page.locator("#graph circle").count(), positions);
    await page.locator('#graph circle[data-index="10"]').click();
    assert.equal(await page.locator("#replay-board").getAttribute("data-index"), "10");
    assert.match(await page.locator("#replay-status").textContent(), /Evaluation [+-]?\d+ for Black/);
    const marked = await page.locator("#replay-moves li.mistake, #replay-moves li.blunder").count();
    const points = await page.locator("#graph circle.mistake, #graph circle.blunder").count();
    assert.equal(marked, points);
    // Playing the first legal square every move loses discs somewhere.
    assert.ok(marked > 0, "no mistake marked");
    await page.screenshot({ path: `${SHOTS}/analysis.png`, fullPage: true });
    await page.context().close();
  },

  async "two browsers play each other through a shared link"() {
    const host = await newPage();
    const guest = await newPage({ reducedMotion: "reduce" });
    const id = await startGame(host, { white: "human", remote: true });
    const link = await host.locator("#share-link").inputValue();
    // The link carries the game's join code: without it nobody takes the seat.
    assert.match(link, new RegExp(`^${BASE.replace(/\/$/, "")}/#/join/${id}/[0-9a-f]{32}$`));
    await guest.goto(link);
    await guest.waitForSelector("#game-view:not([hidden])");
    await host.waitForFunction(() => /has joined/.test(document.getElementById("share-status").textContent));
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
    await host.context().close();
    await guest.context().close();
  },
};

let failed = 0;
const started = Date.now();
for (const [name, run] of Object.entries(tests)) {
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
console.log(`${Object.keys(tests).length - failed} passed, ${failed} failed in ${Date.now() - started} ms`);
process.exit(failed ? 1 : 0);
