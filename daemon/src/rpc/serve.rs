//! One `/rpc` connection once upgraded: its read loop, its writer, and how it ends. Each text
//! message is answered on a task of its own (calls run side by side, answers go out as they
//! are ready); a frame that is no request is refused here with its coded error, a text frame
//! that is not UTF-8 closes the connection with 1007. The connection ends when the peer goes
//! (calls still running are dropped, nobody is left to read them) or when its stop handle
//! fires (a shutdown, a revoked token): then the calls running finish and are answered first,
//! and the close frame says 1000.

use std::sync::Arc;

use hyper::upgrade::Upgraded;
use hyper_util::rt::TokioIo;
use jsonrpsee::core::server::MethodSink;
use jsonrpsee::server::StopHandle;
use jsonrpsee::types::Id;
use serde_json::value::RawValue;
use tokio::sync::mpsc;

use super::gate::{refusal, Gate};
use super::wire::{Incoming, Reader, Writer, PONG, TEXT};
use crate::error::DaemonError;

/// Answers and notifications waiting for the writer, per connection.
const QUEUE: usize = 1024;

/// What the read loop asks of the writer beside answers.
enum Control {
    Pong(Vec<u8>),
    /// The last frame: a close with its code and reason, or (`None`) none at all.
    Close(Option<(u16, &'static str)>),
}

/// How the read loop ended.
enum End {
    /// The peer closed, left, or broke the protocol: the close (if any) is on its way.
    Gone,
    /// The connection was told to stop.
    Stopped,
}

/// The sink the connection's gate answers into, and its receiving end for [`run`].
pub fn sink() -> (MethodSink, mpsc::Receiver<Box<RawValue>>) {
    let (tx, rx) = mpsc::channel(QUEUE);
    (MethodSink::new(tx), rx)
}

/// Serve the upgraded socket until the peer goes or `stop` fires; returns once nothing
/// of the connection runs any more.
pub async fn run(
    io: TokioIo<Upgraded>,
    gate: Arc<Gate>,
    answers: mpsc::Receiver<Box<RawValue>>,
    stop: StopHandle,
    limit: usize,
) {
    let (read, write) = tokio::io::split(io);
    let (control, controls) = mpsc::channel(8);
    let writer = tokio::spawn(write_loop(Writer::new(write), answers, controls));
    let (messages, mut incoming) = mpsc::channel(1);
    // Reading is a task of its own so that nothing cuts a frame in half when the loop below
    // stops listening.
    let reader = tokio::spawn(read_loop(Reader::new(read, limit), messages));
    // Each running call holds a clone; `recv` answers `None` once all are done.
    let (running, mut calls_done) = mpsc::channel::<()>(1);
    let stopped = stop.shutdown();
    tokio::pin!(stopped);
    let end = loop {
        let message = tokio::select! {
            m = incoming.recv() => m,
            () = &mut stopped => break End::Stopped,
        };
        let Some(message) = message else { break End::Gone };
        let text = match step(message, limit) {
            Ok(text) => text,
            Err(Step::Answer(rp)) => {
                let _ = gate.sink().send(rp.into_json()).await;
                continue;
            }
            Err(Step::Pong(payload)) => {
                let _ = control.send(Control::Pong(payload)).await;
                continue;
            }
            Err(Step::Close(code, why)) => {
                let _ = control.send(Control::Close(Some((code, why)))).await;
                break End::Gone;
            }
        };
        let (gate, running) = (gate.clone(), running.clone());
        tokio::spawn(async move {
            let _running = running;
            answer(&gate, &text).await;
        });
    };
    drop(running);
    if let End::Stopped = end {
        // The calls running finish and are answered; a peer that leaves meanwhile ends it.
        let left = async { while incoming.recv().await.is_some() {} };
        tokio::select! {
            _ = calls_done.recv() => {}
            () = left => {}
        }
        let _ =
            control.send(Control::Close(Some((1000, "the daemon closed the connection")))).await;
    }
    drop(control);
    let _ = writer.await;
    reader.abort();
}

/// What the read loop does with a message that is not text.
enum Step {
    Answer(jsonrpsee::MethodResponse),
    Pong(Vec<u8>),
    Close(u16, &'static str),
}

/// A text message's text, or what to do instead: a data frame refused with its error, a
/// ping answered, the connection closed.
fn step(message: Incoming, limit: usize) -> Result<String, Step> {
    let e = match message {
        Incoming::Text(text) => return Ok(text),
        Incoming::Ping(payload) => return Err(Step::Pong(payload)),
        Incoming::Binary { bytes } => DaemonError::BinaryFrame { bytes },
        Incoming::TooLarge { size } => DaemonError::RequestTooLarge { size, limit },
        Incoming::NotUtf8 => {
            tracing::debug!("closed a connection that sent a text frame that is not UTF-8");
            return Err(Step::Close(1007, "invalid UTF-8 in a text frame"));
        }
        // The close code a peer gave is said back (RFC 6455 section 5.5.1), if one may be.
        Incoming::Closed(code) => {
            let code = code.filter(|c| matches!(c, 1000..=1003 | 1007..=1014 | 3000..=4999));
            return Err(Step::Close(code.unwrap_or(1000), ""));
        }
        Incoming::Broken(why) => {
            tracing::debug!(why, "closed a connection that broke the WebSocket protocol");
            return Err(Step::Close(1002, why));
        }
    };
    tracing::debug!(%e, "refused a client frame");
    Err(Step::Answer(refusal(Id::Null, &e)))
}

/// One text message answered, unless the connection is gone first (its answer would have
/// no reader).
async fn answer(gate: &Gate, text: &str) {
    let sink = gate.sink();
    let rp = tokio::select! {
        () = sink.closed() => return,
        rp = super::incoming::answer(gate, text) => rp,
    };
    // A subscription's answer went out through the sink already; a notification has none.
    if rp.is_method_call() || rp.is_batch() {
        let success = rp.is_success();
        let (json, sent, _) = rp.into_parts();
        if sink.send(json).await.is_ok() {
            if let Some(sent) = sent {
                sent.notify(success);
            }
        }
    }
}

/// The client's messages into `to`, until it closes, leaves or breaks the protocol.
async fn read_loop<R: tokio::io::AsyncRead + Unpin>(mut r: Reader<R>, to: mpsc::Sender<Incoming>) {
    loop {
        let Ok(message) = r.next().await else { return };
        let last = matches!(message, Incoming::Closed(_) | Incoming::NotUtf8 | Incoming::Broken(_));
        if to.send(message).await.is_err() || last {
            return;
        }
    }
}

/// Writes answers and control frames until told to close (or the loop is gone); answers
/// already queued go out before the close frame.
async fn write_loop<W: tokio::io::AsyncWrite + Unpin>(
    mut w: Writer<W>,
    mut answers: mpsc::Receiver<Box<RawValue>>,
    mut controls: mpsc::Receiver<Control>,
) {
    loop {
        let sent = tokio::select! {
            biased;
            c = controls.recv() => match c {
                Some(Control::Pong(payload)) => w.send(PONG, &payload).await,
                Some(Control::Close(close)) => {
                    while let Ok(json) = answers.try_recv() {
                        if w.send(TEXT, json.get().as_bytes()).await.is_err() {
                            break;
                        }
                    }
                    let _ = match close {
                        Some((code, reason)) => w.close(code, reason).await,
                        None => w.shutdown().await,
                    };
                    return;
                }
                None => return,
            },
            a = answers.recv() => match a {
                Some(json) => w.send(TEXT, json.get().as_bytes()).await,
                None => return,
            },
        };
        if sent.is_err() {
            return;
        }
    }
}
