// The game page: draws the server's view of one game, announces what happened, and sends the
// player's intents (throw, act, hint) over the game's WebSocket. It knows no rules: the legal
// actions, whose turn it is and the result all come in the view.

import {
  claimSeat, gameAccess, getBoard, recentEvents, recordUrl, renewInvite, revokeInvite, rulesPath,
  withQuery,
} from "./api.js";
import { AutoPlayer, distinctChoices } from "./auto.js";
import { Board, seatName } from "./board.js";
import { GameConnection } from "./connection.js";
import { drawThrow } from "./cowries.js";
import { focusAction, focusInPlay, installKeys, restoreFocus } from "./keys.js";
import { mountLanguageSwitch, setUpLanguage, t } from "./i18n.js";
import { DEFAULT_OPTIONS, mountOptions } from "./options.js";
import { Pacer, stepKind } from "./pace.js";
import { setUpLayout } from "./layout.js";
import { actionsOfMan, actionsTo, destinations, groupOf, pickable } from "./picking.js";
import { reviewGame } from "./review-start.js";
import { drawSeats } from "./seats.js";
import { adoptSecretsFromUrl, heldTokens, keptWatch, ownerToken, storeToken } from "./tokens.js";
import { actionText, eventText, resultText, turnText } from "./words.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop());

const page = {
  board: null,
  connection: null,
  view: null,
  selected: null,
  // The actions a click on a destination left to choose among in the list (a Set), or null.
  candidates: null,
  waiting: false,
  hints: null,
  lastThrow: null,
  frameRequested: false,
  pendingEvents: [],
  pendingLines: [],
  connectionState: "connecting",
  owner: null,
  watch: null,
  // The options' getter, the updates waiting to be shown at the computers' pace, the last
  // view received (page.view is the one shown), and what plays for the player.
  options: () => DEFAULT_OPTIONS,
  pacer: null,
  received: null,
  auto: null,
};

function squareName(id) {
  return page.board ? page.board.squareName(id) : String(id);
}

// ------------------------------------------------------------------ announcing

function announce(lines) {
  if (!lines.length) return;
  const log = $("log");
  for (const line of lines) {
    const item = document.createElement("li");
    item.textContent = line;
    log.prepend(item);
  }
  while (log.children.length > 200) log.lastElementChild.remove();
  // A fresh node per announcement, so screen readers read each one even if the text repeats.
  const region = $("announce");
  const note = document.createElement("p");
  note.textContent = lines.join(" ");
  region.replaceChildren(note);
}

function showError(message) {
  const box = $("error");
  const seconds = Math.max(1, Math.ceil(Number(message.retry_after) || 0));
  const reason = t(`error.${message.code}`, { seconds });
  box.textContent = message.message ? `${reason} (${message.message})` : reason;
  box.dataset.code = message.code;
  box.hidden = false;
}

function clearError() {
  $("error").hidden = true;
}

// ------------------------------------------------------------------ drawing

function legalActions() {
  return page.view ? page.view.legal : [];
}

/** The actions of the chosen man (and the men standing with it), or none. */
function chosenActions() {
  return page.selected === null || !page.view ? [] : actionsOfMan(page.view, page.selected);
}

function highlight(preview = null) {
  const view = page.view;
  const { movable, focusable } = pickable(view ?? { legal: [], pieces: [] });
  // Only the chosen man's destinations light up: the men that can move are marked anyway.
  const { squares, home } = destinations(chosenActions());
  const selected = new Set(page.selected === null ? [] : groupOf(view, page.selected));
  return {
    pieces: movable,
    focusable,
    targets: squares,
    home: home ? page.selected >> 2 : null,
    selected,
    preview,
  };
}

/** Whether the choice `action` is dimmed in the list: not the chosen man's, or not one of
 * those a click on a shared destination left to choose among. */
function dimmed(action) {
  if (page.candidates) return !page.candidates.has(action.action);
  return page.selected !== null && !chosenActions().includes(action);
}

