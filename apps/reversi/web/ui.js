// Shared page helpers: views, announcements, errors and notices, searches under way, downloads, wording.
import { backend, Unreachable } from "./backend.js";

export const $ = (id) => document.getElementById(id);
export const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

const VIEWS = ["new-view", "game-view", "history-view", "replay-view", "editor-view"];

/** Shows one view (its section id), hiding the others. */
export function show(view) {
  for (const v of VIEWS) $(v).hidden = v !== view;
}

/** Whether the view (its section id) is the one shown. */
export const shown = (view) => !$(view).hidden;

/** Says `text` to screen readers (the live region). */
export function announce(text) {
  const el = $("announce");
  el.textContent = "";
  // A fresh node each time so screen readers repeat identical messages.
  window.setTimeout(() => { el.textContent = text; }, 30);
}

/** Shows an error above the view; null clears it. */
export function showError(e) {
  // An unreachable backend has its own notice; cancelled requests are no error.
  if (e && (e instanceof Unreachable || e.name === "AbortError")) return;
  const el = $("error");
  el.textContent = e ? String(e.message || e) : "";
  el.hidden = !e;
}

/** A line above the view that explains how the page got there (a spectator, a game that
 *  is no longer being played); null clears it. */
export function setNotice(text) {
  const el = $("notice");
  el.textContent = text || "";
  el.hidden = !text;
}

let pendingNotice = null;

/** The notice for the view a redirect leads to (shown by the next route). */
export function noticeNext(text) {
  pendingNotice = text;
}

export function takeNotice() {
  const text = pendingNotice;
  pendingNotice = null;
  return text;
}

// ---- searches under way (a hint, an analysis) -------------------------------------------

const jobs = { hint: null, analysis: null }; // AbortControllers of the searches under way

export const jobRunning = (which) => !!jobs[which];

/** Stops a hint or analysis under way (the backend stops its search). */
export function cancelJob(which) {
  const job = jobs[which];
  if (job) job.abort();
}

/** Marks a hint or analysis as under way (spinner, cancel button, its button disabled) or
 *  done. */
function setBusy(which, busy) {
  $(`${which}-busy`).hidden = !busy;
  $(`${which}-cancel`).hidden = !busy;
  // Once done, the hint button's state is the game's again (the game view sets it).
  const button = $(which === "hint" ? "hint" : "analyze");
  button.disabled = busy;
  button.setAttribute("aria-busy", String(busy));
}

/** Runs one hint or analysis at a time, with a way to stop it; `run(signal)` does the
 *  search. Returns its result, or null when it was cancelled or failed. */
export async function runJob(which, status, text, run) {
  if (jobs[which]) return null;
  const ctrl = new AbortController();
  jobs[which] = ctrl;
  setBusy(which, true);
  $(status).textContent = text;
  try {
    showError(null);
    return await run(ctrl.signal);
  } catch (e) {
    $(status).textContent = e.name === "AbortError" ? "Cancelled." : "";
    showError(e);
    return null;
  } finally {
    jobs[which] = null;
    setBusy(which, false);
  }
}

// ---- downloads --------------------------------------------------------------------------

/** Hands the browser a file to save. */
export function saveFile({ filename, type, text }) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** Downloads the backend's SVG picture of a board (rows of X, O and . or -) with `turn` to
 *  move. */
export async function downloadPosition({ rows, turn, rules, last, legal, caption }) {
  try {
    const file = await backend.positionImage({
      position: rows.join("") + " " + (turn === "white" ? "O" : "X"), rules,
      last: last ? (last === "PA" ? "pass" : last) : null, legal: !!legal, caption,
    });
    saveFile(file);
  } catch (e) {
    showError(e);
  }
}

// ---- shared wording ---------------------------------------------------------------------

/** A stored player: `Human`, `reversi (level 3)`. */
export function playerText(p) {
  return p.kind === "computer" ? `${p.name} (level ${p.level || "?"})` : p.name;
}

/** A stored game's result: `40-24`, `in progress`. */
export function resultText(g) {
  if (g.status === "in_progress") return "in progress";
  if (g.result) return `${g.result.black}-${g.result.white}` + (g.status === "abandoned" ? " (abandoned)" : "");
  return g.status;
}

/** The name of the opening line followed, when there is one (8x8 Othello only). */
export function showOpening(el, name) {
  el.hidden = !name;
  el.textContent = name ? `Opening: ${name}` : "";
}
