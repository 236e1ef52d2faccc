#!/usr/bin/env python3
"""The hostile corpus of tests/hostile.bats: each MODE attacks the referee,
the other bots or the machine in one way.

usage: bot.py MODE MARKER [ARG]

MARKER goes on the command line of every process the bot starts, so the
test can tell with pgrep that none is left.  Attempts that must fail under
--sandbox (or under a bot's own uid) write one line "MODE: RESULT" to
stderr, which the test reads from the bot's stderr file after the match.
Otherwise the bot plays the first legal entry, so a test can tell a fault
from a bad move.

  forkbomb     a child forks without end (each fork sleeps); plays
  memhog       allocates 16 MiB blocks until it dies; never answers
  spin         spins the CPU from the start; never answers the hello
  setsid       a grandchild calls setsid() and sleeps holding the pipes
  daemon       double-forks a daemon (setsid, closes nothing); plays
  ignorer      ignores SIGTERM and SIGHUP, stays after bye
  errflood     writes to stderr without end, playing meanwhile
  outflood     answers, then floods valid-looking answer lines
  halfline     half a line, then sleeps
  bigline      a 50 MB line
  badutf8      answers with invalid UTF-8
  nesting      answers with JSON nested 100000 deep
  hugenum      answers with an index of 400 digits
  dupkeys      answers with "index" twice
  wrongid      answers with an id not asked
  early        sends an answer before any request, then plays
  closein      closes its stdin at once and sleeps
  noread       answers the hello, then never reads its stdin again
  readfile     tries to read the file ARG (a log, another bot's stderr);
               ARG $NAME: the path in its environment's NAME (a path
               the bot builds itself, which its command does not name)
  writeout     tries to create a file in ARG (a directory)
  socket       tries to connect to 127.0.0.1 port ARG and to 1.1.1.1:53
  victim       plays (the target of "signal"); its argv holds ARG
  signal       tries to kill, ptrace and open the stdin and stdout of every
               process whose command line holds ARG (the victim's marker)
  procref      tries to read the environment and descriptors of every
               process whose command line mentions "referee"
  forge        ARG is NAMES:WORD:FILE:...; writes result lines claiming
               a game won into every descriptor of every process named in
               NAMES (','-separated: referee, tournament) whose command
               line holds WORD (a tournament's 0, 1 and 2 are its
               operator's, left alone) and into the FILEs (the journal);
               plays
  comm         names itself ARG (prctl PR_SET_NAME) at its start; at bye
               looks for another process of that name in /proc; plays
  lock         at its start takes a read lock of byte 7777 of its own
               script (fcntl F_SETLK) and a shared flock of it; at bye
               asks whether another process holds a lock there (F_GETLK:
               the channel between two bots of a table); plays
  fill         writes 1 MiB files into each directory of ARG (DIR,...:MIB)
               until MIB are written or a write fails; plays
  unix         tries to connect to the unix socket ARG (a host's)
  netlink      tries to open a netlink socket (the host's routes, ...)
  iouring      tries io_uring_setup(2) (I/O behind the filter's back)
  tty          opens its controlling terminal (/dev/tty, else what fds
               0-2 are) and pushes ARG in capitals and a newline into its
               input (ioctl TIOCSTI: keystrokes typed into the operator's
               shell once the referee ends; the terminal echoes them);
               reports each try; plays
  killref      kills its parent (kill(getppid(), SIGKILL): the referee,
               unless an init of the sandbox or isolation stands between);
               plays
"""
import ctypes
import fcntl
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import time

LOCK_BYTE = 7777
held = []      # what a lock bot keeps open


def send(text):
    sys.stdout.write(text)
    sys.stdout.flush()


def report(mode, text):
    sys.stderr.write("%s: %s\n" % (mode, text))
    sys.stderr.flush()


def answer(msg):
    legal = msg["legal"]
    a = {"id": msg["id"], "index": 0}
    if isinstance(legal[0].get("amount"), dict):
        a["amount"] = legal[0]["amount"]["min"]
    return json.dumps(a)


def sleeper(marker):
    return [sys.executable, "-c", "import time; time.sleep(600)", marker]


def procs_matching(word, entry="cmdline", match=lambda w, t: w in t):
    """The pids (not ours) whose command line (or other /proc entry)
    holds word."""
    found = []
    for p in os.listdir("/proc"):
        if not p.isdigit() or int(p) == os.getpid():
            continue
        try:
            with open("/proc/%s/%s" % (p, entry), "rb") as f:
                if match(word.encode(), f.read()):
                    found.append(int(p))
        except OSError:
            pass
    return found


