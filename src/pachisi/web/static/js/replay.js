// The replay viewer: steps forward and back through a game, drawing each step from the
// positions the server sends (/api/games/{id}/history, page by page), so the client replays
// nothing itself.

import { gameAccess, getBoard, recordUrl, rulesPath, withQuery } from "./api.js";
import { Board } from "./board.js";
import { drawThrow } from "./cowries.js";
import { mountLanguageSwitch, setUpLanguage, t } from "./i18n.js";
import { reviewFile, reviewGame } from "./review-start.js";
import { eventText, resultText, turnText } from "./words.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop());
const NO_HIGHLIGHT = { pieces: new Set(), targets: new Set(), selected: null, preview: null };
const PLAY_INTERVAL_MS = 600;

const replay = { board: null, history: null, cowries: 6, index: 0, timer: null };

function squareName(id) {
  return replay.board.squareName(id);
}

function stepView(step) {
  return { ...step, legal: [], moves: [] };
}

/** The throw to draw at a step: the one being used, else the one this step threw. */
function throwAt(step) {
  if (step.turn?.throw) return step.turn.throw;
  const thrown = step.events.find((e) => e.kind === "throw" || e.kind === "throw_off");
  return thrown ? { k: thrown.k, value: thrown.value, grace: Boolean(thrown.grace), last: true } : null;
}

function show(index, animate) {
  const steps = replay.history.steps;
  replay.index = Math.max(0, Math.min(index, steps.length - 1));
  const step = steps[replay.index];
  const view = stepView(step);
  // The step's own move is marked, however the step was reached.
  replay.board.setLastMove(step.events);
  replay.board.update(view, animate ? step.events : [], NO_HIGHLIGHT);
  const said = step.events.map((e) => eventText(e, squareName)).filter(Boolean).join(" ");
  $("step-heading").textContent = t("replay.at_step", {
    step: replay.index, steps: steps.length - 1, move: step.move ?? "-",
  });
  $("step-heading").title = said;
  // Who was to do what at this step, or how the game ended at its last.
  $("result").textContent = step.result ? resultText(view) : turnText(view);
  $("result").hidden = false;
  $("result").classList.toggle("over", Boolean(step.result));
  drawThrow($("throw"), throwAt(step), replay.history.cowries ?? replay.cowries);
  $("slider").value = String(replay.index);
  $("first").disabled = $("back").disabled = replay.index === 0;
  $("last").disabled = $("forward").disabled = replay.index === steps.length - 1;
  for (const item of $("moves").children) {
    const current = Number(item.dataset.step) === replay.index;
    item.classList.toggle("current", current);
    if (current) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
  }
  $("moves").querySelector(".current")?.scrollIntoView({ block: "nearest" });
}

function drawMoves() {
  const list = $("moves");
  list.replaceChildren();
  replay.history.steps.forEach((step, index) => {
    if (index === 0) return;
    const item = document.createElement("li");
    item.dataset.step = index;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.textContent = step.move;
    button.addEventListener("click", () => show(index, false));
    item.append(button);
    list.append(item);
  });
}

function togglePlay() {
  if (replay.timer) {
    clearInterval(replay.timer);
    replay.timer = null;
    $("play").textContent = t("replay.play");
    return;
  }
  $("play").textContent = t("replay.pause");
  replay.timer = setInterval(() => {
    if (replay.index >= replay.history.steps.length - 1) togglePlay();
    else show(replay.index + 1, true);
  }, PLAY_INTERVAL_MS);
}

function onKey(event) {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  const moves = { ArrowLeft: -1, ArrowRight: 1 };
  if (event.key in moves) {
    event.preventDefault();
    show(replay.index + moves[event.key], moves[event.key] > 0);
  } else if (event.key === "Home") {
    event.preventDefault();
    show(0, false);
  } else if (event.key === "End") {
    event.preventDefault();
    show(replay.history.steps.length - 1, false);
  }
}

/**
 * What the page's requests carry to see a private game: the `watch` and `token` parameters
 * of the page's own address (its link), else what this browser keeps for the game (its watch
 * token, or for a private game the seats' tokens it holds).
 */
async function accessQuery() {
  const own = new URLSearchParams(window.location.search);
  const query = new URLSearchParams();
  const watch = own.get("watch");
  if (watch) query.set("watch", watch);
  for (const token of own.getAll("token")) query.append("token", token);
  return query.toString() ? query : gameAccess(gameId).catch(() => query);
}

/**
 * The whole history, its pages fetched in turn until `next` is null: {history} with the
 * steps and moves of every page, or {status} of the first request refused.
 */
async function fetchHistory(access) {
  const path = `/api/games/${encodeURIComponent(gameId)}/history`;
  let history = null;
  let start = 0;
  for (;;) {
    const query = new URLSearchParams(access);
    if (start) query.set("start", String(start));
    const response = await fetch(withQuery(path, query));
    if (!response.ok) return { status: response.status };
    const page = await response.json();
    if (history === null) history = { ...page, moves: [], steps: [] };
    history.version = page.version;
    history.moves = history.moves.concat(page.moves);
    history.steps = history.steps.concat(page.steps);
    // A game in progress may have grown meanwhile: the last page says where it ends.
    if (page.next === null || page.next <= start) return { history };
    start = page.next;
  }
}

async function start() {
  await setUpLanguage();
  mountLanguageSwitch($("language"), () => {
    replay.board.relabel();
    show(replay.index, false);
  });
  const geometry = await getBoard();
  replay.board = new Board($("board"), geometry, { onPiece() {}, onSquare() {} });
  const access = await accessQuery();
  $("export").href = recordUrl(gameId, access);
  const watch = access.get("watch");
  const back = watch ? new URLSearchParams({ watch }) : null;
  $("back-to-game").href = withQuery(`/game/${encodeURIComponent(gameId)}`, back);
  const { history, status } = await fetchHistory(access);
  if (!history) {
    $("error").textContent = t("replay.failed", { status });
    $("error").hidden = false;
    return;
  }
  replay.history = history;
  // The history does not say how many cowries the ruleset throws; the game's view does.
  const game = await fetch(withQuery(`/api/games/${encodeURIComponent(gameId)}`, access));
  const gameView = game.ok ? await game.json() : null;
  replay.cowries = gameView ? gameView.cowries : 6;
  if (gameView) $("rules-link").href = rulesPath(gameView.ruleset);
  $("slider").max = String(replay.history.steps.length - 1);
  $("slider").addEventListener("input", () => show(Number($("slider").value), false));
  $("first").addEventListener("click", () => show(0, false));
  $("back").addEventListener("click", () => show(replay.index - 1, false));
  $("forward").addEventListener("click", () => show(replay.index + 1, true));
  $("last").addEventListener("click", () => show(replay.history.steps.length - 1, false));
  $("play").addEventListener("click", togglePlay);
  document.addEventListener("keydown", onKey);
  drawMoves();
  show(replay.history.steps.length - 1, false);
  // Only a finished game can be reviewed: its last step has the result.
  $("review").hidden = !replay.history.steps[replay.history.steps.length - 1].result;
  $("review").addEventListener("click", () => reviewGame(gameId, access).catch(reviewFailed));
}

function reviewFailed(error) {
  $("error").textContent = t("review.upload_failed", { message: error.message });
  $("error").hidden = false;
}

$("review-file").addEventListener("change", () => {
  const file = $("review-file").files[0];
  if (file) reviewFile(file).catch(reviewFailed);
});

start();
