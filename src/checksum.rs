//! The one checksum of the files the toolkit writes (database levels,
//! opening-count checkpoints): fast, stable across versions and machines,
//! and part of their formats, so it never changes without a format version.

/// A 64-bit checksum of `bytes`: eight bytes at a time, each word mixed
/// into the state by a multiply and rotate, the tail and the length last.
/// Not cryptographic; it catches corruption, truncation and reordering.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut c = Checksum::new();
    c.update(bytes);
    c.finish()
}

/// The [`checksum`] of bytes that arrive in pieces (a file written as it is
/// computed): `update` with the pieces in order, then `finish`. Every piece
/// but the last must hold a multiple of eight bytes, so that the words are
/// those of the whole; the result is then `checksum` of the concatenation.
#[derive(Clone, Debug)]
pub struct Checksum {
    h: u64,
    len: u64,
    /// The tail of a piece whose length was not a multiple of 8 (then no
    /// piece may follow).
    tail: Option<[u8; 8]>,
}

const M: u64 = 0x9E37_79B9_7F4A_7C15;

impl Default for Checksum {
    fn default() -> Checksum {
        Checksum::new()
    }
}

impl Checksum {
    /// The state before any byte.
    pub fn new() -> Checksum {
        Checksum {
            h: 0x243F_6A88_85A3_08D3,
            len: 0,
            tail: None,
        }
    }

    /// Feeds the next piece.
    ///
    /// # Panics
    /// If a piece whose length was not a multiple of 8 came before.
    pub fn update(&mut self, bytes: &[u8]) {
        assert!(
            self.tail.is_none(),
            "only the last piece may end inside a word"
        );
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let x = u64::from_le_bytes(w.try_into().expect("8 bytes"));
            self.h = (self.h ^ x).wrapping_mul(M).rotate_left(29);
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut tail = [0u8; 8];
            tail[..rest.len()].copy_from_slice(rest);
            self.tail = Some(tail);
        }
        self.len += bytes.len() as u64;
    }

    /// The checksum of everything fed.
    pub fn finish(&self) -> u64 {
        let tail = self.tail.unwrap_or([0; 8]);
        let mut h = (self.h ^ u64::from_le_bytes(tail))
            .wrapping_mul(M)
            .rotate_left(29);
        h ^= self.len;
        h = (h ^ (h >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^ (h >> 29)
    }
}

#[cfg(test)]
mod tests {
    use super::{checksum, Checksum};

    #[test]
    fn catches_changes_truncation_and_reordering() {
        let a = checksum(b"level 12 of awari");
        assert_eq!(a, checksum(b"level 12 of awari"));
        assert_ne!(a, checksum(b"level 13 of awari"));
        assert_ne!(a, checksum(b"level 12 of awar"));
        assert_ne!(checksum(b"abcdefgh12345678"), checksum(b"12345678abcdefgh"));
        assert_ne!(checksum(b""), checksum(b"\0"));
    }

    #[test]
    fn pieces_give_the_checksum_of_the_whole() {
        // A frozen value: the checksum is part of the file formats.
        assert_eq!(checksum(b"level 12 of awari"), 0x5c1f_d7ff_9546_354d);
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 7 + 3) as u8).collect();
        for len in [0, 1, 7, 8, 9, 64, 999, 1000] {
            for piece in [8, 16, 64, 1000] {
                let mut c = Checksum::new();
                for p in bytes[..len].chunks(piece) {
                    c.update(p);
                }
                assert_eq!(c.finish(), checksum(&bytes[..len]), "{len} {piece}");
            }
        }
    }
}
