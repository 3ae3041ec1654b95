//! The hostile client of `bench load --hostile`: a client with a token of its own, one
//! session and one background tab on another site (so another renderer), that spends the
//! whole run on what the daemon's limits are for. Each round: a 5,000-call batch, a message
//! past the size limit, an evaluate that builds a 200 MB string, a full-page screenshot of a
//! page 100,000 px wide, an annotation of 600 controls, full batches of ops, a pipelined
//! flood of calls an `ask` rule holds for an approver, and connections on its token up to and
//! past the cap. It counts how each attempt ended; the other sessions should barely notice.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::{self, Utf8Bytes};

use crate::client::Client;

const SHOT: &str = "browser.screenshot full page, 100,000 px wide";

/// The `computer.wait` the policy's `ask` rule catches; no other session waits this long.
const ASK_WAIT_MS: u64 = 4242;

/// The policy file: the hostile client's waits need an approver (and none comes).
pub fn policy() -> String {
    json!({"rules": [{"name": "bench: the hostile client's waits ask an approver",
                      "class": "any", "args": {"duration_ms": ASK_WAIT_MS.to_string()},
                      "decision": "ask"}]})
    .to_string()
}

/// The page of the hostile tab: 100,000 px wide and 6,000 px high under a gradient (a
/// clamped full-page PNG of it is 4.5 MB), or with `noise` under noise (a random tile wider
/// than deflate's 32 KiB window, so no capture of it compresses: the PNG is over 130 MB);
/// 600 buttons in view.
pub fn page(noise: bool) -> String {
    let buttons: String = (0..600)
        .map(|i| {
            let (x, y) = (10 + (i % 40) * 31, 10 + (i / 40) * 20);
            format!("<button style=\"position:absolute;left:{x}px;top:{y}px;width:30px;height:18px;font-size:8px;padding:0\">{i}</button>")
        })
        .collect();
    let (look, script) =
        if noise { ("", NOISE) } else { ("background:linear-gradient(90deg,#c00,#0c0,#00c)", "") };
    format!("<!doctype html><title>hostile</title><body style=\"margin:0\">\
             <div id=\"wide\" style=\"width:100000px;height:6000px;{look}\"></div>{buttons}<script>{script}</script></body>")
}

/// Paints the tile with xorshift noise and makes it the wide element's background.
const NOISE: &str = "const c = document.createElement('canvas'); c.width = 8209; c.height = 521; \
    const g = c.getContext('2d'); const img = g.createImageData(c.width, c.height); \
    const px = new Uint32Array(img.data.buffer); let x = 0x9e3779b9; \
    for (let i = 0; i < px.length; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; px[i] = x | 0xff000000; } \
    g.putImageData(img, 0, 0); \
    c.toBlob((b) => { document.getElementById('wide').style.background = `url(${URL.createObjectURL(b)})`; });";

/// How the hostile client's attempts ended: (attempt, outcome) -> count.
#[derive(Debug, Default)]
pub struct Report {
    /// Rounds of each loop.
    pub rounds: BTreeMap<&'static str, u64>,
    pub outcomes: BTreeMap<(&'static str, String), u64>,
    /// The first message of each refusal, by its code.
    pub messages: BTreeMap<String, String>,
    /// How long each kind of attempt took, answers included.
    pub took: BTreeMap<&'static str, Vec<Duration>>,
    /// The most connections the flood had open at once (the two loops beside it hold one
    /// each).
    pub most_open: usize,
    /// Times its own connection was gone and opened again.
    pub reconnects: u64,
}

impl Report {
    fn absorb(&mut self, r: Report) {
        self.rounds.extend(r.rounds);
        for (k, n) in r.outcomes {
            *self.outcomes.entry(k).or_default() += n;
        }
        for (k, m) in r.messages {
            self.messages.entry(k).or_insert(m);
        }
        for (k, t) in r.took {
            self.took.entry(k).or_default().extend(t);
        }
        self.most_open = self.most_open.max(r.most_open);
        self.reconnects += r.reconnects;
    }

