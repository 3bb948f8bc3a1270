"""Test inference program: never answers in time (the reviewer's timeout must kill it).

With an argument, first writes its pid to that path so a test can check it is gone."""
import os
import sys
import time

if len(sys.argv) > 1:
    with open(sys.argv[1], "w") as handle:
        handle.write(str(os.getpid()))
sys.stdin.read()
time.sleep(120)
sys.stdout.write('{"items": []}')
