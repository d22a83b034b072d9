// Arena's web view. Every string that comes from the API (player names, engine notes,
// principal variations, details) is put into the page with textContent, through el()
// below: never as markup. No innerHTML anywhere.
"use strict";

// el makes an element: attrs are set as attributes (only ones this file chooses), and
// children are nodes or strings, strings becoming text nodes.
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === undefined || c === null) continue;
    e.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  return e;
}

// fill replaces a node's children, leaving out null and undefined (which replaceChildren
// would show as the text "null").
function fill(node, ...children) { node.replaceChildren(...children.filter(c => c !== undefined && c !== null)); }

function main() { return document.getElementById("main"); }
function setMain(...children) { main().replaceChildren(...children); }
function param(name) { return new URLSearchParams(location.search).get(name); }

async function api(path) {
  const r = await fetch(path, { headers: { Accept: "application/json" } });
  let body;
  try { body = await r.json(); } catch (e) { body = { error: "bad response" }; }
  if (!r.ok) throw new Error(body.error || "HTTP " + r.status);
  return body;
}

function showError(err) {
  setMain(el("p", { class: "error" }, String(err && err.message ? err.message : err)));
}

// Links are built from our own page names and encoded values, so data cannot become a
// javascript: URL.
function playerLink(name) { return el("a", { href: "player.html?name=" + encodeURIComponent(name) }, name); }
function gameLink(id, text) { return el("a", { href: "game.html?id=" + encodeURIComponent(id) }, text); }
function liveLink(id, text) { return el("a", { href: "game.html?live=" + encodeURIComponent(id) }, text); }
function tournamentLink(id, text) { return el("a", { href: "tournament.html?id=" + encodeURIComponent(id) }, text); }
function ladderLink(id, text) { return el("a", { href: "ladder.html?id=" + encodeURIComponent(id) }, text); }
function entryLink(ladder, entry, text) {
  return el("a", { href: "entry.html?ladder=" + encodeURIComponent(ladder) + "&entry=" + encodeURIComponent(entry) }, text);
}
// A tournament's page: a ladder has its own.
function anyTournamentLink(t, text) { return t.format === "ladder" ? ladderLink(t.id, text) : tournamentLink(t.id, text); }

function table(headers, rows) {
  return el("table", { class: "data" },
    el("thead", null, el("tr", null, ...headers.map(h => el("th", null, h)))),
    el("tbody", null, ...rows));
}
function row(...cells) { return el("tr", null, ...cells.map(c => el("td", null, c))); }

function players(list) {
  const span = el("span");
  (list || []).forEach((p, i) => { if (i) span.append(" vs "); span.append(playerLink(p)); });
  return span;
}

function fmtNum(x, digits) { return x === undefined || x === null ? "" : Number(x).toFixed(digits); }
function fmtMS(ms) { return ms === undefined ? "" : ms >= 1000 ? (ms / 1000).toFixed(2) + "s" : ms.toFixed(1) + "ms"; }

// ---- Boards: one renderer per game kind, each drawing a position text. ----

function gameKind(name) {
  const base = String(name || "").split(":")[0];
  if (base === "othello") return "othello";
  if (base === "checkers" || base === "giveaway") return "checkers";
  if (base === "ipd") return "ipd";
  return "text";
}

// Othello: n*n squares rank by rank from rank 1, files a.. within a rank, 'X' black,
// 'O' white, '-' empty; a space; the side to move.
function othelloBoard(pos, last, small) {
  const [squares, side] = String(pos).split(" ");
  const n = Math.round(Math.sqrt(squares.length));
  if (n * n !== squares.length || n < 1) return textBoard(pos);
  const files = "abcdefghijklmnopqrstuvwxyz".slice(0, n).split("");
  const t = el("table", { class: "board othello" + (small ? " small" : "") });
  t.append(el("tr", null, el("th"), ...files.map(f => el("th", null, f))));
  for (let r = 0; r < n; r++) {
    const tr = el("tr", null, el("th", null, r + 1));
    for (let f = 0; f < n; f++) {
      const c = squares[r * n + f];
      const name = files[f] + (r + 1);
      const td = el("td", { class: "cell" + (name === last ? " last" : ""), "data-c": c, "data-sq": name });
      if (c === "X") td.append(el("span", { class: "disc black" }));
      if (c === "O") td.append(el("span", { class: "disc white" }));
      tr.append(td);
    }
    t.append(tr);
  }
  let black = 0, white = 0;
  for (const c of squares) { if (c === "X") black++; if (c === "O") white++; }
  return el("div", null, t, el("div", { class: "side" },
    "Black " + black + " - " + white + " White; " + (side === "O" ? "White" : "Black") + " to move"));
}

// Checkers: PDN FEN "B:W21,22,K23:B1,2" (side to move, then each colour's squares, K for
// kings). Squares 1-32 are the dark squares, 1-4 on the top row, Black's side.
function checkersBoard(pos, last, small) {
  const parts = String(pos).split(":");
  const pieces = {};
  for (const p of parts.slice(1)) {
    const colour = p[0];
    if (colour !== "W" && colour !== "B") continue;
    for (let sq of p.slice(1).split(",")) {
      if (!sq) continue;
      const king = sq[0] === "K";
      if (king) sq = sq.slice(1);
      pieces[Number(sq)] = { colour, king };
    }
  }
  const lastSquares = String(last || "").split(/[-x]/).map(Number);
  const t = el("table", { class: "board checkers" + (small ? " small" : "") });
  for (let r = 0; r < 8; r++) {
    const tr = el("tr");
    for (let c = 0; c < 8; c++) {
      if ((r + c) % 2 === 0) { tr.append(el("td", { class: "cell light" })); continue; }
      const sq = r * 4 + Math.floor(c / 2) + 1;
      const p = pieces[sq];
      const code = p ? (p.king ? p.colour : p.colour.toLowerCase()) : "-";
      const td = el("td", { class: "cell dark" + (lastSquares.includes(sq) ? " last" : ""), "data-c": code, "data-sq": sq });
      if (p) td.append(el("span", { class: "disc " + (p.colour === "B" ? "black" : "white") }, p.king ? "K" : ""));
      else if (!small) td.append(el("span", { class: "num" }, sq));
      tr.append(td);
    }
    t.append(tr);
  }
  return el("div", null, t, el("div", { class: "side" }, (parts[0] === "W" ? "White" : "Black") + " to move"));
}

