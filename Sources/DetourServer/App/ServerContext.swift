import DetourAccounts
import Hummingbird
import NIOCore

/// What a request carries past the middleware: who it comes from, and what the policy granted it.
///
/// Routes read both from here and from nothing else: no route reaches a global, and none decides
/// who may use it (``AccessPolicy`` has).
public struct ServerContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Who the request comes from, as ``Authenticator`` found.
    public var principal: Principal = .anonymous
    /// The trips the request works on, as ``AccessPolicy`` granted them to a route of trips.
    public var workspace: Workspace?
    /// The accounts, on a server with them.
    var accounts: AccountService?
    /// Where the trip's pages are: `/trips`, or `/shared/OWNER/trips` for a trip shared with the
    /// account (``AccessPolicy``).
    var tripsBase = "/trips"
    /// Whether the trips are another account's, shared with the request's (``AccessPolicy``).
    var throughShare = false
    /// Whether the request's principal may change the trips it reads, as the policy would decide
    /// a write (``AccessPolicy``): pages show their forms only then.
    var mayWrite = true
    /// Whether this read's answer is the same for every request that carries no credential.
    ///
    /// So it is for a read of the folder on a server without accounts and without `--token`
    /// (``AccessPolicy``); a format of a trip is then kept to be repeated (``ResponseReplay``).
    var sameForEveryone = false
    /// The client's address, as the connection has it.
    public let remoteAddress: SocketAddress?
    /// Done when the request's connection has closed: a live-reload stream ends then, as its
    /// client has gone.
    let connectionClosed: EventLoopFuture<Void>
    /// Whether what let the request in still holds (its session, its token, the share it reads
    /// through), asked anew: a live-reload stream asks before each event it sends, so one opened
    /// before a session ended, a token was revoked or a trip was unshared ends then.
    var stillAllowed: @Sendable () async -> Bool = { true }

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
        connectionClosed = source.channel.closeFuture
    }

    /// The client's address as a trusted proxy forwarded it (``Authenticator``), if it did.
    var forwardedFor: String?

    /// The client's address as text (no port), for the audit log and the login throttle: the one
    /// a trusted proxy forwarded, else the connection's.
    var client: String {
        if let forwardedFor { return forwardedFor }
        guard let address = remoteAddress?.ipAddress else { return "unknown" }
        return address
    }

    /// The account the request comes from, by session or token; `nil` for anyone else.
    public var identity: Identity? { principal.identity }

    /// The account of a route the policy lets only an account use (``Scope/account`` and the
    /// routes of trips on a server with accounts).
    ///
    /// The policy has made sure there is one; a route that asks without it is the server's fault.
    func account() throws(Problem) -> Identity {
        guard let identity else { throw Problem.serverFault }
        return identity
    }

    /// The trips of a route of trips, as the policy granted them.
    ///
    /// The policy has made sure there are some; a route that asks without it is the server's fault.
    func trips() throws(Problem) -> Workspace {
        guard let workspace else { throw Problem.serverFault }
        return workspace
    }
}

/// Who a request comes from, as ``Authenticator`` found from its credentials.
public enum Principal: Sendable {
    /// On a server with accounts: no one signed in.
    case anonymous
    /// On a server without accounts: the folder's user, with what its credentials grant.
    case folder(Access)
    /// An account, by its session cookie.
    case session(Identity)
    /// An account, by one of its API tokens (its scope is the identity's).
    case token(Identity)

    /// The account, for a session or a token.
    public var identity: Identity? {
        switch self {
        case .anonymous, .folder: return nil
        case .session(let identity), .token(let identity): return identity
        }
    }
}

/// What a request to a server without accounts may do, as its credentials say.
public enum Access: Sendable, Equatable {
    /// Read and write: no token is needed, or the request sent it as a bearer token.
    case everything
    /// Read only: the server's token came as a link's `token` parameter (`viaLink`) or as the
    /// cookie such a link sets. No link or cookie can make a write.
    case reads(viaLink: Bool)
}
