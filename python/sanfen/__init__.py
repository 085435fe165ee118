"""sanfen: chess notation (FEN, SAN, PGN) checked, explained and converted, fast.

Positions and moves::

    >>> import sanfen
    >>> pos = sanfen.Position()
    >>> pos.play("Ng1-f3").san
    'Nf3'
    >>> sanfen.check_fen("8/8/8/8/8/8/8/8 w - - 0 1").valid
    False

The exceptions are subclasses of ``ValueError`` and carry their data as
attributes: ``FenError.findings``; ``IllegalMoveError.reason`` and
``.suggestions``; ``AmbiguousMoveError.spellings`` and ``.squares``;
``InvalidMoveError.span`` and ``.expected``.
"""

from sanfen._sanfen import (
    AmbiguousMoveError,
    Candidate,
    FenError,
    FenReport,
    Finding,
    IllegalMoveError,
    InvalidMoveError,
    Lint,
    Move,
    Outcome,
    Position,
    Resolution,
    __version__,
    check_fen,
)

__all__ = [
    "__version__",
    # positions, FEN checks and the exceptions
    "AmbiguousMoveError",
    "Candidate",
    "FenError",
    "FenReport",
    "Finding",
    "IllegalMoveError",
    "InvalidMoveError",
    "Lint",
    "Move",
    "Outcome",
    "Position",
    "Resolution",
    "check_fen",
]

# games: PGN games, checks and tables
from sanfen._sanfen import (  # noqa: E402
    BatchReader,
    CheckResult,
    Eval,
    Game,
    GameReader,
    Node,
    PgnFinding,
    check_pgn,
    games_batches,
    games_table,
    moves_batches,
    moves_table,
    read_games,
)

__all__ += [
    "BatchReader",
    "CheckResult",
    "Eval",
    "Game",
    "GameReader",
    "Node",
    "PgnFinding",
    "check_pgn",
    "games_batches",
    "games_table",
    "moves_batches",
    "moves_table",
    "read_games",
]
