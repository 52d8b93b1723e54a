//! Families of near-duplicate puzzles, so that a collection shows each idea
//! once.
//!
//! Two puzzles are *neighbours* when one becomes the other by moving a
//! single seed from one pit to another (any two pits of the board, the
//! same side to move) and they have the same *solution pattern*: the same
//! key move and the same value. A *family* is a connected set of
//! neighbours among the puzzles given (the transitive closure), found by
//! union-find over a hash of the positions: each puzzle looks up its
//! `2n (2n - 1)` one-seed moves.
//!
//! Guarantee: [`best_of_families`] never keeps two puzzles that are
//! neighbours, since neighbours are in one family and it keeps one puzzle
//! a family.

use crate::games::Move;
use crate::position::Position;
use std::collections::HashMap;

/// The positions one seed move away from `pos`: a seed taken from an
/// occupied pit and dropped into any other pit, the side to move and the
/// captures unchanged.
pub fn one_seed_moves(pos: &Position) -> Vec<Position> {
    let n = pos.n();
    let board = &pos.board()[..2 * n];
    let mut out = Vec::new();
    for from in 0..2 * n {
        if board[from] == 0 {
            continue;
        }
        for to in 0..2 * n {
            if to == from {
                continue;
            }
            let mut b = [0u8; crate::position::MAX_PITS];
            b[..2 * n].copy_from_slice(board);
            b[from] -= 1;
            b[to] += 1;
            let mut p = *pos;
            p.board_mut()[..2 * n].copy_from_slice(&b[..2 * n]);
            out.push(p);
        }
    }
    out
}

/// The family of each puzzle, given as `(position, key move, value)`: an
/// index into `puzzles` of one member, the same for all members of a
/// family (module docs).
pub fn families(puzzles: &[(Position, Move, i32)]) -> Vec<usize> {
    let at: HashMap<Position, usize> = puzzles.iter().enumerate().map(|(i, p)| (p.0, i)).collect();
    let mut parent: Vec<usize> = (0..puzzles.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for (i, (pos, mv, v)) in puzzles.iter().enumerate() {
        for q in one_seed_moves(pos) {
            if let Some(&j) = at.get(&q) {
                if puzzles[j].1 == *mv && puzzles[j].2 == *v {
                    let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                    if a != b {
                        parent[a.max(b)] = a.min(b);
                    }
                }
            }
        }
    }
    (0..puzzles.len()).map(|i| root(&mut parent, i)).collect()
}

/// The indices of the best puzzle of each family, where `better(a, b)`
/// says whether puzzle `a` is better than `b`; in increasing index order.
pub fn best_of_families(
    puzzles: &[(Position, Move, i32)],
    mut better: impl FnMut(usize, usize) -> bool,
) -> Vec<usize> {
    let fam = families(puzzles);
    let mut best: HashMap<usize, usize> = HashMap::new();
    for (i, &f) in fam.iter().enumerate() {
        best.entry(f)
            .and_modify(|b| {
                if better(i, *b) {
                    *b = i;
                }
            })
            .or_insert(i);
    }
    let mut kept: Vec<usize> = best.into_values().collect();
    kept.sort_unstable();
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Setup;

    fn pos(s: &str) -> Position {
        Position::from_setup(&s.parse::<Setup>().unwrap()).unwrap()
    }

    #[test]
    fn one_seed_moves_keep_the_seeds() {
        let p = pos("S 1,0,2/0,1,0 0-0");
        let q = one_seed_moves(&p);
        // 3 occupied pits, 5 targets each.
        assert_eq!(q.len(), 15);
        assert!(q.iter().all(|x| x.board_seeds() == 4));
        assert!(q.contains(&pos("S 0,1,2/0,1,0 0-0")));
    }

    #[test]
    fn chains_are_one_family_and_other_moves_are_not() {
        let a = pos("S 1,0,2/0,1,0 0-0");
        let b = pos("S 0,1,2/0,1,0 0-0");
        let c = pos("S 0,1,1/1,1,0 0-0");
        let d = pos("S 3,0,0/0,1,0 0-0");
        let list = vec![
            (a, Move::Pit(1), 4),
            (c, Move::Pit(1), 4),
            (b, Move::Pit(1), 4),
            (d, Move::Pit(1), 4),
        ];
        let f = families(&list);
        assert_eq!(f[0], f[1]);
        assert_eq!(f[0], f[2]);
        assert_ne!(f[0], f[3]);
        // The same positions with another key move are not neighbours.
        let other = vec![(a, Move::Pit(1), 4), (b, Move::Pit(2), 4)];
        let f = families(&other);
        assert_ne!(f[0], f[1]);
        assert_eq!(best_of_families(&list, |i, j| i > j), vec![2, 3]);
    }
}
