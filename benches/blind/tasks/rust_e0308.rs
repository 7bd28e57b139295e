//! Rate limiter and quota accounting for an API gateway.

pub mod config {
    #[derive(Debug, Clone)]
    pub struct Limits {
        pub per_second: u32,
        pub burst: u32,
        pub daily_quota: u64,
    }

    impl Default for Limits {
        fn default() -> Self {
            Limits { per_second: 10, burst: 20, daily_quota: 100_000 }
        }
    }
}

pub mod gateway {
    pub mod limiter {
        use crate::config::Limits;
        use std::collections::HashMap;

        #[derive(Debug)]
        pub struct Bucket {
            tokens: f64,
            last: u64,
        }

        pub struct Limiter {
            limits: Limits,
            buckets: HashMap<String, Bucket>,
            used_today: HashMap<String, u64>,
        }

        impl Limiter {
            pub fn new(limits: Limits) -> Self {
                Limiter { limits, buckets: HashMap::new(), used_today: HashMap::new() }
            }

            fn refill(&self, b: &mut Bucket, now: u64) {
                let elapsed = now.saturating_sub(b.last) as f64;
                let cap = self.limits.burst as f64;
                b.tokens = (b.tokens + elapsed * self.limits.per_second as f64).min(cap);
                b.last = now;
            }

            pub fn remaining_quota(&self, client: &str) -> u64 {
                let used = self.used_today.get(client).copied().unwrap_or(0);
                self.limits.daily_quota.saturating_sub(used)
            }

            pub fn allow(&mut self, client: &str, now: u64) -> bool {
                if self.remaining_quota(client) == 0 {
                    return false;
                }
                let burst = self.limits.burst as f64;
                let mut bucket = self
                    .buckets
                    .remove(client)
                    .unwrap_or(Bucket { tokens: burst, last: now });
                self.refill(&mut bucket, now);
                let ok = if bucket.tokens >= 1.0 {
                    bucket.tokens -= 1.0;
                    *self.used_today.entry(client.to_string()).or_insert(0) += 1;
                    true
                } else {
                    false
                };
                self.buckets.insert(client.to_string(), bucket);
                ok
            }

            pub fn report(&self) -> Vec<(String, u64)> {
                let mut out = Vec::new();
                for (name, used) in &self.used_today {
                    let left: u32 = self.remaining_quota(name);
                    out.push((name.clone(), *used + left));
                }
                out.sort();
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::config::Limits;
    use super::gateway::limiter::Limiter;

    #[test]
    fn burst_then_block() {
        let mut l = Limiter::new(Limits { per_second: 1, burst: 2, daily_quota: 10 });
        assert!(l.allow("a", 0));
        assert!(l.allow("a", 0));
        assert!(!l.allow("a", 0));
    }
}