    fn time(&mut self, what: &'static str, since: Instant) {
        self.took.entry(what).or_default().push(since.elapsed());
    }

    fn count(&mut self, what: &'static str, outcome: impl Into<String>) {
        *self.outcomes.entry((what, outcome.into())).or_default() += 1;
    }

    /// Every answer in `text` (one, or a batch's array), by its outcome.
    fn answers(&mut self, what: &'static str, text: &str) {
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Array(all)) => all.iter().for_each(|v| self.answer(what, v)),
            Ok(v) => self.answer(what, &v),
            Err(_) => self.count(what, "not JSON"),
        }
    }

    fn answer(&mut self, what: &'static str, v: &Value) {
        let o = outcome(v);
        if let Some(m) = v["error"]["message"].as_str() {
            self.messages.entry(o.clone()).or_insert_with(|| m.chars().take(160).collect());
        }
        self.count(what, o);
    }
}

/// An answer's outcome: its error code, or `ok` with what the daemon cut.
fn outcome(v: &Value) -> String {
    if let Some(code) = v["error"]["data"]["code"].as_str() {
        return code.to_owned();
    }
    if let Some(e) = v.get("error") {
        return format!("error {} without a code", e["code"]);
    }
    let r = &v["result"]["result"];
    if r["labels_omitted"].as_u64().is_some_and(|n| n > 0) {
        return format!("ok, {} labels drawn", r["labels"].as_array().map_or(0, Vec::len));
    }
    match &r["truncated"] {
        Value::Null | Value::Bool(false) => "ok".into(),
        Value::Object(_) if r["width"].is_u64() => {
            format!("ok, clamped to {} x {}", r["width"], r["height"])
        }
        _ => "ok, cut".into(),
    }
}

/// The hostile client's three loops, each on connections of its own, so that a call the
/// browser is slow to answer never gives the daemon a rest from the others.
#[derive(Debug, Clone, Copy)]
enum Loop {
    /// Evaluate, full-page screenshot and annotation on its background tab.
    Page,
    /// Batches, an oversized message and the approval flood.
    Protocol,
    /// Connections up to and past the token's cap.
    Connections,
}

impl Loop {
    fn name(self) -> &'static str {
        match self {
            Loop::Page => "page",
            Loop::Protocol => "protocol",
            Loop::Connections => "connections",
        }
    }
}

