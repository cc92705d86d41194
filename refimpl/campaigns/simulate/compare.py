"""What-if, side by side (issue 45): the same games played under two or more variants (rulesets or profiles of
one game), and whether each difference from the first variant is real.

Every game is played from the same seed under every variant, its choices drawn from a generator seeded by that
seed (common random numbers), so the variants' games differ only where the rules make them differ. For each
measure of a game (each result, 0 or 1; each of the game's figures; its length) and each variant after the
first, the difference from the first is taken game by game; the report gives its mean, the 95% normal interval of
that mean, and the two-sided p-value of a paired z-test that the mean difference is 0 (the normal approximation
to the paired t-test, good for the hundreds of games a what-if takes; a p-value under 0.05 is what the report
calls a real difference). Pairing on the seed makes the test far sharper than comparing two independent runs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypedDict

from ...games import GAMES
from ...harness.versions import Version
from .play import UNFINISHED, Played, SimulateError
from .run import Interrupted, checked, interrupted, new_summary, play_all
from .sequential import Decision, Sprt
from .summary import Summary, mean_interval

REAL = 0.05  # a difference whose p-value is below this is reported as real


@dataclass
class Comparison:
    """A what-if run: a summary per variant (same games, same seeds), and per variant after the first, per
    measure, the sum and the sum of squares of its game-by-game difference from the first variant."""

    game: str
    variants: tuple[Version, ...]
    summaries: list[Summary]
    measures: tuple[str, ...]
    paired: list[dict[str, tuple[float, float]]] = field(default_factory=list)
    sequential: Decision | None = None  # where a sequential test stopped the run (sequential.py)


def measures_of(summary: Summary) -> tuple[str, ...]:
    """The measures a game is compared by: ``result=R`` for each result it can have, each figure, ``length``."""
    return (*(f"result={r}" for r in summary.possible), *summary.figure_names, "length")


def _values(summary: Summary, played: Played) -> tuple[float, ...]:
    result, length, figures = played
    return (*(float(result == r) for r in summary.possible), *figures, float(length))


def compare(game: str, games: int, variants: Iterable[tuple[str | None, Any]], policies: Iterable[str] | None = None,
            seed: int = 0, jobs: int = 1, progress: Callable[[int, int], None] | None = None,
            cluster: str | None = None, rotate: bool = False, fast: bool = True,
            until: Sprt | None = None) -> Comparison:
    """Play ``games`` games of ``game`` under every variant ((ruleset or None, profile or None), at least two),
    each from the same seed, and pair them; with ``until`` (two variants), stop once its sequential test decides
    (``--games`` the most). Raises SimulateError, Interrupted (its summary the first variant's, the comparison so
    far on ``comparison``) or ExecutorError."""
    seated, chosen = checked(game, games, policies, jobs, variants)
    if len(chosen) < 2:
        raise SimulateError("a what-if needs two variants or more: give --ruleset or --profile twice or more")
    names = [v.name for v in chosen]
    twice = next((name for name in names if names.count(name) > 1), None)
    if twice is not None:
        raise SimulateError(f"the variant {twice} is given twice (a profile's name tells profiles apart)")
    summaries = [new_summary(game, games, seed, seated, v, rotate) for v in chosen]
    out = Comparison(game, chosen, summaries, measures_of(summaries[0]))
    out.paired = [{m: (0.0, 0.0) for m in out.measures} for _ in chosen[1:]]
    record = GAMES[game].record
    if until is not None and (len(chosen) != 2 or until.measure not in out.measures):
        raise SimulateError(f"--until-decided needs two variants and a measure of the game "
                            f"({', '.join(out.measures)}); got {until.measure!r} with {len(chosen)} variants")

    def each(policies_: tuple[str, ...], played: tuple[Played, ...]) -> bool:
        base = _values(summaries[0], played[0])
        for k, (summary, one) in enumerate(zip(summaries, played)):
            result, length, figures = one
            summary.add(result, length, figures, policies_)
            if summary.record is not None:
                summary.record = record(summary.record, None if result == UNFINISHED else result)
            if k:
                sums = out.paired[k - 1]
                for name, mine, theirs in zip(out.measures, _values(summary, one), base):
                    d = mine - theirs
                    total, squares = sums[name]
                    sums[name] = (total + d, squares + d * d)
        return until is not None and _looked(out, until, summaries[0].played)

    try:
        play_all(game, games, seated, chosen, seed, jobs, cluster, rotate, fast, each, progress)
        if until is not None and out.sequential is None:
            n = summaries[0].played
            out.sequential = Decision(until, "undecided", n, until.llr(*out.paired[0][until.measure], n))
        for summary in summaries:
            summary.games = summary.played
    except KeyboardInterrupt as exc:
        for summary in summaries[1:]:
            summary.games = summary.played
        error = interrupted(summaries[0], games, exc)
        error.comparison = out
        raise error from None
    return out


def _looked(out: Comparison, test: Sprt, n: int) -> bool:
    """After game ``n``: at a look (every ``test.every`` games), whether the test decides (noted on ``out``)."""
    if n % test.every:
        return False
    llr = test.llr(*out.paired[0][test.measure], n)
    decision = test.decide(llr)
    if decision is not None:
        out.sequential = Decision(test, decision, n, llr)
    return decision is not None


class DifferenceRow(TypedDict):
    variant: str
    baseline: str
    measure: str
    baseline_mean: float
    mean: float
    difference: float
    ci95: list[float]
    p_value: float | None  # None: every game's difference was the same (nothing varies to test)
    real: bool


def differences(c: Comparison) -> list[DifferenceRow]:
    """A row per variant after the first and per measure: both means, the mean paired difference, its 95%
    interval and the paired z-test's two-sided p-value (``real`` below REAL)."""
    rows: list[DifferenceRow] = []
    n = c.summaries[0].played
    base = _means(c.summaries[0], c.measures)
    for variant, summary, sums in zip(c.variants[1:], c.summaries[1:], c.paired):
        mine = _means(summary, c.measures)
        for name in c.measures:
            mean, low, high = mean_interval(*sums[name], n)
            half = (high - low) / 2
            if half > 0:
                p: float | None = math.erfc(abs(mean) / (half / 1.959963984540054) / math.sqrt(2))
            else:
                p = None if mean == 0 else 0.0
            rows.append({"variant": variant.name, "baseline": c.variants[0].name, "measure": name,
                         "baseline_mean": base[name], "mean": mine[name], "difference": mean, "ci95": [low, high],
                         "p_value": p, "real": p is not None and p < REAL})
    return rows


