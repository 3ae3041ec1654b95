//! Typed calls for every contract action, generated from the contract table by `cargo xtask
//! codegen`; do not edit.
//!
//! Each action's params struct is the protocol's (`glovebox_protocol::actions`), shared with the
//! daemon, re-exported here under a flat name (`BrowserClick` for `browser::Click`): required
//! params are plain fields (`BrowserClick::new(target)`), params with a default are plain fields at
//! that default, the rest are `Option`. A method on [`Client`] returns a [`PendingCall`] to await.
//! The daemon still validates each call before any side effect (`CONTRACT_VIOLATION`).

// The contract's docs quote URLs as examples, not as links.
#![allow(rustdoc::bare_urls)]

pub use glovebox_protocol::actions::{browser, computer, context};

use crate::{Client, PendingCall};

pub use glovebox_protocol::actions::context::Documentation as ContextDocumentation;
pub use glovebox_protocol::actions::context::FocusWindow as ContextFocusWindow;
pub use glovebox_protocol::actions::context::GetApp as ContextGetApp;
pub use glovebox_protocol::actions::context::GetBrowser as ContextGetBrowser;
pub use glovebox_protocol::actions::context::GetState as ContextGetState;
pub use glovebox_protocol::actions::context::ListApps as ContextListApps;
pub use glovebox_protocol::actions::context::ListBrowsers as ContextListBrowsers;
pub use glovebox_protocol::actions::context::ListSecrets as ContextListSecrets;
pub use glovebox_protocol::actions::context::ListWindows as ContextListWindows;
pub use glovebox_protocol::actions::context::PutFile as ContextPutFile;
pub use glovebox_protocol::actions::context::RequestHuman as ContextRequestHuman;

pub use glovebox_protocol::actions::browser::CdpRevoke as BrowserCdpRevoke;
pub use glovebox_protocol::actions::browser::CdpSession as BrowserCdpSession;
pub use glovebox_protocol::actions::browser::Check as BrowserCheck;
pub use glovebox_protocol::actions::browser::Click as BrowserClick;
pub use glovebox_protocol::actions::browser::Dialog as BrowserDialog;
pub use glovebox_protocol::actions::browser::DoubleClick as BrowserDoubleClick;
pub use glovebox_protocol::actions::browser::Downloads as BrowserDownloads;
pub use glovebox_protocol::actions::browser::Drag as BrowserDrag;
pub use glovebox_protocol::actions::browser::Evaluate as BrowserEvaluate;
pub use glovebox_protocol::actions::browser::Fill as BrowserFill;
pub use glovebox_protocol::actions::browser::Focus as BrowserFocus;
pub use glovebox_protocol::actions::browser::GetContent as BrowserGetContent;
pub use glovebox_protocol::actions::browser::GetHtml as BrowserGetHtml;
pub use glovebox_protocol::actions::browser::GetTitle as BrowserGetTitle;
pub use glovebox_protocol::actions::browser::GetUrl as BrowserGetUrl;
pub use glovebox_protocol::actions::browser::GoBack as BrowserGoBack;
pub use glovebox_protocol::actions::browser::GoForward as BrowserGoForward;
pub use glovebox_protocol::actions::browser::Hover as BrowserHover;
pub use glovebox_protocol::actions::browser::KeyboardType as BrowserKeyboardType;
pub use glovebox_protocol::actions::browser::Keydown as BrowserKeydown;
pub use glovebox_protocol::actions::browser::Keyup as BrowserKeyup;
pub use glovebox_protocol::actions::browser::Navigate as BrowserNavigate;
pub use glovebox_protocol::actions::browser::Paste as BrowserPaste;
pub use glovebox_protocol::actions::browser::Pdf as BrowserPdf;
pub use glovebox_protocol::actions::browser::Press as BrowserPress;
pub use glovebox_protocol::actions::browser::Probe as BrowserProbe;
pub use glovebox_protocol::actions::browser::Reload as BrowserReload;
pub use glovebox_protocol::actions::browser::Screenshot as BrowserScreenshot;
pub use glovebox_protocol::actions::browser::ScreenshotAnnotate as BrowserScreenshotAnnotate;
pub use glovebox_protocol::actions::browser::Scroll as BrowserScroll;
pub use glovebox_protocol::actions::browser::ScrollIntoView as BrowserScrollIntoView;
pub use glovebox_protocol::actions::browser::SecondaryAction as BrowserSecondaryAction;
pub use glovebox_protocol::actions::browser::Select as BrowserSelect;
pub use glovebox_protocol::actions::browser::SelectText as BrowserSelectText;
pub use glovebox_protocol::actions::browser::SetValue as BrowserSetValue;
pub use glovebox_protocol::actions::browser::Snapshot as BrowserSnapshot;
pub use glovebox_protocol::actions::browser::StateAndScreenshot as BrowserStateAndScreenshot;
pub use glovebox_protocol::actions::browser::StorageState as BrowserStorageState;
pub use glovebox_protocol::actions::browser::TabClose as BrowserTabClose;
pub use glovebox_protocol::actions::browser::TabGet as BrowserTabGet;
pub use glovebox_protocol::actions::browser::TabList as BrowserTabList;
pub use glovebox_protocol::actions::browser::TabMark as BrowserTabMark;
pub use glovebox_protocol::actions::browser::TabNew as BrowserTabNew;
pub use glovebox_protocol::actions::browser::TabSelect as BrowserTabSelect;
pub use glovebox_protocol::actions::browser::Type as BrowserType;
pub use glovebox_protocol::actions::browser::Uncheck as BrowserUncheck;
pub use glovebox_protocol::actions::browser::Upload as BrowserUpload;
pub use glovebox_protocol::actions::browser::Wait as BrowserWait;

