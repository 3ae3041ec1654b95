//! `native` actions: a model's own computer tool call run as its vendor defined it.
//! `anthropic.rs` and `openai.rs` read the vendors' shapes into steps (`step.rs`) in real
//! pixels (`frame.rs` maps the declared display onto the screen); `desktop.rs` runs them
//! with the desktop's XTest input, `browser.rs` on the session's tab through DevTools. Then
//! the screen settles (the same settle `computer.*` and `browser.*` get, by the steps' kinds)
//! and the screenshot is taken, fitted into the declared display and answered in the
//! vendor's shape. A call the model got wrong is answered in the vendor's words (Anthropic:
//! `is_error` with one line; OpenAI: the failed action's index) and changes nothing.

mod anthropic;
mod browser;
mod desktop;
mod frame;
pub(crate) mod image;
mod keys;
mod openai;
mod step;

use std::sync::Arc;
use std::time::{Duration, Instant};

use glovebox_protocol::actions::native::{self, Target};
use glovebox_protocol::results::native::{self as results, Block, Failed, ImageSource};
use glovebox_protocol::wire;
use serde_json::{Map, Value};

use super::table::Routes;
use super::{Ctx, Output};
use crate::browser::Tab;
use crate::desktop::{Acted, Desktop};
use crate::error::DaemonError;
use crate::settle::Kind;
use frame::Frame;
use step::{Pt, Step};

/// One line per `native` action.
#[rustfmt::skip] // one line per action: the table reads as a table
pub(super) fn routes(t: Routes) -> Routes {
    t.on::<native::Anthropic>(on_anthropic)
        .on::<native::Openai>(on_openai)
}

/// What a step has to say.
pub enum Said {
    /// It acted (the desktop says how, when it knows).
    Acted(Option<Acted>),
    /// Where the pointer is, in real pixels.
    Cursor(Pt),
    /// A region's pixels, unscaled: RGB, width, height.
    Pixels(Vec<u8>, u32, u32),
}

/// Time kept free before the op's deadline for the screenshot.
const SHOT_MARGIN: Duration = Duration::from_millis(400);

/// Where the steps go.
enum Screen {
    Desktop(Arc<Desktop>),
    /// A tab, with the secrets its screenshots hide.
    Tab {
        tab: Tab,
        target: wire::Target,
        vault: Arc<crate::secrets::Vault>,
    },
}

impl Screen {
    async fn of(ctx: &Ctx, target: Option<Target>) -> Result<Screen, DaemonError> {
        match target.unwrap_or(Target::Desktop) {
            Target::Desktop => Ok(Screen::Desktop(super::computer::desktop(ctx)?)),
            Target::Browser => {
                let (_, tab, target) = super::browser::session_tab(ctx).await?;
                Ok(Screen::Tab { tab, target, vault: ctx.daemon.config.secrets.clone() })
            }
        }
    }

    async fn size(&self) -> Result<(u32, u32), DaemonError> {
        match self {
            Screen::Desktop(d) => {
                let (w, h) = d.screen();
                Ok((u32::from(w), u32::from(h)))
            }
            Screen::Tab { tab, .. } => Ok(tab.viewport_size().await?),
        }
    }

    async fn run(&self, ctx: &Ctx, step: &Step) -> Result<Said, DaemonError> {
        match self {
            Screen::Desktop(d) => desktop::run(ctx, d, step).await,
            Screen::Tab { tab, vault, .. } => browser::run(tab, vault, step).await,
        }
    }

    /// Waits for what `steps` set off, by their settle kinds, up to the longest kind's cap.
    async fn settle(&self, ctx: &Ctx, steps: &[&Step], since: Instant, pid: Option<u32>) {
        let kinds: Vec<Kind> = steps.iter().filter_map(|s| s.settle()).collect();
        if kinds.is_empty() {
            return;
        }
        let policy = &ctx.daemon.config.settle;
        let opens = steps.iter().any(|s| s.may_open_window());
        let mut wait = kinds.iter().map(|k| policy.cap(*k)).max().unwrap_or_default();
        if opens {
            wait = wait.max(policy.cap(Kind::Window));
        }
        let now = Instant::now();
        let cap = (now + wait).min(ctx.op.deadline.checked_sub(SHOT_MARGIN).unwrap_or(now));
        match self {
            Screen::Desktop(d) => {
                d.settle(pid, since, policy.quiet, cap, opens).await;
            }
            Screen::Tab { tab, .. } => {
                tab.settle(since, now, policy.quiet, cap, None).await;
            }
        }
    }

