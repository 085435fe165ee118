//! The fast path (`sanfen::quick`) against the full resolver.
//!
//! Positions: every position of the opening books of `../shared/data/epd/`
//! replayed move by move, and the positions of the standard random and the
//! Chess960 perft suites. In each, for every legal move: its canonical SAN
//! must be found as [`Quick::Canonical`], and SAN spelled otherwise (capture
//! mark dropped or added, origin file or rank added, changed or dropped,
//! another piece, destination or promotion, castling both ways and as king
//! moves) must be answered as [`resolve`] answers it; and [`suffix_after`]
//! must agree with [`notation::suffix`].
//!
//! The resolver is slow on SAN that names no move (it ranks suggestions), so
//! the opening positions, many and alike, are tried with the spellings near
//! each move's own ([`Variants::Near`]); the perft positions (random, composed,
//! Chess960: where the odd cases are) with every variation ([`Variants::All`]),
//! a third of the random ones.

use std::collections::HashSet;

use sanfen::notation;
use sanfen::quick::{Quick, find, suffix_after};
use sanfen::resolve::{MoveLint, resolve, resolve_text};
use sanfen::san::{CastlingSide, San, SanOptions, SanPlus, parse_san};
use sanfen::{CastlingMode, Fen, File, Move, Position, Rank, Role, Square};

fn read(path: &str) -> String {
    let full = format!("{}/../shared/data/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e} (is ../shared beside the repository?)"))
}

fn position(fen: &str, mode: CastlingMode) -> Position {
    let parsed = Fen::parse(fen, mode).unwrap_or_else(|e| panic!("{fen}: {e}"));
    Position::from_setup(parsed.setup, mode).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// SAN as written: strictly when it is canonical text, else leniently (the
/// first reading: `bc6` is the pawn).
fn san(text: &str) -> San {
    text.parse().unwrap_or_else(|_| {
        let parsed = parse_san(text.as_bytes(), SanOptions::LENIENT).unwrap_or_else(|e| panic!("{text}: {e}"));
        parsed.first().san
    })
}

/// What [`find`] must answer, from the full resolver: the move when it
/// resolves (non-canonical when it reports a spelling lint: check marks aside,
/// since the SAN has none), nothing when it does not, or when it reads the SAN
/// as castling written as a king move.
fn expected(pos: &Position, san: San) -> Quick {
    let resolution = resolve(pos, &SanPlus::new(san));
    match resolution.outcome {
        Ok(_) if resolution.lints.contains(&MoveLint::CastlingAsKingMove) => Quick::NotFound,
        Ok(m)
            if resolution.lints.iter().any(|lint| {
                matches!(
                    lint,
                    MoveLint::MissingCaptureMark | MoveLint::SpuriousCaptureMark | MoveLint::OverDisambiguated
                )
            }) =>
        {
            Quick::NonCanonical(m)
        }
        Ok(m) => Quick::Canonical(m),
        Err(_) => Quick::NotFound,
    }
}

/// How many SAN values were compared, by answer.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Tally {
    positions: usize,
    moves: usize,
    checks: usize,
    mates: usize,
    canonical: usize,
    non_canonical: usize,
    not_found: usize,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.positions += other.positions;
        self.moves += other.moves;
        self.checks += other.checks;
        self.mates += other.mates;
        self.canonical += other.canonical;
        self.non_canonical += other.non_canonical;
        self.not_found += other.not_found;
    }
}

/// How many spellings of each move to try.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Variants {
    /// The capture mark toggled; the origin file, rank or both added or dropped.
    Near,
    /// Every combination of origin file (none, the right one, the destination's,
    /// the neighbours), origin rank (none, the right one, the neighbours) and
    /// capture mark; every piece; the neighbouring destinations; other promotion
    /// pieces, none, and the forbidden ones.
    All,
}

/// Spellings near the canonical SAN `s` of `m`.
fn variants(m: Move, s: San, how: Variants, out: &mut HashSet<San>) {
    let San::Normal { role, file, rank, capture, to, promotion } = s else {
        return;
    };
    let from = m.from();
    let normal = |file, rank, capture| San::Normal { role, file, rank, capture, to, promotion };
    if how == Variants::Near {
        for (file, rank) in
            [(None, None), (Some(from.file()), None), (None, Some(from.rank())), (Some(from.file()), Some(from.rank()))]
        {
            for capture in [false, true] {
                out.insert(normal(file, rank, capture));
            }
        }
        return;
    }
    let files = [None, Some(from.file()), Some(to.file()), from.file().offset(1), from.file().offset(-1)];
    let ranks = [None, Some(from.rank()), from.rank().offset(1), from.rank().offset(-1)];
    for file in files {
        for rank in ranks {
            for capture in [false, true] {
                out.insert(normal(file, rank, capture));
            }
        }
    }
    for other in Role::ALL {
        out.insert(San::Normal { role: other, file, rank, capture, to, promotion });
        out.insert(San::Normal { role: other, file: None, rank: None, capture, to, promotion: None });
    }
    for (df, dr) in [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)] {
        if let Some(to) = to.step(df, dr) {
            out.insert(San::Normal { role, file, rank, capture, to, promotion });
        }
    }
    for promotion in [None, Some(Role::Queen), Some(Role::Knight), Some(Role::King), Some(Role::Pawn)] {
        out.insert(San::Normal { role, file, rank, capture, to, promotion });
    }
}

