"""`sanfen export` (the command-line tool) on every PGN data file: the moves
table agrees with python-chess (moves, SAN, UCI, clocks, evaluations, FEN),
the games table has one row per game with the same tags; Parquet reads
back in pyarrow, polars and duckdb with the documented schema; CSV and
JSON Lines hold the same rows."""

import csv
import functools
import io
import json
import re
import subprocess

import chess
import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import sanfen_binary
from test_games import COMPARED_FILES, DATA, ROOT, with_python_chess
from test_tables import GAMES_SCHEMA, MOVES_SCHEMA

MOVES_COLUMNS = MOVES_SCHEMA + [("fen", pa.string())]

#: The `termination` column's names of python-chess's ends of a game by the rules.
TERMINATIONS = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition",
    chess.Termination.SEVENTYFIVE_MOVES: "seventy-five-move rule",
}

ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]


@functools.cache
def book():
    """lichess's chess-openings as the repository embeds it, read by
    python-chess: each named position's EPD (the en passant square only
    when a capture there is legal) with its ECO code and name, the first
    line's name when several reach it; and the longest line's plies."""
    named, longest = {}, 0
    for path in sorted((ROOT / "data" / "openings").glob("*.tsv")):
        for line in path.read_text().splitlines()[1:]:
            eco, name, pgn = line.split("\t")
            board = chess.Board()
            moves = [token for token in pgn.split() if not token.endswith(".")]
            for san in moves:
                board.push_san(san)
            named.setdefault(board.epd(), (eco, name))
            longest = max(longest, len(moves))
    return named, longest


def opening_of(board, moves):
    """The ECO code and name of the deepest named position of `moves`
    played from `board`, among the first plies a named line has; (None,
    None) when there is none, or from a null move on."""
    named, longest = book()
    board, found = board.copy(), (None, None)
    for move in moves[:longest]:
        if not move:
            break
        board.push(move)
        found = named.get(board.epd(), found)
    return found


def words(text):
    """The words of a comment, one space between them; None for none (the
    spaces of a comment are its writer's: python-chess and sanfen keep
    them otherwise where a command is taken out)."""
    return " ".join((text or "").split()) or None


def export(tmp_path, path, *args, name="out.parquet"):
    """The file `sanfen export` writes for `path`."""
    out = tmp_path / name
    subprocess.run([sanfen_binary(), "export", "-o", str(out), *args, str(path)], check=True)
    return out


@pytest.mark.parametrize("name", COMPARED_FILES)
def test_export_agrees_with_python_chess(name, tmp_path):
    path, expected = with_python_chess(name)
    games = pq.read_table(export(tmp_path, path)).to_pylist()
    moves = pq.read_table(export(tmp_path, path, "--table", "moves", "--fen")).to_pylist()
    assert len(games) == len(expected)
    by_game = {}
    for move in moves:
        by_game.setdefault(move["game"], []).append(move)
    compared = skipped = 0
    for row, pc in zip(games, expected):
        assert row["file"] == str(path)
        headers = dict(pc.headers)
        tags = {k: row[k] for k in ROSTER if row[k] is not None}
        tags.update(dict(row["other_tags"]))
        # python-chess fills in the Seven Tag Roster when a game lacks it
        assert {k: v for k, v in headers.items() if k in tags} == tags
        if row["plies"] == 0 and pc.next() is not None:
            # a variant sanfen does not play: no moves
            assert headers.get("Variant", "standard").lower() not in ("standard", "chess", "chess960")
            skipped += 1
            continue
        board = pc.board()
        assert (row["eco"], row["opening"]) == opening_of(board, list(pc.mainline_moves()))
        got = by_game.get(row["game"], [])
        assert len(got) == row["plies"]
        want = []
        for node in pc.mainline():
            score = node.eval()
            san = board.san(node.move)
            want.append(
                {
                    "san": san,
                    "uci": board.uci(node.move),
                    "is_capture": board.is_capture(node.move),
                    "is_check": board.gives_check(node.move),
                    "clock": node.clock(),
                    "elapsed": node.emt(),
                    "eval_cp": None if score is None else score.white().score(),
                    "eval_mate": None if score is None else score.white().mate(),
                    "side": "white" if board.turn == chess.WHITE else "black",
                    "number": board.fullmove_number,
                    "nags": sorted(node.nags),
                    "comment": words(re.sub(r"\[%[^\]]*\]", " ", node.comment)),
                    "fen": None,
                }
            )
            board.push(node.move)
            want[-1]["fen"] = board.fen()
        keys = list(want[0]) if want else []
        shown = {"nags": sorted, "comment": words}
        assert [{k: shown.get(k, lambda v: v)(m[k]) for k in keys} for m in got] == want
        # how the mainline's last position ends the game, by the rules alone
        outcome = None if any(not move for move in board.move_stack) else board.outcome()
        assert row["termination"] == (outcome and TERMINATIONS[outcome.termination])
        assert [m["ply"] for m in got] == list(range(1, len(got) + 1))
        compared += 1
    assert compared + skipped == len(games) and (compared > 0 or skipped > 0 or not games)


