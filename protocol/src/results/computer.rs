//! Typed results of the `computer` tool's actions.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Outline;

// ---- Parts the results share ----

/// A screen point in pixels.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Point {
    /// Pixels from the screen's left edge.
    pub x: i32,
    /// Pixels from the screen's top edge.
    pub y: i32,
}

/// A screen rectangle in pixels.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rect {
    /// Left edge, screen pixels.
    pub x: i32,
    /// Top edge, screen pixels.
    pub y: i32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// A window as results name it.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct WindowRef {
    /// The window (`win:0x...`).
    pub window_id: String,
    /// Its app (`app:<pid>`); null when unknown.
    pub app_id: Option<String>,
    /// Its title; empty when it has none or is unknown.
    pub title: String,
}

/// The active window changed between the checks before and after a real input.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct FocusChange {
    /// The window active before; null when none was.
    pub from: Option<WindowRef>,
    /// The window active after; null when none is.
    pub to: Option<WindowRef>,
}

/// How an acting action was carried out; acting results add their own fields beside it.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Acted {
    /// How it ran: `accessibility:<action>` (semantic) or `xtest` (real input).
    pub via: String,
    /// `background` (accessibility only) or `foreground` (real input).
    pub actual_dispatch: String,
    /// Real input at a point: where, in screen pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Point>,
    /// The element's text or value read back afterwards, when read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Real input: the window it went to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivered_to: Option<WindowRef>,
    /// At a point: the element the accessibility tree shows there (`role "name"`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<String>,
    /// Real input: the active window changed while it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focus_changed: Option<FocusChange>,
}

/// A top-level window (named `WindowInfo`: `Window` answers `computer.window`).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct WindowInfo {
    /// The window (`win:0x...`), stable for its life.
    pub window_id: String,
    /// Its process; null when the window does not say.
    pub pid: Option<u32>,
    /// Its app (`app:<pid>`); null when the pid is unknown.
    pub app_id: Option<String>,
    /// Its title.
    pub title: String,
    /// The outer frame (decorations included), screen pixels.
    pub frame: Rect,
    /// The client area, screen pixels.
    pub client: Rect,
    /// It is the active window.
    pub active: bool,
    /// It is minimized.
    pub minimized: bool,
    /// It is maximized.
    pub maximized: bool,
}

/// A top-level window of an app as the accessibility bus lists it.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct AppWindow {
    /// Its X window (`win:0x...`); null when it cannot be matched to one.
    pub window_id: Option<String>,
    /// Its title.
    pub title: String,
    /// Its accessibility role (`frame`, `dialog`, ...).
    pub role: String,
    /// It is the active window.
    pub active: bool,
}

/// An app on the accessibility bus.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct App {
    /// The app (`app:<pid>`).
    pub app_id: String,
    /// Its accessible name.
    pub name: String,
    /// Its process id.
    pub pid: u32,
    /// Its toolkit and version (`GTK 3.24.41`); empty when unknown.
    pub toolkit: String,
    /// It is on the accessibility bus (always true here).
    pub accessible: bool,
    /// False when it did not answer in time just now; the rest is as it last answered.
    pub responding: bool,
    /// Its top-level windows.
    pub windows: Vec<AppWindow>,
}

/// Time spent on a capture, in milliseconds (microsecond resolution).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, Copy, PartialEq, Default)]
pub struct Timing {
    /// Reading the pixels from the X server.
    pub grab_ms: f64,
    /// Scaling and encoding.
    pub encode_ms: f64,
}

/// A captured image of the screen, a window or a region.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Image {
    /// `image/png`, `image/jpeg` or `image/webp`.
    pub mime: String,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// Image pixels per screen pixel (below 1 when scaled down to max_width).
    pub scale: f64,
    /// What the image's pixels map to: `screen`.
    pub coordinate_space: String,
    /// The captured screen rectangle, screen pixels.
    pub region: Rect,
    /// How the pixels were read: `mit-shm` or `get-image`.
    pub captured_via: String,
    /// Where the capture's time went.
    pub timing: Timing,
    /// The encoded image, standard base64 (left out where it went as an MCP image block).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub data: String,
    /// The whole capture in milliseconds; absent on captures the daemon adds by itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elapsed_ms: Option<u64>,
    /// Boxes painted over because they showed a secret's value (a page's field or text, a
    /// desktop field the daemon typed one into); absent when none did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redacted: Option<u64>,
}