pub use glovebox_protocol::actions::computer::Click as ComputerClick;
pub use glovebox_protocol::actions::computer::ClipboardGet as ComputerClipboardGet;
pub use glovebox_protocol::actions::computer::ClipboardSet as ComputerClipboardSet;
pub use glovebox_protocol::actions::computer::DoubleClick as ComputerDoubleClick;
pub use glovebox_protocol::actions::computer::Drag as ComputerDrag;
pub use glovebox_protocol::actions::computer::Fill as ComputerFill;
pub use glovebox_protocol::actions::computer::GetText as ComputerGetText;
pub use glovebox_protocol::actions::computer::GetWindowState as ComputerGetWindowState;
pub use glovebox_protocol::actions::computer::Key as ComputerKey;
pub use glovebox_protocol::actions::computer::Keydown as ComputerKeydown;
pub use glovebox_protocol::actions::computer::Keyup as ComputerKeyup;
pub use glovebox_protocol::actions::computer::MouseDown as ComputerMouseDown;
pub use glovebox_protocol::actions::computer::MouseMove as ComputerMouseMove;
pub use glovebox_protocol::actions::computer::MouseUp as ComputerMouseUp;
pub use glovebox_protocol::actions::computer::Paste as ComputerPaste;
pub use glovebox_protocol::actions::computer::Probe as ComputerProbe;
pub use glovebox_protocol::actions::computer::Screenshot as ComputerScreenshot;
pub use glovebox_protocol::actions::computer::Scroll as ComputerScroll;
pub use glovebox_protocol::actions::computer::SecondaryAction as ComputerSecondaryAction;
pub use glovebox_protocol::actions::computer::SelectText as ComputerSelectText;
pub use glovebox_protocol::actions::computer::SetValue as ComputerSetValue;
pub use glovebox_protocol::actions::computer::Snapshot as ComputerSnapshot;
pub use glovebox_protocol::actions::computer::StateAndScreenshot as ComputerStateAndScreenshot;
pub use glovebox_protocol::actions::computer::Type as ComputerType;
pub use glovebox_protocol::actions::computer::Wait as ComputerWait;
pub use glovebox_protocol::actions::computer::Window as ComputerWindow;

pub use glovebox_protocol::actions::native::Anthropic as NativeAnthropic;
pub use glovebox_protocol::actions::native::Openai as NativeOpenai;

