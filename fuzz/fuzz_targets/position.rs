//! Fuzzes the game spec and position parsers, then the move generator and
//! `play` on whatever parses: no input may panic (debug assertions and
//! overflow checks are on) or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mancala::games::{play, MoveList};
use mancala::{dispatch, Move, Variant};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // First line: the game; second line: the position.
    let mut lines = text.splitn(2, '\n');
    let game = lines.next().unwrap_or("");
    let position = lines.next().unwrap_or("");
    let _ = position.parse::<mancala::Position>();
    let Ok(variant) = game.parse::<Variant>() else {
        return;
    };
    let Ok(pos) = variant.parse_position(position) else {
        return;
    };
    assert_eq!(pos.to_string().parse::<mancala::Position>().unwrap(), pos);
    let mut moves = MoveList::new();
    if variant.generate(&pos, &mut moves).is_none() {
        for (m, child) in &moves {
            assert_eq!(child.total_seeds(), pos.total_seeds());
            let played = dispatch!(variant.game, R => play::<R>(&pos, *m));
            assert_eq!(played.as_ref(), Ok(child));
        }
    }
    for k in 0..=17u8 {
        let _ = dispatch!(variant.game, R => play::<R>(&pos, Move::Pit(k.max(1))));
    }
});
