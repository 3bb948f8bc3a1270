"""Test inference program: answers with canned text files, one per call, so a test controls the model's output.

Usage: canned.py ANSWERS_DIR [ignored ...]. Call N (counted in ANSWERS_DIR/calls) prints
answer-N.txt (or the last answer when there are fewer) on stdout and stderr-N.txt, when it
exists, on stderr. The prompt on stdin is read and dropped.
"""
import pathlib
import sys

sys.stdin.read()
folder = pathlib.Path(sys.argv[1])
counter = folder / "calls"
call = int(counter.read_text()) + 1 if counter.exists() else 1
counter.write_text(str(call))
answers = sorted(folder.glob("answer-*.txt"), key=lambda path: int(path.stem.split("-")[1]))
chosen = folder / f"answer-{call}.txt"
sys.stdout.write((chosen if chosen.exists() else answers[-1]).read_text(encoding="utf-8"))
stderr = folder / f"stderr-{call}.txt"
if stderr.exists():
    sys.stderr.write(stderr.read_text(encoding="utf-8"))
