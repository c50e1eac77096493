// The opening explorer beside a board: the moves the stored games played from the position shown.
import { backend } from "./backend.js";

// The position each explorer last asked about: answers for a position no longer shown are
// dropped.
const asked = {};
// Each explorer's question under way: stopped when another position is asked about (the
// backend may be searching for the values of its moves), or the explorer is hidden.
const asking = {};

/** Stops explorer `id`'s question under way, if any. */
function stopAsking(id) {
  if (asking[id]) asking[id].abort();
  asking[id] = null;
}

/** Fills explorer section `el` for the 8x8 board `rows` with `turn` to move; hides it for
 *  another size, a finished game (no `turn`) or a backend without an explorer. */
export async function showExplorer(el, rows, turn) {
  const position = rows && turn && rows.length === 8 && backend.capabilities.explorer
    ? `${rows.join("")} ${turn === "black" ? "X" : "O"}` : null;
  el.hidden = !position;
  if (!position) {
    // Asked again when it shows again (its answer may have been stopped here).
    stopAsking(el.id);
    asked[el.id] = null;
    return;
  }
  if (asked[el.id] === position) return;
  asked[el.id] = position;
  stopAsking(el.id);
  const ctrl = new AbortController();
  asking[el.id] = ctrl;
  let e;
  try {
    e = await backend.explore(position, { signal: ctrl.signal });
  } catch (err) {
    if (asked[el.id] === position && err.name !== "AbortError") {
      el.querySelector("p").textContent = `Explorer: ${err.message}`;
    }
    return;
  } finally {
    if (asking[el.id] === ctrl) asking[el.id] = null;
  }
  if (asked[el.id] !== position) return;
  const note = el.querySelector("p");
  const body = el.querySelector("tbody");
  body.replaceChildren();
  el.querySelector("table").hidden = e.moves.length === 0;
  note.textContent = e.moves.length === 0
    ? "No stored game reached this position."
    : `${e.games} stored game${e.games === 1 ? "" : "s"} reached this position (in any orientation).`;
  const pct = (n, d) => `${(100 * n / Math.max(d, 1)).toFixed(1)}%`;
  for (const m of e.moves) {
    const tr = document.createElement("tr");
    const margin = m.mean_disc_margin;
    const value = m.value ? `${m.value.label} (${m.value.kind})` : "";
    for (const text of [m.square, String(m.games), pct(m.black_wins, m.games), pct(m.draws, m.games),
      `${margin > 0 ? "+" : ""}${margin.toFixed(1)}`, value]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}
