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
quick pass that does not check moves).

Where the files are: a path is read with the operating system's calls, so
it must be readable at the same place by the driver and by every executor
(local mode, a shared or mounted file system); a URI (``s3://``,
``s3a://``, ``gs://``, ``hdfs://``, ``abfs://``, ``file://``) is read
through ``pyarrow.fs`` on the driver (to list folders and find the
ranges) and on the executors, which need its credentials as pyarrow
takes them (environment variables, an instance's role); ``filesystem``
gives a ``pyarrow.fs.FileSystem`` for what a URI does not say (a region,
an endpoint, keys).
"""

import math
import os
import re
import urllib.parse

from sanfen import _sanfen

__all__ = ["read_pgn", "spark_schema"]

#: The endings of the files a folder is read for.
PGN_ENDINGS = (".pgn", ".pgn.gz", ".pgn.zst", ".pgn.bz2", ".pgn.zstd", ".pgn.bz")

#: The first bytes of the compressed formats sanfen reads.
_MAGIC = (b"\x1f\x8b", b"\x28\xb5\x2f\xfd", b"BZh")


def read_pgn(
    spark, paths, table="games", fen=False, variations=False, range_size=128 << 20, filesystem=None, letters="en"
):
    """The games (``table="games"``) or moves (``table="moves"``) of PGN
    files as a Spark DataFrame.

    ``paths``: a path or URI, or a list of them; a folder stands for the
    files in it whose names end in ``.pgn`` (or ``.pgn.gz``, ``.pgn.zst``,
    ``.pgn.bz2``), in name order; a pattern (``*``, ``?`` and ``[...]``
    within names, as Spark and a shell match them: ``2024-*.pgn.zst``) for
    what it matches, in path order. ``fen`` and ``variations`` are options
    of the moves table (the position after each move; the variations'
    moves, with their line's ``path``). ``range_size``: the bytes of an
    uncompressed file each task reads, about (a file is cut into at most a
    million ranges). ``filesystem``: a ``pyarrow.fs.FileSystem`` the paths
    are in (then not URIs), for a store whose settings a URI cannot say;
    it is sent to the executors. ``letters``: the language of the moves'
    piece letters, as for ``sanfen.check_pgn``.

    Raises ``FileNotFoundError`` for a path that does not exist (a pattern
    that matches nothing) and ``ValueError`` for a bad option, or a local
    file name that is not UTF-8 (a Latin-1 ``caf\\xe9.pgn``: Spark's
    strings are UTF-8; the error names it). A file that
    cannot be read (not PGN, a broken compressed stream, one cut short
    since this call found its ranges) fails the Spark job with the file's
    name in the error.
    """
    if table not in ("games", "moves"):
        raise ValueError(f'table must be "games" or "moves", not {table!r}')
    if table == "games" and (fen or variations):
        raise ValueError("fen and variations are options of the moves table")
    if range_size < 1:
        raise ValueError("range_size must be at least 1")
    # (unknown letters: ValueError here, not in the executors)
    letters = _sanfen._letters(letters)
    filesystems, files = _files(paths, filesystem)
    # each task: [file system (an index in `filesystems`, -1 for the
    # operating system's), path, name, start, end (-1: to the end)]
    tasks = []
    for fs, path, name, size in files:
        if _compressed(filesystems, fs, path):
            tasks.append([fs, path, name, 0, -1])
            continue
        # (at most a million ranges a file, however small range_size)
        parts = min(max(1, math.ceil(size / range_size)), _sanfen._MOST_RANGES)
        with _opened(filesystems, fs, path) as source:
            ranges = _sanfen._byte_ranges(source, parts, name)
        tasks.extend([fs, path, name, start, end] for start, end in ranges if end > start or len(ranges) == 1)
    _number(spark, filesystems, tasks)
    schema = spark_schema(table, fen=fen, variations=variations)
    arrow_schema = _arrow_schema(table, fen, variations)

    def run(batches):
        import pyarrow as pa

        from sanfen import _sanfen as native

        for batch in batches:
            for task in batch.to_pylist():
                end = None if task["end"] < 0 else task["end"]
                with _opened(filesystems, task["fs"], task["path"], whole=end is None) as source:
                    stream = native._range_batches(
                        source,
                        task["start"],
                        end,
                        table,
                        fen,
                        variations,
                        task["first_game"],
                        task["first_line"],
                        task["name"],
                        letters=letters,
                    )
                    # batch by batch: a task holds a batch or two, not its table
                    for got in pa.RecordBatchReader.from_stream(stream):
                        yield from pa.Table.from_batches([got]).cast(arrow_schema).to_batches()

    # one task a partition, as parallelize slices a list (repartition would
    # deal them out from a random start in each of Spark's partitions, some
    # two to a partition, through a shuffle)
    rows = spark.sparkContext.parallelize([tuple(task) for task in tasks], max(1, len(tasks)))
    frame = spark.createDataFrame(
        rows, "fs int, path string, name string, start bigint, end bigint, first_game bigint, first_line bigint"
    )
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


#: A URI's scheme (``s3://``), which a path on Windows (``C:\\``) has not.
_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+://")

#: Hadoop's names of schemes that pyarrow knows by another.
_SCHEMES = {"s3a": "s3", "s3n": "s3"}


def _files(paths, filesystem=None):
    """The file systems the files of `paths` are in, and the files: each
    its file system (an index in the list, -1 for the operating system's),
    its path there, its name as shown (the path or URI given, a folder's
    files or a pattern's matches in its place) and its size."""
    from pyarrow import fs as pafs

    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    filesystems = [] if filesystem is None else [filesystem]
    files = []
    for given in paths:
        given = os.fspath(given)
        if filesystem is not None:
            files.extend(_files_in(filesystem, 0, given, given))
        elif _URI.match(given):
            store, path = pafs.FileSystem.from_uri(_pyarrow_uri(given))
            filesystems.append(store)
            files.extend(_files_in(store, len(filesystems) - 1, path, _shown_uri(given)))
        else:
            # listed as pyarrow lists, read by the operating system's calls
            try:
                files.extend(_files_in(pafs.LocalFileSystem(), -1, given, given))
            except UnicodeError:
                raise ValueError(_not_utf8(given)) from None
    return filesystems, files


def _not_utf8(given):
    """What to say of the local path `given` when its name, a name in it
    (a folder's) or a name it matches (a pattern's) is not UTF-8 (pyarrow
    lists no such folder; Spark's strings, like the `file` column, are
    UTF-8): the first such name, each of its bytes that is not UTF-8 shown
    as `\\xNN`, as ``sanfen`` shows it."""
    import glob

    raw = os.fsencode(given)
    names = [raw]
    if os.path.isdir(raw):
        names += sorted(os.path.join(raw, name) for name in os.listdir(raw))
    elif _WILDCARD.search(given):
        names += sorted(glob.glob(raw))
    bad = next((name for name in names if not _decodes(name)), raw)
    shown = bad.decode("utf-8", "backslashreplace")
    return f"{shown}: a file name that is not UTF-8 cannot be read through Spark (its strings are UTF-8): rename it"


def _decodes(name):
    """Whether the bytes `name` are UTF-8."""
    try:
        name.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _pyarrow_uri(uri):
    """`uri` as pyarrow names its scheme (``s3a://b/k`` is ``s3://b/k``)."""
    scheme, rest = uri.split("://", 1)
    return f"{_SCHEMES.get(scheme.lower(), scheme)}://{rest}"


def _shown_uri(uri):
    """`uri` as the `file` column shows it: without its user information
    and its query, which may hold keys (``s3://KEY:SECRET@bucket/x.pgn``,
    ``?secret_key=...``) and settings."""
    parts = urllib.parse.urlsplit(uri)
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}{parts.path}"


#: A wildcard of a path's pattern (``*``, ``?``, ``[...]``).
_WILDCARD = re.compile(r"[*?[]")


def _files_in(store, index, path, shown):
    """The files of `path` in the pyarrow file system `store`, as `_files`
    gives them: a folder's PGN files (their names ending in ``.pgn``,
    ``.pgn.zst``...) in name order; a pattern's matches (each a file or a
    folder) in path order, as Spark and a shell match them (``*`` and
    ``?`` within a name, ``[...]``), when no file has the pattern's own
    name. `shown`: the path or URI as shown, which names them (its end,
    the pattern, replaced by what matched)."""
    from pyarrow import fs as pafs

    info = store.get_file_info(path)
    if info.type == pafs.FileType.NotFound and _WILDCARD.search(path):
        files = []
        for match, info in _matches(store, path):
            files.extend(_files_in(store, index, match, _renamed(shown, path, match)))
        if files:
            return files
    if info.type == pafs.FileType.NotFound:
        raise FileNotFoundError(2, "No such file or directory", shown)
    if info.type != pafs.FileType.Directory:
        return [(index, path, _regular(info, shown), info.size)]
    found = store.get_file_info(pafs.FileSelector(path))
    found = sorted(
        (f for f in found if f.type != pafs.FileType.Directory and f.base_name.lower().endswith(PGN_ENDINGS)),
        key=lambda f: f.base_name,
    )
    return [(index, f.path, _regular(f, f"{shown.rstrip('/')}/{f.base_name}"), f.size) for f in found]


def _regular(info, shown):
    """`shown`, the name of the file `info` tells of, if it is a regular
    file: Spark reads a file more than once (its first bytes, its ranges'
    starts, each range), on several machines, which a FIFO or a device
    cannot give."""
    from pyarrow import fs as pafs

    if info.type != pafs.FileType.File:
        raise ValueError(f"{shown}: not a regular file (a FIFO, a device): Spark reads a file more than once")
    return shown


def _matches(store, pattern):
    """The paths in `store` that `pattern` matches, name by name (a name
    with wildcards matched against the names in its folder), with their
    information, in path order."""
    import fnmatch
    import glob

    from pyarrow import fs as pafs

    if isinstance(store, pafs.LocalFileSystem):
        # (relative patterns, the current folder: as a shell matches them)
        return [(path, store.get_file_info(path)) for path in sorted(glob.glob(pattern))]
    names = pattern.split("/")
    first = _first_wildcard(names)
    # from the folder the first name with a wildcard is in
    found = [("/".join(names[:first]), None)]
    for name in names[first:]:
        if not _WILDCARD.search(name):
            found = [(f"{path}/{name}" if path else name, None) for path, _ in found]
            continue
        matched = []
        for folder, _ in found:
            listed = store.get_file_info(pafs.FileSelector(folder, allow_not_found=True))
            matched.extend((f.path, f) for f in listed if fnmatch.fnmatchcase(f.base_name, name))
        found = matched
    found = [(path, info or store.get_file_info(path)) for path, info in found]
    return sorted(((path, info) for path, info in found if info.type != pafs.FileType.NotFound), key=lambda m: m[0])


def _renamed(shown, pattern, match):
    """The name of `match`, a path that `pattern` matched: `shown` (which
    ends as `pattern` does) with the pattern's names from its first
    wildcard replaced by the match's."""
    names = pattern.split("/")
    first = _first_wildcard(names)
    kept = shown.split("/")[: len(shown.split("/")) - (len(names) - first)]
    return "/".join(kept + match.split("/")[first:])


def _first_wildcard(names):
    """The place of the first of a path's `names` with a wildcard."""
    return next(i for i, name in enumerate(names) if _WILDCARD.search(name))


def _opened(filesystems, fs, path, whole=False):
    """What the native reader reads the file from: its path (a context
    that gives it), or the file opened in its pyarrow file system, random
    access (`whole`: as a stream, read from its start), its bytes as they
    are (no decompression by pyarrow)."""
    import contextlib

    if fs < 0:
        return contextlib.nullcontext(path)
    store = filesystems[fs]
    if whole:
        return store.open_input_stream(path, compression=None)
    return store.open_input_file(path)


def _compressed(filesystems, fs, path):
    """Whether the file's first bytes are those of gzip, zstd or bzip2."""
    with open(path, "rb") if fs < 0 else _opened(filesystems, fs, path, whole=True) as handle:
        head = handle.read(4)
    return any(head.startswith(magic) for magic in _MAGIC)


def _number(spark, filesystems, tasks):
    """Appends to each task the number of its first game and its first
    line. A range that follows another of its file is numbered after it:
    the games and lines of every range followed by another are counted on
    the executors first."""
    followed = [i for i in range(len(tasks) - 1) if tasks[i + 1][3] > 0]
    counts = {}
    if followed:

        def count(item):
            from sanfen import _sanfen as native

            i, fs, path, name, start, end = item
            with _opened(filesystems, fs, path) as source:
                return i, native._range_counts(source, start, end, name)

        items = [(i, *tasks[i][:5]) for i in followed]
        counts = dict(spark.sparkContext.parallelize(items, len(items)).map(count).collect())
    for i, task in enumerate(tasks):
        if task[3] == 0:
            task.extend([1, 1])
        else:
            games, lines = counts[i - 1]
            previous = tasks[i - 1]
            task.extend([previous[5] + games, previous[6] + lines])
