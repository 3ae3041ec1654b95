//! Reading and writing outline lines as `snapshot` returns them:
//! `  role "name" [e12] @x,y wxh value="..." (states)`, two spaces per level; incremental views
//! put `+ ` (added) or `~ ` (changed) first, and `in ` before the unchanged ancestor that gives
//! the lines after it their place. Names and values are JSON strings; a value cut for length
//! is followed by [`CUT_MARK`] and the whole length: `value="first 200 chars"…(5000 chars)`.

/// What follows the closing quote of a value that was cut for length, before `(N chars)`.
pub const CUT_MARK: &str = "…";

/// The JSON string of `s` (quotes, backslashes, newlines and control characters escaped,
/// nothing trimmed), cut to `max` characters with the cut marker and the whole length when
/// longer. `total` is the whole length when the caller holds only the start of the text.
pub fn quoted(s: &str, max: usize, total: Option<usize>) -> String {
    let have = s.chars().count();
    let whole = total.unwrap_or(have).max(have);
    if whole <= max && have == whole {
        return json_string(s);
    }
    let head: String = s.chars().take(max).collect();
    format!("{}{CUT_MARK}({whole} chars)", json_string(&head))
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
}

/// A value read back from a line: `key="..."` decoded, and the whole length when the line says
/// it was cut (`Some(5000)` for `…(5000 chars)`).
pub fn line_value(line: &str, key: &str) -> Option<(String, Option<usize>)> {
    let bytes = line.as_bytes();
    let pat = format!("{key}=\"");
    let i = unquoted(line)
        .find(|&i| line[i..].starts_with(&pat) && (i == 0 || bytes[i - 1] == b' '))?;
    let start = i + pat.len() - 1;
    let len = string_len(&line[start..])?;
    let value: String = serde_json::from_str(&line[start..start + len]).ok()?;
    let rest = &line[start + len..];
    let total = rest
        .strip_prefix(CUT_MARK)
        .and_then(|r| r.strip_prefix('('))
        .and_then(|r| r.split_once(" chars)"))
        .and_then(|(n, _)| n.parse().ok());
    Some((value, total))
}

/// The byte offsets of `line` outside its JSON strings (an opening quote included), so a
/// `[e1]` or `value="` inside a name or value is never taken for the line's own.
fn unquoted(line: &str) -> impl Iterator<Item = usize> + '_ {
    let (mut quoted, mut escaped) = (false, false);
    line.bytes().enumerate().filter_map(move |(i, b)| {
        if quoted {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => quoted = false,
                _ => {}
            }
            return None;
        }
        quoted = b == b'"';
        Some(i)
    })
}

/// The byte length of the JSON string that `s` starts with, quotes included.
fn string_len(s: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, b) in s.bytes().enumerate().skip(1) {
        match (escaped, b) {
            (true, _) => escaped = false,
            (false, b'\\') => escaped = true,
            (false, b'"') => return Some(i + 1),
            _ => {}
        }
    }
    None
}

/// The ref of one outline line (`e12`), skipping anything inside the quoted name or value.
pub fn line_ref(line: &str) -> Option<&str> {
    let bytes = line.as_bytes();
    unquoted(line).find_map(|i| {
        if bytes[i] != b'[' || bytes.get(i + 1) != Some(&b'e') {
            return None;
        }
        let rest = &line[i + 1..];
        let r = &rest[..rest.find(']')?];
        (r.len() > 1 && r[1..].bytes().all(|c| c.is_ascii_digit())).then_some(r)
    })
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::{line_ref, line_value, quoted};

    #[test]
    fn the_ref_is_found_outside_quotes_only() {
        assert_eq!(line_ref("  button \"Go\" [e12] @1,2 3x4"), Some("e12"));
        assert_eq!(line_ref("+ link \"Help\" [e3]"), Some("e3"));
        assert_eq!(line_ref("button \"say \\\"[e9]\\\" [e1]\" [e2]"), Some("e2"));
        assert_eq!(line_ref("textbox \"a\" [e7] value=\"[e8]\""), Some("e7"));
        assert_eq!(line_ref("text \"no ref\""), None);
        assert_eq!(line_ref("row \"[edit]\" [e40]"), Some("e40"));
    }

    #[test]
    fn values_are_json_strings_exactly_and_cuts_say_the_whole_length() {
        expect![[r#""Line one\nends In ""#]].assert_eq(&quoted("Line one\nends In ", 200, None));
        expect![[r#""say \"hi\"\t\\ \u001b""#]].assert_eq(&quoted(
            "say \"hi\"\t\\ \u{1b}",
            200,
            None,
        ));
        expect![[r#""abcde"…(12 chars)"#]].assert_eq(&quoted("abcdefghijkl", 5, None));
        expect![[r#""ab"…(5000 chars)"#]].assert_eq(&quoted("ab", 200, Some(5000)));
        expect![[r#""日本語"…(5 chars)"#]].assert_eq(&quoted("日本語です", 3, None));
    }

    #[test]
    fn values_read_back_from_lines() {
        let line =
            format!("  textbox \"Notes\" [e4] value={} (focused)", quoted(" a\n\"b\" ", 9, None));
        assert_eq!(line_value(&line, "value"), Some((" a\n\"b\" ".to_owned(), None)));
        let cut = format!("textbox [e1] value={}", quoted(&"x".repeat(5000), 200, None));
        let (v, total) = line_value(&cut, "value").expect("value");
        assert_eq!((v.len(), total), (200, Some(5000)));
        assert_eq!(line_value("button \"value=\\\"no\\\"\" [e2]", "value"), None);
    }
}
