//! `sanfen fmt --in-place` and `sanfen fmt --check` on real files: what a
//! rewritten file keeps (owner, group, mode, kind, hard and symbolic links,
//! extended attributes),
//! what is refused (and left exactly as it was), long names, signals during a
//! long run, and the exit codes and output of `--check`.
//!
//! Tests whose name starts with `as_root_` need root (to give files to
//! another user); `as_root_and_nobody_` also needs `setpriv` to run sanfen as
//! the user 65534. Run without them, they say on standard error why they are
//! skipped and pass.

use std::fs;
use std::io::Write;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::sleep;
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin_cmd;

use crate::scratch::{CAPABILITY, acl, attributes, set_attribute};

const SMALL: &str = "[White \"A\"]\n1. e4 e5 2. Ng1f3 0-1\n";
const SMALL_FORMATTED: &str = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A\"]\n\
                               [Black \"?\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Nf3 0-1\n";
const BAD: &str = "1. e4 e5 2. Ke3 *\n";
/// Why `2. Ke3` after `1. e4 e5` is illegal.
const KE3: &str = "illegal: no king can move to e3; did you mean Ke2?";
/// The user and group the files of other users belong to.
const NOBODY: u32 = 65534;

fn sanfen(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("sanfen");
    cmd.args(args).env_remove("NO_COLOR").timeout(Duration::from_secs(120));
    cmd
}

/// A new directory of its own for one test, removed at the end (mode 0755,
/// so another user can reach what is in it).
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("sanfen-fmt-files-{}-{n}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir(&path).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        Dir(path)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    fn write(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.path(name);
        fs::write(&path, contents).unwrap();
        path
    }

    /// The names in the directory, sorted (temporary files included).
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(&self.0)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn text(path: &Path) -> String {
    fs::read_to_string(path).unwrap()
}

/// Owner, group and mode (with the set-user-ID, set-group-ID and sticky bits).
fn owner_and_mode(path: &Path) -> (u32, u32, u32) {
    let metadata = fs::symlink_metadata(path).unwrap();
    (metadata.uid(), metadata.gid(), metadata.mode() & 0o7777)
}

