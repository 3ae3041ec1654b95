//! How a range of a long text is said in a result, the same for `browser.get_content` and
//! `computer.get_text`: where it starts, how long the whole is, and where to go on.

use serde_json::{json, Value};

/// A range of a text, in Unicode characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextRange {
    pub offset: u64,
    /// How many characters the range holds.
    pub returned: u64,
    pub total: u64,
}

impl TextRange {
    /// Where the next range starts, when text follows this one.
    pub fn next_offset(&self) -> Option<u64> {
        let end = self.offset + self.returned;
        (end < self.total).then_some(end)
    }
}

/// `out` (holding the text) with `offset`, `total_chars` and `truncated`: true when text
/// follows what it holds (by the caller's `length` or the daemon's limit), with
/// `next_offset` where to go on, and `limit_chars` when the limit cut it short of what was
/// asked.
pub fn ranged(mut out: Value, r: TextRange, length: Option<usize>, max: usize) -> Value {
    let next = r.next_offset();
    out["offset"] = json!(r.offset);
    out["total_chars"] = json!(r.total);
    out["truncated"] = json!(next.is_some());
    if let Some(n) = next {
        out["next_offset"] = json!(n);
        if r.returned as usize == max && length.is_none_or(|l| l > max) {
            out["limit_chars"] = json!(max);
        }
    }
    out
}

/// The range `offset`, `length` of `text` (whole characters), at most `max` of them.
pub fn slice(text: &str, offset: usize, length: Option<usize>, max: usize) -> (String, TextRange) {
    let total = text.chars().count();
    let want = length.unwrap_or(usize::MAX).min(max);
    let cut: String = text.chars().skip(offset).take(want).collect();
    let returned = cut.chars().count() as u64;
    (cut, TextRange { offset: offset as u64, returned, total: total as u64 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_say_where_to_go_on() {
        let (t, r) = slice("héllo wörld", 2, Some(3), 100);
        assert_eq!(t, "llo");
        assert_eq!(r, TextRange { offset: 2, returned: 3, total: 11 });
        let out = ranged(json!({"text": t}), r, Some(3), 100);
        assert_eq!(out["next_offset"], 5);
        assert_eq!(out["truncated"], true);
        assert!(out.get("limit_chars").is_none(), "the caller asked for 3: {out}");
        let (t, r) = slice("abcdef", 0, None, 4);
        let out = ranged(json!({"text": t}), r, None, 4);
        assert_eq!((out["text"].as_str(), out["limit_chars"].as_u64()), (Some("abcd"), Some(4)));
        let (t, r) = slice("abc", 0, None, 4);
        let out = ranged(json!({"text": t}), r, None, 4);
        assert_eq!(out, json!({"text": "abc", "offset": 0, "total_chars": 3, "truncated": false}));
        let (t, r) = slice("abc", 9, None, 4);
        assert_eq!((t.as_str(), r.next_offset()), ("", None));
    }
}
