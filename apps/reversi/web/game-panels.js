// The game view's live panels: the clocks counting down, and the computer's search.
import { $, cap } from "./ui.js";

// ---- clocks -----------------------------------------------------------------------------

let clockTimer = null;

/** `4:58`, `1:02:03` (whole seconds rounded up), tenths under ten seconds (`0:09.3`), as the
 *  terminal shows them. */
function clockText(ms) {
  const total = Math.max(0, ms);
  const pad = (n) => String(n).padStart(2, "0");
  if (total < 10000) return `0:${pad(Math.floor(total / 1000))}.${Math.floor(total % 1000 / 100)}`;
  const s = Math.ceil(total / 1000);
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
}

export function stopClocks() {
  if (clockTimer) clearInterval(clockTimer);
  clockTimer = null;
}

/** The clocks of a timed game, the running one counting down from the view's reading;
 *  `atZero()` when the running one reaches zero (the backend decides: it ends the game on
 *  time). */
export function renderClocks(g, atZero) {
  const el = $("clocks");
  stopClocks();
  if (!g.clock) { el.hidden = true; el.textContent = ""; return; }
  el.hidden = false;
  const received = performance.now();
  const c = g.clock;
  const draw = () => {
    const spent = c.running ? performance.now() - received : 0;
    const left = { black: c.black_ms, white: c.white_ms };
    if (c.running) left[c.running] -= spent;
    const [black, white] = ["black", "white"].map((side) => {
      const span = document.createElement("span");
      span.className = "clock" + (c.running === side ? " running" : "") + (left[side] < 10000 ? " low" : "");
      span.dataset.side = side;
      span.textContent = `${cap(side)} ${clockText(left[side])}`;
      return span;
    });
    el.replaceChildren(black, document.createTextNode(" "), white,
      document.createTextNode(` (${c.setting} each)`));
    if (c.running && left[c.running] <= 0 && clockTimer) {
      stopClocks();
      setTimeout(atZero, 100);
    }
  };
  draw();
  if (c.running && !g.over) clockTimer = setInterval(draw, 100);
}

// ---- the computer's search --------------------------------------------------------------

let thought = null; // the computer's latest search report in this game (a "thinking" event)

/** Forgets the last search (another game). */
export function clearThinking(g) {
  thought = null;
  if (g) showThinking(g);
}

/** A search report's score, e.g. `+2 for White (depth 12)`. */
function thoughtScore(t) {
  return t.best ? `${t.best.label} for ${cap(t.color)} (${t.best.kind})` : "";
}

/** The computer's search: its figures while it thinks ("Searching…" until the first report),
 *  then one line on the search that chose its last move, until the game ends or that move is
 *  taken back; nothing in a game without the computer. */
export function showThinking(g) {
  const t = thought;
  const live = !g.over && g.thinking;
  const last = !g.over && !g.thinking && t && t.ply < g.moves.length ? t : null;
  $("thinking").hidden = !live && !last;
  $("thinking-title").textContent = live ? "Computer thinking" : "Computer's last search";
  const current = live && t && t.ply === g.moves.length ? t : null;
  $("think-wait").hidden = !live || !!current;
  $("think-live").hidden = !current;
  $("think-last").hidden = !last;
  if (current) {
    $("think-depth").textContent = String(current.depth);
    $("think-score").textContent = thoughtScore(current) || "none yet";
    $("think-pv").textContent = current.pv.join(" ");
    $("think-nodes").textContent = current.nodes.toLocaleString("en");
  }
  if (last) {
    const played = g.moves[last.ply] === "PA" ? "passed" : `played ${g.moves[last.ply]}`;
    const line = last.pv.length > 8 ? last.pv.slice(0, 8).join(" ") + " …" : last.pv.join(" ");
    const found = [thoughtScore(last) || `depth ${last.depth}`, line ? `line ${line}` : "",
      last.nodes ? `${last.nodes.toLocaleString("en")} nodes` : ""].filter(Boolean).join(", ");
    // A line cut short ends in "…", which needs no full stop after it.
    const stop = found.endsWith("…") ? "" : ".";
    $("think-last").textContent = `${cap(last.color)} ${played}. Its search: ${found}${stop}`;
  }
}

/** A search report `t` about game `g` (the game shown). */
export function renderThinking(t, g) {
  // Reports can trail the move they were about, or the end of the game.
  if (!g || g.over || t.ply !== g.moves.length) return;
  thought = t;
  showThinking(g);
}
