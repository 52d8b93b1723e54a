//! The file of one database level: a fixed header and a raw payload.
//!
//! # Layout (format version 1)
//!
//! A file holds the level of one game, one row length `n` and one count `k`
//! of seeds on the board. It is a [`HEADER_BYTES`]-byte header followed by
//! the payload; every integer is little-endian.
//!
//! | offset | bytes | field                                                  |
//! |--------|-------|--------------------------------------------------------|
//! | 0      | 8     | magic, the ASCII bytes `MANCALDB`                      |
//! | 8      | 4     | format version (`u32`, 1)                              |
//! | 12     | 16    | game name, ASCII, zero-padded (`kalah`, `djenon-abe`)  |
//! | 28     | 1     | pits per row `n`                                       |
//! | 29     | 2     | seeds on the board `k` (`u16`)                         |
//! | 31     | 1     | bytes per entry (1)                                    |
//! | 32     | 8     | entry count (`u64`): `C(k + 2n - 1, 2n - 1)`           |
//! | 40     | 8     | checksum of the payload (`u64`, see [`checksum`])      |
//! | 48     | 8     | checksum of bytes 0..48 of the header                  |
//! | 56     | 8     | zero                                                   |
//!
//! The header is encoded with `bincode` in its fixed-width little-endian
//! configuration, which writes exactly the table above.
//!
//! The payload has one signed byte (`i8`) per board: the exact future net
//! gain of the side to move (see [`super`]) for the board of rank `r` (the
//! perfect index of [`crate::index::Indexer`] over the `2n` pits, South's
//! pits 1..n then North's pits 1..n) with **South to move**, at offset
//! `HEADER_BYTES + r`. A gain lies in `-k..=k`, so one byte holds it for
//! every `k <= 127`. The payload starts 64 bytes into the file, so a
//! memory map of the file can be read as bytes directly.
//!
//! # Safety of the files
//!
//! Files are written to a temporary file in the same directory, synced, and
//! renamed over the final name: a reader never sees a partial file, and an
//! interrupted build leaves only complete levels behind. A file is refused
//! with a [`FileError`] when its size, magic, version, game, row length,
//! seeds, entry count, header checksum or payload checksum is not what was
//! expected.

use crate::index::Indexer;
use bincode::{Decode, Encode};
use std::fs::File;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Bytes of the header; the payload starts here.
pub const HEADER_BYTES: usize = 64;
/// The magic bytes at the start of every file.
pub const MAGIC: [u8; 8] = *b"MANCALDB";
/// The format version this code writes and reads.
pub const VERSION: u32 = 1;
/// Largest `k` whose gains fit one signed byte.
pub const MAX_LEVEL_SEEDS: usize = 127;

/// Why a database file cannot be used.
#[derive(Debug, Error)]
pub enum FileError {
    /// The operating system refused.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file is not a database level as expected.
    #[error("{path}: not a valid database file: {why}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What does not match.
        why: String,
    },
}

/// The header of a level file (see the module docs for the layout).
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode)]
struct Header {
    magic: [u8; 8],
    version: u32,
    game: [u8; 16],
    n: u8,
    k: u16,
    entry_bytes: u8,
    entries: u64,
    checksum: u64,
}

fn config() -> impl bincode::config::Config {
    bincode::config::standard()
        .with_little_endian()
        .with_fixed_int_encoding()
}

/// Bytes the header fields take before the header checksum.
const FIELDS_BYTES: usize = 48;

fn game_field(game: &str) -> [u8; 16] {
    let mut f = [0u8; 16];
    f[..game.len()].copy_from_slice(game.as_bytes());
    f
}

impl Header {
    fn encode(&self) -> [u8; HEADER_BYTES] {
        let mut out = [0u8; HEADER_BYTES];
        let len = bincode::encode_into_slice(self, &mut out[..FIELDS_BYTES], config())
            .expect("the header fits its 48 bytes");
        debug_assert_eq!(len, FIELDS_BYTES);
        let sum = checksum(&out[..FIELDS_BYTES]);
        out[FIELDS_BYTES..FIELDS_BYTES + 8].copy_from_slice(&sum.to_le_bytes());
        out
    }
}

/// The checksum of the header and payload ([`crate::checksum::checksum`]).
pub use crate::checksum::checksum;

/// What a level file must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelId {
    /// The game's name ([`crate::Rules::NAME`], at most 16 bytes).
    pub game: &'static str,
    /// Pits per row.
    pub n: usize,
    /// Seeds on the board.
    pub k: usize,
}

impl LevelId {
    /// Number of boards (entries) of the level.
    ///
    /// # Panics
    /// If `2n` pits and `k` seeds have more than 2^64 boards.
    pub fn entries(&self) -> u64 {
        Indexer::new(2 * self.n, self.k)
            .expect("database levels are far below 2^64 boards")
            .count()
    }

    /// The file name of the level inside a database directory.
    pub fn file_name(&self) -> String {
        format!("{}-{}-{:03}.mdb", self.game, self.n, self.k)
    }

