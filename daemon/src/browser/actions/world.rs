//! The daemon's isolated world in a tab's main frame. The snapshot walk runs there and keeps
//! a serial per node; snapshot keys `w<context>:<serial>` turn back into elements there. The
//! page cannot see the world, and the world dies with the document.

use serde_json::{json, Value};

use super::{El, Tab};
use crate::browser::BrowserError;

/// Set up in a new world before anything else runs there; a context without it is not ours.
const INIT: &str = "globalThis.__glovebox = {ids: new WeakMap(), els: new Map(), next: 1}; true";

impl Tab {
    /// The world's execution context, made once per main-frame document.
    pub async fn world(&self) -> Result<i64, BrowserError> {
        let mut slot = self.watch.world.lock().await;
        let navs = self.navigations();
        if let Some((made, ctx)) = *slot {
            if made == navs {
                return Ok(ctx);
            }
        }
        let frame = match self.page.mainframe().await {
            Ok(Some(f)) => f.inner().clone(),
            _ => {
                let t = self.cmd("Page.getFrameTree", json!({})).await?;
                t["frameTree"]["frame"]["id"].as_str().unwrap_or_default().to_owned()
            }
        };
        let r = self
            .cmd(
                "Page.createIsolatedWorld",
                json!({"frameId": frame, "worldName": "glovebox", "grantUniveralAccess": true}),
            )
            .await?;
        let ctx = r["executionContextId"]
            .as_i64()
            .ok_or_else(|| BrowserError::Failed("the tab made no isolated world".into()))?;
        self.cmd("Runtime.evaluate", json!({"expression": INIT, "contextId": ctx})).await?;
        *slot = Some((navs, ctx));
        Ok(ctx)
    }

    /// Forget a world that turned out gone, unless another call already replaced it.
    async fn forget_world(&self, ctx: i64) {
        let mut slot = self.watch.world.lock().await;
        if slot.is_some_and(|(_, c)| c == ctx) {
            *slot = None;
        }
    }

    /// Evaluate `expr` in the world (made again once if its document went away); the raw
    /// `Runtime.evaluate` answer and the context it ran in. `expr` must answer
    /// `{noworld: true}` when `globalThis.__glovebox` is missing.
    pub async fn world_eval(&self, expr: &str) -> Result<(i64, Value), BrowserError> {
        for attempt in 0..2 {
            let ctx = self.world().await?;
            let r = self
                .cmd(
                    "Runtime.evaluate",
                    json!({"expression": expr, "contextId": ctx, "returnByValue": true}),
                )
                .await;
            let gone = match &r {
                Err(BrowserError::Failed(m)) => m.contains("Cannot find context"),
                Ok(v) => v["result"]["value"]["noworld"] == true,
                _ => false,
            };
            if gone && attempt == 0 {
                self.forget_world(ctx).await;
                continue;
            }
            return r.map(|v| (ctx, v));
        }
        Err(BrowserError::Failed("the tab's isolated world keeps going away".into()))
    }

    /// The element behind a snapshot key `w<context>:<serial>`.
    pub async fn element_by_key(&self, key: &str) -> Result<El, BrowserError> {
        let Some((ctx, serial)) = crate::browser::snapshot::parse_key(key) else {
            return Err(BrowserError::Gone(format!("{key} names no element")));
        };
        let expr = format!(
            "(() => {{ const G = globalThis.__glovebox; const w = G && G.els.get({serial}); \
             const n = w && w.deref(); return n && n.isConnected ? n : null; }})()"
        );
        let r = self
            .cmd("Runtime.evaluate", json!({"expression": expr, "contextId": ctx}))
            .await
            .map_err(gone_context)?;
        match r["result"]["objectId"].as_str() {
            Some(object_id) => Ok(El { object_id: object_id.to_owned() }),
            None => Err(BrowserError::Gone("it was removed from the page".into())),
        }
    }
}

/// A world whose document was replaced: what its keys named is gone.
pub(super) fn gone_context(e: BrowserError) -> BrowserError {
    match e {
        BrowserError::Failed(m) if m.contains("Cannot find context") => {
            BrowserError::Gone("its document was replaced".into())
        }
        other => other,
    }
}
