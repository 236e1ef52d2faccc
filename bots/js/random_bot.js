#!/usr/bin/env node
// A cardarena random bot for node, no npm packages.
//
// Plays any game: for each request it picks a uniformly random entry of the
// legal list (and a uniform amount when the entry is a range).  All a bot
// needs is a JSON library: read one JSON object a line from stdin, answer
// requests with one line on stdout.  See protocol.md.
//
// usage: random_bot.js [--seed N]
'use strict';
const readline = require('readline');

const args = process.argv.slice(2);
let seed = Date.now() >>> 0;
if (args.length === 2 && (args[0] === '--seed' || args[0] === '-s')) {
  seed = Number(args[1]) >>> 0;
} else if (args.length !== 0) {
  process.stderr.write('usage: random_bot.js [--seed N]\n');
  process.exit(2);
}

// mulberry32: a small seeded generator, uniform in [0, 1).
function random() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function send(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.type === 'hello') {
    send({ type: 'hello', name: 'random-js', version: '1' });
  } else if (msg.type === 'request') {
    const i = Math.floor(random() * msg.legal.length);
    const answer = { id: msg.id, index: i };
    const amount = msg.legal[i].amount;
    if (amount !== null && typeof amount === 'object') {
      answer.amount = amount.min + Math.floor(random() * (amount.max - amount.min + 1));
    }
    send(answer);
  } else if (msg.type === 'error') {
    process.stderr.write('referee says: ' + msg.message + '\n');
  } else if (msg.type === 'bye') {
    rl.close();
  }
});