fn set_mode(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

fn is_root() -> bool {
    fs::metadata("/proc/self").map(|m| m.uid() == 0).unwrap_or(false)
}

/// Whether a test that needs root can run; if not, says why on stderr.
fn root_or_skip(test: &str) -> bool {
    let root = is_root();
    if !root {
        eprintln!("{test}: skipped: needs root, to give files to user {NOBODY}");
    }
    root
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

// ---- owner, group and mode ---------------------------------------------------------------

#[test]
fn as_root_in_place_keeps_the_owner_and_group_of_another_users_file() {
    if !root_or_skip("as_root_in_place_keeps_the_owner_and_group_of_another_users_file") {
        return;
    }
    let dir = Dir::new("owner");
    let path = dir.write("games.pgn", SMALL);
    std::os::unix::fs::chown(&path, Some(NOBODY), Some(NOBODY)).unwrap();
    set_mode(&path, 0o600);
    sanfen(&["fmt", "--in-place", path_str(&path)]).assert().code(0).stdout("").stderr("");
    assert_eq!(text(&path), SMALL_FORMATTED);
    assert_eq!(owner_and_mode(&path), (NOBODY, NOBODY, 0o600));
    // another group than the owner's, and a mode with every kind of bit
    std::os::unix::fs::chown(&path, Some(NOBODY), Some(0)).unwrap();
    set_mode(&path, 0o1664);
    fs::write(&path, SMALL).unwrap();
    sanfen(&["fmt", "--in-place", path_str(&path)]).assert().code(0).stdout("").stderr("");
    assert_eq!(text(&path), SMALL_FORMATTED);
    assert_eq!(owner_and_mode(&path), (NOBODY, 0, 0o1664));
    assert_eq!(dir.names(), ["games.pgn"]);
}

/// Regression: the rewritten file was created by root with only the mode
/// copied, so another user's set-user-ID file came back owned by root and
/// set-user-ID.
#[test]
fn as_root_in_place_setuid_file_of_another_user_never_becomes_root_setuid() {
    if !root_or_skip("as_root_in_place_setuid_file_of_another_user_never_becomes_root_setuid") {
        return;
    }
    let dir = Dir::new("setuid");
    for mode in [0o4755, 0o2755, 0o6775] {
        let path = dir.write("games.pgn", SMALL);
        std::os::unix::fs::chown(&path, Some(NOBODY), Some(NOBODY)).unwrap();
        set_mode(&path, mode);
        sanfen(&["fmt", "--in-place", path_str(&path)]).assert().code(0).stdout("").stderr("");
        assert_eq!(text(&path), SMALL_FORMATTED);
        assert_eq!(owner_and_mode(&path), (NOBODY, NOBODY, mode), "mode {mode:o}");
        fs::remove_file(&path).unwrap();
    }
}

/// sanfen, runnable by the user 65534 (a copy in `dir`), and a directory
/// `shared` in `dir` that user owns; `None` when the test named `test`
/// cannot run (it says why on stderr).
fn sanfen_for_nobody(dir: &Dir, test: &str) -> Option<(PathBuf, PathBuf)> {
    let why = if !is_root() {
        format!("needs root, to run sanfen as user {NOBODY}")
    } else if !Command::new("setpriv")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
    {
        "needs setpriv (util-linux), to run sanfen as another user".to_owned()
    } else {
        let binary = dir.path("sanfen");
        fs::copy(env!("CARGO_BIN_EXE_sanfen"), &binary).unwrap();
        set_mode(&binary, 0o755);
        let shared = dir.path("shared");
        fs::create_dir(&shared).unwrap();
        std::os::unix::fs::chown(&shared, Some(NOBODY), Some(NOBODY)).unwrap();
        return Some((binary, shared));
    };
    eprintln!("{test}: skipped: {why}");
    None
}

/// `sanfen fmt --in-place FILE` run as user and group 65534, with no other
/// group.
fn fmt_as_nobody(binary: &Path, file: &Path) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::new("setpriv");
    cmd.args([&format!("--reuid={NOBODY}"), &format!("--regid={NOBODY}"), "--clear-groups"])
        .arg(binary)
        .args(["fmt", "--in-place"])
        .arg(file)
        .timeout(Duration::from_secs(120));
    cmd
}

/// A user other than root may write a file another user owns (through its
/// group) but cannot give the rewritten file that owner: the file is refused
/// and never changes owner, so it never becomes set-user-ID or set-group-ID
/// for the user who ran sanfen. With hard links it is written through, the
/// owner and mode kept, unless writing would clear set-user-ID or
/// set-group-ID. Skipped (said on stderr) without root or setpriv.
#[test]
fn as_root_and_nobody_in_place_by_another_user_never_gains_setuid_or_setgid() {
    let dir = Dir::new("nobody");
    // a directory user 65534 may write in, a file of user 1000 that group
    // 65534 may write
    let Some((binary, shared)) =
        sanfen_for_nobody(&dir, "as_root_and_nobody_in_place_by_another_user_never_gains_setuid_or_setgid")
    else {
        return;
    };
    let path = shared.join("games.pgn");
    let name = path_str(&path);
    for mode in [0o6775, 0o4775, 0o2775, 0o0664] {
        fs::write(&path, SMALL).unwrap();
        std::os::unix::fs::chown(&path, Some(1000), Some(NOBODY)).unwrap();
        set_mode(&path, mode);
        fmt_as_nobody(&binary, &path).assert().code(2).stdout("").stderr(format!(
            "sanfen: {name}: its owner 1000:{NOBODY} cannot be given to the rewritten file (Operation not permitted \
             (os error 1)): not rewritten\n"
        ));
        assert_eq!(text(&path), SMALL);
        assert_eq!(owner_and_mode(&path), (1000, NOBODY, mode), "mode {mode:o}");
    }
    assert_eq!(fs::read_dir(&shared).unwrap().count(), 1);

    // with a hard link: written through, owner, group and mode kept
    let link = shared.join("link.pgn");
    fs::hard_link(&path, &link).unwrap();
    fmt_as_nobody(&binary, &path).assert().code(0).stdout("").stderr("");
    assert_eq!(text(&path), SMALL_FORMATTED);
    assert_eq!(text(&link), SMALL_FORMATTED);
    assert_eq!(fs::metadata(&path).unwrap().ino(), fs::metadata(&link).unwrap().ino());
    assert_eq!(owner_and_mode(&path), (1000, NOBODY, 0o664));
    // a set-group-ID file with a hard link: writing it would clear the bit
    fs::write(&path, SMALL).unwrap();
    set_mode(&path, 0o2775);
    fmt_as_nobody(&binary, &path).assert().code(2).stdout("").stderr(format!(
        "sanfen: {name}: set-user-ID or set-group-ID (mode 2775) with hard links: writing it as a user other than \
         its owner would clear those bits: not rewritten\n"
    ));
    assert_eq!(text(&path), SMALL);
    assert_eq!(owner_and_mode(&path), (1000, NOBODY, 0o2775));
    fs::remove_file(&link).unwrap();

    // a file the user may not write
    set_mode(&path, 0o644);
    fmt_as_nobody(&binary, &path)
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!("sanfen: {name}: not writable by this user (mode 0644, owner 1000:{NOBODY}): not rewritten\n"));
    assert_eq!(text(&path), SMALL);

    // the user's own set-user-ID file, alone and with a hard link: writing
    // clears the bit, the owner gives it back
    std::os::unix::fs::chown(&path, Some(NOBODY), Some(NOBODY)).unwrap();
    set_mode(&path, 0o4755);
    fmt_as_nobody(&binary, &path).assert().code(0).stdout("").stderr("");
    assert_eq!(text(&path), SMALL_FORMATTED);
    assert_eq!(owner_and_mode(&path), (NOBODY, NOBODY, 0o4755));
    fs::write(&path, SMALL).unwrap();
    fs::hard_link(&path, &link).unwrap();
    fmt_as_nobody(&binary, &path).assert().code(0).stdout("").stderr("");
    assert_eq!(text(&link), SMALL_FORMATTED);
    assert_eq!(owner_and_mode(&path), (NOBODY, NOBODY, 0o4755));
    fs::remove_file(&link).unwrap();

    // a directory the user may not create the temporary file in: an I/O
    // error, the file as it was
    let closed = dir.path("closed");
    fs::create_dir(&closed).unwrap();
    let path = closed.join("games.pgn");
    fs::write(&path, SMALL).unwrap();
    std::os::unix::fs::chown(&path, Some(NOBODY), Some(NOBODY)).unwrap();
    fmt_as_nobody(&binary, &path).assert().code(2).stdout("").stderr(format!(
        "sanfen: {}: cannot create a temporary file beside it: Permission denied (os error 13)\n",
        path_str(&path)
    ));
    assert_eq!(text(&path), SMALL);
    assert_eq!(fs::read_dir(&closed).unwrap().count(), 1);
}