/** Whether a command can go out now: connected, and not waiting for the last one's answer. */
function canSend() {
  return page.connectionState === "open" && !page.waiting && !page.connection?.paused();
}

function drawActions(view) {
  const list = $("actions");
  list.replaceChildren();
  const legal = view.legal;
  for (const [index, action] of legal.entries()) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "action";
    button.dataset.action = action.action;
    button.dataset.index = index;
    if (dimmed(action)) button.classList.add("dimmed");
    const words = document.createElement("span");
    words.textContent = actionText(action, squareName);
    const notation = document.createElement("code");
    notation.textContent = action.action;
    button.append(words, " ", notation);
    if (action.description) button.title = action.description;
    button.disabled = !canSend();
    button.addEventListener("click", () => play(action.action));
    button.addEventListener("focus", () => page.board.update(view, [], highlight(action)));
    button.addEventListener("mouseenter", () => page.board.update(view, [], highlight(action)));
    item.append(button);
    list.append(item);
  }
  if (!legal.length) {
    const item = document.createElement("li");
    item.className = "none";
    item.textContent = view.result ? t("actions.over") : t("actions.none");
    list.append(item);
  }
}

/** The move list grows by a move or two per update: append those, redraw only on a resync
 * that changed the past (which a long game would make slow on every update otherwise). */
function drawMoves(view) {
  const list = $("moves");
  const shown = list.children;
  const same = shown.length <= view.moves.length
    && (shown.length === 0 || shown[shown.length - 1].textContent === view.moves[shown.length - 1]);
  if (!same) list.replaceChildren();
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  for (let i = list.children.length; i < view.moves.length; i += 1) {
    const item = document.createElement("li");
    item.textContent = view.moves[i];
    list.append(item);
  }
  if (atEnd) list.scrollTop = list.scrollHeight;
}

function drawHints() {
  const list = $("hints");
  list.replaceChildren();
  if (!page.hints) {
    list.hidden = true;
    return;
  }
  const legal = legalActions();
  for (const entry of page.hints) {
    const item = document.createElement("li");
    const action = legal.find((a) => a.action === entry.action);
    const words = action ? actionText(action, squareName) : entry.text ?? entry.action;
    const win = typeof entry.win === "number" ? Math.round(entry.win * 100) : "?";
    item.textContent = t("hint.item", { action: words, notation: entry.action, win });
    list.append(item);
  }
  list.hidden = false;
}

function render(events = []) {
  const view = page.view;
  if (!view) return;
  const hadFocus = focusInPlay() && document.activeElement !== document.body;
  document.title = `${turnText(view)} · ${t("app.name")}`;
  $("rules-link").href = rulesPath(view.ruleset);
  // The result has its own line below: the heading does not say it a second time.
  $("turn-heading").textContent = view.result ? t("turn.finished") : turnText(view);
  const result = $("result");
  result.hidden = !view.result;
  result.textContent = view.result ? resultText(view) : "";
  drawSeats(view, { owner: page.owner, renew: renewAndCopy, revoke });
  // Between throws, the last one stays on the cloth, so a throw that passes the turn is seen.
  drawThrow($("throw"), view.turn.throw ?? page.lastThrow, view.cowries);
  const pending = view.turn.pending || [];
  const notes = [];
  if (pending.length) notes.push(t("throw.pending", { values: pending.join(", ") }));
  if (view.turn.pyadas) notes.push(t("throw.pyadas", { count: view.turn.pyadas }));
  if (view.turn.split_left) notes.push(t("throw.split_left", { count: view.turn.split_left }));
  $("pending").textContent = notes.join(" · ");
  $("throw-button").disabled = !canSend() || !view.turn.you_throw || Boolean(view.result);
  $("hint-button").disabled = !canSend() || !view.turn.you_act || Boolean(view.result);
  drawActions(view);
  drawMoves(view);
  drawHints();
  $("replay").hidden = !view.result;
  $("review").hidden = !view.result;
  page.board.update(view, events, highlight());
  restoreFocus(hadFocus, page.selected !== null);
  // How many real choices there are (the tests check the page plays the others itself).
  $("actions").dataset.choices = String(distinctChoices(view));
  page.auto?.consider();
}

