//! Lint control: which findings a command reports, and which of them count as
//! errors.
//!
//! Every finding has a stable code, `pgn:` for a game's structure and `san:`
//! for moves ([`CODES`] lists them all). Errors (an illegal move, broken
//! syntax) are always reported. Lint findings (accepted, but not as canonical
//! PGN writes it) are warnings by default; a [`LintPolicy`] can allow them
//! (not reported, not counted) or deny them (reported as errors), by code or
//! by group:
//!
//! ```
//! use sanfen::lint::{Level, LintPolicy};
//!
//! let mut policy = LintPolicy::default();
//! policy.deny("san").unwrap();
//! policy.allow("pgn:missing-move-number").unwrap();
//! assert_eq!(policy.level("san:castling-zeros"), Level::Deny);
//! assert_eq!(policy.level("pgn:missing-move-number"), Level::Allow);
//! assert_eq!(policy.level("pgn:missing-tags"), Level::Warn);
//! // errors stay errors
//! assert_eq!(policy.level("san:illegal"), Level::Deny);
//! assert!(policy.allow("san:illegal").is_err());
//! ```
//!
//! A code named itself outweighs its group, and an explicit `allow` outweighs
//! [`LintPolicy::strict`]: `--strict --allow pgn:missing-tags` makes every lint
//! finding an error but the missing tags, which are not reported. Naming the
//! same code (or group) both ways is an error.

use core::fmt;

/// Whether a code names an error or a lint finding.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CodeKind {
    /// Always an error: the input is not valid.
    Error,
    /// Accepted, but not canonical: a warning unless allowed or denied.
    Lint,
}

/// Every finding code of `check`, `fmt`, `apply` and `resolve`, sorted, with
/// its kind.
pub const CODES: &[(&str, CodeKind)] = &[
    ("pgn:bad-nag", CodeKind::Error),
    ("pgn:bad-tag", CodeKind::Error),
    ("pgn:comment-after-result", CodeKind::Lint),
    ("pgn:duplicate-tag", CodeKind::Lint),
    ("pgn:en-passant-mark", CodeKind::Error),
    ("pgn:fen-tag", CodeKind::Error),
    ("pgn:invisible-char", CodeKind::Lint),
    ("pgn:missing-move-number", CodeKind::Lint),
    ("pgn:missing-result", CodeKind::Lint),
    ("pgn:missing-tags", CodeKind::Lint),
    ("pgn:move-number", CodeKind::Lint),
    ("pgn:nag-symbol", CodeKind::Lint),
    ("pgn:null-move", CodeKind::Lint),
    ("pgn:null-move-in-check", CodeKind::Error),
    ("pgn:result-contradicts-position", CodeKind::Lint),
    ("pgn:result-mismatch", CodeKind::Lint),
    ("pgn:result-spelling", CodeKind::Lint),
    ("pgn:text-between-games", CodeKind::Lint),
    ("pgn:too-deep", CodeKind::Error),
    ("pgn:too-large", CodeKind::Error),
    ("pgn:unclosed-comment", CodeKind::Error),
    ("pgn:unclosed-variation", CodeKind::Error),
    ("pgn:unescaped-quote", CodeKind::Lint),
    ("pgn:unexpected-char", CodeKind::Error),
    ("pgn:unmatched-paren", CodeKind::Error),
    ("pgn:unreachable-fen", CodeKind::Lint),
    ("pgn:utf16", CodeKind::Error),
    ("pgn:variation-without-move", CodeKind::Error),
    ("san:ambiguous", CodeKind::Error),
    ("san:castling-as-king-move", CodeKind::Lint),
    ("san:castling-dash", CodeKind::Lint),
    ("san:castling-lowercase", CodeKind::Lint),
    ("san:castling-zeros", CodeKind::Lint),
    ("san:check-instead-of-mate", CodeKind::Lint),
    ("san:colon-capture", CodeKind::Lint),
    ("san:coordinates", CodeKind::Lint),
    ("san:double-plus-mate", CodeKind::Lint),
    ("san:en-passant-suffix", CodeKind::Lint),
    ("san:figurine", CodeKind::Lint),
    ("san:illegal", CodeKind::Error),
    ("san:local-letters", CodeKind::Lint),
    ("san:long-algebraic", CodeKind::Lint),
    ("san:lowercase-piece", CodeKind::Lint),
    ("san:mate-instead-of-check", CodeKind::Lint),
    ("san:missing-capture-mark", CodeKind::Lint),
    ("san:missing-check", CodeKind::Lint),
    ("san:missing-checkmate", CodeKind::Lint),
    ("san:null-move-spelling", CodeKind::Lint),
    ("san:over-disambiguated", CodeKind::Lint),
    ("san:pawn-letter", CodeKind::Lint),
    ("san:promotion-bracketed", CodeKind::Lint),
    ("san:promotion-lowercase", CodeKind::Lint),
    ("san:promotion-without-equals", CodeKind::Lint),
    ("san:spurious-capture-mark", CodeKind::Lint),
    ("san:spurious-check", CodeKind::Lint),
    ("san:square-separator", CodeKind::Lint),
    ("san:syntax", CodeKind::Error),
];

