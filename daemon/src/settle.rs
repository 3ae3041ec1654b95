//! How long to settle after an action: the quiet window that ends a settle and a cap per
//! kind of action (which actions settle, and as what kind, the contract entry says).
//!
//! The waiting itself is the backends': screen damage for the desktop
//! (`desktop::x11::Damage`), network and DOM activity for a tab (`browser::settle`).

use std::time::Duration;

/// Kinds of state-changing actions, each with its own cap: the contract entry's `settle`.
pub use glovebox_protocol::contract::Settle as Kind;

/// The settle settings (`--settle-quiet-ms`, `--settle-cap kind=ms`).
#[derive(Debug, Clone)]
pub struct Policy {
    /// How long the screen (or page) must stay unchanged to count as settled.
    pub quiet: Duration,
    caps: [Duration; 6],
}

impl Default for Policy {
    fn default() -> Self {
        let ms = Duration::from_millis;
        Policy {
            quiet: ms(80),
            // pointer, type, key, scroll, navigate, window
            caps: [ms(1500), ms(1000), ms(1000), ms(800), ms(10_000), ms(2000)],
        }
    }
}

impl Policy {
    pub fn cap(&self, kind: Kind) -> Duration {
        self.caps[kind as usize]
    }

    /// Applies one `kind=ms` setting.
    pub fn set_cap(&mut self, spec: &str) -> Result<(), String> {
        let (name, ms) = spec.split_once('=').ok_or_else(|| format!("{spec:?} is not kind=ms"))?;
        let kind = Kind::ALL.into_iter().find(|k| k.name() == name).ok_or_else(|| {
            let names: Vec<_> = Kind::ALL.iter().map(|k| k.name()).collect();
            format!("unknown settle kind {name:?}; known: {}", names.join(", "))
        })?;
        let ms: u64 = ms.parse().map_err(|_| format!("{ms:?} is not a number of ms"))?;
        self.caps[kind as usize] = Duration::from_millis(ms);
        Ok(())
    }
}

/// An image's token cost for a vision model: about one token per 750 pixels.
pub fn image_tokens(width: u64, height: u64) -> u64 {
    (width * height).div_ceil(750)
}

/// A text's token cost: about four bytes per token.
pub fn text_tokens(bytes: usize) -> u64 {
    (bytes as u64).div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_parse_by_kind() {
        let mut p = Policy::default();
        p.set_cap("scroll=250").expect("a valid cap");
        assert_eq!(p.cap(Kind::Scroll), Duration::from_millis(250));
        assert!(p.set_cap("wobble=3").expect_err("an unknown kind").contains("known: pointer"));
        assert!(p.set_cap("scroll").is_err());
        assert!(p.set_cap("scroll=x").is_err());
    }

    #[test]
    fn token_estimates() {
        assert_eq!(image_tokens(1280, 800), 1366);
        assert_eq!(text_tokens(10), 3);
    }
}