/// Checks one position; failures are pushed to `failures`.
fn check_position(pos: &Position, how: Variants, failures: &mut Vec<String>) -> Tally {
    let mut tally = Tally { positions: 1, ..Tally::default() };
    let mut sans: HashSet<San> = HashSet::new();
    for m in pos.legal_moves() {
        sans.insert(notation::san(pos, m));
    }
    // castling both ways, and king moves along the back rank (castling written as a king move)
    sans.insert(San::Castle(CastlingSide::KingSide));
    sans.insert(San::Castle(CastlingSide::QueenSide));
    let back = Rank::First.relative_to(pos.turn());
    for file in File::ALL {
        let to = Square::from_coords(file, back);
        sans.insert(San::Normal { role: Role::King, file: None, rank: None, capture: false, to, promotion: None });
    }
    for m in pos.legal_moves() {
        tally.moves += 1;
        let s = notation::san(pos, m);
        let found = find(pos, &s);
        if found != Quick::Canonical(m) {
            failures.push(format!("{pos}: canonical {s} of {m:?}: found {found:?}"));
        }
        variants(m, s, how, &mut sans);
        let mut after = pos.clone();
        after.play_unchecked(m);
        let suffix = suffix_after(&after);
        match suffix {
            Some(sanfen::san::Suffix::Check) => tally.checks += 1,
            Some(sanfen::san::Suffix::Checkmate) => tally.mates += 1,
            None => {}
        }
        let want = notation::suffix(pos, m);
        if suffix != want {
            failures.push(format!("{pos}: {s}: suffix_after {suffix:?}, notation::suffix {want:?}"));
        }
    }
    let mut sans: Vec<San> = sans.into_iter().collect();
    sans.sort_by_key(|s| s.to_string());
    for s in sans {
        let found = find(pos, &s);
        let want = expected(pos, s);
        if found != want {
            failures.push(format!("{pos}: {s}: found {found:?}, resolver {want:?}"));
        }
        match found {
            Quick::Canonical(_) => tally.canonical += 1,
            Quick::NonCanonical(_) => tally.non_canonical += 1,
            Quick::NotFound => tally.not_found += 1,
        }
    }
    tally
}

