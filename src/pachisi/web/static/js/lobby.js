// The lobby: create a game (any ruleset, 2 people or 4 seats, each seat a person, a computer
// player or open for a friend; public or private), show the links it makes, let its creator
// renew or revoke the open seats' invitations, and list the public games to watch or replay.
// An open seat is taken only with its invitation link, so the lists offer no "join".

import { createGame, getMeta, listGames, renewInvite, revokeInvite, rulesPath } from "./api.js";
import { seatName } from "./board.js";
import { mountLanguageSwitch, setUpLanguage, t, tOr } from "./i18n.js";
import { storeOwner, storeToken, storeWatch } from "./tokens.js";

const $ = (id) => document.getElementById(id);
const LIST_REFRESH_MS = 15000;
let meta = null;
// The seats' choices, kept across redraws (a language switch, 2 <-> 4 players).
const choices = [
  { kind: "human", player: null },
  { kind: "computer", player: null },
  { kind: "computer", player: null },
  { kind: "computer", player: null },
];

function playersChosen() {
  return Number(document.querySelector("input[name=players]:checked").value);
}

function option(value, text) {
  const node = document.createElement("option");
  node.value = value;
  node.textContent = text;
  return node;
}

function drawRulesets() {
  const select = $("ruleset");
  const chosen = select.value || "classic";
  select.replaceChildren(...meta.rulesets.map((r) => option(r.name, r.name)));
  select.value = chosen;
  const describe = () => {
    const ruleset = meta.rulesets.find((r) => r.name === select.value);
    $("ruleset-description").textContent = ruleset ? tOr(`ruleset.${ruleset.name}`, ruleset.description) : "";
    linkRules();
  };
  select.onchange = describe;
  describe();
}

/** The ruleset string the form asks for: the named ruleset and the switches typed after it. */
function chosenRuleset() {
  const switches = $("switches").value.trim();
  return $("ruleset").value + (switches && !switches.startsWith("+") ? `+${switches}` : switches);
}

/** The header's "How to play" link opens the rules chosen in the form. */
function linkRules() {
  $("rules-link").href = rulesPath(chosenRuleset());
}

function playerLabel(name) {
  return tOr(`player.${name}`, name);
}

/** The computer player a seat gets unless one is chosen: one the server offers. */
function defaultPlayer() {
  return meta.players.includes(meta.default_player) ? meta.default_player : meta.players[0];
}

/** The computer player chosen for `seat`, if the server offers it, else the default. */
function chosenPlayer(seat) {
  const chosen = choices[seat].player;
  return meta.players.includes(chosen) ? chosen : defaultPlayer();
}

/** Whether the seats chosen make a game this server offers; says why not if not. */
function checkSeats() {
  const note = $("seats-note");
  const computersOnly = seatSpecs().every((spec) => spec.kind === "computer");
  const refused = computersOnly && !meta.computer_games;
  note.textContent = refused ? t("lobby.computers_only") : "";
  note.hidden = !refused;
  return !refused;
}

function drawSeatSpecs() {
  const list = $("seat-specs");
  list.replaceChildren();
  const sides = playersChosen() === 2 ? [[0, 2], [1, 3]] : [[0], [1], [2], [3]];
  for (const side of sides) {
    const seat = side[0];
    const item = document.createElement("li");
    item.className = "seat-spec";
    const label = document.createElement("span");
    label.className = "seat-label";
    label.textContent = side.map(seatName).join(" + ");
    const kind = document.createElement("select");
    kind.setAttribute("aria-label", t("lobby.seat_kind", { seat: label.textContent }));
    kind.dataset.testid = `kind-${seat}`;
    for (const k of ["human", "computer", "open"]) kind.append(option(k, t(`seat.kind_${k}`)));
    // No computer seat where the server offers no computer player.
    if (!meta.players.length && choices[seat].kind === "computer") choices[seat].kind = "open";
    kind.querySelector("option[value=computer]").disabled = !meta.players.length;
    kind.value = choices[seat].kind;
    const player = document.createElement("select");
    player.setAttribute("aria-label", t("lobby.seat_player", { seat: label.textContent }));
    player.dataset.testid = `player-${seat}`;
    for (const name of meta.players) player.append(option(name, playerLabel(name)));
    player.value = chosenPlayer(seat);
    player.hidden = kind.value !== "computer";
    kind.addEventListener("change", () => {
      choices[seat].kind = kind.value;
      player.hidden = kind.value !== "computer";
      checkSeats();
    });
    player.addEventListener("change", () => {
      choices[seat].player = player.value;
    });
    item.append(label, kind, player);
    list.append(item);
  }
  checkSeats();
}

