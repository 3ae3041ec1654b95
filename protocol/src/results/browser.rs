//! Typed results of the `browser` tool's actions, one item per action in the contract's
//! order, named as its params struct (`browser.tab_new` -> [`TabNew`]), and the parts they
//! share. The pipeline's own fields (`navigated_to`, `opened_tabs`, `downloads`,
//! `navigation_blocked`) are not here: another struct adds them to every browser result.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Number, Value};

use super::Outline;

// Parts the results share.

/// A point in CSS viewport pixels.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Point {
    /// CSS pixels from the viewport's left edge.
    pub x: f64,
    /// CSS pixels from the viewport's top edge.
    pub y: f64,
}

/// A box in whole CSS viewport pixels (rounded).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Rect {
    /// Left edge; negative when left of the viewport.
    pub x: i64,
    /// Top edge; negative when above the viewport.
    pub y: i64,
    /// Width.
    pub width: i64,
    /// Height.
    pub height: i64,
}

/// A JavaScript dialog the page opened (alert, confirm, prompt, beforeunload).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct JsDialog {
    /// `alert`, `confirm`, `prompt` or `beforeunload`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The text the dialog shows.
    pub message: String,
    /// A prompt's pre-filled answer; absent when it has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_prompt: Option<String>,
}

/// A tab's mark: a result to show the user or a tab to hand over; it outlives the session.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Mark {
    /// `deliverable` or `handoff`.
    pub kind: String,
    /// Why the tab is marked; null without a note.
    pub note: Option<String>,
    /// When it was marked, in seconds since the Unix epoch.
    pub marked_at: u64,
}

/// One tab of a browser.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct TabInfo {
    /// The tab's stable id (pass as `tab_id`).
    pub tab_id: String,
    /// Its position among the browser's tabs, from 0.
    pub tab_index: usize,
    /// The tab's URL.
    pub url: String,
    /// The tab's title.
    pub title: String,
    /// The tab's mark; absent when it has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<Mark>,
    /// The code sessions live on it (`cdp_session`); absent when none is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub code_sessions: Vec<CodeSession>,
    /// The lane (party) whose tab it is, shown to admins only; absent for the desktop's own
    /// tabs and for a shared browser's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
}

/// A code client's DevTools endpoint on a tab, as tab_list and tab_get show it.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct CodeSession {
    /// Its id (for `cdp_revoke`).
    pub cdp_id: String,
    /// Whether a client is connected now.
    pub connected: bool,
    /// When it ends at the latest (UTC, RFC 3339).
    pub expires_at: String,
    /// How the op log and the view page name it as an actor: `cdp:<cdp_id>`.
    pub by: String,
}

/// One tab in `tab_list`.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct ListedTab {
    /// The tab.
    #[serde(flatten)]
    pub tab: TabInfo,
    /// Whether it is the session's tab.
    pub selected: bool,
}

/// A download of the browser.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Download {
    /// Where the file is (under the state dir's `downloads/`).
    pub path: String,
    /// The URL it came from.
    pub url: String,
    /// Bytes received so far.
    pub bytes: u64,
    /// `in_progress`, `completed` or `canceled`.
    pub state: String,
    /// The tab it started in; null when unknown.
    pub tab_id: Option<String>,
    /// Why the daemon canceled it (`over_quota`); absent when it did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// How a capture was cut short because the page was larger than the image limit.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct ImageCut {
    /// Why: `page larger than the image limit`.
    pub reason: String,
    /// The longest side allowed, in image pixels.
    pub limit_px: u32,
    /// The most image pixels allowed in all.
    pub limit_pixels: u64,
    /// The width of what was to be captured, in CSS pixels.
    pub page_width: f64,
    /// The height of what was to be captured, in CSS pixels.
    pub page_height: f64,
}

