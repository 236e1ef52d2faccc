#!/usr/bin/env node
// A cardarena random bot for node, on the SDK (cardarena.js).
//
// Plays any game: for each request it picks a uniformly random entry of the
// legal list (and a uniform amount when the entry is a range), from a
// generator seeded by --seed N.  See protocol.md.
//
// usage: random_bot.js [--seed N]
'use strict';
const cardarena = require('./cardarena');

cardarena.run((request, bot) => {
  const [i, amount] = bot.randomChoice(request);
  return amount === null ? i : [i, amount];
}, { name: 'random-js' });