// ---- extended attributes -----------------------------------------------------------------

/// A file replaced by its rewritten text keeps every extended attribute:
/// `user.`, `trusted.`, its ACL, its capability (which writing removes). A
/// file with hard links, written through, keeps them too, its capability
/// given back. Regression: a replaced file lost them all. Skipped (said on
/// stderr) without root or where the file system has no extended
/// attributes.
#[test]
fn as_root_in_place_keeps_extended_attributes() {
    if !root_or_skip("as_root_in_place_keeps_extended_attributes") {
        return;
    }
    let dir = Dir::new("attributes");
    let path = dir.write("games.pgn", SMALL);
    if let Err(err) = set_attribute(&path, "user.origin", b"lichess") {
        eprintln!("as_root_in_place_keeps_extended_attributes: skipped: no extended attributes here ({err})");
        return;
    }
    set_attribute(&path, "trusted.note", b"\x00\xffbytes").unwrap();
    set_attribute(&path, "system.posix_acl_access", &acl(6, 4, 4, 4, 4)).unwrap();
    set_attribute(&path, "security.capability", &CAPABILITY).unwrap();
    let before = attributes(&path);
    assert_eq!(before.len(), 4);
    let inode = fs::metadata(&path).unwrap().ino();
    sanfen(&["fmt", "--in-place", path_str(&path)]).assert().code(0).stdout("").stderr("");
    assert_eq!(text(&path), SMALL_FORMATTED);
    assert_ne!(fs::metadata(&path).unwrap().ino(), inode, "renamed over");
    assert_eq!(attributes(&path), before);
    assert_eq!(owner_and_mode(&path), (0, 0, 0o644));

    // written through
    fs::write(&path, SMALL).unwrap();
    set_attribute(&path, "security.capability", &CAPABILITY).unwrap();
    let link = dir.path("link.pgn");
    fs::hard_link(&path, &link).unwrap();
    let inode = fs::metadata(&path).unwrap().ino();
    sanfen(&["fmt", "--in-place", path_str(&path)]).assert().code(0).stdout("").stderr("");
    assert_eq!(text(&link), SMALL_FORMATTED);
    assert_eq!(fs::metadata(&path).unwrap().ino(), inode, "written through");
    assert_eq!(attributes(&path), before);
    assert_eq!(dir.names(), ["games.pgn", "link.pgn"]);
}

