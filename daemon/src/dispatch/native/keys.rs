//! The vendors' key names as the daemon's key table (`desktop/keys.rs`) spells them:
//! Anthropic's xdotool style (`ctrl+a`, `Return`, `Page_Down`, `period`, chords separated by
//! spaces) and OpenAI's (`["CTRL", "A"]`, `ENTER`, `ARROWLEFT`). A key neither table knows is
//! an error naming it, before anything is pressed.

use crate::desktop::keys::{keysym, parse_chord};

/// xdotool's names of the printable keys the daemon's table knows only as characters.
const XDOTOOL_CHARS: &[(&str, char)] = &[
    ("period", '.'),
    ("comma", ','),
    ("slash", '/'),
    ("backslash", '\\'),
    ("semicolon", ';'),
    ("colon", ':'),
    ("apostrophe", '\''),
    ("quotedbl", '"'),
    ("grave", '`'),
    ("asciitilde", '~'),
    ("exclam", '!'),
    ("at", '@'),
    ("numbersign", '#'),
    ("dollar", '$'),
    ("percent", '%'),
    ("asciicircum", '^'),
    ("ampersand", '&'),
    ("asterisk", '*'),
    ("parenleft", '('),
    ("parenright", ')'),
    ("underscore", '_'),
    ("equal", '='),
    ("bracketleft", '['),
    ("bracketright", ']'),
    ("braceleft", '{'),
    ("braceright", '}'),
    ("bar", '|'),
    ("less", '<'),
    ("greater", '>'),
    ("question", '?'),
];

/// Other names the vendors use for keys the table spells differently.
const ALIASES: &[(&str, &str)] = &[
    ("cmd", "Super"),
    ("command", "Super"),
    ("option", "Alt"),
    ("win", "Super"),
    ("windows", "Super"),
    ("super_l", "Super"),
    ("ctl", "Control"),
    ("return", "Return"),
    ("del", "Delete"),
    ("caps", "CapsLock"),
];

/// One key word in the table's spelling; `lower`: a single letter names its key (OpenAI's
/// `A`, any letter of a chord with modifiers) rather than a capital to type.
fn word(name: &str, lower: bool) -> Result<String, String> {
    let name = name.trim();
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        let c = if lower { c.to_ascii_lowercase() } else { c };
        return Ok(c.to_string());
    }
    let low = name.to_ascii_lowercase();
    if let Some((_, c)) = XDOTOOL_CHARS.iter().find(|(n, _)| *n == low) {
        return Ok(c.to_string());
    }
    if let Some((_, to)) = ALIASES.iter().find(|(n, _)| *n == low) {
        return Ok((*to).to_owned());
    }
    // xdotool's keypad names (KP_0 .. KP_9) type their digit.
    if let Some(d) =
        low.strip_prefix("kp_").filter(|d| d.len() == 1 && d.as_bytes()[0].is_ascii_digit())
    {
        return Ok(d.to_owned());
    }
    if keysym(name).is_some() {
        return Ok(name.to_owned());
    }
    Err(format!("unknown key {name:?}"))
}

/// A chord of words: every word known and all but the last modifiers.
fn chord(words: &[&str], lower_single: bool) -> Result<String, String> {
    if words.is_empty() || words.iter().all(|w| w.trim().is_empty()) {
        return Err("no key given".into());
    }
    let lower = lower_single || words.len() > 1;
    let mapped = words.iter().map(|w| word(w, lower)).collect::<Result<Vec<_>, _>>()?;
    let text = mapped.join("+");
    parse_chord(&text)?;
    Ok(text)
}

/// Anthropic's `key` text, xdotool style: chords separated by spaces, keys of a chord by
/// `+` (`ctrl+a`, `ctrl+shift+t`, `Return`, `alt+Tab Return`). The chords in order.
pub fn xdotool(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for part in text.split_whitespace() {
        let words: Vec<&str> = if part == "+" {
            vec!["+"]
        } else if let Some(head) = part.strip_suffix("++") {
            head.split('+').chain(std::iter::once("+")).collect()
        } else {
            part.split('+').collect()
        };
        out.push(chord(&words, false)?);
    }
    if out.is_empty() {
        return Err("no key given".into());
    }
    Ok(out)
}

/// OpenAI's `keypress.keys`: pressed together (`["CTRL", "A"]`), as one chord.
pub fn openai(keys: &[String]) -> Result<String, String> {
    let words: Vec<&str> = keys.iter().map(String::as_str).collect();
    chord(&words, true)
}

/// The words of a chord, for holding each down (`Control+a` -> Control, a).
pub fn held_words(chord: &str) -> Vec<String> {
    if chord == "+" {
        return vec!["+".into()];
    }
    let mut words: Vec<String> =
        chord.split('+').filter(|w| !w.is_empty()).map(String::from).collect();
    if chord.ends_with("++") {
        words.push("+".into());
    }
    words
}

#[cfg(test)]
mod tests {
    use super::{openai, xdotool};

    #[test]
    fn xdotool_chords_map_to_the_key_table() {
        assert_eq!(xdotool("ctrl+a").expect("read"), ["ctrl+a"]);
        assert_eq!(xdotool("Return").expect("read"), ["Return"]);
        assert_eq!(xdotool("ctrl+shift+T").expect("read"), ["ctrl+shift+t"]);
        assert_eq!(xdotool("alt+Tab Return").expect("read"), ["alt+Tab", "Return"]);
        assert_eq!(xdotool("Page_Down").expect("read"), ["Page_Down"]);
        assert_eq!(xdotool("ctrl+period").expect("read"), ["ctrl+."]);
        assert_eq!(xdotool("KP_5").expect("read"), ["5"]);
        assert_eq!(xdotool("super").expect("read"), ["super"]);
        assert_eq!(xdotool("A").expect("read"), ["A"]);
        assert_eq!(xdotool("ctrl++").expect("read"), ["ctrl++"]);
        assert_eq!(xdotool("Hyper_Z").expect_err("refused"), "unknown key \"Hyper_Z\"");
        assert!(xdotool("  ").is_err());
    }

    #[test]
    fn openai_names_map_to_the_key_table() {
        let k = |v: &[&str]| openai(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(k(&["CTRL", "A"]).expect("read"), "CTRL+a");
        assert_eq!(k(&["ENTER"]).expect("read"), "ENTER");
        assert_eq!(k(&["ARROWLEFT"]).expect("read"), "ARROWLEFT");
        assert_eq!(k(&["CMD", "SHIFT", "Z"]).expect("read"), "Super+SHIFT+z");
        assert_eq!(k(&["A"]).expect("read"), "a");
        assert_eq!(k(&["ESC"]).expect("read"), "ESC");
        assert_eq!(k(&["SPACE"]).expect("read"), "SPACE");
        assert_eq!(k(&["CTRL", "NOPE"]).expect_err("refused"), "unknown key \"NOPE\"");
        assert!(k(&[]).is_err());
    }
}
