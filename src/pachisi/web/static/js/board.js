// The SVG board, drawn from the server's geometry (/api/board): the cross of four arms of
// three columns of eight squares, the Charkoni in the middle, the castles crossed as on the
// cloth, and the men as cone-shaped pieces in their seats' colours. The board knows no rules:
// it draws the view it is given and reports which piece or square was chosen.

import { t } from "./i18n.js";
import { HOME, lastMoveOf } from "./picking.js";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 10;
const LETTERS = "abcd";
// A moving man takes this long per square, and never more than the cap for a whole move.
const HOP_MS = 70;
// Half the width of the cloth's seam showing between two squares.
const SEAM = 0.35;
const MAX_HOPS_MS = 1000;
// A man, centred on (0, 0), about one square high: a beehive body on a flat base with a knob.
const MAN_BODY = "M -3.2 3 C -3.6 0 -2.6 -2.6 -1.1 -3.3 L 1.1 -3.3 C 2.6 -2.6 3.6 0 3.2 3 Z";
const MAN_RIDGES = "M -3.3 1 L 3.3 1 M -2.9 -1 L 2.9 -1";
// On a touch screen a man that can move, and a destination, answer a tap this far (in CSS
// pixels) from their centre: a tap target of at least 44 px (WCAG's "target size").
const TOUCH_RADIUS_PX = 23;
// The margin the file and rank labels take, below and left of the cross.
const LABEL_MARGIN = 7;

/** An SVG element `name` with `attrs` (custom properties through the CSSOM), in `parent`. */
export function svgElement(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) {
    // A custom property goes through the CSSOM: a style attribute would break the server's
    // Content-Security-Policy (style-src 'self', pachisi.web.security).
    if (key.startsWith("--")) node.style.setProperty(key, String(value));
    else node.setAttribute(key, String(value));
  }
  if (parent) parent.append(node);
  return node;
}

const el = svgElement;

/** The arm (the seat whose side of the cross it is) of a grid cell, or -1 in the Charkoni. */
function armOf(x, y) {
  if (y <= 7) return 0;
  if (x >= 11) return 1;
  if (y >= 11) return 2;
  if (x <= 7) return 3;
  return -1;
}

/** A seat's direction from the centre, in SVG axes (y down): South is down, East right. */
const OUTWARD = [
  [0, 1],
  [1, 0],
  [0, -1],
  [-1, 0],
];

/** Of `nodes`, the one whose drawn centre is nearest to the pointer `event` (null without a
 * pointer position or nodes). */
function nearestTo(event, nodes) {
  if (typeof event.clientX !== "number" || (!event.clientX && !event.clientY)) return null;
  let best = null;
  let bestDistance = Infinity;
  for (const node of nodes) {
    const box = node.getBoundingClientRect();
    const distance = Math.hypot(box.x + box.width / 2 - event.clientX, box.y + box.height / 2 - event.clientY);
    if (distance < bestDistance) [best, bestDistance] = [node, distance];
  }
  return best;
}

export function seatName(seat) {
  return t(`seat.${seat}`);
}

export function pieceName(pieceId) {
  return t("piece.name", { seat: seatName(pieceId >> 2), letter: LETTERS[pieceId & 3] });
}

/** The chosen men of a highlight (its `selected`: a Set, one id, or null), as a Set. */
function chosenMen(highlight) {
  const selected = highlight?.selected;
  if (selected === null || selected === undefined) return new Set();
  return selected instanceof Set ? selected : new Set([selected]);
}

export class Board {
  /**
   * @param {SVGSVGElement} svg the element to draw into
   * @param {object} geometry the server's /api/board answer
   * @param {object} handlers onPiece(pieceId), onSquare(squareId or HOME) and onNothing()
   *   (a click on the board away from any man or destination), each optional
   */
  constructor(svg, geometry, handlers) {
    this.svg = svg;
    this.geometry = geometry;
    this.handlers = handlers;
    this.grid = geometry.grid;
    this.squares = new Map(geometry.squares.map((s) => [s.id, s]));
    this.colours = geometry.seats.map((s) => s.colour);
    this.squareNodes = new Map();
    this.pieceNodes = new Map();
    this.lastMove = null;
    this.labels = false;
    this.touch = window.matchMedia("(pointer: coarse)").matches;
    this.draw();
    // Tap areas are sized in screen pixels: a board drawn at another size needs new ones.
    if (window.ResizeObserver) {
      new ResizeObserver(() => this.view && this.update(this.view, [], this.highlight)).observe(svg);
    }
  }

