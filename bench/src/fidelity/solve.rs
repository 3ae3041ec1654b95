//! One episode of the scripted agent on one page through one `Agent`: look (timed snapshots),
//! then each step through a ref found in a fresh snapshot, then the page's own check decides
//! whether the task is done. Which controls were named lines with refs is read from every
//! snapshot the episode took.

use std::time::Duration;

use super::agent::{Agent, Line};
use super::pages::{Find, Page, Step};

/// Looks for a step's line this many times, a pause apart, while the widget opens.
const LOOKS: usize = 6;
const LOOK_PAUSE: Duration = Duration::from_millis(300);
/// After each action, for the widget to react (the same for both agents).
const AFTER_ACTION: Duration = Duration::from_millis(200);
/// The lines an action is tried on, best first, before the step fails.
const CANDIDATES: usize = 3;

#[derive(Default)]
pub struct Episode {
    /// Per expected control: seen as a line with a ref whose name holds its label.
    pub named: Vec<bool>,
    pub done: bool,
    /// What the check read last.
    pub outcome: String,
    /// The step that could not be taken, and why.
    pub failed: Option<String>,
    /// Actions that failed on a line before one on a next line that answered worked.
    pub retried: Vec<String>,
    pub snapshot_ms: Vec<f64>,
    /// Every snapshot's text, in order.
    pub snapshots: Vec<String>,
}

/// How well a line answers `find`: 3 its name is the label, 2 its name holds the label as
/// whole words, 1 a role-only find's role, 0 not at all.
pub fn score(find: Find, l: &Line) -> u8 {
    let (role, label) = find.split_once('|').map_or((None, find), |(r, l)| (Some(r), l));
    if role.is_some_and(|r| r != l.role) {
        return 0;
    }
    if label.is_empty() {
        return 1;
    }
    let (name, label) = (l.name.to_lowercase(), label.to_lowercase());
    if name.trim() == label {
        return 3;
    }
    let word = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
    let holds = name.match_indices(&label).any(|(i, m)| {
        word(name[..i].chars().next_back()) && word(name[i + m.len()..].chars().next())
    });
    if holds {
        2
    } else {
        0
    }
}

/// The lines that answer `find`, best first, document order among equals.
pub fn ranked(lines: &[Line], find: Find) -> Vec<&Line> {
    let mut found: Vec<(u8, &Line)> =
        lines.iter().map(|l| (score(find, l), l)).filter(|(s, _)| *s > 0).collect();
    found.sort_by_key(|(s, _)| std::cmp::Reverse(*s));
    found.into_iter().map(|(_, l)| l).collect()
}

impl Episode {
    async fn look<A: Agent>(&mut self, a: &mut A, page: &Page) -> anyhow::Result<Vec<Line>> {
        let (text, took) = a.snapshot().await?;
        self.snapshot_ms.push(took.as_secs_f64() * 1e3);
        let lines = a.lines(&text);
        for (seen, control) in self.named.iter_mut().zip(page.controls) {
            *seen |= lines.iter().any(|l| score(control, l) >= 2);
        }
        self.snapshots.push(text);
        Ok(lines)
    }

    /// Fresh snapshots until every find of the step has a line, a few times at most; per
    /// find, the lines that answer it, best first.
    async fn lines_for<A: Agent>(
        &mut self,
        a: &mut A,
        page: &Page,
        finds: &[Find],
    ) -> anyhow::Result<Vec<Vec<Line>>> {
        for k in 0..LOOKS {
            if k > 0 {
                tokio::time::sleep(LOOK_PAUSE).await;
            }
            let lines = self.look(a, page).await?;
            let found: Vec<Vec<Line>> = finds
                .iter()
                .map(|f| ranked(&lines, f).into_iter().take(CANDIDATES).cloned().collect())
                .collect();
            if found.iter().all(|c: &Vec<Line>| !c.is_empty()) {
                return Ok(found);
            }
        }
        let missing: Vec<&str> = finds.to_vec();
        anyhow::bail!("no line with a ref answers {missing:?} in {LOOKS} snapshots")
    }

    async fn step<A: Agent>(&mut self, a: &mut A, page: &Page, step: Step) -> anyhow::Result<()> {
        match step {
            Step::Click(f) | Step::Fill(f, _) | Step::Type(f, _) => {
                let found = self.lines_for(a, page, &[f]).await?;
                // As an agent would: when the action fails on the best line (a hidden twin,
                // say), the next line that answers.
                let mut failures = Vec::new();
                for l in &found[0] {
                    let done = match step {
                        Step::Fill(_, text) => a.fill(l, text).await,
                        Step::Type(_, text) => a.type_keys(l, text).await,
                        _ => a.click(l).await,
                    };
                    match done {
                        Ok(()) => break,
                        Err(e) => failures.push(format!("{}: {e:#}", l.r#ref)),
                    }
                }
                if failures.len() == found[0].len() {
                    anyhow::bail!("every line failed: {}", failures.join("; "));
                }
                self.retried.extend(failures);
            }
            Step::Press(key) => a.press(key).await?,
            Step::Drag(from, to) => {
                let l = self.lines_for(a, page, &[from, to]).await?;
                a.drag(&l[0][0], &l[1][0]).await?;
            }
        }
        tokio::time::sleep(AFTER_ACTION).await;
        Ok(())
    }

    /// The whole episode at `url`: `timed` snapshots, the steps, the check.
    pub async fn run<A: Agent>(a: &mut A, url: &str, page: &Page, timed: usize) -> Episode {
        let mut e = Episode { named: vec![false; page.controls.len()], ..Episode::default() };
        if let Err(err) = e.solve(a, url, page, timed).await {
            e.failed = Some(format!("{err:#}").split_whitespace().collect::<Vec<_>>().join(" "));
        }
        for k in 0..5 {
            tokio::time::sleep(LOOK_PAUSE * if k == 0 { 1 } else { 2 }).await;
            match a.evaluate(page.check).await {
                Ok(v) => {
                    e.done = v == page.want;
                    e.outcome = v;
                }
                Err(err) => e.outcome = format!("check failed: {err:#}"),
            }
            if e.done {
                break;
            }
        }
        // What the page shows at the end counts too (a control the task revealed).
        let _ = e.look(a, page).await;
        e
    }

    async fn solve<A: Agent>(
        &mut self,
        a: &mut A,
        url: &str,
        page: &Page,
        timed: usize,
    ) -> anyhow::Result<()> {
        a.open(url).await?;
        // The widgets start from `load`; give their scripts a moment to draw.
        tokio::time::sleep(LOOK_PAUSE).await;
        for _ in 0..timed {
            self.look(a, page).await?;
        }
        for (i, step) in page.steps.iter().enumerate() {
            self.step(a, page, *step)
                .await
                .map_err(|e| e.context(format!("step {} {step:?}", i + 1)))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{score, Line};

    fn line(role: &str, name: &str) -> Line {
        Line { role: role.into(), name: name.into(), r#ref: "e1".into() }
    }

    #[test]
    fn labels_match_whole_words_and_roles_narrow() {
        assert_eq!(score("15", &line("link", "15")), 3);
        assert_eq!(score("15", &line("link", "2015")), 0);
        assert_eq!(score("fa-trash", &line("button", "button .fa-trash")), 2);
        assert_eq!(score("Item 1", &line("listitem", "Item 12")), 0);
        assert_eq!(score("textbox|", &line("textbox", "")), 1);
        assert_eq!(score("textbox|", &line("button", "")), 0);
    }
}
