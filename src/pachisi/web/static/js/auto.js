// Auto-play: the game page throws or acts for the player where the options say so, so that
// only real decisions cost a click. A choice is no choice when only one action is legal, or
// when every legal action leads to the same position (the server's `leads_to`). The page
// waits a moment before each such step, so that people can follow what it did for them.

/** The pause before the page throws or acts for the player (ms). */
export const AUTO_GAP_MS = 300;

/** How many different positions the legal actions of `view` lead to. */
export function distinctChoices(view) {
  return new Set((view?.legal ?? []).map((action, index) => action.leads_to ?? index)).size;
}

/**
 * What the options would have the page do for the player in `view`: {throw: true}, or
 * {action} to play, or null. Only for a seat this viewer holds (a spectator's page never
 * plays), while the game goes on.
 */
export function autoStep(view, options) {
  if (!view || view.result || !view.seats?.[view.turn.seat]?.you) return null;
  if (view.turn.you_throw) return options.autoThrow ? { throw: true } : null;
  if (!view.turn.you_act || !view.legal.length) return null;
  if (view.legal.length === 1) return options.autoSingle ? { action: view.legal[0].action } : null;
  return options.autoSame && distinctChoices(view) === 1 ? { action: view.legal[0].action } : null;
}

/** Plays the options' steps for the player, each after a short gap. */
export class AutoPlayer {
  /**
   * @param {object} hooks options() the options now; view() the view shown now; ready()
   *   whether a command can go out now (connected, nothing awaited, nothing left to show);
   *   throwCowries() and play(action) send as the buttons do
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.timer = null;
  }

  /** Look at the view shown now: plan its step (after the gap) or drop a planned one. */
  consider() {
    clearTimeout(this.timer);
    this.timer = null;
    const { hooks } = this;
    const view = hooks.view();
    if (!hooks.ready() || !autoStep(view, hooks.options())) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      // The gap may have brought another view, a lost connection or a changed option.
      const step = hooks.view() === view && hooks.ready() ? autoStep(view, hooks.options()) : null;
      if (!step) return;
      if (step.throw) hooks.throwCowries();
      else hooks.play(step.action);
    }, AUTO_GAP_MS);
  }
}
