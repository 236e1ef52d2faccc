// cardarena: the JavaScript bot SDK for node (no npm packages).
//
// It runs the protocol loop of protocol.md on stdin and stdout (the
// handshake, one answer line per request, errors, ends and "bye"), so a
// bot only chooses.  Either pass a function:
//
//   const cardarena = require('./cardarena');
//   cardarena.run((request, bot) => 0, { name: 'my-bot' });
//
// or extend Bot and define choose(request):
//
//   class MyBot extends cardarena.Bot {
//     choose(request) { return 0; }
//   }
//   new MyBot({ name: 'my-bot' }).main();
//
// choose(request) returns (or resolves to, when it is async) one of:
//   - a number: the index of an entry of request.legal;
//   - an array [index, amount]: for a ranged entry (its "amount" is
//     {"min": lo, "max": hi}), where the amount is required;
//   - an object: the action itself, by value (a legal entry with a whole
//     amount in place of a range), sent as {"id": N, "action": {...}}.
//
// A bot that reads only some parts of a request lists them in
// opts.wants (of 'view', 'events' and 'legal'), or its user with
// --wants LIST on the command line (e.g. --wants legal); the referee then leaves
// the others out of its requests (and of start and end), so there is less
// to parse.  By default it sends them all.
//
// The request is the message as the referee sent it ("id", "game", "seat",
// "view", "events", "legal", "time_left_ms").  The bot keeps the handshake
// (bot.hello, bot.game, bot.options, bot.players, bot.limits), its seat in
// the current game (bot.seat), a generator seeded by --seed N and
// reseeded at each game's start from (N, the match's nonce, game): the
// hello's public "nonce" differs between matches, so a seeded bot plays
// the same in a match run again but differently in another match
// (bot.random(), bot.randomChoice(request)) and bot.timeLeft(request).
// bot.say(text) during choose() sends text with the answer as its
// "debug" (the replays show it beside the move).
//
// An exception in choose() is not caught: the bot exits with the stack on
// stderr, and the referee counts an "exit" fault.  Write notes to stderr
// (the referee saves it), never to stdout.
'use strict';
const readline = require('readline');

const PROTOCOL = 1;

// Returns [lo, hi] when a legal entry is ranged, else null.
function amountRange(entry) {
  const a = entry !== null && typeof entry === 'object' ? entry.amount : undefined;
  if (a !== null && typeof a === 'object') return [a.min, a.max];
  return null;
}

class Bot {
  // opts: name, version, wants (the parts of a request read; all when
  // absent), choose (a function (request, bot)), and the hooks onHello,
  // onStart, onEnd, onError, onBye, onMessage.
  constructor(opts = {}) {
    this.name = opts.name || 'js-bot';
    this.version = opts.version || '1';
    this.wants = Array.isArray(opts.wants) ? opts.wants.slice() : null;
    for (const k of ['choose', 'onHello', 'onStart', 'onEnd', 'onError',
      'onBye', 'onMessage']) {
      if (typeof opts[k] === 'function') this[k] = opts[k];
    }
    this.hello = null;
    this.game = null;
    this.options = {};
    this.players = null;
    this.limits = {};
    this.seat = null;
    this.seed = Date.now() >>> 0;
    this.baseSeed = this.seed;
    this.nonce = 0;
    this.received = 0;
    this.said = [];
  }

  // Returns an index, [index, amount] or an action object.
  choose(request) {
    throw new Error('define choose(request) or pass { choose } to Bot');
  }

  onHello(msg) {}
  onStart(msg) {}
  onEnd(msg) {}
  // A fault of ours; by default said on stderr.
  onError(msg) {
    process.stderr.write('referee says: ' + msg.message + '\n');
  }
  onBye(msg) {}
  onMessage(msg) {}