// The prisoner's dilemma: "3/200 CC,CD,DD", rounds played of the most, then each round's
// actions by seat.
function ipdBoard(pos, last, small, names) {
  const [count, hist] = String(pos).split(" ");
  const rounds = !hist || hist === "-" ? [] : hist.split(",");
  const shown = small ? rounds.slice(-5) : rounds;
  const first = rounds.length - shown.length;
  const t = table(["Round", (names && names[0]) || "seat 0", (names && names[1]) || "seat 1"],
    shown.map((r, i) => el("tr", null, el("td", null, first + i + 1),
      el("td", { class: r[0] }, r[0]), el("td", { class: r[1] }, r[1]))));
  t.classList.add("ipd");
  return el("div", null, el("div", { class: "side" }, "Rounds " + count), t);
}

function textBoard(pos) { return el("pre", null, String(pos)); }

// ---- The board of any game, from its drawing ----

// A drawing comes from the server with a position when the game draws it (game.Drawing;
// docs/games.md, "The drawing"): a board of squares or intersections, pieces by seat with
// an optional label, markers and walls. A game file writes it, so it is data like any
// other: its label is text (textContent), every number is checked to be one, and the
// server has checked the whole drawing before.

// seatColours are the fill and the text colour of each seat's pieces: seat 0 dark, seat 1
// light, then colours.
const seatColours = [["#111", "#fff"], ["#f5f5f5", "#111"], ["#c62828", "#fff"], ["#1565c0", "#fff"],
  ["#2e7d32", "#fff"], ["#f9a825", "#111"], ["#6a1b9a", "#fff"], ["#00838f", "#fff"]];

// namedColours are the colours of seats named after one ("black", "red"): the pieces of a
// game whose seats all are take their seats' colours, so white's pieces are light even
// when white moves first.
const namedColours = { black: ["#111", "#fff"], white: ["#f5f5f5", "#111"], red: ["#c62828", "#fff"],
  yellow: ["#f9d71c", "#111"], blue: ["#1565c0", "#fff"], green: ["#2e7d32", "#fff"], orange: ["#ef6c00", "#111"],
  purple: ["#6a1b9a", "#fff"], brown: ["#6d4c41", "#fff"], grey: ["#9e9e9e", "#111"], gray: ["#9e9e9e", "#111"] };

// palette is the colours of each seat's pieces: by the seats' names when every one names
// a colour of its own, else by number.
function palette(seats) {
  const named = (seats || []).map(n => Object.hasOwn(namedColours, n) ? namedColours[n] : null);
  if (named.length >= 2 && named.every(c => c) && new Set(named).size === named.length) return named;
  return seatColours;
}

// starPoints are the star points of the usual Go and gomoku boards, by size.
const starPoints = { 9: [2, 4, 6], 13: [3, 6, 9], 15: [3, 7, 11], 19: [3, 9, 15] };

const isInt = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;

// placeKey names a place of a drawing, for comparing two drawings.
function placeKey(at) { return at[0] + "," + at[1]; }

// validDrawing says whether d is drawable: a known board and numbers in range.
function validDrawing(d) {
  if (!d || (d.board !== "squares" && d.board !== "intersections") || !isInt(d.width, 1, 64) || !isInt(d.height, 1, 64)) return false;
  const at = x => Array.isArray(x.at) && isInt(x.at[0], 0, d.width - 1) && isInt(x.at[1], 0, d.height - 1);
  return (d.pieces || []).every(p => at(p) && isInt(p.seat, 0, seatColours.length - 1)) &&
    (d.markers || []).every(at) &&
    (d.walls || []).every(w => Array.isArray(w.at) && isInt(w.at[0], 0, d.width - 2) && isInt(w.at[1], 0, d.height - 2));
}

// coordLetters letter a drawing's columns (Check allows coords on at most 26).
const coordLetters = "abcdefghijklmnopqrstuvwxyz";

