//! `cargo xtask bench desktop`: the release `gloveboxd` on a private embedded desktop with
//! mousepad and gtk3-demo, measured side by side with what people use today on the same
//! display and bus (a pyatspi dump, `scrot`, `import -window root`, `xdotool type`), rounds of
//! samples each, medians against the goals of issue 4; and the models' own computer tools
//! (`native.*`, issue 38) against the reference's fixed sleep and our own click.

mod cpu;
mod measure;
mod native;
mod peers;
mod report;

use std::time::Duration;

use anyhow::{bail, Context as _};
use serde_json::{json, Value};

use super::client::Client;
use super::daemon::{self, Daemon};
use super::stats::median;

pub struct Options {
    pub rounds: usize,
    pub samples: usize,
}

impl Options {
    fn parse(args: &[String]) -> anyhow::Result<Options> {
        let mut o = Options { rounds: 5, samples: 10 };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let mut value = || it.next().with_context(|| format!("{arg} needs a value"));
            match arg.as_str() {
                "--rounds" => o.rounds = value()?.parse()?,
                "--samples" => o.samples = value()?.parse()?,
                _ => bail!("unknown argument {arg:?}; usage: cargo xtask bench desktop [--rounds R] [--samples N]"),
            }
        }
        if o.rounds == 0 || o.samples == 0 {
            bail!("--rounds and --samples must be positive");
        }
        Ok(o)
    }
}

/// One measured quantity: the median of each round.
#[derive(Debug, Clone, Default)]
pub struct Series {
    pub rounds: Vec<f64>,
}

impl Series {
    pub fn push_round(&mut self, samples: &[f64]) {
        self.rounds.push(median(samples));
    }

    /// The median of the round medians.
    pub fn value(&self) -> f64 {
        median(&self.rounds)
    }
}

/// The apps under test, as launched by the daemon.
pub struct App {
    pub name: &'static str,
    pub app_id: String,
    pub pid: u32,
    /// Its top-level X window (`context.list_windows`).
    pub window_id: String,
}

/// A client that fails on error answers and returns the op's result with its round trip.
pub struct Bench {
    c: Client,
    pub o: Options,
    /// The daemon's pid (its desktop's processes are its descendants).
    pub pid: u32,
}

/// What one call gave: the whole answer (`result` = the op outcome) and its round trip.
pub struct Answer {
    pub outcome: Value,
    pub ms: f64,
}

impl Answer {
    /// The action's own result.
    pub fn result(&self) -> &Value {
        &self.outcome["result"]
    }
}

impl Bench {
    /// One call; a call refused by the session's op rate limit (BUSY) is sent again after a
    /// pause, and only the answered one is timed.
    pub async fn call(&mut self, method: &str, params: Value) -> anyhow::Result<Answer> {
        let text = params.to_string();
        loop {
            let (answer, took) = self.c.call(method, &text).await?;
            let v: Value = serde_json::from_str(&answer)?;
            if v["error"]["data"]["code"] == "BUSY" {
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
            if v.get("result").is_none() {
                bail!("{method} {params} failed: {answer}");
            }
            return Ok(Answer { outcome: v["result"].clone(), ms: took.as_secs_f64() * 1000.0 });
        }
    }

    /// Launches `name` through `context.get_app` and waits for its first snapshot.
    async fn launch(&mut self, name: &'static str) -> anyhow::Result<App> {
        let a = self
            .call("context.get_app", json!({"app": name, "launch": true, "timeout_ms": 60000}))
            .await?;
        let app_id = a.result()["app_id"].as_str().context("no app_id")?.to_owned();
        let pid: u32 = app_id.trim_start_matches("app:").parse().context("odd app_id")?;
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            let wins = self.call("context.list_windows", json!({})).await?;
            let list = wins.result()["windows"].as_array().cloned().unwrap_or_default();
            if let Some(w) = list.iter().find(|w| w["pid"] == pid) {
                let window_id = w["window_id"].as_str().context("no window_id")?.to_owned();
                return Ok(App { name, app_id, pid, window_id });
            }
            if std::time::Instant::now() > deadline {
                bail!("{name} has no window: {}", wins.result());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Raises and focuses the app's window.
    pub async fn focus(&mut self, app: &App) -> anyhow::Result<()> {
        self.call("context.focus_window", json!({"window_id": app.window_id})).await?;
        Ok(())
    }

    /// Polls snapshots of `app` until a line holds every word; returns (ref, line).
    pub async fn wait_line(&mut self, app: &App, words: &[&str]) -> anyhow::Result<String> {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            let params = json!({"app_id": app.app_id, "disable_diffing": true, "limit": 5000});
            let a = self.call("computer.snapshot", params).await?;
            let text = a.result()["snapshot"].as_str().unwrap_or_default();
            if let Some(line) = text.lines().find(|l| words.iter().all(|w| l.contains(w))) {
                let r = glovebox_protocol::outline::line_ref(line);
                return r.map(str::to_owned).with_context(|| format!("no ref in {line:?}"));
            }
            if std::time::Instant::now() > deadline {
                bail!("{}: no line with {words:?} in:\n{text}", app.name);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let o = Options::parse(args)?;
    let bin = daemon::build()?;
    let load_before = super::report::loadavg();
    let mut d = Daemon::start_on(&bin, "embedded")?;
    eprintln!("bench: gloveboxd pid {} at {} (DISPLAY={})", d.pid, d.url, d.display);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let measured = rt.block_on(session(&d, o));
    let log = if measured.is_err() { d.log_tail(30) } else { String::new() };
    let exit = d.stop();
    let mut results = measured.with_context(|| format!("the daemon log ends with:\n{log}"))?;
    exit?;
    results.loadavg = (load_before, super::report::loadavg());
    report::print(&results)?;
    let path = super::target_dir()?.join("bench").join("desktop.json");
    report::write_json(&results, &path)?;
    eprintln!("bench: wrote {}", path.display());
    Ok(())
}

async fn session(d: &Daemon, o: Options) -> anyhow::Result<measure::Results> {
    let mut c = Client::connect(&d.url, &d.token).await?;
    c.hello().await?;
    let mut b = Bench { c, o, pid: d.pid };
    // The models' own tools first, on the bare desktop.
    let native = native::measure(&mut b).await?;
    let mousepad = b.launch("mousepad").await?;
    let demo = b.launch("gtk3-demo").await?;
    // The apps inherit the daemon's desktop: the peers run with the same display and buses.
    let env = peers::Env::of_pid(mousepad.pid, &d.display)?;
    eprintln!("bench: mousepad {} gtk3-demo {}", mousepad.app_id, demo.app_id);
    measure::all(&mut b, &env, &mousepad, &demo, native).await
}
