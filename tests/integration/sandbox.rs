//! Issue 30, N1: the `gloveboxd` binary started as root puts its desktop under a user of its
//! own, and whatever the agent runs there reads nothing of the state dir; Chromium keeps its
//! own sandbox where user namespaces work (this machine), and `/readyz` and `get_state` say
//! so. As the agent would: a page's file chooser (refused or reported, never a dialog on the
//! desktop), and an app launched through `context.get_app` that tries every file. And a
//! Chromium whose sandbox fails at its start is started again without it, saying so.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use glovebox_tests::binary::{descendants, Running};
use glovebox_tests::http::Http;
use glovebox_tests::raw::{code, Raw};
use glovebox_tests::{TempDir, DEADLINE};
use serde_json::{json, Value};

fn is_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0"))
}

/// Every file under `dir`, found as root.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() {
                todo.push(e.path());
            } else if kind.is_file() {
                out.push(e.path());
            }
        }
    }
    out
}

fn proc_text(pid: u32, what: &str) -> String {
    std::fs::read_to_string(format!("/proc/{pid}/{what}")).unwrap_or_default()
}

fn args_of(pid: u32) -> Vec<String> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    // Chromium rewrites its helpers' command lines as one string with spaces.
    let args = raw.split(|b| *b == 0 || *b == b' ');
    args.map(|a| String::from_utf8_lossy(a).into_owned()).collect()
}

/// The real uid a process runs as.
fn uid_of(pid: u32) -> Option<u32> {
    let status = proc_text(pid, "status");
    status.lines().find(|l| l.starts_with("Uid:"))?.split_whitespace().nth(1)?.parse().ok()
}

async fn status_of(d: &Running, method: &str, path: &str, headers: &[(&str, &str)]) -> u16 {
    let mut all = vec![("Content-Length", "0")];
    all.extend_from_slice(headers);
    Http::connect(d.socket_addr())
        .await
        .send(method, path, &all, Duration::from_secs(5))
        .await
        .status
}

/// Whether `word` opens `/rpc`, `/mcp` or `/view` (as a bearer token or a view code).
async fn authenticates(d: &Running, word: &str) -> bool {
    let bearer = format!("Bearer {word}");
    let rpc = Raw::connect(&d.url, Some(word)).await.is_ok();
    let mcp = status_of(d, "POST", "/mcp", &[("Authorization", &bearer)]).await != 401;
    let view = status_of(d, "GET", &format!("/view?code={word}"), &[]).await != 401;
    rpc || mcp || view
}

