//! [`Dedup`]: the recogniser's per-set duplicate filter for items.

/// A set of `u64` keys, cleared per Earley set: open addressing whose
/// slots carry the generation (set) that wrote them, so clearing is one
/// increment and the small table stays in the L1 cache.
pub(super) struct Dedup {
    /// `(key, generation)`; a slot of another generation is empty.
    table: Vec<(u64, u32)>,
    generation: u32,
    count: usize,
}

impl Dedup {
    pub(super) fn new() -> Dedup {
        Dedup {
            table: vec![(0, 0); 256],
            generation: 1,
            count: 0,
        }
    }
    /// Inserts `k`; returns false if it was present.
    #[inline]
    pub(super) fn insert(&mut self, k: u64) -> bool {
        if self.count * 2 >= self.table.len() {
            self.grow();
        }
        let mask = self.table.len() - 1;
        let mut h = (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & mask;
        loop {
            let (v, gen) = self.table[h];
            if gen != self.generation {
                self.table[h] = (k, self.generation);
                self.count += 1;
                return true;
            }
            if v == k {
                return false;
            }
            h = (h + 1) & mask;
        }
    }
    #[cold]
    fn grow(&mut self) {
        let live: Vec<u64> = self
            .table
            .iter()
            .filter(|e| e.1 == self.generation)
            .map(|e| e.0)
            .collect();
        self.table = vec![(0, 0); self.table.len() * 2];
        self.generation = 1;
        self.count = 0;
        for k in live {
            self.insert(k);
        }
    }
    pub(super) fn clear(&mut self) {
        self.count = 0;
        if self.generation == u32::MAX {
            self.table.fill((0, 0));
            self.generation = 0;
        }
        self.generation += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::Dedup;

    #[test]
    fn inserts_once_per_generation_and_grows() {
        let mut d = Dedup::new();
        for k in 0..1000u64 {
            assert!(d.insert(k * 7919));
        }
        for k in 0..1000u64 {
            assert!(!d.insert(k * 7919), "{k} seen twice");
        }
        d.clear();
        assert!(d.insert(7919));
        assert!(!d.insert(7919));
        assert!(d.insert(0));
    }
}
