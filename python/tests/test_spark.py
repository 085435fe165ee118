"""sanfen.spark.read_pgn in Spark's local mode (two threads): a folder of a
plain PGN file read as byte ranges and a zstd file read whole gives, row
for row, what `sanfen export` writes.

Spark needs Java and pyspark: without them this module is skipped, unless
SANFEN_REQUIRE_SPARK=1 (CI sets it), when it fails."""

import io
import os
import shutil
import subprocess

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import ROOT, sanfen_binary, zstd_file

REQUIRED = os.environ.get("SANFEN_REQUIRE_SPARK") == "1"

try:
    import pyspark  # noqa: F401
except ImportError:
    if REQUIRED:
        raise
    pytest.skip("pyspark is not installed", allow_module_level=True)
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    if REQUIRED:
        pytest.fail("Spark needs Java: none on PATH nor JAVA_HOME", pytrace=False)
    pytest.skip("Spark needs Java", allow_module_level=True)

import sanfen  # noqa: E402
import sanfen.spark  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "pgn"
PLAIN = DATA / "tcec" / "TCEC_Season_13_-_Superfinal.pgn"
COMPRESSED = DATA / "python-chess" / "kasparov-deep-blue-1997.pgn"


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("sanfen-test")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    yield session
    session.stop()


@pytest.fixture(scope="module")
def pgn_folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("pgn")
    shutil.copy(PLAIN, path / "a-plain.pgn")
    zstd_file(path / "b-compressed.pgn.zst", COMPRESSED.read_bytes())
    (path / "notes.txt").write_text("not PGN: left out of a folder")
    return path


def exported(files, *args):
    """`sanfen export`'s rows of `files`, as Python values."""
    out = files[0].parent / "export.parquet"
    subprocess.run([sanfen_binary(), "export", "-o", str(out), *args, *map(str, files)], check=True)
    rows = pq.read_table(out).to_pylist()
    out.unlink()
    return rows


def spark_rows(frame):
    """A DataFrame's rows as Python values (Spark's maps hold no order:
    dictionaries)."""
    return [row.asDict(recursive=True) for row in frame.collect()]


def unordered_maps(rows):
    """Rows with their maps (lists of pairs) as dictionaries."""
    for row in rows:
        if "other_tags" in row:
            row["other_tags"] = dict(row["other_tags"])
    return rows


def key(row):
    return (row["file"], row["game"], row.get("path") or "", row.get("ply", 0))


@pytest.mark.parametrize("table,options", [("games", {}), ("moves", {"fen": True}), ("moves", {"variations": True})])
def test_read_pgn_is_export_row_for_row(spark, pgn_folder, table, options):
    files = [pgn_folder / "a-plain.pgn", pgn_folder / "b-compressed.pgn.zst"]
    # a range every 400 KB: the plain file (3.2 MB) is cut into several
    frame = sanfen.spark.read_pgn(spark, str(pgn_folder), table=table, range_size=400_000, **options)
    if table == "games":
        # a partition for each of the 11 tasks (10 ranges, 1 compressed
        # file), each with its games: none dealt two
        sizes = frame.rdd.glom().map(len).collect()
        assert len(sizes) == 11 and min(sizes) > 0, sizes
    flags = ["--table", table] + [f"--{name}" for name, on in options.items() if on]
    expected = sorted(unordered_maps(exported(files, *flags)), key=key)
    got = sorted(spark_rows(frame), key=key)
    assert [r["file"] for r in got] == [r["file"] for r in expected]
    assert len(got) == len(expected) > 50
    for mine, theirs in zip(got, expected):
        assert mine == theirs
    assert frame.schema == sanfen.spark.spark_schema(table, **options)


@pytest.mark.parametrize("vectorized", ["true", "false"])
@pytest.mark.parametrize("flags", [["--table", "games"], ["--table", "moves", "--fen", "--variations"]])
def test_spark_reads_an_exported_file_as_pyarrow_does(spark, pgn_folder, tmp_path, flags, vectorized):
    """Spark's Parquet readers (its vectorized one and parquet-mr) read the
    file `sanfen export` writes as pyarrow does: the moves table's pages are
    encoded by sanfen, not by parquet's Arrow writer."""
    out = tmp_path / "export.parquet"
    files = [pgn_folder / "a-plain.pgn", pgn_folder / "b-compressed.pgn.zst"]
    subprocess.run([sanfen_binary(), "export", *flags, "-o", str(out), *map(str, files)], check=True)
    spark.conf.set("spark.sql.parquet.enableVectorizedReader", vectorized)
    try:
        got = sorted(spark_rows(spark.read.parquet(str(out))), key=key)
    finally:
        spark.conf.unset("spark.sql.parquet.enableVectorizedReader")
    expected = sorted(unordered_maps(pq.read_table(out).to_pylist()), key=key)
    assert len(got) == len(expected) > 50
    for mine, theirs in zip(got, expected):
        assert mine == theirs


