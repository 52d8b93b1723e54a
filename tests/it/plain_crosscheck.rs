//! The engine against the plain second implementation of the rules
//! (`tests/it/plain`, written from the rules document alone): the exact `moves`
//! output on many random positions of every game, both arbitrary boards and
//! positions reached by random play.

use crate::common;
use crate::plain;

use mancala::games::MoveList;
use mancala::{Game, Position, Variant};

/// What `mancala moves` prints, from the engine.
fn engine_lines(variant: &Variant, pos: &Position) -> Vec<String> {
    let mut moves = MoveList::new();
    match variant.generate(pos, &mut moves) {
        Some(s) => vec![format!("end {}-{}", s.south, s.north)],
        None => moves.iter().map(|(m, c)| format!("{m}\t{c}")).collect(),
    }
}

fn compare(game: Game, pos: &Position, failures: &mut Vec<String>) {
    let variant = Variant::standard(game);
    let ours = engine_lines(&variant, pos);
    let theirs = plain::moves_output(game.name(), &plain::parse_pos(&pos.to_string()));
    if ours != theirs && failures.len() < 20 {
        failures.push(format!(
            "{game} \"{pos}\":\n  engine {ours:?}\n  plain  {theirs:?}"
        ));
    }
}

#[test]
fn random_boards_give_the_same_moves() {
    let mut below = common::lcg(0x5EED);
    let mut failures = Vec::new();
    for game in Game::ALL {
        for _ in 0..4000 {
            let n = 1 + below(8) as usize;
            // Sparse and dense boards: small counts make captures, feeding
            // and endings likely; big ones make laps and relays long.
            let max = [3, 6, 12][below(3) as usize];
            let mut text = format!("{} ", if below(2) == 0 { 'S' } else { 'N' });
            let mut total = 0;
            for side in 0..2 {
                let row: Vec<String> = (0..n)
                    .map(|_| {
                        let c = below(max + 1);
                        total += c;
                        c.to_string()
                    })
                    .collect();
                text += &row.join(",");
                text += if side == 0 { "/" } else { " " };
            }
            let (cs, cn) = (below(10), below(10));
            if total + cs + cn > 255 {
                continue;
            }
            text += &format!("{cs}-{cn}");
            let pos: Position = text.parse().unwrap();
            compare(game, &pos, &mut failures);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn random_games_give_the_same_moves() {
    let mut below = common::lcg(0xC0FFEE);
    let mut failures = Vec::new();
    let mut positions = 0;
    for game in Game::ALL {
        for _ in 0..150 {
            let (dn, ds) = game.default_size();
            let n = 1 + below(dn as u64 + 1) as usize;
            let s = 1 + below(ds as u64 + 1) as usize;
            let variant: Variant = format!("{game}:{n}x{s}").parse().unwrap();
            let mut pos = variant.start();
            let mut moves = MoveList::new();
            for _ in 0..300 {
                compare(game, &pos, &mut failures);
                positions += 1;
                if variant.generate(&pos, &mut moves).is_some() {
                    break;
                }
                pos = moves[below(moves.len() as u64) as usize].1;
            }
        }
    }
    assert!(positions > 10_000, "only {positions} positions compared");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
