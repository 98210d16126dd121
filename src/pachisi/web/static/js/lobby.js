// The lobby: create a game (any ruleset, 2 people or 4 seats, each seat a person, a computer
// player or open for a friend), show the links it makes, and list the games to join, watch
// or replay.

import { claimSeat, createGame, getMeta, listGames } from "./api.js";
import { seatName } from "./board.js";
import { mountLanguageSwitch, setUpLanguage, t, tOr } from "./i18n.js";
import { storeToken } from "./tokens.js";

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
  };
  select.onchange = describe;
  describe();
}

function playerLabel(name) {
  return tOr(`player.${name}`, name);
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
    kind.value = choices[seat].kind;
    const player = document.createElement("select");
    player.setAttribute("aria-label", t("lobby.seat_player", { seat: label.textContent }));
    player.dataset.testid = `player-${seat}`;
    for (const name of meta.players) player.append(option(name, playerLabel(name)));
    player.value = choices[seat].player ?? meta.default_player;
    player.hidden = kind.value !== "computer";
    kind.addEventListener("change", () => {
      choices[seat].kind = kind.value;
      player.hidden = kind.value !== "computer";
    });
    player.addEventListener("change", () => {
      choices[seat].player = player.value;
    });
    item.append(label, kind, player);
    list.append(item);
  }
}

function seatSpecs() {
  const seats = playersChosen() === 2 ? [0, 1] : [0, 1, 2, 3];
  return seats.map((seat) => {
    const spec = { kind: choices[seat].kind };
    if (spec.kind === "computer") spec.player = choices[seat].player ?? meta.default_player;
    return spec;
  });
}

function absolute(url) {
  return new URL(url, window.location.origin).href;
}

function linkItem(label, url, testid) {
  const item = document.createElement("li");
  const text = document.createElement("span");
  text.textContent = label;
  const link = document.createElement("a");
  link.href = url;
  link.textContent = absolute(url);
  link.className = "link";
  if (testid) link.dataset.testid = testid;
  const copy = document.createElement("button");
  copy.type = "button";
  copy.textContent = t("lobby.copy");
  copy.setAttribute("aria-label", t("lobby.copy_named", { name: label }));
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(absolute(url));
      copy.textContent = t("lobby.copied");
    } catch {
      window.prompt(label, absolute(url));
    }
  });
  item.append(text, " ", link, " ", copy);
  return item;
}

function showCreated(game) {
  const list = $("created-links");
  list.replaceChildren();
  for (const link of game.links) {
    const seats = (link.seats && link.seats.length ? link.seats : [link.seat]).map(seatName).join(" + ");
    list.append(linkItem(t("lobby.your_seat", { seats }), link.url, `seat-link-${link.seat}`));
    // This browser is the creator's: keep the tokens, so the game page holds the seats.
    storeToken(game.id, link.seat, link.token ?? new URL(link.url, window.location.origin).searchParams.get("token"));
  }
  for (const invite of game.invites) {
    const seats = (invite.seats && invite.seats.length ? invite.seats : [invite.seat]).map(seatName).join(" + ");
    list.append(linkItem(t("lobby.invite", { seats }), invite.url, `invite-link-${invite.seat}`));
  }
  list.append(linkItem(t("lobby.watch"), game.watch_url, "watch-link"));
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
  const switches = $("switches").value.trim();
  const ruleset = $("ruleset").value + (switches && !switches.startsWith("+") ? `+${switches}` : switches);
  try {
    const game = await createGame({ ruleset, players: playersChosen(), seats: seatSpecs() });
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

async function join(game, seat, button) {
  button.disabled = true;
  try {
    const claim = await claimSeat(game.id, seat);
    storeToken(game.id, claim.seat ?? seat, claim.token);
    window.location.href = claim.url;
  } catch (failure) {
    button.disabled = false;
    button.textContent = t("lobby.join_failed", { message: failure.message });
    refreshLists();
  }
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
    drawList($("open-games"), open, (game) => [
      ...(game.open_seats ?? []).map((seat) => {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = t("lobby.join", { seat: seatName(seat) });
        button.addEventListener("click", () => join(game, seat, button));
        return button;
      }),
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
  $("refresh").addEventListener("click", refreshLists);
  redraw();
  // The lists go stale as games open and end; refresh them while the page is looked at.
  setInterval(() => {
    if (document.visibilityState === "visible") refreshLists();
  }, LIST_REFRESH_MS);
}

start();
