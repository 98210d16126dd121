// The "How to play" page: the rules in the page's language, with every fact about the chosen
// ruleset (its throws and their exact chances, the values that enter or finish a man, every
// switch with its rule ID and value) taken from the server (/api/rules/{ruleset}), which asks
// the rules core; the page computes no rule itself. The diagrams are drawn by the game's own
// Board, with the square names the move list uses.

import { getBoard, getMeta } from "./api.js";
import { Board, svgElement } from "./board.js";
import { currentLanguage, mountLanguageSwitch, setUpLanguage, t, tOr } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const DEFAULT_RULESET = "classic";
const NO_HANDLERS = { onPiece() {}, onSquare() {} };
// The switches each section sums up in its "In these rules" list (the table has them all).
const ENTER_SWITCHES = [
  "entry_values", "entry_mode", "first_piece_free", "track", "castle_mode", "stacking",
  "capture_scope", "stack_immune", "capture_bonus", "blockade",
];
const HOME_SWITCHES = [
  "last_square_exit", "kill_before_home", "recapture_annul", "finished_seat", "extra_lap",
  "teams", "deadlock",
];

const page = { meta: null, geometry: null, guide: null, asked: DEFAULT_RULESET };

/** The ruleset the address asks for (?ruleset=...), else classic. */
function askedRuleset() {
  const asked = new URLSearchParams(window.location.search).get("ruleset");
  return asked && asked.trim() ? asked.trim() : DEFAULT_RULESET;
}

async function fetchGuide(ruleset) {
  const response = await fetch(`/api/rules/${encodeURIComponent(ruleset)}`);
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const reason = typeof body?.detail === "string" ? body.detail : response.statusText;
    throw new Error(reason);
  }
  return body;
}

/** A switch value as a sentence shows it: "6,10,25" reads "6, 10, 25". */
function spaced(value) {
  return String(value).replaceAll(",", ", ");
}

function listText(values) {
  return values.length ? values.join(", ") : t("rules.none");
}

/** What the value of switch row `row` does, in the page's language. */
function valueText(row) {
  const own = tOr(`rules.value.${row.key}.${row.value}`, null);
  return own ?? t(`rules.value.${row.key}`, { value: spaced(row.value) });
}

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function squareIds() {
  return new Map(page.geometry.squares.map((square) => [square.name, square.id]));
}

function man(id, where, square = null) {
  return { id, seat: id >> 2, letter: "abcd"[id & 3], where, square, progress: 0, lap: false };
}

/**
 * A diagram drawn by the game's Board: `pieces` as the game's view has them, `lit` squares
 * highlighted, a `path` of squares drawn as a line, and every square's name if `names`.
 */
function diagram(svg, { pieces = [], lit = [], path = [], names = false }) {
  const board = new Board(svg, page.geometry, NO_HANDLERS);
  // The extra layers go under the men, so that the men stay on top as in the game.
  const under = board.pieceLayer && board.pieceLayer.parentNode === svg ? board.pieceLayer : null;
  const layer = svgElement("g", { class: "guide-layer", "aria-hidden": "true" });
  svg.insertBefore(layer, under);
  if (path.length) {
    const points = path.map((id) => {
      const square = board.squares.get(id);
      return board.centre(square.x, square.y).join(",");
    });
    svgElement("polyline", { points: points.join(" "), class: "guide-route" }, layer);
  }
  if (names) {
    for (const square of page.geometry.squares) {
      const [x, y] = board.centre(square.x, square.y);
      svgElement("text", { x, y: y + 1.2, class: "guide-name" }, layer).textContent = square.name;
    }
  }
  const highlight = { pieces: new Set(), targets: new Set(lit), selected: null, preview: null };
  board.update({ pieces }, [], highlight);
  return board;
}

function drawDiagrams(guide) {
  const ids = squareIds();
  const facts = guide.board;
  const south = page.geometry.routes["0"];
  const named = diagram($("guide-board-diagram"), { path: south, names: true });
  // The files and ranks round the cross too, where the Board can draw them.
  named.showLabels?.(true);
  const first = ids.get(facts.first_square);
  diagram($("guide-enter-diagram"), {
    pieces: [man(0, "board", first), man(1, "waiting"), man(2, "waiting"), man(3, "waiting")],
    lit: facts.castles.map((name) => ids.get(name)),
  });
  const castle = ids.get(facts.castle_25);
  const homeward = facts.home_path.map((name) => ids.get(name));
  diagram($("guide-home-diagram"), {
    pieces: [man(0, "board", castle), man(1, "home"), man(2, "home"), man(3, "waiting")],
    lit: homeward,
    path: [castle, ...homeward],
  });
}

function percent(probability) {
  const format = new Intl.NumberFormat(currentLanguage(), { style: "percent", maximumFractionDigits: 2 });
  return format.format(probability);
}

function drawThrows(guide) {
  $("guide-throws-text").textContent = t("rules.throws.text", {
    cowries: guide.cowries, chance: guide.p_mouth_up,
  });
  const rows = guide.throws.map((row) => {
    const tr = document.createElement("tr");
    tr.dataset.k = String(row.k);
    tr.append(
      element("td", String(row.k)),
      element("td", String(row.value), "throw-value-cell"),
      element("td", `${row.chance} (${percent(row.probability)})`, "throw-chance"),
      element("td", t(row.grace ? "rules.yes" : "rules.no")),
      element("td", t(row.enters ? "rules.yes" : "rules.no")),
    );
    return tr;
  });
  $("guide-throws-rows").replaceChildren(...rows);
}