function seatSpecs() {
  const seats = playersChosen() === 2 ? [0, 1] : [0, 1, 2, 3];
  return seats.map((seat) => {
    const spec = { kind: choices[seat].kind };
    if (spec.kind === "computer") spec.player = chosenPlayer(seat);
    return spec;
  });
}

function absolute(url) {
  return new URL(url, window.location.origin).href;
}

function button(text, onClick) {
  const made = document.createElement("button");
  made.type = "button";
  made.textContent = text;
  made.addEventListener("click", onClick);
  return made;
}

/** A link with its copy button, as {item, setUrl}: setUrl(null) takes the link away. */
function linkItem(label, url, testid) {
  const item = document.createElement("li");
  const text = document.createElement("span");
  text.textContent = label;
  const link = document.createElement("a");
  link.className = "link";
  if (testid) link.dataset.testid = testid;
  let current = url;
  const copy = button(t("lobby.copy"), async () => {
    try {
      await navigator.clipboard.writeText(absolute(current));
      copy.textContent = t("lobby.copied");
    } catch {
      window.prompt(label, absolute(current));
    }
  });
  copy.setAttribute("aria-label", t("lobby.copy_named", { name: label }));
  const setUrl = (next) => {
    current = next;
    link.hidden = !next;
    copy.disabled = !next;
    copy.textContent = t("lobby.copy");
    if (next) {
      link.href = next;
      link.textContent = absolute(next);
    } else {
      link.removeAttribute("href");
      link.textContent = "";
    }
  };
  setUrl(url);
  item.append(text, " ", link, " ", copy);
  return { item, setUrl };
}

function seatsOf(entry) {
  return (entry.seats && entry.seats.length ? entry.seats : [entry.seat]).map(seatName).join(" + ");
}

/** An open seat's invitation, with the creator's buttons to renew or revoke it. */
function inviteItem(game, invite) {
  const seats = seatsOf(invite);
  const label = t("lobby.invite", { seats });
  const { item, setUrl } = linkItem(label, invite.url, `invite-link-${invite.seat}`);
  const status = document.createElement("span");
  status.className = "invite-status";
  status.dataset.testid = `invite-status-${invite.seat}`;
  status.setAttribute("role", "status");
  const change = async (renew, clicked) => {
    clicked.disabled = true;
    try {
      const call = renew ? renewInvite : revokeInvite;
      const answer = await call(game.id, invite.seat, game.owner_token);
      setUrl(answer.url);
      status.textContent = t(renew ? "lobby.invite_renewed" : "lobby.invite_revoked", { seats });
    } catch (failure) {
      const reason = failure.status === 409 ? "lobby.invite_taken" : "lobby.invite_failed";
      status.textContent = t(reason, { seats, message: failure.message });
    }
    clicked.disabled = false;
  };
  const renew = button(t("lobby.invite_renew"), () => change(true, renew));
  renew.dataset.testid = `renew-${invite.seat}`;
  renew.setAttribute("aria-label", t("lobby.invite_renew_named", { seats }));
  const revoke = button(t("lobby.invite_revoke"), () => change(false, revoke));
  revoke.dataset.testid = `revoke-${invite.seat}`;
  revoke.setAttribute("aria-label", t("lobby.invite_revoke_named", { seats }));
  item.append(" ", renew, " ", revoke, " ", status);
  return item;
}

