"""Project-wide pytest configuration."""

from rules.ema import mapindex

pytest_plugins = ["tests.rules.hre.helpers"]

# Tests set EMA positions up by writing Area rows directly: every answer of the map's index is
# checked against a scan (rebuilt after such a write, an error when the engine wrote around it).
mapindex.CHECK = True
