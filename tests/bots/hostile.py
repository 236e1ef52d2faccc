#!/usr/bin/env python3
"""Hostile bots for tests/faults.bats: each MODE misbehaves in one way.

usage: hostile.py MODE MARKER [nochild]

Every mode first starts a grandchild (a sleeping python3 whose command line
holds MARKER) in the bot's process group, so the tests can check with pgrep
that the referee kills the whole group: no process may be left behind.
With "nochild" it starts none.

  exit_start   exits with status 3 before the handshake
  exit_mid     plays its first request, exits with status 4 at the second
  silent       answers the hello, then never answers a request, and
               ignores bye and the end of its input (it must be killed)
  garbage      answers every request with a line that is not JSON
  longline     answers its first request with 10 MiB and no newline, then
               sleeps (the line never ends)
  illegal      answers with an index past the legal list, then with an
               action value that is not in it
  wrong_id     answers every request with an id it was not asked
  hello_hang   never answers the hello; ignores bye and end of input
  chatty       plays the first legal entry, writing a line of about 250
               bytes to stderr per request
"""
import json
import subprocess
import sys
import time


def send(text):
    sys.stdout.write(text)
    sys.stdout.flush()


def main():
    mode, marker = sys.argv[1], sys.argv[2]
    if sys.argv[3:] != ["nochild"]:
        subprocess.Popen([sys.executable, "-c",
                          "import time; time.sleep(600)", marker])
    if mode == "exit_start":
        sys.exit(3)
    requests = 0
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            if mode == "hello_hang":
                continue
            send(json.dumps({"type": "hello", "name": "hostile-" + mode}) +
                 "\n")
            continue
        if kind == "bye":
            if mode in ("silent", "hello_hang"):
                continue    # ignores bye too: the referee must kill it
            break
        if kind != "request":
            continue
        requests += 1
        legal = msg["legal"]
        if mode == "exit_mid" and requests == 2:
            sys.exit(4)
        if mode in ("silent", "hello_hang"):
            continue
        if mode == "chatty":
            sys.stderr.write("chatty: request %d, chatter %s\n"
                             % (msg["id"], "x" * 230))
            sys.stderr.flush()
        if mode == "garbage":
            send("this is not JSON {\n")
        elif mode == "longline":
            send("x" * (10 * 1024 * 1024))
            time.sleep(600)
        elif mode == "illegal":
            if requests % 2 == 1:
                send(json.dumps({"id": msg["id"], "index": len(legal)}) +
                     "\n")
            else:
                send(json.dumps({"id": msg["id"],
                                 "action": {"type": "no such move"}}) + "\n")
        elif mode == "wrong_id":
            send(json.dumps({"id": msg["id"] + 1000, "index": 0}) + "\n")
        else:
            answer = {"id": msg["id"], "index": 0}
            if isinstance(legal[0].get("amount"), dict):
                answer["amount"] = legal[0]["amount"]["min"]
            send(json.dumps(answer) + "\n")
    if mode in ("silent", "hello_hang"):
        time.sleep(600)


if __name__ == "__main__":
    main()