#: Games that end by the rules at their last move, or nearly: a position
#: reached five times (and four), the seventy-fifth move without a capture
#: or pawn move (and one that mates), and material that can or cannot mate.
ENDINGS = [
    ("", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8"),
    ("", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1"),
    ("4k3/8/8/8/8/8/8/R3K3 w - - 149 120", "120. Ra2"),
    ("4k3/8/8/8/8/8/8/R3K3 w - - 148 120", "120. Ra2"),
    ("6k1/5ppp/8/8/8/8/8/R3K3 w - - 149 120", "120. Ra8#"),
    ("8/8/8/4k3/8/8/8/4KB2 w - - 0 1", "1. Bd3"),
    ("8/8/8/4k3/8/3b4/8/4KB2 w - - 0 1", "1. Be2"),
    ("8/8/8/4k3/8/4b3/8/4KB2 w - - 0 1", "1. Be2"),
    ("8/8/8/4k3/8/4n3/8/4KN2 w - - 0 1", "1. Nd2"),
    ("8/8/8/4k3/8/8/8/4K1NN w - - 0 1", "1. Nf3"),
    ("8/8/8/4k3/8/8/8/4KN2 w - - 0 1", "1. Ne3"),
    ("8/8/8/4k3/8/8/5q2/4K3 w - - 0 1", "1. Kxf2"),
    ("7k/8/6Q1/8/8/8/8/4K3 w - - 0 1", "1. Qf7"),
]


def test_the_ends_by_the_rules_are_python_chess(tmp_path):
    pgn = "".join(
        (f'[SetUp "1"]\n[FEN "{fen}"]\n' if fen else '[Event "?"]\n') + f"\n{moves} *\n\n" for fen, moves in ENDINGS
    )
    path = tmp_path / "endings.pgn"
    path.write_text(pgn)
    rows = pq.read_table(export(tmp_path, path)).to_pylist()
    got = [(row["plies"], row["errors"], row["termination"]) for row in rows]
    want = []
    for fen, moves in ENDINGS:
        board = chess.Board(fen or chess.STARTING_FEN)
        tokens = [token for token in moves.split() if not token[0].isdigit()]
        for san in tokens:
            board.push_san(san)
        outcome = board.outcome()
        want.append((len(tokens), 0, outcome and TERMINATIONS[outcome.termination]))
    assert got == want
    assert [end for _, _, end in got] == [
        "fivefold repetition",
        None,
        "seventy-five-move rule",
        None,
        "checkmate",
        "insufficient material",
        "insufficient material",
        None,
        None,
        None,
        "insufficient material",
        "insufficient material",
        "stalemate",
    ]


def test_parquet_reads_back_everywhere_with_the_documented_schema(tmp_path):
    path = DATA / "tcec" / "TCEC_Season_13_-_Superfinal.pgn"
    games = export(tmp_path, path)
    table = pq.read_table(games)
    assert [(f.name, f.type) for f in table.schema] == GAMES_SCHEMA
    moves_path = export(tmp_path, path, "--table", "moves", "--fen", name="moves.parquet")
    moves = pq.read_table(moves_path)
    assert [(f.name, f.type) for f in moves.schema] == MOVES_COLUMNS
    assert table.num_rows == 100 and moves.num_rows == sum(table.column("plies").to_pylist())
    # polars and duckdb read the same values
    frame = pl.read_parquet(moves_path)
    assert frame.columns == [name for name, _ in MOVES_COLUMNS]
    assert frame["san"].to_list() == moves.column("san").to_pylist()
    assert frame["clock"].to_list() == moves.column("clock").to_pylist()
    counted = duckdb.sql(f"select game, count(*), max(ply) from '{moves_path}' group by game order by game").fetchall()
    assert counted == [(row["game"], row["plies"], row["plies"]) for row in table.to_pylist() if row["plies"]]
    kinds = duckdb.sql(f"select column_name, column_type from (describe select * from '{games}')").fetchall()
    assert kinds[:4] == [("file", "VARCHAR"), ("game", "UBIGINT"), ("line", "UINTEGER"), ("byte_offset", "UBIGINT")]
    assert ("other_tags", "MAP(VARCHAR, VARCHAR)") in kinds


@pytest.mark.parametrize("codec", ["zstd", "lz4", "gzip", "none"])
@pytest.mark.parametrize("table", ["games", "moves"])
def test_every_codec_reads_back_everywhere_as_the_snappy_table(tmp_path, codec, table):
    path = DATA / "tcec" / "TCEC_Season_13_-_Superfinal.pgn"
    flags = ["--table", table] + (["--fen"] if table == "moves" else [])
    expected = pq.read_table(export(tmp_path, path, *flags))
    out = export(tmp_path, path, *flags, "--compression", codec, name=f"{codec}.parquet")
    # (pyarrow names the LZ4_RAW codec LZ4)
    named = {"zstd": "ZSTD", "lz4": "LZ4", "gzip": "GZIP", "none": "UNCOMPRESSED"}[codec]
    metadata = pq.ParquetFile(out).metadata
    codecs = {metadata.row_group(0).column(i).compression for i in range(metadata.num_columns)}
    # the moves table's dictionary indices are never compressed
    assert codecs == ({named, "UNCOMPRESSED"} if table == "moves" and codec != "none" else {named})
    assert len(expected) >= 100
    assert pq.read_table(out).equals(expected)
    assert pl.read_parquet(out).equals(pl.from_arrow(expected))
    assert duckdb.sql(f"select * from '{out}'").fetchall() == duckdb.sql("select * from expected").fetchall()


def typed(value, kind):
    """A CSV field as the column's Python value."""
    if value == "":
        return [] if pa.types.is_list(kind) else None
    if pa.types.is_integer(kind):
        return int(value)
    if pa.types.is_floating(kind):
        return float(value)
    if pa.types.is_boolean(kind):
        return {"true": True, "false": False}[value]
    if pa.types.is_list(kind):
        return [int(n) for n in value.split(" ")]
    if pa.types.is_map(kind):
        return list(json.loads(value).items())
    return value


@pytest.mark.parametrize("table,columns", [("games", GAMES_SCHEMA), ("moves", MOVES_COLUMNS)])
def test_csv_and_json_lines_hold_the_parquet_rows(tmp_path, table, columns):
    path = DATA / "python-chess" / "nepomniachtchi-liren-game1.pgn"
    other = DATA / "tcec" / "TCEC_Season_13_-_Superfinal.pgn"
    flags = ["--table", table] + (["--fen"] if table == "moves" else [])
    rows = []
    for source in (path, other):
        rows += pq.read_table(export(tmp_path, source, *flags)).to_pylist()
    run = [sanfen_binary(), "export", *flags, str(path), str(other)]
    text = subprocess.run([*run, "--format", "csv"], check=True, capture_output=True).stdout.decode()
    reader = csv.reader(io.StringIO(text, newline=""))
    assert next(reader) == [name for name, _ in columns]
    from_csv = [{name: typed(value, kind) for (name, kind), value in zip(columns, line)} for line in reader]
    lines = subprocess.run([*run, "--format", "jsonl"], check=True, capture_output=True).stdout.decode()
    from_json = [json.loads(line) for line in lines.splitlines()]
    for row in from_json:
        if "other_tags" in row:
            row["other_tags"] = list(row["other_tags"].items())
    assert len(rows) > 100
    assert from_csv == rows
    assert from_json == rows
