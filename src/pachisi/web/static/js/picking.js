// Playing on the board: which men can be picked up, where a picked man can go and which legal
// actions a click on a destination means. Everything is read from the view's pieces and its
// legal actions (piece, pieces, to, kind), so the page still knows no rules: a man stands for
// every man of its seat on the same place, since the engine lists one action per group of
// interchangeable men (a stack, the men waiting to enter) and names the group by one of them.

/** The destination key of moving home (the Charkoni), whose action has no square. */
export const HOME = "home";

/** Where `action` takes its man: a square id, HOME, or null (a decline, a pyada spent). */
export function destinationOf(action) {
  if (action.to !== null && action.to !== undefined) return action.to;
  if (action.piece !== null && action.piece !== undefined && action.kind !== "decline") return HOME;
  return null;
}

function placeKey(piece) {
  return `${piece.seat}:${piece.progress}:${piece.lap ? 1 : 0}`;
}

/** The ids of the men standing with man `pieceId` (itself included), lowest letter first. */
export function groupOf(view, pieceId) {
  const man = view.pieces.find((p) => p.id === pieceId);
  if (!man) return [];
  const key = placeKey(man);
  return view.pieces.filter((p) => placeKey(p) === key).map((p) => p.id);
}

/** The legal actions a click on man `pieceId` offers: those of every man standing with it. */
export function actionsOfMan(view, pieceId) {
  const group = new Set(groupOf(view, pieceId));
  return view.legal.filter((a) => a.piece !== null && a.piece !== undefined && group.has(a.piece));
}

/**
 * The men that can be picked up now: `movable`, every man of a group with a legal action
 * (all of a stack answer a click), and `focusable`, one man per group for the keyboard
 * (the top of a stack, the first of the men waiting to enter).
 */
export function pickable(view) {
  const movable = new Set();
  const focusable = new Set();
  for (const action of view.legal) {
    if (action.piece === null || action.piece === undefined || movable.has(action.piece)) continue;
    const group = groupOf(view, action.piece);
    for (const id of group) movable.add(id);
    const man = view.pieces.find((p) => p.id === action.piece);
    focusable.add(man && man.where === "waiting" ? group[0] : group[group.length - 1]);
  }
  return { movable, focusable };
}

/** The destinations of `actions`: the squares, and whether one goes home. */
export function destinations(actions) {
  const squares = new Set();
  let home = false;
  for (const action of actions) {
    const where = destinationOf(action);
    if (where === HOME) home = true;
    else if (where !== null) squares.add(where);
  }
  return { squares, home };
}

/** The actions among `actions` that take their man to `where` (a square id or HOME). */
export function actionsTo(actions, where) {
  return actions.filter((a) => destinationOf(a) === where);
}

/**
 * The last move of a batch of events, to mark on the board: the squares left and reached by
 * the men of the last action that moved any (a stack moves as several events), or null when
 * the batch moved nobody. A throw or a turn between two moves ends the earlier one.
 */
export function lastMoveOf(events) {
  let run = null;
  let open = false;
  for (const event of events) {
    if (event.kind === "move" || event.kind === "enter") {
      if (!open) run = { from: new Set(), to: new Set(), home: false };
      open = true;
      if (event.square_from !== null && event.square_from !== undefined) run.from.add(event.square_from);
      if (event.square_to !== null && event.square_to !== undefined) run.to.add(event.square_to);
      else if (event.kind === "move") run.home = true;
    } else if (event.kind !== "capture" && event.kind !== "finish") {
      open = false;
    }
  }
  return run;
}