  handle(name, ...args) {
    this.handlers[name]?.(...args);
  }

  squareName(id) {
    return this.squares.get(id)?.name ?? String(id);
  }

  /** The SVG point at the centre of a grid cell. */
  centre(x, y) {
    return [x * CELL + CELL / 2, (this.grid - 1 - y) * CELL + CELL / 2];
  }

  draw() {
    this.frame();
    this.svg.classList.toggle("touch", this.touch);
    this.svg.replaceChildren();
    const defs = el("defs", {}, this.svg);
    const cloth = el("pattern", { id: "cloth", width: 4, height: 4, patternUnits: "userSpaceOnUse" }, defs);
    el("path", { d: "M 0 4 L 4 0", class: "weave" }, cloth);
    this.drawCloth();
    this.squareLayer = el("g", { class: "squares", role: "list" }, this.svg);
    this.charkoniLayer = el("g", { class: "charkoni" }, this.svg);
    this.pieceLayer = el("g", { class: "pieces" }, this.svg);
    // Above the men: on a touch screen, the enlarged tap areas of the chosen man's destinations.
    this.hitLayer = el("g", { class: "hits", "aria-hidden": "true" }, this.svg);
    this.labelLayer = el("g", { class: "labels", "aria-hidden": "true" }, this.svg);
    for (const square of this.geometry.squares) this.drawSquare(square);
    this.drawCharkoni();
    this.drawLabels();
    this.svg.addEventListener("click", (event) => {
      if (!event.target.closest?.(".piece, .square.target, .charkoni-part.target, .hit")) this.handle("onNothing");
    });
    this.relabel();
  }

  /** The drawn area: the cross, and the labels' margin when they are shown. */
  frame() {
    const size = this.grid * CELL;
    const margin = this.labels ? LABEL_MARGIN : 0;
    this.svg.setAttribute("viewBox", `${-2 - margin} -2 ${size + 4 + margin} ${size + 4 + margin}`);
  }

  /** The files (a, b, ...) under the cross and the ranks (1, 2, ...) left of it, read from
   * the squares' own names (the server's, which the move list uses too). */
  drawLabels() {
    const files = new Map();
    const ranks = new Map();
    for (const square of this.geometry.squares) {
      const parts = /^([a-z]+)(\d+)$/i.exec(square.name);
      if (!parts) continue;
      files.set(square.x, parts[1]);
      ranks.set(square.y, parts[2]);
    }
    for (const [x, name] of files) {
      const [cx] = this.centre(x, 0);
      el("text", { x: cx, y: this.grid * CELL + LABEL_MARGIN / 2 + 1, class: "label file" }, this.labelLayer)
        .textContent = name;
    }
    for (const [y, name] of ranks) {
      const [, cy] = this.centre(0, y);
      el("text", { x: -2 - LABEL_MARGIN / 2, y: cy, class: "label rank" }, this.labelLayer).textContent = name;
    }
    this.labelLayer.toggleAttribute("hidden", !this.labels);
  }

  /** Show or hide the file and rank labels. */
  showLabels(shown) {
    this.labels = Boolean(shown);
    this.labelLayer.toggleAttribute("hidden", !this.labels);
    this.frame();
    if (this.view) this.update(this.view, [], this.highlight);
  }

  /** The cloth under the squares: a cross with a border, showing between the squares as the
   * stitched lines of a cloth board do. */
  drawCloth() {
    const [lo, hi] = [(this.grid - 3) / 2 * CELL, (this.grid + 3) / 2 * CELL];
    const [a, b] = [-1.5, this.grid * CELL + 1.5];
    const [l, h] = [lo - 1.5, hi + 1.5];
    const points = [[l, a], [h, a], [h, l], [b, l], [b, h], [h, h], [h, b], [l, b], [l, h], [a, h], [a, l], [l, l]];
    el("polygon", { points: points.map((p) => p.join(",")).join(" "), class: "cloth", "aria-hidden": "true" },
      this.svg);
  }