/// Checks positions on every core, every `all_every`-th one (the first
/// included) with [`Variants::All`], the others with [`Variants::Near`] (all
/// with `Near` when `all_every` is 0); panics listing the first failures.
fn check_all(positions: &[Position], all_every: usize) -> Tally {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = positions.len().div_ceil(threads).max(1);
    let results: Vec<(Tally, Vec<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = positions
            .chunks(chunk)
            .enumerate()
            .map(|(part_index, part)| {
                scope.spawn(move || {
                    let mut failures = Vec::new();
                    let mut tally = Tally::default();
                    for (i, pos) in part.iter().enumerate() {
                        let index = part_index * chunk + i;
                        let how = if all_every > 0 && index.is_multiple_of(all_every) {
                            Variants::All
                        } else {
                            Variants::Near
                        };
                        tally.add(check_position(pos, how, &mut failures));
                    }
                    (tally, failures)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("no panic")).collect()
    });
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for (part, fails) in results {
        tally.add(part);
        failures.extend(fails);
    }
    let shown: Vec<&String> = failures.iter().take(20).collect();
    assert!(failures.is_empty(), "{} failures, the first: {shown:#?}", failures.len());
    tally
}

/// Every distinct position (by FEN) on the lines of the opening books.
fn opening_positions() -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut positions = Vec::new();
    let mut lines = 0;
    let mut files = vec![("epd/notnil-chess/eco_lichess.tsv".to_owned(), 2)];
    files.extend(["a", "b", "c", "d", "e"].map(|name| (format!("epd/chess-openings/{name}.tsv"), 2)));
    for (path, column) in files {
        for line in read(&path).lines().skip(1) {
            lines += 1;
            let movetext = line.split('\t').nth(column).unwrap_or_else(|| panic!("{path}: {line}"));
            let mut pos = Position::default();
            for token in movetext.split_whitespace().filter(|t| !t.ends_with('.')) {
                if seen.insert(pos.to_string()) {
                    positions.push(pos.clone());
                }
                let resolved = resolve_text(&pos, token.as_bytes(), SanOptions::STRICT).expect("SAN");
                pos.play_unchecked(resolved.resolution.outcome.expect("a legal move"));
            }
            if seen.insert(pos.to_string()) {
                positions.push(pos);
            }
        }
    }
    assert_eq!(lines, 3_397 + 3_807);
    positions
}

/// The positions (`epd` lines) of a perft suite, read in Chess960 mode (X-FEN).
fn perft_positions(path: &str) -> Vec<Position> {
    read(path)
        .lines()
        .filter_map(|line| line.strip_prefix("epd "))
        .map(|fen| {
            let parsed = Fen::parse(fen, CastlingMode::Chess960).unwrap_or_else(|e| panic!("{fen}: {e}"));
            Position::from_setup_lenient(parsed.setup, CastlingMode::Chess960).unwrap_or_else(|e| panic!("{fen}: {e}"))
        })
        .collect()
}

#[test]
fn opening_books_against_the_resolver() {
    let positions = opening_positions();
    let tally = check_all(&positions, 0);
    assert_eq!(
        tally,
        Tally {
            positions: 8461,
            moves: 276035,
            checks: 3833,
            mates: 3,
            canonical: 276035,
            non_canonical: 1897839,
            not_found: 97919
        }
    );
}

#[test]
fn random_perft_positions_against_the_resolver() {
    let positions = perft_positions("perft/standard/random.perft");
    // every variation in a third of them: the resolver is slow on SAN that names no move
    let tally = check_all(&positions, 3);
    assert_eq!(
        tally,
        Tally {
            positions: 6838,
            moves: 178742,
            checks: 11875,
            mates: 138,
            canonical: 178742,
            non_canonical: 1221642,
            not_found: 2042224
        }
    );
}

#[test]
fn chess960_perft_positions_against_the_resolver() {
    let positions = perft_positions("perft/chess960/chess960.perft");
    let tally = check_all(&positions, 1);
    assert_eq!(
        tally,
        Tally {
            positions: 960,
            moves: 25943,
            checks: 355,
            mates: 4,
            canonical: 25943,
            non_canonical: 177083,
            not_found: 804899
        }
    );
}

// ---- hand-written cases ---------------------------------------------------------------------------

/// A readable answer: `Canonical e2e4`, `NonCanonical g1f3`, `NotFound`.
fn answer(pos: &Position, text: &str) -> String {
    match find(pos, &san(text)) {
        Quick::Canonical(m) => format!("Canonical {}", m.to_uci(pos.castling_mode())),
        Quick::NonCanonical(m) => format!("NonCanonical {}", m.to_uci(pos.castling_mode())),
        Quick::NotFound => "NotFound".to_owned(),
    }
}

/// SAN as written and [`answer`]'s answer.
type Cases<'a> = &'a [(&'a str, &'a str)];

#[test]
fn table() {
    let standard = CastlingMode::Standard;
    let chess960 = CastlingMode::Chess960;
    let table: &[(&str, CastlingMode, Cases)] = &[
        // san_render.tsv: the knight on d5 is pinned by the rook on a5, so Ne3 needs no file
        (
            "8/8/8/R2nkn2/8/8/2K5/8 b - - 0 1",
            standard,
            &[
                ("Ne3", "Canonical f5e3"),
                ("Nfe3", "NonCanonical f5e3"),
                ("N5e3", "NonCanonical f5e3"),
                ("Nde3", "NotFound"),
            ],
        ),
        // two knights that both reach e2: the file is needed
        (
            "4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1",
            standard,
            &[
                ("Ne2", "NotFound"),
                ("Nge2", "Canonical g1e2"),
                ("Nce2", "Canonical c3e2"),
                ("N1e2", "NonCanonical g1e2"),
            ],
        ),
        // bxc6 en passant would leave the king on a5 to the rook on h5
        ("8/8/8/KPp4r/8/8/8/7k w - c6 0 2", standard, &[("bxc6", "NotFound"), ("b6", "Canonical b5b6")]),
        ("8/8/8/1Pp4r/8/8/8/K6k w - c6 0 2", standard, &[("bxc6", "Canonical b5c6"), ("bc6", "NonCanonical b5c6")]),
        // the pawn that just moved gives check: taking it en passant answers the check
        (
            "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
            standard,
            &[("exd3", "Canonical e4d3"), ("e3", "NotFound"), ("Kd5", "Canonical c5d5"), ("Kxd4", "Canonical c5d4")],
        ),
        // double check from the rook on a1 and the knight on d3: only the king moves
        (
            "4k3/8/8/5B2/8/3n4/8/r3K3 w - - 0 1",
            standard,
            &[
                ("Bxd3", "NotFound"),
                ("Kd2", "Canonical e1d2"),
                ("Ke2", "Canonical e1e2"),
                ("Kf2", "NotFound"),
                ("Kf1", "NotFound"),
            ],
        ),
        // Chess960: the king stays on g1 when castling short; Kg1 is for the resolver
        (
            "4k3/8/8/8/8/8/8/6KR w H - 0 1",
            chess960,
            &[("O-O", "Canonical g1h1"), ("O-O-O", "NotFound"), ("Kg1", "NotFound"), ("Kf1", "Canonical g1f1")],
        ),
        // Chess960: the rook stands on the king's destination
        ("4k3/8/8/8/8/8/8/1K4R1 w G - 0 1", chess960, &[("O-O", "Canonical b1g1"), ("Kc1", "Canonical b1c1")]),
        // Chess960: the king's ordinary move to g1 is Kg1, castling is O-O
        ("4k3/8/8/8/8/8/8/5K1R w H - 0 1", chess960, &[("O-O", "Canonical f1h1"), ("Kg1", "Canonical f1g1")]),
        // an enemy rook on a1 behind the castling rook on b1 attacks c1 once the rook has moved
        ("4k3/8/8/8/8/8/8/rR1K4 w B - 0 1", chess960, &[("O-O-O", "NotFound")]),
        // standard castling through an attacked square, and promotions
        ("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", standard, &[("O-O", "NotFound"), ("O-O-O", "Canonical e1c1")]),
        (
            "1r2k3/P1P5/8/8/8/8/8/4K3 w - - 0 1",
            standard,
            &[
                ("c8=Q+", "Canonical c7c8q"),
                ("axb8=N", "Canonical a7b8n"),
                ("a8=R", "Canonical a7a8r"),
                ("a8", "NotFound"),
                ("axb8", "NotFound"),
            ],
        ),
        // a pawn capture needs its file; a push is never written with one
        (
            "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
            standard,
            &[
                ("exd5", "Canonical e4d5"),
                ("d5", "NotFound"),
                ("e5", "Canonical e4e5"),
                ("ee5", "NonCanonical e4e5"),
                ("exe5", "NonCanonical e4e5"),
            ],
        ),
    ];
    for (fen, mode, cases) in table {
        let pos = position(fen, *mode);
        let answers: Vec<(&str, String)> = cases.iter().map(|(text, _)| (*text, answer(&pos, text))).collect();
        let want: Vec<(&str, String)> = cases.iter().map(|(text, want)| (*text, want.to_string())).collect();
        assert_eq!(answers, want, "{fen}");
        for (text, _) in *cases {
            assert_eq!(find(&pos, &san(text)), expected(&pos, san(text)), "{fen}: {text}");
        }
    }
}

#[test]
fn castling_as_a_king_move_is_left_to_the_resolver() {
    let pos = position("4k3/8/8/8/8/8/8/6KR w H - 0 1", CastlingMode::Chess960);
    let resolution = resolve(&pos, &SanPlus::new(san("Kg1")));
    assert_eq!(resolution.outcome, Ok(Move::Castle { king: Square::G1, rook: Square::H1 }));
    assert_eq!(resolution.lints, [MoveLint::CastlingAsKingMove]);
    assert_eq!(find(&pos, &san("Kg1")), Quick::NotFound);
}

#[test]
fn check_marks() {
    use sanfen::san::Suffix;
    let table: &[(&str, &str, Option<Suffix>)] = &[
        // Scholar's mate
        ("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "Qxf7", Some(Suffix::Checkmate)),
        ("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "Bxf7", Some(Suffix::Check)),
        ("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "Qh5", None),
        // d7-d5 checks the king on e4 and only exd6 en passant answers it... or the king moves
        ("8/3p4/8/4P3/4K3/8/8/7k b - - 0 1", "d5", Some(Suffix::Check)),
        // a smothered mate: the knight checks, nothing can take it
        ("6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", "Nf7", Some(Suffix::Checkmate)),
        // a back-rank mate, and a back-rank check the bishop can block on c8
        ("6k1/5ppp/8/8/8/8/1b6/R5K1 w - - 0 1", "Ra8", Some(Suffix::Checkmate)),
        ("6k1/5ppp/4b3/8/8/8/8/R5K1 w - - 0 1", "Ra8", Some(Suffix::Check)),
    ];
    for (fen, text, want) in table {
        let pos = position(fen, CastlingMode::Standard);
        let m = find(&pos, &san(text)).to_move().unwrap_or_else(|| panic!("{fen}: {text}"));
        let mut after = pos.clone();
        after.play_unchecked(m);
        assert_eq!(suffix_after(&after), *want, "{fen}: {text}");
        assert_eq!(notation::suffix(&pos, m), *want, "{fen}: {text}");
    }
}
