//! Rewriting a file in place without changing what it is: its owner, group,
//! mode, kind and links stay as they were, and a run that fails or is
//! interrupted leaves the file exactly as it was and no temporary file
//! behind.
//!
//! ```text
//! let mut file = InPlace::open(name, "fmt")?; // every check, before a byte is read
//! let reader = file.reader()?;                 // the original's bytes
//! io::copy(&mut transform(reader), file.output())?;
//! file.commit()?;                              // the new text takes the file's place
//! ```
//!
//! The rules, checked in this order before the file is opened for reading
//! (so a FIFO is never opened and nothing blocks):
//!
//! - The name is resolved first: a symbolic link is followed (to the end of
//!   a chain) and its target is rewritten; the link itself stays.
//! - Only a regular file is rewritten: a directory, a FIFO, a character or
//!   block device, a socket is refused.
//! - A read-only file (no write bit in its mode) is refused, whoever runs
//!   sanfen: root, whom the kernel lets write anything, included. For a user
//!   other than root the kernel's own check decides as well (its effective
//!   ids and groups, ACLs included), so a file that user may not write is
//!   refused too.
//! - The file is then opened (never following a link, never blocking) and
//!   must be the very file that was checked.
//!
//! The new text goes to a temporary file `.sanfen-fmt-XXXXXXXX.tmp` (named
//! for the command: `fmt --in-place`, or the REPL's `save FILE N`) in the
//! file's directory (a short name, so the longest file names work), created
//! with mode 0600. Then:
//!
//! - A file with one name is replaced atomically: the temporary file is
//!   given the original's owner and group (right after it is created, so a
//!   refusal costs nothing), then its mode (set-user-ID, set-group-ID and
//!   sticky bits included: after the owner, since a change of owner clears
//!   them, and after the text, since writing clears them for a user without
//!   the capability to keep them), and is renamed over the original. When the
//!   owner and group cannot be given (a user other than root rewriting a file
//!   another user owns), the file is refused: it never changes owner, so a
//!   set-user-ID file can never become one owned by whoever ran sanfen.
//! - A file with several names (hard links) is written through, so every
//!   name keeps seeing the same file, with its owner, group and mode: the new
//!   text is first formatted completely into the temporary file, the room for
//!   it is reserved in the original where the file system can (so a full
//!   disk fails before the original changes), and only then copied over the
//!   original's bytes, the original cut to the new length, and the temporary
//!   file removed. This is not atomic: a crash or `SIGKILL` during that copy
//!   (the last, short step) leaves a partly rewritten file. A set-user-ID or
//!   set-group-ID file that writing would strip (a user other than root and
//!   the owner) is refused.
//! - Either way, a file that changed while it was rewritten (its size,
//!   modification or change time: written, truncated, chmod-ed, linked) is
//!   left as it is and reported, and so is a name that no longer leads to the
//!   file that was read.
//!
//! Extended attributes go with the file too: ACLs, security labels,
//! capabilities, `user.` attributes. The temporary file of a file renamed
//! over is given the original's, exactly (those it was created with and the
//! original has not are removed), with its owner (so that one the user may
//! not give, a capability without `CAP_SETFCAP`, refuses the file before
//! anything is written), and again after its text (writing removes
//! `security.capability`), before its mode. A file written through keeps its
//! own, and gets back any that writing removed.
//!
//! On `SIGINT`, `SIGTERM` or `SIGHUP` ([`remove_temporary_on_signals`]) the
//! temporary files are removed, each file they were for named on standard
//! error, and the process exits with 128 + the signal's number (130, 143,
//! 129); a signal that arrives while the new text is taking
//! the original's place waits for that to finish. On every error the temporary
//! file is removed too.

