//! The models' own computer tools (issue 38): a `native.anthropic` left_click with its
//! settled screenshot (declared 1024x768 on the 1280x800 screen, so the screenshot is scaled
//! and letterboxed) against the Anthropic reference's fixed 2 s sleep after every action, and
//! against our own `computer.click` at the same point with its capture. Measured first, on
//! the bare desktop (the screen's centre, where a click changes nothing), so both settle on
//! the same quiet screen.

use anyhow::bail;
use serde_json::json;

use super::{Bench, Series};

/// What the reference implementation sleeps after each action before its screenshot.
pub const REFERENCE_MS: f64 = 2000.0;

/// The figures.
#[derive(Debug, Default)]
pub struct Native {
    /// `native.anthropic` left_click with its screenshot, round trip.
    pub click_shot: Series,
    /// `computer.click` at the same point with its capture, round trip.
    pub computer_click: Series,
}

pub async fn measure(b: &mut Bench) -> anyhow::Result<Native> {
    let (x, y) = (640.0, 400.0);
    // The same screen point in the declared 1024x768 (scale 0.8, bars of 64 px).
    let declared = json!([(x * 0.8_f64).round(), (y * 0.8_f64 + 64.0).round()]);
    let tool = json!({"type": "computer_20250124", "name": "computer",
                      "display_width_px": 1024, "display_height_px": 768});
    let native = json!({"tool": tool, "input": {"action": "left_click", "coordinate": declared}});
    let ours = json!({"x": x, "y": y});
    for _ in 0..2 {
        b.call("native.anthropic", native.clone()).await?;
        b.call("computer.click", ours.clone()).await?;
    }
    let mut f = Native::default();
    for round in 1..=b.o.rounds {
        let (mut a, mut c) = (Vec::new(), Vec::new());
        // Interleaved, so load on the machine falls on both alike.
        for _ in 0..b.o.samples {
            let r = b.call("native.anthropic", native.clone()).await?;
            if r.result()["is_error"] != false {
                bail!("the native click failed: {}", r.result());
            }
            a.push(r.ms);
            let r = b.call("computer.click", ours.clone()).await?;
            if r.outcome["capture"].is_null() {
                bail!("computer.click came without its capture: {}", r.outcome);
            }
            c.push(r.ms);
        }
        f.click_shot.push_round(&a);
        f.computer_click.push_round(&c);
        eprintln!(
            "bench: native round {round}: native click+screenshot {:.1} ms, computer.click+capture {:.1} ms",
            f.click_shot.rounds[round - 1],
            f.computer_click.rounds[round - 1]
        );
    }
    let (native, ours) = (f.click_shot.value(), f.computer_click.value());
    eprintln!(
        "bench: native click+screenshot {native:.1} ms = {:.3}x the reference's 2 s sleep \
         (goal <= 0.25), {:.2}x computer.click+capture {ours:.1} ms (goal <= 1.2)",
        native / REFERENCE_MS,
        native / ours
    );
    Ok(f)
}
