//! Property tests on random positions of every registered game: seeds are
//! conserved, the guarantees written on the `Rules` trait hold (play ignores
//! captured seeds, what a move takes off the board goes to the captures for
//! good, the rules are symmetric when the rows swap, a cycle never captures), the notation
//! and the packed keys round-trip, the perfect index is a bijection, and
//! `play` accepts exactly the moves `generate` lists.

use mancala::games::{play, MoveList};
use mancala::index::Indexer;
use mancala::packed::{fits, PackedBoard, PackedPosition};
use mancala::{dispatch, ByPlayer, Game, Move, Position, Rules, Setup, Side, Variant};
use proptest::prelude::*;

/// Any game.
fn game() -> impl Strategy<Value = Game> {
    prop::sample::select(Game::ALL.to_vec())
}

/// A random position of 1..=12 pits a row, at most 255 seeds in all.
fn position() -> impl Strategy<Value = Position> {
    (1usize..=12).prop_flat_map(|n| {
        (
            prop::collection::vec(0u32..=8, 2 * n),
            0u32..=30,
            0u32..=30,
            any::<bool>(),
        )
            .prop_map(move |(pits, cs, cn, north)| {
                let setup = Setup {
                    to_move: if north { Side::North } else { Side::South },
                    south: pits[..n].to_vec(),
                    north: pits[n..].to_vec(),
                    captured: ByPlayer::new(cs, cn),
                };
                Position::from_setup(&setup).expect("within limits")
            })
    })
}

/// A position reached by random play from the start of a random small
/// variant of `game`, so that it is a real game position.
fn played(game: Game) -> impl Strategy<Value = Position> {
    (
        1usize..=7,
        1usize..=6,
        prop::collection::vec(any::<u8>(), 0..80),
    )
        .prop_map(move |(n, s, choices)| {
            let v: Variant = format!("{game}:{n}x{s}").parse().expect("small variant");
            let mut pos = v.start();
            let mut moves = MoveList::new();
            for c in choices {
                if v.generate(&pos, &mut moves).is_some() {
                    break;
                }
                pos = moves[usize::from(c) % moves.len()].1;
            }
            pos
        })
}

fn check_moves<R: Rules>(pos: &Position) -> Result<(), TestCaseError> {
    let mut moves = MoveList::new();
    let terminal = R::generate(pos, &mut moves);
    prop_assert_eq!(terminal.is_some(), moves.is_empty());
    // Counting moves without making them agrees with generating them.
    prop_assert_eq!(
        R::count_moves(pos),
        terminal.is_none().then_some(moves.len())
    );
    // The final scores without making the moves agree too.
    prop_assert_eq!(R::outcome(pos), terminal);
    if let Some(score) = terminal {
        // Final scores share out at most the seeds of the position.
        prop_assert!(usize::from(score.south) + usize::from(score.north) <= pos.total_seeds());
    }
    // Increasing pit order, pass last and alone.
    for w in moves.windows(2) {
        prop_assert!(w[0].0 < w[1].0);
    }
    if moves.iter().any(|(m, _)| *m == Move::Pass) {
        prop_assert_eq!(moves.len(), 1);
    }
    for (_, child) in &moves {
        prop_assert_eq!(
            child.total_seeds(),
            pos.total_seeds(),
            "seeds not conserved"
        );
        prop_assert_eq!(child.n(), pos.n());
        // Captured seeds never go back to the board.
        for side in Side::BOTH {
            prop_assert!(child.captured(side) >= pos.captured(side));
        }
    }
    // `play` accepts a move exactly when it is listed, with the same result.
    let candidates = (1..=pos.n() as u8 + 1).map(Move::Pit).chain([Move::Pass]);
    for mv in candidates {
        let listed = moves.iter().find(|(m, _)| *m == mv).map(|(_, c)| *c);
        match (listed, play::<R>(pos, mv)) {
            (Some(c), Ok(p)) => prop_assert_eq!(c, p),
            (None, Err(_)) => {}
            (l, r) => prop_assert!(false, "{pos}: move {mv}: listed {l:?}, play {r:?}"),
        }
    }
    Ok(())
}

/// `pos` with the rows and the captures swapped and the other side to move.
fn swapped(pos: &Position) -> Position {
    let s = pos.to_setup();
    Position::from_setup(&Setup {
        to_move: s.to_move.other(),
        south: s.north,
        north: s.south,
        captured: ByPlayer::new(s.captured.north, s.captured.south),
    })
    .expect("the same seeds")
}

/// `pos` with nothing captured.
fn uncaptured(pos: &Position) -> Position {
    let mut s = pos.to_setup();
    s.captured = ByPlayer::new(0, 0);
    Position::from_setup(&s).expect("fewer seeds")
}

