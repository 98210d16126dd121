// The game page's options, remembered per browser (localStorage): whether the page throws for
// the player, whether it plays a choice that is no choice (the only action, or actions that
// all lead to the same position), and the pace at which the computer seats' moves are shown.

const STORAGE_KEY = "pachisi_options";

/** The computer seats' paces, quickest first. */
export const PACES = ["instant", "fast", "normal"];

/** The options of a browser that chose none: only real decisions and throws cost a click. */
export const DEFAULT_OPTIONS = Object.freeze({
  autoThrow: false,
  autoSingle: true,
  autoSame: true,
  pace: "fast",
});

const SWITCHES = { autoThrow: "option-auto-throw", autoSingle: "option-auto-single", autoSame: "option-auto-same" };

/** The options kept by this browser, each one that is missing or malformed at its default. */
export function loadOptions() {
  let kept = {};
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "{}");
    if (parsed && typeof parsed === "object") kept = parsed;
  } catch {
    // A malformed entry (edited by hand, or by an older page) counts as none.
  }
  const options = { ...DEFAULT_OPTIONS };
  for (const name of Object.keys(SWITCHES)) {
    if (typeof kept[name] === "boolean") options[name] = kept[name];
  }
  if (PACES.includes(kept.pace)) options.pace = kept.pace;
  return options;
}

function saveOptions(options) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(options));
  } catch {
    // Storage full or refused (a private window): the options hold for this page only.
  }
}

/**
 * Bind the options' controls in the page's markup (the switches and #option-pace) to the
 * kept options. Returns a getter of the current options; `onChange(options)` is called after
 * each change, once it is kept.
 */
export function mountOptions(onChange = () => {}) {
  const options = loadOptions();
  for (const [name, id] of Object.entries(SWITCHES)) {
    const box = document.getElementById(id);
    box.checked = options[name];
    box.addEventListener("change", () => {
      options[name] = box.checked;
      saveOptions(options);
      onChange({ ...options });
    });
  }
  const pace = document.getElementById("option-pace");
  pace.value = options.pace;
  pace.addEventListener("change", () => {
    if (!PACES.includes(pace.value)) return;
    options.pace = pace.value;
    saveOptions(options);
    onChange({ ...options });
  });
  return () => ({ ...options });
}
