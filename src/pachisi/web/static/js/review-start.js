// Starting a game review from the game and replay pages: a finished game's, or an uploaded
// record file's. Either way the page goes on to the review's own page, which follows it.

import { ApiError, withQuery } from "./api.js";

async function started(response) {
  if (response.ok) return (await response.json()).id;
  let message = response.statusText;
  try {
    const body = await response.json();
    if (typeof body.detail === "string") message = body.detail;
  } catch {
    // not JSON: the status text says enough
  }
  throw new ApiError(response.status, message);
}

function goTo(reviewId) {
  window.location.assign(`/review/${encodeURIComponent(reviewId)}`);
}

/** Review the finished game `gameId` (seen with `access`, a URLSearchParams), then go to it. */
export async function reviewGame(gameId, access) {
  const path = withQuery(`/api/games/${encodeURIComponent(gameId)}/review`, access);
  goTo(await started(await fetch(path, { method: "POST" })));
}

/** Review the record file `file` (a File from an <input type=file>), then go to it. */
export async function reviewFile(file) {
  const text = await file.text();
  const init = { method: "POST", headers: { "Content-Type": "text/plain" }, body: text };
  goTo(await started(await fetch("/api/reviews", init)));
}
