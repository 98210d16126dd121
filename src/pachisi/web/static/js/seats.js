// The game page's seats: who holds each seat, whose turn it is, the throw-off's values, and
// for the game's creator the buttons that hand out or revoke an open seat's invitation.

import { seatName } from "./board.js";
import { t, tOr } from "./i18n.js";

const $ = (id) => document.getElementById(id);

/**
 * Draw `view`'s seats into #seats. `owner`: whether this page made the game (it may invite);
 * `renew(seat)` and `revoke(seat)` act on an open seat's invitation.
 */
export function drawSeats(view, { owner, renew, revoke }) {
  const list = $("seats");
  list.setAttribute("aria-label", t("seats.heading"));
  list.replaceChildren();
  let inviting = false;
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
    // Only its invitation link takes an open seat: the creator can hand out a new one (one
    // per person: under players=2 the first of the person's two seats) or revoke it.
    const first = view.players === 2 ? seat.seat < 2 : true;
    if (owner && seat.kind === "open" && !view.result && first) {
      item.append(
        seatButton(t("invite.copy"), `renew-${seat.seat}`, () => renew(seat.seat)),
        seatButton(t("invite.revoke"), `revoke-${seat.seat}`, () => revoke(seat.seat)),
      );
      inviting = true;
    }
    list.append(item);
  }
  $("invite-area").hidden = !inviting;
}

function seatButton(text, testid, onClick) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = text;
  button.dataset.testid = testid;
  button.addEventListener("click", onClick);
  return button;
}
