import Hummingbird
import NIOCore

/// What a request carries past the middleware: what it was granted, and the trips it works on.
///
/// Routes read both from here and from nothing else: no route reaches a global.
public struct ServerContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// What ``TokenMiddleware`` granted the request.
    public var access: Access = .everything
    /// The trips the request works on, set by ``WorkspaceMiddleware``.
    public var workspace: Workspace?
    /// Who the request comes from, on a server with accounts (``SessionMiddleware``).
    public var identity: Identity?
    /// The accounts, on a server with them.
    var accounts: AccountService?
    /// Where the trip's pages are: `/trips`, or `/shared/OWNER/trips` for a trip shared with the
    /// account (``ShareMiddleware``).
    var tripsBase = "/trips"
    /// The client's address, as the connection has it.
    public let remoteAddress: SocketAddress?
    /// Whether what let the request in still holds (its session, its token, the share it reads
    /// through), asked anew: a live-reload stream asks before each event it sends, so one opened
    /// before a session ended, a token was revoked or a trip was unshared ends then.
    var stillAllowed: @Sendable () async -> Bool = { true }

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The client's address as a trusted proxy forwarded it (``SessionMiddleware``), if it did.
    var forwardedFor: String?

    /// The client's address as text (no port), for the audit log and the login throttle: the one
    /// a trusted proxy forwarded, else the connection's.
    var client: String {
        if let forwardedFor { return forwardedFor }
        guard let address = remoteAddress?.ipAddress else { return "unknown" }
        return address
    }

    /// Who the request comes from; without a session or token, ``Problem/signInRequired`` (a page
    /// is sent to `/login`, the API answers 401).
    func requireIdentity() throws(Problem) -> Identity {
        guard let identity else { throw Problem.signInRequired }
        return identity
    }

    /// The request's workspace; without one, on a server with accounts the request must sign in
    /// (``Problem/signInRequired``), and on one without, there is no such page (404).
    func requireWorkspace() throws(Problem) -> Workspace {
        if let workspace { return workspace }
        if accounts != nil { throw Problem.signInRequired }
        throw Problem.notFound
    }
}

/// What a request may do, as its credentials say.
public enum Access: Sendable, Equatable {
    /// Read and write: no token is needed, or the request sent it as a bearer token.
    case everything
    /// Read only: the token came as a link's `token` parameter (`viaLink`) or as the cookie such a
    /// link sets. No link or cookie can make a write.
    case reads(viaLink: Bool)
}
