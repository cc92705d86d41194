"""The answers the kit knows before a build gives them (issue 44: the fast path, in a module of its own): when the
reference's answer to a request is known, a build's line that is those very bytes is that very answer, and need
not be parsed and compared. ``ProtocolDriver`` uses it unless its build says not to (``Build(known_answers=False)``,
the commands' ``--read-every-answer``)."""

from __future__ import annotations

from ..games import JSON
from ..util import jsonio
from .driver import Outcome, Refused, Rejected
from .requests import Op, answer_key


class Known:
    """An answer the kit knows before the build gives it (``known_answer``): the line, the message it is, and its
    outcome; ``any_order``: a legal list that the same actions in another order answer as well."""

    __slots__ = ("line", "message", "answer", "any_order")

    def __init__(self, line: bytes, message: dict[str, JSON], answer: Outcome, any_order: bool) -> None:
        self.line, self.message, self.answer, self.any_order = line, message, answer, any_order

    def answers(self, line: bytes) -> bool:
        """Whether the build's ``line`` is this answer: byte for byte, or, for a legal list, the same actions
        byte for byte in another order, as many times each (lists are compared as multisets). A line that is
        ``[{`` + actions joined by ``},{`` + ``}]`` where each action is one of the reference's reads as exactly
        those actions, in that order."""
        if line == self.line:
            return True
        if not self.any_order or len(line) != len(self.line) or set(map(type, self.message["actions"])) != {dict}:
            return False  # (a list of objects only: a non-object beside a "},{" in a string could pass the count)
        ours = self.line
        head = ours.index(b"[") + 2  # past the list's opening and its first action's brace
        if line[:head] != ours[:head] or line[-3:] != b"}]}":
            return False
        mine, theirs = ours[head:-3].split(b"},{"), line[head:-3].split(b"},{")
        if len(mine) != len(self.message["actions"]) or len(theirs) != len(mine):  # (a "},{" within an action)
            return False
        distinct = set(mine)
        if len(distinct) == len(mine):
            return distinct == set(theirs)
        return sorted(mine) == sorted(theirs)


def known_answer(op: Op, rid: int, answer: Outcome, any_order: bool = True) -> Known | None:
    """The line the reference's own ``serve`` writes for request ``rid`` when its answer to ``op`` is the
    accepted ``answer`` (orjson's compact text, the id first), the message that line is, and ``answer``; None
    for a refusal or a value orjson cannot write. ``any_order``: a legal list in another order is taken too.

    A build that writes those very bytes gave that very answer: orjson writes every value its own way, but
    NaN and the infinities as ``null``, and the reference's answers hold no float (seeds and set-ups are
    checked, the engines count in integers: tests/test_fuzz.py walks the answers to drawn cases)."""
    if jsonio.orjson is None or isinstance(answer, (Rejected, Refused)):
        return None
    key = answer_key(op)
    try:
        text = jsonio.orjson.dumps(answer)
    except TypeError:
        return None
    line = b'{"id":%d,"ok":true,"%s":%s}' % (rid, key.encode(), text)
    return Known(line, {"id": rid, "ok": True, key: answer}, answer,
                 any_order and key == "actions" and len(text) > 2)
