"""Project-wide pytest configuration."""

pytest_plugins = ["tests.rules.hre.helpers"]
