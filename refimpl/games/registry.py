"""A game as one registered unit: its ``GameKit``, everything the kit's rooms need of one game.

Each game's package (``refimpl/games/<game>/``) holds its engine and, in ``kit/``, what the other rooms need of
it: the picture of a view, the scenario steps, the judges of its own chance, the fuzzer's hints, its tables. Its
``__init__.py`` builds one ``GameKit`` naming them, and ``refimpl/games/__init__.py`` registers it
(``register_game``). The rooms read a game only through its unit (``kit_of``), and keep no table keyed by
game name.

The engine is built when the unit is; every other part is a ``Part``, a module and name imported when a room
first asks for it: the parts are written in the rooms' vocabularies (a picture in SVG, a judge over a driver),
and importing them with the engines would import every room with the first game. A part a game does not have
is ``None``, which is a statement ("Beacon Lines has no chance of its own"), not an omission: ``problems`` names
every required part that is missing or does not load, and tests/test_game_units.py holds every registered game
to it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any, Generic, TypeVar

import yaml

from .base import Game

T = TypeVar("T")


@dataclass(frozen=True)
class Part(Generic[T]):
    """A part of a game's unit: ``name`` in module ``module``, imported on first use (``load``)."""

    module: str
    name: str = ""  # "" for the module itself (a module whose import registers something: the scenario steps)

    def load(self) -> T:
        """The part itself. Raises ImportError or AttributeError where the part is not there."""
        module = importlib.import_module(self.module)
        return module if not self.name else getattr(module, self.name)  # type: ignore[return-value]

    def __str__(self) -> str:
        return f"{self.module}:{self.name}" if self.name else self.module


def parts_of(package: str) -> Callable[..., Part[Any]]:
    """A maker of the parts in package ``package`` (a game's ``kit`` folder): ``part("picture", "draw")``."""
    return lambda module, name="": Part(f"{package}.{module}", name)


def load_data(name: str) -> Mapping[str, Any]:
    """The bundled data file of game ``name`` (board, tables, rulesets): ``refimpl/games/data/<name>.yaml``."""
    text = resources.files(__package__).joinpath("data", f"{name}.yaml").read_text(encoding="utf-8")
    loaded_: Mapping[str, Any] = yaml.safe_load(text)
    return loaded_


@dataclass(frozen=True)
class GameKit:
    """Everything the kit knows of one game, as its rooms read it.

    Every game has ``engine`` (the reference: rules, view, legal list), ``picture`` (a view drawn as SVG, for the
    reports and ``show``), ``steps`` (the module whose import registers its Gherkin steps: scenarios) and
    ``simulate`` (what ``refimpl simulate`` knows of it: a ``campaigns.simulate.Simulation``). The rest is
    ``None`` where the game has none: ``profile_fields`` (the values its spec leaves to a builder, a tuple of
    ``rulebook.profiles.Field``), ``tables`` and ``spec_tables`` (name -> maker of a ``rulebook.tables.Table``:
    ``refimpl tables``, and the tables only its spec prints), ``own_chance`` (the judge of a build's own random
    source, ``(driver, ruleset) -> [Verdict]``: harness.ownchance; every game with seeded chance has one),
    ``seed_chance`` (the judge of what its seed promises a build's own chance: harness.seeds), ``explore`` (the
    fuzzer's hints, a ``campaigns.fuzz.positions.Hints``), ``solve`` (``refimpl solve``: ``(engine, state, roll)
    -> the solution``, for a game small enough to solve), ``board_text`` (a view drawn as text for a terminal:
    ``refimpl play``; None: the view's fields as they are).
    Plain values: ``step_cost`` (what one of its steps costs against the cheapest game's, for ``verify --jobs``)
    and ``aliases`` (other names it is known by).
    """

    engine: Game[Any, Any]
    picture: Part[Callable[..., str]]
    steps: Part[Any]
    profile_fields: Part[tuple[Any, ...]] | None = None
    tables: Part[Mapping[str, Callable[[], Any]]] | None = None
    spec_tables: Part[Mapping[str, Callable[[], Any]]] | None = None
    own_chance: Part[Callable[..., list[Any]]] | None = None
    seed_chance: Part[Callable[..., list[Any]]] | None = None
    explore: Part[Any] | None = None
    simulate: Part[Any] | None = None
    solve: Part[Any] | None = None
    board_text: Part[Any] | None = None
    step_cost: int = 1
    aliases: tuple[str, ...] = field(default=())

    @property
    def name(self) -> str:
        """The game's name: the registry key, and its folder under specs/, features/ and traces/."""
        return self.engine.info.name

    @property
    def view_schema(self) -> str:
        """The JSON Schema of its state view, inside the package's ``schemas`` (preflight and the engine contract
        check views against it)."""
        return f"views/{self.name}.schema.json"


