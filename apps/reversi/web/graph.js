// The analysis graph: each position's value as points to go to, its legend, and the values as a table.
//
// Axes, zero line, move numbers and legend; each point a button to go to that move; mistakes
// and blunders told apart by colour and shape; a table for screen readers and exact reading.
// The graph is drawn at the width it is shown at, so that its text keeps its size on a phone.

const SVG_NS = "http://www.w3.org/2000/svg";
const BAD_VERDICTS = ["mistake", "blunder"];

function svgEl(name, attrs, text) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

const signed = (e) => (e > 0 ? "+" : e < 0 ? "\u2212" : "") + Math.abs(e);

/** A step for the value axis that gives two to four ticks either side of zero. */
function valueStep(maxAbs) {
  for (const s of [2, 4, 5, 10, 16, 20, 32, 50, 64, 100]) if (maxAbs / s <= 4) return s;
  return 128;
}

/** A step for the move axis that keeps its labels apart (a 16x16 game has 250 moves). */
function moveStep(moves) {
  for (const s of [5, 10, 20, 50]) if (moves / s <= 8) return s;
  return 100;
}

function moveName(m) {
  return m.played === "PA" ? "pass" : m.played;
}

/** The graph's width in its own units: the width it is shown at (so 12 px text is 12 px on
 *  screen), between a phone's and 560. */
function graphWidth(container) {
  const shown = Math.floor(container.clientWidth || 560);
  return Math.max(300, Math.min(560, shown - 2));
}

/** A point of the graph: a circle, or for a blunder a diamond (told from a mistake by more
 *  than its size or colour). */
function pointShape(cx, cy, verdict) {
  if (verdict === "blunder") {
    const d = 6.5;
    return svgEl("path", { d: `M${cx} ${cy - d}L${cx + d} ${cy}L${cx} ${cy + d}L${cx - d} ${cy}Z` });
  }
  return svgEl("circle", { cx, cy, r: verdict === "mistake" ? 5.5 : 4 });
}

/** Draws the analysis `a` into `container`; `onPick(i)` goes to position i. Drawn again at the
 *  new width when the container's width changes (a phone turned). */
