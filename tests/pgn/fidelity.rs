//! Nothing read is lost or misread: text outside games, escape lines, line
//! ends, byte order marks, UTF-16, and the spellings people use for results,
//! en passant, evaluations and whitespace. Each case pins the reader's
//! events or the validator's findings, and `fmt`'s output bytes.

use assert_cmd::cargo::cargo_bin_cmd;
use sanfen::pgn::chunk::Chunker;
use sanfen::pgn::format::format_pgn;
use sanfen::pgn::reader::{Location, Reader, Visitor};
use sanfen::pgn::validate::{Finding, Options, Validator};

/// The Seven Tag Roster the formatter writes for a game without tags, up to
/// its Result.
const ROSTER: &str =
    "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n";

/// One finding as `LINE:COL code ⟨token⟩: message [suggestion]`.
fn line_of(f: &Finding) -> String {
    let suggestion = f.kind.suggestion().map(|s| format!(" [{s}]")).unwrap_or_default();
    format!("{}:{} {} ⟨{}⟩: {}{suggestion}", f.at.line, f.at.column, f.kind.code(), f.token, f.kind)
}

/// Every finding of every game of `input` (and after the last), but for
/// missing roster tags, move numbers and results, by game (0: after the
/// last game).
fn findings(input: &[u8]) -> Vec<(usize, String)> {
    let mut reader = Reader::new(input);
    let mut validator = Validator::new(input, Options::default());
    let mut out = Vec::new();
    let mut game = 0;
    while let Some(report) = reader.read_game(&mut validator) {
        game += 1;
        out.extend(report.findings.iter().map(|f| (game, f)).map(|(g, f)| (g, line_of(f))));
    }
    out.extend(validator.take_outside().iter().map(|f| (0, line_of(f))));
    out.retain(|(_, f)| {
        !["pgn:missing-tags", "pgn:missing-move-number", "pgn:missing-result"].iter().any(|code| f.contains(code))
    });
    out
}

/// `fmt`'s output and its games written unchanged (`LINE:COL: game N: why`);
/// formatting the output again gives it back.
fn fmt(input: &[u8]) -> (Vec<u8>, Vec<String>) {
    let (text, unchanged) = format_pgn(input);
    let unchanged: Vec<String> = unchanged
        .iter()
        .map(|(game, error)| format!("{}:{}: game {game}: {error}", error.at.line, error.at.column))
        .collect();
    let (again, _) = format_pgn(&text);
    assert_eq!(String::from_utf8_lossy(&again), String::from_utf8_lossy(&text), "not idempotent");
    (text, unchanged)
}

/// `fmt`'s output as text, every game rewritten.
fn formatted(input: &[u8]) -> String {
    let (text, unchanged) = fmt(input);
    assert_eq!(unchanged, Vec::<String>::new());
    String::from_utf8(text).expect("UTF-8 output")
}

fn owned(findings: &[(usize, &str)]) -> Vec<(usize, String)> {
    findings.iter().map(|&(game, f)| (game, f.to_owned())).collect()
}

// ---- text after the result and between games ---------------------------------------------

#[test]
fn a_comment_after_the_result_is_kept_after_it_and_reported() {
    let input = b"1. e4 e5 1-0 {note} ; and more\n";
    assert_eq!(formatted(input), format!("{ROSTER}[Result \"1-0\"]\n\n1. e4 e5 1-0 {{note}} ; and more\n"));
    assert_eq!(
        findings(input),
        owned(&[
            (
                1,
                "1:14 pgn:comment-after-result ⟨{note}⟩: comment after the termination marker belongs to no move; move it before the marker"
            ),
            (
                1,
                "1:21 pgn:comment-after-result ⟨; and more⟩: comment after the termination marker belongs to no move; move it before the marker"
            ),
        ])
    );
}

