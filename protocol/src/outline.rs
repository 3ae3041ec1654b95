//! Reading outline lines as `snapshot` returns them: `  role "name" [e12] @x,y wxh (states)`,
//! two spaces per level; incremental views put `+ ` (added) or `~ ` (changed) first.

/// The ref of one outline line (`e12`), skipping anything inside the quoted name or value.
pub fn line_ref(line: &str) -> Option<&str> {
    let bytes = line.as_bytes();
    let (mut quoted, mut escaped) = (false, false);
    for (i, &b) in bytes.iter().enumerate() {
        if quoted {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => quoted = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => quoted = true,
            b'[' if bytes.get(i + 1) == Some(&b'e') => {
                let rest = &line[i + 1..];
                let end = rest.find(']')?;
                let r = &rest[..end];
                if r.len() > 1 && r[1..].bytes().all(|c| c.is_ascii_digit()) {
                    return Some(r);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::line_ref;

    #[test]
    fn the_ref_is_found_outside_quotes_only() {
        assert_eq!(line_ref("  button \"Go\" [e12] @1,2 3x4"), Some("e12"));
        assert_eq!(line_ref("+ link \"Help\" [e3]"), Some("e3"));
        assert_eq!(line_ref("button \"say \\\"[e9]\\\" [e1]\" [e2]"), Some("e2"));
        assert_eq!(line_ref("textbox \"a\" [e7] value=\"[e8]\""), Some("e7"));
        assert_eq!(line_ref("text \"no ref\""), None);
        assert_eq!(line_ref("row \"[edit]\" [e40]"), Some("e40"));
    }
}
