//! [`Ranks`] over MPI (the cargo feature `mpi`, through rsmpi): the ranks
//! of `mpirun -n N mancala db build ...` (or of Slurm's `srun`).
//!
//! Every step is a blocking MPI collective on the world communicator, or
//! one blocking send and receive. The builds call them between their
//! parallel phases, from the thread that initialized MPI (a [`World`] is
//! not `Sync`: rayon's threads cannot reach it), so the threading level
//! rsmpi's `initialize` asks for (`MPI_THREAD_SINGLE`: only one thread
//! calls MPI) is what the program does.

use super::ranks::Ranks;
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::traits::*;
use mpi::Count;

/// The ranks of the MPI world. MPI is finalized when it is dropped.
pub struct World {
    _universe: mpi::environment::Universe,
    world: SimpleCommunicator,
}

impl World {
    /// Initializes MPI; `None` when it was initialized already.
    pub fn init() -> Option<World> {
        let universe = mpi::initialize()?;
        let world = universe.world();
        Some(World {
            _universe: universe,
            world,
        })
    }

    /// Ends every rank of the run at once, with this exit status (what
    /// an error in one rank must do: the others would wait for it
    /// forever).
    pub fn abort(&self, status: i32) -> ! {
        self.world.abort(status)
    }
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "World(rank {} of {})", self.rank(), self.size())
    }
}

fn count(n: usize) -> Count {
    Count::try_from(n).expect("an MPI message holds fewer than 2^31 elements")
}

/// Largest piece sent in one MPI message (elements): MPI counts are
/// 32-bit.
const MAX_MESSAGE: usize = 1 << 28;

impl Ranks for World {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn or(&self, bits: u32) -> u32 {
        let mut out = 0u32;
        self.world
            .all_reduce_into(&bits, &mut out, SystemOperation::bitwise_or());
        out
    }

    fn sum(&self, x: u64) -> u64 {
        let mut out = 0u64;
        self.world
            .all_reduce_into(&x, &mut out, SystemOperation::sum());
        out
    }

    fn gather(&self, x: u64) -> Vec<u64> {
        let mut out = vec![0u64; self.size()];
        self.world.all_gather_into(&x, &mut out[..]);
        out
    }

    fn exchange(&self, out: &[Vec<u64>]) -> Vec<u64> {
        let size = self.size();
        let me = self.rank();
        assert_eq!(out.len(), size, "one batch per rank");
        let lens: Vec<u64> = (0..size)
            .map(|d| if d == me { 0 } else { out[d].len() as u64 })
            .collect();
        // Everyone's lengths first, then the news in one all-to-all.
        let mut incoming = vec![0u64; size];
        self.world.all_to_all_into(&lens[..], &mut incoming[..]);
        let send: Vec<u64> = (0..size)
            .filter(|&d| d != me)
            .flat_map(|d| out[d].iter().copied())
            .collect();
        let counts: Vec<Count> = lens.iter().map(|&l| count(l as usize)).collect();
        let displs = offsets(&counts);
        let rcounts: Vec<Count> = incoming.iter().map(|&l| count(l as usize)).collect();
        let rdispls = offsets(&rcounts);
        let total = rcounts.iter().map(|&c| c as usize).sum();
        let mut got = vec![0u64; total];
        {
            let sendbuf = Partition::new(&send[..], counts, displs);
            let mut recvbuf = PartitionMut::new(&mut got[..], rcounts, rdispls);
            self.world.all_to_all_varcount_into(&sendbuf, &mut recvbuf);
        }
        got
    }

    fn broadcast(&self, root: usize, buf: &mut [u16]) {
        let root = self.world.process_at_rank(root as i32);
        for piece in buf.chunks_mut(MAX_MESSAGE) {
            root.broadcast_into(piece);
        }
    }

    fn send(&self, to: usize, data: &[u8]) {
        let p = self.world.process_at_rank(to as i32);
        for piece in data.chunks(MAX_MESSAGE) {
            p.send(piece);
        }
    }

    fn receive(&self, from: usize, out: &mut [u8]) {
        let p = self.world.process_at_rank(from as i32);
        for piece in out.chunks_mut(MAX_MESSAGE) {
            p.receive_into(piece);
        }
    }

    fn send_message(&self, to: usize, data: &[u8]) {
        assert!(data.len() < MAX_MESSAGE, "a message is short");
        self.world.process_at_rank(to as i32).send(data);
    }

    fn receive_message(&self, from: Option<usize>) -> (usize, Vec<u8>) {
        let (data, status) = match from {
            Some(r) => self.world.process_at_rank(r as i32).receive_vec::<u8>(),
            None => self.world.any_process().receive_vec::<u8>(),
        };
        (status.source_rank() as usize, data)
    }
}

/// The displacements of consecutive pieces of these counts.
fn offsets(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0, |at, &c| {
            let d = *at;
            *at += c;
            Some(d)
        })
        .collect()
}
