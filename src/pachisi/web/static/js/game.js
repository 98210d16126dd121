// The game page: draws the server's view of one game, announces what happened, and sends the
// player's intents (throw, act, hint) over the game's WebSocket. It knows no rules: the legal
// actions, whose turn it is and the result all come in the view.

import { claimSeat, getBoard, recordUrl } from "./api.js";
import { Board, seatName } from "./board.js";
import { GameConnection } from "./connection.js";
import { drawThrow } from "./cowries.js";
import { focusAction, focusInPlay, installKeys, restoreFocus } from "./keys.js";
import { mountLanguageSwitch, setUpLanguage, t, tOr } from "./i18n.js";
import { adoptTokensFromUrl, heldTokens, storeToken } from "./tokens.js";
import { actionText, eventText, resultText, turnText } from "./words.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop());

const page = {
  board: null,
  connection: null,
  view: null,
  selected: null,
  waiting: false,
  hints: null,
  lastThrow: null,
  frameRequested: false,
  pendingEvents: [],
  pendingLines: [],
  connectionState: "connecting",
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
  const reason = t(`error.${message.code}`);
  box.textContent = message.message ? `${reason} (${message.message})` : reason;
  box.hidden = false;
}

function clearError() {
  $("error").hidden = true;
}

// ------------------------------------------------------------------ drawing

function legalActions() {
  return page.view ? page.view.legal : [];
}

function highlight(preview = null) {
  const legal = legalActions();
  const pieces = new Set(legal.filter((a) => a.piece !== null && a.piece !== undefined).map((a) => a.piece));
  const chosen = page.selected === null ? legal : legal.filter((a) => a.piece === page.selected);
  const targets = new Set(chosen.filter((a) => a.to !== null && a.to !== undefined).map((a) => a.to));
  return { pieces, targets, selected: page.selected, preview };
}

function drawSeats(view) {
  const list = $("seats");
  list.setAttribute("aria-label", t("seats.heading"));
  list.replaceChildren();
  for (const seat of view.seats) {
    const item = document.createElement("li");
    item.className = `seat seat-${seat.seat}${view.turn.seat === seat.seat && !view.result ? " to-move" : ""}`;
    item.dataset.seat = seat.seat;
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = seat.colour;
    const name = document.createElement("span");
    name.textContent = seatName(seat.seat);
    const kind = document.createElement("span");
    kind.className = "kind";
    kind.textContent = seat.kind === "computer"
      ? t("seat.computer", { player: tOr(`player.${seat.player}`, seat.player ?? "") })
      : t(`seat.kind_${seat.kind}`);
    item.append(swatch, name, kind);
    const thrown = view.turn.stage === "throw_off" ? (view.turn.throw_off || [])[seat.seat] : undefined;
    if (thrown !== undefined && thrown >= 0) {
      const note = document.createElement("span");
      note.className = "throw-off";
      note.textContent = t("seat.threw", { value: thrown });
      item.append(note);
    }
    if (seat.you) {
      const you = document.createElement("strong");
      you.className = "you";
      you.textContent = t("seat.you");
      item.append(you);
    }
    if (seat.kind === "open" && !view.result) {
      const take = document.createElement("button");
      take.type = "button";
      take.textContent = t("seat.take");
      take.addEventListener("click", () => takeSeat(seat.seat));
      const invite = document.createElement("button");
      invite.type = "button";
      invite.textContent = t("seat.copy_invite");
      invite.addEventListener("click", () => copyLink(inviteLink(seat.seat)));
      item.append(take, invite);
    }
    list.append(item);
  }
}

