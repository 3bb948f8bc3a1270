"""Test inference program: invalid JSON first; valid JSON once the prompt carries the corrective retry."""
import json
import sys

prompt = sys.stdin.read()
if "YOUR PREVIOUS ANSWER WAS REJECTED" not in prompt:
    sys.stdout.write('{"items": [{"type": "memory", "actor": "principal", "op": "set", "entries": ["NAME: Ada"],}]')
else:
    entry = "PREFERENCE: answers after a corrective retry ~explicit"
    sys.stdout.write(json.dumps({"items": [{"type": "memory", "actor": "da", "op": "set", "entries": [entry]}]}))
