// The review page: follows a review's progress (/api/reviews/{id}, polled), then draws each
// side's win chance over the moves, the graded decisions with jumps to the mistakes, and the
// board at the chosen step with the played and the better action marked on it. The board's
// positions come from /api/reviews/{id}/history, so the page replays nothing itself.

import { getBoard, rulesPath, withQuery } from "./api.js";
import { Board, seatName, svgElement as svg } from "./board.js";
import { mountLanguageSwitch, setUpLanguage, t } from "./i18n.js";
import { actionText } from "./words.js";

const $ = (id) => document.getElementById(id);
const reviewId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop());
const apiPath = `/api/reviews/${encodeURIComponent(reviewId)}`;
const POLL_MS = 400;
const JUDGED = ["best", "inaccuracy", "mistake", "blunder"];
const SHOWN = ["inaccuracy", "mistake", "blunder"];
const NO_HIGHLIGHT = { pieces: new Set(), targets: new Set(), selected: null, preview: null };
// The graph's drawing area, in its viewBox's units.
const GRAPH = { width: 600, height: 180, left: 34, right: 8, top: 8, bottom: 18 };

const page = { status: null, review: null, actions: {}, history: null, board: null, step: 0 };

function element(name, text, attrs = {}) {
  const node = document.createElement(name);
  if (text !== undefined) node.textContent = text;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

const percent = (chance) => `${Math.round(chance * 100)}%`;
const points = (loss) => (Math.round(loss * 10) / 10).toLocaleString(document.documentElement.lang);
const gradeName = (grade) => t(`review.grade_${grade}`);
const sideName = (side) => side.map(seatName).join(" + ");
const squareName = (id) => page.board.squareName(id);

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = false;
}

// ----------------------------------------------------------------- progress

function showProgress(status) {
  $("progress").max = Math.max(1, status.total);
  $("progress").value = status.done;
  $("progress-text").textContent = status.state === "queued"
    ? t("review.queued")
    : t("review.progress", { done: status.done, total: status.total });
}

