//! Greedy word wrapping and indentation for terminal help text.

/// How to wrap: the line width (in columns, indents included), the indents, and whether
/// words longer than a line may be split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options<'a> {
    pub width: usize,
    pub initial_indent: &'a str,
    pub subsequent_indent: &'a str,
    pub break_words: bool,
}

impl<'a> Options<'a> {
    pub fn new(width: usize) -> Self {
        Options {
            width,
            initial_indent: "",
            subsequent_indent: "",
            break_words: true,
        }
    }

    pub fn initial_indent(mut self, indent: &'a str) -> Self {
        self.initial_indent = indent;
        self
    }

    pub fn subsequent_indent(mut self, indent: &'a str) -> Self {
        self.subsequent_indent = indent;
        self
    }

    pub fn break_words(mut self, yes: bool) -> Self {
        self.break_words = yes;
        self
    }
}

impl From<usize> for Options<'_> {
    fn from(width: usize) -> Self {
        Options::new(width)
    }
}

impl<'a> From<&Options<'a>> for Options<'a> {
    fn from(options: &Options<'a>) -> Self {
        options.clone()
    }
}

/// Wraps `text` into lines of at most `options.width` columns.
///
/// Paragraph breaks are not preserved: the whole text is treated as one paragraph.
/// An empty or all-whitespace text gives no lines.
pub fn wrap<'a, O: Into<Options<'a>>>(text: &str, options: O) -> Vec<String> {
    let options = options.into();
    let mut lines: Vec<String> = Vec::new();
    // The line being built (indent included) and whether it holds a word yet.
    let mut line = String::from(options.initial_indent);
    let mut has_word = false;

    for word in text.split_whitespace() {
        if has_word && line.len() + 1 + word.len() > options.width {
            // The word doesn't fit after the last one: finish this line.
            lines.push(std::mem::replace(&mut line, options.subsequent_indent.to_string()));
            has_word = false;
        }
        if has_word {
            line.push(' ');
            line.push_str(word);
            continue;
        }

        // First word of a line: split it while it is longer than the room left.
        let mut rest = word;
        if options.break_words {
            loop {
                let room = options.width.saturating_sub(line.len());
                if rest.len() <= room || room == 0 {
                    break;
                }
                let (piece, tail) = rest.split_at(room);
                line.push_str(piece);
                lines.push(std::mem::replace(&mut line, options.subsequent_indent.to_string()));
                rest = tail;
            }
        }
        line.push_str(rest);
        has_word = true;
    }

    if has_word {
        lines.push(line);
    }
    lines
}

/// Like [`wrap`], joined with `\n` (no trailing newline).
pub fn fill<'a, O: Into<Options<'a>>>(text: &str, options: O) -> String {
    wrap(text, options).join("\n")
}

/// Prefixes every non-empty line of `text` with `prefix`.
pub fn indent(text: &str, prefix: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| {
            if line.trim().is_empty() {
                line.to_string()
            } else {
                format!("{prefix}{line}")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_sets_fields() {
        let o = Options::new(30).initial_indent("* ").subsequent_indent("  ").break_words(false);
        assert_eq!(o.width, 30);
        assert_eq!(o.initial_indent, "* ");
        assert_eq!(o.subsequent_indent, "  ");
        assert!(!o.break_words);
    }

    #[test]
    fn indent_skips_blank_lines() {
        assert_eq!(indent("a\n\nb\n", "> "), "> a\n\n> b\n");
    }
}
