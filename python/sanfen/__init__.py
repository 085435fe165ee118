"""sanfen: chess notation (FEN, SAN, PGN) checked, explained and converted, fast."""

from sanfen._sanfen import __version__

__all__ = ["__version__"]
