//! The process exit codes, in one place.

/// How a run ended, as the process exit code.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExitCode {
    /// 0: every input was valid (warnings allowed).
    Valid,
    /// 1: at least one input was invalid.
    Invalid,
    /// 2: a usage error or an I/O error.
    Failure,
}

impl ExitCode {
    /// The numeric code.
    pub const fn code(self) -> u8 {
        match self {
            ExitCode::Valid => 0,
            ExitCode::Invalid => 1,
            ExitCode::Failure => 2,
        }
    }

    /// `Invalid` when `valid` is false, else `self`: folds one input's verdict in.
    pub fn and_valid(self, valid: bool) -> ExitCode {
        if valid { self } else { ExitCode::Invalid }
    }
}

impl From<ExitCode> for std::process::ExitCode {
    fn from(code: ExitCode) -> std::process::ExitCode {
        std::process::ExitCode::from(code.code())
    }
}
