// The secrets this browser keeps for a game. A seat's link carries its token once; the page
// keeps it in a cookie pachisi_{id}_{seat} and in localStorage under the same name, so that
// opening /game/{id} again later resumes the seat, and several seats' tokens in one browser
// make hot-seat play. A private game's watch token (from its watch link) is kept in
// localStorage pachisi_{id}_watch, the creator's token in pachisi_{id}_owner: neither ever
// goes into a cookie, so no request carries them unasked.

const YEAR_SECONDS = 365 * 24 * 3600;

function keyOf(gameId, seat) {
  return `pachisi_${gameId}_${seat}`;
}

function readStorage(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage refused (a private window): only what the link says
  }
}

function writeStorage(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage refused: the secret lasts as long as the page.
  }
}

/** Remember `token` as the holder of `seat` in game `gameId`. */
export function storeToken(gameId, seat, token) {
  const key = keyOf(gameId, seat);
  writeStorage(key, token);
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie =
    `${key}=${encodeURIComponent(token)}; path=/; max-age=${YEAR_SECONDS}; SameSite=Strict${secure}`;
}

function cookieTokens(gameId) {
  const found = {};
  const prefix = `pachisi_${gameId}_`;
  for (const part of document.cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name.startsWith(prefix)) {
      const seat = Number(name.slice(prefix.length));
      if (Number.isInteger(seat)) found[seat] = decodeURIComponent(rest.join("="));
    }
  }
  return found;
}

/** Every seat's token this browser holds for the game, as {seat: token}. */
export function heldTokens(gameId) {
  const found = cookieTokens(gameId);
  for (let seat = 0; seat < 4; seat += 1) {
    const token = readStorage(keyOf(gameId, seat));
    if (token) found[seat] = token;
  }
  return found;
}

/** Remember a private game's watch token (its spectators' link). */
export function storeWatch(gameId, token) {
  if (token) writeStorage(keyOf(gameId, "watch"), token);
}

/** The private game's watch token this browser keeps, or null. */
export function keptWatch(gameId) {
  return readStorage(keyOf(gameId, "watch"));
}

/** Remember the creator's token of a game (it renews and revokes invitations). */
export function storeOwner(gameId, token) {
  if (token) writeStorage(keyOf(gameId, "owner"), token);
}

/** The creator's token of the game, if this browser made it; else null. */
export function ownerToken(gameId) {
  return readStorage(keyOf(gameId, "owner"));
}

/**
 * Take the secrets from the page's address and keep them, then drop them from the address
 * bar, so that copying the address never gives a seat away: seats' tokens (?seat=S&token=T,
 * repeated for hot-seat) and a private game's watch token (?watch=T) are kept; an
 * invitation (?seat=S&invite=SECRET) is returned, as [{seat, invite}], to be claimed.
 */
export function adoptSecretsFromUrl(gameId) {
  const url = new URL(window.location.href);
  const params = url.searchParams;
  const toClaim = [];
  // Each token or invitation belongs to the seat named just before it.
  let seat = null;
  for (const [name, value] of params) {
    if (name === "seat") seat = /^[0-3]$/.test(value) ? Number(value) : null;
    else if (seat === null || !value) continue;
    else if (name === "token") storeToken(gameId, seat, value);
    else if (name === "invite") toClaim.push({ seat, invite: value });
  }
  storeWatch(gameId, params.get("watch"));
  const secrets = ["token", "seat", "invite", "watch", "claim"];
  if (secrets.some((name) => params.has(name))) {
    for (const name of secrets) params.delete(name);
    window.history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
  return toClaim;
}

/** Parse a seat link made by the server (…/game/{id}?seat=S&token=T) into its parts. */
export function parseSeatLink(link) {
  const url = new URL(link, window.location.origin);
  const match = url.pathname.match(/\/game\/([^/]+)$/);
  return {
    gameId: match ? decodeURIComponent(match[1]) : null,
    seat: Number(url.searchParams.get("seat")),
    token: url.searchParams.get("token"),
  };
}
