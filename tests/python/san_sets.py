"""Reference SAN for tests/chess/san_data.rs: for each FEN line of FILE, print the
sorted canonical SAN of every legal move, as python-chess writes it
(`Board.san`), separated by single spaces; an empty line when there is none.

Usage: python3 tests/python/san_sets.py FILE

Needs python-chess (CI: `python3 -m pip install chess==1.11.2`).
"""

import os
import sys
from multiprocessing import Pool

try:
    import chess
except ImportError:
    sys.exit("san_sets.py: the python-chess module is missing; install it with `python3 -m pip install chess==1.11.2`")


def san_set(fen: str) -> str:
    """The sorted SAN of the legal moves of one position, space separated."""
    try:
        board = chess.Board(fen)
    except ValueError as err:
        raise ValueError(f"{fen!r}: {err}") from None
    return " ".join(sorted(board.san(move) for move in board.legal_moves))


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: python3 tests/python/san_sets.py FILE")
    with open(sys.argv[1], encoding="ascii") as file:
        fens = file.read().splitlines()
    # the positions are independent: one process per core, in order
    with Pool(os.cpu_count() or 1) as pool:
        sets = pool.map(san_set, fens, chunksize=256)
    sys.stdout.write("".join(line + "\n" for line in sets))


if __name__ == "__main__":
    main()
