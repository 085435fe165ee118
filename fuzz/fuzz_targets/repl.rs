//! Fuzz target `repl`: the input's lines (those that are UTF-8, at most
//! 64) typed into a REPL session one after another, as `sanfen repl` reads a
//! script. Then
//!
//! - `Session::eval` never panics, whatever the line: a command and its
//!   arguments, moves in any spelling and letters, a FEN or PGN text to
//!   `load`, tags, `undo` and `redo` counts;
//! - after each line, the position's FEN reads back as the same position
//!   (leniently: `load` takes a position no game reaches when it can be
//!   played from);
//! - the game written as PGN (`Session::pgn`, what `save` writes) reads
//!   back as one game, whose mainline, played from its start, ends in the
//!   session's position.
//!
//! Left out: `go` and `play` (the engine's search takes its time), and a
//! `load` naming a file that exists (the fuzzer's own files). Nothing is
//! written: `save` hands its bytes back.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sanfen::pgn::Game as PgnGame;
use sanfen::repl::{Options, Session};
use sanfen::{Fen, Position};

fuzz_target!(|data: &[u8]| {
    let mut session = Session::new(Options { date: Some("2026.01.01".to_owned()), ..Options::default() });
    for line in data.split(|&b| b == b'\n').take(64) {
        let Ok(line) = std::str::from_utf8(line) else { continue };
        let first = line.split_whitespace().next().unwrap_or("").to_ascii_lowercase();
        if first == "go" || first == "play" {
            continue;
        }
        if first == "load" {
            // as `load` reads a name: the whole text, or all but a last word
            // (the game's number); quoted or not
            let rest = line.trim_start()[first.len()..].trim();
            let head = rest.rsplit_once(char::is_whitespace).map_or("", |(head, _)| head.trim());
            let exists = |name: &str| !name.is_empty() && sanfen::repl::typed_path(name).exists();
            if [rest, head].iter().any(|name| exists(name) || exists(name.trim_matches('"'))) {
                continue;
            }
        }
        let response = session.eval(line);
        let position = session.game().position();
        let fen = position.to_string();
        // (`load` takes a position no game reaches when it can be played from)
        let setup = Fen::parse(&fen, position.castling_mode())
            .unwrap_or_else(|err| panic!("after {line:?}: the FEN {fen} does not read back: {err}"))
            .setup;
        let back = Position::from_setup_lenient(setup, position.castling_mode())
            .unwrap_or_else(|err| panic!("after {line:?}: the FEN {fen} does not read back: {err}"));
        assert_eq!(&back, position, "after {line:?}: {fen}");
        let pgn = session.pgn();
        let game = PgnGame::from_pgn(&pgn).unwrap_or_else(|err| panic!("after {line:?}: {err}:\n{pgn}"));
        let mut end = game.start.clone().unwrap_or_else(|| panic!("after {line:?}: no start:\n{pgn}\n{game:?}"));
        for node in &game.mainline.moves {
            let m = node.played.unwrap_or_else(|| panic!("after {line:?}: a move not played:\n{pgn}"));
            end = end.play(m).unwrap_or_else(|err| panic!("after {line:?}: {err}:\n{pgn}"));
        }
        assert_eq!(&end, position, "after {line:?}: the PGN ends elsewhere:\n{pgn}");
        if response.quit {
            break;
        }
    }
});
