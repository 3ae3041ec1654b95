//! Typing a named secret: which value (or current code), whether it may go where the call
//! would type it (the tab's origin, the field's frame, where its form posts), following it
//! once typed, and captures with the boxes that show a value painted over.

use glovebox_protocol::results::browser::Image;

use crate::browser::actions::{El, Tab};
use crate::error::DaemonError;
use crate::secrets::{Secret, SecretsError, Vault};
use crate::state::Daemon;

/// What a call asked to type in place of `text`.
pub struct Wanted {
    pub secret: Secret,
    /// The value, or the current one-time code.
    pub text: String,
    /// What the result says was typed: `[secret:<name>]`.
    pub shown: String,
    /// The text is the current one-time code, not the value.
    pub code: bool,
}

/// The secret a call names in `secret` or `secret_totp`, if any; an unknown name is
/// `TARGET_NOT_FOUND`, a code asked of a secret without a seed `CONTRACT_VIOLATION`.
pub fn wanted(
    vault: &Vault,
    secret: Option<&str>,
    totp: Option<&str>,
) -> Result<Option<Wanted>, DaemonError> {
    let (name, code) = match (secret, totp) {
        (Some(n), _) => (n, false),
        (None, Some(n)) => (n, true),
        (None, None) => return Ok(None),
    };
    let s = vault
        .get(name)
        .ok_or_else(|| DaemonError::TargetNotFound { kind: "secret", id: name.to_owned() })?;
    if !code {
        let shown = format!("[secret:{name}]");
        return Ok(Some(Wanted { text: s.value.clone(), secret: s, shown, code: false }));
    }
    let text = s.totp_now().map_err(|e| {
        let why = match e {
            SecretsError::NoTotp(_) => format!("{e}; send secret for its value"),
            e => e.to_string(),
        };
        DaemonError::Contract(glovebox_protocol::contract::Violation::new("secret_totp", why))
    })?;
    vault.redactor().add_code(name, &text);
    Ok(Some(Wanted { text, secret: s, shown: format!("[secret:{name}:totp]"), code: true }))
}

/// Refuses (`FORBIDDEN`, nothing typed) unless the tab's page, the element's frame and
/// every origin its form posts to are the secret's.
pub async fn check_page(
    tab: &Tab,
    el: &El,
    s: &Secret,
    desktop: Option<&crate::desktop::Desktop>,
) -> Result<String, DaemonError> {
    let refuse = |place: String| DaemonError::SecretRefused {
        secret: s.name.clone(),
        place,
        origins: s.origins.clone(),
    };
    let top = tab.top_origin().await?;
    // Checked below before anything is typed; covered on the screen from before the first
    // key, so no view frame catches it before the action's end says where it shows.
    if !s.allows_origin(&top) {
        return Err(refuse(format!("a page of {top}")));
    }
    let place = tab.place(el).await?;
    if !s.allows_origin(&place.origin) {
        return Err(refuse(format!("a frame of {} (in a page of {top})", place.origin)));
    }
    if let Some(to) = place.posts_to.iter().find(|o| !s.allows_origin(o)) {
        return Err(refuse(format!("a field whose form posts to {to}")));
    }
    if let Some(d) = desktop {
        d.cover_more(screen_rect(place.window, &place.rect));
    }
    Ok(place.origin)
}

/// A box of the viewport (CSS pixels) on the screen, padded: the viewport sits at the
/// bottom of its window, the window's side frame split evenly.
fn screen_rect([wx, wy, fw, fh, dpr]: [f64; 5], b: &[f64; 4]) -> (i32, i32, u32, u32) {
    let (left, top, pad) = (wx + fw / 2.0, wy + fh, 4.0);
    let x = (left + (b[0] - pad) * dpr).floor();
    let y = (top + (b[1] - pad) * dpr).floor();
    let w = ((b[2] + 2.0 * pad) * dpr).ceil().max(1.0);
    let h = ((b[3] + 2.0 * pad) * dpr).ceil().max(1.0);
    (x as i32, y as i32, w as u32, h as u32)
}

