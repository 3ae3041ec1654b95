//! Text and values: typing, filling, setting a value, reading text and selecting within it.

use std::time::{Duration, Instant};

use ::atspi::Interface;
use serde::Serialize;

use super::{landed, real, semantic, what, Acted, Aim, Dispatch, El, Guard};
use crate::desktop::atspi::iface;
use crate::desktop::{keys, Desktop, Error};

/// An element's text with its caret and selection (character offsets).
#[derive(Debug, Clone, Serialize)]
pub struct TextState {
    pub text: String,
    pub length: usize,
    pub caret: Option<i32>,
    pub selection: Option<(i32, i32)>,
}

impl TextState {
    /// The text after `insert` replaces the selection (or goes in at the caret); `None` when
    /// neither is known.
    pub fn after_insert(&self, insert: &str) -> Option<String> {
        let chars: Vec<char> = self.text.chars().collect();
        let n = chars.len() as i32;
        let (s, e) = match (self.selection, self.caret) {
            (Some((s, e)), _) if s < e => (s, e),
            (_, Some(c)) if c >= 0 => (c, c),
            _ => return None,
        };
        let (s, e) = (s.clamp(0, n) as usize, e.clamp(0, n) as usize);
        let mut out: String = chars[..s].iter().collect();
        out.push_str(insert);
        out.extend(&chars[e..]);
        Some(out)
    }

    fn has_selection(&self) -> bool {
        self.selection.is_some_and(|(s, e)| s < e)
    }
}

/// How long a read-back waits for real input to show in the element's text.
const READ_BACK: Duration = Duration::from_secs(3);

impl Desktop {
    pub async fn type_text(
        &self,
        el: Option<&El>,
        text: &str,
        dispatch: Dispatch,
        aim: Aim,
    ) -> Result<Acted, Error> {
        let Some(el) = el else {
            if dispatch == Dispatch::Background {
                return Err(Error::Unsupported {
                    action: "type".into(),
                    reason: "typing into the focused widget is keyboard input; give a ref for dispatch background".into(),
                    available: vec![],
                });
            }
            let guard = self.raise(aim).await?;
            let to = match &guard {
                Some(g) => Some(g.window.clone()),
                None => self.active_ref().await?,
            };
            self.type_guarded(text, guard.as_ref()).await?;
            let changed = self.focus_after(guard.as_ref()).await;
            return Ok(landed(real("xtest", None), to, changed));
        };
        let ifaces = self.ifaces(el).await?;
        if ifaces.contains(Interface::EditableText) && dispatch != Dispatch::Foreground {
            return self.insert_over_selection(el, text).await;
        }
        if dispatch == Dispatch::Background {
            return Err(self.not_editable(el).await);
        }
        let before =
            if ifaces.contains(Interface::Text) { Some(self.get_text(el).await?) } else { None };
        let guard = self.raise(self.aim_at(el, aim).await).await?;
        self.focus_element(el).await?;
        if let Some(b) = &before {
            self.keep_selection(el, b).await;
        }
        let to = match &guard {
            Some(g) => Some(g.window.clone()),
            None => self.active_ref().await?,
        };
        self.type_guarded(text, guard.as_ref()).await?;
        let mut a = real("xtest", None);
        if let Some(b) = &before {
            a.value = Some(self.read_back(el, b, text, "typing").await?);
        }
        let changed = self.focus_after(guard.as_ref()).await;
        Ok(landed(a, to, changed))
    }

    /// Types through XTest; with a guard, stops when the focus leaves the target
    /// (`NotFocused` saying how much went out).
    async fn type_guarded(&self, text: &str, guard: Option<&Guard>) -> Result<(), Error> {
        let allowed = guard.map(|g| g.allowed.clone());
        let t = text.to_owned();
        let typed = self.xrun(move |x| x.type_into(&t, allowed.as_ref())).await?;
        let total = text.chars().count();
        match guard {
            Some(g) if typed < total => {
                self.still_active(
                    g,
                    &format!("{typed} of {total} characters went to it, the rest was not typed"),
                )
                .await?;
                Err(Error::Refused(format!("typed {typed} of {total} characters")))
            }
            _ => Ok(()),
        }
    }

