"""sanfen.games_table and sanfen.moves_table: Arrow tables that pyarrow,
polars and duckdb read, with exact values."""

import io
import os
import pathlib
import signal
import threading

import duckdb
import polars as pl
import pyarrow as pa
import pytest

import sanfen
from conftest import zstd_file

DATA = pathlib.Path(__file__).resolve().parents[3] / "shared" / "data" / "pgn"

PGN = b"""[Event "Test"]
[Site "Lisboa"]
[White "Ana"]
[Black "Bruno"]
[Result "1-0"]
[WhiteElo "2100"]
[TimeControl "180+0"]

1. e4 { [%clk 0:03:00] [%eval 0.25] good } 1... e5 { [%clk 0:02:58.5] [%eval #-3] } 2. Qh5?! $18 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "Broken"]

1. e4 e5 2. Ke3 *
"""

GAMES_SCHEMA = [
    ("file", pa.string()),
    ("game", pa.uint64()),
    ("line", pa.uint32()),
    ("byte_offset", pa.uint64()),
    ("Event", pa.string()),
    ("Site", pa.string()),
    ("Date", pa.string()),
    ("Round", pa.string()),
    ("White", pa.string()),
    ("Black", pa.string()),
    ("Result", pa.string()),
    ("other_tags", pa.map_(pa.string(), pa.string())),
    ("movetext_result", pa.string()),
    ("termination", pa.string()),
    ("plies", pa.uint32()),
    ("errors", pa.uint32()),
    ("first_error", pa.string()),
    ("eco", pa.string()),
    ("opening", pa.string()),
]

MOVES_SCHEMA = [
    ("file", pa.string()),
    ("game", pa.uint64()),
    ("ply", pa.uint32()),
    ("number", pa.uint32()),
    ("side", pa.string()),
    ("san", pa.string()),
    ("uci", pa.string()),
    ("written", pa.string()),
    ("is_capture", pa.bool_()),
    ("is_check", pa.bool_()),
    ("clock", pa.float64()),
    ("elapsed", pa.float64()),
    ("eval_cp", pa.int32()),
    ("eval_mate", pa.int32()),
    ("nags", pa.list_(pa.field("item", pa.uint8(), nullable=False))),
    ("comment", pa.string()),
]

ILLEGAL = "13:13: [san:illegal] illegal: no king can move to e3; did you mean Ke2?"


def test_games_table_in_pyarrow():
    table = pa.table(sanfen.games_table(io.BytesIO(PGN)))
    assert [(f.name, f.type) for f in table.schema] == GAMES_SCHEMA
    rows = table.to_pylist()
    assert rows[0] == {
        "file": "<stream>",
        "game": 1,
        "line": 1,
        "byte_offset": 0,
        "Event": "Test",
        "Site": "Lisboa",
        "Date": None,
        "Round": None,
        "White": "Ana",
        "Black": "Bruno",
        "Result": "1-0",
        "other_tags": [("WhiteElo", "2100"), ("TimeControl", "180+0")],
        "movetext_result": "1-0",
        "termination": "checkmate",
        "plies": 7,
        "errors": 0,
        "first_error": None,
        "eco": "C20",
        "opening": "King's Pawn Game: Wayward Queen Attack",
    }
    second = rows[1]
    assert (second["game"], second["Event"], second["White"], second["other_tags"]) == (2, "Broken", None, [])
    assert (second["movetext_result"], second["plies"], second["errors"]) == ("*", 2, 1)
    assert second["first_error"] == ILLEGAL
    [game] = [g for g in sanfen.read_games(io.BytesIO(PGN)) if g.number == 2]
    [error] = [f for f in game.findings if f.severity == "error"]
    assert second["first_error"] == f"{error.line}:{error.column}: [{error.kind}] {error.message}"



def test_a_tag_given_twice_is_one_map_key_with_its_last_value():
    pgn = b'[Event "A"]\n[Foo "x"]\n[Bar "1"]\n[Foo "y"]\n[White "Ana"]\n[White "Bia"]\n\n1. e4 *\n'
    games = pa.table(sanfen.games_table(io.BytesIO(pgn)))
    [row] = games.select(["White", "other_tags"]).to_pylist()
    assert row == {"White": "Bia", "other_tags": [("Foo", "y"), ("Bar", "1")]}
    # as a Python dict reads the tags, and as duckdb reads the map
    [game] = sanfen.read_games(io.BytesIO(pgn))
    assert game.tags == {"Event": "A", "Foo": "y", "Bar": "1", "White": "Bia"}
    assert [(f.kind, f.line) for f in game.findings if f.kind == "pgn:duplicate-tag"] == [
        ("pgn:duplicate-tag", 4),
        ("pgn:duplicate-tag", 6),
    ]
    assert duckdb.sql("select other_tags['Foo'], cardinality(other_tags) from games").fetchall() == [("y", 2)]