/// A captured image, inline.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Image {
    /// `image/png`, `image/jpeg` or `image/webp`.
    pub mime: String,
    /// Width in image pixels.
    pub width: u32,
    /// Height in image pixels.
    pub height: u32,
    /// Image pixels per CSS pixel.
    pub scale: f64,
    /// What the image's pixels map to: `viewport`.
    pub coordinate_space: String,
    /// Whether it shows the whole page rather than the viewport.
    pub full_page: bool,
    /// Size of the decoded image in bytes.
    pub bytes: usize,
    /// The image, base64 (left out where it went as an MCP image block).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub data: String,
    /// The page was cut to the image limit; absent when it was captured whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<ImageCut>,
    /// Boxes painted over because they showed a secret's value; absent when none did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redacted: Option<u64>,
}

/// A control tagged with its ref on an annotated screenshot.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Label {
    /// The ref drawn on the image (`eN`).
    pub r#ref: String,
    /// Its accessibility role.
    pub role: String,
    /// Its accessible name.
    pub name: String,
    /// Its box, as the outline's `@x,y wxh` says it.
    #[serde(rename = "box")]
    pub bounds: Rect,
}

/// A scroll position in CSS pixels, as the page reports it (whole or fractional).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct ScrollPosition {
    /// Horizontal offset (`scrollLeft`).
    pub x: Number,
    /// Vertical offset (`scrollTop`).
    pub y: Number,
}

/// A file the daemon wrote.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Artifact {
    /// Where it is (under the state dir's `downloads/`).
    pub path: String,
    /// Its media type, e.g. `application/pdf`.
    pub mime: String,
    /// Its size in bytes.
    pub bytes: usize,
}

// Acting.

/// Where a tab arrived after loading: its URL and title.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Arrived {
    /// The final URL.
    pub url: String,
    /// The page's title.
    pub title: String,
    /// A dialog the page opened; absent when none is open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialog: Option<JsDialog>,
}

/// `browser.navigate`: where the tab arrived.
pub type Navigate = Arrived;

/// Where a pointer action landed and on what.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Pointed {
    /// CSS viewport pixels from the left.
    pub x: f64,
    /// CSS viewport pixels from the top.
    pub y: f64,
    /// What was aimed at (`tag#id.class "text"`); null for a viewport point.
    pub element: Option<String>,
    /// The button pressed; absent for a hover.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub button: Option<String>,
    /// Presses sent; absent for a hover.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub click_count: Option<u32>,
    /// A dialog the click opened; absent when none did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialog: Option<JsDialog>,
    /// Why the page's receipt of the press could not be checked; absent when the page heard
    /// it (a press the page did not hear fails, ACTION_FAILED).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unchecked: Option<String>,
}

/// `browser.click`: where the click landed and on what.
pub type Click = Pointed;

/// `browser.double_click`: where the clicks landed and on what.
pub type DoubleClick = Pointed;

/// `browser.hover`: where the pointer went and over what.
pub type Hover = Pointed;

/// `browser.focus`: what really has focus.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Focus {
    /// Whether the element named has focus now.
    pub focused: bool,
    /// What has focus (`tag#id.class "text"`).
    pub element: String,
}

/// What typing left in the field.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Typed {
    /// The text typed.
    pub typed: String,
    /// `insert` (one text insertion) or `keys` (key events per character).
    pub mode: String,
    /// The field's value (a contenteditable's text) read back; null when nothing could be
    /// read (no text field, no focus, a dialog opened).
    pub value: Option<String>,
    /// Whether the field holds the text where it was typed.
    pub verified: bool,
    /// Characters sent as keys; only in mode `keys`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keys_sent: Option<usize>,
    /// Why it is not verified; absent when it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// A dialog the typing opened; absent when none did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialog: Option<JsDialog>,
}

/// `browser.type`: the text typed and what the field reads.
pub type Type = Typed;

/// What a fill or select left in the field, read back.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Filled {
    /// The value read back: a string, or a list of option values for a multiple select.
    pub value: Value,
    /// The field's kind: an input type, `textarea`, `contenteditable`, `select` or
    /// `select-multiple`.
    pub kind: String,
    /// How it went in: `insert_text`, `native_setter` or `options`.
    pub via: String,
    /// Always true: a value that does not read back is an error.
    pub verified: bool,
}