use std::ffi::OsStr;
use std::fs::{self, File, Metadata, Permissions};
use std::hash::{BuildHasher, RandomState};
use std::io::{self, Seek, SeekFrom, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

use rustix::fs::{Access, AtFlags, FallocateFlags, Mode, OFlags};
use rustix::io::Errno;
use sanfen::pgn::input::shown_name;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use super::Error;

/// The temporary files that exist right now: what a signal removes. Whoever
/// holds the lock may create, rename or remove one; the signal thread takes
/// the lock before it removes them and exits.
static PENDING: Mutex<Vec<Pending>> = Mutex::new(Vec::new());

/// A temporary file, and what a signal that removes it says of the file
/// it was for.
struct Pending {
    path: PathBuf,
    /// The file, as named for messages.
    name: String,
    /// `not written` (a new file), or `left as it was` (a file there).
    outcome: &'static str,
}

/// Directories a run made for its files, in the order made: a signal
/// removes those left empty, the last made first.
static MADE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// `directories` (made by this run, in that order) removed on a signal
/// ([`remove_temporary_on_signals`]) when empty then.
pub fn remove_on_signals_when_empty(directories: &[PathBuf]) {
    MADE.lock().unwrap_or_else(PoisonError::into_inner).extend_from_slice(directories);
}

fn pending() -> MutexGuard<'static, Vec<Pending>> {
    PENDING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// `path` no longer a temporary file to remove (renamed or removed);
/// whether it was one.
fn forget(pending: &mut Vec<Pending>, path: &Path) -> bool {
    let index = pending.iter().position(|pending| pending.path == path);
    index.map(|index| pending.swap_remove(index)).is_some()
}

/// Starts a thread that, on `SIGINT`, `SIGTERM` or `SIGHUP`, removes the
/// temporary files being written (if any), says so of each file (`sanfen:
/// games.pgn: interrupted (SIGINT): left as it was`, or `not written` for a
/// new file) and ends the process with exit code 128 + the signal's number.
/// Call it once, before the first [`InPlace::open`].
///
/// # Errors
///
/// The signal handlers or the thread could not be set up.
pub fn remove_temporary_on_signals() -> io::Result<()> {
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new().name("signals".into()).spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let pending = pending();
            let name = match signal {
                SIGINT => "SIGINT",
                SIGTERM => "SIGTERM",
                _ => "SIGHUP",
            };
            let mut said = String::new();
            for file in pending.iter() {
                let _ = fs::remove_file(&file.path);
                said.push_str(&format!("sanfen: {}: interrupted ({name}): {}\n", file.name, file.outcome));
            }
            // (one holding anything stays, and so do those above it)
            let made = MADE.lock().unwrap_or_else(PoisonError::into_inner);
            let _ = made.iter().rev().try_for_each(fs::remove_dir);
            // said on a thread of its own: a standard error that takes
            // nothing (a full pipe, its lock held) does not keep the process
            // alive past 200 ms
            let (done, said_so) = std::sync::mpsc::channel();
            let _ = std::thread::Builder::new().spawn(move || {
                let _ = io::stderr().write_all(said.as_bytes());
                let _ = done.send(());
            });
            let _ = said_so.recv_timeout(std::time::Duration::from_millis(200));
            // the lock stays held: nothing creates a new temporary file now
            std::process::exit(128 + signal);
        }
    })?;
    Ok(())
}

/// A regular file being rewritten: opened for reading, with the temporary
/// file its new text goes to. Dropping it without [`InPlace::commit`]
/// removes the temporary file and leaves the original as it was.
pub struct InPlace {
    /// The file as named on the command line, for messages.
    name: String,
    /// Where it really is (symbolic links resolved).
    target: PathBuf,
    /// The original, open for reading (and writing, when written through).
    original: File,
    /// The original as it was when opened.
    before: Metadata,
    /// Whether the new text is copied into the original (it has hard links)
    /// rather than renamed over it.
    through: bool,
    /// The original's extended attributes, for the file renamed over it
    /// (none when written through: the original keeps its own).
    attributes: Vec<Attribute>,
    temporary: Temporary,
}

