"""Partial comparison: only expected keys count, and the first difference is named by its path."""

from refimpl.compare import MISSING, differences, first_difference, project


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
