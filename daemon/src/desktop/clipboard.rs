//! The CLIPBOARD selection, owned by one long-lived thread with its own X connection (the
//! contents live as long as their owner, and there is no clipboard manager): it answers other
//! clients' requests for text (UTF8_STRING, STRING, text/plain) and text/html, and reads
//! whatever another owner offers. The thread sleeps in the X connection until an event or a
//! command comes (a command wakes it with a ClientMessage to its own window): an idle
//! clipboard costs no CPU.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{
    Atom, AtomEnum, ClientMessageEvent, ConnectionExt as _, CreateWindowAux, EventMask, PropMode,
    SelectionNotifyEvent, SelectionRequestEvent, Window, WindowClass,
};
use x11rb::protocol::Event;
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;
use x11rb::CURRENT_TIME;

use super::Error;

const READ_TIMEOUT: Duration = Duration::from_secs(2);

/// What the clipboard holds, as this daemon sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Content {
    pub text: Option<String>,
    pub html: Option<String>,
}

enum Cmd {
    Set(Content, mpsc::Sender<Result<(), Error>>),
    Get {
        html: bool,
        reply: mpsc::Sender<Result<Option<String>, Error>>,
    },
    /// Whether we still own the selection with exactly this content.
    Owns(Content, mpsc::Sender<bool>),
    Release(mpsc::Sender<()>),
}

pub struct Clipboard {
    tx: std::sync::Mutex<mpsc::Sender<Cmd>>,
    /// The owner thread's connection and window, to wake it when a command is queued.
    conn: Arc<RustConnection>,
    win: Window,
    wake: Atom,
    /// How many times an app has read our content (text or html) from the selection.
    served: Arc<AtomicU64>,
}

/// The owner thread sleeps in its connection: it learns that the handle is gone from a last
/// wake-up, after which its queue has no sender left.
impl Drop for Clipboard {
    fn drop(&mut self) {
        let tx = self.tx.get_mut().unwrap_or_else(|p| p.into_inner());
        *tx = mpsc::channel().0;
        let wake = ClientMessageEvent::new(32, self.win, self.wake, [0u32; 5]);
        let _ = self.conn.send_event(false, self.win, EventMask::NO_EVENT, wake);
        let _ = self.conn.flush();
    }
}

impl std::fmt::Debug for Clipboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Clipboard").field("win", &self.win).finish_non_exhaustive()
    }
}

struct Owner {
    conn: Arc<RustConnection>,
    win: Window,
    clipboard: Atom,
    targets: Atom,
    utf8: Atom,
    text: Atom,
    plain: Atom,
    plain_utf8: Atom,
    html: Atom,
    prop: Atom,
    content: Option<Content>,
    served: Arc<AtomicU64>,
}

impl Clipboard {
    pub fn start(display: &str) -> Result<Clipboard, Error> {
        let (conn, screen) = crate::desktop::xauth::connect(display)
            .map_err(|e| Error::Clipboard(format!("cannot connect to {display}: {e}")))?;
        let err = |e: &dyn std::fmt::Display| Error::Clipboard(e.to_string());
        let root = conn.setup().roots[screen].root;
        let win = conn.generate_id().map_err(|e| err(&e))?;
        conn.create_window(
            0,
            win,
            root,
            0,
            0,
            1,
            1,
            0,
            WindowClass::INPUT_ONLY,
            0,
            &CreateWindowAux::new().event_mask(EventMask::PROPERTY_CHANGE),
        )
        .map_err(|e| err(&e))?;
        let atom = |n: &str| -> Result<Atom, Error> {
            Ok(conn
                .intern_atom(false, n.as_bytes())
                .map_err(|e| err(&e))?
                .reply()
                .map_err(|e| err(&e))?
                .atom)
        };
        let wake = atom("GLOVEBOX_CLIPBOARD_WAKE")?;
        let owner = Owner {
            clipboard: atom("CLIPBOARD")?,
            targets: atom("TARGETS")?,
            utf8: atom("UTF8_STRING")?,
            text: atom("TEXT")?,
            plain: atom("text/plain")?,
            plain_utf8: atom("text/plain;charset=utf-8")?,
            html: atom("text/html")?,
            prop: atom("GLOVEBOX_CLIPBOARD")?,
            win,
            content: None,
            served: Arc::new(AtomicU64::new(0)),
            conn: Arc::new(conn),
        };
        let (served, conn) = (owner.served.clone(), owner.conn.clone());
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("clipboard".into())
            .spawn(move || owner.run(&rx))
            .map_err(|e| err(&e))?;
        Ok(Clipboard { tx: std::sync::Mutex::new(tx), conn, win, wake, served })
    }

