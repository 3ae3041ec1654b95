//! Who may open the view page: single-use codes (printed in a view link) exchanged for a
//! cookie, and the cookies handed out. Both stand for a token, of which only its digest is
//! kept, here in memory only (never logged, never sent back, never on disk); its role is read
//! again on every use, so a token revoked by a reload closes the page's way in too. Each
//! token has its own bounded share of codes and cookies: minting more drops that token's
//! oldest, never another token's.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::auth::Digest;

/// How long a printed code can be exchanged.
pub const CODE_TTL: Duration = Duration::from_secs(24 * 3600);
/// How long a cookie stays good once handed out.
pub const COOKIE_TTL: Duration = Duration::from_secs(12 * 3600);
/// The cookie's name.
pub const COOKIE: &str = "glovebox_view";
/// Codes, and cookies, kept at most per token (its oldest go first).
pub const KEPT_PER_TOKEN: usize = 32;

type Store = HashMap<String, (Digest, Instant)>;

#[derive(Default)]
pub struct Access {
    codes: Mutex<Store>,
    cookies: Mutex<Store>,
}

impl std::fmt::Debug for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print a token, a code or a cookie.
        f.write_str("Access")
    }
}

/// 32 random bytes as hex, or `None` without randomness.
fn random() -> Option<String> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).ok()?;
    Some(b.iter().map(|x| format!("{x:02x}")).collect())
}

/// Drop what expired, then `token`'s oldest until it has room for one more.
fn keep(map: &mut Store, ttl: Duration, token: &Digest) {
    let now = Instant::now();
    map.retain(|_, (_, t)| now.duration_since(*t) < ttl);
    loop {
        let own = map.iter().filter(|(_, (d, _))| d == token);
        if own.clone().count() < KEPT_PER_TOKEN {
            break;
        }
        let Some(oldest) = own.min_by_key(|(_, (_, t))| *t).map(|(k, _)| k.clone()) else {
            break;
        };
        map.remove(&oldest);
    }
}

fn lock(m: &Mutex<Store>) -> std::sync::MutexGuard<'_, Store> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Access {
    /// A fresh single-use code standing for the token with digest `token`.
    pub fn mint(&self, token: &Digest) -> Option<String> {
        let code = random()?;
        let mut codes = lock(&self.codes);
        keep(&mut codes, CODE_TTL, token);
        codes.insert(code.clone(), (*token, Instant::now()));
        Some(code)
    }

    /// Spends `code`: a fresh cookie value for its token, or `None` when the code is unknown,
    /// spent or expired.
    pub fn redeem(&self, code: &str) -> Option<(String, Digest)> {
        let (token, at) = lock(&self.codes).remove(code)?;
        if at.elapsed() >= CODE_TTL {
            return None;
        }
        let cookie = random()?;
        let mut cookies = lock(&self.cookies);
        keep(&mut cookies, COOKIE_TTL, &token);
        cookies.insert(cookie.clone(), (token, Instant::now()));
        Some((cookie, token))
    }

    /// The token digest a cookie value stands for, while it is good.
    pub fn token_of_cookie(&self, value: &str) -> Option<Digest> {
        let cookies = lock(&self.cookies);
        let (token, at) = cookies.get(value)?;
        (at.elapsed() < COOKIE_TTL).then_some(*token)
    }
}

/// The view cookie's value in a `Cookie` header.
pub fn cookie_in(headers: &http::HeaderMap) -> Option<String> {
    headers.get_all(http::header::COOKIE).iter().filter_map(|v| v.to_str().ok()).find_map(|v| {
        v.split(';').find_map(|kv| {
            let (k, val) = kv.trim().split_once('=')?;
            (k == COOKIE).then(|| val.to_owned())
        })
    })
}

/// The `code` in a query string.
pub fn code_in(query: Option<&str>) -> Option<&str> {
    query?
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == "code")
        .map(|(_, v)| v)
}

/// The `Set-Cookie` value handing out `cookie`: the script never reads it, no other site's
/// request carries it, and only the view's paths get it.
pub fn set_cookie(cookie: &str) -> String {
    format!(
        "{COOKIE}={cookie}; HttpOnly; SameSite=Strict; Path=/view; Max-Age={}",
        COOKIE_TTL.as_secs()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_spent_once_and_the_cookie_stands_for_its_token() {
        let a = Access::default();
        let tok = crate::auth::digest("tok");
        let code = a.mint(&tok).expect("code");
        assert_eq!(code.len(), 64);
        let (cookie, token) = a.redeem(&code).expect("first use");
        assert_eq!(token, tok);
        assert!(a.redeem(&code).is_none(), "single use");
        assert!(a.redeem("guess").is_none());
        assert_eq!(a.token_of_cookie(&cookie), Some(tok));
        assert!(a.token_of_cookie(&code).is_none(), "a code is no cookie");
        let mut h = http::HeaderMap::new();
        h.insert(http::header::COOKIE, format!("a=1; {COOKIE}={cookie}").parse().expect("hdr"));
        assert_eq!(cookie_in(&h).as_deref(), Some(cookie.as_str()));
        assert_eq!(code_in(Some("x=1&code=abc")), Some("abc"));
        let set = set_cookie("v");
        for part in ["HttpOnly", "SameSite=Strict", "Path=/view"] {
            assert!(set.contains(part), "{set}");
        }
    }

    #[test]
    fn one_token_never_evicts_another_s_codes_or_cookies() {
        let a = Access::default();
        let (mine, theirs) = (crate::auth::digest("mine"), crate::auth::digest("theirs"));
        let kept = a.mint(&mine).expect("code");
        let cookie = a.redeem(&a.mint(&mine).expect("code")).expect("cookie").0;
        for _ in 0..KEPT_PER_TOKEN * 8 {
            let code = a.mint(&theirs).expect("code");
            a.redeem(&code).expect("redeemed");
        }
        assert_eq!(a.token_of_cookie(&cookie), Some(mine), "the other token's mints left it");
        assert_eq!(a.redeem(&kept).map(|r| r.1), Some(mine));
        assert!(lock(&a.cookies).len() <= 2 * KEPT_PER_TOKEN);
    }
}