#[test]
fn text_between_games_is_kept_verbatim_and_reported() {
    let input =
        b"[Event \"A\"]\n\n1. e4 *\n\n{between}\n;  a line\n%escape\n\n[Event \"B\"]\n\n1. d4 *\n\n{after the last}\n";
    let b_roster = ROSTER.replacen("[Event \"?\"]", "[Event \"B\"]", 1);
    let a_roster = ROSTER.replacen("[Event \"?\"]", "[Event \"A\"]", 1);
    assert_eq!(
        formatted(input),
        format!(
            "{a_roster}[Result \"*\"]\n\n1. e4 *\n\n{{between}}\n;  a line\n%escape\n\n{b_roster}[Result \"*\"]\n\n1. d4 *\n\n\
             {{after the last}}\n"
        )
    );
    assert_eq!(
        findings(input),
        owned(&[
            (2, "5:1 pgn:text-between-games ⟨{between}⟩: comment between games belongs to no game"),
            (2, "6:1 pgn:text-between-games ⟨;  a line⟩: comment between games belongs to no game"),
            (2, "7:1 pgn:text-between-games ⟨%escape⟩: escape line between games belongs to no game"),
            (0, "13:1 pgn:text-between-games ⟨{after the last}⟩: comment between games belongs to no game"),
        ])
    );
}

#[test]
fn text_before_the_first_game_and_alone_is_kept() {
    assert_eq!(
        formatted(b"%header of the file\n{about these games}\n[Event \"A\"]\n1. e4 *\n"),
        format!(
            "%header of the file\n{{about these games}}\n\n{}[Result \"*\"]\n\n1. e4 *\n",
            ROSTER.replacen("[Event \"?\"]", "[Event \"A\"]", 1)
        )
    );
    assert_eq!(formatted(b"  {only a comment}\n% and an escape line\n"), "{only a comment}\n% and an escape line\n");
}

