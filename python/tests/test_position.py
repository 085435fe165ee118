"""Position: legal moves equal python-chess's on the shared EPD positions;
play() of every spelling; resolve() with candidates and reasons; the
exceptions with their attributes; bad input raises a clear exception."""

import copy
import io
import pathlib
import pickle
import re

import chess
import chess.pgn
import pytest

import sanfen

ROOT = pathlib.Path(__file__).resolve().parents[2]
EPD = ROOT.parent / "shared" / "data" / "epd"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# The two large books hold 357,846 positions; python-chess needs about half a
# millisecond per position for its SAN, so every 10th of theirs is taken (the
# others whole): about 56,000 positions, some 30 s.
STRIDE = {"popularpos_lichess_v3.epd": 10, "endgames.epd": 10}


def fen_of(line):
    """The FEN of an EPD line: its four position fields, and the move counters
    when the line has them (else 0 1)."""
    fields = line.split()
    if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
        return " ".join(fields[:6])
    return " ".join(fields[:4]) + " 0 1"


def epd_positions():
    """(source, FEN, chess960) of every EPD position of the data (taking
    STRIDE's stride in the large books), with the FEN columns of the EPD
    tables."""
    positions = []
    for path in sorted(EPD.rglob("*.epd")) + sorted(EPD.rglob("*.fen")):
        numbered = enumerate(path.read_text().splitlines(), 1)
        lines = [(number, line) for number, line in numbered if line.strip() and not line.startswith("#")]
        chess960 = path.name == "FRC_openings.epd"
        for number, line in lines[:: STRIDE.get(path.name, 1)]:
            positions.append((f"{path.name}:{number}", fen_of(line), chess960))
    tables = [("notnil-chess/eco_lichess.tsv", "epd", "\t"), ("puzzles/lichess_db_puzzle.csv", "FEN", ",")]
    for name, column, separator in tables:
        lines = (EPD / name).read_text().splitlines()
        index = lines[0].split(separator).index(column)
        for number, line in enumerate(lines[1:], 2):
            positions.append((f"{name}:{number}", fen_of(line.split(separator)[index]), False))
    return positions


def test_legal_moves_equal_python_chess_on_the_epd_positions():
    positions = epd_positions()
    assert len(positions) == 55_858
    moves = 0
    unreachable = []
    for source, fen, chess960 in positions:
        try:
            position = sanfen.Position(fen, chess960=chess960)
        except sanfen.FenError as error:
            # python-chess takes them; sanfen takes them when asked to be lenient
            unreachable.append((source, [finding.code for finding in error.findings]))
            position = sanfen.Position(fen, chess960=chess960, lenient=True)
        board = chess.Board(fen, chess960=chess960)
        legal = list(board.legal_moves)
        san = position.legal_moves()
        uci = position.legal_moves("uci")
        assert sorted(san) == sorted(board.san(m) for m in legal), source
        assert sorted(uci) == sorted(board.uci(m) for m in legal), source
        assert len(set(san)) == len(san), source
        moves += len(legal)
    assert moves > 1_000_000
    # two tablebase test positions with a double check no move can give
    assert unreachable == [
        ("endgame.epd:137", ["fen:impossible-check"]),
        ("endgame.epd:190", ["fen:impossible-check"]),
    ]


def test_legal_moves_in_every_notation_and_order():
    position = sanfen.Position()
    assert position.legal_moves()[:6] == ["Na3", "Nc3", "Nf3", "Nh3", "a3", "b3"]
    assert position.legal_moves("uci", "value")[:4] == ["a2a3", "a2a4", "b2b3", "b2b4"]
    assert position.legal_moves("lan")[:3] == ["Nb1-a3", "Nb1-c3", "Ng1-f3"]
    assert position.legal_moves("figurine")[:2] == ["♘a3", "♘c3"]
    assert position.legal_moves("file-prefixed", "value")[:3] == ["aa3", "aa4", "bb3"]
    assert position.legal_moves("san", letters="pt")[:3] == ["Ca3", "Cc3", "Cf3"]
    promotion = sanfen.Position("3n4/2P5/8/8/8/8/k7/4K3 w - - 0 1")
    # the value order: pawns first, by origin then destination, promotions N, B, R, Q
    assert promotion.legal_moves("file-prefixed", "value") == [
        "cc8N", "cc8B", "cc8R", "cc8Q", "cxd8N", "cxd8B", "cxd8R", "cxd8Q", "Kd1", "Kd2", "Ke2", "Kf1", "Kf2",
    ]  # fmt: skip
    with pytest.raises(ValueError, match=r"^unknown notation 'xan': expected one of san, lan, uci, figurine, file-prefixed$"):
        position.legal_moves("xan")
    with pytest.raises(ValueError, match=r"^unknown order 'random': expected natural or value$"):
        position.legal_moves(order="random")
    with pytest.raises(ValueError, match=r"^unknown letters 'xx': expected one of en, pt, es, fr, de, it, nl$"):
        position.legal_moves(letters="xx")


