//! The DevTools side of `work.rs`: what a page schedules, seen without touching the page.
//!
//! The daemon's isolated world cannot see page timers, and wrapping `setTimeout` in the page
//! would show, so the Debugger's instrumentation breakpoints (`EventBreakpoints`) are armed
//! for the length of an action and its settle: each `setTimeout`, `setInterval` and
//! `requestAnimationFrame`, and each of their callbacks, pauses the page for a moment, the
//! pause is read (where the call is, the async task it ran in, a timer's delay read by
//! evaluating its argument on the paused frame without side effects) and the page resumed
//! at once. Tracing's `TimerInstall` would say the same, but its events only arrive after
//! `Tracing.end` (measured: 15-30 ms to start, 140-370 ms to end), too late and too slow for
//! a settle. Async stack traces (depth 1) stay on, so a timer re-armed from its own callback
//! is seen as such even when its first arming came before the action. Animations come from
//! the Animation domain, also kept on.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::animation::{
    self, EventAnimationCanceled, EventAnimationStarted, EventAnimationUpdated,
};
use chromiumoxide::cdp::browser_protocol::event_breakpoints::{
    RemoveInstrumentationBreakpointParams, SetInstrumentationBreakpointParams,
};
use chromiumoxide::cdp::js_protocol::debugger::{
    self, CallFrame, EvaluateOnCallFrameParams, EventPaused, EventScriptParsed,
    GetScriptSourceParams, ResumeParams, SetAsyncCallStackDepthParams,
};
use chromiumoxide::cdp::js_protocol::runtime::ScriptId;
use chromiumoxide::Page;
use futures::StreamExt;

use super::work::{Animation, Install, Parent, Site, Work};

/// The instrumentation armed while an action settles.
const EVENTS: [&str; 5] = [
    "setTimeout",
    "setInterval",
    "setTimeout.callback",
    "requestAnimationFrame",
    "requestAnimationFrame.callback",
];

/// The `sourceURL` of the daemon's own settle script: its timers are not the page's.
pub const OWN_URL: &str = "glovebox-settle";

/// How long one step of reading a pause may take before the page is resumed regardless.
const READ: Duration = Duration::from_millis(50);

/// How long arming or disarming waits for the page's answer. A page blocked in an `alert`
/// answers only once the dialog closes; the command stays queued in order and is applied
/// then, and the action goes on without waiting for it.
const ASK: Duration = Duration::from_millis(250);

/// A tab's instrumentation: the page to arm, how many settles want it armed and how many
/// actions are sending input (while any is, it stays off: a paused page drops input).
#[derive(Debug)]
pub struct Instrument {
    page: Page,
    state: tokio::sync::Mutex<Armed>,
}

#[derive(Debug, Default)]
struct Armed {
    settles: usize,
    inputs: usize,
    /// The breakpoints are set in the page.
    set: bool,
}

