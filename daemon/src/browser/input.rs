//! Keys as CDP `Input.dispatchKeyEvent` wants them: the full key map (F1-F24, navigation keys,
//! `+`), chord parsing and modifier bits.

/// One key: DOM `key`, `code`, Windows virtual key code, text it types, location.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyDef {
    pub key: String,
    pub code: String,
    pub key_code: u32,
    pub text: Option<String>,
    pub location: u8,
}

/// Modifier bits of CDP input events.
pub const ALT: u32 = 1;
pub const CTRL: u32 = 2;
pub const META: u32 = 4;
pub const SHIFT: u32 = 8;

fn def(key: &str, code: &str, key_code: u32, text: Option<&str>) -> KeyDef {
    KeyDef {
        key: key.to_owned(),
        code: code.to_owned(),
        key_code,
        text: text.map(str::to_owned),
        location: 0,
    }
}

/// The modifier bit of a key name, if it is a modifier.
pub fn modifier_bit(name: &str) -> Option<u32> {
    match canonical(name).as_str() {
        "Alt" => Some(ALT),
        "Control" => Some(CTRL),
        "Meta" => Some(META),
        "Shift" => Some(SHIFT),
        _ => None,
    }
}

/// Aliases to DOM key names (case-insensitive for named keys).
pub fn canonical(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    let named = match lower.as_str() {
        "ctrl" | "control" => "Control",
        "shift" => "Shift",
        "alt" | "option" => "Alt",
        "meta" | "cmd" | "command" | "super" | "win" => "Meta",
        "enter" | "return" => "Enter",
        "tab" => "Tab",
        "backspace" => "Backspace",
        "delete" | "del" => "Delete",
        "escape" | "esc" => "Escape",
        "space" | "spacebar" => " ",
        "arrowup" | "up" => "ArrowUp",
        "arrowdown" | "down" => "ArrowDown",
        "arrowleft" | "left" => "ArrowLeft",
        "arrowright" | "right" => "ArrowRight",
        "home" => "Home",
        "end" => "End",
        "pageup" => "PageUp",
        "pagedown" => "PageDown",
        "insert" | "ins" => "Insert",
        "capslock" => "CapsLock",
        "contextmenu" | "menu" => "ContextMenu",
        "pause" => "Pause",
        "printscreen" => "PrintScreen",
        "scrolllock" => "ScrollLock",
        "numlock" => "NumLock",
        "plus" => "+",
        "minus" => "-",
        _ => "",
    };
    if !named.is_empty() {
        return named.to_owned();
    }
    if let Some(n) = lower.strip_prefix('f').and_then(|n| n.parse::<u32>().ok()) {
        if (1..=24).contains(&n) && name.len() > 1 {
            return format!("F{n}");
        }
    }
    name.to_owned()
}

