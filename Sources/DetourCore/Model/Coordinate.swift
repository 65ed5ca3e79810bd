/// A point on the WGS84 ellipsoid in decimal degrees.
public struct Coordinate: Sendable, Hashable {
    /// Latitude in degrees, -90 (south pole) to 90 (north pole).
    public let latitude: Double
    /// Longitude in degrees, -180 to 180, east positive.
    public let longitude: Double

    /// Creates a coordinate, or `nil` when either value is out of range or not finite.
    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude),
            (-180...180).contains(longitude)
        else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Which axis a value belongs to, for parsing and messages.
    public enum Axis: Sendable {
        case latitude
        case longitude

        /// The inclusive range of valid values.
        public var range: ClosedRange<Double> {
            self == .latitude ? -90...90 : -180...180
        }

        /// `latitude` or `longitude`.
        public var name: String { self == .latitude ? "latitude" : "longitude" }
    }

    /// Why a coordinate text was refused.
    public enum ParseError: Error, Sendable, Equatable {
        /// Not a number in ``NumberText``'s grammar.
        case notANumber
        /// A number outside the axis' range.
        case outOfRange

        /// `bad-coordinate` or `coordinate-out-of-range`.
        var code: DiagnosticCode { self == .outOfRange ? .coordinateOutOfRange : .badCoordinate }
    }

    /// The message for a value of `axis` written as `text` that `error` refused.
    public static func message(for error: ParseError, text: String, axis: Axis) -> String {
        switch error {
        case .notANumber:
            return "\(axis.name) \(Quoting.quoted(text)) is not a decimal number"
        case .outOfRange:
            let range = axis == .latitude ? "[-90, 90]" : "[-180, 180]"
            return "\(axis.name) \(Quoting.printable(text)) is outside \(range)"
        }
    }

    /// The rule for a latitude written as text.
    public enum LatitudeRule: AxisRule {
        public static let axis = Axis.latitude
    }

    /// The rule for a longitude written as text.
    public enum LongitudeRule: AxisRule {
        public static let axis = Axis.longitude
    }

    /// Parses one axis value written as text.
    public static func parse(_ text: String, axis: Axis) throws(ParseError) -> Double {
        guard let number = NumberText(text) else { throw .notANumber }
        // Anything past 10^3 is out of range; stopping here keeps Double from rounding to infinity.
        if let magnitude = number.magnitude, magnitude > 3 { throw .outOfRange }
        // The grammar is checked, so Swift's parser (correctly rounded) takes the text as is;
        // `CoordinateTests` holds it to every shape the grammar allows.
        guard let value = Double(text), value.isFinite, axis.range.contains(value) else {
            throw .outOfRange
        }
        return value == 0 ? 0 : value  // no negative zero in reports
    }
}

/// The rule for one axis of a ``Coordinate`` written as text: ``Coordinate/LatitudeRule`` and
/// ``Coordinate/LongitudeRule`` differ only in their axis.
public protocol AxisRule: ValueRule where Value == Double, Problem == Coordinate.ParseError {
    /// The axis the value is on.
    static var axis: Coordinate.Axis { get }
}

extension AxisRule {
    /// Reads the value, as ``Coordinate/parse(_:axis:)`` does.
    public static func parse(_ text: String) throws(Coordinate.ParseError) -> Double {
        try Coordinate.parse(text, axis: axis)
    }

    /// The sentence for `text` refused with `problem`, naming the axis.
    public static func message(_ problem: Coordinate.ParseError, text: String) -> String {
        Coordinate.message(for: problem, text: text, axis: axis)
    }

    /// The problem's own code.
    public static func code(_ problem: Coordinate.ParseError) -> DiagnosticCode { problem.code }
}
