// The replay viewer: steps forward and back through a game, drawing each step from the
// positions the server sends (/api/games/{id}/history), so the client replays nothing itself.

import { getBoard, recordUrl } from "./api.js";
import { Board } from "./board.js";
import { drawThrow } from "./cowries.js";
import { mountLanguageSwitch, setUpLanguage, t } from "./i18n.js";
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
  return thrown ? { k: thrown.k, value: thrown.value, grace: false, last: true } : null;
}

function show(index, animate) {
  const steps = replay.history.steps;
  replay.index = Math.max(0, Math.min(index, steps.length - 1));
  const step = steps[replay.index];
  const view = stepView(step);
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

async function start() {
  await setUpLanguage();
  mountLanguageSwitch($("language"), () => {
    replay.board.relabel();
    show(replay.index, false);
  });
  const geometry = await getBoard();
  replay.board = new Board($("board"), geometry, { onPiece() {}, onSquare() {} });
  $("export").href = recordUrl(gameId);
  $("back-to-game").href = `/game/${encodeURIComponent(gameId)}`;
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/history`);
  if (!response.ok) {
    $("error").textContent = t("replay.failed", { status: response.status });
    $("error").hidden = false;
    return;
  }
  replay.history = await response.json();
  // The history does not say how many cowries the ruleset throws; the game's view does.
  const game = await fetch(`/api/games/${encodeURIComponent(gameId)}`);
  replay.cowries = game.ok ? (await game.json()).cowries : 6;
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
}

start();
