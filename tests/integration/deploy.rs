//! What `deploy/kubernetes/` and `workspace-image/` say, kept true. `tests/deploy/check.py`
//! checks the manifests offline (the Kubernetes schemas kubernetes-validate bundles,
//! agent-sandbox's fields, the image's facts, `gloveboxd --help`, `footprint.json`) and names
//! the daemon each pod runs; here each of those starts for real with the manifests' own flags
//! and answers the probes with their Host header, `/rpc` with the token in the query and `/mcp`
//! the way agent-sandbox's router forwards it. The entrypoint's token modes and the flags it
//! passes run against a stand-in `gloveboxd`, and its minting of a claim's token against the
//! real one. No image is built or pulled.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use glovebox_tests::binary::{gloveboxd, Running};
use glovebox_tests::http::{Http, Reply};
use glovebox_tests::raw::Raw;
use glovebox_tests::{TempDir, DEADLINE};
use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the repository").to_owned()
}

/// Runs `tests/deploy/check.py` and returns its one line of findings.
fn check(args: &[&str]) -> Value {
    let script = repo().join("tests").join("deploy").join("check.py");
    let out = Command::new("python3").arg(script).args(args).output().expect("python3 runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "check.py {args:?} failed:\n{stderr}");
    let line = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(line.trim()).unwrap_or_else(|e| panic!("{e}: {line}\n{stderr}"))
}

async fn get(d: &Running, path: &str, host: &str) -> Reply {
    let headers = [("Host", host)];
    Http::connect(d.socket_addr()).await.send("GET", path, &headers, Duration::from_secs(5)).await
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().into_iter().flatten().filter_map(Value::as_str).map(String::from).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_manifests_hold_for_the_real_daemon() {
    let dir = TempDir::new("deploy");
    let help = Command::new(gloveboxd()).arg("--help").output().expect("gloveboxd --help");
    assert!(help.status.success(), "gloveboxd --help failed");
    let help_file = dir.path.join("help.txt");
    std::fs::write(&help_file, &help.stdout).expect("write the help");
    let found = check(&["manifests", &help_file.display().to_string()]);
    let errors = strings(&found["errors"]);
    assert!(errors.is_empty(), "deploy/kubernetes:\n  {}", errors.join("\n  "));
    let daemons = found["daemons"].as_array().cloned().unwrap_or_default();
    assert_eq!(daemons.len(), 2, "a SandboxTemplate's pod and a StatefulSet's: {found}");

    for pod in &daemons {
        let name = pod["name"].as_str().unwrap_or_default();
        let mut args = vec!["--desktop".to_owned(), "embedded".to_owned()];
        args.extend(strings(&pod["args"]));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        // With the pod's own flags (the sample pod name in place of $(POD_NAME)): clap takes
        // them, and the desktop comes up.
        let d = Running::start(&args);

        for probe in pod["probes"].as_array().into_iter().flatten() {
            let (path, host) = (probe["path"].as_str().unwrap_or("?"), probe["host"].as_str());
            let host = host.unwrap_or("no Host header");
            let deadline = Instant::now() + DEADLINE;
            let mut r = get(&d, path, host).await;
            while r.status != 200 && Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(100)).await;
                r = get(&d, path, host).await;
            }
            assert_eq!(r.status, 200, "{name}: GET {path} with Host {host}: {}", r.body);
            // A kubelet's own Host (the pod's IP and port) is refused: why the probes set one.
            let r = get(&d, path, "10.1.2.3:7788").await;
            assert_eq!(r.status, 403, "{name}: GET {path} for the pod's IP: {}", r.body);
        }

        // The router drops Authorization: the token goes in the query.
        let url = format!("{}?token={}", d.url, d.token());
        let mut c = Raw::connect(&url, None).await.expect("/rpc with ?token=");
        let hello = c.hello(None).await;
        assert_eq!(hello["role"], "actor", "{name}: {hello}");

        let mcp = format!("http://{}/mcp?token={}", d.addr, d.token());
        for host in strings(&pod["allow_hosts"]) {
            let authority = format!("{host}:7788");
            let (u, h) = (mcp.clone(), authority.clone());
            let routed = tokio::task::spawn_blocking(move || check(&["routed-mcp", &u, &h]))
                .await
                .expect("check ran");
            assert_eq!(routed["initialize"], 200, "{name}: /mcp for Host {authority}: {routed}");
            assert_eq!(routed["is_error"], false, "{name}: a tool call for {authority}: {routed}");
            assert_eq!(routed["structured"]["action"], "wait", "{name}: {routed}");
        }
        let u = mcp.clone();
        let foreign = tokio::task::spawn_blocking(move || {
            check(&["routed-mcp", &u, "other.agents.svc:7788"])
        })
        .await
        .expect("check ran");
        assert_ne!(foreign["initialize"], 200, "{name}: /mcp for a Host not allowed: {foreign}");
    }
}