/// Whether one part of the desktop works.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct Availability {
    /// It works now.
    pub available: bool,
    /// Why not; null when it works.
    pub reason: Option<String>,
}

/// The X display.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct Display {
    /// Always true: the backend runs on it.
    pub available: bool,
    /// The display name (`:99`).
    pub name: String,
    /// Screen width in pixels.
    pub width: u32,
    /// Screen height in pixels.
    pub height: u32,
}

// ---- Acting on elements and points ----

/// `computer.click`: how the click was delivered and to what.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Click {
    /// How it was carried out.
    #[serde(flatten)]
    pub acted: Acted,
    /// `left`, `middle` or `right`.
    pub button: String,
    /// Clicks in a row.
    pub click_count: u32,
}

/// `computer.double_click`: how the clicks were delivered and to what.
pub type DoubleClick = Click;

/// `computer.type`: how the text went in and, with a ref, the element's text read back.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Type {
    /// How it was carried out.
    #[serde(flatten)]
    pub acted: Acted,
    /// Unicode characters typed.
    pub typed_chars: usize,
    /// With a secret: why captures may still show its value (no field of the app was found
    /// holding it, so none is painted over); absent when its field is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_covered: Option<String>,
}

/// `computer.fill`: how the text was replaced, and the value read back.
pub type Fill = Acted;

/// `computer.set_value`: how the value was set, and the value read back.
pub type SetValue = Acted;

/// `computer.paste`: whether the paste landed, and how the clipboard came out of it.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Paste {
    /// Always true (a paste that did not land is an error).
    pub pasted: bool,
    /// True when the element's text was read back as expected; null without a text element.
    pub verified: Option<bool>,
    /// The element's text read back; null without a text element.
    pub value: Option<String>,
    /// The app read the clipboard after Ctrl+V.
    pub read_by_app: bool,
    /// The clipboard's old content is back.
    pub clipboard_restored: bool,
    /// Someone else changed the clipboard meanwhile (then it is not restored).
    pub clipboard_changed_meanwhile: bool,
    /// `clipboard+xtest`.
    pub via: String,
    /// `foreground`.
    pub actual_dispatch: String,
    /// The window the paste went to; null when none was active.
    pub delivered_to: Option<WindowRef>,
    /// The active window changed while it ran; null when it did not or nothing was named.
    pub focus_changed: Option<FocusChange>,
}

/// `computer.select_text`: the selected range (or the caret's place), in characters.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct SelectText {
    /// Character offset where the match starts.
    pub start: i32,
    /// Character offset where the match ends.
    pub end: i32,
    /// The selection_type asked for.
    pub selection_type: String,
    /// `accessibility:text`.
    pub via: String,
    /// `background`.
    pub actual_dispatch: String,
}

/// `computer.secondary_action`: the action that ran.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct SecondaryAction {
    /// How it was carried out.
    #[serde(flatten)]
    pub acted: Acted,
    /// The action's name.
    pub name: String,
}

// ---- Keys and pointer ----

/// `computer.key`: the chord pressed and where it went.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Key {
    /// How it was carried out.
    #[serde(flatten)]
    pub acted: Acted,
    /// The chord as asked.
    pub key: String,
}

/// `computer.keydown` and `computer.keyup`: the keys this session now holds down.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct HeldKeys {
    /// How it was carried out.
    #[serde(flatten)]
    pub acted: Acted,
    /// Keys held down now, by name; empty when none.
    pub held: Vec<String>,
}

/// `computer.keydown`: the keys held after pressing.
pub type Keydown = HeldKeys;

/// `computer.keyup`: the keys still held after releasing.
pub type Keyup = HeldKeys;

