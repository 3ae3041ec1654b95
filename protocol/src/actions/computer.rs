//! Typed params of the `computer` tool's actions, generated from the contract table
//! (`protocol/src/contract/computer.rs`) by `cargo xtask codegen`; do not edit.
//!
//! Act on and read desktop apps through accessibility and X11. Take a snapshot first; refs eN from
//! it name elements; x,y are screen pixels, nx,ny fractions 0..1 of the screen, to_x, to_y, to_nx,
//! to_ny a drop point. Every action also accepts app_id (from list_apps), window_id (from
//! list_windows) and snapshot_id (the refs' snapshot; default the latest). Acting ones take
//! dispatch: auto, background (accessibility only; pointer and focus untouched) or foreground (real
//! input). Real input naming a target activates its window first or answers NOT_FOCUSED; results
//! say delivered_to. type takes secret or secret_totp (list_secrets).

// The contract's docs quote URLs as examples, not as links.
#![allow(rustdoc::bare_urls)]

use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use super::{keys, Element, Missing, Params, Region};

/// A point of this tool: `x,y` (u32) or `nx,ny`.
pub type Point = super::Point<u32>;

/// An element (String) or a point.
pub type Target = super::Target<String, u32>;

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

/// One of `auto`, `background`, `foreground`.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dispatch {
    #[serde(rename = "auto")]
    Auto,
    #[serde(rename = "background")]
    Background,
    #[serde(rename = "foreground")]
    Foreground,
}

impl Dispatch {
    /// The word the wire carries.
    pub fn as_str(self) -> &'static str {
        match self {
            Dispatch::Auto => "auto",
            Dispatch::Background => "background",
            Dispatch::Foreground => "foreground",
        }
    }
}

/// One of `png`, `jpeg`, `webp`, `text`, `html`.
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
        }
    }
}

/// One of `minimize`, `maximize`, `restore`, `close`, `move`, `resize`.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operation {
    #[serde(rename = "minimize")]
    Minimize,
    #[serde(rename = "maximize")]
    Maximize,
    #[serde(rename = "restore")]
    Restore,
    #[serde(rename = "close")]
    Close,
    #[serde(rename = "move")]
    Move,
    #[serde(rename = "resize")]
    Resize,
}

impl Operation {
    /// The word the wire carries.
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Minimize => "minimize",
            Operation::Maximize => "maximize",
            Operation::Restore => "restore",
            Operation::Close => "close",
            Operation::Move => "move",
            Operation::Resize => "resize",
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

/// One of `element_appears`, `element_disappears`, `window_opens`.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Until {
    #[serde(rename = "element_appears")]
    ElementAppears,
    #[serde(rename = "element_disappears")]
    ElementDisappears,
    #[serde(rename = "window_opens")]
    WindowOpens,
}

impl Until {
    /// The word the wire carries.
    pub fn as_str(self) -> &'static str {
        match self {
            Until::ElementAppears => "element_appears",
            Until::ElementDisappears => "element_disappears",
            Until::WindowOpens => "window_opens",
        }
    }
}

/// What every `computer` action takes besides its own params: `app_id`, `window_id`, `snapshot_id`.
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq)]
pub struct Common {
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

/// What the daemon reads of any `computer` action's params before its handler runs.
pub trait Shared {
    fn common(&self) -> &Common;
    /// The ref the action's locator names, if it names one.
    fn named_ref(&self) -> Option<&str>;
}

/// `computer.click`: click an element (its accessibility action when plain) or a screen point
/// (inside the named window's frame); returns via, where and the element at a point. Target: ref or
/// x,y / nx,ny. Mutating (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Click", into = "wire::Click")]
pub struct Click {
    /// Target: ref or x,y / nx,ny.
    pub target: Target,
    /// mouse button. One of `left`, `middle`, `right`. Default `left`.
    pub button: Button,
    /// 1 single, 2 double, 3 triple click. Range 1..=3. Default 1.
    pub click_count: u32,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    pub dispatch: Dispatch,
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
            dispatch: Dispatch::Auto,
            common: Common::default(),
        }
    }
}

impl Params for Click {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "click";
    type Result = crate::results::computer::Click;
}

impl Shared for Click {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.target.element().map(String::as_str)
    }
}

/// `computer.double_click`: double-click an element or a screen point; returns via and where.
/// Target: ref or x,y / nx,ny. Mutating (actor role); a capture follows unless the call says
/// capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::DoubleClick", into = "wire::DoubleClick")]
pub struct DoubleClick {
    /// Target: ref or x,y / nx,ny.
    pub target: Target,
    /// mouse button. One of `left`, `middle`, `right`. Default `left`.
    pub button: Button,
    /// always 2 for double_click; omit it. Range 1..=3. Default 2.
    pub click_count: u32,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    pub dispatch: Dispatch,
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
            dispatch: Dispatch::Auto,
            common: Common::default(),
        }
    }
}

impl Params for DoubleClick {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "double_click";
    type Result = crate::results::computer::DoubleClick;
}

impl Shared for DoubleClick {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.target.element().map(String::as_str)
    }
}

/// `computer.type`: type any Unicode text into an element (EditableText, replacing its selection)
/// or as keystrokes into the named target (its window activated first) (else NOT_FOCUSED); read
/// back with a ref; returns via, value, delivered_to. Optional target: ref. Mutating (actor role);
/// a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Type", into = "wire::Type")]
pub struct Type {
    /// Optional target: ref.
    pub r#ref: Option<String>,
    /// the text, exactly as it should appear. Not empty.
    pub text: Option<String>,
    /// a secret's name (list_secrets) to type instead of text (never shown). Not empty.
    pub secret: Option<String>,
    /// a secret's name whose current TOTP code to type (its seed's). Not empty.
    pub secret_totp: Option<String>,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    pub dispatch: Dispatch,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for Type {
    /// Every param at the table's default.
    fn default() -> Self {
        Type {
            r#ref: None,
            text: None,
            secret: None,
            secret_totp: None,
            dispatch: Dispatch::Auto,
            common: Common::default(),
        }
    }
}

impl Params for Type {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "type";
    type Result = crate::results::computer::Type;
}

impl Shared for Type {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.r#ref.as_deref()
    }
}

