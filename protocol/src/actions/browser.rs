//! Typed params of the `browser` tool's actions, generated from the contract table
//! (`protocol/src/contract/browser.rs`) by `cargo xtask codegen`; do not edit.
//!
//! Act on and read Chromium tabs. Take a snapshot first; refs eN from it name elements. x,y are CSS
//! viewport pixels, nx,ny fractions 0..1 of the viewport, to_x, to_y, to_nx, to_ny a drop point.
//! Every action also accepts browser_id (from list_browsers), tab_id (from tab_list; legacy:
//! tab_index) and snapshot_id (the refs' snapshot); default: the session's selection and latest
//! snapshot. type, fill and keyboard_type take secret or secret_totp (a list_secrets name).

// The contract's docs quote URLs as examples, not as links.
#![allow(rustdoc::bare_urls)]

use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use super::{keys, Element, Missing, Params, Region};

/// A point of this tool: `x,y` (f64) or `nx,ny`.
pub type Point = super::Point<f64>;

/// An element (Element) or a point.
pub type Target = super::Target<Element, f64>;

/// One of `left`, `middle`, `right`.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Button {
    #[serde(rename = "left")]
    Left,
    #[serde(rename = "middle")]
    Middle,
    #[serde(rename = "right")]
    Right,
}

impl Button {
    /// The word the wire carries.
    pub fn as_str(self) -> &'static str {
        match self {
            Button::Left => "left",
            Button::Middle => "middle",
            Button::Right => "right",
        }
    }
}

/// One of `up`, `down`, `left`, `right`.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    #[serde(rename = "up")]
    Up,
    #[serde(rename = "down")]
    Down,
    #[serde(rename = "left")]
    Left,
    #[serde(rename = "right")]
    Right,
}

impl Direction {
    /// The word the wire carries.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Down => "down",
            Direction::Left => "left",
            Direction::Right => "right",
        }
    }
}

/// One of `png`, `jpeg`, `webp`, `text`, `html`, `markdown`.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    #[serde(rename = "png")]
    Png,
    #[serde(rename = "jpeg")]
    Jpeg,
    #[serde(rename = "webp")]
    Webp,
    #[serde(rename = "text")]
    Text,
    #[serde(rename = "html")]
    Html,
    #[serde(rename = "markdown")]
    Markdown,
}

impl Format {
    /// The word the wire carries.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Png => "png",
            Format::Jpeg => "jpeg",
            Format::Webp => "webp",
            Format::Text => "text",
            Format::Html => "html",
            Format::Markdown => "markdown",
        }
    }
}

/// One of `deliverable`, `handoff`.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    #[serde(rename = "deliverable")]
    Deliverable,
    #[serde(rename = "handoff")]
    Handoff,
}

impl Kind {
    /// The word the wire carries.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Deliverable => "deliverable",
            Kind::Handoff => "handoff",
        }
    }
}

/// One of `insert`, `keys`.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    #[serde(rename = "insert")]
    Insert,
    #[serde(rename = "keys")]
    Keys,
}

impl Mode {
    /// The word the wire carries.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Insert => "insert",
            Mode::Keys => "keys",
        }
    }
}

/// One of `select`, `cursor_before`, `cursor_after`.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SelectionType {
    #[serde(rename = "select")]
    Select,
    #[serde(rename = "cursor_before")]
    CursorBefore,
    #[serde(rename = "cursor_after")]
    CursorAfter,
}

impl SelectionType {
    /// The word the wire carries.
    pub fn as_str(self) -> &'static str {
        match self {
            SelectionType::Select => "select",
            SelectionType::CursorBefore => "cursor_before",
            SelectionType::CursorAfter => "cursor_after",
        }
    }
}

/// One of `visible`, `hidden`, `attached`, `detached`.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum State {
    #[serde(rename = "visible")]
    Visible,
    #[serde(rename = "hidden")]
    Hidden,
    #[serde(rename = "attached")]
    Attached,
    #[serde(rename = "detached")]
    Detached,
}

impl State {
    /// The word the wire carries.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Visible => "visible",
            State::Hidden => "hidden",
            State::Attached => "attached",
            State::Detached => "detached",
        }
    }
}