/// The definition of one key by name or character; `None` for an unknown name.
pub fn key_def(name: &str) -> Option<KeyDef> {
    let name = canonical(name);
    let mut d = match name.as_str() {
        "Shift" => KeyDef { location: 1, ..def("Shift", "ShiftLeft", 16, None) },
        "Control" => KeyDef { location: 1, ..def("Control", "ControlLeft", 17, None) },
        "Alt" => KeyDef { location: 1, ..def("Alt", "AltLeft", 18, None) },
        "Meta" => KeyDef { location: 1, ..def("Meta", "MetaLeft", 91, None) },
        "Enter" => def("Enter", "Enter", 13, Some("\r")),
        "Tab" => def("Tab", "Tab", 9, None),
        "Backspace" => def("Backspace", "Backspace", 8, None),
        "Delete" => def("Delete", "Delete", 46, None),
        "Escape" => def("Escape", "Escape", 27, None),
        " " => def(" ", "Space", 32, Some(" ")),
        "ArrowUp" => def("ArrowUp", "ArrowUp", 38, None),
        "ArrowDown" => def("ArrowDown", "ArrowDown", 40, None),
        "ArrowLeft" => def("ArrowLeft", "ArrowLeft", 37, None),
        "ArrowRight" => def("ArrowRight", "ArrowRight", 39, None),
        "Home" => def("Home", "Home", 36, None),
        "End" => def("End", "End", 35, None),
        "PageUp" => def("PageUp", "PageUp", 33, None),
        "PageDown" => def("PageDown", "PageDown", 34, None),
        "Insert" => def("Insert", "Insert", 45, None),
        "CapsLock" => def("CapsLock", "CapsLock", 20, None),
        "ContextMenu" => def("ContextMenu", "ContextMenu", 93, None),
        "Pause" => def("Pause", "Pause", 19, None),
        "PrintScreen" => def("PrintScreen", "PrintScreen", 44, None),
        "ScrollLock" => def("ScrollLock", "ScrollLock", 145, None),
        "NumLock" => def("NumLock", "NumLock", 144, None),
        f if f.starts_with('F') && f.len() > 1 && f[1..].parse::<u32>().is_ok() => {
            let n: u32 = f[1..].parse().ok()?;
            def(f, f, 111 + n, None)
        }
        other => {
            let mut chars = other.chars();
            let c = chars.next()?;
            if chars.next().is_some() {
                return None;
            }
            char_def(c)
        }
    };
    if d.text.as_deref() == Some("") {
        d.text = None;
    }
    Some(d)
}

fn char_def(c: char) -> KeyDef {
    let s = c.to_string();
    if c.is_ascii_alphabetic() {
        let up = c.to_ascii_uppercase();
        return def(&s, &format!("Key{up}"), up as u32, Some(&s));
    }
    if c.is_ascii_digit() {
        return def(&s, &format!("Digit{c}"), c as u32, Some(&s));
    }
    let (code, kc) = match c {
        '-' | '_' => ("Minus", 189),
        '=' | '+' => ("Equal", 187),
        ',' | '<' => ("Comma", 188),
        '.' | '>' => ("Period", 190),
        '/' | '?' => ("Slash", 191),
        ';' | ':' => ("Semicolon", 186),
        '\'' | '"' => ("Quote", 222),
        '[' | '{' => ("BracketLeft", 219),
        ']' | '}' => ("BracketRight", 221),
        '\\' | '|' => ("Backslash", 220),
        '`' | '~' => ("Backquote", 192),
        '!' => ("Digit1", 49),
        '@' => ("Digit2", 50),
        '#' => ("Digit3", 51),
        '$' => ("Digit4", 52),
        '%' => ("Digit5", 53),
        '^' => ("Digit6", 54),
        '&' => ("Digit7", 55),
        '*' => ("Digit8", 56),
        '(' => ("Digit9", 57),
        ')' => ("Digit0", 48),
        _ => ("", 0),
    };
    def(&s, code, kc, Some(&s))
}

/// The characters a US keyboard types with Shift held (besides capital letters).
const SHIFTED: &str = "~!@#$%^&*()_+{}|:\"<>?";

/// One character as a US keyboard types it: its key and whether Shift is held for it. Line
/// ends are Enter, a tab is Tab; a character beyond the layout (你, é) is a key of its own
/// with no code, whose `key` and `text` are the character, as DevTools allows.
pub fn stroke(c: char) -> (KeyDef, bool) {
    match c {
        '\n' | '\r' => (def("Enter", "Enter", 13, Some("\r")), false),
        '\t' => (def("Tab", "Tab", 9, None), false),
        ' ' => (def(" ", "Space", 32, Some(" ")), false),
        c => (char_def(c), c.is_ascii_uppercase() || SHIFTED.contains(c)),
    }
}