S = "<stream>"
EXPECTED_MOVES = [
    (S, 1, 1, 1, "white", "e4", "e2e4", None, False, False, 180.0, None, 25, None, [], "good"),
    (S, 1, 2, 1, "black", "e5", "e7e5", None, False, False, 178.5, None, None, -3, [], None),
    (S, 1, 3, 2, "white", "Qh5", "d1h5", "Qh5?!", False, False, None, None, None, None, [6, 18], None),
    (S, 1, 4, 2, "black", "Nc6", "b8c6", None, False, False, None, None, None, None, [], None),
    (S, 1, 5, 3, "white", "Bc4", "f1c4", None, False, False, None, None, None, None, [], None),
    (S, 1, 6, 3, "black", "Nf6", "g8f6", None, False, False, None, None, None, None, [], None),
    (S, 1, 7, 4, "white", "Qxf7#", "h5f7", None, True, True, None, None, None, None, [], None),
    (S, 2, 1, 1, "white", "e4", "e2e4", None, False, False, None, None, None, None, [], None),
    (S, 2, 2, 1, "black", "e5", "e7e5", None, False, False, None, None, None, None, [], None),
]


def test_moves_table_in_pyarrow():
    table = pa.table(sanfen.moves_table(io.BytesIO(PGN)))
    assert [(f.name, f.type) for f in table.schema] == MOVES_SCHEMA
    assert [tuple(row.values()) for row in table.to_pylist()] == EXPECTED_MOVES


def test_moves_table_with_fen_in_a_record_batch_reader():
    reader = pa.RecordBatchReader.from_stream(sanfen.moves_table(io.BytesIO(PGN), fen=True))
    table = reader.read_all()
    assert table.schema.names[-1] == "fen"
    fens = table.column("fen").to_pylist()
    assert fens[0] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert fens[6] == "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
    assert fens[8] == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"


def test_tables_in_polars():
    games = pl.DataFrame(sanfen.games_table(io.BytesIO(PGN)))
    assert games["game"].to_list() == [1, 2]
    assert games["White"].to_list() == ["Ana", None]
    assert games["errors"].to_list() == [0, 1]
    moves = pl.from_arrow(pa.table(sanfen.moves_table(io.BytesIO(PGN))))
    assert moves.columns == [name for name, _ in MOVES_SCHEMA]
    assert moves["clock"].to_list() == [row[10] for row in EXPECTED_MOVES]
    assert moves["eval_mate"].to_list() == [row[13] for row in EXPECTED_MOVES]
    assert moves["nags"].to_list() == [row[14] for row in EXPECTED_MOVES]


def test_tables_in_duckdb():
    moves = sanfen.moves_table(io.BytesIO(PGN))
    rows = duckdb.sql("select game, count(*), max(clock), min(eval_mate) from moves group by game order by game")
    assert rows.fetchall() == [(1, 7, 180.0, -3), (2, 2, None, None)]
    games = sanfen.games_table(io.BytesIO(PGN))
    assert duckdb.sql("select Event, plies, first_error is null from games order by game").fetchall() == [
        ("Test", 7, True),
        ("Broken", 2, False),
    ]


def test_an_empty_input_is_an_empty_table():
    table = pa.table(sanfen.moves_table(io.BytesIO(b"")))
    assert table.num_rows == 0
    assert [(f.name, f.type) for f in table.schema] == MOVES_SCHEMA


