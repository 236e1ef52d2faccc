"""A stateless bot for the tournament tests: its choice is a function of
the request alone (a hash of its salt and the view), so a game's result does
not depend on the games its process played before, and a resumed or
distributed tournament must reproduce a straight run exactly.  DET_SLEEP
(seconds) slows every answer, so that a test can catch a job mid-way.
With a directory as its second argument, the first of its processes to
create DIR/stalled there waits at its first move until DIR/go exists: one
slow game, at a point the test chooses."""
import json, os, sys, time, zlib

salt = sys.argv[1] if len(sys.argv) > 1 else ""
pause = float(os.environ.get("DET_SLEEP", "0"))
stall = None
if len(sys.argv) > 2:
    try:
        os.close(os.open(os.path.join(sys.argv[2], "stalled"),
                         os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        stall = os.path.join(sys.argv[2], "go")
    except FileExistsError:
        pass
for line in sys.stdin:
    m = json.loads(line)
    if m.get("type") == "hello":
        out = {"type": "hello", "name": "det" + salt, "version": "1"}
    elif m.get("type") == "bye":
        break
    elif "legal" in m and "id" in m:
        legal = m["legal"]
        h = zlib.crc32((salt + json.dumps(m.get("view"), sort_keys=True)).encode())
        i = h % len(legal)
        out = {"id": m["id"], "index": i}
        a = legal[i].get("amount")
        if isinstance(a, dict):
            out["amount"] = a["min"] + h // 7 % (a["max"] - a["min"] + 1)
        time.sleep(pause)
        while stall is not None and not os.path.exists(stall):
            time.sleep(0.05)
        stall = None
    else:
        continue
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