function showCreated(game) {
  // This browser is the creator's: it keeps the tokens, so that the game page holds the
  // seats, can show a private game, and lets the creator renew or revoke invitations.
  storeOwner(game.id, game.owner_token);
  storeWatch(game.id, game.watch_token);
  const list = $("created-links");
  list.replaceChildren();
  for (const link of game.links) {
    const label = t("lobby.your_seat", { seats: seatsOf(link) });
    list.append(linkItem(label, link.url, `seat-link-${link.seat}`).item);
    storeToken(game.id, link.seat, link.token ?? new URL(link.url, window.location.origin).searchParams.get("token"));
  }
  for (const invite of game.invites) list.append(inviteItem(game, invite));
  const watch = game.visibility === "private" ? "lobby.watch_private" : "lobby.watch";
  list.append(linkItem(t(watch), game.watch_url, "watch-link").item);
  $("created-note").textContent = game.invites.length ? t("lobby.invite_help") : "";
  $("created-note").hidden = !game.invites.length;
  const play = $("play-now");
  play.href = game.hotseat_url ?? (game.links[0] ? game.links[0].url : game.watch_url);
  play.textContent = game.links.length ? t("lobby.play_now") : t("lobby.watch_now");
  $("created").hidden = false;
  play.focus();
}

async function onCreate(event) {
  event.preventDefault();
  const error = $("create-error");
  error.hidden = true;
  if (!checkSeats()) {
    $("seats-note").scrollIntoView({ block: "nearest" });
    return;
  }
  const ruleset = chosenRuleset();
  try {
    const visibility = $("private").checked ? "private" : "public";
    const game = await createGame({ ruleset, players: playersChosen(), seats: seatSpecs(), visibility });
    showCreated(game);
    refreshLists();
  } catch (failure) {
    error.textContent = t("lobby.create_failed", { message: failure.message });
    error.hidden = false;
  }
}

function gameSummary(game) {
  const created = new Date(game.created);
  const when = Number.isNaN(created.getTime()) ? "" : created.toLocaleString(document.documentElement.lang);
  return t("lobby.game_summary", { ruleset: game.ruleset, players: game.players, when });
}

function drawList(list, games, makeButtons) {
  list.replaceChildren();
  if (!games.length) {
    const empty = document.createElement("li");
    empty.className = "none";
    empty.textContent = t("lobby.no_games");
    list.append(empty);
    return;
  }
  for (const game of games) {
    const item = document.createElement("li");
    const text = document.createElement("span");
    text.textContent = gameSummary(game);
    item.append(text, ...makeButtons(game));
    list.append(item);
  }
}

function openSeats(seats) {
  const note = document.createElement("span");
  note.className = "open-seats";
  note.textContent = t("lobby.open_seats", { seats: seats.map(seatName).join(", ") });
  return note;
}

function linkButton(text, href) {
  const link = document.createElement("a");
  link.className = "button";
  link.href = href;
  link.textContent = text;
  return link;
}

async function refreshLists() {
  try {
    const [open, active, finished] = await Promise.all(
      ["open", "active", "finished"].map((status) => listGames(status)),
    );
    // Only an invitation takes an open seat: the list says which are open, to watch.
    drawList($("open-games"), open, (game) => [
      ...(game.open_seats?.length ? [openSeats(game.open_seats)] : []),
      linkButton(t("lobby.watch_game"), `/game/${encodeURIComponent(game.id)}`),
    ]);
    drawList($("active-games"), active, (game) => [
      linkButton(t("lobby.watch_game"), `/game/${encodeURIComponent(game.id)}`),
    ]);
    drawList($("finished-games"), finished.slice(0, 20), (game) => [
      linkButton(t("lobby.replay_game"), `/replay/${encodeURIComponent(game.id)}`),
    ]);
  } catch (failure) {
    $("open-games").textContent = t("lobby.list_failed", { message: failure.message });
  }
}

function redraw() {
  drawRulesets();
  drawSeatSpecs();
  refreshLists();
}

async function start() {
  await setUpLanguage();
  meta = await getMeta();
  mountLanguageSwitch($("language"), redraw);
  for (const radio of document.querySelectorAll("input[name=players]")) {
    radio.addEventListener("change", drawSeatSpecs);
  }
  $("create-form").addEventListener("submit", onCreate);
  $("switches").addEventListener("input", linkRules);
  $("refresh").addEventListener("click", refreshLists);
  redraw();
  // The lists go stale as games open and end; refresh them while the page is looked at.
  setInterval(() => {
    if (document.visibilityState === "visible") refreshLists();
  }, LIST_REFRESH_MS);
}

start();