    /// Queues `cmd` and wakes the owner thread: a ClientMessage to its window, which only
    /// it receives (sent with no event mask, it goes to the window's creator).
    fn send(&self, cmd: Cmd) -> Result<(), Error> {
        let stopped = || Error::Clipboard("the clipboard thread stopped".into());
        {
            let tx = self.tx.lock().unwrap_or_else(|p| p.into_inner());
            tx.send(cmd).map_err(|_| stopped())?;
        }
        let wake = ClientMessageEvent::new(32, self.win, self.wake, [0u32; 5]);
        self.conn.send_event(false, self.win, EventMask::NO_EVENT, wake).map_err(|_| stopped())?;
        self.conn.flush().map_err(|_| stopped())
    }

    /// Count of content reads served so far; it grows when an app pastes our content.
    pub fn served(&self) -> u64 {
        self.served.load(Ordering::SeqCst)
    }

    pub async fn set(&self, content: Content) -> Result<(), Error> {
        let (tx, rx) = mpsc::channel();
        self.send(Cmd::Set(content, tx))?;
        wait(rx).await?
    }

    /// The clipboard as text (or html); `None` when nobody owns it or it has no such form.
    pub async fn get(&self, html: bool) -> Result<Option<String>, Error> {
        let (tx, rx) = mpsc::channel();
        self.send(Cmd::Get { html, reply: tx })?;
        wait(rx).await?
    }

    pub async fn owns(&self, content: Content) -> Result<bool, Error> {
        let (tx, rx) = mpsc::channel();
        self.send(Cmd::Owns(content, tx))?;
        wait(rx).await
    }

    /// Gives the selection up (restoring an empty clipboard).
    pub async fn release(&self) -> Result<(), Error> {
        let (tx, rx) = mpsc::channel();
        self.send(Cmd::Release(tx))?;
        wait(rx).await
    }
}

async fn wait<T: Send + 'static>(rx: mpsc::Receiver<T>) -> Result<T, Error> {
    tokio::task::spawn_blocking(move || rx.recv_timeout(READ_TIMEOUT * 2))
        .await
        .map_err(|e| Error::Clipboard(e.to_string()))?
        .map_err(|_| Error::Clipboard("the clipboard thread did not answer".into()))
}

impl Owner {
    /// Commands queued so far, then events; asleep in the connection in between. A wake-up
    /// taken by `pump` while a read waits is harmless: the queue is drained before each sleep.
    fn run(mut self, rx: &mpsc::Receiver<Cmd>) {
        loop {
            loop {
                match rx.try_recv() {
                    Ok(cmd) => self.command(cmd),
                    Err(mpsc::TryRecvError::Empty) => break,
                    Err(mpsc::TryRecvError::Disconnected) => return,
                }
            }
            match self.conn.wait_for_event() {
                Ok(ev) => self.event(&ev),
                Err(_) => return,
            }
        }
    }

    /// Another client's request for our content, or the news that we lost the selection.
    fn event(&mut self, ev: &Event) {
        match ev {
            Event::SelectionRequest(req) => self.answer(req),
            Event::SelectionClear(_) => self.content = None,
            _ => {}
        }
    }

