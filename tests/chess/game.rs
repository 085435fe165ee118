//! Game end and draw claims: the status vectors of `position_status.tsv`
//! (chess.js's tests), repetition counted exactly (with the en passant
//! subtlety), the fifty- and seventy-five-move rules at their thresholds,
//! insufficient material, and undo/redo.

use std::path::PathBuf;

use sanfen::game::{Claim, EndReason, Game, GameEnd, MoveLogError, Outcome};
use sanfen::{CastlingMode, Color, Fen, Move, Position, Role, Square};

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data").join(path)
}

fn position(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal move with this UCI text.
fn uci(pos: &Position, text: &str) -> Move {
    pos.legal_moves()
        .into_iter()
        .find(|m| m.to_uci(CastlingMode::Standard).to_string() == text)
        .unwrap_or_else(|| panic!("{text} is not legal in {pos}"))
}

/// Plays the UCI moves in order.
fn play(game: &mut Game, moves: &str) {
    for text in moves.split_whitespace() {
        let m = uci(game.position(), text);
        game.play(m).unwrap();
    }
}

fn draw(reason: EndReason) -> Option<GameEnd> {
    Some(GameEnd { reason, result: Outcome::Draw })
}

/// Every row of `position_status.tsv`: our answer equals `expected`. All 24
/// positions are legal by [`Position::from_setup`], so none needs the lenient
/// constructor, and no row is an exception.
#[test]
fn position_status_vectors() {
    let path = data("vectors/position_status.tsv");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (is ../shared beside the repository?)", path.display()));
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("fen\tproperty\texpected\tdetail\tsource\tpython_chess_agrees"));
    let mut rows = 0;
    let mut wrong = Vec::new();
    let mut per_property = std::collections::BTreeMap::new();
    for line in lines.filter(|l| !l.is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (fen, property, expected) = (fields[0], fields[1], fields[2]);
        let pos = position(fen);
        let ours = match property {
            "checkmate" => pos.is_checkmate(),
            "stalemate" => pos.is_stalemate(),
            "check" => pos.is_check(),
            "insufficient_material" => pos.is_insufficient_material(),
            other => panic!("unknown property {other:?} in {line}"),
        };
        let expected = match expected {
            "true" => true,
            "false" => false,
            other => panic!("expected must be true or false, found {other:?} in {line}"),
        };
        if ours != expected {
            wrong.push(format!("{fen}: {property} is {ours}, expected {expected}"));
        }
        *per_property.entry(property.to_owned()).or_insert(0) += 1;
        rows += 1;
    }
    assert_eq!(wrong, Vec::<String>::new());
    assert_eq!(rows, 24);
    let counts: Vec<(&str, i32)> = per_property.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(counts, [("check", 4), ("checkmate", 6), ("insufficient_material", 10), ("stalemate", 4)]);
}

/// Nf3 Nf6 Ng1 Ng8, four times: the start position occurs a second time after
/// 4 plies, a third (claimable) after 8, a fifth (the game is drawn) after 16.
#[test]
fn knight_shuffle_repetition_counts() {
    let mut game = Game::default();
    let mut counts = vec![game.repetitions()];
    let mut claims = vec![game.claimable()];
    let mut ends = vec![game.end()];
    for _ in 0..4 {
        for text in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            play(&mut game, text);
            counts.push(game.repetitions());
            claims.push(game.claimable());
            ends.push(game.end());
        }
    }
    assert_eq!(counts, [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5]);
    let threefold = Some(Claim::ThreefoldRepetition);
    assert_eq!(claims[..8], [None; 8]);
    assert_eq!(claims[8..16], [threefold; 8]);
    // over is over: nothing to claim
    assert_eq!(claims[16], None);
    assert_eq!(ends[..16], [None; 16]);
    assert_eq!(ends[16], draw(EndReason::FivefoldRepetition));
    assert_eq!(ends[16].unwrap().to_string(), "fivefold repetition: 1/2-1/2");

    // the fifth occurrence taken back and played again
    assert_eq!(game.undo(), Some(uci(&game.position_at(15).unwrap(), "f6g8")));
    assert_eq!((game.repetitions(), game.end(), game.claimable()), (4, None, threefold));
    game.redo();
    assert_eq!((game.repetitions(), game.end()), (5, draw(EndReason::FivefoldRepetition)));

    // another route to the same squares counts too: Nc3 Nc6 Nb1 Nb8
    let mut game = Game::default();
    play(&mut game, "g1f3 g8f6 f3g1 f6g8 b1c3 b8c6 c3b1 c6b8");
    assert_eq!(game.repetitions(), 3);
    // a pawn move starts afresh
    play(&mut game, "e2e3 g8f6 g1f3 f6g8 f3g1");
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.claimable(), None);
}