/// Split a chord: `Control+Shift+T` -> [Control, Shift, T]; `+` and `Control++` keep `+`.
pub fn parse_chord(chord: &str) -> Result<Vec<KeyDef>, String> {
    let mut parts: Vec<&str> = chord.split('+').filter(|p| !p.is_empty()).collect();
    if chord.ends_with('+') {
        parts.push("+");
    }
    if parts.is_empty() {
        return Err(format!("{chord:?} names no key"));
    }
    parts
        .iter()
        .map(|p| {
            key_def(p).ok_or_else(|| {
                format!(
                    "unknown key {p:?} in {chord:?}: use names like Enter, Tab, F5, PageDown, \
                     ArrowLeft, Control, Shift, Alt, Meta or a single character"
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chords_and_the_key_map() {
        let c = parse_chord("Control+Shift+T").expect("chord");
        assert_eq!(c.iter().map(|k| k.key.as_str()).collect::<Vec<_>>(), ["Control", "Shift", "T"]);
        assert_eq!(parse_chord("+").expect("plus")[0].code, "Equal");
        let c = parse_chord("Control++").expect("ctrl plus");
        assert_eq!(c.len(), 2);
        assert_eq!(c[1].key, "+");
        assert_eq!(key_def("F24").expect("f24").key_code, 135);
        assert_eq!(key_def("f1").expect("f1").key, "F1");
        assert_eq!(key_def("PageDown").expect("pgdn").key_code, 34);
        assert_eq!(key_def("Insert").expect("ins").key_code, 45);
        assert_eq!(key_def("a").expect("a").code, "KeyA");
        assert!(parse_chord("Hyper+x").is_err());
    }

    /// What each character of a US keyboard sends: key, code, keyCode, text and Shift.
    #[test]
    fn characters_as_a_us_keyboard_types_them() {
        // (character, key, code, keyCode, text, shift)
        type Row = (char, &'static str, &'static str, u32, Option<&'static str>, bool);
        let table: &[Row] = &[
            ('a', "a", "KeyA", 65, Some("a"), false),
            ('A', "A", "KeyA", 65, Some("A"), true),
            ('z', "z", "KeyZ", 90, Some("z"), false),
            ('0', "0", "Digit0", 48, Some("0"), false),
            ('9', "9", "Digit9", 57, Some("9"), false),
            (')', ")", "Digit0", 48, Some(")"), true),
            ('!', "!", "Digit1", 49, Some("!"), true),
            ('@', "@", "Digit2", 50, Some("@"), true),
            (' ', " ", "Space", 32, Some(" "), false),
            ('-', "-", "Minus", 189, Some("-"), false),
            ('_', "_", "Minus", 189, Some("_"), true),
            ('=', "=", "Equal", 187, Some("="), false),
            ('+', "+", "Equal", 187, Some("+"), true),
            ('/', "/", "Slash", 191, Some("/"), false),
            ('?', "?", "Slash", 191, Some("?"), true),
            ('~', "~", "Backquote", 192, Some("~"), true),
            ('`', "`", "Backquote", 192, Some("`"), false),
            (';', ";", "Semicolon", 186, Some(";"), false),
            (':', ":", "Semicolon", 186, Some(":"), true),
            ('\'', "'", "Quote", 222, Some("'"), false),
            ('"', "\"", "Quote", 222, Some("\""), true),
            ('[', "[", "BracketLeft", 219, Some("["), false),
            ('{', "{", "BracketLeft", 219, Some("{"), true),
            ('\\', "\\", "Backslash", 220, Some("\\"), false),
            ('|', "|", "Backslash", 220, Some("|"), true),
            ('.', ".", "Period", 190, Some("."), false),
            ('>', ">", "Period", 190, Some(">"), true),
            ('\n', "Enter", "Enter", 13, Some("\r"), false),
            ('\t', "Tab", "Tab", 9, None, false),
            ('你', "你", "", 0, Some("你"), false),
            ('é', "é", "", 0, Some("é"), false),
        ];
        for &(c, key, code, key_code, text, shift) in table {
            let (k, s) = stroke(c);
            assert_eq!(
                (k.key.as_str(), k.code.as_str(), k.key_code, k.text.as_deref(), s),
                (key, code, key_code, text, shift),
                "{c:?}"
            );
        }
    }
}