function flushRender() {
  const events = page.pendingEvents.splice(0);
  const lines = page.pendingLines.splice(0);
  render(events);
  announce(lines);
}

/** Draw at the next frame: computer seats' updates come in bursts, and one drawing per
 * frame keeps the page quick however many updates the frame brought. What this page's
 * player is waiting for (their throw or move is due, or the end) is drawn at once. */
function scheduleRender() {
  const view = page.view;
  if (view.turn.you_throw || view.turn.you_act || view.result) {
    flushRender();
    return;
  }
  if (page.frameRequested) return;
  page.frameRequested = true;
  requestAnimationFrame(() => {
    page.frameRequested = false;
    flushRender();
  });
}

// ------------------------------------------------------------------ intents

function play(action) {
  const view = page.view;
  if (!view || page.waiting) return;
  clearError();
  if (page.connection.act(view.turn.seat, action)) {
    page.waiting = true;
    page.selected = null;
    page.candidates = null;
    render();
  }
}

function throwCowries() {
  const view = page.view;
  if (!view || page.waiting || !view.turn.you_throw || view.result) return;
  clearError();
  if (page.connection.throwFor(view.turn.seat)) {
    page.waiting = true;
    render();
  }
}

function askHint() {
  const view = page.view;
  if (!view || !view.turn.you_act) return;
  page.connection.askHint(view.turn.seat);
}

/** Claim an open seat with its invitation; true when this browser now holds it. */
async function claim(seat, invite) {
  try {
    const answer = await claimSeat(gameId, seat, invite);
    storeToken(gameId, answer.seat ?? seat, answer.token);
    return true;
  } catch (error) {
    // 403: not (any more) the seat's invitation; 409: the seat is taken.
    const code = { 403: "claim_invalid", 409: "claim_taken" }[error.status] ?? "claim";
    showError({ code, message: error.message });
    return false;
  }
}

/** Why the creator's change of an invitation was refused. */
function inviteFailed(error) {
  const code = { 403: "not_owner", 409: "claim_taken" }[error.status] ?? "invite";
  showError({ code, message: error.message });
}

/** Show the invitation just made for `seat` (or that it was revoked: `url` null). */
function showInvite(seat, url) {
  const out = $("invite-out");
  out.replaceChildren();
  const seats = personSeats(seat).map(seatName).join(" + ");
  if (url) {
    const link = document.createElement("a");
    link.href = url;
    link.className = "link";
    link.dataset.testid = `invite-link-${seat}`;
    link.textContent = url;
    out.append(t("invite.new", { seats }), " ", link);
  } else {
    out.append(t("invite.revoked", { seats }));
  }
  out.hidden = false;
}

function personSeats(seat) {
  return page.view && page.view.players === 2 ? [seat % 2, (seat % 2) + 2] : [seat];
}

/** A new invitation link for an open seat (the server shows a link only when it makes it,
 * so copying one makes a new one, and the earlier link stops working), copied. */
async function renewAndCopy(seat) {
  clearError();
  try {
    const answer = await renewInvite(gameId, seat, page.owner);
    const url = new URL(answer.url, window.location.origin).href;
    showInvite(seat, url);
    await copyLink(url, t("invite.copied"));
  } catch (error) {
    inviteFailed(error);
  }
}

async function revoke(seat) {
  clearError();
  try {
    await revokeInvite(gameId, seat, page.owner);
    showInvite(seat, null);
    announce([$("invite-out").textContent]);
  } catch (error) {
    inviteFailed(error);
  }
}

/** Forget the chosen man; whether there was one. */
function deselect() {
  if (page.selected === null && page.candidates === null) return false;
  page.selected = null;
  page.candidates = null;
  render();
  return true;
}

/** A click (or Enter) on a man: choose it, with every man standing with it, and light up
 * where it can go; a second click on it forgets it. From the keyboard the focus goes on to
 * its first choice in the list. */
