"""The protocol's requests as typed values (refimpl/harness/requests.py): each is the request the protocol names,
its body valid under the protocol's schema, and two requests are equal only when they are the same request."""

from __future__ import annotations

import json
import pickle
from importlib import resources
from typing import Any

import jsonschema
import pytest
from hypothesis import given, strategies as st

from refimpl.harness import requests
from refimpl.harness.requests import Apply, Legal, Op, Restart, Start, State, Stats, Written, answer_key

_SCHEMA = json.loads(resources.files("refimpl").joinpath("schemas", "protocol-v1.schema.json").read_text())
_REQUEST = jsonschema.Draft202012Validator({**_SCHEMA, "$ref": "#/$defs/request"})

_NAMES = st.one_of(st.none(), st.sampled_from(["referee", "human", "cpu1", "player-2"]))
_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-2**60, 2**60) | st.text(max_size=6),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                     max_size=3), max_leaves=8)
_OPS: st.SearchStrategy[Op] = st.one_of(
    st.builds(Start, st.sampled_from(["ludo", "beacon-lines"]), st.sampled_from(["v0", "v1"]),
              st.none() | st.integers(0, 2**53), st.dictionaries(st.sampled_from(["pieces", "map"]), _VALUES)),
    st.builds(Apply, st.fixed_dictionaries({"type": st.sampled_from(["roll", "move"])}, optional={"x": _VALUES})),
    st.builds(State, _NAMES), st.builds(Legal, _NAMES), st.just(Restart()), st.just(Stats()),
)


@given(_OPS)
def test_every_typed_request_is_the_request_the_protocol_names(op: Op) -> None:
    """Its body, with an id, is valid under the protocol's schema and names the op the value is named for;
    written whole (``Written``), the same body is the same request by name and answer key."""
    body = op.body()
    _REQUEST.validate({"id": 1, **body})
    assert body["op"] == op.name == type(op).__name__.lower()
    whole = Written(body)
    assert whole.name == op.name and answer_key(whole) == answer_key(op) and whole.body() == body


@given(_OPS)
def test_a_request_survives_pickling_and_equals_only_itself(op: Op) -> None:
    """A request crosses to a ``--jobs`` worker whole; it equals its copy and no request of another kind."""
    copy = pickle.loads(pickle.dumps(op))
    assert copy == op and type(copy) is type(op) and copy.body() == op.body()
    others = [State(), Legal(), Restart(), Stats(), Written({"op": "legal"})]
    assert all(op != other for other in others if type(other) is not type(op))


def test_requests_of_one_kind_and_fields_are_one_key_and_others_are_not() -> None:
    """The process driver writes a fixed request once, keyed by the request: a state view and a legal list for
    the same observer, which were once the same tuple shape, are two keys."""
    assert len({State(), Legal(), State(None), Restart(), Stats(), Restart()}) == 4
    assert State("human") != Legal("human") and State("human") == State("human")


@pytest.mark.parametrize(("op", "key"), [(Start("ludo"), "state"), (Apply({"type": "roll"}), "state"),
                                         (State(), "state"), (Restart(), "state"), (Legal(), "actions"),
                                         (Stats(), "stats"), (Written({"op": "stats"}), "stats"),
                                         (Written({"op": 5}), "state"), (Written({}), "state")])
def test_an_answer_is_read_under_the_key_its_request_names(op: Op, key: str) -> None:
    """``answer_key``: legal lists come as ``actions``, records as ``stats``, everything else as ``state``
    (a request with no name, or a name that is not a string, is answered, if at all, with an error)."""
    assert answer_key(op) == key


def test_a_legal_request_without_an_observer_sends_none_and_a_state_request_sends_null() -> None:
    """specs/protocol.md: ``legal`` takes an optional observer (absent: the referee's list); ``state`` always
    names its observer, null for the full state, as the reference's client has always written it."""
    assert Legal().body() == {"op": "legal"} and Legal("human").body() == {"op": "legal", "observer": "human"}
    assert State().body() == {"op": "state", "observer": None}


def test_the_module_names_every_request_it_defines() -> None:
    defined: list[Any] = [v for v in vars(requests).values() if isinstance(v, type) and hasattr(v, "body")]
    assert {t.__name__ for t in defined} <= set(requests.__all__)
