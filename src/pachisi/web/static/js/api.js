// The REST calls the pages make; every one either returns parsed JSON or throws an ApiError
// carrying the server's message, so a page can show what went wrong.

import { heldTokens, keptWatch } from "./tokens.js";

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function messageOf(response) {
  try {
    const body = await response.json();
    if (typeof body.detail === "string") return body.detail;
    if (Array.isArray(body.detail)) return body.detail.map((d) => d.msg ?? String(d)).join("; ");
    if (typeof body.message === "string") return body.message;
    return JSON.stringify(body);
  } catch {
    return response.statusText;
  }
}

async function request(method, path, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if (!response.ok) throw new ApiError(response.status, await messageOf(response));
  return response.json();
}

function gamePath(id) {
  return `/api/games/${encodeURIComponent(id)}`;
}

/** `path` with the query `query` (URLSearchParams), if it has anything. */
export function withQuery(path, query) {
  const text = query ? query.toString() : "";
  return text ? `${path}?${text}` : path;
}

/** The "How to play" page of the ruleset string `ruleset` (plain /rules for classic). */
export function rulesPath(ruleset) {
  return ruleset === "classic" ? "/rules" : withQuery("/rules", new URLSearchParams({ ruleset }));
}

export const getMeta = () => request("GET", "/api/meta");
export const getBoard = () => request("GET", "/api/board");
export const listGames = (status) => request("GET", `/api/games?status=${encodeURIComponent(status)}`);
export const getGame = (id, access) => request("GET", withQuery(gamePath(id), access));
export const createGame = (spec) => request("POST", "/api/games", spec);

/** Take an open seat with the secret of its invitation link. */
export const claimSeat = (id, seat, invite) =>
  request("POST", `${gamePath(id)}/seats/${seat}/claim`, { invite });

/** The creator's: a new invitation link for an open seat (the old one stops working). */
export const renewInvite = (id, seat, owner) =>
  request("POST", `${gamePath(id)}/seats/${seat}/invite`, undefined, {
    Authorization: `Bearer ${owner}`,
  });

/** The creator's: no invitation link for an open seat any more. */
export const revokeInvite = (id, seat, owner) =>
  request("DELETE", `${gamePath(id)}/seats/${seat}/invite`, undefined, {
    Authorization: `Bearer ${owner}`,
  });

/**
 * What this browser's requests about a game carry to see it if it is private: the watch
 * token it keeps, else (only if the game is not public) the seats' tokens it holds. A public
 * game needs nothing, and a link that needs nothing gives no token away when it is copied.
 */
export async function gameAccess(id) {
  const query = new URLSearchParams();
  const watch = keptWatch(id);
  if (watch) {
    query.set("watch", watch);
    return query;
  }
  const tokens = Object.values(heldTokens(id));
  if (!tokens.length) return query;
  const open = await fetch(gamePath(id));
  if (open.ok) return query;
  for (const token of tokens) query.append("token", token);
  return query;
}

/** The game record's text, for export and for the replay viewer. */
export async function getRecord(id, access) {
  const response = await fetch(recordUrl(id, access));
  if (!response.ok) throw new ApiError(response.status, await messageOf(response));
  return response.text();
}

/**
 * The events of the last `count` steps of game `id` up to `version`, oldest first, from its
 * history (a page that (re)opens a game has no events of its own to mark the last move by).
 */
export async function recentEvents(id, access, version, count = 32) {
  const query = new URLSearchParams(access ?? undefined);
  query.set("start", String(Math.max(0, version - count + 1)));
  query.set("limit", String(count));
  const page = await request("GET", withQuery(`${gamePath(id)}/history`, query));
  return page.steps.flatMap((step) => step.events);
}

export function recordUrl(id, access) {
  return withQuery(`${gamePath(id)}/record`, access);
}
