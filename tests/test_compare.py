"""Partial comparison: only expected keys count, and the first difference is named by its path."""

from refimpl.harness.compare import MISSING, differences, field_differences, first_difference, project


def test_only_expected_keys_are_compared() -> None:
    assert first_difference({"a": 1}, {"a": 1, "b": 2}) is None


def test_nested_path_and_list_index() -> None:
    d = first_difference({"scores": {"red": 2}, "dice": [1, 2]}, {"scores": {"red": 3}, "dice": [1, 2]})
    assert (d.path, d.expected, d.actual) == ("scores.red", 2, 3)
    d = first_difference({"dice": [[1], [2, 5]]}, {"dice": [[1], [2, 4]]})
    assert d.path == "dice[1][1]"


def test_missing_key_and_null_are_different() -> None:
    d = first_difference({"result": None}, {})
    assert d.path == "result" and d.actual is MISSING
    assert str(d) == "result: expected null, got <missing>"


def test_bool_and_int_differ_lists_compare_whole() -> None:
    assert first_difference({"x": 1}, {"x": True}) is not None
    assert first_difference({"x": [1, 2]}, {"x": [1, 2, 3]}).path == "x"


def test_all_differences_in_expected_order() -> None:
    found = [d.path for d in differences({"b": 1, "a": 1}, {"b": 2, "a": 2})]
    assert found == ["b", "a"]


def test_project_keeps_only_what_was_expected() -> None:
    assert project({"scores": {"red": 0}}, {"scores": {"red": 2, "blue": 1}, "round": 2}) == {"scores": {"red": 2}}


# --- the quick check agrees with the full comparison ----------------------------------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

from refimpl.harness.compare import matches  # noqa: E402

# Scalars that JSON tells apart but Python's == does not (True == 1 == 1.0), and look-alikes.
_scalars = st.sampled_from([0, 1, 2, -1, 0.0, 1.0, 1.5, True, False, None, "", "a", "1", "true"])
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.sampled_from(["a", "b", "c"]), inner, max_size=3), max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(_values, _values)
def test_matches_is_true_exactly_when_there_is_no_difference(expected: object, actual: object) -> None:
    assert matches(expected, actual) is (next(differences(expected, actual), None) is None)


@settings(max_examples=200, deadline=None)
@given(_values)
def test_a_value_matches_itself_and_any_superset_of_its_keys(value: object) -> None:
    assert matches(value, value)
    if isinstance(value, dict):
        assert matches(value, {**value, "extra": [True]})
        if value:
            assert not matches({**value, "extra": 1}, value)


from refimpl.harness.compare import identical, whole_difference  # noqa: E402


@settings(max_examples=200, deadline=None)
@given(_values, _values)
def test_identical_is_a_quick_yes_only_for_values_without_any_difference(a: object, b: object) -> None:
    if identical(a, b):
        assert next(differences(a, b), None) is None and next(differences(b, a), None) is None
    assert (whole_difference(a, b) is None) is (next(differences(a, b), None) is None
                                                 and next(differences(b, a), None) is None)


def test_identical_tells_null_from_nan_and_true_from_one() -> None:
    import copy

    view = {"a": [1, True, None, "x"], "b": {"c": 0.5}}
    assert identical(view, copy.deepcopy(view))
    assert not identical({"a": None}, {"a": float("nan")})  # orjson writes both as null
    assert not identical({"a": 1}, {"a": True}) and not identical({"a": [0]}, {"a": [False]})
    assert not identical({"a": 2 ** 70}, {"a": 2 ** 70})  # orjson cannot write it: compared field by field
    assert whole_difference({"a": 2 ** 70}, {"a": 2 ** 70}) is None
    assert whole_difference({"a": 1, "b": 2}, {"b": 2, "a": 1}) is None  # key order is not a difference


