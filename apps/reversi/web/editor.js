// The position editor: a board set up square by square or pasted, checked, analysed or played from.
import { backend, Unreachable } from "./backend.js";
import { createBoard } from "./board.js";
import { createGame } from "./game.js";
import { $, announce, cap, downloadPosition, show, showError } from "./ui.js";

// The position being set up: each square "X", "O" or "-", row by row from a1. The backend
// reads and checks it (readPosition), so the page holds no rules of its own.
const editor = { size: 8, rules: "othello", cells: [], turn: "black", view: null, hints: null, seq: 0, cursor: null };

let board = null;

/** The position as a board string (`---…OX… X`), as the backend reads it. */
function editorText() {
  return editor.cells.join("") + " " + (editor.turn === "black" ? "X" : "O");
}

/** The board as rows (`-` empty). */
function editorRows() {
  const n = editor.size, rows = [];
  for (let r = 0; r < n; r++) rows.push(editor.cells.slice(r * n, (r + 1) * n).join(""));
  return rows;
}

/** The start of the board and rule chosen: the four centre discs (Othello) or none. */
function editorStart() {
  const n = editor.size, m = n / 2 - 1;
  editor.cells = Array(n * n).fill("-");
  if (editor.rules === "othello") {
    editor.cells[m * n + m] = "O";
    editor.cells[m * n + m + 1] = "X";
    editor.cells[(m + 1) * n + m] = "X";
    editor.cells[(m + 1) * n + m + 1] = "O";
  }
  editor.turn = "black";
  editorChanged();
}

export function openEditor() {
  show("editor-view");
  if (editor.cells.length !== editor.size * editor.size) editorStart(); else editorChanged();
}

/** Opens the editor on a board shown elsewhere (a replay position). */
export function editPosition(rows, turn, rules) {
  editor.size = rows.length;
  editor.rules = rules;
  editor.cells = rows.join("").replace(/\./g, "-").split("");
  editor.turn = turn || "black";
  location.hash = "#/editor";
}

function drawEditor() {
  const el = $("editor-board");
  el.dataset.position = editorText();
  board.set({
    rows: editorRows(), legal: editor.view ? editor.view.legal : [], showLegal: true, last: null,
    hints: editor.hints, editable: true, cursor: editor.cursor,
  });
  $("editor-size").value = String(editor.size);
  $("editor-rules").value = editor.rules;
  for (const r of document.querySelectorAll("input[name=editor-turn]")) r.checked = r.value === editor.turn;
}

/** A square clicked: it cycles empty, black, white. */
function cycle(sq) {
  const i = (Number(sq.slice(1)) - 1) * editor.size + "abcdefghijklmnop".indexOf(sq[0]);
  editor.cells[i] = { "-": "X", X: "O", O: "-" }[editor.cells[i]];
  editor.cursor = sq;
  editorChanged();
}

/** The position changed: drawn at once, then checked by the backend (the last answer wins). */
async function editorChanged() {
  editor.view = null;
  editor.hints = null;
  $("editor-analysis").hidden = true;
  $("editor-analysis-status").textContent = "";
  drawEditor();
  const seq = ++editor.seq;
  let view = null, problem = null;
  try {
    view = await backend.readPosition({ position: editorText(), rules: editor.rules });
  } catch (e) {
    if (e instanceof Unreachable) return;
    problem = e.message;
  }
  if (seq !== editor.seq) return;
  editor.view = view;
  $("editor-problem").textContent = problem ? cap(problem) : "";
  $("editor-problem").hidden = !problem;
  for (const id of ["editor-play", "editor-analyze", "editor-image"]) $(id).disabled = !view;
  $("editor-play").disabled = !view || view.over;
  let text = "Not a position a game can reach.";
  if (view) {
    const counts = `Black ${view.counts.black}, White ${view.counts.white}.`;
    if (view.over) text = `Neither side can move: the game is over. ${counts}`;
    else if (view.must_pass) text = `${cap(view.turn)} to move has no square and passes. ${counts}`;
    else text = `${cap(view.turn)} to move, ${view.legal.length} legal move${view.legal.length === 1 ? "" : "s"}. ${counts}`;
  }
  $("editor-status").textContent = text;
  drawEditor();
}

