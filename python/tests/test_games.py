"""sanfen.read_games and sanfen.check_pgn: the same games as python-chess,
the same findings as `sanfen check --json`, the same whatever the threads,
and clear exceptions on bad input."""

import bz2
import errno
import functools
import gzip
import io
import json
import logging
import os
import pathlib
import re
import shutil
import subprocess

import chess.pgn
import pytest
from conftest import sanfen_binary

import sanfen

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data" / "pgn"

# python-chess alone takes 19 s and 100 s on these (measured: its reader
# does about 0.16 MB/s on these short opening lines): they are left out of
# the comparison with it, not of the other tests.
SLOW_FOR_PYTHON_CHESS = {
    "stockfish-books/bjbraams_chessdb_198350_lines.pgn": "16 MB, 198350 games: 100 s in python-chess",
    "stockfish-books/8moves_v3.pgn": "8 MB, 34700 games: 19 s in python-chess",
}

# Files python-chess reads without an error but otherwise than sanfen:
# the comparison is expected to fail (strictly: it fails the run once
# they agree), for the reason given.
READ_OTHERWISE = {
    "chess.js/0.pgn": "HTML `<br />` after each tag: python-chess skips it and reads 1 game; "
    "sanfen reads 8 games, each with a syntax error",
    "chessops/headers-and-moves-on-the-same-line.pgn": "tags and moves on one line: python-chess reads 2 games, "
    "sanfen 3",
    "chessops/leading-whitespace.pgn": "tag lines indented: python-chess reads 5 games, sanfen 4",
    "chessops/pathological-headers.pgn": 'several tags on a line with escaped quotes: python-chess reads one tag '
    '(`A`, the rest of the line its value), sanfen reads the 7 tags',
    "scalachess/FWWRC.pgn": "605 games of tags alone (no movetext): python-chess reads 1 game, sanfen 605",
    "scalachess/uzchesscup.pgn": "45 games of tags alone (no movetext): python-chess reads 1 game, sanfen 45",
}

ALL_FILES = sorted(str(p.relative_to(DATA)) for p in DATA.rglob("*") if p.is_file())

COMMAND = re.compile(r"\[%[^\]]*\]")


# Windows-1252's characters where Latin-1 has C1 control codes (the codes
# Windows leaves unassigned stay what they are, as the WHATWG decodes them).
CP1252 = {code: bytes([code]).decode("cp1252", "ignore") or chr(code) for code in range(0x80, 0xA0)}


