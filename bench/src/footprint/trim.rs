//! The trimmed Chromium measured beside the default one: flags that fold Chromium's helper
//! processes into fewer, each with what it saves and what it costs, and the wrapper script
//! that adds them (`GLOVEBOX_CHROMIUM` points the daemon at it; the daemon's own flags are
//! kept, and its `--disable-features` list is extended, not replaced, since Chromium takes
//! only the last one given).

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

/// (flag, what it removes, what it costs). `--disable-features=` and `--enable-features=`
/// entries are merged into the daemon's lists by the wrapper.
pub const FLAGS: &[(&str, &str, &str)] = &[
    (
        "--enable-features=NetworkServiceInProcess2",
        "the network service's utility process (into the browser process)",
        "a network-service crash takes the browser down",
    ),
    (
        "--disable-features=AudioServiceOutOfProcess",
        "the audio service's utility process (into the browser process)",
        "an audio crash takes the browser down (Xvfb has no sound anyway)",
    ),
    (
        "--disable-features=SpareRendererForSitePerProcess",
        "the spare renderer kept warm for the next navigation to a new site",
        "such a navigation waits for a renderer to start (tens of ms)",
    ),
    (
        "--renderer-process-limit=1",
        "renderers beyond one, where site isolation allows sharing",
        "tabs share a renderer: one tab's hang or crash stalls the others",
    ),
];

/// Flags looked at and left out of the trimmed set: (flag, what it would remove, why not).
pub const NOT_TAKEN: &[(&str, &str, &str)] = &[
    (
        "--in-process-gpu",
        "the GPU process (about 20 MiB PSS)",
        "tried alone once (--counts 1 --rounds 1): the browser process grew by most of that and \
         the agent loop took 1.7x as long, compositing and captures now sharing its threads",
    ),
    (
        "--disable-site-isolation-trials",
        "one renderer per cross-site frame (ads, embeds, logins); not measured, the loopback \
         page has one site",
        "pages of different sites share a process: Spectre-class reads across them",
    ),
];

/// Writes `chromium-trim` into `dir`: `chromium` with [`FLAGS`] added; its path.
pub fn wrapper(dir: &Path) -> anyhow::Result<PathBuf> {
    let path = dir.join("chromium-trim");
    std::fs::write(&path, script())?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
    Ok(path)
}

fn script() -> String {
    let list = |prefix: &str| -> String {
        let items: Vec<&str> =
            FLAGS.iter().filter_map(|(f, _, _)| f.strip_prefix(prefix)).collect();
        items.join(",")
    };
    let (disable, enable) = (list("--disable-features="), list("--enable-features="));
    let plain: Vec<&str> = FLAGS
        .iter()
        .map(|(f, _, _)| *f)
        .filter(|f| !f.starts_with("--disable-features=") && !f.starts_with("--enable-features="))
        .collect();
    format!(
        "#!/bin/sh\n\
         # Written by `cargo xtask bench footprint` (bench/src/footprint/trim.rs):\n\
         # chromium with flags that fold its helper processes into fewer.\n\
         dis=\"{disable}\" en=\"{enable}\" seen_dis= seen_en=\n\
         for a; do\n\
         \x20 shift\n\
         \x20 case \"$a\" in\n\
         \x20   --disable-features=*) a=\"$a,$dis\" seen_dis=1 ;;\n\
         \x20   --enable-features=*) a=\"$a,$en\" seen_en=1 ;;\n\
         \x20 esac\n\
         \x20 set -- \"$@\" \"$a\"\n\
         done\n\
         [ -n \"$seen_dis\" ] || set -- \"--disable-features=$dis\" \"$@\"\n\
         [ -n \"$seen_en\" ] || set -- \"--enable-features=$en\" \"$@\"\n\
         exec chromium {} \"$@\"\n",
        plain.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wrapper_extends_the_feature_lists_and_keeps_every_argument() {
        let dir = std::env::temp_dir().join(format!("footprint-trim-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temp dir");
        // `chromium` on a PATH of our own: prints the arguments it gets, one a line.
        std::fs::write(dir.join("chromium"), "#!/bin/sh\nfor a; do echo \"$a\"; done\n")
            .expect("writing the stand-in");
        std::fs::set_permissions(dir.join("chromium"), std::fs::Permissions::from_mode(0o755))
            .expect("chmod");
        let w = wrapper(&dir).expect("writing the wrapper");
        let out = std::process::Command::new(&w)
            .args(["--no-sandbox", "--disable-features=Translate,BackForwardCache", "about:blank"])
            .env("PATH", format!("{}:/usr/bin:/bin", dir.display()))
            .output()
            .expect("running the wrapper");
        std::fs::remove_dir_all(&dir).expect("removing the temp dir");
        let args: Vec<String> =
            String::from_utf8(out.stdout).expect("UTF-8").lines().map(String::from).collect();
        assert_eq!(args.iter().filter(|a| a.starts_with("--disable-features=")).count(), 1);
        assert!(args.contains(&"--disable-features=Translate,BackForwardCache,AudioServiceOutOfProcess,SpareRendererForSitePerProcess".to_owned()), "{args:?}");
        assert!(
            args.contains(&"--enable-features=NetworkServiceInProcess2".to_owned()),
            "{args:?}"
        );
        assert!(args.contains(&"--renderer-process-limit=1".to_owned()), "{args:?}");
        assert_eq!(args.last().map(String::as_str), Some("about:blank"));
        assert!(args.contains(&"--no-sandbox".to_owned()));
    }
}