/// What a program the agent launches through `context.get_app` reads: it runs `id -u`, lists
/// `state`, `cat`s each of `targets`, then runs `extra` (shell lines), its output kept in
/// `dir`. Waits for it and answers that output.
async fn probe_reads(
    c: &mut Raw,
    dir: &Path,
    state: &Path,
    targets: &[PathBuf],
    extra: &str,
) -> String {
    let out = dir.join("out");
    let mut script = format!("#!/bin/sh\n{{\nid -u\nls -la '{}'\n", state.display());
    for t in targets {
        script.push_str(&format!("cat '{}'\n", t.display()));
    }
    script.push_str(extra);
    let done = out.display();
    script.push_str(&format!("}} > '{done}.part' 2>&1\nmv '{done}.part' '{done}'\n"));
    let program = dir.join("read-the-state-dir");
    std::fs::write(&program, script).expect("script");
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let app = program.display().to_string();
    let r =
        c.call("context.get_app", json!({"app": app, "launch": true, "background": true})).await;
    assert!(r.get("result").is_some() || r.to_string().contains(&app), "launched: {r}");
    let deadline = Instant::now() + DEADLINE;
    while !out.exists() {
        assert!(Instant::now() < deadline, "the probe wrote nothing: {r}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    std::fs::read_to_string(&out).expect("the probe's output")
}

#[tokio::test(flavor = "multi_thread")]
async fn the_desktop_reads_nothing_of_the_state_dir_and_chromium_keeps_its_sandbox() {
    if !is_root() {
        eprintln!("sandbox: not root, so the desktop runs as the daemon's user; nothing to check");
        return;
    }
    let d = Running::start(&["--desktop", "embedded"]);
    let token = d.token();
    let state = d.state.path.clone();
    let mut c = Raw::connect(&d.url, Some(&token)).await.expect("the token works");
    c.hello(None).await;
    // Chromium starts: its pages run in the desktop too.
    let page = "data:text/html,<title>n1</title><input type=file id=f>\
                <button id=b onclick=f.click()>attach</button>";
    let r = c.call("browser.navigate", json!({"url": page})).await;
    assert!(r.get("result").is_some(), "{r}");
    // What the daemon hands the page reaches it (a copy the desktop's user may read), and
    // what the page prints lands in that user's downloads, outside the state dir.
    let r = c.call("files.put", json!({"name": "upload.txt", "data": "aGVsbG8="})).await;
    assert!(r.get("result").is_some(), "{r}");
    let r = c.call("browser.upload", json!({"selector": "#f", "files": ["upload.txt"]})).await;
    assert!(r.get("result").is_some(), "{r}");
    let read = "document.getElementById('f').files[0].text()";
    let mut r = c.call("browser.evaluate", json!({"script": read})).await;
    r["result"]["capture"] = Value::Null;
    assert_eq!(r["result"]["result"]["value"], "hello", "{r}");
    // The page's file chooser, the agent's other way to the desktop's files: a click on the
    // input is refused, one the page's script opens is reported, and neither leaves a native
    // dialog on the desktop to type the state dir's paths into. A state dir file is no upload.
    let r = c.call("browser.click", json!({"selector": "#f"})).await;
    assert_eq!(code(&r), "NOT_EDITABLE", "{r}");
    let r = c.call("browser.click", json!({"selector": "#b", "capture": false})).await;
    assert_eq!(r["result"]["result"]["file_chooser"]["multiple"], false, "reported: {r}");
    let windows = c.call("context.list_windows", json!({})).await;
    let titles = windows["result"]["result"].to_string();
    assert!(!titles.contains("Open File") && !titles.contains("File Upload"), "{windows}");
    let token_file = state.join("token").display().to_string();
    let r = c.call("browser.upload", json!({"selector": "#f", "files": [token_file]})).await;
    assert_eq!(code(&r), "FORBIDDEN", "{r}");
    let r = c.call("browser.pdf", json!({})).await;
    let pdf = r["result"]["result"]["artifact"]["path"].as_str().unwrap_or_default().to_owned();
    assert!(!pdf.is_empty() && !Path::new(&pdf).starts_with(&state), "{r}");
    assert!(Path::new(&pdf).is_file(), "{r}");

    // The probe: a program the agent may launch, which tries every file of the state dir
    // (the logs now hold Chromium's too) and the dir itself, and says who it ran as.
    let probe = TempDir::new("n1");
    std::fs::set_permissions(&probe.path, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let targets = files_under(&state);
    assert!(targets.iter().any(|p| p.ends_with("token")), "{targets:?}");
    let read = probe_reads(&mut c, &probe.path, &state, &targets, "").await;
    let uid: u32 = read.lines().next().and_then(|l| l.trim().parse().ok()).expect("id -u");
    assert_ne!(uid, 0, "the app ran as root:\n{read}");
    let denied = read.matches("Permission denied").count();
    assert!(denied > targets.len(), "every file and the dir refused:\n{read}");
    assert!(!read.contains(&token) && !read.contains("sha256:"), "{read}");
    // Nothing it read opens a door: every word long enough to be a token or a code.
    let words: Vec<&str> = read.split(|c: char| c.is_whitespace() || c == '\'').collect();
    for w in words.iter().filter(|w| w.len() >= 16) {
        assert!(!authenticates(&d, w).await, "{w:?} from the desktop authenticates");
    }
    assert!(authenticates(&d, &token).await, "the check itself tells a working token");

    // Chromium: its processes run as the desktop's user, without --no-sandbox, with a
    // sandboxed zygote.
    let chromium: Vec<u32> = descendants(d.pid())
        .into_iter()
        .filter(|(_, comm)| comm.starts_with("chromium") || comm.starts_with("chrome"))
        .map(|(pid, _)| pid)
        .collect();
    assert!(!chromium.is_empty(), "the daemon's Chromium runs");
    for pid in &chromium {
        let args = args_of(*pid);
        assert!(!args.iter().any(|a| a == "--no-sandbox"), "{args:?}");
        assert_eq!(uid_of(*pid), Some(uid), "pid {pid} runs as the desktop user: {args:?}");
    }
    let zygote = chromium.iter().any(|p| {
        let a = args_of(*p);
        a.iter().any(|x| x == "--type=zygote") && !a.iter().any(|x| x == "--no-zygote-sandbox")
    });
    assert!(zygote, "a sandboxed zygote runs");
    let ready = Http::connect(d.socket_addr())
        .await
        .send("GET", "/readyz", &[], Duration::from_secs(5))
        .await;
    let checks: Value = serde_json::from_str(&ready.body).expect("json");
    assert_eq!(checks["checks"]["browser_sandbox"]["sandbox"], true, "{checks}");
    let r = c.call("context.get_state", json!({})).await;
    assert_eq!(r["result"]["result"]["backends"]["browser"]["sandbox"], true, "{r}");
}

/// A Chromium whose sandbox cannot start (a stand-in that dies as Chromium does, saying so,
/// unless given `--no-sandbox`) is started again at once without it, and the daemon says why.
#[tokio::test(flavor = "multi_thread")]
async fn a_chromium_whose_sandbox_fails_is_started_again_without_it() {
    let dir = TempDir::new("nosandbox");
    std::fs::set_permissions(&dir.path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let fake = dir.path.join("chromium");
    let script = "#!/bin/sh\ncase \" $* \" in *' --no-sandbox '*) exec chromium \"$@\";; esac\n\
        echo '[1:1:FATAL:zygote_host_impl_linux.cc(128)] No usable sandbox!' >&2\nexit 1\n";
    std::fs::write(&fake, script).expect("stand-in");
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let program = fake.display().to_string();
    let d = Running::start_with_env(&["--desktop", "embedded"], &[("GLOVEBOX_CHROMIUM", &program)]);
    let mut c = Raw::connect(&d.url, Some(&d.token())).await.expect("the token works");
    c.hello(None).await;
    let r = c.call("browser.navigate", json!({"url": "data:text/html,<p>fallback</p>"})).await;
    assert!(r.get("result").is_some(), "the call that met the failure still ran: {r}");
    let chromium = descendants(d.pid())
        .into_iter()
        .map(|(pid, _)| args_of(pid))
        .find(|a| {
            a.first().is_some_and(|p| p.ends_with("/chromium"))
                && !a.iter().any(|x| x.starts_with("--type="))
        })
        .expect("the browser runs");
    assert!(chromium.iter().any(|a| a == "--no-sandbox"), "{chromium:?}");
    let ready = Http::connect(d.socket_addr())
        .await
        .send("GET", "/readyz", &[], Duration::from_secs(5))
        .await;
    let checks: Value = serde_json::from_str(&ready.body).expect("json");
    let line = &checks["checks"]["browser_sandbox"];
    assert_eq!(line["sandbox"], false, "{checks}");
    assert!(line["reason"].as_str().is_some_and(|r| r.contains("could not set up")), "{checks}");
}

/// A daemon that is not root cannot give its desktop a user of its own: each desktop
/// program starts confined (Landlock) instead. Run as `nobody` on a volume outside `/tmp`, as
/// the image runs in a pod: an app the agent launches reads nothing of the state dir, the
/// secrets file or the daemon's environment, while the desktop, Chromium, an upload and an
/// app still work, and `/readyz` says `landlock`.
#[tokio::test(flavor = "multi_thread")]
async fn a_desktop_of_the_daemons_own_uid_is_confined_out_of_its_state_dir() {
    use std::os::unix::fs::chown;
    const NOBODY: u32 = 65534;
    if !is_root() {
        eprintln!("confine: not root, so this test cannot run the daemon as another user");
        return;
    }
    let base = PathBuf::from("/var/lib/glovebox-tests");
    std::fs::create_dir_all(&base).expect("base");
    let volume = base.join(format!("confine-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&volume);
    let (state, probe) = (volume.join("state"), volume.join("probe"));
    for d in [&state, &probe] {
        std::fs::create_dir_all(d).expect("dirs");
    }
    let bin = volume.join("gloveboxd");
    if std::fs::hard_link(glovebox_tests::binary::gloveboxd(), &bin).is_err() {
        std::fs::copy(glovebox_tests::binary::gloveboxd(), &bin).expect("copy gloveboxd");
    }
    let token = "confined-token-0123456789abcdef0123456789";
    let line = glovebox_daemon::auth::hashed_line(token, glovebox_daemon::auth::Role::Actor);
    std::fs::write(state.join("token"), format!("{line}\n")).expect("token file");
    let secret_value = "hunter2-confined-7f3a9c";
    let secrets = volume.join("secrets.json");
    let entry = json!([{"name": "pw", "value": secret_value, "origins": ["https://example.com"]}]);
    std::fs::write(&secrets, entry.to_string()).expect("secrets file");
    for (p, mode) in [(&volume, 0o755), (&state, 0o700), (&probe, 0o777), (&secrets, 0o600)] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).expect("chmod");
    }
    for p in [&volume, &state, &state.join("token"), &secrets] {
        chown(p, Some(NOBODY), Some(NOBODY)).expect("chown");
    }
    let mut cmd = std::process::Command::new("setpriv");
    cmd.args(["--reuid", "65534", "--regid", "65534", "--clear-groups"])
        .arg(&bin)
        .args(["--listen", "127.0.0.1:0", "--desktop", "embedded", "--state-dir"])
        .arg(&state)
        .arg("--secrets")
        .arg(&secrets)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", &volume)
        .env("GLOVEBOX_LOG", "info");
    let (mut child, addr, ready) = glovebox_tests::binary::spawn_until_ready(&mut cmd).await;
    assert_eq!(ready.status, 200, "{}", ready.body);
    let checks: Value = serde_json::from_str(&ready.body).expect("json");
    assert_eq!(checks["checks"]["desktop_isolation"]["isolation"], "landlock", "{checks}");

    let mut c = Raw::connect(&format!("ws://{addr}/rpc"), Some(token)).await.expect("connect");
    c.hello(None).await;
    // Chromium works, and a file handed to a page reaches it (a copy it may read).
    let page = "data:text/html,<title>confined</title><input type=file id=f>";
    let r = c.call("browser.navigate", json!({"url": page})).await;
    assert!(r.get("result").is_some(), "{r}");
    let r = c.call("files.put", json!({"name": "upload.txt", "data": "aGVsbG8="})).await;
    assert!(r.get("result").is_some(), "{r}");
    let r = c.call("browser.upload", json!({"selector": "#f", "files": ["upload.txt"]})).await;
    assert!(r.get("result").is_some(), "{r}");
    let read = "document.getElementById('f').files[0].text()";
    let mut r = c.call("browser.evaluate", json!({"script": read})).await;
    r["result"]["capture"] = Value::Null;
    assert_eq!(r["result"]["result"]["value"], "hello", "{r}");
    // An app of the desktop starts and is driven.
    let app = json!({"app": "mousepad", "launch": true, "timeout_ms": 30000});
    let r = c.call("context.get_app", app).await;
    assert_eq!(r["result"]["result"]["accessible"], true, "{r}");

    // The probe: what the agent may launch, trying every file of the state dir, the secrets
    // file and the daemon's environment and memory map, then a file it may read.
    // (What the desktop works in, its runtime dirs and the copies handed to pages, is its.)
    let own = [state.join("desktop"), state.join("uploads")];
    let targets: Vec<PathBuf> = files_under(&state)
        .into_iter()
        .filter(|p| !own.iter().any(|o| p.starts_with(o)))
        .chain([secrets.clone()])
        .collect();
    assert!(targets.iter().any(|p| p.ends_with("token")), "{targets:?}");
    let daemon = child.id();
    let extra = format!(
        "cat /proc/{daemon}/environ\nhead -c 64 /proc/{daemon}/maps\n\
         echo readable: $(cat /etc/hostname >/dev/null && echo yes)\n"
    );
    let read = probe_reads(&mut c, &probe, &state, &targets, &extra).await;
    eprintln!("the confined probe read:\n{read}");
    assert_eq!(read.lines().next().map(str::trim), Some("65534"), "it ran as the daemon's uid");
    let denied = read.matches("Permission denied").count();
    assert!(denied > targets.len() + 1, "every file, the dir and /proc refused:\n{read}");
    assert!(read.contains("readable: yes"), "the rest of the machine is there:\n{read}");
    assert!(!read.contains("sha256:") && !read.contains(secret_value), "{read}");

    let _ = std::process::Command::new("kill").args(["-TERM", &daemon.to_string()]).status();
    let deadline = Instant::now() + DEADLINE;
    while child.try_wait().expect("wait").is_none() {
        assert!(Instant::now() < deadline, "gloveboxd did not stop");
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = std::fs::remove_dir_all(&volume);
}
