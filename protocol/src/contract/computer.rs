//! The `computer` tool: the desktop through AT-SPI and X11. One line per action; rules live in
//! `rules.rs`.

use super::params::*;
use super::rules::{self as r, action};
use super::spec::{Action, Backend, Class, DefaultValue as D, Gate as G, Locator as L, Param};
use super::spec::{Settle as S, Tool, Ty, DESKTOP_EVENTS};

const fn p(name: &'static str, ty: Ty, doc: &'static str) -> Param {
    Param { name, ty, doc, default: None }
}

const WINDOW_OP: Param = p(
    "operation",
    Ty::Enum(&["minimize", "maximize", "restore", "close", "move", "resize"]),
    "move takes x,y; resize takes width,height",
);
const UNTIL: Param = p(
    "until",
    Ty::Enum(&["element_appears", "element_disappears", "window_opens"]),
    "the event to wait for (up to timeout)",
);
const WAIT_QUERY: Param = p(
    "query",
    Ty::Str { allow_empty: false },
    "words matched against role, name or value (wait: the element or window title to wait \
     for; snapshot: the lines to keep)",
);
const INCLUDE_SCREENSHOT: Param = Param {
    name: "include_screenshot",
    ty: Ty::Bool,
    doc: "add a screenshot of the window",
    default: Some(D::Bool(true)),
};
const REGION: Param =
    p("region", Ty::Region, "capture only this screen rectangle {x, y, width, height}");
const CLIPBOARD_TEXT: Param =
    p("text", Ty::Str { allow_empty: true }, "what to put on the clipboard; \"\" empties it");

/// A computer action that changes the desktop.
const fn act(name: &'static str, summary: &'static str, locator: L) -> Action {
    action(name, summary, Class::Act, locator).on(Backend::Desktop, DESKTOP_EVENTS)
}

/// A computer action that only reads.
const fn observe(name: &'static str, summary: &'static str, locator: L) -> Action {
    action(name, summary, Class::Observe, locator).on(Backend::Desktop, &[])
}

