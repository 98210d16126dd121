// The words of the game page in the reader's language: what a legal action does, what an
// event did, whose turn it is and how the game ended, all built from the structured fields
// the server sends (the server's own English descriptions stay the fallback).

import { t, currentLanguage } from "./i18n.js";
import { pieceName, seatName } from "./board.js";

/** A short phrase for an action the engine lists as legal, e.g. "Move South a from j8 to j12". */
export function actionText(action, squareName) {
  const captures = action.captures || [];
  const text = actionWords(action, squareName);
  return captures.length ? t("action.captures", { text, pieces: captures.map(pieceName).join(", ") }) : text;
}

function actionWords(action, squareName) {
  const piece = action.piece !== null && action.piece !== undefined ? pieceName(action.piece) : "";
  const from = action.from !== null && action.from !== undefined ? squareName(action.from) : "";
  const to = action.to !== null && action.to !== undefined ? squareName(action.to) : "";
  switch (action.kind) {
    case "decline":
      return t("action.decline");
    case "enter":
      return t("action.enter", { piece, to });
    case "free":
      return t("action.free", { piece, to });
    case "exit":
      return t("action.exit", { piece });
    case "lap":
      return t("action.lap", { piece, to });
    case "move":
      return to ? t("action.move", { piece, from, to }) : t("action.move_home", { piece, from });
    default:
      return currentLanguage() === "en" && action.description ? action.description : action.action;
  }
}

/** The line an event is announced with, or null for events that need no words of their own. */
export function eventText(event, squareName) {
  const seat = event.seat >= 0 ? seatName(event.seat) : "";
  const piece = event.piece >= 0 ? pieceName(event.piece) : "";
  const square = (id) => (id !== null && id !== undefined && id >= 0 ? squareName(id) : "");
  switch (event.kind) {
    case "throw_off":
      return t("event.throw_off", { seat, value: event.value, up: event.k });
    case "begins":
      return t("event.begins", { seat });
    case "throw":
      return t("event.throw", { seat, value: event.value, up: event.k });
    case "void":
      return t("event.void", { seat, value: event.value });
    case "cancel":
      return t("event.cancel");
    case "enter":
      return t("event.enter", { piece, to: square(event.square_to) });
    case "move":
      return event.to === 84
        ? t("event.finish_move", { piece, from: square(event.square_from) })
        : t("event.move", { piece, from: square(event.square_from), to: square(event.square_to) });
    case "capture":
      return t("event.capture", {
        seat,
        pieces: (event.pieces || []).map(pieceName).join(", "),
        square: square(event.square_to ?? event.to),
      });
    case "finish":
      return t("event.finish", { piece });
    case "decline":
      return t("event.decline", { seat });
    case "pyada":
      return t("event.pyada", { seat, count: event.value });
    case "again":
      return t("event.again", { seat });
    case "annul":
      return t("event.annul", { seat });
    case "turn":
      return t("event.turn", { seat });
    case "win":
      return null;
    case "draw":
      return t("event.draw");
    default:
      return null;
  }
}

/** How the game ended, from the view's result. */
export function resultText(view) {
  const result = view.result;
  if (!result) return "";
  if (result.draw || result.winner === null || result.winner === undefined) {
    return t(result.rule === "R-FROZEN" ? "result.frozen" : "result.draw");
  }
  const seats = result.seats && result.seats.length ? result.seats : [result.winner];
  if (seats.length === 1) return t("result.seat", { seat: seatName(seats[0]) });
  return t("result.team", { first: seatName(seats[0]), second: seatName(seats[1]) });
}

/** Who is to do what, in one line. */
export function turnText(view) {
  if (view.result) return resultText(view);
  const turn = view.turn;
  const seat = seatName(turn.seat);
  switch (turn.stage) {
    case "throw_off":
      return t("turn.throw_off", { seat });
    case "throw":
      return t("turn.throw", { seat });
    default:
      break;
  }
  const text = t(`turn.${turn.stage === "pyada" || turn.stage === "spend" ? turn.stage : "act"}`, { seat });
  // Under partner throws a seat may move its partner's men: say whose.
  if (turn.mover !== undefined && turn.mover !== turn.seat) {
    return t("turn.partner", { text, mover: seatName(turn.mover) });
  }
  return text;
}