def played(fen, text, **options):
    position = sanfen.Position(fen)
    m = position.play(text, **options)
    return m.san, m.uci, [lint.code for lint in m.lints], position.fen()


AFTER_NF3 = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
CASTLE = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
AFTER_O_O = "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"
PROMOTE = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"
AFTER_E8Q = "4Q3/8/8/8/8/8/k7/4K3 b - - 0 1"
EN_PASSANT = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
AFTER_EXD6 = "4k3/8/3P4/8/8/8/8/4K3 b - - 0 1"


@pytest.mark.parametrize(
    ("fen", "text", "options", "expected"),
    [
        (START, "e4", {}, ("e4", "e2e4", [], AFTER_E4)),
        (START, "Nf3", {}, ("Nf3", "g1f3", [], AFTER_NF3)),
        (START, "Ng1-f3", {}, ("Nf3", "g1f3", ["san:long-algebraic", "san:over-disambiguated"], AFTER_NF3)),
        (START, "Ng1f3", {}, ("Nf3", "g1f3", ["san:over-disambiguated"], AFTER_NF3)),
        (START, "g1f3", {}, ("Nf3", "g1f3", ["san:coordinates"], AFTER_NF3)),
        (START, "e2-e4", {}, ("e4", "e2e4", ["san:coordinates", "san:square-separator"], AFTER_E4)),
        (START, "Pe4", {}, ("e4", "e2e4", ["san:pawn-letter"], AFTER_E4)),
        (START, "nf3", {}, ("Nf3", "g1f3", ["san:lowercase-piece"], AFTER_NF3)),
        (START, "♘f3", {}, ("Nf3", "g1f3", ["san:figurine"], AFTER_NF3)),
        (START, "Cf3", {"letters": "pt"}, ("Nf3", "g1f3", ["san:local-letters"], AFTER_NF3)),
        (START, "Cg1-f3", {"letters": "portuguese"}, ("Nf3", "g1f3", ["san:local-letters", "san:long-algebraic", "san:over-disambiguated"], AFTER_NF3)),
        (START, "Sf3", {"letters": "de"}, ("Nf3", "g1f3", ["san:local-letters"], AFTER_NF3)),
        (CASTLE, "O-O", {}, ("O-O", "e1g1", [], AFTER_O_O)),
        (CASTLE, "0-0", {}, ("O-O", "e1g1", ["san:castling-zeros"], AFTER_O_O)),
        (CASTLE, "o-o", {}, ("O-O", "e1g1", ["san:castling-lowercase"], AFTER_O_O)),
        (CASTLE, "Kg1", {}, ("O-O", "e1g1", ["san:castling-as-king-move"], AFTER_O_O)),
        (CASTLE, "e1g1", {}, ("O-O", "e1g1", ["san:coordinates"], AFTER_O_O)),
        (CASTLE, "0-0-0", {}, ("O-O-O", "e1c1", ["san:castling-zeros"], "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1")),
        (PROMOTE, "e8=Q", {}, ("e8=Q", "e7e8q", [], AFTER_E8Q)),
        (PROMOTE, "e8Q", {}, ("e8=Q", "e7e8q", ["san:promotion-without-equals"], AFTER_E8Q)),
        (PROMOTE, "e8=q", {}, ("e8=Q", "e7e8q", ["san:promotion-lowercase"], AFTER_E8Q)),
        (PROMOTE, "e7e8q", {}, ("e8=Q", "e7e8q", ["san:coordinates", "san:promotion-without-equals"], AFTER_E8Q)),
        (PROMOTE, "e8=N", {}, ("e8=N", "e7e8n", [], "4N3/8/8/8/8/8/k7/4K3 b - - 0 1")),
        (EN_PASSANT, "exd6", {}, ("exd6", "e5d6", [], AFTER_EXD6)),
        (EN_PASSANT, "exd6 e.p.", {}, ("exd6", "e5d6", ["san:en-passant-suffix"], AFTER_EXD6)),
        (EN_PASSANT, "ed6", {}, ("exd6", "e5d6", ["san:missing-capture-mark"], AFTER_EXD6)),
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8", {}, ("Ra8#", "a1a8", ["san:missing-checkmate"], "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1")),
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8++", {}, ("Ra8#", "a1a8", ["san:double-plus-mate"], "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1")),
    ],
)  # fmt: skip
def test_play_reads_every_spelling(fen, text, options, expected):
    assert played(fen, text, **options) == expected