REQUIRED = ("engine", "picture", "steps", "simulate")
KIT_FOLDER = "kit"  # in a game's folder, the parts of its unit beside the engine


def engine_files(folder: Path | None = None) -> list[Path]:
    """The engines' own files under ``folder`` (the games' room): every Python and data file but the parts of
    the units (``<game>/kit/``) and this registry. What rule reach counts, citations call a game's home, and
    the power meter mutates."""
    root = folder if folder is not None else Path(__file__).resolve().parent
    return [p for p in sorted(root.rglob("*")) if p.is_file() and p.suffix in (".py", ".yaml")
            and "__pycache__" not in p.parts and KIT_FOLDER not in p.relative_to(root).parts[:-1]
            and p.relative_to(root).as_posix() != "registry.py"]
_KITS: dict[str, GameKit] = {}


def register_game(kit: GameKit) -> GameKit:
    """Register a game's unit under its name. Raises ValueError for a name or alias already taken."""
    for name in (kit.name, *kit.aliases):
        if name in _KITS or any(name in other.aliases for other in _KITS.values()):
            raise ValueError(f"a game named {name!r} is registered already")
    _KITS[kit.name] = kit
    return kit


def kits() -> Iterator[GameKit]:
    """Every registered game's unit, in the order of registration."""
    return iter(tuple(_KITS.values()))


def kit_of(name: str) -> GameKit:
    """The unit of game ``name`` (or one of its aliases). Raises KeyError for a game nobody registered."""
    if name in _KITS:
        return _KITS[name]
    for kit in _KITS.values():
        if name in kit.aliases:
            return kit
    raise KeyError(name)


def problems(kit: GameKit) -> list[str]:
    """What an incomplete unit lacks, one line a piece (``ludo: picture: missing``), loading every part. A game
    with seeded chance (``GameInfo.stream_fields``) needs ``own_chance``: a build may draw from a source of its
    own, and nothing else judges it."""
    name = getattr(getattr(kit.engine, "info", None), "name", "(a unit without an engine)")
    need = REQUIRED + (("own_chance",) if getattr(getattr(kit.engine, "info", None), "stream_fields", ()) else ())
    out = []
    for f in fields(kit):
        value = getattr(kit, f.name)
        if value is None:
            if f.name in need:
                out.append(f"{name}: {f.name}: missing")
            continue
        if isinstance(value, Part):
            try:
                value.load()
            except (ImportError, AttributeError) as exc:
                out.append(f"{name}: {f.name}: {value} does not load ({exc})")
    return out


def loaded(name: str, part: str) -> Any:
    """Part ``part`` of game ``name`` (or one of its aliases), loaded, or None where the game has no such part (or
    is not registered)."""
    try:
        kit: GameKit | None = kit_of(name)
    except KeyError:
        kit = None
    value = getattr(kit, part, None) if kit is not None else None
    return value.load() if isinstance(value, Part) else None


__all__ = ["GameKit", "KIT_FOLDER", "Part", "REQUIRED", "engine_files", "kit_of", "kits", "load_data", "loaded",
           "parts_of", "problems", "register_game"]