/// The entrypoint with its volume at `volume` and a stand-in `gloveboxd` on PATH that prints
/// its arguments.
fn entrypoint(volume: &Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    entrypoint_cmd(volume, 7788, None).args(args).envs(env.iter().copied()).output().expect("bash")
}

/// The entrypoint as a command, its volume at `volume`, its port `port`, with `daemon` as
/// `gloveboxd` on PATH (else the stand-in that prints its arguments).
fn entrypoint_cmd(volume: &Path, port: u16, daemon: Option<&Path>) -> Command {
    let script = std::fs::read_to_string(repo().join("workspace-image").join("entrypoint.sh"))
        .expect("entrypoint.sh");
    for line in ["\nVOLUME=/var/lib/glovebox\n", "\nPORT=7788\n"] {
        assert!(script.contains(line), "the entrypoint's line {line:?}");
    }
    let script = script
        .replace("\nVOLUME=/var/lib/glovebox\n", &format!("\nVOLUME={}\n", volume.display()))
        .replace("\nPORT=7788\n", &format!("\nPORT={port}\n"));
    let bin = volume.join("bin");
    std::fs::create_dir_all(&bin).expect("bin");
    let copy = bin.join("glovebox-entrypoint");
    std::fs::write(&copy, script).expect("write the entrypoint");
    let fake = bin.join("gloveboxd");
    let _ = std::fs::remove_file(&fake);
    match daemon {
        Some(real) => std::os::unix::fs::symlink(real, &fake).expect("link gloveboxd"),
        None => std::fs::write(&fake, "#!/bin/sh\nprintf '%s\\n' \"$@\"\n").expect("stand-in"),
    }
    for f in [&copy, &fake] {
        std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut cmd = Command::new("bash");
    cmd.arg(&copy).env("PATH", path).env_remove("GLOVEBOX_TOKEN");
    cmd
}

#[test]
fn the_entrypoint_installs_one_pods_token_and_passes_flags_on() {
    let dir = TempDir::new("entrypoint");
    let (volume, state) = (dir.path.join("volume"), dir.path.join("volume").join("state"));
    std::fs::create_dir_all(&volume).expect("volume");
    let text = |o: &std::process::Output| {
        format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
    };

    // The daemon's flags: the entrypoint's, then the pod's args.
    let out = entrypoint(&volume, &["--shutdown-grace-secs=20"], &[]);
    assert!(out.status.success(), "{}", text(&out));
    let passed: Vec<String> =
        String::from_utf8_lossy(&out.stdout).lines().map(String::from).collect();
    let state_arg = state.display().to_string();
    let want = [
        "--desktop",
        "embedded",
        "--listen",
        "0.0.0.0:7788",
        "--state-dir",
        &state_arg,
        "--shutdown-grace-secs=20",
    ];
    assert_eq!(passed, want, "{}", text(&out));
    let mode = std::fs::metadata(&state).expect("the state dir").permissions().mode();
    assert_eq!(mode & 0o777, 0o700, "the state dir is the user's alone");

    // A Secret's key: a placeholder is refused, a real token installed 0600 and read back.
    let key = dir.path.join("glovebox-0");
    std::fs::write(&key, "replace with: openssl rand -hex 32").expect("key");
    let out = entrypoint(&volume, &["install-token", &key.display().to_string()], &[]);
    assert!(!out.status.success(), "a placeholder installed: {}", text(&out));
    assert!(text(&out).contains("32 characters"), "{}", text(&out));
    let missing = dir.path.join("glovebox-9");
    let out = entrypoint(&volume, &["install-token", &missing.display().to_string()], &[]);
    assert!(!out.status.success() && text(&out).contains("one key per pod"), "{}", text(&out));

    let token = "0123456789abcdef0123456789abcdef0123456789abcdef";
    std::fs::write(&key, format!("# the pod's own\n{token} actor\n")).expect("key");
    let out = entrypoint(&volume, &["install-token", &key.display().to_string()], &[]);
    assert!(out.status.success(), "{}", text(&out));
    let installed = state.join("token");
    let mode = std::fs::metadata(&installed).expect("the token file").permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "the token file is the user's alone");
    // The volume keeps the token's hash, which authenticates nothing.
    let kept = std::fs::read_to_string(&installed).expect("the token file");
    let line = glovebox_daemon::auth::hashed_line(token, glovebox_daemon::auth::Role::Actor);
    assert_eq!(kept, format!("# the pod's own\n{line}\n"), "only its hash is kept");
    // `token` mints one for a running daemon only.
    let out = entrypoint(&volume, &["token"], &[]);
    assert!(!out.status.success() && text(&out).contains("not running"), "{}", text(&out));

    // With $GLOVEBOX_TOKEN the file is not the token, and `token` says so.
    let out = entrypoint(&volume, &["token"], &[("GLOVEBOX_TOKEN", token)]);
    assert!(!out.status.success() && text(&out).contains("GLOVEBOX_TOKEN"), "{}", text(&out));
    // Any other command runs instead of the daemon.
    let out = entrypoint(&volume, &["echo", "hi"], &[]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "hi\n");
}