function onPiece(pieceId, how = {}) {
  const view = page.view;
  if (!view || !canSend()) return;
  const mine = actionsOfMan(view, pieceId);
  if (!mine.length || (page.selected !== null && !how.keyboard && groupOf(view, page.selected).includes(pieceId))) {
    deselect();
    return;
  }
  page.selected = pieceId;
  page.candidates = null;
  render();
  if (how.keyboard) focusAction(0, true);
}

/** A click on a lit destination (a square, or HOME): play the one action that goes there;
 * when several do (a stack whole or a part of it, two throws to spend), the list offers
 * just those, the focus on the first. */
function onSquare(where) {
  const view = page.view;
  if (!view || !canSend()) return;
  const chosen = actionsTo(page.selected === null ? view.legal : chosenActions(), where);
  if (chosen.length === 1) {
    play(chosen[0].action);
  } else if (chosen.length > 1) {
    page.candidates = new Set(chosen.map((a) => a.action));
    render();
    announce([t("board.several")]);
    focusAction(0, true);
  } else {
    deselect();
  }
}

// ------------------------------------------------------------------ connection

function connect(asSpectator = false) {
  if (page.connection) page.connection.close();
  const tokens = asSpectator ? [] : Object.values(heldTokens(gameId));
  const handlers = {
    onGame(view, events) {
      // Shown when its turn comes: a computer seat's step at the chosen pace.
      const kind = stepKind(page.received, events);
      page.received = view;
      page.pacer.push(() => showGame(view, events), kind);
    },
    onError(message) {
      page.waiting = false;
      showError(message);
      render();
    },
    onHint(message) {
      page.hints = message.ranking || [];
      drawHints();
    },
    onPause(ms) {
      // The server asked for a pause: the buttons wait with the connection, and come back.
      if (!ms && $("error").dataset.code === "rate_limited") clearError();
      if (page.view) render();
    },
    onStatus(state) {
      if (state === "refused" && tokens.length) {
        // A token this browser keeps holds no seat of this game (a link mistyped, or from
        // another server): say so, and watch the game instead. The tokens stay kept, in
        // case the mistake is the server's.
        showError({ code: "refused" });
        connect(true);
        return;
      }
      page.connectionState = state;
      drawConnection();
      if (state !== "open") page.waiting = false;
      if (page.view) render();
      else drawNoGame();
    },
  };
  page.received = null;
  page.pacer.catchUp();
  page.connection = new GameConnection(gameId, tokens, handlers, page.watch);
  page.connection.open();
}

/** Show a view the server sent, with the events that led to it. */
function showGame(view, events) {
  const previous = page.view;
  page.view = view;
  page.waiting = false;
  if (!previous || previous.version !== view.version) page.hints = null;
  if (page.selected !== null && !actionsOfMan(view, page.selected).length) page.selected = null;
  if (!previous || previous.version !== view.version) page.candidates = null;
  for (const e of events) {
    if (e.kind === "throw" || e.kind === "throw_off") {
      page.lastThrow = { k: e.k, value: e.value, cowries: view.cowries, grace: Boolean(e.grace), last: true };
    }
  }
  // A snapshot brings no events: the throw in use is the last one thrown.
  if (view.turn.throw) page.lastThrow = { ...view.turn.throw, last: true };
  const lines = events.map((e) => eventText(e, squareName)).filter(Boolean);
  if (view.result && (!previous || !previous.result)) lines.push(resultText(view));
  page.pendingEvents.push(...events);
  page.pendingLines.push(...lines);
  scheduleRender();
  if (!previous && view.version > 0) recallLastMove(view.version);
}

/** Mark the last move of a game the page opens in the middle, from its history. */
async function recallLastMove(version) {
  const access = await gameAccess(gameId).catch(() => null);
  const events = await recentEvents(gameId, access, version).catch(() => []);
  // A move seen meanwhile is the later one.
  if (page.board.lastMove || !events.length) return;
  page.board.setLastMove(events);
  if (page.board.lastMove) scheduleRender();
}

function drawConnection() {
  const status = $("connection");
  status.dataset.state = page.connectionState;
  status.textContent = t(`connection.${page.connectionState}`);
}

