"""The power meter (``refimpl mutants``): how many single-point mutants of the reference engines does
``verify`` (or ``fuzz``) tell from the reference? See campaign.py for the run and judges.py for how a mutant is
served and judged."""

from .campaign import (
    EQUIVALENTS,
    Judgement,
    MutantsError,
    Score,
    equivalence,
    game_of,
    load_equivalents,
    population,
    run_campaign,
    sample,
    score,
    score_json,
    score_text,
    stale_judgements,
)
from .operators import OPERATORS, Site, mutate

__all__ = ["EQUIVALENTS", "OPERATORS", "Judgement", "MutantsError", "Score", "Site", "equivalence", "game_of",
           "load_equivalents", "mutate", "population", "run_campaign", "sample", "score", "score_json",
           "score_text", "stale_judgements"]