/// A directory's default ACL gives the temporary file an ACL of its own: a
/// file without one gets none. Skipped (said on stderr) where the file
/// system has no ACLs.
#[test]
fn in_place_gives_no_acl_to_a_file_without_one() {
    let dir = Dir::new("default-acl");
    let path = dir.write("games.pgn", SMALL);
    let before = attributes(&path);
    if let Err(err) = set_attribute(&dir.0, "system.posix_acl_default", &acl(6, 6, 4, 6, 4)) {
        eprintln!("in_place_gives_no_acl_to_a_file_without_one: skipped: no ACLs here ({err})");
        return;
    }
    // what a file made in the directory gets
    let made = dir.write("made.pgn", "");
    assert_eq!(
        attributes(&made).iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>(),
        ["system.posix_acl_access"]
    );
    fs::remove_file(&made).unwrap();
    sanfen(&["fmt", "--in-place", path_str(&path)]).assert().code(0).stdout("").stderr("");
    assert_eq!(text(&path), SMALL_FORMATTED);
    assert_eq!(attributes(&path), before);
}

/// A user who may not give the rewritten file an extended attribute of the
/// original (a capability, without `CAP_SETFCAP`) is refused: the file is
/// left as it was, and no temporary file. Skipped (said on stderr) without
/// root or setpriv, or where the file system has no extended attributes.
#[test]
fn as_root_and_nobody_in_place_refuses_a_file_whose_capability_cannot_be_kept() {
    let dir = Dir::new("capability");
    let Some((binary, shared)) =
        sanfen_for_nobody(&dir, "as_root_and_nobody_in_place_refuses_a_file_whose_capability_cannot_be_kept")
    else {
        return;
    };
    let path = shared.join("games.pgn");
    fs::write(&path, SMALL).unwrap();
    std::os::unix::fs::chown(&path, Some(NOBODY), Some(NOBODY)).unwrap();
    if let Err(err) = set_attribute(&path, "security.capability", &CAPABILITY) {
        eprintln!("as_root_and_nobody_in_place_refuses_a_file_whose_capability_cannot_be_kept: skipped: ({err})");
        return;
    }
    set_attribute(&path, "user.origin", b"lichess").unwrap();
    let before = attributes(&path);
    fmt_as_nobody(&binary, &path).assert().code(2).stdout("").stderr(format!(
        "sanfen: {}: its extended attribute security.capability cannot be kept (Operation not permitted (os \
         error 1)): not rewritten\n",
        path_str(&path)
    ));
    assert_eq!(text(&path), SMALL);
    assert_eq!(attributes(&path), before);
    assert_eq!(fs::read_dir(&shared).unwrap().count(), 1);
}

/// Regression: a new file replacing the user's own write-only file (mode
/// 0200) was refused, its attributes read through a descriptor opened for
/// reading. Skipped (said on stderr) without root or setpriv.
#[test]
fn as_root_and_nobody_an_output_replaces_the_users_own_write_only_file() {
    let dir = Dir::new("write-only");
    let Some((binary, shared)) =
        sanfen_for_nobody(&dir, "as_root_and_nobody_an_output_replaces_the_users_own_write_only_file")
    else {
        return;
    };
    let input = shared.join("games.pgn");
    fs::write(&input, SMALL).unwrap();
    let output = shared.join("games.jsonl");
    fs::write(&output, "old\n").unwrap();
    for path in [&input, &output] {
        std::os::unix::fs::chown(path, Some(NOBODY), Some(NOBODY)).unwrap();
    }
    set_mode(&output, 0o200);
    let mut cmd = assert_cmd::Command::new("setpriv");
    cmd.args([&format!("--reuid={NOBODY}"), &format!("--regid={NOBODY}"), "--clear-groups"])
        .arg(&binary)
        .args(["export", "--table", "moves", "-o"])
        .args([&output, &input])
        .timeout(Duration::from_secs(120));
    cmd.assert().code(0).stdout("").stderr("");
    let expected = sanfen(&["export", "--table", "moves", "--format", "jsonl", path_str(&input)])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert_eq!(fs::read(&output).unwrap(), expected);
    assert_eq!(String::from_utf8_lossy(&expected).lines().count(), 3);
    assert_eq!(owner_and_mode(&output), (NOBODY, NOBODY, 0o200));
    assert_eq!(fs::read_dir(&shared).unwrap().count(), 2);
}

// ---- what is refused ---------------------------------------------------------------------