def test_the_plain_file_is_read_in_ranges(pgn_folder):
    path = pgn_folder / "a-plain.pgn"
    size = path.stat().st_size
    ranges = sanfen._sanfen._byte_ranges(str(path), 8)
    assert ranges[0][0] == 0 and ranges[-1][1] == size
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
    assert len([r for r in ranges if r[1] > r[0]]) > 4
    # the ranges hold the games: their counts add up to the file's
    games = sum(sanfen._sanfen._range_counts(str(path), start, end)[0] for start, end in ranges)
    assert games == len(list(sanfen.read_games(path)))


def test_bad_options_and_paths(spark, tmp_path):
    with pytest.raises(ValueError, match="table must be"):
        sanfen.spark.read_pgn(spark, str(tmp_path), table="positions")
    with pytest.raises(ValueError, match="options of the moves table"):
        sanfen.spark.read_pgn(spark, str(tmp_path), fen=True)
    with pytest.raises(FileNotFoundError):
        sanfen.spark.read_pgn(spark, str(tmp_path / "missing.pgn"))
    with pytest.raises(ValueError, match="^unknown letters 'xx'"):
        sanfen.spark.read_pgn(spark, str(tmp_path), letters="xx")


def test_read_pgn_reads_the_piece_letters_of_a_language(spark, tmp_path):
    game = '[Event "pt"]\n\n1. e4 e5 2. Cf3 Cc6 3. Bb5 a6 4. O-O Cf6 5. Te1 d6 6. d4 Dd7 7. h3 Rd8 *\n\n'
    path = tmp_path / "pt.pgn"
    path.write_text(game * 3)
    for table in ("games", "moves"):
        frame = sanfen.spark.read_pgn(spark, str(tmp_path), table=table, letters="pt", range_size=100)
        expected = sorted(unordered_maps(exported([path], "--table", table, "--letters", "pt")), key=key)
        got = sorted(spark_rows(frame), key=key)
        assert got == expected
        assert len(got) == (3 if table == "games" else 42)
        assert all(row["errors"] == 0 for row in got) if table == "games" else got[2]["written"] == "Cf3"


def test_a_file_that_cannot_be_read_fails_the_job_naming_it(spark, tmp_path):
    shutil.copy(PLAIN, tmp_path / "a-plain.pgn")
    cut = zstd_file(tmp_path / "b-cut.pgn.zst", PLAIN.read_bytes(), cut=True)
    for table in ("games", "moves"):
        frame = sanfen.spark.read_pgn(spark, str(tmp_path), table=table)
        with pytest.raises(Exception) as error:
            frame.collect()
        assert f"{cut}: read failed at byte " in str(error.value)
        assert "of the zstd stream, decompressed: incomplete frame" in str(error.value)


def test_a_uri_and_a_pyarrow_file_system_are_read_as_a_path_is(spark, pgn_folder):
    """Files read through pyarrow.fs (a `file://` URI; a file system given),
    as a remote store's are: the same rows as the paths', each file named
    as it was given."""
    from pyarrow import fs as pafs

    by_path = spark_rows(sanfen.spark.read_pgn(spark, str(pgn_folder), table="moves", range_size=400_000))
    assert len(by_path) > 1000
    uri = pgn_folder.as_uri()
    store = pafs.SubTreeFileSystem(str(pgn_folder.parent), pafs.LocalFileSystem())
    cases = [
        (uri, None, uri),
        ([f"{uri}/a-plain.pgn", f"{uri}/b-compressed.pgn.zst"], None, uri),
        (pgn_folder.name, store, pgn_folder.name),
    ]
    assert_read_as_the_paths(spark, pgn_folder, "moves", by_path, cases)


