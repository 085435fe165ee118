"""Type stubs of the native module ``sanfen._sanfen`` (re-exported by ``sanfen``)."""

import os
from typing import IO, Iterable, Iterator, List, Literal, Mapping, Optional, Sequence, Tuple, Union, final

from arro3.core import RecordBatch, Schema, Table

__version__: str

# ---- positions, FEN checks and the exceptions ----------------------------------------

class FenError(ValueError):
    """A FEN that is not valid: a syntax error or an illegal position."""

    findings: list[Finding]
    """The findings, errors first, each group in input order."""

class IllegalMoveError(ValueError):
    """A move that is no legal move of the position."""

    text: str
    """The move as given."""
    reason: str
    """Why it is illegal, in words."""
    suggestions: list[str]
    """The legal moves closest to it, best first, in SAN."""

class AmbiguousMoveError(ValueError):
    """A move that more than one legal move fits."""

    text: str
    """The move as given."""
    spellings: list[str]
    """The canonical SAN of each fitting move."""
    squares: list[str]
    """Their origin squares."""

class InvalidMoveError(ValueError):
    """Text that is not a move at all."""

    text: str
    """The text as given."""
    span: tuple[int, int]
    """The byte range (start, end) of the problem in the text's UTF-8 form."""
    found: str
    """The offending text (empty when something is missing)."""
    expected: str
    """What would be right there, in words."""

@final
class Finding:
    """One problem of a FEN: a syntax error, an illegal position's reason, or a
    spelling that canonical FEN writes otherwise."""

    def __init__(
        self,
        severity: str,
        code: str,
        message: str,
        field: str,
        span: Optional[tuple[int, int]],
        squares: list[str],
    ) -> None: ...
    @property
    def severity(self) -> Literal["error", "warning"]: ...
    @property
    def code(self) -> str:
        """A stable identifier: ``"fen:syntax"``, ``"fen:castling"``, ..."""
    @property
    def message(self) -> str: ...
    @property
    def field(
        self,
    ) -> Literal["placement", "turn", "castling", "en-passant", "halfmove", "fullmove", "layout"]: ...
    @property
    def span(self) -> Optional[tuple[int, int]]:
        """Byte offsets (start, end) in the input, end exclusive, or None."""
    @property
    def squares(self) -> list[str]: ...
    def __eq__(self, other: object) -> bool: ...

@final
class FenReport:
    """The report of ``check_fen``."""

    def __init__(
        self, input: str, valid: bool, errors: list[Finding], warnings: list[Finding], fen: Optional[str]
    ) -> None: ...
    @property
    def input(self) -> str: ...
    @property
    def valid(self) -> bool: ...
    @property
    def errors(self) -> list[Finding]: ...
    @property
    def warnings(self) -> list[Finding]: ...
    @property
    def fen(self) -> Optional[str]:
        """The canonical FEN, or None when the FEN is not valid."""
    def __bool__(self) -> bool: ...
    def __eq__(self, other: object) -> bool: ...

def check_fen(text: Union[str, bytes], chess960: bool = False) -> FenReport:
    """Checks a FEN (syntax with byte spans, legality, spelling) as
    ``sanfen fen check --json`` does. Never raises for bad FEN text."""