/// `browser.fill`: the value the field reads back.
pub type Fill = Filled;

/// `browser.set_value`: the value the field reads back.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct SetValue {
    /// The field's value (a select's option value, a contenteditable's text).
    pub value: String,
}

/// `browser.select`: the option value(s) the select reads back.
pub type Select = Filled;

/// The verified state of a checkbox or radio button.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Checked {
    /// Whether it is checked now.
    pub checked: bool,
    /// Always true: a state that does not read back is an error.
    pub verified: bool,
}

/// `browser.check`: the verified final state.
pub type Check = Checked;

/// `browser.uncheck`: the verified final state.
pub type Uncheck = Checked;

/// `browser.paste`: how the paste landed.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Paste {
    /// `paste_event` (a paste event the page or browser handled), `insert_html` or
    /// `insert_text` (editing fallbacks).
    pub via: String,
    /// Whether it was a real paste from the system clipboard (else a synthetic event).
    pub trusted: bool,
    /// Trusted: whether the page consumed the paste event itself; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consumed: Option<bool>,
    /// The format pasted: `text`, `html` or `markdown`.
    pub format: String,
    /// Trusted: whether the browser read the daemon's clipboard (false: another display's);
    /// absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_from_clipboard: Option<bool>,
    /// Trusted: whether the clipboard's earlier content was put back; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clipboard_restored: Option<bool>,
    /// Trusted: whether someone else changed the clipboard meanwhile (it was then left
    /// alone); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clipboard_changed_meanwhile: Option<bool>,
}

/// `browser.select_text`: the offsets selected.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct SelectText {
    /// Matches found: always 1 (none or several is an error).
    pub count: u64,
    /// Where the selection starts, in UTF-16 units of the element's text.
    pub start: u64,
    /// Where it ends (equal to `start` for a caret).
    pub end: u64,
    /// The text selected; empty for a caret.
    pub selected: String,
}

/// `browser.secondary_action`: never succeeds (the DOM has no named element actions; the
/// call answers UNSUPPORTED).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct SecondaryAction {}

/// `browser.press`: the chord pressed.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Press {
    /// The chord as given.
    pub pressed: String,
    /// CDP modifier bits of keys held down with keydown (1 Alt, 2 Ctrl, 4 Meta, 8 Shift).
    pub held_modifiers: u32,
    /// A dialog the key opened; absent when none did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialog: Option<JsDialog>,
    /// Why the page's receipt of the keys could not be checked; absent when the page heard
    /// them (keys the page did not hear fail, ACTION_FAILED).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unchecked: Option<String>,
}

/// `browser.keyboard_type`: the text typed and what the focused field reads.
pub type KeyboardType = Typed;

/// The keys a session holds down on a tab.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct HeldKeys {
    /// The key pressed or released.
    pub key: String,
    /// The keys still held on this tab, in the order they went down.
    pub held: Vec<String>,
}

/// `browser.keydown`: the keys held.
pub type Keydown = HeldKeys;

/// `browser.keyup`: the keys still held.
pub type Keyup = HeldKeys;

/// `browser.scroll`: what scrolled, and its position before and after.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Scroll {
    /// `page`, or the scrolling element (`tag#id.class "text"`).
    pub scrolled: String,
    /// The position before.
    pub before: ScrollPosition,
    /// The position after; equal to `before` when there was nowhere to go.
    pub after: ScrollPosition,
    /// The distance asked for, in CSS pixels.
    pub distance: Number,
}

/// `browser.scroll_into_view`: the element's box once scrolled.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct ScrollIntoView {
    /// The element's box in the viewport.
    #[serde(rename = "box")]
    pub bounds: Rect,
}

/// `browser.drag`: where the drag started and where it dropped.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Drag {
    /// Where the button went down.
    pub from: Point,
    /// Where it was released.
    pub to: Point,
}

/// `browser.upload`: the files set.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Upload {
    /// Absolute paths of the files the input now holds.
    pub files: Vec<String>,
}