#[test]
fn semicolon_comments_among_the_tags_stay_among_them_after_their_tag() {
    // after the tag they came after, wherever the roster order writes it;
    // one after the last tag written goes before it (after it, it would be
    // the movetext's); one before a tag that starts the next game (given
    // again after a blank line) is the movetext's
    let input = b"[White \"w\"]\n; about White\n[Event \"e\"] ; about Event\n[Annotator \"a\"]\n\
                  ; about Annotator\n[PlyCount \"1\"]\n; about PlyCount\n[Site \"s\"]\n\n1. e4 *\n\n\
                  [Event \"f\"]\n\n; before the next game\n[Event \"g\"]\n1. d4 *\n";
    assert_eq!(
        formatted(input),
        "[Event \"e\"]\n; about Event\n[Site \"s\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"w\"]\n\
         ; about White\n[Black \"?\"]\n[Result \"*\"]\n[Annotator \"a\"]\n; about Annotator\n; about PlyCount\n\
         [PlyCount \"1\"]\n\n1. e4 *\n\n\
         [Event \"f\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n\
         [Result \"*\"]\n\n{ before the next game} *\n\n\
         [Event \"g\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n\
         [Result \"*\"]\n\n1. d4 *\n"
    );
    // formatted again, nothing moves
    assert_eq!(formatted(formatted(input).as_bytes()), formatted(input));
    // a game written unchanged whose tags only `;` comments follow gets its
    // marker: else the rewritten game's `[Event` after it would make them
    // comments among its tags, and the two games one
    let (text, unchanged) = fmt(b"[e\n[Site \"x\"]\n;ne\n\n;\n[Site \"x\"]\n;st\n");
    assert_eq!(unchanged.len(), 1, "{unchanged:?}");
    assert_eq!(
        String::from_utf8(text).unwrap(),
        "[e\n[Site \"x\"]\n;ne\n\n;\n\n*\n\n[Event \"?\"]\n[Site \"x\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
         [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n{st} *\n"
    );
}

#[test]
fn escape_lines_inside_a_game_are_kept_where_they_are() {
    let input = b"[Event \"A\"]\n%among the tags\n[Site \"x\"]\n\n1. e4 e5\n%in the movetext\n2. Nf3 *\n";
    assert_eq!(
        formatted(input),
        "[Event \"A\"]\n[Site \"x\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\
         %among the tags\n\n1. e4 e5\n%in the movetext\n2. Nf3 *\n"
    );
    // legal PGN: nothing to report
    assert_eq!(findings(input), []);
}

#[test]
fn a_game_written_unchanged_that_ends_with_an_escape_line_stays_a_game_of_its_own() {
    // Found by the `fmt` fuzz target: the first game (a variation with no
    // move before it) is written as it is, its escape line last, then one
    // blank line; read again, that blank line still ends it.
    let input = b"(\n%x\n\n\n1. d4 *\n";
    let (text, unchanged) = fmt(input);
    assert_eq!(unchanged, ["1:1: game 1: a variation with no move before it"]);
    assert_eq!(String::from_utf8(text.clone()).unwrap(), format!("(\n%x\n\n{ROSTER}[Result \"*\"]\n\n1. d4 *\n"));
    let count = |pgn: &[u8]| {
        let mut reader = Reader::new(pgn);
        std::iter::from_fn(|| reader.read_game(&mut Validator::new(pgn, Options::default()))).count()
    };
    assert_eq!((count(input), count(&text)), (2, 2));
}

#[test]
fn an_escape_line_before_any_movetext_written_goes_after_the_tags() {
    // Found by the `fmt` fuzz target: the move number `1` is not written (the
    // formatter writes its own numbers), so the escape line would open the
    // movetext, where it is read again as one of the tag section: the second
    // formatting moved it. Written after the tags at once, formatting is
    // idempotent (`fmt` asserts it).
    assert_eq!(formatted(b"1\n%x\n"), format!("{ROSTER}[Result \"*\"]\n%x\n\n*\n"));
    assert_eq!(formatted(b"{c}\n%x\n1. e4 *\n"), format!("{ROSTER}[Result \"*\"]\n\n{{c}}\n%x\n1. e4 *\n"));
}

#[test]
fn a_game_written_unchanged_that_starts_with_a_percent_sign_starts_no_escape_line() {
    // Found by the `fmt` fuzz target: in `\r%` the `%` is no escape line (it
    // is not first on its line), so it is a game, written unchanged; written
    // from its first byte, it became an escape line and the game was lost.
    let (text, unchanged) = fmt(b"\r%");
    assert_eq!(String::from_utf8(text).unwrap(), " %\n");
    assert_eq!(
        unchanged,
        ["1:2: game 1: 1. %: invalid move at 0..1: found \"%\", expected a move such as e4, Nf3, exd5, e8=Q or O-O"]
    );
}

#[test]
fn a_game_written_unchanged_that_looks_like_utf16_does_not_make_the_output_utf16() {
    // Found by the `fmt` fuzz target: after a space, `\xff\xfe` is no
    // UTF-16 byte order mark (the input does not start with it), so it is a
    // game, written unchanged; first in the output, it made the whole
    // output UTF-16, and four games were lost.
    let input = b" \xff\xfe 1. e4 *\n\n[Event \"B\"]\n\n1. d4 *\n";
    let (text, unchanged) = fmt(input);
    assert_eq!(
        text,
        b" \xff\xfe 1. e4 *\n\n[Event \"B\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
          [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. d4 *\n"
    );
    assert_eq!(
        unchanged,
        ["1:2: game 1: 1. ÿþ: invalid move at 0..1: found \"ÿ\", expected a move such as e4, Nf3, exd5, e8=Q or O-O"]
    );
    assert_eq!(sanfen::pgn::read_games_from_slice(&text).len(), 2);
    // and the same for a NUL in every other byte
    let mut nuls = b"\n".to_vec();
    nuls.extend(b"1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7".iter().flat_map(|&b| [b, 0]));
    let (text, unchanged) = fmt(&nuls);
    assert_eq!(text[0], b' ');
    assert_eq!(&text[1..], &[&nuls[1..], b"\n"].concat()[..]);
    assert_eq!(unchanged.len(), 1);
    assert_eq!(sanfen::pgn::read_games_from_slice(&text).len(), 1);
}

#[test]
fn chunks_keep_the_text_between_games_as_the_whole_input_does() {
    let input = b"[Event \"A\"]\n\n1. e4 *\n\n; between\n\n[Event \"B\"]\n\n1. d4 *\n\n{after}\n";
    let (whole, _) = fmt(input);
    // `sanfen fmt` reads in chunks: cut at every cut point
    let mut chunker = Chunker::with_target(&input[..], 1);
    let (mut out, mut buffer, mut chunks) = (Vec::new(), Vec::new(), 0);
    while let Some(chunk) = chunker.next_chunk(buffer).unwrap() {
        chunks += 1;
        let mut reader = Reader::with_start(&chunk.data, chunk.start);
        let mut formatter = sanfen::pgn::format::Formatter::new(&chunk.data, chunk.start);
        while let Some(game) = reader.read_game(&mut formatter) {
            let first = out.is_empty();
            sanfen::pgn::format::append_game(&mut out, &game.text, first);
        }
        let first = out.is_empty();
        sanfen::pgn::format::append_game(&mut out, &formatter.take_outside(), first);
        buffer = chunk.data;
    }
    assert!(chunks >= 2);
    assert_eq!(String::from_utf8(out).unwrap(), String::from_utf8(whole).unwrap());
}

#[test]
fn fmt_command_keeps_text_after_the_last_game() {
    cargo_bin_cmd!("sanfen")
        .args(["fmt"])
        .write_stdin("1. e4 *\n\n{the end}\n")
        .assert()
        .code(0)
        .stdout(format!("{ROSTER}[Result \"*\"]\n\n1. e4 *\n\n{{the end}}\n"))
        .stderr("");
}

// ---- line ends ------------------------------------------------------------------------

#[test]
fn crlf_input_with_a_game_written_unchanged_gives_crlf_throughout() {
    let input = b"[Event \"A\"]\r\n\r\n1. e4 e5 *\r\n\r\n[Event \"B\"]\r\n\r\n1. e4 e5 2. Ke3 *\r\n\r\n{between}\r\n\r\n1. d4 {a\r\nb} *\r\n";
    let (text, unchanged) = fmt(input);
    let a_roster = ROSTER.replacen("[Event \"?\"]", "[Event \"A\"]", 1);
    // (`{between}` is the first comment of the game without tags after it)
    let expected = format!(
        "{a_roster}[Result \"*\"]\n\n1. e4 e5 *\n\n[Event \"B\"]\n\n1. e4 e5 2. Ke3 *\n\n{ROSTER}[Result \"*\"]\n\n\
         {{between}} 1. d4 {{a\nb}} *\n"
    )
    .replace('\n', "\r\n");
    assert_eq!(String::from_utf8(text).unwrap(), expected);
    assert_eq!(unchanged.len(), 1);
    // and a file whose first line ends with `\n` gets `\n` throughout
    let (text, _) = fmt(b"[Event \"A\"]\n\n1. e4 e5 2. Ke3 *\r\n\r\n1. d4 *\r\n");
    assert!(!text.contains(&b'\r'));
}

// ---- byte order marks and UTF-16 ------------------------------------------------------------

#[test]
fn byte_order_mark_of_a_joined_file_is_whitespace_not_a_game() {
    let input = b"\xef\xbb\xbf[Event \"A\"]\n\n1. e4 *\n\xef\xbb\xbf[Event \"B\"]\n\n1. d4 *\n";
    assert_eq!(
        findings(input),
        owned(&[(
            2,
            "4:1 pgn:invisible-char ⟨\u{feff}⟩: invisible character (byte order mark U+FEFF) read as a space; write a space"
        )])
    );
    let (text, unchanged) = fmt(input);
    assert_eq!(unchanged, Vec::<String>::new());
    let text = String::from_utf8(text).unwrap();
    assert_eq!(text.matches("[Event ").count(), 2);
    assert!(!text.contains('\u{feff}'));
}

/// The location of each finding of `check` on `input`.
fn finding_places(args: &[&str], input: &[u8]) -> String {
    let output = cargo_bin_cmd!("sanfen").args(args).write_stdin(input.to_vec()).output().unwrap();
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn columns_on_the_first_line_count_the_byte_order_mark() {
    // `Ke3` is the seventh byte after the mark's three: column 10
    let input = b"\xef\xbb\xbf1. e4 Ke3 *\n";
    let mut reader = Reader::new(input);
    let mut validator = Validator::new(input, Options::default());
    let report = reader.read_game(&mut validator).unwrap();
    let illegal = report.findings.iter().find(|f| f.kind.code() == "san:illegal").unwrap();
    assert_eq!(illegal.at, Location { line: 1, column: 10, offset: 9 });
    // and so says `sanfen check`, which reads in chunks
    let stdout = finding_places(&["check"], input);
    assert!(stdout.contains("<stdin>:1:10: game 1, 1... Ke3: error[san:illegal]"), "{stdout}");
}

#[test]
fn utf16_input_is_one_clear_error() {
    let message = "input looks like UTF-16, which PGN never is; convert it to UTF-8";
    let utf16 = |big_endian: bool, bom: bool| {
        let mut bytes = Vec::new();
        if bom {
            bytes.extend_from_slice(if big_endian { b"\xfe\xff" } else { b"\xff\xfe" });
        }
        for unit in "[Event \"A\"]\n[Site \"B\"]\n\n1. e4 e5 *\n".encode_utf16() {
            bytes.extend_from_slice(&if big_endian { unit.to_be_bytes() } else { unit.to_le_bytes() });
        }
        bytes
    };
    for (big_endian, bom) in [(false, true), (true, true), (false, false), (true, false)] {
        let input = utf16(big_endian, bom);
        assert_eq!(findings(&input), owned(&[(1, &format!("1:1 pgn:utf16 ⟨⟩: {message}"))]), "{big_endian} {bom}");
        // `fmt` writes it back as it is, and says why
        let (text, unchanged) = format_pgn(&input);
        assert_eq!(text, input);
        assert_eq!(
            unchanged.iter().map(|(game, error)| format!("{game}: {error}")).collect::<Vec<_>>(),
            ["1: input looks like UTF-16; convert it to UTF-8"]
        );
    }
    // a stream that starts as UTF-16 is one chunk, whatever follows
    let mut input = utf16(false, false);
    input.extend_from_slice(b"\n\n[Event \"A\"]\n1. e4 *\n\n[Event \"B\"]\n1. d4 *\n");
    let mut chunker = Chunker::with_target(&input[..], 1);
    let chunk = chunker.next_chunk(Vec::new()).unwrap().unwrap();
    assert_eq!(chunk.data, input);
    assert_eq!(chunker.next_chunk(Vec::new()).unwrap(), None);
    assert_eq!(findings(&input), owned(&[(1, &format!("1:1 pgn:utf16 ⟨⟩: {message}"))]));
    // the command says it once, before reading, however large the input
    let output = cargo_bin_cmd!("sanfen").arg("check").write_stdin(utf16(false, true)).output().unwrap();
    assert_eq!(
        (String::from_utf8(output.stderr).unwrap(), output.status.code()),
        (format!("sanfen: <stdin>: not PGN text: {message}\n"), Some(1))
    );
}

// ---- results --------------------------------------------------------------------------

#[test]
fn half_sign_result_tag_is_the_draw() {
    let input = "[Result \"½-½\"]\n\n1. e4 e5 ½-½\n".as_bytes();
    assert_eq!(
        findings(input),
        owned(&[
            (1, "1:1 pgn:result-spelling ⟨½-½⟩: result spelled unlike PGN; write 1/2-1/2 [1/2-1/2]"),
            (1, "3:10 pgn:result-spelling ⟨½-½⟩: result spelled unlike PGN; write 1/2-1/2 [1/2-1/2]"),
        ])
    );
    assert_eq!(formatted(input), format!("{ROSTER}[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n"));
    // a real mismatch shows the marker as written
    assert_eq!(
        findings("[Result \"1-0\"]\n\n1. e4 e5 ½-½\n".as_bytes()),
        owned(&[
            (1, "3:10 pgn:result-spelling ⟨½-½⟩: result spelled unlike PGN; write 1/2-1/2 [1/2-1/2]"),
            (1, "3:10 pgn:result-mismatch ⟨½-½⟩: the Result tag says 1-0 but the movetext ends with 1/2-1/2 [1/2-1/2]"),
        ])
    );
}

// ---- spellings ------------------------------------------------------------------------

#[test]
fn en_passant_mark_written_apart_belongs_to_the_capture() {
    for mark in ["e.p.", "ep", "e.p"] {
        let input = format!("1. e4 a6 2. e5 d5 3. exd6 {mark} *\n");
        assert_eq!(
            findings(input.as_bytes()),
            owned(&[(1, &format!("1:27 san:en-passant-suffix ⟨{mark}⟩: en passant mark; write exd6 [exd6]"))]),
            "{mark}"
        );
        assert_eq!(formatted(input.as_bytes()), format!("{ROSTER}[Result \"*\"]\n\n1. e4 a6 2. e5 d5 3. exd6 *\n"));
    }
    // glued, as before
    assert_eq!(
        formatted(b"1. e4 a6 2. e5 d5 3. exd6e.p. *\n"),
        format!("{ROSTER}[Result \"*\"]\n\n1. e4 a6 2. e5 d5 3. exd6 *\n")
    );
    // after a move that is no en passant capture: an error, and the game stays as it was
    let input = b"1. e4 d5 2. exd5 e.p. *\n";
    assert_eq!(
        findings(input),
        owned(&[(1, "1:18 pgn:en-passant-mark ⟨e.p.⟩: en passant mark after a move that is no en passant capture")])
    );
    assert_eq!(
        fmt(input),
        (
            input.to_vec(),
            vec!["1:18: game 1: 2... e.p.: an en passant mark after a move that is no en passant capture".to_owned()]
        )
    );
}

#[test]
fn evaluation_symbols_are_read_as_their_nags() {
    for (symbol, nag) in [
        ("=", 10),
        ("∞", 13),
        ("⩲", 14),
        ("+=", 14),
        ("+/=", 14),
        ("⩱", 15),
        ("=+", 15),
        ("=/+", 15),
        ("±", 16),
        ("+/-", 16),
        ("∓", 17),
        ("-/+", 17),
        ("+-", 18),
        ("-+", 19),
    ] {
        let input = format!("1. e4 {symbol} e5 *\n");
        assert_eq!(
            findings(input.as_bytes()),
            owned(&[(
                1,
                &format!("1:7 pgn:nag-symbol ⟨{symbol}⟩: evaluation symbol written for a NAG; write ${nag} [${nag}]")
            )]),
            "{symbol}"
        );
        assert_eq!(formatted(input.as_bytes()), format!("{ROSTER}[Result \"*\"]\n\n1. e4 ${nag} 1... e5 *\n"));
    }
    // `--` stays a null move
    assert_eq!(formatted(b"1. e4 -- *\n"), format!("{ROSTER}[Result \"*\"]\n\n1. e4 -- *\n"));
}

#[test]
fn invisible_characters_between_tokens_are_whitespace() {
    for (bytes, token, name) in [
        (&b"\xc2\xa0"[..], "\u{a0}", "no-break space U+00A0"),
        (b"\xa0", "\u{a0}", "no-break space U+00A0 in Latin-1"),
        (b"\xe2\x80\x8b", "\u{200b}", "zero-width space U+200B"),
        (b"\xef\xbb\xbf", "\u{feff}", "byte order mark U+FEFF"),
    ] {
        // glued to the tokens around it, and between a move number and its move
        let mut input = b"1.".to_vec();
        input.extend_from_slice(bytes);
        input.extend_from_slice(b"e4");
        input.extend_from_slice(bytes);
        input.extend_from_slice(b"e5 *\n");
        let second = 5 + bytes.len();
        assert_eq!(
            findings(&input),
            owned(&[
                (
                    1,
                    &format!(
                        "1:3 pgn:invisible-char ⟨{token}⟩: invisible character ({name}) read as a space; write a space"
                    )
                ),
                (
                    1,
                    &format!(
                        "1:{second} pgn:invisible-char ⟨{token}⟩: invisible character ({name}) read as a space; write a space"
                    )
                ),
            ]),
            "{name}"
        );
        assert_eq!(formatted(&input), format!("{ROSTER}[Result \"*\"]\n\n1. e4 e5 *\n"), "{name}");
    }
}

/// Collects the tokens given as moves.
struct Sans(Vec<String>);

impl Visitor for Sans {
    type Output = Vec<String>;
    fn san(&mut self, token: &[u8], _at: Location) {
        self.0.push(String::from_utf8_lossy(token).into_owned());
    }
    fn end_game(&mut self, _at: Location) -> Vec<String> {
        std::mem::take(&mut self.0)
    }
}

#[test]
fn castling_with_unicode_dashes_reaches_the_san_parser_whole() {
    let input = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O–O O‑O 5. d3 0—0 *\n";
    let sans = Reader::new(input.as_bytes()).read_game(&mut Sans(Vec::new())).unwrap();
    assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O–O", "O‑O", "d3", "0—0"]);
}

#[test]
fn castling_with_unicode_dashes_is_read_with_a_lint() {
    let input = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O–O Nf6 *\n";
    let found = findings(input.as_bytes());
    assert_eq!(
        found,
        [(1, "1:35 san:castling-dash ⟨O–O⟩: castling written with a dash other than `-`; write O-O [O-O]".to_owned())]
    );
    assert_eq!(
        formatted(input.as_bytes()),
        format!("{ROSTER}[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 *\n")
    );
}

#[test]
fn game_written_unchanged_after_a_byte_order_mark_is_copied_from_its_first_byte() {
    let (text, unchanged) = format_pgn(b"\xef\xbb\xbf1. Ke3 *\n");
    assert_eq!(String::from_utf8(text).unwrap(), "1. Ke3 *\n");
    assert_eq!(unchanged.len(), 1);
    assert_eq!((unchanged[0].1.at.line, unchanged[0].1.at.column), (1, 7));
    let (text, _) = format_pgn(b"\xef\xbb\xbf[White \"A\"]\n\n1. e4 e5 2. Ke3 1-0\n");
    assert_eq!(String::from_utf8(text).unwrap(), "[White \"A\"]\n\n1. e4 e5 2. Ke3 1-0\n");
}

#[test]
fn game_with_a_bad_tag_and_a_stray_dot_gets_no_marker_that_would_read_as_a_new_game() {
    // the `.` is a movetext token (no event): a blank line ends the game, so
    // a termination marker after one would be a game of its own
    for input in ["[].", "[\n."] {
        let (text, unchanged) = fmt(input.as_bytes());
        assert_eq!(String::from_utf8(text).unwrap(), format!("{input}\n"));
        assert_eq!(unchanged.len(), 1, "{input:?}");
    }
    // a game of tags alone, one of them bad, still gets its marker
    let (text, unchanged) = fmt(b"[A \"b\"]\n[]\n\n[A \"c\"]\n1. e4 *\n");
    assert_eq!(
        String::from_utf8(text).unwrap(),
        format!("[A \"b\"]\n[]\n\n*\n\n{ROSTER}[Result \"*\"]\n[A \"c\"]\n\n1. e4 *\n")
    );
    assert_eq!(unchanged.len(), 1);
}

#[test]
fn game_written_unchanged_keeps_the_spaces_that_end_its_last_comment() {
    // `Ke3` is illegal: the game is written as it was, its `;` comment whole
    let input = "1. e4 e5 2. Ke3 ; ends with spaces  \n";
    let (text, unchanged) = fmt(input.as_bytes());
    assert_eq!(String::from_utf8(text).unwrap(), input);
    assert_eq!(unchanged.len(), 1);
}

#[test]
fn check_reports_text_after_the_last_game() {
    let stdout = finding_places(&["check", "--allow", "pgn:missing-tags"], b"1. e4 *\n{trailing}\n");
    let (without_time, _) = stdout.rsplit_once(", ").unwrap();
    assert_eq!(
        without_time,
        "<stdin>:2:1: after game 1, {trailing}: warning[pgn:text-between-games]: comment between games belongs to no \
         game\n1 games, 1 moves, 0 games with errors, 0 errors, 1 lint findings, 0 skipped, 19 bytes"
    );
}

#[test]
fn check_reports_text_between_games_at_every_chunk_boundary_whatever_the_threads() {
    // about 3 MiB: several chunks, the comment lines between games end some of them
    let game = "[Event \"E\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[White \"A\"]\n[Black \"B\"]\n\
                [Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n; between\n{also between}\n\n";
    let input = game.repeat(3 << 20 >> 7);
    let games = input.len() / game.len();
    for jobs in ["1", "2", "3"] {
        let stdout = finding_places(&["check", "--no-progress", "-j", jobs], input.as_bytes());
        assert_eq!(stdout.matches("pgn:text-between-games").count(), 2 * games, "-j {jobs}");
        assert!(stdout.contains(&format!("after game {games}, {{also between}}")), "-j {jobs}");
    }
}

#[test]
fn source_line_of_a_finding_at_the_end_of_a_crlf_line_has_no_carriage_return() {
    // the input the fuzz target found: a missing result placed right after a line's `\r`
    let input = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/seeds/check/source-line-of-a-finding-at-the-end-of-a-crlf-line.pgn"),
    )
    .unwrap();
    let mut validator = Validator::new(&input, Options { source_lines: true, ..Options::default() });
    let mut reader = Reader::new(&input);
    let mut shown = Vec::new();
    while let Some(report) = reader.read_game(&mut validator) {
        for finding in report.findings {
            let line = finding.source_line.unwrap();
            assert!(!line.text.ends_with('\r'), "{line:?}");
            assert!(line.caret <= line.text.chars().count(), "{line:?}");
            if finding.kind.code() == "pgn:missing-result" {
                shown.push((finding.at.line, finding.at.column, line.text, line.caret));
            }
        }
    }
    assert!(shown.contains(&(535, 21, "[Date \"2013.11.021]".to_owned(), 19)), "{shown:?}");
}
