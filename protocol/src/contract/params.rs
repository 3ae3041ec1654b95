//! Parameters shared by several actions, declared once so a name has one type everywhere.

use super::spec::{DefaultValue as D, IdKind, Param, Ty};

const fn p(name: &'static str, ty: Ty, doc: &'static str) -> Param {
    Param { name, ty, doc, default: None }
}

const fn pd(name: &'static str, ty: Ty, doc: &'static str, default: D) -> Param {
    Param { name, ty, doc, default: Some(default) }
}

const TEXT: Ty = Ty::Str { allow_empty: false };
const TEXT_OR_EMPTY: Ty = Ty::Str { allow_empty: true };

// Identities and selection.
pub const BROWSER_ID: Param =
    p("browser_id", Ty::Id(IdKind::Browser), "browser id chrome-<port> from list_browsers");
pub const TAB_ID: Param =
    p("tab_id", Ty::Id(IdKind::Token), "stable tab id from tab_list; default: the session's tab");
pub const TAB_INDEX: Param = p(
    "tab_index",
    Ty::Int { min: 0, max: 999 },
    "legacy position of the tab in tab_list; exclusive with tab_id",
);
pub const SNAPSHOT_ID: Param = p(
    "snapshot_id",
    Ty::Id(IdKind::Token),
    "the snapshot the refs come from; default: the session's latest for the target",
);
pub const APP_ID: Param = p("app_id", Ty::Id(IdKind::App), "app id app:<pid> from list_apps");
pub const WINDOW_ID: Param = p("window_id", Ty::Id(IdKind::Token), "window id from list_windows");

// Locators.
pub const REF: Param = p("ref", Ty::Id(IdKind::Token), "element ref eN from the latest snapshot");
pub const SELECTOR: Param =
    p("selector", TEXT, "CSS selector; the first match is used (prefer ref)");
pub const VIEWPORT_X: Param =
    p("x", Ty::Num { min: 0.0, max: 100_000.0 }, "viewport x in CSS pixels");
pub const VIEWPORT_Y: Param =
    p("y", Ty::Num { min: 0.0, max: 100_000.0 }, "viewport y in CSS pixels");
pub const SCREEN_X: Param = p("x", Ty::Int { min: 0, max: 65_535 }, "screen x in pixels");
pub const SCREEN_Y: Param = p("y", Ty::Int { min: 0, max: 65_535 }, "screen y in pixels");
pub const NX: Param = p("nx", Ty::Num { min: 0.0, max: 1.0 }, "x as a fraction of the width, 0..1");
pub const NY: Param =
    p("ny", Ty::Num { min: 0.0, max: 1.0 }, "y as a fraction of the height, 0..1");

// Pointer.
pub const BUTTON: Param =
    pd("button", Ty::Enum(&["left", "middle", "right"]), "mouse button", D::Str("left"));
pub const CLICK_COUNT: Param =
    pd("click_count", Ty::Int { min: 1, max: 3 }, "1 single, 2 double, 3 triple click", D::Int(1));
pub const DOUBLE_CLICK_COUNT: Param =
    pd("click_count", Ty::Int { min: 1, max: 3 }, "always 2 for double_click; omit it", D::Int(2));
pub const DISPATCH: Param = pd(
    "dispatch",
    Ty::Enum(&["auto", "background", "foreground"]),
    "auto picks; background acts through accessibility only and never moves the pointer or \
     focus; foreground uses real input",
    D::Str("auto"),
);

// Drag drop targets, named like the source keys with a to_/target_ prefix.
pub const TARGET_REF: Param =
    p("target_ref", Ty::Id(IdKind::Token), "drop on this element ref from the latest snapshot");
pub const VIEWPORT_TO_X: Param =
    p("to_x", Ty::Num { min: 0.0, max: 100_000.0 }, "drop point x in CSS viewport pixels");
pub const VIEWPORT_TO_Y: Param =
    p("to_y", Ty::Num { min: 0.0, max: 100_000.0 }, "drop point y in CSS viewport pixels");
pub const SCREEN_TO_X: Param =
    p("to_x", Ty::Int { min: 0, max: 65_535 }, "drop point x in screen pixels");