impl InPlace {
    /// Checks that the file named `name` may be rewritten (the rules in the
    /// module's documentation), opens it and creates the temporary file,
    /// named for the command that rewrites (`.sanfen-fmt-...`).
    ///
    /// # Errors
    ///
    /// [`Error::File`], naming the file as given, when it cannot be found or
    /// opened, is refused (not a regular file, read-only, an owner the
    /// rewritten file cannot be given, ...: the message ends in `not
    /// rewritten`), or the temporary file cannot be created.
    pub fn open(name: &OsStr, command: &str) -> Result<InPlace, Error> {
        let display = shown_name(name);
        let file_error = |source| Error::File { path: display.clone(), source };
        let refuse = |why: String| refusal(&display, &why);
        let target = fs::canonicalize(name).map_err(file_error)?;
        let checked = fs::symlink_metadata(&target).map_err(file_error)?;
        if let Some(kind) = not_regular(&checked) {
            return Err(refuse(format!("{kind}, not a regular file")));
        }
        let mode = checked.mode() & 0o7777;
        if mode & 0o222 == 0 {
            return Err(refuse(format!("read-only (mode {mode:04o})")));
        }
        let user = rustix::process::geteuid();
        match rustix::fs::accessat(rustix::fs::CWD, &target, Access::WRITE_OK, AtFlags::EACCESS) {
            Ok(()) => {}
            Err(Errno::ACCESS) => {
                return Err(refuse(format!(
                    "not writable by this user (mode {mode:04o}, owner {}:{})",
                    checked.uid(),
                    checked.gid()
                )));
            }
            // immutable (EPERM), on a read-only file system (EROFS), ...
            Err(err) => return Err(refuse(format!("not writable ({})", io::Error::from(err)))),
        }
        let through = checked.nlink() > 1;
        if through && mode & 0o6000 != 0 && !user.is_root() && user.as_raw() != checked.uid() {
            return Err(refuse(format!(
                "set-user-ID or set-group-ID (mode {mode:04o}) with hard links: writing it as a user other than its \
                 owner would clear those bits"
            )));
        }
        let access = if through { OFlags::RDWR } else { OFlags::RDONLY };
        let flags = access | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
        let original =
            File::from(rustix::fs::open(&target, flags, Mode::empty()).map_err(|err| file_error(err.into()))?);
        let before = original.metadata().map_err(file_error)?;
        if !before.is_file() || before.dev() != checked.dev() || before.ino() != checked.ino() {
            return Err(refuse("replaced while it was being opened".to_owned()));
        }
        let Some(directory) = target.parent() else {
            return Err(refuse("no directory for the temporary file".to_owned()));
        };
        let temporary = Temporary::create(directory, command, 0o600, &display, "left as it was")
            .map_err(|err| temporary_error(&display, None, err))?;
        let attributes = if through { Vec::new() } else { attributes(&original).map_err(file_error)? };
        let file = InPlace { name: display, target, original, before, through, attributes, temporary };
        if !file.through {
            // now, so that a refusal costs nothing
            file.give_owner()?;
            file.give_attributes()?;
        }
        Ok(file)
    }

    /// Where the file really is (symbolic links resolved).
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The original's size when it was opened.
    pub fn size(&self) -> u64 {
        self.before.len()
    }

    /// The original's bytes, from the start.
    ///
    /// # Errors
    ///
    /// [`Error::File`] when the open file cannot be shared.
    pub fn reader(&self) -> Result<File, Error> {
        let mut reader = self.original.try_clone().map_err(|err| self.file_error(err))?;
        reader.seek(SeekFrom::Start(0)).map_err(|err| self.file_error(err))?;
        Ok(reader)
    }

    /// The temporary file the new text is written to.
    pub fn output(&self) -> &File {
        &self.temporary.file
    }

    /// How an error writing [`InPlace::output`] is reported: on the file as
    /// named, saying it was the temporary file.
    pub fn write_error(&self) -> impl Fn(io::Error) -> Error + use<> {
        let name = self.name.clone();
        let path = self.temporary.path.clone();
        move |err| temporary_error(&name, Some(&path), err)
    }

    /// Puts the new text in the original's place (renamed over it, or
    /// written through when it has hard links) and removes the temporary
    /// file.
    ///
    /// # Errors
    ///
    /// [`Error::File`] when the original changed while it was rewritten, or
    /// writing, renaming or copying failed. The original is then as it was,
    /// except when copying into a file with hard links fails midway (the
    /// message then says the file may be partly rewritten).
    pub fn commit(self) -> Result<(), Error> {
        let mut pending = pending();
        let result = self.commit_locked(&mut pending);
        drop(pending);
        // on an error, dropping `self` removes the temporary file
        result
    }

    fn commit_locked(&self, pending: &mut Vec<Pending>) -> Result<(), Error> {
        let now = self.original.metadata().map_err(|err| self.file_error(err))?;
        if changed(&self.before, &now) {
            return Err(refusal(&self.name, "changed while it was being rewritten"));
        }
        let temporary = &self.temporary;
        let write_error = self.write_error();
        if self.through {
            self.write_through()?;
            // the temporary file is no longer needed
            let _ = fs::remove_file(&temporary.path);
            forget(pending, &temporary.path);
            return Ok(());
        }
        // again: writing removed a capability
        self.give_attributes()?;
        let mode = self.before.mode() & 0o7777;
        temporary.file.set_permissions(Permissions::from_mode(mode)).map_err(&write_error)?;
        let given = temporary.file.metadata().map_err(&write_error)?;
        if given.mode() & 0o7777 != mode {
            return Err(refusal(&self.name, &format!("mode {mode:04o} cannot be given to the rewritten file")));
        }
        temporary.file.sync_all().map_err(&write_error)?;
        // the name must still lead to the file that was read
        match fs::symlink_metadata(&self.target) {
            Ok(current) if current.dev() == self.before.dev() && current.ino() == self.before.ino() => {}
            _ => return Err(refusal(&self.name, "replaced while it was being rewritten")),
        }
        fs::rename(&temporary.path, &self.target).map_err(|err| {
            self.file_error(io::Error::new(err.kind(), format!("cannot replace it with the rewritten file: {err}")))
        })?;
        forget(pending, &temporary.path);
        // the rename itself lasts once the directory is written out
        if let Some(directory) = self.target.parent()
            && let Ok(directory) = File::open(directory)
        {
            let _ = directory.sync_all();
        }
        Ok(())
    }