/// Regression: a read-only file was rewritten (the rename needs only the
/// directory's permission, and root passes every permission check).
#[test]
fn in_place_refuses_a_read_only_file() {
    let dir = Dir::new("read-only");
    let path = dir.write("games.pgn", SMALL);
    for mode in [0o444, 0o400, 0o4555] {
        set_mode(&path, mode);
        sanfen(&["fmt", "--in-place", path_str(&path)])
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!("sanfen: {}: read-only (mode {mode:04o}): not rewritten\n", path_str(&path)));
        assert_eq!(text(&path), SMALL);
        assert_eq!(owner_and_mode(&path).2, mode);
    }
    assert_eq!(dir.names(), ["games.pgn"]);
}

/// Regression: a FIFO named `x.pgn` was opened (blocking until a writer
/// came) and replaced by a regular file. It is refused before it is opened.
#[test]
fn in_place_refuses_a_fifo_without_opening_it() {
    let dir = Dir::new("fifo");
    let path = dir.path("x.pgn");
    assert!(Command::new("mkfifo").arg(&path).status().unwrap().success());
    // the timeout ends a run that blocks opening the FIFO, and fails the test
    sanfen(&["fmt", "--in-place", path_str(&path)])
        .timeout(Duration::from_secs(20))
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!("sanfen: {}: a FIFO, not a regular file: not rewritten\n", path_str(&path)));
    assert!(fs::symlink_metadata(&path).unwrap().file_type().is_fifo());
    assert_eq!(dir.names(), ["x.pgn"]);
}

/// Regression: a device named `x.pgn` was replaced by a regular file. A
/// device node and a symbolic link to one are refused. As root the node is
/// one the test makes (mknod), so that a regression replaces no device of
/// the system; otherwise the link goes to `/dev/null`, which a user other
/// than root cannot replace.
#[test]
fn in_place_refuses_a_character_device() {
    let dir = Dir::new("device");
    let link = dir.path("x.pgn");
    let device = if is_root() {
        let node = dir.path("node.pgn");
        assert!(Command::new("mknod").arg(&node).args(["c", "1", "3"]).status().unwrap().success());
        sanfen(&["fmt", "--in-place", path_str(&node)])
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!("sanfen: {}: a character device, not a regular file: not rewritten\n", path_str(&node)));
        assert!(fs::symlink_metadata(&node).unwrap().file_type().is_char_device());
        node
    } else {
        eprintln!("in_place_refuses_a_character_device: device node part skipped: mknod needs root");
        PathBuf::from("/dev/null")
    };
    std::os::unix::fs::symlink(&device, &link).unwrap();
    sanfen(&["fmt", "--in-place", path_str(&link)])
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!("sanfen: {}: a character device, not a regular file: not rewritten\n", path_str(&link)));
    assert_eq!(fs::read_link(&link).unwrap(), device);
    assert!(fs::metadata(&device).unwrap().file_type().is_char_device());
}

#[test]
fn in_place_refuses_a_directory_and_a_socket_and_goes_on_with_the_next_file() {
    let dir = Dir::new("kinds");
    let directory = dir.path("d.pgn");
    fs::create_dir(&directory).unwrap();
    let socket = dir.path("s.pgn");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let path = dir.write("games.pgn", SMALL);
    sanfen(&["fmt", "--in-place", path_str(&directory), path_str(&socket), path_str(&path)])
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "sanfen: {}: a directory, not a regular file: not rewritten\n\
             sanfen: {}: a socket, not a regular file: not rewritten\n",
            path_str(&directory),
            path_str(&socket)
        ));
    assert_eq!(text(&path), SMALL_FORMATTED);
    assert_eq!(dir.names(), ["d.pgn", "games.pgn", "s.pgn"]);
}

// ---- links and names ---------------------------------------------------------------------