function bullets(list, guide, keys) {
  const byKey = new Map(guide.switches.map((row) => [row.key, row]));
  list.replaceChildren(...keys.filter((key) => byKey.has(key)).map((key) => {
    const item = element("li", `${valueText(byKey.get(key))} `);
    item.append(element("span", `(${byKey.get(key).rule})`, "rule-id"));
    return item;
  }));
}

/** A measured figure as the effects column shows it (rates as percentages). */
function figureText(figure, value) {
  if (figure === "throws" || figure === "minutes") return String(Math.round(value));
  if (figure === "captures_per_game") return value.toFixed(1);
  const shown = `${(value * 100).toFixed(1)}%`;
  return figure === "first_mover_edge" && value > 0 ? `+${shown}` : shown;
}

/** What flipping switch `key` alone did to the base ruleset's games (pachisi explore). */
function effectCell(guide, key) {
  const cell = element("td", "", "switch-effect");
  if (!guide.effects.length) {
    cell.textContent = t("rules.effects.unmeasured");
    return cell;
  }
  const flips = guide.effects.filter((flip) => flip.switch === key);
  cell.replaceChildren(...flips.map((flip) => {
    const said = flip.changes.length
      ? flip.changes.map((c) => `${t(`rules.effects.${c.figure}`)} ${figureText(c.figure, c.base)} → ${figureText(c.figure, c.flip)}`).join("; ")
      : t("rules.effects.none");
    const line = element("div", "", "flip-effect");
    line.append(element("code", flip.choice), `: ${said}`);
    return line;
  }));
  return cell;
}

function drawSwitches(guide) {
  const rows = guide.switches.map((row) => {
    const tr = document.createElement("tr");
    tr.dataset.key = row.key;
    const changed = row.value !== row.default;
    tr.classList.toggle("changed", changed);
    const does = element("td", valueText(row), "switch-does");
    if (changed) does.append(" ", element("span", t("rules.switches.classic", { value: row.default }), "classic-value"));
    const value = element("td");
    value.append(element("code", row.value));
    const key = element("td");
    key.append(element("code", row.key));
    tr.append(element("td", row.rule, "rule-id"), key, value, does, effectCell(guide, row.key));
    return tr;
  });
  $("guide-switch-rows").replaceChildren(...rows);
}

function drawTexts(guide) {
  const facts = guide.board;
  const names = { first: facts.first_square, steps: facts.steps, squares: facts.squares };
  $("guide-board-text").textContent = t("rules.board.text", names);
  $("guide-board-route").textContent = t("rules.board.route", names);
  $("guide-board-castles").textContent = t("rules.board.castles", {
    count: facts.castles.length, castles: facts.castles.join(", "),
  });
  $("guide-board-caption").textContent = t("rules.board.caption", names);
  const entering = guide.entry_values.length
    ? t("rules.enter.values", { values: listText(guide.entry_values) })
    : t("rules.enter.no_values");
  $("guide-enter-text").textContent = entering;
  $("guide-enter-caption").textContent = t("rules.enter.caption", names);
  const castle = { castle: facts.castle_25, distance: facts.castle_distance };
  // Whether a 25 takes a man home from there is the engine's answer (false in Ludii's flow).
  const parking = facts.castle_25_finishes === false ? "rules.home.castle_not" : "rules.home.castle";
  $("guide-home-castle").textContent = t(parking, castle);
  $("guide-home-caption").textContent = t("rules.home.caption", castle);
  const base = tOr(`ruleset.${guide.base}`, guide.description);
  $("guide-showing").textContent = t("rules.showing", { ruleset: guide.ruleset, description: base });
  bullets($("guide-enter-rules"), guide, ENTER_SWITCHES);
  bullets($("guide-home-rules"), guide, HOME_SWITCHES);
}

function drawChoice() {
  const select = $("guide-ruleset");
  const names = page.meta.rulesets.map((ruleset) => ruleset.name);
  const shown = page.guide ? page.guide.ruleset : page.asked;
  const options = names.includes(shown) ? names : [...names, shown];
  select.replaceChildren(...options.map((name) => {
    const option = element("option", name);
    option.value = name;
    return option;
  }));
  select.value = shown;
}

function draw() {
  drawChoice();
  const guide = page.guide;
  $("guide-body").hidden = !guide;
  if (!guide) return;
  drawTexts(guide);
  drawThrows(guide);
  drawSwitches(guide);
  drawDiagrams(guide);
}

async function show(ruleset) {
  page.asked = ruleset;
  $("guide-error").hidden = true;
  try {
    page.guide = await fetchGuide(ruleset);
  } catch (error) {
    page.guide = null;
    $("guide-error").textContent = t("rules.failed", { reason: error.message });
    $("guide-error").hidden = false;
  }
  draw();
  document.body.dataset.ready = "true";
}

async function main() {
  await setUpLanguage();
  [page.meta, page.geometry] = await Promise.all([getMeta(), getBoard()]);
  mountLanguageSwitch($("language"), draw);
  $("guide-ruleset").addEventListener("change", () => {
    const chosen = $("guide-ruleset").value;
    const address = new URL(window.location.href);
    address.searchParams.set("ruleset", chosen);
    window.history.replaceState(null, "", address);
    show(chosen);
  });
  await show(askedRuleset());
}

main();