/// After 1. e4 the FEN says `e3`, but no black pawn can take there: the
/// position equals the same position without an en passant square, so
/// knight moves bring it back a second and a third time.
#[test]
fn repetition_ignores_an_en_passant_square_nobody_can_use() {
    let mut game = Game::default();
    play(&mut game, "e2e4");
    assert_eq!(game.position().ep_square(), Some(sanfen::Square::E3));
    assert_eq!(game.position().legal_ep_square(), None);
    play(&mut game, "g8f6 g1f3 f6g8 f3g1");
    assert_eq!(game.repetitions(), 2);
    play(&mut game, "g8f6 g1f3 f6g8 f3g1");
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.claimable(), Some(Claim::ThreefoldRepetition));

    // the same from a FEN that names e3 and one that does not
    let with = position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    let without = position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    // equal positions, the square kept as given
    assert_eq!((&with, with.ep_square(), without.ep_square()), (&without, Some(sanfen::Square::E3), None));
    let mut game = Game::new(with);
    play(&mut game, "g8f6 g1f3 f6g8 f3g1");
    assert!(game.positions().all(|p| p.legal_ep_square().is_none()));
    assert_eq!(game.repetitions(), 2);

    // a black pawn stands beside the e-pawn, but taking would expose its king on a4
    // to the queen on h4: still no en passant capture, still the same position
    let mut game = Game::new(position("8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1"));
    assert_eq!(game.position().legal_ep_square(), None);
    play(&mut game, "a4a5 e1e2 a5a4 e2e1");
    assert_eq!(game.repetitions(), 2);
}

/// With a black pawn on d4, after e2-e4 dxe3 is possible: that position
/// differs from the one the knights bring back, so the third occurrence
/// needs one more round.
#[test]
fn repetition_counts_a_capturable_en_passant_square() {
    let mut game = Game::new(position("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3"));
    play(&mut game, "e2e4");
    assert_eq!(game.position().legal_ep_square(), Some(sanfen::Square::E3));
    let mut counts = vec![game.repetitions()];
    for _ in 0..3 {
        play(&mut game, "g8f6 g1f3 f6g8 f3g1");
        counts.push(game.repetitions());
    }
    assert_eq!(counts, [1, 1, 2, 3]);
    assert_eq!(game.claimable(), Some(Claim::ThreefoldRepetition));
}

#[test]
fn fifty_move_rule_at_100_plies() {
    let mut game = Game::new(position("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"));
    assert_eq!((game.claimable(), game.end()), (None, None));
    play(&mut game, "a1a2");
    assert_eq!(game.position().halfmoves(), 100);
    assert_eq!((game.claimable(), game.end()), (Some(Claim::FiftyMoveRule), None));
    game.undo();
    assert_eq!(game.claimable(), None);
    // a pawn move resets the clock
    let mut game = Game::new(position("4k3/8/8/8/8/8/P7/R3K3 w - - 99 80"));
    play(&mut game, "a2a3");
    assert_eq!((game.position().halfmoves(), game.claimable()), (0, None));
}

