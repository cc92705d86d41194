"""Partial comparison: only expected keys count, and the first difference is named by its path."""

from refimpl.harness.compare import MISSING, differences, first_difference, project


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