    /// Copies the temporary file over the original's bytes.
    fn write_through(&self) -> Result<(), Error> {
        let write_error = self.write_error();
        let mut temporary = &self.temporary.file;
        let mut original = &self.original;
        let length = temporary.metadata().map_err(&write_error)?.len();
        // writing, and reserving room, remove a capability (`security.capability`):
        // given back after
        let wanted = attributes(original).map_err(|err| self.file_error(err))?;
        // room for the new text before the first byte changes; a file system
        // without fallocate is written without it
        if length > 0
            && let Err(err @ (Errno::NOSPC | Errno::DQUOT | Errno::FBIG | Errno::IO)) =
                rustix::fs::fallocate(original, FallocateFlags::KEEP_SIZE, 0, length)
        {
            return Err(self.file_error(err.into()));
        }
        let partly = |err: io::Error| {
            self.file_error(io::Error::new(err.kind(), format!("{err} (the file may be partly rewritten)")))
        };
        temporary.seek(SeekFrom::Start(0)).map_err(&write_error)?;
        original.seek(SeekFrom::Start(0)).map_err(|err| self.file_error(err))?;
        let copied = io::copy(&mut temporary, &mut original).map_err(partly)?;
        if copied != length {
            return Err(partly(io::Error::other(format!("{copied} of {length} bytes copied"))));
        }
        original.set_len(length).map_err(partly)?;
        give_attributes(original, &wanted).map_err(partly)?;
        // writing clears set-user-ID and set-group-ID for a user without the
        // capability to keep them: the owner gives them back
        let mode = self.before.mode() & 0o7777;
        let after = original.metadata().map_err(partly)?;
        if after.mode() & 0o7777 != mode {
            original.set_permissions(Permissions::from_mode(mode)).map_err(partly)?;
        }
        original.sync_all().map_err(partly)
    }

    /// Gives the temporary file the original's owner and group.
    fn give_owner(&self) -> Result<(), Error> {
        let (uid, gid) = (self.before.uid(), self.before.gid());
        let current = self.temporary.file.metadata().map_err(self.write_error())?;
        let new_uid = (current.uid() != uid).then_some(uid);
        let new_gid = (current.gid() != gid).then_some(gid);
        if new_uid.is_none() && new_gid.is_none() {
            return Ok(());
        }
        std::os::unix::fs::fchown(&self.temporary.file, new_uid, new_gid).map_err(|err| {
            refusal(&self.name, &format!("its owner {uid}:{gid} cannot be given to the rewritten file ({err})"))
        })
    }

    fn file_error(&self, source: io::Error) -> Error {
        Error::File { path: self.name.clone(), source }
    }

    /// Gives the temporary file the original's extended attributes.
    fn give_attributes(&self) -> Result<(), Error> {
        give_attributes(&self.temporary.file, &self.attributes).map_err(|err| refusal(&self.name, &err.to_string()))
    }
}

/// An extended attribute: its name and value.
type Attribute = (Vec<u8>, Vec<u8>);

/// Every extended attribute of `file` the user may read; none where its
/// file system has none.
fn attributes(file: &File) -> io::Result<Vec<Attribute>> {
    use rustix::buffer::spare_capacity;
    let listed =
        sized(|| rustix::fs::flistxattr_query(file), |names| rustix::fs::flistxattr(file, spare_capacity(names)));
    let names = match listed {
        Err(Errno::NOTSUP) => return Ok(Vec::new()),
        names => names?,
    };
    let mut attributes = Vec::new();
    for name in names.split(|&byte| byte == 0).filter(|name| !name.is_empty()) {
        let value = sized(
            || rustix::fs::fgetxattr_query(file, name),
            |value| rustix::fs::fgetxattr(file, name, spare_capacity(value)),
        );
        match value {
            // removed since the names were listed
            Err(Errno::NODATA) => {}
            value => attributes.push((name.to_vec(), value?)),
        }
    }
    Ok(attributes)
}

