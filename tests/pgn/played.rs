//! A game played move by move written as PGN (`pgn::Game::from_play`):
//! its tags, its result, and the text read back as the game played.

use sanfen::pgn::game::read_games_from_slice;
use sanfen::pgn::played::TagError;
use sanfen::{Game, Position, Uci, pgn};

/// The game of `moves` (UCI) from `fen`, in Chess960 castling when asked.
fn played(fen: &str, chess960: bool, moves: &[&str]) -> Game {
    let mode = if chess960 { sanfen::CastlingMode::Chess960 } else { sanfen::CastlingMode::Standard };
    let fen = sanfen::Fen::parse(fen, mode).unwrap();
    let mut game = Game::new(fen.into_position().unwrap());
    for uci in moves {
        let m = uci.parse::<Uci>().unwrap().to_move(game.position()).unwrap();
        game.play(m).unwrap();
    }
    game
}

/// The text of a game, and that it reads back as the same moves with
/// nothing to say about them.
fn written(game: &Game, tags: &[(&str, &str)]) -> String {
    let text = pgn::Game::from_play(game, tags).unwrap().to_pgn();
    let back = read_games_from_slice(text.as_bytes());
    assert_eq!(back.len(), 1, "{text}");
    let moves: Vec<_> = back[0].mainline.moves.iter().map(|node| node.played.unwrap()).collect();
    assert_eq!(moves, game.moves(), "{text}");
    assert_eq!(back[0].report.findings, [], "{text}");
    text
}

const ROSTER_ONE: &str = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n";

#[test]
fn a_game_from_a_position_names_it_and_numbers_black_first() {
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 3 40";
    let game = played(fen, false, &["e8d7", "e2e4", "d7e6"]);
    assert_eq!(
        written(&game, &[("White", "Ana"), ("Black", "Rui"), ("TimeControl", "40/7200")]),
        format!(
            "{ROSTER_ONE}[White \"Ana\"]\n[Black \"Rui\"]\n[Result \"*\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\
             [TimeControl \"40/7200\"]\n\n40... Kd7 41. e4 Ke6 *\n"
        )
    );
}

#[test]
fn a_chess960_game_says_so_and_castles_as_chess960() {
    // rooks on b and g, the king between: each castling is the king taking its rook
    let fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";
    let game = played(fen, true, &["e1g1", "e8b8"]);
    // the FEN canonical: X-FEN's KQkq for the outermost rooks
    let text = written(&game, &[]);
    assert_eq!(
        text,
        format!(
            "{ROSTER_ONE}[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
             [FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1\"]\n\n1. O-O O-O-O *\n"
        )
    );
}

#[test]
fn the_result_is_the_boards_or_the_one_given() {
    // fool's mate: the board's result, which a Result given must agree with
    let mate =
        played("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    assert!(written(&mate, &[]).ends_with("[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"));
    assert!(written(&mate, &[("Result", "0-1")]).ends_with("\n1. f3 e5 2. g4 Qh4# 0-1\n"));
    assert_eq!(
        pgn::Game::from_play(&mate, &[("Result", "1/2-1/2")]).unwrap_err(),
        TagError { name: "Result".into(), reason: "1/2-1/2, but the game ended on the board (checkmate: 0-1)".into() }
    );
    // a game that goes on: a resignation or an agreed draw is the one given
    let open = played("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false, &["e2e4"]);
    assert!(written(&open, &[("Result", "1-0")]).ends_with("[Result \"1-0\"]\n\n1. e4 1-0\n"));
    assert!(written(&open, &[("Result", "1/2-1/2")]).ends_with("[Result \"1/2-1/2\"]\n\n1. e4 1/2-1/2\n"));
    assert!(written(&open, &[("Result", "*")]).ends_with("[Result \"*\"]\n\n1. e4 *\n"));
    // a game of no move
    assert_eq!(
        written(&Game::default(), &[]),
        format!("{ROSTER_ONE}[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n*\n")
    );
}

#[test]
fn tags_it_cannot_write_are_refused_with_the_reason() {
    let game = Game::default();
    for (name, value, reason) in [
        ("Result", "2-0", "\"2-0\" is not a result"),
        ("", "x", "not a tag name (a letter or digit, then letters, digits and _+#=:-)"),
        ("My Tag", "x", "not a tag name (a letter or digit, then letters, digits and _+#=:-)"),
        ("_x", "x", "not a tag name (a letter or digit, then letters, digits and _+#=:-)"),
        ("Event", "a\nb", "a tag value holds no control character"),
        ("Site", "a\u{1b}[2J", "a tag value holds no control character"),
        ("FEN", "8/8/8/8/8/8/8/8 w - - 0 1", "set from the game's initial position"),
        ("SetUp", "1", "set from the game's initial position"),
        ("Variant", "Chess960", "set from the game's initial position"),
    ] {
        let error = pgn::Game::from_play(&game, &[("White", "Ana"), (name, value)]).unwrap_err();
        assert_eq!(error, TagError { name: name.into(), reason: reason.into() });
    }
    assert_eq!(
        pgn::Game::from_play(&game, &[("My Tag", "x")]).unwrap_err().to_string(),
        "tag \"My Tag\": not a tag name (a letter or digit, then letters, digits and _+#=:-)"
    );
    // quotes and backslashes are escaped, any other character kept
    let text = written(&game, &[("Event", "The \"Open\" \\ Café ½"), ("Event", "Again")]);
    assert!(text.starts_with("[Event \"Again\"]\n"), "{text}");
    let text = written(&game, &[("Event", "The \"Open\" \\ Café ½")]);
    assert!(text.starts_with("[Event \"The \\\"Open\\\" \\\\ Café ½\"]\n"), "{text}");
    assert_eq!(Position::default(), *game.position());
}
