//! Every file the program writes goes through here: written to a temporary
//! file beside the target, flushed, synced and renamed into place, so a full
//! disk or a crash never leaves half a file under the target's name and never
//! passes for success. Every error names the target path.
//!
//! A target that exists and is not a regular file (`/dev/stdout`, a pipe,
//! `/dev/full`) is written directly: there is nothing to rename over, and
//! replacing a device with a regular file would be wrong.

use std::fs::File;
use std::io::{BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The temporary files being written now, removed if the program is stopped
/// (Ctrl-C, `kill`) before they are committed: a long `simulate` streams its
/// records into one, and an interrupted run would leave it behind, hidden.
static WRITING: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Removes the temporary files still being written; for a stop by a signal.
pub fn remove_unfinished() {
    let mut writing = WRITING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    for temp in writing.drain(..) {
        let _ = std::fs::remove_file(temp);
    }
}

fn forget(temp: &Path) {
    let mut writing = WRITING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    writing.retain(|t| t != temp);
}

/// A file being written: [`AtomicFile::commit`] makes it appear under its
/// name; dropping it uncommitted removes the temporary file.
pub struct AtomicFile {
    target: PathBuf,
    /// The temporary file beside the target (`None`: the target is written directly).
    temp: Option<PathBuf>,
    out: BufWriter<File>,
}

/// The error message for a write to `path` that failed.
fn failed(path: &Path, e: &std::io::Error) -> String {
    format!("cannot write {}: {e}; check that its folder exists, is writable and has space", path.display())
}

impl AtomicFile {
    /// Starts writing `target`.
    pub fn create(target: &Path) -> Result<AtomicFile, String> {
        let meta = std::fs::metadata(target).ok();
        if meta.as_ref().is_some_and(std::fs::Metadata::is_dir) {
            return Err(format!("cannot write {}: it is a folder; give a file name", target.display()));
        }
        if meta.as_ref().is_some_and(|m| !m.is_file()) {
            // A device or a pipe: written in place. Opened without waiting (a pipe nobody
            // reads is an error, not a hang), then written normally.
            use std::os::unix::fs::OpenOptionsExt;
            use std::os::unix::io::AsRawFd;
            let file = std::fs::OpenOptions::new()
                .write(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(target)
                .map_err(|e| failed(target, &e))?;
            // SAFETY: fcntl on a descriptor this function owns.
            unsafe {
                let flags = libc::fcntl(file.as_raw_fd(), libc::F_GETFL);
                libc::fcntl(file.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK);
            }
            return Ok(AtomicFile { target: target.to_path_buf(), temp: None, out: BufWriter::new(file) });
        }
        if target.file_name().is_none() {
            return Err(format!("cannot write {}: no file name", target.display()));
        }
        // The one way a temporary file is made (`engine_rules::files::temp_beside`):
        // an unpredictable name, created exclusively, so a link or a pipe planted
        // beside the target is never followed.
        let (file, temp) = engine_rules::files::temp_beside(target).map_err(|e| failed(target, &e))?;
        if let Some(m) = &meta {
            // Replacing a file keeps its permissions.
            let _ = file.set_permissions(m.permissions());
        }
        WRITING.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(temp.clone());
        Ok(AtomicFile { target: target.to_path_buf(), temp: Some(temp), out: BufWriter::new(file) })
    }

    /// Flushes, syncs and renames the file into place.
    pub fn commit(mut self) -> Result<(), String> {
        let target = self.target.clone();
        self.out.flush().map_err(|e| failed(&target, &e))?;
        let Some(temp) = self.temp.take() else { return Ok(()) };
        let result = self
            .out
            .get_ref()
            .sync_all()
            .and_then(|()| std::fs::rename(&temp, &target))
            .map_err(|e| failed(&target, &e));
        forget(&temp);
        if result.is_err() {
            let _ = std::fs::remove_file(&temp);
        } else if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
            // The rename itself is durable once the folder is synced (best effort).
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        result
    }

    /// The target, for messages.
    pub fn target(&self) -> &Path {
        &self.target
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            forget(&temp);
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// Writes `contents` to `path` atomically (see the module).
pub fn write_file(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), String> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(contents.as_ref()).map_err(|e| failed(path, &e))?;
    file.commit()
}

/// An error writing to an [`AtomicFile`], naming its target.
pub fn write_error(file: &AtomicFile, e: &std::io::Error) -> String {
    failed(file.target(), e)
}

/// The longest line read from stdin as one input (a typed action is a few dozen characters).
pub const MAX_INPUT_LINE: usize = 64 << 10;

/// Lines of `input`, each at most [`MAX_INPUT_LINE`] bytes: a longer line (or
/// endless input without a newline, `play < /dev/zero`) ends the input with an
/// error instead of being read until memory runs out.
pub fn bounded_lines<R: BufRead>(input: R) -> BoundedLines<R> {
    BoundedLines { input, done: false }
}

/// The iterator of [`bounded_lines`].
pub struct BoundedLines<R> {
    input: R,
    done: bool,
}

impl<R: BufRead> Iterator for BoundedLines<R> {
    type Item = std::io::Result<String>;

    fn next(&mut self) -> Option<Self::Item> {
        use std::io::Read;
        if self.done {
            return None;
        }
        let mut line = Vec::new();
        let read = (&mut self.input).take(MAX_INPUT_LINE as u64 + 1).read_until(b'\n', &mut line);
        match read {
            Ok(0) => {
                self.done = true;
                None
            }
            Ok(_) if line.len() > MAX_INPUT_LINE && !line.ends_with(b"\n") => {
                self.done = true;
                Some(Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("an input line longer than {} KiB", MAX_INPUT_LINE >> 10),
                )))
            }
            Ok(_) => {
                while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                    line.pop();
                }
                match String::from_utf8(line) {
                    Ok(s) => Some(Ok(s)),
                    Err(_) => {
                        self.done = true;
                        Some(Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "input is not UTF-8 text")))
                    }
                }
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_without_end_is_refused_once_it_is_too_long() {
        let endless = std::io::Read::take(std::io::repeat(0), 10 * MAX_INPUT_LINE as u64);
        let mut lines = bounded_lines(std::io::BufReader::new(endless));
        assert!(lines.next().expect("one item").is_err());
        assert!(lines.next().is_none());
        let mut two = bounded_lines("a\r\nb\n".as_bytes());
        assert_eq!(two.next().unwrap().unwrap(), "a");
        assert_eq!(two.next().unwrap().unwrap(), "b");
        assert!(two.next().is_none());
    }

    #[test]
    fn a_failed_write_names_the_path_and_leaves_nothing_behind() {
        let dir = std::env::temp_dir().join(format!("sanjuan-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("out.txt");
        write_file(&target, "one").unwrap();
        write_file(&target, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "two");
        let missing = dir.join("no-such-folder/out.txt");
        let e = write_file(&missing, "x").unwrap_err();
        assert!(e.contains("no-such-folder/out.txt"), "{e}");
        if Path::new("/dev/full").exists() {
            let e = write_file(Path::new("/dev/full"), vec![b'x'; 1 << 16]).unwrap_err();
            assert!(e.contains("/dev/full"), "{e}");
        }
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(left, [std::ffi::OsString::from("out.txt")]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
