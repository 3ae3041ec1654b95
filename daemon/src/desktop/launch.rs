//! Turning `app` into an argv without a shell: an absolute path, a desktop entry (its Exec with
//! field codes removed) or an executable on PATH.

use std::path::{Path, PathBuf};

fn var(env: &[(String, String)], key: &str) -> Option<String> {
    env.iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
        .or_else(|| std::env::var(key).ok())
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Directories holding desktop entries, most specific first.
fn application_dirs(env: &[(String, String)]) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(home) = var(env, "XDG_DATA_HOME") {
        dirs.push(PathBuf::from(home).join("applications"));
    }
    let data = var(env, "XDG_DATA_DIRS").unwrap_or_else(|| "/usr/local/share:/usr/share".into());
    dirs.extend(
        data.split(':').filter(|d| !d.is_empty()).map(|d| PathBuf::from(d).join("applications")),
    );
    dirs
}

/// A desktop entry's `Name` and `Exec` (main group only).
pub fn read_entry(path: &Path) -> Option<(String, String)> {
    let text = std::fs::read_to_string(path).ok()?;
    let (mut name, mut exec, mut in_main) = (None, None, false);
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_main = line == "[Desktop Entry]";
            continue;
        }
        if !in_main {
            continue;
        }
        if let Some(v) = line.strip_prefix("Name=") {
            name.get_or_insert_with(|| v.to_owned());
        } else if let Some(v) = line.strip_prefix("Exec=") {
            exec.get_or_insert_with(|| v.to_owned());
        }
    }
    Some((name?, exec?))
}

/// Splits an Exec line into an argv (double quotes and backslash escapes as the spec says) and
/// drops the field codes (%f %F %u %U %i %c %k ...); `%%` is a literal `%`.
pub fn exec_argv(exec: &str) -> Vec<String> {
    let mut argv = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut started = false;
    let mut chars = exec.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            '\\' if quoted => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            ' ' | '\t' if !quoted => {
                if started {
                    argv.push(std::mem::take(&mut cur));
                    started = false;
                }
            }
            '%' => {
                if chars.next() == Some('%') {
                    cur.push('%');
                    started = true;
                }
            }
            _ => {
                cur.push(c);
                started = true;
            }
        }
    }
    if started {
        argv.push(cur);
    }
    argv.retain(|a| !a.is_empty());
    argv
}

/// Finds a desktop entry by file stem (`org.xfce.mousepad`, `mousepad`) or by Name.
pub fn find_entry(query: &str, env: &[(String, String)]) -> Option<(PathBuf, String, String)> {
    let q = query.trim_end_matches(".desktop");
    let dirs = application_dirs(env);
    for dir in &dirs {
        let p = dir.join(format!("{q}.desktop"));
        if let Some((name, exec)) = read_entry(&p) {
            return Some((p, name, exec));
        }
    }
    for dir in &dirs {
        let Ok(rd) = std::fs::read_dir(dir) else { continue };
        for entry in rd.flatten() {
            let p = entry.path();
            if p.extension().and_then(|e| e.to_str()) != Some("desktop") {
                continue;
            }
            if let Some((name, exec)) = read_entry(&p) {
                if name.eq_ignore_ascii_case(q) {
                    return Some((p, name, exec));
                }
            }
        }
    }
    None
}

/// The file `program` runs: itself when it is a path, else the first executable by that
/// name in the environment's `PATH`.
pub fn program_file(program: &str, env: &[(String, String)]) -> Option<PathBuf> {
    if program.contains('/') {
        return Some(program.into());
    }
    on_path(program, env)
}

fn on_path(name: &str, env: &[(String, String)]) -> Option<PathBuf> {
    let path = var(env, "PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into());
    path.split(':').map(|d| Path::new(d).join(name)).find(|p| is_executable(p))
}

/// The argv `app` resolves to, or `None`.
pub fn resolve(app: &str, env: &[(String, String)]) -> Option<Vec<String>> {
    if app.starts_with('/') {
        return is_executable(Path::new(app)).then(|| vec![app.to_owned()]);
    }
    if app.contains('/') || app.chars().any(char::is_whitespace) && !app.contains(' ') {
        return None;
    }
    if let Some((_, _, exec)) = find_entry(app, env) {
        let argv = exec_argv(&exec);
        if argv.first().is_some_and(|p| p.starts_with('/') || on_path(p, env).is_some()) {
            return Some(argv);
        }
    }
    on_path(app, env).map(|p| vec![p.to_string_lossy().into_owned()])
}

/// Every name `app` goes by once resolved, for the approval policy: the executable as found
/// (absolute or on PATH) and with its symlinks resolved (a Debian alternative such as
/// `x-terminal-emulator` names its real program), that file's name, and the desktop entry's
/// id and Name when one matched. The given name itself is not repeated.
pub fn names(app: &str, env: &[(String, String)]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |s: String| {
        if !s.is_empty() && s != app && !out.contains(&s) {
            out.push(s);
        }
    };
    if !app.contains('/') {
        if let Some((path, name, _)) = find_entry(app, env) {
            if let Some(stem) = path.file_stem() {
                push(stem.to_string_lossy().into_owned());
            }
            push(name);
        }
    }
    let Some(argv) = resolve(app, env) else { return out };
    let Some(first) = argv.first() else { return out };
    let exe = if first.starts_with('/') { Some(PathBuf::from(first)) } else { on_path(first, env) };
    if let Some(exe) = exe {
        push(first.clone());
        push(exe.to_string_lossy().into_owned());
        if let Ok(real) = std::fs::canonicalize(&exe) {
            if let Some(n) = real.file_name() {
                push(n.to_string_lossy().into_owned());
            }
            push(real.to_string_lossy().into_owned());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exec_field_codes_are_removed() {
        assert_eq!(exec_argv("mousepad %U"), ["mousepad"]);
        assert_eq!(
            exec_argv("\"/opt/my app/run\" --x %f 100%%"),
            ["/opt/my app/run", "--x", "100%"]
        );
        assert_eq!(exec_argv("xfce4-appfinder"), ["xfce4-appfinder"]);
    }

    #[test]
    fn names_follow_symlinks_and_desktop_entries() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = std::env::temp_dir().join(format!("glovebox-names-{}", std::process::id()));
        let (bin, apps) = (dir.join("bin"), dir.join("share/applications"));
        std::fs::create_dir_all(&bin).expect("bin");
        std::fs::create_dir_all(&apps).expect("apps");
        let real = bin.join("realterm");
        std::fs::write(&real, "#!/bin/sh\n").expect("write");
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let _ = std::fs::remove_file(bin.join("x-term-alt"));
        std::os::unix::fs::symlink(&real, bin.join("x-term-alt")).expect("symlink");
        std::fs::write(
            apps.join("vendor-realterm.desktop"),
            "[Desktop Entry]\nName=RealTerm\nExec=realterm -e\n",
        )
        .expect("entry");
        let env = vec![
            ("PATH".to_owned(), bin.display().to_string()),
            ("XDG_DATA_DIRS".to_owned(), dir.join("share").display().to_string()),
            ("XDG_DATA_HOME".to_owned(), dir.join("none").display().to_string()),
        ];
        let alt = names("x-term-alt", &env);
        assert!(alt.contains(&real.display().to_string()), "{alt:?}");
        assert!(alt.contains(&"realterm".to_owned()), "{alt:?}");
        let by_name = names("realTERM", &env);
        assert!(by_name.contains(&"vendor-realterm".to_owned()), "{by_name:?}");
        assert!(by_name.contains(&"RealTerm".to_owned()), "{by_name:?}");
        assert!(names("nothing-by-that-name", &env).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
