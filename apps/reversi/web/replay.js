// The replay view: a stored game step by step, its lines and variations, and its analysis.
import { backend } from "./backend.js";
import { createBoard } from "./board.js";
import { editPosition } from "./editor.js";
import { showExplorer } from "./explorer.js";
import { drawGraph } from "./graph.js";
import {
  $, announce, cancelJob, cap, downloadPosition, jobRunning, playerText, resultText, runJob, show,
  showError, showOpening,
} from "./ui.js";

let replay = null; // { record, analysis, index, line, cursor } (line: the index of the line shown)
let opening = 0; // counts the replays asked for: only the last one asked is shown
let board = null;

/** The line the replay shows (the game's own moves, or a variation). */
const shownLine = (r) => r.record.lines[r.line];

export async function openReplay(id) {
  show("replay-view");
  // Until the game has loaded there is nothing to analyse (and the game shown before is not
  // the one asked for).
  replay = null;
  $("analyze").disabled = true;
  const asked = ++opening;
  const record = await backend.getRecord(id);
  // Another replay asked for meanwhile (a quick second click, the back button) is the one
  // shown, whichever answer comes first.
  if (asked !== opening) return;
  $("analyze").disabled = jobRunning("analysis");
  replay = { record, analysis: null, index: record.positions.length - 1, line: 0, cursor: null };
  const i = record.info;
  $("replay-title").textContent = `Replay of game ${id}`;
  $("replay-info").textContent = `${playerText(i.black)} (Black) vs ${playerText(i.white)} (White), ` +
    `${i.size}x${i.size} ${i.rules}, ${resultText(i)}`;
  const slider = $("replay-slider");
  slider.max = String(record.positions.length - 1);
  $("graph").replaceChildren();
  $("analysis-status").textContent = "";
  $("replay-continue").hidden = !record.live || record.info.status !== "in_progress";
  $("replay-continue").href = `#/game/${id}`;
  renderLines();
  renderReplayMoves();
  replayTo(replay.index);
}

/** Shows position `index` of the line shown (clamped to the line). */
function replayTo(index) {
  const r = replay;
  if (!r) return;
  const positions = shownLine(r).positions;
  const last = positions.length - 1;
  r.index = Math.max(0, Math.min(last, index));
  const step = positions[r.index];
  $("replay-slider").max = String(last);
  $("replay-slider").value = String(r.index);
  const el = $("replay-board");
  el.dataset.index = String(r.index);
  el.dataset.line = String(r.line);
  // Any legal square plays another move from here (a variation, saved at once).
  el.dataset.myTurn = "true";
  board.set({
    rows: step.board, legal: step.legal, showLegal: true, last: step.mv && step.mv !== "PA" ? step.mv : null,
    hints: null, movable: true, cursor: r.cursor, animate: false,
  });
  $("replay-pass").hidden = !step.must_pass;
  let text = r.index === 0 ? "Start position" : `After move ${r.index}: ${step.mv === "PA" ? "pass" : step.mv}`;
  text += `. Black ${step.counts.black}, White ${step.counts.white}.`;
  if (r.analysis && r.line === 0) {
    const e = r.analysis.evals[r.index];
    text += ` Evaluation ${e > 0 ? "+" : ""}${e} for Black.`;
    const m = r.analysis.moves[r.index - 1];
    if (m && m.loss > 0) text += ` ${cap(m.color)} lost ${m.loss} disc${m.loss > 1 ? "s" : ""} (${m.verdict}; best ${m.best.square}).`;
  }
  $("replay-status").textContent = text;
  showOpening($("replay-opening"), step.opening);
  showExplorer($("replay-explorer"), step.board, step.turn);
  for (const li of $("replay-moves").children) li.classList.toggle("current", Number(li.dataset.ply) === r.index - 1);
  for (const li of $("replay-lines").children) li.classList.toggle("current", Number(li.dataset.line) === r.line);
  for (const c of $("graph").querySelectorAll(".point, tbody tr")) c.classList.toggle("current", Number(c.dataset.index) === r.index);
}

