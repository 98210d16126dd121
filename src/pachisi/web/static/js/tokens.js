// The secret tokens that hold seats. A seat's link carries its token once; the page keeps it
// in a cookie pachisi_{id}_{seat} and in localStorage under the same name, so that opening
// /game/{id} again later resumes the seat, and several seats' tokens in one browser make
// hot-seat play.

const YEAR_SECONDS = 365 * 24 * 3600;

function keyOf(gameId, seat) {
  return `pachisi_${gameId}_${seat}`;
}

/** Remember `token` as the holder of `seat` in game `gameId`. */
export function storeToken(gameId, seat, token) {
  const key = keyOf(gameId, seat);
  localStorage.setItem(key, token);
  document.cookie =
    `${key}=${encodeURIComponent(token)}; path=/; max-age=${YEAR_SECONDS}; SameSite=Strict`;
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
    const token = localStorage.getItem(keyOf(gameId, seat));
    if (token) found[seat] = token;
  }
  return found;
}

/**
 * Take the seats' tokens from the page's address (?seat=S&token=T, repeated for hot-seat),
 * keep them, and drop them from the address bar so that copying the address never gives a
 * seat away. Returns the seats of an invite (?seat=S&claim=1) still to be claimed.
 */
export function adoptTokensFromUrl(gameId) {
  const url = new URL(window.location.href);
  const seats = url.searchParams.getAll("seat");
  const tokens = url.searchParams.getAll("token");
  const toClaim = [];
  seats.forEach((seat, i) => {
    if (!/^[0-3]$/.test(seat)) return;
    if (tokens[i]) storeToken(gameId, Number(seat), tokens[i]);
    else if (url.searchParams.get("claim") === "1") toClaim.push(Number(seat));
  });
  if (url.searchParams.has("token") || url.searchParams.has("claim")) {
    for (const name of ["token", "seat", "claim"]) url.searchParams.delete(name);
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