    /// The whole screen's (or viewport's) pixels.
    async fn pixels(&self) -> Result<(Vec<u8>, u32, u32), DaemonError> {
        match self {
            Screen::Desktop(d) => Ok(d.screen_rgb(None).await?),
            Screen::Tab { tab, vault, .. } => browser::pixels(tab, vault).await,
        }
    }

    /// The screen as the model sees it: fitted into the declared display, base64 PNG.
    async fn screenshot(&self, frame: &Frame) -> Result<String, DaemonError> {
        let (rgb, w, h) = self.pixels().await?;
        // A tab's viewport may have changed size since the call began.
        let frame = if (w, h) == frame.real { *frame } else { Frame::new(frame.declared, (w, h)) };
        let (dw, dh) = frame.declared;
        image::png_base64(&frame.fit(&rgb), dw, dh)
    }

    fn target(&self) -> wire::Target {
        match self {
            Screen::Desktop(_) => wire::Target::Desktop(wire::DesktopTarget {
                screen: Some(wire::Screen::Desktop),
                ..wire::DesktopTarget::default()
            }),
            Screen::Tab { target, .. } => match target.clone() {
                wire::Target::Tab(t) => {
                    wire::Target::Tab(wire::TabTarget { screen: Some(wire::Screen::Browser), ..t })
                }
                other => other,
            },
        }
    }
}

/// The app a step's input went to (its settle pings it first).
fn pid_of(said: &Said) -> Option<u32> {
    let Said::Acted(Some(a)) = said else { return None };
    let app = a.delivered_to.as_ref()?.app_id.as_deref()?;
    crate::desktop::atspi::app_pid(app)
}

/// An error's message on one line, as a model reads it.
fn one_line(e: &DaemonError) -> String {
    e.to_string().split_whitespace().collect::<Vec<_>>().join(" ")
}

fn image_block(data: String) -> Block {
    let kind = "base64".to_owned();
    Block::Image { source: ImageSource { kind, media_type: "image/png".into(), data } }
}

/// `native.anthropic`: one action of Anthropic's computer tool.
async fn on_anthropic(
    ctx: Ctx,
    p: native::Anthropic,
) -> Result<Output<results::Anthropic>, DaemonError> {
    let screen = Screen::of(&ctx, p.common.target).await?;
    let action = anthropic::action_of(&p.tool, &p.input).unwrap_or_default().to_owned();
    let target = Some(screen.target());
    let refuse = |reason: String| {
        let content = vec![Block::Text { text: reason }];
        let result = results::Anthropic { content, is_error: true, action: action.clone() };
        Ok(Output { result, target: target.clone() })
    };
    let read = match anthropic::read(&p.tool, &p.input, screen.size().await?) {
        Ok(r) => r,
        Err(reason) => return refuse(reason),
    };
    let started = Instant::now();
    let mut content = Vec::new();
    let mut pid = None;
    for step in &read.steps {
        match screen.run(&ctx, step).await {
            Ok(Said::Cursor((x, y))) => {
                let (x, y) = read.frame.to_declared(x, y);
                content.push(Block::Text { text: format!("X={x},Y={y}") });
            }
            Ok(Said::Pixels(rgb, w, h)) => {
                content.push(image_block(image::png_base64(&rgb, w, h)?))
            }
            Ok(said) => pid = pid_of(&said).or(pid),
            Err(e) => {
                // Nothing this call pressed stays down behind its error.
                super::release_held(&ctx.daemon, &ctx.session);
                return refuse(one_line(&e));
            }
        }
    }
    if read.screenshot {
        let steps: Vec<&Step> = read.steps.iter().collect();
        screen.settle(&ctx, &steps, started, pid).await;
        content.push(image_block(screen.screenshot(&read.frame).await?));
    }
    let result = results::Anthropic { content, is_error: false, action };
    Ok(Output { result, target })
}