// drawingBoard draws a drawing as SVG. last is the drawing of the position before, when
// known: what the move added (a piece where there was none, a wall) is outlined. seats,
// the game's seat names when known, may give the pieces their colours (palette). Each
// piece is a g.piece with data-x, data-y and data-seat; each wall a rect.wall with data-x,
// data-y and data-dir; each marker a .marker with data-x, data-y and data-kind (a label
// marker is a text.marker.label); the coordinates are text.coord.col with data-col over
// the columns and text.coord.row with data-row left of the rows; the svg has data-width
// and data-height (the tests read them). A small board leaves out the coordinates and the
// label markers.
function drawingBoard(d, last, small, seats) {
  if (!validDrawing(d)) return null;
  const colours = palette(seats);
  const W = d.width, H = d.height;
  const c = Math.max(small ? 6 : 12, Math.min(small ? 18 : 36, Math.floor((small ? 220 : 600) / Math.max(W, H))));
  const coords = !small && (d.coords === "top" || d.coords === "bottom") && W <= coordLetters.length;
  const margin = coords ? Math.round(Math.max(18, c * 0.6)) : 0; // what the coordinates take, over and left of the board
  const s = svg("svg", { class: "drawing " + d.board + (small ? " small" : ""), width: W * c + margin, height: H * c + margin,
    viewBox: -margin + " " + -margin + " " + (W * c + margin) + " " + (H * c + margin), role: "img", "data-width": W, "data-height": H });
  const cx = x => (x + 0.5) * c;
  if (coords) {
    const size = Math.round(Math.min(14, Math.max(10, c * 0.38)));
    for (let x = 0; x < W; x++) {
      const t = svg("text", { class: "coord col", "data-col": x, x: cx(x), y: -margin / 2, "font-size": size, "text-anchor": "middle", "dominant-baseline": "central" });
      t.textContent = coordLetters[x];
      s.append(t);
    }
    for (let y = 0; y < H; y++) {
      const t = svg("text", { class: "coord row", "data-row": y, x: -margin / 2, y: cx(y), "font-size": size, "text-anchor": "middle", "dominant-baseline": "central" });
      t.textContent = String(d.coords === "top" ? y + 1 : H - y);
      s.append(t);
    }
  }
  if (d.board === "squares") {
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        s.append(svg("rect", { class: (x + y) % 2 ? "cell dark" : "cell light", x: x * c, y: y * c, width: c, height: c }));
      }
    }
  } else {
    s.append(svg("rect", { class: "wood", x: 0, y: 0, width: W * c, height: H * c }));
    for (let x = 0; x < W; x++) s.append(svg("line", { class: "grid", x1: cx(x), y1: cx(0), x2: cx(x), y2: cx(H - 1) }));
    for (let y = 0; y < H; y++) s.append(svg("line", { class: "grid", x1: cx(0), y1: cx(y), x2: cx(W - 1), y2: cx(y) }));
    const stars = W === H ? starPoints[W] : null;
    for (const x of stars || []) {
      for (const y of stars) s.append(svg("circle", { class: "star", cx: cx(x), cy: cx(y), r: Math.max(1.5, c * 0.08) }));
    }
  }
  const before = new Set(last && validDrawing(last) && last.width === W && last.height === H ? (last.pieces || []).map(p => placeKey(p.at)) : []);
  const wallsBefore = new Set(last && validDrawing(last) ? (last.walls || []).map(w => placeKey(w.at) + w.dir) : []);
  const seatAt = new Map();
  for (const p of d.pieces || []) {
    const [fill, ink] = colours[p.seat] || seatColours[p.seat];
    const isNew = last && !before.has(placeKey(p.at));
    const g = svg("g", { class: "piece" + (isNew ? " new" : ""), "data-x": p.at[0], "data-y": p.at[1], "data-seat": p.seat });
    g.append(svg("circle", { cx: cx(p.at[0]), cy: cx(p.at[1]), r: c * (d.board === "squares" ? 0.4 : 0.46) - (isNew ? 1 : 0), fill,
      stroke: isNew ? "#f4a000" : "#555", "stroke-width": isNew ? 3 : 1 }));
    if (typeof p.label === "string" && p.label !== "") {
      const size = c * [0.45, 0.45, 0.36, 0.28][Math.min(3, [...p.label].length)];
      const t = svg("text", { x: cx(p.at[0]), y: cx(p.at[1]), fill: ink, "font-size": Math.round(size), "text-anchor": "middle", "dominant-baseline": "central" });
      t.textContent = p.label;
      g.append(t);
    }
    seatAt.set(placeKey(p.at), p.seat);
    s.append(g);
  }
  const t = Math.max(3, c * 0.16);
  for (const w of d.walls || []) {
    if (w.dir !== "h" && w.dir !== "v") continue;
    const [x, y] = w.at, isNew = last && !wallsBefore.has(placeKey(w.at) + w.dir);
    const a = w.dir === "h" ? { x: x * c + 1, y: (y + 1) * c - t / 2, width: 2 * c - 2, height: t }
      : { x: (x + 1) * c - t / 2, y: y * c + 1, width: t, height: 2 * c - 2 };
    s.append(svg("rect", { class: "wall" + (isNew ? " new" : ""), "data-x": x, "data-y": y, "data-dir": w.dir, ...a }));
  }
  for (const m of d.markers || []) {
    const [x, y] = m.at, k = placeKey(m.at);
    const ink = seatAt.has(k) ? (colours[seatAt.get(k)] || seatColours[seatAt.get(k)])[1] : "#333";
    const at = { "data-x": x, "data-y": y, "data-kind": m.kind }, r = c * 0.25;
    if (m.kind === "last") {
      s.append(svg("rect", { class: "marker last", x: x * c + 1.5, y: y * c + 1.5, width: c - 3, height: c - 3, ...at }));
    } else if (m.kind === "dot") {
      s.append(svg("circle", { class: "marker dot", cx: cx(x), cy: cx(y), r: c * 0.12, fill: ink, ...at }));
    } else if (m.kind === "cross") {
      s.append(svg("path", { class: "marker cross", d: "M" + (cx(x) - r) + " " + (cx(y) - r) + "L" + (cx(x) + r) + " " + (cx(y) + r) +
        "M" + (cx(x) + r) + " " + (cx(y) - r) + "L" + (cx(x) - r) + " " + (cx(y) + r), stroke: ink, ...at }));
    } else if (m.kind === "label" && !small && typeof m.label === "string" && m.label !== "") {
      const size = c * [0.3, 0.3, 0.3, 0.24][Math.min(3, [...m.label].length)];
      const t = svg("text", { class: "marker label", x: cx(x), y: cx(y), fill: ink, "font-size": Math.round(size), "text-anchor": "middle", "dominant-baseline": "central", ...at });
      t.textContent = m.label;
      s.append(t);
    }
  }
  return s;
}

// seatName names seat i for the line under a board: by the game's seat names when known
// ("Black"), else by the player's name, else by number.
function seatName(i, names, seats) {
  const s = seats && seats[i];
  if (typeof s === "string" && s !== "") return s[0].toUpperCase() + s.slice(1);
  return (names && names[i]) || "seat " + i;
}

// pieceCounts says how many pieces each seat has, when a count says something (more than
// one piece of a seat: Quoridor's two pawns need no count): "Black 2 - 2 White" for two
// seats, "Red 3 - Blue 4 - Green 5" for more.
function pieceCounts(d, names, seats) {
  const n = [];
  for (const p of d.pieces || []) n[p.seat] = (n[p.seat] || 0) + 1;
  if (!n.some(k => k > 1)) return "";
  const count = Math.max(n.length, (seats || []).length);
  const name = i => seatName(i, names, seats);
  if (count === 2) return name(0) + " " + (n[0] || 0) + " - " + (n[1] || 0) + " " + name(1);
  return Array.from({ length: count }, (_, i) => name(i) + " " + (n[i] || 0)).join(" - ");
}

// toMoveText says whose move it is, from the drawing's to_move (the rules' word): a seat,
// all seats at once (-2), or nothing when the game is over (-1).
function toMoveText(d, names, seats) {
  if (!Number.isInteger(d.to_move)) return "";
  if (d.to_move >= 0) return seatName(d.to_move, names, seats) + " to move";
  if (d.to_move === -2) return ((seats || []).length === 2 ? "Both" : "All") + " to move";
  return "";
}

// sideLine is the line under a board: the piece counts and whose move it is, "Black 2 - 2
// White; Black to move", with data-to-move (the tests read it); null when it says nothing.
function sideLine(d, names, seats) {
  const text = [pieceCounts(d, names, seats), toMoveText(d, names, seats)].filter(t => t).join("; ");
  return text ? el("div", { class: "side", "data-to-move": Number.isInteger(d.to_move) ? d.to_move : null }, text) : null;
}

