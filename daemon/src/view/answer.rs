//! What a page's message does: a controlling person's input to the desktop, takeover and
//! hand-back, approval answers, thumbnails. A message the page may not send is answered with a
//! coded `refused` message and changes nothing.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use super::input::{Held, Msg, MAX_TEXT};
use super::state::Person;
use super::takeover;
use crate::desktop::Desktop;
use crate::state::Daemon;

/// Thumbnails larger than this (base64) are not sent.
const MAX_THUMB: usize = 4 * 1024 * 1024;

pub(super) fn refused(code: &str, message: &str) -> Message {
    Message::text(json!({"t": "refused", "code": code, "message": message}).to_string())
}

pub(super) async fn blocking<T: Send + 'static>(
    desktop: &Arc<Desktop>,
    f: impl FnOnce(&Desktop) -> Result<T, crate::desktop::Error> + Send + 'static,
) -> Result<T, String> {
    let d = desktop.clone();
    match tokio::task::spawn_blocking(move || f(&d)).await {
        Ok(r) => r.map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// Lets go of every key and button the page holds.
pub(super) async fn release(desktop: &Arc<Desktop>, held: &mut Held) {
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
pub(super) async fn handle(
    daemon: &Arc<Daemon>,
    person: &Person,
    desktop: Option<&Arc<Desktop>>,
    held: &mut Held,
    thumbs: &mut HashSet<String>,
    msg: Msg,
) -> Vec<Message> {
    let in_control = daemon.people.controller().is_some_and(|(_, s)| s == person.socket);
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
        let why = match daemon.people.controller() {
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
    match msg {
        Msg::HandBack => {
            release(&d, held).await;
            other(daemon, person, thumbs, Msg::HandBack).await
        }
        m if m.is_input() || m == Msg::Release => input(&d, held, m).await,
        m => other(daemon, person, thumbs, m).await,
    }
}

/// A controlling person's input to the desktop (or a release of what they hold).
async fn input(d: &Arc<Desktop>, held: &mut Held, msg: Msg) -> Vec<Message> {
    let r = match msg {
        Msg::Move { x, y } => blocking(d, move |d| d.human_move(x, y)).await,
        Msg::Button { button, down } if (1..=7).contains(&button) => {
            if !held.button(button, down) {
                return Vec::new();
            }
            // The wheel clicks: a press with its release.
            let wheel = button >= 4;
            if wheel {
                held.button(button, false);
            }
            blocking(d, move |d| {
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
            blocking(d, move |d| d.human_key(keysym, down)).await
        }
        Msg::Text { text } | Msg::Paste { text } if text.len() > MAX_TEXT => {
            return vec![refused("TEXT_TOO_LONG", "send at most 64 KiB of text at once")];
        }
        Msg::Text { text } => blocking(d, move |d| d.human_text(&text)).await,
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
            release(d, held).await;
            Ok(())
        }
        // Only input and releases come here.
        _ => Ok(()),
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
            match image.and_then(|c| c.image) {
                Some(mut shot) if shot.data().len() <= MAX_THUMB && thumbs.insert(key) => {
                    let data = std::mem::take(shot.data_mut());
                    let m = json!({"t": "thumb", "session": session, "capture_id": capture_id,
                                   "mime": shot.size().0, "data": data});
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
