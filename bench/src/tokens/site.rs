//! The loopback corpus of `bench tokens`: the trial's form flow (sign in, a table, an edit
//! page, save) and a five-page browse, served by `browser/pages.rs serve_with` with a log of
//! every path asked for, which is how a flow's success is checked.

use std::sync::{Arc, Mutex};

/// The paths the server was asked for, in order (query dropped).
#[derive(Clone, Default)]
pub struct Log(Arc<Mutex<Vec<String>>>);

impl Log {
    pub fn has(&self, path: &str) -> bool {
        self.0.lock().is_ok_and(|l| l.iter().any(|p| p == path))
    }
}

const STYLE: &str = "<style>body{font:16px sans-serif;margin:2em}td,th{padding:4px 12px}</style>";

fn page(title: &str, body: &str) -> String {
    format!("<!doctype html><title>{title}</title>{STYLE}{body}")
}

fn answer(path: &str) -> Option<String> {
    let people =
        ["Ada Lovelace", "Alan Turing", "Grace Murray", "Edsger Dijkstra", "Barbara Liskov"];
    match path {
        "login.html" => Some(page(
            "Sign in",
            "<h1>Sign in</h1><p>Staff directory</p>\
             <label>User <input id=u autocomplete=off></label><br>\
             <label>Password <input id=p type=password></label><br>\
             <button onclick=\"if(u.value=='ada'&&p.value=='lovelace')location='table.html';\
               else msg.textContent='Wrong user or password'\">Sign in</button><p id=msg></p>",
        )),
        "table.html" => {
            let rows: String = people
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    format!("<tr><td>{n}</td><td>staff</td><td><a href='edit-{i}.html'>Edit {n}</a></td></tr>")
                })
                .collect();
            Some(page(
                "Staff",
                &format!("<h1>Staff</h1><table><tr><th>Name</th><th>Role</th><th></th></tr>{rows}</table>"),
            ))
        }
        p if p.starts_with("edit-") => {
            let i: usize = p.trim_start_matches("edit-").trim_end_matches(".html").parse().ok()?;
            let name = people.get(i)?;
            Some(page(
                "Edit",
                &format!(
                    "<h1>Edit {name}</h1><label>Name <input id=n value='{name}'></label>\
                     <button onclick=\"location='saved/{i}/'+encodeURIComponent(n.value)\">Save</button>\
                     <a href='table.html'>Cancel</a>"
                ),
            ))
        }
        p if p.starts_with("saved/") => {
            Some(page("Saved", "<h1>Saved</h1><a href='/table.html'>Back</a>"))
        }
        p if p.starts_with("page-") => {
            let n: usize = p.trim_start_matches("page-").trim_end_matches(".html").parse().ok()?;
            let next = if n < 5 {
                format!("<a href='page-{}.html'>Next</a>", n + 1)
            } else {
                "<p>The end</p>".to_owned()
            };
            Some(page(
                &format!("Chapter {n}"),
                &format!(
                    "<h1>Chapter {n}</h1><p>Some text of chapter {n}, a paragraph long enough to \
                     read like one, with a <a href='#notes'>note</a>.</p>{next}"
                ),
            ))
        }
        _ => None,
    }
}

/// Serves the corpus; its base URL and its log.
pub fn serve() -> anyhow::Result<(String, Log)> {
    let log = Log::default();
    let kept = log.clone();
    let base = crate::browser::pages::serve_with(move |path| {
        if let Ok(mut l) = kept.0.lock() {
            l.push(path.to_owned());
        }
        answer(path).map(|b| ("text/html; charset=utf-8", b.into_bytes()))
    })?;
    Ok((base, log))
}
