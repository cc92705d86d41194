"""refimpl: the reference implementation and conformance harness for the five tabletop rule specs.

The package, room by room (docs/architecture.md says why each module is where it is):

- ``cli`` (the ``refimpl`` command: its group and error boundary), ``commands/`` (one module a command and the
  options they share), ``pytest_plugin`` and ``pytest_suite`` (the kit's checks under pytest);
- ``errors`` (KitError, the exit codes) and ``status`` (Status: every outcome's word, written once);
- ``games/``: one folder a game: its pure reference engine, and in ``kit/`` its registered unit (``GameKit``:
  everything the other rooms read of the game, such as its picture, scenario steps, own-chance judges, fuzzer
  hints, tables); ``registry.py``; the data files;
- ``harness/``: how the kit talks to a build and judges it: traces, drivers, the protocol and ``serve``, replay
  with the reference as oracle, explicit and own chance, preflight, perft, processes, the executor;
- ``scenarios/``: the Gherkin scenarios run in process, the steps every game shares in ``scenarios/steps``;
- ``verify/``: ``refimpl verify``: VerifySettings, the selection, the checks, expected failures, shards; many
  builds in one run (``builds``, ``many``, ``containers``);
- ``reports/``: the report model and every form of it (text, JSON, JUnit, markdown, GitHub, HTML with its
  templates and pictures, badges, transcripts), saved runs, ``show``; many builds' matrix and its site;
- ``campaigns/``: the long runs: ``fuzz/``, ``mutants/`` (the power meter), ``simulate``;
- ``rulebook/``: what the kit reads from the specs: rule IDs, ``refimpl rule``, profiles, tables;
- ``suite/`` (the bundled traces, features and specs) and ``schemas/`` (the published JSON Schemas);
- ``util/``: the user's files, JSON and YAML, read and written safely.
"""

__version__ = "0.4.0.dev0"  # semantic versioning; between releases, the next one with .dev0 (docs/development.md)

PROTOCOL_VERSION = 1  # the build protocol version (specs/protocol.md), spoken by serve and checked by verify
