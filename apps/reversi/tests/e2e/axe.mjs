// axe-core's accessibility check, shared by the browser tests of the server's page (run.mjs)
// and of the static site (static.mjs).
import { createRequire } from "node:module";

// axe-core, injected into the page.
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** axe-core's WCAG 2.0 and 2.1 A and AA rules (colour contrast among them) on `page` as it is
 *  shown, after the discs have stopped turning: one line per violation, with the elements. */
export async function axeViolations(page) {
  await page.waitForTimeout(500);
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run(document, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
  }));
  return result.violations.map((v) => `${v.id} (${v.help}): ` +
    v.nodes.slice(0, 5).map((n) => n.target.join(" ") + (n.failureSummary ? ` [${n.failureSummary.replace(/\s+/g, " ")}]` : "")).join("; "));
}
