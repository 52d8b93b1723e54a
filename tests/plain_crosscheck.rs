//! The engine against the plain second implementation of the rules
//! (`tests/plain`, written from the rules document alone): the exact `moves`
//! output on many random positions of every game, both arbitrary boards and
//! positions reached by random play.

mod plain;

use mancala::games::MoveList;
use mancala::{Game, Position, Variant};

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

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
    let mut rng = Rng(0x5EED);
    let mut failures = Vec::new();
    for game in Game::ALL {
        for _ in 0..4000 {
            let n = 1 + rng.below(8) as usize;
            // Sparse and dense boards: small counts make captures, feeding
            // and endings likely; big ones make laps and relays long.
            let max = [3, 6, 12][rng.below(3) as usize];
            let mut text = format!("{} ", if rng.below(2) == 0 { 'S' } else { 'N' });
            let mut total = 0;
            for side in 0..2 {
                let row: Vec<String> = (0..n)
                    .map(|_| {
                        let c = rng.below(max + 1);
                        total += c;
                        c.to_string()
                    })
                    .collect();
                text += &row.join(",");
                text += if side == 0 { "/" } else { " " };
            }
            let (cs, cn) = (rng.below(10), rng.below(10));
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
    let mut rng = Rng(0xC0FFEE);
    let mut failures = Vec::new();
    let mut positions = 0;
    for game in Game::ALL {
        for _ in 0..150 {
            let (dn, ds) = game.default_size();
            let n = 1 + rng.below(dn as u64 + 1) as usize;
            let s = 1 + rng.below(ds as u64 + 1) as usize;
            let variant: Variant = format!("{game}:{n}x{s}").parse().unwrap();
            let mut pos = variant.start();
            let mut moves = MoveList::new();
            for _ in 0..300 {
                compare(game, &pos, &mut failures);
                positions += 1;
                if variant.generate(&pos, &mut moves).is_some() {
                    break;
                }
                pos = moves[rng.below(moves.len() as u64) as usize].1;
            }
        }
    }
    assert!(positions > 10_000, "only {positions} positions compared");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
