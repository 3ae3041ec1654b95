//! The backends put together, in one place: the browser (its default Chromium starts on
//! first use), the desktop's slot, and the probe that `/healthz`, `/readyz` and
//! `session.hello` report them through. `gloveboxd` composes its daemon here, and so does
//! every test that starts the binary.

use std::collections::BTreeMap;
use std::sync::Arc;

use glovebox_protocol::wire::BackendStatus;

use crate::browser::Browsers;
use crate::desktop::Slot;
use crate::process::Supervisor;
use crate::state::{BackendProbe, Config};

/// Put the backends into `config`: a browser backend in the state dir whose extra allowed
/// ports are `browser_allow`, and `desktop`, which may still be starting. Children get the
/// desktop's DISPLAY and buses from `supervisor` once it is up (calls are refused until
/// then). Call it on the runtime: the browser's sandbox check starts at once.
pub fn backends(
    config: &mut Config,
    supervisor: &Supervisor,
    desktop: Slot,
    browser_allow: &[u16],
) {
    let browser = Arc::new(Browsers::new(config.state_dir.clone(), supervisor.clone(), Vec::new()));
    for port in browser_allow {
        browser.allow(*port);
    }
    // Whether Chromium keeps its sandbox is known (and logged) before anyone asks.
    let check = browser.clone();
    tokio::task::spawn_blocking(move || check.check_sandbox());
    if let Some(user) = supervisor.desktop_user() {
        config.files = config.files.clone().with_desktop_user(user);
    } else if supervisor.isolation() == crate::process::confine::Isolation::Landlock {
        let uploads = config.state_dir.join("uploads");
        config.files = config.files.clone().with_uploads(uploads);
    }
    config.desktop_isolation = supervisor.isolation();
    config.backends = probe(browser.clone(), desktop.clone());
    config.browser = Some(browser);
    config.desktop = desktop;
}

/// What the backends say of themselves, asked afresh at each probe.
pub fn probe(browser: Arc<Browsers>, desktop: Slot) -> BackendProbe {
    Arc::new(move || {
        let mut map = BTreeMap::new();
        if let Some(status) = desktop.status() {
            map.insert("desktop".to_owned(), status);
        }
        let (word, reason) = browser.status();
        let mut extra = BTreeMap::new();
        if let Some(sandbox) = browser.sandbox() {
            extra.insert("sandbox".to_owned(), serde_json::Value::Bool(sandbox.on));
            extra.insert("sandbox_reason".to_owned(), serde_json::Value::String(sandbox.reason));
        }
        map.insert(
            "browser".to_owned(),
            BackendStatus { status: word.into(), reason: Some(reason), extra },
        );
        map
    })
}
