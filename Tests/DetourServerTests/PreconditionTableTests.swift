import DetourCore
import DetourRender
import DetourTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import DetourServer

/// Every combination of `If-Match` and `If-None-Match` on the sync API's `PUT` and `DELETE`.
///
/// The expected status comes from `docs/openapi.yaml` and RFC 9110 §13, worked out by `expectedStatus(_:)`
/// from the row alone, so that the table checks the server against the rules rather than against itself.
@Suite struct PreconditionTableTests: SiteDriving {

    /// The method a row sends.
    enum Method: String, CaseIterable, Sendable {
        case put = "PUT"
        case delete = "DELETE"
    }

    /// What a conditional header names, relative to the trip's tag on disk.
    enum Condition: CaseIterable, Sendable {
        case any
        case current
        case stale
        case listWithCurrent
        case listOfStale
        case weakCurrent

        /// How the row's description spells the header.
        var label: String {
            switch self {
            case .any: return "*"
            case .current: return "current"
            case .stale: return "stale"
            case .listWithCurrent: return "stale, current"
            case .listOfStale: return "stale, older"
            case .weakCurrent: return "W/current"
            }
        }

        /// Whether the header matches a trip that exists, by strong comparison (RFC 9110 §8.8.3.2).
        var matchesStrongly: Bool {
            switch self {
            case .any, .current, .listWithCurrent: return true
            case .stale, .listOfStale, .weakCurrent: return false
            }
        }

        /// Whether the header matches a trip that exists, by weak comparison: a weak tag counts too.
        var matchesWeakly: Bool {
            matchesStrongly || self == .weakCurrent
        }

        /// The header's text, given the trip's current tag and two tags it no longer has.
        func header(current: String, stale: String, older: String) -> String {
            switch self {
            case .any: return "*"
            case .current: return current
            case .stale: return stale
            case .listWithCurrent: return "\(stale), \(current)"
            case .listOfStale: return "\(stale), \(older)"
            case .weakCurrent: return "W/\(current)"
            }
        }
    }

    /// One request of the table and the state of the store it is sent to.
    struct Row: CustomTestStringConvertible, Sendable {
        let method: Method
        let exists: Bool
        let ifMatch: Condition?
        let ifNoneMatch: Condition?

        var testDescription: String {
            "\(method.rawValue), trip \(exists ? "exists" : "missing"), If-Match: \(ifMatch?.label ?? "absent"), "
                + "If-None-Match: \(ifNoneMatch?.label ?? "absent")"
        }
    }

    /// Every combination the table covers.
    static let rows: [Row] = {
        let ifMatches: [Condition?] = [nil] + Condition.allCases
        // A list of only stale tags is left out for `If-None-Match`: it answers as one stale tag does.
        let ifNoneMatches: [Condition?] = [nil] + Condition.allCases.filter { $0 != .listOfStale }
        var rows: [Row] = []
        for method in Method.allCases {
            for exists in [true, false] {
                for ifMatch in ifMatches {
                    for ifNoneMatch in ifNoneMatches {
                        rows.append(Row(method: method, exists: exists, ifMatch: ifMatch, ifNoneMatch: ifNoneMatch))
                    }
                }
            }
        }
        return rows
    }()

    /// The status the docs and RFC 9110 give a row.
    static func expectedStatus(_ row: Row) -> Int {
        switch row.method {
        case .put:
            // Only `If-Match` or `If-None-Match: *` shows that the client has seen the trip (or its absence).
            guard row.ifMatch != nil || row.ifNoneMatch == .any else { return 428 }
            // `If-Match` fails when there is no trip, even for `*`, or when no tag matches strongly.
            if let ifMatch = row.ifMatch, !(row.exists && ifMatch.matchesStrongly) { return 412 }
            // `If-None-Match` can only fail against a trip that exists.
            if let ifNoneMatch = row.ifNoneMatch, row.exists, ifNoneMatch.matchesWeakly { return 412 }
            return row.exists ? 200 : 201
        case .delete:
            guard let ifMatch = row.ifMatch else { return 428 }
            // A delete of nothing is 404 whatever its preconditions: RFC 9110 §13.2.1 has a server ignore
            // them when the answer without them would be neither 2xx nor 412.
            guard row.exists else { return 404 }
            if !ifMatch.matchesStrongly { return 412 }
            if let ifNoneMatch = row.ifNoneMatch, ifNoneMatch.matchesWeakly { return 412 }
            return 204
        }
    }

    /// The store's files by name, each as the entity tag of its bytes.
    ///
    /// The tag stands for the bytes (it is their SHA-256) and keeps a failure's message short.
    func contents(_ store: FakeTripStore) -> [String: String] {
        store.state.withLock { state in
            Dictionary(uniqueKeysWithValues: state.files.map { ($0.key.fileName, TripLibrary.entityTag(of: $0.value)) })
        }
    }

    /// Each row answers the documented status and changes the store only on success.
    @Test(arguments: rows)
    func aConditionalWriteAnswersAsDocumented(_ row: Row) async throws {
        let original = try Fixtures.sample("nordic-budget.json")
        let replacement = try Fixtures.sample("fiji-date-line.json")
        let current = TripLibrary.entityTag(of: original)
        let stale = TripLibrary.entityTag(of: Array("an earlier version of the trip".utf8))
        let older = TripLibrary.entityTag(of: Array("an even earlier version".utf8))
        let store = FakeTripStore(row.exists ? ["nordic-budget.json": original] : [:])
        let before = contents(store)

        var headers = HTTPFields()
        if let ifMatch = row.ifMatch {
            headers[.ifMatch] = ifMatch.header(current: current, stale: stale, older: older)
        }
        if let ifNoneMatch = row.ifNoneMatch {
            headers[.ifNoneMatch] = ifNoneMatch.header(current: current, stale: stale, older: older)
        }
        let response: TestResponse
        switch row.method {
        case .put:
            headers[.contentType] = "application/json"
            response = try await site(store).respond(
                to: request(.put, "/api/v1/trips/nordic-budget", headers: headers, body: replacement))
        case .delete:
            response = try await site(store).respond(
                to: request(.delete, "/api/v1/trips/nordic-budget", headers: headers))
        }

        let expected = Self.expectedStatus(row)
        let text = body(response)
        #expect(response.status.code == expected, "\(text)")
        let after = contents(store)
        switch expected {
        case 200, 201:
            let stored = TripLibrary.entityTag(of: replacement)
            #expect(after == ["nordic-budget.json": stored], "the body is stored under the trip's name")
            #expect(response.headers[.eTag] == stored)
        case 204:
            #expect(after.isEmpty, "the trip's file is removed")
        default:
            #expect(after == before, "a refused write leaves the store as it was")
            #expect(store.state.withLock { $0.writes } == 0)
            if expected == 412 {
                // A client that lost the race learns the tag to read again; a missing trip has none.
                #expect(response.headers[.eTag] == (row.exists ? current : nil))
            }
        }
    }
}
