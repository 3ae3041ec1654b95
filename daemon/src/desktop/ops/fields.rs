//! Desktop fields the daemon typed a secret into (`computer.type {secret}`): the one named,
//! else the focused text field (where the focus last went, or the one its app says has it),
//! painted over from the first key; after the typing, the field whose text holds the value
//! (searched for in the app when neither does) is followed by its accessibility key. Before
//! every capture (screenshots, the op's capture, the view page's frames) their text and box
//! are read again, and the box is painted over while the text holds the value. A field whose
//! text no longer holds it, or that is gone, is forgotten.

use std::sync::Mutex;
use std::time::Duration;

use ::atspi::{Interface, State};

use super::El;
use crate::desktop::atspi::{self, AppInfo, ROOT};
use crate::desktop::{Desktop, Error};

/// Fields followed at most (the oldest go first).
const KEPT: usize = 32;
/// How long reading the fields again may take before a capture; past it, the boxes last
/// read are painted.
const REFRESH: Duration = Duration::from_millis(400);
/// Characters of a value a field cut short while typing is still looked for by.
const CUT_PREFIX: usize = 4;
/// How long typed keys have to show in the field's text before its app is searched.
const LANDING: Duration = Duration::from_millis(1500);
/// Elements a search of the app for a field reads at most.
const SEARCHED: usize = 3000;

/// One field holding (or receiving) a secret.
struct Field {
    key: String,
    /// Its app, to place a GTK 4 box (relative to its window).
    app: Option<AppInfo>,
    /// What its text holds while it shows the secret: the value typed, or the start of it
    /// when the typing was cut short.
    needle: String,
    /// Typing into it is under way: painted whatever its text holds so far.
    typing: bool,
    /// Its box on the screen when last read.
    rect: Option<(i32, i32, u32, u32)>,
}

/// The followed fields; their needles never show in `Debug`.
#[derive(Default)]
pub struct SecretFields(Mutex<Vec<Field>>);

impl std::fmt::Debug for SecretFields {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0.lock().map(|v| v.len()).unwrap_or(0);
        write!(f, "SecretFields({n} followed)")
    }
}

impl SecretFields {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Field>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn add(&self, field: Field) {
        let mut all = self.lock();
        all.retain(|f| f.key != field.key);
        if all.len() >= KEPT {
            all.remove(0);
        }
        all.push(field);
    }

    fn rects(&self) -> Vec<(i32, i32, u32, u32)> {
        self.lock().iter().filter_map(|f| f.rect).collect()
    }

    fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }
}

/// A field a secret is being typed into: painted from the first key on. Dropped without
/// [`Typing::done`] (the op cancelled or timed out), the field stays painted while it holds
/// the start of the value.
pub struct Typing<'d> {
    desktop: &'d Desktop,
    key: Option<String>,
    value: String,
}

impl Drop for Typing<'_> {
    fn drop(&mut self) {
        let Some(key) = &self.key else { return };
        let cut: String = self.value.chars().take(CUT_PREFIX).collect();
        for f in self.desktop.fields.lock().iter_mut().filter(|f| f.key == *key && f.typing) {
            f.typing = false;
            f.needle = cut.clone();
        }
    }
}