def assert_read_as_the_paths(spark, pgn_folder, table, by_path, cases):
    """Each case, `(paths, filesystem, prefix)`: read as `table`, the
    folder's two files named under `prefix`, their rows `by_path`'s (the
    rows of the folder read by its path)."""
    for paths, filesystem, prefix in cases:
        frame = sanfen.spark.read_pgn(spark, paths, table=table, range_size=400_000, filesystem=filesystem)
        got = spark_rows(frame)
        assert sorted({r["file"] for r in got}) == [f"{prefix}/a-plain.pgn", f"{prefix}/b-compressed.pgn.zst"]
        for row in got:
            row["file"] = str(pgn_folder / row["file"].rsplit("/", 1)[1])
        assert sorted(got, key=key) == sorted(by_path, key=key)


@pytest.fixture(scope="module")
def s3_store(pgn_folder):
    """An S3 store on this machine (moto's server) holding the folder's two
    PGN files in `pgn/lichess/`: its endpoint (`host:port`)."""
    try:
        import boto3
        from moto.server import ThreadedMotoServer
    except ImportError:
        if REQUIRED:
            raise
        pytest.skip("moto and boto3 are not installed")
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    client = boto3.client(
        "s3",
        endpoint_url=f"http://{host}:{port}",
        aws_access_key_id="KEY",
        aws_secret_access_key="SECRET",
        region_name="us-east-1",
    )
    client.create_bucket(Bucket="pgn")
    for name in ("a-plain.pgn", "b-compressed.pgn.zst"):
        client.put_object(Bucket="pgn", Key=f"lichess/{name}", Body=(pgn_folder / name).read_bytes())
    client.put_object(Bucket="pgn", Key="lichess/notes.txt", Body=b"not PGN")
    yield f"{host}:{port}"
    server.stop()


def test_an_s3_store_is_read_as_a_path_is(spark, pgn_folder, s3_store):
    """Over S3's protocol (ranged reads of objects, folders that are
    prefixes), by URI (the keys in it, as pyarrow takes them) and by a
    pyarrow file system: the rows of the paths; no key in the `file`
    column."""
    from pyarrow import fs as pafs

    by_path = spark_rows(sanfen.spark.read_pgn(spark, str(pgn_folder), table="games", range_size=400_000))
    settings = f"endpoint_override={s3_store}&scheme=http&region=us-east-1"
    store = pafs.S3FileSystem(
        access_key="KEY", secret_key="SECRET", endpoint_override=s3_store, scheme="http", region="us-east-1"
    )
    cases = [
        (f"s3a://KEY:SECRET@pgn/lichess/?{settings}", None, "s3a://pgn/lichess"),
        ("pgn/lichess", store, "pgn/lichess"),
    ]
    assert_read_as_the_paths(spark, pgn_folder, "games", by_path, cases)
    # a missing key: not found, named without the keys
    with pytest.raises(FileNotFoundError) as missing:
        sanfen.spark.read_pgn(spark, f"s3://KEY:SECRET@pgn/lichess/gone.pgn?{settings}")
    assert missing.value.filename == "s3://pgn/lichess/gone.pgn"


def test_hadoop_scheme_names_are_pyarrow_s():
    assert sanfen.spark._pyarrow_uri("s3a://bucket/lichess/") == "s3://bucket/lichess/"
    assert sanfen.spark._pyarrow_uri("S3N://bucket/x.pgn") == "s3://bucket/x.pgn"
    assert sanfen.spark._pyarrow_uri("gs://bucket/x.pgn") == "gs://bucket/x.pgn"
    assert sanfen.spark._URI.match("hdfs://namenode:8020/pgn") and not sanfen.spark._URI.match("C:\\pgn")


def test_a_missing_uri_is_not_found(spark, tmp_path):
    with pytest.raises(FileNotFoundError):
        sanfen.spark.read_pgn(spark, (tmp_path / "missing.pgn").as_uri())