pub const SCREEN_TO_Y: Param =
    p("to_y", Ty::Int { min: 0, max: 65_535 }, "drop point y in screen pixels");
pub const TO_NX: Param =
    p("to_nx", Ty::Num { min: 0.0, max: 1.0 }, "drop point x as a fraction of the width, 0..1");
pub const TO_NY: Param =
    p("to_ny", Ty::Num { min: 0.0, max: 1.0 }, "drop point y as a fraction of the height, 0..1");

// Text and values.
pub const TEXT_PARAM: Param = p("text", TEXT, "the text, exactly as it should appear");
/// Typed by the daemon, never shown: the value of a named secret (`--secrets`), or its
/// current one-time code.
pub const SECRET: Param =
    p("secret", TEXT, "a secret's name (list_secrets) to type instead of text (never shown)");
pub const SECRET_TOTP: Param =
    p("secret_totp", TEXT, "a secret's name whose current TOTP code to type (its seed's)");
pub const FILL_TEXT: Param = p("text", TEXT_OR_EMPTY, "the new content; \"\" clears the field");
pub const VALUE: Param = p("value", TEXT_OR_EMPTY, "the value to set");
pub const FILL_TEXT_OPT: Param = p(
    "text",
    TEXT_OR_EMPTY,
    "the new content (\"\" clears the field): text for text-like fields and contenteditable, \
     the ISO value for date (2012-07-28), time (13:45), datetime-local (2012-07-28T13:45), \
     month (2012-07), week (2012-W30), #rrggbb for color, a number for number and range, an \
     option's value or label for a <select>; exclusive with values",
);
pub const SELECT_VALUE: Param = p(
    "value",
    TEXT_OR_EMPTY,
    "the option's value, else its label (its visible text); exclusive with values",
);
pub const OPTION_VALUES: Param = p(
    "values",
    Ty::StrList,
    "for a <select multiple>: every option to select (each by value, else by label; the rest \
     are deselected)",
);
pub const TYPE_MODE: Param = pd(
    "mode",
    Ty::Enum(&["insert", "keys"]),
    "insert: one insertText; keys: a key event per character (for pages that listen to keys: \
     terminals, editors, games: keydown/keypress/input/keyup as a US keyboard sends them, \
     with key, code, keyCode and shift; characters beyond the US layout as keydown/keyup whose \
     key and text are the character; insert is fast and sends no key events)",
    D::Str("insert"),
);
// Reading long text in ranges.
pub const TEXT_OFFSET: Param = pd(
    "offset",
    Ty::Int { min: 0, max: 2_147_483_647 },
    "the first character to return (Unicode characters, counted from 0)",
    D::Int(0),
);
pub const TEXT_LENGTH: Param = p(
    "length",
    Ty::Int { min: 1, max: 2_147_483_647 },
    "at most this many characters from offset (default: to the end; the daemon's \
     --max-text-chars cuts longer answers, which say truncated and next_offset)",
);
pub const KEY: Param =
    p("key", TEXT, "a key or chord such as Enter, Control+Shift+T, F5, PageDown or +");
pub const PASTE_TEXT: Param = p("text", TEXT, "what to paste");
pub const SELECT_TEXT: Param = p("text", TEXT, "the text to find; it must match exactly once");
pub const PREFIX: Param = p("prefix", TEXT, "text right before the match (to make it unique)");
pub const SUFFIX: Param = p("suffix", TEXT, "text right after the match (to make it unique)");
pub const SELECTION_TYPE: Param = pd(
    "selection_type",
    Ty::Enum(&["select", "cursor_before", "cursor_after"]),
    "select the match, or place the caret (before/after it)",
    D::Str("select"),
);
/// One enum for `format` per tool, because the tool schema is flat (one type per name); each
/// action narrows it with a rule (`rules::image_format`, `rules::text_format`).
pub const BROWSER_FORMATS: &[&str] = &["png", "jpeg", "webp", "text", "html", "markdown"];
pub const COMPUTER_FORMATS: &[&str] = &["png", "jpeg", "webp", "text", "html"];
const BROWSER_FORMAT_DOC: &str =
    "paste: text, html or markdown (default text); screenshots: png, jpeg or webp (default png)";
