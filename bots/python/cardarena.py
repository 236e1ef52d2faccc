"""cardarena: the Python bot SDK (standard library only).

It runs the protocol loop of protocol.md on stdin and stdout (the
handshake, one answer line per request, flushed; errors, ends and "bye"),
so a bot only chooses.  Either subclass Bot and define choose():

    import cardarena

    class MyBot(cardarena.Bot):
        name = "my-bot"

        def choose(self, request):
            return 0                  # the index of a legal entry

    if __name__ == "__main__":
        MyBot().main()

or pass a function:  cardarena.run(lambda request: 0, name="my-bot").

choose(request) returns one of:
  - an int: the index of an entry of request["legal"];
  - a pair (index, amount): for a ranged entry (its "amount" is
    {"min": lo, "max": hi}), where the amount is required;
  - a dict: the action itself, by value (a legal entry with a whole amount
    in place of a range), sent as {"id": N, "action": {...}}.

A bot that reads only some parts of a request lists them in its class's
`wants` (or run(..., wants=[...]), or its user with --wants LIST on the
command line, e.g. --wants legal): of "view", "events" and "legal"; the
referee then leaves the others out of its requests (and of start and
end), so there is less to read.  By default (None) it sends them all.

The request is a dict (the message as the referee sent it: "id", "game",
"seat", "view", "events", "legal", "time_left_ms") with helpers: .bot (the
Bot), .amount_range(i), .time_left(), .random_choice() and .say(text),
which sends text with the answer as its "debug" (the replays show it
beside the move).  The bot keeps
the handshake (.hello, .game, .options, .players, .limits), its seat in
the current game (.seat) and a generator seeded by --seed N (.rng),
reseeded at each game's start from (N, the match's nonce, game): the
hello's public "nonce" differs between matches, so a seeded bot plays
the same in a match run again but differently in another match.

An exception in choose() is not caught: the bot exits with the traceback
on stderr, and the referee counts an "exit" fault.  Anything printed on
stderr is saved by the referee (protocol.md, "Standard error"); never
print to stdout yourself.
"""
import json
import os
import random
import sys
import time

__all__ = ["Bot", "Request", "run", "amount_range"]

PROTOCOL = 1


def amount_range(entry):
    """Returns (lo, hi) when a legal entry is ranged, else None."""
    amount = entry.get("amount") if isinstance(entry, dict) else None
    if isinstance(amount, dict):
        return amount["min"], amount["max"]
    return None


class Request(dict):
    """A request message as a dict, with helpers bound to its bot."""

    def __init__(self, msg, bot, received):
        super().__init__(msg)
        self.bot = bot
        self.received = received
        self.said = []

    def say(self, text):
        """Adds a line to the answer's "debug" text (shown in replays)."""
        self.said.append(str(text))

    @property
    def legal(self):
        """The legal entries."""
        return self["legal"]

    @property
    def view(self):
        """Everything this seat may know now."""
        return self.get("view", {})

    @property
    def events(self):
        """What happened since this bot's previous request."""
        return self.get("events", [])

    def amount_range(self, i):
        """(lo, hi) when legal entry i is ranged, else None."""
        return amount_range(self["legal"][i])

    def time_left(self):
        """Seconds left to answer, counted from the request's arrival."""
        limit = self.get("time_left_ms", 0) / 1000.0
        return limit - (time.monotonic() - self.received)

    def random_choice(self):
        """A uniformly random legal (index, amount); amount None if fixed."""
        rng = self.bot.rng
        i = rng.randrange(len(self["legal"]))
        r = self.amount_range(i)
        return i, (rng.randint(r[0], r[1]) if r is not None else None)