/// Follows a secret typed into `tab`'s document of `origin` in `session`.
pub fn follow(daemon: &Daemon, session: &str, tab: &Tab, w: &Wanted, origin: String) {
    daemon.config.secrets.followed.add(crate::secrets::Typed {
        session: session.to_owned(),
        browser_id: tab.browser_id.clone(),
        tab_id: tab.tab_id.clone(),
        secret: w.secret.name.clone(),
        code: w.code,
        origin,
    });
}

/// Whether each secret followed for a session was still in its tab's page when an action
/// began: per tab and secret, `Ok` (held) or why it could not be told.
#[derive(Debug, Default)]
pub struct Held(Vec<(crate::secrets::Typed, Result<(), String>)>);

impl Held {
    /// What was found of `t`; `None` when it was not looked for.
    pub fn of(&self, t: &crate::secrets::Typed) -> Option<&Result<(), String>> {
        self.0.iter().find(|(o, _)| o.same(t)).map(|(_, r)| r)
    }
}

/// How long looking for a secret in one tab's page may take before an action.
const LOOK: std::time::Duration = std::time::Duration::from_secs(2);

/// Before a browser action of `session`: looks for each secret it typed into a tab in that
/// tab's page (every frame, fields and text, shown or not). One no longer there is not
/// followed any more: a later navigation does not carry it.
pub async fn held_before(daemon: &Daemon, b: &crate::browser::Browsers, session: &str) -> Held {
    let vault = &daemon.config.secrets;
    let mut held = Held::default();
    for t in vault.followed.of_session(session) {
        let found = match vault.get(&t.secret) {
            _ if t.code => Err("a one-time code is not looked for once typed".into()),
            None => Err("the secret is no longer in force, so its value was not looked for".into()),
            Some(s) => {
                let look = async {
                    let tab = b.tab(&t.browser_id, &t.tab_id).await?;
                    tab.secrets_shown(&[s.value]).await
                };
                match tokio::time::timeout(LOOK, look).await {
                    Ok(Ok(shown)) => Ok(shown.held > 0),
                    Ok(Err(e)) => Err(format!("its page could not be read: {e}")),
                    Err(_) => Err(format!("its page did not answer in {} s", LOOK.as_secs())),
                }
            }
        };
        match found {
            Ok(false) => vault.followed.forget(&t),
            Ok(true) => held.0.push((t, Ok(()))),
            Err(why) => held.0.push((t, Err(why))),
        }
    }
    held
}

/// `shot` (a tab's screenshot) with every box of the page that shows a secret's value
/// painted over. A capture that cannot be covered is not handed out.
pub async fn cover_tab(vault: &Vault, tab: &Tab, shot: &mut Image) -> Result<(), String> {
    let values: Vec<String> = vault.values().into_iter().map(|(_, v)| v).collect();
    if values.is_empty() {
        return Ok(());
    }
    let shown =
        tab.secrets_shown(&values).await.map_err(|e| format!("cannot look for secrets: {e}"))?;
    let full_page = shot.full_page;
    let boxes: Vec<[f64; 4]> = shown
        .boxes
        .iter()
        .map(|b| {
            if full_page {
                [b[0] + shown.scroll.0, b[1] + shown.scroll.1, b[2], b[3]]
            } else {
                *b
            }
        })
        .collect();
    let scale = shot.scale;
    crate::secrets::paint::cover(shot, &boxes, scale)
}