/// Regression: hard links were split (the rename gave one name a new file).
#[test]
fn in_place_keeps_hard_links() {
    let dir = Dir::new("hard-link");
    let path = dir.write("games.pgn", format!("{SMALL}\n{SMALL}\n{SMALL}").as_str());
    let link = dir.path("link.pgn");
    fs::hard_link(&path, &link).unwrap();
    set_mode(&path, 0o640);
    let inode = fs::metadata(&path).unwrap().ino();
    sanfen(&["fmt", "--in-place", path_str(&link)]).assert().code(0).stdout("").stderr("");
    let expected = format!("{SMALL_FORMATTED}\n{SMALL_FORMATTED}\n{SMALL_FORMATTED}");
    assert_eq!(text(&path), expected);
    assert_eq!(text(&link), expected);
    for name in [&path, &link] {
        let metadata = fs::metadata(name).unwrap();
        assert_eq!((metadata.ino(), metadata.nlink(), metadata.mode() & 0o7777), (inode, 2, 0o640));
    }
    // shorter than before: the file is cut to the new length; a bad game is
    // kept as it was
    let long = format!("{BAD}\n{}", " ".repeat(4000));
    fs::write(&path, &long).unwrap();
    sanfen(&["fmt", "--in-place", path_str(&path)])
        .assert()
        .code(1)
        .stdout("")
        .stderr(format!("{}:1:13: game 1: 2. Ke3: {KE3} (game written unchanged)\n", path_str(&path)));
    assert_eq!(text(&link), BAD);
    assert_eq!(fs::metadata(&link).unwrap().ino(), inode);
    assert_eq!(dir.names(), ["games.pgn", "link.pgn"]);
}

#[test]
fn in_place_follows_symbolic_links_and_keeps_them() {
    let dir = Dir::new("symlink");
    fs::create_dir(dir.path("real")).unwrap();
    let target = dir.write("real/games.pgn", SMALL);
    // a chain: relative link to a link to the file
    std::os::unix::fs::symlink(&target, dir.path("first.pgn")).unwrap();
    std::os::unix::fs::symlink("first.pgn", dir.path("second.pgn")).unwrap();
    let second = dir.path("second.pgn");
    sanfen(&["fmt", "--in-place", path_str(&second)]).assert().code(0).stdout("").stderr("");
    assert_eq!(text(&target), SMALL_FORMATTED);
    assert_eq!(fs::read_link(&second).unwrap(), Path::new("first.pgn"));
    assert_eq!(fs::read_link(dir.path("first.pgn")).unwrap(), target);
    // the temporary file was beside the target, and is gone
    assert_eq!(dir.names(), ["first.pgn", "real", "second.pgn"]);
    assert_eq!(fs::read_dir(dir.path("real")).unwrap().count(), 1);
    // a link to a compressed file is refused as the file is
    let compressed = dir.write("real/games.pgn.gz", "");
    std::os::unix::fs::symlink(&compressed, dir.path("z.pgn")).unwrap();
    sanfen(&["fmt", "--in-place", path_str(&dir.path("z.pgn"))])
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!("sanfen: fmt --in-place cannot rewrite a compressed file: {}\n", path_str(&dir.path("z.pgn"))));
    assert_eq!(fs::read_dir(dir.path("real")).unwrap().count(), 2);
}

/// A file whose text would not change is not replaced: same inode, same
/// modification time (a game with an error counts as unchanged text).
#[test]
fn in_place_leaves_a_file_that_would_not_change_untouched() {
    let dir = Dir::new("unchanged");
    for contents in [SMALL_FORMATTED, BAD, ""] {
        let path = dir.write("games.pgn", contents);
        let old = std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
        fs::File::options().write(true).open(&path).unwrap().set_modified(old).unwrap();
        let before = fs::metadata(&path).unwrap();
        let code = if contents == BAD { 1 } else { 0 };
        sanfen(&["fmt", "--in-place", path_str(&path)]).assert().code(code).stdout("");
        let after = fs::metadata(&path).unwrap();
        assert_eq!((after.ino(), after.modified().unwrap()), (before.ino(), old), "{contents:?}");
        assert_eq!(text(&path), contents);
        assert_eq!(dir.names(), ["games.pgn"]);
    }
}

/// Regression: the temporary name held the whole file name, so a name near
/// 255 bytes (NAME_MAX) failed.
#[test]
fn in_place_works_with_a_255_byte_file_name() {
    let dir = Dir::new("long-name");
    let name = format!("{}.pgn", "g".repeat(251));
    assert_eq!(name.len(), 255);
    let path = dir.write(&name, SMALL);
    sanfen(&["fmt", "--in-place", path_str(&path)]).assert().code(0).stdout("").stderr("");
    assert_eq!(text(&path), SMALL_FORMATTED);
    assert_eq!(dir.names(), [name]);
}

// ---- a long run: signals, changes ---------------------------------------------------------