  drawSquare(square) {
    const [cx, cy] = this.centre(square.x, square.y);
    const arm = armOf(square.x, square.y);
    const middle = arm === 0 || arm === 2 ? square.x === 9 : square.y === 9;
    const group = el("g", {
      class: `square arm-${arm}${middle ? " middle" : ""}${square.castle ? " castle" : ""}`,
      role: "listitem",
      "data-square": square.id,
    }, this.squareLayer);
    const half = CELL / 2 - SEAM;
    el("rect", {
      x: cx - half, y: cy - half, width: 2 * half, height: 2 * half,
      "--seat": this.colours[arm] ?? "#888",
    }, group);
    el("rect", { x: cx - half, y: cy - half, width: 2 * half, height: 2 * half, class: "weave-fill" }, group);
    if (square.castle) {
      const h = CELL / 2 - 1;
      el("path", {
        d: `M ${cx - h} ${cy - h} L ${cx + h} ${cy + h} M ${cx + h} ${cy - h} L ${cx - h} ${cy + h}`,
        class: "castle-cross",
      }, group);
    }
    group.addEventListener("click", (event) => {
      event.stopPropagation();
      if (group.classList.contains("target")) this.handle("onSquare", square.id);
      else this.handle("onNothing");
    });
    this.squareNodes.set(square.id, group);
  }

  drawCharkoni() {
    const [cx, cy] = this.centre(this.geometry.charkoni.x, this.geometry.charkoni.y);
    const half = CELL * 1.5;
    const corners = [
      [cx - half, cy + half], [cx + half, cy + half], [cx + half, cy - half], [cx - half, cy - half],
    ];
    // Each seat's triangle touches its own arm: South the bottom edge, East the right one, ...
    for (let seat = 0; seat < 4; seat += 1) {
      const [a, b] = [corners[seat], corners[(seat + 1) % 4]];
      const part = el("path", {
        d: `M ${a[0]} ${a[1]} L ${b[0]} ${b[1]} L ${cx} ${cy} Z`,
        class: `charkoni-part seat-${seat}`,
        "data-home": seat,
        "--seat": this.colours[seat],
      }, this.charkoniLayer);
      part.addEventListener("click", (event) => {
        event.stopPropagation();
        if (part.classList.contains("target")) this.handle("onSquare", HOME);
        else this.handle("onNothing");
      });
    }
    el("rect", { x: cx - half, y: cy - half, width: 2 * half, height: 2 * half, class: "charkoni-edge" },
      this.charkoniLayer);
    this.charkoniTitle = el("title", {}, this.charkoniLayer);
  }

  /** Renew every screen-reader label (after a language switch). */
  relabel() {
    this.svg.setAttribute("aria-label", t("board.label"));
    for (const [id, node] of this.squareNodes) {
      const square = this.squares.get(id);
      const label = square.castle
        ? t("board.square_castle", { name: square.name })
        : t("board.square", { name: square.name });
      node.setAttribute("aria-label", label);
    }
    if (this.charkoniTitle) this.charkoniTitle.textContent = t("board.charkoni");
    if (this.view) this.update(this.view, [], this.highlight);
  }

