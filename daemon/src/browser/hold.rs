//! Around an action: where the effects log stood and which tabs were open before it (to tell
//! what it caused), the downloads a lane may see, and the input holds that keep the settle
//! instrumentation off while input is sent (released even when the op is cancelled).

use std::sync::Arc;

use glovebox_protocol::results::browser::Download;

use super::{actions, cdp, contexts, effects, input, tab_id_of, Browsers, Lane, Tab};
use cdp::Conn;

/// What was open and blocked before an action, to tell what the action caused.
#[derive(Debug, Clone, Default)]
pub struct EffectsMark {
    seq: u64,
    tabs: Vec<String>,
}

impl Browsers {
    /// The downloads of `browser_id` the effects log still holds that `lane` may see (those
    /// saved in its lane's dir; admins: all), oldest first.
    pub fn downloads(&self, browser_id: &str, lane: &Lane) -> Vec<Download> {
        let own = contexts::Contexts::dir_of(&self.downloads_dir(), Some(&lane.key));
        self.effects
            .since(0, browser_id, |_| true)
            .into_iter()
            .filter_map(|e| match e.effect {
                effects::Effect::Download { url, path, state, bytes, reason, .. }
                    if lane.all || std::path::Path::new(&path).starts_with(&own) =>
                {
                    let reason = reason.map(str::to_owned);
                    Some(Download { path, url, bytes, state, tab_id: e.tab_id, reason })
                }
                _ => None,
            })
            .collect()
    }

    /// Where the effects log stands and which tabs are open, before an action.
    pub async fn effects_mark(&self) -> EffectsMark {
        let mut tabs = Vec::new();
        for c in self.conns.lock().await.values() {
            tabs.extend(c.live_tabs());
        }
        EffectsMark { seq: self.effects.mark(), tabs }
    }

    /// Before an action sends input: the settle instrumentation of every tab the daemon
    /// watches stays off until the hold is released (a paused page drops input, and another
    /// action may be settling in the tab meanwhile).
    pub async fn hold_input(&self) -> InputHold {
        let mut watches = Vec::new();
        for c in self.conns.lock().await.values() {
            watches.extend(c.watches());
        }
        futures::future::join_all(watches.iter().map(|w| w.instrument.hold_for_input())).await;
        InputHold { watches }
    }

    /// Starts tracing a browser for an action's input (what its handlers schedule): the
    /// browser with the tabs the daemon watches; `None` when it is taken or there is none.
    pub async fn trace_action(&self) -> Option<actions::trace::ActionTrace> {
        let conn = self.conns.lock().await.values().find(|c| !c.watches().is_empty()).cloned()?;
        actions::trace::ActionTrace::start(conn).await
    }

    /// What happened since `mark` that the action on `tab_id` led to: in that tab, in a tab
    /// opened since (a popup, `target=_blank`), or in no tab the daemon could name.
    pub fn effects_since(
        &self,
        mark: &EffectsMark,
        browser_id: &str,
        tab_id: &str,
    ) -> Vec<effects::Entry> {
        self.effects.since(mark.seq, browser_id, |t| {
            t == Some(tab_id) || t.is_none_or(|t| !mark.tabs.iter().any(|m| m == t))
        })
    }

    /// Send keyUp for held keys `(tab_id, key)` on whichever connected browser has the tab
    /// (after a failed, cancelled or timed-out op).
    pub async fn release_keys(&self, keys: Vec<(String, String)>) {
        let conns: Vec<Arc<Conn>> = self.conns.lock().await.values().cloned().collect();
        for conn in conns {
            let Ok(targets) = conn.targets().await else { continue };
            for (tab_id, key) in keys.iter().rev() {
                let Some(t) = targets.iter().find(|t| tab_id_of(&t.target_id) == *tab_id) else {
                    continue;
                };
                let (Ok(tab), Some(k)) = (
                    Tab::open(conn.clone(), &t.target_id, self.downloads_dir()).await,
                    input::key_def(key),
                ) else {
                    continue;
                };
                let _ = tab.key_event(false, &k, 0).await;
            }
        }
    }
}

/// Instrumentation held off while an action sends input (`Browsers::hold_input`); released
/// by `release`, or in the background when dropped (the op was cancelled).
#[derive(Debug)]
pub struct InputHold {
    watches: Vec<Arc<cdp::TabWatch>>,
}

impl InputHold {
    pub async fn release(mut self) {
        let watches = std::mem::take(&mut self.watches);
        futures::future::join_all(watches.iter().map(|w| w.instrument.input_done())).await;
    }
}

impl Drop for InputHold {
    fn drop(&mut self) {
        let watches = std::mem::take(&mut self.watches);
        if watches.is_empty() {
            return;
        }
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                futures::future::join_all(watches.iter().map(|w| w.instrument.input_done())).await;
            });
        }
    }
}
