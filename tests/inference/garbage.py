"""Test inference program: never a usable answer. No argument: prose instead of JSON (both attempts are
rejected); "flood": 2 MiB on stdout (over the reviewer's cap); "crash": a message on stderr and exit 3; "crash FILE": FILE's text on stderr and exit 3."""
import sys

sys.stdin.read()
mode = sys.argv[1] if len(sys.argv) > 1 else ""
if mode == "flood":
    sys.stdout.write("x" * (2 * 1024 * 1024))
elif mode == "crash":
    if len(sys.argv) > 2:
        with open(sys.argv[2], encoding="utf-8") as handle:  # a test's own file
            sys.stderr.write(handle.read())
    else:
        sys.stderr.write("model backend unavailable <private>api key abc</private>\n")
    sys.exit(3)
else:
    sys.stdout.write("Sure! I think you should remember that the user likes tea.\n")