  /** Where piece `piece` is drawn: its point and a short phrase for screen readers. */
  placeOf(piece, waitingIndex, homeIndex) {
    const seat = piece.seat;
    const [ox, oy] = OUTWARD[seat];
    const [cx, cy] = this.centre(this.geometry.charkoni.x, this.geometry.charkoni.y);
    // Along the Charkoni's edge next to the seat's arm: x for South and North, y otherwise.
    const spread = (offset) => (ox === 0 ? [offset, 0] : [0, offset]);
    // Waiting men in a row at the outer edge of their seat's triangle, the men home in a
    // shorter row inside it, nearer the centre: each row stays inside its own triangle, so no
    // man hides another, of its seat or of the next (D5).
    if (piece.where === "waiting") {
      const [ax, ay] = spread((waitingIndex - 1.5) * 5);
      return { x: cx + ox * 12 + ax, y: cy + oy * 12 + ay, scale: 0.62, phrase: t("where.waiting") };
    }
    if (piece.where === "home") {
      const [ax, ay] = spread((homeIndex - 1.5) * 2.8);
      return { x: cx + ox * 7.5 + ax, y: cy + oy * 7.5 + ay, scale: 0.42, phrase: t("where.home") };
    }
    const square = this.squares.get(piece.square);
    const [x, y] = this.centre(square.x, square.y);
    const phrase = piece.where === "homeward"
      ? t("where.homeward", { square: square.name })
      : t("where.square", { square: square.name });
    return { x, y, scale: 1, phrase };
  }

  /** Mark the last move of `events` (see picking.lastMoveOf), or nothing if none moved. */
  setLastMove(events) {
    this.lastMove = lastMoveOf(events);
  }

  /** Screen pixels per drawing unit, as the SVG is shown now (0 while it is not shown). */
  pixelsPerUnit() {
    const box = this.svg.viewBox.baseVal;
    const shown = this.svg.getBoundingClientRect();
    if (!box || !box.width || !shown.width) return 0;
    return Math.min(shown.width / box.width, shown.height / box.height);
  }

  /**
   * Draw `view`'s pieces. `highlight` is {pieces: Set (the men that can move), focusable:
   * Set (one per group of them, for the keyboard), targets: Set of squares, home: the seat
   * whose Charkoni is a destination or null, selected: Set of the chosen men, preview: an
   * action}; the pieces named in `events` (entries, moves, captures) glide to their new
   * places, and the last move among them is marked.
   */
  update(view, events, highlight) {
    this.view = view;
    this.highlight = highlight;
    const moved = lastMoveOf(events);
    if (moved) this.lastMove = moved;
    const unit = this.pixelsPerUnit();
    const touchRadius = this.touch && unit ? TOUCH_RADIUS_PX / unit : 0;
    const focusable = highlight.focusable ?? highlight.pieces;
    const selected = chosenMen(highlight);
    const moving = new Set();
    const paths = new Map();
    for (const event of events) {
      if (event.piece !== undefined && event.piece >= 0) moving.add(event.piece);
      for (const p of event.pieces || []) moving.add(p);
      if ((event.kind === "move" || event.kind === "enter") && event.piece >= 0) {
        const path = paths.get(event.piece) ?? [];
        path.push(...this.routePoints(event.piece >> 2, event.frm, event.to));
        paths.set(event.piece, path);
      }
    }
    const places = this.layOut(view.pieces);
    for (const piece of view.pieces) {
      const place = places.get(piece.id);
      let node = this.pieceNodes.get(piece.id);
      if (!node) {
        node = this.makePiece(piece);
        this.pieceNodes.set(piece.id, node);
      }
      const before = node.style.transform;
      const after = `translate(${place.x}px, ${place.y}px) scale(${place.scale})`;
      const path = paths.get(piece.id);
      // A man that moved hops along its route, square by square; a captured one glides back.
      node.classList.toggle("animate", moving.has(piece.id) && !path?.length);
      node.style.transform = after;
      if (path?.length && before && before !== after) this.hop(node, before, path, after);
      node.classList.toggle("homeward", piece.where === "homeward");
      node.classList.toggle("home", piece.where === "home");
      node.classList.toggle("waiting", piece.where === "waiting");
      const badge = node.querySelector(".count");
      badge.textContent = place.count > 1 ? String(place.count) : "";
      node.classList.toggle("stack-top", place.count > 1);
      const movable = highlight.pieces.has(piece.id);
      node.classList.toggle("movable", movable);
      node.classList.toggle("selected", selected.has(piece.id));
      node.classList.toggle("previewed", highlight.preview?.piece === piece.id);
      // The tap area of a man that can move, in the man's own (scaled) units.
      node.querySelector(".hit").setAttribute("r", movable && touchRadius ? touchRadius / place.scale : 0);
      const stack = place.count > 1 ? ` ${t("board.stack", { count: place.count })}` : "";
      node.setAttribute("aria-label", `${pieceName(piece.id)}: ${place.phrase}${stack}`
        + (movable ? `. ${t("board.can_move")}` : ""));
      if (focusable.has(piece.id)) {
        node.setAttribute("role", "button");
        node.setAttribute("tabindex", "0");
      } else {
        node.setAttribute("role", "img");
        node.removeAttribute("tabindex");
      }
    }
    // Movable pieces drawn last, so they are on top and come first to a pointer, and the
    // chosen ones above them; in id order, so a stack's top man stays on top.
    const order = (ids) => [...ids].sort((a, b) => a - b);
    for (const id of [...order(highlight.pieces), ...order(selected)]) {
      const node = this.pieceNodes.get(id);
      if (node) this.pieceLayer.append(node);
    }
    const last = this.lastMove;
    for (const [id, node] of this.squareNodes) {
      node.classList.toggle("target", highlight.targets.has(id));
      node.classList.toggle("previewed", highlight.preview?.to === id || highlight.preview?.from === id);
      node.classList.toggle("last-from", Boolean(last?.from.has(id)));
      node.classList.toggle("last-to", Boolean(last?.to.has(id)));
    }
    for (const part of this.charkoniLayer.querySelectorAll(".charkoni-part")) {
      const seat = Number(part.dataset.home);
      part.classList.toggle("target", highlight.home === seat);
    }
    this.drawHits(touchRadius, highlight);
    for (const event of events) {
      if (event.kind === "capture" && event.to >= 0) this.flash(event.to);
    }
  }

