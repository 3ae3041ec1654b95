//! The sessions of `bench load`: each on its own connection, calls picked from the mix by
//! a per-session generator until the end, every answer tallied by kind and outcome. Under
//! faults a session also drops its connection mid-call now and then, resumes by name, and
//! ends with probes that must all answer.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::faults;
use crate::client::Client;

/// How long the faults stop before the end, for the sessions to show they recovered.
pub const CALM: Duration = Duration::from_secs(8);
/// A call that takes longer than this never answered (ops time out at 30 s).
const NO_ANSWER: Duration = Duration::from_secs(60);

/// What a session may call: (label, observe?, method, params); `{app}` is the app id.
const MIX: &[(&str, bool, &str, &str)] = &[
    ("session.status", true, "session.status", "{}"),
    ("computer.screenshot", true, "computer.screenshot", r#"{"max_width":320,"format":"jpeg"}"#),
    ("computer.snapshot", true, "computer.snapshot", r#"{"app_id":"{app}","limit":200}"#),
    ("context.list_windows", true, "context.list_windows", "{}"),
    ("browser.snapshot", true, "browser.snapshot", r#"{"limit":200}"#),
    ("browser.get_url", true, "browser.get_url", "{}"),
    ("computer.mouse_move", false, "computer.mouse_move", r#"{"x":1200,"y":780,"capture":false}"#),
    ("computer.key Shift", false, "computer.key", r#"{"key":"Shift","capture":false}"#),
    (
        "browser.scroll",
        false,
        "browser.scroll",
        r#"{"direction":"down","amount":120,"capture":false}"#,
    ),
    ("computer.mouse_move + capture", false, "computer.mouse_move", r#"{"x":1210,"y":790}"#),
];

/// Added to the mix under `--faults`: pastes, which borrow the user's clipboard.
const FAULT_MIX: &[(&str, bool, &str, &str)] = &[(
    "computer.paste",
    false,
    "computer.paste",
    r#"{"app_id":"{app}","text":"pasted ","capture":false}"#,
)];

#[derive(Default)]
pub struct Tally {
    pub samples: BTreeMap<&'static str, Vec<Duration>>,
    pub errors: BTreeMap<String, u64>,
    pub busy: u64,
    pub calls: u64,
    /// Errors without a code or a message.
    pub unclear: u64,
    /// Calls that never answered.
    pub unanswered: u64,
    /// Connections dropped mid-call (and resumed).
    pub dropped: u64,
    /// Sessions that answered every probe after the faults stopped.
    pub recovered: u64,
}

impl Tally {
    /// Add one session's counts to these.
    pub fn absorb(&mut self, t: Tally) {
        for (k, v) in t.samples {
            self.samples.entry(k).or_default().extend(v);
        }
        for (k, v) in t.errors {
            *self.errors.entry(k).or_default() += v;
        }
        self.busy += t.busy;
        self.calls += t.calls;
        self.unclear += t.unclear;
        self.unanswered += t.unanswered;
        self.dropped += t.dropped;
        self.recovered += t.recovered;
    }
}

/// One session: calls from the mix, picked by a per-session generator, until `until`. Under
/// faults it also drops its connection mid-call now and then (and resumes by name), and
/// ends with probes that must all answer.
pub async fn session(
    url: &str,
    token: &str,
    app: Arc<std::sync::Mutex<String>>,
    seed: u64,
    until: Instant,
    faulty: bool,
) -> anyhow::Result<Tally> {
    let name = format!("load-{seed}");
    let mut c = Client::connect(url, token).await?;
    c.hello_as(Some(&name)).await?;
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut t = Tally::default();
    let extra = if faulty { FAULT_MIX.len() } else { 0 };
    while Instant::now() < until {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let k = (rng % (MIX.len() + extra) as u64) as usize;
        let (label, _, method, params) =
            MIX.get(k).copied().unwrap_or_else(|| FAULT_MIX[k - MIX.len()]);
        let params = params.replace("{app}", &faults::lock(&app));
        if faulty && (rng >> 20).is_multiple_of(40) && Instant::now() + CALM < until {
            c.send_and_drop(method, &params).await?;
            c = Client::connect(url, token).await?;
            c.hello_as(Some(&name)).await?;
            t.dropped += 1;
            continue;
        }
        let Ok(answer) = tokio::time::timeout(NO_ANSWER, c.call(method, &params)).await else {
            t.unanswered += 1;
            break;
        };
        let (text, took) = answer?;
        t.calls += 1;
        let v: Value = serde_json::from_str(&text)?;
        match v["error"]["data"]["code"].as_str() {
            None if v.get("error").is_some() => t.unclear += 1,
            None => t.samples.entry(label).or_default().push(took),
            Some("BUSY") => t.busy += 1,
            Some(code) => {
                if v["error"]["message"].as_str().is_none_or(str::is_empty) {
                    t.unclear += 1;
                }
                *t.errors.entry(format!("{label}: {code}")).or_default() += 1;
                if !faulty && t.errors.len() == 1 && t.errors.values().sum::<u64>() == 1 {
                    eprintln!("bench: first error: {}", text.chars().take(400).collect::<String>());
                }
            }
        }
    }
    if faulty {
        let app = faults::lock(&app).clone();
        let probes = [
            ("session.status", "{}".to_owned()),
            ("browser.get_url", "{}".to_owned()),
            ("computer.snapshot", json!({"app_id": app, "limit": 20}).to_string()),
        ];
        let mut all = true;
        for (method, params) in probes {
            let answered = tokio::time::timeout(NO_ANSWER, c.call(method, &params)).await;
            let ok = matches!(&answered, Ok(Ok((text, _))) if text.contains("\"result\""));
            if !ok {
                eprintln!("bench: session {name} did not recover: {method} -> {answered:?}");
            }
            all &= ok;
        }
        t.recovered += u64::from(all);
    }
    Ok(t)
}
