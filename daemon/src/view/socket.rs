//! One open page: its socket pushes `hello`, `state` (again whenever the bus or the view says
//! something changed, at most every 50 ms), frames of the desktop (see `frames.rs`) and the
//! pointer; it takes the page's messages (`input.rs`): acks, takeover and hand-back, a
//! controlling person's input, pastes, approval answers, thumbnail requests. Whatever a
//! page may not do is refused with a coded `refused` message and changes nothing.

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::{SinkExt as _, StreamExt as _};
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use super::frames::{self, Frame};
use super::input::{Held, Msg, MAX_TEXT};
use super::state::Person;
use super::takeover;
use crate::desktop::Desktop;
use crate::events::{next_event, Viewer};
use crate::state::Daemon;

/// How soon after a change the page gets its new state (changes in a burst go together).
const STATE_DEBOUNCE: Duration = Duration::from_millis(50);
/// How often the pointer's position is read while the page is open.
const POINTER_EVERY: Duration = Duration::from_millis(100);
/// Thumbnails larger than this (base64) are not sent.
const MAX_THUMB: usize = 4 * 1024 * 1024;

type Capturing = Pin<Box<dyn Future<Output = Option<Frame>> + Send>>;

fn refused(code: &str, message: &str) -> Message {
    Message::text(json!({"t": "refused", "code": code, "message": message}).to_string())
}

