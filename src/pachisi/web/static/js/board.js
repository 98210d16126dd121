// The SVG board, drawn from the server's geometry (/api/board): the cross of four arms of
// three columns of eight squares, the Charkoni in the middle, the castles crossed as on the
// cloth, and the men as cone-shaped pieces in their seats' colours. The board knows no rules:
// it draws the view it is given and reports which piece or square was chosen.

import { t } from "./i18n.js";

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

function el(name, attrs = {}, parent = null) {
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

export function seatName(seat) {
  return t(`seat.${seat}`);
}

export function pieceName(pieceId) {
  return t("piece.name", { seat: seatName(pieceId >> 2), letter: LETTERS[pieceId & 3] });
}

export class Board {
  /**
   * @param {SVGSVGElement} svg the element to draw into
   * @param {object} geometry the server's /api/board answer
   * @param {object} handlers onPiece(pieceId), onSquare(squareId)
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
    this.draw();
  }

  squareName(id) {
    return this.squares.get(id)?.name ?? String(id);
  }

  /** The SVG point at the centre of a grid cell. */
  centre(x, y) {
    return [x * CELL + CELL / 2, (this.grid - 1 - y) * CELL + CELL / 2];
  }

  draw() {
    const size = this.grid * CELL;
    this.svg.setAttribute("viewBox", `-2 -2 ${size + 4} ${size + 4}`);
    this.svg.replaceChildren();
    const defs = el("defs", {}, this.svg);
    const cloth = el("pattern", { id: "cloth", width: 4, height: 4, patternUnits: "userSpaceOnUse" }, defs);
    el("path", { d: "M 0 4 L 4 0", class: "weave" }, cloth);
    this.drawCloth();
    this.squareLayer = el("g", { class: "squares", role: "list" }, this.svg);
    this.charkoniLayer = el("g", { class: "charkoni" }, this.svg);
    this.pieceLayer = el("g", { class: "pieces" }, this.svg);
    for (const square of this.geometry.squares) this.drawSquare(square);
    this.drawCharkoni();
    this.relabel();
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
    group.addEventListener("click", () => this.handlers.onSquare(square.id));
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
      el("path", {
        d: `M ${a[0]} ${a[1]} L ${b[0]} ${b[1]} L ${cx} ${cy} Z`,
        class: `charkoni-part seat-${seat}`,
        "--seat": this.colours[seat],
      }, this.charkoniLayer);
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
    if (piece.where === "waiting") {
      const [ax, ay] = spread((waitingIndex - 1.5) * 5);
      return { x: cx + ox * 11 + ax, y: cy + oy * 11 + ay, scale: 0.62, phrase: t("where.waiting") };
    }
    if (piece.where === "home") {
      const [ax, ay] = spread((homeIndex - 1.5) * 3);
      return { x: cx + ox * 4.5 + ax, y: cy + oy * 4.5 + ay, scale: 0.42, phrase: t("where.home") };
    }
    const square = this.squares.get(piece.square);
    const [x, y] = this.centre(square.x, square.y);
    const phrase = piece.where === "homeward"
      ? t("where.homeward", { square: square.name })
      : t("where.square", { square: square.name });
    return { x, y, scale: 1, phrase };
  }

  /**
   * Draw `view`'s pieces. `highlight` is {pieces: Set, targets: Set, selected, preview}; the
   * pieces named in `events` (entries, moves, captures) glide to their new places.
   */
  update(view, events, highlight) {
    this.view = view;
    this.highlight = highlight;
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
      node.classList.toggle("selected", highlight.selected === piece.id);
      node.classList.toggle("previewed", highlight.preview?.piece === piece.id);
      const stack = place.count > 1 ? ` ${t("board.stack", { count: place.count })}` : "";
      node.setAttribute("aria-label", `${pieceName(piece.id)}: ${place.phrase}${stack}`
        + (movable ? `. ${t("board.can_move")}` : ""));
      if (movable) {
        node.setAttribute("role", "button");
        node.setAttribute("tabindex", "0");
      } else {
        node.setAttribute("role", "img");
        node.removeAttribute("tabindex");
      }
    }
    // Movable pieces drawn last, so they are on top and come first to a pointer.
    for (const id of highlight.pieces) {
      const node = this.pieceNodes.get(id);
      if (node) this.pieceLayer.append(node);
    }
    for (const [id, node] of this.squareNodes) {
      node.classList.toggle("target", highlight.targets.has(id));
      node.classList.toggle("previewed", highlight.preview?.to === id || highlight.preview?.from === id);
    }
    for (const event of events) {
      if (event.kind === "capture" && event.to >= 0) this.flash(event.to);
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
    node.addEventListener("click", (event) => {
      event.stopPropagation();
      this.handlers.onPiece(piece.id);
    });
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && node.getAttribute("tabindex") === "0") {
        event.preventDefault();
        this.handlers.onPiece(piece.id);
      }
    });
    return node;
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
