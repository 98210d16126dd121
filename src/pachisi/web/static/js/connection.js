// One game's WebSocket: it reconnects with back-off when it drops, asks for a resync when it
// sees a gap in the versions, and hands every message on in version order. The server is
// authoritative: this only transports snapshots, updates, errors and hints.

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 8000;
const REFUSED = 4403;
const UNKNOWN_GAME = 4404;

export class GameConnection {
  /**
   * @param {string} gameId
   * @param {string[]} tokens the seats' tokens this page holds (none: a spectator)
   * @param {object} handlers onGame(view, events), onError(message), onHint(message),
   *   onStatus("connecting" | "open" | "closed" | "refused" | "unknown")
   */
  constructor(gameId, tokens, handlers) {
    this.gameId = gameId;
    this.tokens = tokens;
    this.handlers = handlers;
    this.version = null;
    this.delay = FIRST_DELAY_MS;
    this.socket = null;
    this.stopped = false;
    this.retryTimer = null;
  }

  url() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    const query = this.tokens.map((t) => `token=${encodeURIComponent(t)}`).join("&");
    const path = `/ws/games/${encodeURIComponent(this.gameId)}`;
    return `${scheme}//${window.location.host}${path}${query ? `?${query}` : ""}`;
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
      // 4403: a token holds no seat of this game; 4404: no such game. Retrying cannot help.
      if (event.code === REFUSED || event.code === UNKNOWN_GAME) {
        this.stopped = true;
        this.handlers.onStatus(event.code === REFUSED ? "refused" : "unknown");
        return;
      }
      this.handlers.onStatus("closed");
      if (!this.stopped) this.scheduleReconnect();
    });
  }

  scheduleReconnect() {
    // Back off, with a little jitter so that many pages do not return all at once.
    const wait = this.delay * (0.75 + Math.random() / 2);
    this.delay = Math.min(this.delay * 2, MAX_DELAY_MS);
    this.retryTimer = setTimeout(() => this.open(), wait);
  }

  /** Try again at once (the network is back, or the page is looked at again). */
  retryNow() {
    if (this.stopped || this.socket) return;
    clearTimeout(this.retryTimer);
    this.open();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    if (this.socket) this.socket.close();
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      this.send({ type: "resync" });
      return;
    }
    if (message.type === "snapshot") {
      // Only a server that answers with the game counts as back: one that accepts the
      // socket and drops it again keeps the back-off growing.
      this.delay = FIRST_DELAY_MS;
      this.version = message.version;
      this.handlers.onGame(message.game, []);
    } else if (message.type === "update") {
      if (this.version !== null && message.version !== this.version + 1) {
        // A gap (or a repeat): what we hold may be out of date, so ask for the whole state.
        if (message.version > this.version) this.send({ type: "resync" });
        return;
      }
      this.version = message.version;
      this.handlers.onGame(message.game, message.events || []);
    } else if (message.type === "error") {
      if (message.code === "stale") this.send({ type: "resync" });
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

  throwFor(seat) {
    return this.send({ type: "throw", seat, version: this.version });
  }

  act(seat, action) {
    return this.send({ type: "act", seat, version: this.version, action });
  }

  askHint(seat) {
    return this.send({ type: "hint", seat });
  }
}