@final
class Lint:
    """How a move was written otherwise than canonical SAN writes it."""

    def __init__(self, code: str, message: str, canonical: str, span: Optional[tuple[int, int]]) -> None: ...
    @property
    def code(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def canonical(self) -> str: ...
    @property
    def span(self) -> Optional[tuple[int, int]]: ...
    def __eq__(self, other: object) -> bool: ...

@final
class Move:
    """A move played or resolved on a position."""

    def __init__(
        self,
        san: str,
        uci: str,
        from_square: str,
        to_square: str,
        promotion: Optional[str],
        lints: list[Lint],
    ) -> None: ...
    @property
    def san(self) -> str: ...
    @property
    def uci(self) -> str: ...
    @property
    def from_square(self) -> str: ...
    @property
    def to_square(self) -> str: ...
    @property
    def promotion(self) -> Optional[str]: ...
    @property
    def lints(self) -> list[Lint]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Candidate:
    """A candidate origin square of a resolved move, kept or rejected."""

    def __init__(
        self, square: str, kept: bool, reason: Optional[str], rejection: Optional[str], by: list[str]
    ) -> None: ...
    @property
    def square(self) -> str: ...
    @property
    def kept(self) -> bool: ...
    @property
    def reason(self) -> Optional[str]: ...
    @property
    def rejection(
        self,
    ) -> Optional[
        Literal[
            "wrong-file",
            "wrong-rank",
            "cannot-reach",
            "blocked",
            "nothing-to-capture",
            "pinned",
            "leaves-king-in-check",
        ]
    ]: ...
    @property
    def by(self) -> list[str]: ...
    def __eq__(self, other: object) -> bool: ...

@final
class Resolution:
    """How a text is read against a position: readings, candidates, outcome."""

    def __init__(
        self,
        text: str,
        readings: list[str],
        reading: Optional[int],
        candidates: list[Candidate],
        played: Optional[Move],
        error: Union[IllegalMoveError, AmbiguousMoveError, InvalidMoveError, None],
        suggestions: list[str],
        lints: list[Lint],
        fen_after: Optional[str],
    ) -> None: ...
    @property
    def text(self) -> str: ...
    @property
    def readings(self) -> list[str]: ...
    @property
    def reading(self) -> Optional[int]: ...
    @property
    def candidates(self) -> list[Candidate]: ...
    @property
    def move(self) -> Optional[Move]: ...
    @property
    def error(self) -> Union[IllegalMoveError, AmbiguousMoveError, InvalidMoveError, None]: ...
    @property
    def suggestions(self) -> list[str]: ...
    @property
    def lints(self) -> list[Lint]: ...
    @property
    def fen_after(self) -> Optional[str]: ...
    @property
    def ok(self) -> bool: ...

@final
class Outcome:
    """How a game ends by the rules that need no claim: checkmate, stalemate,
    insufficient material, fivefold repetition, the seventy-five-move rule."""

    def __init__(self, result: str, reason: str, winner: Optional[str]) -> None: ...
    @property
    def result(self) -> Literal["1-0", "0-1", "1/2-1/2"]: ...
    @property
    def reason(
        self,
    ) -> Literal["checkmate", "stalemate", "insufficient material", "fivefold repetition", "seventy-five-move rule"]: ...
    @property
    def winner(self) -> Optional[Literal["white", "black"]]: ...
    def __eq__(self, other: object) -> bool: ...

Notation = Literal["san", "lan", "uci", "figurine", "file-prefixed"]
#: The notations a PGN's moves are written in (``to_pgn``): those read back.
PgnNotation = Literal["san", "lan", "uci", "figurine"]
Order = Literal["natural", "value"]

class Position:
    """A legal chess position (standard chess or Chess960)."""

    def __init__(
        self,
        fen: Union[str, bytes, None] = None,
        chess960: bool = False,
        lenient: bool = False,
    ) -> None: ...
    @staticmethod
    def from_chess960_pos(number: int) -> Position:
        """The Chess960 start position of ``number`` (0 to 959)."""
    def fen(self) -> str:
        """The canonical FEN."""
    @property
    def turn(self) -> Literal["white", "black"]: ...
    @property
    def chess960(self) -> bool: ...
    @property
    def halfmove_clock(self) -> int: ...
    @property
    def fullmove_number(self) -> int: ...
    def legal_moves(self, notation: Notation = "san", order: Order = "natural", letters: str = "en") -> list[str]:
        """The legal moves as text in ``notation``, in ``order``."""
    def play(self, text: str, letters: str = "en") -> Move:
        """Plays the move ``text`` names, in any spelling; raises
        InvalidMoveError, IllegalMoveError or AmbiguousMoveError."""
    def push_uci(self, uci: str) -> Move:
        """Plays a move given in UCI."""
    def pop(self) -> Move:
        """Takes back the last move played; IndexError when none was."""
    def peek(self) -> Move:
        """The last move played; IndexError when none was."""
    @property
    def move_stack(self) -> list[Move]:
        """The moves played on this position since it was made."""
    def resolve(self, text: str, letters: str = "en") -> Resolution:
        """Resolves ``text`` without playing it: candidates, reasons, outcome."""
    def is_check(self) -> bool: ...
    def is_checkmate(self) -> bool: ...
    def is_stalemate(self) -> bool: ...
    def is_insufficient_material(self) -> bool: ...
    def is_repetition(self, count: int = 3) -> bool:
        """Whether the position has occurred ``count`` times since this one was made."""
    def claimable_draw(self) -> Optional[Literal["threefold repetition", "fifty-move rule"]]:
        """The draw the side to move may claim now, or None."""
    def is_game_over(self) -> bool: ...
    def outcome(self) -> Optional[Outcome]:
        """How the game ends: mate, stalemate, insufficient material,
        fivefold repetition or the seventy-five-move rule; or None."""
    def to_pgn(
        self, tags: Union[Mapping[str, str], Iterable[tuple[str, str]], None] = None, notation: PgnNotation = "san"
    ) -> str:
        """The moves played since the position was made, as a PGN game: the
        Seven Tag Roster, ``tags``, ``SetUp``/``FEN``/``Variant`` from the
        position made; the result as the game ended on the board, or the
        ``Result`` given, or ``*``; the moves in ``notation``. ValueError for
        a tag it cannot write."""
    def board(self) -> list[list[int]]:
        """The integer matrix: row 0 = rank 1, 1..6 white pawn..king, negative black, 0 empty."""
    def copy(self) -> Position: ...
    def __copy__(self) -> Position: ...
    def __deepcopy__(self, memo: object) -> Position: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

# games: PGN games, checks and tables

Source = Union[str, os.PathLike, IO[bytes], IO[str]]

class Eval:
    """An evaluation from White's side: centipawns or mate in N (one is None)."""

    def __init__(self, centipawns: Optional[int], mate: Optional[int], depth: Optional[int]) -> None: ...
    @property
    def centipawns(self) -> Optional[int]: ...
    @property
    def mate(self) -> Optional[int]: ...
    @property
    def depth(self) -> Optional[int]: ...

class PgnFinding:
    """A finding of `sanfen check`, with the fields of its JSON output."""

    def __init__(
        self,
        file: str,
        game: int,
        line: int,
        column: int,
        ply: Optional[int],
        move_number: Optional[int],
        side: Optional[str],
        token: str,
        kind: str,
        message: str,
        suggestion: Optional[str],
        severity: str,
        repeats: int,
        until: Optional[tuple[int, int]],
    ) -> None: ...
    @property
    def file(self) -> str: ...
    @property
    def game(self) -> int: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def ply(self) -> Optional[int]: ...
    @property
    def move_number(self) -> Optional[int]: ...
    @property
    def side(self) -> Optional[str]: ...
    @property
    def token(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def suggestion(self) -> Optional[str]: ...
    @property
    def severity(self) -> str: ...
    @property
    def repeats(self) -> int: ...
    @property
    def until(self) -> Optional[tuple[int, int]]: ...

class Node:
    """A move of a game, and what follows it."""

    @property
    def san(self) -> str: ...
    @property
    def uci(self) -> str: ...
    @property
    def written(self) -> str: ...
    @property
    def ply(self) -> int: ...
    @property
    def number(self) -> int: ...
    @property
    def side(self) -> str: ...
    @property
    def clock(self) -> Optional[float]: ...
    @property
    def elapsed(self) -> Optional[float]: ...
    @property
    def eval(self) -> Optional[Eval]: ...
    @property
    def comment(self) -> str: ...
    @property
    def comments(self) -> list[str]: ...
    @property
    def nags(self) -> list[int]: ...
    @property
    def variations(self) -> list[list[Node]]: ...

class Game:
    """A game read from PGN."""

    @property
    def number(self) -> int: ...
    @property
    def tags(self) -> dict[str, str]: ...
    @property
    def headers(self) -> dict[str, str]: ...
    @property
    def mainline(self) -> list[Node]: ...
    @property
    def comment(self) -> str: ...
    @property
    def result(self) -> Optional[str]: ...
    @property
    def start_fen(self) -> Optional[str]: ...
    def position(self) -> Optional[Position]:
        """The position after the mainline's moves (up to its first error),
        with those moves in its move_stack; None when they are not played."""
    def outcome(self) -> Optional[Outcome]:
        """How the position after the mainline ends the game by the rules of
        play, as the games table's termination; or None."""
    def opening(self) -> Optional[tuple[str, str]]:
        """The mainline's opening, (eco, name), as the games table's eco and
        opening; or None."""
    @property
    def findings(self) -> list[PgnFinding]: ...
    @property
    def errors(self) -> int: ...
    @property
    def lints(self) -> int: ...
    @property
    def skipped(self) -> Optional[str]: ...
    def to_pgn(self, notation: PgnNotation = "san") -> str: ...

class GameReader(Iterator[Game]):
    """The games of a PGN input, in input order."""

    def __iter__(self) -> GameReader: ...
    def __next__(self) -> Game: ...

class CheckResult:
    """The findings and counts of `check_pgn`."""

    def __init__(
        self, findings: list[PgnFinding], skipped: list[tuple[int, str]], summary: dict[str, int]
    ) -> None: ...
    @property
    def findings(self) -> list[PgnFinding]: ...
    @property
    def skipped(self) -> list[tuple[int, str]]: ...
    @property
    def summary(self) -> dict[str, int]: ...

# An Arrow table, and Arrow record batches read as they are asked for, once:
# arro3.core's (the Arrow PyCapsule stream interface, which pyarrow, polars
# and duckdb read)
ArrowTable = Table

@final
class BatchReader(Iterator[RecordBatch]):
    """A table's record batches, read as they are asked for (what
    `games_batches` and `moves_batches` give). Iterated, each batch is read
    with the GIL released and a read error raises what `read_games` raises
    for it; through `__arrow_c_stream__` (pyarrow, polars, duckdb) the
    batches not read yet are handed over, once, and an error ends that
    stream with its message."""

    @property
    def schema(self) -> Schema: ...
    @property
    def closed(self) -> bool:
        """Read to the end by `read_all` or to an error, or handed over."""
    def __iter__(self) -> BatchReader: ...
    def __next__(self) -> RecordBatch: ...
    def read_next_batch(self) -> RecordBatch: ...
    def read_all(self) -> Table:
        """The batches not read yet, as a table; interrupted (Ctrl-C) or
        stopped by an error, it keeps the batches it read for the next read."""
    def __arrow_c_schema__(self) -> object: ...
    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...

ArrowStream = BatchReader

def read_games(source: Source, threads: Optional[int] = None, letters: str = "en") -> GameReader: ...
def check_pgn(
    source: Source,
    threads: Optional[int] = None,
    strict: bool = False,
    allow: Sequence[str] = (),
    deny: Sequence[str] = (),
    letters: str = "en",
) -> CheckResult: ...
def games_table(source: Source, threads: Optional[int] = None, letters: str = "en") -> ArrowTable: ...
def moves_table(
    source: Source, threads: Optional[int] = None, fen: bool = False, variations: bool = False, letters: str = "en"
) -> ArrowTable: ...
def games_batches(source: Source, threads: Optional[int] = None, letters: str = "en") -> ArrowStream: ...
def moves_batches(
    source: Source, threads: Optional[int] = None, fen: bool = False, variations: bool = False, letters: str = "en"
) -> ArrowStream: ...

# for sanfen.spark: byte ranges of a plain file, their counts, their tables
# (each a stream of record batches, read as they are asked for), of a path
# or a seekable binary file object (a pyarrow.fs file)
RangeSource = Union[str, "os.PathLike[str]", IO[bytes]]
_MOST_RANGES: int

def _byte_ranges(source: RangeSource, parts: int, name: Optional[str] = None) -> List[Tuple[int, int]]: ...
def _range_counts(source: RangeSource, start: int, end: int, name: Optional[str] = None) -> Tuple[int, int]: ...
def _range_batches(
    source: RangeSource,
    start: int,
    end: Optional[int],
    table: str,
    fen: bool,
    variations: bool,
    first_game: int,
    first_line: int,
    name: str,
    letters: str = "en",
) -> ArrowStream: ...
def _schema(table: str, fen: bool, variations: bool) -> ArrowTable: ...
def _letters(name: str) -> str: ...