#[test]
fn seventy_five_move_rule_at_150_plies() {
    let mut game = Game::new(position("4k3/8/8/8/8/8/8/R3K3 w - - 149 120"));
    assert_eq!((game.claimable(), game.end()), (Some(Claim::FiftyMoveRule), None));
    play(&mut game, "a1a2");
    assert_eq!(game.position().halfmoves(), 150);
    assert_eq!(game.end(), draw(EndReason::SeventyFiveMoveRule));
    assert_eq!(game.end().unwrap().to_string(), "seventy-five-move rule: 1/2-1/2");
    assert_eq!(game.claimable(), None);
    // the same clock from a FEN: automatic at once
    assert_eq!(Game::new(position("4k3/8/8/8/8/8/8/R3K3 w - - 150 120")).end(), draw(EndReason::SeventyFiveMoveRule));
    // a mate on the 150th ply wins (FIDE 9.6.2)
    let mut game = Game::new(position("k7/8/1K6/8/8/8/8/7R w - - 149 120"));
    play(&mut game, "h1h8");
    assert_eq!(game.position().halfmoves(), 150);
    let mate = GameEnd { reason: EndReason::Checkmate, result: Outcome::Decisive { winner: Color::White } };
    assert_eq!(game.end(), Some(mate));
    assert_eq!(game.end().unwrap().to_string(), "checkmate: 1-0");
}

#[test]
fn insufficient_material() {
    let table = [
        ("KvK", "8/8/8/8/8/8/8/k6K w - - 0 1", true),
        ("KNvK", "8/8/8/8/2N5/8/8/k6K w - - 0 1", true),
        ("KvKN", "8/8/8/8/2n5/8/8/k6K w - - 0 1", true),
        ("KBvK", "8/8/8/8/2B5/8/8/k6K w - - 0 1", true),
        ("KBvKB same colour", "8/8/8/8/2b5/8/8/k4B1K w - - 0 1", true),
        ("KBBvKB all on light squares", "8/8/8/8/2b5/8/B7/k4B1K w - - 0 1", true),
        ("KBvKB opposite colours", "8/8/8/8/2b5/8/8/k5BK w - - 0 1", false),
        ("KBBvK opposite colours", "8/8/8/8/8/8/B7/k5BK w - - 0 1", false),
        ("KNNvK", "8/8/8/8/2NN4/8/8/k6K w - - 0 1", false),
        ("KNvKN", "8/8/8/8/2Nn4/8/8/k6K w - - 0 1", false),
        ("KNvKB", "8/8/8/8/2Nb4/8/8/k6K w - - 0 1", false),
        ("KPvK", "8/8/8/8/2P5/8/8/k6K w - - 0 1", false),
        ("KRvK", "8/8/8/8/2R5/8/8/k6K w - - 0 1", false),
        ("KQvK", "8/8/8/8/2Q5/8/8/k6K w - - 0 1", false),
    ];
    for (name, fen, dead) in table {
        let pos = position(fen);
        assert_eq!(pos.is_insufficient_material(), dead, "{name}");
        let end = Game::new(pos.clone()).end();
        assert_eq!(end, if dead { draw(EndReason::InsufficientMaterial) } else { None }, "{name}");
        assert_eq!(pos.outcome(), dead.then_some(Outcome::Draw), "{name}");
    }
    // a capture that leaves the kings alone ends the game
    let mut game = Game::new(position("k7/8/8/8/8/8/1q6/K7 w - - 0 60"));
    assert_eq!(game.end(), None);
    play(&mut game, "a1b2");
    assert_eq!(game.end(), draw(EndReason::InsufficientMaterial));
    assert_eq!(game.end().unwrap().to_string(), "insufficient material: 1/2-1/2");
}

#[test]
fn checkmate_and_stalemate_in_a_game() {
    let mut game = Game::default();
    play(&mut game, "f2f3 e7e5 g2g4");
    assert_eq!(game.end(), None);
    play(&mut game, "d8h4");
    let mate = GameEnd { reason: EndReason::Checkmate, result: Outcome::Decisive { winner: Color::Black } };
    assert_eq!(game.end(), Some(mate));
    assert_eq!(game.end().unwrap().to_string(), "checkmate: 0-1");
    assert_eq!(game.position().outcome(), Some(mate.result));

    let mut game = Game::new(position("7k/8/6Q1/8/8/8/8/K7 w - - 0 50"));
    play(&mut game, "g6f7");
    assert!(game.position().is_stalemate());
    assert_eq!(game.end(), draw(EndReason::Stalemate));
    assert_eq!(game.end().unwrap().to_string(), "stalemate: 1/2-1/2");
}

