// The pace at which the page shows the computer seats' moves. The server plays them as soon
// as they are chosen; the page queues the updates and shows each computer step a moment after
// the one before, so that people can follow, and catches up at once when it falls far behind
// (a tab in the background, a burst after a reconnection).

/** Milliseconds between a computer seat's throw (or move) and the step shown before it. */
export const PACE_MS = Object.freeze({
  instant: Object.freeze({ throw: 0, act: 0 }),
  fast: Object.freeze({ throw: 20, act: 60 }),
  normal: Object.freeze({ throw: 300, act: 700 }),
});

/** An update that has waited this long to be shown is shown at once, with all before it. */
export const CATCH_UP_MS = 6000;

const THROWS = new Set(["throw", "throw_off"]);

/**
 * How an update is paced: "throw" or "act" for a step a computer seat made (the seat to
 * play in `previous`, the view before the update), null for any other update, which is
 * shown as soon as those before it are.
 */
export function stepKind(previous, events) {
  if (!previous || !events.length || previous.result) return null;
  const seat = previous.seats?.[previous.turn?.seat];
  if (!seat || seat.kind !== "computer") return null;
  // A throw's update says so among its events; an action's has none.
  return events.some((e) => THROWS.has(e.kind)) ? "throw" : "act";
}

/** A queue of updates shown in order, the computer seats' ones at the chosen pace. */
export class Pacer {
  /** @param {() => string} paceOf the pace chosen now (a key of PACE_MS) */
  constructor(paceOf) {
    this.paceOf = paceOf;
    this.queue = [];
    this.timer = null;
    this.lastShown = -Infinity;
  }

  /** Whether everything received has been shown. */
  idle() {
    return !this.queue.length && this.timer === null;
  }

  /**
   * Show an update by calling `show()` when its turn comes: `kind` ("throw" or "act", from
   * stepKind) after the pace's pause, null at once. An update that is not a computer's step
   * (a resync, a seat taken) first shows everything still queued.
   */
  push(show, kind) {
    this.queue.push({ show, kind, received: performance.now() });
    if (kind === null) {
      this.catchUp();
      return;
    }
    this.pump();
  }

  /** Show every queued update now, in order. */
  catchUp() {
    clearTimeout(this.timer);
    this.timer = null;
    while (this.queue.length) this.showNext(performance.now());
  }

  /** The pace was changed: what waits is shown at the new one. */
  repace() {
    clearTimeout(this.timer);
    this.timer = null;
    this.pump();
  }

  showNext(now) {
    const item = this.queue.shift();
    this.lastShown = now;
    item.show();
  }

  pump() {
    if (this.timer !== null) return;
    while (this.queue.length) {
      const now = performance.now();
      const item = this.queue[0];
      const pause = item.kind === null ? 0 : (PACE_MS[this.paceOf()] ?? PACE_MS.fast)[item.kind];
      const due = this.lastShown + pause;
      if (now < due && now - item.received < CATCH_UP_MS) {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.pump();
        }, due - now);
        return;
      }
      this.showNext(now);
    }
  }
}
