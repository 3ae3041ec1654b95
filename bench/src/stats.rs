//! Percentiles of latency samples and the median across rounds (the house rule: report
//! medians, never a single run).

use std::time::Duration;

use serde_json::{json, Value};

/// One distribution, in microseconds.
#[derive(Clone, Copy, Debug)]
pub struct Summary {
    pub n: usize,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
}

impl Summary {
    /// Nearest-rank percentiles of `samples` (sorted in place).
    pub fn of(samples: &mut [Duration]) -> Summary {
        samples.sort_unstable();
        let at = |p: f64| -> f64 {
            if samples.is_empty() {
                return f64::NAN;
            }
            let rank = ((p * samples.len() as f64).ceil() as usize).clamp(1, samples.len());
            samples[rank - 1].as_nanos() as f64 / 1_000.0
        };
        Summary { n: samples.len(), p50: at(0.50), p90: at(0.90), p99: at(0.99), max: at(1.0) }
    }

    /// Each statistic's median across rounds (p50 = the median of the round medians).
    pub fn median_of(rounds: &[Summary]) -> Summary {
        let m = |f: fn(&Summary) -> f64| median(&rounds.iter().map(f).collect::<Vec<_>>());
        Summary {
            n: rounds.iter().map(|r| r.n).sum(),
            p50: m(|s| s.p50),
            p90: m(|s| s.p90),
            p99: m(|s| s.p99),
            max: m(|s| s.max),
        }
    }

    pub fn to_json(self) -> Value {
        json!({"n": self.n, "p50_us": round1(self.p50), "p90_us": round1(self.p90),
               "p99_us": round1(self.p99), "max_us": round1(self.max)})
    }
}

/// The median (mean of the middle two for an even count); NaN for none.
pub fn median(xs: &[f64]) -> f64 {
    let mut v: Vec<f64> = xs.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

pub fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}
