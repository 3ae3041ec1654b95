//! What an action caused beyond its own answer, named in its result from the browser's effects
//! log: loads the policy blocked, tabs it opened, downloads it started, where its tab
//! navigated and a file chooser it opened, so an agent without an event channel (an MCP client) still learns of them.

use glovebox_protocol::results::{Blocked, Downloaded, Effects, FileChooser, Opened, SecretLeft};
use serde_json::Value;

use super::done::Done;
use crate::browser::effects::Effect;
use crate::browser::{Browsers, EffectsMark};

/// The browser and tab an action ran on, from its target.
pub(super) fn tab_of(out: &Done) -> Option<(String, String)> {
    let (browser_id, tab_id) = out.target.as_ref()?.tab()?;
    Some((browser_id.to_owned(), tab_id.to_owned()))
}

/// The newest tab the action opened (it may have taken the front).
pub(super) fn opened_tab(b: &Browsers, mark: &EffectsMark, out: &Done) -> Option<String> {
    let (browser_id, tab_id) = tab_of(out)?;
    b.effects_since(mark, &browser_id, &tab_id)
        .into_iter()
        .filter(|e| matches!(e.effect, Effect::Opened { .. }))
        .filter_map(|e| e.tab_id)
        .rfind(|t| *t != tab_id)
}

/// Adds `navigation_blocked`, `opened_tabs`, `downloads` and `navigated_to` (the protocol's
/// [`Effects`]) to the result of a browser action on `tab` (browser id, tab id), each only when
/// something of the kind happened; and `secrets_left` when the tab went to another origin than
/// the one `session` typed a secret into there while its page held it (`held`, looked for
/// when the action began), or when that could not be told. Returns what it added.
pub(super) fn name(
    b: &Browsers,
    mark: &EffectsMark,
    tab: &(String, String),
    out: &mut Done,
    (followed, session, held): (&crate::secrets::Followed, &str, &super::secrets::Held),
) -> Effects {
    let (browser_id, tab_id) = tab;
    let mut fx = Effects::default();
    for e in b.effects_since(mark, browser_id, tab_id) {
        match e.effect {
            Effect::Blocked { url, rule, channel } => {
                let kind = channel.map(String::from);
                fx.navigation_blocked.push(Blocked { url, rule, tab_id: e.tab_id, kind });
            }
            Effect::Opened { url } if e.tab_id.as_deref() != Some(tab_id.as_str()) => {
                fx.opened_tabs.push(Opened { tab_id: e.tab_id, url });
            }
            Effect::Download { url, path, state, bytes, reason, .. } => {
                let reason = reason.map(String::from);
                fx.downloads.push(Downloaded { path, url, bytes, state, reason });
            }
            Effect::Navigated { url } if e.tab_id.as_deref() == Some(tab_id.as_str()) => {
                fx.navigated_to = Some(url)
            }
            Effect::FileChooser { multiple } if e.tab_id.as_deref() == Some(tab_id.as_str()) => {
                fx.file_chooser = Some(FileChooser { multiple })
            }
            _ => {}
        }
    }
    if let Some(url) = &fx.navigated_to {
        let now_on = glovebox_protocol::url::Url::parse(url)
            .map(|u| u.origin().ascii_serialization())
            .unwrap_or_else(|_| "null".into());
        for t in followed.take(session, tab_id) {
            if t.origin == now_on {
                continue;
            }
            let (held, unchecked) = match held.of(&t) {
                Some(Ok(())) => (Some(true), None),
                Some(Err(why)) => (None, Some(why.clone())),
                None => (None, Some("typed during this action; not looked for since".into())),
            };
            let (secret, typed_on, now_on) = (t.secret, t.origin, now_on.clone());
            fx.secrets_left.push(SecretLeft { secret, typed_on, now_on, held, unchecked });
        }
    }
    if fx.is_empty() {
        return fx;
    }
    out.facts.add(&fx);
    let (Some(obj), Ok(Value::Object(added))) =
        (out.result.as_object_mut(), serde_json::to_value(&fx))
    else {
        return fx;
    };
    for (k, v) in added {
        // A result that says where it arrived keeps its own word for it.
        if k == "navigated_to" {
            obj.entry(k).or_insert(v);
        } else {
            obj.insert(k, v);
        }
    }
    fx
}