impl Instrument {
    /// Turns on what stays on (Debugger, async stacks, Animation) and starts the listeners
    /// that feed `work`; the tasks end with the page's event streams.
    pub async fn start(
        page: &Page,
        work: Arc<Work>,
    ) -> (Instrument, Vec<tokio::task::JoinHandle<()>>) {
        let mut tasks = Vec::new();
        let paused = page.event_listener::<EventPaused>().await;
        let parsed = page.event_listener::<EventScriptParsed>().await;
        let started = page.event_listener::<EventAnimationStarted>().await;
        let updated = page.event_listener::<EventAnimationUpdated>().await;
        let canceled = page.event_listener::<EventAnimationCanceled>().await;
        let _ = futures::join!(
            page.execute(debugger::EnableParams::default()),
            page.execute(SetAsyncCallStackDepthParams::new(1)),
            page.execute(animation::EnableParams::default()),
        );
        if let (Ok(mut paused), Ok(mut parsed)) = (paused, parsed) {
            let (page, work) = (page.clone(), work.clone());
            tasks.push(tokio::spawn(async move {
                let mut sources = Sources::default();
                loop {
                    // A script is parsed before anything pauses in it, and its event is
                    // queued first: taken first, its start is known when its pause comes.
                    let ev = tokio::select! {
                        biased;
                        Some(p) = parsed.next() => {
                            sources.parsed(&p);
                            continue;
                        }
                        ev = paused.next() => match ev {
                            Some(ev) => ev,
                            None => break,
                        },
                    };
                    let read = on_pause(&page, &work, &ev, &mut sources);
                    let _ = tokio::time::timeout(READ * 2, read).await;
                    // Whatever paused the page (a `debugger;` statement too): it goes on.
                    let _ = page.execute(ResumeParams::default()).await;
                }
            }));
        }
        for stream in [
            started.ok().map(|s| s.map(|e| e.animation.clone()).boxed()),
            updated.ok().map(|s| s.map(|e| e.animation.clone()).boxed()),
        ]
        .into_iter()
        .flatten()
        {
            let work = work.clone();
            let mut stream = stream;
            tasks.push(tokio::spawn(async move {
                while let Some(a) = stream.next().await {
                    if a.play_state == "running" || a.play_state == "pending" {
                        work.animation(&animation_of(&a));
                    } else {
                        work.animation_gone(&a.id);
                    }
                }
            }));
        }
        if let Ok(mut canceled) = canceled {
            tasks.push(tokio::spawn(async move {
                while let Some(ev) = canceled.next().await {
                    work.animation_gone(&ev.id);
                }
            }));
        }
        (Instrument { page: page.clone(), state: tokio::sync::Mutex::default() }, tasks)
    }

    /// Arms the instrumentation for a settle (the first of overlapping settles does), unless
    /// an action is sending input; then it is armed once the input is done.
    pub async fn arm(&self) {
        let mut st = self.state.lock().await;
        st.settles += 1;
        self.apply(&mut st).await;
    }

    /// Disarms it once the last settle that armed it is done.
    pub async fn disarm(&self) {
        let mut st = self.state.lock().await;
        st.settles = st.settles.saturating_sub(1);
        self.apply(&mut st).await;
    }

    /// An action is about to send input: the breakpoints go and a pause under way ends
    /// (`Debugger.resume` is refused when nothing is paused), so no pause can drop it.
    pub async fn hold_for_input(&self) {
        let mut st = self.state.lock().await;
        st.inputs += 1;
        let was_set = st.set;
        self.apply(&mut st).await;
        if was_set {
            let _ = tokio::time::timeout(READ, self.page.execute(ResumeParams::default())).await;
        }
    }

    /// The input is done: armed again if a settle wants it.
    pub async fn input_done(&self) {
        let mut st = self.state.lock().await;
        st.inputs = st.inputs.saturating_sub(1);
        self.apply(&mut st).await;
    }

    /// Sets or removes the breakpoints as `st` wants them.
    async fn apply(&self, st: &mut Armed) {
        let want = st.settles > 0 && st.inputs == 0;
        if want == st.set {
            return;
        }
        st.set = want;
        let page = &self.page;
        let calls = EVENTS.map(|e| async move {
            let r = if want {
                let set = page.execute(SetInstrumentationBreakpointParams::new(e));
                tokio::time::timeout(ASK, set).await.map(|r| r.map(drop))
            } else {
                let remove = page.execute(RemoveInstrumentationBreakpointParams::new(e));
                tokio::time::timeout(ASK, remove).await.map(|r| r.map(drop))
            };
            match r {
                Ok(Err(e)) => {
                    tracing::debug!(%e, want, "cannot change the settle's instrumentation")
                }
                Err(_) => {
                    tracing::debug!(want, "the page has not answered (a dialog?); left queued")
                }
                Ok(Ok(())) => {}
            }
        });
        futures::future::join_all(calls).await;
    }
}

