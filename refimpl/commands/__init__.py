"""The commands of ``refimpl``, one module each (``<name>.py`` holds the click command ``<name>_cmd``, registered on
the group in refimpl/cli.py), and ``options``, what several of them share. A command reads its options, calls the
library and prints what the reports room renders; it renders nothing itself."""