/// Refuses (`FORBIDDEN`, nothing typed) unless the app of `pid` (else of the active window)
/// is one the secret names; the pid of the app it may go to.
pub async fn check_app(
    d: &crate::desktop::Desktop,
    pid: Option<u32>,
    s: &Secret,
) -> Result<Option<u32>, DaemonError> {
    let pid = match pid {
        Some(p) => Some(p),
        None => d.windows().await?.into_iter().find(|w| w.active).and_then(|w| w.pid),
    };
    let apps = d.apps().await?;
    let name = pid.and_then(|p| apps.into_iter().find(|a| a.pid == p)).map(|a| a.name);
    match name {
        Some(n) if s.allows_app(&n) => Ok(pid),
        n => Err(DaemonError::SecretRefused {
            secret: s.name.clone(),
            place: match n {
                Some(n) => format!("the app {n}"),
                None => "a window of no app the accessibility bus names".to_owned(),
            },
            origins: s.origins.iter().chain(s.apps.iter()).cloned().collect(),
        }),
    }
}

/// The one way dispatch takes a tab's screenshot (captures, `screenshot`,
/// `state_and_screenshot`, `screenshot_annotate`): with every box that shows a secret's
/// value painted over. One that cannot be covered is not handed out.
pub async fn screenshot(
    vault: &Vault,
    tab: &Tab,
    (full_page, format): (bool, &str),
    quality: Option<u64>,
    max_width: Option<u64>,
    limit: crate::browser::ShotLimit,
) -> Result<Image, DaemonError> {
    let mut shot = tab.screenshot(full_page, format, quality, max_width, limit).await?;
    cover_tab(vault, tab, &mut shot).await.map_err(uncovered)?;
    Ok(shot)
}

/// The viewport's PNG bytes (a native call's screenshot), covered as [`screenshot`] does.
pub async fn viewport_png(vault: &Vault, tab: &Tab) -> Result<Vec<u8>, DaemonError> {
    use base64::Engine as _;
    let png = tab.viewport_png().await?;
    if vault.is_empty() {
        return Ok(png);
    }
    let b64 = base64::engine::general_purpose::STANDARD;
    let mut shot =
        Image { data: b64.encode(&png), scale: tab_scale(tab).await, ..Default::default() };
    cover_tab(vault, tab, &mut shot).await.map_err(uncovered)?;
    b64.decode(&shot.data).map_err(|e| uncovered(e.to_string()))
}

/// Device pixels per CSS pixel of the tab's viewport.
async fn tab_scale(tab: &Tab) -> f64 {
    tab.eval::<f64>("devicePixelRatio").await.unwrap_or(1.0)
}

fn uncovered(why: impl std::fmt::Display) -> DaemonError {
    DaemonError::ActionFailed(format!(
        "the screenshot may show a secret and could not be covered: {why}"
    ))
}

/// Refuses (`FORBIDDEN`) text for the clipboard that holds a secret's value: the clipboard
/// is every app's (and every page's, on paste) to read.
pub fn off_clipboard(vault: &Vault, text: &str) -> Result<(), DaemonError> {
    let Some(marker) = vault.redactor().marker_in(text) else { return Ok(()) };
    Err(DaemonError::SecretRefused {
        secret: marker.trim_start_matches("[secret:").trim_end_matches(']').to_owned(),
        place: "the clipboard".into(),
        origins: Vec::new(),
    })
}

/// After an action on `tab`: the screen rectangles where it shows a secret's value, which
/// every desktop capture (the view page's frames, `computer` screenshots) paints over until
/// the next action on a tab says otherwise. The viewport sits at the bottom of the window,
/// its sides' frame split evenly.
pub async fn cover_screen(
    daemon: &Daemon,
    b: &crate::browser::Browsers,
    (browser, tab): &(String, String),
) {
    let vault = &daemon.config.secrets;
    let Some(d) = daemon.desktop() else { return };
    if vault.is_empty() {
        return;
    }
    let Ok(tab) = b.tab(browser, tab).await else { return };
    let values: Vec<String> = vault.values().into_iter().map(|(_, v)| v).collect();
    let shown = match tab.secrets_shown(&values).await {
        Ok(s) => s,
        Err(e) => {
            tracing::debug!(%e, "cannot look for secrets on the screen");
            return;
        }
    };
    let rects = shown.boxes.iter().map(|b| screen_rect(shown.window, b)).collect();
    d.cover_screen(rects);
}
