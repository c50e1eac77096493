// reversi serve's page: draws a board (game or replay) with its coordinates, moves the
// keyboard cursor over it, and offers bigger squares (the board scrolling in its box) where
// they are small. Plain JavaScript loaded before app.js, no build step.
"use strict";

const COLS = "abcdefghijklmnop";

/** Squares narrower than this (CSS px) show a hint's score without its kind, and the board
 *  offers bigger squares. */
const SMALL_SQUARE = 34;

/** The project's name of a square: column letter, then row number counted from the top. */
function squareName(col, row) {
  return COLS[col] + (row + 1);
}

function discName(ch) {
  return ch === "X" ? "black" : ch === "O" ? "white" : "empty";
}

/** The letters above and below the board and the numbers beside it, as the square names read
 *  them (a1 top left). Screen readers get the names from the squares, so these are hidden. */
function drawCoordinates(frame, n) {
  if (!frame || frame.dataset.n === String(n)) return;
  frame.dataset.n = String(n);
  frame.style.setProperty("--n", n);
  for (const where of ["top", "bottom", "left", "right"]) {
    let strip = frame.querySelector(`.coords.${where}`);
    if (!strip) {
      strip = document.createElement("div");
      strip.className = `coords ${where}`;
      strip.setAttribute("aria-hidden", "true");
      frame.appendChild(strip);
    }
    strip.replaceChildren();
    for (let i = 0; i < n; i++) {
      const span = document.createElement("span");
      span.textContent = where === "top" || where === "bottom" ? COLS[i] : String(i + 1);
      strip.appendChild(span);
    }
  }
}

function drawBoard(board, rows, o) {
  const n = rows.length;
  board.style.setProperty("--n", n);
  if (board.parentElement && board.parentElement.classList.contains("board-frame")) {
    drawCoordinates(board.parentElement, n);
  }
  const wanted = n * n;
  if (board.children.length !== wanted) {
    board.innerHTML = "";
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "sq";
        b.dataset.square = squareName(c, r);
        b.dataset.col = c;
        b.dataset.row = r;
        b.innerHTML = '<span class="disc" aria-hidden="true"></span><span class="hint-label" aria-hidden="true"></span>';
        board.appendChild(b);
      }
    }
  }
  let focusable = o.cursor;
  if (!focusable || !board.querySelector(`[data-square="${focusable}"]`)) {
    focusable = [...o.legal][0] || squareName(0, 0);
  }
  for (const b of board.children) {
    const sq = b.dataset.square;
    const r = Number(b.dataset.row), c = Number(b.dataset.col);
    const who = discName(rows[r][c]);
    const legal = o.legal.has(sq);
    const hint = o.hints ? o.hints[sq] : null;
    b.className = "sq " + who;
    if (legal && o.showLegal) b.classList.add("legal");
    if (sq === o.last) b.classList.add("last");
    if (o.flipped.has(sq)) b.classList.add("flip");
    if (sq === o.placed) b.classList.add("placed");
    if (hint) b.classList.add("hinted");
    const hl = b.querySelector(".hint-label");
    hl.replaceChildren();
    if (hint) {
      const score = document.createElement("span");
      score.className = "hint-score";
      score.textContent = hint.label;
      const kind = document.createElement("span");
      kind.className = "hint-kind";
      // "depth 6", never "d6": that reads as a square.
      kind.textContent = hint.exact ? "exact" : hint.depth ? `depth ${hint.depth}` : hint.kind;
      hl.append(score, kind);
    }
    if (hint) b.title = `${hint.label} (${hint.kind})`; else b.removeAttribute("title");
    let name = `${sq}, ${who}`;
    if (legal) name += ", legal move";
    if (sq === o.last) name += ", last move";
    if (hint) name += `, hint ${hint.label} ${hint.exact ? "exact" : hint.kind}`;
    b.setAttribute("aria-label", name);
    b.setAttribute("aria-disabled", String(!(o.clickable && legal)));
    b.tabIndex = sq === focusable ? 0 : -1;
    b.onclick = o.onPlay ? () => { if (o.clickable && legal) o.onPlay(sq); } : null;
    b.onfocus = () => { if (o.onCursor) o.onCursor(sq); };
    b.onkeydown = (e) => moveCursor(e, board, n);
  }
  fitBoard(board);
}

/** Marks a board whose squares are small, and offers (or withdraws) bigger squares for it: a
 *  16x16 board on a phone has 22 px squares, too small to tap with confidence. Bigger squares
 *  scroll inside the board's box (the coordinates stay in view), so the controls below stay
 *  where they were. A board of another size starts whole again. */
function fitBoard(board) {
  const scroll = board.closest(".board-scroll");
  const n = board.style.getPropertyValue("--n");
  if (scroll && scroll.classList.contains("zoomed") && scroll.dataset.zoomN !== n) zoomBoard(board, false);
  const zoomed = !!scroll && scroll.classList.contains("zoomed");
  const first = board.firstElementChild;
  const size = first ? first.getBoundingClientRect().width : 0;
  const small = size > 0 && size < SMALL_SQUARE;
  board.dataset.small = String(small);
  const bar = scroll && scroll.nextElementSibling;
  if (!bar || !bar.classList.contains("board-zoom")) return;
  bar.hidden = !(small || zoomed);
  const button = bar.querySelector("button");
  button.onclick = () => zoomBoard(board, !scroll.classList.contains("zoomed"));
}

function zoomBoard(board, on) {
  const scroll = board.closest(".board-scroll");
  if (!scroll) return;
  scroll.classList.toggle("zoomed", on);
  scroll.dataset.zoomN = on ? board.style.getPropertyValue("--n") : "";
  const button = scroll.nextElementSibling && scroll.nextElementSibling.querySelector("button");
  if (button) {
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? "Whole board" : "Bigger squares";
  }
  if (on) {
    // The middle of the board, where a game starts, in view; and the page scrolled to the
    // board's column, so that the status above it and the controls below are on screen.
    scroll.scrollLeft = (scroll.scrollWidth - scroll.clientWidth) / 2;
    scroll.scrollTop = (scroll.scrollHeight - scroll.clientHeight) / 2;
    const column = scroll.closest(".play > div") || scroll;
    column.scrollIntoView({ block: "start" });
  }
  fitBoard(board);
}

// A turned phone or a resized window changes the squares' size.
window.addEventListener("resize", () => {
  for (const board of document.querySelectorAll(".board")) if (board.children.length) fitBoard(board);
});

function moveCursor(e, board, n) {
  const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
  if (!d) return;
  e.preventDefault();
  e.stopPropagation();
  const b = e.currentTarget;
  const c = Math.min(n - 1, Math.max(0, Number(b.dataset.col) + d[0]));
  const r = Math.min(n - 1, Math.max(0, Number(b.dataset.row) + d[1]));
  const next = board.querySelector(`[data-col="${c}"][data-row="${r}"]`);
  if (next) {
    b.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  }
}
