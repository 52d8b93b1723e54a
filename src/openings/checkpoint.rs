//! [`Checkpoint`]: the finished part of a count, saved as text so that an
//! interrupted count resumes where it stopped.

use super::{Count, Summary, Wins};

/// The first line of a checkpoint file, with its format version.
const CHECKPOINT_MAGIC: &str = "mancala-openings-checkpoint 1";

/// What a count has finished: the summaries of the jobs of a [`Split`](super::Split)
/// done so far, so that an interrupted count resumes where it stopped.
///
/// The file is text, one field a line, so that it can be read:
///
/// ```text
/// mancala-openings-checkpoint 1
/// game dakon:7x7
/// position S 7,7,7,7,7,7,7/7,7,7,7,7,7,7 0-0
/// needs 50 91
/// split 5 21413 9f2c41d07be3a655        (depth, jobs, fingerprint)
/// seconds 1234.5                        (spent on the count in all)
/// done 17 120 100 6 9 0 - -             (job, turns, then per threshold:
/// ...                                     winning, shortest, longest)
/// checksum 0b6e1c5a9d3f2e47             (of every byte above)
/// ```
///
/// A job's lengths count from the job's position. A file whose first line,
/// checksum or fields are wrong is refused ([`CheckpointError`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Checkpoint {
    /// The variant, as written by `Variant`'s `Display`.
    pub game: String,
    /// The position counted from, in the notation.
    pub position: String,
    /// The two thresholds counted.
    pub needs: [usize; 2],
    /// [`Split::depth`](super::Split::depth).
    pub depth: u32,
    /// How many jobs the split has.
    pub jobs: usize,
    /// [`Split::fingerprint`](super::Split::fingerprint).
    pub fingerprint: u64,
    /// Seconds spent on the count so far, over every run.
    pub seconds: f64,
    /// The summaries of the jobs done, by job index.
    pub done: std::collections::BTreeMap<usize, Summary>,
}

/// Why a checkpoint file is refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CheckpointError {
    /// The first line is not the magic line of this version.
    #[error("not a checkpoint of this version (the first line is not {CHECKPOINT_MAGIC:?})")]
    Magic,
    /// The last line's checksum does not match the text above it.
    #[error("its checksum does not match (truncated or changed)")]
    Checksum,
    /// A line cannot be read.
    #[error("line {0}: {1}")]
    Malformed(usize, String),
}

