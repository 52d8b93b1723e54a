//! Writing a file atomically: readers see the old file or the complete new
//! one, never a partial file, and an interrupted write leaves nothing.
//!
//! The bytes go to a temporary file beside the target (the same directory,
//! hence the same file system), named `.NAME.tmpPID`, which is synced and
//! then renamed over the target; on any error the temporary file is removed.
//! Every file the toolkit writes (database levels, checkpoints, pictures)
//! goes through [`write()`].

use std::io::Write;
use std::path::{Path, PathBuf};

/// The temporary file [`write()`] uses for `path` (a dot file beside it,
/// named after the target and this process).
pub fn temporary_path(path: &Path) -> PathBuf {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    dir.join(format!(".{name}.tmp{}", std::process::id()))
}

/// Writes the concatenation of `parts` to `path` atomically (see the module
/// docs). The error names no path: callers say which file it was.
pub fn write(path: &Path, parts: &[&[u8]]) -> std::io::Result<()> {
    write_with(path, |f| {
        for part in parts {
            f.write_all(part)?;
        }
        Ok(())
    })
}

/// Writes to `path` atomically whatever `fill` writes into the (new, empty)
/// temporary file: a large file can be produced piece by piece, without its
/// whole contents in memory. `fill` may seek (to write a header last). The
/// error names no path.
pub fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    if path.file_name().is_none() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a file name",
        ));
    }
    let tmp = temporary_path(path);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        fill(&mut f)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_the_parts_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("mancala-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.bin");
        write(&path, &[b"head", b"", b"-body"]).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"head-body");
        write(&path, &[b"new"]).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert!(!temporary_path(&path).exists());
        // A directory that does not exist: an error, and nothing left.
        let missing = dir.join("no/such/dir/x");
        assert!(write(&missing, &[b"x"]).is_err());
        assert!(write(Path::new("/"), &[b"x"]).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
