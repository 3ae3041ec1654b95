//! One code client's connection: a WebSocket on one side, a lane of the browser's pipe on
//! the other, and the endpoint's view of the browser in between.
//!
//! The lane opens a browser session of its own (`Target.attachToBrowserTarget`): the
//! client's browser-level calls go there, so its discovery and auto-attach settings are its
//! own and never the daemon's. The client sees the tab's page target, the tab's `tab` target
//! (Puppeteer attaches to pages through it; it is found once, by attaching to each tab
//! target and asking which page it holds) and the popups the page opens; every other target
//! is left out of events and answers, and one auto-attached anyway is let run and detached at
//! once. Calls go through `rules.rs`. Fetch interception by the client works on its own
//! session, chained after the daemon's guard (DevTools pauses a request for each client that
//! intercepts it), so a load the policy denies is failed whoever else intercepts it.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use super::rules::{self, Judgement, Scope};
use super::Entry;
use crate::browser::cdp::guard::Verdict;
use crate::browser::pipe::Lane;
use crate::state::Daemon;

/// How long setting the lane up may take.
const SETUP: Duration = Duration::from_secs(10);

/// The error code of a refusal (DevTools' own for a call it will not do).
const REFUSED: i64 = -32000;

/// Calls that change the page, reported with the code session as their actor.
const ACTS: [&str; 9] = [
    "Page.navigate",
    "Page.reload",
    "Page.navigateToHistoryEntry",
    "Input.dispatchMouseEvent",
    "Input.dispatchKeyEvent",
    "Input.insertText",
    "Runtime.evaluate",
    "Runtime.callFunctionOn",
    "Network.setCookies",
];

/// A call the client made, waiting for its answer.
struct Pending {
    id: Value,
    method: String,
}

struct Bridge {
    lane: Lane,
    /// The lane's browser session.
    root: String,
    page: String,
    /// Targets the client may see.
    targets: HashSet<String>,
    /// Sessions the client holds -> their target.
    sessions: HashMap<String, String>,
    /// Sessions auto-attached to other targets, being detached.
    hidden: HashSet<String>,
    context: Option<String>,
    /// Whether the tab's context is one the daemon made (a party's, `browser/contexts.rs`):
    /// then a `Storage` call that names no context is sent for this one, not the default.
    made_context: bool,
    page_url: String,
    pending: HashMap<u64, Pending>,
    /// Messages that came while setting up.
    seen: Vec<Value>,
    /// When each kind of act was last reported.
    reported: HashMap<String, Instant>,
}

type Fail = String;

