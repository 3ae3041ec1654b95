//! The shape of the contract table: tools, actions, parameters and locator kinds.
//!
//! Everything here is `const`-constructible so the tables in `context.rs`, `browser.rs` and
//! `computer.rs` are plain statics; the schema, the docs, the validator and `rpc.discover` all
//! read the same entries.

use serde_json::{Map, Value};

use super::validate::Violation;

/// The value a parameter takes on the wire.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ty {
    /// A string; `allow_empty: false` rejects `""` (and whitespace-only text).
    Str {
        allow_empty: bool,
    },
    /// An address a tab can open, parsed as Chromium parses it (`crate::url`) and passed on in
    /// its canonical form, so the policy judges what the browser loads.
    Url,
    /// A discovered identity whose format is checked before anything runs.
    Id(IdKind),
    /// A whole number in `min..=max`; JSON numbers with a fraction are refused.
    Int {
        min: i64,
        max: i64,
    },
    /// A number in `min..=max`, compared before any rounding.
    Num {
        min: f64,
        max: f64,
    },
    Bool,
    /// One of the listed lower-case words.
    Enum(&'static [&'static str]),
    /// A non-empty array of non-empty strings (file paths).
    StrList,
    /// `{x, y, width, height}` in screen pixels.
    Region,
    /// Any JSON object, passed on as given: a vendor's own shape (a model's `tool_use.input`,
    /// a tool definition), which the handler reads and answers for in the vendor's words.
    Object,
    /// A list of JSON objects, passed on as given (a model's batched actions); may be empty.
    ObjectList,
}

/// Identity formats: ids are discovered, never guessed, so a URL or a name is refused early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdKind {
    /// `chrome-<port>` with port in 1..=65535.
    Browser,
    /// `app:<pid>`.
    App,
    /// Any non-empty token without whitespace (tab, window, snapshot, op ids).
    Token,
}

/// A parameter's default, shown in the schema and applied before the handler runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DefaultValue {
    Int(i64),
    Num(f64),
    Bool(bool),
    Str(&'static str),
}

impl DefaultValue {
    pub fn to_json(self) -> Value {
        match self {
            DefaultValue::Int(v) => Value::from(v),
            DefaultValue::Num(v) => Value::from(v),
            DefaultValue::Bool(v) => Value::from(v),
            DefaultValue::Str(v) => Value::from(v),
        }
    }
}

/// One parameter. The same name means the same type everywhere in a tool (a test checks it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Param {
    pub name: &'static str,
    pub ty: Ty,
    pub doc: &'static str,
    pub default: Option<DefaultValue>,
}

/// How an action names what it acts on. Element keys are `ref` (and, in the browser,
/// `selector`); point keys are `x,y` or `nx,ny`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Locator {
    /// Takes no locator at all.
    None,
    /// Exactly one element key.
    Element,
    /// At most one element key.
    ElementOptional,
    /// Exactly one of an element key or a point.
    ElementOrPoint,
    /// At most one of an element key or a point.
    AnyOptional,
    /// A point is required; element keys are refused.
    Point,
    /// A point may be given; element keys are refused.
    PointOptional,
}

impl Locator {
    pub fn takes_element(self) -> bool {
        matches!(
            self,
            Locator::Element
                | Locator::ElementOptional
                | Locator::ElementOrPoint
                | Locator::AnyOptional
        )
    }

    pub fn takes_point(self) -> bool {
        matches!(
            self,
            Locator::ElementOrPoint
                | Locator::AnyOptional
                | Locator::Point
                | Locator::PointOptional
        )
    }

    pub fn required(self) -> bool {
        matches!(self, Locator::Element | Locator::ElementOrPoint | Locator::Point)
    }

    /// The words used in generated docs.
    pub fn describe(self, element_keys: &[&str]) -> Option<String> {
        let el = element_keys.join("|");
        let text = match self {
            Locator::None => return None,
            Locator::Element => format!("target: {el}"),
            Locator::ElementOptional => format!("optional target: {el}"),
            Locator::ElementOrPoint => format!("target: {el} or x,y / nx,ny"),
            Locator::AnyOptional => format!("optional target: {el} or x,y / nx,ny"),
            Locator::Point => "target: x,y / nx,ny".to_owned(),
            Locator::PointOptional => "optional point: x,y / nx,ny".to_owned(),
        };
        Some(text)
    }
}

/// What an action does to the world; drives roles, approval and capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Reads only; allowed to observers.
    Observe,
    /// Changes the screen, a page or the selection; actor only; a capture follows.
    Act,
    /// Starts a process; actor only; the approval policy treats it as exec.
    Exec,
    /// Reads what an observer may not see (the clipboard, which may hold secrets); changes
    /// nothing, but actor (or admin) only.
    ClipboardRead,
    /// Reads what only acting roles may know (the names and origins of secrets); changes
    /// nothing, actor (or admin) only.
    Private,
    /// Asks a person for help and waits for the hand-back: changes nothing itself, actor (or
    /// admin) only, and runs while a person is in control.
    AskHuman,
}

impl Class {
    /// Changes something: refused while the session is paused, counted as `mutating` by
    /// the approval policy.
    pub fn mutating(self) -> bool {
        matches!(self, Class::Act | Class::Exec)
    }

    /// Only roles that act (actor, admin) may call it: everything but plain observing.
    pub fn actor_only(self) -> bool {
        !matches!(self, Class::Observe)
    }
}

/// What an action's settle waits for after it, each kind with its own cap
/// (`--settle-cap kind=ms`). An action with a kind settles and comes back with a capture; one
/// without changes nothing on screen (observing, holding a key, marking a tab, the clipboard).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settle {
    Pointer,
    Type,
    Key,
    Scroll,
    Navigate,
    Window,
}