/// What every `browser` action takes besides its own params: `browser_id`, `tab_id`, `tab_index`, `snapshot_id`.
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq)]
pub struct Common {
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<u32>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

/// What the daemon reads of any `browser` action's params before its handler runs.
pub trait Shared {
    fn common(&self) -> &Common;
    /// The ref the action's locator names, if it names one.
    fn named_ref(&self) -> Option<&str>;
}

/// `browser.navigate`: open url in the tab and wait until it is interactive; returns the final url.
/// Mutating (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Navigate", into = "wire::Navigate")]
pub struct Navigate {
    /// **Required.** the address to open, e.g. https://example.com/ (a bare host means http://).
    pub url: String,
    /// readiness deadline in ms for a state or an element. Range 1..=60000. Default 30000.
    pub timeout: u32,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Navigate {
    /// The required params; every other one at the table's default.
    pub fn new(url: impl Into<String>) -> Self {
        Navigate { url: url.into(), timeout: 30000, common: Common::default() }
    }
}

impl Params for Navigate {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "navigate";
    type Result = crate::results::browser::Navigate;
}

impl Shared for Navigate {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.click`: click an element or a viewport point; returns what was clicked and where (a
/// file input is NOT_EDITABLE: use upload; a file chooser the page opens shows in file_chooser).
/// Target: ref|selector or x,y / nx,ny. Mutating (actor role); a capture follows unless the call
/// says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Click", into = "wire::Click")]
pub struct Click {
    /// Target: ref|selector or x,y / nx,ny.
    pub target: Target,
    /// mouse button. One of `left`, `middle`, `right`. Default `left`.
    pub button: Button,
    /// 1 single, 2 double, 3 triple click. Range 1..=3. Default 1.
    pub click_count: u32,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Click {
    /// The required params; every other one at the table's default.
    pub fn new(target: impl Into<Target>) -> Self {
        Click {
            target: target.into(),
            button: Button::Left,
            click_count: 1,
            common: Common::default(),
        }
    }
}

impl Params for Click {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "click";
    type Result = crate::results::browser::Click;
}

impl Shared for Click {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.target.element().and_then(Element::as_ref_str)
    }
}

/// `browser.double_click`: double-click an element or a viewport point; returns what was clicked
/// and where. Target: ref|selector or x,y / nx,ny. Mutating (actor role); a capture follows unless
/// the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::DoubleClick", into = "wire::DoubleClick")]
pub struct DoubleClick {
    /// Target: ref|selector or x,y / nx,ny.
    pub target: Target,
    /// mouse button. One of `left`, `middle`, `right`. Default `left`.
    pub button: Button,
    /// always 2 for double_click; omit it. Range 1..=3. Default 2.
    pub click_count: u32,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl DoubleClick {
    /// The required params; every other one at the table's default.
    pub fn new(target: impl Into<Target>) -> Self {
        DoubleClick {
            target: target.into(),
            button: Button::Left,
            click_count: 2,
            common: Common::default(),
        }
    }
}

impl Params for DoubleClick {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "double_click";
    type Result = crate::results::browser::DoubleClick;
}

impl Shared for DoubleClick {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.target.element().and_then(Element::as_ref_str)
    }
}

/// `browser.hover`: move the mouse over an element or a viewport point; returns the point. Target:
/// ref|selector or x,y / nx,ny. Mutating (actor role); a capture follows unless the call says
/// capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Hover", into = "wire::Hover")]
pub struct Hover {
    /// Target: ref|selector or x,y / nx,ny.
    pub target: Target,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Hover {
    /// The required params; every other one at the table's default.
    pub fn new(target: impl Into<Target>) -> Self {
        Hover { target: target.into(), common: Common::default() }
    }
}

impl Params for Hover {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "hover";
    type Result = crate::results::browser::Hover;
}

impl Shared for Hover {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.target.element().and_then(Element::as_ref_str)
    }
}

/// `browser.focus`: focus an element; returns the element that really has focus. Target:
/// ref|selector. Mutating (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Focus", into = "wire::Focus")]
pub struct Focus {
    /// Target: ref|selector.
    pub element: Element,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Focus {
    /// The required params; every other one at the table's default.
    pub fn new(element: impl Into<Element>) -> Self {
        Focus { element: element.into(), common: Common::default() }
    }
}

impl Params for Focus {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "focus";
    type Result = crate::results::browser::Focus;
}

impl Shared for Focus {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.element.as_ref_str()
    }
}

/// `browser.type`: type text at the caret of an element (mode insert, or keys: key events per
/// character); read back; returns the text typed, the value and verified. Target: ref|selector.
/// Mutating (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Type", into = "wire::Type")]
pub struct Type {
    /// Target: ref|selector.
    pub element: Element,
    /// the text, exactly as it should appear. Not empty.
    pub text: Option<String>,
    /// a secret's name (list_secrets) to type instead of text (never shown). Not empty.
    pub secret: Option<String>,
    /// a secret's name whose current TOTP code to type (its seed's). Not empty.
    pub secret_totp: Option<String>,
    /// insert: one insertText; keys: a key event per character (for pages that listen to keys:
    /// terminals, editors, games: keydown/keypress/input/keyup as a US keyboard sends them, with
    /// key, code, keyCode and shift; characters beyond the US layout as keydown/keyup whose key and
    /// text are the character; insert is fast and sends no key events). One of `insert`, `keys`.
    /// Default `insert`.
    pub mode: Mode,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Type {
    /// The required params; every other one at the table's default.
    pub fn new(element: impl Into<Element>) -> Self {
        Type {
            element: element.into(),
            text: None,
            secret: None,
            secret_totp: None,
            mode: Mode::Insert,
            common: Common::default(),
        }
    }
}

impl Params for Type {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "type";
    type Result = crate::results::browser::Type;
}

impl Shared for Type {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.element.as_ref_str()
    }
}

/// `browser.fill`: replace the value of any field (text-like inputs, textarea, contenteditable,
/// number, date, time, datetime-local, month, week, color, range, \<select\> by value or label,
/// values for a multiple select) and read it back; returns the value; NOT_EDITABLE names what fits
/// instead (upload for a file input, check for a checkbox). Target: ref|selector. Mutating (actor
/// role); a capture follows unless the call says capture false. `text` and `values` are exclusive.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Fill", into = "wire::Fill")]
pub struct Fill {
    /// Target: ref|selector.
    pub element: Element,
    /// the new content ("" clears the field): text for text-like fields and contenteditable, the
    /// ISO value for date (2012-07-28), time (13:45), datetime-local (2012-07-28T13:45), month
    /// (2012-07), week (2012-W30), #rrggbb for color, a number for number and range, an option's
    /// value or label for a \<select\>; exclusive with values.
    pub text: Option<String>,
    /// for a \<select multiple\>: every option to select (each by value, else by label; the rest
    /// are deselected).
    pub values: Option<Vec<String>>,
    /// a secret's name (list_secrets) to type instead of text (never shown). Not empty.
    pub secret: Option<String>,
    /// a secret's name whose current TOTP code to type (its seed's). Not empty.
    pub secret_totp: Option<String>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Fill {
    /// The required params; every other one at the table's default.
    pub fn new(element: impl Into<Element>) -> Self {
        Fill {
            element: element.into(),
            text: None,
            values: None,
            secret: None,
            secret_totp: None,
            common: Common::default(),
        }
    }
}

impl Params for Fill {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "fill";
    type Result = crate::results::browser::Fill;
}

impl Shared for Fill {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.element.as_ref_str()
    }
}

/// `browser.set_value`: set a field's value (the native setter, then input/change); returns the
/// value. Target: ref|selector. Mutating (actor role); a capture follows unless the call says
/// capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::SetValue", into = "wire::SetValue")]
pub struct SetValue {
    /// Target: ref|selector.
    pub element: Element,
    /// **Required.** the value to set.
    pub value: String,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl SetValue {
    /// The required params; every other one at the table's default.
    pub fn new(element: impl Into<Element>, value: impl Into<String>) -> Self {
        SetValue { element: element.into(), value: value.into(), common: Common::default() }
    }
}

impl Params for SetValue {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "set_value";
    type Result = crate::results::browser::SetValue;
}

impl Shared for SetValue {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.element.as_ref_str()
    }
}

/// `browser.select`: choose the option with this value, else this label (in a \<select\>; it must
/// exist; option lines show value="..." where it differs from the label; or several with values in
/// a multiple one); returns the value. Target: ref|selector. Mutating (actor role); a capture
/// follows unless the call says capture false. `value` and `values` are exclusive.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Select", into = "wire::Select")]
pub struct Select {
    /// Target: ref|selector.
    pub element: Element,
    /// the option's value, else its label (its visible text); exclusive with values.
    pub value: Option<String>,
    /// for a \<select multiple\>: every option to select (each by value, else by label; the rest
    /// are deselected).
    pub values: Option<Vec<String>>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Select {
    /// The required params; every other one at the table's default.
    pub fn new(element: impl Into<Element>) -> Self {
        Select { element: element.into(), value: None, values: None, common: Common::default() }
    }
}

impl Params for Select {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "select";
    type Result = crate::results::browser::Select;
}

impl Shared for Select {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.element.as_ref_str()
    }
}

/// `browser.check`: check a checkbox or radio button; returns the verified final state. Target:
/// ref|selector. Mutating (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Check", into = "wire::Check")]
pub struct Check {
    /// Target: ref|selector.
    pub element: Element,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Check {
    /// The required params; every other one at the table's default.
    pub fn new(element: impl Into<Element>) -> Self {
        Check { element: element.into(), common: Common::default() }
    }
}

impl Params for Check {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "check";
    type Result = crate::results::browser::Check;
}

impl Shared for Check {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.element.as_ref_str()
    }
}

/// `browser.uncheck`: uncheck a checkbox; returns the verified final state. Target: ref|selector.
/// Mutating (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Uncheck", into = "wire::Uncheck")]
pub struct Uncheck {
    /// Target: ref|selector.
    pub element: Element,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Uncheck {
    /// The required params; every other one at the table's default.
    pub fn new(element: impl Into<Element>) -> Self {
        Uncheck { element: element.into(), common: Common::default() }
    }
}

impl Params for Uncheck {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "uncheck";
    type Result = crate::results::browser::Uncheck;
}

impl Shared for Uncheck {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.element.as_ref_str()
    }
}

/// `browser.paste`: paste text into an element or the focus (a real paste event); returns how it
/// landed. Optional target: ref|selector. Mutating (actor role); a capture follows unless the call
/// says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Paste", into = "wire::Paste")]
pub struct Paste {
    /// Optional target: ref|selector.
    pub element: Option<Element>,
    /// **Required.** what to paste. Not empty.
    pub text: String,
    /// paste: text, html or markdown (default text); screenshots: png, jpeg or webp (default png).
    /// One of `png`, `jpeg`, `webp`, `text`, `html`, `markdown`. Default `text`.
    pub format: Format,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Paste {
    /// The required params; every other one at the table's default.
    pub fn new(text: impl Into<String>) -> Self {
        Paste { element: None, text: text.into(), format: Format::Text, common: Common::default() }
    }
}

impl Params for Paste {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "paste";
    type Result = crate::results::browser::Paste;
}

impl Shared for Paste {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.element.as_ref().and_then(Element::as_ref_str)
    }
}

/// `browser.select_text`: select the one match of text in an element (or text line) (or put the
/// caret by it); returns the offsets. Target: ref|selector. Mutating (actor role); a capture
/// follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::SelectText", into = "wire::SelectText")]
pub struct SelectText {
    /// Target: ref|selector.
    pub element: Element,
    /// **Required.** the text to find; it must match exactly once. Not empty.
    pub text: String,
    /// text right before the match (to make it unique). Not empty.
    pub prefix: Option<String>,
    /// text right after the match (to make it unique). Not empty.
    pub suffix: Option<String>,
    /// select the match, or place the caret (before/after it). One of `select`, `cursor_before`,
    /// `cursor_after`. Default `select`.
    pub selection_type: SelectionType,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl SelectText {
    /// The required params; every other one at the table's default.
    pub fn new(element: impl Into<Element>, text: impl Into<String>) -> Self {
        SelectText {
            element: element.into(),
            text: text.into(),
            prefix: None,
            suffix: None,
            selection_type: SelectionType::Select,
            common: Common::default(),
        }
    }
}

impl Params for SelectText {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "select_text";
    type Result = crate::results::browser::SelectText;
}

impl Shared for SelectText {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.element.as_ref_str()
    }
}

/// `browser.secondary_action`: the DOM has no named element actions: UNSUPPORTED with the reason.
/// Target: ref|selector. Mutating (actor role); a capture follows unless the call says capture
/// false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::SecondaryAction", into = "wire::SecondaryAction")]
pub struct SecondaryAction {
    /// Target: ref|selector.
    pub element: Element,
    /// **Required.** the action's name; the DOM has no such actions, so this is UNSUPPORTED. Not
    /// empty.
    pub name: String,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl SecondaryAction {
    /// The required params; every other one at the table's default.
    pub fn new(element: impl Into<Element>, name: impl Into<String>) -> Self {
        SecondaryAction { element: element.into(), name: name.into(), common: Common::default() }
    }
}

impl Params for SecondaryAction {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "secondary_action";
    type Result = crate::results::browser::SecondaryAction;
}

impl Shared for SecondaryAction {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.element.as_ref_str()
    }
}

/// `browser.press`: press a key or chord (releasing modifiers even on failure); returns the chord.
/// Mutating (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Press", into = "wire::Press")]
pub struct Press {
    /// **Required.** a key or chord such as Enter, Control+Shift+T, F5, PageDown or +. Not empty.
    pub key: String,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Press {
    /// The required params; every other one at the table's default.
    pub fn new(key: impl Into<String>) -> Self {
        Press { key: key.into(), common: Common::default() }
    }
}

impl Params for Press {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "press";
    type Result = crate::results::browser::Press;
}

impl Shared for Press {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.keyboard_type`: type text into the focus (or into ref/selector, focused first) (mode
/// insert, or keys: key events per character); returns the text. Optional target: ref|selector.
/// Mutating (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::KeyboardType", into = "wire::KeyboardType")]
pub struct KeyboardType {
    /// Optional target: ref|selector.
    pub element: Option<Element>,
    /// the text, exactly as it should appear. Not empty.
    pub text: Option<String>,
    /// a secret's name (list_secrets) to type instead of text (never shown). Not empty.
    pub secret: Option<String>,
    /// a secret's name whose current TOTP code to type (its seed's). Not empty.
    pub secret_totp: Option<String>,
    /// insert: one insertText; keys: a key event per character (for pages that listen to keys:
    /// terminals, editors, games: keydown/keypress/input/keyup as a US keyboard sends them, with
    /// key, code, keyCode and shift; characters beyond the US layout as keydown/keyup whose key and
    /// text are the character; insert is fast and sends no key events). One of `insert`, `keys`.
    /// Default `insert`.
    pub mode: Mode,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for KeyboardType {
    /// Every param at the table's default.
    fn default() -> Self {
        KeyboardType {
            element: None,
            text: None,
            secret: None,
            secret_totp: None,
            mode: Mode::Insert,
            common: Common::default(),
        }
    }
}

impl Params for KeyboardType {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "keyboard_type";
    type Result = crate::results::browser::KeyboardType;
}

impl Shared for KeyboardType {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.element.as_ref().and_then(Element::as_ref_str)
    }
}

/// `browser.keydown`: hold a key down; later presses include it; returns the keys held. Mutating
/// (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Keydown", into = "wire::Keydown")]
pub struct Keydown {
    /// **Required.** a key or chord such as Enter, Control+Shift+T, F5, PageDown or +. Not empty.
    pub key: String,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Keydown {
    /// The required params; every other one at the table's default.
    pub fn new(key: impl Into<String>) -> Self {
        Keydown { key: key.into(), common: Common::default() }
    }
}

impl Params for Keydown {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "keydown";
    type Result = crate::results::browser::Keydown;
}

impl Shared for Keydown {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.keyup`: release a held key; returns the keys still held. Mutating (actor role); a
/// capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Keyup", into = "wire::Keyup")]
pub struct Keyup {
    /// **Required.** a key or chord such as Enter, Control+Shift+T, F5, PageDown or +. Not empty.
    pub key: String,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Keyup {
    /// The required params; every other one at the table's default.
    pub fn new(key: impl Into<String>) -> Self {
        Keyup { key: key.into(), common: Common::default() }
    }
}

impl Params for Keyup {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "keyup";
    type Result = crate::results::browser::Keyup;
}

impl Shared for Keyup {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.scroll`: scroll an element, at a point or the page (by pixels or pages); returns the
/// position before and after. Optional target: ref|selector or x,y / nx,ny. Mutating (actor role);
/// a capture follows unless the call says capture false. `amount` and `pages` are exclusive.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Scroll", into = "wire::Scroll")]
pub struct Scroll {
    /// Optional target: ref|selector or x,y / nx,ny.
    pub target: Option<Target>,
    /// scroll direction. One of `up`, `down`, `left`, `right`. Default `down`.
    pub direction: Direction,
    /// distance in pixels (exclusive with pages). Range 1..=10000.
    pub amount: Option<u32>,
    /// distance in pages (of the scrolled box). Range 0.1..=20.0.
    pub pages: Option<f64>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for Scroll {
    /// Every param at the table's default.
    fn default() -> Self {
        Scroll {
            target: None,
            direction: Direction::Down,
            amount: None,
            pages: None,
            common: Common::default(),
        }
    }
}

impl Params for Scroll {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "scroll";
    type Result = crate::results::browser::Scroll;
}

impl Shared for Scroll {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.target.as_ref().and_then(|t| t.element()).and_then(Element::as_ref_str)
    }
}

/// `browser.scroll_into_view`: scroll an element to the middle of the viewport; returns its box.
/// Target: ref|selector. Mutating (actor role); a capture follows unless the call says capture
/// false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::ScrollIntoView", into = "wire::ScrollIntoView")]
pub struct ScrollIntoView {
    /// Target: ref|selector.
    pub element: Element,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl ScrollIntoView {
    /// The required params; every other one at the table's default.
    pub fn new(element: impl Into<Element>) -> Self {
        ScrollIntoView { element: element.into(), common: Common::default() }
    }
}

impl Params for ScrollIntoView {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "scroll_into_view";
    type Result = crate::results::browser::ScrollIntoView;
}

impl Shared for ScrollIntoView {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.element.as_ref_str()
    }
}

/// `browser.drag`: drag to a drop target (from an element or point) (releasing the button on
/// failure); returns both points. Target: ref|selector or x,y / nx,ny. Mutating (actor role); a
/// capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Drag", into = "wire::Drag")]
pub struct Drag {
    /// Target: ref|selector or x,y / nx,ny.
    pub target: Target,
    /// drop on this element ref from the latest snapshot.
    pub target_ref: Option<String>,
    /// drop on the first match of this CSS selector. Not empty.
    pub target_selector: Option<String>,
    /// drop point x in CSS viewport pixels. Range 0.0..=100000.0.
    pub to_x: Option<f64>,
    /// drop point y in CSS viewport pixels. Range 0.0..=100000.0.
    pub to_y: Option<f64>,
    /// drop point x as a fraction of the width, 0..1. Range 0.0..=1.0.
    pub to_nx: Option<f64>,
    /// drop point y as a fraction of the height, 0..1. Range 0.0..=1.0.
    pub to_ny: Option<f64>,
    /// mouse button. One of `left`, `middle`, `right`. Default `left`.
    pub button: Button,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Drag {
    /// The required params; every other one at the table's default.
    pub fn new(target: impl Into<Target>) -> Self {
        Drag {
            target: target.into(),
            target_ref: None,
            target_selector: None,
            to_x: None,
            to_y: None,
            to_nx: None,
            to_ny: None,
            button: Button::Left,
            common: Common::default(),
        }
    }
}

impl Params for Drag {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "drag";
    type Result = crate::results::browser::Drag;
}

impl Shared for Drag {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.target.element().and_then(Element::as_ref_str)
    }
}

/// `browser.upload`: set the files of a file input; returns the files set. Target: ref|selector.
/// Mutating (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Upload", into = "wire::Upload")]
pub struct Upload {
    /// Target: ref|selector.
    pub element: Element,
    /// **Required.** paths in the file roots (each must exist).
    pub files: Vec<String>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Upload {
    /// The required params; every other one at the table's default.
    pub fn new(element: impl Into<Element>, files: Vec<String>) -> Self {
        Upload { element: element.into(), files, common: Common::default() }
    }
}

impl Params for Upload {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "upload";
    type Result = crate::results::browser::Upload;
}

impl Shared for Upload {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.element.as_ref_str()
    }
}

/// `browser.wait`: wait for an element (timeout, state) or pause for duration_ms; returns what was
/// waited for and how long. Optional target: ref|selector. Observes only (observer tokens may call
/// it). `timeout` and `duration_ms` are exclusive.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Wait", into = "wire::Wait")]
pub struct Wait {
    /// Optional target: ref|selector.
    pub element: Option<Element>,
    /// how long to wait in ms (30000 when omitted) (exclusive with duration_ms). Range 1..=60000.
    pub timeout: Option<u32>,
    /// a fixed pause in ms (exclusive with timeout). Range 0..=60000.
    pub duration_ms: Option<u32>,
    /// what the target should become (visible when omitted; needs ref or selector). One of
    /// `visible`, `hidden`, `attached`, `detached`.
    pub state: Option<State>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for Wait {
    /// Every param at the table's default.
    fn default() -> Self {
        Wait {
            element: None,
            timeout: None,
            duration_ms: None,
            state: None,
            common: Common::default(),
        }
    }
}

impl Params for Wait {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "wait";
    type Result = crate::results::browser::Wait;
}

impl Shared for Wait {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.element.as_ref().and_then(Element::as_ref_str)
    }
}

/// `browser.dialog`: accept or dismiss the open dialog (alert, confirm, prompt, beforeunload);
/// returns its type and message. Mutating (actor role); a capture follows unless the call says
/// capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Dialog", into = "wire::Dialog")]
pub struct Dialog {
    /// accept (OK) or dismiss (Cancel) the dialog. Default true.
    pub accept: bool,
    /// the answer to a prompt() dialog.
    pub prompt_text: Option<String>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for Dialog {
    /// Every param at the table's default.
    fn default() -> Self {
        Dialog { accept: true, prompt_text: None, common: Common::default() }
    }
}

impl Params for Dialog {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "dialog";
    type Result = crate::results::browser::Dialog;
}

impl Shared for Dialog {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.go_back`: go one step back in history (and wait until ready); returns the url. Mutating
/// (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::GoBack", into = "wire::GoBack")]
pub struct GoBack {
    /// readiness deadline in ms for a state or an element. Range 1..=60000. Default 30000.
    pub timeout: u32,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for GoBack {
    /// Every param at the table's default.
    fn default() -> Self {
        GoBack { timeout: 30000, common: Common::default() }
    }
}

impl Params for GoBack {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "go_back";
    type Result = crate::results::browser::GoBack;
}

impl Shared for GoBack {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.go_forward`: go one step forward in history (and wait until ready); returns the url.
/// Mutating (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::GoForward", into = "wire::GoForward")]
pub struct GoForward {
    /// readiness deadline in ms for a state or an element. Range 1..=60000. Default 30000.
    pub timeout: u32,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for GoForward {
    /// Every param at the table's default.
    fn default() -> Self {
        GoForward { timeout: 30000, common: Common::default() }
    }
}

impl Params for GoForward {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "go_forward";
    type Result = crate::results::browser::GoForward;
}

impl Shared for GoForward {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.reload`: reload the tab and wait until ready; returns the url. Mutating (actor role); a
/// capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Reload", into = "wire::Reload")]
pub struct Reload {
    /// readiness deadline in ms for a state or an element. Range 1..=60000. Default 30000.
    pub timeout: u32,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for Reload {
    /// Every param at the table's default.
    fn default() -> Self {
        Reload { timeout: 30000, common: Common::default() }
    }
}

impl Params for Reload {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "reload";
    type Result = crate::results::browser::Reload;
}

impl Shared for Reload {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.tab_new`: open a tab (about:blank without url) and make it the session's tab; returns
/// its tab_id. Mutating (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::TabNew", into = "wire::TabNew")]
pub struct TabNew {
    /// the address to open, e.g. https://example.com/ (a bare host means http://).
    pub url: Option<String>,
    /// false: open it in the background. Default true.
    pub visible: bool,
    /// a named profile of the party; the session moves there. Not empty.
    pub profile: Option<String>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for TabNew {
    /// Every param at the table's default.
    fn default() -> Self {
        TabNew { url: None, visible: true, profile: None, common: Common::default() }
    }
}

impl Params for TabNew {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "tab_new";
    type Result = crate::results::browser::TabNew;
}

impl Shared for TabNew {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.tab_select`: bring a tab to the front and make it the session's tab; returns its
/// identity. Mutating (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::TabSelect", into = "wire::TabSelect")]
pub struct TabSelect {
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for TabSelect {
    /// Every param at the table's default.
    fn default() -> Self {
        TabSelect { common: Common::default() }
    }
}

impl Params for TabSelect {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "tab_select";
    type Result = crate::results::browser::TabSelect;
}

impl Shared for TabSelect {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.tab_get`: describe a tab without selecting it (url, title, state, mark, latest
/// snapshot). Observes only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::TabGet", into = "wire::TabGet")]
pub struct TabGet {
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for TabGet {
    /// Every param at the table's default.
    fn default() -> Self {
        TabGet { common: Common::default() }
    }
}

impl Params for TabGet {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "tab_get";
    type Result = crate::results::browser::TabGet;
}

impl Shared for TabGet {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.tab_close`: close a tab (default: the session's tab) and forget its refs; returns what
/// was closed. Mutating (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::TabClose", into = "wire::TabClose")]
pub struct TabClose {
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for TabClose {
    /// Every param at the table's default.
    fn default() -> Self {
        TabClose { common: Common::default() }
    }
}

impl Params for TabClose {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "tab_close";
    type Result = crate::results::browser::TabClose;
}

impl Shared for TabClose {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.tab_mark`: mark a tab deliverable or handoff (with a note), or clear it; marks outlive
/// the session. Mutating (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::TabMark", into = "wire::TabMark")]
pub struct TabMark {
    /// deliverable: a result for the user; handoff: for the user to take over. One of
    /// `deliverable`, `handoff`.
    pub kind: Option<Kind>,
    /// why the tab is marked, shown with the mark. Not empty.
    pub note: Option<String>,
    /// remove the tab's mark instead of setting one. Default false.
    pub clear: bool,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for TabMark {
    /// Every param at the table's default.
    fn default() -> Self {
        TabMark { kind: None, note: None, clear: false, common: Common::default() }
    }
}

impl Params for TabMark {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "tab_mark";
    type Result = crate::results::browser::TabMark;
}

impl Shared for TabMark {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.cdp_session`: DevTools URL for code on this tab (Playwright, Puppeteer: one page, the
/// same policy); returns cdp_id, url, expires_at. Mutating (actor role); a capture follows unless
/// the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::CdpSession", into = "wire::CdpSession")]
pub struct CdpSession {
    /// seconds (how long the endpoint stays valid). Range 1..=3600. Default 600.
    pub ttl_s: u32,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for CdpSession {
    /// Every param at the table's default.
    fn default() -> Self {
        CdpSession { ttl_s: 600, common: Common::default() }
    }
}

impl Params for CdpSession {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "cdp_session";
    type Result = crate::results::browser::CdpSession;
}

impl Shared for CdpSession {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.cdp_revoke`: end a code session (its connection closes). Mutating (actor role); a
/// capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::CdpRevoke", into = "wire::CdpRevoke")]
pub struct CdpRevoke {
    /// **Required.** id (the cdp_id cdp_session returned). Not empty.
    pub cdp_id: String,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl CdpRevoke {
    /// The required params; every other one at the table's default.
    pub fn new(cdp_id: impl Into<String>) -> Self {
        CdpRevoke { cdp_id: cdp_id.into(), common: Common::default() }
    }
}

impl Params for CdpRevoke {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "cdp_revoke";
    type Result = crate::results::browser::CdpRevoke;
}

impl Shared for CdpRevoke {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.storage_state`: save or load cookies and localStorage (Playwright's storageState, in
/// files/); returns path, counts. Mutating (actor role); a capture follows unless the call says
/// capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::StorageState", into = "wire::StorageState")]
pub struct StorageState {
    /// a file in files/ to load (Playwright's storageState shape). Not empty.
    pub load: Option<String>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for StorageState {
    /// Every param at the table's default.
    fn default() -> Self {
        StorageState { load: None, common: Common::default() }
    }
}

impl Params for StorageState {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "storage_state";
    type Result = crate::results::browser::StorageState;
}

impl Shared for StorageState {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.snapshot`: ref-annotated accessibility outline of the page (open shadow roots and
/// iframes, cross-site too); returns snapshot_id, mode full/incremental/continued, counts,
/// truncation. Observes only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Snapshot", into = "wire::Snapshot")]
pub struct Snapshot {
    /// lines per page of the outline. Range 1..=5000. Default 300.
    pub limit: u32,
    /// observe only the subtree of this ref.
    pub scope_ref: Option<String>,
    /// next_cursor of the previous page to continue it.
    pub cursor: Option<String>,
    /// always return the full outline (instead of what changed). Default false.
    pub disable_diffing: bool,
    /// words in any order, any case (snapshot keeps the lines holding them, every word in the line
    /// or its ancestors, else any word, query_match says which, with their ancestors and row
    /// controls, as a view that moves no baseline; wait looks for one line holding every word). Not
    /// empty.
    pub query: Option<String>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for Snapshot {
    /// Every param at the table's default.
    fn default() -> Self {
        Snapshot {
            limit: 300,
            scope_ref: None,
            cursor: None,
            disable_diffing: false,
            query: None,
            common: Common::default(),
        }
    }
}

impl Params for Snapshot {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "snapshot";
    type Result = crate::results::browser::Snapshot;
}

impl Shared for Snapshot {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.get_content`: the visible text of the page or an element (a form control's value);
/// offset and length read a range; returns text, total_chars, truncated and next_offset when more
/// follows. Optional target: ref|selector. Observes only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::GetContent", into = "wire::GetContent")]
pub struct GetContent {
    /// Optional target: ref|selector.
    pub element: Option<Element>,
    /// the first character to return (Unicode characters, counted from 0). Range 0..=2147483647.
    /// Default 0.
    pub offset: u32,
    /// at most this many characters from offset (default: to the end; the daemon's --max-text-chars
    /// cuts longer answers, which say truncated and next_offset). Range 1..=2147483647.
    pub length: Option<u32>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for GetContent {
    /// Every param at the table's default.
    fn default() -> Self {
        GetContent { element: None, offset: 0, length: None, common: Common::default() }
    }
}

impl Params for GetContent {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "get_content";
    type Result = crate::results::browser::GetContent;
}

impl Shared for GetContent {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.element.as_ref().and_then(Element::as_ref_str)
    }
}

/// `browser.get_html`: the HTML of the page or of an element. Optional target: ref|selector.
/// Observes only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::GetHtml", into = "wire::GetHtml")]
pub struct GetHtml {
    /// Optional target: ref|selector.
    pub element: Option<Element>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for GetHtml {
    /// Every param at the table's default.
    fn default() -> Self {
        GetHtml { element: None, common: Common::default() }
    }
}

impl Params for GetHtml {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "get_html";
    type Result = crate::results::browser::GetHtml;
}

impl Shared for GetHtml {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.element.as_ref().and_then(Element::as_ref_str)
    }
}

/// `browser.get_url`: the tab's current URL. Observes only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::GetUrl", into = "wire::GetUrl")]
pub struct GetUrl {
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for GetUrl {
    /// Every param at the table's default.
    fn default() -> Self {
        GetUrl { common: Common::default() }
    }
}

impl Params for GetUrl {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "get_url";
    type Result = crate::results::browser::GetUrl;
}

impl Shared for GetUrl {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.get_title`: the tab's current title. Observes only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::GetTitle", into = "wire::GetTitle")]
pub struct GetTitle {
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for GetTitle {
    /// Every param at the table's default.
    fn default() -> Self {
        GetTitle { common: Common::default() }
    }
}

impl Params for GetTitle {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "get_title";
    type Result = crate::results::browser::GetTitle;
}

impl Shared for GetTitle {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.screenshot`: capture the viewport or the full page; returns the image with width,
/// height and scale. Observes only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Screenshot", into = "wire::Screenshot")]
pub struct Screenshot {
    /// capture the whole page, not just the viewport. Default false.
    pub full_page: bool,
    /// paste: text, html or markdown (default text); screenshots: png, jpeg or webp (default png).
    /// One of `png`, `jpeg`, `webp`, `text`, `html`, `markdown`. Default `png`.
    pub format: Format,
    /// jpeg/webp quality (only with format jpeg or webp). Range 1..=100.
    pub quality: Option<u32>,
    /// scale the image down to at most this width (scale says by how much). Range 16..=8192.
    pub max_width: Option<u32>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for Screenshot {
    /// Every param at the table's default.
    fn default() -> Self {
        Screenshot {
            full_page: false,
            format: Format::Png,
            quality: None,
            max_width: None,
            common: Common::default(),
        }
    }
}

impl Params for Screenshot {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "screenshot";
    type Result = crate::results::browser::Screenshot;
}

impl Shared for Screenshot {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.screenshot_annotate`: a screenshot with ref labels (over a full snapshot's elements);
/// returns image and labels. Observes only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::ScreenshotAnnotate", into = "wire::ScreenshotAnnotate")]
pub struct ScreenshotAnnotate {
    /// scale the image down to at most this width (scale says by how much). Range 16..=8192.
    pub max_width: Option<u32>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for ScreenshotAnnotate {
    /// Every param at the table's default.
    fn default() -> Self {
        ScreenshotAnnotate { max_width: None, common: Common::default() }
    }
}

impl Params for ScreenshotAnnotate {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "screenshot_annotate";
    type Result = crate::results::browser::ScreenshotAnnotate;
}

impl Shared for ScreenshotAnnotate {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.state_and_screenshot`: a snapshot and a screenshot together; returns both and a
/// consistent flag. Observes only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::StateAndScreenshot", into = "wire::StateAndScreenshot")]
pub struct StateAndScreenshot {
    /// lines per page of the outline. Range 1..=5000. Default 300.
    pub limit: u32,
    /// observe only the subtree of this ref.
    pub scope_ref: Option<String>,
    /// always return the full outline (instead of what changed). Default false.
    pub disable_diffing: bool,
    /// words in any order, any case (snapshot keeps the lines holding them, every word in the line
    /// or its ancestors, else any word, query_match says which, with their ancestors and row
    /// controls, as a view that moves no baseline; wait looks for one line holding every word). Not
    /// empty.
    pub query: Option<String>,
    /// capture the whole page, not just the viewport. Default false.
    pub full_page: bool,
    /// paste: text, html or markdown (default text); screenshots: png, jpeg or webp (default png).
    /// One of `png`, `jpeg`, `webp`, `text`, `html`, `markdown`. Default `png`.
    pub format: Format,
    /// jpeg/webp quality (only with format jpeg or webp). Range 1..=100.
    pub quality: Option<u32>,
    /// scale the image down to at most this width (scale says by how much). Range 16..=8192.
    pub max_width: Option<u32>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for StateAndScreenshot {
    /// Every param at the table's default.
    fn default() -> Self {
        StateAndScreenshot {
            limit: 300,
            scope_ref: None,
            disable_diffing: false,
            query: None,
            full_page: false,
            format: Format::Png,
            quality: None,
            max_width: None,
            common: Common::default(),
        }
    }
}

impl Params for StateAndScreenshot {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "state_and_screenshot";
    type Result = crate::results::browser::StateAndScreenshot;
}

impl Shared for StateAndScreenshot {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.evaluate`: run JavaScript in the page (it may change it); returns the JSON value,
/// exceptions as ACTION_FAILED. Mutating (actor role); a capture follows unless the call says
/// capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Evaluate", into = "wire::Evaluate")]
pub struct Evaluate {
    /// **Required.** a JavaScript expression or function body; await is allowed. Not empty.
    pub script: String,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Evaluate {
    /// The required params; every other one at the table's default.
    pub fn new(script: impl Into<String>) -> Self {
        Evaluate { script: script.into(), common: Common::default() }
    }
}

impl Params for Evaluate {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "evaluate";
    type Result = crate::results::browser::Evaluate;
}

impl Shared for Evaluate {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.pdf`: print the page to PDF; returns an artifact, not inline data. Observes only
/// (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Pdf", into = "wire::Pdf")]
pub struct Pdf {
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for Pdf {
    /// Every param at the table's default.
    fn default() -> Self {
        Pdf { common: Common::default() }
    }
}

impl Params for Pdf {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "pdf";
    type Result = crate::results::browser::Pdf;
}

impl Shared for Pdf {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.tab_list`: the party's tabs (tab_id, url, title, selected, mark; admins: every party's,
/// with owner). Observes only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::TabList", into = "wire::TabList")]
pub struct TabList {
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for TabList {
    /// Every param at the table's default.
    fn default() -> Self {
        TabList { common: Common::default() }
    }
}

impl Params for TabList {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "tab_list";
    type Result = crate::results::browser::TabList;
}

impl Shared for TabList {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.downloads`: recent downloads, oldest first (path under downloads/\<party\>/, url,
/// bytes, state, tab_id). Observes only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Downloads", into = "wire::Downloads")]
pub struct Downloads {
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for Downloads {
    /// Every param at the table's default.
    fn default() -> Self {
        Downloads { common: Common::default() }
    }
}

impl Params for Downloads {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "downloads";
    type Result = crate::results::browser::Downloads;
}

impl Shared for Downloads {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `browser.probe`: what works on this tab: CDP, input, accessibility and screenshots. Observes
/// only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Probe", into = "wire::Probe")]
pub struct Probe {
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for Probe {
    /// Every param at the table's default.
    fn default() -> Self {
        Probe { common: Common::default() }
    }
}

impl Params for Probe {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "probe";
    type Result = crate::results::browser::Probe;
}

impl Shared for Probe {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// Every action's params struct by action name, read from a checked call and written back (for the tests).
pub static ROUND_TRIPS: &[(&str, super::RoundTrip)] = &[
    ("navigate", super::round_trip::<Navigate>),
    ("click", super::round_trip::<Click>),
    ("double_click", super::round_trip::<DoubleClick>),
    ("hover", super::round_trip::<Hover>),
    ("focus", super::round_trip::<Focus>),
    ("type", super::round_trip::<Type>),
    ("fill", super::round_trip::<Fill>),
    ("set_value", super::round_trip::<SetValue>),
    ("select", super::round_trip::<Select>),
    ("check", super::round_trip::<Check>),
    ("uncheck", super::round_trip::<Uncheck>),
    ("paste", super::round_trip::<Paste>),
    ("select_text", super::round_trip::<SelectText>),
    ("secondary_action", super::round_trip::<SecondaryAction>),
    ("press", super::round_trip::<Press>),
    ("keyboard_type", super::round_trip::<KeyboardType>),
    ("keydown", super::round_trip::<Keydown>),
    ("keyup", super::round_trip::<Keyup>),
    ("scroll", super::round_trip::<Scroll>),
    ("scroll_into_view", super::round_trip::<ScrollIntoView>),
    ("drag", super::round_trip::<Drag>),
    ("upload", super::round_trip::<Upload>),
    ("wait", super::round_trip::<Wait>),
    ("dialog", super::round_trip::<Dialog>),
    ("go_back", super::round_trip::<GoBack>),
    ("go_forward", super::round_trip::<GoForward>),
    ("reload", super::round_trip::<Reload>),
    ("tab_new", super::round_trip::<TabNew>),
    ("tab_select", super::round_trip::<TabSelect>),
    ("tab_get", super::round_trip::<TabGet>),
    ("tab_close", super::round_trip::<TabClose>),
    ("tab_mark", super::round_trip::<TabMark>),
    ("cdp_session", super::round_trip::<CdpSession>),
    ("cdp_revoke", super::round_trip::<CdpRevoke>),
    ("storage_state", super::round_trip::<StorageState>),
    ("snapshot", super::round_trip::<Snapshot>),
    ("get_content", super::round_trip::<GetContent>),
    ("get_html", super::round_trip::<GetHtml>),
    ("get_url", super::round_trip::<GetUrl>),
    ("get_title", super::round_trip::<GetTitle>),
    ("screenshot", super::round_trip::<Screenshot>),
    ("screenshot_annotate", super::round_trip::<ScreenshotAnnotate>),
    ("state_and_screenshot", super::round_trip::<StateAndScreenshot>),
    ("evaluate", super::round_trip::<Evaluate>),
    ("pdf", super::round_trip::<Pdf>),
    ("tab_list", super::round_trip::<TabList>),
    ("downloads", super::round_trip::<Downloads>),
    ("probe", super::round_trip::<Probe>),
];

/// Every action's result schema by action name (`crate::results::browser`).
pub static RESULT_SCHEMAS: &[(&str, super::ResultSchema)] = &[
    ("navigate", <Navigate as Params>::result_schema),
    ("click", <Click as Params>::result_schema),
    ("double_click", <DoubleClick as Params>::result_schema),
    ("hover", <Hover as Params>::result_schema),
    ("focus", <Focus as Params>::result_schema),
    ("type", <Type as Params>::result_schema),
    ("fill", <Fill as Params>::result_schema),
    ("set_value", <SetValue as Params>::result_schema),
    ("select", <Select as Params>::result_schema),
    ("check", <Check as Params>::result_schema),
    ("uncheck", <Uncheck as Params>::result_schema),
    ("paste", <Paste as Params>::result_schema),
    ("select_text", <SelectText as Params>::result_schema),
    ("secondary_action", <SecondaryAction as Params>::result_schema),
    ("press", <Press as Params>::result_schema),
    ("keyboard_type", <KeyboardType as Params>::result_schema),
    ("keydown", <Keydown as Params>::result_schema),
    ("keyup", <Keyup as Params>::result_schema),
    ("scroll", <Scroll as Params>::result_schema),
    ("scroll_into_view", <ScrollIntoView as Params>::result_schema),
    ("drag", <Drag as Params>::result_schema),
    ("upload", <Upload as Params>::result_schema),
    ("wait", <Wait as Params>::result_schema),
    ("dialog", <Dialog as Params>::result_schema),
    ("go_back", <GoBack as Params>::result_schema),
    ("go_forward", <GoForward as Params>::result_schema),
    ("reload", <Reload as Params>::result_schema),
    ("tab_new", <TabNew as Params>::result_schema),
    ("tab_select", <TabSelect as Params>::result_schema),
    ("tab_get", <TabGet as Params>::result_schema),
    ("tab_close", <TabClose as Params>::result_schema),
    ("tab_mark", <TabMark as Params>::result_schema),
    ("cdp_session", <CdpSession as Params>::result_schema),
    ("cdp_revoke", <CdpRevoke as Params>::result_schema),
    ("storage_state", <StorageState as Params>::result_schema),
    ("snapshot", <Snapshot as Params>::result_schema),
    ("get_content", <GetContent as Params>::result_schema),
    ("get_html", <GetHtml as Params>::result_schema),
    ("get_url", <GetUrl as Params>::result_schema),
    ("get_title", <GetTitle as Params>::result_schema),
    ("screenshot", <Screenshot as Params>::result_schema),
    ("screenshot_annotate", <ScreenshotAnnotate as Params>::result_schema),
    ("state_and_screenshot", <StateAndScreenshot as Params>::result_schema),
    ("evaluate", <Evaluate as Params>::result_schema),
    ("pdf", <Pdf as Params>::result_schema),
    ("tab_list", <TabList as Params>::result_schema),
    ("downloads", <Downloads as Params>::result_schema),
    ("probe", <Probe as Params>::result_schema),
];

/// The flat JSON shape of each action's params, as the wire has it: what the typed structs serialize to and deserialize from.
#[doc(hidden)]
pub mod wire {
    use serde::{Deserialize, Serialize};

    #[allow(unused_imports)]
    use super::super::{keys, Element, Missing, Region};
    #[allow(unused_imports)]
    use super::*;

    #[derive(Serialize, Deserialize, Default)]
    pub struct Navigate {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub url: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub timeout: Option<u32>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Navigate> for Navigate {
        fn from(v: super::Navigate) -> Self {
            Navigate {
                url: Some(v.url),
                timeout: (v.timeout != 30000).then_some(v.timeout),
                common: v.common,
            }
        }
    }

    impl TryFrom<Navigate> for super::Navigate {
        type Error = Missing;

        fn try_from(w: Navigate) -> Result<Self, Missing> {
            Ok(super::Navigate {
                url: w.url.ok_or(Missing("url"))?,
                timeout: w.timeout.unwrap_or(30000),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Click {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub button: Option<Button>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub click_count: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub x: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub y: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub nx: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub ny: Option<f64>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Click> for Click {
        fn from(v: super::Click) -> Self {
            let (element, point) = keys::split_target(Some(v.target));
            let (r#ref, selector) = keys::split_element(element);
            let (x, y, nx, ny) = keys::split_point(point);
            Click {
                button: (v.button != Button::Left).then_some(v.button),
                click_count: (v.click_count != 1).then_some(v.click_count),
                r#ref,
                selector,
                x,
                y,
                nx,
                ny,
                common: v.common,
            }
        }
    }

    impl TryFrom<Click> for super::Click {
        type Error = Missing;

        fn try_from(w: Click) -> Result<Self, Missing> {
            let element = keys::element(w.r#ref, w.selector);
            let point = keys::point(w.x, w.y, w.nx, w.ny);
            Ok(super::Click {
                target: keys::target(element, point)
                    .ok_or(Missing("target: ref|selector or x,y / nx,ny"))?,
                button: w.button.unwrap_or(Button::Left),
                click_count: w.click_count.unwrap_or(1),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct DoubleClick {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub button: Option<Button>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub click_count: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub x: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub y: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub nx: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub ny: Option<f64>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::DoubleClick> for DoubleClick {
        fn from(v: super::DoubleClick) -> Self {
            let (element, point) = keys::split_target(Some(v.target));
            let (r#ref, selector) = keys::split_element(element);
            let (x, y, nx, ny) = keys::split_point(point);
            DoubleClick {
                button: (v.button != Button::Left).then_some(v.button),
                click_count: (v.click_count != 2).then_some(v.click_count),
                r#ref,
                selector,
                x,
                y,
                nx,
                ny,
                common: v.common,
            }
        }
    }

    impl TryFrom<DoubleClick> for super::DoubleClick {
        type Error = Missing;

        fn try_from(w: DoubleClick) -> Result<Self, Missing> {
            let element = keys::element(w.r#ref, w.selector);
            let point = keys::point(w.x, w.y, w.nx, w.ny);
            Ok(super::DoubleClick {
                target: keys::target(element, point)
                    .ok_or(Missing("target: ref|selector or x,y / nx,ny"))?,
                button: w.button.unwrap_or(Button::Left),
                click_count: w.click_count.unwrap_or(2),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Hover {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub x: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub y: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub nx: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub ny: Option<f64>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Hover> for Hover {
        fn from(v: super::Hover) -> Self {
            let (element, point) = keys::split_target(Some(v.target));
            let (r#ref, selector) = keys::split_element(element);
            let (x, y, nx, ny) = keys::split_point(point);
            Hover { r#ref, selector, x, y, nx, ny, common: v.common }
        }
    }

    impl TryFrom<Hover> for super::Hover {
        type Error = Missing;

        fn try_from(w: Hover) -> Result<Self, Missing> {
            let element = keys::element(w.r#ref, w.selector);
            let point = keys::point(w.x, w.y, w.nx, w.ny);
            Ok(super::Hover {
                target: keys::target(element, point)
                    .ok_or(Missing("target: ref|selector or x,y / nx,ny"))?,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Focus {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Focus> for Focus {
        fn from(v: super::Focus) -> Self {
            let (r#ref, selector) = keys::split_element(Some(v.element));
            Focus { r#ref, selector, common: v.common }
        }
    }

    impl TryFrom<Focus> for super::Focus {
        type Error = Missing;

        fn try_from(w: Focus) -> Result<Self, Missing> {
            Ok(super::Focus {
                element: keys::element(w.r#ref, w.selector)
                    .ok_or(Missing("target: ref|selector"))?,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Type {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub text: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub secret: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub secret_totp: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub mode: Option<Mode>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Type> for Type {
        fn from(v: super::Type) -> Self {
            let (r#ref, selector) = keys::split_element(Some(v.element));
            Type {
                text: v.text,
                secret: v.secret,
                secret_totp: v.secret_totp,
                mode: (v.mode != Mode::Insert).then_some(v.mode),
                r#ref,
                selector,
                common: v.common,
            }
        }
    }

    impl TryFrom<Type> for super::Type {
        type Error = Missing;

        fn try_from(w: Type) -> Result<Self, Missing> {
            Ok(super::Type {
                element: keys::element(w.r#ref, w.selector)
                    .ok_or(Missing("target: ref|selector"))?,
                text: w.text,
                secret: w.secret,
                secret_totp: w.secret_totp,
                mode: w.mode.unwrap_or(Mode::Insert),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Fill {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub text: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub values: Option<Vec<String>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub secret: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub secret_totp: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Fill> for Fill {
        fn from(v: super::Fill) -> Self {
            let (r#ref, selector) = keys::split_element(Some(v.element));
            Fill {
                text: v.text,
                values: v.values,
                secret: v.secret,
                secret_totp: v.secret_totp,
                r#ref,
                selector,
                common: v.common,
            }
        }
    }

    impl TryFrom<Fill> for super::Fill {
        type Error = Missing;

        fn try_from(w: Fill) -> Result<Self, Missing> {
            Ok(super::Fill {
                element: keys::element(w.r#ref, w.selector)
                    .ok_or(Missing("target: ref|selector"))?,
                text: w.text,
                values: w.values,
                secret: w.secret,
                secret_totp: w.secret_totp,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct SetValue {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub value: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::SetValue> for SetValue {
        fn from(v: super::SetValue) -> Self {
            let (r#ref, selector) = keys::split_element(Some(v.element));
            SetValue { value: Some(v.value), r#ref, selector, common: v.common }
        }
    }

    impl TryFrom<SetValue> for super::SetValue {
        type Error = Missing;

        fn try_from(w: SetValue) -> Result<Self, Missing> {
            Ok(super::SetValue {
                element: keys::element(w.r#ref, w.selector)
                    .ok_or(Missing("target: ref|selector"))?,
                value: w.value.ok_or(Missing("value"))?,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Select {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub value: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub values: Option<Vec<String>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Select> for Select {
        fn from(v: super::Select) -> Self {
            let (r#ref, selector) = keys::split_element(Some(v.element));
            Select { value: v.value, values: v.values, r#ref, selector, common: v.common }
        }
    }

    impl TryFrom<Select> for super::Select {
        type Error = Missing;

        fn try_from(w: Select) -> Result<Self, Missing> {
            Ok(super::Select {
                element: keys::element(w.r#ref, w.selector)
                    .ok_or(Missing("target: ref|selector"))?,
                value: w.value,
                values: w.values,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Check {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Check> for Check {
        fn from(v: super::Check) -> Self {
            let (r#ref, selector) = keys::split_element(Some(v.element));
            Check { r#ref, selector, common: v.common }
        }
    }

    impl TryFrom<Check> for super::Check {
        type Error = Missing;

        fn try_from(w: Check) -> Result<Self, Missing> {
            Ok(super::Check {
                element: keys::element(w.r#ref, w.selector)
                    .ok_or(Missing("target: ref|selector"))?,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Uncheck {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Uncheck> for Uncheck {
        fn from(v: super::Uncheck) -> Self {
            let (r#ref, selector) = keys::split_element(Some(v.element));
            Uncheck { r#ref, selector, common: v.common }
        }
    }

    impl TryFrom<Uncheck> for super::Uncheck {
        type Error = Missing;

        fn try_from(w: Uncheck) -> Result<Self, Missing> {
            Ok(super::Uncheck {
                element: keys::element(w.r#ref, w.selector)
                    .ok_or(Missing("target: ref|selector"))?,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Paste {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub text: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub format: Option<Format>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Paste> for Paste {
        fn from(v: super::Paste) -> Self {
            let (r#ref, selector) = keys::split_element(v.element);
            Paste {
                text: Some(v.text),
                format: (v.format != Format::Text).then_some(v.format),
                r#ref,
                selector,
                common: v.common,
            }
        }
    }

    impl TryFrom<Paste> for super::Paste {
        type Error = Missing;

        fn try_from(w: Paste) -> Result<Self, Missing> {
            Ok(super::Paste {
                element: keys::element(w.r#ref, w.selector),
                text: w.text.ok_or(Missing("text"))?,
                format: w.format.unwrap_or(Format::Text),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct SelectText {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub text: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub prefix: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub suffix: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selection_type: Option<SelectionType>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::SelectText> for SelectText {
        fn from(v: super::SelectText) -> Self {
            let (r#ref, selector) = keys::split_element(Some(v.element));
            SelectText {
                text: Some(v.text),
                prefix: v.prefix,
                suffix: v.suffix,
                selection_type: (v.selection_type != SelectionType::Select)
                    .then_some(v.selection_type),
                r#ref,
                selector,
                common: v.common,
            }
        }
    }

    impl TryFrom<SelectText> for super::SelectText {
        type Error = Missing;

        fn try_from(w: SelectText) -> Result<Self, Missing> {
            Ok(super::SelectText {
                element: keys::element(w.r#ref, w.selector)
                    .ok_or(Missing("target: ref|selector"))?,
                text: w.text.ok_or(Missing("text"))?,
                prefix: w.prefix,
                suffix: w.suffix,
                selection_type: w.selection_type.unwrap_or(SelectionType::Select),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct SecondaryAction {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub name: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::SecondaryAction> for SecondaryAction {
        fn from(v: super::SecondaryAction) -> Self {
            let (r#ref, selector) = keys::split_element(Some(v.element));
            SecondaryAction { name: Some(v.name), r#ref, selector, common: v.common }
        }
    }

    impl TryFrom<SecondaryAction> for super::SecondaryAction {
        type Error = Missing;

        fn try_from(w: SecondaryAction) -> Result<Self, Missing> {
            Ok(super::SecondaryAction {
                element: keys::element(w.r#ref, w.selector)
                    .ok_or(Missing("target: ref|selector"))?,
                name: w.name.ok_or(Missing("name"))?,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Press {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub key: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Press> for Press {
        fn from(v: super::Press) -> Self {
            Press { key: Some(v.key), common: v.common }
        }
    }

    impl TryFrom<Press> for super::Press {
        type Error = Missing;

        fn try_from(w: Press) -> Result<Self, Missing> {
            Ok(super::Press { key: w.key.ok_or(Missing("key"))?, common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct KeyboardType {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub text: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub secret: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub secret_totp: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub mode: Option<Mode>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::KeyboardType> for KeyboardType {
        fn from(v: super::KeyboardType) -> Self {
            let (r#ref, selector) = keys::split_element(v.element);
            KeyboardType {
                text: v.text,
                secret: v.secret,
                secret_totp: v.secret_totp,
                mode: (v.mode != Mode::Insert).then_some(v.mode),
                r#ref,
                selector,
                common: v.common,
            }
        }
    }

    impl TryFrom<KeyboardType> for super::KeyboardType {
        type Error = Missing;

        fn try_from(w: KeyboardType) -> Result<Self, Missing> {
            Ok(super::KeyboardType {
                element: keys::element(w.r#ref, w.selector),
                text: w.text,
                secret: w.secret,
                secret_totp: w.secret_totp,
                mode: w.mode.unwrap_or(Mode::Insert),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Keydown {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub key: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Keydown> for Keydown {
        fn from(v: super::Keydown) -> Self {
            Keydown { key: Some(v.key), common: v.common }
        }
    }

    impl TryFrom<Keydown> for super::Keydown {
        type Error = Missing;

        fn try_from(w: Keydown) -> Result<Self, Missing> {
            Ok(super::Keydown { key: w.key.ok_or(Missing("key"))?, common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Keyup {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub key: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Keyup> for Keyup {
        fn from(v: super::Keyup) -> Self {
            Keyup { key: Some(v.key), common: v.common }
        }
    }

    impl TryFrom<Keyup> for super::Keyup {
        type Error = Missing;

        fn try_from(w: Keyup) -> Result<Self, Missing> {
            Ok(super::Keyup { key: w.key.ok_or(Missing("key"))?, common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Scroll {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub direction: Option<Direction>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub amount: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub pages: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub x: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub y: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub nx: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub ny: Option<f64>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Scroll> for Scroll {
        fn from(v: super::Scroll) -> Self {
            let (element, point) = keys::split_target(v.target);
            let (r#ref, selector) = keys::split_element(element);
            let (x, y, nx, ny) = keys::split_point(point);
            Scroll {
                direction: (v.direction != Direction::Down).then_some(v.direction),
                amount: v.amount,
                pages: v.pages,
                r#ref,
                selector,
                x,
                y,
                nx,
                ny,
                common: v.common,
            }
        }
    }

    impl TryFrom<Scroll> for super::Scroll {
        type Error = Missing;

        fn try_from(w: Scroll) -> Result<Self, Missing> {
            let element = keys::element(w.r#ref, w.selector);
            let point = keys::point(w.x, w.y, w.nx, w.ny);
            Ok(super::Scroll {
                target: keys::target(element, point),
                direction: w.direction.unwrap_or(Direction::Down),
                amount: w.amount,
                pages: w.pages,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct ScrollIntoView {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::ScrollIntoView> for ScrollIntoView {
        fn from(v: super::ScrollIntoView) -> Self {
            let (r#ref, selector) = keys::split_element(Some(v.element));
            ScrollIntoView { r#ref, selector, common: v.common }
        }
    }

    impl TryFrom<ScrollIntoView> for super::ScrollIntoView {
        type Error = Missing;

        fn try_from(w: ScrollIntoView) -> Result<Self, Missing> {
            Ok(super::ScrollIntoView {
                element: keys::element(w.r#ref, w.selector)
                    .ok_or(Missing("target: ref|selector"))?,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Drag {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub target_ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub target_selector: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub to_x: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub to_y: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub to_nx: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub to_ny: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub button: Option<Button>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub x: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub y: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub nx: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub ny: Option<f64>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Drag> for Drag {
        fn from(v: super::Drag) -> Self {
            let (element, point) = keys::split_target(Some(v.target));
            let (r#ref, selector) = keys::split_element(element);
            let (x, y, nx, ny) = keys::split_point(point);
            Drag {
                target_ref: v.target_ref,
                target_selector: v.target_selector,
                to_x: v.to_x,
                to_y: v.to_y,
                to_nx: v.to_nx,
                to_ny: v.to_ny,
                button: (v.button != Button::Left).then_some(v.button),
                r#ref,
                selector,
                x,
                y,
                nx,
                ny,
                common: v.common,
            }
        }
    }

    impl TryFrom<Drag> for super::Drag {
        type Error = Missing;

        fn try_from(w: Drag) -> Result<Self, Missing> {
            let element = keys::element(w.r#ref, w.selector);
            let point = keys::point(w.x, w.y, w.nx, w.ny);
            Ok(super::Drag {
                target: keys::target(element, point)
                    .ok_or(Missing("target: ref|selector or x,y / nx,ny"))?,
                target_ref: w.target_ref,
                target_selector: w.target_selector,
                to_x: w.to_x,
                to_y: w.to_y,
                to_nx: w.to_nx,
                to_ny: w.to_ny,
                button: w.button.unwrap_or(Button::Left),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Upload {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub files: Option<Vec<String>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Upload> for Upload {
        fn from(v: super::Upload) -> Self {
            let (r#ref, selector) = keys::split_element(Some(v.element));
            Upload { files: Some(v.files), r#ref, selector, common: v.common }
        }
    }

    impl TryFrom<Upload> for super::Upload {
        type Error = Missing;

        fn try_from(w: Upload) -> Result<Self, Missing> {
            Ok(super::Upload {
                element: keys::element(w.r#ref, w.selector)
                    .ok_or(Missing("target: ref|selector"))?,
                files: w.files.ok_or(Missing("files"))?,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Wait {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub timeout: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub duration_ms: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub state: Option<State>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Wait> for Wait {
        fn from(v: super::Wait) -> Self {
            let (r#ref, selector) = keys::split_element(v.element);
            Wait {
                timeout: v.timeout,
                duration_ms: v.duration_ms,
                state: v.state,
                r#ref,
                selector,
                common: v.common,
            }
        }
    }

    impl TryFrom<Wait> for super::Wait {
        type Error = Missing;

        fn try_from(w: Wait) -> Result<Self, Missing> {
            Ok(super::Wait {
                element: keys::element(w.r#ref, w.selector),
                timeout: w.timeout,
                duration_ms: w.duration_ms,
                state: w.state,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Dialog {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub accept: Option<bool>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub prompt_text: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Dialog> for Dialog {
        fn from(v: super::Dialog) -> Self {
            Dialog {
                accept: (!v.accept).then_some(false),
                prompt_text: v.prompt_text,
                common: v.common,
            }
        }
    }

    impl TryFrom<Dialog> for super::Dialog {
        type Error = Missing;

        fn try_from(w: Dialog) -> Result<Self, Missing> {
            Ok(super::Dialog {
                accept: w.accept.unwrap_or(true),
                prompt_text: w.prompt_text,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct GoBack {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub timeout: Option<u32>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::GoBack> for GoBack {
        fn from(v: super::GoBack) -> Self {
            GoBack { timeout: (v.timeout != 30000).then_some(v.timeout), common: v.common }
        }
    }

    impl TryFrom<GoBack> for super::GoBack {
        type Error = Missing;

        fn try_from(w: GoBack) -> Result<Self, Missing> {
            Ok(super::GoBack { timeout: w.timeout.unwrap_or(30000), common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct GoForward {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub timeout: Option<u32>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::GoForward> for GoForward {
        fn from(v: super::GoForward) -> Self {
            GoForward { timeout: (v.timeout != 30000).then_some(v.timeout), common: v.common }
        }
    }

    impl TryFrom<GoForward> for super::GoForward {
        type Error = Missing;

        fn try_from(w: GoForward) -> Result<Self, Missing> {
            Ok(super::GoForward { timeout: w.timeout.unwrap_or(30000), common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Reload {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub timeout: Option<u32>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Reload> for Reload {
        fn from(v: super::Reload) -> Self {
            Reload { timeout: (v.timeout != 30000).then_some(v.timeout), common: v.common }
        }
    }

    impl TryFrom<Reload> for super::Reload {
        type Error = Missing;

        fn try_from(w: Reload) -> Result<Self, Missing> {
            Ok(super::Reload { timeout: w.timeout.unwrap_or(30000), common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct TabNew {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub url: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub visible: Option<bool>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub profile: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::TabNew> for TabNew {
        fn from(v: super::TabNew) -> Self {
            TabNew {
                url: v.url,
                visible: (!v.visible).then_some(false),
                profile: v.profile,
                common: v.common,
            }
        }
    }

    impl TryFrom<TabNew> for super::TabNew {
        type Error = Missing;

        fn try_from(w: TabNew) -> Result<Self, Missing> {
            Ok(super::TabNew {
                url: w.url,
                visible: w.visible.unwrap_or(true),
                profile: w.profile,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct TabSelect {
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::TabSelect> for TabSelect {
        fn from(v: super::TabSelect) -> Self {
            TabSelect { common: v.common }
        }
    }

    impl TryFrom<TabSelect> for super::TabSelect {
        type Error = Missing;

        fn try_from(w: TabSelect) -> Result<Self, Missing> {
            Ok(super::TabSelect { common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct TabGet {
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::TabGet> for TabGet {
        fn from(v: super::TabGet) -> Self {
            TabGet { common: v.common }
        }
    }

    impl TryFrom<TabGet> for super::TabGet {
        type Error = Missing;

        fn try_from(w: TabGet) -> Result<Self, Missing> {
            Ok(super::TabGet { common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct TabClose {
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::TabClose> for TabClose {
        fn from(v: super::TabClose) -> Self {
            TabClose { common: v.common }
        }
    }

    impl TryFrom<TabClose> for super::TabClose {
        type Error = Missing;

        fn try_from(w: TabClose) -> Result<Self, Missing> {
            Ok(super::TabClose { common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct TabMark {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub kind: Option<Kind>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub note: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub clear: Option<bool>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::TabMark> for TabMark {
        fn from(v: super::TabMark) -> Self {
            TabMark { kind: v.kind, note: v.note, clear: v.clear.then_some(true), common: v.common }
        }
    }

    impl TryFrom<TabMark> for super::TabMark {
        type Error = Missing;

        fn try_from(w: TabMark) -> Result<Self, Missing> {
            Ok(super::TabMark {
                kind: w.kind,
                note: w.note,
                clear: w.clear.unwrap_or(false),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct CdpSession {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub ttl_s: Option<u32>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::CdpSession> for CdpSession {
        fn from(v: super::CdpSession) -> Self {
            CdpSession { ttl_s: (v.ttl_s != 600).then_some(v.ttl_s), common: v.common }
        }
    }

    impl TryFrom<CdpSession> for super::CdpSession {
        type Error = Missing;

        fn try_from(w: CdpSession) -> Result<Self, Missing> {
            Ok(super::CdpSession { ttl_s: w.ttl_s.unwrap_or(600), common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct CdpRevoke {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub cdp_id: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::CdpRevoke> for CdpRevoke {
        fn from(v: super::CdpRevoke) -> Self {
            CdpRevoke { cdp_id: Some(v.cdp_id), common: v.common }
        }
    }

    impl TryFrom<CdpRevoke> for super::CdpRevoke {
        type Error = Missing;

        fn try_from(w: CdpRevoke) -> Result<Self, Missing> {
            Ok(super::CdpRevoke { cdp_id: w.cdp_id.ok_or(Missing("cdp_id"))?, common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct StorageState {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub load: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::StorageState> for StorageState {
        fn from(v: super::StorageState) -> Self {
            StorageState { load: v.load, common: v.common }
        }
    }

    impl TryFrom<StorageState> for super::StorageState {
        type Error = Missing;

        fn try_from(w: StorageState) -> Result<Self, Missing> {
            Ok(super::StorageState { load: w.load, common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Snapshot {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub limit: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub scope_ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub cursor: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub disable_diffing: Option<bool>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub query: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Snapshot> for Snapshot {
        fn from(v: super::Snapshot) -> Self {
            Snapshot {
                limit: (v.limit != 300).then_some(v.limit),
                scope_ref: v.scope_ref,
                cursor: v.cursor,
                disable_diffing: v.disable_diffing.then_some(true),
                query: v.query,
                common: v.common,
            }
        }
    }

    impl TryFrom<Snapshot> for super::Snapshot {
        type Error = Missing;

        fn try_from(w: Snapshot) -> Result<Self, Missing> {
            Ok(super::Snapshot {
                limit: w.limit.unwrap_or(300),
                scope_ref: w.scope_ref,
                cursor: w.cursor,
                disable_diffing: w.disable_diffing.unwrap_or(false),
                query: w.query,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct GetContent {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub offset: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub length: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::GetContent> for GetContent {
        fn from(v: super::GetContent) -> Self {
            let (r#ref, selector) = keys::split_element(v.element);
            GetContent {
                offset: (v.offset != 0).then_some(v.offset),
                length: v.length,
                r#ref,
                selector,
                common: v.common,
            }
        }
    }

    impl TryFrom<GetContent> for super::GetContent {
        type Error = Missing;

        fn try_from(w: GetContent) -> Result<Self, Missing> {
            Ok(super::GetContent {
                element: keys::element(w.r#ref, w.selector),
                offset: w.offset.unwrap_or(0),
                length: w.length,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct GetHtml {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub selector: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::GetHtml> for GetHtml {
        fn from(v: super::GetHtml) -> Self {
            let (r#ref, selector) = keys::split_element(v.element);
            GetHtml { r#ref, selector, common: v.common }
        }
    }

    impl TryFrom<GetHtml> for super::GetHtml {
        type Error = Missing;

        fn try_from(w: GetHtml) -> Result<Self, Missing> {
            Ok(super::GetHtml { element: keys::element(w.r#ref, w.selector), common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct GetUrl {
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::GetUrl> for GetUrl {
        fn from(v: super::GetUrl) -> Self {
            GetUrl { common: v.common }
        }
    }

    impl TryFrom<GetUrl> for super::GetUrl {
        type Error = Missing;

        fn try_from(w: GetUrl) -> Result<Self, Missing> {
            Ok(super::GetUrl { common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct GetTitle {
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::GetTitle> for GetTitle {
        fn from(v: super::GetTitle) -> Self {
            GetTitle { common: v.common }
        }
    }

    impl TryFrom<GetTitle> for super::GetTitle {
        type Error = Missing;

        fn try_from(w: GetTitle) -> Result<Self, Missing> {
            Ok(super::GetTitle { common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Screenshot {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub full_page: Option<bool>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub format: Option<Format>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub quality: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub max_width: Option<u32>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Screenshot> for Screenshot {
        fn from(v: super::Screenshot) -> Self {
            Screenshot {
                full_page: v.full_page.then_some(true),
                format: (v.format != Format::Png).then_some(v.format),
                quality: v.quality,
                max_width: v.max_width,
                common: v.common,
            }
        }
    }

    impl TryFrom<Screenshot> for super::Screenshot {
        type Error = Missing;

        fn try_from(w: Screenshot) -> Result<Self, Missing> {
            Ok(super::Screenshot {
                full_page: w.full_page.unwrap_or(false),
                format: w.format.unwrap_or(Format::Png),
                quality: w.quality,
                max_width: w.max_width,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct ScreenshotAnnotate {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub max_width: Option<u32>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::ScreenshotAnnotate> for ScreenshotAnnotate {
        fn from(v: super::ScreenshotAnnotate) -> Self {
            ScreenshotAnnotate { max_width: v.max_width, common: v.common }
        }
    }

    impl TryFrom<ScreenshotAnnotate> for super::ScreenshotAnnotate {
        type Error = Missing;

        fn try_from(w: ScreenshotAnnotate) -> Result<Self, Missing> {
            Ok(super::ScreenshotAnnotate { max_width: w.max_width, common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct StateAndScreenshot {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub limit: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub scope_ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub disable_diffing: Option<bool>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub query: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub full_page: Option<bool>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub format: Option<Format>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub quality: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub max_width: Option<u32>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::StateAndScreenshot> for StateAndScreenshot {
        fn from(v: super::StateAndScreenshot) -> Self {
            StateAndScreenshot {
                limit: (v.limit != 300).then_some(v.limit),
                scope_ref: v.scope_ref,
                disable_diffing: v.disable_diffing.then_some(true),
                query: v.query,
                full_page: v.full_page.then_some(true),
                format: (v.format != Format::Png).then_some(v.format),
                quality: v.quality,
                max_width: v.max_width,
                common: v.common,
            }
        }
    }

    impl TryFrom<StateAndScreenshot> for super::StateAndScreenshot {
        type Error = Missing;

        fn try_from(w: StateAndScreenshot) -> Result<Self, Missing> {
            Ok(super::StateAndScreenshot {
                limit: w.limit.unwrap_or(300),
                scope_ref: w.scope_ref,
                disable_diffing: w.disable_diffing.unwrap_or(false),
                query: w.query,
                full_page: w.full_page.unwrap_or(false),
                format: w.format.unwrap_or(Format::Png),
                quality: w.quality,
                max_width: w.max_width,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Evaluate {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub script: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Evaluate> for Evaluate {
        fn from(v: super::Evaluate) -> Self {
            Evaluate { script: Some(v.script), common: v.common }
        }
    }

    impl TryFrom<Evaluate> for super::Evaluate {
        type Error = Missing;

        fn try_from(w: Evaluate) -> Result<Self, Missing> {
            Ok(super::Evaluate { script: w.script.ok_or(Missing("script"))?, common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Pdf {
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Pdf> for Pdf {
        fn from(v: super::Pdf) -> Self {
            Pdf { common: v.common }
        }
    }

    impl TryFrom<Pdf> for super::Pdf {
        type Error = Missing;

        fn try_from(w: Pdf) -> Result<Self, Missing> {
            Ok(super::Pdf { common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct TabList {
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::TabList> for TabList {
        fn from(v: super::TabList) -> Self {
            TabList { common: v.common }
        }
    }

    impl TryFrom<TabList> for super::TabList {
        type Error = Missing;

        fn try_from(w: TabList) -> Result<Self, Missing> {
            Ok(super::TabList { common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Downloads {
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Downloads> for Downloads {
        fn from(v: super::Downloads) -> Self {
            Downloads { common: v.common }
        }
    }

    impl TryFrom<Downloads> for super::Downloads {
        type Error = Missing;

        fn try_from(w: Downloads) -> Result<Self, Missing> {
            Ok(super::Downloads { common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Probe {
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Probe> for Probe {
        fn from(v: super::Probe) -> Self {
            Probe { common: v.common }
        }
    }

    impl TryFrom<Probe> for super::Probe {
        type Error = Missing;

        fn try_from(w: Probe) -> Result<Self, Missing> {
            Ok(super::Probe { common: w.common })
        }
    }
}
