"""The package imports and says its version."""

import re

import sanfen


def test_version_is_the_crates():
    cargo = open(__file__.replace("tests/test_package.py", "Cargo.toml")).read()
    version = re.search(r'^version = "([^"]+)"', cargo, re.M).group(1)
    assert sanfen.__version__ == version
