"""check_fen: the same findings as `sanfen fen check --json` and the same
canonical FEN as `sanfen fen normalize --json`, on every FEN of the shared data;
exact reports for chosen FENs; bad input raises a clear exception."""

import json
import pathlib
import subprocess

import pytest
from conftest import sanfen_binary

import sanfen

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data"


def lines_of(path):
    """The lines of a file as bytes, split at `\\n` only (a `\\r` stays), as
    the command-line tool reads standard input."""
    data = path.read_bytes()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def column(path, name, separator):
    """One column of a TSV or CSV file with a header (no quoted separators in
    the columns read here)."""
    lines = lines_of(path)
    index = lines[0].decode().split(separator).index(name)
    return [line.split(separator.encode())[index] for line in lines[1:]]


def fen_inputs():
    """Every FEN case of the shared data: the FEN column of the vectors and
    of the EPD tables, every line of the EPD files (opcodes and all), the FEN
    fuzz seeds."""
    vectors = DATA / "vectors"
    inputs = {"vectors/fen_cases.tsv": column(vectors / "fen_cases.tsv", "fen", "\t")}
    for seed in sorted((vectors / "shakmaty-fuzz-seeds" / "fen_from_ascii").iterdir()):
        inputs[f"fuzz seed {seed.name}"] = lines_of(seed)
    epd = DATA / "epd"
    for path in sorted(epd.rglob("*.epd")) + sorted(epd.rglob("*.fen")):
        inputs[str(path.relative_to(DATA))] = lines_of(path)
    inputs["epd/notnil-chess/eco_lichess.tsv"] = column(epd / "notnil-chess" / "eco_lichess.tsv", "epd", "\t")
    inputs["epd/puzzles/lichess_db_puzzle.csv"] = column(epd / "puzzles" / "lichess_db_puzzle.csv", "FEN", ",")
    return inputs


def cli_json(command, lines, chess960):
    arguments = [sanfen_binary(), "fen", command, "--json"] + (["--chess960"] if chess960 else [])
    done = subprocess.run(arguments, input=b"".join(line + b"\n" for line in lines), capture_output=True, check=False)
    assert done.stderr == b""
    assert done.returncode in (0, 1)
    reports = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(reports) == len(lines)
    return reports


def as_json(finding):
    """A Finding as the command line writes it in JSON."""
    return {
        "code": finding.code,
        "message": finding.message,
        "field": finding.field,
        "span": list(finding.span) if finding.span is not None else None,
        "squares": finding.squares,
    }


def test_check_fen_agrees_with_the_command_line_on_every_fen_of_the_data():
    inputs = fen_inputs()
    assert sum(len(lines) for lines in inputs.values()) == 378_145
    agree(inputs, chess960=False)


def test_check_fen_agrees_with_the_command_line_in_chess960_mode():
    # the Chess960 start positions and the vectors (the whole data in both
    # modes would double the run time for no new case)
    inputs = {source: lines for source, lines in fen_inputs().items() if "FRC" in source or "epd" not in source}
    assert sum(len(lines) for lines in inputs.values()) == 960 + 183 + 10
    agree(inputs, chess960=True)


def agree(inputs, chess960):
    for source, lines in inputs.items():
        checked = cli_json("check", lines, chess960)
        normalized = cli_json("normalize", lines, chess960)
        for number, (line, cli, cli_fen) in enumerate(zip(lines, checked, normalized), 1):
            report = sanfen.check_fen(line, chess960=chess960)
            mine = {
                "input": report.input,
                "valid": report.valid,
                "errors": [as_json(finding) for finding in report.errors],
                "warnings": [as_json(finding) for finding in report.warnings],
            }
            where = f"{source}:{number}: {line!r}"
            assert mine == cli, where
            assert report.fen == cli_fen["fen"], where
            assert all(finding.severity == "error" for finding in report.errors), where
            assert all(finding.severity == "warning" for finding in report.warnings), where


def test_a_castling_right_without_its_king():
    report = sanfen.check_fen("rnbq1knr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w k - 0 1")
    assert not report.valid
    assert not report
    assert report.fen is None
    assert report.warnings == []
    [error] = report.errors
    assert (error.severity, error.code, error.field, error.span, error.squares) == (
        "error",
        "fen:castling",
        "castling",
        (46, 47),
        ["f8", "h8"],
    )
    assert error.message == "castling right 'k' needs the black king on e8 and a rook on h8; found the king on f8"
    assert str(error) == (
        "error[fen:castling] at 46..47: castling right 'k' needs the black king on e8 and a rook on h8; "
        "found the king on f8"
    )


def test_a_valid_fen_with_a_warning_gives_the_canonical_fen():
    report = sanfen.check_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    assert report.valid
    assert report.fen == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert report.errors == []
    assert [(w.code, w.field, w.span, w.squares) for w in report.warnings] == [
        ("fen:en-passant-not-capturable", "en-passant", (53, 55), ["e3"])
    ]
    assert repr(report) == (
        "FenReport(valid=True, fen='rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', "
        "errors=0, warnings=1)"
    )
    assert repr(report.warnings[0]) == (
        "Finding(severity='warning', code='fen:en-passant-not-capturable', field='en-passant', span=(53, 55), "
        "squares=['e3'], message=\"en passant square e3, but no pawn can capture there; canonical FEN writes '-'\")"
    )


def test_every_syntax_error_at_once_with_its_span():
    report = sanfen.check_fen("x")
    assert [(e.code, e.field, e.span) for e in report.errors] == [
        ("fen:syntax", "placement", (0, 1)),
        ("fen:syntax", "placement", (1, 1)),
    ]
    assert report.errors[1].message == "invalid placement field: found nothing, expected 8 ranks separated by `/`, not 1"


def test_chess960_castling_is_read_when_asked():
    fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    assert not sanfen.check_fen(fen).valid
    report = sanfen.check_fen(fen, chess960=True)
    assert report.valid
    # canonical: X-FEN letters where they name the rooks unambiguously
    assert report.fen == "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"


def test_bytes_are_read_as_str_is():
    fen = "8/8/8/8/8/8/8/K6k w - - 0 1"
    assert sanfen.check_fen(fen.encode()) == sanfen.check_fen(fen)


def test_bad_input_raises_a_clear_exception_or_is_an_invalid_fen():
    with pytest.raises(TypeError, match=r"^check_fen\(\) takes a str or bytes, not int$"):
        sanfen.check_fen(42)
    with pytest.raises(TypeError, match=r"not NoneType"):
        sanfen.check_fen(None)
    with pytest.raises(UnicodeEncodeError):
        sanfen.check_fen("\ud800")
    nul = sanfen.check_fen("8/8/8/8/8/8/8/K6k w - - 0 1\x00")
    assert not nul.valid
    assert [(e.code, e.field, e.span) for e in nul.errors] == [("fen:syntax", "fullmove", (26, 28))]
    huge = sanfen.check_fen("8/" * 5_000_000)
    assert not huge.valid
    assert huge.errors[0].code == "fen:syntax"
    binary = sanfen.check_fen(bytes(range(256)))
    assert not binary.valid
