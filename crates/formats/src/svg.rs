//! A position as an SVG picture: the board with its coordinates, the discs, the last move
//! marked, and optionally the legal moves or a score written on each scored square.

use std::fmt::Write;

use reversi_core::{Color, Move, Position, Square};

/// What to draw besides the board and its discs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SvgOptions {
    /// The move that reached the position, ringed (a pass is named under the board).
    pub last: Option<(Color, Move)>,
    /// Mark the squares the side to move may play.
    pub legal: bool,
    /// Text written on squares, such as hint scores (`+6`, `W`); the first is the best and
    /// drawn stronger.
    pub scores: Vec<(Square, String)>,
    /// A line of text under the board (who is to move is added to it).
    pub caption: Option<String>,
}

/// Pixels a square takes.
const CELL: u32 = 48;
/// The margin that holds the coordinates.
const MARGIN: u32 = 28;
/// The band under the board for the caption.
const CAPTION: u32 = 32;

/// Text with `&`, `<`, `>` and `"` escaped for XML, and the control characters XML does not
/// allow (a caption may carry a name from an imported file) replaced by `U+FFFD`.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' | '\n' | '\r' => out.push(ch),
            c if c.is_control() => out.push('\u{fffd}'),
            _ => out.push(ch),
        }
    }
    out
}

/// The centre of `sq` in picture coordinates.
fn centre(sq: Square) -> (u32, u32) {
    (
        MARGIN + u32::from(sq.col()) * CELL + CELL / 2,
        MARGIN + u32::from(sq.row()) * CELL + CELL / 2,
    )
}