impl Checkpoint {
    /// The file's text.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut t = String::new();
        let _ = writeln!(t, "{CHECKPOINT_MAGIC}");
        let _ = writeln!(t, "game {}", self.game);
        let _ = writeln!(t, "position {}", self.position);
        let _ = writeln!(t, "needs {} {}", self.needs[0], self.needs[1]);
        let _ = writeln!(
            t,
            "split {} {} {:016x}",
            self.depth, self.jobs, self.fingerprint
        );
        let _ = writeln!(t, "seconds {:.1}", self.seconds);
        let len = |l: Option<u32>| l.map_or("-".to_string(), |l| l.to_string());
        for (job, s) in &self.done {
            let _ = write!(t, "done {job} {}", s.turns);
            for w in &s.wins {
                let _ = write!(t, " {} {} {}", w.winning, len(w.shortest), len(w.longest));
            }
            t.push('\n');
        }
        let sum = crate::checksum::checksum(t.as_bytes());
        let _ = writeln!(t, "checksum {sum:016x}");
        t
    }

    /// Reads a checkpoint from its text.
    pub fn parse(text: &str) -> Result<Checkpoint, CheckpointError> {
        if text.lines().next() != Some(CHECKPOINT_MAGIC) {
            return Err(CheckpointError::Magic);
        }
        let body = text.trim_end_matches('\n');
        let (above, last) = body.rsplit_once('\n').ok_or(CheckpointError::Checksum)?;
        let sum = last
            .strip_prefix("checksum ")
            .and_then(|h| u64::from_str_radix(h, 16).ok())
            .ok_or(CheckpointError::Checksum)?;
        if crate::checksum::checksum(format!("{above}\n").as_bytes()) != sum {
            return Err(CheckpointError::Checksum);
        }
        let mut c = Checkpoint::default();
        for (i, line) in above.lines().enumerate().skip(1) {
            let bad = |why: &str| CheckpointError::Malformed(i + 1, why.to_string());
            let (field, rest) = line.split_once(' ').ok_or_else(|| bad("no value"))?;
            let words: Vec<&str> = rest.split(' ').collect();
            let num = |w: &str| w.parse::<usize>().map_err(|_| bad("not a number"));
            match (field, words.as_slice()) {
                ("game", _) => c.game = rest.to_string(),
                ("position", _) => c.position = rest.to_string(),
                ("seconds", [x]) => {
                    c.seconds = x
                        .parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite() && *x >= 0.0)
                        .ok_or_else(|| bad("not a number of seconds"))?;
                }
                ("needs", [a, b]) => c.needs = [num(a)?, num(b)?],
                ("split", [d, j, f]) => {
                    c.depth = num(d)? as u32;
                    c.jobs = num(j)?;
                    c.fingerprint =
                        u64::from_str_radix(f, 16).map_err(|_| bad("not a fingerprint"))?;
                }
                ("done", [job, turns, w @ ..]) if w.len() == 6 => {
                    let count = |w: &str| w.parse::<Count>().map_err(|_| bad("not a count"));
                    let len = |w: &str| match w {
                        "-" => Ok(None),
                        w => w.parse::<u32>().map(Some).map_err(|_| bad("not a length")),
                    };
                    let mut s = Summary {
                        turns: count(turns)?,
                        ..Summary::default()
                    };
                    for (k, wins) in s.wins.iter_mut().enumerate() {
                        *wins = Wins {
                            winning: count(w[3 * k])?,
                            shortest: len(w[3 * k + 1])?,
                            longest: len(w[3 * k + 2])?,
                        };
                    }
                    if c.done.insert(num(job)?, s).is_some() {
                        return Err(bad("a job done twice"));
                    }
                }
                _ => return Err(bad("unknown field or wrong number of values")),
            }
        }
        if let Some((&job, _)) = c.done.iter().next_back().filter(|(&j, _)| j >= c.jobs) {
            return Err(CheckpointError::Malformed(
                0,
                format!("job {job} is beyond the split's {}", c.jobs),
            ));
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_round_trip_and_refuse_damage() {
        let mut done = std::collections::BTreeMap::new();
        let mut s = Summary {
            turns: "123456789012345678901234567890123456789012"
                .parse()
                .unwrap(),
            ..Summary::default()
        };
        s.wins[0] = Wins {
            winning: Count::from(17),
            shortest: Some(3),
            longest: Some(40),
        };
        done.insert(0, s);
        done.insert(5, Summary::default());
        let c = Checkpoint {
            game: "dakon:7x7".into(),
            position: "S 7,7,7,7,7,7,7/7,7,7,7,7,7,7 0-0".into(),
            needs: [50, 91],
            depth: 5,
            jobs: 6,
            fingerprint: 0x0123_4567_89ab_cdef,
            seconds: 12.5,
            done,
        };
        let text = c.to_text();
        assert_eq!(Checkpoint::parse(&text), Ok(c.clone()));
        // A changed digit, a lost line, a foreign first line.
        let changed = text.replacen("done 5 0", "done 4 0", 1);
        assert_eq!(Checkpoint::parse(&changed), Err(CheckpointError::Checksum));
        let lines: Vec<&str> = text.lines().collect();
        let cut = lines[..lines.len() - 1].join("\n");
        assert_eq!(Checkpoint::parse(&cut), Err(CheckpointError::Checksum));
        assert_eq!(
            Checkpoint::parse(&text.replacen("checkpoint 1", "checkpoint 2", 1)),
            Err(CheckpointError::Magic)
        );
        // A job beyond the split, with a valid checksum.
        let beyond = Checkpoint { jobs: 5, ..c };
        assert!(matches!(
            Checkpoint::parse(&beyond.to_text()),
            Err(CheckpointError::Malformed(..))
        ));
    }
}
