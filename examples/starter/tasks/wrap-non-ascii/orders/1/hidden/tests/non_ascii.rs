use linewrap::{fill, wrap, Options};

fn columns(s: &str) -> usize {
    s.chars().count()
}

#[test]
fn accented_text_wraps_like_plain_text() {
    assert_eq!(
        wrap("Le café crème est très apprécié à Paris", 12),
        vec!["Le café", "crème est", "très", "apprécié à", "Paris"]
    );
    assert_eq!(
        wrap("Le cafe creme est tres apprecie a Paris", 12),
        vec!["Le cafe", "creme est", "tres", "apprecie a", "Paris"]
    );
}

#[test]
fn a_line_can_use_the_full_width_with_umlauts() {
    assert_eq!(wrap("Grüße aus Köln und Zürich", 10), vec!["Grüße aus", "Köln und", "Zürich"]);
}

#[test]
fn long_non_ascii_words_are_split_by_characters() {
    assert_eq!(wrap("Überschallgeschwindigkeit", 8), vec!["Überscha", "llgeschw", "indigkei", "t"]);
}

#[test]
fn splitting_inside_a_multibyte_character_does_not_panic() {
    assert_eq!(wrap("Straßenbahnhaltestelle", 5), vec!["Straß", "enbah", "nhalt", "estel", "le"]);
}

#[test]
fn splitting_after_a_non_ascii_indent() {
    let opts = Options::new(8).initial_indent("» ").subsequent_indent("  ");
    assert_eq!(
        wrap("voir Überschallgeschwindigkeit ok", opts),
        vec!["» voir", "  Übersc", "  hallge", "  schwin", "  digkei", "  t ok"]
    );
}

#[test]
fn a_non_ascii_indent_counts_its_characters() {
    let opts = Options::new(16).initial_indent("• ").subsequent_indent("  ");
    assert_eq!(
        fill("Supports naïve café-style résumé parsing", &opts),
        "• Supports naïve\n  café-style\n  résumé parsing"
    );
}

#[test]
fn no_line_is_wider_than_the_width_in_characters() {
    let text = "Ελληνικά και русский текст вместе, avec des accents à côté — ça marche ?";
    for width in 6..40 {
        let lines = wrap(text, width);
        for line in &lines {
            assert!(columns(line) <= width, "{line:?} is wider than {width}");
        }
        // Nothing is lost or reordered.
        assert_eq!(lines.concat().replace(' ', ""), text.replace(' ', ""));
    }
}

#[test]
fn plain_ascii_is_unchanged() {
    assert_eq!(
        wrap("The quick brown fox jumps over the lazy dog", 10),
        vec!["The quick", "brown fox", "jumps over", "the lazy", "dog"]
    );
}