function renderReplayMoves() {
  const r = replay;
  const list = $("replay-moves");
  list.innerHTML = "";
  $("replay-moves-legend").hidden = !(r.line === 0 && r.analysis);
  const line = shownLine(r);
  line.moves.forEach((mv, ply) => {
    const li = document.createElement("li");
    li.dataset.ply = ply;
    const a = r.line === 0 && r.analysis && r.analysis.moves[ply];
    const btn = document.createElement("button");
    btn.type = "button";
    btn.textContent = mv === "PA" ? "pass" : mv;
    if (a) {
      li.classList.add(a.verdict);
      if (a.verdict === "mistake" || a.verdict === "blunder") {
        // The legend above the list reads these: "c4?? −10, best e6".
        btn.textContent += `${a.verdict === "blunder" ? "??" : "?"} \u2212${a.loss}, best ${a.best.square}`;
        // The name starts with the text shown (WCAG 2.5.3, label in name), then says it.
        btn.setAttribute("aria-label", `${btn.textContent}: ${a.verdict}, lost ${a.loss} discs`);
        btn.title = `${a.verdict}: lost ${a.loss} discs; best was ${a.best.square}`;
      }
    }
    btn.onclick = () => replayTo(ply + 1);
    li.appendChild(btn);
    addBranchMarks(li, line, ply);
    list.appendChild(li);
  });
  // Lines that go on after this one ends.
  if (line.branches.some((b) => b.ply === line.moves.length)) {
    const li = document.createElement("li");
    li.dataset.ply = line.moves.length;
    li.className = "line-end";
    addBranchMarks(li, line, line.moves.length);
    list.appendChild(li);
  }
}

/** Analyses the game shown at the level chosen: graph, summary and marked moves. */
export async function analyze() {
  const r = replay;
  if (!r) return;
  const level = Number($("analysis-level").value);
  const analysis = await runJob("analysis", "analysis-status", `Analysing at level ${level}…`,
    (signal) => backend.analyzeGame(r.record.info.id, level, {
      signal,
      // How far it is, from a backend that tells (the one in the browser).
      progress: ({ done, total }) => {
        if (replay === r) $("analysis-status").textContent = `Analysing at level ${level}… (${done} of ${total} positions)`;
      },
    }));
  if (!analysis || replay !== r) return;
  r.analysis = analysis;
  // The analysis is of the game's own moves.
  if (r.line !== 0) showLine(0);
  $("analysis-status").textContent = analysisSummary(analysis, level);
  drawGraph($("graph"), analysis, replayTo);
  renderReplayMoves();
  replayTo(r.index);
}

/** What the analysis found, saying what its totals add up: each move's loss against the best
 *  move in its position, summed over one side's moves (so a total can pass the board's
 *  squares), with the mean a move. */
function analysisSummary(a, level) {
  const count = (verdict) => a.moves.filter((m) => m.verdict === verdict).length;
  const side = (color, total) => {
    const n = a.moves.filter((m) => m.color === color && m.played !== "PA").length;
    const mean = n ? ` (${(total / n).toFixed(1)} a move)` : "";
    return `${cap(color)} ${total} over ${n} move${n === 1 ? "" : "s"}${mean}`;
  };
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `Analysed at level ${level}. Discs lost against the best move, added up over each ` +
    `side's moves: ${side("black", a.black_loss)}; ${side("white", a.white_loss)}. ` +
    `${plural(count("mistake"), "mistake")} (?) and ${plural(count("blunder"), "blunder")} (??) marked.` +
    performanceSummary(a);
}

/** Each side's rating for the game on the human scale, with its range, or how to get one. */
function performanceSummary(a) {
  if (a.performance && a.performance.length) {
    const each = a.performance.map((p) =>
      `${cap(p.color)} like a ${p.rating} tournament player (90% range ${p.low}–${p.high})`);
    return ` Played: ${each.join("; ")}. One game says little: the range is wide.`;
  }
  if (a.scale_level && a.scale_level !== a.level) {
    return ` Analyse at level ${a.scale_level} for each side's tournament rating.`;
  }
  return "";
}

// ---- variations -------------------------------------------------------------------------