/// `browser.wait`: what was waited for and how long.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Wait {
    /// `page ready`, or the state the element reached (`visible`, `hidden`, `attached`,
    /// `detached`); absent for a plain pause (duration_ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waited_for: Option<String>,
    /// Milliseconds waited.
    pub waited_ms: u64,
}

/// `browser.dialog`: the dialog answered.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Dialog {
    /// The dialog that was open.
    pub dialog: JsDialog,
    /// Whether it was accepted (OK) rather than dismissed (Cancel).
    pub accepted: bool,
}

/// `browser.go_back`: where the tab arrived.
pub type GoBack = Arrived;

/// `browser.go_forward`: where the tab arrived.
pub type GoForward = Arrived;

/// `browser.reload`: where the tab arrived.
pub type Reload = Arrived;

// Tabs.

/// `browser.tab_new`: the tab opened, now the session's.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct TabNew {
    /// The new tab's id.
    pub tab_id: String,
    /// Its URL once loaded (`about:blank` without url).
    pub url: String,
    /// Its title.
    pub title: String,
    /// Whether it was opened in the foreground.
    pub visible: bool,
}

/// `browser.tab_select`: the tab brought to the front, now the session's.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct TabSelect {
    /// The tab's id.
    pub tab_id: String,
    /// Its URL.
    pub url: String,
    /// Its title.
    pub title: String,
    /// Always true.
    pub selected: bool,
}

/// `browser.tab_get`: the tab described, not selected.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct TabGet {
    /// The tab's id.
    pub tab_id: String,
    /// Its URL.
    pub url: String,
    /// Its title.
    pub title: String,
    /// The JavaScript dialog open on it; null when none.
    pub dialog: Option<JsDialog>,
    /// Its mark; null when it has none.
    pub mark: Option<Mark>,
    /// The session's latest snapshot of it; null when there is none.
    pub latest_snapshot: Option<String>,
    /// The code sessions live on it; absent when none is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub code_sessions: Vec<CodeSession>,
}

/// `browser.tab_close`: the tab closed.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct TabClose {
    /// The tab as it was before closing (without its mark).
    pub closed: TabInfo,
}

/// `browser.tab_mark`: the tab's mark now.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct TabMark {
    /// The tab's id.
    pub tab_id: String,
    /// The mark set; null when it was cleared.
    pub mark: Option<Mark>,
}

/// `browser.cdp_session`: a DevTools endpoint on the tab for a code client.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct CdpSession {
    /// The code session's id (for `cdp_revoke`; `cdp:<cdp_id>` names it as an actor).
    pub cdp_id: String,
    /// `ws://<daemon host:port>/cdp/<secret>`: pass it to Playwright's `connect_over_cdp` or
    /// as Puppeteer's `browserWSEndpoint`; one connection at a time.
    pub url: String,
    /// The tab it holds.
    pub tab_id: String,
    /// When it ends at the latest (UTC, RFC 3339).
    pub expires_at: String,
}

/// `browser.storage_state`: the cookies and localStorage saved or loaded.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct StorageState {
    /// The storageState file written (in `files/`) or read.
    pub path: String,
    /// Whether it was loaded into the session's context (else saved from it).
    pub loaded: bool,
    /// Cookies saved or loaded.
    pub cookies: usize,
    /// Origins whose localStorage was saved or loaded.
    pub origins: usize,
}

/// `browser.cdp_revoke`: the code session ended.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct CdpRevoke {
    /// The code session's id.
    pub cdp_id: String,
    /// True: it was live and has ended.
    pub revoked: bool,
}

// Observing.

/// `browser.snapshot`: a page of the page's ref-annotated outline.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Snapshot {
    /// The outline page.
    #[serde(flatten)]
    pub outline: Outline,
    /// The page's URL; absent when continuing with a cursor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The page's title; absent when continuing with a cursor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The JavaScript dialog open on the page; absent when none is (or with a cursor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialog: Option<JsDialog>,
}

