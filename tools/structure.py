"""The structure checks of issue 27, run by tests/structure.bats:
  python3 tools/structure.py includes   include circles among the tree's
                                        own headers (none expected)
  python3 tools/structure.py lengths N  functions over N lines outside
                                        tests/ (KNF: a function's name at
                                        column 0, its body's braces too)
  python3 tools/structure.py units DIR...
                                        circles between units (a unit: a
                                        .c and its .h, as its object file
                                        in DIR; A uses B when A's object
                                        calls or reads a symbol B's
                                        defines, by nm(1))
  python3 tools/structure.py floors     includes from a folder to one not
                                        below it (the floors in
                                        HACKING.md's "## Floors", the
                                        include path in the Makefile's
                                        -I flags), and folders with no
                                        floor
Each prints what it finds, one per line, and exits 1 if it found any."""
import os
import re
import subprocess
import sys

DIRS = ["referee", "tools", "tournaments", "bots"]


def sources():
    out = subprocess.run(["git", "ls-files"] + DIRS, capture_output=True,
                         text=True, check=True).stdout.split()
    return [p for p in out if p.endswith((".c", ".h"))]


def includes():
    """Header include cycles (by file name: the tree's -I flags make a
    header's name its identity)."""
    graph = {}
    for p in sources():
        if not p.endswith(".h"):
            continue
        for line in open(p, errors="replace"):
            m = re.match(r'#include "([^"]+)"', line)
            if m:
                graph.setdefault(os.path.basename(p), set()).add(
                    os.path.basename(m.group(1)))
    found, state = [], {}

    def visit(u, stack):
        state[u] = 1
        stack.append(u)
        for v in sorted(graph.get(u, ())):
            if state.get(v) == 1:
                found.append(" -> ".join(stack[stack.index(v):] + [v]))
            elif v not in state:
                visit(v, stack)
        stack.pop()
        state[u] = 2

    for u in sorted(graph):
        if u not in state:
            visit(u, [])
    return found


def lengths(limit):
    """Functions longer than limit lines."""
    found = []
    for p in sources():
        if not p.endswith(".c"):
            continue
        name = start = None
        body = False
        for n, line in enumerate(open(p, errors="replace"), 1):
            if not body and re.match(r"[A-Za-z_]\w*\(", line):
                name, start = line.split("(")[0], n
            elif line.startswith("{") and start is not None:
                body = True
            elif line.startswith("}") and body:
                if n - start + 1 > limit:
                    found.append("%s:%d %s: %d lines" % (p, start, name,
                                                        n - start + 1))
                body, start = False, None
            elif not body and line.rstrip().endswith(";"):
                start = None
    return found


def units(dirs):
    """Circles among the units whose object files are in dirs: one line
    per circle (its units in order), then one per use within it."""
    defs, uses = {}, {}
    for d in dirs:
        for f in sorted(os.listdir(d)):
            if not f.endswith(".o"):
                continue
            unit = os.path.join(d, f[:-2])
            out = subprocess.run(["nm", "-P", os.path.join(d, f)],
                                 capture_output=True, text=True,
                                 check=True).stdout
            for line in out.splitlines():
                w = line.split()
                if len(w) < 2:
                    continue
                if w[1] in ("T", "D", "B", "R", "C"):
                    defs[w[0]] = unit
                elif w[1] == "U":
                    uses.setdefault(unit, set()).add(w[0])
    graph = {}
    for u, names in uses.items():
        for n in names:
            if defs.get(n, u) != u:
                graph.setdefault(u, {}).setdefault(defs[n], []).append(n)
    # Tarjan's strongly connected components: each of two or more units
    # is a circle
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comp.sort()
                found.append("circle: " + " ".join(comp))
                for a in comp:
                    for b in sorted(graph.get(a, {})):
                        if b in comp:
                            found.append("  %s -> %s (%s)" % (
                                a, b, ", ".join(sorted(graph[a][b]))))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def floors():
    """Includes that go up or sideways between folders: a file of folder A
    may include headers of A and of folders on lower floors only."""
    floor, sect = {}, False
    for line in open("HACKING.md"):
        if line.startswith("## "):
            sect = line.strip() == "## Floors"
            continue
        m = re.match(r"\s+(\d+)\s+(\S.*)$", line) if sect else None
        if m:
            for d in m.group(2).split():
                floor[d] = int(m.group(1))
    inc = []
    for line in open("Makefile"):
        if re.match(r"CFLAGS\s*\+?=", line):
            inc += re.findall(r"-I(\S+)", line)
    files = set(sources())
    found = []
    for d in sorted({os.path.dirname(p) for p in files}):
        if d not in floor:
            found.append("%s: no floor in HACKING.md" % d)
    for p in sorted(files):
        a = os.path.dirname(p)
        for n, line in enumerate(open(p, errors="replace"), 1):
            m = re.match(r'#include "([^"]+)"', line)
            if not m:
                continue
            for d in [a] + inc:
                q = os.path.normpath(os.path.join(d, m.group(1)))
                if q in files:
                    break
            else:
                continue
            b = os.path.dirname(q)
            if b != a and a in floor and b in floor and \
                    floor[b] >= floor[a]:
                found.append("%s:%d includes %s: floor %d, not below %s's %d"
                             % (p, n, q, floor[b], a, floor[a]))
    return found


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "includes":
        res = includes()
    elif what == "lengths" and len(sys.argv) == 3:
        res = lengths(int(sys.argv[2]))
    elif what == "floors" and len(sys.argv) == 2:
        res = floors()
    elif what == "units" and len(sys.argv) > 2:
        res = units(sys.argv[2:])
    else:
        sys.exit(__doc__)
    for r in res:
        print(r)
    sys.exit(1 if res else 0)