    fn header(&self, payload: &[u8]) -> Header {
        self.header_with(payload.len() as u64, checksum(payload))
    }

    fn header_with(&self, entries: u64, checksum: u64) -> Header {
        Header {
            magic: MAGIC,
            version: VERSION,
            game: game_field(self.game),
            n: self.n as u8,
            k: self.k as u16,
            entry_bytes: 1,
            entries,
            checksum,
        }
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> FileError + '_ {
    move |source| FileError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes the level `id` with these gains (one per board, by rank) to
/// `path` atomically: a temporary file in the same directory, synced, then
/// renamed.
///
/// # Panics
/// If there is not one gain per board of the level.
pub fn write(path: &Path, id: LevelId, gains: &[i8]) -> Result<(), FileError> {
    assert_eq!(gains.len() as u64, id.entries(), "one gain per board");
    write_with(path, id, &mut |start, out| {
        // Each gain is stored as its two's-complement byte.
        for (o, &g) in out.iter_mut().zip(&gains[start as usize..]) {
            *o = g as u8;
        }
    })
}

/// Bytes of payload [`write_with`] asks for at a time (a multiple of 8, as
/// the streamed checksum needs).
pub const WRITE_PIECE: usize = 1 << 20;

/// Writes the level `id` to `path` atomically, asking `fill(start, out)`
/// for the payload bytes of ranks `start..start + out.len()`, in order, a
/// piece of at most [`WRITE_PIECE`] bytes at a time: the payload is never
/// whole in memory (the build writes straight from its working memory),
/// and its checksum is computed as it goes. The header, which holds that
/// checksum, is written last, at the start of the file.
pub fn write_with(
    path: &Path,
    id: LevelId,
    fill: &mut dyn FnMut(u64, &mut [u8]),
) -> Result<(), FileError> {
    use std::io::{Seek, SeekFrom, Write};
    let entries = id.entries();
    let mut piece = vec![0u8; WRITE_PIECE.min(entries as usize)];
    crate::atomic_file::write_with(path, |f| {
        f.write_all(&[0u8; HEADER_BYTES])?;
        let mut sum = crate::checksum::Checksum::new();
        let mut start = 0u64;
        while start < entries {
            let len = (entries - start).min(WRITE_PIECE as u64) as usize;
            let out = &mut piece[..len];
            fill(start, out);
            sum.update(out);
            f.write_all(out)?;
            start += len as u64;
        }
        let header = id.header_with(entries, sum.finish()).encode();
        f.seek(SeekFrom::Start(0))?;
        f.write_all(&header)
    })
    .map_err(io(path))
}

/// A level file, checked and memory-mapped.
#[derive(Debug)]
pub struct LevelFile {
    id: LevelId,
    map: memmap2::Mmap,
}

impl LevelFile {
    /// Opens `path`, which must hold the level `id`; checks the header,
    /// the size and (when `verify_payload`) the payload checksum.
    pub fn open(path: &Path, id: LevelId, verify_payload: bool) -> Result<LevelFile, FileError> {
        let invalid = |why: String| FileError::Invalid {
            path: path.to_path_buf(),
            why,
        };
        let file = File::open(path).map_err(io(path))?;
        let len = file.metadata().map_err(io(path))?.len();
        if len < HEADER_BYTES as u64 {
            return Err(invalid(format!(
                "{len} bytes is shorter than the {HEADER_BYTES}-byte header"
            )));
        }
        // SAFETY: the file is mapped read-only. A mapping of a file is
        // unsound only if the file changes while mapped; the toolkit never
        // modifies a level file in place (it writes a new file and renames
        // it over the old one, which leaves existing mappings on the old
        // contents), so only an outside program truncating or rewriting the
        // file could do so, as with any memory-mapped database. Exercised
        // by every test that opens a database.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io(path))?;
        let head = &map[..HEADER_BYTES];
        if head[..8] != MAGIC {
            return Err(invalid("wrong magic bytes".into()));
        }
        let stored_sum = u64::from_le_bytes(head[48..56].try_into().expect("8 bytes"));
        if checksum(&head[..FIELDS_BYTES]) != stored_sum {
            return Err(invalid("header checksum mismatch (corrupt header)".into()));
        }
        let (header, _): (Header, usize) =
            bincode::decode_from_slice(&head[..FIELDS_BYTES], config())
                .map_err(|e| invalid(format!("unreadable header: {e}")))?;
        if header.version != VERSION {
            return Err(invalid(format!(
                "format version {} (this program reads version {VERSION})",
                header.version
            )));
        }
        let expected = id.header(&[]);
        if header.game != expected.game {
            let name = String::from_utf8_lossy(&header.game);
            return Err(invalid(format!(
                "holds game {:?}, not {}",
                name.trim_end_matches('\0'),
                id.game
            )));
        }
        if usize::from(header.n) != id.n || usize::from(header.k) != id.k {
            return Err(invalid(format!(
                "holds {} pits a row and {} seeds, not {} and {}",
                header.n, header.k, id.n, id.k
            )));
        }
        if header.entry_bytes != 1 {
            return Err(invalid(format!("{} bytes per entry", header.entry_bytes)));
        }
        let entries = id.entries();
        if header.entries != entries {
            return Err(invalid(format!(
                "{} entries in the header, the level has {entries}",
                header.entries
            )));
        }
        if len != HEADER_BYTES as u64 + entries {
            return Err(invalid(format!(
                "{len} bytes, expected {} (truncated or padded)",
                HEADER_BYTES as u64 + entries
            )));
        }
        if verify_payload && checksum(&map[HEADER_BYTES..]) != header.checksum {
            return Err(invalid("payload checksum mismatch (corrupt data)".into()));
        }
        Ok(LevelFile { id, map })
    }

    /// The level this file holds.
    pub fn id(&self) -> LevelId {
        self.id
    }

    /// The raw payload: one byte per board, by rank.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        &self.map[HEADER_BYTES..]
    }

    /// The gain stored for the board of rank `r`.
    #[inline]
    pub fn gain(&self, r: u64) -> i8 {
        self.bytes()[r as usize] as i8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("mancala-file-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn header_is_the_documented_layout() {
        let id = LevelId {
            game: "djenon-abe",
            n: 6,
            k: 3,
        };
        let h = id.header(&[1, 2, 3]).encode();
        assert_eq!(&h[..8], b"MANCALDB");
        assert_eq!(h[8..12], 1u32.to_le_bytes());
        assert_eq!(&h[12..22], b"djenon-abe");
        assert!(h[22..28].iter().all(|&b| b == 0));
        assert_eq!(h[28], 6);
        assert_eq!(h[29..31], 3u16.to_le_bytes());
        assert_eq!(h[31], 1);
        assert_eq!(h[32..40], 3u64.to_le_bytes());
        assert_eq!(h[40..48], checksum(&[1, 2, 3]).to_le_bytes());
        assert_eq!(h[48..56], checksum(&h[..48]).to_le_bytes());
        assert!(h[56..].iter().all(|&b| b == 0));
    }

    #[test]
    fn write_then_open_round_trips_and_refuses_what_does_not_match() {
        let dir = temp_dir("rt");
        let id = LevelId {
            game: "awari",
            n: 2,
            k: 3,
        };
        let gains: Vec<i8> = (0..id.entries()).map(|r| (r % 7) as i8 - 3).collect();
        let path = dir.join(id.file_name());
        write(&path, id, &gains).unwrap();
        let f = LevelFile::open(&path, id, true).unwrap();
        assert_eq!(f.bytes().len(), gains.len());
        for (r, &g) in gains.iter().enumerate() {
            assert_eq!(f.gain(r as u64), g);
        }
        // Another level or game is refused.
        let other = LevelId { k: 4, ..id };
        assert!(LevelFile::open(&path, other, true).is_err());
        let kalah = LevelId {
            game: "kalah",
            ..id
        };
        let e = LevelFile::open(&path, kalah, true).unwrap_err().to_string();
        assert!(e.contains("awari"), "{e}");
        // A flipped payload byte, a flipped header byte, truncation.
        let good = std::fs::read(&path).unwrap();
        let mut bad = good.clone();
        *bad.last_mut().unwrap() ^= 1;
        std::fs::write(&path, &bad).unwrap();
        let e = LevelFile::open(&path, id, true).unwrap_err().to_string();
        assert!(e.contains("checksum"), "{e}");
        let mut bad = good.clone();
        bad[30] ^= 1;
        std::fs::write(&path, &bad).unwrap();
        assert!(LevelFile::open(&path, id, true).is_err());
        std::fs::write(&path, &good[..good.len() - 1]).unwrap();
        let e = LevelFile::open(&path, id, true).unwrap_err().to_string();
        assert!(e.contains("bytes"), "{e}");
        std::fs::write(&path, &good[..10]).unwrap();
        assert!(LevelFile::open(&path, id, true).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The file written in pieces is the documented header followed by the
    /// payload, byte for byte (the format of every file written before).
    #[test]
    fn a_file_written_in_pieces_is_header_then_payload() {
        let dir = temp_dir("pieces");
        let id = LevelId {
            game: "awari",
            n: 6,
            k: 12,
        };
        let entries = id.entries() as usize;
        assert!(entries > WRITE_PIECE, "more than one piece");
        let gains: Vec<i8> = (0..entries).map(|r| ((r * 31) % 25) as i8 - 12).collect();
        let payload: Vec<u8> = gains.iter().map(|&g| g as u8).collect();
        let path = dir.join(id.file_name());
        write(&path, id, &gains).unwrap();
        let got = std::fs::read(&path).unwrap();
        assert_eq!(got[..HEADER_BYTES], id.header(&payload).encode());
        assert!(got[HEADER_BYTES..] == payload[..]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
