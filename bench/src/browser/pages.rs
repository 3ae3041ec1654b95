//! The two test pages of `bench browser`, built the same on every run from a fixed seed, and
//! a loopback HTTP server that hands them out. Their shape follows the pages of
//! `peer-measurements.md` so the numbers can be set beside the ones measured there.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{Read as _, Write as _};
use std::net::TcpListener;
use std::sync::Arc;

/// What a page holds that the agent must be able to reach: (role, how many).
pub type Expected = &'static [(&'static str, usize)];

/// big.html: one "Big input", then 50 sections x 5 blocks x (5 buttons, 5 links,
/// 5 labelled inputs, 5 focusable options).
pub const BIG_EXPECTED: Expected =
    &[("button", 1250), ("link", 1250), ("textbox", 1251), ("option", 1250)];
/// form.html: 20 text, 10 email, 10 textarea, 10 select, 10 checkboxes and a submit button.
pub const FORM_EXPECTED: Expected =
    &[("textbox", 40), ("combobox", 10), ("checkbox", 10), ("button", 1)];

const WORDS: [&str; 32] = [
    "amber", "basil", "cedar", "delta", "ember", "fjord", "glade", "harbor", "iris", "juniper",
    "kelp", "lumen", "maple", "nectar", "opal", "pine", "quartz", "river", "sage", "tundra",
    "umber", "violet", "willow", "xenon", "yarrow", "zephyr", "birch", "coral", "dune", "flint",
    "grove", "heath",
];

/// A small xorshift generator: the same words in the same places on every run.
struct Rng(u64);

impl Rng {
    fn word(&mut self) -> &'static str {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        WORDS[(self.0 % WORDS.len() as u64) as usize]
    }

    fn words(&mut self, n: usize) -> String {
        (0..n).map(|_| self.word()).collect::<Vec<_>>().join(" ")
    }
}

const HEAD: &str = "<!doctype html><html><head><meta charset=utf-8><title>";

pub fn big() -> String {
    let mut rng = Rng(0x5eed_0001);
    let mut h = String::with_capacity(512 * 1024);
    h.push_str(HEAD);
    h.push_str("Big page</title></head><body><h1>Big page</h1><p id=out>none</p>\n");
    h.push_str("<label>Big input <input id=big type=text></label>\n");
    for s in 0..50 {
        let _ = writeln!(h, "<section><h2>Section {s} {}</h2>", rng.words(2));
        for b in 0..5 {
            let _ = writeln!(h, "<div><h3>Block {s}.{b}</h3>");
            for i in 0..5 {
                let _ = writeln!(
                    h,
                    "<button onclick=\"out.textContent='b{s}_{b}_{i}'\">Button {s}.{b}.{i}</button>"
                );
            }
            for i in 0..5 {
                let _ =
                    writeln!(h, "<a href=\"#l{s}_{b}_{i}\">Link {s}.{b}.{i} {}</a>", rng.word());
            }
            for i in 0..5 {
                let _ = writeln!(
                    h,
                    "<label>Field {s}.{b}.{i} <input type=text name=f{s}_{b}_{i}></label>"
                );
            }
            let _ = write!(h, "<ul role=listbox aria-label=\"Items {s}.{b}\">");
            for _ in 0..5 {
                let _ = write!(h, "<li tabindex=0 role=option>{}</li>", rng.words(4));
            }
            h.push_str("</ul></div>\n");
        }
        h.push_str("</section>\n");
    }
    h.push_str("</body></html>\n");
    h
}

pub fn form() -> String {
    let mut rng = Rng(0x5eed_0002);
    let mut h = String::with_capacity(16 * 1024);
    h.push_str(HEAD);
    h.push_str(
        "Form page</title></head><body><h1>Form page</h1><form onsubmit=\"return false\">\n",
    );
    let kinds = ["text", "text", "email", "textarea", "select", "checkbox"];
    let mut counts = [0usize; 6];
    for (f, kind) in kinds.iter().enumerate() {
        let _ = writeln!(h, "<fieldset><legend>Group {f} {}</legend>", rng.words(2));
        for _ in 0..10 {
            // The two text fieldsets number their fields 0-19 together.
            let n = if f < 2 { counts[0] } else { counts[f] };
            if f < 2 {
                counts[0] += 1;
            } else {
                counts[f] += 1;
            }
            let control = match *kind {
                "textarea" => format!("<textarea name=ta{n}></textarea>"),
                "select" => {
                    let opts: String = (0..6)
                        .map(|o| format!("<option value=o{o}>{}</option>", rng.word()))
                        .collect();
                    format!("<select name=s{n}>{opts}</select>")
                }
                k => format!("<input type={k} name={k}{n}>"),
            };
            let label = match *kind {
                "text" => "Text field",
                "email" => "Email field",
                "textarea" => "Notes",
                "select" => "Choice",
                _ => "Checkbox",
            };
            let _ = writeln!(h, "<p><label>{label} {n} {control}</label></p>");
        }
        h.push_str("</fieldset>\n");
    }
    h.push_str("<button type=submit>Submit</button></form>\n<table><tr>");
    for c in 0..5 {
        let _ = write!(h, "<th>Col {c}</th>");
    }
    h.push_str("</tr>\n");
    for _ in 0..50 {
        h.push_str("<tr>");
        for _ in 0..5 {
            let _ = write!(h, "<td>{}</td>", rng.word());
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table></body></html>\n");
    h
}

/// Serves `pages` (path -> HTML) on 127.0.0.1 from a thread; the base URL.
pub fn serve(pages: HashMap<&'static str, String>) -> anyhow::Result<String> {
    serve_with(move |path| pages.get(path).map(|b| ("text/html; charset=utf-8", b.clone().into())))
}

/// Serves what `answer(path)` says (the path without its query or leading slash; a MIME type
/// and a body, or none for a 404) on 127.0.0.1 from a thread; the base URL.
pub fn serve_with<F>(answer: F) -> anyhow::Result<String>
where
    F: Fn(&str) -> Option<(&'static str, Vec<u8>)> + Send + Sync + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let base = format!("http://{}", listener.local_addr()?);
    let answer = Arc::new(answer);
    std::thread::spawn(move || {
        for mut s in listener.incoming().map_while(Result::ok) {
            let answer = answer.clone();
            std::thread::spawn(move || {
                let mut buf = vec![0u8; 8192];
                let mut n = 0;
                while n < buf.len() {
                    match s.read(&mut buf[n..]) {
                        Ok(0) | Err(_) => return,
                        Ok(k) => n += k,
                    }
                    if buf[..n].windows(4).any(|w| w == b"\r\n\r\n") {
                        break;
                    }
                }
                let head = String::from_utf8_lossy(&buf[..n]);
                let path = head.split_whitespace().nth(1).unwrap_or("/");
                let path = path.split(['?', '#']).next().unwrap_or("/").trim_start_matches('/');
                let (status, mime, body) = match answer(path) {
                    Some((mime, b)) => ("200 OK", mime, b),
                    None => ("404 Not Found", "text/plain", b"not found".to_vec()),
                };
                let header = format!(
                    "HTTP/1.0 {status}\r\nContent-Type: {mime}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = s.write_all(header.as_bytes());
                let _ = s.write_all(&body);
            });
        }
    });
    Ok(base)
}
