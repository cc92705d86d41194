"""``python -m refimpl.page TARGET``: the bridge to a web page (bridge.py)."""

import sys

from .bridge import main

sys.exit(main())
