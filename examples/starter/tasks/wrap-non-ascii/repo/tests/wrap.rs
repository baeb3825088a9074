use linewrap::{fill, wrap, Options};

#[test]
fn wraps_at_word_boundaries() {
    assert_eq!(
        wrap("The quick brown fox jumps over the lazy dog", 10),
        vec!["The quick", "brown fox", "jumps over", "the lazy", "dog"]
    );
}

#[test]
fn collapses_whitespace() {
    assert_eq!(wrap("  lots   of\t\tspace \n here ", 80), vec!["lots of space here"]);
}

#[test]
fn empty_text_gives_no_lines() {
    assert!(wrap("", 10).is_empty());
    assert!(wrap("   \n ", 10).is_empty());
}

#[test]
fn a_word_that_fits_exactly() {
    assert_eq!(wrap("abcde fghij", 5), vec!["abcde", "fghij"]);
}

#[test]
fn long_words_are_broken_by_default() {
    assert_eq!(wrap("see https://example.com/a/b", 8), vec!["see", "https://", "example.", "com/a/b"]);
}

#[test]
fn long_words_can_be_kept_whole() {
    let opts = Options::new(8).break_words(false);
    assert_eq!(wrap("see https://example.com/a/b ok", opts), vec!["see", "https://example.com/a/b", "ok"]);
}

#[test]
fn indents_count_towards_the_width() {
    let opts = Options::new(16).initial_indent("- ").subsequent_indent("  ");
    assert_eq!(
        wrap("Wrapped list items keep their hanging indent.", opts),
        vec!["- Wrapped list", "  items keep", "  their hanging", "  indent."]
    );
}

#[test]
fn fill_joins_lines() {
    assert_eq!(fill("one two three four", 9), "one two\nthree\nfour");
}

#[test]
fn no_line_is_wider_than_the_width() {
    let text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor \
                incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam.";
    for width in 12..40 {
        for line in wrap(text, width) {
            assert!(line.len() <= width, "{line:?} is wider than {width}");
        }
    }
}

#[test]
fn options_can_be_passed_by_reference() {
    let opts = Options::new(9);
    assert_eq!(wrap("one two three four", &opts), wrap("one two three four", opts.clone()));
}