def test_ranges_of_a_file_object_are_those_of_its_path(pgn_folder):
    """The native readers of `sanfen.spark` take a seekable file object (a
    pyarrow file of a remote store) as they take a path."""
    from pyarrow import fs as pafs

    path = pgn_folder / "a-plain.pgn"
    local = pafs.LocalFileSystem()
    for parts in (1, 3, 8):
        expected = sanfen._sanfen._byte_ranges(str(path), parts)
        with open(path, "rb") as handle:
            assert sanfen._sanfen._byte_ranges(handle, parts) == expected
        with local.open_input_file(str(path)) as handle:
            assert sanfen._sanfen._byte_ranges(handle, parts, "x") == expected
    ranges = sanfen._sanfen._byte_ranges(str(path), 3)
    for start, end in ranges:
        with local.open_input_file(str(path)) as handle:
            counts = sanfen._sanfen._range_counts(handle, start, end, "x")
        assert counts == sanfen._sanfen._range_counts(str(path), start, end)
    # the second range, numbered after the first: the same rows from either
    games, lines = sanfen._sanfen._range_counts(str(path), *ranges[0])
    (start, end) = ranges[1]
    args = (start, end, "moves", False, False, games + 1, lines + 1, "name")
    expected = pa.table(sanfen._sanfen._range_batches(str(path), *args))
    with local.open_input_file(str(path)) as handle:
        got = pa.table(sanfen._sanfen._range_batches(handle, *args))
    assert got.num_rows > 100 and got.equals(expected)
    assert got.column("game")[0].as_py() == games + 1
    # a compressed file, whole, from a stream
    zst = pgn_folder / "b-compressed.pgn.zst"
    args = (0, None, "games", False, False, 1, 1, "name")
    expected = pa.table(sanfen._sanfen._range_batches(str(zst), *args))
    with local.open_input_stream(str(zst), compression=None) as handle:
        got = pa.table(sanfen._sanfen._range_batches(handle, *args))
    assert got.num_rows == expected.num_rows > 5 and got.equals(expected)


def test_a_file_object_s_errors_come_through(pgn_folder):
    path = pgn_folder / "a-plain.pgn"

    class Failing(io.BytesIO):
        """Gives 64 KB at a time, then fails past 100 KB."""

        def read(self, n=-1):
            if self.tell() > 100_000:
                raise ConnectionError("the store went away")
            return super().read(min(n, 1 << 16))

    with pytest.raises(ConnectionError, match="the store went away"):
        sanfen._sanfen._byte_ranges(Failing(path.read_bytes()), 8)
    with pytest.raises(ConnectionError, match="the store went away"):
        sanfen._sanfen._range_counts(Failing(path.read_bytes()), 0, path.stat().st_size)
    # in a task's stream: an error that names the file and says why
    size = path.stat().st_size
    stream = sanfen._sanfen._range_batches(Failing(path.read_bytes()), 0, size, "games", False, False, 1, 1, "s3://b/x")
    with pytest.raises(OSError, match="s3://b/x: read failed at byte 131072: ConnectionError: the store went away"):
        pa.table(stream)
    # a stream that cannot seek: the error of its seek
    with pytest.raises(io.UnsupportedOperation):
        sanfen._sanfen._byte_ranges(NoSeek(path.read_bytes()), 2)
    with pytest.raises(TypeError, match="seekable binary file object"):
        sanfen._sanfen._byte_ranges(42, 2)


class NoSeek(io.BytesIO):
    def seekable(self):
        return False

    def seek(self, *args):
        raise io.UnsupportedOperation("seek")