def attack_signal(target):
    pids = procs_matching("\0victim\0" + target)
    if not pids:
        return "no process found"
    libc = ctypes.CDLL(None, use_errno=True)
    out = []
    for p in pids:
        try:
            os.kill(p, signal.SIGKILL)
            out.append("killed %d" % p)
        except OSError as e:
            out.append("kill %d: %s" % (p, e.strerror))
        if libc.ptrace(16, p, None, None) == -1:    # PTRACE_ATTACH
            out.append("ptrace %d: %s" % (p, os.strerror(ctypes.get_errno())))
        else:
            out.append("traced %d" % p)
        # its pipes: read its requests, answer in its name (a bad line, so
        # a fault is charged to it)
        for fd, how, did in ((0, os.O_RDONLY, "stole requests of"),
                             (1, os.O_WRONLY, "answered for")):
            try:
                f = os.open("/proc/%d/fd/%d" % (p, fd), how | os.O_NONBLOCK)
                if fd == 1:
                    os.write(f, b"framed\n")
                os.close(f)
                out.append("%s %d" % (did, p))
            except OSError as e:
                out.append("fd %d of %d: %s" % (fd, p, e.strerror))
    return "; ".join(out)


def attack_procref():
    pids = procs_matching("referee")
    if not pids:
        return "no process found"
    out = []
    for p in pids:
        for what in ("environ", "fd"):
            try:
                if what == "fd":
                    fds = os.listdir("/proc/%d/fd" % p)
                    out.append("fd %d: listed %d" % (p, len(fds)))
                    for fd in fds:
                        os.open("/proc/%d/fd/%s" % (p, fd), os.O_WRONLY)
                        out.append("opened fd %s of %d" % (fd, p))
                else:
                    with open("/proc/%d/environ" % p, "rb") as f:
                        out.append("environ %d: read %d bytes"
                                   % (p, len(f.read())))
            except OSError as e:
                out.append("%s %d: %s" % (what, p, e.strerror))
    return "; ".join(out)


FORGED = (json.dumps({"type": "result", "games": 1, "names": ["FORGED"],
                       "places": [1, 2, 3], "scores": [999, 0, 0]}) + "\n"
          + json.dumps({"table": 0, "game": 0, "deal": 0, "seed": 1,
                        "bots": ["FORGED"], "places": [1, 2, 3]}) + "\n")


