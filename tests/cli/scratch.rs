//! Scratch directories for the tests that write files, and the extended
//! attributes of files.

use std::fs;
use std::path::{Path, PathBuf};
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

// ---- extended attributes ----

/// The extended attributes of `path` (without following a link), name and
/// value, sorted by name.
pub fn attributes(path: &Path) -> Vec<(String, Vec<u8>)> {
    let mut names = vec![0; 4096];
    let size = rustix::fs::llistxattr(path, &mut names[..]).unwrap();
    let mut attributes: Vec<(String, Vec<u8>)> = names[..size]
        .split(|&byte| byte == 0)
        .filter(|name| !name.is_empty())
        .map(|name| {
            let mut value = vec![0; 4096];
            let size = rustix::fs::lgetxattr(path, name, &mut value[..]).unwrap();
            value.truncate(size);
            (String::from_utf8(name.to_vec()).unwrap(), value)
        })
        .collect();
    attributes.sort();
    attributes
}

pub fn set_attribute(path: &Path, name: &str, value: &[u8]) -> rustix::io::Result<()> {
    rustix::fs::setxattr(path, name, value, rustix::fs::XattrFlags::empty())
}

/// A POSIX ACL as the kernel stores it (`system.posix_acl_access` and
/// `_default`): its owner, the user 1234, its group, the mask and the
/// others, with these permissions (bits 4, 2, 1: read, write, execute).
pub fn acl(owner: u16, user: u16, group: u16, mask: u16, other: u16) -> Vec<u8> {
    let mut acl = 2u32.to_le_bytes().to_vec();
    for (tag, permissions, id) in [
        (1u16, owner, u32::MAX),
        (2, user, 1234),
        (4, group, u32::MAX),
        (0x10, mask, u32::MAX),
        (0x20, other, u32::MAX),
    ] {
        acl.extend(tag.to_le_bytes());
        acl.extend(permissions.to_le_bytes());
        acl.extend(id.to_le_bytes());
    }
    acl
}

/// `security.capability` giving `CAP_NET_BIND_SERVICE` (version 2).
pub const CAPABILITY: [u8; 20] = [1, 0, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
