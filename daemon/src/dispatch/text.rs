//! How a range of a long text is said in a result, the same for `browser.get_content` and
//! `computer.get_text`: where it starts, how long the whole is, and where to go on.

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

    /// The daemon's limit `max`, when it cut the range short of the caller's `length`.
    pub fn limit_chars(&self, length: Option<usize>, max: usize) -> Option<usize> {
        let cut = self.next_offset().is_some() && self.returned as usize == max;
        (cut && length.is_none_or(|l| l > max)).then_some(max)
    }
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
        assert_eq!(r.next_offset(), Some(5));
        assert_eq!(r.limit_chars(Some(3), 100), None, "the caller asked for 3");
        let (t, r) = slice("abcdef", 0, None, 4);
        assert_eq!((t.as_str(), r.limit_chars(None, 4)), ("abcd", Some(4)));
        let (t, r) = slice("abc", 0, None, 4);
        assert_eq!((t.as_str(), r.next_offset(), r.limit_chars(None, 4)), ("abc", None, None));
        let (t, r) = slice("abc", 9, None, 4);
        assert_eq!((t.as_str(), r.next_offset()), ("", None));
    }
}