/// About 200 MB of real games (a TCEC match, repeated) in `dir`: long
/// enough to format (seconds) that a signal or a change arrives mid-run.
fn write_large_pgn(dir: &Dir) -> PathBuf {
    let games =
        fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pgn/tcec/TCEC_Season_1_-_Elite-Match.pgn"))
            .expect("../shared/data beside the repository");
    let path = dir.path("large.pgn");
    let mut file = std::io::BufWriter::new(fs::File::create(&path).unwrap());
    let mut written = 0;
    while written < 200_000_000 {
        file.write_all(&games).unwrap();
        file.write_all(b"\n").unwrap();
        written += games.len() + 1;
    }
    file.flush().unwrap();
    path
}

/// Starts `sanfen fmt --in-place` on a copy of `large` in `dir`, its
/// standard error piped, and waits for its temporary file to appear.
fn start_long_run(dir: &Dir, large: &Path) -> (std::process::Child, PathBuf, fs::Metadata) {
    start_long_run_with(dir, large, Stdio::piped())
}

/// [`start_long_run`], standard error going to `stderr`.
fn start_long_run_with(dir: &Dir, large: &Path, stderr: Stdio) -> (std::process::Child, PathBuf, fs::Metadata) {
    let path = dir.path("large.pgn");
    fs::copy(large, &path).unwrap();
    let before = fs::metadata(&path).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sanfen"))
        .args(["fmt", "--in-place"])
        .arg(&path)
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !dir.names().iter().any(|name| name.starts_with(".sanfen-fmt-")) {
        if start.elapsed() > Duration::from_secs(60) || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            panic!("no temporary file while sanfen ran: {:?}", child.wait_with_output().unwrap());
        }
        sleep(Duration::from_millis(5));
    }
    (child, path, before)
}

/// Regression: an interrupted run left a hidden temporary file of hundreds
/// of MB behind.
#[test]
fn sigterm_and_sigint_during_a_run_leave_no_temporary_file() {
    let source = Dir::new("signals-source");
    let large = write_large_pgn(&source);
    let dir = Dir::new("signals");
    for (signal, code) in [("TERM", 143), ("INT", 130), ("HUP", 129)] {
        let (child, path, before) = start_long_run(&dir, &large);
        // some text is in the temporary file by now
        sleep(Duration::from_millis(100));
        assert!(Command::new("kill").arg(format!("-{signal}")).arg(child.id().to_string()).status().unwrap().success());
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(code), "SIG{signal}: {output:?}");
        // which file, and in what state
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            format!("sanfen: {}: interrupted (SIG{signal}): left as it was\n", path_str(&path)),
            "SIG{signal}"
        );
        assert_eq!(dir.names(), ["large.pgn"], "SIG{signal}");
        // the original is untouched: same file, size and modification time
        let after = fs::metadata(&path).unwrap();
        assert_eq!((after.ino(), after.len(), after.mtime_nsec()), (before.ino(), before.len(), before.mtime_nsec()));
        fs::remove_file(&path).unwrap();
    }
}

/// Regression: the signal's message, written to a standard error that
/// takes nothing (a pipe full, its reader stopped), kept the process alive
/// for as long. It ends all the same (the message lost), its temporary file
/// removed and the file as it was.
#[test]
fn a_signal_ends_the_run_though_standard_error_takes_nothing() {
    use rustix::fs::{OFlags, fcntl_setfl};
    let source = Dir::new("full-stderr-source");
    let large = write_large_pgn(&source);
    let dir = Dir::new("full-stderr");
    let (_reader, mut writer) = std::io::pipe().unwrap();
    fcntl_setfl(&writer, OFlags::NONBLOCK).unwrap();
    while writer.write(&[b'x'; 4096]).is_ok() {}
    fcntl_setfl(&writer, OFlags::empty()).unwrap();
    let (mut child, path, before) = start_long_run_with(&dir, &large, Stdio::from(writer));
    assert!(Command::new("kill").arg("-INT").arg(child.id().to_string()).status().unwrap().success());
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("still running 30 s after SIGINT");
        }
        sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(130));
    assert_eq!(dir.names(), ["large.pgn"]);
    let after = fs::metadata(&path).unwrap();
    assert_eq!((after.ino(), after.len(), after.mtime_nsec()), (before.ino(), before.len(), before.mtime_nsec()));
}

/// A file written to while it is formatted is left with what was written,
/// and reported.
#[test]
fn in_place_leaves_a_file_that_changes_while_it_is_formatted() {
    let source = Dir::new("changed-source");
    let large = write_large_pgn(&source);
    let dir = Dir::new("changed");
    let (child, path, before) = start_long_run(&dir, &large);
    fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(SMALL.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!("sanfen: {}: changed while it was being rewritten: not rewritten\n", path_str(&path))
    );
    assert_eq!(dir.names(), ["large.pgn"]);
    let after = fs::metadata(&path).unwrap();
    assert_eq!((after.ino(), after.len()), (before.ino(), before.len() + SMALL.len() as u64));
}