@pytest.mark.parametrize("threads", [1, 2])
def test_moves_table_is_read_games(threads):
    """On a real file, each row is what read_games says of the move."""
    path = DATA / "tcec" / "TCEC_Season_13_-_Superfinal.pgn"
    table = pa.table(sanfen.moves_table(path, threads=threads)).to_pylist()
    expected = []
    for game in sanfen.read_games(path):
        for m in game.mainline:
            score = m.eval
            expected.append(
                {
                    "file": str(path),
                    "game": game.number,
                    "ply": m.ply,
                    "number": m.number,
                    "side": m.side,
                    "san": m.san,
                    "uci": m.uci,
                    "written": None if m.written == m.san else m.written,
                    "is_capture": "x" in m.san,
                    "is_check": m.san[-1] in "+#",
                    "clock": m.clock,
                    "elapsed": m.elapsed,
                    "eval_cp": None if score is None else score.centipawns,
                    "eval_mate": None if score is None else score.mate,
                    "nags": m.nags,
                    "comment": m.comment or None,
                }
            )
    assert len(expected) > 10000
    assert table == expected
    games = pa.table(sanfen.games_table(path, threads=threads))
    assert games.num_rows == 100
    assert sum(games.column("plies").to_pylist()) == len(expected)


def range_stream(path, table, **options):
    """The record batch reader of the whole of `path`, as sanfen.spark reads
    a compressed file (its games numbered from 1, its name as given)."""
    fen, variations = options.get("fen", False), options.get("variations", False)
    stream = sanfen._sanfen._range_batches(str(path), 0, None, table, fen, variations, 1, 1, str(path))
    return pa.RecordBatchReader.from_stream(stream)


LICHESS = DATA / "shakmaty-bench" / "lichess_db_1000k.pgn"


@pytest.fixture(scope="module")
def lichess_40(tmp_path_factory):
    """lichess's 438 games 40 times over (40 MB), zstd-compressed: 17,520
    games, 1,141,520 moves."""
    return zstd_file(tmp_path_factory.mktemp("big") / "big.pgn.zst", LICHESS.read_bytes() * 40)


@pytest.mark.parametrize("table", ["games", "moves"])
def test_a_range_is_streamed_in_batches_that_make_the_table(lichess_40, table):
    batches = list(range_stream(lichess_40, table))
    whole = sanfen.games_table(lichess_40) if table == "games" else sanfen.moves_table(lichess_40)
    whole = pa.table(whole)
    # several batches, read one after another, hold the table
    assert len(batches) == (2 if table == "games" else 152)
    assert pa.Table.from_batches(batches).equals(whole)
    assert whole.num_rows == (17_520 if table == "games" else 1_141_520)


def test_a_range_stream_holds_a_few_batches_at_a_time(lichess_40):
    """Its moves table would take some 400 MB; the stream read to its end
    holds a batch or two. Measured in a process of its own, whose memory's
    peak (Linux's VmHWM, of the program run: getrusage's would count
    pytest's, forked) only grows."""
    import subprocess
    import sys

    script = f"""
import re, pyarrow as pa, sanfen
stream = sanfen._sanfen._range_batches({str(lichess_40)!r}, 0, None, "moves", False, False, 1, 1, "big")
rows = sum(batch.num_rows for batch in pa.RecordBatchReader.from_stream(stream))
status = open("/proc/self/status").read()
print(rows, int(re.search(r"VmHWM:\\s+(\\d+) kB", status).group(1)) // 1024)
"""
    rows, peak = map(int, subprocess.run([sys.executable, "-c", script], capture_output=True, check=True).stdout.split())
    assert rows == 1_141_520
    # pyarrow and the package alone take some 100 MB; the table, 400 more
    assert peak < 250, f"peak memory {peak} MB"


def test_a_read_error_ends_a_range_stream_naming_the_file(tmp_path):
    path = zstd_file(tmp_path / "cut.pgn.zst", LICHESS.read_bytes(), cut=True)
    rows = 0
    with pytest.raises(OSError) as error:
        for batch in range_stream(path, "moves"):
            rows += batch.num_rows
    assert f"{path}: read failed at byte " in str(error.value)
    assert str(error.value).endswith("of the zstd stream, decompressed: incomplete frame")
    # the batches before the error came first
    assert 0 < rows < 28_538


@pytest.mark.parametrize("threads", [1, 2])
def test_the_tables_as_streams_of_batches(lichess_40, threads):
    """games_batches and moves_batches: the tables batch by batch, from a
    path or a file object, for pyarrow and duckdb."""
    games = pa.RecordBatchReader.from_stream(sanfen.games_batches(lichess_40, threads=threads))
    batches = list(games)
    assert [batch.num_rows for batch in batches] == [16_384, 1_136]
    assert pa.Table.from_batches(batches).equals(pa.table(sanfen.games_table(lichess_40)))
    moves = pa.RecordBatchReader.from_stream(sanfen.moves_batches(lichess_40, threads=threads, fen=True))
    assert moves.schema == pa.table(sanfen.moves_table(io.BytesIO(b""), fen=True)).schema
    assert sum(batch.num_rows for batch in moves) == 1_141_520
    # a file object, read as the stream is
    stream = sanfen.moves_batches(io.BytesIO(PGN), threads=threads)
    assert pa.RecordBatchReader.from_stream(stream).read_all().equals(pa.table(sanfen.moves_table(io.BytesIO(PGN))))
    reader = pa.RecordBatchReader.from_stream(sanfen.games_batches(io.BytesIO(PGN)))
    assert duckdb.sql("select White, plies from reader order by game").fetchall() == [("Ana", 7), (None, 2)]


