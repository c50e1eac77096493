// The new-game form: sides, levels, board, rule, clock, a game between two browsers; starts the game.
import { backend } from "./backend.js";
import { createGame } from "./game.js";
import { $, showError } from "./ui.js";

function readForm() {
  const f = $("new-form");
  const side = (c) => f[c].value === "human" ? "human" : "ai:" + f[c + "-level"].value;
  const s = { size: Number(f.size.value), rules: f.rules.value, black: side("black"), white: side("white") };
  if (f.clock.value) s.clock = f.clock.value;
  if (f.remote.checked) {
    if (s.black !== "human" || s.white !== "human") {
      throw new Error("A game over a link needs a human on both sides.");
    }
    s.remote = f["remote-side"].value;
  }
  return s;
}

function swapSides() {
  const f = $("new-form");
  for (const [a, b] of [["black", "white"], ["black-level", "white-level"]]) {
    const t = f[a].value;
    f[a].value = f[b].value;
    f[b].value = t;
  }
  syncForm();
}

/** The new-game form shows what applies: a level for a computer side only, and who the person
 *  joining plays only for a game between two browsers (which has people on both sides). */
function syncForm(changed) {
  const f = $("new-form");
  if (changed === f.remote && f.remote.checked) {
    f.black.value = "human";
    f.white.value = "human";
  } else if ((changed === f.black || changed === f.white) && changed.value !== "human") {
    f.remote.checked = false;
  }
  $("black-level-label").hidden = f.black.value === "human";
  $("white-level-label").hidden = f.white.value === "human";
  $("remote-side-label").hidden = !f.remote.checked;
}

export function initNewGame() {
  const f = $("new-form");
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      showError(null);
      await createGame(readForm());
    } catch (err) {
      showError(err);
    }
  });
  $("swap").onclick = swapSides;
  for (const name of ["black", "white", "remote"]) {
    const field = f[name];
    field.addEventListener("change", () => syncForm(field));
  }
  // What the backend cannot do is not offered.
  const caps = backend.capabilities;
  if (!caps.sharedGames) f.remote.closest("label").hidden = true;
  if (!caps.clocks) f.clock.closest("label").hidden = true;
  syncForm();
}
