//! The AT-SPI interfaces the backend speaks, by their D-Bus names in one table ([`iface`]),
//! and the calls on one element through them (text, selection, editable text, value,
//! actions, component). Raw zbus calls by interface name, not atspi's proxies: each call
//! here runs under the backend's own timeout and reconnection (`A11y::call`), which a
//! proxy's own connection would bypass.

use atspi::{InterfaceSet, StateSet};
use zbus::zvariant::Value;

use super::{A11y, UNANSWERED_SELECTION};

/// D-Bus names of the AT-SPI interfaces and event interfaces.
pub mod iface {
    pub const ACCESSIBLE: &str = "org.a11y.atspi.Accessible";
    pub const ACTION: &str = "org.a11y.atspi.Action";
    pub const APPLICATION: &str = "org.a11y.atspi.Application";
    pub const COMPONENT: &str = "org.a11y.atspi.Component";
    pub const EDITABLE_TEXT: &str = "org.a11y.atspi.EditableText";
    pub const REGISTRY: &str = "org.a11y.atspi.Registry";
    pub const TEXT: &str = "org.a11y.atspi.Text";
    pub const VALUE: &str = "org.a11y.atspi.Value";
    pub const EVENT_OBJECT: &str = "org.a11y.atspi.Event.Object";
    pub const EVENT_WINDOW: &str = "org.a11y.atspi.Event.Window";
    pub const EVENT_DOCUMENT: &str = "org.a11y.atspi.Event.Document";
}

pub use iface::REGISTRY;
use iface::{ACCESSIBLE, ACTION, COMPONENT, EDITABLE_TEXT, TEXT, VALUE};

impl A11y {
    // ---- One element. ----

    pub async fn interfaces(&self, bus: &str, path: &str) -> zbus::Result<InterfaceSet> {
        self.call(bus, path, ACCESSIBLE, "GetInterfaces", &()).await
    }

    pub async fn states(&self, bus: &str, path: &str) -> zbus::Result<StateSet> {
        self.call(bus, path, ACCESSIBLE, "GetState", &()).await
    }

    pub async fn describe(&self, bus: &str, path: &str) -> String {
        let (role, name) = futures::join!(
            self.call::<_, String>(bus, path, ACCESSIBLE, "GetRoleName", &()),
            self.prop::<String>(bus, path, ACCESSIBLE, "Name"),
        );
        format!("{} {:?}", role.unwrap_or_else(|_| "element".into()), name.unwrap_or_default())
    }

    /// Screen extents (x, y, width, height) as the toolkit reports them.
    pub async fn extents(&self, bus: &str, path: &str) -> zbus::Result<(i32, i32, i32, i32)> {
        self.call(bus, path, COMPONENT, "GetExtents", &(0u32,)).await
    }

    pub async fn grab_focus(&self, bus: &str, path: &str) -> zbus::Result<bool> {
        self.call(bus, path, COMPONENT, "GrabFocus", &()).await
    }

    /// The element's action names (unnamed ones left out).
    pub async fn actions(&self, bus: &str, path: &str) -> zbus::Result<Vec<String>> {
        let list: Vec<(String, String, String)> =
            self.call(bus, path, ACTION, "GetActions", &()).await?;
        Ok(list.into_iter().map(|(name, _, _)| name).filter(|n| !n.is_empty()).collect())
    }

    pub async fn do_action(&self, bus: &str, path: &str, index: i32) -> zbus::Result<bool> {
        self.call(bus, path, ACTION, "DoAction", &(index,)).await
    }

    pub async fn text(&self, bus: &str, path: &str) -> zbus::Result<String> {
        self.call(bus, path, TEXT, "GetText", &(0i32, -1i32)).await
    }

    pub async fn caret(&self, bus: &str, path: &str) -> zbus::Result<i32> {
        self.prop::<i32>(bus, path, TEXT, "CaretOffset").await
    }

    pub async fn set_caret(&self, bus: &str, path: &str, offset: i32) -> zbus::Result<bool> {
        self.call(bus, path, TEXT, "SetCaretOffset", &(offset,)).await
    }

    /// The first selection (start, end) in characters, if any.
    pub async fn selection(&self, bus: &str, path: &str) -> zbus::Result<Option<(i32, i32)>> {
        let n: i32 = self.call(bus, path, TEXT, "GetNSelections", &()).await?;
        if n < 1 {
            return Ok(None);
        }
        let s: (i32, i32) = self.call(bus, path, TEXT, "GetSelection", &(0i32,)).await?;
        Ok(Some(s))
    }

    pub async fn select(&self, bus: &str, path: &str, start: i32, end: i32) -> zbus::Result<bool> {
        let n: i32 = self.call(bus, path, TEXT, "GetNSelections", &()).await?;
        if n > 0 {
            return self.call(bus, path, TEXT, "SetSelection", &(0i32, start, end)).await;
        }
        let range = (start, end);
        let add = self.call(bus, path, TEXT, "AddSelection", &range);
        match tokio::time::timeout(UNANSWERED_SELECTION, add).await {
            Ok(r) => r,
            // GTK 4.8 text views set the selection but never answer AddSelection (its reply
            // has the wrong type, which GLib drops): the selection read back says whether it
            // took. The read is answered after the AddSelection was handled.
            Err(_) => Ok(self.selection(bus, path).await? == Some((start, end))),
        }
    }

    /// Deletes the characters start..end.
    pub async fn delete_text(
        &self,
        bus: &str,
        path: &str,
        start: i32,
        end: i32,
    ) -> zbus::Result<bool> {
        self.call(bus, path, EDITABLE_TEXT, "DeleteText", &(start, end)).await
    }

    pub async fn set_text(&self, bus: &str, path: &str, text: &str) -> zbus::Result<bool> {
        self.call(bus, path, EDITABLE_TEXT, "SetTextContents", &(text,)).await
    }

    /// Inserts at a character offset; the length argument is in bytes (what ATK passes on).
    pub async fn insert_text(
        &self,
        bus: &str,
        path: &str,
        offset: i32,
        text: &str,
    ) -> zbus::Result<bool> {
        let len = i32::try_from(text.len()).unwrap_or(i32::MAX);
        self.call(bus, path, EDITABLE_TEXT, "InsertText", &(offset, text, len)).await
    }

    /// (current, minimum, maximum) of a Value element.
    pub async fn value(&self, bus: &str, path: &str) -> zbus::Result<(f64, f64, f64)> {
        let (cur, min, max) = futures::join!(
            self.prop::<f64>(bus, path, VALUE, "CurrentValue"),
            self.prop::<f64>(bus, path, VALUE, "MinimumValue"),
            self.prop::<f64>(bus, path, VALUE, "MaximumValue"),
        );
        Ok((cur?, min?, max?))
    }

    pub async fn set_value(&self, bus: &str, path: &str, v: f64) -> zbus::Result<()> {
        self.set_prop(bus, path, VALUE, "CurrentValue", Value::from(v)).await
    }
}