class Bot:
    """A cardarena bot: override choose(); the other hooks are optional."""

    name = "python-bot"
    version = "1"
    wants = None        # the parts of a request read; None: all of them

    def __init__(self, name=None, version=None, choose=None, wants=None):
        if name is not None:
            self.name = name
        if version is not None:
            self.version = version
        if wants is not None:
            self.wants = list(wants)
        self._choose = choose
        self.hello = None
        self.game = None
        self.options = {}
        self.players = None
        self.limits = {}
        self.seat = None
        self.seed = None
        self.nonce = 0
        self.rng = random.Random()
        self._out = sys.stdout

    # The hooks a bot may override.

    def choose(self, request):
        """Returns an index, (index, amount) or an action dict."""
        if self._choose is None:
            raise NotImplementedError("define choose(self, request) or "
                                      "pass choose= to Bot()")
        return self._choose(request)

    def on_hello(self, msg):
        """The referee's hello (after it was answered)."""

    def on_start(self, msg):
        """A game starts; self.seat is already this game's seat."""

    def on_end(self, msg):
        """A game ended: msg has "places", "scores" and the final "view"."""

    def on_error(self, msg):
        """A fault of ours; by default said on stderr."""
        print("referee says:", msg.get("message"), file=sys.stderr)
        sys.stderr.flush()

    def on_bye(self, msg):
        """The match is over; the loop returns after this."""

    def on_message(self, msg):
        """A message of a type this SDK does not know (ignored)."""

    # The loop.

    def usage(self):
        """The one-line usage of the bot program."""
        return ("usage: %s [--seed N] [--wants LIST]"
                % sys.argv[0].rsplit("/", 1)[-1])

    def parse_args(self, args):
        """Reads --seed N (or -s N), --wants LIST and --help; exits on
        anything else."""
        seed = None
        i = 0
        while i < len(args):
            a = args[i]
            if a in ("-h", "--help"):
                print(self.usage())
                print("A cardarena bot: speaks the protocol (protocol.md) "
                      "on stdin and stdout.\n"
                      "  --seed N      the seed of its random choices\n"
                      "  --wants LIST  ask only for these parts of each "
                      "request, of view,events,legal\n"
                      "  --version     its version and the protocol's\n"
                      "Exit status: 0 after the referee's bye or the end "
                      "of its input, 1 when\nchoose() raised or the "
                      "referee went away, 2 for a bad command line.")
                sys.exit(0)
            if a == "--version":
                print("%s %s (cardarena Python SDK), protocol %d"
                      % (self.name, self.version, PROTOCOL))
                sys.exit(0)
            if a == "--wants" and i + 1 < len(args):
                parts = [w for w in args[i + 1].split(",") if w]
                if any(w not in ("view", "events", "legal") for w in parts):
                    print("%s: --wants %s: not a list of view, events "
                          "and legal" % (self.name, args[i + 1]),
                          file=sys.stderr)
                    sys.exit(2)
                self.wants = parts
                i += 2
                continue
            if a in ("-s", "--seed") and i + 1 < len(args):
                try:
                    seed = int(args[i + 1])
                except ValueError:
                    print("%s: --seed %s: not a whole number"
                          % (self.name, args[i + 1]), file=sys.stderr)
                    sys.exit(2)
                i += 2
                continue
            print("%s: %s %s (see %s --help)"
                  % (self.name, "a value is missing after"
                     if a in ("-s", "--seed") else "unknown option", a,
                     sys.argv[0].rsplit("/", 1)[-1]), file=sys.stderr)
            sys.exit(2)
        self.seed = seed
        self.rng = random.Random(seed)

    def send(self, obj):
        """Writes one message line and flushes it."""
        self._out.write(json.dumps(obj, separators=(",", ":")) + "\n")
        self._out.flush()

    def answer(self, request, choice):
        """Turns choose()'s result into the answer message."""
        ans = {"id": request["id"]}
        if isinstance(choice, dict):
            ans["action"] = choice
            return ans
        if isinstance(choice, (tuple, list)):
            index, amount = choice
        else:
            index, amount = choice, None
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError("choose() returned %r, not an index, "
                            "(index, amount) or an action dict"
                            % (choice,))
        ans["index"] = index
        if amount is not None:
            ans["amount"] = int(amount)
        elif (0 <= index < len(request["legal"]) and
              request.amount_range(index) is not None):
            raise ValueError("legal entry %d is ranged: choose() must "
                             "return (index, amount)" % index)
        return ans

    def handle(self, msg, received):
        """Handles one message; returns False once the match is over."""
        kind = msg.get("type")
        if kind == "hello":
            self.hello = msg
            self.game = msg.get("game")
            self.options = msg.get("options", {})
            try:
                self.nonce = int(msg.get("nonce", "0"), 16)
            except (TypeError, ValueError):
                self.nonce = 0
            self.players = msg.get("players")
            self.limits = msg.get("limits", {})
            self.seat = msg.get("seat")
            hello = {"type": "hello", "name": self.name,
                     "version": self.version}
            if self.wants is not None:
                hello["wants"] = list(self.wants)
            self.send(hello)
            self.on_hello(msg)
        elif kind == "start":
            self.seat = msg.get("seat", self.seat)
            if self.seed is not None:
                # Each game's moves depend on (seed, game) alone, so a game
                # replayed alone (a resumed tournament) is the same game.
                self.rng = random.Random((self.seed ^ self.nonce) *
                                         1000003 + int(msg.get("game", 0)))
            self.on_start(msg)
        elif kind == "request":
            request = Request(msg, self, received)
            ans = self.answer(request, self.choose(request))
            if request.said:
                ans["debug"] = "\n".join(request.said)
            self.send(ans)
        elif kind == "end":
            self.on_end(msg)
        elif kind == "error":
            self.on_error(msg)
        elif kind == "bye":
            self.on_bye(msg)
            return False
        else:
            self.on_message(msg)
        return True

    def play(self, infile=None, outfile=None):
        """Runs the protocol loop until "bye" or the end of input."""
        infile = infile if infile is not None else sys.stdin.buffer
        self._out = outfile if outfile is not None else sys.stdout
        # An end nobody reads is not parsed (the referee writes the type
        # first).
        skip_end = type(self).on_end is Bot.on_end
        for line in infile:
            received = time.monotonic()
            if skip_end and line.startswith(b'{"type":"end"'):
                continue
            if not line.strip():
                continue
            try:
                msg = json.loads(line)
            except ValueError as e:
                print("%s: unreadable message from the referee: %s"
                      % (self.name, e), file=sys.stderr)
                continue
            if isinstance(msg, dict) and not self.handle(msg, received):
                break

    def main(self, argv=None):
        """Parses the command line, plays, and exits (status 0)."""
        self.parse_args(sys.argv[1:] if argv is None else argv)
        try:
            self.play()
        except BrokenPipeError:
            # The referee is gone: nothing left to tell it, and the
            # interpreter's own flush at exit must not fail again.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(1)
        sys.exit(0)


def run(choose, name="python-bot", version="1", argv=None, wants=None):
    """Runs a bot whose choose(request) is a plain function; wants: the
    parts of a request it reads (None: all)."""
    Bot(name=name, version=version, choose=choose, wants=wants).main(argv)