impl Settle {
    pub const ALL: [Settle; 6] = [
        Settle::Pointer,
        Settle::Type,
        Settle::Key,
        Settle::Scroll,
        Settle::Navigate,
        Settle::Window,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Settle::Pointer => "pointer",
            Settle::Type => "type",
            Settle::Key => "key",
            Settle::Scroll => "scroll",
            Settle::Navigate => "navigate",
            Settle::Window => "window",
        }
    }
}

/// What the approval policy may single out in an action beyond its class (`Class::mutating`,
/// and `Class::Exec` with `launch`): a rule for `evaluate`, `upload`, `clipboard_read` or
/// `navigate` applies to the actions that carry it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// Runs the caller's JavaScript.
    Evaluate,
    /// Hands workspace files to a page.
    Upload,
    /// Reads the clipboard.
    ClipboardRead,
    /// Loads the URL of the parameter it names, when given.
    Navigate { url: &'static str },
    /// Launches a program when the flag it names is `true` (`context.get_app`'s `launch`).
    Launch { flag: &'static str },
    /// Hands a code client a DevTools endpoint on a tab (`browser.cdp_session`).
    Cdp,
    /// Writes the session's cookies and storage to a file (`browser.storage_state` without
    /// `load`).
    StorageState,
    /// Types a named secret (`secret`, `secret_totp`), when one is given.
    Secret,
}

impl Gate {
    pub fn name(self) -> &'static str {
        match self {
            Gate::Evaluate => "evaluate",
            Gate::Upload => "upload",
            Gate::ClipboardRead => "clipboard_read",
            Gate::Navigate { .. } => "navigate",
            Gate::Launch { .. } => "launch",
            Gate::Cdp => "cdp",
            Gate::StorageState => "storage_state",
            Gate::Secret => "secret",
        }
    }
}

/// The backend an action needs; without it the action answers `BACKEND_UNAVAILABLE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Browser,
    Desktop,
    /// The daemon itself (the contract, the state of every backend).
    Daemon,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Browser => "browser",
            Backend::Desktop => "desktop",
            Backend::Daemon => "daemon",
        }
    }
}

/// The events an action may lead to, besides its answer (a page's input can open a tab, start
/// a download or a dialog; a desktop action can open, close or focus windows).
pub const BROWSER_EVENTS: &[&str] =
    &["tab.created", "tab.closed", "download.finished", "dialog.opened"];
pub const DESKTOP_EVENTS: &[&str] =
    &["window.opened", "window.closed", "window.focused", "focus.changed"];
pub const LAUNCH_EVENTS: &[&str] = &["app.started", "window.opened", "window.focused"];

/// A cross-parameter rule that the generic checks cannot express.
pub type Rule = fn(&Map<String, Value>) -> Result<(), Violation>;

/// One action: the single source of its schema, docs and validation.
#[derive(Debug, Clone, Copy)]
pub struct Action {
    pub name: &'static str,
    pub summary: &'static str,
    pub class: Class,
    pub locator: Locator,
    pub required: &'static [Param],
    pub optional: &'static [Param],
    /// Pairs that may not both be present.
    pub exclusive: &'static [(&'static str, &'static str)],
    /// Extra checks run after the generic ones.
    pub rules: &'static [Rule],
    /// What its settle waits for; `None`: no settle and no capture.
    pub settle: Option<Settle>,
    /// What the approval policy singles out in it.
    pub gate: Option<Gate>,
    /// The backend it needs.
    pub backend: Backend,
    /// The events it may lead to.
    pub events: &'static [&'static str],
}

impl Action {
    /// Whether a capture of the settled screen follows it (when the call asks for one).
    pub fn captures(&self) -> bool {
        self.settle.is_some()
    }

    /// Every parameter name the action accepts besides the tool's common ones and locators.
    pub fn own_params(&self) -> impl Iterator<Item = &'static Param> {
        self.required.iter().chain(self.optional.iter())
    }
}

/// One tool: a named group of actions with an `action` discriminator.
#[derive(Debug)]
pub struct Tool {
    pub name: &'static str,
    pub description: &'static str,
    /// Keys that name an element (`ref`, and `selector` in the browser).
    pub element_keys: &'static [Param],
    /// `x`, `y`, `nx`, `ny` with this tool's coordinate meaning.
    pub point_keys: &'static [Param],
    /// Parameters every action of the tool accepts.
    pub common: &'static [Param],
    pub actions: &'static [Action],
    /// Offered to models in `tools.list` and MCP's `tools/list`; `false` for a tool a
    /// runtime calls on a model's behalf in the model's own vendor shape (`native`).
    pub listed: bool,
}

impl Tool {
    pub fn action(&self, name: &str) -> Option<&'static Action> {
        self.actions.iter().find(|a| a.name == name)
    }

    pub fn element_key_names(&self) -> Vec<&'static str> {
        self.element_keys.iter().map(|p| p.name).collect()
    }

    /// Every parameter `action` accepts, in a stable order: own, locator keys, common.
    pub fn accepted(&self, action: &Action) -> Vec<&'static Param> {
        let mut out: Vec<&'static Param> = action.own_params().collect();
        if action.locator.takes_element() {
            out.extend(self.element_keys.iter());
        }
        if action.locator.takes_point() {
            out.extend(self.point_keys.iter());
        }
        out.extend(self.common.iter());
        let mut seen = std::collections::HashSet::new();
        out.retain(|p| seen.insert(p.name));
        out
    }

    /// The direct JSON-RPC method name of an action, e.g. `browser.click`.
    pub fn method(&self, action: &Action) -> String {
        format!("{}.{}", self.name, action.name)
    }
}
