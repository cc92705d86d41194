"""refimpl: the reference implementation and conformance harness for the five tabletop rule specs."""

__version__ = "0.2.0"  # semantic versioning; CHANGELOG.md says what each release changed

PROTOCOL_VERSION = 1  # the build protocol version (specs/protocol.md), spoken by serve and checked by verify
