//! [`Count`]: the exact, unbounded integers the first turns are counted in.

use std::fmt;

/// A non-negative integer of any size (sums of path counts): a `u128`
/// while it fits, little-endian 64-bit limbs beyond.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Count {
    /// A value below 2^128.
    Small(u128),
    /// A larger value, as limbs (at least three, the top one non-zero).
    Big(Vec<u64>),
}

impl Default for Count {
    fn default() -> Self {
        Count::Small(0)
    }
}

impl Count {
    /// Zero.
    pub fn zero() -> Count {
        Count::Small(0)
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        *self == Count::Small(0)
    }

    fn limbs(&self) -> Vec<u64> {
        match self {
            Count::Small(x) => vec![*x as u64, (*x >> 64) as u64],
            Count::Big(l) => l.clone(),
        }
    }

    /// Adds `other` to `self`.
    pub fn add(&mut self, other: &Count) {
        if let (Count::Small(a), Count::Small(b)) = (&*self, other) {
            if let Some(sum) = a.checked_add(*b) {
                *self = Count::Small(sum);
                return;
            }
        }
        let (mut a, b) = (self.limbs(), other.limbs());
        if a.len() < b.len() {
            a.resize(b.len(), 0);
        }
        let mut carry = 0u64;
        for (i, x) in a.iter_mut().enumerate() {
            let (s1, c1) = x.overflowing_add(b.get(i).copied().unwrap_or(0));
            let (s2, c2) = s1.overflowing_add(carry);
            *x = s2;
            carry = u64::from(c1 || c2);
        }
        if carry > 0 {
            a.push(carry);
        }
        while a.len() > 2 && a.last() == Some(&0) {
            a.pop();
        }
        *self = if a.len() <= 2 {
            Count::Small(u128::from(a[0]) | u128::from(a[1]) << 64)
        } else {
            Count::Big(a)
        };
    }

    /// The product of `self` and `other`.
    pub fn mul(&self, other: &Count) -> Count {
        if let (Count::Small(a), Count::Small(b)) = (self, other) {
            if let Some(p) = a.checked_mul(*b) {
                return Count::Small(p);
            }
        }
        let (a, b) = (self.limbs(), other.limbs());
        let mut p = vec![0u64; a.len() + b.len()];
        for (i, &x) in a.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &y) in b.iter().enumerate() {
                let cur = u128::from(x) * u128::from(y) + u128::from(p[i + j]) + carry;
                p[i + j] = cur as u64;
                carry = cur >> 64;
            }
            p[i + b.len()] = carry as u64;
        }
        while p.len() > 2 && p.last() == Some(&0) {
            p.pop();
        }
        if p.len() <= 2 {
            Count::Small(u128::from(p[0]) | u128::from(p[1]) << 64)
        } else {
            Count::Big(p)
        }
    }

    /// The value as a float (rounded), for estimates.
    pub fn to_f64(&self) -> f64 {
        match self {
            Count::Small(x) => *x as f64,
            Count::Big(l) => l
                .iter()
                .rev()
                .fold(0.0, |acc, &x| acc * 2f64.powi(64) + x as f64),
        }
    }

    /// The value, if it fits in a `u128`.
    pub fn to_u128(&self) -> Option<u128> {
        match self {
            Count::Small(x) => Some(*x),
            Count::Big(_) => None,
        }
    }
}

impl From<u64> for Count {
    fn from(x: u64) -> Count {
        Count::Small(u128::from(x))
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Count::Small(x) = self {
            return write!(f, "{x}");
        }
        // Repeated division by 10^19, the largest power of ten in a u64.
        const CHUNK: u64 = 10_000_000_000_000_000_000;
        let mut limbs = self.limbs();
        let mut chunks = Vec::new();
        while !limbs.is_empty() {
            let mut rem: u128 = 0;
            for limb in limbs.iter_mut().rev() {
                let cur = rem << 64 | u128::from(*limb);
                *limb = (cur / u128::from(CHUNK)) as u64;
                rem = cur % u128::from(CHUNK);
            }
            chunks.push(rem as u64);
            while limbs.last() == Some(&0) {
                limbs.pop();
            }
        }
        let mut chunks = chunks.iter().rev();
        write!(f, "{}", chunks.next().expect("non-zero"))?;
        for c in chunks {
            write!(f, "{c:019}")?;
        }
        Ok(())
    }
}

/// A decimal integer that is not a count.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("not a decimal count")]
pub struct CountParseError;

impl std::str::FromStr for Count {
    type Err = CountParseError;

    fn from_str(s: &str) -> Result<Count, CountParseError> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(CountParseError);
        }
        if let Ok(x) = s.parse::<u128>() {
            return Ok(Count::Small(x));
        }
        // Nineteen digits at a time: c = c * 10^k + chunk.
        let mut c = Count::zero();
        for chunk in s.as_bytes().chunks(19) {
            let digits = std::str::from_utf8(chunk).expect("ascii");
            let scale = Count::Small(10u128.pow(chunk.len() as u32));
            c = c.mul(&scale);
            c.add(&Count::from(digits.parse::<u64>().expect("19 digits fit")));
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_with_carries_and_print_in_decimal() {
        let mut c = Count::from(u64::MAX);
        c.add(&Count::from(1));
        assert_eq!(c.to_u128(), Some(1u128 << 64));
        assert_eq!(c.to_string(), "18446744073709551616");
        // 2^200 by doubling, against its known decimal expansion.
        let mut p = Count::from(1);
        for _ in 0..200 {
            let q = p.clone();
            p.add(&q);
        }
        assert_eq!(
            p.to_string(),
            "1606938044258990275541962092341162602522202993782792835301376"
        );
        assert_eq!(p.to_u128(), None);
        assert_eq!(Count::zero().to_string(), "0");
        let mut m = Count::from(1);
        m.add(&Count::Small(u128::MAX));
        assert_eq!(m, Count::Big(vec![0, 0, 1]));
        assert_eq!(m.to_string(), "340282366920938463463374607431768211456");
        let mut z = Count::zero();
        z.add(&Count::zero());
        assert!(z.is_zero());
    }

    #[test]
    fn counts_multiply_and_parse() {
        let c = |s: &str| s.parse::<Count>().unwrap();
        // Products computed with Python's integers.
        assert_eq!(
            c("12345678901234567890123")
                .mul(&c("98765432109876543210987654321"))
                .to_string(),
            "1219326311370217952261805212373261194926077834171483"
        );
        let max = Count::Small(u128::MAX);
        assert_eq!(
            max.mul(&max).to_string(),
            "115792089237316195423570985008687907852589419931798687112530834793049593217025"
        );
        assert_eq!(max.mul(&Count::zero()), Count::zero());
        assert_eq!(c("6").mul(&c("7")), Count::Small(42));
        let big = "10000000000000000000000000000000000000007";
        assert_eq!(c(big).to_string(), big);
        assert!(matches!(c(big), Count::Big(_)));
        assert_eq!(c("0"), Count::zero());
        for bad in ["", "-1", "1e5", "12 3", "+4"] {
            assert!(bad.parse::<Count>().is_err(), "{bad:?}");
        }
        assert_eq!(c(big).to_f64(), 1e40);
    }
}
