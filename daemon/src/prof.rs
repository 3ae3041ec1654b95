//! TEMPORARY: phase timings of one call at a time, for profiling the click path.

use std::io::Write as _;
use std::sync::Mutex;
use std::time::Instant;

static CUR: Mutex<Option<(Instant, String)>> = Mutex::new(None);

pub fn start() {
    if std::env::var_os("GLOVEBOX_PROF").is_none() {
        return;
    }
    *CUR.lock().unwrap() = Some((Instant::now(), String::new()));
}

pub fn mark(label: &str) {
    if let Some((t, s)) = CUR.lock().unwrap().as_mut() {
        s.push_str(&format!(" {label}={:.2}", t.elapsed().as_secs_f64() * 1e3));
    }
}

pub fn end(method: &str) {
    if let Some((t, s)) = CUR.lock().unwrap().take() {
        let line = format!("{method}{s} end={:.2}\n", t.elapsed().as_secs_f64() * 1e3);
        if let Ok(mut f) =
            std::fs::OpenOptions::new().create(true).append(true).open("/tmp/wt-input-prof.log")
        {
            let _ = f.write_all(line.as_bytes());
        }
    }
}
