"""Reference games for tests/pgn_reader.rs: read FILE with python-chess and
print one JSON object per game (JSON Lines), with its moves as
python-chess reads them:

    {"errors": 0, "variant": "chess", "comment": "...", "moves": LINE}

where LINE is the mainline, a list of moves, each

    [uci, comment, nags, clock, eval, starting_comment, [LINE, ...]]

`uci` is `move.uci()`, `comment` is `node.comment`, `nags` the sorted
`node.nags`, `clock` is `node.clock()` (seconds, or null), `eval` is
`node.eval()` from White's side as `["cp", centipawns]` or `["mate", n]`
(or null), and the last item lists the variations that replace the move
(python-chess's `parent.variations[1:]` when the move is
`parent.variations[0]`). The game's `comment` is the one before the first
move. `errors` counts `game.errors`. A file that is not UTF-8, or on
which python-chess raises an exception, gives the one line
`{"unclean": "why"}`.

Usage: python3 tests/python/read_games.py FILE [LIMIT]

LIMIT reads only the first LIMIT games. Needs python-chess (CI:
`python3 -m pip install chess==1.11.2`).
"""

import io
import json
import logging
import sys

try:
    import chess
    import chess.pgn
except ImportError:
    sys.exit("read_games.py: the python-chess module is missing; install it with `python3 -m pip install chess==1.11.2`")


def score(node: "chess.pgn.ChildNode"):
    """The evaluation from White's side, or None."""
    pov = node.eval()
    if pov is None:
        return None
    white = pov.white()
    if white.is_mate():
        return ["mate", white.mate()]
    return ["cp", white.score()]


def line(node: "chess.pgn.ChildNode") -> list:
    """A line from `node` on: each move with the variations that replace it."""
    out = []
    while node is not None:
        parent = node.parent
        alternatives = parent.variations[1:] if parent.variations[0] is node else []
        out.append([
            node.move.uci(),
            node.comment,
            sorted(node.nags),
            node.clock(),
            score(node),
            node.starting_comment,
            [line(alternative) for alternative in alternatives],
        ])
        node = node.variations[0] if node.variations else None
    return out


def game_line(game: "chess.pgn.Game") -> str:
    moves = line(game.variations[0]) if game.variations else []
    variant = game.board().uci_variant if game.board().uci_variant else "chess"
    return json.dumps({"errors": len(game.errors), "variant": variant, "comment": game.comment, "moves": moves})


def main() -> None:
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: python3 tests/python/read_games.py FILE [LIMIT]")
    limit = int(sys.argv[2]) if len(sys.argv) == 3 else None
    # errors are counted, not logged
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    with open(sys.argv[1], "rb") as file:
        data = file.read()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        print(json.dumps({"unclean": "not UTF-8"}))
        return
    handle = io.StringIO(text, newline=None)
    out = []
    while limit is None or len(out) < limit:
        try:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            out.append(game_line(game))
        except Exception as err:  # python-chess cannot read the file
            print(json.dumps({"unclean": f"python-chess raised {type(err).__name__}: {err}"}))
            return
    sys.stdout.write("".join(line + "\n" for line in out))


if __name__ == "__main__":
    main()