async fn blocking<T: Send + 'static>(
    desktop: &Arc<Desktop>,
    f: impl FnOnce(&Desktop) -> Result<T, crate::desktop::Error> + Send + 'static,
) -> Result<T, String> {
    let d = desktop.clone();
    match tokio::task::spawn_blocking(move || f(&d)).await {
        Ok(r) => r.map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// Waits for the next damage tick; never resolves without DAMAGE.
async fn damaged(ticks: &mut Option<tokio::sync::watch::Receiver<u64>>) -> bool {
    match ticks {
        Some(t) => t.changed().await.is_ok(),
        None => std::future::pending().await,
    }
}

/// Serves one page until it closes.
pub async fn run<S>(
    daemon: Arc<Daemon>,
    ws: WebSocketStream<S>,
    person: Person,
    revoked: tokio_util::sync::CancellationToken,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    use std::sync::atomic::Ordering;
    daemon.view.open.fetch_add(1, Ordering::SeqCst);
    let (mut tx, mut rx) = ws.split();
    let desktop = daemon.desktop();
    let hello = json!({
        "t": "hello",
        "role": person.role.as_str(),
        "who": person.who,
        "can_control": person.can_control(),
        "can_approve": person.role.can_approve(),
        "screen": desktop.as_ref().map(|d| d.screen()),
    });
    let mut ok = tx.send(Message::text(hello.to_string())).await.is_ok();
    ok = ok && tx.send(Message::text(super::state::of(&daemon, &person).to_string())).await.is_ok();
    let mut bus = daemon.events.subscribe();
    let viewer =
        Viewer { owner: person.owner, approver: person.role.can_approve(), all_lanes: true };
    // `browser`: a code session opening, acting or closing changes what the page shows.
    let topics =
        ["ops".to_owned(), "session".to_owned(), "approvals".to_owned(), "browser".to_owned()];
    let mut changed = daemon.view.changed.subscribe();
    let mut ticks = desktop.as_ref().and_then(|d| d.damage_ticks());
    // The first frame goes at once; later ones follow damage.
    let mut dirty: Option<Instant> = desktop.as_ref().map(|_| Instant::now());
    let mut acked = true;
    let mut capturing: Option<Capturing> = None;
    let mut seq = 0u32;
    let mut state_due: Option<tokio::time::Instant> = None;
    let mut pointer_every = tokio::time::interval(POINTER_EVERY);
    pointer_every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut pointer = (-1i16, -1i16);
    let mut held = Held::default();
    let mut thumbs: HashSet<String> = HashSet::new();
    while ok {
        if let (Some(d), Some(at), true, None) = (&desktop, dirty, acked, &capturing) {
            seq = seq.wrapping_add(1);
            let d = d.clone();
            capturing = Some(Box::pin(async move { frames::capture(&d, seq, at).await }));
            dirty = None;
        }
        tokio::select! {
            () = revoked.cancelled() => {
                tracing::info!("closed a view page: its token was revoked or its role changed");
                let _ = tx.send(Message::Close(None)).await;
                break;
            }
            msg = rx.next() => {
                let text = match msg {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        ok = tx.send(refused("INVALID_MESSAGE", "send JSON text messages")).await.is_ok();
                        continue;
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                let msg: Msg = match serde_json::from_str(&text) {
                    Ok(m) => m,
                    Err(e) => {
                        let why = format!("not a view message ({e}); see the page's script for the kinds");
                        ok = tx.send(refused("INVALID_MESSAGE", &why)).await.is_ok();
                        continue;
                    }
                };
                if msg == Msg::Ack {
                    acked = true;
                    continue;
                }
                let answer = handle(&daemon, &person, desktop.as_ref(), &mut held, &mut thumbs, msg).await;
                for m in answer {
                    ok = ok && tx.send(m).await.is_ok();
                }
            }
            frame = async {
                match capturing.as_mut() {
                    Some(f) => f.await,
                    None => std::future::pending().await,
                }
            }, if capturing.is_some() => {
                capturing = None;
                if let Some(f) = frame {
                    let damaged_at = f.damaged_at;
                    ok = tx.send(Message::binary(f.bytes)).await.is_ok();
                    acked = false;
                    tracing::trace!(ms = damaged_at.elapsed().as_secs_f64() * 1000.0, "view frame out");
                }
            }
            live = damaged(&mut ticks) => {
                if live {
                    dirty.get_or_insert_with(Instant::now);
                } else {
                    ticks = None;
                }
            }
            _ = changed.changed() => {
                state_due.get_or_insert_with(|| tokio::time::Instant::now() + STATE_DEBOUNCE);
            }
            ev = next_event(&mut bus, &topics, &viewer) => {
                if ev.is_none() {
                    break;
                }
                state_due.get_or_insert_with(|| tokio::time::Instant::now() + STATE_DEBOUNCE);
            }
            () = async {
                match state_due {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            }, if state_due.is_some() => {
                state_due = None;
                ok = tx.send(Message::text(super::state::of(&daemon, &person).to_string())).await.is_ok();
            }
            _ = pointer_every.tick(), if desktop.is_some() => {
                let Some(d) = &desktop else { continue };
                if let Ok(at) = blocking(d, |d| d.pointer_at()).await {
                    if at != pointer {
                        pointer = at;
                        let m = json!({"t": "pointer", "x": at.0, "y": at.1});
                        ok = tx.send(Message::text(m.to_string())).await.is_ok();
                    }
                }
            }
        }
    }
    if let Some(d) = &desktop {
        release(d, &mut held).await;
    }
    if takeover::hand_back(&daemon, person.socket).is_ok() {
        tracing::info!("a view page in control closed; the desktop was handed back");
    }
    daemon.view.open.fetch_sub(1, Ordering::SeqCst);
    daemon.view.page_closed(person.socket);
}

/// Lets go of every key and button the page holds.
async fn release(desktop: &Arc<Desktop>, held: &mut Held) {
    let (keys, buttons) = held.take();
    if keys.is_empty() && buttons.is_empty() {
        return;
    }
    let r = blocking(desktop, move |d| {
        for k in keys {
            d.human_key(k, false)?;
        }
        for b in buttons {
            d.human_button(b, false)?;
        }
        Ok(())
    })
    .await;
    if let Err(e) = r {
        tracing::warn!(%e, "releasing a view page's held input failed");
    }
}

/// One message's effect and what the page hears back.
async fn handle(
    daemon: &Arc<Daemon>,
    person: &Person,
    desktop: Option<&Arc<Desktop>>,
    held: &mut Held,
    thumbs: &mut HashSet<String>,
    msg: Msg,
) -> Vec<Message> {
    let in_control = daemon.view.controller().is_some_and(|(_, s)| s == person.socket);
    if (msg.is_input() || matches!(msg, Msg::TakeOver | Msg::HandBack)) && !person.can_control() {
        return vec![refused(
            "FORBIDDEN",
            &format!(
                "the {} role watches; an actor or admin token may take over",
                person.role.as_str()
            ),
        )];
    }
    if msg.is_input() && !in_control {
        let why = match daemon.view.controller() {
            Some((by, _)) => format!("in control: {by}; wait for the hand-back"),
            None => "take over first".to_owned(),
        };
        return vec![refused("NOT_IN_CONTROL", &why)];
    }
    let Some(d) = desktop.cloned() else {
        return match msg {
            m if m.is_input() => vec![refused("BACKEND_UNAVAILABLE", "the desktop is not up")],
            Msg::Release => Vec::new(),
            m => other(daemon, person, thumbs, m).await,
        };
    };
    let r = match msg {
        Msg::Move { x, y } => blocking(&d, move |d| d.human_move(x, y)).await,
        Msg::Button { button, down } if (1..=7).contains(&button) => {
            if !held.button(button, down) {
                return Vec::new();
            }
            // The wheel clicks: a press with its release.
            let wheel = button >= 4;
            if wheel {
                held.button(button, false);
            }
            blocking(&d, move |d| {
                d.human_button(button, down)?;
                if wheel && down {
                    d.human_button(button, false)?;
                }
                Ok(())
            })
            .await
        }
        Msg::Button { .. } => return vec![refused("INVALID_MESSAGE", "button must be 1 to 7")],
        Msg::Key { keysym, down } => {
            if !held.key(keysym, down) {
                return Vec::new();
            }
            blocking(&d, move |d| d.human_key(keysym, down)).await
        }
        Msg::Text { text } | Msg::Paste { text } if text.len() > MAX_TEXT => {
            return vec![refused("TEXT_TOO_LONG", "send at most 64 KiB of text at once")];
        }
        Msg::Text { text } => blocking(&d, move |d| d.human_text(&text)).await,
        Msg::Paste { text } => {
            let r = d.clipboard_set(&text, false).await.map_err(|e| e.to_string());
            if r.is_ok() {
                return vec![Message::text(
                    json!({"t": "pasted", "chars": text.chars().count()}).to_string(),
                )];
            }
            r
        }
        Msg::Release => {
            release(&d, held).await;
            Ok(())
        }
        Msg::HandBack => {
            release(&d, held).await;
            return other(daemon, person, thumbs, Msg::HandBack).await;
        }
        other_msg => return other(daemon, person, thumbs, other_msg).await,
    };
    match r {
        Ok(()) => Vec::new(),
        Err(e) => vec![refused("ACTION_FAILED", &e)],
    }
}

/// The messages that do not touch the display.
async fn other(
    daemon: &Arc<Daemon>,
    person: &Person,
    thumbs: &mut HashSet<String>,
    msg: Msg,
) -> Vec<Message> {
    match msg {
        Msg::TakeOver => match takeover::take(daemon, person.socket, person.owner, &person.who) {
            Ok(()) => Vec::new(),
            Err(takeover::Refused::Held(by)) => {
                vec![refused("IN_CONTROL", &format!("in control: {by}"))]
            }
            Err(takeover::Refused::NotYours) => Vec::new(),
        },
        Msg::HandBack => match takeover::hand_back(daemon, person.socket) {
            Ok(data) => vec![Message::text(json!({"t": "handed_back", "ended": data}).to_string())],
            Err(_) => vec![refused("NOT_IN_CONTROL", "this page is not in control")],
        },
        Msg::Grant { approval_id } | Msg::Deny { approval_id } if !person.role.can_approve() => {
            let _ = approval_id;
            vec![refused(
                "FORBIDDEN",
                &format!("the {} role may not answer approvals", person.role.as_str()),
            )]
        }
        Msg::Grant { approval_id } => answer(daemon, &approval_id, true),
        Msg::Deny { approval_id } => answer(daemon, &approval_id, false),
        Msg::Thumb { session, capture_id } => {
            let mine =
                daemon.sessions.get(&session).is_some_and(|s| person.owner.may_use(&s.creator));
            let key = format!("{session}/{capture_id}");
            let image = daemon.captures.get(&session, &capture_id).filter(|_| mine);
            match image {
                Some(img)
                    if img["data"].as_str().is_some_and(|d| d.len() <= MAX_THUMB)
                        && thumbs.insert(key) =>
                {
                    let m = json!({"t": "thumb", "session": session, "capture_id": capture_id,
                                   "mime": img["mime"], "data": img["data"]});
                    vec![Message::text(m.to_string())]
                }
                _ => Vec::new(),
            }
        }
        // Input, acks and releases are handled before.
        _ => Vec::new(),
    }
}

fn answer(daemon: &Daemon, id: &str, grant: bool) -> Vec<Message> {
    match daemon.answer_approval(id, grant) {
        Ok(a) => vec![Message::text(json!({"t": "answered", "approval": a}).to_string())],
        Err(e) => {
            let data = e.to_data();
            let v: Value =
                json!({"t": "refused", "code": data.code.as_str(), "message": data.message});
            vec![Message::text(v.to_string())]
        }
    }
}