def test_a_moves_lints_say_what_canonical_san_writes():
    m = sanfen.Position().play("Ng1-f3")
    assert m == sanfen.Position().play("Ng1-f3")
    assert (m.san, m.uci, m.from_square, m.to_square, m.promotion) == ("Nf3", "g1f3", "g1", "f3", None)
    assert [(lint.code, lint.message, lint.canonical, lint.span) for lint in m.lints] == [
        ("san:long-algebraic", "`-` between the origin and the destination (long algebraic); SAN leaves it out", "", (3, 4)),
        ("san:over-disambiguated", "origin given where no other piece could make the move; SAN writes Nf3", "Nf3", None),
    ]  # fmt: skip
    assert str(m) == "Nf3"
    assert repr(m) == "Move(san='Nf3', uci='g1f3')"
    assert sanfen.Position(PROMOTE).play("e8=N").promotion == "n"


def test_push_uci():
    position = sanfen.Position()
    m = position.push_uci("e2e4")
    assert (m.san, m.uci, m.lints) == ("e4", "e2e4", [])
    assert position.fen() == AFTER_E4
    castle = sanfen.Position(CASTLE)
    assert castle.push_uci("e1g1").san == "O-O"
    assert castle.fen() == AFTER_O_O
    with pytest.raises(sanfen.InvalidMoveError) as invalid:
        position.push_uci("zz")
    assert (invalid.value.text, invalid.value.span, invalid.value.found) == ("zz", (0, 2), "zz")
    assert invalid.value.expected == "two squares and an optional promotion letter, such as e7e8q"
    with pytest.raises(sanfen.IllegalMoveError) as illegal:
        position.push_uci("e2e5")
    assert (illegal.value.text, illegal.value.reason, illegal.value.suggestions) == (
        "e2e5",
        "no piece of the side to move on e2",
        ["e5"],
    )
    assert position.fen() == AFTER_E4
    # castling as Chess960 writes it, in a standard position
    with pytest.raises(sanfen.IllegalMoveError) as written_otherwise:
        sanfen.Position(CASTLE).push_uci("e1h1")
    assert str(written_otherwise.value) == "e1h1: UCI writes this move e1g1 in this castling mode"
    assert written_otherwise.value.suggestions == ["e1g1"]


def test_illegal_move_error_has_the_reason_and_suggestions():
    position = sanfen.Position("8/8/8/R2nkn2/8/8/2K5/8 b - - 0 1")
    with pytest.raises(sanfen.IllegalMoveError) as caught:
        position.play("Nb4")
    error = caught.value
    assert isinstance(error, ValueError)
    assert str(error) == (
        "illegal: no knight can move to b4: the knight on d5 is pinned by the piece on a5; "
        "did you mean Nd4+, Nh4, Nd6?"
    )
    assert error.text == "Nb4"
    assert error.reason == "no knight can move to b4: the knight on d5 is pinned by the piece on a5"
    assert error.suggestions == ["Nd4+", "Nh4", "Nd6"]
    assert position.fen() == "8/8/8/R2nkn2/8/8/2K5/8 b - - 0 1"
    with pytest.raises(sanfen.IllegalMoveError) as promotion:
        sanfen.Position(PROMOTE).play("e8")
    assert promotion.value.reason == "a pawn reaching the last rank must promote: add =Q, =R, =B or =N"
    assert promotion.value.suggestions == ["e8=Q", "e8=R", "e8=B"]
    with pytest.raises(sanfen.IllegalMoveError) as blocked:
        sanfen.Position().play("O-O")
    assert blocked.value.reason == "cannot castle through pieces on f1, g1"
    assert blocked.value.suggestions == []


def test_ambiguous_move_error_has_the_spellings_and_squares():
    position = sanfen.Position("4k3/8/8/8/8/2N3N1/8/4K3 w - - 0 1")
    with pytest.raises(sanfen.AmbiguousMoveError) as caught:
        position.play("Ne4")
    error = caught.value
    assert isinstance(error, ValueError)
    assert str(error) == "ambiguous: pieces on c3 and g3 can both make the move; write Nce4 or Nge4"
    assert (error.text, error.spellings, error.squares) == ("Ne4", ["Nce4", "Nge4"], ["c3", "g3"])
    assert position.play("Nce4").san == "Nce4"


