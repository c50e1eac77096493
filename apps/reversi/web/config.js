// Which backend the page runs on. This copy is the server's (`reversi serve`): its HTTP API.
// scripts/build-web writes the static site's own copy: `backend: "local"` (the engine in the
// browser, backend-local.js) and the service worker that keeps the site for offline use.
export const config = { backend: "http", serviceWorker: null };
