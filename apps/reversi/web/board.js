// The board component: squares, discs, coordinates, cursor, bigger squares; config in, events out.
// It knows nothing of games or backends (as lichess's chessground):
//
//   const board = createBoard(element, config);  board.set(changes);  board.state
//
// config (every field optional; `set` changes only the fields it is given):
//   rows       the board: rows of "X" (black), "O" (white), "." or "-" (empty), top row first
//   legal      the squares that may be played (array or Set of names: "f5")
//   showLegal  mark the legal squares (default true)
//   last       the square of the last move (ringed), or null
//   hints      { square: { label, kind, exact, depth } } scores shown on the squares, or null
//   movable    the legal squares are buttons that play (events.play)
//   editable   every square is a button (events.select) and says "click to change"
//   cursor     the square the keyboard starts from (the board follows focus itself; null
//              goes back to the first legal square)
//   animate    mark what changed since the last position drawn: the class `flip` on a disc
//              that changed colour, `placed` on a disc that appeared (on the disc element and
//              on its square, for as long as the same position is drawn again); false clears
//              the marks and draws the position as it is (a new game, another line)
//   events     { play(square), select(square), cursor(square) }
//
// Squares are buttons with `data-square`, `data-row`, `data-col`, the classes `sq`, the disc's
// colour (`black`, `white`, `empty`), `legal`, `last`, `hinted`, `flip`, `placed`, and an
// aria-label such as "f5, empty, legal move".

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

/** What changed between two boards of the same size: discs that changed colour (flipped)
 *  and discs that appeared (placed). */
function changes(before, after) {
  const marks = new Map();
  after.forEach((row, r) => {
    for (let c = 0; c < row.length; c++) {
      const was = discName(before[r][c]), now = discName(row[c]);
      if (was === now || now === "empty") continue;
      marks.set(squareName(c, r), was === "empty" ? "placed" : "flip");
    }
  });
  return marks;
}

export function createBoard(el, config) {
  const state = { rows: [], legal: [], showLegal: true, last: null, hints: null, movable: false,
    editable: false, cursor: null, animate: false, events: {} };
  let drawn = null;      // the rows last drawn
  let marks = new Map(); // square → "flip" | "placed", for the position last drawn
  let fresh = new Set(); // squares marked by this draw (their animation starts again)

  function mark(rows) {
    const same = drawn && drawn.length === rows.length && drawn.every((row, r) => row === rows[r]);
    if (!state.animate || !drawn || drawn.length !== rows.length) {
      marks = new Map();
      fresh = new Set();
    } else if (!same) {
      marks = changes(drawn, rows);
      fresh = new Set(marks.keys());
    } else {
      fresh = new Set();
    }
    drawn = rows.slice();
  }

  function draw() {
    const rows = state.rows;
    const n = rows.length;
    mark(rows);
    const legalSet = new Set(state.legal);
    el.style.setProperty("--n", n);
    if (el.parentElement && el.parentElement.classList.contains("board-frame")) {
      drawCoordinates(el.parentElement, n);
    }
    if (el.children.length !== n * n) {
      el.innerHTML = "";
      for (let r = 0; r < n; r++) {
        for (let c = 0; c < n; c++) {
          const b = document.createElement("button");
          b.type = "button";
          b.className = "sq";
          b.dataset.square = squareName(c, r);
          b.dataset.col = c;
          b.dataset.row = r;
          b.innerHTML = '<span class="disc" aria-hidden="true"></span><span class="hint-label" aria-hidden="true"></span>';
          el.appendChild(b);
        }
      }
    }
    let focusable = state.cursor;
    if (!focusable || !el.querySelector(`[data-square="${focusable}"]`)) {
      focusable = [...legalSet][0] || squareName(0, 0);
    }
    for (const b of el.children) {
      const sq = b.dataset.square;
      const r = Number(b.dataset.row), c = Number(b.dataset.col);
      const who = discName(rows[r][c]);
      const legal = legalSet.has(sq);
      const hint = state.hints ? state.hints[sq] : null;
      const change = marks.get(sq) || null;
      b.className = "sq " + who;
      if (legal && state.showLegal) b.classList.add("legal");
      if (sq === state.last) b.classList.add("last");
      if (change) b.classList.add(change);
      if (hint) b.classList.add("hinted");
      const disc = b.querySelector(".disc");
      if (fresh.has(sq) && disc.classList.contains(change)) {
        // The same mark again (a disc flipped back and forth): its animation starts over.
        disc.className = "disc";
        void disc.offsetWidth;
      }
      disc.className = "disc" + (change ? " " + change : "");
      const hl = b.querySelector(".hint-label");
      hl.replaceChildren();
      // "depth 6", never "d6": that reads as a square.
      const kindText = hint ? (hint.exact ? "exact" : hint.depth ? `depth ${hint.depth}` : hint.kind) : "";
      if (hint) {
        const score = document.createElement("span");
        score.className = "hint-score";
        score.textContent = hint.label;
        const kind = document.createElement("span");
        kind.className = "hint-kind";
        kind.textContent = kindText;
        // A space between the two, so that the visible text reads "-18 depth 3" as the
        // square's name does (WCAG 2.5.3, label in name).
        hl.append(score, " ", kind);
      }
      if (hint) b.title = `${hint.label} (${hint.kind})`; else b.removeAttribute("title");
      let name = `${sq}, ${who}`;
      if (state.editable) {
        name += ": click to change";
      } else {
        if (legal) name += ", legal move";
        if (sq === state.last) name += ", last move";
        if (hint) name += `, hint ${hint.label} ${kindText}`;
      }
      b.setAttribute("aria-label", name);
      b.setAttribute("aria-disabled", String(!(state.editable || (state.movable && legal))));
      b.tabIndex = sq === focusable ? 0 : -1;
      b.onclick = () => {
        const ev = state.events;
        if (state.editable) {
          state.cursor = sq;
          if (ev.select) ev.select(sq);
        } else if (state.movable && legal && ev.play) {
          ev.play(sq);
        }
      };
      b.onfocus = () => {
        state.cursor = sq;
        if (state.events.cursor) state.events.cursor(sq);
      };
      b.onkeydown = (e) => moveCursor(e, el, n);
    }
    fitBoard(el);
  }

  const board = {
    el,
    state,
    /** Changes the fields given and draws the board again. */
    set(changes) {
      Object.assign(state, changes);
      if (state.rows.length) draw();
    },
  };
  board.set(config || {});
  return board;
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