// drawBoard draws a position: from its drawing when it has one, else with the game's own
// renderer below, else as text. lastDrawing is the drawing of the position before; seats
// the game's seat names, when known.
function drawBoard(gameName, pos, last, small, names, drawing, lastDrawing, seats) {
  if (drawing) {
    const b = drawingBoard(drawing, lastDrawing, small, seats);
    if (b) return el("div", { class: "drawn" }, b, small ? null : sideLine(drawing, names, seats));
  }
  if (pos === undefined || pos === null || pos === "") return el("p", { class: "muted" }, "No position.");
  switch (gameKind(gameName)) {
    case "othello": return othelloBoard(pos, last, small);
    case "checkers": return checkersBoard(pos, last, small);
    case "ipd": return ipdBoard(pos, last, small, names);
  }
  return textBoard(pos);
}

// ---- Live events ----

// follow opens the live stream and calls handlers by event name. The browser reconnects
// by itself; every connection starts with a snapshot, so a resync needs nothing more.
function follow(query, handlers) {
  if (!window.EventSource) return null;
  const es = new EventSource("api/live" + query);
  for (const name of ["snapshot", "start", "move", "end"]) {
    es.addEventListener(name, e => {
      let data;
      try { data = JSON.parse(e.data); } catch (err) { return; }
      if (handlers[name]) handlers[name](data);
    });
  }
  es.addEventListener("resync", () => { /* the stream ends; EventSource reconnects and sends a snapshot */ });
  return es;
}

// ---- Pages ----

// eta estimates the time a running tournament still needs from its average time per game
// so far (since it was created), or returns "" when there is nothing to go by.
function eta(t) {
  if (t.status !== "running" || !(t.played > 0) || !(t.total > t.played) || !t.created) return "";
  const elapsed = Date.now() - Date.parse(t.created);
  if (!(elapsed > 0)) return "";
  const left = elapsed / t.played * (t.total - t.played) / 1000;
  if (left < 90) return "about " + Math.round(left) + "s left";
  if (left < 5400) return "about " + Math.round(left / 60) + " min left";
  return "about " + (left / 3600).toFixed(1) + " h left";
}

