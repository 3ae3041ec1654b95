//! The daemon's isolated worlds in a tab: one in the main frame and one in each cross-site
//! frame another process draws. The snapshot walk runs there and keeps a serial per node;
//! snapshot keys (`w<context>:<serial>`, `<frame>/w<context>:<serial>` in a cross-site frame)
//! turn back into elements there. The page cannot see a world, which dies with its document.

use chromiumoxide::cdp::browser_protocol::dom::{GetFrameOwnerParams, ResolveNodeParams};
use chromiumoxide::cdp::browser_protocol::page::{CreateIsolatedWorldParams, GetFrameTreeParams};
use chromiumoxide::cdp::js_protocol::runtime::{
    EvaluateParams, EvaluateReturns, ExecutionContextId,
};
use chromiumoxide::types::Command;
use serde_json::{json, Value};

use super::{El, Tab};
use crate::browser::BrowserError;

/// Set up in a new world before anything else runs there; a context without it is not ours.
static INIT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "globalThis.__glovebox = {{ids: new WeakMap(), els: new Map(), next: 1, {}}}; true",
        super::witness::FUNCTIONS
    )
});

/// Where a snapshot key points: the frame (None for the tab's own process), the world's
/// context and the node's serial there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    pub frame: Option<String>,
    pub ctx: i64,
    pub serial: u64,
}

impl Key {
    pub fn parse(key: &str) -> Option<Key> {
        let (frame, rest) = match key.split_once('/') {
            Some((f, r)) => (Some(f.to_owned()), r),
            None => (None, key),
        };
        let (c, n) = rest.strip_prefix('w')?.split_once(':')?;
        Some(Key { frame, ctx: c.parse().ok()?, serial: n.parse().ok()? })
    }

    pub fn format(frame: Option<&str>, ctx: i64, serial: u64) -> String {
        match frame {
            Some(f) => format!("{f}/w{ctx}:{serial}"),
            None => format!("w{ctx}:{serial}"),
        }
    }
}

impl Tab {
    /// A typed command in the tab's own process (`frame` None) or in a cross-site frame.
    pub async fn run_in<C>(&self, frame: Option<&str>, cmd: C) -> Result<C::Response, BrowserError>
    where
        C: Command + Send,
        C::Response: Send,
    {
        match frame {
            None => self.run(cmd).await,
            Some(f) => self.conn.frame_run(f, cmd).await,
        }
    }

    /// The world's execution context in `frame`, made once per document.
    pub async fn world(&self, frame: Option<&str>) -> Result<i64, BrowserError> {
        let mut worlds = self.watch.worlds.lock().await;
        let navs = self.navigations();
        let slot = frame.unwrap_or_default().to_owned();
        if let Some((made, ctx)) = worlds.get(&slot) {
            if *made == navs {
                return Ok(*ctx);
            }
        }
        let frame_id = match frame {
            Some(f) => f.to_owned(),
            None => match self.page.mainframe().await {
                Ok(Some(f)) => f.inner().clone(),
                _ => self.run(GetFrameTreeParams::default()).await?.frame_tree.frame.id.into(),
            },
        };
        let mut make = CreateIsolatedWorldParams::new(frame_id);
        make.world_name = Some("glovebox".into());
        make.grant_univeral_access = Some(true);
        let ctx = *self.run_in(frame, make).await?.execution_context_id.inner();
        self.run_in(frame, evaluate(INIT.as_str(), Some(ctx), Answer::Handle)).await?;
        worlds.insert(slot, (navs, ctx));
        Ok(ctx)
    }

    /// Forget a world that turned out gone, unless another call already replaced it.
    async fn forget_world(&self, frame: Option<&str>, ctx: i64) {
        let mut worlds = self.watch.worlds.lock().await;
        let slot = frame.unwrap_or_default();
        if worlds.get(slot).is_some_and(|(_, c)| *c == ctx) {
            worlds.remove(slot);
        }
    }

    /// Evaluate `expr` in the world of `frame` (made again once if its document went away);
    /// the `Runtime.evaluate` answer and the context it ran in. `expr` must answer
    /// `{noworld: true}` when `globalThis.__glovebox` is missing.
    pub async fn world_eval(
        &self,
        frame: Option<&str>,
        expr: &str,
    ) -> Result<(i64, EvaluateReturns), BrowserError> {
        for attempt in 0..2 {
            let ctx = self.world(frame).await?;
            let r = self.run_in(frame, evaluate(expr, Some(ctx), Answer::Awaited)).await;
            let gone = match &r {
                Err(BrowserError::ContextGone(_)) => true,
                Ok(v) => v.result.value.as_ref().is_some_and(|v| v["noworld"] == true),
                _ => false,
            };
            if gone && attempt == 0 {
                self.forget_world(frame, ctx).await;
                continue;
            }
            return r.map(|v| (ctx, v));
        }
        Err(BrowserError::NotReady("the tab's isolated world keeps going away".into()))
    }