  /** On a touch screen, a tap area of TOUCH_RADIUS_PX around each destination of the chosen
   * man, above the men (a destination may hold another man). */
  drawHits(radius, highlight) {
    this.hitLayer.replaceChildren();
    if (!radius || !chosenMen(highlight).size) return;
    const add = (x, y, where) => {
      const hit = el("circle", { cx: x, cy: y, r: radius, class: "hit", "data-hit": where }, this.hitLayer);
      hit.addEventListener("click", (event) => {
        event.stopPropagation();
        const nearest = nearestTo(event, [...this.hitLayer.children]) ?? hit;
        const key = nearest.dataset.hit;
        this.handle("onSquare", key === HOME ? HOME : Number(key));
      });
    };
    for (const id of highlight.targets) {
      const square = this.squares.get(id);
      if (square) add(...this.centre(square.x, square.y), id);
    }
    if (highlight.home !== null && highlight.home !== undefined) {
      const [cx, cy] = this.centre(this.geometry.charkoni.x, this.geometry.charkoni.y);
      const [ox, oy] = OUTWARD[highlight.home];
      add(cx + ox * 7.5, cy + oy * 7.5, HOME);
    }
  }

  /** The centres of the squares a man of `seat` passes from progress `frm` to `to`. */
  routePoints(seat, frm, to) {
    const route = this.geometry.routes?.[String(seat)];
    if (!route || !(to > frm)) return [];
    const points = [];
    for (let p = Math.max(frm + 1, 1); p <= Math.min(to, route.length); p += 1) {
      const square = this.squares.get(route[p - 1]);
      if (square) points.push(this.centre(square.x, square.y));
    }
    return points;
  }

