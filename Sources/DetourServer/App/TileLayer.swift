/// A tile server the maps draw from, as `serve --tiles URL-TEMPLATE --tiles-attribution TEXT`
/// gives it: an OpenStreetMap tile server, or the person's own.
///
/// It is the one third party a page with a map may reach, so its template is held to what a
/// Content-Security-Policy source can name exactly: `http` or `https`, a host of letters, digits,
/// dots and dashes (after an optional `{s}.` for the server's subdomains, allowed as `*.`), an
/// optional port, and `{z}`, `{x}` and `{y}` in the path. Its attribution is required: tile servers
/// ask for one, OpenStreetMap's among them.
public struct TileLayer: Sendable, Equatable {
    /// `https://tile.openstreetmap.org/{z}/{x}/{y}.png`.
    public let template: String
    /// What the map credits, such as `© OpenStreetMap contributors`.
    public let attribution: String
    /// The source the pages' policy allows images from: `https://tile.openstreetmap.org`, or
    /// `https://*.tile.example.org` for a template with `{s}`.
    public let source: String

    /// The layer of `template`, credited with `attribution`; `nil`, with the reason in `problem`,
    /// when either cannot be.
    public init?(template: String, attribution: String, problem: inout String) {
        guard !attribution.trimmingCharacters(in: .whitespaces).isEmpty else {
            problem = "needs --tiles-attribution: the tile server's credit, shown on every map"
            return nil
        }
        // Text only: no control character (C0, DEL, C1) and no bidirectional override, which
        // would make the credit read as something else.
        let overrides: ClosedRange<UInt32> = 0x202A...0x202E
        let isolates: ClosedRange<UInt32> = 0x2066...0x2069
        guard
            attribution.unicodeScalars.allSatisfy({ scalar in
                scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value) && !overrides.contains(scalar.value)
                    && !isolates.contains(scalar.value)
            })
        else {
            problem = "--tiles-attribution must be one line of plain text"
            return nil
        }
        let schemes = ["https://", "http://"]
        guard let scheme = schemes.first(where: { template.hasPrefix($0) }) else {
            problem = "must start with https:// or http://"
            return nil
        }
        let rest = template.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" }
        guard rest.dropFirst(authority.count).hasPrefix("/") else {
            problem = "must have a path after the host, with {z}, {x} and {y} in it"
            return nil
        }
        var host = authority
        var subdomains = false
        if host.hasPrefix("{s}.") {
            host = host.dropFirst(4)
            subdomains = true
        }
        let hostPart = host.prefix { $0 != ":" }
        let port = host.dropFirst(hostPart.count)
        let hostOK =
            !hostPart.isEmpty
            && hostPart.unicodeScalars.allSatisfy { scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || scalar == "." || scalar == "-"
            }
        let digits = port.dropFirst()
        let portOK = port.isEmpty || (!digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber })
        guard hostOK, portOK else {
            problem = "must name its host plainly: letters, digits, dots and dashes, {s}. before it at most"
            return nil
        }
        for placeholder in ["{z}", "{x}", "{y}"] where !template.contains(placeholder) {
            problem = "must have {z}, {x} and {y} in it, as a tile server's address does (\(placeholder) is missing)"
            return nil
        }
        // Leaflet fills {s}, {z}, {x}, {y} and {r}; another name would stop the map drawing.
        var unread = Substring(template)
        while let open = unread.firstIndex(of: "{") {
            let name = unread[open...].prefix { $0 != "}" }
            guard ["{s", "{z", "{x", "{y", "{r"].contains(String(name)), name.endIndex < unread.endIndex else {
                problem = "may have only {s}, {z}, {x}, {y} and {r} in braces (\(name)… is none of them)"
                return nil
            }
            unread = unread[unread.index(after: name.endIndex)...]
        }
        // Nothing that would end an attribute, a policy's source list or a URL early.
        let forbidden: Set<Character> = ["\"", "'", " ", ";", ",", "<", ">", "\\", "`"]
        guard !template.contains(where: { forbidden.contains($0) || $0.isNewline }) else {
            problem = "must be one address, with no quote, space, semicolon or comma in it"
            return nil
        }
        self.template = template
        self.attribution = attribution
        source = scheme + (subdomains ? "*." : "") + host
    }
}