function redrawTexts() {
  drawConnection();
  page.board.relabel();
  if (page.view) render();
  else drawNoGame();
}

/** Without a game to show, why: no such game (or a private one without its link), or a
 * page whose origin the server refuses. */
function drawNoGame() {
  const state = page.connectionState;
  const why = { unknown: () => t("game.unknown"), origin: () => t("game.origin") }[state];
  $("turn-heading").textContent = why ? why() : "";
}

async function copyLink(link, done = t("tools.copied")) {
  try {
    await navigator.clipboard.writeText(link);
    announce([done]);
  } catch {
    window.prompt(t("tools.copy_prompt"), link);
  }
}

/** The link for spectators: a private game's carries its watch token. */
function watchLink() {
  const query = page.watch ? new URLSearchParams({ watch: page.watch }) : null;
  return withQuery(`${window.location.origin}/game/${encodeURIComponent(gameId)}`, query);
}

const LABELS_KEY = "pachisi_labels";

/** The board's file and rank labels: a switch of the page, remembered in this browser. */
function mountLabelsToggle() {
  const toggle = $("labels-toggle");
  toggle.checked = localStorage.getItem(LABELS_KEY) === "1";
  page.board.showLabels(toggle.checked);
  toggle.addEventListener("change", () => {
    localStorage.setItem(LABELS_KEY, toggle.checked ? "1" : "0");
    page.board.showLabels(toggle.checked);
  });
}

async function start() {
  setUpLayout();
  const invited = adoptSecretsFromUrl(gameId);
  page.watch = keptWatch(gameId);
  page.owner = ownerToken(gameId);
  await setUpLanguage();
  const held = heldTokens(gameId);
  for (const { seat, invite } of invited) {
    if (!(seat in held)) await claim(seat, invite);
  }
  mountLanguageSwitch($("language"), redrawTexts);
  page.options = mountOptions(() => {
    // A quicker pace shows what waits sooner; a switch turned on may play for the player now.
    page.pacer.repace();
    page.auto.consider();
  });
  page.pacer = new Pacer(() => page.options().pace);
  page.auto = new AutoPlayer({
    options: () => page.options(),
    view: () => page.view,
    ready: () => canSend() && page.pacer.idle(),
    throwCowries,
    play,
  });
  drawConnection();
  const geometry = await getBoard();
  page.board = new Board($("board"), geometry, { onPiece, onSquare, onNothing: deselect });
  mountLabelsToggle();
  // A click away from the board and the choices forgets the chosen man.
  document.addEventListener("click", (event) => {
    if (!$("board").contains(event.target) && !$("actions").contains(event.target)) deselect();
  });
  $("export").setAttribute("download", `pachisi-${gameId}.pgn`);
  const watchQuery = page.watch ? new URLSearchParams({ watch: page.watch }) : null;
  $("replay").href = withQuery(`/replay/${encodeURIComponent(gameId)}`, watchQuery);
  $("export").href = recordUrl(gameId, watchQuery);
  // A private game's seat without its watch link: the record needs the seat's token, and
  // there is no link for spectators to copy.
  gameAccess(gameId).then((access) => {
    $("export").href = recordUrl(gameId, access);
    $("copy-watch").hidden = access.has("token");
  }, () => {});
  $("throw-button").addEventListener("click", throwCowries);
  $("hint-button").addEventListener("click", askHint);
  $("copy-watch").addEventListener("click", () => copyLink(watchLink()));
  $("review").addEventListener("click", async () => {
    const access = await gameAccess(gameId).catch(() => watchQuery);
    reviewGame(gameId, access).catch((error) => {
      $("error").textContent = t("review.upload_failed", { message: error.message });
      $("error").hidden = false;
    });
  });
  installKeys({
    throwCowries,
    askHint,
    clearSelection: deselect,
  });
  // Waiting out the back-off is pointless once the network is back or the page is in view.
  window.addEventListener("online", () => page.connection?.retryNow());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") page.connection?.retryNow();
  });
  connect();
}

start();