def test_the_tables_read_the_piece_letters_of_a_language(tmp_path):
    """letters="pt": the game in Portuguese letters (C cavalo, T torre, D
    dama, R rei) read whole, in every table, stream and range."""
    path = tmp_path / "pt.pgn"
    path.write_text('[Event "pt"]\n\n1. e4 e5 2. Cf3 Cc6 3. Bb5 a6 4. O-O Cf6 5. Te1 d6 6. d4 Dd7 7. h3 Rd8 *\n')
    moves = pa.table(sanfen.moves_table(str(path), letters="pt"))
    sans = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O", "Nf6", "Re1", "d6", "d4", "Qd7", "h3", "Kd8"]
    assert moves.column("san").to_pylist() == sans
    assert [w for w in moves.column("written").to_pylist() if w] == ["Cf3", "Cc6", "Cf6", "Te1", "Dd7", "Rd8"]
    games = pa.table(sanfen.games_table(str(path), letters="portuguese"))
    assert (games.column("plies").to_pylist(), games.column("errors").to_pylist()) == ([14], [0])
    english = pa.table(sanfen.games_table(str(path)))
    assert (english.column("plies").to_pylist(), english.column("errors").to_pylist()) == ([2], [1])
    streams = [
        (sanfen.moves_batches(str(path), letters="pt"), moves),
        (sanfen.games_batches(str(path), letters="pt"), games),
    ]
    for table, whole in [("moves", moves), ("games", games)]:
        stream = sanfen._sanfen._range_batches(str(path), 0, None, table, False, False, 1, 1, str(path), letters="pt")
        streams.append((stream, whole))
    for stream, whole in streams:
        assert pa.RecordBatchReader.from_stream(stream).read_all().equals(whole)
    for read in (sanfen.moves_table, sanfen.games_table, sanfen.moves_batches, sanfen.games_batches):
        with pytest.raises(ValueError, match="^unknown letters 'xx'"):
            read(str(path), letters="xx")


def test_the_tables_and_streams_are_used_as_they_are():
    """Without pyarrow: what the functions give has its schema, columns and
    batches (arro3.core objects, a dependency of the package)."""
    table = sanfen.moves_table(io.BytesIO(PGN))
    assert (table.num_rows, len(table.schema), table.schema.field(5).name) == (9, len(MOVES_SCHEMA), "san")
    assert table.column("san").to_pylist() == [row[5] for row in EXPECTED_MOVES]
    batches = list(sanfen.moves_batches(io.BytesIO(PGN)))
    assert sum(batch.num_rows for batch in batches) == 9
    assert [batch.column("uci").to_pylist() for batch in batches] == [[row[6] for row in EXPECTED_MOVES]]
    games = sanfen.games_batches(io.BytesIO(PGN)).read_all()
    assert games.column("Event").to_pylist() == ["Test", "Broken"]


def test_a_stream_is_read_once_and_its_errors_name_the_source(tmp_path):
    stream = sanfen.moves_batches(io.BytesIO(PGN))
    assert pa.RecordBatchReader.from_stream(stream).read_all().num_rows == 9
    with pytest.raises(OSError, match="closed stream"):
        pa.RecordBatchReader.from_stream(stream)
    # what cannot be opened raises at once, as read_games does
    with pytest.raises(FileNotFoundError):
        sanfen.games_batches(tmp_path / "missing.pgn")
    with pytest.raises(TypeError):
        sanfen.moves_batches(3)
    # a read error on the way ends the stream
    path = zstd_file(tmp_path / "cut.pgn.zst", LICHESS.read_bytes(), cut=True)
    with pytest.raises(OSError, match=f"{path}: read failed at byte "):
        for _ in pa.RecordBatchReader.from_stream(sanfen.games_batches(path)):
            pass


