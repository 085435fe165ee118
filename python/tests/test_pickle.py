"""Values cross processes: every value the package gives (but a game and its
nodes) and every exception pickles and comes back equal, so that
multiprocessing, concurrent.futures and Spark's Python workers can send
them."""

import copy
import io
import multiprocessing
import pickle

import pytest

import sanfen

from conftest import ROOT

PGN = ROOT.parent / "shared" / "data" / "pgn"

# White to move: 1. Nf3 is written `Ng1-f3` (a lint), the knight on b1 cannot
# reach f3 (a rejected candidate)
GAME = '[White "Ana"]\n\n1. Ng1-f3 { [%eval 0.25,20] [%clk 0:03:00] } e5 2. Nxe5 { [%eval #-3] } Qh4 3. Nxd8 *\n'


def every_protocol(value):
    """`value` pickled with every protocol and read back, and copied."""
    copies = [pickle.loads(pickle.dumps(value, protocol)) for protocol in range(pickle.HIGHEST_PROTOCOL + 1)]
    return copies + [copy.copy(value), copy.deepcopy(value)]


def attributes(value):
    """The public attributes of `value`, by name, as plain values (their
    own attributes for sanfen's values; an exception's type, text and
    attributes)."""
    if isinstance(value, list):
        return [attributes(item) for item in value]
    if isinstance(value, Exception):
        return (type(value).__name__, str(value), {name: attributes(item) for name, item in vars(value).items()})
    if type(value).__module__.startswith("sanfen"):
        names = [name for name in dir(value) if not name.startswith("_") and not callable(getattr(value, name))]
        return (type(value).__name__, {name: attributes(getattr(value, name)) for name in names})
    return value