    /// Puts back the selection (or caret) `before` had, when focusing the element moved it
    /// (a GTK entry selects everything when it takes the focus; a window taking the focus may
    /// reset it a moment later), until it reads back the same twice in a row, 60 ms apart.
    pub(super) async fn keep_selection(&self, el: &El, before: &TextState) {
        let Ok((bus, path)) = self.parts(el) else { return };
        let Ok(a11y) = self.a11y() else { return };
        let want_sel = before.selection.filter(|_| before.has_selection());
        let want_caret = before.caret.filter(|c| *c >= 0);
        if want_sel.is_none() && want_caret.is_none() {
            return;
        }
        let mut steady = 0;
        for _ in 0..10 {
            let now = self.get_text(el).await.ok();
            let kept = match (want_sel, &now) {
                (Some(sel), Some(n)) => n.selection == Some(sel),
                (None, Some(n)) => !n.has_selection() && n.caret == want_caret,
                _ => false,
            };
            if kept {
                steady += 1;
                if steady == 2 {
                    return;
                }
            } else {
                steady = 0;
                match (want_sel, want_caret) {
                    (Some((s, e)), _) => {
                        let _ = a11y.select(bus, path, s, e).await;
                    }
                    (None, Some(c)) => {
                        let _ = a11y.set_caret(bus, path, c).await;
                    }
                    _ => {}
                }
            }
            tokio::time::sleep(Duration::from_millis(60)).await;
        }
    }

