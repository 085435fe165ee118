"""Times sanfen.read_games and sanfen.moves_table on the benchmark corpus,
against python-chess (on a sample of the games: it is slow) and rust-pgn-reader-python-binding
(PyPI), on one thread and on all cores, and prints the ratios. Then the
moves table written to a Parquet file: `sanfen export --table moves` against
`sanfen check` on the same file and against rust-pgn-reader's moves written
with pyarrow.

    python python/bench/bench.py [CORPUS] [--sample-mb N] [--repeat N]

Each timing is the best of --repeat runs (3), python-chess's included.

CORPUS defaults to /tmp/sanfen-bench/corpus/corpus.pgn, which
`../shared/bench/compare pgn-check` prepares.
"""

import argparse
import io
import os
import pathlib
import subprocess
import tempfile
import time

import chess.pgn
import pyarrow as pa
import pyarrow.parquet as pq

import sanfen

try:
    import rust_pgn_reader_python_binding as rpr
except ImportError:  # optional: pip install rust-pgn-reader-python-binding
    rpr = None


#: Runs of each timing, the best kept (--repeat).
SETTINGS = {"repeat": 3}


def timed(work, repeat=None):
    """The best time of `repeat` runs (machine noise only ever adds time)
    and the last run's result; each run's result is dropped before the next
    starts, so no run pays for the memory of the one before."""
    best = None
    result = None
    for _ in range(repeat or SETTINGS["repeat"]):
        result = None
        start = time.perf_counter()
        result = work()
        seconds = time.perf_counter() - start
        best = seconds if best is None else min(best, seconds)
    return best, result


def sanfen_read_games(source, threads):
    """Every game with its mainline moves, clocks and evaluations as Python
    values."""
    games = moves = 0
    for game in sanfen.read_games(source, threads=threads):
        games += 1
        for move in game.mainline:
            moves += 1
            move.clock
            move.eval
    return games, moves


def sanfen_moves_table(source, threads):
    table = pa.table(sanfen.moves_table(source, threads=threads))
    return table.column("game")[-1].as_py() if table.num_rows else 0, table.num_rows


def python_chess(text):
    games = moves = 0
    handle = io.StringIO(text)
    while (game := chess.pgn.read_game(handle)) is not None:
        games += 1
        for node in game.mainline():
            moves += 1
            node.clock()
            node.eval()
    return games, moves


def split_games(path):
    """The corpus's games, one PGN text each (as sanfen writes them back:
    the same games), the input rust-pgn-reader-python-binding takes (it
    parses a list or an Arrow array of game strings, not a file)."""
    return [game.to_pgn() for game in sanfen.read_games(path)]


def rust_pgn_reader(games, threads):
    """Games parsed with clocks and evaluations, the moves and their values
    into an Arrow table per chunk."""
    parsed, tables = rust_pgn_reader_tables(games, threads)
    return parsed.num_games, sum(t.num_rows for t in tables)


def rust_pgn_reader_tables(games, threads):
    """rust-pgn-reader's parse, and its moves (squares, promotion, clock,
    evaluation) as an Arrow table per chunk."""
    parsed = rpr.parse_games(pa.chunked_array([pa.array(games)]), num_threads=threads)
    return parsed, [
        pa.table(
            {
                "from": chunk.from_squares,
                "to": chunk.to_squares,
                "promotion": chunk.promotions,
                "clock": chunk.clocks,
                "eval": chunk.evals,
            }
        )
        for chunk in parsed.chunks
    ]


def sanfen_binary():
    """$SANFEN_BIN, else the release build in the repository."""
    root = pathlib.Path(__file__).resolve().parents[2]
    return os.environ.get("SANFEN_BIN") or str(root / "target" / "release" / "sanfen")


def sanfen_cli(args, threads):
    jobs = [] if threads is None else ["-j", str(threads)]
    subprocess.run([sanfen_binary(), *args[:1], *jobs, *args[1:]], check=True, stdout=subprocess.DEVNULL)