/** Whether a command can go out now: connected, and not waiting for the last one's answer. */
function canSend() {
  return page.connectionState === "open" && !page.waiting;
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
    if (page.selected !== null && action.piece !== page.selected) button.classList.add("dimmed");
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
  $("turn-heading").textContent = turnText(view);
  const result = $("result");
  result.hidden = !view.result;
  result.textContent = view.result ? resultText(view) : "";
  drawSeats(view);
  // Between throws, the last one stays on the cloth, so a throw that passes the turn is seen.
  drawThrow($("throw"), view.turn.throw ?? page.lastThrow, view.cowries);
  const pending = view.turn.pending || [];
  const notes = [];
  if (pending.length) notes.push(t("throw.pending", { values: pending.join(", ") }));
  if (view.turn.pyadas) notes.push(t("throw.pyadas", { count: view.turn.pyadas }));
  if (view.turn.split_left) notes.push(t("throw.split_left", { count: view.turn.split_left }));
  $("pending").textContent = notes.join(" · ");
  $("throw-button").disabled = !canSend() || !view.turn.you_throw || Boolean(view.result);
  $("hint-button").disabled = page.connectionState !== "open" || !view.turn.you_act || Boolean(view.result);
  drawActions(view);
  drawMoves(view);
  drawHints();
  $("replay").hidden = !view.result;
  page.board.update(view, events, highlight());
  restoreFocus(hadFocus, page.selected !== null);
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

/** Claim an open seat; true when this browser now holds it. */
async function claim(seat) {
  try {
    const answer = await claimSeat(gameId, seat);
    storeToken(gameId, answer.seat ?? seat, answer.token);
    return true;
  } catch (error) {
    showError({ code: "claim", message: error.message });
    return false;
  }
}

async function takeSeat(seat) {
  if (await claim(seat)) connect();
}

function onPiece(pieceId) {
  const mine = legalActions().filter((a) => a.piece === pieceId);
  if (!mine.length) return;
  if (mine.length === 1) {
    play(mine[0].action);
    return;
  }
  page.selected = pieceId;
  render();
  focusAction(0, true);
}

function onSquare(squareId) {
  const legal = legalActions();
  const chosen = legal.filter((a) => a.to === squareId && (page.selected === null || a.piece === page.selected));
  if (chosen.length === 1) {
    play(chosen[0].action);
  } else if (chosen.length > 1) {
    // Several pieces could go there: choose among them in the list.
    page.selected = null;
    render();
    const index = legal.indexOf(chosen[0]);
    focusAction(index, false);
  }
}

// ------------------------------------------------------------------ connection

function connect(asSpectator = false) {
  if (page.connection) page.connection.close();
  const tokens = asSpectator ? [] : Object.values(heldTokens(gameId));
  page.connection = new GameConnection(gameId, tokens, {
    onGame(view, events) {
      const previous = page.view;
      page.view = view;
      page.waiting = false;
      if (!previous || previous.version !== view.version) page.hints = null;
      if (page.selected !== null && !view.legal.some((a) => a.piece === page.selected)) page.selected = null;
      for (const e of events) {
        if (e.kind === "throw" || e.kind === "throw_off") {
          page.lastThrow = { k: e.k, value: e.value, cowries: view.cowries, grace: false, last: true };
        }
      }
      const lines = events.map((e) => eventText(e, squareName)).filter(Boolean);
      if (view.result && (!previous || !previous.result)) lines.push(resultText(view));
      page.pendingEvents.push(...events);
      page.pendingLines.push(...lines);
      scheduleRender();
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
    },
  });
  page.connection.open();
}

function drawConnection() {
  const status = $("connection");
  status.dataset.state = page.connectionState;
  status.textContent = t(`connection.${page.connectionState}`);
}

function redrawTexts() {
  drawConnection();
  page.board.relabel();
  render();
}

/** An open seat's invite: whoever opens it takes the seat (docs/web.md). */
function inviteLink(seat) {
  return `${window.location.origin}/game/${encodeURIComponent(gameId)}?seat=${seat}&claim=1`;
}

async function copyLink(link) {
  try {
    await navigator.clipboard.writeText(link);
    announce([t("tools.copied")]);
  } catch {
    window.prompt(t("tools.copy_watch"), link);
  }
}

async function start() {
  const invited = adoptTokensFromUrl(gameId);
  await setUpLanguage();
  const held = heldTokens(gameId);
  for (const seat of invited) {
    if (!(seat in held)) await claim(seat);
  }
  mountLanguageSwitch($("language"), redrawTexts);
  drawConnection();
  const geometry = await getBoard();
  page.board = new Board($("board"), geometry, { onPiece, onSquare });
  $("export").href = recordUrl(gameId);
  $("export").setAttribute("download", `pachisi-${gameId}.pgn`);
  $("replay").href = `/replay/${encodeURIComponent(gameId)}`;
  $("throw-button").addEventListener("click", throwCowries);
  $("hint-button").addEventListener("click", askHint);
  $("copy-watch").addEventListener("click", () =>
    copyLink(`${window.location.origin}/game/${encodeURIComponent(gameId)}`));
  installKeys({
    throwCowries,
    askHint,
    clearSelection() {
      if (page.selected === null) return false;
      page.selected = null;
      render();
      return true;
    },
  });
  // Waiting out the back-off is pointless once the network is back or the page is in view.
  window.addEventListener("online", () => page.connection?.retryNow());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") page.connection?.retryNow();
  });
  connect();
}

start();
