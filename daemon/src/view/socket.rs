//! One open page: its socket pushes `hello`, `state` (again whenever the bus or the view says
//! something changed, at most every 50 ms), frames of the desktop (see `frames.rs`) and the
//! pointer; it takes the page's messages (`input.rs`): acks, and the rest each answered by
//! `answer.rs`.

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::stream::SplitSink;
use futures::{SinkExt as _, StreamExt as _};
use serde_json::json;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::WebSocketStream;

use super::answer::{blocking, handle, refused, release};
use super::frames::{self, Frame};
use super::input::{Held, Msg};
use super::state::Person;
use super::takeover;
use crate::desktop::Desktop;
use crate::events::{next_event, Viewer};
use crate::state::Daemon;

/// How soon after a change the page gets its new state (changes in a burst go together).
const STATE_DEBOUNCE: Duration = Duration::from_millis(50);
/// How often the pointer's position is read while the page is open.
const POINTER_EVERY: Duration = Duration::from_millis(100);

type Capturing = Pin<Box<dyn Future<Output = Option<Frame>> + Send>>;

/// Waits for the next damage tick; never resolves without DAMAGE.
async fn damaged(ticks: &mut Option<tokio::sync::watch::Receiver<u64>>) -> bool {
    match ticks {
        Some(t) => t.changed().await.is_ok(),
        None => std::future::pending().await,
    }
}

/// The capture under way, once done; never resolves without one.
async fn captured(capturing: &mut Option<Capturing>) -> Option<Frame> {
    match capturing.as_mut() {
        Some(f) => f.await,
        None => std::future::pending().await,
    }
}

