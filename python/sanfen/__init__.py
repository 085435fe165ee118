"""sanfen: chess notation (FEN, SAN, PGN) checked, explained and converted, fast."""

from sanfen._sanfen import __version__

__all__ = ["__version__"]

# games: PGN games, checks and tables
from sanfen._sanfen import (  # noqa: E402
    CheckResult,
    Eval,
    Finding,
    Game,
    GameReader,
    Move,
    check_pgn,
    games_table,
    moves_table,
    read_games,
)

__all__ += [
    "CheckResult",
    "Eval",
    "Finding",
    "Game",
    "GameReader",
    "Move",
    "check_pgn",
    "games_table",
    "moves_table",
    "read_games",
]
