//! Frames another renderer process draws (cross-site iframes): a DevTools session per frame
//! target over the browser's one connection. Sessions are attached without flattening, so
//! commands travel inside `Target.sendMessageToTarget` and answers come back as
//! `Target.receivedMessageFromTarget` events, which one task hands to the waiting caller.
//! Each frame target is followed from its creation (`follow`): its session's Network events
//! go to its tab's network tracking, so a settle sees the frame's requests end.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::network::EnableParams as NetworkEnable;
use chromiumoxide::cdp::browser_protocol::target::{
    AttachToTargetParams, EventDetachedFromTarget, EventReceivedMessageFromTarget,
    EventTargetCreated,
};
use chromiumoxide::types::Command;
use futures::StreamExt;
use serde_json::{json, Value};
use tokio::sync::oneshot;

use super::{Conn, Raw};
use crate::browser::settle::Net;
use crate::browser::{lock, BrowserError};

/// How long a frame has to answer one command.
const ANSWER: Duration = Duration::from_secs(20);

/// The frame sessions of one browser connection.
#[derive(Debug, Default)]
pub struct Frames {
    /// Frame target id -> session id.
    sessions: Arc<Mutex<HashMap<String, String>>>,
    /// Message id -> who waits for its answer.
    pending: Arc<Mutex<HashMap<u64, oneshot::Sender<Value>>>>,
    next: AtomicU64,
    /// Session id -> the network tracking of the tab the frame sits in.
    nets: Arc<Mutex<HashMap<String, Arc<Net>>>>,
}

impl Frames {
    /// Route answers to their callers and forget sessions the browser detached (their frame
    /// navigated away or closed); the tasks end with the connection.
    pub async fn listen(
        &self,
        browser: &chromiumoxide::Browser,
    ) -> Vec<tokio::task::JoinHandle<()>> {
        let mut tasks = Vec::new();
        if let Ok(mut messages) = browser.event_listener::<EventReceivedMessageFromTarget>().await {
            let (pending, nets) = (self.pending.clone(), self.nets.clone());
            tasks.push(tokio::spawn(async move {
                while let Some(ev) = messages.next().await {
                    let Ok(msg) = serde_json::from_str::<Value>(&ev.message) else { continue };
                    let Some(id) = msg["id"].as_u64() else {
                        let session: &str = ev.session_id.as_ref();
                        let net = lock(&nets).get(session).cloned();
                        if let Some(net) = net {
                            network_event(&net, &msg);
                        }
                        continue;
                    };
                    if let Some(tx) = lock(&pending).remove(&id) {
                        let _ = tx.send(msg);
                    }
                }
            }));
        }
        if let Ok(mut detached) = browser.event_listener::<EventDetachedFromTarget>().await {
            let (sessions, nets) = (self.sessions.clone(), self.nets.clone());
            tasks.push(tokio::spawn(async move {
                while let Some(ev) = detached.next().await {
                    let gone: &str = ev.session_id.as_ref();
                    lock(&sessions).retain(|_, s| s != gone);
                    lock(&nets).remove(gone);
                }
            }));
        }
        tasks
    }
}

/// A Network event of a frame's session, into its tab's tracking. Read as JSON, three fields
/// of it: the event arrives as the text of a relayed message, and a typed reading of the
/// whole event would drop it (and leave its request open) on any field newer than the crate.
fn network_event(net: &Net, msg: &Value) {
    let p = &msg["params"];
    let Some(id) = p["requestId"].as_str() else { return };
    match msg["method"].as_str().unwrap_or_default() {
        "Network.requestWillBeSent" => {
            let url = p["request"]["url"].as_str().unwrap_or_default();
            let document = (p["type"] == "Document").then(|| p["frameId"].as_str()).flatten();
            net.started(id.to_owned(), url, document.map(str::to_owned), true);
        }
        "Network.loadingFinished" | "Network.loadingFailed" => net.finished(id),
        _ => {}
    }
}

/// Follows every cross-site frame the browser creates: the document request its parent
/// started is handed over to it, and its own requests are tracked from its session. The
/// task ends with the connection.
pub async fn follow(conn: &Arc<Conn>) -> Option<tokio::task::JoinHandle<()>> {
    let mut created = conn.browser().event_listener::<EventTargetCreated>().await.ok()?;
    let weak = Arc::downgrade(conn);
    Some(tokio::spawn(async move {
        while let Some(ev) = created.next().await {
            if ev.target_info.r#type != "iframe" {
                continue;
            }
            let Some(conn) = weak.upgrade() else { break };
            let frame: String = ev.target_info.target_id.inner().clone();
            for w in conn.watches() {
                w.net.handed_over(&frame);
            }
            tokio::spawn(async move {
                if let Err(e) = conn.follow_frame(&frame).await {
                    tracing::debug!(%e, frame, "cannot follow a cross-site frame's network");
                }
            });
        }
    }))
}