/// `browser.get_content`: a range of the visible text (or a control's value).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct GetContent {
    /// The text of the range.
    pub text: String,
    /// Where the range starts, in Unicode characters.
    pub offset: u64,
    /// The whole text's length in Unicode characters.
    pub total_chars: u64,
    /// Whether text follows the range.
    pub truncated: bool,
    /// Where the next range starts; absent at the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<u64>,
    /// The daemon's limit in characters, when it cut the range short of what was asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_chars: Option<usize>,
}

/// `browser.get_html`: the HTML of the page or an element.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct GetHtml {
    /// The outer HTML, cut to the daemon's text limit.
    pub html: String,
    /// True when it was cut; absent when whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    /// The whole HTML's length in UTF-16 units; only when cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_chars: Option<u64>,
}

/// `browser.get_url`: the tab's URL.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct GetUrl {
    /// The current URL.
    pub url: String,
    /// The JavaScript dialog open on the page; absent when none is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialog: Option<JsDialog>,
}

/// `browser.get_title`: the tab's title.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct GetTitle {
    /// The current title.
    pub title: String,
    /// The JavaScript dialog open on the page; absent when none is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialog: Option<JsDialog>,
}

/// `browser.screenshot`: the image with its size and scale.
pub type Screenshot = Image;

/// `browser.screenshot_annotate`: the viewport with ref labels over its controls.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct ScreenshotAnnotate {
    /// The annotated image (PNG).
    #[serde(flatten)]
    pub image: Image,
    /// The controls tagged, in document order.
    pub labels: Vec<Label>,
    /// The full snapshot recorded for the labels; its refs work at once.
    pub snapshot_id: String,
    /// Controls left untagged past the label limit; absent when none were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels_omitted: Option<usize>,
    /// The label limit; only with `labels_omitted`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels_limit: Option<usize>,
    /// The JavaScript dialog open on the page; absent when none is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialog: Option<JsDialog>,
}

/// `browser.state_and_screenshot`: a snapshot and a screenshot together.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct StateAndScreenshot {
    /// The snapshot.
    pub snapshot: Snapshot,
    /// The screenshot.
    pub screenshot: Image,
    /// Whether the page did not navigate between the two.
    pub consistent: bool,
}

/// `browser.evaluate`: the script's JSON value, cut to the daemon's text limit.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Evaluate {
    /// The value (null for undefined); when cut, a string: the first characters of the
    /// string, or of the JSON text with `as_json_text`.
    pub value: Value,
    /// True when the value was cut; absent when whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    /// The whole string's or JSON text's length in UTF-16 units; only when cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_chars: Option<u64>,
    /// True when `value` is the cut JSON text of a non-string value; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_json_text: Option<bool>,
}

/// `browser.pdf`: the PDF written as an artifact.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Pdf {
    /// The PDF file.
    pub artifact: Artifact,
    /// Older files removed to stay under the downloads quota; absent when none were.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed_for_quota: Vec<String>,
}

/// `browser.tab_list`: the browser's tabs.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct TabList {
    /// The browser listed.
    pub browser_id: String,
    /// Its tabs in tab_index order.
    pub tabs: Vec<ListedTab>,
}

/// `browser.downloads`: the browser's recent downloads.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Downloads {
    /// The browser asked.
    pub browser_id: String,
    /// Its downloads the daemon still remembers, oldest first.
    pub downloads: Vec<Download>,
}

/// `browser.probe`: what works on this tab.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Probe {
    /// Whether DevTools commands and page scripts run.
    pub cdp: bool,
    /// Whether input can be sent (the same check as `cdp`).
    pub input: bool,
    /// Whether the accessibility tree can be read.
    pub accessibility: bool,
    /// Whether layout metrics, which screenshots need, can be read.
    pub screenshot: bool,
    /// The JavaScript dialog open on the page; null when none.
    pub dialog: Option<JsDialog>,
    /// How long the probe took, in milliseconds.
    pub probe_ms: u64,
}

#[cfg(test)]
mod tests {
    use serde::de::DeserializeOwned;
    use serde_json::json;

    use super::*;

    /// `v`, read into `T` and written back, is `v` again.
    fn round_trip<T: Serialize + DeserializeOwned>(v: &Value) {
        let typed = T::deserialize(v).expect("reads");
        assert_eq!(&serde_json::to_value(&typed).expect("writes"), v);
    }