/// A claim's token: `glovebox-entrypoint token` in the running workspace mints a fresh actor
/// token, the daemon takes it at once, and the volume keeps only its hash.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_entrypoint_mints_a_token_for_the_running_workspace() {
    use std::io::{BufRead as _, BufReader};
    let dir = TempDir::new("mint");
    let volume = dir.path.join("volume");
    std::fs::create_dir_all(&volume).expect("volume");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut daemon = entrypoint_cmd(&volume, port, Some(&gloveboxd()))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the entrypoint starts gloveboxd");
    let stdout = daemon.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    // The banner's desktop line: calls are taken.
    let deadline = Instant::now() + DEADLINE;
    while !rx.recv_timeout(deadline - Instant::now()).expect("the banner").contains("desktop:") {}
    let out =
        entrypoint_cmd(&volume, port, Some(&gloveboxd())).arg("token").output().expect("bash");
    let said =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{said}");
    let token = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert_eq!(token.len(), 64, "{said}");
    let mut c = Raw::connect(&format!("ws://127.0.0.1:{port}/rpc"), Some(&token))
        .await
        .expect("the minted token works at once");
    assert_eq!(c.hello(None).await["role"], "actor");
    let file = std::fs::read_to_string(volume.join("state").join("token")).expect("token file");
    assert!(!file.contains(&token), "the volume keeps only its hash: {file}");
    let _ = Command::new("kill").args(["-TERM", &daemon.id().to_string()]).status();
    let deadline = Instant::now() + DEADLINE;
    while daemon.try_wait().expect("wait").is_none() {
        assert!(Instant::now() < deadline, "gloveboxd did not stop");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // As root it kept its desktop user's dir beside the state dir; this one is done.
    let desktop = glovebox_daemon::process::user::default_dir(&volume.join("state"));
    let _ = std::fs::remove_dir_all(desktop);
}

