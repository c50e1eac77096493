// The history view: the stored games, 50 a page, with links, downloads, deletion and the import form.
import { backend } from "./backend.js";
import { $, announce, playerText, resultText, saveFile, show, showError } from "./ui.js";

const PAGE = 50;

let page = 1; // the page shown

export const historyPage = () => page;

/** A stored time in the reader's own time zone: `2026-11-22T18:04:05Z` becomes
 *  `2026-11-22 19:04` in Paris. Dates without a time (imported games) stay as they are. */
function localTime(stamp) {
  if (!stamp) return "";
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?Z$/.test(stamp)) return stamp.replace("T", " ");
  const d = new Date(stamp);
  if (Number.isNaN(d.getTime())) return stamp;
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The time zone the history's times are shown in, for its column heading. */
function zoneName() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "local time";
  } catch (_) {
    return "local time";
  }
}

/** A link that downloads game `id` in `format` from the backend. */
function exportLink(id, format, text) {
  const a = document.createElement("a");
  a.href = "#";
  a.textContent = text;
  a.onclick = async (e) => {
    e.preventDefault();
    try {
      saveFile(await backend.exportGame(id, format));
    } catch (err) {
      showError(err);
    }
  };
  return a;
}

/** One row of the list. */
function gameRow(g, headings) {
  const tr = document.createElement("tr");
  tr.dataset.id = g.id;
  const cells = [String(g.id), localTime(g.started_at), playerText(g.black),
    playerText(g.white), `${g.size}x${g.size} ${g.rules}`, resultText(g)];
  cells.forEach((c, k) => {
    const td = document.createElement("td");
    td.textContent = c;
    // The phone layout shows each game as a card, each value under its heading.
    td.dataset.label = headings[k];
    if (k === 1 && g.started_at) {
      td.title = `${g.started_at.replace("T", " ").replace("Z", "")} UTC`;
      td.className = "date";
    }
    tr.appendChild(td);
  });
  const td = document.createElement("td");
  td.className = "actions";
  const play = g.status === "in_progress" ? `<a href="#/game/${g.id}" class="continue">Open</a> ` : "";
  td.innerHTML = play + `<a href="#/replay/${g.id}" class="replay">Replay</a> `;
  if (backend.capabilities.importExport) {
    td.append(exportLink(g.id, "ggf", "GGF"), " ", exportLink(g.id, "transcript", "Transcript"), " ");
  }
  const del = document.createElement("button");
  del.type = "button";
  del.className = "delete";
  del.setAttribute("aria-label", `Delete game ${g.id}`);
  del.textContent = "Delete";
  del.onclick = async () => {
    if (!window.confirm(`Delete game ${g.id}?`)) return;
    try {
      await backend.deleteGame(g.id);
      announce(`Game ${g.id} deleted.`);
      await openHistory(page);
    } catch (e) {
      showError(e);
    }
  };
  td.appendChild(del);
  tr.appendChild(td);
  return tr;
}

/** One page of the history, newest first (page 1 the newest 50). */
export async function openHistory(n) {
  show("history-view");
  const { games, total } = await backend.listGames({ limit: PAGE, offset: (n - 1) * PAGE });
  const pages = Math.max(1, Math.ceil(total / PAGE));
  if (n > pages && total > 0) {
    location.replace(`#/history/${pages}`);
    return;
  }
  page = n;
  $("history-date").textContent = `Started (${zoneName()})`;
  const first = (n - 1) * PAGE + 1;
  $("history-range").textContent = total === 0 ? "" :
    `Games ${first}-${first + games.length - 1} of ${total}, newest first (page ${n} of ${pages})`;
  $("history-pages").hidden = total === 0;
  $("history-newer").disabled = n <= 1;
  $("history-older").disabled = n >= pages;
  $("history-newer").onclick = () => { location.hash = n - 1 > 1 ? `#/history/${n - 1}` : "#/history"; };
  $("history-older").onclick = () => { location.hash = `#/history/${n + 1}`; };
  const body = $("history-table").querySelector("tbody");
  body.innerHTML = "";
  $("history-empty").hidden = games.length > 0;
  $("history-table").hidden = games.length === 0;
  const headings = [...$("history-table").querySelectorAll("thead th")].map((th) => th.textContent);
  for (const g of games) body.appendChild(gameRow(g, headings));
}

async function importFile(e) {
  e.preventDefault();
  const file = $("import-file").files[0];
  if (!file) {
    showError(new Error("Choose a file to import first."));
    return;
  }
  try {
    showError(null);
    const text = await file.text();
    const r = await backend.importGames(file.name, text);
    $("import-status").textContent = `${r.added} added, ${r.skipped} skipped as duplicates.`;
    await openHistory(page);
  } catch (err) {
    showError(err);
  }
}

export function initHistory() {
  $("import-form").addEventListener("submit", importFile);
  $("import-form").hidden = !backend.capabilities.importExport;
}
