import DetourCore
import DetourIO
import DetourJob
import DetourRender
import Foundation
import HTTPTypes
import Hummingbird

/// The server's responses, built one way: media types, entity tags and 304s.
///
/// Refusals are ``Problem``s.
enum Replies {
    enum MediaType {
        case html
        case json
        case text
        case other(String)

        var text: String {
            switch self {
            case .html: return "text/html; charset=utf-8"
            case .json: return "application/json"
            case .text: return "text/plain; charset=utf-8"
            case .other(let type): return type
            }
        }
    }

    /// A page of the server's own, from its template; never cached: it may hold a form token.
    static func page(
        _ model: ServerPageModel, status: HTTPResponse.Status, extra: [(HTTPField.Name, String)] = []
    ) -> Response {
        bytes(ServerPages.page(model), type: .html, status: status, extra: extra + [(.cacheControl, "no-store")])
    }

    /// `value` as one line of JSON and a newline, as every JSON answer of the server is written.
    static func json(
        _ value: JSONOutput, status: HTTPResponse.Status = .ok, request: Request? = nil,
        extra: [(HTTPField.Name, String)] = []
    ) -> Response {
        bytes(Array((value.serializedLine() + "\n").utf8), type: .json, status: status, request: request, extra: extra)
    }

    static func bytes(
        _ bytes: [UInt8], type: MediaType, status: HTTPResponse.Status = .ok, request: Request? = nil,
        extra: [(HTTPField.Name, String)] = []
    ) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type.text
        headers[.xContentTypeOptions] = "nosniff"
        for (name, value) in extra { headers[name] = value }
        let buffer = ByteBuffer(bytes: bytes)
        if request?.method == .head {
            headers[.contentLength] = String(bytes.count)
            return Response(status: status, headers: headers, body: ResponseBody())
        }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: buffer))
    }

    /// `bytes` with a strong entity tag, or 304 when the request's `If-None-Match` has it.
    static func tagged(
        _ bytes: [UInt8], etag: String, type: MediaType, request: Request, extra: [(HTTPField.Name, String)] = []
    ) -> Response {
        let headers = extra + [(.eTag, etag)]
        if let match = request.headers[.ifNoneMatch], EntityTags.matches(match, etag, weakly: true) {
            var fields = HTTPFields()
            for (name, value) in headers { fields[name] = value }
            return Response(status: .notModified, headers: fields, body: ResponseBody())
        }
        return Replies.bytes(bytes, type: type, request: request, extra: headers)
    }
}

/// `If-Match` and `If-None-Match` lists (RFC 9110 §13.1).
///
/// A list is `*`, or entity tags separated by commas. `If-Match` compares strongly (a weak tag `W/"…"` never matches); a GET's
/// `If-None-Match` weakly (a proxy that compresses a response marks its tag weak, and the client
/// sends that back).
enum EntityTags {
    static func matches(_ header: String, _ etag: String, weakly: Bool = false) -> Bool {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        if trimmed == "*" { return true }
        return trimmed.split(separator: ",").contains {
            let tag = $0.trimmingCharacters(in: .whitespaces)
            return tag == etag || (weakly && tag.hasPrefix("W/") && tag.dropFirst(2) == etag)
        }
    }
}

extension TripFormat {
    /// The media type of a trip file in this format.
    var mediaType: Replies.MediaType {
        switch self {
        case .json: return .json
        case .gpx: return .other("application/gpx+xml")
        }
    }
}

extension OutputFormat {
    /// The media type the server sends the format with.
    var mediaType: Replies.MediaType {
        switch self {
        case .html: return .html
        case .markdown: return .other("text/markdown; charset=utf-8")
        case .json: return .json
        case .ics: return .other("text/calendar; charset=utf-8")
        case .geojson: return .other("application/geo+json")
        case .gpx: return .other("application/gpx+xml")
        case .pdf: return .other("application/pdf")
        }
    }
}

/// The cookies a request carries.
enum Cookies {
    /// The value of the cookie `name` among the request's `Cookie` fields, or `nil`.
    ///
    /// Read on the bytes, without Foundation: every request of a server with accounts reads its
    /// session cookie, and splitting and trimming Strings cost it a fifth of its throughput.
    static func value(_ name: String, in headers: HTTPFields) -> String? {
        let wanted = Array(name.utf8) + [UInt8(ascii: "=")]
        for field in headers[values: .cookie] {
            for pair in field.utf8.split(separator: UInt8(ascii: ";")) {
                let trimmed = pair.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                guard trimmed.starts(with: wanted) else { continue }
                var value = trimmed.dropFirst(wanted.count).drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                while let last = value.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
                    value = value.dropLast()
                }
                return String(decoding: value, as: UTF8.self)
            }
        }
        return nil
    }
}

/// A `Set-Cookie` field's value (RFC 6265 §4.1), its attributes always in one order.
///
/// Hummingbird's `Cookie` keeps its attributes in a dictionary, so their order changes from one
/// process to the next; the server's answers are the same bytes every run, so it writes its
/// cookies through this instead.
struct SetCookie: CustomStringConvertible {
    enum SameSite: String {
        case strict = "Strict"
        case lax = "Lax"
    }

    let name: String
    let value: String
    var sameSite: SameSite
    /// `Secure`: sent over HTTPS only.
    var secure = false
    /// `Max-Age=0`: the browser forgets the cookie at once.
    var expired = false

    /// `NAME=VALUE; Path=/; HttpOnly; SameSite=…`, then `Max-Age=0` and `Secure` when set.
    var description: String {
        "\(name)=\(value); Path=/; HttpOnly; SameSite=\(sameSite.rawValue)\(expired ? "; Max-Age=0" : "")"
            + (secure ? "; Secure" : "")
    }
}
