//! The current TOTP code of a base32 seed (RFC 6238: HMAC-SHA1, 6 digits, 30 s steps), by
//! `totp-rs`.

use totp_rs::{Algorithm, Secret, TOTP};

/// The code for now.
pub fn now(seed: &str) -> Result<String, String> {
    let clean: String = seed.chars().filter(|c| !c.is_whitespace() && *c != '=').collect();
    let bytes = Secret::Encoded(clean.to_ascii_uppercase())
        .to_bytes()
        .map_err(|_| "the TOTP seed is not base32".to_owned())?;
    if bytes.is_empty() {
        return Err("the TOTP seed is empty".to_owned());
    }
    let totp = TOTP::new_unchecked(Algorithm::SHA1, 6, 1, 30, bytes);
    totp.generate_current().map_err(|e| format!("the clock: {e}"))
}

#[cfg(test)]
mod tests {
    use totp_rs::{Algorithm, TOTP};

    /// RFC 6238's SHA-1 vector at T = 59 s: 94287082, whose last six digits are ours.
    #[test]
    fn the_rfc_vector() {
        let totp = TOTP::new_unchecked(Algorithm::SHA1, 8, 1, 30, b"12345678901234567890".to_vec());
        assert_eq!(totp.generate(59), "94287082");
        assert!(super::now("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ").is_ok_and(|c| c.len() == 6));
        assert!(super::now("not base32!").is_err());
    }
}