const COMPUTER_FORMAT_DOC: &str = "paste and clipboard: text or html (default text); \
                                   screenshots: png, jpeg or webp (default png)";
pub const BROWSER_PASTE_FORMAT: Param =
    pd("format", Ty::Enum(BROWSER_FORMATS), BROWSER_FORMAT_DOC, D::Str("text"));
pub const COMPUTER_TEXT_FORMAT: Param =
    pd("format", Ty::Enum(COMPUTER_FORMATS), COMPUTER_FORMAT_DOC, D::Str("text"));
pub const ACTION_NAME: Param =
    p("name", TEXT, "an action name the snapshot listed for the element");

// Scrolling.
pub const DIRECTION: Param =
    pd("direction", Ty::Enum(&["up", "down", "left", "right"]), "scroll direction", D::Str("down"));
pub const AMOUNT: Param =
    p("amount", Ty::Int { min: 1, max: 10_000 }, "distance in pixels (exclusive with pages)");
pub const PAGES: Param =
    p("pages", Ty::Num { min: 0.1, max: 20.0 }, "distance in pages (of the scrolled box)");

// Waiting.
pub const TIMEOUT: Param = pd(
    "timeout",
    Ty::Int { min: 1, max: 60_000 },
    "readiness deadline in ms for a state or an element",
    D::Int(30_000),
);
/// `timeout` without a default, for actions where its absence means something (wait).
pub const WAIT_TIMEOUT: Param = p(
    "timeout",
    Ty::Int { min: 1, max: 60_000 },
    "how long to wait in ms (30000 when omitted) (exclusive with duration_ms)",
);
pub const DURATION_MS: Param = p(
    "duration_ms",
    Ty::Int { min: 0, max: 60_000 },
    "a fixed pause in ms (exclusive with timeout)",
);

// Observation budgets.
pub const LIMIT: Param =
    pd("limit", Ty::Int { min: 1, max: 5_000 }, "lines per page of the outline", D::Int(300));
pub const SCOPE_REF: Param =
    p("scope_ref", Ty::Id(IdKind::Token), "observe only the subtree of this ref");
pub const CURSOR: Param =
    p("cursor", Ty::Id(IdKind::Token), "next_cursor of the previous page to continue it");
pub const DISABLE_DIFFING: Param = pd(
    "disable_diffing",
    Ty::Bool,
    "always return the full outline (instead of what changed)",
    D::Bool(false),
);
pub const QUERY: Param =
    p("query", TEXT, "words in any order, any case (snapshot keeps the lines holding them, every word in the line or its ancestors, else any word, query_match says which, with their ancestors and row controls, as a view that moves no baseline; wait looks for one line holding every word)");
pub const MAX_DEPTH: Param =
    p("max_depth", Ty::Int { min: 1, max: 200 }, "deepest tree level to walk");

// Navigation.
pub const URL: Param =
    p("url", Ty::Url, "the address to open, e.g. https://example.com/ (a bare host means http://)");

// Images.
pub const BROWSER_IMAGE_FORMAT: Param =
    pd("format", Ty::Enum(BROWSER_FORMATS), BROWSER_FORMAT_DOC, D::Str("png"));
pub const COMPUTER_IMAGE_FORMAT: Param =
    pd("format", Ty::Enum(COMPUTER_FORMATS), COMPUTER_FORMAT_DOC, D::Str("png"));
pub const FULL_PAGE: Param =
    pd("full_page", Ty::Bool, "capture the whole page, not just the viewport", D::Bool(false));
pub const QUALITY: Param =
    p("quality", Ty::Int { min: 1, max: 100 }, "jpeg/webp quality (only with format jpeg or webp)");
pub const MAX_WIDTH: Param = p(
    "max_width",
    Ty::Int { min: 16, max: 8_192 },
    "scale the image down to at most this width (scale says by how much)",
);

// Window geometry (computer window move/resize).
pub const WIDTH: Param = p("width", Ty::Int { min: 1, max: 65_535 }, "new width in screen pixels");
pub const HEIGHT: Param =
    p("height", Ty::Int { min: 1, max: 65_535 }, "new height in screen pixels");