/// The bytes `fetch` gives, in the room `size` says they take; asked again
/// when they grew in between.
fn sized(
    size: impl Fn() -> rustix::io::Result<usize>,
    fetch: impl Fn(&mut Vec<u8>) -> rustix::io::Result<usize>,
) -> rustix::io::Result<Vec<u8>> {
    loop {
        let size = size()?;
        if size == 0 {
            return Ok(Vec::new());
        }
        let mut bytes = Vec::with_capacity(size);
        match fetch(&mut bytes) {
            Err(Errno::RANGE) => {}
            fetched => {
                fetched?;
                return Ok(bytes);
            }
        }
    }
}

/// Makes `file`'s extended attributes `wanted`: sets those it lacks or
/// holds with another value, removes those not wanted.
///
/// # Errors
///
/// When they cannot be read, or one cannot be set or removed (named).
fn give_attributes(file: &File, wanted: &[Attribute]) -> io::Result<()> {
    let current = attributes(file)?;
    let failed = |name: &[u8], err: Errno| {
        let err = io::Error::from(err);
        io::Error::new(err.kind(), format!("its extended attribute {} cannot be kept ({err})", name.escape_ascii()))
    };
    for (name, _) in current.iter().filter(|(name, _)| !wanted.iter().any(|(other, _)| other == name)) {
        rustix::fs::fremovexattr(file, name.as_slice()).map_err(|err| failed(name, err))?;
    }
    for (name, value) in wanted.iter().filter(|attribute| !current.contains(attribute)) {
        rustix::fs::fsetxattr(file, name.as_slice(), value, rustix::fs::XattrFlags::empty())
            .map_err(|err| failed(name, err))?;
    }
    Ok(())
}

/// A FIFO or a device at `path` (`/dev/stdout`), opened to be written to
/// as it is (such a file is not replaced: [`NewFile`] refuses it); `None`
/// for anything else (a regular file, a directory, no file).
pub fn open_device(path: &Path) -> Option<io::Result<File>> {
    is_device(path).then(|| File::options().write(true).open(path))
}

/// Whether `path` names a FIFO or a device (see [`open_device`]).
pub fn is_device(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|metadata| !metadata.is_file() && !metadata.is_dir())
}

/// A new file, written under a temporary name beside it that takes its
/// name once it is complete ([`NewFile::commit`]): until then whoever looks
/// sees the file as it was (or no file), and an error, a drop without
/// commit or a signal ([`remove_temporary_on_signals`]) removes what was
/// written. A new file gets the mode any file a program creates gets (0666
/// less the umask, or as the directory's default ACL says). A file already
/// there is replaced on commit, as it is:
///
/// - a symbolic link is followed: its target is replaced, the link kept
///   (one to no file is refused);
/// - the new file gets the file's mode, group and extended attributes
///   (ACLs, security labels, `user.` attributes);
/// - refused before anything is written: a directory or anything else that
///   is not a regular file, a file another user owns (it would change
///   owner), a read-only file (no write bit in its mode), a file with hard
///   links (its other names would keep the old content), a file whose group
///   or extended attributes the new file cannot be given.
pub struct NewFile {
    /// The file as named on the command line, for messages.
    name: String,
    /// Where it is written: the name, or a symbolic link's target.
    target: PathBuf,
    /// The mode of the file replaced, if any.
    mode: Option<u32>,
    /// The extended attributes of the file replaced (none when there is none).
    attributes: Vec<Attribute>,
    temporary: Temporary,
}

