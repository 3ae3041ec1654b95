//! Text and values: typing, filling, setting a value, reading text and selecting within it.

use ::atspi::Interface;
use serde::Serialize;

use super::{what, Acted, Dispatch, El};
use crate::desktop::{keys, Desktop, Error};

/// An element's text with its caret and selection (character offsets).
#[derive(Debug, Clone, Serialize)]
pub struct TextState {
    pub text: String,
    pub length: usize,
    pub caret: Option<i32>,
    pub selection: Option<(i32, i32)>,
}

impl Desktop {
    pub async fn type_text(
        &self,
        el: Option<&El>,
        text: &str,
        dispatch: Dispatch,
        window: Option<&str>,
    ) -> Result<Acted, Error> {
        if let Some(w) = window {
            if el.is_none() || dispatch == Dispatch::Foreground {
                self.verify_active(w).await?;
            }
        }
        if let Some(el) = el {
            let ifaces = self.ifaces(el).await?;
            if ifaces.contains(Interface::EditableText) && dispatch != Dispatch::Foreground {
                let (bus, path) = self.parts(el)?;
                let caret = self.a11y()?.caret(bus, path).await.unwrap_or(-1);
                let caret = if caret < 0 {
                    self.read_text(el).await?.chars().count() as i32
                } else {
                    caret
                };
                let ok = self
                    .a11y()?
                    .insert_text(bus, path, caret, text)
                    .await
                    .map_err(|e| Error::call(what(el), e))?;
                if !ok {
                    return Err(Error::Failed(format!(
                        "{} refused the text",
                        self.describe(el).await
                    )));
                }
                let _ =
                    self.a11y()?.set_caret(bus, path, caret + text.chars().count() as i32).await;
                return Ok(Acted::semantic("accessibility:insert_text"));
            }
            if dispatch == Dispatch::Background {
                return Err(self.not_editable(el).await);
            }
            self.focus_element(el).await?;
        } else if dispatch == Dispatch::Background {
            return Err(Error::Unsupported {
                action: "type".into(),
                reason: "typing into the focused widget is keyboard input; give a ref for dispatch background".into(),
                available: vec![],
            });
        }
        let t = text.to_owned();
        self.xrun(move |x| x.type_text(&t)).await?;
        Ok(Acted::real("xtest", None))
    }

    pub async fn fill(
        &self,
        el: Option<&El>,
        text: &str,
        dispatch: Dispatch,
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
                    return Err(Error::Failed(format!(
                        "{} holds {back:?} after fill, not {text:?}",
                        self.describe(el).await
                    )));
                }
                let mut a = Acted::semantic("accessibility:set_text_contents");
                a.value = Some(back);
                return Ok(a);
            }
            if dispatch == Dispatch::Background || !ifaces.contains(Interface::Text) {
                return Err(self.not_editable(el).await);
            }
            self.focus_element(el).await?;
        } else if dispatch == Dispatch::Background {
            return Err(Error::Unsupported {
                action: "fill".into(),
                reason: "filling the focused widget is keyboard input; give a ref for dispatch background".into(),
                available: vec![],
            });
        }
        let t = text.to_owned();
        self.xrun(move |x| {
            x.chord(&[keys::CONTROL_L], 'a' as u32)?;
            x.chord(&[], 0xffff)?;
            if !t.is_empty() {
                x.type_text(&t)?;
            }
            Ok(())
        })
        .await?;
        let mut a = Acted::real("xtest", None);
        if let Some(el) = el {
            a.value = self.read_text(el).await.ok();
        }
        Ok(a)
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
                )
                .await;
        }
        if ifaces.contains(Interface::Value) {
            let (_, min, max) =
                self.a11y()?.value(bus, path).await.map_err(|e| Error::call(what(el), e))?;
            let Ok(v) = value.trim().parse::<f64>() else {
                return Err(Error::Failed(format!(
                    "{} takes a number between {min} and {max}, not {value:?}",
                    self.describe(el).await
                )));
            };
            if v < min || v > max {
                return Err(Error::Failed(format!(
                    "{v} is outside the range {min}..{max} of {}",
                    self.describe(el).await
                )));
            }
            self.a11y()?.set_value(bus, path, v).await.map_err(|e| Error::call(what(el), e))?;
            let (cur, _, _) =
                self.a11y()?.value(bus, path).await.map_err(|e| Error::call(what(el), e))?;
            let mut a = Acted::semantic("accessibility:value");
            a.value = Some(format!("{cur}"));
            return Ok(a);
        }
        Err(self.not_editable(el).await)
    }

    pub async fn get_text(&self, el: &El) -> Result<TextState, Error> {
        let ifaces = self.ifaces(el).await?;
        let (bus, path) = self.parts(el)?;
        if !ifaces.contains(Interface::Text) {
            let name: String = self
                .a11y()?
                .prop(bus, path, "org.a11y.atspi.Accessible", "Name")
                .await
                .unwrap_or_default();
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
            return Err(Error::Failed(format!(
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
            return Err(Error::Failed(format!(
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
    use super::occurrences;

    #[test]
    fn overlapping_matches_count() {
        assert_eq!(occurrences("aaa", "aa"), [0, 1]);
        assert_eq!(occurrences("hello world hello", "hello"), [0, 12]);
        assert_eq!(occurrences("设置的值 🚀 的值", "的值"), [6, 18]);
        assert!(occurrences("abc", "x").is_empty());
    }
}
