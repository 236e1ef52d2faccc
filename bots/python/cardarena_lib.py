"""cardarena_lib: the rules engines of cardarena from Python (ctypes over
libcardarena.so, standard library only), for search and learning bots.

The same operations as the C library (cardarena.h):

    import cardarena_lib as ca

    g = ca.Game("daifugo", players=5, options={"deals": 2}, seed=1)
    while not g.over():
        p = g.deciders()[0]
        entry = g.legal(p)[0]              # Legal(code, lo, hi, ranged)
        g.apply(p, entry.code, entry.lo if entry.ranged else 0)
    places, scores = g.result()

    view = ca.View(request["view"])        # a seat's view, parsed once
    d = ca.Game(game, players, options)    # the match's rules
    d.determinize(seat, view)              # a full game that view allows
    d.playout()                            # uniformly random to the end

Game(name, players=0, options=None, seed=0): options is a dict (or JSON
text) as a hello's "options" gives it, None for the defaults; players 0
is the game's default (or the options' "players").  A Game is also
clone(), copy_from(other), seed(n), legal(player), apply(player, code,
amount), default_action(player), deciders() (a list of seats), over(),
result(), check(), playout(max_actions), view(seat) (a dict; ALL for the
all-seeing view), view_json(seat) (the text, byte for byte the
referee's), legal_json(player), action_json(player, code, amount),
action_parse(player, action).  Errors raise CardarenaError.

The library is found from $CARDARENA_LIB, beside this file's repository
(lib/libcardarena.so) or installation (PREFIX/lib), or by the loader.
"""
import ctypes
import ctypes.util
import json
import os

__all__ = ["Game", "View", "Legal", "CardarenaError", "games", "ALL",
           "MAX_LEGAL", "library"]

ALL = -1
MAX_LEGAL = 8192
MAX_PLAYERS = 12


class CardarenaError(Exception):
    """A refused game, option, view or action."""


class Legal(ctypes.Structure):
    """One legal entry: code, and [lo, hi] when ranged."""
    _fields_ = [("code", ctypes.c_int64), ("lo", ctypes.c_int32),
                ("hi", ctypes.c_int32), ("ranged", ctypes.c_int32)]

    def __repr__(self):
        if self.ranged:
            return "Legal(%d, %d..%d)" % (self.code, self.lo, self.hi)
        return "Legal(%d)" % self.code


def _find():
    """The path of libcardarena.so to load."""
    env = os.environ.get("CARDARENA_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    for rel in ("../../lib/libcardarena.so",          # the repository
                "../../../../lib/libcardarena.so"):   # PREFIX/share/...
        path = os.path.normpath(os.path.join(here, rel))
        if os.path.exists(path):
            return path
    found = ctypes.util.find_library("cardarena")
    if found is None:
        raise CardarenaError("libcardarena.so not found (make, or set "
                             "CARDARENA_LIB)")
    return found


def _load():
    """Loads the library and declares its functions."""
    lib = ctypes.CDLL(_find())
    g, v = ctypes.c_void_p, ctypes.c_void_p
    i, i32, i64, u32 = (ctypes.c_int, ctypes.c_int32, ctypes.c_int64,
                        ctypes.c_uint32)
    s, sz, cs = ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p
    text = ctypes.c_void_p     # char * the caller frees
    decl = {
        "ca_game_name": (cs, [i]),
        "ca_new": (g, [cs, i, cs, ctypes.c_uint64, s, sz]),
        "ca_clone": (g, [g]),
        "ca_copy": (i, [g, g]),
        "ca_free": (None, [g]),
        "ca_seed": (None, [g, ctypes.c_uint64]),
        "ca_name": (cs, [g]),
        "ca_players": (i, [g]),
        "ca_deciders": (u32, [g]),
        "ca_over": (i, [g]),
        "ca_legal": (i, [g, i, ctypes.POINTER(Legal), i]),
        "ca_apply": (i, [g, i, i64, i32]),
        "ca_default_action": (i, [g, i, ctypes.POINTER(i64),
                                  ctypes.POINTER(i32)]),
        "ca_playout": (ctypes.c_long, [g, ctypes.c_long]),
        "ca_result": (i, [g, ctypes.POINTER(i),
                          ctypes.POINTER(ctypes.c_double)]),
        "ca_check": (i, [g, s, sz]),
        "ca_view_json": (text, [g, i]),
        "ca_legal_json": (text, [g, i]),
        "ca_action_json": (text, [g, i, i64, i32]),
        "ca_action_parse": (i, [g, i, cs, ctypes.POINTER(i64),
                                ctypes.POINTER(i32), s, sz]),
        "ca_text_free": (None, [text]),
        "ca_view_parse": (v, [cs, s, sz]),
        "ca_view_free": (None, [v]),
        "ca_determinize": (i, [g, i, v, s, sz]),
    }
    for name, (res, args) in decl.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    return lib


library = _load()


def _text(ptr):
    """A str from a char * of the library, which is then freed."""
    if not ptr:
        raise CardarenaError("no text (a bad seat?)")
    try:
        return ctypes.string_at(ptr).decode()
    finally:
        library.ca_text_free(ptr)