/// Typed calls of the `context` tool.
impl Client {
    /// `context.get_state`: apps, browsers, windows and the session's selection; each domain
    /// reports its own error. Observes only (observer tokens may call it).
    pub fn context_get_state(&self, args: ContextGetState) -> PendingCall<'_, ContextGetState> {
        PendingCall::new(self, args)
    }

    /// `context.list_apps`: apps on the accessibility bus; returns app_id, pid, toolkit, windows
    /// and responding (false: the app did not answer in time and is listed as last seen). Observes
    /// only (observer tokens may call it).
    pub fn context_list_apps(&self, args: ContextListApps) -> PendingCall<'_, ContextListApps> {
        PendingCall::new(self, args)
    }

    /// `context.get_app`: select an app and return its snapshot; several matches give candidates; a
    /// launched app's window is waited for and made active (window_id, window_active) unless
    /// background. Starts processes (actor role; the approval policy treats it as exec).
    pub fn context_get_app(&self, args: ContextGetApp) -> PendingCall<'_, ContextGetApp> {
        PendingCall::new(self, args)
    }

    /// `context.list_windows`: top-level windows; returns window_id, app_id, pid, title, frame and
    /// state. Observes only (observer tokens may call it).
    pub fn context_list_windows(
        &self,
        args: ContextListWindows,
    ) -> PendingCall<'_, ContextListWindows> {
        PendingCall::new(self, args)
    }

    /// `context.focus_window`: activate a window; focus_verified is true only when it really is
    /// active. Mutating (actor role); a capture follows unless the call says capture false.
    pub fn context_focus_window(
        &self,
        args: ContextFocusWindow,
    ) -> PendingCall<'_, ContextFocusWindow> {
        PendingCall::new(self, args)
    }

    /// `context.list_browsers`: the Chromiums this daemon drives (its own, --browser-allow ones:
    /// browser_id, pid, default, status, tabs). Observes only (observer tokens may call it).
    pub fn context_list_browsers(
        &self,
        args: ContextListBrowsers,
    ) -> PendingCall<'_, ContextListBrowsers> {
        PendingCall::new(self, args)
    }

    /// `context.get_browser`: select a browser (the default one starts on demand) or the one tab
    /// with a URL. Mutating (actor role); a capture follows unless the call says capture false.
    pub fn context_get_browser(
        &self,
        args: ContextGetBrowser,
    ) -> PendingCall<'_, ContextGetBrowser> {
        PendingCall::new(self, args)
    }

    /// `context.request_human`: ask a person for help (login, CAPTCHA, 2FA) on the view page; waits
    /// for the hand-back. Asks a person (actor and admin roles); runs while a person is in control.
    pub fn context_request_human(
        &self,
        args: ContextRequestHuman,
    ) -> PendingCall<'_, ContextRequestHuman> {
        PendingCall::new(self, args)
    }

    /// `context.put_file`: store a file to upload. Mutating (actor role); a capture follows unless
    /// the call says capture false.
    pub fn context_put_file(&self, args: ContextPutFile) -> PendingCall<'_, ContextPutFile> {
        PendingCall::new(self, args)
    }

    /// `context.list_secrets`: named secrets (never a value); returns name, origins (and apps) each
    /// may be typed into, totp. Reads what observers may not (actor and admin roles).
    pub fn context_list_secrets(
        &self,
        args: ContextListSecrets,
    ) -> PendingCall<'_, ContextListSecrets> {
        PendingCall::new(self, args)
    }

    /// `context.documentation`: this contract (every action's parameters, identity, coordinate and
    /// timing rules, and each backend's capabilities). Observes only (observer tokens may call it).
    pub fn context_documentation(
        &self,
        args: ContextDocumentation,
    ) -> PendingCall<'_, ContextDocumentation> {
        PendingCall::new(self, args)
    }
}

