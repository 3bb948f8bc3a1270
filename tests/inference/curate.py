"""Test inference program: reads the reviewer's prompt on stdin and answers valid curation JSON.

It keeps the current principal entries it finds in the prompt (set-overwrite) and adds two,
so it can run again on the same tree. CURATE_MODE varies the answer for one test each:
  (unset)   memory for both files, an idea, a proposal to auto-approve, one to leave pending
  overlong  one principal entry far over 256 characters (the parser must cut it)
  erode     the principal list minus three entries (the erosion guard must refuse it)
  cap       50 principal entries (EAT_CAP after the corrective retry, too)
  empty     {"items": []}
The answer is wrapped in a ```json fence with surrounding blank lines, which must be tolerated.
"""
import json
import os
import sys

prompt = sys.stdin.read()
mode = os.environ.get("CURATE_MODE", "")


def current(label):
    lines = prompt.split(f"### {label} [", 1)[1].split("\n")[1:]
    entries = []
    for line in lines:
        if not line.strip() or line.startswith("#") or line == "(empty)":
            break
        entries.append(line)
    return entries


principal = current("principal")
if mode == "erode":
    items = [{"type": "memory", "actor": "principal", "op": "set", "entries": principal[:-3]}]
elif mode == "cap":
    items = [{"type": "memory", "actor": "principal", "op": "set",
              "entries": [f"PREFERENCE: distinct fact number {i} ~explicit" for i in range(50)]}]
elif mode == "empty":
    items = []
else:
    added = ["PREFERENCE: drinks green tea in the morning ~explicit",
             "ROLE: maintains the cortex-health project ~explicit"]
    if mode == "overlong":
        added.append("PREFERENCE: " + " ".join(["verbose"] * 60) + " ~inferred")
    items = [
        {"type": "memory", "actor": "principal", "op": "set",
         "entries": principal + [entry for entry in added if entry not in principal], "rationale": "new durable facts"},
        {"type": "memory", "actor": "da", "op": "set", "entries": ["ROLE: research assistant for memory tooling ~explicit"]},
        {"type": "idea", "title": "Evidence over hope", "content": "A memory loop is alive only if it leaves evidence."},
        {"type": "proposal", "target_kind": "projects", "target_file": "PROJECTS.md", "edit": "- cortex-health: auditor",
         "confidence": 0.9, "rationale": "Mentioned in every session."},
        {"type": "proposal", "target_kind": "contacts", "target_file": "CONTACTS.md", "edit": "- Grace: reviewer",
         "confidence": 0.4, "rationale": "Mentioned once."},
    ]
sys.stdout.write("\n```json\n" + json.dumps({"items": items}, indent=1) + "\n```\n\n")
