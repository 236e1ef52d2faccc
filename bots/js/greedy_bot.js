#!/usr/bin/env node
// A greedy bot for every cardarena game, on the JavaScript SDK
// (cardarena.js).  One short heuristic per game, each reading only the
// request (the view and the legal list); the same ones as
// bots/python/greedy_bot.py:
//
// horserace  estimate each horse's chance p of winning by playing the race
//            out from the stock left; bet on the win bet of best positive
//            value p k - (1 - p) (odds k), Kelly-staked, else "done"; as
//            the dealer setting odds, 80% of the fair odds (1 - p) / p; in
//            a Calcutta auction, bid while under the ace's share of the pot.
// stocks     the entry of best immediate gain: a price card is worth
//            (new - old) x (our shares - the others' average), a buy its
//            shares while the company may rise; sell what may crash; never
//            discard; end the turn when nothing gains.
// speculation  a face-down card is worth the pool times its chance to beat
//            the highest face-up card; bid the minimum while under 80% of
//            the value; sell the face-up card for the pool (keep the ace of
//            trumps); turn cards up, pass when holding the highest.
// nyse       take the colour whose chip gains most (its value after the
//            move plus the rise of the chips of it we hold); speculate where
//            we hold more than the others; give plain chips first.
// daifugo    shed weak cards first, keep jokers and 2s (3s in a
//            revolution) to win a trick late; lead what sheds the most.
//
// usage: greedy_bot.js [--seed N]
'use strict';
const cardarena = require('./cardarena');

const SUITS = 'SHDC';
const FINISH = 8;
const SIMULATIONS = 400;

// The index of the first legal entry whose keys have these values, or -1.
function find(legal, keys) {
  return legal.findIndex((e) => Object.keys(keys).every((k) => e[k] === keys[k]));
}

// The index of the best [score, index] pair (the first on ties).
function best(scored) {
  let b = null;
  for (const p of scored) if (b === null || p[0] > b[0]) b = p;
  return b[1];
}

// Each suit's estimated chance of winning the race from the stock.
function winChances(stock, jokers, bot) {
  const deck = [];
  for (let s = 0; s < 4; s++) for (let k = 0; k < stock[s]; k++) deck.push(s);
  for (let k = 0; k < jokers; k++) deck.push(4);
  const wins = [0, 0, 0, 0];
  for (let n = 0; n < SIMULATIONS; n++) {
    for (let i = deck.length - 1; i > 0; i--) {
      const j = Math.floor(bot.random() * (i + 1));
      [deck[i], deck[j]] = [deck[j], deck[i]];
    }
    const steps = [0, 0, 0, 0];
    for (const c of deck) {
      if (c === 4) {
        const lead = Math.max(...steps);
        for (let s = 0; s < 4; s++) if (steps[s] < lead) steps[s]++;
        continue;
      }
      if (++steps[c] === FINISH) {
        wins[c]++;
        break;
      }
    }
  }
  return wins.map((w) => w / SIMULATIONS);
}

// The race's win chances, computed once per race and stock.
function chances(view, bot) {
  const st = view.stock;
  const key = JSON.stringify([view.race, st.suits, st.jokers || 0]);
  if (bot.chanceKey !== key) {
    bot.chanceKey = key;
    bot.chanceVal = winChances(st.suits, st.jokers || 0, bot);
  }
  return bot.chanceVal;
}

// A ranged entry's amount clamped to its range.
function clamp(entry, v) {
  return Math.max(entry.amount.min, Math.min(entry.amount.max, Math.floor(v)));
}

function horserace(request, bot) {
  const view = request.view;
  const legal = request.legal;
  if (view.phase === 'odds') {
    const p = chances(view, bot)[SUITS.indexOf(legal[0].suit)];
    return [0, clamp(legal[0], 0.8 * (1 - p) / Math.max(p, 1e-3))];
  }
  if (view.phase === 'auction') {
    const bid = find(legal, { type: 'bid' });
    const stop = find(legal, { type: 'pass' });
    if (bid < 0) return stop >= 0 ? stop : 0;
    const p = chances(view, bot)[SUITS.indexOf(view.auction.suit)];
    const lo = legal[bid].amount.min;
    const pot = (view.pot || 0) + 4 * lo;
    if (lo < 0.8 * pot * Math.min(1, 1.5 * p) || stop < 0) return [bid, lo];
    return stop;
  }
  const done = find(legal, { type: 'done' });
  if (done < 0) return random(request, bot);
  if (view.my_bets && view.my_bets.length > 0) return done;
  const p = chances(view, bot);
  const odds = view.odds;
  const scored = [];
  legal.forEach((e, i) => {
    if (e.type !== 'bet' || e.kind !== 'win') return;
    const s = SUITS.indexOf(e.suits[0]);
    const ev = p[s] * odds[s] - (1 - p[s]);
    if (ev > 0) scored.push([ev, i]);
  });
  if (scored.length === 0) return done;
  const i = best(scored);
  const s = SUITS.indexOf(legal[i].suits[0]);
  const kelly = (p[s] * (odds[s] + 1) - 1) / odds[s];
  return [i, clamp(legal[i], kelly * view.chips[request.seat])];
}

