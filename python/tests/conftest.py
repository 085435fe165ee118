"""What the tests share: where the repository, the shared data and the
command-line tool are."""

import os
from pathlib import Path

import pytest

# the repository root (python/tests/ is two levels down)
ROOT = Path(__file__).resolve().parents[2]


def sanfen_binary():
    """The command-line tool: $SANFEN_BIN, else the newer of the release and
    test-profile builds in the repository's target/ (`cargo build --release`
    or `cargo test` builds one). A test that needs it fails without it: it is
    never skipped."""
    if os.environ.get("SANFEN_BIN"):
        return os.environ["SANFEN_BIN"]
    built = [ROOT / "target" / profile / "sanfen" for profile in ("release", "debug")]
    built = [path for path in built if path.exists()]
    if not built:
        pytest.fail("no sanfen binary: run `cargo build --release` in the repository root, or set SANFEN_BIN")
    return str(max(built, key=lambda path: path.stat().st_mtime))


def zstd_file(path, data, cut=False):
    """`path`, written with `data` zstd-compressed (pyarrow's codec); with
    `cut`, only the first half of the compressed bytes (a truncated file)."""
    import pyarrow as pa

    compressed = pa.Codec("zstd").compress(data, asbytes=True)
    path.write_bytes(compressed[: len(compressed) // 2] if cut else compressed)
    return path