impl NewFile {
    /// Checks that a new file may be written at `path` and creates its
    /// temporary file; `kind` names the command in the temporary name
    /// (`.sanfen-KIND-XXXXXXXX.tmp`).
    ///
    /// # Errors
    ///
    /// [`Error::File`] naming `path`: a file there is refused (the rules
    /// above), or the temporary file cannot be created.
    pub fn create(path: &Path, kind: &str) -> Result<NewFile, Error> {
        let name = shown_name(path.as_os_str());
        let error = |message: String| Error::File { path: name.clone(), source: io::Error::other(message) };
        let refuse = |why: String| error(format!("{why}: not replaced"));
        let (target, existing) = match fs::metadata(path) {
            Ok(metadata) => {
                if let Some(what) = not_regular(&metadata) {
                    return Err(error(format!("{what}: not written")));
                }
                let owner = metadata.uid();
                if owner != rustix::process::geteuid().as_raw() {
                    return Err(refuse(format!("owned by user {owner}")));
                }
                let mode = metadata.mode() & 0o7777;
                if mode & 0o222 == 0 {
                    return Err(refuse(format!("read-only (mode {mode:04o})")));
                }
                if metadata.nlink() > 1 {
                    return Err(refuse(format!(
                        "{} names (hard links): the others would keep the old content",
                        metadata.nlink()
                    )));
                }
                let target = fs::canonicalize(path).map_err(|err| Error::File { path: name.clone(), source: err })?;
                (target, Some(metadata))
            }
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                if fs::symlink_metadata(path).is_ok_and(|link| link.file_type().is_symlink()) {
                    return Err(error("a symbolic link to no file: not written".to_owned()));
                }
                (path.to_path_buf(), None)
            }
            Err(err) => return Err(Error::File { path: name, source: err }),
        };
        let directory = match target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        // a new file's mode is left to the kernel (the umask, or the
        // directory's default ACL), as for any file a program creates
        let mode = existing.as_ref().map(|existing| existing.mode() & 0o777);
        let created_mode = if mode.is_some() { 0o600 } else { 0o666 };
        let outcome = if existing.is_some() { "left as it was" } else { "not written" };
        let temporary = Temporary::create(directory, kind, created_mode, &name, outcome)
            .map_err(|err| temporary_error(&name, None, err))?;
        let mut attributes = Vec::new();
        if let Some(existing) = &existing {
            let current =
                temporary.file.metadata().map_err(|err| temporary_error(&name, Some(&temporary.path), err))?;
            let group = existing.gid();
            if current.gid() != group {
                std::os::unix::fs::fchown(&temporary.file, None, Some(group))
                    .map_err(|err| refuse(format!("its group {group} cannot be given to the new file ({err})")))?;
            }
            // (a file its owner may write but not read, mode 0200, is opened
            // for writing: either way gives its attributes)
            let flags = OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
            let replaced = match rustix::fs::open(&target, flags | OFlags::RDONLY, Mode::empty()) {
                Err(Errno::ACCESS) => rustix::fs::open(&target, flags | OFlags::WRONLY, Mode::empty()),
                opened => opened,
            };
            let replaced = replaced
                .map_err(|err| refuse(format!("its extended attributes cannot be read ({})", io::Error::from(err))))?;
            attributes = self::attributes(&File::from(replaced)).map_err(|err| refuse(err.to_string()))?;
            // now, so that a refusal costs nothing
            give_attributes(&temporary.file, &attributes).map_err(|err| refuse(err.to_string()))?;
        }
        Ok(NewFile { name, target, mode, attributes, temporary })
    }

    /// The temporary file, to write the text to.
    pub fn file(&self) -> &File {
        &self.temporary.file
    }

    /// The file as named, for messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Gives the written text the file's name (replacing the file there).
    ///
    /// # Errors
    ///
    /// [`Error::File`]: the text could not be written out or renamed; the
    /// temporary file is removed.
    pub fn commit(self) -> Result<(), Error> {
        self.complete()?;
        let mut pending = pending();
        fs::rename(&self.temporary.path, &self.target).map_err(|err| self.error(err))?;
        forget(&mut pending, &self.temporary.path);
        drop(pending);
        self.sync_directory();
        Ok(())
    }

    /// Gives the written text the file's name, as [`commit`](Self::commit)
    /// does, unless a file took that name since [`create`](Self::create)
    /// found none: that file is kept, and the text removed. (A hard link
    /// makes the name, which no file may hold; where the file system has
    /// none, a rename once the name is found free.)
    ///
    /// # Errors
    ///
    /// As `commit`; an [`io::ErrorKind::AlreadyExists`] error when a file
    /// has the name.
    pub fn commit_new(self) -> Result<(), Error> {
        self.complete()?;
        let taken = || {
            self.error(io::Error::new(io::ErrorKind::AlreadyExists, "made meanwhile by another program: not replaced"))
        };
        let mut pending = pending();
        match fs::hard_link(&self.temporary.path, &self.target) {
            // the text has its name: the temporary one goes
            Ok(()) => drop(fs::remove_file(&self.temporary.path)),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => return Err(taken()),
            Err(err) => match fs::symlink_metadata(&self.target) {
                Err(missing) if missing.kind() == io::ErrorKind::NotFound => {
                    fs::rename(&self.temporary.path, &self.target).map_err(|err| self.error(err))?;
                }
                Ok(_) => return Err(taken()),
                Err(_) => return Err(self.error(err)),
            },
        }
        forget(&mut pending, &self.temporary.path);
        drop(pending);
        self.sync_directory();
        Ok(())
    }

    /// An error on the file, named as it was.
    fn error(&self, source: io::Error) -> Error {
        Error::File { path: self.name.clone(), source }
    }

    /// The temporary file made ready to take the name: the replaced file's
    /// mode and attributes again (a new file keeps the mode it was created
    /// with), its text on the disk.
    fn complete(&self) -> Result<(), Error> {
        let error = |err| self.error(err);
        if let Some(mode) = self.mode {
            // again: writing removed a capability
            give_attributes(&self.temporary.file, &self.attributes).map_err(error)?;
            self.temporary.file.set_permissions(Permissions::from_mode(mode)).map_err(error)?;
        }
        self.temporary.file.sync_all().map_err(error)
    }

    /// The name made lasting: the directory's entries synced, where it can be.
    fn sync_directory(&self) {
        if let Some(directory) = self.target.parent()
            && let Ok(directory) = File::open(if directory.as_os_str().is_empty() { Path::new(".") } else { directory })
        {
            let _ = directory.sync_all();
        }
    }
}

