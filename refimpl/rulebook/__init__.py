"""What the kit reads from the specs and gives back about them: rule and ruling IDs and their text
(``rules``), everything the kit holds about one rule (``lookup``: ``refimpl rule ID``), the values a spec
leaves to the builder (``profiles``: ``refimpl profile GAME``, ``--profile FILE``) and the tables rendered from
the games' data (``tables``: ``refimpl tables``, and the specs' own tables, ``python -m refimpl.rulebook.tables``)."""