async function waitForReview() {
  for (;;) {
    const response = await fetch(apiPath);
    if (!response.ok) {
      showError(t("review.failed_status", { status: response.status }));
      return null;
    }
    const status = await response.json();
    showProgress(status);
    if (status.state === "done") return status;
    if (status.state === "failed") {
      showError(t("review.failed", { message: status.error ?? "" }));
      return null;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Every step of the reviewed game, its pages fetched in turn until `next` is null. */
async function fetchHistory() {
  let steps = [];
  let start = 0;
  for (;;) {
    const query = start ? new URLSearchParams({ start: String(start) }) : null;
    const response = await fetch(withQuery(`${apiPath}/history`, query));
    if (!response.ok) throw new Error(t("review.failed_status", { status: response.status }));
    const part = await response.json();
    steps = steps.concat(part.steps);
    if (part.next === null || part.next <= start) return steps;
    start = part.next;
  }
}

// ----------------------------------------------------------------- the graph

function xOf(index, count) {
  const span = GRAPH.width - GRAPH.left - GRAPH.right;
  return GRAPH.left + (count ? (index / count) * span : 0);
}

function yOf(chance) {
  return GRAPH.top + (1 - chance) * (GRAPH.height - GRAPH.top - GRAPH.bottom);
}

function drawGraph() {
  const { review } = page;
  const graph = $("graph");
  graph.setAttribute("viewBox", `0 0 ${GRAPH.width} ${GRAPH.height}`);
  for (const node of [...graph.children]) if (node.localName !== "title" && node.localName !== "desc") node.remove();
  const count = review.steps.length;
  for (const level of [0, 0.5, 1]) {
    svg("line", { x1: GRAPH.left, x2: GRAPH.width - GRAPH.right, y1: yOf(level), y2: yOf(level),
      class: "review-grid" }, graph);
    svg("text", { x: GRAPH.left - 4, y: yOf(level) + 3, class: "review-axis" }, graph).textContent = percent(level);
  }
  const legend = $("graph-legend");
  legend.replaceChildren();
  review.sides.forEach((side, index) => {
    const values = [review.start[index], ...review.steps.map((step) => step.chances[index])];
    const line = values.map((value, i) => `${xOf(i, count).toFixed(1)},${yOf(value).toFixed(1)}`).join(" ");
    svg("polyline", { points: line, class: `review-line side-${index}`, "--seat": page.colours[side[0]] }, graph);
    const key = element("span", sideName(side), { class: `review-line-key side-${index}` });
    key.style.setProperty("--seat", page.colours[side[0]]);
    legend.append(key);
  });
  // The decisions graded below best, on their mover's side's line.
  for (const step of review.steps) {
    if (!SHOWN.includes(step.grade)) continue;
    const side = review.sides.findIndex((seats) => seats.includes(step.seat));
    svg("circle", { cx: xOf(step.step + 1, count), cy: yOf(step.chances[side]), r: step.grade === "blunder" ? 3.5 : 2.5,
      class: `review-mark grade-${step.grade}` }, graph);
  }
  page.cursor = svg("line", { y1: GRAPH.top, y2: GRAPH.height - GRAPH.bottom, class: "review-cursor" }, graph);
  $("graph-title").textContent = t("review.graph_title");
  const last = review.steps.length ? review.steps[count - 1].chances : review.start;
  $("graph-desc").textContent = review.sides.map((side, index) => t("review.graph_side", {
    side: sideName(side), start: percent(review.start[index]), end: percent(last[index]),
  })).join(" ");
}

/** A click on the graph shows the step under it (the list of decisions does it by keyboard). */
function onGraphClick(event) {
  const count = page.review.steps.length;
  const box = $("graph").getBoundingClientRect();
  const x = ((event.clientX - box.left) / box.width) * GRAPH.width;
  const index = Math.round(((x - GRAPH.left) / (GRAPH.width - GRAPH.left - GRAPH.right)) * count) - 1;
  show(Math.max(0, Math.min(count - 1, index)));
}

function drawTables() {
  const { review } = page;
  const head = $("chances-head");
  head.replaceChildren(element("th", t("review.column_step"), { scope: "col" }),
    element("th", t("review.column_seat"), { scope: "col" }),
    element("th", t("review.column_grade"), { scope: "col" }),
    ...review.sides.map((side) => element("th", sideName(side), { scope: "col" })));
  const rows = review.steps.filter((step) => JUDGED.includes(step.grade)).map((step) => {
    const row = element("tr");
    row.append(element("td", String(step.step + 1)), element("td", seatName(step.seat)),
      element("td", gradeName(step.grade)), ...step.chances.map((c) => element("td", percent(c))));
    return row;
  });
  $("chances-body").replaceChildren(...rows);
  $("summary-head").replaceChildren(element("th", t("review.column_seat"), { scope: "col" }),
    ...JUDGED.map((grade) => element("th", gradeName(grade), { scope: "col" })),
    element("th", t("review.column_loss"), { scope: "col" }));
  $("summary-body").replaceChildren(...review.summary.map((seat) => {
    const row = element("tr");
    const name = seat.name ? `${seatName(seat.seat)} (${seat.name})` : seatName(seat.seat);
    row.append(element("th", name, { scope: "row" }), ...JUDGED.map((g) => element("td", String(seat.counts[g]))),
      element("td", seat.average_loss === null ? "–" : points(seat.average_loss)));
    return row;
  }));
  const { inaccuracy, mistake, blunder } = review.thresholds;
  $("thresholds").textContent = t("review.thresholds", {
    level: review.level, inaccuracy: points(inaccuracy), mistake: points(mistake), blunder: points(blunder),
  });
}

// ----------------------------------------------------------------- decisions and the board

function shownByFilter(step) {
  const filter = $("filter").value;
  if (filter === "all") return JUDGED.includes(step.grade);
  return JUDGED.indexOf(step.grade) >= JUDGED.indexOf(filter);
}

function playedText(step) {
  const drawn = page.actions[String(step.step)];
  return drawn?.played ? actionText(drawn.played, squareName) : step.played;
}

function drawDecisions() {
  const list = $("decisions");
  const items = page.review.steps.filter(shownByFilter).map((step) => {
    const item = element("li", undefined, { "data-step": step.step });
    const button = element("button", undefined, { type: "button", class: `move grade-${step.grade}` });
    button.textContent = t(step.grade === "best" ? "review.decision_best" : "review.decision", {
      step: step.step + 1, seat: seatName(step.seat), played: playedText(step), grade: gradeName(step.grade),
      loss: points(step.loss ?? 0),
    });
    button.addEventListener("click", () => show(step.step));
    item.append(button);
    return item;
  });
  if (!items.length) items.push(element("li", t("review.none")));
  list.replaceChildren(...items);
  markCurrent();
}

function markCurrent() {
  for (const item of $("decisions").children) {
    const current = Number(item.dataset.step) === page.step;
    item.classList.toggle("current", current);
    if (current) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
  }
}

/** The played action (and the better one, if another) drawn over the board. */
function drawMarks(step) {
  page.marks?.remove();
  const layer = svg("g", { class: "review-marks", "aria-hidden": "true" }, page.board.svg);
  page.marks = layer;
  const drawn = page.actions[String(step.step)];
  if (!drawn) return;
  const kinds = [["played", drawn.played]];
  if (drawn.best && drawn.best.action !== drawn.played?.action) kinds.push(["best", drawn.best]);
  for (const [kind, action] of kinds) {
    if (!action) continue;
    const at = (id) => {
      const square = page.board.squares.get(id);
      return square ? page.board.centre(square.x, square.y) : null;
    };
    const from = action.from === null ? null : at(action.from);
    const to = action.to === null ? null : at(action.to);
    if (from && to) {
      svg("line", { x1: from[0], y1: from[1], x2: to[0], y2: to[1], class: `review-arrow ${kind}` }, layer);
    }
    for (const point of [from, to]) {
      if (point) svg("circle", { cx: point[0], cy: point[1], r: 4.2, class: `review-ring ${kind}` }, layer);
    }
  }
}

function show(index) {
  const { review } = page;
  page.step = index;
  const step = review.steps[index];
  const before = page.history[index];
  page.board.update({ ...before, legal: [], moves: [] }, [], NO_HIGHLIGHT);
  drawMarks(step);
  const count = review.steps.length;
  page.cursor.setAttribute("x1", xOf(index + 1, count));
  page.cursor.setAttribute("x2", xOf(index + 1, count));
  $("step-heading").textContent = t("review.at_step", { step: index + 1, steps: count, seat: seatName(step.seat) });
  const drawn = page.actions[String(step.step)];
  let detail;
  if (step.grade === "chance") detail = t("review.detail_chance", { played: step.played });
  else if (step.grade === "forced") detail = t("review.detail_forced", { played: playedText(step) });
  else if (step.grade === "best") {
    detail = t("review.detail_best", { played: playedText(step), win: percent(step.played_win) });
  } else {
    const better = drawn?.best ? actionText(drawn.best, squareName) : step.best;
    detail = t("review.detail_worse", {
      played: playedText(step), grade: gradeName(step.grade), loss: points(step.loss),
      win: percent(step.played_win), better, best: percent(step.best_win),
    });
  }
  $("step-detail").textContent = detail;
  $("step-detail").dataset.grade = step.grade;
  markCurrent();
}

function jump(direction) {
  const steps = page.review.steps.filter((step) => ["mistake", "blunder"].includes(step.grade));
  const next = direction > 0
    ? steps.find((step) => step.step > page.step)
    : [...steps].reverse().find((step) => step.step < page.step);
  if (next) show(next.step);
  $("step-heading").focus();
}

function redraw() {
  page.board.relabel();
  drawGraph();
  drawTables();
  drawDecisions();
  show(page.step);
  $("about").textContent = t("review.about", { steps: page.review.steps.length, level: page.review.level });
}

async function start() {
  await setUpLanguage();
  mountLanguageSwitch($("language"), () => (page.review ? redraw() : showProgress(page.status ?? { state: "queued" })));
  const status = await waitForReview();
  if (!status) return;
  page.status = status;
  page.review = status.review;
  $("rules-link").href = rulesPath(page.review.ruleset);
  page.actions = status.actions ?? {};
  const geometry = await getBoard();
  page.colours = geometry.seats.map((seat) => seat.colour);
  try {
    page.history = await fetchHistory();
  } catch (error) {
    showError(error.message);
    return;
  }
  page.board = new Board($("board"), geometry, { onPiece() {}, onSquare() {} });
  $("progress-area").hidden = true;
  $("done-area").hidden = false;
  $("export").href = `${apiPath}/export`;
  $("export").hidden = false;
  if (status.game) {
    $("to-replay").href = `/replay/${encodeURIComponent(status.game)}`;
    $("to-replay").hidden = false;
  }
  $("filter").addEventListener("change", drawDecisions);
  $("graph").addEventListener("click", onGraphClick);
  $("previous-mistake").addEventListener("click", () => jump(-1));
  $("next-mistake").addEventListener("click", () => jump(1));
  const first = page.review.steps.find((step) => ["mistake", "blunder"].includes(step.grade))
    ?? page.review.steps.find((step) => JUDGED.includes(step.grade));
  page.step = first ? first.step : 0;
  if (page.review.steps.length) redraw();
}

start();