/// A refusal: the file named `name` is left as it was, for the reason `why`.
fn refusal(name: &str, why: &str) -> Error {
    Error::File { path: name.to_owned(), source: io::Error::other(format!("{why}: not rewritten")) }
}

/// An error on the temporary file, reported on the file being rewritten.
fn temporary_error(name: &str, path: Option<&Path>, err: io::Error) -> Error {
    let message = match path {
        Some(path) => format!("temporary file {}: {err}", shown_name(path.as_os_str())),
        None => format!("cannot create a temporary file beside it: {err}"),
    };
    Error::File { path: name.to_owned(), source: io::Error::new(err.kind(), message) }
}

/// What a file that is not a regular file is, in words.
fn not_regular(metadata: &Metadata) -> Option<&'static str> {
    let kind = metadata.file_type();
    if kind.is_file() {
        None
    } else if kind.is_dir() {
        Some("a directory")
    } else if kind.is_fifo() {
        Some("a FIFO")
    } else if kind.is_char_device() {
        Some("a character device")
    } else if kind.is_block_device() {
        Some("a block device")
    } else if kind.is_socket() {
        Some("a socket")
    } else if kind.is_symlink() {
        // a link put in place after the name was resolved
        Some("a symbolic link")
    } else {
        Some("an unknown kind of file")
    }
}

/// Whether the file was written, truncated or had its inode changed (mode,
/// owner, links) between the two looks.
fn changed(before: &Metadata, now: &Metadata) -> bool {
    (before.len(), before.mtime(), before.mtime_nsec(), before.ctime(), before.ctime_nsec())
        != (now.len(), now.mtime(), now.mtime_nsec(), now.ctime(), now.ctime_nsec())
}

/// The temporary file: created, and registered in [`PENDING`], under the
/// lock; removed when dropped unless it was renamed or removed already.
struct Temporary {
    path: PathBuf,
    file: File,
}