def rust_pgn_reader_parquet(games, threads, out):
    """rust-pgn-reader's moves written to a Parquet file with pyarrow."""
    parsed, tables = rust_pgn_reader_tables(games, threads)
    pq.write_table(pa.concat_tables(tables), out)
    return parsed.num_games, sum(t.num_rows for t in tables)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus", nargs="?", default="/tmp/sanfen-bench/corpus/corpus.pgn")
    parser.add_argument("--sample-mb", type=float, default=2.0, help="the size of python-chess's sample of the corpus's games")
    parser.add_argument("--repeat", type=int, default=SETTINGS["repeat"], help="runs of each timing, the best kept")
    args = parser.parse_args()
    SETTINGS["repeat"] = args.repeat
    cores = os.cpu_count()
    size = os.path.getsize(args.corpus) / 1e6
    print(f"corpus: {args.corpus}, {size:.1f} MB, {cores} cores, sanfen {sanfen.__version__}")

    rows = []

    def report(name, seconds, games, moves, mb):
        rows.append((name, seconds, games, moves, mb))
        print(f"{name:<44} {seconds:8.2f} s {games:9d} games {games / seconds:10.0f} games/s {mb / seconds:7.1f} MB/s")

    results = {}
    for threads, label in ((1, "1 thread"), (None, f"{cores} threads")):
        s, (g, m) = timed(lambda: sanfen_read_games(args.corpus, threads))
        report(f"sanfen.read_games ({label})", s, g, m, size)
        results[("read_games", threads)] = g / s
        s, (g, m) = timed(lambda: sanfen_moves_table(args.corpus, threads))
        report(f"sanfen.moves_table ({label})", s, g, m, size)
        results[("moves_table", threads)] = g / s

    # python-chess: a sample of whole games spread over the corpus (every
    # k-th game, about --sample-mb of them), so that it has the corpus's mix
    # of short and long games
    s_split, games = timed(lambda: split_games(args.corpus), repeat=1)
    print(f"{'(the corpus as one PGN text per game, untimed)':<44} {s_split:8.2f} s {len(games):9d} games")
    total = sum(len(game.encode()) + 1 for game in games)
    step = max(1, round(total / (args.sample_mb * 1e6)))
    piece = "\n".join(games[::step])
    piece_mb = len(piece.encode()) / 1e6
    s, (g, m) = timed(lambda: python_chess(piece))
    report(f"python-chess read_game (sample, 1 thread)", s, g, m, piece_mb)
    pc = g / s
    s, (g2, m2) = timed(lambda: sanfen_read_games(io.BytesIO(piece.encode()), 1))
    report("sanfen.read_games (same sample, 1 thread)", s, g2, m2, piece_mb)
    assert (g2, m2) == (g, m), ((g2, m2), (g, m))
    sample_sanfen = g2 / s

    if rpr is not None:
        texts_mb = sum(len(g.encode()) for g in games) / 1e6
        for threads, label in ((1, "1 thread"), (None, f"{cores} threads")):
            s, (g, m) = timed(lambda: rust_pgn_reader(games, threads))
            report(f"rust-pgn-reader parse_games ({label})", s, g, m, texts_mb)
            results[("rpr", threads)] = g / s

    print()
    print("ratios (games/s of sanfen / games/s of the other; above 1: sanfen is faster)")
    print(f"  read_games vs python-chess, same sample, 1 thread:  {sample_sanfen / pc:8.1f}")
    print(f"  read_games (whole corpus) vs python-chess, 1 thread:  {results[('read_games', 1)] / pc:8.1f}")
    print(f"  moves_table vs python-chess, 1 thread:               {results[('moves_table', 1)] / pc:8.1f}")
    if rpr is not None:
        for threads, label in ((1, "1 thread"), (None, "all cores")):
            print(
                f"  moves_table vs rust-pgn-reader, {label:<9}:           "
                f"{results[('moves_table', threads)] / results[('rpr', threads)]:8.2f}"
            )
            print(
                f"  read_games vs rust-pgn-reader, {label:<9}:            "
                f"{results[('read_games', threads)] / results[('rpr', threads)]:8.2f}"
            )
    print(f"  moves_table, all cores vs 1 thread:                  "
          f"{results[('moves_table', None)] / results[('moves_table', 1)]:8.2f}")

    # the moves table to a Parquet file
    print()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "moves.parquet")
        for threads, label in ((1, "1 thread"), (None, f"{cores} threads")):
            check, _ = timed(lambda: sanfen_cli(["check", "--quiet", args.corpus], threads))
            export, _ = timed(lambda: sanfen_cli(["export", "--table", "moves", "-o", out, args.corpus], threads))
            print(f"{'sanfen check (' + label + ')':<44} {check:8.2f} s")
            print(f"{'sanfen export --table moves, Parquet (' + label + ')':<44} {export:8.2f} s")
            line = f"  export / check, {label:<10}:                        {export / check:8.2f}"
            if rpr is not None:
                theirs, _ = timed(lambda: rust_pgn_reader_parquet(games, threads, out))
                print(f"{'rust-pgn-reader + pyarrow, Parquet (' + label + ')':<44} {theirs:8.2f} s")
                line += f"   rust-pgn-reader + pyarrow / export: {theirs / export:6.2f}"
            print(line)


if __name__ == "__main__":
    main()