/// Typed calls of the `browser` tool.
impl Client {
    /// `browser.navigate`: open url in the tab and wait until it is interactive; returns the final
    /// url. Mutating (actor role); a capture follows unless the call says capture false.
    pub fn browser_navigate(&self, args: BrowserNavigate) -> PendingCall<'_, BrowserNavigate> {
        PendingCall::new(self, args)
    }

    /// `browser.click`: click an element or a viewport point; returns what was clicked and where (a
    /// file input is NOT_EDITABLE: use upload; a file chooser the page opens shows in
    /// file_chooser). Target: ref|selector or x,y / nx,ny. Mutating (actor role); a capture follows
    /// unless the call says capture false.
    pub fn browser_click(&self, args: BrowserClick) -> PendingCall<'_, BrowserClick> {
        PendingCall::new(self, args)
    }

    /// `browser.double_click`: double-click an element or a viewport point; returns what was
    /// clicked and where. Target: ref|selector or x,y / nx,ny. Mutating (actor role); a capture
    /// follows unless the call says capture false.
    pub fn browser_double_click(
        &self,
        args: BrowserDoubleClick,
    ) -> PendingCall<'_, BrowserDoubleClick> {
        PendingCall::new(self, args)
    }

    /// `browser.hover`: move the mouse over an element or a viewport point; returns the point.
    /// Target: ref|selector or x,y / nx,ny. Mutating (actor role); a capture follows unless the
    /// call says capture false.
    pub fn browser_hover(&self, args: BrowserHover) -> PendingCall<'_, BrowserHover> {
        PendingCall::new(self, args)
    }

    /// `browser.focus`: focus an element; returns the element that really has focus. Target:
    /// ref|selector. Mutating (actor role); a capture follows unless the call says capture false.
    pub fn browser_focus(&self, args: BrowserFocus) -> PendingCall<'_, BrowserFocus> {
        PendingCall::new(self, args)
    }

    /// `browser.type`: type text at the caret of an element (mode insert, or keys: key events per
    /// character); read back; returns the text typed, the value and verified. Target: ref|selector.
    /// Mutating (actor role); a capture follows unless the call says capture false.
    pub fn browser_type(&self, args: BrowserType) -> PendingCall<'_, BrowserType> {
        PendingCall::new(self, args)
    }

    /// `browser.fill`: replace the value of any field (text-like inputs, textarea, contenteditable,
    /// number, date, time, datetime-local, month, week, color, range, \<select\> by value or label,
    /// values for a multiple select) and read it back; returns the value; NOT_EDITABLE names what
    /// fits instead (upload for a file input, check for a checkbox). Target: ref|selector. Mutating
    /// (actor role); a capture follows unless the call says capture false. `text` and `values` are
    /// exclusive.
    pub fn browser_fill(&self, args: BrowserFill) -> PendingCall<'_, BrowserFill> {
        PendingCall::new(self, args)
    }

    /// `browser.set_value`: set a field's value (the native setter, then input/change); returns the
    /// value. Target: ref|selector. Mutating (actor role); a capture follows unless the call says
    /// capture false.
    pub fn browser_set_value(&self, args: BrowserSetValue) -> PendingCall<'_, BrowserSetValue> {
        PendingCall::new(self, args)
    }

    /// `browser.select`: choose the option with this value, else this label (in a \<select\>; it
    /// must exist; option lines show value="..." where it differs from the label; or several with
    /// values in a multiple one); returns the value. Target: ref|selector. Mutating (actor role); a
    /// capture follows unless the call says capture false. `value` and `values` are exclusive.
    pub fn browser_select(&self, args: BrowserSelect) -> PendingCall<'_, BrowserSelect> {
        PendingCall::new(self, args)
    }

    /// `browser.check`: check a checkbox or radio button; returns the verified final state. Target:
    /// ref|selector. Mutating (actor role); a capture follows unless the call says capture false.
    pub fn browser_check(&self, args: BrowserCheck) -> PendingCall<'_, BrowserCheck> {
        PendingCall::new(self, args)
    }

    /// `browser.uncheck`: uncheck a checkbox; returns the verified final state. Target:
    /// ref|selector. Mutating (actor role); a capture follows unless the call says capture false.
    pub fn browser_uncheck(&self, args: BrowserUncheck) -> PendingCall<'_, BrowserUncheck> {
        PendingCall::new(self, args)
    }

    /// `browser.paste`: paste text into an element or the focus (a real paste event); returns how
    /// it landed. Optional target: ref|selector. Mutating (actor role); a capture follows unless
    /// the call says capture false.
    pub fn browser_paste(&self, args: BrowserPaste) -> PendingCall<'_, BrowserPaste> {
        PendingCall::new(self, args)
    }

    /// `browser.select_text`: select the one match of text in an element (or text line) (or put the
    /// caret by it); returns the offsets. Target: ref|selector. Mutating (actor role); a capture
    /// follows unless the call says capture false.
    pub fn browser_select_text(
        &self,
        args: BrowserSelectText,
    ) -> PendingCall<'_, BrowserSelectText> {
        PendingCall::new(self, args)
    }

    /// `browser.secondary_action`: the DOM has no named element actions: UNSUPPORTED with the
    /// reason. Target: ref|selector. Mutating (actor role); a capture follows unless the call says
    /// capture false.
    pub fn browser_secondary_action(
        &self,
        args: BrowserSecondaryAction,
    ) -> PendingCall<'_, BrowserSecondaryAction> {
        PendingCall::new(self, args)
    }

    /// `browser.press`: press a key or chord (releasing modifiers even on failure); returns the
    /// chord. Mutating (actor role); a capture follows unless the call says capture false.
    pub fn browser_press(&self, args: BrowserPress) -> PendingCall<'_, BrowserPress> {
        PendingCall::new(self, args)
    }

    /// `browser.keyboard_type`: type text into the focus (or into ref/selector, focused first)
    /// (mode insert, or keys: key events per character); returns the text. Optional target:
    /// ref|selector. Mutating (actor role); a capture follows unless the call says capture false.
    pub fn browser_keyboard_type(
        &self,
        args: BrowserKeyboardType,
    ) -> PendingCall<'_, BrowserKeyboardType> {
        PendingCall::new(self, args)
    }

    /// `browser.keydown`: hold a key down; later presses include it; returns the keys held.
    /// Mutating (actor role); a capture follows unless the call says capture false.
    pub fn browser_keydown(&self, args: BrowserKeydown) -> PendingCall<'_, BrowserKeydown> {
        PendingCall::new(self, args)
    }

    /// `browser.keyup`: release a held key; returns the keys still held. Mutating (actor role); a
    /// capture follows unless the call says capture false.
    pub fn browser_keyup(&self, args: BrowserKeyup) -> PendingCall<'_, BrowserKeyup> {
        PendingCall::new(self, args)
    }

    /// `browser.scroll`: scroll an element, at a point or the page (by pixels or pages); returns
    /// the position before and after. Optional target: ref|selector or x,y / nx,ny. Mutating (actor
    /// role); a capture follows unless the call says capture false. `amount` and `pages` are
    /// exclusive.
    pub fn browser_scroll(&self, args: BrowserScroll) -> PendingCall<'_, BrowserScroll> {
        PendingCall::new(self, args)
    }

    /// `browser.scroll_into_view`: scroll an element to the middle of the viewport; returns its
    /// box. Target: ref|selector. Mutating (actor role); a capture follows unless the call says
    /// capture false.
    pub fn browser_scroll_into_view(
        &self,
        args: BrowserScrollIntoView,
    ) -> PendingCall<'_, BrowserScrollIntoView> {
        PendingCall::new(self, args)
    }

    /// `browser.drag`: drag to a drop target (from an element or point) (releasing the button on
    /// failure); returns both points. Target: ref|selector or x,y / nx,ny. Mutating (actor role); a
    /// capture follows unless the call says capture false.
    pub fn browser_drag(&self, args: BrowserDrag) -> PendingCall<'_, BrowserDrag> {
        PendingCall::new(self, args)
    }

    /// `browser.upload`: set the files of a file input; returns the files set. Target:
    /// ref|selector. Mutating (actor role); a capture follows unless the call says capture false.
    pub fn browser_upload(&self, args: BrowserUpload) -> PendingCall<'_, BrowserUpload> {
        PendingCall::new(self, args)
    }

    /// `browser.wait`: wait for an element (timeout, state) or pause for duration_ms; returns what
    /// was waited for and how long. Optional target: ref|selector. Observes only (observer tokens
    /// may call it). `timeout` and `duration_ms` are exclusive.
    pub fn browser_wait(&self, args: BrowserWait) -> PendingCall<'_, BrowserWait> {
        PendingCall::new(self, args)
    }

    /// `browser.dialog`: accept or dismiss the open dialog (alert, confirm, prompt, beforeunload);
    /// returns its type and message. Mutating (actor role); a capture follows unless the call says
    /// capture false.
    pub fn browser_dialog(&self, args: BrowserDialog) -> PendingCall<'_, BrowserDialog> {
        PendingCall::new(self, args)
    }

    /// `browser.go_back`: go one step back in history (and wait until ready); returns the url.
    /// Mutating (actor role); a capture follows unless the call says capture false.
    pub fn browser_go_back(&self, args: BrowserGoBack) -> PendingCall<'_, BrowserGoBack> {
        PendingCall::new(self, args)
    }

    /// `browser.go_forward`: go one step forward in history (and wait until ready); returns the
    /// url. Mutating (actor role); a capture follows unless the call says capture false.
    pub fn browser_go_forward(&self, args: BrowserGoForward) -> PendingCall<'_, BrowserGoForward> {
        PendingCall::new(self, args)
    }

    /// `browser.reload`: reload the tab and wait until ready; returns the url. Mutating (actor
    /// role); a capture follows unless the call says capture false.
    pub fn browser_reload(&self, args: BrowserReload) -> PendingCall<'_, BrowserReload> {
        PendingCall::new(self, args)
    }

    /// `browser.tab_new`: open a tab (about:blank without url) and make it the session's tab;
    /// returns its tab_id. Mutating (actor role); a capture follows unless the call says capture
    /// false.
    pub fn browser_tab_new(&self, args: BrowserTabNew) -> PendingCall<'_, BrowserTabNew> {
        PendingCall::new(self, args)
    }

    /// `browser.tab_select`: bring a tab to the front and make it the session's tab; returns its
    /// identity. Mutating (actor role); a capture follows unless the call says capture false.
    pub fn browser_tab_select(&self, args: BrowserTabSelect) -> PendingCall<'_, BrowserTabSelect> {
        PendingCall::new(self, args)
    }

    /// `browser.tab_get`: describe a tab without selecting it (url, title, state, mark, latest
    /// snapshot). Observes only (observer tokens may call it).
    pub fn browser_tab_get(&self, args: BrowserTabGet) -> PendingCall<'_, BrowserTabGet> {
        PendingCall::new(self, args)
    }

    /// `browser.tab_close`: close a tab (default: the session's tab) and forget its refs; returns
    /// what was closed. Mutating (actor role); a capture follows unless the call says capture
    /// false.
    pub fn browser_tab_close(&self, args: BrowserTabClose) -> PendingCall<'_, BrowserTabClose> {
        PendingCall::new(self, args)
    }

    /// `browser.tab_mark`: mark a tab deliverable or handoff (with a note), or clear it; marks
    /// outlive the session. Mutating (actor role); a capture follows unless the call says capture
    /// false.
    pub fn browser_tab_mark(&self, args: BrowserTabMark) -> PendingCall<'_, BrowserTabMark> {
        PendingCall::new(self, args)
    }

    /// `browser.cdp_session`: DevTools URL for code on this tab (Playwright, Puppeteer: one page,
    /// the same policy); returns cdp_id, url, expires_at. Mutating (actor role); a capture follows
    /// unless the call says capture false.
    pub fn browser_cdp_session(
        &self,
        args: BrowserCdpSession,
    ) -> PendingCall<'_, BrowserCdpSession> {
        PendingCall::new(self, args)
    }

    /// `browser.cdp_revoke`: end a code session (its connection closes). Mutating (actor role); a
    /// capture follows unless the call says capture false.
    pub fn browser_cdp_revoke(&self, args: BrowserCdpRevoke) -> PendingCall<'_, BrowserCdpRevoke> {
        PendingCall::new(self, args)
    }

    /// `browser.storage_state`: save or load cookies and localStorage (Playwright's storageState,
    /// in files/); returns path, counts. Mutating (actor role); a capture follows unless the call
    /// says capture false.
    pub fn browser_storage_state(
        &self,
        args: BrowserStorageState,
    ) -> PendingCall<'_, BrowserStorageState> {
        PendingCall::new(self, args)
    }

    /// `browser.snapshot`: ref-annotated accessibility outline of the page (open shadow roots and
    /// iframes, cross-site too); returns snapshot_id, mode full/incremental/continued, counts,
    /// truncation. Observes only (observer tokens may call it).
    pub fn browser_snapshot(&self, args: BrowserSnapshot) -> PendingCall<'_, BrowserSnapshot> {
        PendingCall::new(self, args)
    }

    /// `browser.get_content`: the visible text of the page or an element (a form control's value);
    /// offset and length read a range; returns text, total_chars, truncated and next_offset when
    /// more follows. Optional target: ref|selector. Observes only (observer tokens may call it).
    pub fn browser_get_content(
        &self,
        args: BrowserGetContent,
    ) -> PendingCall<'_, BrowserGetContent> {
        PendingCall::new(self, args)
    }

    /// `browser.get_html`: the HTML of the page or of an element. Optional target: ref|selector.
    /// Observes only (observer tokens may call it).
    pub fn browser_get_html(&self, args: BrowserGetHtml) -> PendingCall<'_, BrowserGetHtml> {
        PendingCall::new(self, args)
    }

    /// `browser.get_url`: the tab's current URL. Observes only (observer tokens may call it).
    pub fn browser_get_url(&self, args: BrowserGetUrl) -> PendingCall<'_, BrowserGetUrl> {
        PendingCall::new(self, args)
    }

    /// `browser.get_title`: the tab's current title. Observes only (observer tokens may call it).
    pub fn browser_get_title(&self, args: BrowserGetTitle) -> PendingCall<'_, BrowserGetTitle> {
        PendingCall::new(self, args)
    }

    /// `browser.screenshot`: capture the viewport or the full page; returns the image with width,
    /// height and scale. Observes only (observer tokens may call it).
    pub fn browser_screenshot(
        &self,
        args: BrowserScreenshot,
    ) -> PendingCall<'_, BrowserScreenshot> {
        PendingCall::new(self, args)
    }

    /// `browser.screenshot_annotate`: a screenshot with ref labels (over a full snapshot's
    /// elements); returns image and labels. Observes only (observer tokens may call it).
    pub fn browser_screenshot_annotate(
        &self,
        args: BrowserScreenshotAnnotate,
    ) -> PendingCall<'_, BrowserScreenshotAnnotate> {
        PendingCall::new(self, args)
    }

    /// `browser.state_and_screenshot`: a snapshot and a screenshot together; returns both and a
    /// consistent flag. Observes only (observer tokens may call it).
    pub fn browser_state_and_screenshot(
        &self,
        args: BrowserStateAndScreenshot,
    ) -> PendingCall<'_, BrowserStateAndScreenshot> {
        PendingCall::new(self, args)
    }

    /// `browser.evaluate`: run JavaScript in the page (it may change it); returns the JSON value,
    /// exceptions as ACTION_FAILED. Mutating (actor role); a capture follows unless the call says
    /// capture false.
    pub fn browser_evaluate(&self, args: BrowserEvaluate) -> PendingCall<'_, BrowserEvaluate> {
        PendingCall::new(self, args)
    }

    /// `browser.pdf`: print the page to PDF; returns an artifact, not inline data. Observes only
    /// (observer tokens may call it).
    pub fn browser_pdf(&self, args: BrowserPdf) -> PendingCall<'_, BrowserPdf> {
        PendingCall::new(self, args)
    }

    /// `browser.tab_list`: the party's tabs (tab_id, url, title, selected, mark; admins: every
    /// party's, with owner). Observes only (observer tokens may call it).
    pub fn browser_tab_list(&self, args: BrowserTabList) -> PendingCall<'_, BrowserTabList> {
        PendingCall::new(self, args)
    }

    /// `browser.downloads`: recent downloads, oldest first (path under downloads/\<party\>/, url,
    /// bytes, state, tab_id). Observes only (observer tokens may call it).
    pub fn browser_downloads(&self, args: BrowserDownloads) -> PendingCall<'_, BrowserDownloads> {
        PendingCall::new(self, args)
    }

    /// `browser.probe`: what works on this tab: CDP, input, accessibility and screenshots. Observes
    /// only (observer tokens may call it).
    pub fn browser_probe(&self, args: BrowserProbe) -> PendingCall<'_, BrowserProbe> {
        PendingCall::new(self, args)
    }
}

