"""A correct build that declares only Lantern Quay v1: everything else must be reported as not run."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from refimpl.harness.serve import Session, serve  # noqa: E402


class PartialSession(Session):
    def hello(self, req):  # type: ignore[no-untyped-def]
        answer = super().hello(req)
        answer["games"] = {"lantern-quay": ["v1"]}
        answer["capabilities"] = []
        return answer

    OPS = {**Session.OPS, "hello": hello}


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout, session_class=PartialSession, name="partial build")