    /// The element behind a snapshot key.
    pub async fn element_by_key(&self, key: &str) -> Result<El, BrowserError> {
        let Some(k) = Key::parse(key) else {
            return Err(BrowserError::Gone(format!("{key} names no element")));
        };
        let expr = format!(
            "(() => {{ const G = globalThis.__glovebox; const w = G && G.els.get({}); \
             const n = w && w.deref(); return n && n.isConnected ? n : null; }})()",
            k.serial
        );
        let r = self
            .run_in(k.frame.as_deref(), evaluate(&expr, Some(k.ctx), Answer::Handle))
            .await
            .map_err(gone_context)?;
        match r.result.object_id {
            Some(object_id) => Ok(El { object_id: object_id.into(), frame: k.frame }),
            None => Err(BrowserError::Gone("it was removed from the page".into())),
        }
    }

    /// Where the content of the cross-site frame `frame` starts in the top viewport, and the
    /// serial of its `<iframe>` in the world of the document holding it (the tab's, or the
    /// frame's it is nested in); each frame on the way is scrolled into view first when
    /// `reveal`, outermost first.
    pub async fn frame_origin(
        &self,
        frame: &str,
        reveal: bool,
    ) -> Result<((f64, f64), Option<u64>), BrowserError> {
        let parent = self.conn.frame_parent(frame).await?;
        self.frame_origin_in(frame, &parent, reveal).await
    }

    /// [`Tab::frame_origin`] for a frame whose parent target (the tab's, or a frame's) is
    /// known already.
    pub async fn frame_origin_in(
        &self,
        frame: &str,
        parent: &str,
        reveal: bool,
    ) -> Result<((f64, f64), Option<u64>), BrowserError> {
        let (base, holder) = if parent == self.target_id {
            ((0.0, 0.0), None)
        } else {
            (Box::pin(self.frame_origin(parent, reveal)).await?.0, Some(parent))
        };
        let ctx = self.world(holder).await?;
        let owner = self.run_in(holder, GetFrameOwnerParams::new(frame.to_owned())).await?;
        let resolve = ResolveNodeParams {
            backend_node_id: Some(owner.backend_node_id),
            execution_context_id: Some(ExecutionContextId::new(ctx)),
            ..Default::default()
        };
        let r = self.run_in(holder, resolve).await?;
        let object_id = r
            .object
            .object_id
            .ok_or_else(|| BrowserError::Gone("the frame's element is gone".into()))?;
        let el = El { object_id: object_id.into(), frame: holder.map(String::from) };
        let v = self.call::<Value>(&el, FRAME_ORIGIN, &[json!(reveal)]).await?;
        let (x, y) = (v["x"].as_f64().unwrap_or(0.0), v["y"].as_f64().unwrap_or(0.0));
        Ok(((base.0 + x, base.1 + y), v["id"].as_u64()))
    }
}

/// What a `Runtime.evaluate` sends back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Answer {
    /// A handle on the value.
    Handle,
    /// The value whole, as JSON (`returnByValue`).
    Value,
    /// The value whole once its promise settled (`returnByValue`, `awaitPromise`).
    Awaited,
}

/// `Runtime.evaluate` of `expr` in the context `ctx` (None: the page's own).
pub(crate) fn evaluate(expr: &str, ctx: Option<i64>, answer: Answer) -> EvaluateParams {
    let mut p = EvaluateParams::new(expr);
    p.context_id = ctx.map(ExecutionContextId::new);
    if answer != Answer::Handle {
        p.return_by_value = Some(true);
    }
    if answer == Answer::Awaited {
        p.await_promise = Some(true);
    }
    p
}

/// `this` is an `<iframe>`: where its content starts in the viewport of its process's top
/// document (through the frames above it that process draws) and its serial in the world;
/// revealed first when `a`.
const FRAME_ORIGIN: &str = r#"
const G = globalThis.__glovebox;
if (a) { const r = this.getBoundingClientRect(); const v = this.ownerDocument.defaultView;
  if (r.top < 0 || r.left < 0 || r.bottom > v.innerHeight || r.right > v.innerWidth) reveal(this); }
const inner = (f) => { const r = f.getBoundingClientRect(); const cs = f.ownerDocument.defaultView.getComputedStyle(f);
  return [r.left + f.clientLeft + parseFloat(cs.paddingLeft || 0), r.top + f.clientTop + parseFloat(cs.paddingTop || 0)]; };
let [x, y] = inner(this);
for (let w = this.ownerDocument.defaultView; w && w.frameElement; w = w.parent) {
  const [fx, fy] = inner(w.frameElement); x += fx; y += fy;
}
return {x, y, id: G ? G.ids.get(this) : null};
"#;

/// A world whose document was replaced: what its keys named is gone.
pub(super) fn gone_context(e: BrowserError) -> BrowserError {
    match e {
        BrowserError::ContextGone(_) => BrowserError::Gone("its document was replaced".into()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::Key;

    #[test]
    fn keys_name_their_frame_world_and_serial() {
        assert_eq!(Key::parse("w12:345"), Some(Key { frame: None, ctx: 12, serial: 345 }));
        let k = Key::parse("ABC/w3:4").expect("frame key");
        assert_eq!((k.frame.as_deref(), k.ctx, k.serial), (Some("ABC"), 3, 4));
        assert_eq!(Key::format(Some("ABC"), 3, 4), "ABC/w3:4");
        assert_eq!(Key::format(None, 3, 4), "w3:4");
        assert_eq!(Key::parse("12:345"), None);
        assert_eq!(Key::parse("wx:1"), None);
    }
}
