#!/usr/bin/env node
// An Arena player in JavaScript that talks NATS directly, with the official `nats` client
// and no bridge: it says hello, keeps the heartbeat, answers roll calls, and answers each
// turn request with a random move from the request's "legal" list. The protocol is in
// docs/protocol.md.
//
//   npm ci                                  # once, in examples/js
//   node player.js [URL [NAME]] [--seed N]
//
// URL defaults to $NATS_URL, then nats://127.0.0.1:4222; NAME to $ARENA_NAME, then "js".
// The player runs until SIGINT or SIGTERM.
"use strict";

const { connect, ErrorCode } = require("nats");

const NAME_RE = /^[A-Za-z0-9_-]{1,64}$/;
const AGENT = "random-js";
const VERSION = "1.0";

function parseArgs(argv) {
  const positional = [];
  let seed = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--seed" && i + 1 < argv.length) {
      seed = Number(argv[++i]);
    } else if (a.startsWith("--seed=")) {
      seed = Number(a.slice("--seed=".length));
    } else if (a === "-h" || a === "--help") {
      console.log("usage: node player.js [URL [NAME]] [--seed N]");
      process.exit(0);
    } else {
      positional.push(a);
    }
  }
  return {
    url: positional[0] || process.env.NATS_URL || "nats://127.0.0.1:4222",
    name: positional[1] || process.env.ARENA_NAME || "js",
    seed,
  };
}

// mulberry32: a small seeded generator, so that --seed makes a run repeatable.
function makeRandom(seed) {
  if (seed === null || !Number.isFinite(seed)) return Math.random;
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function log(...args) {
  console.error(`[${new Date().toISOString()}] ${opts.name}:`, ...args);
}

const opts = parseArgs(process.argv.slice(2));
if (!NAME_RE.test(opts.name)) {
  console.error(`player.js: bad name ${JSON.stringify(opts.name)}: want 1-64 of A-Z a-z 0-9 - _`);
  process.exit(2);
}
const random = makeRandom(opts.seed);
const enc = new TextEncoder();
const dec = new TextDecoder();

// isTurn checks what we use of a turn request; anything else on the subject is ignored.
function isTurn(req) {
  return (
    req !== null &&
    typeof req === "object" &&
    req.v === 1 &&
    req.type === "turn" &&
    typeof req.game_id === "string" &&
    Number.isInteger(req.ply) &&
    Array.isArray(req.legal) &&
    req.legal.length > 0 &&
    req.legal.every((m) => typeof m === "string")
  );
}

function onTurn(msg) {
  // The referee probes with an empty message when a reply is late: never answer it.
  if (msg.data.length === 0) return;
  let req;
  try {
    req = JSON.parse(dec.decode(msg.data));
  } catch {
    return;
  }
  if (!isTurn(req) || !msg.reply) return;
  const move = req.legal[Math.floor(random() * req.legal.length)];
  // Field names exactly as in docs/protocol.md: unknown or misspelt fields are a
  // protocol_error. game_id and ply are echoed unchanged.
  const reply = {
    v: 1,
    type: "move",
    game_id: req.game_id,
    ply: req.ply,
    move,
    info: { depth: 0, nodes: req.legal.length, pv: [move] },
  };
  msg.respond(enc.encode(JSON.stringify(reply)));
}

function onGameNotice(msg) {
  let n;
  try {
    n = JSON.parse(dec.decode(msg.data));
  } catch {
    return;
  }
  if (n && n.type === "game_start") {
    log(`game ${n.game_id} starts: ${(n.players || []).join(" vs ")}, seat ${n.seat}`);
  } else if (n && n.type === "game_end") {
    log(`game ${n.game_id} over: ${n.result} ${n.reason}`);
  }
}

async function main() {
  const nc = await connect({
    servers: opts.url,
    name: opts.name,
    waitOnFirstConnect: true, // start before the server if need be
    maxReconnectAttempts: -1, // and ride out its restarts
  });
  log(`connected to ${opts.url}`);

  // A wake-up for the hello loop: a roll call or a signal cuts its wait short.
  let wake = () => {};
  let stopping = false;

  // Subscribe first, flush, then say hello: the first turn may follow the welcome at once.
  // The queue group lets several instances of one player share its turns (docs/protocol.md).
  nc.subscribe(`arena.v1.player.${opts.name}.turn`, { queue: "arena.players", callback: (err, msg) => err || onTurn(msg) });
  nc.subscribe(`arena.v1.player.${opts.name}.game`, { callback: (err, msg) => err || onGameNotice(msg) });
  nc.subscribe("arena.v1.lobby.rollcall", { callback: () => wake() });
  await nc.flush();

  const stop = async (signal) => {
    if (stopping) process.exit(1); // a second signal: leave at once
    stopping = true;
    log(`${signal}: closing`);
    wake();
    try {
      await nc.drain();
    } catch {
      // already closed
    }
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));

  const hello = enc.encode(
    JSON.stringify({ v: 1, type: "hello", name: opts.name, agent: AGENT, version: VERSION, games: ["othello"] }),
  );
  let welcomed = false;
  while (!stopping && !nc.isClosed()) {
    let wait = 1000; // retry every second until a referee answers
    try {
      const m = await nc.request("arena.v1.lobby.hello", hello, { timeout: 1000 });
      const w = JSON.parse(dec.decode(m.data));
      if (w && w.type === "welcome" && Number.isInteger(w.heartbeat_ms) && w.heartbeat_ms > 0) {
        if (!welcomed) log(`welcomed by ${w.referee || "a referee"}`);
        welcomed = true;
        wait = w.heartbeat_ms;
      }
    } catch (err) {
      if (stopping) break;
      if (welcomed) log(`heartbeat unanswered (${err.code || err.message}): retrying`);
      welcomed = false;
      // No responders (no referee yet), a time-out, or a dropped connection (the client
      // reconnects by itself): wait a second and say hello again.
      if (err.code !== ErrorCode.NoResponders && err.code !== ErrorCode.Timeout) {
        log(`hello failed: ${err.code || err.message}`);
      }
    }
    await new Promise((resolve) => {
      const t = setTimeout(resolve, wait);
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
    wake = () => {};
  }
  await nc.closed();
  log("closed");
  process.exit(0); // leave now rather than when the client's last timers run out
}

main().catch((err) => {
  console.error(`player.js: ${err.message || err}`);
  process.exit(1);
});