    /// Waits until the element holds what `input` over `before` makes; `ActionFailed`
    /// saying what it holds instead at the deadline. Returns the text.
    pub(super) async fn read_back(
        &self,
        el: &El,
        before: &TextState,
        input: &str,
        what_ran: &str,
    ) -> Result<String, Error> {
        let want = before.after_insert(input);
        let deadline = Instant::now() + READ_BACK;
        loop {
            let now = self.read_text(el).await?;
            let ok = match &want {
                Some(w) => &now == w,
                // Neither caret nor selection known: the text grew by the input.
                None => {
                    now.contains(input)
                        && now.chars().count() == before.length + input.chars().count()
                }
            };
            if ok {
                return Ok(now);
            }
            if Instant::now() >= deadline {
                let expected = want.map_or_else(
                    || format!("{input:?} added to {:?}", before.text),
                    |w| format!("{w:?}"),
                );
                return Err(Error::Refused(format!(
                    "{what_ran} did not land as asked: {} holds {now:?}, not {expected}{}",
                    self.describe(el).await,
                    if before.has_selection() { " (the selection replaced)" } else { "" },
                )));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Inserts through EditableText at the caret, replacing the selection if there is one,
    /// and reads the text back.
    async fn insert_over_selection(&self, el: &El, text: &str) -> Result<Acted, Error> {
        let (bus, path) = self.parts(el)?;
        let mut before = self.get_text(el).await?;
        if before.caret.is_none_or(|c| c < 0) && !before.has_selection() {
            before.caret = Some(before.length as i32);
        }
        let a11y = self.a11y()?;
        let at = match before.selection {
            Some((s, e)) if s < e => {
                let ok = a11y
                    .delete_text(bus, path, s, e)
                    .await
                    .map_err(|e| Error::call(what(el), e))?;
                if !ok {
                    return Err(Error::Refused(format!(
                        "{} refused to delete its selection {s}..{e}; nothing was typed",
                        self.describe(el).await
                    )));
                }
                s
            }
            _ => before.caret.unwrap_or(0),
        };
        let ok =
            a11y.insert_text(bus, path, at, text).await.map_err(|e| Error::call(what(el), e))?;
        if !ok {
            return Err(Error::Refused(format!("{} refused the text", self.describe(el).await)));
        }
        let _ = a11y.set_caret(bus, path, at + text.chars().count() as i32).await;
        let mut a = semantic("accessibility:insert_text");
        a.value = Some(self.read_back(el, &before, text, "typing").await?);
        Ok(a)
    }

    pub async fn fill(
        &self,
        el: Option<&El>,
        text: &str,
        dispatch: Dispatch,
        aim: Aim,
    ) -> Result<Acted, Error> {
        if let Some(el) = el {
            let ifaces = self.ifaces(el).await?;
            if ifaces.contains(Interface::EditableText) && dispatch != Dispatch::Foreground {
                let (bus, path) = self.parts(el)?;
                self.a11y()?
                    .set_text(bus, path, text)
                    .await
                    .map_err(|e| Error::call(what(el), e))?;
                let back = self.read_text(el).await?;
                if back != text {
                    return Err(Error::Refused(format!(
                        "{} holds {back:?} after fill, not {text:?}",
                        self.describe(el).await
                    )));
                }
                let mut a = semantic("accessibility:set_text_contents");
                a.value = Some(back);
                return Ok(a);
            }
            if dispatch == Dispatch::Background || !ifaces.contains(Interface::Text) {
                return Err(self.not_editable(el).await);
            }
        } else if dispatch == Dispatch::Background {
            return Err(Error::Unsupported {
                action: "fill".into(),
                reason: "filling the focused widget is keyboard input; give a ref for dispatch background".into(),
                available: vec![],
            });
        }
        let aim = match el {
            Some(el) => self.aim_at(el, aim).await,
            None => aim,
        };
        let guard = self.raise(aim).await?;
        if let Some(el) = el {
            self.focus_element(el).await?;
        }
        let to = match &guard {
            Some(g) => Some(g.window.clone()),
            None => self.active_ref().await?,
        };
        if let Some(g) = &guard {
            self.still_active(g, "nothing was typed").await?;
        }
        self.xrun(move |x| {
            x.chord(&[keys::CONTROL_L], 'a' as u32)?;
            x.chord(&[], 0xffff)
        })
        .await?;
        self.type_guarded(text, guard.as_ref()).await?;
        let mut a = real("xtest", None);
        if let Some(el) = el {
            a.value = self.read_text(el).await.ok();
        }
        let changed = self.focus_after(guard.as_ref()).await;
        Ok(landed(a, to, changed))
    }

    pub async fn set_value(
        &self,
        el: &El,
        value: &str,
        dispatch: Dispatch,
    ) -> Result<Acted, Error> {
        let ifaces = self.ifaces(el).await?;
        let (bus, path) = self.parts(el)?;
        if ifaces.contains(Interface::EditableText) {
            return self
                .fill(
                    Some(el),
                    value,
                    if dispatch == Dispatch::Foreground {
                        Dispatch::Foreground
                    } else {
                        Dispatch::Background
                    },
                    Aim::Free,
                )
                .await;
        }
        if ifaces.contains(Interface::Value) {
            let (_, min, max) =
                self.a11y()?.value(bus, path).await.map_err(|e| Error::call(what(el), e))?;
            let Ok(v) = value.trim().parse::<f64>() else {
                return Err(Error::OutOfRange(format!(
                    "{} takes a number between {min} and {max}, not {value:?}",
                    self.describe(el).await
                )));
            };
            if v < min || v > max {
                return Err(Error::OutOfRange(format!(
                    "{v} is outside the range {min}..{max} of {}",
                    self.describe(el).await
                )));
            }
            self.a11y()?.set_value(bus, path, v).await.map_err(|e| Error::call(what(el), e))?;
            let (cur, _, _) =
                self.a11y()?.value(bus, path).await.map_err(|e| Error::call(what(el), e))?;
            let mut a = semantic("accessibility:value");
            a.value = Some(format!("{cur}"));
            return Ok(a);
        }
        Err(self.not_editable(el).await)
    }

    pub async fn get_text(&self, el: &El) -> Result<TextState, Error> {
        let ifaces = self.ifaces(el).await?;
        let (bus, path) = self.parts(el)?;
        if !ifaces.contains(Interface::Text) {
            let name: String =
                self.a11y()?.prop(bus, path, iface::ACCESSIBLE, "Name").await.unwrap_or_default();
            return Ok(TextState {
                length: name.chars().count(),
                text: name,
                caret: None,
                selection: None,
            });
        }
        let a11y = self.a11y()?;
        let (text, caret, sel) =
            futures::join!(a11y.text(bus, path), a11y.caret(bus, path), a11y.selection(bus, path));
        let text = text.map_err(|e| Error::call(what(el), e))?;
        Ok(TextState {
            length: text.chars().count(),
            text,
            caret: caret.ok(),
            selection: sel.ok().flatten(),
        })
    }

    /// Selects the unique match of `prefix text suffix` (or puts the caret next to it).
    pub async fn select_text(
        &self,
        el: &El,
        text: &str,
        prefix: &str,
        suffix: &str,
        selection_type: &str,
    ) -> Result<(i32, i32), Error> {
        let ifaces = self.ifaces(el).await?;
        if !ifaces.contains(Interface::Text) {
            return Err(self.not_editable(el).await);
        }
        let (bus, path) = self.parts(el)?;
        let content = self.read_text(el).await?;
        let needle = format!("{prefix}{text}{suffix}");
        let hits = occurrences(&content, &needle);
        if hits.len() != 1 {
            return Err(Error::OutOfRange(format!(
                "{:?} occurs {} times in {}; add prefix or suffix to make it unique",
                needle,
                hits.len(),
                self.describe(el).await
            )));
        }
        let start = content[..hits[0]].chars().count() + prefix.chars().count();
        let (start, end) = (start as i32, (start + text.chars().count()) as i32);
        let ok = match selection_type {
            "cursor_before" => self.a11y()?.set_caret(bus, path, start).await,
            "cursor_after" => self.a11y()?.set_caret(bus, path, end).await,
            _ => self.a11y()?.select(bus, path, start, end).await,
        }
        .map_err(|e| Error::call(what(el), e))?;
        if !ok {
            return Err(Error::Refused(format!(
                "{} refused the selection",
                self.describe(el).await
            )));
        }
        Ok((start, end))
    }
}

/// Byte offsets of every occurrence of `needle`, overlapping ones included: "aa" occurs twice
/// in "aaa", so a selection there is ambiguous (as the browser side counts it too).
fn occurrences(haystack: &str, needle: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = haystack.get(from..).and_then(|h| h.find(needle)) {
        out.push(from + i);
        // Step one character, not one byte, to stay on a char boundary.
        from += i + haystack[from + i..].chars().next().map_or(1, char::len_utf8);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{occurrences, TextState};

    #[test]
    fn input_replaces_the_selection_or_goes_in_at_the_caret() {
        let state = |sel: Option<(i32, i32)>, caret: Option<i32>| TextState {
            text: "11+22+33".into(),
            length: 8,
            caret,
            selection: sel,
        };
        assert_eq!(state(Some((3, 5)), Some(5)).after_insert("45").as_deref(), Some("11+45+33"));
        assert_eq!(state(Some((4, 4)), Some(8)).after_insert("!").as_deref(), Some("11+22+33!"));
        assert_eq!(state(None, Some(0)).after_insert("9").as_deref(), Some("911+22+33"));
        assert_eq!(state(None, Some(99)).after_insert("9").as_deref(), Some("11+22+339"));
        assert_eq!(state(None, None).after_insert("9"), None);
        assert_eq!(state(None, Some(-1)).after_insert("9"), None);
        let wide =
            TextState {
                text: "设置🚀x".into(), length: 4, caret: None, selection: Some((2, 3))
            };
        assert_eq!(wide.after_insert("的").as_deref(), Some("设置的x"));
    }

    #[test]
    fn overlapping_matches_count() {
        assert_eq!(occurrences("aaa", "aa"), [0, 1]);
        assert_eq!(occurrences("hello world hello", "hello"), [0, 12]);
        assert_eq!(occurrences("设置的值 🚀 的值", "的值"), [6, 18]);
        assert!(occurrences("abc", "x").is_empty());
    }
}
