// The interface between the page and what plays its games (documented here), its errors, the one in use.
//
// A backend is a plain object with the methods below. The views call only these (never fetch
// or EventSource), so the page runs against any implementation: backend-http.js talks to
// `reversi serve`; another could run the engine in the browser. Every method returns a
// promise of plain JSON-like objects (the shapes are listed in docs/web-backend.md); squares
// are named column letter then row number counted from the top (`a1` top left, `f5`), boards
// are rows of `X` (black), `O` (white) and `.` (empty), top row first, and a pass is `PA` in
// move lists.
//
// Errors. A refusal rejects with a BackendError: `message` (a sentence the page shows as it is)
// and `status`, an HTTP-like code the views tell cases apart by: 400 a malformed request (bad
// square name, level out of 1-60, unknown setting), 403 not this browser's seat or a wrong join
// code, 404 no such game / variation, 409 not possible now (not your turn, game over, nothing
// to undo, seat taken, undo between two browsers), 422 an illegal move or a position that
// cannot be read or reached, 429 too many searches waiting. When the backend cannot be reached
// at all it rejects with Unreachable (a BackendError) and tells onConnection listeners; the
// page then shows "reconnecting" rather than an error. A request given an AbortSignal rejects
// with the browser's AbortError (a DOMException named "AbortError") once the signal fires, and
// the search behind it stops.
//
// capabilities: what this backend can do; the page hides what it cannot. Booleans:
//   sharedGames    two people on two browsers by a link (join codes, spectators, share link)
//   sharedHistory  the history is shared by every browser using the backend (else this
//                  browser's own); informative
//   history        games are stored: history list, replay, variations, analysis
//   importExport   importGames and exportGame
//   explorer       explore (the opening explorer beside 8x8 boards)
//   positionImage  positionImage (the "Download image" buttons)
//   clocks         timed games
//
// Seats. `seat(id)`: this browser's seat in game `id`, synchronously: null for a spectator,
// else { guest: bool, code?: string, color?: "black"|"white" } (the owner, who created the
// game, has guest false and, for a game with a remote side, the `code` a joining person
// needs; a guest who joined has guest true and `color`). createGame and joinGame record it.
//
// Games being played (G = a Game object, see docs/web-backend.md):
//   createGame(settings) → { game: G, token, join_code }. settings: { size: 4-16 even,
//     rules: "othello"|"reversi", black, white: "human" | "ai:LEVEL" (1-60), clock?: "5m+3s",
//     remote?: "black"|"white" (that human side is played from another browser),
//     position?: any text readPosition reads (the game starts there) }. 400 bad settings, 422 a
//     start position that cannot arise or is over.
//   getGame(id) → G. 404 when the game is not being played and cannot be reopened (the page
//     then shows its record from the history).
//   joinGame(id, code) → { game: G, token, color }. 403 wrong code, 409 seat taken / no seat.
//   play(id, square) → G after the move (and any forced pass). 403 not this browser's seat,
//     409 not its turn / game over, 422 illegal square, 400 not a square.
//   undo(id), redo(id), resign(id) → G. 409 nothing to undo/redo, game over, or a game between
//     two browsers (no take-backs); 403 not a player.
//   hints(id, level, { signal }) → { ply, candidates: Candidate[] best first } for the position
//     after `ply` moves. 409 game over, 429 too many searches.
//   watchGame(id, { state(G), thinking(T), error(err) }) → unsubscribe(). Calls state with the
//     current G at once and after every change, thinking with each report of the computer's
//     search while it thinks, in order. Kept up across lost connections (state is called
//     again with the current G on recovery); error(err) once when the game can no longer be
//     watched (404: it went away), after which nothing more is called.
//   site() → { base, public, warning }: where a join link starts (`base` ends in `/`), and why
//     it may not work from another machine (`warning`, else null). sharedGames only.
//
// Levels: levels() → Level[] for 1-60 ({ level, name, time_s, human_rating, human_scale, … }).
//
// History (capabilities.history):
//   listGames({ limit, offset }) → { games: Info[] newest first, total } (total: all stored).
//   getRecord(id) → Record: { info: Info, moves, positions: Step[], live, lines: Line[] }.
//     404 no such game.
//   deleteGame(id) → undefined. 404 no such game.
//   importGames(name, text) → { added, skipped }. 422 a game that does not read or has no end.
//   exportGame(id, format: "ggf"|"transcript") → { filename, type, text }.
//   playVariation(id, { line: Line.id|null, ply, move: square|"pass" }) →
//     { shown: index of the line now shown, ply, lines: Line[] }. 422 illegal, 404 no line.
//   analyzeGame(id, level, { signal, progress }) → Analysis. 429 too many searches. A backend
//     that can tell calls progress({ done, total }) as the positions are analysed.
//
// Positions (any game size; `position` is text: a board string `64 chars of X/O/- then X|O`,
//   an OBF line, GGF, or a transcript such as `f5d6c3` played from the start of size/rules):
//   readPosition({ position, size?, rules? }) → Position. 422 naming what is wrong.
//   analyzePosition({ position, rules?, level }) → { level, position: Position,
//     passed: color|null, moves: (Candidate & { line: square[] })[] best first }.
//   positionImage({ position, rules, last?, legal?, caption? }) → { filename, type, text }:
//     the board as an SVG file (`last` ringed, legal moves marked when `legal`).
//   explore(position, { signal }) → Explore: the stored games' moves from an 8x8 position,
//     each valued (the opening book's value, else a short search that `signal` stops).
//
// Connection: onConnection(listener(up: bool)) → unsubscribe(); called with false when the
//   backend stops answering and true when it answers again.

/** A refusal: `status` says which kind (see above), `message` what happened. */
export class BackendError extends Error {
  constructor(message, status) {
    super(message);
    this.name = "BackendError";
    this.status = status;
  }
}

/** The backend could not be reached at all (not a refusal): the page says it reconnects. */
export class Unreachable extends BackendError {
  constructor(message) {
    super(message, 0);
    this.name = "Unreachable";
  }
}

/** The backend in use (set once by main.js before any view runs). */
export let backend = null;

export function setBackend(b) {
  backend = b;
}
