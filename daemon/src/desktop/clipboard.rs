//! The CLIPBOARD selection, owned by one long-lived thread with its own X connection (the
//! contents live as long as their owner, and there is no clipboard manager): it answers other
//! clients' requests for text (UTF8_STRING, STRING, text/plain) and text/html, and reads
//! whatever another owner offers.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{
    Atom, AtomEnum, ConnectionExt as _, CreateWindowAux, EventMask, PropMode, SelectionNotifyEvent,
    SelectionRequestEvent, Window, WindowClass,
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

#[derive(Debug)]
pub struct Clipboard {
    tx: std::sync::Mutex<mpsc::Sender<Cmd>>,
    /// How many times an app has read our content (text or html) from the selection.
    served: Arc<AtomicU64>,
}

struct Owner {
    conn: RustConnection,
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
            conn,
        };
        let served = owner.served.clone();
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("clipboard".into())
            .spawn(move || owner.run(&rx))
            .map_err(|e| err(&e))?;
        Ok(Clipboard { tx: std::sync::Mutex::new(tx), served })
    }

    fn send(&self, cmd: Cmd) -> Result<(), Error> {
        let tx = self.tx.lock().unwrap_or_else(|p| p.into_inner());
        tx.send(cmd).map_err(|_| Error::Clipboard("the clipboard thread stopped".into()))
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
    fn run(mut self, rx: &mpsc::Receiver<Cmd>) {
        loop {
            match rx.recv_timeout(Duration::from_millis(5)) {
                Ok(cmd) => self.command(cmd),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            }
            if self.pump(None).is_err() {
                return;
            }
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
        let Some(notify) = self.pump(Some(Instant::now() + READ_TIMEOUT))? else {
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

    /// Serves selection requests; with a deadline, returns the first SelectionNotify for us.
    fn pump(&mut self, until: Option<Instant>) -> Result<Option<SelectionNotifyEvent>, Error> {
        loop {
            let ev = self.conn.poll_for_event().map_err(|e| Error::Clipboard(e.to_string()))?;
            match ev {
                Some(Event::SelectionRequest(req)) => self.answer(&req),
                Some(Event::SelectionClear(_)) => self.content = None,
                Some(Event::SelectionNotify(n)) if until.is_some() => return Ok(Some(n)),
                Some(_) => {}
                None => match until {
                    Some(t) if Instant::now() < t => std::thread::sleep(Duration::from_millis(2)),
                    _ => return Ok(None),
                },
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
