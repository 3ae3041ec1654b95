//! Real start-up test: Xvfb, session bus, AT-SPI bus and openbox in a temp dir, then teardown.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::*;
use crate::process::is_alive;

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn embedded_desktop_starts_answers_and_stops() {
    let dir =
        TempDir(std::env::temp_dir().join(format!("glovebox-desktop-{}", std::process::id())));
    let sup = Supervisor::new(&dir.0);
    let t0 = Instant::now();
    let desktop = start(DesktopMode::Embedded, &dir.0, &sup).expect("embedded desktop starts");
    eprintln!("embedded desktop {} up in {:?}", desktop.display(), t0.elapsed());

    assert_eq!(desktop.kind(), DesktopKind::Embedded);
    assert_eq!(desktop.screen(), ScreenSize { width: 1280, height: 800 });
    let x_size = xserver::probe(desktop.display(), Duration::from_secs(2)).expect("X answers");
    assert_eq!(x_size, desktop.screen());
    let a11y = desktop.a11y_bus().expect("a11y bus address");
    assert!(bus::ping(&sup, &a11y), "a11y bus at {a11y} answers");
    let vars: Vec<&str> = desktop.env().iter().map(|(k, _)| k.as_str()).collect();
    for var in
        ["DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "GTK_MODULES"]
    {
        assert!(vars.contains(&var), "{var} missing from {vars:?}");
    }
    let status = desktop.status();
    assert_eq!((status.status, status.accessibility_bus), (Readiness::Ready, true), "{status:?}");
    let json = serde_json::to_value(&status).expect("status serializes");
    assert_eq!(json["mode"], "embedded");
    assert_eq!(json["screen"]["width"], 1280);

    // D-Bus activates the registry daemon on first use; stop() must find and stop it too.
    let root = "/org/a11y/atspi/accessible/root";
    let ping = "org.freedesktop.DBus.Peer.Ping";
    let pinged = bus::call(&sup, &a11y, "org.a11y.atspi.Registry", root, ping, &[]);
    assert!(pinged.is_some(), "at-spi2-registryd answers");
    let registry = bus::registry_pid(&sup, &a11y).expect("registry pid");

    let xvfb = desktop.started_pids()[0];
    let t1 = Instant::now();
    desktop.stop();
    eprintln!("stopped in {:?}", t1.elapsed());
    assert!(!is_alive(xvfb), "Xvfb {xvfb} still running");
    assert!(!PathBuf::from(format!("/tmp/.X{}-lock", &desktop.display()[1..])).exists());
    assert!(!is_alive(registry), "at-spi2-registryd {registry} still running");
    assert_eq!(desktop.status().status, Readiness::Down);
}

#[test]
fn display_tags_are_path_safe() {
    assert_eq!(dirs::tag(":90"), "x90");
    assert_eq!(dirs::tag("host:10.0"), "xhost-10.0");
}
