// One game's WebSocket: it reconnects with back-off when it drops, asks for a resync when it
// sees a gap in the versions, and hands every message on in version order. The server is
// authoritative: this only transports snapshots, updates, errors and hints. When the server
// says it is sent too much (`rate_limited`, or close 4429 for too many connections), it waits
// as long as the server asks before it sends or connects again on its own.

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 8000;
const ORIGIN_REFUSED = 4401;
const REFUSED = 4403;
const UNKNOWN_GAME = 4404;
const TOO_MANY = 4429;
/** The closes after which retrying cannot help: the page's state for each. */
const FINAL_CLOSES = { [ORIGIN_REFUSED]: "origin", [REFUSED]: "refused", [UNKNOWN_GAME]: "unknown" };
/** The pause after close 4429 when the server named none (seconds). */
const TOO_MANY_PAUSE_S = 10;

export class GameConnection {
  /**
   * @param {string} gameId
   * @param {string[]} tokens the seats' tokens this page holds (none: a spectator)
   * @param {object} handlers onGame(view, events), onError(message), onHint(message),
   *   onStatus("connecting" | "open" | "closed" | "limited" | "refused" | "unknown" |
   *   "origin"), onPause(ms) when it waits for the server's limit (then onPause(0))
   * @param {string | null} watch a private game's watch token
   */
  constructor(gameId, tokens, handlers, watch = null) {
    this.gameId = gameId;
    this.tokens = tokens;
    this.watch = watch;
    this.handlers = handlers;
    this.version = null;
    this.delay = FIRST_DELAY_MS;
    this.socket = null;
    this.stopped = false;
    this.retryTimer = null;
    this.quietUntil = 0;
    this.quietTimer = null;
    this.resyncWanted = false;
    this.limitedFor = 0;
  }

  url() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    const query = new URLSearchParams();
    for (const token of this.tokens) query.append("token", token);
    if (this.watch) query.set("watch", this.watch);
    const text = query.toString();
    const path = `/ws/games/${encodeURIComponent(this.gameId)}`;
    return `${scheme}//${window.location.host}${path}${text ? `?${text}` : ""}`;
  }

  /** Whether the server asked this page to wait before it sends anything more. */
  paused() {
    return Date.now() < this.quietUntil;
  }

  /** Send nothing for `seconds` (the server's `retry_after`), then what was put off. */
  pause(seconds) {
    const ms = Math.max(0, Number(seconds) || 0) * 1000;
    this.quietUntil = Math.max(this.quietUntil, Date.now() + ms);
    clearTimeout(this.quietTimer);
    this.handlers.onPause?.(this.quietUntil - Date.now());
    this.quietTimer = setTimeout(() => {
      this.quietTimer = null;
      this.handlers.onPause?.(0);
      if (this.resyncWanted) this.resync();
    }, this.quietUntil - Date.now());
  }

  /** Ask for a snapshot now, or once the server's pause is over. */
  resync() {
    if (this.paused()) {
      this.resyncWanted = true;
      return;
    }
    this.resyncWanted = false;
    this.send({ type: "resync" });
  }

  open() {
    this.stopped = false;
    this.handlers.onStatus("connecting");
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => this.handlers.onStatus("open"));
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      // 4403: a token holds no seat of this game; 4404: no such game; 4401: this page's
      // origin may not open the game. Retrying cannot help.
      if (event.code in FINAL_CLOSES) {
        this.stopped = true;
        this.handlers.onStatus(FINAL_CLOSES[event.code]);
        return;
      }
      if (event.code === TOO_MANY) {
        // Too many connections from this address: come back after the server's pause.
        const seconds = this.limitedFor || TOO_MANY_PAUSE_S;
        this.limitedFor = 0;
        this.handlers.onStatus("limited");
        if (!this.stopped) this.scheduleReconnect(seconds * 1000);
        return;
      }
      this.handlers.onStatus("closed");
      if (!this.stopped) this.scheduleReconnect();
    });
  }

  /** Reconnect after the back-off, or after at least `atLeastMs` (a server's pause). */
  scheduleReconnect(atLeastMs = 0) {
    // Back off, with a little jitter so that many pages do not return all at once.
    const wait = atLeastMs
      ? atLeastMs * (1 + Math.random() / 4)
      : this.delay * (0.75 + Math.random() / 2);
    this.delay = Math.min(this.delay * 2, MAX_DELAY_MS);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.open();
    }, wait);
  }

  /** Try again at once (the network is back, or the page is looked at again), unless the
   * server asked for a pause. */
  retryNow() {
    if (this.stopped || this.socket || this.paused()) return;
    clearTimeout(this.retryTimer);
    this.open();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.quietTimer);
    if (this.socket) this.socket.close();
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      this.resync();
      return;
    }
    if (message.type === "snapshot") {
      // Only a server that answers with the game counts as back: one that accepts the
      // socket and drops it again keeps the back-off growing.
      this.delay = FIRST_DELAY_MS;
      this.limitedFor = 0;
      this.version = message.version;
      this.handlers.onGame(message.game, []);
    } else if (message.type === "update") {
      if (this.version !== null && message.version !== this.version + 1) {
        // A gap (or a repeat): what we hold may be out of date, so ask for the whole state.
        if (message.version > this.version) this.resync();
        return;
      }
      this.version = message.version;
      this.handlers.onGame(message.game, message.events || []);
    } else if (message.type === "error") {
      if (message.code === "rate_limited") {
        // Too much sent: nothing more until the server's pause is over (the close that
        // follows when there are too many connections waits as long before reconnecting).
        this.limitedFor = Number(message.retry_after) || 0;
        this.pause(message.retry_after);
      }
      if (message.code === "stale") this.resync();
      this.handlers.onError(message);
    } else if (message.type === "hint") {
      this.handlers.onHint(message);
    }
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** A person's command: not sent (false) while the server's pause lasts. */
  command(message) {
    return !this.paused() && this.send(message);
  }

  throwFor(seat) {
    return this.command({ type: "throw", seat, version: this.version });
  }

  act(seat, action) {
    return this.command({ type: "act", seat, version: this.version, action });
  }

  askHint(seat) {
    return this.command({ type: "hint", seat });
  }
}
