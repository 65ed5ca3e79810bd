import DetourCore
import DetourRender
import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Synchronization
import Testing

@testable import DetourServer

/// A format of a trip is answered again from the event loop, without the router, only while
/// nothing it was made from has changed, only to a request that carries nothing but its address,
/// and never ahead of an answer still owed.
@Suite struct ResponseReplayTests {
    /// The handler on an embedded channel, with a stamp the test moves and the log it writes.
    final class Harness {
        let store: ReplayStore
        let stamp = Shared<ReplayStamp?>(ReplayStamp(epoch: 1, day: ResponseReplayTests.day))
        let lines = Shared<[String]>([])
        /// The clock's seconds since 1970.
        let seconds = Shared<Int64>(1_796_083_199)
        let channel: EmbeddedChannel

        init(store: ReplayStore = ReplayStore()) throws {
            self.store = store
            let stamp = stamp
            let lines = lines
            let seconds = seconds
            channel = EmbeddedChannel(
                handler: ResponseReplay(
                    store: store, stamp: { stamp.value }, log: { line in lines.update { $0.append(line) } },
                    unixSeconds: { seconds.value }))
        }

        /// Sends a request's head and end; what the handler wrote back, and what it passed on.
        func send(
            _ method: HTTPRequest.Method = .get, _ path: String = "/trips/lisbon.html", authority: String = "127.0.0.1",
            fields: HTTPFields = [:]
        ) throws -> (written: [HTTPResponsePart], passed: [HTTPRequestPart]) {
            let head = HTTPRequest(method: method, scheme: nil, authority: authority, path: path, headerFields: fields)
            try channel.writeInbound(HTTPRequestPart.head(head))
            try channel.writeInbound(HTTPRequestPart.end(nil))
            return (try written(), try passed())
        }