// ---- --check -----------------------------------------------------------------------------

#[test]
fn check_names_the_inputs_that_would_change_and_writes_nothing() {
    let dir = Dir::new("check");
    let changes = dir.write("changes.pgn", SMALL);
    let canonical = dir.write("canonical.pgn", SMALL_FORMATTED);
    let (changes, canonical) = (path_str(&changes), path_str(&canonical));
    sanfen(&["fmt", "--check", canonical]).assert().code(0).stdout("").stderr("");
    sanfen(&["fmt", "--check", changes, canonical, changes])
        .assert()
        .code(1)
        .stdout(format!("would reformat {changes}\nwould reformat {changes}\n"))
        .stderr("");
    assert_eq!(text(Path::new(changes)), SMALL);
    assert_eq!(dir.names(), ["canonical.pgn", "changes.pgn"]);
    // standard input
    sanfen(&["fmt", "--check"]).write_stdin(SMALL).assert().code(1).stdout("would reformat <stdin>\n").stderr("");
    sanfen(&["fmt", "--check", "-"]).write_stdin(SMALL_FORMATTED).assert().code(0).stdout("").stderr("");
    sanfen(&["fmt", "--check"]).write_stdin("").assert().code(0).stdout("").stderr("");
    // only a trailing difference, or a missing one
    sanfen(&["fmt", "--check"])
        .write_stdin(format!("{SMALL_FORMATTED}\n"))
        .assert()
        .code(1)
        .stdout("would reformat <stdin>\n");
    sanfen(&["fmt", "--check"])
        .write_stdin(SMALL_FORMATTED.trim_end())
        .assert()
        .code(1)
        .stdout("would reformat <stdin>\n");
}

#[test]
fn check_still_reports_games_written_unchanged() {
    // a file whose only game has an error would not change, but is invalid
    sanfen(&["fmt", "--check"])
        .write_stdin(BAD)
        .assert()
        .code(1)
        .stdout("")
        .stderr(format!("<stdin>:1:13: game 1: 2. Ke3: {KE3} (game written unchanged)\n"));
    sanfen(&["fmt", "--check"])
        .write_stdin(format!("{BAD}\n{SMALL}"))
        .assert()
        .code(1)
        .stdout("would reformat <stdin>\n")
        .stderr(format!("<stdin>:1:13: game 1: 2. Ke3: {KE3} (game written unchanged)\n"));
}

#[test]
fn check_of_a_missing_file_is_an_io_error_and_goes_on() {
    let dir = Dir::new("check-missing");
    let changes = dir.write("changes.pgn", SMALL);
    sanfen(&["fmt", "--check", "/nonexistent/games.pgn", path_str(&changes)])
        .assert()
        .code(2)
        .stdout(format!("would reformat {}\n", path_str(&changes)))
        .stderr("sanfen: /nonexistent/games.pgn: No such file or directory (os error 2)\n");
}

#[test]
fn check_with_in_place_is_a_usage_error() {
    let dir = Dir::new("check-in-place");
    let path = dir.write("games.pgn", SMALL);
    sanfen(&["fmt", "--check", "--in-place", path_str(&path)]).assert().code(2).stdout("").stderr(
        "error: the argument '--check' cannot be used with '--in-place'\n\n\
         Usage: sanfen fmt --check <FILE>...\n\n\
         For more information, try '--help'.\n",
    );
    assert_eq!(text(&path), SMALL);
}

#[test]
fn check_of_a_large_file_that_is_already_canonical() {
    // many chunks compared as they stream by
    let dir = Dir::new("check-large");
    let games =
        fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/pgn/stockfish-books/8moves_v3.pgn"))
            .expect("../shared/data beside the repository");
    let path = dir.path("games.pgn");
    fs::write(&path, &games).unwrap();
    sanfen(&["fmt", "--check", path_str(&path)])
        .assert()
        .code(1)
        .stdout(format!("would reformat {}\n", path_str(&path)))
        .stderr("");
    sanfen(&["fmt", "--in-place", path_str(&path)]).assert().code(0).stdout("").stderr("");
    assert!(fs::read(&path).unwrap() != games);
    sanfen(&["fmt", "--check", path_str(&path)]).assert().code(0).stdout("").stderr("");
}