/** Reads pasted text (board string, OBF, GGF or transcript) through the backend. */
async function editorPaste(e) {
  e.preventDefault();
  const text = $("editor-paste").value.trim();
  if (!text) return;
  try {
    const v = await backend.readPosition({ position: text, size: editor.size, rules: editor.rules });
    editor.size = v.size;
    editor.rules = v.rules;
    editor.cells = v.board.join("").replace(/\./g, "-").split("");
    editor.turn = v.turn;
    announce(`Read a ${v.format}: ${v.text}.`);
    editorChanged();
  } catch (err) {
    if (err instanceof Unreachable) return;
    $("editor-problem").textContent = `Cannot read that: ${err.message}`;
    $("editor-problem").hidden = false;
  }
}

async function editorPlay() {
  const level = $("editor-level").value;
  const side = (id) => ($(id).value === "human" ? "human" : "ai:" + level);
  try {
    showError(null);
    await createGame({ size: editor.size, rules: editor.rules, black: side("editor-black"),
      white: side("editor-white"), position: editorText() });
  } catch (e) {
    showError(e);
  }
}

/** Every move's score, as `reversi analyze` gives them, in the table and on the board. */
async function editorAnalyze() {
  const level = Number($("editor-analysis-level").value);
  const seq = editor.seq;
  $("editor-analyze").disabled = true;
  $("editor-analysis-busy").hidden = false;
  $("editor-analysis-status").textContent = `Analysing at level ${level}…`;
  try {
    const a = await backend.analyzePosition({ position: editorText(), rules: editor.rules, level });
    if (seq !== editor.seq) return;
    const body = $("editor-analysis").querySelector("tbody");
    body.replaceChildren();
    editor.hints = {};
    for (const m of a.moves) {
      editor.hints[m.square] = m;
      const tr = document.createElement("tr");
      for (const text of [m.square, m.label, m.kind, m.line.join(" ")]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    $("editor-analysis").hidden = a.moves.length === 0;
    const pass = a.passed ? `${cap(a.passed)} passes; ` : "";
    $("editor-analysis-status").textContent = a.moves.length
      ? `${pass}${a.moves.length} move${a.moves.length === 1 ? "" : "s"} scored at level ${a.level}, best ${a.moves[0].square} ${a.moves[0].label}.`
      : "The game is over: no move to score.";
    drawEditor();
  } catch (e) {
    $("editor-analysis-status").textContent = "";
    showError(e);
  } finally {
    $("editor-analyze").disabled = !editor.view;
    $("editor-analysis-busy").hidden = true;
  }
}

export function initEditor() {
  board = createBoard($("editor-board"), {
    events: { select: cycle, cursor: (sq) => { editor.cursor = sq; } },
  });
  $("editor-board").dataset.myTurn = "true";
  $("editor-size").onchange = () => { editor.size = Number($("editor-size").value); editorStart(); };
  $("editor-rules").onchange = () => { editor.rules = $("editor-rules").value; editorChanged(); };
  for (const r of document.querySelectorAll("input[name=editor-turn]")) {
    r.onchange = () => { editor.turn = r.value; editorChanged(); };
  }
  // Clear and Start position start afresh: the paste box forgets what was read before.
  $("editor-clear").onclick = () => {
    editor.cells = editor.cells.map(() => "-");
    $("editor-paste").value = "";
    editorChanged();
  };
  $("editor-start").onclick = () => { $("editor-paste").value = ""; editorStart(); };
  const levelShown = () => {
    $("editor-level-label").hidden = $("editor-black").value === "human" && $("editor-white").value === "human";
  };
  $("editor-black").addEventListener("change", levelShown);
  $("editor-white").addEventListener("change", levelShown);
  levelShown();
  $("editor-paste-form").addEventListener("submit", editorPaste);
  $("editor-play").onclick = editorPlay;
  $("editor-analyze").onclick = editorAnalyze;
  $("editor-image").onclick = () => {
    downloadPosition({ rows: editorRows(), turn: editor.turn, rules: editor.rules, legal: true });
  };
}