/// Typed calls of the `computer` tool.
impl Client {
    /// `computer.click`: click an element (its accessibility action when plain) or a screen point
    /// (inside the named window's frame); returns via, where and the element at a point. Target:
    /// ref or x,y / nx,ny. Mutating (actor role); a capture follows unless the call says capture
    /// false.
    pub fn computer_click(&self, args: ComputerClick) -> PendingCall<'_, ComputerClick> {
        PendingCall::new(self, args)
    }

    /// `computer.double_click`: double-click an element or a screen point; returns via and where.
    /// Target: ref or x,y / nx,ny. Mutating (actor role); a capture follows unless the call says
    /// capture false.
    pub fn computer_double_click(
        &self,
        args: ComputerDoubleClick,
    ) -> PendingCall<'_, ComputerDoubleClick> {
        PendingCall::new(self, args)
    }

    /// `computer.type`: type any Unicode text into an element (EditableText, replacing its
    /// selection) or as keystrokes into the named target (its window activated first) (else
    /// NOT_FOCUSED); read back with a ref; returns via, value, delivered_to. Optional target: ref.
    /// Mutating (actor role); a capture follows unless the call says capture false.
    pub fn computer_type(&self, args: ComputerType) -> PendingCall<'_, ComputerType> {
        PendingCall::new(self, args)
    }

    /// `computer.fill`: replace an element's or the focused widget's text ("" clears it); returns
    /// the value and via. Optional target: ref. Mutating (actor role); a capture follows unless the
    /// call says capture false.
    pub fn computer_fill(&self, args: ComputerFill) -> PendingCall<'_, ComputerFill> {
        PendingCall::new(self, args)
    }

    /// `computer.set_value`: set an element's text or numeric value (range-checked); returns the
    /// value and via. Target: ref. Mutating (actor role); a capture follows unless the call says
    /// capture false.
    pub fn computer_set_value(&self, args: ComputerSetValue) -> PendingCall<'_, ComputerSetValue> {
        PendingCall::new(self, args)
    }

    /// `computer.paste`: paste through the clipboard (saved and restored) into an element or the
    /// target's focus (its window activated first); a selection is replaced; ACTION_FAILED when it
    /// did not land; returns value, delivered_to and the clipboard outcome. Optional target: ref.
    /// Mutating (actor role); a capture follows unless the call says capture false.
    pub fn computer_paste(&self, args: ComputerPaste) -> PendingCall<'_, ComputerPaste> {
        PendingCall::new(self, args)
    }

    /// `computer.select_text`: select the unique match of text in an element (or put the caret next
    /// to it); returns the offsets. Target: ref. Mutating (actor role); a capture follows unless
    /// the call says capture false.
    pub fn computer_select_text(
        &self,
        args: ComputerSelectText,
    ) -> PendingCall<'_, ComputerSelectText> {
        PendingCall::new(self, args)
    }

    /// `computer.secondary_action`: run an action the snapshot listed for the element
    /// (actions=...); returns what ran. Target: ref. Mutating (actor role); a capture follows
    /// unless the call says capture false.
    pub fn computer_secondary_action(
        &self,
        args: ComputerSecondaryAction,
    ) -> PendingCall<'_, ComputerSecondaryAction> {
        PendingCall::new(self, args)
    }

    /// `computer.key`: press a key or chord (any key: F1-F24, Insert, media keys, +) in the named
    /// target (activated first) or the active window; returns the chord and delivered_to. Mutating
    /// (actor role); a capture follows unless the call says capture false.
    pub fn computer_key(&self, args: ComputerKey) -> PendingCall<'_, ComputerKey> {
        PendingCall::new(self, args)
    }

    /// `computer.keydown`: hold a key down; later keys include it; returns the keys held. Mutating
    /// (actor role); a capture follows unless the call says capture false.
    pub fn computer_keydown(&self, args: ComputerKeydown) -> PendingCall<'_, ComputerKeydown> {
        PendingCall::new(self, args)
    }

    /// `computer.keyup`: release a held key; returns the keys still held. Mutating (actor role); a
    /// capture follows unless the call says capture false.
    pub fn computer_keyup(&self, args: ComputerKeyup) -> PendingCall<'_, ComputerKeyup> {
        PendingCall::new(self, args)
    }

    /// `computer.scroll`: scroll an element, at a point or at the screen centre (by pixels or
    /// pages); returns where and how far. Optional target: ref or x,y / nx,ny. Mutating (actor
    /// role); a capture follows unless the call says capture false. `amount` and `pages` are
    /// exclusive.
    pub fn computer_scroll(&self, args: ComputerScroll) -> PendingCall<'_, ComputerScroll> {
        PendingCall::new(self, args)
    }

    /// `computer.drag`: press at a point, move to the drop target and release (also on failure);
    /// returns both points. Target: x,y / nx,ny. Mutating (actor role); a capture follows unless
    /// the call says capture false.
    pub fn computer_drag(&self, args: ComputerDrag) -> PendingCall<'_, ComputerDrag> {
        PendingCall::new(self, args)
    }

    /// `computer.mouse_move`: move the pointer to a point; returns it and the buttons held. Target:
    /// x,y / nx,ny. Mutating (actor role); a capture follows unless the call says capture false.
    pub fn computer_mouse_move(
        &self,
        args: ComputerMouseMove,
    ) -> PendingCall<'_, ComputerMouseMove> {
        PendingCall::new(self, args)
    }

    /// `computer.mouse_down`: press a mouse button, at a point or where the pointer is; held until
    /// mouse_up or an error. Optional point: x,y / nx,ny. Mutating (actor role); a capture follows
    /// unless the call says capture false.
    pub fn computer_mouse_down(
        &self,
        args: ComputerMouseDown,
    ) -> PendingCall<'_, ComputerMouseDown> {
        PendingCall::new(self, args)
    }

    /// `computer.mouse_up`: release a held mouse button, at a point or where the pointer is;
    /// returns the buttons held. Optional point: x,y / nx,ny. Mutating (actor role); a capture
    /// follows unless the call says capture false.
    pub fn computer_mouse_up(&self, args: ComputerMouseUp) -> PendingCall<'_, ComputerMouseUp> {
        PendingCall::new(self, args)
    }

    /// `computer.window`: minimize, maximize, restore, close, move or resize a window (window_id);
    /// returns its new state. Mutating (actor role); a capture follows unless the call says capture
    /// false.
    pub fn computer_window(&self, args: ComputerWindow) -> PendingCall<'_, ComputerWindow> {
        PendingCall::new(self, args)
    }

    /// `computer.wait`: pause for duration_ms, or until an element appears/disappears or a window
    /// opens; returns what happened. Observes only (observer tokens may call it). `timeout` and
    /// `duration_ms` are exclusive.
    pub fn computer_wait(&self, args: ComputerWait) -> PendingCall<'_, ComputerWait> {
        PendingCall::new(self, args)
    }

    /// `computer.snapshot`: ref-annotated outline of an app, a window or the desktop; returns
    /// snapshot_id, mode, counts, truncation, and warnings naming any app that stopped answering
    /// mid-walk. Observes only (observer tokens may call it).
    pub fn computer_snapshot(&self, args: ComputerSnapshot) -> PendingCall<'_, ComputerSnapshot> {
        PendingCall::new(self, args)
    }

    /// `computer.get_window_state`: one window's element tree plus its screenshot (window_id
    /// required). Observes only (observer tokens may call it).
    pub fn computer_get_window_state(
        &self,
        args: ComputerGetWindowState,
    ) -> PendingCall<'_, ComputerGetWindowState> {
        PendingCall::new(self, args)
    }

    /// `computer.screenshot`: capture the screen, a window or a region; returns the image with
    /// width, height and scale. Observes only (observer tokens may call it). `window_id` and
    /// `region` are exclusive.
    pub fn computer_screenshot(
        &self,
        args: ComputerScreenshot,
    ) -> PendingCall<'_, ComputerScreenshot> {
        PendingCall::new(self, args)
    }

    /// `computer.state_and_screenshot`: a snapshot and a screenshot together; returns both and a
    /// consistent flag. Observes only (observer tokens may call it).
    pub fn computer_state_and_screenshot(
        &self,
        args: ComputerStateAndScreenshot,
    ) -> PendingCall<'_, ComputerStateAndScreenshot> {
        PendingCall::new(self, args)
    }

    /// `computer.get_text`: an element's whole text with its caret and selection; offset and length
    /// read a range; returns text, total_chars, truncated and next_offset when more follows.
    /// Target: ref. Observes only (observer tokens may call it).
    pub fn computer_get_text(&self, args: ComputerGetText) -> PendingCall<'_, ComputerGetText> {
        PendingCall::new(self, args)
    }

    /// `computer.clipboard_get`: the clipboard's content as text or html (actors and admins: it may
    /// hold secrets). Reads the clipboard (actor and admin roles; observers may not).
    pub fn computer_clipboard_get(
        &self,
        args: ComputerClipboardGet,
    ) -> PendingCall<'_, ComputerClipboardGet> {
        PendingCall::new(self, args)
    }

    /// `computer.clipboard_set`: put text or html on the clipboard; returns what was set. Mutating
    /// (actor role); a capture follows unless the call says capture false.
    pub fn computer_clipboard_set(
        &self,
        args: ComputerClipboardSet,
    ) -> PendingCall<'_, ComputerClipboardSet> {
        PendingCall::new(self, args)
    }

    /// `computer.probe`: what works: accessibility, display, input, screenshot and clipboard, each
    /// with a reason when not. Observes only (observer tokens may call it).
    pub fn computer_probe(&self, args: ComputerProbe) -> PendingCall<'_, ComputerProbe> {
        PendingCall::new(self, args)
    }
}

/// Typed calls of the `native` tool.
impl Client {
    /// `native.anthropic`: run one action of Anthropic's computer tool (tool, input); returns
    /// content (text and a base64 image block) and is_error, ready for a tool_result. Mutating
    /// (actor role); a capture follows unless the call says capture false.
    pub fn native_anthropic(&self, args: NativeAnthropic) -> PendingCall<'_, NativeAnthropic> {
        PendingCall::new(self, args)
    }

    /// `native.openai`: run OpenAI computer_call actions (action, or actions in order); returns
    /// output (a computer_screenshot with a data: URL), acknowledged_safety_checks, and the index
    /// of the action that failed. Mutating (actor role); a capture follows unless the call says
    /// capture false. `action` and `actions` are exclusive.
    pub fn native_openai(&self, args: NativeOpenai) -> PendingCall<'_, NativeOpenai> {
        PendingCall::new(self, args)
    }
}