function stocks(request) {
  const view = request.view;
  const me = request.seat;
  const seats = view.seats;
  const comps = {};
  for (const c of view.companies) comps[c.suit] = c;
  const others = seats.filter((s, i) => i !== me);
  const mine = (suit) => seats[me].shares[suit] || 0;
  const theirs = (suit) => others.length === 0 ? 0
    : others.reduce((a, s) => a + (s.shares[suit] || 0), 0) / others.length;
  return best(request.legal.map((e, i) => {
    const suit = e.card ? e.card[1] : null;
    const c = comps[suit];
    let g = -1;
    if (e.type === 'end') {
      g = 0;
    } else if (e.type === 'price') {
      g = (e.value - c.price) * (mine(suit) - theirs(suit));
    } else if (e.type === 'buy') {
      const room = c.face_on_top || c.price <= 2 ? 0 : 1;
      g = e.cost <= seats[me].money ? e.shares * 0.5 * room : -1;
    } else if (e.type === 'sell') {
      g = c.face_on_top || c.price <= 2 ? e.proceeds * 0.3 : -1;
    }
    return [g, i];
  }));
}

// [unseen cards that beat card, unseen cards] in a speculation view.
function unseenAbove(view, card) {
  const order = '23456789TJQKA';
  const seen = new Set(view.discards || []);
  if (view.high) seen.add(view.high);
  let above = 0;
  let unseen = 0;
  for (const r of order) {
    for (const s of SUITS) {
      const c = r + s;
      if (seen.has(c)) continue;
      unseen++;
      if (s !== view.trump) continue;
      if (!card || card[1] !== view.trump || order.indexOf(r) > order.indexOf(card[0])) above++;
    }
  }
  return [above, unseen];
}

function speculation(request) {
  const view = request.view;
  const legal = request.legal;
  const pool = view.pool || 0;
  if (view.phase === 'trump' || view.phase === 'found') {
    const keep = find(legal, { type: 'keep' });
    const sell = find(legal, { type: 'sell_up' });
    if (sell < 0 || legal[sell].card === 'A' + view.trump) return keep;
    return [sell, clamp(legal[sell], pool)];
  }
  if (view.phase === 'auction') {
    const a = view.auction;
    const bid = find(legal, { type: 'bid' });
    const drop = find(legal, { type: 'drop' });
    if (bid < 0) return drop;
    const [above, unseen] = unseenAbove(view, view.high);
    let value;
    if (a.item === 'face_up') {
      const down = view.players.reduce((n, p) => n + p.face_down, 0);
      const q = unseenAbove(view, a.card)[0] / Math.max(unseen, 1);
      value = pool * Math.pow(1 - q, down);
    } else {
      value = pool * (a.positions || []).length * above / Math.max(unseen, 1);
    }
    const lo = legal[bid].amount.min;
    if (lo <= 0.8 * value || drop < 0) return [bid, lo];
    return drop;
  }
  const pass = find(legal, { type: 'pass' });
  if (pass >= 0) return pass;
  const turn = find(legal, { type: 'turn' });
  return turn >= 0 ? turn : 0;
}

function nyse(request) {
  const view = request.view;
  const me = request.seat;
  const hold = view.holdings;
  const colours = hold[me].colours || {};
  const value = (p) => (p > 11 ? 0 : view.board[Math.floor(p / 2)]);
  const pos = (c) => (view.markers[c].crashed ? 12 : 'ABCDEFGHIJKL'.indexOf(view.markers[c].position));
  const others = (c) => {
    const n = hold.filter((h, i) => i !== me).map((h) => (h.colours || {})[c] || 0);
    return n.length ? n.reduce((a, b) => a + b, 0) / n.length : 0;
  };
  return best(request.legal.map((e, i) => {
    let g = -2; // discard, swap
    if (e.type === 'take') {
      const p = pos(e.colour);
      g = p >= 12 ? -1 : value(p + 1) + (colours[e.colour] || 0) * (value(p + 1) - value(p));
    } else if (e.type === 'speculate') {
      const p = pos(e.marker);
      g = ((colours[e.marker] || 0) - others(e.marker)) * (value(p + 2) - value(p)) - 0.5;
    } else if (e.type === 'invest') {
      g = 1;
    } else if (e.type === 'give') {
      g = e.mark === 'plain' ? 1 : 0;
    } else if (e.type === 'none') {
      g = 0;
    }
    return [g, i];
  }));
}

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

function daifugo(request) {
  const view = request.view;
  const legal = request.legal.map((e, i) => [i, e]);
  const pick = (entries, key) => best(entries.map(([i, e]) => [-key(e), i]));
  if (view.phase === 'exchange') return pick(legal, (e) => weight(e.cards || []));
  const reversed = view.order === 'reversed';
  const plays = legal.filter(([, e]) => e.type === 'play');
  const pass = legal.find(([, e]) => e.type === 'pass');
  if (plays.length === 0) return pass !== undefined ? pass[0] : 0;
  const quiet = plays.filter(([, e]) => power(e.cards, reversed) === 0);
  const rank = (e) => strength(e.kind === 'joker' || e.kind === 'joker_pair' ? null : e.rank, reversed);
  if (pass === undefined) {
    // Leading: most cards, then the weakest.
    return pick(quiet.length > 0 ? quiet : plays, (e) => -e.cards.length * 100 + rank(e));
  }
  if (quiet.length > 0) return pick(quiet, rank);
  if (view.hand.length > 4) return pass[0];
  return pick(plays, rank);
}

// A uniformly random legal entry (and amount).
function random(request, bot) {
  const [i, amount] = bot.randomChoice(request);
  return amount === null ? i : [i, amount];
}

const PLAY = { horserace, stocks, speculation, nyse, daifugo };

cardarena.run((request, bot) => {
  const play = PLAY[bot.game];
  return play === undefined ? random(request, bot) : play(request, bot);
}, { name: 'greedy-js' });
