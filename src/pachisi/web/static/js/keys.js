// The game page's keyboard: T or Space throws, H asks for a hint, the arrow keys move between
// the choices, Escape forgets the chosen man (Tab and Enter work as everywhere). And where
// the focus goes when a redraw replaces the control that had it.

const $ = (id) => document.getElementById(id);

/** Whether keyboard focus is on one of the play controls, which a redraw replaces. */
export function focusInPlay() {
  const active = document.activeElement;
  return active === document.body || active === $("turn-heading") || $("actions").contains(active)
    || active === $("throw-button") || $("board").contains(active);
}

function lost(active) {
  return active === document.body || active === null
    || (active instanceof HTMLButtonElement && active.disabled);
}

/** After a redraw, give the focus back to the control that now matters: throw or a choice. */
export function restoreFocus(hadFocus, withinSelection) {
  if (!hadFocus) return;
  const heading = $("turn-heading");
  const active = document.activeElement;
  if (active !== heading && !lost(active)) return;
  if (!$("throw-button").disabled) $("throw-button").focus();
  else focusAction(0, withinSelection);
  // Nothing can be played yet (the server has not answered, or other seats are to move): the
  // focus waits on the turn's heading, never on <body>, so the redraw that brings the next
  // throw or choice hands it on (D6: docs/web-client.md, "where the focus goes").
  if (lost(document.activeElement)) heading.focus();
}

/** Focus the index-th choice (counting from the end when negative; only the chosen man's
 * when `withinSelection`). */
export function focusAction(index, withinSelection) {
  const buttons = [...$("actions").querySelectorAll("button.action")]
    .filter((b) => !withinSelection || !b.classList.contains("dimmed"));
  if (buttons.length) buttons[((index % buttons.length) + buttons.length) % buttons.length].focus();
}

function isTyping(target) {
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement
    || target instanceof HTMLTextAreaElement;
}

/**
 * Listen for the page's keys. `handlers`: throwCowries(), askHint(), and clearSelection(),
 * which says whether there was a chosen man to forget.
 */
export function installKeys(handlers) {
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
    const target = event.target;
    const interactive = target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement
      || target.tagName === "SUMMARY" || target.getAttribute?.("role") === "button";
    // Space on a focused button presses that button, as everywhere; elsewhere it throws.
    if (event.key === "t" || event.key === "T" || (event.key === " " && !interactive)) {
      if (!$("throw-button").disabled) {
        event.preventDefault();
        handlers.throwCowries();
      }
      return;
    }
    if ((event.key === "h" || event.key === "H") && !$("hint-button").disabled) {
      event.preventDefault();
      handlers.askHint();
      return;
    }
    if (event.key === "Escape") {
      if (handlers.clearSelection()) event.preventDefault();
      return;
    }
    const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
    const buttons = [...$("actions").querySelectorAll("button.action")];
    if (step === undefined || !buttons.length) return;
    const current = buttons.indexOf(document.activeElement);
    // Arrows only take over from the choices, the board or nowhere, never from a select.
    if (current < 0 && !$("board").contains(target) && target !== document.body
      && target !== $("turn-heading")) return;
    event.preventDefault();
    focusAction(current < 0 ? (step > 0 ? 0 : -1) : current + step, false);
  });
}