def values():
    """One of each kind of value, with its optional parts filled."""
    played = sanfen.Position().play("Ng1-f3")
    resolved = sanfen.Position().resolve("Nf3")
    refused = sanfen.Position().resolve("Nd2")
    ambiguous = sanfen.Position("R7/8/7k/8/8/8/8/R6K w - - 0 1").resolve("Ra4")
    report = sanfen.check_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    bad = sanfen.check_fen("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    checked = sanfen.check_pgn(io.StringIO(GAME))
    game = next(iter(sanfen.read_games(io.StringIO(GAME))))
    evals = [node.eval for node in game.mainline if node.eval is not None]
    mate = sanfen.Position("7k/5QQ1/8/8/8/8/8/K7 b - - 0 1").outcome()
    draw = sanfen.Position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").outcome()
    return {
        "Move": played,
        "Lint": played.lints[0],
        "Resolution": resolved,
        "Candidate": refused.candidates[0],
        "Resolution refused": refused,
        "Resolution ambiguous": ambiguous,
        "FenReport": report,
        "Finding warning": report.warnings[0],
        "FenReport bad": bad,
        "Finding error": bad.errors[0],
        "Outcome": mate,
        "Outcome draw": draw,
        "Eval": evals[0],
        "Eval mate": evals[1],
        "CheckResult": checked,
        "PgnFinding": next(finding for finding in checked.findings if finding.side is not None),
    }


def test_every_value_pickles_and_comes_back_equal():
    made = values()
    # the values are those meant: each part the test is about is there
    assert made["Lint"].code == "san:long-algebraic"
    assert (made["Candidate"].square, made["Candidate"].rejection, made["Candidate"].by) == ("b1", "blocked", ["d2"])
    assert type(made["Resolution refused"].error) is sanfen.IllegalMoveError
    assert type(made["Resolution ambiguous"].error) is sanfen.AmbiguousMoveError
    assert (made["Outcome"].winner, made["Outcome draw"].reason) == ("white", "stalemate")
    assert (made["Eval"].centipawns, made["Eval"].depth, made["Eval mate"].mate) == (25, 20, -3)
    assert made["CheckResult"].summary["errors"] == 1
    finding = made["PgnFinding"]
    assert (finding.kind, finding.side, finding.ply, finding.suggestion) == ("san:long-algebraic", "white", 1, "Nf3")
    for name, value in made.items():
        for back in every_protocol(value):
            assert type(back) is type(value), name
            assert attributes(back) == attributes(value), name
            # and `==` where the class has it
            if name.split()[0] not in ("Resolution", "CheckResult"):
                assert back == value, name


def test_constructors_refuse_values_no_game_gives():
    assert sanfen.Eval(None, -3, None).mate == -3
    assert sanfen.Outcome("0-1", "checkmate", "black").winner == "black"
    assert sanfen.Outcome("1/2-1/2", "seventy-five-move rule", None).winner is None
    refused = [
        (lambda: sanfen.Eval(5, 3, 20), "an evaluation is centipawns or mate, one of them: both given"),
        (lambda: sanfen.Eval(None, None, 20), "an evaluation is centipawns or mate, one of them: neither given"),
        (lambda: sanfen.Outcome("1-0 ", "checkmate", "white"), "unknown result '1-0 ': expected one of 1-0, 0-1, 1/2-1/2"),
        (
            lambda: sanfen.Outcome("1-0", "resignation", "white"),
            "unknown reason 'resignation': expected one of checkmate, stalemate, insufficient material, "
            "fivefold repetition, seventy-five-move rule",
        ),
        (lambda: sanfen.Outcome("1-0", "stalemate", "white"), "a game does not end 1-0 by stalemate"),
        (lambda: sanfen.Outcome("1/2-1/2", "checkmate", None), "a game does not end 1/2-1/2 by checkmate"),
        (lambda: sanfen.Outcome("1-0", "checkmate", "black"), "the winner of 1-0 is 'white', not 'black'"),
        (lambda: sanfen.Outcome("1-0", "checkmate", None), "the winner of 1-0 is 'white', not None"),
        (lambda: sanfen.Outcome("1/2-1/2", "stalemate", "white"), "the winner of 1/2-1/2 is None, not 'white'"),
    ]
    for make, message in refused:
        with pytest.raises(ValueError) as error:
            make()
        assert str(error.value) == message


def test_exceptions_pickle_with_their_attributes():
    errors = []
    for fen, text in [("bad", None), (None, "Ke2"), ("R7/8/7k/8/8/8/8/R6K w - - 0 1", "Ra4"), (None, "Zz9")]:
        try:
            sanfen.Position(fen).play(text) if text else sanfen.Position(fen)
        except ValueError as error:
            errors.append(error)
    assert [type(error) for error in errors] == [
        sanfen.FenError,
        sanfen.IllegalMoveError,
        sanfen.AmbiguousMoveError,
        sanfen.InvalidMoveError,
    ]
    assert errors[0].findings[0].code == "fen:syntax"
    for error in errors:
        for back in every_protocol(error):
            assert attributes(back) == attributes(error)


def test_a_game_and_its_nodes_say_what_to_send_instead():
    game = next(iter(sanfen.read_games(io.StringIO(GAME))))
    with pytest.raises(TypeError, match=r"^a sanfen Game does not pickle .*its number"):
        pickle.dumps(game)
    with pytest.raises(TypeError, match=r"^a sanfen Node does not pickle .*its san and uci$"):
        pickle.dumps(game.mainline[0])


def refused_fen(fen):
    """The exception `Position(fen)` raises (run in a worker process)."""
    sanfen.Position(fen)


def test_a_process_pool_sends_results_and_exceptions_back():
    fens = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1",
    ]
    paths = [str(path) for path in sorted((PGN / "python-chess").glob("*.pgn"))[:3]]
    context = multiprocessing.get_context("spawn")
    with context.Pool(2) as pool:
        assert pool.map(sanfen.check_fen, fens) == [sanfen.check_fen(fen) for fen in fens]
        results = pool.map(sanfen.check_pgn, paths)
        assert [attributes(result) for result in results] == [attributes(sanfen.check_pgn(path)) for path in paths]
        with pytest.raises(sanfen.FenError) as raised:
            pool.apply(refused_fen, ("8/8/8/8/8/8/8/8 w - - 0 1",))
    with pytest.raises(sanfen.FenError) as here:
        refused_fen("8/8/8/8/8/8/8/8 w - - 0 1")
    assert attributes(raised.value) == attributes(here.value)
    assert [finding.code for finding in raised.value.findings] == ["fen:empty-board", "fen:missing-king", "fen:missing-king"]