/** The lines of the game to switch between: the main line, then each variation. */
function renderLines() {
  const r = replay;
  const list = $("replay-lines");
  list.replaceChildren();
  $("replay-lines-box").dataset.count = String(r.record.lines.length);
  for (const line of r.record.lines) {
    const li = document.createElement("li");
    li.dataset.line = String(line.index);
    li.classList.toggle("current", line.index === r.line);
    const btn = document.createElement("button");
    btn.type = "button";
    const own = line.moves.slice(line.from_ply, line.from_ply + 4).join(" ");
    btn.textContent = line.index === 0 ? "Main line" : cap(line.name) + `: ${own}${line.moves.length - line.from_ply > 4 ? " …" : ""}`;
    btn.onclick = () => showLine(line.index, line.index === 0 ? r.index : Math.max(r.index, line.from_ply + 1));
    li.appendChild(btn);
    list.appendChild(li);
  }
}

/** Shows line `index` at `ply` moves (its end when shorter). */
function showLine(index, ply) {
  const r = replay;
  if (!r || !r.record.lines[index]) return;
  r.line = index;
  renderLines();
  renderReplayMoves();
  replayTo(ply === undefined ? r.index : ply);
  announce(`${cap(r.record.lines[index].name)}, ${r.record.lines[index].moves.length} moves.`);
}

/** After move `ply` of `line` in the move list: the other moves played there, each a link to
 *  the line that has it. */
function addBranchMarks(li, line, ply) {
  const branch = line.branches.find((b) => b.ply === ply);
  if (!branch) return;
  const others = branch.moves.filter((m) => m.line !== line.index);
  if (others.length === 0) return;
  li.classList.add("branch");
  const span = document.createElement("span");
  span.className = "alternatives";
  span.append("(also ");
  others.forEach((m, k) => {
    if (k > 0) span.append(", ");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "alt";
    b.textContent = m.move === "PA" ? "pass" : m.move;
    const name = replay.record.lines[m.line].name;
    b.title = `${cap(name)}`;
    b.setAttribute("aria-label", `${m.move} instead, ${name}`);
    b.onclick = () => showLine(m.line, ply + 1);
    span.appendChild(b);
  });
  span.append(")");
  li.appendChild(span);
}

/** Plays `move` in the position shown: along a line that has it, or as a variation saved at
 *  once. */
async function playVariation(move) {
  const r = replay;
  if (!r) return;
  const line = shownLine(r);
  try {
    showError(null);
    const played = await backend.playVariation(r.record.info.id, { line: line.id, ply: r.index, move });
    if (replay !== r) return;
    const before = r.record.lines.length;
    r.record.lines = played.lines;
    r.line = played.shown;
    renderLines();
    renderReplayMoves();
    replayTo(played.ply);
    const shown = played.lines[played.shown];
    announce(`${move} played: ${played.lines.length > before ? "new " : ""}${shown.name}.`);
  } catch (e) {
    showError(e);
  }
}

// ---- wiring -----------------------------------------------------------------------------

/** The replay's keys (arrows, Home, End) outside its slider; true when `e` was one. */
export function onReplayKey(e) {
  if (!replay || e.target === $("replay-slider")) return false;
  if (e.key === "ArrowLeft") replayTo(replay.index - 1);
  else if (e.key === "ArrowRight") replayTo(replay.index + 1);
  else if (e.key === "Home") replayTo(0);
  else if (e.key === "End") replayTo(Infinity);
  else return false;
  e.preventDefault();
  return true;
}

export function initReplay() {
  board = createBoard($("replay-board"), {
    events: { play: playVariation, cursor: (sq) => { if (replay) replay.cursor = sq; } },
  });
  $("replay-slider").addEventListener("input", (e) => replayTo(Number(e.target.value)));
  $("replay-prev").onclick = () => replayTo(replay.index - 1);
  $("replay-next").onclick = () => replayTo(replay.index + 1);
  $("replay-pass").onclick = () => playVariation("pass");
  $("analyze").onclick = analyze;
  $("analysis-cancel").onclick = () => cancelJob("analysis");
  $("replay-image").onclick = () => {
    const r = replay;
    if (!r) return;
    const step = shownLine(r).positions[r.index];
    downloadPosition({ rows: step.board, turn: step.turn, rules: r.record.info.rules, last: step.mv,
      legal: true, caption: `Game ${r.record.info.id}, ` + (r.index ? `after move ${r.index}` : "start") });
  };
  $("replay-edit").onclick = () => {
    const r = replay;
    if (!r) return;
    const step = shownLine(r).positions[r.index];
    editPosition(step.board, step.turn, r.record.info.rules);
  };
}