def test_a_stream_iterated_raises_what_read_games_raises(tmp_path):
    """Iterated, a stream raises for a read error what read_games raises:
    the exception of its kind, the file object's own; then it stops.
    Regression: iteration raised a bare `Exception("Io error: ...")`,
    which `except OSError` missed, and a file object's exception was lost
    to its message (Ctrl-C in its `read` came out as that `Exception`)."""
    path = zstd_file(tmp_path / "cut.pgn.zst", LICHESS.read_bytes(), cut=True)
    with pytest.raises(ValueError) as raised:
        for _ in sanfen.games_batches(path):
            pass
    with pytest.raises(ValueError) as expected:
        list(sanfen.read_games(path))
    assert str(raised.value) == str(expected.value)
    assert str(raised.value).startswith(f"{path}: read failed at byte ")

    class Broken(io.RawIOBase):
        """Two blocks of games, then `error` raised."""

        def __init__(self, error):
            self.error, self.calls = error, 0

        def readable(self):
            return True

        def readinto(self, buffer):
            self.calls += 1
            if self.calls > 2:
                raise self.error
            data = b"1. e4 e5 *\n\n" * 100
            buffer[: len(data)] = data
            return len(data)

    for batches in (sanfen.games_batches, sanfen.moves_batches):
        for error in (ConnectionResetError("the peer went away"), KeyboardInterrupt()):
            stream = batches(Broken(error))
            with pytest.raises(type(error)) as raised:
                for _ in stream:
                    pass
            assert raised.value is error
            # nothing more after the error
            assert stream.closed and list(stream) == []


def test_an_interrupted_read_all_loses_no_batch(lichess_40):
    """Ctrl-C stops `read_all` at the next batch with `KeyboardInterrupt`,
    and an error stops it; the batches it read are then kept for the next
    read, none lost."""
    stream = sanfen.moves_batches(lichess_40, threads=1, fen=True)
    # (the whole table takes some ten times longer than this)
    timer = threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            stream.read_all()
    finally:
        timer.join()
    assert not stream.closed
    assert sum(batch.num_rows for batch in stream) == 1_141_520
    # the file object raises (Ctrl-C in its `read`) after 3 MB
    data = LICHESS.read_bytes() * 5
    whole = pa.table(sanfen.moves_table(io.BytesIO(data)))

    class Interrupted(io.RawIOBase):
        at = 0

        def readable(self):
            return True

        def readinto(self, buffer):
            if self.at >= 3 << 20:
                raise KeyboardInterrupt
            n = min(len(buffer), len(data) - self.at)
            buffer[:n] = data[self.at : self.at + n]
            self.at += n
            return n

    stream = sanfen.moves_batches(Interrupted(), threads=1)
    with pytest.raises(KeyboardInterrupt):
        stream.read_all()
    got = pa.Table.from_batches([pa.record_batch(batch) for batch in stream])
    assert 0 < got.num_rows < whole.num_rows and got.equals(whole.slice(0, got.num_rows))
    assert stream.closed


def test_a_stream_is_an_iterator_of_batches_read_once():
    stream = sanfen.moves_batches(io.BytesIO(PGN))
    assert repr(stream) == "<sanfen BatchReader of 16 columns: file, game, ply, number, side, san, uci, written, " \
        "is_capture, is_check, clock, elapsed, eval_cp, eval_mate, nags, comment>"
    assert list(stream.schema.names) == [field.name for field in pa.schema(stream)]
    assert not stream.closed
    batch = stream.read_next_batch()
    assert batch.column("san").to_pylist() == [row[5] for row in EXPECTED_MOVES]
    with pytest.raises(StopIteration):
        stream.read_next_batch()
    assert list(stream) == [] and not stream.closed
    # read_all: what is left, then closed
    stream = sanfen.games_batches(io.BytesIO(PGN))
    assert stream.read_all().num_rows == 2 and stream.closed
    assert list(stream) == []
    with pytest.raises(OSError, match="closed stream: the batches were read"):
        pa.RecordBatchReader.from_stream(stream)
    # handed over as a C stream: what was not read yet, once
    stream = sanfen.games_batches(io.BytesIO(PGN * 20_000))
    first = next(stream)
    rest = pa.RecordBatchReader.from_stream(stream).read_all()
    assert first.num_rows + rest.num_rows == 40_000 and stream.closed
    with pytest.raises(OSError, match="closed stream"):
        next(stream)
