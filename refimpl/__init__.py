"""refimpl: the reference implementation and conformance harness for the five tabletop rule specs."""

__version__ = "0.1.0"