    #[test]
    fn pointer_results_round_trip() {
        // A click by ref that opened a dialog (pointer.rs, `pointer_at`).
        round_trip::<Click>(&json!({"x": 120.5, "y": 40.0, "element": "button#go \"Go\"",
            "button": "left", "click_count": 1,
            "dialog": {"type": "confirm", "message": "Sure?"}}));
        // A hover at a viewport point.
        round_trip::<Hover>(&json!({"x": 10.0, "y": 20.0, "element": null}));
        // The page's scroll positions, whole or fractional as the page says them.
        round_trip::<Scroll>(&json!({"scrolled": "page", "before": {"x": 0, "y": 0},
            "after": {"x": 0, "y": 812.5}, "distance": 812.5}));
    }

    #[test]
    fn typing_and_paste_round_trip() {
        round_trip::<KeyboardType>(&json!({"typed": "hi", "mode": "keys", "value": null,
            "verified": false, "keys_sent": 2,
            "why": "nothing has focus, so nothing is read back"}));
        round_trip::<Paste>(&json!({"via": "paste_event", "trusted": true, "consumed": false,
            "format": "text", "read_from_clipboard": true, "clipboard_restored": true,
            "clipboard_changed_meanwhile": false}));
        round_trip::<Paste>(&json!({"via": "insert_text", "trusted": false, "format": "html"}));
        round_trip::<Wait>(&json!({"waited_ms": 250}));
    }

    #[test]
    fn snapshots_and_screenshots_round_trip() {
        round_trip::<Snapshot>(&json!({"snapshot_id": "s3", "mode": "incremental",
            "snapshot": "- button \"Go\" [ref=e4]", "ref_count": 1, "lines": 1, "added": 1,
            "updated": 0, "unchanged": 12, "removed_refs": ["e2"], "removed_count": 1,
            "truncated": false, "token_estimate": 7, "url": "https://example.com/",
            "title": "Example"}));
        let image = json!({"mime": "image/png", "width": 800, "height": 16384, "scale": 0.5,
            "coordinate_space": "viewport", "full_page": true, "bytes": 1234, "data": "iVBO",
            "truncated": {"reason": "page larger than the image limit", "limit_px": 16384,
                          "limit_pixels": 67108864_u64, "page_width": 1600.0,
                          "page_height": 90000.0}});
        round_trip::<Screenshot>(&image);
        let mut annotated = image;
        annotated["labels"] = json!([{"ref": "e4", "role": "button", "name": "Go",
            "box": {"x": 10, "y": -3, "width": 60, "height": 24}}]);
        annotated["snapshot_id"] = json!("s4");
        annotated["labels_omitted"] = json!(2);
        annotated["labels_limit"] = json!(300);
        round_trip::<ScreenshotAnnotate>(&annotated);
    }

    #[test]
    fn tabs_and_evaluate_round_trip() {
        round_trip::<TabGet>(&json!({"tab_id": "A1B2C3D4", "url": "about:blank", "title": "",
            "dialog": null, "mark": {"kind": "handoff", "note": null, "marked_at": 1700000000},
            "latest_snapshot": null}));
        round_trip::<TabList>(&json!({"browser_id": "chrome-9222", "tabs": [
            {"tab_id": "A1B2C3D4", "tab_index": 0, "url": "about:blank", "title": "",
             "selected": true}]}));
        round_trip::<Downloads>(&json!({"browser_id": "chrome-9222", "downloads": [
            {"path": "/s/downloads/f.zip", "url": "https://a/f.zip", "bytes": 42,
             "state": "canceled", "tab_id": null, "reason": "over_quota"}]}));
        round_trip::<Evaluate>(&json!({"value": "{\"k\":", "truncated": true,
            "total_chars": 16, "as_json_text": true}));
        round_trip::<Evaluate>(&json!({"value": {"n": 1, "f": 1.5}}));
        round_trip::<SecondaryAction>(&json!({}));
    }
}
