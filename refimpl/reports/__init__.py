"""The reports: what a run found, in every form it is shown.

- ``model``: the verify report (checks, their failures with the rules that own each differing field, the
  matrix, the exit code); ``failures``: a replayed trace's failure, with the rules owning its fields;
- ``text`` (replay's ledgers, verify's matrix), ``jsondoc`` (machine output), ``junit``, ``markdown`` (the
  step summary) and ``github`` (annotations): the report's renderings;
- ``htmlpage``: the report as one self-contained HTML page (Jinja2, ``templates/``), with ``pictures/`` of the
  positions; ``show``: one step of a trace drawn; ``hexmap``: the Black Fog map as text;
- ``badges``: Shields endpoint badges; ``transcript``: a failing check's raw exchanges as JSON Lines;
- ``runs``: saved reports read back and compared;
- ``matrix`` (many builds side by side: text, JSON, markdown, JUnit), ``matrixhtml`` (its page), ``matrixdiff``
  (saved matrices read back and compared) and ``site`` (the static site of runs);
- ``campaigns``: what fuzz and the power meter print as text; ``terminal``: a text report in colour;
- ``safetext``: what a build sent, made safe for a terminal, JSON and XML.
"""