/// `native.openai`: one computer_call action or a batch, in order, then the screenshot.
async fn on_openai(ctx: Ctx, p: native::Openai) -> Result<Output<results::Openai>, DaemonError> {
    let screen = Screen::of(&ctx, p.common.target).await?;
    let invalid =
        |reason: String| DaemonError::InvalidParams { method: "native.openai".into(), reason };
    let frame = openai::frame(p.tool.as_ref(), screen.size().await?).map_err(invalid)?;
    let list: Vec<Map<String, Value>> = match (p.actions, p.action) {
        (Some(list), _) => list,
        (None, Some(one)) => vec![one],
        (None, None) => return Err(invalid("action or actions is required".into())),
    };
    let kind_of = |a: &Map<String, Value>| {
        a.get("type").and_then(Value::as_str).unwrap_or_default().to_owned()
    };
    // Every action is read before any runs: a bad one changes nothing.
    let mut read = Vec::with_capacity(list.len());
    let mut failed = None;
    for (index, a) in list.iter().enumerate() {
        match openai::read(a, &frame) {
            Ok(action) => read.push(action),
            Err(reason) => {
                failed = Some(Failed { index, kind: kind_of(a), reason });
                break;
            }
        }
    }
    let started = Instant::now();
    let (mut ran, mut pid, mut done) = (0, None, Vec::new());
    if failed.is_none() {
        'batch: for (index, action) in read.iter().enumerate() {
            for step in &action.steps {
                match screen.run(&ctx, step).await {
                    Ok(said) => pid = pid_of(&said).or(pid),
                    Err(e) => {
                        super::release_held(&ctx.daemon, &ctx.session);
                        let reason = one_line(&e);
                        failed = Some(Failed { index, kind: action.kind.clone(), reason });
                        break 'batch;
                    }
                }
                done.push(step);
            }
            ran += 1;
        }
    }
    screen.settle(&ctx, &done, started, pid).await;
    let data = screen.screenshot(&frame).await?;
    let output = results::Screenshot {
        kind: "computer_screenshot".into(),
        image_url: format!("data:image/png;base64,{data}"),
    };
    let acknowledged_safety_checks = p.pending_safety_checks.unwrap_or_default();
    let result = results::Openai { output, acknowledged_safety_checks, ran, failed };
    Ok(Output { result, target: Some(screen.target()) })
}

/// A native call as the view page's op list names it: the vendor's action names first
/// (`left_click {"coordinate":[512,384]}`, `click, type, keypress`).
pub(super) fn summary(tool: &str, args: &Map<String, Value>) -> Option<String> {
    if tool != "native" {
        return None;
    }
    if let Some(input) = args.get("input").and_then(Value::as_object) {
        let tool = args.get("tool").and_then(Value::as_object).cloned().unwrap_or_default();
        let action = anthropic::action_of(&tool, input).unwrap_or_default().to_owned();
        let mut rest = input.clone();
        rest.remove("action");
        return Some(format!("{action} {}", Value::Object(rest)));
    }
    let list: Vec<&Value> = match (args.get("actions"), args.get("action")) {
        (Some(Value::Array(list)), _) => list.iter().collect(),
        (_, Some(one)) => vec![one],
        _ => return None,
    };
    let kinds: Vec<&str> =
        list.into_iter().map(|a| a.get("type").and_then(Value::as_str).unwrap_or("?")).collect();
    Some(kinds.join(", "))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::summary;

    #[test]
    fn the_op_list_names_the_vendors_actions() {
        let args = |v: serde_json::Value| v.as_object().cloned().unwrap_or_default();
        let claude = args(json!({"tool": {"type": "computer_20250124"},
                                 "input": {"action": "left_click", "coordinate": [512, 384]}}));
        assert_eq!(
            summary("native", &claude).as_deref(),
            Some("left_click {\"coordinate\":[512,384]}")
        );
        let member = args(json!({"tool": {"type": "computer_toolset_20260801", "name": "zoom"},
                                 "input": {"region": [0, 0, 9, 9]}}));
        assert_eq!(summary("native", &member).as_deref(), Some("zoom {\"region\":[0,0,9,9]}"));
        let gpt = args(json!({"actions": [{"type": "click"}, {"type": "type", "text": "x"}]}));
        assert_eq!(summary("native", &gpt).as_deref(), Some("click, type"));
        assert_eq!(summary("computer", &gpt), None);
    }
}