def _means(s: Summary, measures: tuple[str, ...]) -> dict[str, float]:
    n = max(s.played, 1)
    out = {f"result={r}": s.results.get(r, 0) / n for r in s.possible}
    out.update({name: total / n for name, (total, _) in s.figures.items()})
    out["length"] = s.length / n
    return {m: out.get(m, 0.0) for m in measures}


def comparison_text(c: Comparison) -> str:
    """The what-if for people: each measure's mean under every variant, then each difference from the first
    with its interval and p-value, the real ones marked."""
    first = c.summaries[0]
    lines = [f"{c.game}: {first.played} games, seed {first.seed}, seats {','.join(first.policies)}, the same "
             f"games under {len(c.variants)} variants (common random numbers)", ""]
    width = max(12, *(len(v.name) for v in c.variants))
    lines.append(f"{'measure':24}" + "".join(f" {v.name:>{width}}" for v in c.variants))
    means = [_means(s, c.measures) for s in c.summaries]
    for name in c.measures:
        lines.append(f"{name:24}" + "".join(f" {m[name]:>{width}.4f}" for m in means))
    lines += ["", f"difference from {c.variants[0].name}: paired, 95% interval, two-sided p (paired z-test); "
              f"* real at p < {REAL}"]
    for r in differences(c):
        low, high = r["ci95"]
        p = "-" if r["p_value"] is None else f"{r['p_value']:.3g}"
        lines.append(f"{r['variant']:>{width}} {r['measure']:24} {r['difference']:+.4f} ({low:+.4f} - {high:+.4f})"
                     f"  p {p}{'  *' if r['real'] else ''}")
    if c.sequential is not None:
        lines += ["", c.sequential.words()]
    return "\n".join(lines) + "\n"


def comparison_json(c: Comparison) -> dict[str, object]:
    """The what-if for machines: every variant's own summary (as simulate --format json gives it) and the
    differences (schema: refimpl/schemas/output/simulate-compare.schema.json; each summary as
    simulate.schema.json)."""
    from .output import summary_json

    return {"game": c.game, "games": c.summaries[0].played, "method": "paired z-test on game-by-game differences "
            "under common random numbers (the same seeds); real at p < 0.05",
            "variants": [{"name": v.name, "summary": summary_json(s)} for v, s in zip(c.variants, c.summaries)],
            "differences": differences(c), "sequential": _sequential_json(c.sequential)}


def _sequential_json(d: Decision | None) -> dict[str, object] | None:
    if d is None:
        return None
    t = d.test
    return {"measure": t.measure, "delta": t.delta, "alpha": t.alpha, "beta": t.beta, "every": t.every,
            "decision": d.decision, "games": d.games, "llr": d.llr, "bounds": list(t.bounds)}


def comparison_csv(c: Comparison) -> str:
    """The differences as CSV: variant, baseline, measure, baseline_mean, mean, difference, ci95_low, ci95_high,
    p_value (empty when nothing varied), real."""
    import csv
    import io

    buffer = io.StringIO()
    out = csv.writer(buffer, lineterminator="\n")
    out.writerow(("variant", "baseline", "measure", "baseline_mean", "mean", "difference", "ci95_low", "ci95_high",
                  "p_value", "real"))
    for r in differences(c):
        out.writerow([r["variant"], r["baseline"], r["measure"], repr(r["baseline_mean"]), repr(r["mean"]),
                      repr(r["difference"]), repr(r["ci95"][0]), repr(r["ci95"][1]),
                      "" if r["p_value"] is None else repr(r["p_value"]), str(r["real"]).lower()])
    return buffer.getvalue()


def comparison_svg(c: Comparison) -> str:
    """One chart of the what-if: per result the game can have, a bar per variant for its share of the games with
    its 95% Wilson interval (output.bars_svg), each variant in a colour of its own."""
    from .output import Mark, bars_svg
    from .summary import result_rows

    rows = [{r["name"]: r for r in result_rows(s)} for s in c.summaries]
    names = list(dict.fromkeys(name for by_name in rows for name in by_name))  # (unfinished where a variant had it)
    marks: list[Mark] = [("result", f"{name} ({variant.name})", None, by_name[name])
                         for name in names for variant, by_name in zip(c.variants, rows) if name in by_name]
    first = c.summaries[0]
    title = f"{c.game}: {first.played} games, seed {first.seed}, under " + ", ".join(v.name for v in c.variants)
    return bars_svg(title, "share of games", marks, first.played, cycle=len(c.variants))


__all__ = ["REAL", "Comparison", "Interrupted", "comparison_csv", "comparison_json", "comparison_svg",
           "comparison_text", "compare",
           "differences", "measures_of"]
