//! Web addresses read the way Chromium reads them: one WHATWG parse (the `url` crate) that the
//! validator, the approval policy and the browser's navigation guard share, so what is judged
//! is what the browser loads.
//!
//! The parse strips leading and trailing spaces and C0 controls and removes tabs and newlines
//! anywhere (`"fi\nle:"` is `file:`), lower-cases the scheme, maps the host through IDNA
//! (full-width letters, `%6C` escapes), reads IPv4 in any notation, takes `\` as `/` for web
//! schemes and keeps userinfo out of the host. A host with a trailing dot names the same host.

pub use url::Url;

/// Schemes a navigation may name: what Chromium loads in a tab. Anything else (`mailto:`,
/// `chrome-devtools:`, a made-up scheme) is refused at once instead of hanging the navigation.
pub const LOADABLE: &[&str] = &[
    "http",
    "https",
    "about",
    "data",
    "blob",
    "file",
    "filesystem",
    "chrome",
    "chrome-untrusted",
    "chrome-extension",
    "devtools",
    "view-source",
    "javascript",
];

/// `about:` pages that are what they say; every other `about:` page is a `chrome:` page.
const PLAIN_ABOUT: &[&str] = &["blank", "srcdoc"];

/// A navigation target: parse `text` as an absolute URL. Text that is only a host (with a
/// port and a path, say `example.com/a` or `localhost:8000`) means `http://` + text.
pub fn parse_navigation(text: &str) -> Result<Url, String> {
    let url = if looks_like_host(text) {
        Url::parse(&format!("http://{}", text.trim()))
    } else {
        Url::parse(text)
    }
    .map_err(|e| {
        format!("{text:?} is not a URL ({e}); send an absolute URL such as https://example.com/")
    })?;
    if !LOADABLE.contains(&url.scheme()) {
        return Err(format!(
            "{}: is not a scheme the browser opens; use one of {}",
            url.scheme(),
            LOADABLE.join(", ")
        ));
    }
    Ok(url)
}

/// `host[:port][/path]` with nothing that could be a scheme.
fn looks_like_host(text: &str) -> bool {
    let text = text.trim();
    let end = text.find(['/', '?', '#']).unwrap_or(text.len());
    let authority = &text[..end];
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (authority, None),
    };
    !host.is_empty()
        && host.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
        && host.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && port.is_none_or(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

/// What a policy rule compares: the scheme and the host, both canonical.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// Lower-case; `about:` pages other than blank and srcdoc count as `chrome`.
    pub scheme: String,
    /// Lower-case ASCII (IDNA), no trailing dot; IPv4 dotted, IPv6 in brackets; empty when the
    /// URL has no host (`about:blank`, `data:`).
    pub host: String,
}

impl Site {
    pub fn of(url: &Url) -> Site {
        let scheme = match url.scheme() {
            "about" if !PLAIN_ABOUT.contains(&url.path()) => "chrome".to_owned(),
            s => s.to_owned(),
        };
        // `view-source:` and `blob:` wrap another URL: its host is the one that loads.
        let inner = match url.scheme() {
            "view-source" | "blob" | "filesystem" => Url::parse(url.path()).ok(),
            _ => None,
        };
        let host = match inner.as_ref().unwrap_or(url).host() {
            Some(url::Host::Domain(d)) => d.trim_end_matches('.').to_ascii_lowercase(),
            Some(url::Host::Ipv4(ip)) => ip.to_string(),
            // An IPv4 address spelled as IPv6 (`[::ffff:127.0.0.2]`, or the old compatible
            // form `[::127.0.0.2]`) reaches that IPv4 host, so it is that host.
            Some(url::Host::Ipv6(ip)) => match embedded_ipv4(ip) {
                Some(v4) => v4.to_string(),
                None => format!("[{ip}]"),
            },
            None => String::new(),
        };
        Site { scheme, host }
    }

    /// The site of any URL text (a request the page made, a tab's URL); `None` when it does
    /// not parse.
    pub fn parse(text: &str) -> Option<Site> {
        Url::parse(text).ok().map(|u| Site::of(&u))
    }
}

/// The IPv4 address an IPv6 literal stands for: IPv4-mapped (`::ffff:a.b.c.d`) or
/// IPv4-compatible (`::a.b.c.d`, but not `::` or `::1`, which are IPv6's own).
fn embedded_ipv4(ip: std::net::Ipv6Addr) -> Option<std::net::Ipv4Addr> {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return Some(v4);
    }
    let compatible = ip.segments()[..6].iter().all(|s| *s == 0) && u128::from(ip) > 1;
    compatible.then(|| ip.to_ipv4()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(text: &str) -> Result<(String, String), String> {
        parse_navigation(text).map(|u| {
            let s = Site::of(&u);
            (s.scheme, s.host)
        })
    }

    #[test]
    fn hostile_spellings_read_as_chromium_reads_them() {
        let cases: &[(&str, &str, &str)] = &[
            ("fi\nle:///etc/passwd", "file", ""),
            ("\u{1}file:///etc/passwd", "file", ""),
            (" \tFILE:///etc", "file", ""),
            ("chr\tome://version", "chrome", "version"),
            ("java\tscript:alert(1)", "javascript", ""),
            ("java\nscript:alert(1)", "javascript", ""),
            ("view-source:http://a.test/", "view-source", "a.test"),
            ("about:version", "chrome", ""),
            ("about:blank", "about", ""),
            ("http://127.0.0.1:18765\\@x.corp.localhost/", "http", "127.0.0.1"),
            ("http://user:pw@evil.test:443/", "http", "evil.test"),
            ("http://evil.test./", "http", "evil.test"),
            ("http://evi%6C.test/", "http", "evil.test"),
            ("http://ｅｖｉｌ.test/", "http", "evil.test"),
            ("http:\\\\evil.test\\x", "http", "evil.test"),
            ("HTTP://EVIL.TEST/", "http", "evil.test"),
            ("http://0x7f.1/", "http", "127.0.0.1"),
            ("http://2130706433/", "http", "127.0.0.1"),
            ("http://[::1]:8/", "http", "[::1]"),
            ("http://[::ffff:127.0.0.2]:8/", "http", "127.0.0.2"),
            ("http://[::FFFF:7f00:2]/", "http", "127.0.0.2"),
            ("http://[0:0:0:0:0:ffff:169.254.169.254]/", "http", "169.254.169.254"),
            ("http://[::127.0.0.2]/", "http", "127.0.0.2"),
            ("http://[::]/", "http", "[::]"),
            ("http://[64:ff9b::7f00:2]/", "http", "[64:ff9b::7f00:2]"),
            ("http://bücher.example/", "http", "xn--bcher-kva.example"),
            ("example.test/a?b", "http", "example.test"),
            ("localhost:8000", "http", "localhost"),
        ];
        for (text, scheme, host) in cases {
            assert_eq!(site(text), Ok(((*scheme).into(), (*host).into())), "{text:?}");
        }
    }

    #[test]
    fn what_the_browser_would_not_open_is_refused_at_once() {
        for text in ["%66ile:///etc/passwd", "chrome-devtools://devtools", "mailto:a@b.test", ""] {
            assert!(parse_navigation(text).is_err(), "{text:?}");
        }
        assert!(parse_navigation("http://[::1/").is_err());
    }
}