def test_invalid_move_error_has_the_span_and_what_was_expected():
    position = sanfen.Position()
    with pytest.raises(sanfen.InvalidMoveError) as caught:
        position.play("Nf9")
    error = caught.value
    assert isinstance(error, ValueError)
    assert (error.text, error.span, error.found, error.expected) == ("Nf9", (2, 3), "9", "a file a-h, a rank 1-8 or `x`")
    assert str(error) == 'not a move: invalid move at 2..3: found "9", expected a file a-h, a rank 1-8 or `x`'
    with pytest.raises(sanfen.InvalidMoveError) as empty:
        position.play("")
    assert (empty.value.span, empty.value.found) == ((0, 0), "")
    assert position.fen() == START


def test_fen_error_has_the_findings():
    with pytest.raises(sanfen.FenError) as caught:
        sanfen.Position("rnbq1knr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w k - 0 1")
    error = caught.value
    assert isinstance(error, ValueError)
    assert str(error) == (
        "invalid FEN: castling right 'k' needs the black king on e8 and a rook on h8; found the king on f8"
    )
    assert [(f.severity, f.code, f.field, f.span, f.squares) for f in error.findings] == [
        ("error", "fen:castling", "castling", (46, 47), ["f8", "h8"])
    ]
    with pytest.raises(sanfen.FenError) as syntax:
        sanfen.Position(" x")
    assert [(f.severity, f.code, f.span) for f in syntax.value.findings] == [
        ("error", "fen:syntax", (1, 2)),
        ("error", "fen:syntax", (2, 2)),
    ]
    # Chess960 castling only when asked
    frc = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    with pytest.raises(sanfen.FenError):
        sanfen.Position(frc)
    assert sanfen.Position(frc, chess960=True).chess960


def test_chess960_start_positions_by_number_are_python_chesss():
    for number in range(960):
        position = sanfen.Position.from_chess960_pos(number)
        board = chess.Board.from_chess960_pos(number)
        assert position.fen().split(" ")[0] == board.board_fen(), number
        assert sorted(position.legal_moves("uci")) == sorted(m.uci() for m in board.legal_moves), number
    start = sanfen.Position.from_chess960_pos(518)
    assert (start.fen(), start.chess960) == (START, True)
    with pytest.raises(ValueError, match=r"^a Chess960 position number is 0 to 959, not 960$"):
        sanfen.Position.from_chess960_pos(960)
    with pytest.raises(ValueError, match=r"^a Chess960 position number is 0 to 959, not -1$"):
        sanfen.Position.from_chess960_pos(-1)


def test_lenient_takes_a_position_no_game_reaches_when_the_rules_can_be_played():
    double_check = "8/5k2/8/6n1/7r/7K/8/8 w - - 0 1"
    with pytest.raises(sanfen.FenError) as caught:
        sanfen.Position(double_check)
    assert str(caught.value) == "invalid FEN: impossible double check from h4 and g5: no move gives both checks"
    position = sanfen.Position(double_check, lenient=True)
    assert position.legal_moves() == ["Kg2", "Kg3", "Kxh4"]
    assert pickle.loads(pickle.dumps(position)) == position
    with pytest.raises(sanfen.FenError) as no_king:
        sanfen.Position("8/8/8/8/8/8/8/7K w - - 0 1", lenient=True)
    assert [finding.code for finding in no_king.value.findings] == ["fen:missing-king"]


