"""The step definitions of the bundled feature files, one module per game (``common`` for the steps every
game shares, ``play`` for the Play record and the words-to-ids helpers). Importing this package registers
every step; they talk to a driver only, never to an engine."""

from . import beacon_lines, black_fog, common, conquest_king, lantern_quay, ludo, play  # noqa: F401 (they register)
