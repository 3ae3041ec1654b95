//! X authorization for the embedded display: an MIT-MAGIC-COOKIE-1 cookie in a 0600 file in
//! the state dir (Xvfb reads it with `-auth`, children find it through `XAUTHORITY`), and the
//! one way this process connects to a display, with that cookie.
//!
//! The daemon's own connections do not read `XAUTHORITY`: tests run several embedded desktops
//! in one process, each with its cookie, so the cookie of each display started here is kept
//! by display name. Displays not started here (`--desktop existing`) connect as any X client
//! does, with `XAUTHORITY` or `~/.Xauthority`.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use x11rb::errors::ConnectError;
use x11rb::rust_connection::{DefaultStream, RustConnection};

const NAME: &[u8] = b"MIT-MAGIC-COOKIE-1";
/// `FamilyWild`: the entry matches the display on any host name.
const FAMILY_WILD: u16 = 0xffff;

static COOKIES: Mutex<BTreeMap<String, Vec<u8>>> = Mutex::new(BTreeMap::new());

/// Where the cookie of display `:number` lives under `state_dir`.
pub fn path(state_dir: &Path, number: u32) -> PathBuf {
    state_dir.join("desktop").join(format!("x{number}.xauth"))
}

/// A fresh random cookie.
pub fn new_cookie() -> std::io::Result<Vec<u8>> {
    let mut cookie = vec![0u8; 16];
    getrandom::fill(&mut cookie).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(cookie)
}

/// Writes an Xauthority file (mode 0600) with one entry: `cookie` for display `:number`.
pub fn write(path: &Path, number: u32, cookie: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut entry = FAMILY_WILD.to_be_bytes().to_vec();
    for field in [&b""[..], number.to_string().as_bytes(), NAME, cookie] {
        entry.extend_from_slice(&(field.len() as u16).to_be_bytes());
        entry.extend_from_slice(field);
    }
    let _ = std::fs::remove_file(path);
    let mut f = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path)?;
    f.write_all(&entry)
}

/// The first MIT-MAGIC-COOKIE-1 cookie in an Xauthority file.
pub fn read(path: &Path) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path).ok()?;
    let mut at = 2;
    loop {
        let mut fields = Vec::new();
        for _ in 0..4 {
            let len = usize::from(u16::from_be_bytes([*bytes.get(at)?, *bytes.get(at + 1)?]));
            fields.push(bytes.get(at + 2..at + 2 + len)?);
            at += 2 + len;
        }
        if fields[2] == NAME {
            return Some(fields[3].to_vec());
        }
        at += 2;
    }
}

/// Connections from this process to `display` use `cookie` from now on.
pub fn remember(display: &str, cookie: Vec<u8>) {
    if let Ok(mut c) = COOKIES.lock() {
        c.insert(display.to_owned(), cookie);
    }
}

/// Connects to `display` with its cookie if it was started here, else as X clients do.
pub fn connect(display: &str) -> Result<(RustConnection, usize), ConnectError> {
    let cookie = COOKIES.lock().ok().and_then(|c| c.get(display).cloned());
    match cookie {
        Some(cookie) => connect_with(display, &cookie),
        None => x11rb::connect(Some(display)),
    }
}

/// Connects to `display` presenting `cookie`.
pub fn connect_with(display: &str, cookie: &[u8]) -> Result<(RustConnection, usize), ConnectError> {
    let parsed = x11rb::reexports::x11rb_protocol::parse_display::parse_display(Some(display))?;
    let screen = usize::from(parsed.screen);
    let mut error = None;
    for addr in parsed.connect_instruction() {
        match DefaultStream::connect(&addr) {
            Ok((stream, _)) => {
                let name = NAME.to_vec();
                let conn = RustConnection::connect_to_stream_with_auth_info(
                    stream,
                    screen,
                    name,
                    cookie.to_vec(),
                )?;
                return Ok((conn, screen));
            }
            Err(e) => error = Some(e),
        }
    }
    Err(match error {
        Some(e) => ConnectError::IoError(e),
        None => ConnectError::DisplayParsingError(x11rb::errors::DisplayParsingError::Unknown),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_cookie_reads_back_and_the_file_is_0600() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = std::env::temp_dir().join(format!("glovebox-xauth-{}", std::process::id()));
        let file = path(&dir, 93);
        let cookie = new_cookie().expect("random");
        write(&file, 93, &cookie).expect("write");
        assert_eq!(read(&file), Some(cookie));
        let mode = std::fs::metadata(&file).expect("file").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let bytes = std::fs::read(&file).expect("file");
        assert_eq!(&bytes[..6], &[0xff, 0xff, 0, 0, 0, 2], "FamilyWild, no address, \"93\"");
        let _ = std::fs::remove_dir_all(dir);
    }
}