def test_where_no_null_is_written_the_text_alone_decides() -> None:
    """Without a null in orjson's text, the text alone says two values are the same JSON: every value that
    compares equal in Python but differs as JSON is written differently, and so is a value of another type."""
    from refimpl.harness.driver import Refused, Rejected

    assert not identical({"a": 1}, {"a": 1.0}) and not identical({"a": 0}, {"a": -0.0})
    assert not identical({"a": [1, 0]}, {"a": [True, False]}) and not identical({"a": "1"}, {"a": 1})
    assert not identical({"a": float("inf")}, {"a": None}) and not identical([float("-inf")], [float("inf")])
    assert not identical(Rejected("no-unit", "m"), Refused("no-unit", "m"))  # two dataclasses written alike
    assert not identical({"a": 1}, [{"a": 1}]) and not identical({"a": {"b": 1}}, {"a": {"b": 1, "c": 2}})
    assert identical({"a": [1, 2.5, "x", True, {"b": []}]}, {"a": [1, 2.5, "x", True, {"b": []}]})


# --- legal lists as multisets -------------------------------------------------------------------------------------

import json  # noqa: E402
import random  # noqa: E402
from collections import Counter  # noqa: E402

from refimpl.harness.compare import same_actions  # noqa: E402

# Actions with what a quick text comparison could get wrong: NaN (orjson writes null), an integer past 64 bits,
# a string holding the "},{" that separates actions, nested objects, and values Python's == takes as equal.
_odd = st.sampled_from([float("nan"), 2 ** 70, "},{", "a},{\"b\":1", "null", "é", {}, {"x": [{"y": 1}, {"z": 2}]}])
_action_values = _values | _odd
_actions = st.lists(st.dictionaries(st.sampled_from(["type", "at", "kind", "},{"]), _action_values, max_size=3),
                    max_size=6)


def _by_text(expected: list[object], actual: list[object]) -> bool:
    """The plain multiset comparison same_actions must agree with: the standard library's text of each action,
    keys sorted (NaN written as NaN, so never equal to null; 1, 1.0 and true all different)."""
    def key(a: object) -> str:
        return json.dumps(a, sort_keys=True, separators=(",", ":"))

    return Counter(map(key, expected)) == Counter(map(key, actual))


@settings(max_examples=400, deadline=None)
@given(_actions, _actions, st.randoms(use_true_random=False))
def test_legal_lists_compare_as_multisets_exactly_as_the_plain_comparison_does(
        ours: list[dict[str, object]], other: list[dict[str, object]], rnd: random.Random) -> None:
    shuffled = [dict(reversed(list(a.items()))) for a in json.loads(json.dumps(ours))]  # keys in another order
    rnd.shuffle(shuffled)
    for theirs in (shuffled, other, shuffled + shuffled[:1], shuffled[1:] + ours[:1]):
        assert same_actions(ours, theirs) is _by_text(ours, theirs), (ours, theirs)


def test_a_build_s_own_order_is_no_difference_and_one_action_twice_is() -> None:
    deploy = [{"type": "deploy", "at": [x, y], "ambush": flag} for x in range(4) for y in range(3) for flag in (1 > 0,)]
    theirs = [{"ambush": a["ambush"], "at": a["at"], "type": "deploy"} for a in reversed(deploy)]
    assert same_actions(deploy, theirs)
    assert not same_actions(deploy, theirs[:-1] + theirs[:1])  # one twice, one missing: same length, same set
    assert not same_actions([{"type": "feed", "to": None}], [{"type": "feed", "to": float("nan")}])
    assert not same_actions([{"type": "x", "n": 1}, {"type": "y"}], [{"type": "y"}, {"type": "x", "n": True}])


def test_field_differences_name_every_field_and_match_objects_by_id() -> None:
    """The one naming of a difference for people (fuzz's divergence, the HTML report's rows)."""
    expected = {"round": 2, "units": [{"id": "g-1", "at": [1, 1]}, {"id": "g-2", "at": [2, 2]}], "gone": 1}
    actual = {"round": 2, "units": [{"id": "g-2", "at": [2, 3]}], "extra": True}
    found = [(d.path, d.expected, d.actual) for d in field_differences(expected, actual)]
    assert found == [("units[id=g-1]", {"id": "g-1", "at": [1, 1]}, MISSING), ("units[id=g-2].at[1]", 2, 3),
                     ("gone", 1, MISSING), ("extra", MISSING, True)]
    swapped = {"units": list(reversed(expected["units"]))}
    assert [d.path for d in field_differences({"units": expected["units"]}, swapped)] == ["units (order)"]
    assert [d.path for d in field_differences({"dice": [1, 2]}, {"dice": [1]})] == ["dice"]  # whole: lengths
    assert field_differences({"x": 1, "y": [1.0]}, {"y": [1], "x": 1}) == []