/// Undo walks back through exactly the positions play went through, and redo
/// forward again; castling, en passant and a promotion on the way.
#[test]
fn undo_and_redo_return_the_same_positions() {
    let mut game = Game::default();
    let moves = "e2e4 d7d5 e4e5 f7f5 e5f6 g8h6 f6g7 e8f7 g7h8q d8e8 g1f3 c8g4 f1e2 b8c6 e1g1 h6g8";
    let mut seen = vec![game.position().clone()];
    for text in moves.split_whitespace() {
        play(&mut game, text);
        seen.push(game.position().clone());
    }
    assert_eq!(game.positions().collect::<Vec<_>>(), seen);
    assert_eq!(game.position().to_string(), "r3qbnQ/ppp1pk1p/2n5/3p4/6b1/5N2/PPPPBPPP/RNBQ1RK1 w - - 7 9");
    let played: Vec<Move> = game.moves().to_vec();
    assert_eq!(played.len(), 16);
    for i in (0..16).rev() {
        assert_eq!(game.undo(), Some(played[i]));
        assert_eq!(game.position(), &seen[i]);
        assert_eq!(game.moves(), &played[..i]);
    }
    assert_eq!(game.undo(), None);
    assert_eq!(game.position(), game.initial());
    assert_eq!(game.redo_moves().collect::<Vec<_>>(), played);
    for i in 0..16 {
        assert_eq!(game.redo(), Some(played[i]));
        assert_eq!(game.position(), &seen[i + 1]);
    }
    assert_eq!(game.redo(), None);
    // a new move after an undo drops what could be redone
    game.undo();
    game.undo();
    play(&mut game, "e1f1");
    assert_eq!(game.redo(), None);
    assert_eq!(game.moves().len(), 15);
}

/// Seed 001's binary move log, byte for byte: per move from-rank, from-file,
/// to-rank, to-file as little-endian 32-bit integers; castling as the king's
/// move; en passant as the pawn's.
#[test]
fn move_log_bytes() {
    let mut game = Game::default();
    play(&mut game, "e2e4 g8f6 e4e5 d7d5 e5d6 e7e6 g1f3 f8e7 f1c4 e8g8 e1g1");
    let log = game.move_log();
    #[rustfmt::skip]
    let expected: [u8; 176] = [
        1, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, // e2e4
        7, 0, 0, 0, 6, 0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 0, // g8f6
        3, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, // e4e5
        6, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, // d7d5
        4, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0, 3, 0, 0, 0, // e5d6 en passant
        6, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0, 4, 0, 0, 0, // e7e6
        0, 0, 0, 0, 6, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0, // g1f3
        7, 0, 0, 0, 5, 0, 0, 0, 6, 0, 0, 0, 4, 0, 0, 0, // f8e7
        0, 0, 0, 0, 5, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, // f1c4
        7, 0, 0, 0, 4, 0, 0, 0, 7, 0, 0, 0, 6, 0, 0, 0, // O-O as e8g8
        0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, // O-O as e1g1
    ];
    assert_eq!(log, expected);
    assert_eq!(Game::default().move_log(), Vec::<u8>::new());
    // read back: the same game
    assert_eq!(Game::from_move_log(Position::default(), &log), Ok(game));
}

#[test]
fn move_log_round_trip_from_a_position() {
    let start = position("r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 40");
    let mut game = Game::new(start.clone());
    play(&mut game, "e1c1 e8g8 b7b8q g2h1q b8f8 g8f8 d1e1 f8g7");
    let log = game.move_log();
    assert_eq!(log.len(), 8 * 16);
    assert_eq!(Game::from_move_log(start, &log), Ok(game));
}