/// The groups a code belongs to: the part before the colon.
pub const GROUPS: [&str; 2] = ["pgn", "san"];

/// What becomes of a finding.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Not reported and not counted.
    Allow,
    /// Reported as a warning (lint); the input stays valid.
    Warn,
    /// Reported as an error; the input is invalid.
    Deny,
}

/// Which lint findings to allow and which to deny. Cheap to copy: a bit per
/// code of [`CODES`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LintPolicy {
    allowed: u128,
    denied: u128,
    allowed_groups: u8,
    denied_groups: u8,
    strict: bool,
}

// one bit per code
const _: () = assert!(CODES.len() <= 128);

/// A code or group that cannot be allowed or denied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LintSpecError {
    /// Neither a code nor a group.
    Unknown {
        /// As given.
        spec: String,
        /// The closest code or group, when one is close.
        closest: Option<&'static str>,
    },
    /// An error code: errors cannot be allowed.
    NotALint {
        /// The code.
        code: &'static str,
    },
    /// Allowed and denied both.
    Conflict {
        /// The code or group.
        spec: String,
    },
}

impl fmt::Display for LintSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LintSpecError::Unknown { spec, closest } => {
                write!(f, "unknown finding code `{spec}`")?;
                match closest {
                    Some(closest) => write!(f, "; did you mean `{closest}`?"),
                    None => write!(f, "; codes start with {}", GROUPS.map(|g| format!("`{g}:`")).join(" or ")),
                }
            }
            LintSpecError::NotALint { code } => {
                write!(f, "`{code}` is an error, not a lint finding: it cannot be allowed")
            }
            LintSpecError::Conflict { spec } => write!(f, "`{spec}` is both allowed and denied"),
        }
    }
}

impl std::error::Error for LintSpecError {}

/// What a spec names: one code (its index in [`CODES`]) or a group (its
/// index in [`GROUPS`]).
enum Named {
    Code(usize),
    Group(usize),
}

fn index(code: &str) -> Option<usize> {
    CODES.binary_search_by(|(name, _)| name.cmp(&code)).ok()
}

fn group_of(code: &str) -> Option<usize> {
    let group = code.split(':').next()?;
    GROUPS.iter().position(|g| *g == group)
}

fn named(spec: &str) -> Result<Named, LintSpecError> {
    let spec = spec.trim();
    if let Some(group) = GROUPS.iter().position(|g| *g == spec || spec.strip_suffix(':') == Some(g)) {
        return Ok(Named::Group(group));
    }
    if let Some(i) = index(spec) {
        return Ok(Named::Code(i));
    }
    Err(LintSpecError::Unknown { spec: spec.to_owned(), closest: closest(spec) })
}

/// The code or group nearest to `spec` in edit distance, when it is near
/// (at most a third of the length, and at least one edit away).
fn closest(spec: &str) -> Option<&'static str> {
    let candidates = CODES.iter().map(|(code, _)| *code).chain(GROUPS);
    let (distance, best) = candidates
        .flat_map(|code| {
            // a code without its group (`missing-tags`) is close too
            let bare = code.split_once(':').map_or(code, |(_, rest)| rest);
            [(edit_distance(spec, code), code), (edit_distance(spec, bare), code)]
        })
        .min()?;
    (distance * 3 <= spec.len().max(3)).then_some(best)
}