def text_of(path):
    """The file's text as python-chess is given it: UTF-8 (a byte order mark
    dropped), or Windows-1252 when the bytes are not UTF-8 (as sanfen
    decodes)."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1").translate(CP1252)


@functools.lru_cache(maxsize=None)
def python_chess_games(path):
    """Every game of the file by python-chess, or None when python-chess
    reports an error in any game (or fails). Kept: the export tests compare
    with the same games."""
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    handle = io.StringIO(text_of(path))
    games = []
    try:
        while (game := chess.pgn.read_game(handle)) is not None:
            if game.errors:
                return None
            games.append(game)
    except Exception:  # python-chess itself fails on some hostile files
        return None
    return games


def words(text):
    """Whitespace normalised: runs of whitespace as one space, none at the
    ends (python-chess keeps a comment's spaces and line breaks; sanfen's
    `comment` trims each comment and joins them by a space)."""
    return " ".join(text.split())


def pc_line(first, board):
    """A python-chess line from its first node (`board`: the position before
    it), as comparable values. The boards are played along (python-chess's
    `node.san()` replays the game from its start at each call)."""
    moves = []
    node = first
    board = board.copy()
    while node is not None:
        parent = node.parent
        score = node.eval()
        # the lines that replace the move, nested ones flattened in reading
        # order, as python-chess holds them
        alternatives = parent.variations[1:] if parent.variations[0] is node else []
        moves.append(
            {
                "san": board.san(node.move),
                "uci": board.uci(node.move),
                "comment": words(COMMAND.sub(" ", node.comment)),
                "nags": sorted(node.nags),
                "clock": node.clock(),
                "elapsed": node.emt(),
                "eval": None if score is None else (score.white().score(), score.white().mate()),
                "depth": node.eval_depth(),
                "variations": [pc_line(v, board) for v in alternatives],
            }
        )
        board.push(node.move)
        node = node.next()
    return moves


def replacing(move):
    """The lines that replace a move, those replacing a variation's first
    move too (python-chess holds them all as siblings), in reading order."""
    lines = []
    for variation in move.variations:
        lines.append(variation)
        lines.extend(replacing(variation[0]))
    return lines


def sanfen_line(moves, variation=False):
    out = []
    for i, move in enumerate(moves):
        score = move.eval
        out.append(
            {
                "san": move.san,
                "uci": move.uci,
                "comment": words(move.comment),
                "nags": sorted(set(move.nags)),
                "clock": move.clock,
                "elapsed": move.elapsed,
                "eval": None if score is None else (score.centipawns, score.mate),
                "depth": None if score is None else score.depth,
                "variations": [] if variation and i == 0 else [sanfen_line(v, True) for v in replacing(move)],
            }
        )
    return out


#: Every data file, those python-chess reads otherwise marked as expected to fail.
COMPARED_FILES = [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=READ_OTHERWISE[n])) if n in READ_OTHERWISE else n
    for n in ALL_FILES
]


def with_python_chess(name):
    """The data file `name` and python-chess's games of it; the test is
    skipped when python-chess is too slow on it or reports errors in it."""
    if name in SLOW_FOR_PYTHON_CHESS:
        pytest.skip(SLOW_FOR_PYTHON_CHESS[name])
    path = DATA / name
    expected = python_chess_games(path)
    if expected is None:
        pytest.skip("python-chess reports errors in this file")
    return path, expected


@pytest.mark.parametrize("name", COMPARED_FILES)
def test_games_are_python_chess_games(name):
    path, expected = with_python_chess(name)
    games = list(sanfen.read_games(path, threads=1))
    assert len(games) == len(expected)
    compared = 0
    for game, pc in zip(games, expected):
        headers = dict(pc.headers)
        tags = game.tags
        if game.skipped is not None:
            # a variant sanfen does not play: not read, and said so
            assert game.mainline == [] and game.start_fen is None
            assert headers.get("Variant", "").lower() == game.skipped.lower()
            continue
        # python-chess fills in the Seven Tag Roster when a game lacks it
        assert {k: v for k, v in headers.items() if k in tags} == tags
        roster = dict(chess.pgn.Headers())
        assert {k: v for k, v in headers.items() if k not in tags} == {k: roster[k] for k in headers if k not in tags}
        assert game.start_fen == pc.board().fen()
        first = pc.next()
        assert sanfen_line(game.mainline) == ([] if first is None else pc_line(first, pc.board()))
        assert words(game.comment) == words(COMMAND.sub(" ", pc.comment))
        compared += 1
    assert compared > 0 or all(g.skipped for g in games)


@pytest.mark.parametrize("notation", ["lan", "uci"])
@pytest.mark.parametrize(
    "name",
    ["python-chess/kasparov-deep-blue-1997.pgn", "tcec/TCEC_Season_5_-_Superfinal.pgn", "python-chess/cutechess-fischerrandom.pgn"],
)
def test_fmt_in_another_notation_is_read_by_python_chess_as_the_same_moves(name, notation):
    path, expected = with_python_chess(name)
    out = subprocess.run([sanfen_binary(), "fmt", "--notation", notation, str(path)], capture_output=True, check=True)
    handle = io.StringIO(out.stdout.decode())
    games = []
    while (game := chess.pgn.read_game(handle)) is not None:
        assert game.errors == []
        games.append([m.uci() for m in game.mainline_moves()])
    assert games == [[m.uci() for m in game.mainline_moves()] for game in expected]
    assert sum(map(len, games)) > 100


@pytest.mark.parametrize("notation", ["lan", "uci", "figurine"])
def test_a_games_pgn_in_another_notation_is_what_fmt_writes(notation):
    """Every game of a file with variations, comments and NAGs: to_pgn in
    ``notation`` gives its movetext as ``sanfen fmt --notation`` does."""
    path = DATA / "tcec" / "TCEC_Season_5_-_Superfinal.pgn"
    out = subprocess.run([sanfen_binary(), "fmt", "--notation", notation, str(path)], capture_output=True, check=True)
    def movetext(pgn):
        # (the text between games, after a blank line, is fmt's only)
        return pgn[pgn.rindex('"]\n\n') + 4 :].split("\n\n")[0].rstrip("\n")

    # fmt writes the Seven Tag Roster first, Event first
    formatted = [movetext(game) for game in out.stdout.decode().split("\n\n[Event ")]
    games = list(sanfen.read_games(str(path)))
    assert len(games) == len(formatted) > 10
    assert sum(map(len, formatted)) > 500_000
    for game, text in zip(games, formatted):
        assert movetext(game.to_pgn(notation=notation)) == text


def run_check(*args):
    out = subprocess.run([sanfen_binary(), "check", "--json", "--no-progress", *args], capture_output=True, text=True)
    assert out.returncode in (0, 1), out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    summary = lines.pop()["summary"]
    del summary["seconds"]
    # (check_pgn reads one file, and raises when it cannot)
    assert summary.pop("file_errors") == 0
    return lines, summary


FIELDS = ("game", "line", "column", "ply", "move_number", "side", "token", "kind", "message", "suggestion")


def finding_dict(finding, file):
    assert finding.file == file
    out = {field: getattr(finding, field) for field in FIELDS}
    if finding.repeats > 1:
        out["repeats"] = finding.repeats
        out["until"] = {"line": finding.until[0], "column": finding.until[1]}
    return out


def json_findings(lines):
    """The findings of `sanfen check --json`, in its order (per game: the
    errors, then the lint findings), each with its severity."""
    out = []
    for line in lines:
        for severity, key in (("error", "errors"), ("warning", "lint")):
            out.extend((severity, finding) for finding in line[key])
    return out


def ours(findings, file):
    """Findings in the order `sanfen check --json` writes them: per game,
    the errors, then the lint findings."""
    out = []
    i = 0
    while i < len(findings):
        j = i
        while j < len(findings) and findings[j].game == findings[i].game:
            j += 1
        group = findings[i:j]
        for severity in ("error", "warning"):
            out.extend((severity, finding_dict(f, file)) for f in group if f.severity == severity)
        i = j
    return out


@pytest.mark.parametrize("name", ALL_FILES)
def test_check_pgn_is_sanfen_check_json(name):
    path = str(DATA / name)
    lines, summary = run_check(path)
    result = sanfen.check_pgn(path, threads=2)
    assert ours(result.findings, path) == json_findings(lines)
    assert result.summary == summary
    assert result.skipped == [(line["game"], line["skipped"]) for line in lines if line["skipped"]]


def test_check_pgn_options_are_sanfen_checks():
    path = str(DATA / "pychess" / "gamefiles" / "world_matches.pgn")
    lines, summary = run_check("--strict", "--allow", "pgn:missing-tags", "--deny", "san", path)
    result = sanfen.check_pgn(path, strict=True, allow=["pgn:missing-tags"], deny=["san"])
    assert ours(result.findings, path) == json_findings(lines)
    assert result.summary == summary


def test_check_pgn_reads_the_piece_letters_of_a_language(tmp_path):
    path = tmp_path / "pt.pgn"
    path.write_text("[Event \"pt\"]\n\n1. e4 e5 2. Cf3 Cc6 3. Bb5 a6 4. O-O Cf6 5. Te1 d6 6. d4 Dd7 *\n")
    lines, summary = run_check("--letters", "pt", str(path))
    result = sanfen.check_pgn(str(path), letters="pt")
    assert ours(result.findings, str(path)) == json_findings(lines)
    assert result.summary == summary
    assert (summary["errors"], summary["moves"]) == (0, 12)
    lints = [(f.token, f.kind, f.suggestion) for f in result.findings if f.kind == "san:local-letters"]
    assert lints == [
        ("Cf3", "san:local-letters", "Nf3"),
        ("Cc6", "san:local-letters", "Nc6"),
        ("Cf6", "san:local-letters", "Nf6"),
        ("Te1", "san:local-letters", "Re1"),
        ("Dd7", "san:local-letters", "Qd7"),
    ]
    english = sanfen.check_pgn(str(path))
    assert (english.summary["errors"], english.summary["moves"]) == (1, 2)
    # read_games: the moves in English SAN, as written, with the same findings
    (game,) = sanfen.read_games(str(path), letters="pt")
    assert [move.san for move in game.mainline][2:4] == ["Nf3", "Nc6"]
    assert [move.written for move in game.mainline][2:4] == ["Cf3", "Cc6"]
    assert len(game.mainline) == 12
    assert [(f.line, f.column, f.kind) for f in game.findings] == [(f.line, f.column, f.kind) for f in result.findings]
    (english_game,) = sanfen.read_games(str(path))
    assert len(english_game.mainline) == 2
    for read in (sanfen.check_pgn, sanfen.read_games):
        with pytest.raises(ValueError, match="^unknown letters 'xx'"):
            read(str(path), letters="xx")


def test_check_pgn_refuses_an_unknown_code():
    with pytest.raises(ValueError) as info:
        sanfen.check_pgn(io.BytesIO(b"1. e4 *\n"), allow=["pgn:no-such-thing"])
    assert "pgn:no-such-thing" in str(info.value)


@pytest.mark.parametrize("name", [n for n in ALL_FILES if (DATA / n).stat().st_size < 1_100_000])
def test_game_findings_are_sanfen_check_json(name):
    """Every finding of the games (text between games included, given to the
    game after it) is one `sanfen check --json` reports."""
    path = str(DATA / name)
    lines, _ = run_check(path)
    key = lambda pair: (pair[1]["line"], pair[1]["column"], pair[1]["kind"])  # noqa: E731
    expected = sorted(((s, {k: v for k, v in f.items() if k != "game"}) for s, f in json_findings(lines)), key=key)
    found = []
    for game in sanfen.read_games(path):
        for f in game.findings:
            d = finding_dict(f, path)
            del d["game"]
            found.append((f.severity, d))
        assert game.errors == sum(f.severity == "error" for f in game.findings)
    assert sorted(found, key=key) == expected


def game_values(game):
    return (
        game.number,
        game.tags,
        game.to_pgn(),
        game.result,
        game.start_fen,
        [(f.line, f.column, f.kind, f.message) for f in game.findings],
    )


def test_threads_give_the_same_games():
    # 4 MB: chunks of 256 KiB, many per thread
    path = DATA / "tcec" / "TCEC_Season_13_-_Superfinal.pgn"
    one = [game_values(g) for g in sanfen.read_games(path, threads=1)]
    two = [game_values(g) for g in sanfen.read_games(path, threads=2)]
    every = [game_values(g) for g in sanfen.read_games(path)]
    assert len(one) == 100
    assert one == two == every


SMALL = b"""[Event "Test"]
[White "Ana"]
[Black "Bruno"]
[Result "1-0"]

