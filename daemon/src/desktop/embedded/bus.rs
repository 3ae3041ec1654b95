//! D-Bus plumbing: our own session bus, the AT-SPI bus launcher, readiness checks and lookups.
//!
//! Queries go through `dbus-send` with an explicit `--bus=` address: this runs before the
//! daemon's async runtime exists, and it never depends on the daemon's own environment.

use std::os::unix::net::UnixStream;
use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

use super::{DesktopError, POLL};
use crate::process::Supervisor;

const BUS_READY: Duration = Duration::from_secs(10);
const A11Y_READY: Duration = Duration::from_secs(10);
const CALL_TIMEOUT: Duration = Duration::from_secs(3);
const A11Y_LAUNCHER: &str = "/usr/libexec/at-spi-bus-launcher";

type Env = [(String, String)];

/// Starts `dbus-daemon --session` listening in `runtime_dir`; returns (address, pid).
/// `config` replaces `--session` when the bus is a desktop user's that the daemon joins.
pub(super) fn start_session_bus(
    sup: &Supervisor,
    runtime_dir: &Path,
    env: &Env,
    config: Option<&Path>,
) -> Result<(String, u32), DesktopError> {
    let socket = runtime_dir.join("bus");
    let address = format!("unix:path={}", socket.display());
    // --nofork keeps it our child (known pid, stopped with the rest); --address replaces the
    // config's listen address, so no output needs parsing.
    let kind = match config {
        Some(path) => format!("--config-file={}", path.display()),
        None => "--session".to_owned(),
    };
    let listen = format!("--address={address}");
    let argv = ["dbus-daemon", &kind, "--nofork", "--nopidfile", &listen];
    let pid = sup.spawn("dbus-session", &argv, env)?;
    let deadline = Instant::now() + BUS_READY;
    while !(socket.exists() && ping(sup, &address)) {
        if let Some(status) = sup.exit_status(pid) {
            return Err(DesktopError::exited(
                "dbus-daemon",
                "dbus-session",
                status.to_string(),
                sup,
            ));
        }
        if Instant::now() >= deadline {
            return Err(DesktopError::not_ready("session bus", BUS_READY, "dbus-session", sup));
        }
        thread::sleep(POLL);
    }
    Ok((address, pid))
}

/// Starts the AT-SPI bus launcher on `session` and waits until the accessibility bus it
/// publishes answers; returns (a11y address, launcher pid).
pub(super) fn start_a11y_bus(
    sup: &Supervisor,
    session: &str,
    env: &Env,
) -> Result<(String, u32), DesktopError> {
    let pid = sup.spawn("at-spi-bus-launcher", &[A11Y_LAUNCHER, "--launch-immediately"], env)?;
    let deadline = Instant::now() + A11Y_READY;
    loop {
        if let Some(status) = sup.exit_status(pid) {
            let status = status.to_string();
            return Err(DesktopError::exited(
                "at-spi-bus-launcher",
                "at-spi-bus-launcher",
                status,
                sup,
            ));
        }
        // Ask only once the launcher owns org.a11y.Bus: calling GetAddress earlier would make
        // D-Bus activate a second launcher, and two launchers fight over the same socket path.
        if has_owner(sup, session, "org.a11y.Bus") {
            if let Some(address) = a11y_address(sup, session).filter(|a| ping(sup, a)) {
                return Ok((address, pid));
            }
        }
        if Instant::now() >= deadline {
            return Err(DesktopError::not_ready(
                "AT-SPI bus",
                A11Y_READY,
                "at-spi-bus-launcher",
                sup,
            ));
        }
        thread::sleep(POLL);
    }
}

/// The accessibility bus address published on `session` (this may D-Bus-activate a launcher).
pub(super) fn a11y_address(sup: &Supervisor, session: &str) -> Option<String> {
    let out = call(sup, session, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress", &[])?;
    let address = out.trim();
    (!address.is_empty()).then(|| address.to_owned())
}

/// Whether a bus daemon answers at `address`.
pub(super) fn ping(sup: &Supervisor, address: &str) -> bool {
    call(
        sup,
        address,
        "org.freedesktop.DBus",
        "/org/freedesktop/DBus",
        "org.freedesktop.DBus.GetId",
        &[],
    )
    .is_some()
}

fn has_owner(sup: &Supervisor, address: &str, name: &str) -> bool {
    let arg = format!("string:{name}");
    let out = call(
        sup,
        address,
        "org.freedesktop.DBus",
        "/",
        "org.freedesktop.DBus.NameHasOwner",
        &[&arg],
    );
    out.is_some_and(|o| o.split_whitespace().last() == Some("true"))
}

/// Pid of the AT-SPI registry daemon, which D-Bus activates on the a11y bus (so it is nobody's
/// child and must be stopped by pid).
pub(super) fn registry_pid(sup: &Supervisor, a11y: &str) -> Option<u32> {
    let arg = "string:org.a11y.atspi.Registry";
    let method = "org.freedesktop.DBus.GetConnectionUnixProcessID";
    let out = call(sup, a11y, "org.freedesktop.DBus", "/", method, &[arg])?;
    out.split_whitespace().last()?.parse().ok()
}

/// Cheap liveness check without a D-Bus round trip: can we connect to the bus socket?
pub(super) fn socket_answers(address: &str) -> bool {
    address.split(';').any(|one| {
        let Some(params) = one.strip_prefix("unix:") else { return false };
        params.split(',').any(|param| match param.split_once('=') {
            Some(("path", path)) => UnixStream::connect(path).is_ok(),
            Some(("abstract", name)) => connect_abstract(name),
            _ => false,
        })
    })
}

fn connect_abstract(name: &str) -> bool {
    use std::os::linux::net::SocketAddrExt;
    use std::os::unix::net::SocketAddr;
    SocketAddr::from_abstract_name(name.as_bytes())
        .and_then(|addr| UnixStream::connect_addr(&addr))
        .is_ok()
}

/// One `dbus-send` method call; the literal reply on success.
pub(super) fn call(
    sup: &Supervisor,
    address: &str,
    dest: &str,
    path: &str,
    method: &str,
    args: &[&str],
) -> Option<String> {
    let bus = format!("--bus={address}");
    let dest = format!("--dest={dest}");
    let mut argv = vec!["dbus-send", &bus, "--print-reply=literal", "--reply-timeout=2000"];
    argv.extend([dest.as_str(), path, method]);
    argv.extend(args);
    let out = sup.run("dbus-send", &argv, &[], CALL_TIMEOUT).ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}
