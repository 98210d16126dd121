// The game page's layout on small screens: the style sheet fits the board and the play (the
// throw, the choices) into one screen below the page's header, whose height it cannot know
// (it wraps on a narrow screen), so this module keeps it in the CSS variable --top. On a touch
// screen the page offers no keyboard shortcuts.

const $ = (id) => document.getElementById(id);

function noteHeaderHeight(header) {
  document.documentElement.style.setProperty("--top", `${Math.ceil(header.getBoundingClientRect().height)}px`);
}

/** Keep --top up to date, and drop the key shortcuts a touch screen has no keys for. */
export function setUpLayout() {
  const header = document.querySelector("header.top");
  if (header) {
    noteHeaderHeight(header);
    if (window.ResizeObserver) new ResizeObserver(() => noteHeaderHeight(header)).observe(header);
  }
  if (window.matchMedia("(pointer: coarse)").matches) {
    for (const id of ["throw-button", "hint-button"]) $(id)?.removeAttribute("aria-keyshortcuts");
    $("actions")?.removeAttribute("aria-describedby");
  }
}
