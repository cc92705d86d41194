"""``refimpl prompt GAME``: a text a builder pastes into an AI game maker (issue 46): the game's rules in brief,
each with its ID, taken from the spec as the kit judges by it, the sections that fix the exact data (the state
view, the set-up, the legal actions, the actions and their codes), and the in-page contract the kit's
``--page`` speaks to. Everything comes from the spec's text at the time: nothing is written here twice."""

from __future__ import annotations

import re

from .. import suite
from ..games import GAMES
from .rules import spec_rules

SECTIONS = ("State view", "Start and set-up", "Legal actions", "Actions")
CONTRACT = """\
## The contract the page must expose (checked by `refimpl verify --page`)

Build the game as one web page. Keep its rules in plain functions on plain data, apart from the drawing, and
expose them to the conformance kit through its adapter module, `refimpl-adapter.mjs`, kept next to the page
(`refimpl adapter js` writes it; do not change it):

```html
<script type="module">
  import { createHandler, exposeInPage, reject } from './refimpl-adapter.mjs';
  const game = {
    name: '{name}',
    rulesets: {rulesets},
    defaultRuleset: '{default}',{observers}
    start(ruleset, seed, setup) { /* the start state, or reject('bad-request', why) for a set-up it cannot use */ },
    apply(state, action) { /* a NEW state, or reject(code, why) with the rejection code the rules above name */ },
    legal(state, observer) { /* every legal action now, as action objects */ },
    view(state, observer) { /* the state view, exactly as "State view" above says */ },
  };
  const handler = createHandler([game], { build: { name: 'my-page', version: '1.0.0' } });
  exposeInPage(handler);  // window.refimpl.handle(request): the kit's way in
  // the page's own buttons play through the same handler:
  //   await handler.handle({ id: 1, op: 'apply', action: { type: ... } })
  // and draw handler.current.state after each answer.
</script>
```

Rules for the code: `apply` never changes the state it is given (after a refusal the game is exactly as it
was); an outcome of chance given in an action (a die's face) is used exactly as given, never replaced by
`Math.random()`; every name, id and number in a view is spelled as the spec spells it, `null` where it says
`null`. Nothing may be fetched from outside the page's own folder.
"""


def _section(text: str, title: str) -> str:
    """The spec's section ``## title`` (to the next ``## ``), without its heading; empty when there is none."""
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    return found.group(1).strip() if found else ""


def prompt(game: str) -> str:
    """The prompt for ``game`` (a registered game's name). Raises KeyError for another name."""
    info = GAMES[game].info
    text = suite.spec_text(info.spec) or ""
    title = text.splitlines()[0].lstrip("# ").strip() if text else info.title
    lines = [f"# Build a web page of the tabletop game {info.title}",
             "",
             f"Write a playable single-page web version of {info.title} (players: {', '.join(info.players)}), "
             "following these rules exactly. Each rule has an ID; the conformance kit that will check the page "
             f"names the rule a difference breaks. Source: {title}.",
             "", "## The rules", ""]
    lines += [f"- **{rule}** {' '.join(body.split())}" for rule, body in spec_rules(text).items()]
    for name in SECTIONS:
        body = _section(text, name)
        if body:
            lines += ["", f"## {name}", "", body]
    observers = ("\n    observers: " + repr(list(info.players)) + ",  // hidden information: each player's view"
                 "\n    nullObservers: [],  // a name \"State view\" gives the full view, if any"
                 if info.hidden_information else "")
    lines += ["", CONTRACT.replace("{name}", info.name).replace("{rulesets}", repr(list(info.rulesets)))
              .replace("{default}", info.default_ruleset).replace("{observers}", observers)]
    return "\n".join(lines).rstrip() + "\n"
