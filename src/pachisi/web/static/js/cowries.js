// The throw drawn as the cowrie shells themselves: mouth up (the toothed slit showing) or
// mouth down (the smooth humped back), with the throw's value and whether it is a grace.

import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  parent.append(node);
  return node;
}

function drawShell(svg, x, up) {
  const shell = el("g", { class: up ? "cowrie up" : "cowrie down", transform: `translate(${x} 12)` }, svg);
  el("ellipse", { cx: 0, cy: 0, rx: 6, ry: 9, class: "shell" }, shell);
  if (up) {
    el("path", { d: "M 0 -7 C 1.6 -3 1.6 3 0 7 C -1.6 3 -1.6 -3 0 -7 Z", class: "mouth" }, shell);
    for (const y of [-4.5, -1.5, 1.5, 4.5]) {
      el("path", { d: `M -2.4 ${y} L -0.8 ${y} M 0.8 ${y} L 2.4 ${y}`, class: "teeth" }, shell);
    }
  } else {
    el("ellipse", { cx: -1.2, cy: -2.5, rx: 2.5, ry: 4, class: "hump" }, shell);
  }
}

/** How many shells are thrown and which lie mouth up, from the view's throw object. */
function shellsOf(throwInfo, count) {
  if (Array.isArray(throwInfo.cowries)) return throwInfo.cowries.map((c) => Boolean(c));
  const n = typeof throwInfo.cowries === "number" ? throwInfo.cowries : count;
  return Array.from({ length: n }, (_, i) => i < throwInfo.k);
}

/**
 * Draw `throwInfo` ({k, value, cowries, grace}) into `container`: the shells in an SVG and a
 * line with the value. With no throw, the container says that none is pending.
 * `count` is the ruleset's number of cowries, used when the view does not give it.
 */
export function drawThrow(container, throwInfo, count = 6) {
  container.replaceChildren();
  if (!throwInfo) {
    const none = document.createElement("p");
    none.className = "no-throw";
    none.textContent = t("throw.none");
    container.append(none);
    return;
  }
  const shells = shellsOf(throwInfo, count);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${shells.length * 15 + 1} 24`);
  svg.setAttribute("class", "cowries");
  svg.setAttribute("role", "img");
  const up = shells.filter(Boolean).length;
  svg.setAttribute("aria-label", t("throw.shells", { up, down: shells.length - up }));
  shells.forEach((isUp, i) => drawShell(svg, 8 + i * 15, isUp));
  const line = document.createElement("p");
  line.className = "throw-value";
  // The faded last throw keeps its grace, so a throw that gave another is still read as one.
  const words = { value: throwInfo.value, up, count: shells.length };
  if (throwInfo.last) {
    line.textContent = t(throwInfo.grace ? "throw.last_grace" : "throw.last", words);
    container.classList.add("last");
  } else {
    line.textContent = t(throwInfo.grace ? "throw.value_grace" : "throw.value", words);
    container.classList.remove("last");
  }
  container.append(svg, line);
}