export function drawGraph(container, a, onPick) {
  const W = graphWidth(container), H = 250;
  if (!container.graphResize && window.ResizeObserver) {
    container.graphResize = new ResizeObserver(() => {
      const d = container.graphDrawn;
      if (d && Math.abs(graphWidth(container) - d.width) > 20) drawGraph(container, d.a, d.onPick);
    });
    container.graphResize.observe(container);
  }
  container.graphDrawn = { a, onPick, width: W };
  const left = 46, right = 12, top = 12, bottom = 44;
  const n = a.evals.length;
  const maxAbs = Math.max(4, ...a.evals.map((e) => Math.abs(e)));
  const step = valueStep(maxAbs);
  const span = Math.ceil(maxAbs / step) * step;
  const x = (i) => left + (n > 1 ? (i * (W - left - right)) / (n - 1) : 0);
  const y = (e) => top + ((span - e) * (H - top - bottom)) / (2 * span);
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, role: "group" });
  svg.setAttribute("aria-label", "Evaluation graph: discs ahead for Black after each move; " +
    "choose a point to go there (the table below has the same values)");

  // Grid and value axis: a line at every step, the zero line stronger.
  const grid = svgEl("g", { class: "grid" });
  for (let v = -span; v <= span; v += step) {
    grid.appendChild(svgEl("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), class: v === 0 ? "zero" : "gridline" }));
    grid.appendChild(svgEl("text", { x: left - 6, y: y(v) + 4, class: "tick value" }, v === 0 ? "0" : signed(v)));
  }
  // Move axis: a tick and number every few moves.
  const ms = moveStep((n - 1) * 560 / W);
  for (let i = 0; i < n; i += ms) {
    grid.appendChild(svgEl("line", { x1: x(i), x2: x(i), y1: H - bottom, y2: H - bottom + 5, class: "axis" }));
    grid.appendChild(svgEl("text", { x: x(i), y: H - bottom + 17, class: "tick move" }, String(i)));
  }
  grid.appendChild(svgEl("line", { x1: left, x2: left, y1: top, y2: H - bottom, class: "axis" }));
  grid.appendChild(svgEl("line", { x1: left, x2: W - right, y1: H - bottom, y2: H - bottom, class: "axis" }));
  grid.appendChild(svgEl("text", { x: (left + W - right) / 2, y: H - 6, class: "axis-title" }, "move"));
  grid.appendChild(svgEl("text", {
    x: 12, y: (top + H - bottom) / 2, class: "axis-title",
    transform: `rotate(-90 12 ${(top + H - bottom) / 2})`,
  }, "discs for Black"));
  grid.appendChild(svgEl("text", { x: left + 6, y: top + 12, class: "side-label" }, "Black ahead"));
  grid.appendChild(svgEl("text", { x: left + 6, y: H - bottom - 6, class: "side-label" }, "White ahead"));
  svg.appendChild(grid);

  svg.appendChild(svgEl("polyline", {
    points: a.evals.map((e, i) => `${x(i)},${y(e)}`).join(" "),
    class: "eval-line",
  }));
  a.evals.forEach((e, i) => {
    const m = i > 0 ? a.moves[i - 1] : null;
    const c = pointShape(x(i), y(e), m ? m.verdict : null);
    c.setAttribute("class", "point" + (m ? " " + m.verdict : ""));
    c.setAttribute("tabindex", "0");
    c.setAttribute("role", "button");
    c.dataset.index = String(i);
    let name = i === 0 ? "Start" : `Move ${i} ${moveName(m)}`;
    name += `: ${signed(e)} for Black`;
    if (m && m.loss > 0) name += `, ${m.verdict}, lost ${m.loss}`;
    c.setAttribute("aria-label", name);
    c.appendChild(svgEl("title", {}, name));
    c.addEventListener("click", () => onPick(i));
    c.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); onPick(i); }
    });
    svg.appendChild(c);
  });

  const legend = document.createElement("ul");
  legend.className = "legend";
  legend.setAttribute("aria-label", "Legend");
  for (const [cls, text] of [
    ["line", "the engine's value after each move, in discs for Black (above 0: Black ahead)"],
    ["inaccuracy", "inaccuracy (1-3 discs lost)"], ["mistake", "mistake ? (4-9 discs lost)"],
    ["blunder", "blunder ?? (10+ discs lost)"],
  ]) {
    const li = document.createElement("li");
    li.innerHTML = `<span class="swatch ${cls}" aria-hidden="true"></span>`;
    li.append(text);
    legend.appendChild(li);
  }
  container.replaceChildren(svg, legend, evalTable(a, onPick));
}

/** The same values as a table: each move, who played it, the value after it, the discs lost
 *  and the verdict with the better move. */
function evalTable(a, onPick) {
  const details = document.createElement("details");
  details.className = "eval-table";
  const summary = document.createElement("summary");
  summary.textContent = "The evaluation as a table";
  const table = document.createElement("table");
  table.innerHTML = "<caption>Value after each move, in discs for Black</caption>" +
    "<thead><tr><th scope=\"col\">Move</th><th scope=\"col\">Played</th><th scope=\"col\">By</th>" +
    "<th scope=\"col\">Value for Black</th><th scope=\"col\">Discs lost</th><th scope=\"col\">Verdict</th></tr></thead>";
  const body = document.createElement("tbody");
  a.evals.forEach((e, i) => {
    const m = i > 0 ? a.moves[i - 1] : null;
    const tr = document.createElement("tr");
    tr.dataset.index = String(i);
    if (m) tr.className = m.verdict;
    const verdict = !m ? "" : m.verdict + (BAD_VERDICTS.includes(m.verdict) && m.best ? ` (best ${m.best.square})` : "");
    const cells = [i === 0 ? "start" : String(i), m ? moveName(m) : "", m ? m.color : "", signed(e),
      m && m.loss > 0 ? String(m.loss) : "", verdict];
    cells.forEach((text, k) => {
      const td = document.createElement(k === 0 ? "th" : "td");
      if (k === 0) {
        td.scope = "row";
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = text;
        b.setAttribute("aria-label", i === 0 ? "Go to the start" : `Go to move ${i}`);
        b.onclick = () => onPick(i);
        td.appendChild(b);
      } else {
        td.textContent = text;
      }
      tr.appendChild(td);
    });
    body.appendChild(tr);
  });
  table.appendChild(body);
  details.append(summary, table);
  return details;
}