#[test]
fn move_log_promotion_reads_back_as_a_queen() {
    let start = position("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let mut game = Game::new(start.clone());
    play(&mut game, "a7b8n");
    let log = game.move_log();
    assert_eq!(log, [6, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0]);
    let read = Game::from_move_log(start, &log).unwrap();
    assert_eq!(read.moves()[0].promotion(), Some(Role::Queen));
    assert_eq!(read.position().to_string(), "1Q2k3/8/8/8/8/8/8/4K3 b - - 0 1");
}

/// The log of `e2e4` with one integer replaced.
fn e2e4_with(index: usize, value: i32) -> Vec<u8> {
    let mut values = [1, 4, 3, 4];
    values[index] = value;
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

#[test]
fn move_log_errors_say_what_and_where() {
    let start = Position::default;
    let mut log = Game::default().move_log();
    log.extend(e2e4_with(0, 1));
    log.push(0);
    let error = Game::from_move_log(start(), &log).unwrap_err();
    assert_eq!(error, MoveLogError::Length { len: 17 });
    assert_eq!(
        error.to_string(),
        "binary move log: 17 bytes is not a whole number of moves (16 bytes each); the last 1 bytes are a move cut short"
    );

    let mut log = e2e4_with(0, 1);
    log.extend(e2e4_with(3, 8));
    let error = Game::from_move_log(start(), &log).unwrap_err();
    assert_eq!(error, MoveLogError::Coordinate { move_number: 2, offset: 28, value: 8 });
    assert_eq!(error.to_string(), "binary move log, move 2 (byte 28): 8 is no rank or file (0 to 7)");
    let error = Game::from_move_log(start(), &e2e4_with(1, -1)).unwrap_err();
    assert_eq!(error.to_string(), "binary move log, move 1 (byte 4): -1 is no rank or file (0 to 7)");

    // e2e5, then a black move played by white
    let error = Game::from_move_log(start(), &e2e4_with(2, 4)).unwrap_err();
    assert_eq!(error, MoveLogError::Illegal { move_number: 1, from: Square::E2, to: Square::E5 });
    assert_eq!(error.to_string(), "binary move log, move 1 (byte 0): no legal move from e2 to e5");
    let mut log = e2e4_with(0, 1);
    log.extend(e2e4_with(0, 1));
    let error = Game::from_move_log(start(), &log).unwrap_err();
    assert_eq!(error.to_string(), "binary move log, move 2 (byte 16): no legal move from e2 to e4");

    // Chess960: the king on b1 steps to c1, or castles with the rook on a1 to c1
    let fen = Fen::parse("1k6/8/8/8/8/8/8/RK6 w A - 0 1", CastlingMode::Chess960).unwrap();
    let start = Position::from_setup(fen.setup, CastlingMode::Chess960).unwrap();
    let mut game = Game::new(start.clone());
    let castle = start.legal_moves().into_iter().find(|m| matches!(m, Move::Castle { .. })).unwrap();
    game.play(castle).unwrap();
    let log = game.move_log();
    assert_eq!(log, [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0]);
    let error = Game::from_move_log(start, &log).unwrap_err();
    assert_eq!(error, MoveLogError::Ambiguous { move_number: 1, from: Square::B1, to: Square::C1 });
    assert_eq!(error.to_string(), "binary move log, move 1 (byte 0): more than one legal move from b1 to c1");
}

#[test]
fn positions_are_equal_when_their_canonical_fen_is() {
    use std::collections::HashSet;
    let fen = |text: &str| text.parse::<Position>().unwrap();
    // e3 behind the pawn: no black pawn takes there, given or not
    let given = fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    let none = fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    let played =
        Position::default().play("e2e4".parse::<sanfen::Uci>().unwrap().to_move(&Position::default()).unwrap());
    let played = played.unwrap();
    assert_eq!(given.ep_square(), played.ep_square());
    assert_eq!((given.clone(), played.clone()), (none.clone(), none.clone()));
    assert_eq!(HashSet::from([given, none.clone(), played]).len(), 1);
    // one a pawn takes is part of the position
    let takable = fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    let not = fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_ne!(takable, not);
    assert_eq!(HashSet::from([takable, not]).len(), 2);
    // as are the clocks and the castling mode
    assert_ne!(none, fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"));
    let chess960 = Position::from_fen(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        sanfen::CastlingMode::Chess960,
    );
    assert_ne!(none, chess960.unwrap());
}
