import DetourBase
import DetourCore
import DetourIO
import DetourJob
import DetourRender
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The sync API under `/api/v1/`, described by `docs/openapi.yaml`.
///
/// A write is validated first, by the same validator as `render`: an invalid trip is answered
/// with its diagnostics (422) and nothing is stored. Then, holding the folder's lock, the
/// precondition is checked against the file's bytes as they are now (not a cached copy) and the
/// file is replaced, so of any number of clients sending the same `If-Match` exactly one wins.
enum API {
    /// `GET /api/v1/trips`: every trip, its entity tag and status.
    static func list(_ request: Request, context: ServerContext) async throws -> Response {
        let library = try context.trips().library
        let today = library.settings.today()
        let list = try await library.listing("list", today: today) { found in
            let body = JSONOutput.object([("trips", .array(found.map { summary($0, $1) }))])
            return Array((body.serializedLine() + "\n").utf8)
        }
        return Replies.tagged(list.bytes, etag: list.etag, type: .json, request: request)
    }

    /// The list's line of `file`, read and checked (`found`, `nil` when it could not be read).
    static func summary(_ file: TripFile, _ found: (TripSnapshot, RenderResult)?) -> JSONOutput {
        var fields: [(String, JSONOutput)] = [
            ("name", .string(file.name.text)), ("file", .string(file.fileName)),
            ("format", .string(file.format.rawValue)),
        ]
        guard let (snapshot, result) = found else {
            return .object(
                fields + [
                    ("etag", .null), ("status", .string(TripStatus.unreadable.rawValue)), ("title", .null),
                    ("first_day", .null), ("last_day", .null), ("warnings", .int(0)), ("errors", .int(1)),
                ])
        }
        let errors = result.diagnostics.count { $0.severity == .error }
        // The title and days as the index lists them.
        let entry = result.trip.map {
            TripIndex.Entry(source: file.fileName, name: file.name.text, trip: $0, warnings: 0, reports: [])
        }
        fields += [
            ("etag", .string(snapshot.etag)), ("status", .string(result.status.rawValue)),
            ("title", .string(entry?.title)), ("first_day", .string(entry?.firstDay)),
            ("last_day", .string(entry?.lastDay)),
            ("warnings", .int(result.diagnostics.count - errors)), ("errors", .int(errors)),
        ]
        return .object(fields)
    }

    /// The trip the route's `name` names.
    static func name(_ context: ServerContext) throws -> TripName {
        guard let name = TripName(segment: Substring(try context.parameters.require("name"))) else {
            throw Problem.badName
        }
        return name
    }

    /// `GET /api/v1/trips/NAME`: the trip file's bytes, as stored.
    static func read(_ request: Request, context: ServerContext) async throws -> Response {
        let workspace = try context.trips()
        let snapshot = try await workspace.current(try name(context))
        return Replies.tagged(
            snapshot.bytes, etag: snapshot.etag, type: snapshot.file.format.mediaType, request: request)
    }

    /// A body past the server's limit.
    static func tooLarge(_ settings: ServerSettings) -> Problem {
        Problem(
            .contentTooLarge, .bodyTooLarge,
            "the trip is larger than the \(settings.maxInputBytes >> 20) MiB limit (--max-input-mib)")
    }

    /// The trip format a body of `contentType` is.
    static func format(of contentType: String?) -> TripFormat? {
        let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        switch type {
        case "application/json": return .json
        case "application/gpx+xml": return .gpx
        default: return nil
        }
    }