impl Bridge {
    /// A call of the lane's own, answered before the client's traffic starts.
    async fn call(
        &mut self,
        method: &str,
        params: Value,
        session: Option<&str>,
        deadline: tokio::time::Instant,
    ) -> Result<Value, Fail> {
        let mut msg = json!({"method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let id = self.lane.send(&mut msg).await.map_err(|e| e.to_string())?;
        loop {
            let got = tokio::time::timeout_at(deadline, self.lane.rx.recv()).await;
            let text = match got {
                Ok(Some(t)) => t,
                Ok(None) => return Err("the browser's pipe closed".into()),
                Err(_) => return Err(format!("{method} got no answer in time")),
            };
            let Ok(v) = serde_json::from_str::<Value>(&text) else { continue };
            if v["id"].as_u64() == Some(id) {
                if let Some(e) = v.get("error") {
                    return Err(format!("{method}: {}", e["message"]));
                }
                return Ok(v["result"].clone());
            }
            self.seen.push(v);
        }
    }

    /// Open the lane's browser session and learn the tab: its context, URL and tab target.
    async fn setup(lane: Lane, page: &str) -> Result<Bridge, Fail> {
        let deadline = tokio::time::Instant::now() + SETUP;
        let mut b = Bridge {
            lane,
            root: String::new(),
            page: page.to_owned(),
            targets: [page.to_owned()].into(),
            sessions: HashMap::new(),
            hidden: HashSet::new(),
            context: None,
            made_context: false,
            page_url: String::new(),
            pending: HashMap::new(),
            seen: Vec::new(),
            reported: HashMap::new(),
        };
        let attached = b.call("Target.attachToBrowserTarget", json!({}), None, deadline).await?;
        b.root = attached["sessionId"].as_str().ok_or("no browser session")?.to_owned();
        let root = b.root.clone();
        // Without a filter, tab targets are left out.
        let every = json!({"filter": [{}]});
        let all = b.call("Target.getTargets", every, Some(&root), deadline).await?;
        let infos = all["targetInfos"].as_array().cloned().unwrap_or_default();
        let Some(info) = infos.iter().find(|t| t["targetId"] == page) else {
            return Err("the tab closed".into());
        };
        b.context = info["browserContextId"].as_str().map(str::to_owned);
        let made = b.call("Target.getBrowserContexts", json!({}), Some(&root), deadline).await?;
        let made = made["browserContextIds"].as_array().cloned().unwrap_or_default();
        b.made_context = b.context.as_ref().is_some_and(|c| made.iter().any(|m| m == c));
        b.page_url = info["url"].as_str().unwrap_or_default().to_owned();
        let mut tabs: Vec<&Value> = infos.iter().filter(|t| t["type"] == "tab").collect();
        tabs.sort_by_key(|t| t["url"] != info["url"]);
        for tab in tabs {
            let Some(tab_id) = tab["targetId"].as_str() else { continue };
            if b.holds_page(tab_id, deadline).await? {
                b.targets.insert(tab_id.to_owned());
                break;
            }
        }
        b.seen.clear();
        Ok(b)
    }

    /// Whether tab target `tab` holds the page: attach to it, let it attach its page, detach.
    async fn holds_page(
        &mut self,
        tab: &str,
        deadline: tokio::time::Instant,
    ) -> Result<bool, Fail> {
        let root = self.root.clone();
        let p = json!({"targetId": tab, "flatten": true});
        let Ok(a) = self.call("Target.attachToTarget", p, Some(&root), deadline).await else {
            return Ok(false);
        };
        let Some(s) = a["sessionId"].as_str().map(str::to_owned) else { return Ok(false) };
        let auto = json!({"autoAttach": true, "waitForDebuggerOnStart": false, "flatten": true});
        let r = self.call("Target.setAutoAttach", auto, Some(&s), deadline).await;
        let found = r.is_ok()
            && self.seen.iter().any(|v| {
                v["method"] == "Target.attachedToTarget"
                    && v["sessionId"] == s.as_str()
                    && v["params"]["targetInfo"]["targetId"] == self.page.as_str()
            });
        self.seen.clear();
        self.call("Target.detachFromTarget", json!({"sessionId": s}), Some(&root), deadline)
            .await?;
        Ok(found)
    }

    /// Whether the client may see the target `info` describes; a page the tab (or one of
    /// its popups) opened joins them.
    fn visible(&mut self, info: &Value) -> bool {
        let Some(id) = info["targetId"].as_str() else { return false };
        if self.targets.contains(id) {
            return true;
        }
        let opener = info["openerId"].as_str().is_some_and(|o| self.targets.contains(o));
        if info["type"] == "page" && opener {
            self.targets.insert(id.to_owned());
            return true;
        }
        false
    }

    /// Let an auto-attached target the client may not see run, and detach from it.
    async fn hide(&mut self, session: &str, waiting: bool) {
        self.hidden.insert(session.to_owned());
        if waiting {
            let mut run = json!({"method": "Runtime.runIfWaitingForDebugger", "params": {},
                                 "sessionId": session});
            let _ = self.lane.send(&mut run).await;
        }
        let mut detach = json!({"method": "Target.detachFromTarget",
                                "params": {"sessionId": session}, "sessionId": self.root});
        let _ = self.lane.send(&mut detach).await;
    }

    /// A message from the browser, rewritten for the client, or `None` to keep it back.
    async fn on_browser(&mut self, text: &str) -> Option<String> {
        let mut v: Value = serde_json::from_str(text).ok()?;
        if let Some(wire) = v.get("id").and_then(Value::as_u64) {
            let p = self.pending.remove(&wire)?;
            v["id"] = p.id;
            self.answered(&p.method, &mut v);
        } else {
            let session = v["sessionId"].as_str().map(str::to_owned);
            let method = v["method"].as_str().unwrap_or_default().to_owned();
            match session {
                Some(s) if s == self.root => {
                    if !self.browser_event(&method, &mut v).await {
                        return None;
                    }
                }
                Some(s) if self.hidden.contains(&s) => return None,
                Some(_) => self.session_event(&method, &v),
                None => return None,
            }
        }
        if v["sessionId"] == self.root.as_str() {
            if let Some(o) = v.as_object_mut() {
                o.remove("sessionId");
            }
        }
        Some(v.to_string())
    }

    /// An answer to the client's call: what it may not see is taken out.
    fn answered(&mut self, method: &str, v: &mut Value) {
        match method {
            "Target.getTargets" => {
                let infos = v["result"]["targetInfos"].as_array().cloned().unwrap_or_default();
                let kept: Vec<Value> = infos.into_iter().filter(|i| self.visible(i)).collect();
                v["result"]["targetInfos"] = Value::Array(kept);
            }
            "Target.getBrowserContexts" => {
                let ours = self.context.clone();
                if let Some(ids) = v["result"]["browserContextIds"].as_array_mut() {
                    ids.retain(|c| c.as_str() == ours.as_deref());
                }
            }
            "Target.attachToTarget" => {
                if let Some(s) = v["result"]["sessionId"].as_str() {
                    self.sessions.insert(s.to_owned(), String::new());
                }
            }
            _ => {}
        }
    }

    /// An event of the lane's browser session; false keeps it from the client.
    async fn browser_event(&mut self, method: &str, v: &mut Value) -> bool {
        let params = v["params"].clone();
        match method {
            "Target.targetCreated" | "Target.targetInfoChanged" => {
                let info = &params["targetInfo"];
                if info["targetId"] == self.page.as_str() {
                    self.page_url = info["url"].as_str().unwrap_or_default().to_owned();
                }
                self.visible(info)
            }
            "Target.targetDestroyed" | "Target.targetCrashed" => {
                params["targetId"].as_str().is_some_and(|t| self.targets.contains(t))
            }
            "Target.attachedToTarget" => {
                let Some(s) = params["sessionId"].as_str() else { return false };
                let target = params["targetInfo"]["targetId"].as_str().unwrap_or_default();
                if self.visible(&params["targetInfo"]) {
                    self.sessions.insert(s.to_owned(), target.to_owned());
                    return true;
                }
                let waiting = params["waitingForDebugger"] == json!(true);
                self.hide(s, waiting).await;
                false
            }
            "Target.detachedFromTarget" => {
                let s = params["sessionId"].as_str().unwrap_or_default();
                if self.hidden.remove(s) {
                    return false;
                }
                self.sessions.remove(s);
                true
            }
            // Downloads are the daemon's, of every tab.
            m => !m.starts_with("Browser.download"),
        }
    }

    /// An event in one of the client's sessions: frames, workers and the tab target's page
    /// attach below them.
    fn session_event(&mut self, method: &str, v: &Value) {
        let params = &v["params"];
        let Some(s) = params["sessionId"].as_str() else { return };
        match method {
            "Target.attachedToTarget" => {
                let target = params["targetInfo"]["targetId"].as_str().unwrap_or_default();
                self.sessions.insert(s.to_owned(), target.to_owned());
            }
            "Target.detachedFromTarget" => {
                self.sessions.remove(s);
            }
            _ => {}
        }
    }
}

/// Serve one client on `ws` until it leaves or the endpoint ends.
pub async fn run<S>(daemon: Arc<Daemon>, ws: WebSocketStream<S>, entry: Arc<Entry>)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let (mut out, mut incoming) = ws.split();
    let mut ended = entry.ended();
    let close = |reason: String| {
        let reason = reason.chars().take(120).collect::<String>();
        Message::Close(Some(CloseFrame { code: CloseCode::Normal, reason: reason.into() }))
    };
    let lane = match daemon.config.browser.as_ref() {
        Some(b) => b.code_lane(&entry.browser_id).await.map_err(|e| e.to_string()),
        None => Err("this daemon runs without the browser backend".into()),
    };
    let setup = match lane {
        Ok(lane) => Bridge::setup(lane, &entry.target_id).await,
        Err(e) => Err(e),
    };
    let mut bridge = match setup {
        Ok(b) => b,
        Err(e) => {
            tracing::warn!(cdp_id = %entry.cdp_id, "a code session could not start: {e}");
            let _ = out.send(close(format!("cannot open the tab: {e}"))).await;
            entry.release();
            return;
        }
    };
    let by = format!("cdp:{}", entry.cdp_id);
    let said = json!({"cdp_id": entry.cdp_id, "tab_id": entry.tab_id,
                      "browser_id": entry.browser_id, "session": entry.session_id});
    daemon.events.publish_for(entry.owner, "browser", "cdp.connected", said.clone());
    let browsers = daemon.config.browser.clone();
    let judge = move |url: &str| match &browsers {
        Some(b) => b.guard().verdict(url),
        None => Verdict::Allow,
    };
    let reason = loop {
        tokio::select! {
            frame = incoming.next() => match frame {
                Some(Ok(Message::Text(t))) => {
                    for answer in client_call(&mut bridge, &daemon, &entry, &by, &judge, t.as_str()).await {
                        if out.send(Message::text(answer)).await.is_err() {
                            break;
                        }
                    }
                }
                Some(Ok(Message::Close(_)) | Err(_)) | None => break None,
                Some(Ok(_)) => {}
            },
            msg = bridge.lane.rx.recv() => match msg {
                Some(text) => {
                    if let Some(m) = bridge.on_browser(&text).await {
                        if out.send(Message::text(m)).await.is_err() {
                            break None;
                        }
                    }
                }
                None => break Some("the browser's pipe closed".to_owned()),
            },
            r = wait_ended(&mut ended) => break Some(r),
        }
    };
    if let Some(r) = &reason {
        let _ = out.send(close(format!("code session ended: {r}"))).await;
    }
    let _ = out.close().await;
    // The client's sessions end with the lane's browser session.
    let mut detach = json!({"method": "Target.detachFromTarget",
                            "params": {"sessionId": bridge.root}});
    let _ = bridge.lane.send(&mut detach).await;
    entry.release();
    daemon.events.publish_for(entry.owner, "browser", "cdp.disconnected", said);
    tracing::debug!(cdp_id = %entry.cdp_id, "a code client left");
}

/// Why the endpoint ended, once it has.
async fn wait_ended(rx: &mut tokio::sync::watch::Receiver<Option<String>>) -> String {
    let why = rx.wait_for(Option::is_some).await.ok().and_then(|r| r.clone());
    why.unwrap_or_else(|| "ended".into())
}

/// One call from the client: sent on, or answered here (what goes back at once).
async fn client_call(
    b: &mut Bridge,
    daemon: &Daemon,
    entry: &Entry,
    by: &str,
    judge: &(dyn Fn(&str) -> Verdict + Send + Sync),
    text: &str,
) -> Vec<String> {
    let Ok(mut v) = serde_json::from_str::<Value>(text) else {
        return vec![json!({"error": {"code": -32700, "message": "not JSON"}}).to_string()];
    };
    let id = v["id"].clone();
    let method = v["method"].as_str().unwrap_or_default().to_owned();
    let session = v["sessionId"].as_str().filter(|s| !s.is_empty()).map(str::to_owned);
    let answer = |body: Value| {
        let mut a = json!({"id": id});
        if let (Some(o), Some(b)) = (a.as_object_mut(), body.as_object()) {
            o.extend(b.clone());
        }
        if let Some(s) = &session {
            a["sessionId"] = json!(s);
        }
        vec![a.to_string()]
    };
    let refused = |rule: &str, why: &str| {
        answer(json!({"error": {"code": REFUSED, "message": rules::message(rule, why)}}))
    };
    if let Some(s) = &session {
        if !b.sessions.contains_key(s) {
            return refused("unknown-session", "that session is not one of this endpoint's");
        }
    }
    let judgement = {
        let origin = rules::origin_of(&b.page_url);
        let scope = Scope { targets: &b.targets, context: b.context.as_deref(), origin, judge };
        rules::judge(&method, &v["params"], session.is_none(), &scope)
    };
    match judgement {
        Judgement::Forward => {}
        Judgement::Answer(result) => return answer(json!({"result": result})),
        Judgement::Refuse { rule, why } => return refused(rule, &why),
        Judgement::Blocked { url, rule } => {
            tracing::info!(%url, %rule, cdp_id = %entry.cdp_id, "the policy blocked a code client's load");
            if let Some(br) = &daemon.config.browser {
                br.emit(
                    "navigation_blocked",
                    json!({"browser_id": entry.browser_id, "tab_id": entry.tab_id,
                           "url": url, "rule": rule, "by": by}),
                );
            }
            return refused("policy", &format!("{url} is blocked by the policy's rule {rule:?}"));
        }
    }
    if ACTS.contains(&method.as_str()) {
        report(b, daemon, entry, by, &method);
    }
    if session.is_none() {
        v["sessionId"] = json!(b.root);
    }
    if method.starts_with("Storage.") && b.made_context && v["params"]["browserContextId"].is_null()
    {
        if v["params"].is_null() {
            v["params"] = json!({});
        }
        if let (Some(c), Some(p)) = (&b.context, v["params"].as_object_mut()) {
            p.insert("browserContextId".into(), json!(c));
        }
    }
    match b.lane.send(&mut v).await {
        Ok(wire) => {
            b.pending.insert(wire, Pending { id, method });
            Vec::new()
        }
        Err(e) => answer(json!({"error": {"code": REFUSED, "message": e.to_string()}})),
    }
}

/// Tell the session's subscribers (and so the view page's feed) that the code session acted
/// on the tab, at most once a second per kind of act.
fn report(b: &mut Bridge, daemon: &Daemon, entry: &Entry, by: &str, method: &str) {
    let now = Instant::now();
    if b.reported.get(method).is_some_and(|t| now.duration_since(*t) < Duration::from_secs(1)) {
        return;
    }
    b.reported.insert(method.to_owned(), now);
    daemon.events.publish_for(
        entry.owner,
        "browser",
        "cdp.act",
        json!({"by": by, "cdp_id": entry.cdp_id, "tab_id": entry.tab_id,
               "browser_id": entry.browser_id, "method": method, "session": entry.session_id}),
    );
}