/// Levenshtein distance over bytes.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, &x) in a.iter().enumerate() {
        current[0] = i + 1;
        for (j, &y) in b.iter().enumerate() {
            current[j + 1] = (previous[j] + usize::from(x != y)).min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

impl LintPolicy {
    /// Every lint finding a warning: [`LintPolicy::default`], as a constant.
    pub const DEFAULT: LintPolicy =
        LintPolicy { allowed: 0, denied: 0, allowed_groups: 0, denied_groups: 0, strict: false };

    /// Every lint finding an error, unless allowed by name or group.
    pub fn strict() -> LintPolicy {
        LintPolicy { strict: true, ..LintPolicy::default() }
    }

    /// Makes every lint finding an error, unless allowed by name or group.
    pub fn set_strict(&mut self, strict: bool) {
        self.strict = strict;
    }

    /// Whether [`LintPolicy::strict`] is set.
    pub fn is_strict(&self) -> bool {
        self.strict
    }

    /// Allows a lint code (`pgn:missing-move-number`) or a whole group
    /// (`pgn`, `san`): its findings are neither reported nor counted. In a
    /// group, error codes stay errors.
    ///
    /// # Errors
    ///
    /// An unknown code or group, an error code, or one already denied.
    pub fn allow(&mut self, spec: &str) -> Result<(), LintSpecError> {
        match named(spec)? {
            Named::Code(i) => {
                let (code, kind) = CODES[i];
                if kind == CodeKind::Error {
                    return Err(LintSpecError::NotALint { code });
                }
                if self.denied & (1 << i) != 0 {
                    return Err(LintSpecError::Conflict { spec: code.to_owned() });
                }
                self.allowed |= 1 << i;
            }
            Named::Group(g) => {
                if self.denied_groups & (1 << g) != 0 {
                    return Err(LintSpecError::Conflict { spec: GROUPS[g].to_owned() });
                }
                self.allowed_groups |= 1 << g;
            }
        }
        Ok(())
    }

    /// Denies a lint code or a whole group: its findings are errors.
    ///
    /// # Errors
    ///
    /// An unknown code or group, or one already allowed.
    pub fn deny(&mut self, spec: &str) -> Result<(), LintSpecError> {
        match named(spec)? {
            Named::Code(i) => {
                if self.allowed & (1 << i) != 0 {
                    return Err(LintSpecError::Conflict { spec: CODES[i].0.to_owned() });
                }
                self.denied |= 1 << i;
            }
            Named::Group(g) => {
                if self.allowed_groups & (1 << g) != 0 {
                    return Err(LintSpecError::Conflict { spec: GROUPS[g].to_owned() });
                }
                self.denied_groups |= 1 << g;
            }
        }
        Ok(())
    }

    /// A policy from `--allow` and `--deny` lists and `--strict`.
    ///
    /// # Errors
    ///
    /// The first spec that cannot be allowed or denied.
    pub fn from_lists<A: AsRef<str>, D: AsRef<str>>(
        allow: &[A],
        deny: &[D],
        strict: bool,
    ) -> Result<LintPolicy, LintSpecError> {
        let mut policy = LintPolicy { strict, ..LintPolicy::default() };
        for spec in allow {
            policy.allow(spec.as_ref())?;
        }
        for spec in deny {
            policy.deny(spec.as_ref())?;
        }
        Ok(policy)
    }

    /// What becomes of a finding with this code: errors are always
    /// [`Level::Deny`]; a lint code named itself takes its own level, then
    /// its group's, then [`Level::Deny`] when strict, else [`Level::Warn`].
    /// A code not in [`CODES`] is an error.
    pub fn level(&self, code: &str) -> Level {
        let Some(i) = index(code) else { return Level::Deny };
        if CODES[i].1 == CodeKind::Error {
            return Level::Deny;
        }
        self.lint_level(i, group_of(code))
    }

    fn lint_level(&self, i: usize, group: Option<usize>) -> Level {
        if self.allowed & (1 << i) != 0 {
            return Level::Allow;
        }
        if self.denied & (1 << i) != 0 {
            return Level::Deny;
        }
        if let Some(g) = group {
            if self.allowed_groups & (1 << g) != 0 {
                return Level::Allow;
            }
            if self.denied_groups & (1 << g) != 0 {
                return Level::Deny;
            }
        }
        if self.strict { Level::Deny } else { Level::Warn }
    }

    /// Whether some lint finding would be an error.
    pub fn denies_any(&self) -> bool {
        self.strict || self.denied != 0 || self.denied_groups != 0
    }

    /// Whether every lint finding is a warning (the default: nothing allowed
    /// or denied, not strict).
    pub fn is_default(&self) -> bool {
        *self == LintPolicy::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::IntoEnumIterator;

    #[test]
    fn codes_are_sorted_and_unique() {
        assert!(CODES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(CODES.iter().all(|(code, _)| group_of(code).is_some()));
    }

    #[test]
    fn spelling_and_move_lints_are_registered_as_lint() {
        for kind in crate::san::SanLintKind::iter() {
            assert_eq!(CODES[index(kind.code()).unwrap()].1, CodeKind::Lint, "{}", kind.code());
        }
        for lint in crate::resolve::MoveLint::iter() {
            assert_eq!(CODES[index(lint.code()).unwrap()].1, CodeKind::Lint, "{}", lint.code());
        }
    }

    /// Every `"pgn:..."` and `"san:..."` literal in the library's sources is a
    /// registered code, so a new finding kind cannot be left out of `--allow`.
    #[test]
    fn every_code_in_the_sources_is_registered() {
        fn walk(dir: &std::path::Path, found: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    if path.file_name().unwrap() != "cli" {
                        walk(&path, found);
                    }
                } else if path.extension().is_some_and(|e| e == "rs") && path.file_name().unwrap() != "lint.rs" {
                    let text = std::fs::read_to_string(&path).unwrap();
                    for group in GROUPS {
                        let opening = format!("\"{group}:");
                        for (at, _) in text.match_indices(&opening) {
                            let rest = &text[at + 1..];
                            let Some(end) = rest.find('"') else { continue };
                            let name = &rest[group.len() + 1..end];
                            if !name.is_empty()
                                && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                            {
                                found.push(rest[..end].to_owned());
                            }
                        }
                    }
                }
            }
        }
        let mut found = Vec::new();
        walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut found);
        found.sort();
        found.dedup();
        let missing: Vec<&String> = found.iter().filter(|code| index(code).is_none()).collect();
        assert!(missing.is_empty(), "codes missing from lint::CODES: {missing:?}");
        let unused: Vec<&str> =
            CODES.iter().map(|(code, _)| *code).filter(|code| !found.iter().any(|f| f == code)).collect();
        assert!(unused.is_empty(), "codes in lint::CODES that no finding has: {unused:?}");
    }

    #[test]
    fn levels_by_code_group_and_strictness() {
        let policy = LintPolicy::from_lists(&["pgn:missing-tags"], &["san"], false).unwrap();
        let levels: Vec<Level> = ["pgn:missing-tags", "pgn:move-number", "san:castling-zeros", "san:illegal"]
            .iter()
            .map(|code| policy.level(code))
            .collect();
        assert_eq!(levels, [Level::Allow, Level::Warn, Level::Deny, Level::Deny]);

        let strict = LintPolicy::from_lists(&["pgn:missing-tags"], &[] as &[&str], true).unwrap();
        assert_eq!(strict.level("pgn:missing-tags"), Level::Allow);
        assert_eq!(strict.level("pgn:move-number"), Level::Deny);

        // the code outweighs its group
        let policy = LintPolicy::from_lists(&["san"], &["san:missing-check"], false).unwrap();
        assert_eq!(policy.level("san:missing-check"), Level::Deny);
        assert_eq!(policy.level("san:spurious-check"), Level::Allow);
        assert_eq!(policy.level("san:ambiguous"), Level::Deny);
        assert!(LintPolicy::default().is_default());
        assert!(!policy.is_default());
    }

    #[test]
    fn refused_specs_say_why() {
        let messages: Vec<String> = [
            LintPolicy::default().allow("san:illegal"),
            LintPolicy::default().allow("pgn:missing-move-numbers"),
            LintPolicy::default().deny("missing-tags"),
            LintPolicy::default().deny("pgm"),
            LintPolicy::default().deny("zzz:qqq"),
            LintPolicy::from_lists(&["pgn"], &["pgn"], false).map(|_| ()),
            LintPolicy::from_lists(&["pgn:null-move"], &["pgn:null-move"], false).map(|_| ()),
        ]
        .into_iter()
        .map(|result| result.unwrap_err().to_string())
        .collect();
        assert_eq!(
            messages,
            [
                "`san:illegal` is an error, not a lint finding: it cannot be allowed",
                "unknown finding code `pgn:missing-move-numbers`; did you mean `pgn:missing-move-number`?",
                "unknown finding code `missing-tags`; did you mean `pgn:missing-tags`?",
                "unknown finding code `pgm`; did you mean `pgn`?",
                "unknown finding code `zzz:qqq`; codes start with `pgn:` or `san:`",
                "`pgn` is both allowed and denied",
                "`pgn:null-move` is both allowed and denied",
            ]
        );
    }

    #[test]
    fn a_group_may_be_written_with_its_colon() {
        let policy = LintPolicy::from_lists(&["pgn:"], &[] as &[&str], false).unwrap();
        assert_eq!(policy.level("pgn:null-move"), Level::Allow);
    }
}