    /// `PUT /api/v1/trips/NAME`: creates or replaces the trip, validated first.
    static func put(_ request: Request, context: ServerContext) async throws -> Response {
        let name = try name(context)
        let library = try context.trips().library
        let settings = library.settings
        guard let format = API.format(of: request.headers[.contentType]) else {
            throw Problem(
                .unsupportedMediaType, .unsupportedMediaType,
                "send a trip as application/json or application/gpx+xml")
        }
        let ifMatch = request.headers[.ifMatch]
        let ifNoneMatch = request.headers[.ifNoneMatch]
        guard ifMatch != nil || ifNoneMatch?.trimmingCharacters(in: .whitespaces) == "*" else {
            throw Problem(
                .preconditionRequired, .preconditionRequired,
                "send If-Match with the trip's ETag to replace it, or If-None-Match: * to create it")
        }
        // A body declared past the limit is refused from the head, before a byte of it is read.
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > settings.maxInputBytes {
            throw tooLarge(settings)
        }
        let body: [UInt8]
        do {
            var request = request
            let buffer = try await request.collectBody(upTo: settings.maxInputBytes)
            body = Array(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw tooLarge(settings)
        } catch {
            // The client went away mid-body: nobody reads the answer, but the log says why.
            throw Problem(.badRequest, .incompleteBody, "the request's body ended before it was complete")
        }
        let file = TripFile(name: name, format: format)
        let result = library.job.run(bytes: body, name: file.fileName, today: settings.today())
        guard result.status == .valid else {
            throw Problem.invalidTrip(result.diagnostics, file: file.fileName)
        }
        return try await library.writing { () throws -> Response in
            // Both of a clash may be replaced at once: the precondition names either one.
            let existing = library.files(of: name).map(\.0)
            let tags = try currentTags(existing, library: library)
            if let refused = refusal(ifMatch: ifMatch, ifNoneMatch: ifNoneMatch, current: tags) { throw refused }
            try library.store.write(body, to: file)
            for old in existing where old != file {
                // The trip changed format, or had two files: the others go, so the name has one.
                try library.store.delete(old)
                library.forget(old)
            }
            library.forget(file)
            let etag = TripLibrary.entityTag(of: body)
            let answer = JSONOutput.object([
                ("name", .string(name.text)), ("file", .string(file.fileName)), ("etag", .string(etag)),
                ("warnings", .array(result.diagnostics.map { DiagnosticText.json($0, file: file.fileName) })),
            ])
            return Replies.json(answer, status: tags.isEmpty ? .created : .ok, extra: [(.eTag, etag)])
        }
    }

    /// `DELETE /api/v1/trips/NAME`: removes the trip, every file of the name.
    static func delete(_ request: Request, context: ServerContext) async throws -> Response {
        let name = try name(context)
        let library = try context.trips().library
        guard let ifMatch = request.headers[.ifMatch] else {
            throw Problem(
                .preconditionRequired, .preconditionRequired, "send If-Match with the trip's ETag to delete it")
        }
        // Evaluated for every method, as RFC 9110 §13.2.2 asks, though a delete needs only If-Match.
        let ifNoneMatch = request.headers[.ifNoneMatch]
        return try await library.writing { () throws -> Response in
            // A clash is deleted whole: the precondition names either file.
            let existing = library.files(of: name).map(\.0)
            let tags = try currentTags(existing, library: library)
            guard !tags.isEmpty else { throw Problem.notFound }
            if let refused = refusal(ifMatch: ifMatch, ifNoneMatch: ifNoneMatch, current: tags) { throw refused }
            for file in existing {
                try library.store.delete(file)
                library.forget(file)
            }
            return Response(status: .noContent)
        }
    }

    /// The entity tags of `files` as they are now, of those that are still there.
    static func currentTags(_ files: [TripFile], library: TripLibrary) throws(StoreFailure) -> [String] {
        var tags: [String] = []
        for file in files {
            if let tag = try currentTag(file, library: library) { tags.append(tag) }
        }
        return tags
    }

    /// The entity tag of `file`'s bytes as they are now, read again (under the lock).
    static func currentTag(_ file: TripFile, library: TripLibrary) throws(StoreFailure) -> String? {
        switch try library.store.read(file, limit: Int.max) {
        case nil: return nil
        case .tooLarge: return nil
        case .bytes(let bytes): return TripLibrary.entityTag(of: bytes)
        }
    }

    /// 412 when the precondition fails against the tags of the name's files, `current` (none:
    /// no file; two: a clash, either of which a precondition may name): `If-Match` compared
    /// strongly and `If-None-Match` weakly, as RFC 9110 §13.1.1 and §13.1.2 compare them.
    static func refusal(ifMatch: String?, ifNoneMatch: String?, current: [String]) -> Problem? {
        // The tag a refusal sends back, so a client can read again: the one file's.
        var fields: [(HTTPField.Name, String)] = []
        if current.count == 1 { fields = [(.eTag, current[0])] }
        if let ifMatch, !current.contains(where: { EntityTags.matches(ifMatch, $0) }) {
            return Problem(
                .preconditionFailed, .preconditionFailed,
                current.isEmpty ? "the trip does not exist" : "the trip has changed since that ETag", fields: fields)
        }
        if let ifNoneMatch, current.contains(where: { EntityTags.matches(ifNoneMatch, $0, weakly: true) }) {
            return Problem(.preconditionFailed, .preconditionFailed, "the trip exists already", fields: fields)
        }
        return nil
    }
}
