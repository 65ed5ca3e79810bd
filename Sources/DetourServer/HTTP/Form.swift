import Hummingbird
import NIOCore

/// An HTML form's fields (`application/x-www-form-urlencoded`), decoded by Hummingbird's
/// `URLEncodedFormDecoder`.
enum Form {
    /// The most bytes a form may have: enough for a password of 1,024 characters, each
    /// percent-encoded, and the other fields.
    static let limit = 64 << 10

    /// `body` decoded as `type`; 400 `bad-form` when it is no such form.
    static func decode<Fields: Decodable>(_ type: Fields.Type, from body: ByteBuffer) throws(Problem) -> Fields {
        do {
            return try URLEncodedFormDecoder().decode(type, from: String(buffer: body))
        } catch {
            throw Problem(.badRequest, .badForm, "the form's fields are not what this page sends")
        }
    }

    /// The request's form, read whole (at most ``limit`` bytes, else 413 ``Problem/bodyTooLarge``,
    /// from its declared length before a byte is read when it has one) and decoded as `type`.
    static func read<Fields: Decodable>(_ type: Fields.Type, from request: Request) async throws -> Fields {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw Problem.bodyTooLarge
        }
        var request = request
        let body = try await request.collectBody(upTo: limit)
        return try decode(type, from: body)
    }
}
