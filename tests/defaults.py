#!/usr/bin/env python3
"""The tournament file's defaults, three ways: README's table, the
"Default ..." sentence of each key of cardarena-tournament(5), and what
the parser fills in (`tournament schedule --settings` of a file that
names only "game" and "bots").  Every key must be in all three, and for
each the two documents must name the value the parser fills in: a
number, true or false, a word ("auto", "lean"), out/NAME, the file's
name, or null for "the referee's", "none", a fresh secret seed and the
tables computed later.  Prints one line per disagreement; exit 1 if any.

usage: defaults.py README.md cardarena-tournament.5 SETTINGS.json NAME
"""
import json
import re
import sys

REQUIRED = object()
GAMES = object()        # the game's own (options, seats)


def value(phrase, name):
    """The value a default's phrase names (REQUIRED, GAMES or JSON)."""
    p = re.sub(r'[`"()]', '', phrase).strip()
    low = p.lower()
    if low.startswith("required"):
        return REQUIRED
    if low.startswith("the game's"):
        return GAMES
    for nothing in ("the referee's", "none", "a fresh secret", "see below",
                    "the fewest", "$cardarena_referee", "cardarena_referee"):
        if low.startswith(nothing):
            return None
    if low.startswith("out/"):
        return "out/" + name
    if low.startswith("the file"):
        return name
    if re.match(r"\d+\b", p):
        return int(re.match(r"\d+", p).group(0))
    word = re.match(r"[a-z_]+", low)
    if word is None or low.startswith("no default sentence"):
        return "(no value in: %s)" % phrase
    return {"true": True, "false": False}.get(word.group(0), word.group(0))


def split(keys, phrase):
    """The phrase of a row of several keys: one each (by ';') or shared."""
    parts = [s.strip() for s in phrase.split(";")]
    if len(keys) > 1 and len(parts) == len(keys):
        return dict(zip(keys, parts))
    return {k: phrase for k in keys}


def readme(path):
    """key -> phrase of README's section "### The tournament file"."""
    text = open(path).read()
    sec = text.split("### The tournament file", 1)[1].split("\n### ", 1)[0]
    out = {}
    for line in sec.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        keys = re.findall(r"`([a-z_]+)`", cells[0])
        out.update(split(keys, cells[-1]))
    return out


def man(path):
    """key -> phrase of the "Default" sentence of each .It Cm item."""
    src = open(path).read().split(".Sh DESCRIPTION", 1)[1]
    src = src.split("\n.El", 1)[0]
    out = {}
    for item in src.split("\n.It Cm ")[1:]:
        head, _, body = item.partition("\n")
        keys = re.findall(r"[a-z_]+", head)
        words = []
        for line in body.splitlines():
            if line.startswith("."):
                line = re.sub(r"\s*\bNs\b\s*", "", line[1:])
                line = " ".join(w for w in line.split()
                                if not re.fullmatch(r"[A-Z][a-z]{1,2}", w))
            words.append(line)
        text = re.sub(r"\s+([.,;)])", r"\1", " ".join(words))
        m = re.search(r"\bDefault:?\s+(.*?)\.(?:\s|$)", text)
        if m is None and "Required" in text:
            m = re.match(r"(.*)", "required")
        out.update(split(keys, m.group(1) if m else "no Default sentence"))
    return out


def main():
    rd, mn = readme(sys.argv[1]), man(sys.argv[2])
    settings = json.load(open(sys.argv[3]))
    name = sys.argv[4]
    bad = []
    for doc, got in (("README", rd), ("tournament(5)", mn)):
        for k in sorted(set(settings) ^ set(got)):
            bad.append("%s: key %s %s" % (doc, k, "missing" if k in settings
                                             else "unknown to the parser"))
    for k in sorted(set(settings) & set(rd) & set(mn)):
        a, b = value(rd[k], name), value(mn[k], name)
        if a is not b and a != b:
            bad.append("%s: README says %r (%s), tournament(5) %r (%s)" %
                       (k, a, rd[k], b, mn[k]))
        if a is REQUIRED:
            continue
        s = settings[k]
        ok = (isinstance(s, (dict, int)) and s is not None) \
            if a is GAMES else (s == a and type(s) is type(a))
        if not ok:
            bad.append("%s: the documents say %r (%s), the parser fills "
                       "in %r" % (k, a, rd[k], s))
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
