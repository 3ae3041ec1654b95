//! Key chords (`Control+Shift+T`, `F5`, `+`, `Control++`) and the keysym of every key name.

/// A parsed chord: modifier keysyms in press order, then the main key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chord {
    pub modifiers: Vec<u32>,
    pub key: u32,
}

pub const SHIFT_L: u32 = 0xffe1;
pub const CONTROL_L: u32 = 0xffe3;

/// Parses a chord; `+` alone, or as the last part (`Control++`), is the plus key.
pub fn parse_chord(chord: &str) -> Result<Chord, String> {
    let chord = chord.trim();
    if chord.is_empty() {
        return Err("empty key".into());
    }
    let mut parts: Vec<String> = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = chord.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if *c == '+' && !cur.is_empty() {
            parts.push(std::mem::take(&mut cur));
        } else if *c == '+' && (i + 1 == chars.len() || chars[i + 1] == '+') {
            cur.push('+');
        } else if *c != '+' {
            cur.push(*c);
        }
    }
    if !cur.is_empty() {
        parts.push(cur);
    }
    let Some((last, mods)) = parts.split_last() else {
        return Err(format!("no key in {chord:?}"));
    };
    let modifiers = mods
        .iter()
        .map(|m| {
            modifier(m)
                .ok_or_else(|| format!("{m:?} is not a modifier (Control, Shift, Alt, Super)"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let key = keysym(last).ok_or_else(|| format!("unknown key {last:?}"))?;
    Ok(Chord { modifiers, key })
}

fn modifier(name: &str) -> Option<u32> {
    Some(match name.to_ascii_lowercase().as_str() {
        "control" | "ctrl" | "control_l" | "controlleft" => CONTROL_L,
        "control_r" | "controlright" => 0xffe4,
        "shift" | "shift_l" | "shiftleft" => SHIFT_L,
        "shift_r" | "shiftright" => 0xffe2,
        "alt" | "alt_l" | "altleft" | "option" => 0xffe9,
        "alt_r" | "altright" | "altgr" => 0xffea,
        "super" | "super_l" | "meta" | "win" | "cmd" | "command" | "metaleft" => 0xffeb,
        "super_r" | "metaright" => 0xffec,
        _ => return None,
    })
}

/// The keysym of a key name (case-insensitive) or of a single character.
pub fn keysym(name: &str) -> Option<u32> {
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.clone().next()) {
        return Some(char_keysym(c));
    }
    if let Some(m) = modifier(name) {
        return Some(m);
    }
    let lower = name.to_ascii_lowercase();
    if let Some(n) = lower.strip_prefix('f').and_then(|n| n.parse::<u32>().ok()) {
        if (1..=35).contains(&n) {
            return Some(0xffbe + n - 1);
        }
    }
    Some(match lower.as_str() {
        "enter" | "return" => 0xff0d,
        "kp_enter" | "numpadenter" => 0xff8d,
        "tab" => 0xff09,
        "escape" | "esc" => 0xff1b,
        "backspace" => 0xff08,
        "delete" | "del" => 0xffff,
        "insert" | "ins" => 0xff63,
        "home" => 0xff50,
        "end" => 0xff57,
        "left" | "arrowleft" => 0xff51,
        "up" | "arrowup" => 0xff52,
        "right" | "arrowright" => 0xff53,
        "down" | "arrowdown" => 0xff54,
        "pageup" | "page_up" | "prior" => 0xff55,
        "pagedown" | "page_down" | "next" => 0xff56,
        "space" | "spacebar" => 0x20,
        "plus" => 0x2b,
        "minus" => 0x2d,
        "capslock" | "caps_lock" => 0xffe5,
        "numlock" | "num_lock" => 0xff7f,
        "scrolllock" | "scroll_lock" => 0xff14,
        "pause" | "break" => 0xff13,
        "print" | "printscreen" | "sysrq" => 0xff61,
        "menu" | "contextmenu" | "apps" => 0xff67,
        "audioplay" | "mediaplaypause" | "mediaplay" | "xf86audioplay" => 0x1008_ff14,
        "audiostop" | "mediastop" | "xf86audiostop" => 0x1008_ff15,
        "audioprev" | "mediaprevioustrack" | "mediaprev" | "xf86audioprev" => 0x1008_ff16,
        "audionext" | "medianexttrack" | "medianext" | "xf86audionext" => 0x1008_ff17,
        "audiomute" | "volumemute" | "xf86audiomute" => 0x1008_ff12,
        "audiolowervolume" | "volumedown" | "xf86audiolowervolume" => 0x1008_ff11,
        "audioraisevolume" | "volumeup" | "xf86audioraisevolume" => 0x1008_ff13,
        "browserback" | "xf86back" => 0x1008_ff26,
        "browserforward" | "xf86forward" => 0x1008_ff27,
        "browserrefresh" | "xf86reload" => 0x1008_ff73,
        "browserhome" | "xf86homepage" => 0x1008_ff18,
        "launchmail" | "xf86mail" => 0x1008_ff19,
        "xf86calculator" | "launchcalculator" => 0x1008_ff1d,
        _ => return None,
    })
}

/// The keysym that types `c`: Latin-1 maps directly, everything else is `0x0100_0000 + U`.
pub fn char_keysym(c: char) -> u32 {
    let u = c as u32;
    match c {
        '\n' | '\r' => 0xff0d,
        '\t' => 0xff09,
        '\u{8}' => 0xff08,
        _ if (0x20..=0x7e).contains(&u) || (0xa0..=0xff).contains(&u) => u,
        _ => 0x0100_0000 + u,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chords_parse() {
        assert_eq!(parse_chord("+").expect("plus"), Chord { modifiers: vec![], key: 0x2b });
        assert_eq!(
            parse_chord("Control++").expect("ctrl plus"),
            Chord { modifiers: vec![CONTROL_L], key: 0x2b }
        );
        assert_eq!(
            parse_chord("Control+Shift+T").expect("chord"),
            Chord { modifiers: vec![CONTROL_L, SHIFT_L], key: 'T' as u32 }
        );
        assert_eq!(parse_chord("F24").expect("f24").key, 0xffd5);
        assert_eq!(parse_chord("MediaPlayPause").expect("media").key, 0x1008_ff14);
        assert_eq!(parse_chord("Insert").expect("insert").key, 0xff63);
        assert!(parse_chord("Hyper+Nope").is_err());
        assert_eq!(char_keysym('你'), 0x0100_4f60);
    }
}
