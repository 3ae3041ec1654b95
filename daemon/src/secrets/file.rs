//! The secrets file: JSON (a list of `{name, value, origins, apps?, totp?}`, or
//! `{"secrets": [...]}`), the daemon's user's alone (0600), read at start and on SIGHUP.

use std::path::Path;

use super::Secret;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SecretsError {
    #[error("cannot read the secrets file {path}: {why}")]
    Read { path: String, why: String },
    #[error("the secrets file {path} may be read by others (mode {mode:o}); chmod 600 it")]
    Mode { path: String, mode: u32 },
    #[error("the secrets file {path} is not valid: {why}")]
    Parse { path: String, why: String },
    #[error("secret {0}")]
    Invalid(String),
    #[error("secret {0} has no TOTP seed")]
    NoTotp(String),
    #[error("the daemon has no secrets file to write (start it with --secrets FILE)")]
    NoFile,
    #[error("cannot write the secrets file {path}: {why}")]
    Write { path: String, why: String },
}

#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Shape {
    List(Vec<Secret>),
    Wrapped { secrets: Vec<Secret> },
}

/// The secrets of `path`, each checked, origins in their canonical form.
pub fn read(path: &Path) -> Result<Vec<Secret>, SecretsError> {
    use std::os::unix::fs::MetadataExt as _;
    let shown = path.display().to_string();
    let read_err =
        |e: std::io::Error| SecretsError::Read { path: shown.clone(), why: e.to_string() };
    let meta = std::fs::metadata(path).map_err(read_err)?;
    if meta.mode() & 0o077 != 0 {
        return Err(SecretsError::Mode { path: shown, mode: meta.mode() & 0o777 });
    }
    let text = std::fs::read_to_string(path).map_err(read_err)?;
    let shape: Shape = serde_json::from_str(&text)
        // serde's message may quote the input: say where, not what.
        .map_err(|e| SecretsError::Parse {
            path: shown.clone(),
            why: format!(
                "line {} column {}: expected a list of {{name, value, origins, apps?, totp?}}",
                e.line(),
                e.column()
            ),
        })?;
    let (Shape::List(list) | Shape::Wrapped { secrets: list }) = shape;
    let mut out: Vec<Secret> = Vec::with_capacity(list.len());
    for mut s in list {
        canonical(&mut s)?;
        if out.iter().any(|o| o.name == s.name) {
            return Err(SecretsError::Invalid(format!("{} is named twice", s.name)));
        }
        out.push(s);
    }
    Ok(out)
}

/// One secret checked, its origins written canonically (`https://github.com`).
pub fn checked(mut s: Secret) -> Result<Secret, SecretsError> {
    canonical(&mut s)?;
    Ok(s)
}

fn canonical(s: &mut Secret) -> Result<(), SecretsError> {
    let bad = |why: &str| SecretsError::Invalid(format!("{}: {why}", s.name));
    if s.name.is_empty() || s.name.len() > 64 || s.name.chars().any(|c| c.is_whitespace()) {
        return Err(SecretsError::Invalid(format!(
            "{:?}: a name is 1 to 64 characters without spaces",
            s.name
        )));
    }
    // A short value would be found inside every other word of every answer.
    if s.value.chars().count() < 4 {
        return Err(bad("a value has at least 4 characters"));
    }
    if s.origins.is_empty() && s.apps.is_empty() {
        return Err(bad("give origins (https://example.com) or apps it may be typed into"));
    }
    let mut origins = Vec::with_capacity(s.origins.len());
    for o in &s.origins {
        let origin = glovebox_protocol::url::Url::parse(o)
            .ok()
            .map(|u| u.origin().ascii_serialization())
            .filter(|o| o != "null")
            .ok_or_else(|| bad(&format!("origin {o:?} is not scheme://host[:port]")))?;
        origins.push(origin);
    }
    s.origins = origins;
    if let Some(seed) = &s.totp {
        super::totp::now(seed).map_err(|why| bad(&why))?;
    }
    Ok(())
}

/// Writes `secrets` to `path` (0600), through a temporary file renamed over it.
pub fn write<'a>(
    path: &Path,
    secrets: impl Iterator<Item = &'a Secret>,
) -> Result<(), SecretsError> {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let err = |e: std::io::Error| SecretsError::Write {
        path: path.display().to_string(),
        why: e.to_string(),
    };
    let list: Vec<&Secret> = secrets.collect();
    let text = serde_json::to_string_pretty(&list).map_err(|e| err(std::io::Error::other(e)))?;
    let tmp = path.with_extension("tmp");
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&tmp)
        .map_err(err)?;
    f.write_all(text.as_bytes()).and_then(|()| f.sync_all()).map_err(err)?;
    std::fs::rename(&tmp, path).map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_file(dir: &Path, text: &str, mode: u32) -> std::path::PathBuf {
        use std::os::unix::fs::PermissionsExt as _;
        let p = dir.join("secrets.json");
        std::fs::write(&p, text).expect("write");
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).expect("chmod");
        p
    }

    fn tmp() -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!(
            "gb-secrets-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&d).expect("dir");
        d
    }

    #[test]
    fn a_file_others_may_read_is_refused_and_origins_are_canonical() {
        let d = tmp();
        let text =
            r#"[{"name":"github","value":"hunter2!","origins":["HTTPS://GitHub.com/login"]}]"#;
        let p = write_file(&d, text, 0o644);
        assert!(matches!(read(&p), Err(SecretsError::Mode { .. })));
        let p = write_file(&d, text, 0o600);
        let got = read(&p).expect("reads");
        assert_eq!(got[0].origins, ["https://github.com"]);
        let bad = write_file(
            &d,
            r#"{"secrets":[{"name":"x","value":"abcd","origins":["nope"]}]}"#,
            0o600,
        );
        let e = read(&bad).expect_err("refused").to_string();
        assert!(e.contains("nope") && !e.contains("abcd"), "{e}");
        let parse = write_file(&d, r#"[{"name":"x","value":"topsecret","origin":[]}]"#, 0o600);
        let e = read(&parse).expect_err("refused").to_string();
        assert!(!e.contains("topsecret"), "{e}");
    }
}