1. e4 { [%clk 0:03:00] [%eval 0.25] good } 1... e5 { [%clk 0:02:58.5] [%eval #-3] } 2. Qh5?! $18 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "Broken"]

1. e4 e5 2. Ke3 *
"""


def test_read_games_gives_every_part_of_a_game():
    games = list(sanfen.read_games(io.BytesIO(SMALL)))
    assert len(games) == 2
    game = games[0]
    assert game.number == 1
    assert game.tags == {"Event": "Test", "White": "Ana", "Black": "Bruno", "Result": "1-0"}
    assert game.headers == game.tags
    assert game.result == "1-0"
    assert game.start_fen == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    moves = game.mainline
    assert [m.san for m in moves] == ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
    assert [m.uci for m in moves] == ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
    assert [(m.ply, m.number, m.side) for m in moves[:3]] == [(1, 1, "white"), (2, 1, "black"), (3, 2, "white")]
    assert [m.clock for m in moves[:3]] == [180.0, 178.5, None]
    assert (moves[0].eval.centipawns, moves[0].eval.mate, moves[0].eval.depth) == (25, None, None)
    assert (moves[1].eval.centipawns, moves[1].eval.mate) == (None, -3)
    assert moves[2].eval is None
    assert moves[0].comment == "good"
    assert moves[0].comments == [" [%clk 0:03:00] [%eval 0.25] good "]
    assert moves[1].comment == ""
    assert moves[2].nags == [6, 18]
    assert moves[2].written == "Qh5?!"
    assert [(f.kind, f.severity, f.message) for f in game.findings] == [
        ("pgn:missing-tags", "warning", "missing Seven Tag Roster tags: Site, Date, Round")
    ]
    assert game.errors == 0
    broken = games[1]
    assert [m.san for m in broken.mainline] == ["e4", "e5"]
    assert broken.errors == 1
    [finding] = [f for f in broken.findings if f.severity == "error"]
    assert (finding.file, finding.game, finding.line, finding.column) == ("<stream>", 2, 10, 13)
    assert (finding.ply, finding.move_number, finding.side, finding.token) == (3, 2, "white", "Ke3")
    assert finding.kind == "san:illegal"


def test_variations_hang_from_the_move_they_replace():
    [game] = sanfen.read_games(io.StringIO("1. e4 e5 (1... c5 2. Nf3 (2. c3)) 2. Nf3 *\n"))
    moves = game.mainline
    assert [m.san for m in moves] == ["e4", "e5", "Nf3"]
    [variation] = moves[1].variations
    assert [(m.san, m.ply) for m in variation] == [("c5", 2), ("Nf3", 3)]
    assert [[m.uci for m in v] for v in variation[1].variations] == [["c2c3"]]


def test_null_moves_are_read_in_every_spelling_python_chess_reads():
    text = "1. e4 -- 2. d4 Z0 3. c4 0000 4. Nf3 @@@@ 5. g3 e5 *\n"
    [game] = sanfen.read_games(io.StringIO(text))
    expected = [board_move.uci() for board_move in chess.pgn.read_game(io.StringIO(text)).mainline_moves()]
    assert [m.uci for m in game.mainline] == expected
    assert expected == ["e2e4", "0000", "d2d4", "0000", "c2c4", "0000", "g1f3", "0000", "g2g3", "e7e5"]
    assert [m.san for m in game.mainline][1::2] == ["--", "--", "--", "--", "e5"]


def test_an_asterisk_glued_to_a_move_is_the_result_as_python_chess_reads_it():
    text = '[Event "a"]\n\n1. e4 e5 2. Nf3*\n\n[Event "b"]\n\n1. d4 d5*\n'
    handle = io.StringIO(text)
    expected = []
    while (pc := chess.pgn.read_game(handle)) is not None:
        expected.append((pc.headers["Event"], [m.uci() for m in pc.mainline_moves()], pc.headers["Result"]))
    games = list(sanfen.read_games(io.StringIO(text)))
    assert [(g.tags["Event"], [m.uci for m in g.mainline], g.result) for g in games] == expected
    assert expected == [("a", ["e2e4", "e7e5", "g1f3"], "*"), ("b", ["d2d4", "d7d5"], "*")]
    assert [g.errors for g in games] == [0, 0]


@pytest.fixture
def sample(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_bytes((DATA / "shakmaty-bench" / "lichess_db_1000k.pgn").read_bytes())
    return path


def summaries(source, **kw):
    return [(g.number, g.tags.get("Site"), len(g.mainline), g.errors) for g in sanfen.read_games(source, **kw)]


def test_every_kind_of_source_gives_the_same_games(sample, tmp_path):
    expected = summaries(str(sample))
    assert len(expected) == 438
    data = sample.read_bytes()
    assert summaries(sample) == expected
    with open(sample, "rb") as f:
        assert summaries(f) == expected
    with open(sample, encoding="utf-8") as f:
        assert summaries(f) == expected
    assert summaries(io.BytesIO(data)) == expected
    assert summaries(io.StringIO(data.decode("utf-8"))) == expected
    gz = tmp_path / "games.pgn.gz"
    gz.write_bytes(gzip.compress(data))
    assert summaries(gz) == expected
    assert summaries(io.BytesIO(gzip.compress(data))) == expected
    bz = tmp_path / "games.bz2"
    bz.write_bytes(bz2.compress(data))
    assert summaries(bz) == expected
    if shutil.which("zstd"):
        subprocess.run(["zstd", "-q", "-o", str(tmp_path / "games.pgn.zst"), str(sample)], check=True)
        assert summaries(tmp_path / "games.pgn.zst") == expected
    # a name says nothing: the first bytes do
    odd = tmp_path / "games.txt"
    odd.write_bytes(gzip.compress(data))
    assert summaries(odd) == expected


def test_a_missing_file_is_file_not_found(tmp_path):
    missing = tmp_path / "missing.pgn"
    with pytest.raises(FileNotFoundError) as info:
        sanfen.read_games(missing)
    assert info.value.filename == str(missing)
    with pytest.raises(FileNotFoundError):
        sanfen.check_pgn(str(missing))
    with pytest.raises(FileNotFoundError):
        sanfen.moves_table(missing)
    assert "StringIO" not in str(info.value)


def test_a_path_that_is_not_utf8_is_named_by_its_bytes(tmp_path):
    """A Latin-1 file name (a `str` with a surrogate, as `os.listdir`
    gives it, or a `pathlib.Path`) is named with that byte as `\\xe9`, as the
    command line names it. Regression: U+FFFD, so that two such names
    looked the same."""
    path = os.fsencode(tmp_path) + b"/caf\xe9.pgn"
    with open(path, "wb") as file:
        file.write(b"1. e4 e5 *\n")
    shown = f"{tmp_path}/caf\\xe9.pgn"
    for given in (os.fsdecode(path), pathlib.Path(os.fsdecode(path))):
        assert sanfen.games_table(given).column("file").to_pylist() == [shown]
        assert sanfen.moves_table(given).column("file").to_pylist() == [shown, shown]
        assert {finding.file for finding in sanfen.check_pgn(given).findings} == {shown}
    os.remove(path)
    with pytest.raises(FileNotFoundError) as info:
        sanfen.read_games(os.fsdecode(path))
    assert (info.value.filename, info.value.strerror) == (shown, f"{shown}: No such file or directory (os error 2)")


def test_pgn_text_given_as_a_path_is_told_the_way_to_give_text(tmp_path):
    # a str is a path (as for open()); PGN text in one says how to pass it
    hint = " (a str is a path: for PGN text, pass io.StringIO(text))"
    for text in ['[Event "Club"]\n\n1. e4 e5 *', "1. e4 e5 *", "{ a comment } 1. d4 *", "1.e4\ne5"]:
        for read in (sanfen.read_games, sanfen.check_pgn, sanfen.games_table):
            with pytest.raises(FileNotFoundError) as info:
                read(text)
            assert info.value.strerror == f"{text}: No such file or directory (os error 2){hint}"
            assert info.value.filename == text
    # a name that is no PGN text: no hint
    for name in ["1.pgn", "games/1. e4.pgn"]:
        with pytest.raises(FileNotFoundError) as info:
            sanfen.read_games(name)
        assert "StringIO" not in str(info.value)


def test_a_directory_is_is_a_directory(tmp_path):
    for read in (sanfen.read_games, sanfen.check_pgn):
        with pytest.raises(IsADirectoryError) as info:
            read(tmp_path)
        # as the command line says it
        assert info.value.strerror == f"{tmp_path}: a directory, not a PGN file"
        assert info.value.errno == 21
        assert info.value.filename == str(tmp_path)


def test_binary_data_is_a_value_error(tmp_path):
    path = tmp_path / "image.pgn"
    path.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(ValueError) as info:
        sanfen.read_games(path)
    assert str(info.value) == (
        f"{path}: binary data: 224 of the first 2048 bytes are control bytes (the first at offset 0)"
    )
    with pytest.raises(ValueError) as info:
        sanfen.check_pgn(path)
    assert str(info.value) == (
        f"{path}: not PGN text: binary data: 224 of the first 2048 bytes are control bytes (the first at offset 0)"
    )


def test_truncated_gzip_gives_the_games_before_then_a_value_error(sample, tmp_path):
    data = gzip.compress(sample.read_bytes())
    path = tmp_path / "cut.pgn.gz"
    path.write_bytes(data[: len(data) // 2])
    games = []
    with pytest.raises(ValueError) as info:
        for game in sanfen.read_games(path, threads=2):
            games.append(game.tags.get("Site"))
    assert 100 < len(games) < 438
    assert games == [s for _, s, _, _ in summaries(sample)[: len(games)]]
    assert re.fullmatch(
        rf"{re.escape(str(path))}: read failed at byte \d+ of the gzip stream, decompressed: .+", str(info.value)
    )
    with pytest.raises(ValueError):
        sanfen.check_pgn(path)


def test_a_game_too_large_is_a_value_error_and_the_games_after_it_are_read(tmp_path):
    big = '[Event "big"]\n\n1. e4 {' + "x" * (8 << 20) + "} *\n\n"
    path = tmp_path / "big.pgn"
    path.write_text('[Event "before"]\n\n1. d4 *\n\n' + big + '[Event "after"]\n\n1. c4 *\n')
    said = f"game of {len(big)} bytes, larger than the limit of 8388608 bytes"
    games = sanfen.read_games(path)
    assert next(games).tags == {"Event": "before"}
    with pytest.raises(ValueError) as info:
        next(games)
    assert str(info.value) == f"{path}:5:1: game 2: {said}: not read"
    assert next(games).tags == {"Event": "after"}
    assert next(games, None) is None
    found = [(f.game, f.line, f.kind, f.message) for f in sanfen.check_pgn(path).findings if f.severity == "error"]
    message = f"{said}: not checked (the next game starts at the next tag pair at the start of a line)"
    assert found == [(2, 5, "pgn:too-large", message)]


def test_a_games_position_outcome_and_opening():
    pgn = (
        b'[Event "mate"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 1-0\n\n'
        b'[Event "shuffle"]\n\n' + b" ".join(f"{n}. Nf3 Nf6 {n + 1}. Ng1 Ng8".encode() for n in range(1, 9, 2)) + b" 1/2-1/2\n\n"
        b'[Event "error"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ke3 Nf6 *\n\n'
        b'[Variant "Atomic"]\n\n1. e4 *\n'
    )
    mate, shuffle, error, atomic = sanfen.read_games(io.BytesIO(pgn))
    position = mate.position()
    assert position.fen() == "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
    assert [move.san for move in position.move_stack] == ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
    # each move as play() gives it for its text: Qxf7 was written without its #
    assert [lint.code for lint in position.peek().lints] == ["san:missing-checkmate"]
    assert (str(mate.outcome()), mate.opening()) == ("checkmate: 1-0", ("C20", "King's Pawn Game: Wayward Queen Attack"))
    assert (str(position.outcome()), position.pop().uci, position.outcome()) == ("checkmate: 1-0", "h5f7", None)
    position = shuffle.position()
    assert (len(position.move_stack), str(shuffle.outcome()), str(position.outcome())) == (
        16,
        "fivefold repetition: 1/2-1/2",
        "fivefold repetition: 1/2-1/2",
    )
    assert shuffle.opening() == ("A05", "Zukertort Opening")
    # up to the error
    position = error.position()
    assert (position.fen(), len(position.move_stack)) == (
        "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
        6,
    )
    assert (error.outcome(), error.opening()) == (None, ("C70", "Ruy Lopez: Morphy Defense"))
    assert (atomic.position(), atomic.outcome(), atomic.opening()) == (None, None, None)


def test_games_outcomes_and_openings_are_the_games_tables():
    path = DATA / "pychess" / "gamefiles" / "world_matches.pgn"
    import pyarrow as pa

    table = pa.table(sanfen.games_table(str(path))).select(["termination", "eco", "opening"]).to_pylist()
    games = [
        {
            "termination": None if game.outcome() is None else game.outcome().reason,
            "eco": None if game.opening() is None else game.opening()[0],
            "opening": None if game.opening() is None else game.opening()[1],
        }
        for game in sanfen.read_games(str(path))
    ]
    assert games == table
    assert sum(row["termination"] is not None for row in table) > 0


def test_tags_that_are_not_utf8_are_read_as_windows_1252():
    [game] = sanfen.read_games(io.BytesIO(b'[White "Caf\xe9"]\n[Black "na\xefve"]\n\n1. e4 *\n'))
    assert game.tags == {"White": "Café", "Black": "naïve"}
    assert game.errors == 0
    pgn = b'[Event "\x93Open\x94 \x96 \x8010 \x81"]\n\n1. e4 {\x93best\x94 \x85} *\n'
    [game] = sanfen.read_games(io.BytesIO(pgn))
    assert game.tags == {"Event": "“Open” – €10 \x81"}
    assert game.mainline[0].comment == "“best” …"
    import pyarrow as pa

    [row] = pa.table(sanfen.moves_table(io.BytesIO(pgn))).to_pylist()
    assert row["comment"] == "“best” …"


def test_a_file_object_that_raises_raises_its_exception():
    class Broken(io.RawIOBase):
        calls = 0

        def read(self, n=-1):
            self.calls += 1
            if self.calls == 1:
                return b"1. e4 e5 *\n\n" * 100
            raise ConnectionResetError("the peer went away")

    with pytest.raises(ConnectionResetError, match="the peer went away"):
        list(sanfen.read_games(Broken()))


def test_a_file_object_that_gives_neither_bytes_nor_str_is_a_type_error():
    class Odd:
        def read(self, n):
            return 42

    with pytest.raises(TypeError, match="read\\(\\) gave int, not bytes or str"):
        list(sanfen.read_games(Odd()))

    # a list of small integers is no file's data, though it would convert
    class Listed:
        def read(self, n):
            return list(b"1. e4 *")

    with pytest.raises(TypeError, match="read\\(\\) gave list, not bytes or str"):
        list(sanfen.read_games(Listed()))


@pytest.mark.parametrize("kind", [bytearray, memoryview])
def test_a_file_object_that_gives_a_buffer_is_read(kind):
    class Buffered:
        def __init__(self):
            self.data = io.BytesIO(b"1. e4 e5 2. Nf3 *\n\n1. d4 *\n")

        def read(self, n):
            return kind(self.data.read(n))

    games = list(sanfen.read_games(Buffered()))
    assert [[m.san for m in game.mainline] for game in games] == [["e4", "e5", "Nf3"], ["d4"]]


def test_neither_a_path_nor_a_file_is_a_type_error():
    with pytest.raises(TypeError, match="expected a path"):
        sanfen.read_games(42)


def test_zero_threads_or_too_many_is_a_value_error():
    # (at most 1024, as sanfen -j: a number mistyped would exhaust the
    # system's threads before failing)
    for threads in (0, 1025, 10**6):
        for call in (sanfen.read_games, sanfen.check_pgn, sanfen.games_table, sanfen.moves_table):
            with pytest.raises(ValueError, match=r"threads must be from 1 to 1024 \(or None: one per core\)"):
                call(io.BytesIO(b""), threads=threads)
    assert sanfen.games_table(io.BytesIO(b"1. e4 *\n"), threads=2).num_rows == 1


def test_an_empty_input_has_no_games():
    assert list(sanfen.read_games(io.BytesIO(b""))) == []
    result = sanfen.check_pgn(io.BytesIO(b""))
    assert result.findings == []
    assert result.summary == {
        "games": 0,
        "moves": 0,
        "games_with_errors": 0,
        "errors": 0,
        "lint": 0,
        "skipped": 0,
        "bytes": 0,
    }


def test_a_reader_in_use_refuses_another_read_instead_of_waiting_forever():
    class Reentrant(io.RawIOBase):
        reader = None

        def read(self, n=-1):
            if self.reader is None:
                return b"1. e4 e5 *\n\n" * 1000
            # the reader is busy reading this file: asking it for a game
            # again (as another thread could) must not wait for it
            next(self.reader)

    source = Reentrant()
    source.reader = sanfen.read_games(source)
    with pytest.raises(RuntimeError, match="the games are being read by another thread"):
        list(source.reader)


@pytest.mark.parametrize("call", ["check_pgn", "games_table", "moves_table"])
def test_ctrl_c_stops_a_long_read(call, tmp_path):
    """Ctrl-C (SIGINT) during a call that reads a whole input with the GIL
    released stops it with KeyboardInterrupt, not once the input ends: a
    FIFO is fed games until the reader leaves or 64 MiB are written, the
    signal sent after the first 2 MiB."""
    import os
    import signal
    import threading

    fifo = tmp_path / "games.pgn"
    os.mkfifo(fifo)
    game = b'[Event "e"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n' * 1000
    written = []

    def feed():
        total = 0
        try:
            with open(fifo, "wb") as out:
                while total < 64 << 20:
                    out.write(game)
                    total += len(game)
                    if total >= 2 << 20 and not written:
                        written.append(total)
                        os.kill(os.getpid(), signal.SIGINT)
        except BrokenPipeError:
            pass
        written.append(total)

    feeder = threading.Thread(target=feed)
    feeder.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            getattr(sanfen, call)(fifo, threads=2)
    finally:
        feeder.join()
    # the reader left long before the end (a few chunks read ahead at most)
    assert written[-1] < 32 << 20, written


@pytest.mark.parametrize("call", ["check_pgn", "read_games", "games_table", "moves_table"])
@pytest.mark.parametrize("writer", ["none", "stalled"])
def test_ctrl_c_stops_a_wait_for_a_fifo_that_gives_nothing(call, writer, tmp_path):
    """Ctrl-C stops a call waiting for a FIFO's data, whether no program has
    opened it to write or its writer sends nothing more: a read blocked in
    the system waited for the writer to close it."""
    import os
    import signal
    import threading
    import time

    fifo = tmp_path / "games.pgn"
    os.mkfifo(fifo)
    done = threading.Event()

    def stall():
        # a game, then nothing until the reader is gone
        with open(fifo, "wb") as out:
            out.write(b'[Event "e"]\n\n1. e4 e5 *\n\n')
            out.flush()
            done.wait(30)

    feeder = threading.Thread(target=stall) if writer == "stalled" else None
    if feeder:
        feeder.start()
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            result = getattr(sanfen, call)(fifo, threads=2)
            if call == "read_games":
                list(result)
    finally:
        timer.cancel()
        done.set()
        if feeder:
            feeder.join()
    assert time.monotonic() - started < 10


def test_a_non_blocking_stream_with_no_data_yet_is_not_taken_as_the_end():
    # a pipe whose writer has more to give: read() gives None, not b""
    r, w = os.pipe()
    os.set_blocking(r, False)
    os.write(w, b"1. e4 e5 *\n\n" * 100)
    read = []
    with open(r, "rb", buffering=0) as source:
        with pytest.raises(BlockingIOError, match="read\\(\\) gave None") as raised:
            for game in sanfen.read_games(source):
                read.append(game)
    os.close(w)
    assert raised.value.errno == errno.EAGAIN
    # the games given before it, every one
    assert len(read) == 100
    assert [node.san for node in read[-1].mainline] == ["e4", "e5"]
