"""The harness: how the kit talks to a build and judges what it answers, shared by verify, fuzz, replay, show
and the pytest plugin.

- ``trace``: traces (YAML action traces, specs/trace-format.md) loaded and checked;
- ``driver``: the one way anything talks to a build (the in-process reference, a Python factory, a process);
- ``protocol``: the kit's side of the build protocol (specs/protocol.md); ``serve``: the reference's side;
- ``processes``: every process a run starts, ended however the run ends; ``executor``: many jobs at once, in
  local processes or on a Dask cluster;
- ``compare``: partial views compared, differences named by their path;
- ``replay``: traces replayed through a driver, with the reference as oracle;
- ``chance``: chance given explicitly to a build with its own random source; ``ownchance``: that build's own
  chance judged;
- ``preflight``: traces checked against the reference before a build sees them;
- ``perft``: counts of action sequences, and a build's legal lists checked against the goldens.
"""