  hop(node, before, points, after) {
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches || !node.animate) return;
    const frames = [before, ...points.map(([x, y]) => `translate(${x}px, ${y}px) scale(1)`), after];
    const duration = Math.min(HOP_MS * (frames.length - 1), MAX_HOPS_MS);
    node.getAnimations().forEach((running) => running.cancel());
    node.animate(frames.map((transform) => ({ transform })), { duration, easing: "ease-in-out" });
  }

  /** Every piece's place, stacks drawn one above the other with the count on the top one. */
  layOut(pieces) {
    const places = new Map();
    const waiting = [0, 0, 0, 0];
    const home = [0, 0, 0, 0];
    const bySquare = new Map();
    for (const piece of pieces) {
      const place = this.placeOf(piece, waiting[piece.seat], home[piece.seat]);
      if (piece.where === "waiting") waiting[piece.seat] += 1;
      if (piece.where === "home") home[piece.seat] += 1;
      place.count = 1;
      places.set(piece.id, place);
      if (piece.square !== null && piece.square !== undefined && (piece.where === "board" || piece.where === "homeward")) {
        if (!bySquare.has(piece.square)) bySquare.set(piece.square, []);
        bySquare.get(piece.square).push(piece);
      }
    }
    for (const group of bySquare.values()) {
      const seats = [...new Set(group.map((p) => p.seat))];
      for (const [column, seat] of seats.entries()) {
        const mine = group.filter((p) => p.seat === seat);
        const shift = seats.length > 1 ? (column - (seats.length - 1) / 2) * 4.5 : 0;
        mine.forEach((piece, height) => {
          const place = places.get(piece.id);
          place.x += shift;
          place.y -= height * 1.3;
          place.scale = seats.length > 1 ? 0.7 : 0.9;
          place.count = height === mine.length - 1 ? mine.length : 1;
        });
      }
    }
    return places;
  }

  makePiece(piece) {
    const node = el("g", { class: `piece seat-${piece.seat}`, "data-piece": piece.id,
      "--seat": this.colours[piece.seat] }, this.pieceLayer);
    el("ellipse", { cx: 0, cy: 3, rx: 3.6, ry: 1.1, class: "man-base" }, node);
    el("path", { d: MAN_BODY, class: "man-body" }, node);
    el("path", { d: MAN_RIDGES, class: "man-ridges" }, node);
    el("circle", { cx: 0, cy: -3.6, r: 0.9, class: "man-knob" }, node);
    el("circle", { cx: 0, cy: 0, r: 4.6, class: "homeward-ring" }, node);
    el("text", { x: 3.2, y: -2.2, class: "count" }, node);
    el("circle", { cx: 0, cy: 0, r: 0, class: "hit" }, node);
    node.addEventListener("click", (event) => {
      event.stopPropagation();
      // A man standing on a lit destination of the chosen man (one to capture, or to join)
      // covers that square: a click on him means the square, as a tap does on a touch
      // screen, where the destinations' tap areas lie above the men.
      const under = this.destinationUnder(piece.id);
      if (under !== null) {
        this.handle("onSquare", under);
        return;
      }
      // Tap areas overlap where men that can move stand close (an entry square by the men
      // waiting): a tap goes to the movable man nearest to it.
      const movable = [...(this.highlight?.pieces ?? [])].map((id) => this.pieceNodes.get(id)).filter(Boolean);
      const nearest = this.touch ? nearestTo(event, movable.map((n) => n.querySelector(".man-body"))) : null;
      this.handle("onPiece", nearest ? Number(nearest.closest(".piece").dataset.piece) : piece.id);
    });
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && node.getAttribute("tabindex") === "0") {
        event.preventDefault();
        this.handle("onPiece", piece.id, { keyboard: true });
      }
    });
    return node;
  }

  /** The lit destination (a square, or HOME) the man `pieceId` stands on while another man
   * is chosen, or null (nothing chosen, the man is one of the chosen, or his place is not
   * lit). */
  destinationUnder(pieceId) {
    const highlight = this.highlight;
    const chosen = chosenMen(highlight);
    if (!chosen.size || chosen.has(pieceId)) return null;
    const piece = this.view?.pieces.find((p) => p.id === pieceId);
    if (!piece) return null;
    // The men home are drawn inside their Charkoni triangle, the destination HOME.
    if (piece.where === "home") return highlight.home === piece.seat ? HOME : null;
    if (piece.where !== "board" && piece.where !== "homeward") return null;
    return highlight.targets.has(piece.square) ? piece.square : null;
  }

  flash(squareId) {
    const node = this.squareNodes.get(squareId);
    if (!node) return;
    node.classList.remove("flash");
    // Force a reflow so the animation restarts for a second capture on the same square.
    void node.getBoundingClientRect();
    node.classList.add("flash");
  }

  focusPiece(id) {
    this.pieceNodes.get(id)?.focus();
  }
}
