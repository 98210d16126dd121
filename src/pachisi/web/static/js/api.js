// The REST calls the pages make; every one either returns parsed JSON or throws an ApiError
// carrying the server's message, so a page can show what went wrong.

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

async function request(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if (!response.ok) throw new ApiError(response.status, await messageOf(response));
  return response.json();
}

export const getMeta = () => request("GET", "/api/meta");
export const getBoard = () => request("GET", "/api/board");
export const listGames = (status) => request("GET", `/api/games?status=${encodeURIComponent(status)}`);
export const getGame = (id) => request("GET", `/api/games/${encodeURIComponent(id)}`);
export const createGame = (spec) => request("POST", "/api/games", spec);
export const claimSeat = (id, seat) =>
  request("POST", `/api/games/${encodeURIComponent(id)}/seats/${seat}/claim`);

/** The game record's text, for export and for the replay viewer. */
export async function getRecord(id) {
  const response = await fetch(`/api/games/${encodeURIComponent(id)}/record`);
  if (!response.ok) throw new ApiError(response.status, await messageOf(response));
  return response.text();
}

export function recordUrl(id) {
  return `/api/games/${encodeURIComponent(id)}/record`;
}
