//! The `browser` tool: Chromium over CDP. One line per action; rules live in `rules.rs`.

use super::params::*;
use super::rules::{self as r, action};
use super::spec::{Action, Backend, Class, DefaultValue as D, Gate as G, Locator as L, Param};
use super::spec::{Settle as S, Tool, Ty, BROWSER_EVENTS};

const fn p(name: &'static str, ty: Ty, doc: &'static str) -> Param {
    Param { name, ty, doc, default: None }
}

const fn pd(name: &'static str, ty: Ty, doc: &'static str, default: D) -> Param {
    Param { name, ty, doc, default: Some(default) }
}

const TEXT: Ty = Ty::Str { allow_empty: false };

const TARGET_SELECTOR: Param =
    p("target_selector", TEXT, "drop on the first match of this CSS selector");
const FILES: Param = p("files", Ty::StrList, "paths in the file roots (each must exist)");
const WAIT_STATE: Param = p(
    "state",
    Ty::Enum(&["visible", "hidden", "attached", "detached"]),
    "what the target should become (visible when omitted; needs ref or selector)",
);
const ACCEPT: Param =
    pd("accept", Ty::Bool, "accept (OK) or dismiss (Cancel) the dialog", D::Bool(true));
const PROMPT_TEXT: Param =
    p("prompt_text", Ty::Str { allow_empty: true }, "the answer to a prompt() dialog");
const VISIBLE: Param = pd("visible", Ty::Bool, "false: open it in the background", D::Bool(true));
const MARK_KIND: Param = p(
    "kind",
    Ty::Enum(&["deliverable", "handoff"]),
    "deliverable: a result for the user; handoff: for the user to take over",
);
const NOTE: Param = p("note", TEXT, "why the tab is marked, shown with the mark");
const CLEAR: Param =
    pd("clear", Ty::Bool, "remove the tab's mark instead of setting one", D::Bool(false));
const DOM_ACTION_NAME: Param =
    p("name", TEXT, "the action's name; the DOM has no such actions, so this is UNSUPPORTED");
const SCRIPT: Param =
    p("script", TEXT, "a JavaScript expression or function body; await is allowed");

const TTL_S: Param = pd(
    "ttl_s",
    Ty::Int { min: 1, max: 3_600 },
    "seconds (how long the endpoint stays valid)",
    D::Int(600),
);
const CDP_ID: Param = p("cdp_id", TEXT, "id (the cdp_id cdp_session returned)");
const LOAD: Param = p("load", TEXT, "a file in files/ to load (Playwright's storageState shape)");
const PROFILE: Param = p("profile", TEXT, "a named profile of the party; the session moves there");

/// A browser action that changes the page or the selection.
const fn act(name: &'static str, summary: &'static str, locator: L) -> Action {
    action(name, summary, Class::Act, locator)
        .check(&[r::tab_pick_exclusive])
        .on(Backend::Browser, BROWSER_EVENTS)
}

/// A browser action that only reads.
const fn observe(name: &'static str, summary: &'static str, locator: L) -> Action {
    action(name, summary, Class::Observe, locator)
        .check(&[r::tab_pick_exclusive])
        .on(Backend::Browser, &[])
}