  // mulberry32: a small seeded generator, uniform in [0, 1).
  random() {
    this.seed = (this.seed + 0x6d2b79f5) >>> 0;
    let t = this.seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  // A uniformly random legal [index, amount]; amount null if fixed.
  randomChoice(request) {
    const i = Math.floor(this.random() * request.legal.length);
    const r = amountRange(request.legal[i]);
    return [i, r === null ? null : r[0] + Math.floor(this.random() * (r[1] - r[0] + 1))];
  }

  // Milliseconds left to answer request, counted from its arrival.
  timeLeft(request) {
    return (request.time_left_ms || 0) - (Date.now() - this.received);
  }

  usage() {
    return 'usage: ' + require('path').basename(process.argv[1] || 'bot') +
      ' [--seed N] [--wants LIST]';
  }

  // Adds a line to the "debug" text of the answer being chosen.
  say(text) {
    this.said.push(String(text));
  }

  // Reads --seed N (or -s N), --wants LIST, --help and --version; exits on
  // anything else.
  parseArgs(args) {
    for (let i = 0; i < args.length; i++) {
      if (args[i] === '--help' || args[i] === '-h') {
        process.stdout.write(this.usage() + '\nA cardarena bot: speaks the ' +
          'protocol (protocol.md) on stdin and stdout.\n' +
          '  --seed N      the seed of its random choices\n' +
          '  --wants LIST  ask only for these parts of each request, of ' +
          'view,events,legal\n' +
          '  --version     its version and the protocol\'s\n' +
          'Exit status: 0 after the referee\'s bye or the end of its ' +
          'input, 1 when\nchoose() threw or the referee went away, 2 for ' +
          'a bad command line.\n');
        process.exit(0);
      } else if (args[i] === '--version') {
        process.stdout.write(this.name + ' ' + this.version +
          ' (cardarena JS SDK), protocol ' + PROTOCOL + '\n');
        process.exit(0);
      } else if (args[i] === '--wants' && i + 1 < args.length) {
        const parts = args[++i].split(',').filter((w) => w !== '');
        if (parts.some((w) => !['view', 'events', 'legal'].includes(w))) {
          process.stderr.write(this.name + ': --wants ' + args[i] +
            ': not a list of view, events and legal\n');
          process.exit(2);
        }
        this.wants = parts;
      } else if ((args[i] === '--seed' || args[i] === '-s') && i + 1 < args.length) {
        const v = Number(args[++i]);
        if (!Number.isInteger(v)) {
          process.stderr.write(this.name + ': --seed ' + args[i] +
            ': not a whole number\n');
          process.exit(2);
        }
        this.seed = this.baseSeed = v >>> 0;
      } else {
        process.stderr.write(this.name + ': ' +
          (args[i] === '--seed' || args[i] === '-s' ?
            'a value is missing after ' : 'unknown option ') + args[i] +
          ' (see ' + require('path').basename(process.argv[1] || 'bot') +
          ' --help)\n');
        process.exit(2);
      }
    }
  }

  // Writes one message line.
  send(obj) {
    process.stdout.write(JSON.stringify(obj) + '\n');
  }

  // Turns choose()'s result into the answer message.
  answer(request, choice) {
    const ans = { id: request.id };
    let index = choice;
    let amount = null;
    if (Array.isArray(choice)) {
      [index, amount] = choice;
    } else if (choice !== null && typeof choice === 'object') {
      ans.action = choice;
      return ans;
    }
    if (!Number.isInteger(index)) {
      throw new TypeError('choose() returned ' + JSON.stringify(choice) +
        ', not an index, [index, amount] or an action object');
    }
    ans.index = index;
    if (amount !== null && amount !== undefined) {
      ans.amount = Math.trunc(amount);
    } else if (index >= 0 && index < request.legal.length &&
      amountRange(request.legal[index]) !== null) {
      throw new Error('legal entry ' + index + ' is ranged: choose() must ' +
        'return [index, amount]');
    }
    return ans;
  }

  // Handles one message; resolves to false once the match is over.
  async handle(msg) {
    switch (msg.type) {
      case 'hello':
        this.hello = msg;
        this.game = msg.game;
        this.options = msg.options || {};
        this.players = msg.players;
        this.limits = msg.limits || {};
        this.seat = msg.seat;
        // the match's nonce (16 hex digits), folded to 32 bits
        this.nonce = typeof msg.nonce === 'string'
          ? ((parseInt(msg.nonce.slice(0, 8), 16) ^
            parseInt(msg.nonce.slice(8, 16), 16)) >>> 0) || 0
          : 0;
        this.send(this.wants === null
          ? { type: 'hello', name: this.name, version: this.version }
          : { type: 'hello', name: this.name, version: this.version, wants: this.wants });
        this.onHello(msg);
        break;
      case 'start':
        if (msg.seat !== undefined) this.seat = msg.seat;
        // Each game's moves depend on (seed, game) alone, so a game
        // replayed alone (a resumed tournament) is the same game.
        this.seed = (this.baseSeed ^ this.nonce ^
          Math.imul((msg.game | 0) + 1, 0x9e3779b1)) >>> 0;
        this.onStart(msg);
        break;
      case 'request': {
        this.said = [];
        const ans = this.answer(msg, await this.choose(msg, this));
        if (this.said.length > 0) ans.debug = this.said.join('\n');
        this.said = [];
        this.send(ans);
        break;
      }
      case 'end':
        this.onEnd(msg);
        break;
      case 'error':
        this.onError(msg);
        break;
      case 'bye':
        this.onBye(msg);
        return false;
      default:
        this.onMessage(msg);
    }
    return true;
  }

  // Runs the protocol loop until "bye" or the end of input.
  async play(input = process.stdin) {
    const rl = readline.createInterface({ input, crlfDelay: Infinity });
    // An end nobody reads is not parsed (the referee writes the type first).
    const skipEnd = this.onEnd === Bot.prototype.onEnd;
    for await (const line of rl) {
      this.received = Date.now();
      if (skipEnd && line.startsWith('{"type":"end"')) continue;
      if (line.trim() === '') continue;
      let msg;
      try {
        msg = JSON.parse(line);
      } catch (e) {
        process.stderr.write(this.name + ': unreadable message from the ' +
          'referee: ' + e.message + '\n');
        continue;
      }
      if (msg !== null && typeof msg === 'object' && !(await this.handle(msg))) break;
    }
    rl.close();
    input.destroy();
  }

  // Parses the command line and plays; the process then ends by itself.
  main(argv = process.argv.slice(2)) {
    this.parseArgs(argv);
    // The referee gone: nothing left to tell it.
    process.stdout.on('error', () => process.exit(1));
    this.play().catch((e) => {
      process.stderr.write((e && e.stack ? e.stack : String(e)) + '\n');
      process.exit(1);
    });
  }
}

// Runs a bot whose choose(request, bot) is a plain function.
function run(choose, opts = {}) {
  new Bot(Object.assign({}, opts, { choose })).main(opts.argv);
}

module.exports = { Bot, run, amountRange };