/// The guarantees written on the `Rules` trait, which the solver and the
/// databases rely on.
fn check_guarantees<R: Rules>(pos: &Position) -> Result<(), TestCaseError> {
    let mut moves = MoveList::new();
    let terminal = R::generate(pos, &mut moves);
    // 1. Play ignores captured seeds: the same moves, to the same boards,
    //    capturing the same, from the position with nothing captured.
    let bare = uncaptured(pos);
    let mut bare_moves = MoveList::new();
    let bare_terminal = R::generate(&bare, &mut bare_moves);
    prop_assert_eq!(terminal.is_some(), bare_terminal.is_some());
    if let (Some(t), Some(b)) = (terminal, bare_terminal) {
        for side in Side::BOTH {
            prop_assert_eq!(
                i32::from(t[side]) - i32::from(pos.captured(side)),
                i32::from(b[side]),
                "{}: the end of the game depends on the captures",
                pos
            );
        }
    }
    prop_assert_eq!(moves.len(), bare_moves.len());
    for ((m, c), (bm, bc)) in moves.iter().zip(&bare_moves) {
        prop_assert_eq!(m, bm);
        prop_assert_eq!(c.board(), bc.board(), "{}: move {}", pos, m);
        prop_assert_eq!(c.to_move(), bc.to_move());
        prop_assert_eq!(
            mancala::games::move_gain(pos, c),
            mancala::games::move_gain(&bare, bc)
        );
    }
    for (m, child) in &moves {
        // 2. What a move takes off the board goes to the captures, which
        //    never go back, whoever moves next.
        prop_assert_eq!(
            (child.total_seeds() - child.board_seeds()) - (pos.total_seeds() - pos.board_seeds()),
            pos.board_seeds() - child.board_seeds(),
            "{}: {}",
            pos,
            m
        );
        for side in Side::BOTH {
            prop_assert!(child.captured(side) >= pos.captured(side));
        }
        // 4. A cycle never captures: a move that captures or stores
        //    lowers the seeds on the board, and one that keeps them
        //    captures nothing.
        let took =
            child.total_seeds() - child.board_seeds() != pos.total_seeds() - pos.board_seeds();
        prop_assert_eq!(
            took,
            child.board_seeds() < pos.board_seeds(),
            "{}: {}",
            pos,
            m
        );
    }
    // 3. The rules are symmetric when the rows swap.
    let turned = swapped(pos);
    let mut turned_moves = MoveList::new();
    let turned_terminal = R::generate(&turned, &mut turned_moves);
    prop_assert_eq!(
        terminal.map(|t| (t.south, t.north)),
        turned_terminal.map(|t| (t.north, t.south))
    );
    prop_assert_eq!(moves.len(), turned_moves.len());
    for ((m, c), (tm, tc)) in moves.iter().zip(&turned_moves) {
        prop_assert_eq!(m, tm);
        prop_assert_eq!(swapped(c), *tc, "{}: move {}", pos, m);
    }
    Ok(())
}

fn round_trips(pos: &Position) -> Result<(), TestCaseError> {
    let text = pos.to_string();
    prop_assert_eq!(text.parse::<Position>().unwrap(), *pos);
    let n = pos.n();
    if fits(2 * n + 2, pos.total_seeds()) {
        let key = PackedPosition::new(pos).expect("fits");
        prop_assert_eq!(key.unpack(n), Some(*pos));
    } else {
        prop_assert!(PackedPosition::new(pos).is_none());
    }
    if fits(2 * n, pos.board_seeds()) {
        let key = PackedBoard::new(pos).expect("fits");
        prop_assert_eq!(
            key.unpack(n, [pos.captured(Side::South), pos.captured(Side::North)]),
            Some(*pos)
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn moves_conserve_seeds_and_agree_with_play(g in game(), pos in position()) {
        dispatch!(g, R => check_moves::<R>(&pos))?;
    }

    #[test]
    fn played_positions_conserve_seeds_and_agree_with_play(
        (g, pos) in game().prop_flat_map(|g| (Just(g), played(g)))
    ) {
        dispatch!(g, R => check_moves::<R>(&pos))?;
        round_trips(&pos)?;
    }

    #[test]
    fn every_game_keeps_the_guarantees_of_its_rules(g in game(), pos in position()) {
        dispatch!(g, R => check_guarantees::<R>(&pos))?;
    }

    #[test]
    fn played_positions_keep_the_guarantees_of_their_rules(
        (g, pos) in game().prop_flat_map(|g| (Just(g), played(g)))
    ) {
        dispatch!(g, R => check_guarantees::<R>(&pos))?;
    }

    #[test]
    fn notation_and_keys_round_trip(pos in position()) {
        round_trips(&pos)?;
    }

    #[test]
    fn rank_unrank_round_trip_on_large_indexes(
        pits in 2usize..=24,
        seeds in 0usize..=48,
        r in any::<u64>(),
    ) {
        let ix = Indexer::new(pits, seeds).unwrap();
        let r = r % ix.count();
        let mut counts = vec![0u8; pits];
        ix.unrank(r, &mut counts);
        prop_assert_eq!(counts.iter().map(|&c| usize::from(c)).sum::<usize>(), seeds);
        prop_assert_eq!(ix.rank(&counts), r);
    }
}

/// Every distribution of up to 6 seeds over 2..=6 pits (1 to 3 pits a row):
/// the packed keys of all positions with either side to move are distinct
/// and unpack to the position; ranks cover `0..count` exactly once.
#[test]
fn packing_and_ranking_are_bijections_on_small_boards() {
    for n in 1..=3usize {
        for k in 0..=6usize {
            let ix = Indexer::new(2 * n, k).unwrap();
            let mut keys = std::collections::HashSet::new();
            let mut counts = vec![0u8; 2 * n];
            for r in 0..ix.count() {
                ix.unrank(r, &mut counts);
                assert_eq!(ix.rank(&counts), r);
                for side in Side::BOTH {
                    let setup = Setup {
                        to_move: side,
                        south: counts[..n].iter().map(|&c| c.into()).collect(),
                        north: counts[n..].iter().map(|&c| c.into()).collect(),
                        captured: ByPlayer::new(1, 2),
                    };
                    let pos = Position::from_setup(&setup).unwrap();
                    let board = PackedBoard::new(&pos).unwrap();
                    assert_eq!(board.unpack(n, [1, 2]), Some(pos));
                    let full = PackedPosition::new(&pos).unwrap();
                    assert_eq!(full.unpack(n), Some(pos));
                    assert!(keys.insert(board), "duplicate key for {pos}");
                }
            }
            assert_eq!(keys.len() as u64, 2 * ix.count());
        }
    }
}