/// The image's user is not root: the daemon, its desktop and Chromium run as an unprivileged
/// uid (`nobody` here, 10001 in the image) on a state dir that uid owns, as in a pod with
/// `runAsNonRoot`, and drive a page, an app and the desktop. Where the test may make a mount
/// namespace (root with `unshare`), it also runs on the pods' read-only root filesystem:
/// everything read-only but the pods' writable mounts (`deploy/kubernetes/README.md`,
/// "Writable paths"), the volume, `/tmp` and `/dev/shm`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_workspace_runs_as_a_user_who_is_not_root() {
    const NOBODY: u32 = 65534;
    let dir = TempDir::new("nonroot");
    std::fs::set_permissions(&dir.path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let volume = dir.path.join("volume");
    std::fs::create_dir_all(&volume).expect("volume");
    // The test binaries may sit under a home only root can enter: the daemon goes beside.
    let bin = dir.path.join("gloveboxd");
    if std::fs::hard_link(gloveboxd(), &bin).is_err() {
        std::fs::copy(gloveboxd(), &bin).expect("copy gloveboxd");
    }
    let uid = Command::new("id").arg("-u").output().expect("id -u");
    let root = String::from_utf8_lossy(&uid.stdout).trim() == "0";
    let read_only = root && read_only_root_works();
    let mut cmd = if root {
        std::os::unix::fs::chown(&volume, Some(NOBODY), Some(NOBODY)).expect("chown");
        let mut c = if read_only {
            let mountpoint = dir.path.join("root");
            std::fs::create_dir_all(&mountpoint).expect("mount point");
            let mut c = Command::new("unshare");
            c.args(["--mount", "--propagation", "private", "sh", "-c", READ_ONLY_ROOT, "sh"])
                .args([&mountpoint, &dir.path]);
            c
        } else {
            eprintln!("deploy: no mount namespace here; the root filesystem stays writable");
            Command::new("env")
        };
        c.args(["setpriv", "--reuid", &NOBODY.to_string(), "--regid", &NOBODY.to_string()])
            .arg("--clear-groups")
            .arg(&bin);
        c
    } else {
        Command::new(&bin)
    };
    // The token file keeps hashes: the test writes one of its own token, as `install-token`
    // would, in the state dir the daemon's user owns.
    let state = volume.join("state");
    let token = "nonroot-token-0123456789abcdef0123456789";
    std::fs::create_dir_all(&state).expect("state");
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o700)).expect("chmod");
    let line = glovebox_daemon::auth::hashed_line(token, glovebox_daemon::auth::Role::Actor);
    std::fs::write(state.join("token"), format!("{line}\n")).expect("token file");
    if root {
        for p in [state.clone(), state.join("token")] {
            std::os::unix::fs::chown(&p, Some(NOBODY), Some(NOBODY)).expect("chown");
        }
    }
    cmd.args(["--listen", "127.0.0.1:0", "--desktop", "embedded", "--state-dir"])
        .arg(&state)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", &volume);
    let (mut child, addr, ready) = glovebox_tests::binary::spawn_until_ready(&mut cmd).await;
    assert_eq!(ready.status, 200, "ready as a user who is not root: {}", ready.body);
    let token_file = state.join("token");

    let mut c = Raw::connect(&format!("ws://{addr}/rpc"), Some(token)).await.expect("connect");
    c.hello(None).await;
    let page = "data:text/html,<button>Go</button>";
    let r = c.call("browser.navigate", serde_json::json!({"url": page})).await;
    assert!(r.get("result").is_some(), "Chromium as a user who is not root: {r}");
    let r = c.call("browser.snapshot", serde_json::json!({})).await;
    let outline = r["result"]["result"]["snapshot"].as_str().unwrap_or_default().to_owned();
    assert!(outline.contains("button \"Go\""), "{r}");
    let r = c.call("computer.snapshot", serde_json::json!({})).await;
    assert!(r.get("result").is_some(), "the desktop as a user who is not root: {r}");
    // An app writes its settings (dconf, XDG dirs) under the volume.
    let app = serde_json::json!({"app": "mousepad", "launch": true, "timeout_ms": 30000});
    let r = c.call("context.get_app", app).await;
    assert_eq!(r["result"]["result"]["accessible"], true, "an app (read-only: {read_only}): {r}");

    // Everything it made is the user's, under the volume.
    if root {
        use std::os::unix::fs::MetadataExt as _;
        for p in [&state, &token_file, &state.join("chromium-profile")] {
            let meta = std::fs::metadata(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            assert_eq!(meta.uid(), NOBODY, "{} belongs to the user", p.display());
        }
    }
    let pid = child.id().to_string();
    let _ = Command::new("kill").args(["-TERM", &pid]).status();
    let deadline = Instant::now() + DEADLINE;
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        assert!(Instant::now() < deadline, "gloveboxd did not stop");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "exit 0 after SIGTERM: {status:?}");
}

/// `sh -c` body: `$1` a mount point, `$2` the test's dir (the volume and the binary), then the
/// command. Makes `/` a read-only bind inside a mount namespace of its own with `/tmp`,
/// `/dev/shm` and the test's dir writable, proves the root refuses a write, and runs the
/// command there. `/tmp` is the machine's own, so that Xvfb sees the displays other tests
/// hold (their locks are there, their abstract sockets in the shared network namespace).
const READ_ONLY_ROOT: &str = r#"set -e
root=$1 dir=$2
shift 2
mount --rbind / "$root"
mount -o remount,bind,ro "$root"
mount --bind /tmp "$root/tmp"
mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
mount --bind "$dir" "$root$dir"
if touch "$root/etc/.glovebox-write-probe" 2>/dev/null; then
  echo "the root filesystem took a write" >&2
  exit 1
fi
exec chroot "$root" "$@""#;

/// Whether this machine lets the test make a mount namespace with a read-only bind of `/`.
fn read_only_root_works() -> bool {
    let probe = "mount -t tmpfs tmpfs /tmp";
    Command::new("unshare")
        .args(["--mount", "--propagation", "private", "sh", "-c", probe])
        .output()
        .is_ok_and(|o| o.status.success())
}