def games():
    """The ids of the games."""
    out, i = [], 0
    while True:
        name = library.ca_game_name(i)
        if name is None:
            return out
        out.append(name.decode())
        i += 1


class View:
    """A seat's view (a dict or its JSON text), parsed once for many
    determinizations."""

    def __init__(self, view):
        text = view if isinstance(view, str) else json.dumps(view)
        err = ctypes.create_string_buffer(256)
        self._h = library.ca_view_parse(text.encode(), err, len(err))
        if not self._h:
            raise CardarenaError(err.value.decode())

    def __del__(self):
        if getattr(self, "_h", None):
            library.ca_view_free(self._h)
            self._h = None


class Game:
    """One game in progress: rules, options, state and generator."""

    def __init__(self, name, players=0, options=None, seed=0, _handle=None):
        if _handle is not None:
            self._h = _handle
        else:
            if isinstance(options, dict):
                options = json.dumps(options)
            err = ctypes.create_string_buffer(256)
            self._h = library.ca_new(
                name.encode(), players,
                options.encode() if options is not None else None,
                seed & (2 ** 64 - 1), err, len(err))
            if not self._h:
                raise CardarenaError(err.value.decode())
        self.name = library.ca_name(self._h).decode()
        self.players = library.ca_players(self._h)
        self._legal = (Legal * MAX_LEGAL)()

    def __del__(self):
        if getattr(self, "_h", None):
            library.ca_free(self._h)
            self._h = None

    def clone(self):
        """A copy (state and generator)."""
        h = library.ca_clone(self._h)
        if not h:
            raise MemoryError
        return Game(self.name, _handle=h)

    def copy_from(self, other):
        """Takes other's state and generator (a game of the same rules)."""
        if library.ca_copy(self._h, other._h) != 0:
            raise CardarenaError("copy_from: not the same game")

    def seed(self, n):
        """Re-seeds the generator."""
        library.ca_seed(self._h, n & (2 ** 64 - 1))

    def deciders(self):
        """The seats that must decide now ([] once over)."""
        d = library.ca_deciders(self._h)
        return [p for p in range(self.players) if d >> p & 1]

    def over(self):
        return library.ca_over(self._h) != 0

    def legal(self, player):
        """player's legal entries: a list of Legal."""
        n = library.ca_legal(self._h, player, self._legal, MAX_LEGAL)
        return [Legal(e.code, e.lo, e.hi, e.ranged)
                for e in self._legal[:n]]

    def apply(self, player, code, amount=0):
        """Plays an action; raises CardarenaError if it is not legal."""
        if library.ca_apply(self._h, player, code, amount) != 0:
            raise CardarenaError("illegal action %d (amount %d) of %d"
                                 % (code, amount, player))

    def default_action(self, player):
        """The game's move for a decider: (code, amount)."""
        code, amount = ctypes.c_int64(), ctypes.c_int32()
        if library.ca_default_action(self._h, player, ctypes.byref(code),
                                     ctypes.byref(amount)) != 0:
            raise CardarenaError("%d does not decide now" % player)
        return code.value, amount.value

    def playout(self, max_actions=0):
        """Plays on by uniformly random legal actions; their number."""
        n = library.ca_playout(self._h, max_actions)
        if n < 0:
            raise CardarenaError("playout: a decider had no move")
        return n

    def result(self):
        """(places, scores) of a finished game."""
        places = (ctypes.c_int * MAX_PLAYERS)()
        scores = (ctypes.c_double * MAX_PLAYERS)()
        if library.ca_result(self._h, places, scores) != 0:
            raise CardarenaError("the game is not over")
        return list(places[:self.players]), list(scores[:self.players])

    def check(self):
        """Raises CardarenaError if an invariant is broken."""
        err = ctypes.create_string_buffer(256)
        if library.ca_check(self._h, err, len(err)) != 0:
            raise CardarenaError(err.value.decode())

    def view_json(self, seat=ALL):
        """seat's view as the referee sends it (ALL: everything)."""
        return _text(library.ca_view_json(self._h, seat))

    def view(self, seat=ALL):
        return json.loads(self.view_json(seat))

    def legal_json(self, player):
        return json.loads(_text(library.ca_legal_json(self._h, player)))

    def action_json(self, player, code, amount=0):
        return json.loads(_text(library.ca_action_json(self._h, player,
                                                       code, amount)))

    def action_parse(self, player, action):
        """(code, amount) of an action (a dict or its JSON text)."""
        text = action if isinstance(action, str) else json.dumps(action)
        code, amount = ctypes.c_int64(), ctypes.c_int32()
        err = ctypes.create_string_buffer(256)
        if library.ca_action_parse(self._h, player, text.encode(),
                                   ctypes.byref(code), ctypes.byref(amount),
                                   err, len(err)) != 0:
            raise CardarenaError(err.value.decode())
        return code.value, amount.value

    def determinize(self, seat, view):
        """Makes this a full game consistent with seat's view (a View, a
        dict or JSON text), the hidden parts drawn at random."""
        if not isinstance(view, View):
            view = View(view)
        err = ctypes.create_string_buffer(256)
        if library.ca_determinize(self._h, seat, view._h, err,
                                  len(err)) != 0:
            raise CardarenaError(err.value.decode())