/// Sleeps until `due`; never resolves without one.
async fn until(due: Option<tokio::time::Instant>) {
    match due {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// One page's side of the socket and what it holds between messages.
struct Page<S> {
    daemon: Arc<Daemon>,
    person: Person,
    desktop: Option<Arc<Desktop>>,
    tx: SplitSink<WebSocketStream<S>, Message>,
    held: Held,
    thumbs: HashSet<String>,
    /// The page drew the last frame sent: the next may go.
    acked: bool,
    pointer: (i16, i16),
}

impl<S: AsyncRead + AsyncWrite + Unpin + Send + 'static> Page<S> {
    fn new(
        daemon: Arc<Daemon>,
        person: Person,
        tx: SplitSink<WebSocketStream<S>, Message>,
    ) -> Self {
        let desktop = daemon.desktop();
        let (held, thumbs) = (Held::default(), HashSet::new());
        Page { daemon, person, desktop, tx, held, thumbs, acked: true, pointer: (-1, -1) }
    }

    /// Sends `m`; false once the page is gone.
    async fn send(&mut self, m: Message) -> bool {
        self.tx.send(m).await.is_ok()
    }

    async fn send_state(&mut self) -> bool {
        let state = super::state::of(&self.daemon, &self.person);
        self.send(Message::text(state.to_string())).await
    }

    async fn hello(&mut self) -> bool {
        let hello = json!({
            "t": "hello",
            "role": self.person.role.as_str(),
            "who": self.person.who,
            "can_control": self.person.can_control(),
            "can_approve": self.person.role.can_approve(),
            "screen": self.desktop.as_ref().map(|d| d.screen()),
        });
        self.send(Message::text(hello.to_string())).await && self.send_state().await
    }

    /// Takes one message of the page; `None` once it closed, else whether it is still there.
    async fn inbound(&mut self, msg: Option<Result<Message, tungstenite::Error>>) -> Option<bool> {
        let text = match msg {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Binary(_))) => {
                return Some(self.send(refused("INVALID_MESSAGE", "send JSON text messages")).await)
            }
            Some(Ok(Message::Close(_)) | Err(_)) | None => return None,
            Some(Ok(_)) => return Some(true),
        };
        let msg: Msg = match serde_json::from_str(&text) {
            Ok(m) => m,
            Err(e) => {
                let why = format!("not a view message ({e}); see the page's script for the kinds");
                return Some(self.send(refused("INVALID_MESSAGE", &why)).await);
            }
        };
        if msg == Msg::Ack {
            self.acked = true;
            return Some(true);
        }
        let (d, person, desktop) = (&self.daemon, &self.person, self.desktop.as_ref());
        let answer = handle(d, person, desktop, &mut self.held, &mut self.thumbs, msg).await;
        let mut ok = true;
        for m in answer {
            ok = ok && self.send(m).await;
        }
        Some(ok)
    }

    /// Sends a captured frame; the next waits for the page's ack.
    async fn frame(&mut self, f: Frame) -> bool {
        let damaged_at = f.damaged_at;
        let ok = self.send(Message::binary(f.bytes)).await;
        self.acked = false;
        tracing::trace!(ms = damaged_at.elapsed().as_secs_f64() * 1000.0, "view frame out");
        ok
    }

    /// Sends the pointer's position when it moved.
    async fn pointer(&mut self) -> bool {
        let Some(d) = &self.desktop else { return true };
        let Ok(at) = blocking(d, |d| d.pointer_at()).await else { return true };
        if at == self.pointer {
            return true;
        }
        self.pointer = at;
        self.send(Message::text(json!({"t": "pointer", "x": at.0, "y": at.1}).to_string())).await
    }

    /// What a page leaves when it goes: its held input released, the control handed back.
    async fn closed(mut self) {
        if let Some(d) = &self.desktop {
            release(d, &mut self.held).await;
        }
        if takeover::hand_back(&self.daemon, self.person.socket).is_ok() {
            tracing::info!("a view page in control closed; the desktop was handed back");
        }
        self.daemon.people.open.fetch_sub(1, Ordering::SeqCst);
        self.daemon.people.page_closed(self.person.socket);
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
    daemon.people.open.fetch_add(1, Ordering::SeqCst);
    let (tx, mut rx) = ws.split();
    let mut page = Page::new(daemon, person, tx);
    let (daemon, desktop) = (page.daemon.clone(), page.desktop.clone());
    let mut bus = daemon.events.subscribe();
    let (owner, approver) = (page.person.owner, page.person.role.can_approve());
    let viewer = Viewer { owner, approver, all_lanes: true };
    // `browser`: a code session opening, acting or closing changes what the page shows.
    let topics =
        ["ops".to_owned(), "session".to_owned(), "approvals".to_owned(), "browser".to_owned()];
    let mut changed = daemon.people.changed.subscribe();
    let mut ticks = desktop.as_ref().and_then(|d| d.damage_ticks());
    // The first frame goes at once; later ones follow damage.
    let mut dirty: Option<Instant> = desktop.as_ref().map(|_| Instant::now());
    let mut capturing: Option<Capturing> = None;
    let mut seq = 0u32;
    let mut state_due: Option<tokio::time::Instant> = None;
    let mut pointer_every = tokio::time::interval(POINTER_EVERY);
    pointer_every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut ok = page.hello().await;
    while ok {
        if let (Some(d), Some(at), true, None) = (&desktop, dirty, page.acked, &capturing) {
            seq = seq.wrapping_add(1);
            let d = d.clone();
            capturing = Some(Box::pin(async move { frames::capture(&d, seq, at).await }));
            dirty = None;
        }
        tokio::select! {
            () = revoked.cancelled() => {
                tracing::info!("closed a view page: its token was revoked or its role changed");
                let _ = page.send(Message::Close(None)).await;
                break;
            }
            msg = rx.next() => match page.inbound(msg).await {
                Some(still) => ok = still,
                None => break,
            },
            frame = captured(&mut capturing), if capturing.is_some() => {
                capturing = None;
                if let Some(f) = frame {
                    ok = page.frame(f).await;
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
            () = until(state_due), if state_due.is_some() => {
                state_due = None;
                ok = page.send_state().await;
            }
            _ = pointer_every.tick(), if desktop.is_some() => ok = page.pointer().await,
        }
    }
    page.closed().await;
}
