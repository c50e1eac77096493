// The page's start: the backend, the level lists, routing between views, keys, the connection notice.
import { setBackend, backend } from "./backend.js";
import { api, createHttpBackend } from "./backend-http.js";
import { config } from "./config.js";
import { openEditor, initEditor } from "./editor.js";
import { createGame, currentGame, currentGameId, initGame, joinGame, onGameKey, openGame, refreshGame, stopWatching } from "./game.js";
import { historyPage, initHistory, openHistory } from "./history.js";
import { initNewGame } from "./new-game.js";
import { analyze, initReplay, onReplayKey, openReplay } from "./replay.js";
import { soundState } from "./sound.js";
import { $, announce, cancelJob, setNotice, show, showError, shown, takeNotice } from "./ui.js";

// ---- the backend ------------------------------------------------------------------------

/** The static site (config.js says `local`): the engine in this browser, and the service
 *  worker that keeps the site for offline use. Served by `reversi serve`: its HTTP API. */
async function chooseBackend() {
  if (config.backend !== "local") return createHttpBackend();
  setNotice("Starting the engine…");
  const { createLocalBackend } = await import("./backend-local.js");
  const local = await createLocalBackend();
  // After the engine, so that its first download has the line to itself.
  if (config.serviceWorker && "serviceWorker" in navigator) keepOffline(config.serviceWorker);
  return local;
}

// Set once a new build of the static site has been installed: said above every view until
// the page is reloaded.
let newVersion = null;

/** Registers the service worker that keeps the site's files (each build replaces the cache
 *  of the one before), and says when a new build has been installed. */
function keepOffline(url) {
  const updating = !!navigator.serviceWorker.controller;
  // Checked for a new build at every start (the browser's own check may wait), offline too
  // (then it fails, quietly).
  navigator.serviceWorker.register(url).then((reg) => reg.update()).catch(() => {});
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!updating) return;
    newVersion = "A new version of this page was installed: reload the page to use it.";
    setNotice(newVersion);
  });
}

try {
  setBackend(await chooseBackend());
} catch (e) {
  setNotice(null);
  showError(new Error(`The engine could not start in this browser: ${e.message || e}`));
  throw e;
}

// ---- levels -----------------------------------------------------------------------------

// The levels as the backend describes them (name, human rating, time per move: the names
// come from the program's one list, `Level::NAMED`); the numbers alone if that fails.
async function fillLevels() {
  let levels = null;
  try {
    levels = await backend.levels();
  } catch (_) {
    levels = null;
  }
  const label = (n) => {
    const l = levels && levels.find((x) => x.level === n);
    const name = l && l.name;
    const time = l ? `≤ ${l.time_s} s` : null;
    const like = l && l.human_rating ? `like a ${l.human_rating} player` : null;
    const extra = [name, like, time].filter(Boolean).join(", ");
    return extra ? `${n} (${extra})` : String(n);
  };
  for (const sel of document.querySelectorAll("select.level")) {
    for (let n = 1; n <= 60; n++) {
      const o = document.createElement("option");
      o.value = String(n);
      o.textContent = label(n);
      sel.appendChild(o);
    }
  }
  document.querySelector("select[name=black-level]").value = "3";
  document.querySelector("select[name=white-level]").value = "3";
  $("hint-level").value = "6";
  // The analysis that rates each side's game on the human scale, when there is one.
  const scale = levels && levels.find((x) => x.human_scale);
  $("analysis-level").value = scale ? String(scale.level) : "4";
  $("editor-level").value = "3";
  $("editor-analysis-level").value = "6";
}

// ---- routing ----------------------------------------------------------------------------

async function route() {
  showError(null);
  setNotice(takeNotice() || newVersion);
  const hash = location.hash || "#/new";
  const parts = hash.replace(/^#\/?/, "").split("/");
  if (parts[0] !== "game") cancelJob("hint");
  if (parts[0] !== "replay") cancelJob("analysis");
  try {
    if (parts[0] === "game" && parts[1]) {
      await openGame(Number(parts[1]));
    } else if (parts[0] === "join" && parts[1]) {
      await joinGame(Number(parts[1]), parts[2] || "");
    } else if (parts[0] === "history" && backend.capabilities.history) {
      stopWatching();
      await openHistory(Math.max(1, Number(parts[1]) || 1));
    } else if (parts[0] === "replay" && parts[1] && backend.capabilities.history) {
      stopWatching();
      await openReplay(Number(parts[1]));
      // From a finished game's "Analyse this game": analysed at once, and the address made
      // the replay's own (a reload shows the replay, not another analysis).
      if (parts[2] === "analyse") {
        history.replaceState(null, "", `#/replay/${parts[1]}`);
        analyze();
      }
    } else if (parts[0] === "editor") {
      stopWatching();
      openEditor();
    } else {
      stopWatching();
      show("new-view");
    }
  } catch (e) {
    showError(e);
  }
}

/** Shows the current view again from fresh data, once the backend answers again. */
function refresh() {
  if (shown("game-view")) refreshGame();
  else if (shown("history-view")) openHistory(historyPage()).catch(showError);
}

/** The backend stopped or started answering: say so (the views recover by themselves). */
function connection(up) {
  document.body.dataset.connection = up ? "up" : "down";
  $("connection").hidden = up;
  if (up) {
    announce("Connected to the server again.");
    refresh();
  } else {
    announce("Lost the connection to the server; reconnecting.");
  }
}

// ---- keys -------------------------------------------------------------------------------

function onKey(e) {
  const t = e.target;
  if (t && (t.tagName === "INPUT" && t.type !== "checkbox" && t.type !== "range" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (shown("game-view")) onGameKey(e);
  else if (shown("replay-view")) onReplayKey(e);
}

// ---- start ------------------------------------------------------------------------------

function init() {
  fillLevels();
  initNewGame();
  initGame();
  initHistory();
  initReplay();
  initEditor();
  // What the backend cannot do is not offered.
  if (!backend.capabilities.history) {
    document.querySelector('nav a[href="#/history"]').hidden = true;
  }
  if (!backend.capabilities.positionImage) {
    for (const b of document.querySelectorAll(".download-image")) b.hidden = true;
  }
  // What needs the server, and where to get it.
  const serverNote = $("server-note");
  if (serverNote) serverNote.hidden = backend.capabilities.sharedGames;
  backend.onConnection(connection);
  document.addEventListener("keydown", onKey);
  // Keyboard hints are hidden on a touch screen: decided at the start by the device's main
  // pointer, then by the pointer each tap or click comes from (a laptop's touch screen hides
  // them, its mouse shows them again). Read once rather than as a CSS media query, which
  // Chromium's full-page screenshots briefly turn off, showing the hints in phone screenshots.
  const root = document.documentElement;
  root.dataset.touch = String(matchMedia("(hover: none), (pointer: coarse)").matches);
  document.addEventListener("pointerdown", (e) => {
    root.dataset.touch = String(e.pointerType !== "mouse");
  }, { passive: true });
  window.addEventListener("hashchange", route);
  route();
}

// The tests' hooks: the page's own functions, called from the browser tests.
Object.assign(window, {
  createGame,
  tokenFor: (id) => backend.seat(id),
  api,
  app: {
    get game() { return currentGame(); },
    get gameId() { return currentGameId(); },
    // The move sound: { on, played (clicks asked for), context (the AudioContext's state) }.
    get sound() { return soundState(); },
  },
});

init();