def test_a_file_cut_short_after_planning_fails_the_job(spark, tmp_path):
    """The ranges are found when read_pgn is called, and read when the job
    runs: a file cut short between the two fails the job naming it, rather
    than giving fewer games."""
    path = tmp_path / "a-plain.pgn"
    shutil.copy(PLAIN, path)
    size = path.stat().st_size
    frame = sanfen.spark.read_pgn(spark, str(path), table="games", range_size=size // 3)
    with open(path, "r+b") as handle:
        handle.truncate(size - 1000)
    with pytest.raises(Exception) as error:
        frame.collect()
    assert f"{path}: read failed at byte " in str(error.value)
    assert f"the file ends at byte {size - 1000}, before the end of its range " in str(error.value)


def test_patterns_are_matched_as_spark_matches_them(pgn_folder, s3_store, monkeypatch):
    """`*`, `?` and `[...]` in a path or URI: its matches (files, or folders
    for their PGN files) in path order, named as matched; a file whose own
    name is the pattern is that file; no match is not found."""
    plain, compressed = pgn_folder / "a-plain.pgn", pgn_folder / "b-compressed.pgn.zst"
    sizes = {plain.name: plain.stat().st_size, compressed.name: compressed.stat().st_size}

    def files(paths, **options):
        return [(name, size) for _, _, name, size in sanfen.spark._files(paths, **options)[1]]

    both = [(str(plain), sizes[plain.name]), (str(compressed), sizes[compressed.name])]
    assert files(f"{pgn_folder}/*.pgn*") == both
    assert files(f"{pgn_folder}/[ab]-?????*") == both
    # (notes.txt matched by name: a file named is read, whatever its name)
    assert [name for name, _ in files(f"{pgn_folder}/*")] == [str(plain), str(compressed), str(pgn_folder / "notes.txt")]
    # a folder matched: its PGN files
    assert files(f"{pgn_folder.parent}/{pgn_folder.name[:-1]}?") == both
    monkeypatch.chdir(pgn_folder.parent)
    assert files(f"{pgn_folder.name}/*.zst") == [(f"{pgn_folder.name}/b-compressed.pgn.zst", sizes[compressed.name])]
    with pytest.raises(FileNotFoundError) as missing:
        files(f"{pgn_folder}/*.pgn.gz")
    assert missing.value.filename == f"{pgn_folder}/*.pgn.gz"
    # a file named as the pattern is that file
    literal = pgn_folder.parent / "odd[1].pgn"
    shutil.copy(plain, literal)
    assert files(str(literal)) == [(str(literal), sizes[plain.name])]
    literal.unlink()
    # in a store, a wildcard in a folder's name too
    settings = f"endpoint_override={s3_store}&scheme=http&region=us-east-1"
    assert files(f"s3://KEY:SECRET@pgn/lichess/*.pgn?{settings}") == [("s3://pgn/lichess/a-plain.pgn", sizes[plain.name])]
    assert files(f"s3://KEY:SECRET@pgn/li*/b-*?{settings}") == [
        ("s3://pgn/lichess/b-compressed.pgn.zst", sizes[compressed.name])
    ]
    assert files(f"s3a://KEY:SECRET@pgn/*?{settings}") == [
        ("s3a://pgn/lichess/a-plain.pgn", sizes[plain.name]),
        ("s3a://pgn/lichess/b-compressed.pgn.zst", sizes[compressed.name]),
    ]
    with pytest.raises(FileNotFoundError) as missing:
        files(f"s3://KEY:SECRET@pgn/*/*.pgn.bz2?{settings}")
    assert missing.value.filename == "s3://pgn/*/*.pgn.bz2"


def test_a_pattern_is_read_as_its_files_are(spark, pgn_folder):
    frame = sanfen.spark.read_pgn(spark, f"{pgn_folder}/*.pgn*", table="games", range_size=400_000)
    by_folder = sanfen.spark.read_pgn(spark, str(pgn_folder), table="games", range_size=400_000)
    assert sorted(spark_rows(frame), key=key) == sorted(spark_rows(by_folder), key=key)


def test_ranges_are_at_most_a_million(spark, tmp_path):
    """A range_size of a byte (a mistake): a million ranges at most (a task
    for each that holds a game), their rows those of the file; the native
    call refuses more."""
    path = tmp_path / "six-games.pgn"
    shutil.copy(COMPRESSED, path)
    assert sanfen._sanfen._MOST_RANGES == 1_000_000
    with pytest.raises(ValueError, match="parts must be from 1 to 1000000"):
        sanfen._sanfen._byte_ranges(str(path), 1_000_001)
    frame = sanfen.spark.read_pgn(spark, str(path), table="games", range_size=1)
    by_file = sanfen.spark.read_pgn(spark, str(path), table="games")
    assert sorted(spark_rows(frame), key=key) == sorted(spark_rows(by_file), key=key)


def test_a_name_that_is_not_utf8_is_refused_by_name(spark, tmp_path):
    """A file name that is not UTF-8 (Latin-1) cannot be a Spark string:
    refused, named as sanfen names it, whether given, in a folder or
    matched by a pattern. Regression: pyarrow's listing raised a
    UnicodeDecodeError that named nothing."""
    raw = os.fsencode(tmp_path) + b"/caf\xe9.pgn"
    with open(raw, "wb") as file:
        file.write(b"1. e4 e5 *\n")
    message = f"^{tmp_path}/caf\\\\xe9.pgn: a file name that is not UTF-8 cannot be read through Spark"
    for given in (os.fsdecode(raw), str(tmp_path), f"{tmp_path}/*.pgn"):
        with pytest.raises(ValueError, match=message):
            sanfen.spark.read_pgn(spark, given)


def test_a_fifo_is_refused_by_name(spark, tmp_path):
    """A FIFO (or a device) cannot be read more than once: refused, named,
    whether given or in a folder, not read nor skipped."""
    fifo = tmp_path / "live.pgn"
    os.mkfifo(fifo)
    for given in (fifo, tmp_path):
        with pytest.raises(ValueError, match=f"^{fifo}: not a regular file"):
            sanfen.spark.read_pgn(spark, str(given))
    with pytest.raises(ValueError, match="^/dev/null: not a regular file"):
        sanfen.spark.read_pgn(spark, "/dev/null")
