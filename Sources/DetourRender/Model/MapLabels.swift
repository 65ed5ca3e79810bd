/// A rectangle in the map's SVG units, y growing downwards.
struct MapBox: Sendable, Equatable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    /// Whether the two boxes share any area (touching edges do not count).
    func overlaps(_ other: MapBox) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }

    /// Whether `other` lies wholly inside this box.
    func contains(_ other: MapBox) -> Bool {
        other.x >= x && other.y >= y && other.x + other.width <= x + width && other.y + other.height <= y + height
    }

    /// The square of side `2 * radius` around a point.
    static func around(_ x: Double, _ y: Double, radius: Double) -> MapBox {
        MapBox(x: x - radius, y: y - radius, width: 2 * radius, height: 2 * radius)
    }
}

/// Places the labels of a map's pins so that no label covers another label, a pin or anything
/// else reserved (the scale bar); a label is cut shorter only where its whole name does not fit,
/// and one that fits nowhere even cut is left out, and its pin is numbered.
///
/// Text width is not measured (the report is drawn by whatever browser opens it), so labels are
/// sized generously for the map's sans-serif at ``fontSize``: wide enough for any digit or capital.
enum MapLabels {
    /// The labels' font size in SVG units.
    static let fontSize = 11.0
    /// The width allowed for one character: wider than a digit or `A`/`B` in common sans-serif faces.
    static let characterWidth = 0.72 * fontSize
    /// Height of a label's box: from above the capitals to below the baseline.
    static let labelHeight = fontSize
    /// Where the baseline sits below the top of a label's box.
    static let baseline = 0.8 * fontSize
    /// The area a pin covers, as a radius around its centre (drawn pins are smaller).
    static let pinRadius = 7.5
    /// The gap between a pin's edge and its label.
    static let gap = 1.5

    /// The box a label of `text` takes when its top-left corner is at (x, y).
    static func box(for text: String, x: Double, y: Double) -> MapBox {
        MapBox(x: x, y: y, width: Double(text.count) * characterWidth, height: labelHeight)
    }

    /// The places tried for a label, in order of preference: right, left, above, below, then corners.
    static func candidates(for text: String, x: Double, y: Double) -> [MapBox] {
        let width = Double(text.count) * characterWidth
        let reach = pinRadius + gap
        let middle = y - labelHeight / 2
        let spots: [(Double, Double)] = [
            (x + reach, middle),
            (x - reach - width, middle),
            (x - width / 2, y - reach - labelHeight),
            (x - width / 2, y + reach),
            (x + reach * 0.7, y - reach * 0.7 - labelHeight),
            (x - reach * 0.7 - width, y - reach * 0.7 - labelHeight),
            (x + reach * 0.7, y + reach * 0.7),
            (x - reach * 0.7 - width, y + reach * 0.7),
        ]
        return spots.map { box(for: text, x: $0.0, y: $0.1) }
    }

    /// For each pin, the label it gets and the box it takes, or `nil` when none fits anywhere.
    ///
    /// Each pin's `labels` are tried longest first (its whole name, then cut shorter), each in
    /// every spot, so a name is cut only where it would cover another label, a pin or the map's
    /// edge. Every pin (and each `reserved` box) is an obstacle from the start, so a label placed
    /// early never covers a pin that comes later; labels are placed in order.
    static func place(
        labels: [[String]], at pins: [(x: Double, y: Double)], reserved: [MapBox], within bounds: MapBox
    ) -> [(text: String, box: MapBox)?] {
        var obstacles = reserved + pins.map { MapBox.around($0.x, $0.y, radius: pinRadius) }
        var placed: [(text: String, box: MapBox)?] = []
        for (texts, pin) in zip(labels, pins) {
            var chosen: (text: String, box: MapBox)?
            for text in texts {
                let spot = candidates(for: text, x: pin.x, y: pin.y).first { candidate in
                    bounds.contains(candidate) && !obstacles.contains { $0.overlaps(candidate) }
                }
                if let spot {
                    chosen = (text, spot)
                    break
                }
            }
            if let chosen { obstacles.append(chosen.box) }
            placed.append(chosen)
        }
        return placed
    }
}