/// The position drawn as a standalone SVG document.
///
/// Each disc is a `circle` of class `disc black` or `disc white`, each legal-move mark a
/// `circle` of class `legal`, the last move a `rect` of class `last`, and each coordinate a
/// `text` of class `coord`: a picture can be checked or restyled by class.
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Position, Rules};
/// use reversi_formats::svg::{position_svg, SvgOptions};
///
/// let start = Position::start(BoardSize::EIGHT, Rules::Othello);
/// let svg = position_svg(&start, &SvgOptions { legal: true, ..SvgOptions::default() });
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
/// assert_eq!(svg.matches("class=\"disc black\"").count(), 2);
/// assert_eq!(svg.matches("class=\"legal\"").count(), 4);
/// assert!(svg.contains(">h</text>") && svg.contains(">8</text>"));
/// ```
#[must_use]
pub fn position_svg(p: &Position, options: &SvgOptions) -> String {
    let n = u32::from(p.size().get());
    let board = n * CELL;
    let width = board + 2 * MARGIN;
    let height = board + 2 * MARGIN + CAPTION;
    let mut s = String::new();
    // Writing to a String cannot fail; the results are dropped for that reason.
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">"
    );
    let black = p.disc_count(Color::Black);
    let white = p.disc_count(Color::White);
    let _ = writeln!(
        s,
        "<title>{} {}: Black {black}, White {white}, {} to move</title>",
        p.size(),
        p.rules(),
        p.turn()
    );
    let _ = writeln!(
        s,
        "<rect width=\"{width}\" height=\"{height}\" fill=\"#f4f1e8\"/>\n\
         <rect x=\"{MARGIN}\" y=\"{MARGIN}\" width=\"{board}\" height=\"{board}\" \
         fill=\"#2f7d46\" stroke=\"#1b3d26\" stroke-width=\"2\"/>"
    );
    for i in 1..n {
        let at = MARGIN + i * CELL;
        let end = MARGIN + board;
        let _ = writeln!(
            s,
            "<line x1=\"{at}\" y1=\"{MARGIN}\" x2=\"{at}\" y2=\"{end}\" stroke=\"#1b3d26\"/>\n\
             <line x1=\"{MARGIN}\" y1=\"{at}\" x2=\"{end}\" y2=\"{at}\" stroke=\"#1b3d26\"/>"
        );
    }
    for i in 0..n {
        let mid = MARGIN + i * CELL + CELL / 2;
        let letter = char::from(b'a' + i as u8);
        for y in [MARGIN - 9, MARGIN + board + 20] {
            let _ = writeln!(
                s,
                "<text class=\"coord\" x=\"{mid}\" y=\"{y}\" font-size=\"15\" \
                 text-anchor=\"middle\" fill=\"#444\">{letter}</text>"
            );
        }
        for x in [MARGIN / 2, MARGIN + board + MARGIN / 2] {
            let _ = writeln!(
                s,
                "<text class=\"coord\" x=\"{x}\" y=\"{}\" font-size=\"15\" \
                 text-anchor=\"middle\" fill=\"#444\">{}</text>",
                mid + 5,
                i + 1
            );
        }
    }
    let last_square = match options.last {
        Some((_, Move::Play(sq))) => Some(sq),
        _ => None,
    };
    if let Some(sq) = last_square {
        let x = MARGIN + u32::from(sq.col()) * CELL + 2;
        let y = MARGIN + u32::from(sq.row()) * CELL + 2;
        let side = CELL - 4;
        let _ = writeln!(
            s,
            "<rect class=\"last\" x=\"{x}\" y=\"{y}\" width=\"{side}\" height=\"{side}\" \
             fill=\"none\" stroke=\"#e0452b\" stroke-width=\"3\"/>"
        );
    }
    let radius = CELL / 2 - 5;
    for sq in p.squares() {
        let Some(color) = p.get(sq) else { continue };
        let (x, y) = centre(sq);
        let (class, fill, stroke) = match color {
            Color::Black => ("disc black", "#151515", "#000"),
            Color::White => ("disc white", "#f7f7f7", "#555"),
        };
        let _ = writeln!(
            s,
            "<circle class=\"{class}\" cx=\"{x}\" cy=\"{y}\" r=\"{radius}\" fill=\"{fill}\" \
             stroke=\"{stroke}\" stroke-width=\"1.5\"/>"
        );
    }
    if options.legal {
        for sq in p.legal_moves() {
            let (x, y) = centre(sq);
            let _ = writeln!(
                s,
                "<circle class=\"legal\" cx=\"{x}\" cy=\"{y}\" r=\"6\" fill=\"#000\" \
                 fill-opacity=\"0.35\"/>"
            );
        }
    }
    for (i, (sq, text)) in options.scores.iter().enumerate() {
        if !sq.is_on(p.size()) {
            continue;
        }
        let (x, y) = centre(*sq);
        let (fill, weight) = if i == 0 {
            ("#ffe066", "bold")
        } else {
            ("#ffffff", "normal")
        };
        let _ = writeln!(
            s,
            "<text class=\"score\" x=\"{x}\" y=\"{}\" font-size=\"16\" font-weight=\"{weight}\" \
             text-anchor=\"middle\" fill=\"{fill}\">{}</text>",
            y + 6,
            escape(text)
        );
    }
    let mut caption = options.caption.clone().unwrap_or_default();
    if let Some((color, Move::Pass)) = options.last {
        if !caption.is_empty() {
            caption.push_str(" · ");
        }
        caption.push_str(&format!("{color} passed"));
    }
    if !caption.is_empty() {
        caption.push_str(" · ");
    }
    caption.push_str(&format!("Black {black}, White {white}"));
    if !p.is_game_over() {
        caption.push_str(&format!(", {} to move", p.turn()));
    }
    let _ = writeln!(
        s,
        "<text class=\"caption\" x=\"{}\" y=\"{}\" font-size=\"15\" text-anchor=\"middle\" \
         fill=\"#222\">{}</text>",
        width / 2,
        board + 2 * MARGIN + CAPTION / 2,
        escape(&caption)
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::{parse_transcript, BoardSize, Rules};

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}:\n{svg}"))
    }

    fn count(doc: &roxmltree::Document<'_>, class: &str) -> usize {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .count()
    }

    #[test]
    fn a_position_is_well_formed_with_its_discs_coordinates_and_marks() {
        let start = Position::start(BoardSize::EIGHT, Rules::Othello);
        let game = parse_transcript("f5d6c3d3c4", start).unwrap_or_else(|e| panic!("{e}"));
        let p = game.current();
        let last = game.moves().last().map(|&mv| (Color::Black, mv));
        let svg = position_svg(
            p,
            &SvgOptions {
                last,
                legal: true,
                scores: vec![],
                // Control characters are not allowed in XML at all.
                caption: Some("Tiger <& \"co\">\u{1b}[1m\u{7}".into()),
            },
        );
        let doc = parse(&svg);
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(
            root.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        assert_eq!(count(&doc, "disc black"), p.disc_count(Color::Black));
        assert_eq!(count(&doc, "disc white"), p.disc_count(Color::White));
        assert_eq!(count(&doc, "legal"), p.legal_moves().len());
        assert_eq!(count(&doc, "last"), 1);
        // Each letter and number twice: above and below, left and right.
        let coords: Vec<&str> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("coord"))
            .filter_map(|n| n.text())
            .collect();
        assert_eq!(coords.len(), 32);
        for name in ["a", "h", "1", "8"] {
            assert_eq!(coords.iter().filter(|&&c| c == name).count(), 2, "{name}");
        }
        let caption = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("caption"))
            .and_then(|n| n.text());
        assert_eq!(
            caption,
            Some("Tiger <& \"co\">\u{fffd}[1m\u{fffd} · Black 6, White 3, White to move")
        );
        // The last move, c4, is ringed where c4 is.
        let ring = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("last"));
        let c4 = (MARGIN + 2 * CELL + 2).to_string();
        assert_eq!(ring.and_then(|n| n.attribute("x")), Some(c4.as_str()));
    }

    #[test]
    fn scores_pass_and_other_sizes() {
        let p = Position::start(
            BoardSize::new(10).unwrap_or(BoardSize::EIGHT),
            Rules::Othello,
        );
        let d5 = p.parse_square("d5").unwrap_or(Square::new(0, 0));
        let svg = position_svg(
            &p,
            &SvgOptions {
                last: Some((Color::White, Move::Pass)),
                legal: false,
                scores: vec![(d5, "+4".into()), (Square::new(15, 15), "off".into())],
                caption: None,
            },
        );
        let doc = parse(&svg);
        assert_eq!(count(&doc, "disc black") + count(&doc, "disc white"), 4);
        assert_eq!(count(&doc, "legal"), 0);
        assert_eq!(count(&doc, "last"), 0);
        let scores: Vec<&str> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("score"))
            .filter_map(|n| n.text())
            .collect();
        assert_eq!(scores, ["+4"], "a square off the board is left out");
        assert!(svg.contains(">j</text>") && svg.contains(">10</text>"));
        assert!(svg.contains("White passed · Black 2, White 2, Black to move"));
    }
}
