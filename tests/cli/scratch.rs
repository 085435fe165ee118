//! Scratch directories for the tests that write files.

use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A new directory of its own for one test, removed at the end.
pub struct Dir(pub PathBuf);

impl Dir {
    /// `$TMPDIR/sanfen-NAME-PID-N`, new and empty.
    pub fn new(name: &str) -> Dir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("sanfen-{name}-{}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir(&path).unwrap();
        Dir(path)
    }

    /// Writes a file in the directory: its path.
    pub fn file(&self, name: &str, content: &[u8]) -> String {
        let path = self.0.join(name);
        fs::write(&path, content).unwrap();
        path.to_string_lossy().into_owned()
    }

    /// The path of a name in the directory.
    pub fn path(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }

    /// The names in the directory, sorted (temporary files included).
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> =
            fs::read_dir(&self.0).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    /// The files named, read one after another.
    pub fn concat(&self, names: &[String]) -> Vec<u8> {
        names.iter().flat_map(|name| fs::read(self.0.join(name)).unwrap()).collect()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}