#[rustfmt::skip] // one line per action: the table reads as a table
pub static COMPUTER: Tool = Tool {
    name: "computer",
    description: "Act on and read desktop apps through accessibility and X11. Take a snapshot \
                  first; refs eN from it name elements; x,y are screen pixels, nx,ny fractions \
                  0..1 of the screen, to_x, to_y, to_nx, to_ny a drop point. Every action also \
                  accepts app_id (from list_apps), window_id (from list_windows) and \
                  snapshot_id (the refs' snapshot; default the latest). Acting ones take \
                  dispatch: auto, background (accessibility only; pointer and focus untouched) \
                  or foreground (real input). Real input naming a \
                  target activates its window first or answers NOT_FOCUSED; results say \
                  delivered_to. type takes secret or secret_totp (list_secrets).",
    element_keys: &[REF],
    point_keys: &[SCREEN_X, SCREEN_Y, NX, NY],
    common: &[APP_ID, WINDOW_ID, SNAPSHOT_ID],
    actions: &[
        // Acting: every result says via and actual_dispatch.
        act("click", "click an element (its accessibility action when plain) or a screen point (inside the named window's frame); returns via, where and the element at a point", L::ElementOrPoint).settles(S::Pointer)
            .opt(&[BUTTON, CLICK_COUNT, DISPATCH]).check(&[r::background_needs_ref]),
        act("double_click", "double-click an element or a screen point; returns via and where", L::ElementOrPoint).settles(S::Pointer)
            .opt(&[BUTTON, DOUBLE_CLICK_COUNT, DISPATCH]).check(&[r::double_click_count, r::background_needs_ref]),
        act("type", "type any Unicode text into an element (EditableText, replacing its selection) or as keystrokes into the named target (its window activated first) (else NOT_FOCUSED); read back with a ref; returns via, value, delivered_to", L::ElementOptional).settles(S::Type).gated(G::Secret)
            .opt(&[TEXT_PARAM, SECRET, SECRET_TOTP, DISPATCH]).check(&[r::text_or_secret]),
        act("fill", "replace an element's or the focused widget's text (\"\" clears it); returns the value and via", L::ElementOptional).settles(S::Type)
            .req(&[FILL_TEXT]).opt(&[DISPATCH]),
        act("set_value", "set an element's text or numeric value (range-checked); returns the value and via", L::Element).settles(S::Type)
            .req(&[VALUE]).opt(&[DISPATCH]),
        act("paste", "paste through the clipboard (saved and restored) into an element or the target's focus (its window activated first); a selection is replaced; ACTION_FAILED when it did not land; returns value, delivered_to and the clipboard outcome", L::ElementOptional).settles(S::Type)
            .req(&[PASTE_TEXT]).opt(&[COMPUTER_TEXT_FORMAT, DISPATCH]).check(&[r::text_format]),
        act("select_text", "select the unique match of text in an element (or put the caret next to it); returns the offsets", L::Element).settles(S::Type)
            .req(&[SELECT_TEXT]).opt(&[PREFIX, SUFFIX, SELECTION_TYPE, DISPATCH]),
        act("secondary_action", "run an action the snapshot listed for the element (actions=...); returns what ran", L::Element).settles(S::Pointer)
            .req(&[ACTION_NAME]).opt(&[DISPATCH]),
        act("key", "press a key or chord (any key: F1-F24, Insert, media keys, +) in the named target (activated first) or the active window; returns the chord and delivered_to", L::None).settles(S::Key)
            .req(&[KEY]).opt(&[DISPATCH]),
        act("keydown", "hold a key down; later keys include it; returns the keys held", L::None)
            .req(&[KEY]).opt(&[DISPATCH]),
        act("keyup", "release a held key; returns the keys still held", L::None)
            .req(&[KEY]).opt(&[DISPATCH]),
        act("scroll", "scroll an element, at a point or at the screen centre (by pixels or pages); returns where and how far", L::AnyOptional).settles(S::Scroll)
            .opt(&[DIRECTION, AMOUNT, PAGES, DISPATCH]).excl(&[("amount", "pages")]).check(&[r::background_needs_ref]),
        act("drag", "press at a point, move to the drop target and release (also on failure); returns both points", L::Point).settles(S::Pointer)
            .opt(&[SCREEN_TO_X, SCREEN_TO_Y, TO_NX, TO_NY, TARGET_REF, BUTTON, DISPATCH])
            .check(&[r::computer_drag_target, r::pointer_input]),
        act("mouse_move", "move the pointer to a point; returns it and the buttons held", L::Point).settles(S::Pointer)
            .opt(&[DISPATCH]).check(&[r::pointer_input]),
        act("mouse_down", "press a mouse button, at a point or where the pointer is; held until mouse_up or an error", L::PointOptional).settles(S::Pointer)
            .opt(&[BUTTON, DISPATCH]).check(&[r::pointer_input]),
        act("mouse_up", "release a held mouse button, at a point or where the pointer is; returns the buttons held", L::PointOptional).settles(S::Pointer)
            .opt(&[BUTTON, DISPATCH]).check(&[r::pointer_input]),
        act("window", "minimize, maximize, restore, close, move or resize a window (window_id); returns its new state", L::None).settles(S::Window)
            .req(&[WINDOW_OP]).opt(&[SCREEN_X, SCREEN_Y, WIDTH, HEIGHT])
            .check(&[r::window_id_required, r::window_geometry]),
        observe("wait", "pause for duration_ms, or until an element appears/disappears or a window opens; returns what happened", L::None)
            .opt(&[DURATION_MS, UNTIL, WAIT_QUERY, WAIT_TIMEOUT]).excl(&[("timeout", "duration_ms")])
            .check(&[r::computer_wait]),
        // Observing.
        observe("snapshot", "ref-annotated outline of an app, a window or the desktop; returns snapshot_id, mode, counts, truncation, and warnings naming any app that stopped answering mid-walk", L::None)
            .opt(&[LIMIT, SCOPE_REF, CURSOR, DISABLE_DIFFING, QUERY, MAX_DEPTH]).check(&[r::cursor_alone]),
        observe("get_window_state", "one window's element tree plus its screenshot (window_id required)", L::None)
            .opt(&[INCLUDE_SCREENSHOT]).check(&[r::window_id_required]),
        observe("screenshot", "capture the screen, a window or a region; returns the image with width, height and scale", L::None)
            .opt(&[REGION, COMPUTER_IMAGE_FORMAT, QUALITY, MAX_WIDTH]).excl(&[("window_id", "region")])
            .check(&[r::image_format]),
        observe("state_and_screenshot", "a snapshot and a screenshot together; returns both and a consistent flag", L::None)
            .opt(&[LIMIT, SCOPE_REF, DISABLE_DIFFING, QUERY, MAX_DEPTH, COMPUTER_IMAGE_FORMAT, QUALITY, MAX_WIDTH])
            .check(&[r::image_format]),
        observe("get_text", "an element's whole text with its caret and selection; offset and length read a range; returns text, total_chars, truncated and next_offset when more follows", L::Element)
            .opt(&[TEXT_OFFSET, TEXT_LENGTH]),
        action("clipboard_get", "the clipboard's content as text or html (actors and admins: it may hold secrets)", Class::ClipboardRead, L::None).gated(G::ClipboardRead).on(Backend::Desktop, &[])
            .opt(&[COMPUTER_TEXT_FORMAT]).check(&[r::text_format]),
        act("clipboard_set", "put text or html on the clipboard; returns what was set", L::None).on(Backend::Desktop, &[])
            .req(&[CLIPBOARD_TEXT]).opt(&[COMPUTER_TEXT_FORMAT]).check(&[r::text_format]),
        observe("probe", "what works: accessibility, display, input, screenshot and clipboard, each with a reason when not", L::None),
    ],
    listed: true,
};
