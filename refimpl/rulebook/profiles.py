"""Ruleset profiles: the values a spec chose where its seed left a number open or lost a table, as named fields a
builder may set (specs: "chosen"). A game's reference engine is built from its data file
(refimpl/games/data/<game>.yaml); a profile replaces some of the chosen values in it and the engine follows.

A profile file (YAML), e.g. ``refimpl profile conquest-king > my-profile.yaml`` and edit::

    game: conquest-king
    name: house-rules            # shown in every report
    set:                         # the chosen values it changes, by field name (defaults: refimpl profile GAME)
      units.light-infantry.move: 4
      first: gaias

Every field has the spec's default, an allowed range, its meaning and the rules that use it (``fields_of``, from the
game's unit); the JSON Schema of each game's profile file is published in
refimpl/schemas/profiles/<game>.schema.json (``python -m refimpl.rulebook.profiles`` writes them; a test keeps them
in step). A game whose numbers all come from its seed has no fields.

``using(profiles)`` swaps the games' engines in the registry for the run, so everything the kit works out from
the reference (preflight, the oracle, perft counts, explicit chance, fuzz) follows the profile.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from ..errors import KitError
from ..games import GAMES, BadSetup, Game, load_data
from ..games.registry import loaded
from ..util import yamlsafe

NAME = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"


@dataclass(frozen=True)
class Field:
    """One value a profile may set: its dotted path in the game's data file, its JSON Schema (the allowed range),
    what it means and the rules that use it. A chosen value (the spec chose it where the seed left it open), or,
    with ``variant``, a rule change a designer may try: the seed fixes its default, and a build that declares the
    profile is judged under it like any other (issue 45; each spec's "Variants" section)."""

    path: str
    schema: Mapping[str, Any]
    meaning: str
    rules: tuple[str, ...]
    variant: bool = False


def int_range(lo: int, hi: int) -> dict[str, Any]:
    """The JSON Schema of an integer from ``lo`` to ``hi``."""
    return {"type": "integer", "minimum": lo, "maximum": hi}


def fields_of(game: str) -> tuple[Field, ...]:
    """The profile fields of ``game``: its unit's ``profile_fields`` (none where its spec leaves no value to a
    builder)."""
    found = loaded(game, "profile_fields")
    return tuple(found) if found is not None else ()


class ProfileError(KitError):
    """A profile file the kit cannot use: names the file, the line where known, and the reason (exit 2)."""


@dataclass(frozen=True)
class Profile:
    """A game's profile: its name and the chosen values it sets (field -> value)."""

    game: str
    name: str
    values: Mapping[str, Any] = field(default_factory=dict)
    file: str = ""

    def changed(self) -> list[dict[str, Any]]:
        """The fields whose value differs from the default: ``{field, default, value}``, in field order."""
        defaults = default_values(self.game)
        return [{"field": f.path, "default": defaults[f.path], "value": self.values[f.path]}
                for f in fields_of(self.game) if f.path in self.values and self.values[f.path] != defaults[f.path]]

    def data(self) -> dict[str, Any]:
        """The game's data file with this profile's values set."""
        data = copy.deepcopy(dict(load_data(self.game)))
        for path, value in self.values.items():
            _set(data, path, copy.deepcopy(value))
        return data

    def engine(self) -> Game[Any, Any]:
        """The reference engine under this profile. Raises ProfileError when the values do not make a game
        (a map whose rows do not match its size, an animal of a species the profile does not have)."""
        try:
            # ignore: every engine class takes its data; Game, never built itself, declares no __init__ (adding one in
            # refimpl/games would add a mutant to the power meter's population)
            engine = type(GAMES[self.game])(self.data())  # type: ignore[call-arg]
            engine.new_state()  # the start of a default game: a profile no game can start from is refused
        except (BadSetup, KeyError, ValueError, TypeError, IndexError) as exc:
            reason = exc.message if isinstance(exc, BadSetup) else f"{type(exc).__name__}: {exc}"
            raise ProfileError(f"{self.file or self.name}: the values do not make a {self.game} game: "
                               f"{reason}") from None
        return engine

    def summary(self) -> dict[str, Any]:
        """What a report says of it."""
        return {"game": self.game, "name": self.name, "file": self.file, "changed": self.changed()}


_ITEM = re.compile(r"^(?P<key>[^\[\]]+)\[(?P<id>[^\[\]]+)\]$")


def _step(node: Any, part: str) -> Any:
    """One part of a field's path: a key, or ``key[ID]``, the item of the list at ``key`` whose ``id`` is ID (a
    region of Beacon Lines: ``regions[depot].value``). Raises KeyError for a part the data lacks."""
    item = _ITEM.match(part)
    if item is None:
        return node[_key(node, part)]
    for entry in node[item["key"]]:
        if entry.get("id") == item["id"]:
            return entry
    raise KeyError(part)


def _key(node: Any, part: str) -> Any:
    """``part`` as the key of ``node``: a number where the data's table is keyed by numbers (Lantern Quay's faces:
    ``salvage.3``)."""
    return int(part) if part not in node and part.isdigit() and int(part) in node else part


def _get(data: Mapping[str, Any], path: str) -> Any:
    node: Any = data
    for part in path.split("."):
        node = _step(node, part)
    return node


def _set(data: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    node: Any = data
    for part in parents:
        node = _step(node, part)
    node[_key(node, last)] = value


def default_values(game: str) -> dict[str, Any]:
    """Every field of ``game``'s profile with its default (the value in the game's data file)."""
    data = load_data(game)
    return {f.path: _get(data, f.path) for f in fields_of(game)}


def variants_profile(game: str) -> Profile | None:
    """Every variant of ``game`` moved off the seed's value (an integer one step within its range, a boolean
    flipped, an enum's last other value): what the power meter judges the code only a variant runs under
    (campaigns/mutants). None for a game without variants."""
    defaults = default_values(game)
    values = {f.path: moved(f, defaults[f.path]) for f in fields_of(game) if f.variant}
    return Profile(game, "variants", values) if values else None


def variants_profiles(game: str) -> list[Profile]:
    """``variants_profile``, then one profile more for each other value of an enum variant (the others at the
    seed's): every value a variant may take is played by one of them (Conquest King's ties: again, then
    defender)."""
    first = variants_profile(game)
    if first is None:
        return []
    out, defaults = [first], default_values(game)
    for f in fields_of(game):
        if f.variant and "enum" in f.schema:
            out += [Profile(game, f"variants-{f.path}-{v}", {f.path: v}) for v in f.schema["enum"]
                    if v not in (defaults[f.path], first.values[f.path])]
    return out


def moved(f: Field, value: Any) -> Any:
    """Another value of field ``f`` than ``value``, within its schema: a boolean flipped, an enum's last other
    value, an integer one step up (or down at its maximum). Raises ValueError for a field of another kind (a
    table, a map: what to change there is the caller's choice)."""
    s = f.schema
    if isinstance(value, bool):
        return not value
    if "enum" in s:
        return [v for v in s["enum"] if v != value][-1]
    if isinstance(value, int):
        return value + 1 if value + 1 <= s.get("maximum", value + 1) else value - 1
    raise ValueError(f"{f.path}: no simple other value for {value!r}")


def schema(game: str) -> dict[str, Any]:
    """The JSON Schema of ``game``'s profile file."""
    defaults = default_values(game)
    fields = {f.path: {**f.schema, "default": defaults[f.path],
                       "description": f"{f.meaning} ({'a variant of the seed' if f.variant else 'chosen'}; rules "
                                      f"{', '.join(f.rules)})"}
              for f in fields_of(game)}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://conformance-kit.invalid/schemas/profiles/{game}.schema.json",
        "title": f"A {game} ruleset profile (refimpl verify --profile FILE)",
        "description": ("The chosen values of the spec that a builder sets otherwise. Written by refimpl profile "
                        f"{game}; refimpl/rulebook/profiles.py."),
        "type": "object",
        "required": ["game", "name"],
        "additionalProperties": False,
        "properties": {
            "game": {"const": game},
            "name": {"type": "string", "pattern": NAME, "description": "The profile's name, shown in reports."},
            "ruleset": {"enum": list(GAMES[game].info.rulesets),
                        "description": "The ruleset it was written for (the values apply to the game)."},
            "set": {"type": "object", "additionalProperties": False, "properties": fields,
                    "description": "Chosen values by field name; a field left out keeps its default."},
        },
    }


def _validator(game: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema(game))


def published(game: str) -> str:
    """The published schema file's text (refimpl/schemas/profiles/<game>.schema.json)."""
    return json.dumps(schema(game), indent=2, ensure_ascii=False) + "\n"


def load_profile(path: str | Path) -> Profile:
    """Read and check a profile file. Raises ProfileError naming the file and line."""
    name = str(path)
    try:
        text, data = yamlsafe.load_file(path)
    except yamlsafe.YamlError as exc:
        raise ProfileError(str(exc)) from None
    if not isinstance(data, dict) or not isinstance(data.get("game"), str) or data["game"] not in GAMES:
        where = _line(text, ("game",))
        known = ", ".join(sorted(GAMES))
        raise ProfileError(f"{name}{f':{where}' if where else ''}: a profile names its game (game: one of {known})")
    game = data["game"]
    errors = sorted(_validator(game).iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        error = jsonschema.exceptions.best_match(errors)
        where = _line(text, tuple(error.absolute_path))
        shown = yamlsafe.dotted(error.absolute_path)
        raise ProfileError(f"{name}{f':{where}' if where else ''}: {shown}: {error.message}")
    values = dict(data.get("set") or {})
    profile = Profile(game, data["name"], values, f"{name}:{_line(text, ('set',)) or 1}")
    profile.engine()  # raises when the values do not make a game (named at its ``set:`` line)
    return replace(profile, file=name)


def _line(text: str, path: tuple[Any, ...]) -> int | None:
    try:
        node = yamlsafe.compose(text)
    except Exception:  # noqa: BLE001 - a line is a courtesy; the message stands without it
        return None
    if node is None:
        return None
    lines = yamlsafe.line_map(node)
    while path not in lines and path:
        path = path[:-1]
    return lines.get(path)


def default_yaml(game: str, ruleset: str | None = None) -> str:
    """The default profile of ``game`` as a YAML file to edit: every field with its default, its meaning,
    range and rules as a comment."""
    import yaml

    lines = [f"# The {game} ruleset profile: every value its spec chose, and the variants a designer may try (the",
             "# seed's rule by default). Edit what your build does otherwise,",
             "# then: refimpl verify --impl CMD --profile THIS-FILE (or refimpl serve --profile THIS-FILE).",
             f"game: {game}", "name: my-profile"]
    if ruleset is not None:
        lines.append(f"ruleset: {ruleset}")
    fields = fields_of(game)
    if not fields:
        lines += ["# Every number of this game comes from its seed: there is nothing to choose.", "set: {}"]
        return "\n".join(lines) + "\n"
    lines.append("set:")
    defaults = default_values(game)
    for f in fields:
        allowed = allowed_range(f.schema)
        kind = "variant, the seed says this: " if f.variant else ""
        lines.append(f"  # {kind}{f.meaning}{f'; {allowed}' if allowed else ''} ({', '.join(f.rules)})")
        value = yaml.safe_dump(defaults[f.path], default_flow_style=True, width=1000, sort_keys=False).strip()
        if value.endswith("\n..."):
            value = value[:-4].strip()
        lines.append(f"  {f.path}: {value}")
    return "\n".join(lines) + "\n"


def allowed_range(s: Mapping[str, Any]) -> str:
    """What a field's schema allows, in words ("1 to 9", "one of a, b"); "" where it says no range."""
    if "enum" in s:
        return "one of " + ", ".join(map(str, s["enum"]))
    if s.get("type") == "boolean":
        return "true or false"
    if "minimum" in s and "maximum" in s:
        return f"{s['minimum']} to {s['maximum']}" + (" or null" if "null" in s.get("type", []) else "")
    return ""


@contextmanager
def using(profiles: Mapping[str, Profile] | None) -> Iterator[None]:
    """Within the block, every game that has a profile here is played by the reference under it (the
    registry's engines are swapped, and put back after)."""
    if not profiles:
        yield
        return
    before = {game: GAMES[game] for game in profiles}
    try:
        for game, profile in profiles.items():
            GAMES[game] = profile.engine()
        yield
    finally:
        GAMES.update(before)


def by_game(profiles: list[Profile]) -> dict[str, Profile]:
    """Profiles keyed by game. Raises ProfileError for two profiles of one game."""
    out: dict[str, Profile] = {}
    for p in profiles:
        if p.game in out:
            raise ProfileError(f"{p.file}: a second profile for {p.game} (the first: {out[p.game].file})")
        out[p.game] = p
    return out


def write_schemas(folder: Path | None = None) -> list[Path]:
    """Write every game's published profile schema; the paths."""
    target = folder or Path(str(resources.files("refimpl").joinpath("schemas", "profiles")))
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for game in sorted(GAMES):
        path = target / f"{game}.schema.json"
        path.write_text(published(game), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover
    print(*write_schemas(), sep="\n")
