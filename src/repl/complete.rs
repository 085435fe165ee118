//! Completion of what is being typed: the legal moves (in the session's
//! notation and letters), the command names and their fixed arguments.

/// The commands, their usage and what they do (for `help`, and for
/// completion).
pub const COMMANDS: [(&str, &str); 25] = [
    ("board [on|off]", "show the board; with on/off, show it after every move or not"),
    ("fen", "show the position as FEN"),
    ("load FEN|FILE [N]|PGN", "start from a position, a PGN file's first (or N-th) game, a .bin move log, or PGN text"),
    ("moves [SQUARE]", "list the legal moves; with a square, mark that piece's targets"),
    ("attacks [SQUARE]", "mark the squares the opponent attacks; with a square, the piece's safe squares"),
    ("undo [N]", "take back the last move (or N moves; against the engine, back to your move)"),
    ("redo [N]", "play an undone move again (or N moves)"),
    ("history", "the moves so far"),
    ("pgn", "the game so far as PGN"),
    ("tag [NAME [VALUE]]", "list the tags, show one, or set it (\"\" removes it)"),
    ("new", "start again from the first position"),
    ("flip", "turn the board around"),
    ("letters LANG", "read piece letters of a language: en, pt, es, fr, de, it, nl"),
    ("notation NAME", "list and complete moves as san, lan, uci, figurine or file-prefixed"),
    ("save FILE", "write the game to a new file: PGN (.gz, .zst, .bz2 compressed), or a .bin name's move log"),
    ("save FILE N", "put the game back in the place of game N of the file it was loaded from, the rest kept"),
    ("save! FILE", "write the game over the file there (save replaces only a file it wrote itself)"),
    ("append FILE", "add the game at the end of a PGN file"),
    ("go [DEPTH|Ns]", "the engine moves: about a second, N seconds, or DEPTH plies (at most 10 s; Ctrl-C stops it)"),
    ("play white|black|off [DEPTH]", "the engine plays that side after each of your moves, or stops"),
    ("resign", "resign the game (against the engine: yours; otherwise the side to move)"),
    ("draw", "offer a draw (the engine accepts or declines by its evaluation; otherwise agreed)"),
    ("claim", "claim a draw by threefold repetition or the fifty-move rule"),
    ("help", "this list"),
    ("quit", "leave"),
];

/// The command names (`board`, `fen`, ..., `quit`), each once (a command
/// of two uses has two lines, one after the other).
fn command_names() -> impl Iterator<Item = &'static str> {
    let mut last = None;
    COMMANDS
        .iter()
        .filter_map(|(usage, _)| usage.split_whitespace().next())
        .filter(move |&name| last.replace(name) != Some(name))
}

/// The command closest to a word that names none, by edit distance (a
/// letter added, dropped, changed, or two neighbours swapped, case ignored):
/// one edit away for a word of up to four letters, two for a longer one; the
/// first in [`COMMANDS`] order on a tie (`exit` last).
pub(super) fn closest_command(word: &str) -> Option<&'static str> {
    let word = word.to_ascii_lowercase();
    let most = if word.chars().count() <= 4 { 1 } else { 2 };
    command_names()
        .chain(["exit"])
        .map(|command| (edit_distance(&word, command), command))
        .filter(|&(distance, _)| distance <= most)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, command)| command)
}

/// The optimal string alignment distance between two words: the fewest
/// insertions, deletions, substitutions and swaps of two neighbours.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // rows[i][j]: the distance between a[..i] and b[..j]
    let mut rows = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    rows[0] = (0..=b.len()).collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1).min(rows[i][j - 1] + 1).min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

/// The completions of one position of a session
/// ([`Session::completer`](super::Session::completer)): a snapshot that
/// owns its data, so a line editor can keep it while the session is
/// borrowed elsewhere. Take a new one after each line.
///
/// ```
/// use sanfen::repl::{Options, Session};
///
/// let completer = Session::new(Options::default()).completer();
/// assert_eq!(completer.complete("e4 N", 4), (3, vec!["Na3".into(), "Nc3".into(), "Nf3".into(), "Nh3".into()]));
/// assert_eq!(completer.hint("hel", 3), Some("p".into()));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Completer {
    /// The legal moves, as the session writes them.
    moves: Vec<String>,
}

impl Completer {
    /// Completions offering these moves.
    pub(crate) fn new(moves: Vec<String>) -> Completer {
        Completer { moves }
    }

    /// The legal moves offered, in the session's order.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// The words that may replace the word that ends at byte `pos` of
    /// `line`, and where that word starts. The first word of a line
    /// completes to commands (case-sensitively: `N` is a knight, not `new`)
    /// and moves; after `board`, `play`, `letters` or `notation`, to their
    /// arguments; after other commands, to nothing; after moves, to moves.
    /// A `pos` past the end of the line, or inside a character, completes
    /// nothing.
    pub fn complete(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let Some(before) = line.get(..pos) else {
            return (pos, Vec::new());
        };
        let start = before.char_indices().rev().find(|(_, c)| c.is_whitespace()).map_or(0, |(i, c)| i + c.len_utf8());
        let word = &before[start..];
        let earlier: Vec<&str> = before[..start].split_whitespace().collect();
        let first = earlier.first().copied().unwrap_or(word);
        (start, self.candidates(first, earlier.len(), word))
    }

