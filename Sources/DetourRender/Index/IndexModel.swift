import DetourCore

/// What `index.html.mustache` and `index.md.mustache` show: one row per trip of a batch run.
public struct IndexModel: Sendable {
    /// The run in one line: `198 written, 2 invalid, 0 unreadable`.
    public var summary: String
    /// One row per trip, sorted by name.
    public var trips: [IndexRowModel]

    /// The rows of `index`.
    public init(_ index: TripIndex) {
        summary = index.summary
        trips = index.entries.map { IndexRowModel($0, served: index.served) }
    }
}

/// One trip in the index.
public struct IndexRowModel: Sendable {
    /// The trip's title, or its file name when it has none (an invalid trip).
    public var title: String
    /// The trip file as given.
    public var source: String
    /// `2026-05-02 – 2026-05-09`, or empty when there are no stays.
    public var dates: String
    /// `3 stays`, or empty for a trip that was not read.
    public var stays: String
    /// `written`, `invalid`, `unreadable` or `failed`.
    public var status: String
    /// The status as the page says it: the status itself for a batch run; `ready`, `has errors`
    /// or `unreadable` on the server, where nothing is written.
    public var statusWord: String
    /// `2 warnings`, or empty.
    public var warnings: String
    /// The first error, for a trip with no reports.
    public var note: String
    /// A link to each report.
    public var links: [IndexLinkModel]

    init(_ entry: TripIndex.Entry, served: Bool) {
        title = entry.title ?? entry.source
        source = entry.source
        switch (entry.firstDay, entry.lastDay) {
        case (let first?, let last?): dates = first == last ? first : "\(first) – \(last)"
        default: dates = ""
        }
        stays = entry.stays.map { $0 == 1 ? "1 stay" : "\($0) stays" } ?? ""
        status = entry.status.rawValue
        statusWord = served ? TripIndex.servedWord(entry.status) : entry.status.rawValue
        warnings = entry.warnings == 0 ? "" : entry.warnings == 1 ? "1 warning" : "\(entry.warnings) warnings"
        note = entry.firstError ?? ""
        links = entry.reports.map(IndexLinkModel.init)
    }
}

/// A link from the index to one report.
public struct IndexLinkModel: Sendable {
    /// `HTML`, `Markdown`, `JSON`, `PDF`, `GPX`, `iCalendar` or `GeoJSON`.
    public var label: String
    /// The report's file relative to the index, percent-encoded: only letters, digits and
    /// `-._~/%` remain, which neither HTML attributes nor Markdown link destinations read
    /// specially, so templates may write it unescaped.
    public var href: String

    init(label: String, href: String) {
        self.label = label
        self.href = href
    }

    init(_ report: TripIndex.Entry.Report) {
        label = report.format.label
        href = IndexLinkModel.href(report.file)
    }

    /// The link to `file`: a relative URL, or for the server's feeds an absolute `http://` or
    /// `webcal://` one, whose scheme and authority (checked by the server against the addresses
    /// it answers to) are kept and whose path is encoded.
    static func href(_ file: String) -> String {
        for scheme in ["http://", "https://", "webcal://"] where file.hasPrefix(scheme) {
            let rest = file.dropFirst(scheme.count)
            let authority = rest.prefix { $0 != "/" }
            let safe = authority.utf8.allSatisfy {
                switch $0 {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: ":"),
                    UInt8(ascii: "["), UInt8(ascii: "]"):
                    return true
                default:
                    return false
                }
            }
            guard safe else { break }
            return scheme + authority + percentEncoded(String(rest.dropFirst(authority.count)))
        }
        return percentEncoded(file)
    }

    /// `file` as a relative URL: every byte but RFC 3986's unreserved characters and `/` is percent-encoded, so a trip
    /// named `a b#1.json` links to `a%20b%231.html`.
    ///
    /// Written here rather than with Foundation's `urlPathAllowed`, which leaves `;`, `=`, `&`, `'`,
    /// `(` and `)` as they are: Markdown link destinations and HTML attributes read those, and the set
    /// is then one small table, the same on every platform.
    static func percentEncoded(_ file: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in file.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

// MARK: - Template lookup

extension IndexModel {
    /// What templates read as `hasTrips`.
    var hasTrips: Bool { !trips.isEmpty }
}

extension IndexRowModel {
    /// What templates read as `hasDates`.
    var hasDates: Bool { !dates.isEmpty }

    /// What templates read as `isWritten`.
    var isWritten: Bool { status == TripStatus.written.rawValue }

    /// What templates read as `hasWarnings`.
    var hasWarnings: Bool { !warnings.isEmpty }

    /// What templates read as `hasNote`.
    var hasNote: Bool { !note.isEmpty }

    /// What templates read as `hasLinks`.
    var hasLinks: Bool { !links.isEmpty }
}