def test_resolve_gives_every_candidate_with_its_reason():
    position = sanfen.Position("8/8/8/R2nkn2/8/8/2K5/8 b - - 0 1")
    refused = position.resolve("Nb4")
    assert (refused.text, refused.readings, refused.reading, refused.ok, refused.move) == ("Nb4", ["Nb4"], 0, False, None)
    assert [(c.square, c.kept, c.rejection, c.by, c.reason) for c in refused.candidates] == [
        ("d5", False, "pinned", ["a5"], "pinned by the piece on a5"),
        ("f5", False, "cannot-reach", [], "cannot reach the destination"),
    ]
    assert isinstance(refused.error, sanfen.IllegalMoveError)
    assert refused.error.reason == "no knight can move to b4: the knight on d5 is pinned by the piece on a5"
    assert refused.suggestions == ["Nd4+", "Nh4", "Nd6"]
    assert (refused.lints, refused.fen_after) == ([], None)

    resolved = position.resolve("Nd4")
    assert resolved.ok and resolved.error is None
    assert [(c.square, c.kept, c.rejection) for c in resolved.candidates] == [
        ("d5", False, "cannot-reach"),
        ("f5", True, None),
    ]
    assert (resolved.move.san, resolved.move.uci) == ("Nd4+", "f5d4")
    assert [lint.code for lint in resolved.lints] == ["san:missing-check"]
    assert resolved.fen_after == "8/8/8/R2nk3/3n4/8/2K5/8 w - - 1 2"
    assert position.fen() == "8/8/8/R2nkn2/8/8/2K5/8 b - - 0 1"

    ambiguous = sanfen.Position("4k3/8/8/8/8/2N3N1/8/4K3 w - - 0 1").resolve("Ne4")
    assert isinstance(ambiguous.error, sanfen.AmbiguousMoveError)
    assert ambiguous.suggestions == ["Nce4", "Nge4"]

    not_a_move = position.resolve("zz")
    assert (not_a_move.readings, not_a_move.reading, not_a_move.candidates) == ([], None, [])
    assert isinstance(not_a_move.error, sanfen.InvalidMoveError)
    assert not_a_move.error.span == (0, 1)


def test_resolve_reads_a_lowercase_b_both_ways():
    # b-pawn capture or bishop move: the legal reading wins, both legal is ambiguous
    both = sanfen.Position("4k3/8/8/8/2n5/1P6/4B3/4K3 w - - 0 1")
    resolution = both.resolve("bc4")
    assert resolution.readings == ["bxc4", "Bc4"]
    assert isinstance(resolution.error, sanfen.AmbiguousMoveError)
    assert resolution.error.spellings == ["bxc4", "Bxc4"]
    bishop = sanfen.Position("4k3/8/8/8/8/8/4B3/4K3 w - - 0 1").resolve("bc4")
    assert (bishop.reading, bishop.move.san) == (1, "Bc4")
    assert [lint.code for lint in bishop.lints] == ["san:lowercase-piece"]


def test_check_mate_stalemate_and_outcome():
    position = sanfen.Position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    assert (position.is_check(), position.is_checkmate(), position.outcome()) == (False, False, None)
    position.play("Ra8#")
    assert (position.is_check(), position.is_checkmate(), position.is_stalemate()) == (True, True, False)
    outcome = position.outcome()
    assert (outcome.result, outcome.reason, outcome.winner) == ("1-0", "checkmate", "white")
    assert str(outcome) == "checkmate: 1-0"
    with pytest.raises(sanfen.IllegalMoveError) as over:
        position.play("Kh8")
    assert over.value.reason == "the game is over: 1-0 by checkmate"
    stalemate = sanfen.Position("k7/8/1Q6/8/8/8/8/7K b - - 0 1")
    assert (stalemate.is_check(), stalemate.is_stalemate()) == (False, True)
    assert stalemate.outcome().reason == "stalemate"
    assert (stalemate.outcome().result, stalemate.outcome().winner) == ("1/2-1/2", None)
    bare = sanfen.Position("k7/8/8/8/8/8/8/7K w - - 0 1")
    assert bare.is_insufficient_material()
    assert str(bare.outcome()) == "insufficient material: 1/2-1/2"


def test_pop_peek_and_the_move_stack():
    position = sanfen.Position()
    with pytest.raises(IndexError, match=r"^no move was played on this position \(the moves before its FEN are not known\)$"):
        position.pop()
    with pytest.raises(IndexError):
        position.peek()
    first = position.play("Ng1-f3")
    second = position.push_uci("e7e5")
    assert (position.move_stack, position.peek()) == ([first, second], second)
    with pytest.raises(sanfen.IllegalMoveError):
        position.play("Ke3")
    assert position.move_stack == [first, second]
    assert position.pop() == second and position.fen() == AFTER_NF3
    taken = position.pop()
    assert (taken.san, taken.uci, [lint.code for lint in taken.lints]) == ("Nf3", "g1f3", ["san:long-algebraic", "san:over-disambiguated"])
    assert (position.fen(), position.move_stack) == (START, [])
    # each move keeps its own lints through pops and plays
    for text in ["Ng1-f3", "e5", "Nb1c3"]:
        position.play(text)
    position.pop()
    position.play("d4")
    codes = [[lint.code for lint in m.lints] for m in position.move_stack]
    assert codes == [["san:long-algebraic", "san:over-disambiguated"], [], []]
    position.play("Nb8c6")
    assert [lint.code for lint in position.peek().lints] == ["san:over-disambiguated"]
    assert [lint.code for lint in position.move_stack[3].lints] == ["san:over-disambiguated"]
    # from a FEN: its moves are not known
    mate = sanfen.Position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    mate.play("Ra8")
    assert mate.pop().san == "Ra8#"
    assert (mate.outcome(), mate.is_game_over(), mate.fen()) == (None, False, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")


SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]