    /// The rest of the only word that completes the one being typed at the
    /// end of `line` (`pos` its length), if there is exactly one and it is
    /// longer.
    pub fn hint(&self, line: &str, pos: usize) -> Option<String> {
        if pos != line.len() {
            return None;
        }
        let (start, words) = self.complete(line, pos);
        let typed = pos - start;
        match words.as_slice() {
            [only] if typed > 0 && only.len() > typed => only.get(typed..).map(str::to_owned),
            _ => None,
        }
    }

    /// The words that may complete `word`, the `index`-th word of a line
    /// whose first word is `first`.
    fn candidates(&self, first: &str, index: usize, word: &str) -> Vec<String> {
        let arguments: &[&str] = match first.to_ascii_lowercase().as_str() {
            _ if index == 0 => &[],
            "board" => &["on", "off"],
            "play" => &["white", "black", "off"],
            "letters" => &["en", "pt", "es", "fr", "de", "it", "nl"],
            "notation" => &["san", "lan", "uci", "figurine", "file-prefixed"],
            _ => &[],
        };
        let mut out: Vec<String> = Vec::new();
        if index == 0 {
            out.extend(command_names().filter(|c| c.starts_with(word) && !word.is_empty()).map(str::to_owned));
        }
        if !arguments.is_empty() {
            out.extend(arguments.iter().filter(|a| a.starts_with(word)).map(|a| (*a).to_owned()));
        } else if index == 0 || command_names().all(|c| !c.eq_ignore_ascii_case(first)) {
            out.extend(self.moves.iter().filter(|m| m.starts_with(word)).cloned());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{closest_command, edit_distance};
    use crate::repl::{Options, Session};

    #[test]
    fn edit_distance_counts_a_swap_as_one_edit() {
        assert_eq!(edit_distance("hepl", "help"), 1);
        assert_eq!(edit_distance("flipp", "flip"), 1);
        assert_eq!(edit_distance("", "go"), 2);
        assert_eq!(edit_distance("resign", "redo"), 4);
        assert_eq!(edit_distance("hsitory", "history"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn closest_command_allows_one_edit_up_to_four_letters_two_beyond() {
        assert_eq!(closest_command("HEPL"), Some("help"));
        assert_eq!(closest_command("hlp"), Some("help"));
        assert_eq!(closest_command("hl"), None);
        assert_eq!(closest_command("hitsroy"), Some("history"));
        assert_eq!(closest_command("notaion"), Some("notation"));
        assert_eq!(closest_command("castle"), None);
        assert_eq!(closest_command("resing"), Some("resign"));
        // a tie goes to the first command listed: `fen` before `new`
        assert_eq!(closest_command("nen"), Some("fen"));
        assert_eq!(closest_command("nex"), Some("new"));
        assert_eq!(closest_command("exot"), Some("exit"));
    }

    fn strings(words: &[&str]) -> Vec<String> {
        words.iter().map(|&w| w.to_owned()).collect()
    }

    #[test]
    fn completion_of_moves_commands_and_arguments() {
        let mut session = Session::new(Options::default());
        let completer = session.completer();
        assert_eq!(completer.moves().len(), 20);
        assert_eq!(completer.complete("N", 1), (0, strings(&["Na3", "Nc3", "Nf3", "Nh3"])));
        assert_eq!(completer.complete("e4 N", 4), (3, strings(&["Na3", "Nc3", "Nf3", "Nh3"])));
        assert_eq!(completer.complete("he", 2), (0, strings(&["help"])));
        assert_eq!(completer.complete("play b", 6), (5, strings(&["black"])));
        assert_eq!(completer.complete("PLAY o", 6), (5, strings(&["off"])));
        assert_eq!(completer.complete("notation f", 10), (9, strings(&["figurine", "file-prefixed"])));
        assert_eq!(completer.complete("undo N", 6).1, Vec::<String>::new());
        // the word before the cursor, not the whole line
        assert_eq!(completer.complete("Nf3 e", 5), (4, strings(&["e3", "e4"])));
        assert_eq!(completer.complete("Nf3 e5", 3), (0, strings(&["Nf3"])));
        // `f` is a move's file and a command's first letter
        assert_eq!(completer.complete("f", 1), (0, strings(&["fen", "flip", "f3", "f4"])));
        // a no-break space separates words too; a place inside a character completes nothing
        assert_eq!(completer.complete("e4\u{a0}N", 5), (4, strings(&["Na3", "Nc3", "Nf3", "Nh3"])));
        assert_eq!(completer.complete("e4\u{a0}N", 3), (3, Vec::new()));
        assert_eq!(completer.complete("N", 7), (7, Vec::new()));
        session.eval("letters pt");
        let completer = session.completer();
        assert_eq!(completer.complete("C", 1).1, ["Ca3", "Cc3", "Cf3", "Ch3"]);
        session.eval("notation uci");
        assert_eq!(session.completer().complete("g1", 2).1, ["g1f3", "g1h3"]);
    }

    #[test]
    fn hints_complete_the_only_candidate() {
        let completer = Session::new(Options::default()).completer();
        assert_eq!(completer.hint("hel", 3), Some("p".to_owned()));
        assert_eq!(completer.hint("Nh", 2), Some("3".to_owned()));
        // several candidates, a complete word, the cursor inside the line
        assert_eq!(completer.hint("N", 1), None);
        assert_eq!(completer.hint("help", 4), None);
        assert_eq!(completer.hint("hel x", 3), None);
        assert_eq!(completer.hint("", 0), None);
    }
}