def programs(names):
    """(pid, program name, argv) of every process whose program (argv[0]'s
    base name) is one of names."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        name = os.path.basename(argv[0]).decode(errors="replace")
        if name in names:
            yield pid, name, argv


def attack_forge(arg):
    """Reports, per process and per file, whether a forged line went in."""
    names, word, *files = arg.split(":")
    for pid, name, argv in programs(names.split(",")):
        if word.encode() not in b"\0".join(argv):
            continue
        try:
            fds = os.listdir("/proc/%s/fd" % pid)
        except OSError as e:
            report("forge", "%s fds denied: %s" % (name, e.strerror))
            fds = [str(n) for n in range(10)]
        for fd in fds:
            if name == "tournament" and fd in ("0", "1", "2"):
                continue
            try:
                w = os.open("/proc/%s/fd/%s" % (pid, fd),
                            os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK)
                os.write(w, FORGED.encode())
                os.close(w)
                report("forge", "wrote %s fd %s" % (name, fd))
            except OSError as e:
                if e.errno != 2:
                    report("forge", "%s fd %s denied: %s"
                           % (name, fd, e.strerror))
    for path in (p for p in files if p):
        try:
            with open(path, "a") as f:
                f.write(FORGED)
            report("forge", "wrote file %s" % path)
        except OSError as e:
            report("forge", "file %s denied: %s" % (path, e.strerror))


def attempt(mode, arg):
    """The one-shot attacks: each reports what happened."""
    if mode == "readfile":
        if arg.startswith("$"):
            arg = os.environ.get(arg[1:], "")
        try:
            with open(arg, "rb") as f:
                report(mode, "read %d bytes" % len(f.read()))
        except OSError as e:
            report(mode, "denied: " + e.strerror)
    elif mode == "writeout":
        try:
            with open(os.path.join(arg, "hostile-was-here"), "w") as f:
                f.write("x")
            report(mode, "wrote")
        except OSError as e:
            report(mode, "denied: " + e.strerror)
    elif mode == "socket":
        for host, port in (("127.0.0.1", int(arg)), ("1.1.1.1", 53)):
            try:
                socket.create_connection((host, port), timeout=1).close()
                report(mode, "connected to %s" % host)
            except OSError as e:
                report(mode, "denied %s: %s" % (host, e.strerror or e))
    elif mode == "unix":
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(arg)
            report(mode, "connected: %r" % s.recv(64))
            s.close()
        except OSError as e:
            report(mode, "denied: %s" % (e.strerror or e))
    elif mode == "netlink":
        try:
            socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0).close()
            report(mode, "opened")
        except OSError as e:
            report(mode, "denied: %s" % (e.strerror or e))
    elif mode == "iouring":
        libc = ctypes.CDLL(None, use_errno=True)
        params = ctypes.create_string_buffer(120)
        nr = {"x86_64": 425, "aarch64": 425}.get(os.uname().machine, 425)
        fd = libc.syscall(nr, 4, params)
        if fd >= 0:
            os.close(fd)
            report(mode, "set up")
        else:
            report(mode, "denied: " + os.strerror(ctypes.get_errno()))
    elif mode == "keep":
        # Looks for what an earlier process (an earlier seat rotation, or
        # another bot) left in every place it can write, then leaves its
        # own there: ARG is more places, ':'-separated.
        places = ["/tmp", "/var/tmp", "/dev/shm", "/run/lock",
                  os.environ.get("HOME", ""), os.environ.get("TMPDIR", "")]
        places += [p for p in arg.split(":") if p]
        places = list(dict.fromkeys(p for p in places if p))
        name = "hostile-kept-" + sys.argv[2]
        for d in places:
            if os.path.exists(os.path.join(d, name)):
                report(mode, "found " + os.path.join(d, name))
        for d in places:
            f = os.path.join(d, name)
            try:
                with open(f, "w") as fh:
                    fh.write("the deal I saw")
                report(mode, "wrote " + f)
            except OSError as e:
                report(mode, "denied %s: %s" % (d, e.strerror))
    elif mode == "snoop":
        # What every process shows: the command lines of the referees and
        # tournaments, their environments; then the files ARG names
        # (':'-separated: the tournament file, its journal).
        for pid, name, argv in programs(("referee", "tournament")):
            report(mode, "cmdline %s" % b" ".join(argv).decode(errors="replace"))
            try:
                with open("/proc/%s/environ" % pid, "rb") as f:
                    report(mode, "environ %s read %d bytes" % (name, len(f.read())))
            except OSError as e:
                report(mode, "environ %s denied: %s" % (name, e.strerror))
        for path in (p for p in arg.split(":") if p):
            try:
                with open(path, "rb") as f:
                    report(mode, "file %s read %d bytes" % (path, len(f.read())))
            except OSError as e:
                report(mode, "file %s denied: %s" % (path, e.strerror))
    elif mode == "ns":
        # The namespaces it is in (System V and POSIX IPC, mounts, PIDs).
        report(mode, " ".join(os.readlink("/proc/self/ns/" + n)
                              for n in ("ipc", "mnt", "pid")))
    elif mode == "signal":
        report(mode, attack_signal(arg))
    elif mode == "procref":
        report(mode, attack_procref())
    elif mode == "forge":
        attack_forge(arg)
    elif mode == "comm":
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(15, ctypes.c_char_p(arg.encode()[:15]), 0, 0, 0)
    elif mode == "lock":
        lock_take()
    elif mode == "fill":
        fill(arg)
    elif mode == "tty":
        import termios
        for name in ("/dev/tty", 0, 1, 2):
            try:
                fd = os.open(name, os.O_RDWR | os.O_NOCTTY) \
                    if isinstance(name, str) else name
                for ch in (arg.upper() + "\n").encode():
                    fcntl.ioctl(fd, termios.TIOCSTI, bytes([ch]))
                report(mode, "pushed through %s" % name)
            except OSError as e:
                report(mode, "denied %s: %s" % (name, e.strerror))
    elif mode == "killref":
        try:
            os.kill(os.getppid(), signal.SIGKILL)
            report(mode, "killed %d" % os.getppid())
        except OSError as e:
            report(mode, "kill %d: %s" % (os.getppid(), e.strerror))


def lock_take():
    """Takes a read lock of LOCK_BYTE and a shared flock of this script."""
    fd = os.open(os.path.realpath(sys.argv[0]), os.O_RDONLY)
    held.append(fd)
    try:
        fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, LOCK_BYTE)
        report("lock", "holding byte %d" % LOCK_BYTE)
    except OSError as e:
        report("lock", "denied: %s" % e.strerror)
    fd2 = os.open(os.path.realpath(sys.argv[0]), os.O_RDONLY)
    held.append(fd2)
    try:
        fcntl.flock(fd2, fcntl.LOCK_SH | fcntl.LOCK_NB)
        report("flock", "holding")
    except OSError as e:
        report("flock", "denied: %s" % e.strerror)


def lock_look():
    """Whether another process holds a lock of LOCK_BYTE (F_GETLK)."""
    want = struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, LOCK_BYTE, 1, 0)
    try:
        got = fcntl.fcntl(held[0], fcntl.F_GETLK, want)
    except OSError as e:
        return "look denied: %s" % e.strerror
    kind, _, start, _, pid = struct.unpack("hhqqi4x", got)
    if kind == fcntl.F_UNLCK:
        return "none seen"
    return "seen another's lock of byte %d (pid %d)" % (start, pid)


def comm_look(name):
    """The other processes named name."""
    found = procs_matching(name, "comm", lambda w, t: w == t.strip())
    return "seen %s" % " ".join(map(str, found)) if found else "none seen"


def fill(arg):
    """Writes 1 MiB files into each directory of DIR,...:MIB."""
    dirs, mib = arg.rsplit(":", 1)
    block = b"f" * (1 << 20)
    for k, d in enumerate(dirs.split(",")):
        n = 0
        why = "done"
        try:
            while n < int(mib):
                with open("%s/hostile-fill-%d-%d-%d" % (d, os.getpid(), k, n),
                          "wb") as f:
                    f.write(block)
                n += 1
        except OSError as e:
            why = e.strerror
        report("fill", "%s %d MiB: %s" % (d, n, why))


def start_children(mode, marker):
    if mode == "forkbomb":
        if os.fork() == 0:
            n = 0
            while True:
                try:
                    if os.fork() == 0:
                        os.execv(sys.executable, sleeper(marker))
                    n += 1
                except OSError:
                    time.sleep(0.01)
    elif mode == "setsid":
        subprocess.Popen(sleeper(marker), start_new_session=True)
    elif mode == "daemon":
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv(sys.executable, sleeper(marker))
            os._exit(0)
        os.wait()
    elif mode == "ignorer":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    elif mode == "errflood":
        if os.fork() == 0:
            block = b"e" * 65536
            while True:
                os.write(2, block)


def main():
    mode, marker = sys.argv[1], sys.argv[2]
    arg = sys.argv[3] if len(sys.argv) > 3 else ""
    if mode == "closein":
        os.close(0)
        time.sleep(600)
    if mode == "spin":
        while True:
            pass
    if mode == "memhog":
        hog = []
        while True:
            hog.append(b"m" * (16 << 20))
    start_children(mode, marker)
    attempt(mode, arg)
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            send(json.dumps({"type": "hello", "name": mode}) + "\n")
            if mode == "early":
                send(json.dumps({"id": 1, "index": 0}) + "\n")
            if mode == "noread":
                time.sleep(600)
            continue
        if kind == "bye":
            if mode == "ignorer":
                time.sleep(600)
            if mode == "comm":
                report(mode, comm_look(arg[:15]))
            if mode == "lock":
                report(mode, lock_look())
            break
        if kind != "request":
            continue
        i = msg["id"]
        if mode == "outflood":
            send(answer(msg) + "\n")
            line = (json.dumps({"id": i, "index": 0}) + "\n").encode()
            try:
                while True:
                    os.write(1, line * 1000)
            except OSError:
                return
        elif mode == "halfline":
            send('{"id": %d, "ind' % i)
            time.sleep(600)
        elif mode == "bigline":
            chunk = b"x" * (1 << 20)
            for _ in range(50):
                os.write(1, chunk)
            os.write(1, b"\n")
            time.sleep(600)
        elif mode == "badutf8":
            sys.stdout.buffer.write(b'{"id": %d, "index": 0, "x": "\xff\xfe"}\n'
                                    % i)
            sys.stdout.flush()
        elif mode == "nesting":
            send('{"id": %d, "index": 0, "x": %s%s}\n'
                 % (i, "[" * 100000, "]" * 100000))
        elif mode == "hugenum":
            send('{"id": %d, "index": %s}\n' % (i, "9" * 400))
        elif mode == "dupkeys":
            send('{"id": %d, "index": 0, "index": 1}\n' % i)
        elif mode == "wrongid":
            send(json.dumps({"id": i + 1000, "index": 0}) + "\n")
        else:
            send(answer(msg) + "\n")


if __name__ == "__main__":
    main()
