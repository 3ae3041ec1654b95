//! The clipboard: get, set, and paste (save, write, Ctrl+V, restore).

use std::time::{Duration, Instant};

use ::atspi::Interface;
use glovebox_protocol::results::computer::Paste;

use super::{describe, Aim, El};
use crate::desktop::clipboard::Content;
use crate::desktop::{keys, Desktop, Error};

impl Desktop {
    pub async fn clipboard_get(&self, html: bool) -> Result<Option<String>, Error> {
        self.clipboard.get(html).await
    }

    pub async fn clipboard_set(&self, text: &str, html: bool) -> Result<(), Error> {
        let content = if html {
            Content { text: Some(strip_tags(text)), html: Some(text.to_owned()) }
        } else {
            Content { text: Some(text.to_owned()), html: None }
        };
        self.clipboard.set(content).await
    }

    /// Run `act` with `content` on the clipboard: the old contents are saved first and put
    /// back afterwards unless someone else changed the clipboard meanwhile. Serialized with
    /// every other paste. Returns what `act` gave, whether the old contents are back, and
    /// whether the clipboard was still ours when `act` ended.
    pub async fn with_clipboard<T>(
        &self,
        content: Content,
        act: impl std::future::Future<Output = T>,
    ) -> Result<(T, Restore), Error> {
        let _one = self.paste.lock().await;
        let old_text = self.clipboard.get(false).await.ok().flatten();
        let old_html =
            self.clipboard.get(true).await.ok().flatten().filter(|h| Some(h) != old_text.as_ref());
        self.clipboard.set(content.clone()).await?;
        let out = act.await;
        let untouched = self.clipboard.owns(content).await.unwrap_or(false);
        let restored = untouched
            && match &old_text {
                Some(t) => self
                    .clipboard
                    .set(Content { text: Some(t.clone()), html: old_html })
                    .await
                    .is_ok(),
                None => self.clipboard.release().await.is_ok(),
            };
        Ok((out, Restore { restored, changed_meanwhile: !untouched }))
    }

    /// How many times an app has read the daemon's clipboard content so far.
    pub fn clipboard_reads(&self) -> u64 {
        self.clipboard.served()
    }

    /// Paste through the clipboard: save, write, activate the target, focus, Ctrl+V, read
    /// back, restore unless changed. With a ref the element must then hold its old text with
    /// the selection (or the caret) replaced by `text`, else `ActionFailed` saying what it
    /// holds; without one the app must at least have read the clipboard.
    pub async fn paste(
        &self,
        el: Option<&El>,
        text: &str,
        html: bool,
        aim: Aim,
    ) -> Result<Paste, Error> {
        let content = if html {
            Content { text: Some(strip_tags(text)), html: Some(text.to_owned()) }
        } else {
            Content { text: Some(text.to_owned()), html: None }
        };
        let want = content.text.clone().unwrap_or_default();
        let before = match el {
            Some(el) if self.ifaces(el).await?.contains(Interface::Text) => {
                Some(self.get_text(el).await?)
            }
            _ => None,
        };
        let aim = match el {
            Some(el) => self.aim_at(el, aim).await,
            None => aim,
        };
        let guard = self.raise(aim).await?;
        let to = match &guard {
            Some(g) => Some(g.window.clone()),
            None => self.active_ref().await?,
        };
        let act = async {
            if let Some(el) = el {
                self.focus_element(el).await?;
                if let Some(b) = &before {
                    self.keep_selection(el, b).await;
                }
            }
            if let Some(g) = &guard {
                self.still_active(g, "nothing was pasted").await?;
            }
            let served_before = self.clipboard.served();
            self.xrun(|x| x.chord(&[keys::CONTROL_L], 'v' as u32)).await?;
            // The app reads the clipboard asynchronously: wait until the text shows up.
            let mut value = None;
            if let (Some(el), Some(b)) = (el, &before) {
                value = Some(self.read_back(el, b, &want, "the paste").await?);
            } else {
                // No text to read back: wait until the app has fetched our content from
                // the selection (it asks the owner thread), so the restore cannot race it.
                let deadline = Instant::now() + Duration::from_millis(1500);
                while self.clipboard.served() == served_before && Instant::now() < deadline {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
                if self.clipboard.served() == served_before {
                    return Err(Error::Refused(format!(
                        "nothing was pasted: {} never read the clipboard after Ctrl+V (no \
                         text field has its focus?)",
                        describe(to.as_ref())
                    )));
                }
            }
            Ok::<_, Error>((value, self.clipboard.served() > served_before))
        };
        let (result, restore) = self.with_clipboard(content, act).await?;
        let (value, consumed) = result?;
        let changed = self.focus_after(guard.as_ref()).await;
        Ok(Paste {
            pasted: true,
            verified: value.is_some().then_some(true),
            value,
            read_by_app: consumed,
            clipboard_restored: restore.restored,
            clipboard_changed_meanwhile: restore.changed_meanwhile,
            via: "clipboard+xtest".into(),
            actual_dispatch: "foreground".into(),
            delivered_to: to,
            focus_changed: changed,
        })
    }
}

/// How the clipboard came out of [`Desktop::with_clipboard`].
#[derive(Debug, Clone, Copy)]
pub struct Restore {
    pub restored: bool,
    pub changed_meanwhile: bool,
}

fn strip_tags(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}
