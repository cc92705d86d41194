"""The floor for protocol benchmarks: a build that answers every request at once, with no game logic."""

import json
import sys

HELLO = {"protocol": 1, "build": {"name": "echo"}, "games": {"beacon-lines": ["v0", "v1"],
         "lantern-quay": ["v0", "v1"]}, "capabilities": []}
STATE = {"game": "echo", "ruleset": "v1"}

for line in sys.stdin:
    request = json.loads(line)
    body = HELLO if request["op"] == "hello" else {} if request["op"] == "quit" else {"state": STATE}
    sys.stdout.write(json.dumps({"id": request["id"], "ok": True, **body}) + "\n")
    sys.stdout.flush()
    if request["op"] == "quit":
        break
