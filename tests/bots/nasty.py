#!/usr/bin/env python3
"""More hostile bots, for tests/botcheck.bats: each MODE misbehaves in a
way bin/botcheck must catch and report safely.

usage: nasty.py MODE MARKER

  escape   a hello name and answer lines full of terminal escape
           sequences (colours, a window title, a bell); the answers are
           not JSON
  setsid   starts a sleeping grandchild (its command line holds MARKER)
           in a session of its own, out of the bot's process group, then
           plays the first legal entry
  slow     answers every request correctly, the first one 0.5 s late
           (a bot slow to warm up)
"""
import json
import subprocess
import sys
import time

ESC = "\x1b[31mred\x1b[0m\x1b]0;pwned\x07\r"


def send(obj):
    sys.stdout.write(obj if isinstance(obj, str) else json.dumps(obj))
    sys.stdout.write("\n")
    sys.stdout.flush()


def first(msg):
    """The first legal entry (at its least amount when ranged)."""
    answer = {"id": msg["id"], "index": 0}
    amount = msg["legal"][0].get("amount")
    if isinstance(amount, dict):
        answer["amount"] = amount["min"]
    return answer


def main():
    mode, marker = sys.argv[1], sys.argv[2]
    if mode == "setsid":
        subprocess.Popen([sys.executable, "-c", "import time; "
                          "time.sleep(600)", marker],
                         start_new_session=True)
    requests = 0
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            name = "nasty" + (ESC if mode == "escape" else "-" + mode)
            send({"type": "hello", "name": name})
        elif kind == "bye":
            break
        elif kind == "request":
            requests += 1
            if mode == "escape":
                sys.stderr.write(ESC + "\n")
                sys.stderr.flush()
                send(ESC + "not json")
            elif mode == "slow":
                if requests == 1:
                    time.sleep(0.5)
                send(first(msg))
            else:
                send(first(msg))


if __name__ == "__main__":
    main()