/// `computer.fill`: replace an element's or the focused widget's text ("" clears it); returns the
/// value and via. Optional target: ref. Mutating (actor role); a capture follows unless the call
/// says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Fill", into = "wire::Fill")]
pub struct Fill {
    /// Optional target: ref.
    pub r#ref: Option<String>,
    /// **Required.** the new content; "" clears the field.
    pub text: String,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    pub dispatch: Dispatch,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Fill {
    /// The required params; every other one at the table's default.
    pub fn new(text: impl Into<String>) -> Self {
        Fill { r#ref: None, text: text.into(), dispatch: Dispatch::Auto, common: Common::default() }
    }
}

impl Params for Fill {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "fill";
    type Result = crate::results::computer::Fill;
}

impl Shared for Fill {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.r#ref.as_deref()
    }
}

/// `computer.set_value`: set an element's text or numeric value (range-checked); returns the value
/// and via. Target: ref. Mutating (actor role); a capture follows unless the call says capture
/// false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::SetValue", into = "wire::SetValue")]
pub struct SetValue {
    /// Target: ref.
    pub r#ref: String,
    /// **Required.** the value to set.
    pub value: String,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    pub dispatch: Dispatch,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl SetValue {
    /// The required params; every other one at the table's default.
    pub fn new(element: impl Into<String>, value: impl Into<String>) -> Self {
        SetValue {
            r#ref: element.into(),
            value: value.into(),
            dispatch: Dispatch::Auto,
            common: Common::default(),
        }
    }
}

impl Params for SetValue {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "set_value";
    type Result = crate::results::computer::SetValue;
}

impl Shared for SetValue {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        Some(self.r#ref.as_str())
    }
}

/// `computer.paste`: paste through the clipboard (saved and restored) into an element or the
/// target's focus (its window activated first); a selection is replaced; ACTION_FAILED when it did
/// not land; returns value, delivered_to and the clipboard outcome. Optional target: ref. Mutating
/// (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Paste", into = "wire::Paste")]
pub struct Paste {
    /// Optional target: ref.
    pub r#ref: Option<String>,
    /// **Required.** what to paste. Not empty.
    pub text: String,
    /// paste and clipboard: text or html (default text); screenshots: png, jpeg or webp (default
    /// png). One of `png`, `jpeg`, `webp`, `text`, `html`. Default `text`.
    pub format: Format,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    pub dispatch: Dispatch,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Paste {
    /// The required params; every other one at the table's default.
    pub fn new(text: impl Into<String>) -> Self {
        Paste {
            r#ref: None,
            text: text.into(),
            format: Format::Text,
            dispatch: Dispatch::Auto,
            common: Common::default(),
        }
    }
}

impl Params for Paste {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "paste";
    type Result = crate::results::computer::Paste;
}

impl Shared for Paste {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.r#ref.as_deref()
    }
}

/// `computer.select_text`: select the unique match of text in an element (or put the caret next to
/// it); returns the offsets. Target: ref. Mutating (actor role); a capture follows unless the call
/// says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::SelectText", into = "wire::SelectText")]
pub struct SelectText {
    /// Target: ref.
    pub r#ref: String,
    /// **Required.** the text to find; it must match exactly once. Not empty.
    pub text: String,
    /// text right before the match (to make it unique). Not empty.
    pub prefix: Option<String>,
    /// text right after the match (to make it unique). Not empty.
    pub suffix: Option<String>,
    /// select the match, or place the caret (before/after it). One of `select`, `cursor_before`,
    /// `cursor_after`. Default `select`.
    pub selection_type: SelectionType,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    pub dispatch: Dispatch,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl SelectText {
    /// The required params; every other one at the table's default.
    pub fn new(element: impl Into<String>, text: impl Into<String>) -> Self {
        SelectText {
            r#ref: element.into(),
            text: text.into(),
            prefix: None,
            suffix: None,
            selection_type: SelectionType::Select,
            dispatch: Dispatch::Auto,
            common: Common::default(),
        }
    }
}

impl Params for SelectText {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "select_text";
    type Result = crate::results::computer::SelectText;
}

impl Shared for SelectText {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        Some(self.r#ref.as_str())
    }
}

/// `computer.secondary_action`: run an action the snapshot listed for the element (actions=...);
/// returns what ran. Target: ref. Mutating (actor role); a capture follows unless the call says
/// capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::SecondaryAction", into = "wire::SecondaryAction")]
pub struct SecondaryAction {
    /// Target: ref.
    pub r#ref: String,
    /// **Required.** an action name the snapshot listed for the element. Not empty.
    pub name: String,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    pub dispatch: Dispatch,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl SecondaryAction {
    /// The required params; every other one at the table's default.
    pub fn new(element: impl Into<String>, name: impl Into<String>) -> Self {
        SecondaryAction {
            r#ref: element.into(),
            name: name.into(),
            dispatch: Dispatch::Auto,
            common: Common::default(),
        }
    }
}

impl Params for SecondaryAction {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "secondary_action";
    type Result = crate::results::computer::SecondaryAction;
}

impl Shared for SecondaryAction {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        Some(self.r#ref.as_str())
    }
}

/// `computer.key`: press a key or chord (any key: F1-F24, Insert, media keys, +) in the named
/// target (activated first) or the active window; returns the chord and delivered_to. Mutating
/// (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Key", into = "wire::Key")]
pub struct Key {
    /// **Required.** a key or chord such as Enter, Control+Shift+T, F5, PageDown or +. Not empty.
    pub key: String,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    pub dispatch: Dispatch,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Key {
    /// The required params; every other one at the table's default.
    pub fn new(key: impl Into<String>) -> Self {
        Key { key: key.into(), dispatch: Dispatch::Auto, common: Common::default() }
    }
}

impl Params for Key {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "key";
    type Result = crate::results::computer::Key;
}

impl Shared for Key {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `computer.keydown`: hold a key down; later keys include it; returns the keys held. Mutating
/// (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Keydown", into = "wire::Keydown")]
pub struct Keydown {
    /// **Required.** a key or chord such as Enter, Control+Shift+T, F5, PageDown or +. Not empty.
    pub key: String,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    pub dispatch: Dispatch,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Keydown {
    /// The required params; every other one at the table's default.
    pub fn new(key: impl Into<String>) -> Self {
        Keydown { key: key.into(), dispatch: Dispatch::Auto, common: Common::default() }
    }
}

impl Params for Keydown {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "keydown";
    type Result = crate::results::computer::Keydown;
}

impl Shared for Keydown {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `computer.keyup`: release a held key; returns the keys still held. Mutating (actor role); a
/// capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Keyup", into = "wire::Keyup")]
pub struct Keyup {
    /// **Required.** a key or chord such as Enter, Control+Shift+T, F5, PageDown or +. Not empty.
    pub key: String,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    pub dispatch: Dispatch,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Keyup {
    /// The required params; every other one at the table's default.
    pub fn new(key: impl Into<String>) -> Self {
        Keyup { key: key.into(), dispatch: Dispatch::Auto, common: Common::default() }
    }
}

impl Params for Keyup {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "keyup";
    type Result = crate::results::computer::Keyup;
}

impl Shared for Keyup {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `computer.scroll`: scroll an element, at a point or at the screen centre (by pixels or pages);
/// returns where and how far. Optional target: ref or x,y / nx,ny. Mutating (actor role); a capture
/// follows unless the call says capture false. `amount` and `pages` are exclusive.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Scroll", into = "wire::Scroll")]
pub struct Scroll {
    /// Optional target: ref or x,y / nx,ny.
    pub target: Option<Target>,
    /// scroll direction. One of `up`, `down`, `left`, `right`. Default `down`.
    pub direction: Direction,
    /// distance in pixels (exclusive with pages). Range 1..=10000.
    pub amount: Option<u32>,
    /// distance in pages (of the scrolled box). Range 0.1..=20.0.
    pub pages: Option<f64>,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    pub dispatch: Dispatch,
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
            dispatch: Dispatch::Auto,
            common: Common::default(),
        }
    }
}

impl Params for Scroll {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "scroll";
    type Result = crate::results::computer::Scroll;
}

impl Shared for Scroll {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        self.target.as_ref().and_then(|t| t.element()).map(String::as_str)
    }
}

/// `computer.drag`: press at a point, move to the drop target and release (also on failure);
/// returns both points. Target: x,y / nx,ny. Mutating (actor role); a capture follows unless the
/// call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Drag", into = "wire::Drag")]
pub struct Drag {
    /// Target: x,y / nx,ny.
    pub point: Point,
    /// drop point x in screen pixels. Range 0..=65535.
    pub to_x: Option<u32>,
    /// drop point y in screen pixels. Range 0..=65535.
    pub to_y: Option<u32>,
    /// drop point x as a fraction of the width, 0..1. Range 0.0..=1.0.
    pub to_nx: Option<f64>,
    /// drop point y as a fraction of the height, 0..1. Range 0.0..=1.0.
    pub to_ny: Option<f64>,
    /// drop on this element ref from the latest snapshot.
    pub target_ref: Option<String>,
    /// mouse button. One of `left`, `middle`, `right`. Default `left`.
    pub button: Button,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    pub dispatch: Dispatch,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Drag {
    /// The required params; every other one at the table's default.
    pub fn new(point: impl Into<Point>) -> Self {
        Drag {
            point: point.into(),
            to_x: None,
            to_y: None,
            to_nx: None,
            to_ny: None,
            target_ref: None,
            button: Button::Left,
            dispatch: Dispatch::Auto,
            common: Common::default(),
        }
    }
}

impl Params for Drag {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "drag";
    type Result = crate::results::computer::Drag;
}

impl Shared for Drag {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `computer.mouse_move`: move the pointer to a point; returns it and the buttons held. Target: x,y
/// / nx,ny. Mutating (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::MouseMove", into = "wire::MouseMove")]
pub struct MouseMove {
    /// Target: x,y / nx,ny.
    pub point: Point,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    pub dispatch: Dispatch,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl MouseMove {
    /// The required params; every other one at the table's default.
    pub fn new(point: impl Into<Point>) -> Self {
        MouseMove { point: point.into(), dispatch: Dispatch::Auto, common: Common::default() }
    }
}

impl Params for MouseMove {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "mouse_move";
    type Result = crate::results::computer::MouseMove;
}

impl Shared for MouseMove {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `computer.mouse_down`: press a mouse button, at a point or where the pointer is; held until
/// mouse_up or an error. Optional point: x,y / nx,ny. Mutating (actor role); a capture follows
/// unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::MouseDown", into = "wire::MouseDown")]
pub struct MouseDown {
    /// Optional point: x,y / nx,ny.
    pub point: Option<Point>,
    /// mouse button. One of `left`, `middle`, `right`. Default `left`.
    pub button: Button,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    pub dispatch: Dispatch,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for MouseDown {
    /// Every param at the table's default.
    fn default() -> Self {
        MouseDown {
            point: None,
            button: Button::Left,
            dispatch: Dispatch::Auto,
            common: Common::default(),
        }
    }
}

impl Params for MouseDown {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "mouse_down";
    type Result = crate::results::computer::MouseDown;
}

impl Shared for MouseDown {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `computer.mouse_up`: release a held mouse button, at a point or where the pointer is; returns
/// the buttons held. Optional point: x,y / nx,ny. Mutating (actor role); a capture follows unless
/// the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::MouseUp", into = "wire::MouseUp")]
pub struct MouseUp {
    /// Optional point: x,y / nx,ny.
    pub point: Option<Point>,
    /// mouse button. One of `left`, `middle`, `right`. Default `left`.
    pub button: Button,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    pub dispatch: Dispatch,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for MouseUp {
    /// Every param at the table's default.
    fn default() -> Self {
        MouseUp {
            point: None,
            button: Button::Left,
            dispatch: Dispatch::Auto,
            common: Common::default(),
        }
    }
}

impl Params for MouseUp {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "mouse_up";
    type Result = crate::results::computer::MouseUp;
}

impl Shared for MouseUp {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `computer.window`: minimize, maximize, restore, close, move or resize a window (window_id);
/// returns its new state. Mutating (actor role); a capture follows unless the call says capture
/// false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Window", into = "wire::Window")]
pub struct Window {
    /// **Required.** move takes x,y; resize takes width,height. One of `minimize`, `maximize`,
    /// `restore`, `close`, `move`, `resize`.
    pub operation: Operation,
    /// screen x in pixels. Range 0..=65535.
    pub x: Option<u32>,
    /// screen y in pixels. Range 0..=65535.
    pub y: Option<u32>,
    /// new width in screen pixels. Range 1..=65535.
    pub width: Option<u32>,
    /// new height in screen pixels. Range 1..=65535.
    pub height: Option<u32>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Window {
    /// The required params; every other one at the table's default.
    pub fn new(operation: Operation) -> Self {
        Window { operation, x: None, y: None, width: None, height: None, common: Common::default() }
    }
}

impl Params for Window {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "window";
    type Result = crate::results::computer::Window;
}

impl Shared for Window {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `computer.wait`: pause for duration_ms, or until an element appears/disappears or a window
/// opens; returns what happened. Observes only (observer tokens may call it). `timeout` and
/// `duration_ms` are exclusive.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Wait", into = "wire::Wait")]
pub struct Wait {
    /// a fixed pause in ms (exclusive with timeout). Range 0..=60000.
    pub duration_ms: Option<u32>,
    /// the event to wait for (up to timeout). One of `element_appears`, `element_disappears`,
    /// `window_opens`.
    pub until: Option<Until>,
    /// words matched against role, name or value (wait: the element or window title to wait for;
    /// snapshot: the lines to keep). Not empty.
    pub query: Option<String>,
    /// how long to wait in ms (30000 when omitted) (exclusive with duration_ms). Range 1..=60000.
    pub timeout: Option<u32>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for Wait {
    /// Every param at the table's default.
    fn default() -> Self {
        Wait {
            duration_ms: None,
            until: None,
            query: None,
            timeout: None,
            common: Common::default(),
        }
    }
}

impl Params for Wait {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "wait";
    type Result = crate::results::computer::Wait;
}

impl Shared for Wait {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `computer.snapshot`: ref-annotated outline of an app, a window or the desktop; returns
/// snapshot_id, mode, counts, truncation, and warnings naming any app that stopped answering
/// mid-walk. Observes only (observer tokens may call it).
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
    /// deepest tree level to walk. Range 1..=200.
    pub max_depth: Option<u32>,
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
            max_depth: None,
            common: Common::default(),
        }
    }
}

impl Params for Snapshot {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "snapshot";
    type Result = crate::results::computer::Snapshot;
}

impl Shared for Snapshot {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `computer.get_window_state`: one window's element tree plus its screenshot (window_id required).
/// Observes only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::GetWindowState", into = "wire::GetWindowState")]
pub struct GetWindowState {
    /// add a screenshot of the window. Default true.
    pub include_screenshot: bool,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for GetWindowState {
    /// Every param at the table's default.
    fn default() -> Self {
        GetWindowState { include_screenshot: true, common: Common::default() }
    }
}

impl Params for GetWindowState {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "get_window_state";
    type Result = crate::results::computer::GetWindowState;
}

impl Shared for GetWindowState {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `computer.screenshot`: capture the screen, a window or a region; returns the image with width,
/// height and scale. Observes only (observer tokens may call it). `window_id` and `region` are
/// exclusive.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Screenshot", into = "wire::Screenshot")]
pub struct Screenshot {
    /// capture only this screen rectangle {x, y, width, height}.
    pub region: Option<Region>,
    /// paste and clipboard: text or html (default text); screenshots: png, jpeg or webp (default
    /// png). One of `png`, `jpeg`, `webp`, `text`, `html`. Default `png`.
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
            region: None,
            format: Format::Png,
            quality: None,
            max_width: None,
            common: Common::default(),
        }
    }
}

impl Params for Screenshot {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "screenshot";
    type Result = crate::results::computer::Screenshot;
}

impl Shared for Screenshot {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `computer.state_and_screenshot`: a snapshot and a screenshot together; returns both and a
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
    /// deepest tree level to walk. Range 1..=200.
    pub max_depth: Option<u32>,
    /// paste and clipboard: text or html (default text); screenshots: png, jpeg or webp (default
    /// png). One of `png`, `jpeg`, `webp`, `text`, `html`. Default `png`.
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
            max_depth: None,
            format: Format::Png,
            quality: None,
            max_width: None,
            common: Common::default(),
        }
    }
}

impl Params for StateAndScreenshot {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "state_and_screenshot";
    type Result = crate::results::computer::StateAndScreenshot;
}

impl Shared for StateAndScreenshot {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `computer.get_text`: an element's whole text with its caret and selection; offset and length
/// read a range; returns text, total_chars, truncated and next_offset when more follows. Target:
/// ref. Observes only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::GetText", into = "wire::GetText")]
pub struct GetText {
    /// Target: ref.
    pub r#ref: String,
    /// the first character to return (Unicode characters, counted from 0). Range 0..=2147483647.
    /// Default 0.
    pub offset: u32,
    /// at most this many characters from offset (default: to the end; the daemon's --max-text-chars
    /// cuts longer answers, which say truncated and next_offset). Range 1..=2147483647.
    pub length: Option<u32>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl GetText {
    /// The required params; every other one at the table's default.
    pub fn new(element: impl Into<String>) -> Self {
        GetText { r#ref: element.into(), offset: 0, length: None, common: Common::default() }
    }
}

impl Params for GetText {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "get_text";
    type Result = crate::results::computer::GetText;
}

impl Shared for GetText {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        Some(self.r#ref.as_str())
    }
}

/// `computer.clipboard_get`: the clipboard's content as text or html (actors and admins: it may
/// hold secrets). Reads the clipboard (actor and admin roles; observers may not).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::ClipboardGet", into = "wire::ClipboardGet")]
pub struct ClipboardGet {
    /// paste and clipboard: text or html (default text); screenshots: png, jpeg or webp (default
    /// png). One of `png`, `jpeg`, `webp`, `text`, `html`. Default `text`.
    pub format: Format,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for ClipboardGet {
    /// Every param at the table's default.
    fn default() -> Self {
        ClipboardGet { format: Format::Text, common: Common::default() }
    }
}

impl Params for ClipboardGet {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "clipboard_get";
    type Result = crate::results::computer::ClipboardGet;
}

impl Shared for ClipboardGet {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `computer.clipboard_set`: put text or html on the clipboard; returns what was set. Mutating
/// (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::ClipboardSet", into = "wire::ClipboardSet")]
pub struct ClipboardSet {
    /// **Required.** what to put on the clipboard; "" empties it.
    pub text: String,
    /// paste and clipboard: text or html (default text); screenshots: png, jpeg or webp (default
    /// png). One of `png`, `jpeg`, `webp`, `text`, `html`. Default `text`.
    pub format: Format,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl ClipboardSet {
    /// The required params; every other one at the table's default.
    pub fn new(text: impl Into<String>) -> Self {
        ClipboardSet { text: text.into(), format: Format::Text, common: Common::default() }
    }
}

impl Params for ClipboardSet {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "clipboard_set";
    type Result = crate::results::computer::ClipboardSet;
}

impl Shared for ClipboardSet {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `computer.probe`: what works: accessibility, display, input, screenshot and clipboard, each with
/// a reason when not. Observes only (observer tokens may call it).
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
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "probe";
    type Result = crate::results::computer::Probe;
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
    ("click", super::round_trip::<Click>),
    ("double_click", super::round_trip::<DoubleClick>),
    ("type", super::round_trip::<Type>),
    ("fill", super::round_trip::<Fill>),
    ("set_value", super::round_trip::<SetValue>),
    ("paste", super::round_trip::<Paste>),
    ("select_text", super::round_trip::<SelectText>),
    ("secondary_action", super::round_trip::<SecondaryAction>),
    ("key", super::round_trip::<Key>),
    ("keydown", super::round_trip::<Keydown>),
    ("keyup", super::round_trip::<Keyup>),
    ("scroll", super::round_trip::<Scroll>),
    ("drag", super::round_trip::<Drag>),
    ("mouse_move", super::round_trip::<MouseMove>),
    ("mouse_down", super::round_trip::<MouseDown>),
    ("mouse_up", super::round_trip::<MouseUp>),
    ("window", super::round_trip::<Window>),
    ("wait", super::round_trip::<Wait>),
    ("snapshot", super::round_trip::<Snapshot>),
    ("get_window_state", super::round_trip::<GetWindowState>),
    ("screenshot", super::round_trip::<Screenshot>),
    ("state_and_screenshot", super::round_trip::<StateAndScreenshot>),
    ("get_text", super::round_trip::<GetText>),
    ("clipboard_get", super::round_trip::<ClipboardGet>),
    ("clipboard_set", super::round_trip::<ClipboardSet>),
    ("probe", super::round_trip::<Probe>),
];

/// Every action's result schema by action name (`crate::results::computer`).
pub static RESULT_SCHEMAS: &[(&str, super::ResultSchema)] = &[
    ("click", <Click as Params>::result_schema),
    ("double_click", <DoubleClick as Params>::result_schema),
    ("type", <Type as Params>::result_schema),
    ("fill", <Fill as Params>::result_schema),
    ("set_value", <SetValue as Params>::result_schema),
    ("paste", <Paste as Params>::result_schema),
    ("select_text", <SelectText as Params>::result_schema),
    ("secondary_action", <SecondaryAction as Params>::result_schema),
    ("key", <Key as Params>::result_schema),
    ("keydown", <Keydown as Params>::result_schema),
    ("keyup", <Keyup as Params>::result_schema),
    ("scroll", <Scroll as Params>::result_schema),
    ("drag", <Drag as Params>::result_schema),
    ("mouse_move", <MouseMove as Params>::result_schema),
    ("mouse_down", <MouseDown as Params>::result_schema),
    ("mouse_up", <MouseUp as Params>::result_schema),
    ("window", <Window as Params>::result_schema),
    ("wait", <Wait as Params>::result_schema),
    ("snapshot", <Snapshot as Params>::result_schema),
    ("get_window_state", <GetWindowState as Params>::result_schema),
    ("screenshot", <Screenshot as Params>::result_schema),
    ("state_and_screenshot", <StateAndScreenshot as Params>::result_schema),
    ("get_text", <GetText as Params>::result_schema),
    ("clipboard_get", <ClipboardGet as Params>::result_schema),
    ("clipboard_set", <ClipboardSet as Params>::result_schema),
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
    pub struct Click {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub button: Option<Button>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub click_count: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub dispatch: Option<Dispatch>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub x: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub y: Option<u32>,
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
            let r#ref = element;
            let (x, y, nx, ny) = keys::split_point(point);
            Click {
                button: (v.button != Button::Left).then_some(v.button),
                click_count: (v.click_count != 1).then_some(v.click_count),
                dispatch: (v.dispatch != Dispatch::Auto).then_some(v.dispatch),
                r#ref,
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
            let element = w.r#ref;
            let point = keys::point(w.x, w.y, w.nx, w.ny);
            Ok(super::Click {
                target: keys::target(element, point)
                    .ok_or(Missing("target: ref or x,y / nx,ny"))?,
                button: w.button.unwrap_or(Button::Left),
                click_count: w.click_count.unwrap_or(1),
                dispatch: w.dispatch.unwrap_or(Dispatch::Auto),
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
        pub dispatch: Option<Dispatch>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub x: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub y: Option<u32>,
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
            let r#ref = element;
            let (x, y, nx, ny) = keys::split_point(point);
            DoubleClick {
                button: (v.button != Button::Left).then_some(v.button),
                click_count: (v.click_count != 2).then_some(v.click_count),
                dispatch: (v.dispatch != Dispatch::Auto).then_some(v.dispatch),
                r#ref,
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
            let element = w.r#ref;
            let point = keys::point(w.x, w.y, w.nx, w.ny);
            Ok(super::DoubleClick {
                target: keys::target(element, point)
                    .ok_or(Missing("target: ref or x,y / nx,ny"))?,
                button: w.button.unwrap_or(Button::Left),
                click_count: w.click_count.unwrap_or(2),
                dispatch: w.dispatch.unwrap_or(Dispatch::Auto),
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
        pub dispatch: Option<Dispatch>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Type> for Type {
        fn from(v: super::Type) -> Self {
            let r#ref = v.r#ref;
            Type {
                text: v.text,
                secret: v.secret,
                secret_totp: v.secret_totp,
                dispatch: (v.dispatch != Dispatch::Auto).then_some(v.dispatch),
                r#ref,
                common: v.common,
            }
        }
    }

    impl TryFrom<Type> for super::Type {
        type Error = Missing;

        fn try_from(w: Type) -> Result<Self, Missing> {
            Ok(super::Type {
                r#ref: w.r#ref,
                text: w.text,
                secret: w.secret,
                secret_totp: w.secret_totp,
                dispatch: w.dispatch.unwrap_or(Dispatch::Auto),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Fill {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub text: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub dispatch: Option<Dispatch>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Fill> for Fill {
        fn from(v: super::Fill) -> Self {
            let r#ref = v.r#ref;
            Fill {
                text: Some(v.text),
                dispatch: (v.dispatch != Dispatch::Auto).then_some(v.dispatch),
                r#ref,
                common: v.common,
            }
        }
    }

    impl TryFrom<Fill> for super::Fill {
        type Error = Missing;

        fn try_from(w: Fill) -> Result<Self, Missing> {
            Ok(super::Fill {
                r#ref: w.r#ref,
                text: w.text.ok_or(Missing("text"))?,
                dispatch: w.dispatch.unwrap_or(Dispatch::Auto),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct SetValue {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub value: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub dispatch: Option<Dispatch>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::SetValue> for SetValue {
        fn from(v: super::SetValue) -> Self {
            let r#ref = Some(v.r#ref);
            SetValue {
                value: Some(v.value),
                dispatch: (v.dispatch != Dispatch::Auto).then_some(v.dispatch),
                r#ref,
                common: v.common,
            }
        }
    }

    impl TryFrom<SetValue> for super::SetValue {
        type Error = Missing;

        fn try_from(w: SetValue) -> Result<Self, Missing> {
            Ok(super::SetValue {
                r#ref: w.r#ref.ok_or(Missing("target: ref"))?,
                value: w.value.ok_or(Missing("value"))?,
                dispatch: w.dispatch.unwrap_or(Dispatch::Auto),
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
        pub dispatch: Option<Dispatch>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Paste> for Paste {
        fn from(v: super::Paste) -> Self {
            let r#ref = v.r#ref;
            Paste {
                text: Some(v.text),
                format: (v.format != Format::Text).then_some(v.format),
                dispatch: (v.dispatch != Dispatch::Auto).then_some(v.dispatch),
                r#ref,
                common: v.common,
            }
        }
    }

    impl TryFrom<Paste> for super::Paste {
        type Error = Missing;

        fn try_from(w: Paste) -> Result<Self, Missing> {
            Ok(super::Paste {
                r#ref: w.r#ref,
                text: w.text.ok_or(Missing("text"))?,
                format: w.format.unwrap_or(Format::Text),
                dispatch: w.dispatch.unwrap_or(Dispatch::Auto),
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
        pub dispatch: Option<Dispatch>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::SelectText> for SelectText {
        fn from(v: super::SelectText) -> Self {
            let r#ref = Some(v.r#ref);
            SelectText {
                text: Some(v.text),
                prefix: v.prefix,
                suffix: v.suffix,
                selection_type: (v.selection_type != SelectionType::Select)
                    .then_some(v.selection_type),
                dispatch: (v.dispatch != Dispatch::Auto).then_some(v.dispatch),
                r#ref,
                common: v.common,
            }
        }
    }

    impl TryFrom<SelectText> for super::SelectText {
        type Error = Missing;

        fn try_from(w: SelectText) -> Result<Self, Missing> {
            Ok(super::SelectText {
                r#ref: w.r#ref.ok_or(Missing("target: ref"))?,
                text: w.text.ok_or(Missing("text"))?,
                prefix: w.prefix,
                suffix: w.suffix,
                selection_type: w.selection_type.unwrap_or(SelectionType::Select),
                dispatch: w.dispatch.unwrap_or(Dispatch::Auto),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct SecondaryAction {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub name: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub dispatch: Option<Dispatch>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::SecondaryAction> for SecondaryAction {
        fn from(v: super::SecondaryAction) -> Self {
            let r#ref = Some(v.r#ref);
            SecondaryAction {
                name: Some(v.name),
                dispatch: (v.dispatch != Dispatch::Auto).then_some(v.dispatch),
                r#ref,
                common: v.common,
            }
        }
    }

    impl TryFrom<SecondaryAction> for super::SecondaryAction {
        type Error = Missing;

        fn try_from(w: SecondaryAction) -> Result<Self, Missing> {
            Ok(super::SecondaryAction {
                r#ref: w.r#ref.ok_or(Missing("target: ref"))?,
                name: w.name.ok_or(Missing("name"))?,
                dispatch: w.dispatch.unwrap_or(Dispatch::Auto),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Key {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub key: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub dispatch: Option<Dispatch>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Key> for Key {
        fn from(v: super::Key) -> Self {
            Key {
                key: Some(v.key),
                dispatch: (v.dispatch != Dispatch::Auto).then_some(v.dispatch),
                common: v.common,
            }
        }
    }

    impl TryFrom<Key> for super::Key {
        type Error = Missing;

        fn try_from(w: Key) -> Result<Self, Missing> {
            Ok(super::Key {
                key: w.key.ok_or(Missing("key"))?,
                dispatch: w.dispatch.unwrap_or(Dispatch::Auto),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Keydown {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub key: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub dispatch: Option<Dispatch>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Keydown> for Keydown {
        fn from(v: super::Keydown) -> Self {
            Keydown {
                key: Some(v.key),
                dispatch: (v.dispatch != Dispatch::Auto).then_some(v.dispatch),
                common: v.common,
            }
        }
    }

    impl TryFrom<Keydown> for super::Keydown {
        type Error = Missing;

        fn try_from(w: Keydown) -> Result<Self, Missing> {
            Ok(super::Keydown {
                key: w.key.ok_or(Missing("key"))?,
                dispatch: w.dispatch.unwrap_or(Dispatch::Auto),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Keyup {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub key: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub dispatch: Option<Dispatch>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Keyup> for Keyup {
        fn from(v: super::Keyup) -> Self {
            Keyup {
                key: Some(v.key),
                dispatch: (v.dispatch != Dispatch::Auto).then_some(v.dispatch),
                common: v.common,
            }
        }
    }

    impl TryFrom<Keyup> for super::Keyup {
        type Error = Missing;

        fn try_from(w: Keyup) -> Result<Self, Missing> {
            Ok(super::Keyup {
                key: w.key.ok_or(Missing("key"))?,
                dispatch: w.dispatch.unwrap_or(Dispatch::Auto),
                common: w.common,
            })
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
        pub dispatch: Option<Dispatch>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub x: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub y: Option<u32>,
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
            let r#ref = element;
            let (x, y, nx, ny) = keys::split_point(point);
            Scroll {
                direction: (v.direction != Direction::Down).then_some(v.direction),
                amount: v.amount,
                pages: v.pages,
                dispatch: (v.dispatch != Dispatch::Auto).then_some(v.dispatch),
                r#ref,
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
            let element = w.r#ref;
            let point = keys::point(w.x, w.y, w.nx, w.ny);
            Ok(super::Scroll {
                target: keys::target(element, point),
                direction: w.direction.unwrap_or(Direction::Down),
                amount: w.amount,
                pages: w.pages,
                dispatch: w.dispatch.unwrap_or(Dispatch::Auto),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Drag {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub to_x: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub to_y: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub to_nx: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub to_ny: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub target_ref: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub button: Option<Button>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub dispatch: Option<Dispatch>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub x: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub y: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub nx: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub ny: Option<f64>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Drag> for Drag {
        fn from(v: super::Drag) -> Self {
            let (x, y, nx, ny) = keys::split_point(Some(v.point));
            Drag {
                to_x: v.to_x,
                to_y: v.to_y,
                to_nx: v.to_nx,
                to_ny: v.to_ny,
                target_ref: v.target_ref,
                button: (v.button != Button::Left).then_some(v.button),
                dispatch: (v.dispatch != Dispatch::Auto).then_some(v.dispatch),
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
            Ok(super::Drag {
                point: keys::point(w.x, w.y, w.nx, w.ny).ok_or(Missing("target: x,y / nx,ny"))?,
                to_x: w.to_x,
                to_y: w.to_y,
                to_nx: w.to_nx,
                to_ny: w.to_ny,
                target_ref: w.target_ref,
                button: w.button.unwrap_or(Button::Left),
                dispatch: w.dispatch.unwrap_or(Dispatch::Auto),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct MouseMove {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub dispatch: Option<Dispatch>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub x: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub y: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub nx: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub ny: Option<f64>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::MouseMove> for MouseMove {
        fn from(v: super::MouseMove) -> Self {
            let (x, y, nx, ny) = keys::split_point(Some(v.point));
            MouseMove {
                dispatch: (v.dispatch != Dispatch::Auto).then_some(v.dispatch),
                x,
                y,
                nx,
                ny,
                common: v.common,
            }
        }
    }

    impl TryFrom<MouseMove> for super::MouseMove {
        type Error = Missing;

        fn try_from(w: MouseMove) -> Result<Self, Missing> {
            Ok(super::MouseMove {
                point: keys::point(w.x, w.y, w.nx, w.ny).ok_or(Missing("target: x,y / nx,ny"))?,
                dispatch: w.dispatch.unwrap_or(Dispatch::Auto),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct MouseDown {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub button: Option<Button>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub dispatch: Option<Dispatch>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub x: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub y: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub nx: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub ny: Option<f64>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::MouseDown> for MouseDown {
        fn from(v: super::MouseDown) -> Self {
            let (x, y, nx, ny) = keys::split_point(v.point);
            MouseDown {
                button: (v.button != Button::Left).then_some(v.button),
                dispatch: (v.dispatch != Dispatch::Auto).then_some(v.dispatch),
                x,
                y,
                nx,
                ny,
                common: v.common,
            }
        }
    }

    impl TryFrom<MouseDown> for super::MouseDown {
        type Error = Missing;

        fn try_from(w: MouseDown) -> Result<Self, Missing> {
            Ok(super::MouseDown {
                point: keys::point(w.x, w.y, w.nx, w.ny),
                button: w.button.unwrap_or(Button::Left),
                dispatch: w.dispatch.unwrap_or(Dispatch::Auto),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct MouseUp {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub button: Option<Button>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub dispatch: Option<Dispatch>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub x: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub y: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub nx: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub ny: Option<f64>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::MouseUp> for MouseUp {
        fn from(v: super::MouseUp) -> Self {
            let (x, y, nx, ny) = keys::split_point(v.point);
            MouseUp {
                button: (v.button != Button::Left).then_some(v.button),
                dispatch: (v.dispatch != Dispatch::Auto).then_some(v.dispatch),
                x,
                y,
                nx,
                ny,
                common: v.common,
            }
        }
    }

    impl TryFrom<MouseUp> for super::MouseUp {
        type Error = Missing;

        fn try_from(w: MouseUp) -> Result<Self, Missing> {
            Ok(super::MouseUp {
                point: keys::point(w.x, w.y, w.nx, w.ny),
                button: w.button.unwrap_or(Button::Left),
                dispatch: w.dispatch.unwrap_or(Dispatch::Auto),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Window {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub operation: Option<Operation>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub x: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub y: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub width: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub height: Option<u32>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Window> for Window {
        fn from(v: super::Window) -> Self {
            Window {
                operation: Some(v.operation),
                x: v.x,
                y: v.y,
                width: v.width,
                height: v.height,
                common: v.common,
            }
        }
    }

    impl TryFrom<Window> for super::Window {
        type Error = Missing;

        fn try_from(w: Window) -> Result<Self, Missing> {
            Ok(super::Window {
                operation: w.operation.ok_or(Missing("operation"))?,
                x: w.x,
                y: w.y,
                width: w.width,
                height: w.height,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Wait {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub duration_ms: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub until: Option<Until>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub query: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub timeout: Option<u32>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Wait> for Wait {
        fn from(v: super::Wait) -> Self {
            Wait {
                duration_ms: v.duration_ms,
                until: v.until,
                query: v.query,
                timeout: v.timeout,
                common: v.common,
            }
        }
    }

    impl TryFrom<Wait> for super::Wait {
        type Error = Missing;

        fn try_from(w: Wait) -> Result<Self, Missing> {
            Ok(super::Wait {
                duration_ms: w.duration_ms,
                until: w.until,
                query: w.query,
                timeout: w.timeout,
                common: w.common,
            })
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
        #[serde(skip_serializing_if = "Option::is_none")]
        pub max_depth: Option<u32>,
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
                max_depth: v.max_depth,
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
                max_depth: w.max_depth,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct GetWindowState {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub include_screenshot: Option<bool>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::GetWindowState> for GetWindowState {
        fn from(v: super::GetWindowState) -> Self {
            GetWindowState {
                include_screenshot: (!v.include_screenshot).then_some(false),
                common: v.common,
            }
        }
    }

    impl TryFrom<GetWindowState> for super::GetWindowState {
        type Error = Missing;

        fn try_from(w: GetWindowState) -> Result<Self, Missing> {
            Ok(super::GetWindowState {
                include_screenshot: w.include_screenshot.unwrap_or(true),
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Screenshot {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub region: Option<Region>,
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
                region: v.region,
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
                region: w.region,
                format: w.format.unwrap_or(Format::Png),
                quality: w.quality,
                max_width: w.max_width,
                common: w.common,
            })
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
        pub max_depth: Option<u32>,
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
                max_depth: v.max_depth,
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
                max_depth: w.max_depth,
                format: w.format.unwrap_or(Format::Png),
                quality: w.quality,
                max_width: w.max_width,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct GetText {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub offset: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub length: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub r#ref: Option<String>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::GetText> for GetText {
        fn from(v: super::GetText) -> Self {
            let r#ref = Some(v.r#ref);
            GetText {
                offset: (v.offset != 0).then_some(v.offset),
                length: v.length,
                r#ref,
                common: v.common,
            }
        }
    }

    impl TryFrom<GetText> for super::GetText {
        type Error = Missing;

        fn try_from(w: GetText) -> Result<Self, Missing> {
            Ok(super::GetText {
                r#ref: w.r#ref.ok_or(Missing("target: ref"))?,
                offset: w.offset.unwrap_or(0),
                length: w.length,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct ClipboardGet {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub format: Option<Format>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::ClipboardGet> for ClipboardGet {
        fn from(v: super::ClipboardGet) -> Self {
            ClipboardGet {
                format: (v.format != Format::Text).then_some(v.format),
                common: v.common,
            }
        }
    }

    impl TryFrom<ClipboardGet> for super::ClipboardGet {
        type Error = Missing;

        fn try_from(w: ClipboardGet) -> Result<Self, Missing> {
            Ok(super::ClipboardGet { format: w.format.unwrap_or(Format::Text), common: w.common })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct ClipboardSet {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub text: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub format: Option<Format>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::ClipboardSet> for ClipboardSet {
        fn from(v: super::ClipboardSet) -> Self {
            ClipboardSet {
                text: Some(v.text),
                format: (v.format != Format::Text).then_some(v.format),
                common: v.common,
            }
        }
    }

    impl TryFrom<ClipboardSet> for super::ClipboardSet {
        type Error = Missing;

        fn try_from(w: ClipboardSet) -> Result<Self, Missing> {
            Ok(super::ClipboardSet {
                text: w.text.ok_or(Missing("text"))?,
                format: w.format.unwrap_or(Format::Text),
                common: w.common,
            })
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