impl Temporary {
    /// `DIRECTORY/.sanfen-KIND-XXXXXXXX.tmp` (8 random hexadecimal digits),
    /// new (never an existing file or link: another name is tried then),
    /// created with `mode` (less the umask, or as the directory's default
    /// ACL says), for the file named `name` (what a signal says of it:
    /// `outcome`).
    fn create(directory: &Path, kind: &str, mode: u32, name: &str, outcome: &'static str) -> io::Result<Temporary> {
        let mut pending = pending();
        let random = RandomState::new();
        let mut attempt = 0u32;
        loop {
            let suffix = random.hash_one((std::process::id(), attempt)) as u32;
            let path = directory.join(format!(".sanfen-{kind}-{suffix:08x}.tmp"));
            let created = File::options().read(true).write(true).create_new(true).mode(mode).open(&path);
            match created {
                Ok(file) => {
                    pending.push(Pending { path: path.clone(), name: name.to_owned(), outcome });
                    return Ok(Temporary { path, file });
                }
                Err(err) if err.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
                Err(err) => return Err(err),
            }
        }
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        let mut pending = pending();
        if forget(&mut pending, &self.path) {
            let _ = fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file with no extended attribute has none (no room asked of an
    /// empty list: rustix refuses to fill a buffer of none), an empty value
    /// is kept, and giving a file attributes makes them exactly its own.
    #[test]
    fn attributes_read_and_given() {
        let directory = std::env::temp_dir().join(format!("sanfen-attributes-{}", std::process::id()));
        fs::create_dir_all(&directory).unwrap();
        let path = directory.join("file");
        let file = File::options().read(true).write(true).create(true).truncate(true).open(&path).unwrap();
        assert_eq!(attributes(&file).unwrap(), []);
        let wanted: Vec<Attribute> = vec![(b"user.empty".to_vec(), Vec::new()), (b"user.k".to_vec(), b"v".to_vec())];
        match give_attributes(&file, &wanted) {
            Ok(()) => {
                let mut given = attributes(&file).unwrap();
                given.sort();
                assert_eq!(given, wanted);
                give_attributes(&file, &wanted[1..]).unwrap();
                assert_eq!(attributes(&file).unwrap(), &wanted[1..]);
            }
            // a file system without `user.` attributes
            Err(err) => {
                assert!(err.to_string().starts_with("its extended attribute user.empty cannot be kept"), "{err}")
            }
        }
        fs::remove_dir_all(&directory).unwrap();
    }

    /// `commit_new` keeps a file made at the name after `create` found
    /// none, and leaves no temporary file; with the name free it is
    /// `commit`.
    #[test]
    fn a_new_file_takes_no_name_taken_meanwhile() {
        let directory = std::env::temp_dir().join(format!("sanfen-commit-new-{}", std::process::id()));
        fs::create_dir_all(&directory).unwrap();
        let path = directory.join("part.pgn");
        let file = NewFile::create(&path, "test").unwrap();
        io::Write::write_all(&mut file.file(), b"new\n").unwrap();
        fs::write(&path, "someone's\n").unwrap();
        let Err(Error::File { path: name, source }) = file.commit_new() else { panic!("committed") };
        assert_eq!((name, source.kind()), (path.display().to_string(), io::ErrorKind::AlreadyExists));
        assert_eq!(source.to_string(), "made meanwhile by another program: not replaced");
        assert_eq!(fs::read(&path).unwrap(), b"someone's\n");
        fs::remove_file(&path).unwrap();
        let file = NewFile::create(&path, "test").unwrap();
        io::Write::write_all(&mut file.file(), b"new\n").unwrap();
        file.commit_new().unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new\n");
        assert_eq!(fs::metadata(&path).unwrap().nlink(), 1);
        let names: Vec<_> = fs::read_dir(&directory).unwrap().map(|entry| entry.unwrap().file_name()).collect();
        assert_eq!(names, ["part.pgn"]);
        fs::remove_dir_all(&directory).unwrap();
    }

    /// Files written at the same time each keep their temporary file until
    /// committed or dropped, whatever the order: dropping one removes its
    /// own, never another's, and a signal would remove those left.
    #[test]
    fn temporary_files_at_the_same_time_are_each_removed() {
        let directory = std::env::temp_dir().join(format!("sanfen-temporaries-{}", std::process::id()));
        fs::create_dir_all(&directory).unwrap();
        let names = || {
            let mut names: Vec<_> = fs::read_dir(&directory)
                .unwrap()
                .map(|entry| entry.unwrap().file_name().into_string().unwrap())
                .collect();
            names.sort();
            names
        };
        let first = NewFile::create(&directory.join("first"), "first").unwrap();
        let second = NewFile::create(&directory.join("second"), "second").unwrap();
        let third = NewFile::create(&directory.join("third"), "third").unwrap();
        let temporaries = [&first, &second, &third].map(|file| file.temporary.path.clone());
        let is_pending = |path: &PathBuf| pending().iter().any(|pending| pending.path == *path);
        assert!(temporaries.iter().all(is_pending));
        drop(first);
        let left = names();
        assert_eq!(left.len(), 2);
        assert!(left[0].starts_with(".sanfen-second-") && left[1].starts_with(".sanfen-third-"), "{left:?}");
        third.commit().unwrap();
        assert_eq!(names().len(), 2);
        assert!(names()[0].starts_with(".sanfen-second-") && names()[1] == "third", "{:?}", names());
        drop(second);
        assert_eq!(names(), ["third"]);
        assert!(!temporaries.iter().any(is_pending));
        fs::remove_dir_all(&directory).unwrap();
    }
}