struct Hostile {
    url: String,
    token: String,
    page: String,
    which: Loop,
    client: Option<Client>,
    tab: Option<String>,
    report: Report,
    next_id: u64,
    /// The call on the tab waiting for its answer, and since when.
    waiting: Option<(&'static str, Instant)>,
    /// Messages sent every round, by what they are.
    texts: BTreeMap<&'static str, Utf8Bytes>,
}

/// Run the three loops until `until`; what the daemon answered them.
pub async fn run(url: &str, token: &str, page: &str, until: Instant) -> Report {
    let mut tasks = tokio::task::JoinSet::new();
    for which in [Loop::Page, Loop::Protocol, Loop::Connections] {
        let h = Hostile {
            url: url.to_owned(),
            token: token.to_owned(),
            page: page.to_owned(),
            which,
            client: None,
            tab: None,
            report: Report::default(),
            next_id: 1 << 40,
            waiting: None,
            texts: BTreeMap::new(),
        };
        tasks.spawn(h.run(until));
    }
    let mut all = Report::default();
    while let Some(r) = tasks.join_next().await {
        if let Ok(r) = r {
            all.absorb(r);
        }
    }
    all
}

fn first_line(e: &anyhow::Error) -> String {
    e.to_string().lines().next().unwrap_or_default().chars().take(80).collect()
}

impl Hostile {
    async fn run(mut self, until: Instant) -> Report {
        let deadline = tokio::time::Instant::from_std(until);
        let mut rounds = 0;
        while Instant::now() < until {
            match tokio::time::timeout_at(deadline, self.round()).await {
                Ok(Ok(())) => rounds += 1,
                Ok(Err(e)) => {
                    self.report.count("connection", format!("lost: {}", first_line(&e)));
                    self.client = None;
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(_) => {
                    if let Some((what, since)) = self.waiting.take() {
                        self.report.count(what, "no answer yet when the run ended");
                        self.report.time(what, since);
                    }
                    break;
                }
            }
        }
        self.report.rounds.insert(self.which.name(), rounds);
        self.report
    }

    async fn round(&mut self) -> anyhow::Result<()> {
        match self.which {
            Loop::Page => self.page_round().await,
            Loop::Protocol => self.protocol_round().await,
            Loop::Connections => {
                self.connection_flood().await;
                Ok(())
            }
        }
    }

    async fn page_round(&mut self) -> anyhow::Result<()> {
        self.connect().await?;
        if self.tab.is_none() {
            const WHAT: &str = "browser.tab_new (background, its own site)";
            let params = json!({"url": self.page, "visible": false}).to_string();
            let t = Instant::now();
            let text = self.call("browser.tab_new", &params).await?;
            self.report.time(WHAT, t);
            self.report.answers(WHAT, &text);
            let v: Value = serde_json::from_str(&text)?;
            self.tab = v["result"]["result"]["tab_id"].as_str().map(String::from);
        }
        let tab = self.tab.clone().unwrap_or_default();
        self.on_tab(
            "browser.evaluate of a 200 MB string",
            "browser.evaluate",
            json!({"tab_id": tab, "script": "'x'.repeat(200 * 1024 * 1024)", "timeout_ms": 60000}),
        )
        .await?;
        let shots = self.report.took.get(SHOT).map_or(0, Vec::len);
        let format = if shots.is_multiple_of(2) { "jpeg" } else { "png" };
        self.on_tab(
            SHOT,
            "browser.screenshot",
            json!({"tab_id": tab, "full_page": true, "format": format, "timeout_ms": 60000}),
        )
        .await?;
        self.on_tab(
            "browser.screenshot_annotate of 600 controls",
            "browser.screenshot_annotate",
            json!({"tab_id": tab, "timeout_ms": 60000}),
        )
        .await
    }

    async fn protocol_round(&mut self) -> anyhow::Result<()> {
        self.connect().await?;
        self.batch("batch of 5,000 calls", "session.status", "{}".into(), 5_000).await?;
        self.batch("batch of 64 session.status", "session.status", "{}".into(), 64).await?;
        let wait = json!({"duration_ms": 1}).to_string();
        self.batch("batch of 64 ops (computer.wait)", "computer.wait", wait.clone(), 64).await?;
        self.batch("batch of 32 ops (computer.wait)", "computer.wait", wait, 32).await?;
        self.oversized().await?;
        self.approval_flood().await
    }

    async fn connect(&mut self) -> anyhow::Result<()> {
        if self.client.is_some() {
            return Ok(());
        }
        let mut c = Client::connect(&self.url, &self.token).await?;
        c.hello_as(Some(&format!("hostile-{}", self.which.name()))).await?;
        if self.report.took.values().any(|t| !t.is_empty()) {
            self.report.reconnects += 1;
        }
        self.client = Some(c);
        Ok(())
    }

    fn client(&mut self) -> anyhow::Result<&mut Client> {
        self.client.as_mut().ok_or_else(|| anyhow::anyhow!("not connected"))
    }

    async fn call(&mut self, method: &str, params: &str) -> anyhow::Result<String> {
        Ok(self.client()?.call(method, params).await?.0)
    }

    /// A call on the hostile tab; a gone tab (the browser was killed) is opened again next
    /// round.
    async fn on_tab(
        &mut self,
        what: &'static str,
        method: &str,
        params: Value,
    ) -> anyhow::Result<()> {
        let t = Instant::now();
        self.waiting = Some((what, t));
        let text = self.call(method, &params.to_string()).await?;
        self.waiting = None;
        self.report.time(what, t);
        let v: Value = serde_json::from_str(&text).unwrap_or_default();
        if matches!(
            v["error"]["data"]["code"].as_str(),
            Some("TARGET_NOT_FOUND" | "BACKEND_UNAVAILABLE")
        ) {
            self.tab = None;
        }
        self.report.answers(what, &text);
        Ok(())
    }

    fn request(&mut self, method: &str, params: &str) -> String {
        self.next_id += 1;
        let id = self.next_id;
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{params}}}"#)
    }

