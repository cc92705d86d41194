"""Which checks a verify run makes: the games and rulesets asked for checked, the traces and scenarios selected,
the profiles' effect on them worked out on the reference, and the whole list of checks (``verify --list``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from .. import suite
from ..errors import KitError
from ..games import GAMES
from ..harness.driver import ReferenceDriver
from ..harness.trace import Trace, by_reference
from ..harness.tracefile import load_traces
from ..reports.model import Check
from ..rulebook.profiles import Profile
from ..scenarios import FeatureError, Scenario, UndefinedStep, bundled, check_steps
from ..status import Status
from .between import BEFORE_START_NAME, wants_before_start
from .checks import Run
from .settings import VerifyError, VerifySettings


def check_selection(settings: VerifySettings) -> None:
    """Raise VerifyError for a --game or --ruleset the kit does not have (naming the known ones)."""
    games, rulesets = settings.games, settings.rulesets
    for game in games or []:
        if game not in GAMES:
            raise VerifyError(f"unknown game {game!r} (known: {', '.join(sorted(GAMES))})")
    chosen = [GAMES[g] for g in games] if games else list(GAMES.values())
    known = sorted({r for g in chosen for r in g.info.rulesets})
    for ruleset in rulesets or []:
        if ruleset not in known:
            scope = f" for {', '.join(games)}" if games else ""
            raise VerifyError(f"unknown ruleset {ruleset!r}{scope} (known: {', '.join(known)})")


def select_traces(settings: VerifySettings) -> list[Trace]:
    """The traces a run checks. Raises TraceError (every bad trace named) or BadChecks (exit 2)."""
    from ..harness.preflight import check_traces

    games, rulesets, keyword = settings.games, settings.rulesets, settings.keyword
    selected = []
    for trace in load_traces(settings.picked("traces") or [suite.trace_folder()]):
        if games and trace.game not in games or rulesets and trace.ruleset not in rulesets:
            continue
        if keyword and keyword.lower() not in f"{trace.game}/{trace.name} {trace.title}".lower():
            continue
        selected.append(trace)
    check_traces(selected)
    return selected


def select_scenarios(settings: VerifySettings) -> list[Scenario]:
    """The scenarios a run checks against an outside build: the bundled ones (or those in ``features``) of
    the selected games whose name contains ``keyword``, the kit's own @kit checks left out. Raises VerifyError
    for a feature file that does not parse or a step no definition matches (before any build starts)."""
    from ..scenarios import gherkin

    games, keyword = settings.games, settings.keyword
    try:
        found = bundled() if settings.features is None else gherkin.load_folder(Path(settings.features))
        check_steps(found)
    except (FeatureError, UndefinedStep) as exc:
        raise VerifyError(f"the scenarios cannot run: {exc}") from None
    word = keyword.lower() if keyword else None
    return [s for s in found if not s.kit_only and (not games or s.game in games)
            and (word is None or word in f"{s.game} {s.check_name}".lower())]


def every_scenario(settings: VerifySettings) -> list[Scenario]:
    """The scenarios an expect-fail file may name: those of ``settings.features``, of every game, any name."""
    return select_scenarios(replace(settings, games=None, keyword=None))


def every_trace(settings: VerifySettings) -> list[Trace]:
    """The traces an expect-fail file may name: all of ``settings.traces`` (or the bundled ones)."""
    return load_traces(settings.picked("traces") or [suite.trace_folder()])


def under_profiles(traces: list[Trace], scenarios: list[Scenario], mine: dict[str, Profile],
                   run: Run) -> tuple[list[Trace], list[Scenario]]:
    """The traces and scenarios to run under the profiles ``mine`` (the registry already swapped): each trace
    of a profiled game is replayed on the reference under its profile first; one it passes runs as written,
    one it fails is judged by the reference alone (its written expectations depend on a changed value), one
    whose start is refused is not run; a scenario the reference fails under the profile is not run."""
    from ..harness.preflight import check_trace
    from ..scenarios.runner import run_scenario

    oracle = run.settings.oracle
    kept: list[Trace] = []
    for trace in traces:
        profile = mine.get(trace.game)
        bad = check_trace(trace) if profile is not None else []
        if profile is None or not bad:  # (no profile: nothing is bad)
            kept.append(trace)
        elif bad[0].kind in ("start", "observer") or not oracle:
            why = (f"the profile {profile.name} makes its start impossible ({bad[0].reason})" if bad[0].kind
                   in ("start", "observer") else f"it depends on a value the profile {profile.name} changes, and "
                   f"--no-oracle leaves nothing to judge it by")
            run.add(Check("trace", trace.game, f"{trace.game}/{trace.name}", trace.rules, Status.NOT_RUN,
                          f"not run: {why}", trace.ruleset))
        else:
            kept.append(by_reference(trace, f"its written expectations depend on a value the profile "
                                            f"{profile.name} changes ({bad[0].reason}); every answer is judged "
                                            f"by the reference under the profile"))
    runnable: list[Scenario] = []
    for scenario in scenarios:
        profile = mine.get(scenario.game)
        if profile is None:
            runnable.append(scenario)
            continue
        reference = ReferenceDriver()
        try:
            outcome = run_scenario(scenario, reference)
            passed, said = outcome.status == Status.PASSED, outcome.detail
        except KitError as exc:  # a step the profile makes impossible (a start on a map of another size)
            passed, said = False, str(exc)
        if passed:
            runnable.append(scenario)
        else:
            run.add(Check("scenario", scenario.game, scenario.check_name, scenario.rules, Status.NOT_RUN,
                          f"not run: the reference under the profile {profile.name} does not pass it (it depends "
                          f"on a value the profile changes): {said.splitlines()[0] if said else ''}"))
    return kept, runnable


def list_checks(settings: VerifySettings) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """The checks ``verify`` with these settings would run, as (kind, game, name, rules), without starting a
    build (a build that declares explicit-chance also gets checks of its own chance). Raises what ``verify``
    raises for bad input."""
    from ..harness.perft import load_golden

    check_selection(settings)
    games, rulesets = settings.games, settings.rulesets
    out = [("trace", t.game, f"{t.game}/{t.name}", tuple(t.rules)) for t in select_traces(settings)]
    if settings.scenarios:
        out += [("scenario", sc.game, sc.check_name, sc.rules) for sc in select_scenarios(settings)]
    if wants_before_start(settings):
        out.append(("protocol", "protocol", BEFORE_START_NAME, ()))
    if settings.perft_depth > 0:
        for game in sorted(GAMES):
            for ruleset in GAMES[game].info.rulesets:
                golden = load_golden(game, ruleset)
                if golden is None or (games and game not in games) or (rulesets and ruleset not in rulesets):
                    continue
                depth = min(settings.perft_depth, golden["depth"])
                out.append(("perft", game, f"{game}/perft-{ruleset} to depth {depth}",
                            GAMES[game].info.field_rules.get("legal", ())[:1]))
    return out