        /// Writes an answer as the router does: head, body, end.
        func answer(status: HTTPResponse.Status = .ok, marked: Bool = true, body: [String] = ["<html>"]) throws {
            var fields: HTTPFields = [.contentType: "text/html", .date: "Sun, 01 Nov 2026 00:00:00 GMT"]
            if marked { fields[ResponseReplay.marker] = "1" }
            try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: status, headerFields: fields)))
            for part in body { try channel.writeOutbound(HTTPResponsePart.body(ByteBuffer(string: part))) }
            try channel.writeOutbound(HTTPResponsePart.end(nil))
        }

        func written() throws -> [HTTPResponsePart] {
            var parts: [HTTPResponsePart] = []
            while let part = try channel.readOutbound(as: HTTPResponsePart.self) { parts.append(part) }
            return parts
        }

        func passed() throws -> [HTTPRequestPart] {
            var parts: [HTTPRequestPart] = []
            while let part = try channel.readInbound(as: HTTPRequestPart.self) { parts.append(part) }
            return parts
        }

        /// One request through the router, answered and kept.
        func keepOne(
            _ method: HTTPRequest.Method = .get, _ path: String = "/trips/lisbon.html", body: [String] = ["<html>"]
        ) throws {
            let (written, passed) = try send(method, path)
            #expect(written.isEmpty && passed.count == 2, "the first request goes to the router")
            try answer(body: body)
            _ = try self.written()
        }
    }

    /// A value the test changes and the handler reads.
    final class Shared<Value: Sendable>: Sendable {
        private let state: Mutex<Value>
        init(_ value: Value) { state = Mutex(value) }
        var value: Value { state.withLock { $0 } }
        func update(_ change: (inout Value) -> Void) { state.withLock { change(&$0) } }
    }

    static let day = CalendarDay(year: 2026, month: 11, day: 24) ?? .unixEpoch

    /// The body bytes of `parts` as text, and whether they end.
    func body(_ parts: [HTTPResponsePart]) -> String {
        parts.reduce(into: "") { text, part in
            if case .body(let buffer) = part { text += String(buffer: buffer) }
        }
    }

    func head(_ parts: [HTTPResponsePart]) -> HTTPResponse? {
        guard case .head(let head) = parts.first else { return nil }
        return head
    }

    @Test func aMarkedAnswerIsRepeatedWithoutTheRouterAndTheMarkerNeverLeaves() throws {
        let site = try Harness()
        _ = try site.send()
        try site.answer(body: ["<html>", "</html>"])
        let first = try site.written()
        #expect(head(first)?.headerFields[ResponseReplay.marker] == nil, "the marker is taken off")
        #expect(head(first)?.headerFields[.contentType] == "text/html")

        let (again, passed) = try site.send()
        #expect(passed.isEmpty, "the router sees nothing")
        #expect(again.count == 3)
        #expect(body(again) == "<html></html>")
        #expect(head(again)?.status == .ok)
        #expect(head(again)?.headerFields[ResponseReplay.marker] == nil)
        #expect(head(again)?.headerFields[.contentType] == "text/html")
        #expect(head(again)?.headerFields[.date] == "Mon, 30 Nov 2026 23:59:59 GMT", "a Date of now, not the kept one")
        guard case .end(nil) = again.last else {
            Issue.record("the answer ends")
            return
        }
        // The Date is made once a second, and a second later it is that second's.
        #expect(head(try site.send().written)?.headerFields[.date] == "Mon, 30 Nov 2026 23:59:59 GMT")
        site.seconds.update { $0 += 1 }
        let later = try site.send().written
        #expect(head(later)?.headerFields[.date] == "Tue, 01 Dec 2026 00:00:00 GMT")
        #expect(head(later)?.headerFields[.contentType] == "text/html" && body(later) == "<html></html>")
        let lines = site.lines.value
        #expect(lines.count == 3 && lines[0].hasPrefix("GET /trips/lisbon.html 200 13 "), "\(lines)")
    }

    @Test(arguments: [(false, HTTPResponse.Status.ok), (true, .notFound), (true, .notModified)])
    func anUnmarkedAnswerOrOneOtherThan200IsNotKept(_ marked: Bool, _ status: HTTPResponse.Status) throws {
        let site = try Harness()
        _ = try site.send()
        try site.answer(status: status, marked: marked)
        #expect(head(try site.written())?.headerFields[ResponseReplay.marker] == nil)
        #expect(try site.send().passed.count == 2)
        #expect(site.store.count == 0)
    }

    @Test func aChangeOfTheFolderOrOfTheDayOrAWatchNotHealthyMakesTheRouterAnswerAgain() throws {
        let changes: [ReplayStamp?] = [
            ReplayStamp(epoch: 2, day: Self.day),
            ReplayStamp(epoch: 1, day: Self.day.adding(days: 1) ?? Self.day),
            nil,
        ]
        for change in changes {
            let site = try Harness()
            try site.keepOne()
            site.stamp.update { $0 = change }
            let (written, passed) = try site.send()
            #expect(written.isEmpty && passed.count == 2, "\(String(describing: change))")
        }
        // An answer made while the watch is not healthy is not kept.
        let site = try Harness()
        site.stamp.update { $0 = nil }
        try site.keepOne()
        site.stamp.update { $0 = ReplayStamp(epoch: 1, day: Self.day) }
        #expect(try site.send().passed.count == 2)
        #expect(site.store.count == 0)
    }

    @Test func onlyARequestThatCarriesNothingButItsAddressIsAnswered() throws {
        let site = try Harness()
        try site.keepOne()
        let plain: HTTPFields = [
            .userAgent: "curl/8", .accept: "*/*", .acceptEncoding: "gzip", .acceptLanguage: "en",
            .connection: "keep-alive",
        ]
        #expect(try site.send(fields: plain).passed.isEmpty)
        let others: [(HTTPRequest.Method, String, String, HTTPFields)] = [
            (.get, "/trips/lisbon.html?token=x", "127.0.0.1", [:]),
            (.get, "/trips/lisbon.html", "localhost", [:]),
            (.get, "/trips/other.html", "127.0.0.1", [:]),
            (.head, "/trips/lisbon.html", "127.0.0.1", [:]),
            (.post, "/trips/lisbon.html", "127.0.0.1", [:]),
            (.get, "/trips/lisbon.html", "127.0.0.1", [.authorization: "Bearer x"]),
            (.get, "/trips/lisbon.html", "127.0.0.1", [.cookie: "a=b"]),
            (.get, "/trips/lisbon.html", "127.0.0.1", [.ifNoneMatch: "\"x\""]),
            (.get, "/trips/lisbon.html", "127.0.0.1", [.contentLength: "0"]),
            (.get, "/trips/lisbon.html", "127.0.0.1", [.connection: "close"]),
        ]
        for (method, path, authority, fields) in others {
            let (written, passed) = try site.send(method, path, authority: authority, fields: fields)
            #expect(written.isEmpty && passed.count == 2, "\(method) \(path) \(authority) \(fields)")
            try site.answer(marked: false)
            _ = try site.written()
        }
        // HEAD is kept on its own.
        try site.keepOne(.head, body: [])
        let (head, passed) = try site.send(.head)
        #expect(passed.isEmpty && body(head).isEmpty)
    }

    @Test func noAnswerIsWrittenAheadOfOneStillOwed() throws {
        let site = try Harness()
        try site.keepOne()
        // A request the router answers, and a pipelined one behind it that could be repeated.
        _ = try site.send(fields: [.ifNoneMatch: "\"x\""])
        let (written, passed) = try site.send()
        #expect(written.isEmpty && passed.count == 2, "the second waits its turn at the router")
        try site.answer()
        try site.answer()
        #expect(try site.written().count == 6)
        #expect(try site.send().passed.isEmpty, "once nothing is owed, it is repeated again")
    }

    @Test func anAnswerLargerThanTheLimitIsNotKept() throws {
        let site = try Harness(store: ReplayStore(maxEntryBytes: 10))
        try site.keepOne(body: ["12345", "678901"])
        #expect(site.store.count == 0)
        #expect(try site.send().passed.count == 2)
        try site.answer(body: ["12345", "67890"])
        _ = try site.written()
        let (again, passed) = try site.send()
        #expect(passed.isEmpty && body(again) == "1234567890", "an answer at the limit is kept, in one piece")
    }

    @Test func theStoreKeepsWithinItsBoundsAndDropsStaleAnswersFirst() {
        let store = ReplayStore(maxEntryBytes: 100, maxBytes: 10, maxEntries: 2)
        func entry(_ bytes: Int, epoch: Int) -> ReplayStore.Entry {
            ReplayStore.Entry(
                head: HTTPResponse(status: .ok), body: ByteBuffer(repeating: 0, count: bytes),
                stamp: ReplayStamp(epoch: epoch, day: Self.day))
        }
        func key(_ path: String) -> ReplayStore.Key { ReplayStore.Key(method: .get, authority: "h", path: path) }
        let now = ReplayStamp(epoch: 2, day: Self.day)
        store.keep(entry(4, epoch: 1), for: key("/stale"))
        store.keep(entry(4, epoch: 2), for: key("/a"))
        store.keep(entry(4, epoch: 2), for: key("/b"))
        #expect(store.count == 2)
        let stale = ReplayStamp(epoch: 1, day: Self.day)
        #expect(store.entry(key("/stale"), at: stale, dated: 0) == nil, "the stale one went first")
        #expect(store.entry(key("/a"), at: now, dated: 0) != nil && store.entry(key("/b"), at: now, dated: 0) != nil)
        store.keep(entry(8, epoch: 2), for: key("/c"))
        #expect(store.count == 1 && store.entry(key("/c"), at: now, dated: 0) != nil, "10 bytes at most")
        store.keep(entry(2, epoch: 2), for: key("/c"))
        store.keep(entry(2, epoch: 2), for: key("/d"))
        #expect(store.count == 2, "a key kept again replaces its answer")
    }

    @Test(arguments: [
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"), (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"), (1_796_083_199, "Mon, 30 Nov 2026 23:59:59 GMT"),
        (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
    ])
    func theDateIsIMFFixdate(_ seconds: Int, _ text: String) {
        #expect(Formatting.httpDate(seconds) == text)
    }
}
