//! Tests for the supervisor: logs, environment, stop order, short commands, stop by pid.

use super::*;

/// A log dir removed at the end of the test.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(tag: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("glovebox-process-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    Scratch(dir)
}

#[test]
fn logs_env_and_reverse_stop() {
    let dir = scratch("stop");
    let sup = Supervisor::new(&dir.0);
    sup.extend_env(&[("GLOVEBOX_A".into(), "base".into())]);
    let env = [("GLOVEBOX_B".to_owned(), "over".to_owned())];
    let script = "echo a=$GLOVEBOX_A b=$GLOVEBOX_B; exec sleep 30";
    let first = sup.spawn("first", &["sh", "-c", script], &env).expect("spawn first");
    let second = sup.spawn("second", &["sleep", "30"], &[]).expect("spawn second");
    assert!(sup.is_running(first) && sup.is_running(second));
    let deadline = Instant::now() + Duration::from_secs(5);
    while !sup.log_tail("first", 200).contains("a=base b=over") {
        assert!(Instant::now() < deadline, "log: {}", sup.log_tail("first", 200));
        thread::sleep(POLL);
    }
    sup.stop_all();
    assert!(!is_alive(first) && !is_alive(second));
    assert!(!sup.is_running(first));
}

#[test]
fn children_inherit_what_programs_need_and_no_glovebox_variable() {
    for kept in ["PATH", "HOME", "LANG", "LC_ALL", "XDG_RUNTIME_DIR", "DISPLAY", "XAUTHORITY"] {
        assert!(inherited(kept), "{kept}");
    }
    for dropped in
        ["GLOVEBOX_TOKEN", "GLOVEBOX_LOG", "GLOVEBOX_XDG_X", "AWS_SECRET_ACCESS_KEY", "CARGO"]
    {
        assert!(!inherited(dropped), "{dropped}");
    }
}

#[test]
fn logs_are_0600_in_a_0700_dir() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = scratch("modes");
    let sup = Supervisor::new(&dir.0);
    sup.run("echo", &["true"], &[], Duration::from_secs(5)).expect("run");
    let pid = sup.spawn("quiet", &["true"], &[]).expect("spawn");
    let mode = |p: &Path| std::fs::metadata(p).expect("exists").permissions().mode() & 0o777;
    assert_eq!(mode(&sup.log_path("quiet")), 0o600);
    assert_eq!(mode(&dir.0.join("logs")), 0o700);
    let _ = sup.stop_pid(pid);
}

#[test]
fn run_captures_and_times_out() {
    let dir = scratch("run");
    let sup = Supervisor::new(&dir.0);
    let out = sup.run("echo", &["echo", "hi"], &[], Duration::from_secs(5)).expect("run");
    assert!(out.status.success());
    assert_eq!(out.stdout, b"hi\n");
    let slow = sup.run("sleep", &["sleep", "5"], &[], Duration::from_millis(100));
    assert!(matches!(slow, Err(ProcessError::Timeout { .. })));
}

#[test]
fn stop_pid_stops_children_and_missing_pids() {
    let dir = scratch("pid");
    let sup = Supervisor::new(&dir.0);
    let pid = sup.launch_app(&["sleep", "30"], &[]).expect("launch");
    assert!(sup.log_path("app-sleep").exists());
    sup.stop_pid(pid).expect("stop");
    assert!(!is_alive(pid));
    sup.stop_pid(u32::MAX / 2).expect("unknown pid is already stopped");
}
