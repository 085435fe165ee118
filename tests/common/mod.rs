//! What the PGN tests share: where the data files are.

use std::path::{Path, PathBuf};

/// `../shared/data/pgn`, beside the repository.
pub fn pgn_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pgn")
}

/// Every file under [`pgn_root`] (PGN, and scalachess's `.txt` PGN), relative
/// to it, sorted.
pub fn pgn_files() -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("../shared/data beside the repository") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "pgn" || e == "txt") {
                out.push(path.strip_prefix(root).expect("under the root").to_string_lossy().into_owned());
            }
        }
    }
    let root = pgn_root();
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    out.sort();
    out
}
