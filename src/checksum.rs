//! The one checksum of the files the toolkit writes (database levels,
//! opening-count checkpoints): fast, stable across versions and machines,
//! and part of their formats, so it never changes without a format version.

/// A 64-bit checksum of `bytes`: eight bytes at a time, each word mixed
/// into the state by a multiply and rotate, the tail and the length last.
/// Not cryptographic; it catches corruption, truncation and reordering.
pub fn checksum(bytes: &[u8]) -> u64 {
    const M: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = 0x243F_6A88_85A3_08D3u64;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let x = u64::from_le_bytes(w.try_into().expect("8 bytes"));
        h = (h ^ x).wrapping_mul(M).rotate_left(29);
    }
    let mut tail = [0u8; 8];
    tail[..words.remainder().len()].copy_from_slice(words.remainder());
    h = (h ^ u64::from_le_bytes(tail))
        .wrapping_mul(M)
        .rotate_left(29);
    h ^= bytes.len() as u64;
    h = (h ^ (h >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 29)
}

#[cfg(test)]
mod tests {
    use super::checksum;

    #[test]
    fn catches_changes_truncation_and_reordering() {
        let a = checksum(b"level 12 of awari");
        assert_eq!(a, checksum(b"level 12 of awari"));
        assert_ne!(a, checksum(b"level 13 of awari"));
        assert_ne!(a, checksum(b"level 12 of awar"));
        assert_ne!(checksum(b"abcdefgh12345678"), checksum(b"12345678abcdefgh"));
        assert_ne!(checksum(b""), checksum(b"\0"));
    }
}