/// `computer.scroll`: where and how far it scrolled.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Scroll {
    /// How it was carried out (`at`: the point scrolled at).
    #[serde(flatten)]
    pub acted: Acted,
    /// `up`, `down`, `left` or `right`.
    pub direction: String,
    /// Wheel clicks sent (about 50 px each).
    pub wheel_clicks: u32,
}

/// `computer.drag`: the press and drop points.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Drag {
    /// How it was carried out.
    #[serde(flatten)]
    pub acted: Acted,
    /// Where the button went down, screen pixels.
    pub from: Point,
    /// Where it was released, screen pixels.
    pub to: Point,
}

/// `computer.mouse_move`, `mouse_down` and `mouse_up`: the buttons this session now holds.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Pointer {
    /// How it was carried out.
    #[serde(flatten)]
    pub acted: Acted,
    /// X buttons held down now (1 left, 2 middle, 3 right); empty when none.
    pub buttons_held: Vec<u8>,
}

/// `computer.mouse_move`: where the pointer went and the buttons held.
pub type MouseMove = Pointer;

/// `computer.mouse_down`: the press and the buttons held.
pub type MouseDown = Pointer;

/// `computer.mouse_up`: the release and the buttons still held.
pub type MouseUp = Pointer;

// ---- Windows and waiting ----

/// `computer.window`: the operation and the window's new state.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Window {
    /// The window operated on.
    pub window_id: String,
    /// `minimize`, `maximize`, `restore`, `close`, `move` or `resize`.
    pub operation: String,
    /// The window is gone.
    pub closed: bool,
    /// Its state afterwards; null when it is gone.
    pub window: Option<WindowInfo>,
    /// `ewmh`.
    pub via: String,
    /// `foreground`.
    pub actual_dispatch: String,
}

/// `computer.wait`: how long it waited and, with until, what happened.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Wait {
    /// The event waited for; absent for a plain pause.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    /// The words waited for, lowercased; absent for a plain pause.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// True: the event happened (a timeout is an error); absent for a plain pause.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub happened: Option<bool>,
    /// Milliseconds waited.
    pub waited_ms: u64,
}

// ---- Observing ----

/// `computer.snapshot`: a page of the ref-annotated outline.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Snapshot {
    /// The outline page.
    #[serde(flatten)]
    pub outline: Outline,
    /// Milliseconds the walk took; absent when continuing with a cursor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elapsed_ms: Option<u64>,
}

/// `computer.get_window_state`: one window's outline and screenshot.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct GetWindowState {
    /// The window; null when it is not among the top-level windows.
    pub window: Option<WindowInfo>,
    /// The outline of the target.
    pub snapshot: Outline,
    /// The window's screenshot; null when include_screenshot is false.
    pub screenshot: Option<Image>,
}

/// `computer.screenshot`: the image.
pub type Screenshot = Image;

/// `computer.state_and_screenshot`: an outline and a screenshot taken together.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct StateAndScreenshot {
    /// The outline page.
    pub snapshot: Outline,
    /// The screenshot.
    pub screenshot: Image,
    /// The screen's corner did not change while both were taken.
    pub consistent: bool,
}

/// `computer.get_text`: a range of an element's text, with its caret and selection.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct GetText {
    /// The text of the range.
    pub text: String,
    /// Characters in the whole text.
    pub length: usize,
    /// The caret's character offset; null when unknown.
    pub caret: Option<i32>,
    /// The selection as [start, end] character offsets; null when none.
    pub selection: Option<[i32; 2]>,
    /// Character offset where the range starts.
    pub offset: u64,
    /// Characters in the whole text.
    pub total_chars: u64,
    /// More text follows the range.
    pub truncated: bool,
    /// Where the next range starts; absent when nothing follows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<u64>,
    /// The daemon's limit cut the range short of what was asked; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_chars: Option<usize>,
}

// ---- The clipboard and the probe ----

/// `computer.clipboard_get`: the clipboard's content.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct ClipboardGet {
    /// The content in the asked format; null when the clipboard is empty.
    pub text: Option<String>,
    /// `text` or `html`.
    pub format: String,
    /// The clipboard holds nothing in this format.
    pub empty: bool,
}

