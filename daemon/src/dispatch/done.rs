//! An action past its handler, as the pipeline's after-steps carry it: the result as the JSON
//! the wire gets (written once, by the table), the typed target, and the typed facts of the
//! result those steps decide on (a dialog or tab it opened, where it went, the key it
//! pressed, the window its input reached, a value it verified). Effects named later add to
//! both the result and the facts.

use glovebox_protocol::results::browser::JsDialog;
use glovebox_protocol::results::{Effects, FileChooser, Opened};
use glovebox_protocol::wire::Target;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// A handled action on its way through settle, effects and capture.
pub struct Done {
    pub result: Value,
    pub target: Option<Target>,
    pub facts: Facts,
}

/// What the after-steps read of a result. A field some result holds in another shape is
/// read as absent rather than failing the others.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Facts {
    #[serde(deserialize_with = "lenient")]
    pub dialog: Option<JsDialog>,
    #[serde(deserialize_with = "lenient")]
    pub opened_tabs: Option<Vec<Opened>>,
    #[serde(deserialize_with = "lenient")]
    pub file_chooser: Option<FileChooser>,
    #[serde(deserialize_with = "lenient")]
    pub navigated_to: Option<String>,
    /// The key a desktop key press sent (`ctrl+s`).
    #[serde(deserialize_with = "lenient")]
    pub key: Option<String>,
    /// The window a desktop input went to.
    #[serde(deserialize_with = "lenient")]
    pub delivered_to: Option<Delivered>,
    /// The action read its value back and found it as asked.
    #[serde(deserialize_with = "lenient")]
    pub verified: Option<bool>,
}

/// The part of a result's `delivered_to` the settle needs.
#[derive(Debug, Default, Deserialize)]
pub struct Delivered {
    #[serde(default)]
    pub app_id: Option<String>,
}

impl Facts {
    /// The facts of a result as written.
    pub fn of(result: &Value) -> Facts {
        Facts::deserialize(result).unwrap_or_default()
    }

    /// What the browser's effects log added to the result, as `effects::name` writes it
    /// there: its tabs in place of the result's, a result's own `navigated_to` kept.
    pub fn add(&mut self, fx: &Effects) {
        if !fx.opened_tabs.is_empty() {
            self.opened_tabs = Some(fx.opened_tabs.clone());
        }
        if self.navigated_to.is_none() {
            self.navigated_to.clone_from(&fx.navigated_to);
        }
        if fx.file_chooser.is_some() {
            self.file_chooser.clone_from(&fx.file_chooser);
        }
    }

    /// The action opened a tab.
    pub fn opened_a_tab(&self) -> bool {
        self.opened_tabs.as_ref().is_some_and(|t| !t.is_empty())
    }
}

/// `T` when the field holds one, else absent.
fn lenient<'de, D: Deserializer<'de>, T: DeserializeOwned>(d: D) -> Result<Option<T>, D::Error> {
    let v = Value::deserialize(d)?;
    Ok(serde_json::from_value(v).ok())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::Facts;

    #[test]
    fn facts_are_read_typed_and_a_stray_shape_spoils_only_its_own_field() {
        let f = Facts::of(&json!({
            "key": "ctrl+s",
            "delivered_to": {"window_id": "win:0x1", "app_id": "app:7", "title": "t"},
            "verified": true,
            "opened_tabs": [{"tab_id": "T2", "url": "https://a.test/"}],
            "dialog": "not a dialog",
        }));
        assert_eq!(f.key.as_deref(), Some("ctrl+s"));
        assert_eq!(f.delivered_to.and_then(|d| d.app_id).as_deref(), Some("app:7"));
        assert_eq!(f.verified, Some(true));
        assert_eq!(f.opened_tabs.map(|t| t.len()), Some(1));
        assert!(f.dialog.is_none());
        assert!(!Facts::of(&json!({"opened_tabs": []})).opened_a_tab());
        assert!(Facts::of(&json!(null)).key.is_none());
    }
}