    fn command(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Set(content, reply) => {
                let _ = reply.send(self.set(content));
            }
            Cmd::Get { html, reply } => {
                let _ = reply.send(self.get(html));
            }
            Cmd::Owns(content, reply) => {
                let _ = reply.send(self.content.as_ref() == Some(&content) && self.is_owner());
            }
            Cmd::Release(reply) => {
                if self.is_owner() {
                    let _ =
                        self.conn.set_selection_owner(x11rb::NONE, self.clipboard, CURRENT_TIME);
                    let _ = self.conn.flush();
                }
                self.content = None;
                let _ = reply.send(());
            }
        }
    }

    fn is_owner(&self) -> bool {
        self.conn
            .get_selection_owner(self.clipboard)
            .ok()
            .and_then(|c| c.reply().ok())
            .is_some_and(|r| r.owner == self.win)
    }

    fn set(&mut self, content: Content) -> Result<(), Error> {
        let err = |e: &dyn std::fmt::Display| Error::Clipboard(e.to_string());
        self.content = Some(content);
        self.conn
            .set_selection_owner(self.win, self.clipboard, CURRENT_TIME)
            .map_err(|e| err(&e))?;
        if !self.is_owner() {
            return Err(Error::Clipboard("another client kept the clipboard".into()));
        }
        Ok(())
    }

    fn get(&mut self, html: bool) -> Result<Option<String>, Error> {
        if self.is_owner() {
            let c = self.content.clone().unwrap_or_default();
            return Ok(if html { c.html.or(c.text) } else { c.text });
        }
        let err = |e: &dyn std::fmt::Display| Error::Clipboard(e.to_string());
        let target = if html { self.html } else { self.utf8 };
        self.conn
            .convert_selection(self.win, self.clipboard, target, self.prop, CURRENT_TIME)
            .map_err(|e| err(&e))?;
        self.conn.flush().map_err(|e| err(&e))?;
        let Some(notify) = self.pump(Instant::now() + READ_TIMEOUT)? else {
            return Err(Error::Clipboard("the clipboard owner did not answer".into()));
        };
        if notify.property == x11rb::NONE {
            return Ok(None);
        }
        let r = self
            .conn
            .get_property(true, self.win, self.prop, AtomEnum::ANY, 0, u32::MAX / 4)
            .map_err(|e| err(&e))?
            .reply()
            .map_err(|e| err(&e))?;
        Ok(Some(String::from_utf8_lossy(&r.value).into_owned()))
    }

    /// Serves selection requests until the first SelectionNotify for us, or `until`.
    fn pump(&mut self, until: Instant) -> Result<Option<SelectionNotifyEvent>, Error> {
        loop {
            let ev = self.conn.poll_for_event().map_err(|e| Error::Clipboard(e.to_string()))?;
            match ev {
                Some(Event::SelectionNotify(n)) => return Ok(Some(n)),
                Some(ev) => self.event(&ev),
                None if Instant::now() < until => std::thread::sleep(Duration::from_millis(2)),
                None => return Ok(None),
            }
        }
    }

    fn answer(&mut self, req: &SelectionRequestEvent) {
        let property = if req.property == x11rb::NONE { req.target } else { req.property };
        let content = self.content.clone().unwrap_or_default();
        let mut ok = true;
        let res = if req.target == self.targets {
            let mut list = vec![
                self.targets,
                self.utf8,
                AtomEnum::STRING.into(),
                self.text,
                self.plain,
                self.plain_utf8,
            ];
            if content.html.is_some() {
                list.push(self.html);
            }
            self.conn
                .change_property32(
                    PropMode::REPLACE,
                    req.requestor,
                    property,
                    AtomEnum::ATOM,
                    &list,
                )
                .map(|_| ())
        } else if req.target == self.html && content.html.is_some() {
            let html = content.html.unwrap_or_default();
            self.conn
                .change_property8(
                    PropMode::REPLACE,
                    req.requestor,
                    property,
                    self.html,
                    html.as_bytes(),
                )
                .map(|_| ())
        } else if [self.utf8, self.text, self.plain, self.plain_utf8, AtomEnum::STRING.into()]
            .contains(&req.target)
            && content.text.is_some()
        {
            let text = content.text.unwrap_or_default();
            let ty = if req.target == Atom::from(AtomEnum::STRING) {
                AtomEnum::STRING.into()
            } else {
                self.utf8
            };
            self.conn
                .change_property8(PropMode::REPLACE, req.requestor, property, ty, text.as_bytes())
                .map(|_| ())
        } else {
            ok = false;
            Ok(())
        };
        let ok = ok && res.is_ok();
        if ok && req.target != self.targets {
            self.served.fetch_add(1, Ordering::SeqCst);
        }
        let ev = SelectionNotifyEvent {
            response_type: x11rb::protocol::xproto::SELECTION_NOTIFY_EVENT,
            sequence: 0,
            time: req.time,
            requestor: req.requestor,
            selection: req.selection,
            target: req.target,
            property: if ok { property } else { x11rb::NONE },
        };
        let _ = self.conn.send_event(false, req.requestor, EventMask::NO_EVENT, ev);
        let _ = self.conn.flush();
    }
}
