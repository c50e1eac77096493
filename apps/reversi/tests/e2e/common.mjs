// What the browser tests of the server's page (run.mjs) and of the static site (static.mjs)
// share: Chromium started the same way, and the page's own steps they wait for.
import { chromium } from "playwright-core";

/** Debian's headless Chromium with the flags this machine's closed network needs. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
}

/** Waits until the board shows `n` moves played. */
export async function waitMoves(page, n) {
  await page.waitForFunction((m) => document.getElementById("board").dataset.moves === String(m), n);
}

/** Creates a game through the page's own function (no form), then waits for its board. */
export async function createByScript(page, settings) {
  const before = page.url();
  await page.evaluate((s) => createGame(s), settings);
  await page.waitForFunction((u) => location.href !== u && /#\/game\/\d+$/.test(location.hash), before);
  await page.waitForFunction(() => {
    const b = document.getElementById("board");
    return !document.getElementById("game-view").hidden && b.dataset.moves !== undefined &&
      Number(location.hash.split("/").pop()) === app.gameId && app.game && app.game.id === app.gameId;
  });
  return Number(page.url().split("/").pop());
}
