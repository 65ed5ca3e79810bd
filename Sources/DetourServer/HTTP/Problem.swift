import DetourCore
import DetourIO
import DetourJob
import DetourRender
import HTTPTypes
import Hummingbird

/// Why a request is refused: thrown by a route or a middleware, and answered in one place
/// (``ProblemMiddleware``) as one JSON object, `{"error": {"code": …, "message": …}}`, that never
/// names a path outside the folder.
///
/// `code` is stable and one of ``ProblemCode``'s, which `docs/openapi.yaml` lists; clients
/// branch on it.
public struct Problem: HTTPResponseError {
    public let status: HTTPResponse.Status
    public let code: ProblemCode
    public let message: String
    /// The fields the answer carries: `Allow` for a 405, the entity tag a client needs to read
    /// again for a 412, the scheme to authenticate with for a 401.
    var fields: [(HTTPField.Name, String)]
    /// What else the body carries: an invalid trip's diagnostics.
    var more: [(String, JSONOutput)] = []

    init(
        _ status: HTTPResponse.Status, _ code: ProblemCode, _ message: String, fields: [(HTTPField.Name, String)] = [],
        more: [(String, JSONOutput)] = []
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields
        self.more = more
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response
    }

    /// The answer: the JSON body, and the fields the problem carries.
    var response: Response {
        Replies.bytes(Self.body(code: code, message: message, more: more), type: .json, status: status, extra: fields)
    }

    /// The answer to a browser: a page with the status's reason, the message and the code, and
    /// the same fields, with the account bar of `identity` when the request was signed in; never
    /// cached, as the JSON answer is not.
    func page(shownTo identity: Identity?) -> Response {
        var model = ServerPageModel(title: status.reasonPhrase, hasBack: true)
        model.chrome = ChromeModel(bar: Chrome.bar(identity))
        model.error = ErrorPageModel(heading: status.reasonPhrase, message: message, code: code.rawValue)
        return Replies.page(model, status: status, extra: fields)
    }

    /// The JSON body of a problem: `{"error": {"code": …, "message": …}}` and what else it carries.
    static func body(code: ProblemCode, message: String, more: [(String, JSONOutput)] = []) -> [UInt8] {
        let body = JSONOutput.object(
            [("error", .object([("code", .string(code.rawValue)), ("message", .string(message))]))] + more)
        return Array((body.serializedLine() + "\n").utf8)
    }

    static let notFound = Problem(.notFound, .notFound, "no such trip or page")

    static let serverFault = Problem(.internalServerError, .serverFault, "the server failed to answer")

    /// A body past what the route takes: a form's limit (`Form.limit`), or the server's input limit.
    static let bodyTooLarge = Problem(
        .contentTooLarge, .bodyTooLarge, "the request's body is larger than this address takes")

    /// A route of trips asked without a session, on a server with accounts: the API answers 401;
    /// a page is sent to `/login` instead (``ProblemMiddleware``), as the original app opened on
    /// its login screen.
    static let signInRequired = Problem(
        .unauthorized, .signInRequired, "sign in, or send an API token",
        fields: [(.wwwAuthenticate, "Bearer realm=\"detour-report\"")])

    static let badName = Problem(
        .badRequest, .badName,
        "a trip's name is letters, digits, '.', '_' and '-', does not start with '.', and does not end in "
            + "the extension of a format served (\(TripName.servedExtensions.joined(separator: ", ")))")

    static func clash(_ name: TripName) -> Problem {
        Problem(.conflict, .nameClash, "both \(name.text).json and \(name.text).gpx exist; remove one")
    }

    static let tooLargeFile = Problem(
        .contentTooLarge, .fileTooLarge, "the trip file is larger than the server's input limit")

    static func invalidTrip(_ diagnostics: [Diagnostic], file: String) -> Problem {
        Problem(
            .unprocessableContent, .invalidTrip, "the trip has errors; it has no reports",
            more: [("diagnostics", .array(diagnostics.map { DiagnosticText.json($0, file: file) }))])
    }

    static func methodNotAllowed(_ allowed: [HTTPRequest.Method]) -> Problem {
        Problem(
            .methodNotAllowed, .methodNotAllowed, "this method is not allowed here",
            fields: [(.allow, allowed.map(\.rawValue).joined(separator: ", "))])
    }

    /// An output that could not be made: no browser to print a PDF (503, with the install hint),
    /// or one that failed to print it (502: the browser is the server's upstream).
    static func unmade(_ failure: Delivery.Failure) -> Problem {
        switch failure {
        case .unprintable(.noBrowser(let reason)):
            return Problem(.serviceUnavailable, .noBrowser, reason)
        case .unprintable(.failed(let reason)):
            return Problem(.badGateway, .printFailed, "the browser could not print the report: \(reason)")
        case .cannotCreate(let error), .cutOff(let error, _):
            return Problem(.internalServerError, .renderFailed, "the output could not be made: \(error.reason)")
        }
    }

    /// A method no route of the server knows (RFC 9110 §15.6.2).
    static let methodNotImplemented = Problem(
        .notImplemented, .methodNotImplemented, "the server knows no such method")

    /// What the store's failure means to a client: a full disk, or a folder that cannot be used.
    init(_ failure: StoreFailure) {
        switch failure {
        case .full:
            self.init(
                HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), .diskFull,
                "the disk is full; nothing was changed")
        case .failed(let reason):
            self.init(.internalServerError, .storeFailed, "the trip folder cannot be used: \(reason)")
        }
    }
}
