"""PGN files as Apache Spark DataFrames, read by sanfen on the executors.

::

    from pyspark.sql import SparkSession
    import sanfen.spark

    spark = SparkSession.builder.master("local[*]").getOrCreate()
    games = sanfen.spark.read_pgn(spark, "lichess/", table="games")
    games.write.parquet("lichess-games.parquet")

The tables are those of ``sanfen export`` (and ``sanfen.games_table``,
``sanfen.moves_table``): the same columns, names and values, each row a
game or a move, every move checked. Spark has no unsigned integers: the
``uint64`` and ``uint32`` columns are ``bigint`` and the NAGs ``smallint``.

How the work is cut: an uncompressed file is read as byte ranges of about
``range_size`` bytes, each starting at a game boundary (the rule of
``sanfen split --ranges``), one task each; a compressed file (gzip, zstd,
bzip2) is one task. Games are numbered from 1 in each file and lines
counted from its start, as ``sanfen export`` numbers them: for that, the
ranges of a file after its first are first counted (games and lines, a
quick pass that does not check moves). Files are read by path with the
operating system's calls: the paths must be readable at the same place by
the driver and by every executor (local mode, a shared or mounted file
system).
"""

import math
import os

from sanfen import _sanfen

__all__ = ["read_pgn", "spark_schema"]

#: The endings of the files a folder is read for.
PGN_ENDINGS = (".pgn", ".pgn.gz", ".pgn.zst", ".pgn.bz2", ".pgn.zstd", ".pgn.bz")

#: The first bytes of the compressed formats sanfen reads.
_MAGIC = (b"\x1f\x8b", b"\x28\xb5\x2f\xfd", b"BZh")


def read_pgn(spark, paths, table="games", fen=False, variations=False, range_size=128 << 20):
    """The games (``table="games"``) or moves (``table="moves"``) of PGN
    files as a Spark DataFrame.

    ``paths``: a path or a list of them; a folder stands for the files in it
    whose names end in ``.pgn`` (or ``.pgn.gz``, ``.pgn.zst``, ``.pgn.bz2``),
    in name order. ``fen`` and ``variations`` are options of the moves
    table (the position after each move; the variations' moves, with their
    line's ``path``). ``range_size``: the bytes of an uncompressed file each
    task reads, about.

    Raises ``FileNotFoundError`` for a path that does not exist and
    ``ValueError`` for a bad option. A file that cannot be read (not PGN,
    a broken compressed stream) fails the Spark job with the file's name in
    the error.
    """
    if table not in ("games", "moves"):
        raise ValueError(f'table must be "games" or "moves", not {table!r}')
    if table == "games" and (fen or variations):
        raise ValueError("fen and variations are options of the moves table")
    if range_size < 1:
        raise ValueError("range_size must be at least 1")
    files = _files(paths)
    tasks = []
    for name in files:
        if _compressed(name):
            tasks.append([name, 0, -1])
            continue
        parts = max(1, math.ceil(os.path.getsize(name) / range_size))
        ranges = _sanfen._byte_ranges(name, parts)
        tasks.extend([name, start, end] for start, end in ranges if end > start or len(ranges) == 1)
    _number(spark, tasks)
    schema = spark_schema(table, fen=fen, variations=variations)
    arrow_schema = _arrow_schema(table, fen, variations)

    def run(batches):
        import pyarrow as pa

        from sanfen import _sanfen as native

        for batch in batches:
            for task in batch.to_pylist():
                end = None if task["end"] < 0 else task["end"]
                stream = native._range_batches(
                    task["name"],
                    task["start"],
                    end,
                    table,
                    fen,
                    variations,
                    task["first_game"],
                    task["first_line"],
                    task["name"],
                )
                # batch by batch: a task holds a batch or two, not its table
                for got in pa.RecordBatchReader.from_stream(stream):
                    yield from pa.Table.from_batches([got]).cast(arrow_schema).to_batches()

    # one task a partition, as parallelize slices a list (repartition would
    # deal them out from a random start in each of Spark's partitions, some
    # two to a partition, through a shuffle)
    rows = spark.sparkContext.parallelize([tuple(task) for task in tasks], max(1, len(tasks)))
    frame = spark.createDataFrame(rows, "name string, start bigint, end bigint, first_game bigint, first_line bigint")
    return frame.mapInArrow(run, schema)


def spark_schema(table="games", fen=False, variations=False):
    """The Spark schema of a table (see ``read_pgn``)."""
    from pyspark.sql.pandas.types import from_arrow_schema

    return from_arrow_schema(_arrow_schema(table, fen, variations))


def _arrow_schema(table, fen, variations):
    """The table's Arrow schema with Spark's types: unsigned integers
    widened to the next signed type, every field nullable."""
    import pyarrow as pa

    def widened(kind):
        if pa.types.is_uint64(kind) or pa.types.is_uint32(kind):
            return pa.int64()
        if pa.types.is_uint8(kind):
            return pa.int16()
        if pa.types.is_list(kind):
            return pa.list_(pa.field("element", widened(kind.value_type)))
        return kind

    schema = pa.schema(_sanfen._schema(table, fen, variations))
    return pa.schema([pa.field(field.name, widened(field.type)) for field in schema])


def _files(paths):
    """The files `paths` names, folders expanded (their PGN files in name
    order)."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files = []
    for path in paths:
        path = os.fspath(path)
        if os.path.isdir(path):
            names = sorted(n for n in os.listdir(path) if n.lower().endswith(PGN_ENDINGS))
            files.extend(os.path.join(path, n) for n in names if os.path.isfile(os.path.join(path, n)))
        elif os.path.exists(path):
            files.append(path)
        else:
            raise FileNotFoundError(2, "No such file or directory", path)
    return files


def _compressed(path):
    """Whether the file's first bytes are those of gzip, zstd or bzip2."""
    with open(path, "rb") as handle:
        head = handle.read(4)
    return any(head.startswith(magic) for magic in _MAGIC)


def _number(spark, tasks):
    """Appends to each task the number of its first game and its first
    line. A range that follows another of its file is numbered after it:
    the games and lines of every range followed by another are counted on
    the executors first."""
    followed = [i for i in range(len(tasks) - 1) if tasks[i + 1][1] > 0]
    counts = {}
    if followed:

        def count(item):
            from sanfen import _sanfen as native

            i, name, start, end = item
            return i, native._range_counts(name, start, end)

        items = [(i, tasks[i][0], tasks[i][1], tasks[i][2]) for i in followed]
        counts = dict(spark.sparkContext.parallelize(items, len(items)).map(count).collect())
    for i, task in enumerate(tasks):
        if task[1] == 0:
            task.extend([1, 1])
        else:
            games, lines = counts[i - 1]
            previous = tasks[i - 1]
            task.extend([previous[3] + games, previous[4] + lines])