impl Conn {
    /// Tracks the requests of the cross-site frame `frame` in its tab's network tracking.
    async fn follow_frame(&self, frame: &str) -> Result<(), BrowserError> {
        let mut at = frame.to_owned();
        let mut watch = None;
        // Up through frames nested in frames to the tab.
        for _ in 0..8 {
            at = self.frame_parent(&at).await?;
            if let Some(w) = self.watch_of(&at) {
                watch = Some(w);
                break;
            }
        }
        let Some(watch) = watch else { return Ok(()) };
        let session = self.frame_session(frame).await?;
        lock(&self.frames().nets).insert(session, watch.net.clone());
        self.frame_run(frame, NetworkEnable::default()).await?;
        Ok(())
    }

    /// One typed command in the frame target `frame`: sent under its method name, its
    /// answer read into the command's response type.
    pub async fn frame_run<C: Command>(
        &self,
        frame: &str,
        cmd: C,
    ) -> Result<C::Response, BrowserError> {
        let method = cmd.identifier();
        let params = serde_json::to_value(&cmd)
            .map_err(|e| BrowserError::BadAnswer(format!("{method} would not serialize: {e}")))?;
        let answer = self.frame_call(frame, &method, params).await?;
        C::response_from_value(answer)
            .map_err(|e| BrowserError::BadAnswer(format!("the frame's {method} answer: {e}")))
    }

    /// One command in the frame target `frame`; its JSON result, or the error the frame gave.
    async fn frame_call(
        &self,
        frame: &str,
        method: &str,
        params: Value,
    ) -> Result<Value, BrowserError> {
        let frames = self.frames();
        for attempt in 0..2 {
            let session = self.frame_session(frame).await?;
            let id = frames.next.fetch_add(1, Ordering::Relaxed) + 1;
            let (tx, rx) = oneshot::channel();
            lock(&frames.pending).insert(id, tx);
            let message = json!({"id": id, "method": method, "params": params}).to_string();
            // Raw: this chromiumoxide dropped `Target.sendMessageToTarget` (deprecated in the
            // protocol), which the unflattened frame sessions still need.
            let send = json!({"sessionId": session, "message": message});
            let sent = self.run(Raw::new("Target.sendMessageToTarget", send)).await;
            if let Err(e) = sent {
                lock(&frames.pending).remove(&id);
                if attempt == 0 && e.to_string().contains("No session") {
                    lock(&frames.sessions).remove(frame);
                    continue;
                }
                return Err(e);
            }
            let answer = match tokio::time::timeout(ANSWER, rx).await {
                Ok(Ok(a)) => a,
                Ok(Err(_)) => return Err(self.gone()),
                Err(_) => {
                    lock(&frames.pending).remove(&id);
                    return Err(BrowserError::Timeout(format!(
                        "{method} got no answer from the frame in 20 s"
                    )));
                }
            };
            if let Some(err) = answer.get("error") {
                let text = err["message"].as_str().unwrap_or("error");
                return Err(BrowserError::answered(method, text));
            }
            return Ok(answer["result"].clone());
        }
        Err(BrowserError::NotReady(format!("the frame {frame} keeps detaching")))
    }

    /// The session on `frame`, attached on first use.
    async fn frame_session(&self, frame: &str) -> Result<String, BrowserError> {
        if let Some(s) = lock(&self.frames().sessions).get(frame) {
            return Ok(s.clone());
        }
        let mut attach = AttachToTargetParams::new(frame.to_owned());
        attach.flatten = Some(false);
        let r = self.run(attach).await.map_err(|e| match e {
            e @ BrowserError::Cdp { .. } => BrowserError::Gone(format!("the frame is gone ({e})")),
            other => other,
        })?;
        let session: String = r.session_id.into();
        lock(&self.frames().sessions).insert(frame.to_owned(), session.clone());
        Ok(session)
    }

    /// The cross-site frames under the tab `target`, each with the target it sits in: the tab
    /// or another such frame (a frame nested in one). Parents come before their children.
    pub async fn frame_tree(&self, target: &str) -> Result<Vec<(String, String)>, BrowserError> {
        // Raw: the crate's `TargetInfo` lacks `parentId`, which Chromium added later.
        let r = self.run(Raw::new("Target.getTargets", json!({}))).await?;
        let all: Vec<(String, String)> = r["targetInfos"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|t| t["type"] == "iframe")
            .filter_map(|t| Some((t["targetId"].as_str()?.into(), t["parentId"].as_str()?.into())))
            .collect();
        let mut out: Vec<(String, String)> = Vec::new();
        let mut parents = vec![target.to_owned()];
        while let Some(p) = parents.pop() {
            for (f, _) in all.iter().filter(|(_, parent)| *parent == p) {
                out.push((f.clone(), p.clone()));
                parents.push(f.clone());
            }
        }
        Ok(out)
    }

    /// The target a cross-site frame sits in: its tab, or the frame it is nested in.
    pub async fn frame_parent(&self, frame: &str) -> Result<String, BrowserError> {
        // Raw: the crate's `TargetInfo` lacks `parentId`, which Chromium added later.
        let info = Raw::new("Target.getTargetInfo", json!({"targetId": frame}));
        let r = self.run(info).await.map_err(|e| match e {
            e @ BrowserError::Cdp { .. } => BrowserError::Gone(format!("the frame is gone ({e})")),
            other => other,
        })?;
        r["targetInfo"]["parentId"]
            .as_str()
            .map(String::from)
            .ok_or_else(|| BrowserError::Gone("the frame has left its page".into()))
    }
}