    /// `n` calls of `method` in one batch; one answer frame.
    async fn batch(
        &mut self,
        what: &'static str,
        method: &str,
        params: String,
        n: usize,
    ) -> anyhow::Result<()> {
        let text = self.prepared(what, |h| {
            let calls: Vec<String> = (0..n).map(|_| h.request(method, &params)).collect();
            format!("[{}]", calls.join(","))
        });
        self.send_one(what, text).await
    }

    /// A 17 MiB message, past the 16 MiB limit.
    async fn oversized(&mut self) -> anyhow::Result<()> {
        const WHAT: &str = "message of 17 MiB";
        let text = self.prepared(WHAT, |h| {
            let pad = "p".repeat(17 * 1024 * 1024);
            h.request("session.status", &json!({"pad": pad}).to_string())
        });
        self.send_one(WHAT, text).await
    }

    /// The text of a message sent every round, made once: what the daemon does with it is
    /// measured, not what making it costs this process (it shares the machine's CPUs).
    fn prepared(
        &mut self,
        what: &'static str,
        make: impl FnOnce(&mut Self) -> String,
    ) -> Utf8Bytes {
        if let Some(t) = self.texts.get(what) {
            return t.clone();
        }
        let t = Utf8Bytes::from(make(self));
        self.texts.insert(what, t.clone());
        t
    }

    async fn send_one(&mut self, what: &'static str, text: Utf8Bytes) -> anyhow::Result<()> {
        let t = Instant::now();
        let c = self.client()?;
        c.send_text(text).await?;
        let answer = c.next_text().await?;
        self.report.time(what, t);
        self.report.answers(what, &answer);
        Ok(())
    }

    /// 48 calls the `ask` rule holds, sent at once, then their answers.
    async fn approval_flood(&mut self) -> anyhow::Result<()> {
        const N: usize = 48;
        let params = json!({"duration_ms": ASK_WAIT_MS}).to_string();
        const WHAT: &str = "approval flood (48 asks at once)";
        let calls: Vec<String> = (0..N).map(|_| self.request("computer.wait", &params)).collect();
        let t = Instant::now();
        let c = self.client()?;
        for call in calls {
            c.send_text(call).await?;
        }
        let mut answers = Vec::with_capacity(N);
        for _ in 0..N {
            answers.push(c.next_text().await?);
        }
        self.report.time(WHAT, t);
        for a in answers {
            self.report.answers(WHAT, &a);
        }
        Ok(())
    }

    /// Open connections on the token (each with a session) until one is refused, hold them a
    /// moment, then let them go.
    async fn connection_flood(&mut self) {
        const TRIES: usize = 80;
        const WHAT: &str = "connection flood";
        let t = Instant::now();
        let mut open = Vec::new();
        for _ in 0..TRIES {
            match Client::connect(&self.url, &self.token).await {
                Ok(mut c) => {
                    if c.hello().await.is_ok() {
                        open.push(c);
                    }
                }
                Err(e) => {
                    self.report.count(WHAT, refusal(&e));
                    break;
                }
            }
        }
        self.report.time(WHAT, t);
        self.report.most_open = self.report.most_open.max(open.len());
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

/// What a refused WebSocket upgrade said: the HTTP status and the body's code.
fn refusal(e: &anyhow::Error) -> String {
    match e.downcast_ref::<tungstenite::Error>() {
        Some(tungstenite::Error::Http(r)) => {
            let body: Value = r
                .body()
                .as_deref()
                .and_then(|b| serde_json::from_slice(b).ok())
                .unwrap_or_default();
            format!("HTTP {} {}", r.status().as_u16(), body["code"].as_str().unwrap_or("(no code)"))
        }
        _ => format!("failed: {}", first_line(e)),
    }
}
