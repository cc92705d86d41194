"""The campaigns: long runs of many jobs, each on the executor (local processes or a Dask cluster).

- ``fuzz/``: differential fuzzing of a build against the reference, shrunk to a short reproducer trace;
- ``mutants/``: the power meter, single-point mutants of the engines served as builds and judged by verify or
  fuzz;
- ``simulate``: full Ludo games between CPU levels, each seat's win rate with its confidence interval.
"""
