"""A build nobody should trust (issue 47): it plays as the reference but tells, on stderr, every variable of its
environment whose name a CI would keep secrets or file paths in, prints GitHub workflow commands and HTML, names
itself with a workflow command, writes a file into its working folder (and says where that is), and after its
third apply says it all again and dies, so its stderr reaches the report with a broken check.

    python tests/builds/leaky.py
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from refimpl.games import GAMES  # noqa: E402
from refimpl.harness.serve import Session  # noqa: E402

WATCHED = ("GITHUB_TOKEN", "GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_STEP_SUMMARY", "GITHUB_PATH", "LEAK_SECRET",
           "LEAK_PASSED")


def tell() -> None:
    for name in WATCHED:
        sys.stderr.write(f"env {name}={os.environ.get(name, '<unset>')}\n")
    sys.stderr.write(f"cwd {os.getcwd()}\n::error::pwned by the build\n::add-mask::everything\n"
                     "##[error]pwned again\n<img src=x onerror=alert(1)>\n")
    sys.stderr.flush()


def main() -> None:
    tell()
    Path("left-by-the-build.txt").write_text("a build's own file\n")
    session = Session(GAMES, "::warning::leaky build <b>bold</b>")
    applies = 0
    for line in sys.stdin:
        request = json.loads(line)
        response = session.answer(line)
        if request.get("op") == "apply" and response.get("ok"):
            applies += 1
            if applies == 3:
                tell()
                sys.exit(1)
        sys.stdout.write(json.dumps(response) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