fn animation_of(a: &animation::Animation) -> Animation {
    let src = a.source.as_ref();
    Animation {
        id: a.id.clone(),
        name: if a.name.is_empty() { format!("{:?}", a.r#type) } else { a.name.clone() },
        // Without a source there is nothing timed to wait for: taken as over.
        iterations: src.map_or(Some(0.0), |s| s.iterations),
        delay: src.map_or(0.0, |s| s.delay),
        end_delay: src.map_or(0.0, |s| s.end_delay),
        duration: src.map_or(0.0, |s| s.duration),
        current_time: a.current_time,
        playback_rate: a.playback_rate,
        scroll_driven: a.view_or_scroll_timeline.is_some(),
    }
}

/// Script sources by id, to read a timer's delay argument (a few kept), and where the
/// scripts inside a document start (locations in them count from the document's start).
#[derive(Default)]
struct Sources {
    text: HashMap<String, Arc<String>>,
    starts: HashMap<String, (i64, i64)>,
}

impl Sources {
    fn parsed(&mut self, p: &EventScriptParsed) {
        if p.start_line > 0 || p.start_column > 0 {
            if self.starts.len() >= 4096 {
                self.starts.clear();
            }
            self.starts.insert(p.script_id.inner().clone(), (p.start_line, p.start_column));
        }
    }

    /// Where `script` starts in its document.
    fn start(&self, script: &ScriptId) -> (i64, i64) {
        self.starts.get(script.inner()).copied().unwrap_or((0, 0))
    }

    async fn get(&mut self, page: &Page, script: &ScriptId) -> Option<Arc<String>> {
        if let Some(s) = self.text.get(script.inner()) {
            return Some(s.clone());
        }
        let r =
            tokio::time::timeout(READ, page.execute(GetScriptSourceParams::new(script.clone())));
        let src = Arc::new(r.await.ok()?.ok()?.result.script_source);
        if self.text.len() >= 32 {
            self.text.clear();
        }
        self.text.insert(script.inner().clone(), src.clone());
        Some(src)
    }
}

fn site_of(f: &CallFrame) -> Site {
    Site {
        script: f.location.script_id.inner().clone(),
        line: f.location.line_number,
        column: f.location.column_number.unwrap_or(0),
    }
}

async fn on_pause(page: &Page, work: &Work, ev: &EventPaused, sources: &mut Sources) {
    let Some(name) = ev.data.as_ref().and_then(|d| d["eventName"].as_str()) else { return };
    let Some(name) = name.strip_prefix("instrumentation:") else { return };
    let Some(top) = ev.call_frames.first() else { return };
    let parent = ev.async_stack_trace.as_ref().map(|a| Parent {
        kind: a.description.clone().unwrap_or_default(),
        site: a.call_frames.first().map(|f| Site {
            script: f.script_id.inner().clone(),
            line: f.line_number,
            column: f.column_number,
        }),
    });
    match name {
        "setTimeout" | "setInterval" => {
            let Some(src) = sources.get(page, &top.location.script_id).await else {
                work.installed(Install::Timeout(None), site_of(top), parent.as_ref());
                return;
            };
            // The daemon's own script (its callbacks match nothing, so only installs count).
            if src.ends_with(OWN_URL) {
                return;
            }
            let delay = delay_of(page, top, &src, sources.start(&top.location.script_id)).await;
            let install = if name == "setTimeout" {
                Install::Timeout(delay)
            } else {
                Install::Interval(delay)
            };
            work.installed(install, site_of(top), parent.as_ref());
        }
        "requestAnimationFrame" => match sources.get(page, &top.location.script_id).await {
            Some(src) if src.ends_with(OWN_URL) => {}
            _ => work.installed(Install::Frame, site_of(top), parent.as_ref()),
        },
        "setTimeout.callback" | "requestAnimationFrame.callback" => {
            // The async stack's first frame is where this callback was scheduled.
            let frame = name.starts_with("requestAnimationFrame");
            work.fired(frame, parent.as_ref().and_then(|p| p.site.as_ref()));
        }
        _ => {}
    }
}

/// The delay of the timer being installed at `top`: its second argument read from the
/// source and evaluated on the paused frame, where side effects are refused.
async fn delay_of(page: &Page, top: &CallFrame, src: &str, start: (i64, i64)) -> Option<f64> {
    let line = top.location.line_number - start.0;
    let mut column = top.location.column_number.unwrap_or(0);
    if line == 0 {
        column -= start.1;
    }
    let at = offset(src, line, column)?;
    let arg = delay_arg(&src[at..])?;
    if let Ok(n) = arg.parse::<f64>() {
        return Some(n);
    }
    let params = EvaluateOnCallFrameParams::builder()
        .call_frame_id(top.call_frame_id.clone())
        .expression(format!("+({arg})"))
        .throw_on_side_effect(true)
        .return_by_value(true)
        .silent(true)
        .build()
        .ok()?;
    let r = tokio::time::timeout(READ, page.execute(params)).await.ok()?.ok()?;
    r.result.result.value.as_ref().and_then(serde_json::Value::as_f64)
}

/// The byte offset of (line, UTF-16 column) in `src`.
fn offset(src: &str, line: i64, column: i64) -> Option<usize> {
    let mut at = 0;
    for _ in 0..line {
        at += src[at..].find('\n')? + 1;
    }
    let mut units = 0;
    for (i, c) in src[at..].char_indices() {
        if units >= column {
            return Some(at + i);
        }
        units += c.len_utf16() as i64;
    }
    None
}

/// The text of the second argument of the call that starts at `code` (`setTimeout(f, 400)`
/// gives `400`; a call with one argument gives `0`), comments left out, or `None` when it
/// cannot be read.
pub fn delay_arg(code: &str) -> Option<String> {
    let mut chars = code.chars().take(8000).peekable();
    // The callee's name, then the opening parenthesis.
    while chars.next_if(|c| c.is_alphanumeric() || *c == '_' || *c == '$').is_some() {}
    while chars.next_if(|c| c.is_whitespace()).is_some() {}
    chars.next().filter(|c| *c == '(')?;
    let (mut depth, mut arg) = (0usize, 0usize);
    let mut text = String::new();
    while let Some(c) = chars.next() {
        let keep = arg == 1;
        match c {
            '"' | '\'' | '`' => {
                if keep {
                    text.push(c);
                }
                while let Some(d) = chars.next() {
                    if keep {
                        text.push(d);
                    }
                    if d == '\\' {
                        if let Some(e) = chars.next().filter(|_| keep) {
                            text.push(e);
                        }
                    } else if d == c {
                        break;
                    }
                }
                continue;
            }
            '/' if chars.peek() == Some(&'/') => {
                while chars.next_if(|d| *d != '\n').is_some() {}
                continue;
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for d in chars.by_ref() {
                    if last == '*' && d == '/' {
                        break;
                    }
                    last = d;
                }
                continue;
            }
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth > 0 => depth -= 1,
            ')' => {
                let text = text.trim();
                return match arg {
                    0 => Some("0".into()),
                    _ => Some(text.to_owned()).filter(|t| !t.is_empty()),
                };
            }
            ',' if depth == 0 => {
                arg += 1;
                if arg == 2 {
                    return Some(text.trim().to_owned()).filter(|t| !t.is_empty());
                }
                continue;
            }
            _ => {}
        }
        if keep {
            text.push(c);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timers_delay_is_read_from_its_call() {
        #[rustfmt::skip]
        let table = [
            ("setTimeout(tick, 1000); x()", Some("1000")),
            ("setTimeout(() => { a(1, 2); }, D * 2)", Some("D * 2")),
            ("setTimeout(function later(){ f('a,)'); }, 400, 'x')", Some("400")),
            ("setTimeout (go)", Some("0")),
            ("setTimeout(`a${b},`, /* 5, */ 50)", Some("50")),
            ("setTimeout(f, t // why\n)", Some("t")),
            ("setTimeout(f,", None),
            ("setTimeout.call(null, f, 5)", None),
        ];
        for (code, want) in table {
            assert_eq!(delay_arg(code).as_deref(), want, "{code}");
        }
    }

    #[test]
    fn offsets_count_utf16_columns() {
        let src = "a\n\u{1F600}setTimeout(f, 5)";
        let at = offset(src, 1, 2).expect("an offset");
        assert!(src[at..].starts_with("setTimeout"));
    }
}
