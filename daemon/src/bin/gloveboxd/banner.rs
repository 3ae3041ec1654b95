//! What `gloveboxd` prints on stdout for a person to connect: the address at once, the
//! desktop and a wscat line once calls are taken.

use std::io::Write as _;
use std::net::SocketAddr;

use glovebox_daemon::desktop::embedded;

/// Where the tokens came from, for the banner.
pub struct TokenSource {
    /// `$GLOVEBOX_TOKEN` or the token file's path.
    pub name: String,
    /// A token made just now for a new token file: shown once, on a terminal.
    pub created: Option<String>,
}

/// What a person needs to connect, on stdout: the address at once (the first line is what
/// tests parse) ... Secrets (a new token, a view code) only on a terminal, never into a log
/// that stdout may be, unless asked.
pub fn head(addr: SocketAddr, source: &TokenSource, view_code: Option<&str>, terminal: bool) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "gloveboxd listening on ws://{addr}/rpc");
    let name = &source.name;
    let _ = match (&source.created, terminal) {
        (_, _) if name.starts_with('$') => writeln!(out, "  token: {name}"),
        (Some(t), true) => {
            writeln!(out, "  token: {t} (new, shown once: {name} keeps only its hash)")
        }
        _ => writeln!(out, "  token: hashed in {name}; gloveboxd token add prints a new one"),
    };
    let _ = match view_code {
        Some(code) => writeln!(out, "  view: http://{addr}/view?code={code} (works once; gloveboxd view-link prints another)"),
        None => writeln!(out, "  view: gloveboxd view-link prints a link (not shown off a terminal; --print-view-link)"),
    };
    let _ = out.flush();
}

/// The token as the banner's wscat line writes it.
pub fn wscat_token(source: &TokenSource, terminal: bool) -> String {
    match &source.created {
        _ if source.name.starts_with('$') => "$GLOVEBOX_TOKEN".to_owned(),
        Some(t) if terminal => t.clone(),
        _ => "$TOKEN".to_owned(),
    }
}

/// ... and the rest once the desktop is up and calls are taken.
pub fn tail(addr: SocketAddr, token_cmd: &str, desktop: &embedded::DesktopEnv) {
    let mut out = std::io::stdout().lock();
    match desktop.xauthority() {
        Some(xauth) => {
            let _ = writeln!(out, "  desktop: DISPLAY={} XAUTHORITY={xauth}", desktop.display());
        }
        None => {
            let _ = writeln!(out, "  desktop: DISPLAY={}", desktop.display());
        }
    }
    let _ = writeln!(out, "  health: curl http://{addr}/healthz (alive), /readyz (ready)");
    let _ =
        writeln!(out, "  try: wscat -c ws://{addr}/rpc -H \"Authorization: Bearer {token_cmd}\"");
    let _ = writeln!(out, "       then send {{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"session.hello\",\"params\":{{\"protocol\":1}}}}");
    let _ = out.flush();
}
