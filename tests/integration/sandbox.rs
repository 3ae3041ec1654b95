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
    let out = probe.path.join("out");
    let targets = files_under(&state);
    assert!(targets.iter().any(|p| p.ends_with("token")), "{targets:?}");
    let mut script = format!("#!/bin/sh\n{{\nid -u\nls -la '{}'\n", state.display());
    for t in &targets {
        script.push_str(&format!("cat '{}'\n", t.display()));
    }
    let done = out.display();
    script.push_str(&format!("}} > '{done}.part' 2>&1\nmv '{done}.part' '{done}'\n"));
    let program = probe.path.join("read-the-state-dir");
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
    let read = std::fs::read_to_string(&out).expect("the probe's output");
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