def test_repetitions_are_counted_in_the_moves_played():
    position = sanfen.Position()
    for text in SHUFFLE:
        position.play(text)
    assert (position.is_repetition(2), position.is_repetition(), position.claimable_draw()) == (True, False, None)
    for text in SHUFFLE:
        position.play(text)
    assert (position.is_repetition(), position.is_repetition(4)) == (True, False)
    assert (position.claimable_draw(), position.outcome(), position.is_game_over()) == ("threefold repetition", None, False)
    for text in SHUFFLE * 2:
        position.play(text)
    outcome = position.outcome()
    assert (outcome.result, outcome.reason, outcome.winner, position.is_game_over()) == (
        "1/2-1/2",
        "fivefold repetition",
        None,
        True,
    )
    # a draw already made is no longer claimed; moves can still be played on
    assert position.claimable_draw() is None
    assert position.pop().san == "Ng8" and position.outcome() is None and position.is_repetition(4)
    # the same position made from its FEN is equal: the moves are not compared
    assert position == sanfen.Position("rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 15 8")


def test_the_move_count_rules():
    fifty = sanfen.Position("k7/8/8/8/8/8/1R6/K7 w - - 100 90")
    assert (fifty.claimable_draw(), fifty.outcome()) == ("fifty-move rule", None)
    seventy_five = sanfen.Position("k7/8/8/8/8/8/1R6/K7 w - - 149 100")
    seventy_five.play("Rb3")
    assert str(seventy_five.outcome()) == "seventy-five-move rule: 1/2-1/2"
    assert seventy_five.claimable_draw() is None
    # a capture resets the clock
    assert sanfen.Position("k7/8/8/8/8/8/1R6/K6r w - - 149 100").outcome() is None
    # a mate on the 150th ply wins
    mate = sanfen.Position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 100")
    mate.play("Ra8")
    assert str(mate.outcome()) == "checkmate: 1-0"


def test_the_move_stack_is_copied_and_pickled():
    position = sanfen.Position()
    for text in SHUFFLE * 2:
        position.play(text)
    copied = position.copy()
    copied.pop()
    assert (len(position.move_stack), len(copied.move_stack), position.is_repetition()) == (8, 7, True)
    assert len(copy.deepcopy(position).move_stack) == 8
    restored = pickle.loads(pickle.dumps(position))
    assert (restored.move_stack, restored.is_repetition(), restored.fen()) == (position.move_stack, True, position.fen())
    # Chess960 castling (the king takes its rook in UCI)
    frc = sanfen.Position("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", chess960=True)
    castle = frc.play("O-O")
    assert castle.uci == "b1h1"
    restored = pickle.loads(pickle.dumps(frc))
    assert (restored.move_stack, restored.fen(), restored.chess960) == ([castle], frc.fen(), True)
    assert restored.pop() == castle and restored.fen() == "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1"
    # a pickle whose moves cannot be played is refused, naming the move
    made, args, moves = sanfen.Position().__reduce__()
    assert (made, args, moves) == (sanfen.Position, (START, False, True), [])
    forged = sanfen.Position()
    with pytest.raises(ValueError, match=rf"^move 2 of the pickle, 'e2e4', is not legal in {re.escape(AFTER_E4)}$"):
        forged.__setstate__([sanfen.Position().play("e4"), sanfen.Position().play("e4")])
    assert (forged.fen(), forged.move_stack) == (START, [])


def test_turn_counters_board_and_text():
    position = sanfen.Position()
    assert (position.turn, position.halfmove_clock, position.fullmove_number, position.chess960) == ("white", 0, 1, False)
    assert position.board() == [
        [4, 2, 3, 5, 6, 3, 2, 4],
        [1] * 8,
        [0] * 8,
        [0] * 8,
        [0] * 8,
        [0] * 8,
        [-1] * 8,
        [-4, -2, -3, -5, -6, -3, -2, -4],
    ]
    position.play("Nf3")
    assert (position.turn, position.halfmove_clock, position.fullmove_number) == ("black", 1, 1)
    assert position.board()[2][5] == 2
    assert str(position) == AFTER_NF3
    assert repr(position) == f"Position('{AFTER_NF3}')"
    frc = sanfen.Position("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", chess960=True)
    assert repr(frc) == "Position('bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9', chess960=True)"


