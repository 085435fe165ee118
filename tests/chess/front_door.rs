//! The library's front door, as the README's Library section shows it: each
//! conversion, resolving with reasons, reading a PGN file with clocks and
//! evaluations, and writing a game back, one or two lines each.

use sanfen::pgn::commands::Score;
use sanfen::pgn::read_games_path;
use sanfen::resolve::{Rejection, resolve};
use sanfen::san::SanPlus;
use sanfen::{Position, Square, Uci};

#[test]
fn every_capability_is_one_call() -> Result<(), Box<dyn std::error::Error>> {
    // FEN to position, and back as canonical FEN
    let pos: Position = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1".parse()?;
    assert_eq!(pos.to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");

    // UCI to a move; SAN to a move and back
    let c5 = "c7c5".parse::<Uci>()?.to_move(&pos)?;
    assert_eq!("c5".parse::<SanPlus>()?.to_move(&pos)?, c5);
    assert_eq!(SanPlus::from_move(&pos, c5).to_string(), "c5");

    // resolving: every candidate kept or rejected, with its reason
    let pinned: Position = "8/8/8/R2nkn2/8/8/2K5/8 b - - 0 1".parse()?;
    let resolution = resolve(&pinned, &"Nb4".parse()?);
    assert_eq!(resolution.candidates[0].from, Square::D5);
    assert_eq!(resolution.candidates[0].rejection, Some(Rejection::Pinned { by: Square::A5 }));
    assert_eq!(
        resolution.outcome.unwrap_err().to_string(),
        "illegal: no knight can move to b4: the knight on d5 is pinned by the piece on a5; did you mean Nd4+, Nh4, Nd6?"
    );

    // every game of a PGN file (gzip, zstd, bzip2 too), each move with its clock and evaluation
    let games = read_games_path("../shared/data/pgn/notnil-chess/0004.pgn")?.collect::<Result<Vec<_>, _>>()?;
    let first = &games[0].mainline.moves[0];
    assert_eq!(first.san.to_string(), "e4");
    assert_eq!(first.clock().map(|clock| clock.as_secs()), Some(30));
    assert_eq!(first.eval().map(|eval| eval.score), Some(Score::Centipawns(17)));
    assert!(games[0].report.findings.is_empty());

    // a game written back as PGN
    let pgn = games[0].to_pgn();
    assert!(pgn.starts_with("[Event \"Rated Bullet tournament https://lichess.org/tournament/yc1WW2Ox\"]\n"));
    assert!(pgn.contains("1. e4 { [%eval 0.17] [%clk 0:00:30] } 1... c5 { [%eval 0.19] [%clk 0:00:30] }"));
    Ok(())
}