#[rustfmt::skip] // one line per action: the table reads as a table
pub static BROWSER: Tool = Tool {
    name: "browser",
    description: "Act on and read Chromium tabs. Take a snapshot first; refs eN from it name \
                  elements. x,y are CSS viewport pixels, nx,ny fractions 0..1 of the viewport, \
                  to_x, to_y, to_nx, to_ny a drop point. Every action also accepts browser_id \
                  (from list_browsers), tab_id (from tab_list; legacy: tab_index) and \
                  snapshot_id (the refs' snapshot); default: the session's selection and \
                  latest snapshot. type, fill and keyboard_type take secret or secret_totp \
                  (a list_secrets name).",
    element_keys: &[REF, SELECTOR],
    point_keys: &[VIEWPORT_X, VIEWPORT_Y, NX, NY],
    common: &[BROWSER_ID, TAB_ID, TAB_INDEX, SNAPSHOT_ID],
    actions: &[
        // Acting.
        act("navigate", "open url in the tab and wait until it is interactive; returns the final url", L::None).settles(S::Navigate).gated(G::Navigate { url: "url" })
            .req(&[URL]).opt(&[TIMEOUT]),
        act("click", "click an element or a viewport point; returns what was clicked and where (a file input is NOT_EDITABLE: use upload; a file chooser the page opens shows in file_chooser)", L::ElementOrPoint).settles(S::Pointer)
            .opt(&[BUTTON, CLICK_COUNT]),
        act("double_click", "double-click an element or a viewport point; returns what was clicked and where", L::ElementOrPoint).settles(S::Pointer)
            .opt(&[BUTTON, DOUBLE_CLICK_COUNT]).check(&[r::tab_pick_exclusive, r::double_click_count]),
        act("hover", "move the mouse over an element or a viewport point; returns the point", L::ElementOrPoint).settles(S::Pointer),
        act("focus", "focus an element; returns the element that really has focus", L::Element).settles(S::Pointer),
        act("type", "type text at the caret of an element (mode insert, or keys: key events per character); read back; returns the text typed, the value and verified", L::Element).settles(S::Type).gated(G::Secret)
            .opt(&[TEXT_PARAM, SECRET, SECRET_TOTP, TYPE_MODE]).check(&[r::tab_pick_exclusive, r::text_or_secret]),
        act("fill", "replace the value of any field (text-like inputs, textarea, contenteditable, number, date, time, datetime-local, month, week, color, range, <select> by value or label, values for a multiple select) and read it back; returns the value; NOT_EDITABLE names what fits instead (upload for a file input, check for a checkbox)", L::Element).settles(S::Type).gated(G::Secret)
            .opt(&[FILL_TEXT_OPT, OPTION_VALUES, SECRET, SECRET_TOTP]).excl(&[("text", "values")]).check(&[r::tab_pick_exclusive, r::fill_text_or_values, r::text_or_secret]),
        act("set_value", "set a field's value (the native setter, then input/change); returns the value", L::Element).settles(S::Type)
            .req(&[VALUE]),
        act("select", "choose the option with this value, else this label (in a <select>; it must exist; option lines show value=\"...\" where it differs from the label; or several with values in a multiple one); returns the value", L::Element).settles(S::Pointer)
            .opt(&[SELECT_VALUE, OPTION_VALUES]).excl(&[("value", "values")]).check(&[r::tab_pick_exclusive, r::select_value_or_values]),
        act("check", "check a checkbox or radio button; returns the verified final state", L::Element).settles(S::Pointer),
        act("uncheck", "uncheck a checkbox; returns the verified final state", L::Element).settles(S::Pointer),
        act("paste", "paste text into an element or the focus (a real paste event); returns how it landed", L::ElementOptional).settles(S::Type)
            .req(&[PASTE_TEXT]).opt(&[BROWSER_PASTE_FORMAT]).check(&[r::tab_pick_exclusive, r::browser_paste_format]),
        act("select_text", "select the one match of text in an element (or text line) (or put the caret by it); returns the offsets", L::Element).settles(S::Type)
            .req(&[SELECT_TEXT]).opt(&[PREFIX, SUFFIX, SELECTION_TYPE]),
        act("secondary_action", "the DOM has no named element actions: UNSUPPORTED with the reason", L::Element).settles(S::Pointer)
            .req(&[DOM_ACTION_NAME]),
        act("press", "press a key or chord (releasing modifiers even on failure); returns the chord", L::None).settles(S::Key)
            .req(&[KEY]),
        act("keyboard_type", "type text into the focus (or into ref/selector, focused first) (mode insert, or keys: key events per character); returns the text", L::ElementOptional).settles(S::Type).gated(G::Secret)
            .opt(&[TEXT_PARAM, SECRET, SECRET_TOTP, TYPE_MODE]).check(&[r::tab_pick_exclusive, r::text_or_secret]),
        act("keydown", "hold a key down; later presses include it; returns the keys held", L::None)
            .req(&[KEY]),
        act("keyup", "release a held key; returns the keys still held", L::None)
            .req(&[KEY]),
        act("scroll", "scroll an element, at a point or the page (by pixels or pages); returns the position before and after", L::AnyOptional).settles(S::Scroll)
            .opt(&[DIRECTION, AMOUNT, PAGES]).excl(&[("amount", "pages")]),
        act("scroll_into_view", "scroll an element to the middle of the viewport; returns its box", L::Element).settles(S::Scroll),
        act("drag", "drag to a drop target (from an element or point) (releasing the button on failure); returns both points", L::ElementOrPoint).settles(S::Pointer)
            .opt(&[TARGET_REF, TARGET_SELECTOR, VIEWPORT_TO_X, VIEWPORT_TO_Y, TO_NX, TO_NY, BUTTON])
            .check(&[r::tab_pick_exclusive, r::browser_drag_target]),
        act("upload", "set the files of a file input; returns the files set", L::Element).settles(S::Pointer).gated(G::Upload)
            .req(&[FILES]),
        observe("wait", "wait for an element (timeout, state) or pause for duration_ms; returns what was waited for and how long", L::ElementOptional)
            .opt(&[WAIT_TIMEOUT, DURATION_MS, WAIT_STATE]).excl(&[("timeout", "duration_ms")])
            .check(&[r::tab_pick_exclusive, r::browser_wait]),
        act("dialog", "accept or dismiss the open dialog (alert, confirm, prompt, beforeunload); returns its type and message", L::None).settles(S::Pointer)
            .opt(&[ACCEPT, PROMPT_TEXT]).check(&[r::tab_pick_exclusive, r::dialog_prompt]),
        act("go_back", "go one step back in history (and wait until ready); returns the url", L::None).settles(S::Navigate)
            .opt(&[TIMEOUT]),
        act("go_forward", "go one step forward in history (and wait until ready); returns the url", L::None).settles(S::Navigate)
            .opt(&[TIMEOUT]),
        act("reload", "reload the tab and wait until ready; returns the url", L::None).settles(S::Navigate)
            .opt(&[TIMEOUT]),
        act("tab_new", "open a tab (about:blank without url) and make it the session's tab; returns its tab_id", L::None).settles(S::Navigate).gated(G::Navigate { url: "url" })
            .opt(&[URL, VISIBLE, PROFILE]),
        act("tab_select", "bring a tab to the front and make it the session's tab; returns its identity", L::None).settles(S::Navigate)
            .check(&[r::tab_pick_exclusive, r::tab_required]),
        observe("tab_get", "describe a tab without selecting it (url, title, state, mark, latest snapshot)", L::None)
            .check(&[r::tab_pick_exclusive, r::tab_required]),
        act("tab_close", "close a tab (default: the session's tab) and forget its refs; returns what was closed", L::None),
        act("tab_mark", "mark a tab deliverable or handoff (with a note), or clear it; marks outlive the session", L::None)
            .opt(&[MARK_KIND, NOTE, CLEAR]).check(&[r::tab_pick_exclusive, r::tab_mark]),
        act("cdp_session", "DevTools URL for code on this tab (Playwright, Puppeteer: one page, the same policy); returns cdp_id, url, expires_at", L::None).gated(G::Cdp)
            .opt(&[TTL_S]),
        act("cdp_revoke", "end a code session (its connection closes)", L::None)
            .req(&[CDP_ID]),
        act("storage_state", "save or load cookies and localStorage (Playwright's storageState, in files/); returns path, counts", L::None).gated(G::StorageState)
            .opt(&[LOAD]),
        // Observing.
        observe("snapshot", "ref-annotated accessibility outline of the page (open shadow roots and iframes, cross-site too); returns snapshot_id, mode full/incremental/continued, counts, truncation", L::None)
            .opt(&[LIMIT, SCOPE_REF, CURSOR, DISABLE_DIFFING, QUERY])
            .check(&[r::tab_pick_exclusive, r::cursor_alone]),
        observe("get_content", "the visible text of the page or an element (a form control's value); offset and length read a range; returns text, total_chars, truncated and next_offset when more follows", L::ElementOptional)
            .opt(&[TEXT_OFFSET, TEXT_LENGTH]),
        observe("get_html", "the HTML of the page or of an element", L::ElementOptional),
        observe("get_url", "the tab's current URL", L::None),
        observe("get_title", "the tab's current title", L::None),
        observe("screenshot", "capture the viewport or the full page; returns the image with width, height and scale", L::None)
            .opt(&[FULL_PAGE, BROWSER_IMAGE_FORMAT, QUALITY, MAX_WIDTH])
            .check(&[r::tab_pick_exclusive, r::image_format]),
        observe("screenshot_annotate", "a screenshot with ref labels (over a full snapshot's elements); returns image and labels", L::None)
            .opt(&[MAX_WIDTH]),
        observe("state_and_screenshot", "a snapshot and a screenshot together; returns both and a consistent flag", L::None)
            .opt(&[LIMIT, SCOPE_REF, DISABLE_DIFFING, QUERY, FULL_PAGE, BROWSER_IMAGE_FORMAT, QUALITY, MAX_WIDTH])
            .check(&[r::tab_pick_exclusive, r::image_format]),
        act("evaluate", "run JavaScript in the page (it may change it); returns the JSON value, exceptions as ACTION_FAILED", L::None).settles(S::Pointer).gated(G::Evaluate)
            .req(&[SCRIPT]),
        observe("pdf", "print the page to PDF; returns an artifact, not inline data", L::None),
        observe("tab_list", "the party's tabs (tab_id, url, title, selected, mark; admins: every party's, with owner)", L::None),
        observe("downloads", "recent downloads, oldest first (path under downloads/<party>/, url, bytes, state, tab_id)", L::None),
        observe("probe", "what works on this tab: CDP, input, accessibility and screenshots", L::None),
    ],
    listed: true,
};