// sprtSection draws a match's sequential test: the log-likelihood ratio after each game,
// between the bounds at which the test accepts H0 (below) or H1 (above).
function sprtSection(d) {
  const last = d.points.length ? d.points[d.points.length - 1] : { games: 0, wins: 0, draws: 0, losses: 0, llr: 0 };
  const verdict = d.decision === "H1" ? "H1 accepted: " + d.players[0] + " is stronger by at least about " + d.test.elo1 + " Elo"
    : d.decision === "H0" ? "H0 accepted: " + d.players[0] + " is not stronger by " + d.test.elo1 + " Elo"
    : "no decision yet";
  const W = 600, H = 200, pad = 28;
  const lo = Math.min(d.lower, ...d.points.map(p => p.llr)), hi = Math.max(d.upper, ...d.points.map(p => p.llr));
  const n = Math.max(1, last.games);
  const x = g => pad + (W - 2 * pad) * g / n;
  const y = v => H - pad / 2 - (H - pad) * (v - lo) / Math.max(1e-9, hi - lo);
  const s = svg("svg", { class: "graph", id: "sprt-graph", width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img" });
  for (const [v, name] of [[d.upper, "H1 " + d.upper.toFixed(2)], [0, "0"], [d.lower, "H0 " + d.lower.toFixed(2)]]) {
    s.append(svg("line", { class: v === 0 ? "axis" : "bound", x1: pad, y1: y(v), x2: W - pad, y2: y(v) }));
    const t = svg("text", { x: 2, y: y(v) - 2 }); t.textContent = name; s.append(t);
  }
  const pts = [[0, 0], ...d.points.map(p => [p.games, p.llr])];
  s.append(svg("polyline", { class: "line", points: pts.map(p => x(p[0]).toFixed(1) + "," + y(p[1]).toFixed(1)).join(" ") }));
  return el("section", { id: "sprt" }, el("h2", null, "SPRT"),
    el("p", null, "elo0 " + d.test.elo0 + ", elo1 " + d.test.elo1 + ", alpha " + d.test.alpha + ", beta " + d.test.beta +
      ", model " + (d.test.model || "logistic") + ". After " + last.games + " games (+" + last.wins + " =" + last.draws +
      " -" + last.losses + " for " + d.players[0] + "): LLR " + last.llr.toFixed(2) + " in [" + d.lower.toFixed(2) + ", " +
      d.upper.toFixed(2) + "], " + verdict + "."),
    s);
}

async function tournamentsPage() {
  document.title = "Tournaments - Arena";
  const ts = await api("api/tournaments");
  setMain(el("h1", null, "Tournaments"),
    ts.length === 0 ? el("p", { class: "muted" }, "No tournaments yet.") :
      table(["#", "Game", "Format", "Time control", "Status", "Games", "ETA", "Players", "Created"],
        ts.map(t => row(anyTournamentLink(t, "#" + t.id), t.game, t.format, t.time_control, t.status,
          t.format === "ladder" ? String(t.played) : t.played + " / " + t.total,
          t.format === "ladder" ? (t.deadline && t.status === "running" ? "deadline " + untilText(t.deadline) : "") : eta(t),
          String(t.players.length), t.created))));
}

// crosstableView shows each player's score against each other, row player first.
function crosstableView(ct) {
  if (!ct || ct.players.length < 2) return el("p", { class: "muted" }, "No crosstable.");
  return table(["", ...ct.players.map((p, i) => String(i + 1))],
    ct.players.map((p, i) => row(el("span", null, String(i + 1) + ". ", playerLink(p)),
      ...ct.cells[i].map((c, j) => i === j ? "\u2014" : c ? fmtNum(c.score, 1) + "/" + c.games : ""))));
}

// terminationsView counts each player's games by how they ended: faults only against the
// player at fault, and the games it won by an opponent's fault apart.
function terminationsView(rows) {
  const reasons = [...new Set(rows.flatMap(r => Object.keys(r.terminations || {})))].sort();
  const won = [...new Set(rows.flatMap(r => Object.keys(r.won_by_fault || {})))].sort();
  if (reasons.length === 0) return el("p", { class: "muted" }, "No games yet.");
  return table(["Player", ...reasons, ...won.map(w => "won by " + w)],
    rows.map(r => row(playerLink(r.player), ...reasons.map(k => String((r.terminations || {})[k] || 0)),
      ...won.map(k => String((r.won_by_fault || {})[k] || 0)))));
}

async function tournamentPage() {
  const id = param("id");
  const standingsBox = el("div", { id: "standings" }), gamesBox = el("div", { id: "games" }), head = el("div");
  const crossBox = el("div", { id: "crosstable" }), endsBox = el("div", { id: "terminations" });
  const liveBox = el("div", { class: "boards", id: "live" }, el("p", { class: "muted" }, "No games in progress."));
  async function refresh() {
    const d = await api("api/tournaments/" + encodeURIComponent(id || "") + (param("games") === "all" ? "?games=all" : ""));
    const t = d.tournament;
    document.title = "Tournament " + t.id + " - Arena";
    fill(head, el("h1", null, "Tournament #" + t.id + ": " + t.game),
      el("p", null, t.format + ", " + t.time_control + ", " + t.status + ", " + t.played + " of " + t.total + " games played" +
        (eta(t) ? ", " + eta(t) : "")),
      t.format === "ladder" ? el("p", null, "A ladder: see ", ladderLink(t.id, "its leaderboard"), ".") : null);
    standingsBox.replaceChildren(d.standings ? table(["Rank", "Player", "Games", "W", "D", "L", "Score", "%", "Elo", "Rating"],
      d.standings.map(r => row(String(r.rank), playerLink(r.player), String(r.games), String(r.wins), String(r.draws),
        String(r.losses), fmtNum(r.score, 1), fmtNum(r.score_pct, 1), fmtNum(r.elo, 0),
        r.rating ? fmtNum(r.rating, 0) + " \u00b1 " + fmtNum(r.rating_error, 0) : "")))
      : el("p", { class: "muted" }, d.standings_error || "Standings are not available."));
    crossBox.replaceChildren(crosstableView(d.crosstable));
    endsBox.replaceChildren(d.standings ? terminationsView(d.standings) : el("p", { class: "muted" }, "Not available."));
    fill(gamesBox, d.games.length === 0 ? el("p", { class: "muted" }, "No games recorded yet.") :
      table(["#", "Round", "Players", "Result", "Reason", "Plies", ""],
        d.games.map(g => row(String(g.index), String(g.round), players(g.players), g.result, g.reason, String(g.plies),
          gameLink(g.id, "view")))),
      d.games_total > d.games.length ? el("p", { class: "muted" }, "The last " + d.games.length + " of " + d.games_total +
        " games; ", el("a", { href: "tournament.html?id=" + encodeURIComponent(t.id) + "&games=all" }, "show all"), ".") : null);
    return t;
  }
  const t = await refresh();
  const sprtBox = el("div", { id: "sprt-box" });
  setMain(head, sprtBox, el("h2", null, "Standings"), standingsBox,
    el("h2", null, "Crosstable"), crossBox, el("h2", null, "How the games ended"), endsBox,
    el("h2", null, "Games in progress"), liveBox,
    el("h2", null, "Games"), gamesBox);
  const drawSPRT = () => api("api/tournaments/" + encodeURIComponent(t.id) + "/sprt")
    .then(d => sprtBox.replaceChildren(sprtSection(d))).catch(() => {}); // not a match with an SPRT
  drawSPRT();
  const live = new Map();
  const draw = () => {
    const boards = [...live.values()].filter(g => g.live);
    if (boards.length === 0) { liveBox.replaceChildren(el("p", { class: "muted" }, "No games in progress.")); return; }
    liveBox.replaceChildren(...boards.map(g => {
      const n = g.moves.length, lastMove = n ? g.moves[n - 1] : null;
      const before = n > 1 ? g.moves[n - 2].drawing : g.start_drawing;
      return el("div", { class: "liveboard" },
        el("div", null, liveLink(g.live_id, "Game " + g.index), " ", players(g.players)),
        drawBoard(g.game, lastMove ? lastMove.position : g.start_position, lastMove && lastMove.move, true, g.players,
          lastMove ? lastMove.drawing : g.start_drawing, lastMove ? before : null, g.seats),
        el("div", { class: "muted" }, "ply " + g.moves.length));
    }));
  };
  follow("?tournament=" + encodeURIComponent(t.id), {
    snapshot(s) { live.clear(); for (const g of s.games) live.set(g.live_id, g); draw(); },
    start(e) {
      live.set(e.game_id, { live_id: e.game_id, index: e.index, game: e.game, seats: e.seats, players: e.players || [], start_position: e.position,
        start_drawing: e.drawing, moves: [], live: true });
      draw();
    },
    move(e) {
      const g = live.get(e.game_id);
      if (!g) return;
      g.moves.push({ ply: e.ply, seat: e.seat, move: e.move, position: e.position, drawing: e.drawing });
      draw();
    },
    end(e) {
      const g = live.get(e.game_id);
      if (g) g.live = false;
      draw();
      // The game is being recorded: show it in the lists shortly.
      setTimeout(() => { refresh().catch(() => {}); drawSPRT(); }, 1500);
    },
  });
}

// steps groups a game's moves into the positions one can step through: the start, each
// opening move, then each ply (the seats' moves of a simultaneous ply together).
function steps(g) {
  const out = [{ label: "start", position: g.start_position, drawing: g.start_drawing, moves: [] }];
  for (const o of g.opening || []) out.push({ label: o.move + " (opening)", position: o.position, drawing: o.drawing, last: o.move, moves: [] });
  let prev = null;
  (g.moves || []).forEach((m, i) => {
    if (prev && prev.ply === m.ply && gameKind(g.game) === "ipd") { prev.moves.push(i); prev.position = m.position; prev.drawing = m.drawing; return; }
    prev = { ply: m.ply, position: m.position, drawing: m.drawing, last: m.move, moves: [i] };
    out.push(prev);
  });
  return out;
}

function hasInfo(m) { return m.depth || m.nodes || m.score || (m.pv && m.pv.length) || m.note; }

// evalGraph draws the recorded scores, each from the first seat's point of view (a score
// is the mover's, so the second seat's are negated), with a cursor at the current step.
function evalGraph(g, stepList, cur) {
  if (gameKind(g.game) === "ipd" || (g.players || []).length !== 2) return null;
  const pts = [];
  stepList.forEach((s, i) => {
    for (const mi of s.moves) {
      const m = g.moves[mi];
      if (hasInfo(m)) pts.push([i, m.seat === 0 ? (m.score || 0) : -(m.score || 0)]);
    }
  });
  if (pts.length < 2) return el("p", { class: "muted" }, "No search scores recorded.");
  const W = 600, H = 160, pad = 24;
  const maxAbs = Math.max(1e-9, ...pts.map(p => Math.abs(p[1])));
  const n = Math.max(1, stepList.length - 1);
  const x = i => pad + (W - 2 * pad) * i / n;
  const y = v => H / 2 - (H / 2 - pad / 2) * v / maxAbs;
  const s = svg("svg", { class: "graph", width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img" });
  s.append(svg("line", { class: "axis", x1: pad, y1: H / 2, x2: W - pad, y2: H / 2 }));
  const lbl = svg("text", { x: 2, y: 12 }); lbl.textContent = "+" + maxAbs.toFixed(2) + " (" + g.players[0] + ")"; s.append(lbl);
  const lbl2 = svg("text", { x: 2, y: H - 4 }); lbl2.textContent = "-" + maxAbs.toFixed(2); s.append(lbl2);
  s.append(svg("polyline", { class: "line", points: pts.map(p => x(p[0]).toFixed(1) + "," + y(p[1]).toFixed(1)).join(" ") }));
  s.append(svg("line", { class: "cursor", x1: x(cur), y1: pad / 2, x2: x(cur), y2: H - pad / 2 }));
  return s;
}

async function gamePage() {
  const id = param("id"), liveId = param("live");
  let g;
  if (liveId) {
    g = { live_id: liveId, live: true, game: "", players: [], moves: [], opening: [], start_position: "", result: "*", reason: "" };
  } else {
    g = await api("api/games/" + encodeURIComponent(id || ""));
  }
  let cur = -1; // -1: follow the last step
  const header = el("div"), boardBox = el("div", { id: "board" }), controls = el("div", { class: "controls" });
  const graphBox = el("div", { id: "graph" }), info = el("div", { id: "info" }), moveList = el("div", { id: "moves" });
  const plyLabel = el("span", { id: "ply" });
  const button = (text, title, fn) => { const b = el("button", { type: "button", title }, text); b.addEventListener("click", fn); return b; };
  controls.append(button("\u00ab", "start (Home)", () => go(0)), button("\u25c0", "back (left arrow)", () => go(pos() - 1)),
    button("\u25b6", "forward (right arrow)", () => go(pos() + 1)), button("\u00bb", "end (End)", () => go(Infinity)), " ", plyLabel);
  setMain(header, el("div", { class: "layout" }, el("div", null, boardBox, controls, info, graphBox), moveList));

  let list = steps(g);
  const pos = () => (cur < 0 ? list.length - 1 : cur);
  function go(i) {
    i = Math.max(0, Math.min(list.length - 1, i));
    cur = i === list.length - 1 && g.live ? -1 : i;
    render();
  }
  function renderHeader() {
    const parts = [el("h1", null, (g.game || "Game") + ": ", players(g.players))];
    const status = g.live ? "in progress" : g.result + (g.reason ? " (" + g.reason + ")" : "");
    parts.push(el("p", null, "Result: " + status + (g.detail ? " - " : ""), g.detail ? el("span", { class: "detail" }, g.detail) : null));
    if (g.tournament_id) parts.push(el("p", null, g.tournament_format === "ladder" ? ladderLink(g.tournament_id, "Ladder #" + g.tournament_id) :
      tournamentLink(g.tournament_id, "Tournament #" + g.tournament_id), g.index ? ", game " + g.index : "",
      g.time_control ? ", time control " + g.time_control : ""));
    if (g.recorded) parts.push(el("p", null, gameLink(g.recorded, "The recorded game, with times and search information")));
    if (g.replay_error) parts.push(el("p", { class: "error" }, "Positions shown up to where the replay stopped: " + g.replay_error));
    header.replaceChildren(...parts);
  }
  function renderMoves() {
    const rows = [];
    list.forEach((s, si) => {
      const idxs = s.moves.length ? s.moves : [null];
      for (const mi of idxs) {
        const m = mi === null ? null : g.moves[mi];
        const r = el("tr", { class: "clickable" + (si === pos() ? " current" : ""), "data-step": si },
          el("td", null, String(si)),
          el("td", null, m ? (g.players[m.seat] || "seat " + m.seat) : ""),
          el("td", null, m ? m.move : s.label),
          el("td", null, m ? fmtMS(m.elapsed_ms) : ""),
          el("td", { class: "clock" }, m && m.clock_ms !== undefined ? fmtMS(m.clock_ms) : ""),
          el("td", null, m && m.depth ? String(m.depth) : ""),
          el("td", null, m && m.nodes ? String(m.nodes) : ""),
          el("td", null, m && hasInfo(m) ? fmtNum(m.score || 0, 2) : ""),
          el("td", { class: "pv" }, m && m.pv ? m.pv.join(" ") : ""),
          el("td", null, m && m.note ? m.note : ""));
        r.addEventListener("click", () => go(si));
        rows.push(r);
      }
    });
    moveList.replaceChildren(table(["#", "Player", "Move", "Time", "Clock", "Depth", "Nodes", "Score", "PV", "Note"], rows));
  }
  function render() {
    renderHeader();
    const s = list[pos()];
    const before = pos() > 0 ? list[pos() - 1].drawing : null;
    boardBox.replaceChildren(drawBoard(g.game, s.position, s.last, false, g.players, s.drawing, before, g.seats));
    plyLabel.textContent = "ply " + pos() + " of " + (list.length - 1);
    const ms = s.moves.map(i => g.moves[i]);
    info.replaceChildren(...ms.filter(hasInfo).map(m => el("p", null,
      (g.players[m.seat] || "seat " + m.seat) + ": depth " + (m.depth || 0) + ", nodes " + (m.nodes || 0) + ", score " + fmtNum(m.score || 0, 2) +
      (m.pv && m.pv.length ? ", PV " + m.pv.join(" ") : "") + (m.note ? ", " + m.note : ""))));
    const graph = evalGraph(g, list, pos());
    graphBox.replaceChildren(...(graph ? [graph] : []));
    renderMoves();
  }
  document.addEventListener("keydown", e => {
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA")) return;
    switch (e.key) {
      case "ArrowLeft": go(pos() - 1); break;
      case "ArrowRight": go(pos() + 1); break;
      case "Home": go(0); break;
      case "End": go(Infinity); break;
      default: return;
    }
    e.preventDefault();
  });
  if (!liveId) cur = 0; // a recorded game opens at its start
  render();
  if (liveId) {
    follow("?game=" + encodeURIComponent(liveId), {
      snapshot(s) {
        if (s.games.length) { g = s.games[0]; list = steps(g); render(); }
        else if (!s.live) { header.replaceChildren(el("p", { class: "muted" }, "This server follows no live games.")); }
      },
      start(e) {
        g = { live_id: e.game_id, live: true, tournament_id: e.tournament_id, index: e.index, game: e.game, seats: e.seats, players: e.players || [],
          start_position: e.position, start_drawing: e.drawing, moves: [], opening: [], result: "*", reason: "" };
        list = steps(g); render();
      },
      move(e) {
        g.moves.push({ ply: e.ply, seat: e.seat, move: e.move, position: e.position, drawing: e.drawing });
        list = steps(g); render();
      },
      end(e) {
        Object.assign(g, { live: false, result: e.result, reason: e.reason, detail: e.detail });
        if (cur < 0) cur = list.length - 1;
        render();
        // The referee records the game as it ends: point to the recorded game, with its
        // times and search information, once the store has it.
        if (e.tournament_id && e.index) {
          setTimeout(() => api("api/tournaments/" + encodeURIComponent(e.tournament_id)).then(d => {
            const rec = d.games.find(x => x.index === e.index);
            if (rec) { g.recorded = rec.id; renderHeader(); }
          }).catch(() => {}), 1500);
        }
      },
    });
  }
}

async function playerPage() {
  const name = param("name") || "";
  const p = await api("api/players/" + encodeURIComponent(name));
  document.title = p.name + " - Arena";
  const terms = Object.entries(p.terminations).sort();
  const ratingGraph = (() => {
    if (p.ratings.length < 1) return el("p", { class: "muted" }, "No rated games.");
    const vals = [p.ratings[0].before, ...p.ratings.map(r => r.after)];
    const W = 600, H = 160, pad = 24, lo = Math.min(...vals), hi = Math.max(...vals), span = Math.max(1, hi - lo);
    const s = svg("svg", { class: "graph", width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img" });
    const x = i => pad + (W - 2 * pad) * i / Math.max(1, vals.length - 1), y = v => H - pad - (H - 2 * pad) * (v - lo) / span;
    s.append(svg("polyline", { class: "line", points: vals.map((v, i) => x(i).toFixed(1) + "," + y(v).toFixed(1)).join(" ") }));
    const a = svg("text", { x: 2, y: 12 }); a.textContent = hi.toFixed(0); s.append(a);
    const b = svg("text", { x: 2, y: H - 4 }); b.textContent = lo.toFixed(0); s.append(b);
    return s;
  })();
  setMain(el("h1", null, p.name),
    el("h2", null, "Results by opponent"),
    table(["Opponent", "Games", "W", "D", "L", "Score"],
      p.opponents.map(o => row(playerLink(o.opponent), String(o.games), String(o.wins), String(o.draws), String(o.losses), fmtNum(o.score, 1)))),
    el("h2", null, "How games ended"),
    table(["Reason", "Games"], terms.map(([k, v]) => row(k, String(v)))),
    el("h2", null, "Rating history"), ratingGraph,
    el("h2", null, "Games"),
    table(["Game", "Tournament", "Kind", "Players", "Result", "Reason", "Score"],
      p.games.map(g => row(gameLink(g.id, "#" + g.id), tournamentLink(g.tournament_id, "#" + g.tournament_id), g.game,
        players(g.players), g.result, g.reason, fmtNum(g.score, 1)))));
}

// ---- Ladders ----

// A ladder's pages poll its API every two seconds rather than follow the live stream:
// a leaderboard changes on things no game event tells (an entrant joins, fails
// validation or is replaced, the deadline passes, the final standings freeze), and the
// stream has no events at all under `arena web` without a NATS server. The server keeps
// each ladder's leaderboard for a second, so the browsers watching cost it one fit a
// second, however many they are.
const LADDER_POLL_MS = 2000;

// repeat calls refresh every ms, skipping it while the page is hidden; a failure shows in
// note (the last good data stays on the page) until the next success.
function repeat(ms, refresh, note) {
  const tick = () => {
    const next = () => setTimeout(tick, ms);
    if (document.hidden) { next(); return; }
    refresh().then(() => { note.replaceChildren(); }, err => {
      note.replaceChildren(el("span", { class: "error" }, "Not updated: " + (err && err.message ? err.message : err)));
    }).finally(next);
  };
  setTimeout(tick, ms);
}

function fmtTime(iso) { const d = new Date(iso); return isNaN(d) ? "" : d.toLocaleString(); }

// untilText says how far away a time is: "in 12 min", or "passed".
function untilText(iso) {
  const s = (Date.parse(iso) - Date.now()) / 1000;
  if (!(s > 0)) return "passed";
  if (s < 90) return "in " + Math.round(s) + "s";
  if (s < 5400) return "in " + Math.round(s / 60) + " min";
  if (s < 172800) return "in " + (s / 3600).toFixed(1) + " h";
  return "in " + Math.round(s / 86400) + " days";
}

// phaseText says where a ladder is: open until its deadline, playing its final, or done.
function phaseText(b) {
  const top = "the top " + b.final_top + " play a round-robin final";
  switch (b.phase) {
    case "open": return "Open until the deadline, " + fmtTime(b.deadline) + " (" + untilText(b.deadline) + "); then " + top + ".";
    case "final": return "Final phase: the deadline (" + fmtTime(b.deadline) + ") has passed and " + top + ".";
    case "finished": return "Finished: final standings, frozen.";
  }
  return b.phase;
}

// statusText is an entry's status: how far its validation is, why it failed, whether it
// plays the final. A reason comes from the player's engine: text only.
function statusText(r, b, short) {
  let s = r.status;
  if (r.status === "validating") s += " " + r.validation_games + "/" + b.validation.games;
  if (r.reason && !short) s += ": " + r.reason;
  if ((b.final || []).includes(r.entry)) s += ", finalist";
  return s;
}

function ratingText(r) {
  if (!(r.games > 0)) return "";
  return fmtNum(r.rating, 0) + (r.error >= 0 ? " \u00b1 " + fmtNum(r.error, 0) : "");
}

function finalText(r, b) { return (b.final || []).includes(r.entry) ? fmtNum(r.final_points, 1) + "/" + r.final_games : ""; }

// leaderboard is the ladder's table; on the projector it has no links and a short status.
function leaderboard(b, projector) {
  const final = (b.final || []).length > 0;
  const headers = ["Rank", "Entrant", "Version", "Rating", "Games", "W", "D", "L", ...(final ? ["Final"] : []), "Status"];
  const rows = b.rows.map(r => {
    const cell = (cls, ...c) => el("td", { class: cls }, ...c);
    return el("tr", { class: "status-" + r.status, "data-entry": r.entry, "data-player": r.player },
      cell("rank", r.rank ? String(r.rank) : ""),
      cell("player", projector ? r.player : entryLink(b.tournament, r.entry, r.player)),
      cell("version", r.version),
      cell("rating", ratingText(r)),
      cell("games", String(r.games)),
      cell("wins", String(r.wins)), cell("draws", String(r.draws)), cell("losses", String(r.losses)),
      final ? cell("final", finalText(r, b)) : null,
      cell("status", statusText(r, b, projector)));
  });
  const t = table(headers, rows);
  t.id = "leaderboard";
  return t;
}

// fitRows drops a table's last rows until the page fits the window: the projector shows
// the top of the leaderboard, never a scroll bar.
function fitRows(t) {
  const rows = [...t.tBodies[0].rows];
  const over = () => document.documentElement.scrollHeight > window.innerHeight;
  for (let i = rows.length - 1; i > 0 && over(); i--) rows[i].remove();
}

// engineFailures lists the submitted engines whose newest version failed to build or to
// run, which never become entries. A reason is the last line of the engine's log: text
// only. Its owner reads the whole log with arena submit-engine --status.
function engineFailures(b) {
  const fs = b.engine_failures || [];
  if (fs.length === 0) return null;
  const t = table(["Player", "Version", "State", "Reason", "When"],
    fs.map(f => row(f.player, f.version, f.state.replace("_", " "), f.reason, fmtTime(f.updated))));
  t.id = "engine-failures";
  return el("div", null, el("h2", null, "Submitted engines that failed"), t,
    el("p", { class: "muted" }, "The last line of each log; its owner reads the whole log with arena submit-engine --status."));
}

async function ladderPage() {
  const id = param("id") || "";
  const projector = param("view") === "projector";
  const head = el("div"), board = el("div", { id: "board-box" }), note = el("div", { id: "note" });
  let last = null;
  function draw() {
    const b = last;
    const name = b.name || "Ladder #" + b.tournament;
    document.title = name + " - Arena";
    const t = leaderboard(b, projector);
    if (projector) {
      head.replaceChildren(el("h1", null, name + ": " + b.game), el("p", { id: "phase" }, phaseText(b)));
      board.replaceChildren(t);
      fitRows(t);
      return;
    }
    head.replaceChildren(el("h1", null, name + ": " + b.game),
      el("p", { id: "phase" }, phaseText(b)),
      el("p", null, b.games + " games played (validation games included), time control " + b.time_control +
        "; each new entry first plays " + b.validation.games + " validation games against " + b.validation.opponent + ". ",
        el("a", { href: "ladder.html?id=" + encodeURIComponent(b.tournament) + "&view=projector", id: "projector-link" }, "Projector view"),
        ", ", tournamentLink(b.tournament, "every game"), "."));
    fill(board, t, el("p", { class: "muted" }, "Rating: maximum likelihood over the rated games, \u00b1 its 95% error bar. " +
      "Updated every " + LADDER_POLL_MS / 1000 + " s."), engineFailures(b));
  }
  async function refresh() {
    last = await api("api/ladders/" + encodeURIComponent(id));
    draw();
  }
  if (projector) document.body.classList.add("projector");
  await refresh();
  setMain(head, board, note);
  if (projector) { fitRows(board.querySelector("table")); window.addEventListener("resize", draw); }
  repeat(LADDER_POLL_MS, refresh, note);
}

function outcome(score) { return score === 1 ? "win" : score === 0 ? "loss" : "draw"; }

async function entryPage() {
  const ladder = param("ladder") || "", entry = param("entry") || "";
  const head = el("div"), versions = el("div", { id: "versions" }), games = el("div", { id: "games" }), note = el("div", { id: "note" });
  async function refresh() {
    const d = await api("api/ladders/" + encodeURIComponent(ladder) + "/entries/" + encodeURIComponent(entry) +
      (param("games") === "all" ? "?games=all" : ""));
    const e = d.entry, L = d.ladder;
    document.title = e.player + " " + e.version + " - Arena";
    head.replaceChildren(
      el("p", null, ladderLink(L.tournament, (L.name || "Ladder #" + L.tournament) + ": " + L.game), " \u2014 " + phaseText(L)),
      el("h1", null, e.player + " ", el("span", { class: "version" }, e.version)),
      table(["Rank", "Rating", "Games", "W", "D", "L", "Validation", "Final", "Status", "Joined"],
        [row(e.rank ? String(e.rank) : "", ratingText(e), String(e.games), String(e.wins), String(e.draws), String(e.losses),
          e.validation_games + "/" + L.validation.games, finalText(e, L), statusText(e, L), fmtTime(e.joined))]),
      el("p", null, "All of ", playerLink(e.player), "'s games, in every tournament."));
    versions.replaceChildren(d.versions.length === 0 ? el("p", { class: "muted" }, "No other versions.") :
      table(["Version", "Rank", "Rating", "Games", "Status", "Joined"],
        d.versions.map(v => row(entryLink(L.tournament, v.entry, v.version), v.rank ? String(v.rank) : "", ratingText(v),
          String(v.games), statusText(v, L), fmtTime(v.joined)))));
    fill(games, d.games.length === 0 ? el("p", { class: "muted" }, "No games yet.") :
      table(["#", "Phase", "Opponent", "Version", "Colour", "Result", "Reason", "Plies", "Ended", ""],
        d.games.map(g => row(String(g.index), g.phase,
          g.opponent_entry ? entryLink(L.tournament, g.opponent_entry, g.opponent) : g.opponent, g.opponent_version, g.colour,
          outcome(g.score) + " (" + g.result + ")", g.reason, String(g.plies), fmtTime(g.ended), gameLink(g.id, "replay")))),
      d.games_total > d.games.length ? el("p", { class: "muted" }, "The last " + d.games.length + " of " + d.games_total + " games; ",
        el("a", { href: "entry.html?ladder=" + encodeURIComponent(L.tournament) + "&entry=" + encodeURIComponent(e.entry) + "&games=all" },
          "show all"), ".") : null);
  }
  await refresh();
  setMain(head, el("h2", null, "Other versions"), versions, el("h2", null, "Games, newest first"), games, note);
  repeat(LADDER_POLL_MS, refresh, note);
}

const pages = {
  tournaments: tournamentsPage, tournament: tournamentPage, game: gamePage, player: playerPage, ladder: ladderPage, entry: entryPage,
};
document.addEventListener("DOMContentLoaded", () => {
  const page = pages[document.body.dataset.page];
  if (page) page().catch(showError);
});