impl Typing<'_> {
    /// The typing is over: the field that holds the value (the one named or focused, else
    /// one found in the app of `pid`) is followed. Whether one was found.
    pub async fn done(mut self, pid: Option<u32>) -> bool {
        let d = self.desktop;
        let marked = self.key.take();
        let value = std::mem::take(&mut self.value);
        let mut candidates: Vec<String> = marked.iter().cloned().collect();
        if let Some(k) = d.focused_key().filter(|k| Some(k) != marked.as_ref()) {
            candidates.push(k);
        }
        // Keys typed by XTest may still be on their way into the app's text.
        let deadline = tokio::time::Instant::now() + LANDING;
        let mut found = false;
        loop {
            for key in &candidates {
                found |= d.follow_if_holding(key, &value).await;
            }
            if found || tokio::time::Instant::now() >= deadline {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let marked_before = marked.is_some();
        if !found {
            if let Some(pid) = pid {
                found = d.search_app(pid, &value).await;
                tracing::debug!(found, "a secret's field searched for in its app");
            }
        } else {
            tracing::debug!(marked_before, "a secret's field found where it was typed");
        }
        // The field marked before, when it does not hold the value after all, goes at the
        // next reading like any other (kept painted until then).
        for f in d.fields.lock().iter_mut().filter(|f| Some(&f.key) == marked.as_ref()) {
            f.typing = false;
        }
        d.cover_fields().await;
        found
    }
}

impl Desktop {
    /// Before typing a secret's `value` into `el` (else the focused text field: the one
    /// the focus last went to, or the app of `pid` says has it): its box is painted over by
    /// every capture from now on.
    pub async fn secret_typing(
        &self,
        el: Option<&El>,
        pid: Option<u32>,
        value: &str,
    ) -> Typing<'_> {
        let key = match el {
            Some(e) => Some(e.key.clone()),
            None => self.focused_field(pid).await,
        };
        tracing::debug!(known = key.is_some(), "a secret's field before typing");
        if let Some(key) = &key {
            let app = self.field_app(key).await;
            let rect = self.field_rect(key, app.as_ref()).await.ok().flatten();
            let needle = value.to_owned();
            self.fields.add(Field { key: key.clone(), app, needle, typing: true, rect });
            self.x.set_fields_covered(self.fields.rects());
        }
        Typing { desktop: self, key, value: value.to_owned() }
    }

    /// Reads every followed field's text and box again and hands the boxes to the captures
    /// that follow; a field whose text no longer holds its value, or that is gone, is
    /// forgotten. One that does not answer in time keeps the box it last had.
    pub async fn cover_fields(&self) {
        if self.fields.is_empty() {
            return;
        }
        let keys: Vec<(String, Option<AppInfo>)> =
            self.fields.lock().iter().map(|f| (f.key.clone(), f.app.clone())).collect();
        let reads = futures::future::join_all(keys.iter().map(|(key, app)| async move {
            let read = tokio::time::timeout(REFRESH, self.field_state(key, app.as_ref())).await;
            (key, read)
        }))
        .await;
        {
            let mut all = self.fields.lock();
            for (key, read) in reads {
                let Some(i) = all.iter().position(|f| f.key == *key) else { continue };
                match read {
                    Ok(Ok((text, rect))) => {
                        if all[i].typing || text.contains(&all[i].needle) {
                            all[i].rect = rect;
                        } else {
                            all.remove(i);
                        }
                    }
                    Ok(Err(Error::Gone { .. })) => {
                        all.remove(i);
                    }
                    Ok(Err(e)) => tracing::debug!(%e, "a secret's field did not answer"),
                    Err(_) => tracing::debug!("a secret's field did not answer in time"),
                }
            }
        }
        self.x.set_fields_covered(self.fields.rects());
    }

    /// The key of the element that last took the focus, when still on this connection.
    fn focused_key(&self) -> Option<String> {
        let key = self.focused.lock().ok()?.clone()?;
        self.a11y().ok()?.owns_key(&key).then_some(key)
    }

    /// Follows the field `key` when its text holds `value`.
    async fn follow_if_holding(&self, key: &str, value: &str) -> bool {
        let app = self.field_app(key).await;
        match self.field_state(key, app.as_ref()).await {
            Ok((text, rect)) if text.contains(value) => {
                let (key, needle) = (key.to_owned(), value.to_owned());
                self.fields.add(Field { key, app, needle, typing: false, rect });
                true
            }
            _ => false,
        }
    }

    /// The text element that has the focus: the one it last went to, else the one the app
    /// of `pid` says is focused.
    async fn focused_field(&self, pid: Option<u32>) -> Option<String> {
        let a11y = self.a11y().ok()?;
        if let Some(key) = self.focused_key() {
            let (bus, path) = atspi::split_key(&key)?;
            if a11y.interfaces(bus, path).await.is_ok_and(|i| i.contains(Interface::Text)) {
                return Some(key);
            }
        }
        let walked = self.walk_app(pid?).await?;
        let focused = walked
            .elems
            .iter()
            .find(|e| e.states.contains(State::Focused) && e.ifaces.contains(Interface::Text));
        focused.map(|e| e.key.clone())
    }

    /// The app of `pid`, walked for a field.
    async fn walk_app(&self, pid: u32) -> Option<atspi::Walked> {
        let (Ok(a11y), Ok(app)) = (self.a11y(), self.app(pid).await) else { return None };
        let opts = atspi::WalkOptions {
            max_depth: 64,
            max_nodes: SEARCHED,
            offset: (0, 0),
            screen: self.screen(),
            trust_visible: app.window_relative(),
        };
        Some(a11y.walk(&app.bus, ROOT, opts).await)
    }

    /// Looks through the app of `pid` for text elements holding `value` and follows them.
    async fn search_app(&self, pid: u32, value: &str) -> bool {
        let Some(walked) = self.walk_app(pid).await else { return false };
        let mut found = false;
        for e in walked.elems.iter() {
            let Some(v) = &e.value else { continue };
            // A value read only in part may hold it further on.
            if v.contains(value) || e.value_chars.is_some() {
                found |= self.follow_if_holding(&e.key, value).await;
            }
        }
        found
    }

    async fn field_app(&self, key: &str) -> Option<AppInfo> {
        let (bus, _) = atspi::split_key(key)?;
        self.app_of(bus).await.ok()
    }

    /// The field's text and box (`None`: it shows none).
    async fn field_state(
        &self,
        key: &str,
        app: Option<&AppInfo>,
    ) -> Result<(String, Option<(i32, i32, u32, u32)>), Error> {
        let el = El { key: key.to_owned(), label: "a field holding a secret".into() };
        let (bus, path) = self.parts(&el)?;
        let a11y = self.a11y()?;
        let (text, rect) = futures::join!(a11y.text(bus, path), self.field_rect(key, app));
        let text = text.map_err(|e| Error::call(el.label, e))?;
        Ok((text, rect?))
    }

    async fn field_rect(
        &self,
        key: &str,
        app: Option<&AppInfo>,
    ) -> Result<Option<(i32, i32, u32, u32)>, Error> {
        let el = El { key: key.to_owned(), label: "a field holding a secret".into() };
        let boxed = self.screen_box(&el, app).await?;
        // A little more than the box: its frame and caret.
        Ok(boxed.map(|(x, y, w, h)| (x - 2, y - 2, (w + 4).max(1) as u32, (h + 4).max(1) as u32)))
    }
}
