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

/// Writes a directory of files at `dir` as a whole: the files go to a
/// temporary directory beside it (`.NAME.tmpPID`), each synced; then an
/// existing `dir` is renamed aside (`.NAME.oldPID`), the new one renamed
/// into place and the old one removed. Readers see the old directory or
/// the complete new one (for the moment between the two renames, none);
/// on any error before the switch the temporary directory is removed and
/// `dir` is untouched. `files` are `(name, contents)`, names without
/// separators.
pub fn write_dir(dir: &Path, files: &[(String, Vec<u8>)]) -> std::io::Result<()> {
    let Some(name) = dir.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a directory name",
        ));
    };
    let parent = match dir.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let tmp = parent.join(format!(".{name}.tmp{}", std::process::id()));
    let old = parent.join(format!(".{name}.old{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let result = (|| {
        std::fs::create_dir(&tmp)?;
        for (file, bytes) in files {
            if file.contains('/') || file.contains('\\') || file.starts_with('.') {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!("{file:?} is not a plain file name"),
                ));
            }
            let mut f = std::fs::File::create(tmp.join(file))?;
            f.write_all(bytes)?;
            f.sync_all()?;
        }
        Ok(())
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    let existed = dir.exists();
    if existed {
        if let Err(e) = std::fs::rename(dir, &old) {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    }
    if let Err(e) = std::fs::rename(&tmp, dir) {
        if existed {
            let _ = std::fs::rename(&old, dir);
        }
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    if existed {
        let _ = std::fs::remove_dir_all(&old);
    }
    Ok(())
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

    #[test]
    fn writes_a_directory_whole_and_replaces_the_old_one() {
        let base = std::env::temp_dir().join(format!("mancala-atomic-dir-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let dir = base.join("book");
        let files = |names: &[&str]| -> Vec<(String, Vec<u8>)> {
            names
                .iter()
                .map(|n| (n.to_string(), n.as_bytes().to_vec()))
                .collect()
        };
        write_dir(&dir, &files(&["a", "b"])).unwrap();
        write_dir(&dir, &files(&["c"])).unwrap();
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["c"]);
        // A bad name: an error, the old directory kept, nothing left over.
        assert!(write_dir(&dir, &files(&["x", "../y"])).is_err());
        assert_eq!(std::fs::read(dir.join("c")).unwrap(), b"c");
        let left: Vec<_> = std::fs::read_dir(&base).unwrap().collect();
        assert_eq!(left.len(), 1);
        std::fs::remove_dir_all(&base).unwrap();
    }
}