def test_copy_equality_hash_and_pickle():
    position = sanfen.Position()
    copied = position.copy()
    copied.play("e4")
    assert position.fen() == START
    assert copied != position
    assert copy.copy(position) == position
    assert copy.deepcopy(copied) == copied
    # equal as positions: an en passant square no pawn can use does not count
    with_ep = sanfen.Position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    assert with_ep == copied
    assert hash(with_ep) == hash(copied)
    assert len({position, copied, with_ep}) == 2
    assert position != START
    restored = pickle.loads(pickle.dumps(copied))
    assert restored == copied and restored.fen() == AFTER_E4
    frc = sanfen.Position("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", chess960=True)
    assert pickle.loads(pickle.dumps(frc)) == frc


def test_bad_input_raises_a_clear_exception_and_changes_nothing():
    position = sanfen.Position()
    with pytest.raises(TypeError, match=r"^play\(\) takes a str, not int$"):
        position.play(42)
    with pytest.raises(TypeError, match=r"^play\(\) takes a str, not bytes$"):
        position.play(b"e4")
    with pytest.raises(TypeError, match=r"^push_uci\(\) takes a str, not NoneType$"):
        position.push_uci(None)
    with pytest.raises(TypeError, match=r"^resolve\(\) takes a str, not list$"):
        position.resolve(["e4"])
    with pytest.raises(TypeError, match=r"^Position\(\) takes a str or bytes, not float$"):
        sanfen.Position(1.5)
    with pytest.raises(UnicodeEncodeError):
        position.play("\ud800")
    with pytest.raises(sanfen.InvalidMoveError) as nul:
        position.play("e4\x00")
    assert (nul.value.span, nul.value.found) == ((2, 3), "\x00")
    with pytest.raises(sanfen.InvalidMoveError) as huge:
        position.play("e" * 10_000_000)
    assert huge.value.span == (2, 3)
    with pytest.raises(sanfen.InvalidMoveError):
        position.play("e4 e5")
    assert position.resolve("N" * 1_000_000).error.span == (1, 2)
    with pytest.raises(sanfen.FenError):
        sanfen.Position("8/" * 5_000_000)
    with pytest.raises(sanfen.FenError):
        sanfen.Position(bytes(range(256)))
    assert position.fen() == START


def test_every_name_has_a_docstring_and_a_stub():
    import ast
    import inspect

    stubs = {}
    tree = ast.parse((ROOT / "python" / "sanfen" / "_sanfen.pyi").read_text())
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            stubs[node.name] = {item.name for item in node.body if isinstance(item, ast.FunctionDef)}
        elif isinstance(node, ast.FunctionDef):
            stubs[node.name] = set()
    undocumented, unstubbed = [], []
    for name in sanfen.__all__:
        value = getattr(sanfen, name)
        if name == "__version__":
            continue
        if not value.__doc__:
            undocumented.append(name)
        if name not in stubs:
            unstubbed.append(name)
        elif inspect.isclass(value) and not issubclass(value, Exception):
            for attribute in (a for a in dir(value) if not a.startswith("_")):
                if not getattr(value, attribute).__doc__:
                    undocumented.append(f"{name}.{attribute}")
                if attribute not in stubs[name]:
                    unstubbed.append(f"{name}.{attribute}")
    assert (undocumented, unstubbed) == ([], [])


def python_chess_pgn(board, headers):
    """python-chess's PGN of the moves played on a board, with headers, as
    sanfen orders its tags: `SetUp` before `FEN` (python-chess writes `FEN`
    first; both orders are common)."""
    game = chess.pgn.Game.from_board(board)
    for name, value in headers.items():
        game.headers[name] = value
    return re.sub(r'(\[FEN "[^"]*"\]\n)(\[SetUp "1"\]\n)', r"\2\1", str(game)) + "\n"


def unwrapped(pgn):
    """A game's PGN with its movetext on one line (python-chess cuts lines
    between a move number and its move, sanfen before the number)."""
    tags, movetext = pgn.split("\n\n")
    assert all(len(line) <= 80 for line in movetext.splitlines()), movetext
    return tags + "\n\n" + movetext.rstrip("\n").replace("\n", " ") + "\n"


