import DetourCore

/// What a batch run did with each trip: the data behind `OUT/index.html`, `index.md` and
/// `index.json`.
///
/// A batch run writes `index.json` beside its reports (or `index.K-of-N.json` for one shard), so
/// `detour-report index OUT/` can list the trips of several runs, or of every shard of one job,
/// without reading a trip again.
public struct TripIndex: Sendable, Equatable {
    /// The format tag of `index.json`.
    public static let format = "detour-report-index/1"

    /// One trip of the run, in the sorted order of the inputs.
    public struct Entry: Sendable, Equatable {
        /// A report written for the trip, or a link to one: what it is, and its file relative to
        /// the index (for a server's feed, its URL).
        public struct Report: Sendable, Equatable {
            /// What the link is, written as `format` in `index.json`.
            public var format: LinkKind
            /// The file, relative to the output folder, with `/` between folders.
            public var file: String

            public init(format: LinkKind, file: String) {
                self.format = format
                self.file = file
            }
        }

        /// The trip file as it was given (or found in a folder given).
        public var source: String
        /// The reports' name without extension, relative to the output folder (`lisbon`,
        /// `europe/oslo`).
        public var name: String
        /// What became of the trip: `written`, `invalid`, `unreadable` or `failed`.
        public var status: TripStatus
        /// The trip's title, when it was valid.
        public var title: String?
        /// The first arrival and the last departure, `YYYY-MM-DD`, when it has stays.
        public var firstDay: String?
        public var lastDay: String?
        /// How many destinations the trip has, when it was valid.
        public var stays: Int?
        /// How many warnings reading, checking and planning it gave.
        public var warnings: Int
        /// The first error, for an invalid, unreadable or unwritten trip, as the printer writes it.
        public var firstError: String?
        /// The reports written, in the order of `--format`.
        public var reports: [Report]

        public init(
            source: String, name: String, status: TripStatus, title: String? = nil, firstDay: String? = nil,
            lastDay: String? = nil, stays: Int? = nil, warnings: Int = 0, firstError: String? = nil,
            reports: [Report] = []
        ) {
            self.source = source
            self.name = name
            self.status = status
            self.title = title
            self.firstDay = firstDay
            self.lastDay = lastDay
            self.stays = stays
            self.warnings = warnings
            self.firstError = firstError
            self.reports = reports
        }

        /// The entry of a valid trip: title, first and last day, stays.
        public init(source: String, name: String, trip: Trip, warnings: Int, reports: [Report]) {
            let arrivals = trip.destinations.map(\.arrival)
            let departures = trip.destinations.map(\.departure)
            self.init(
                source: source, name: name, status: .written, title: trip.title,
                firstDay: arrivals.min()?.description, lastDay: departures.max()?.description,
                stays: trip.destinations.count, warnings: warnings, reports: reports)
        }
    }

    /// Every trip, sorted by name.
    public var entries: [Entry]
    /// Whether the server lists the trips, where nothing is written: a trip is then `ready` or
    /// `has errors`, not `written` or `invalid`.
    public var served = false

    /// What the server calls a trip of `status`.
    static func servedWord(_ status: TripStatus) -> String {
        switch status {
        case .valid, .written: return "ready"
        case .invalid: return "has errors"
        case .unreadable, .failed: return status.rawValue
        }
    }

    public init(entries: [Entry]) {
        self.entries = entries.sorted { ($0.name, $0.source) < ($1.name, $1.source) }
    }

    /// How many trips have each status.
    public func count(_ status: TripStatus) -> Int {
        entries.reduce(0) { $0 + ($1.status == status ? 1 : 0) }
    }

    /// The run in one line: `198 written, 2 invalid, 0 unreadable`, and `, 1 failed` when a
    /// report could not be written.
    public var summary: String {
        if served {
            return "\(count(.written)) ready, \(count(.invalid)) with errors, \(count(.unreadable)) unreadable"
        }
        var text = "\(count(.written)) written, \(count(.invalid)) invalid, \(count(.unreadable)) unreadable"
        let failed = count(.failed)
        if failed > 0 { text += ", \(failed) failed" }
        return text
    }

    /// Whether any trip has a report in `format`.
    public func has(_ format: LinkKind) -> Bool {
        entries.contains { $0.reports.contains { $0.format == format } }
    }
}

// MARK: - index.json

extension TripIndex {
    /// The index as JSON: `{"format": "detour-report-index/1", "summary": …, "trips": [...]}`.
    public func json() -> String {
        var json = JSONStream()
        json.object { json in
            json.member("format", string: TripIndex.format)
            json.member("summary", string: summary)
            json.member("trips")
            json.array(entries) { json, entry in entry.write(to: &json) }
        }
        json.newline()
        return String(decoding: json.bytes, as: UTF8.self)
    }
}

extension TripIndex.Entry {
    /// The entry as one of `index.json`'s `trips`, written where it goes: the index is the last
    /// thing a batch run writes, after every worker has finished.
    func write(to json: inout JSONStream) {
        json.object { json in
            json.member("source", string: source)
            json.member("name", string: name)
            json.member("status", string: status.rawValue)
            json.member("title", string: title)
            json.member("first_day", string: firstDay)
            json.member("last_day", string: lastDay)
            json.member("stays", int: stays)
            json.member("warnings", int: warnings)
            json.member("first_error", string: firstError)
            json.member("reports")
            json.array(reports) { json, report in
                json.object { json in
                    json.member("format", string: report.format.rawValue)
                    json.member("file", string: report.file)
                }
            }
        }
    }
}

extension TripIndex {
    /// What an index links to: a file a run wrote, in one of the output formats, or on the
    /// server's front page the live preview and the calendar feed, once as a `webcal://`
    /// subscription and once as plain `http://`.
    public enum LinkKind: Sendable, Hashable {
        case output(OutputFormat)
        /// The server's live preview of the trip.
        case preview
        /// The trip's calendar as an `http://` feed.
        case feed
        /// The trip's calendar as a `webcal://` subscription.
        case webcal

        /// The kind whose name is `rawValue`, as `index.json` writes it.
        public init?(rawValue: String) {
            switch rawValue {
            case "preview": self = .preview
            case "feed": self = .feed
            case "webcal": self = .webcal
            default:
                guard let format = OutputFormat(rawValue: rawValue) else { return nil }
                self = .output(format)
            }
        }

        /// Its name in `index.json`: the format's (`html`), or `preview`, `feed`, `webcal`.
        public var rawValue: String {
            switch self {
            case .output(let format): format.rawValue
            case .preview: "preview"
            case .feed: "feed"
            case .webcal: "webcal"
            }
        }

        /// What a link of this kind says: `HTML`, `Markdown`, `iCalendar`, `Preview`.
        public var label: String {
            switch self {
            case .output(let format): format.label
            case .preview: "Preview"
            case .feed: "Feed"
            case .webcal: "Subscribe"
            }
        }
    }
}
