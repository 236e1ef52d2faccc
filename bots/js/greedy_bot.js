#!/usr/bin/env node
// A greedy daifugo bot on the JavaScript SDK (cardarena.js).
//
// The heuristic, for daifugo: get rid of weak cards first and keep the
// "power" cards (jokers, and the strongest rank in the order in force: the
// 2s, or the 3s during a revolution) for when they win a trick.
//   - Exchange: give the weakest cards the rule allows (a rich player's
//     free choice); a poor player's gift is forced anyway.
//   - Leading: play the combination that sheds the most cards, the
//     weakest first, without power cards while there is another choice.
//   - Following: play the weakest combination that beats the table
//     without power cards; if only power cards beat it, pass while the
//     hand still holds more than 4 cards, else play the weakest.
// Every other game is played at random.  Seeded by --seed N.
//
// usage: greedy_bot.js [--seed N]
'use strict';
const cardarena = require('./cardarena');

const RANKS = '3456789TJQKA2';

// The strength of a rank letter in the order in force (jokers strongest).
function strength(rank, reversed) {
  if (rank === null || rank === undefined) return RANKS.length;
  const i = RANKS.indexOf(rank);
  return reversed ? RANKS.length - 1 - i : i;
}

// The number of power cards among cards: jokers and the strongest rank.
function power(cards, reversed) {
  const top = reversed ? '3' : '2';
  return cards.filter((c) => c === 'JK' || c[0] === top).length;
}

// The sum of the cards' strengths in the normal order.
function weight(cards) {
  return cards.reduce((s, c) => s + (c === 'JK' ? RANKS.length : strength(c[0], false)), 0);
}

// Returns the index of the best entry by key (smallest), first on ties.
function best(entries, key) {
  let bi = -1;
  let bk = null;
  for (const [i, e] of entries) {
    const k = key(e);
    if (bk === null || k < bk) {
      bi = i;
      bk = k;
    }
  }
  return bi;
}

function choose(request, bot) {
  const view = request.view;
  if (bot.game !== 'daifugo') return random(request, bot);
  const legal = request.legal.map((e, i) => [i, e]);
  if (view.phase === 'exchange') {
    return best(legal, (e) => weight(e.cards || []));
  }
  const reversed = view.order === 'reversed';
  const plays = legal.filter(([, e]) => e.action === 'play');
  const pass = legal.find(([, e]) => e.action === 'pass');
  if (plays.length === 0) return pass !== undefined ? pass[0] : 0;
  const quiet = plays.filter(([, e]) => power(e.cards, reversed) === 0);
  const rank = (e) => strength(e.kind === 'joker' || e.kind === 'joker_pair' ? null : e.rank, reversed);
  if (pass === undefined) {
    // Leading: most cards, then the weakest.
    const pool = quiet.length > 0 ? quiet : plays;
    return best(pool, (e) => -e.cards.length * 100 + rank(e));
  }
  if (quiet.length > 0) return best(quiet, rank);
  if (view.hand.length > 4) return pass[0];
  return best(plays, rank);
}

// A uniformly random legal entry (and amount).
function random(request, bot) {
  const [i, amount] = bot.randomChoice(request);
  return amount === null ? i : [i, amount];
}

cardarena.run(choose, { name: 'greedy-js' });