def test_to_pgn_is_python_chess_pgn_of_the_same_moves():
    """Every game of a data file, its moves played on a Position and on
    python-chess's Board: the same PGN (but for where lines are cut), which
    reads back as those moves."""
    path = ROOT.parent / "shared" / "data" / "pgn" / "pychess" / "gamefiles" / "world_matches.pgn"
    count = 0
    for game in sanfen.read_games(str(path)):
        if game.errors:
            continue
        position, board = sanfen.Position(game.start_fen), chess.Board(game.start_fen)
        for node in game.mainline:
            position.push_uci(node.uci)
            board.push_uci(node.uci)
        headers = {"White": game.tags.get("White", "?"), "Black": game.tags.get("Black", "?"), "Annotator": "sanfen"}
        if not board.is_game_over():
            # a game that did not end on the board ends as the PGN says
            headers["Result"] = game.result or "*"
        text = position.to_pgn(headers)
        assert unwrapped(text) == python_chess_pgn(board, headers), game.number
        back = chess.pgn.read_game(io.StringIO(text))
        assert [m.uci() for m in back.mainline_moves()] == [node.uci for node in game.mainline]
        count += 1
    assert count == 580


def test_to_pgn_names_the_start_and_ends_as_the_board_does():
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 3 40"
    position = sanfen.Position(fen)
    for move in ["Kd7", "e4", "Ke6"]:
        position.play(move)
    board = chess.Board(fen)
    for move in ["Kd7", "e4", "Ke6"]:
        board.push_san(move)
    text = position.to_pgn([("White", "Ana")])
    assert text == python_chess_pgn(board, {"White": "Ana"})
    assert text.endswith('[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 3 40"]\n\n40... Kd7 41. e4 Ke6 *\n')
    # checkmate: 1-0 whatever is asked, and nothing else may be given
    mate = sanfen.Position()
    for move in "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#".split():
        mate.play(move)
    assert mate.to_pgn().endswith('[Result "1-0"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n')
    with pytest.raises(ValueError) as info:
        mate.to_pgn({"Result": "1/2-1/2"})
    assert str(info.value) == 'tag "Result": 1/2-1/2, but the game ended on the board (checkmate: 1-0)'
    # a resignation: the result given
    resigned = sanfen.Position()
    resigned.play("d4")
    assert resigned.to_pgn({"Result": "0-1"}).endswith("\n\n1. d4 0-1\n")
    # Chess960: its Variant, and castling as O-O
    chess960 = sanfen.Position("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", chess960=True)
    chess960.play("O-O")
    chess960.play("O-O-O")
    assert chess960.to_pgn().endswith(
        '[Variant "Chess960"]\n[SetUp "1"]\n[FEN "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1"]\n\n'
        "1. O-O O-O-O *\n"
    )
    # other notations: castling king takes rook in UCI, the mate's mark in LAN
    assert chess960.to_pgn(notation="uci").endswith("\n\n1. e1g1 e8b8 *\n")
    assert chess960.to_pgn(notation="lan").endswith("\n\n1. O-O O-O-O *\n")
    assert mate.to_pgn(notation="lan").endswith("\n\n1. e2-e4 e7-e5 2. Bf1-c4 Nb8-c6 3. Qd1-h5 Ng8-f6 4. Qh5xf7# 1-0\n")
    assert mate.to_pgn(notation="figurine").endswith("\n\n1. e4 e5 2. ♗c4 ♘c6 3. ♕h5 ♘f6 4. ♕xf7# 1-0\n")
    for notation in ["file-prefixed", "SAN", ""]:
        with pytest.raises(ValueError) as info:
            mate.to_pgn(notation=notation)
        assert str(info.value) == f"unknown notation '{notation}' for PGN: expected one of san, lan, uci, figurine"
    # tags it cannot write
    for tags, message in [
        ({"Bad Name": "x"}, 'tag "Bad Name": not a tag name (a letter or digit, then letters, digits and _+#=:-)'),
        ({"Event": "a\nb"}, 'tag "Event": a tag value holds no control character'),
        ({"FEN": START}, "tag \"FEN\": set from the game's initial position"),
        ({"Result": "won"}, 'tag "Result": "won" is not a result'),
    ]:
        with pytest.raises(ValueError) as info:
            resigned.to_pgn(tags)
        assert str(info.value) == message
    with pytest.raises(TypeError):
        resigned.to_pgn({"Round": 3})
    with pytest.raises(TypeError):
        resigned.to_pgn(["White"])


def test_the_readmes_python_examples_run():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Python\n") :]
    section = section[: section.index("\n## ", 1)]
    blocks = section.split("```python\n")[1:]
    assert len(blocks) == 2
    for index, block in enumerate(blocks):
        exec(compile(block.split("```")[0], f"README.md (Python example {index + 1})", "exec"), {})