/// `computer.clipboard_set`: what was put on the clipboard.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct ClipboardSet {
    /// Always true.
    pub set: bool,
    /// The content set.
    pub text: String,
    /// `text` or `html`.
    pub format: String,
}

/// `computer.probe`: what works on this desktop.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Probe {
    /// The X display and screen size.
    pub display: Display,
    /// The accessibility bus.
    pub accessibility: Availability,
    /// Apps on the accessibility bus; 0 when it does not answer.
    pub apps: usize,
    /// Listing top-level windows.
    pub windows: Availability,
    /// Real input (XTest).
    pub input: Availability,
    /// Screen capture.
    pub screenshot: Availability,
    /// The clipboard.
    pub clipboard: Availability,
}

#[cfg(test)]
mod tests {
    use serde::de::DeserializeOwned;
    use serde::Serialize;
    use serde_json::{json, Value};

    /// `v` read into `T` and written back is `v`.
    fn round_trip<T: Serialize + DeserializeOwned>(v: &Value) {
        let typed: T = serde_json::from_value(v.clone()).expect("reads");
        assert_eq!(&serde_json::to_value(&typed).expect("writes"), v);
    }

    #[test]
    fn acting_results_keep_the_backend_fields_beside_their_own() {
        round_trip::<super::Click>(&json!({
            "via": "xtest", "actual_dispatch": "foreground", "at": {"x": 10, "y": -4},
            "delivered_to": {"window_id": "win:0x1a00003", "app_id": null, "title": "Editor"},
            "button": "left", "click_count": 1,
        }));
        round_trip::<super::Fill>(&json!({
            "via": "accessibility:set_text_contents", "actual_dispatch": "background",
            "value": "hello",
        }));
        round_trip::<super::MouseUp>(&json!({
            "via": "xtest", "actual_dispatch": "foreground", "at": {"x": 1, "y": 2},
            "focus_changed": {"from": null, "to": {"window_id": "win:0x2", "app_id": "app:7", "title": ""}},
            "buttons_held": [],
        }));
    }

    #[test]
    fn paste_sends_its_nulls() {
        round_trip::<super::Paste>(&json!({
            "pasted": true, "verified": null, "value": null, "read_by_app": true,
            "clipboard_restored": true, "clipboard_changed_meanwhile": false,
            "via": "clipboard+xtest", "actual_dispatch": "foreground",
            "delivered_to": {"window_id": "win:0x1a00003", "app_id": "app:42", "title": "gedit"},
            "focus_changed": null,
        }));
    }

    #[test]
    fn screenshot_keeps_float_timings() {
        round_trip::<super::Screenshot>(&json!({
            "mime": "image/png", "width": 640, "height": 400, "scale": 0.5,
            "coordinate_space": "screen",
            "region": {"x": 0, "y": 0, "width": 1280, "height": 800},
            "captured_via": "mit-shm", "timing": {"grab_ms": 1.234, "encode_ms": 8.0},
            "data": "iVBORw0KGgo=", "elapsed_ms": 12,
        }));
    }

    #[test]
    fn get_text_window_and_wait() {
        round_trip::<super::GetText>(&json!({
            "text": "llo", "length": 11, "caret": 3, "selection": [1, 4], "offset": 2,
            "total_chars": 11, "truncated": true, "next_offset": 5,
        }));
        round_trip::<super::Window>(&json!({
            "window_id": "win:0x1a00003", "operation": "close", "closed": true, "window": null,
            "via": "ewmh", "actual_dispatch": "foreground",
        }));
        round_trip::<super::Wait>(&json!({"waited_ms": 5}));
        round_trip::<super::Wait>(&json!({
            "until": "window_opens", "query": "save as", "happened": true, "waited_ms": 230,
        }));
    }

    #[test]
    fn snapshot_flattens_the_outline() {
        round_trip::<super::Snapshot>(&json!({
            "snapshot_id": "s3", "mode": "incremental", "snapshot": "+ button \"OK\" [e4]",
            "ref_count": 1, "lines": 1, "added": 1, "updated": 0, "unchanged": 12,
            "truncated": false, "token_estimate": 6, "elapsed_ms": 41,
        }));
    }
}
