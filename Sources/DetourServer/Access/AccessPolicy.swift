import DetourAccounts
import Hummingbird

/// Who a group of routes is for: each group of the route table (``Routes``) declares one.
enum Scope: Sendable, Equatable {
    /// Anyone: the diagnostics' pages.
    case `public`
    /// The forms that begin a session (log in, register): anyone but a token.
    case signingIn
    /// A browser's page that works with or without a session (log out): anyone but a token.
    case browser
    /// The account's own pages: a session, never a token.
    case account
    /// Trips: the request's own (`.own`; the folder's, on a server without accounts), or those
    /// of the account the route's `owner` names that it shares with the request's (`.shared`).
    case trips(Trips)

    enum Trips: Sendable, Equatable {
        case own, shared
    }
}

/// What a route does with what its group holds.
enum Right: Int, Sendable, Comparable {
    /// Reads it.
    case read
    /// Changes it: the owner, a write token, an editor of a shared trip.
    case write
    /// Changes it as only the trip's owner may: never through a share.
    case owner

    static func < (left: Right, right: Right) -> Bool { left.rawValue < right.rawValue }
}

/// A route's handler and what it needs: its ``Right``, and whether a feed token reads it.
struct Endpoint: Sendable {
    let right: Right
    let feed: Feed
    let handler: Handler

    /// Which reads a feed token makes: calendars only.
    enum Feed: Sendable {
        case never
        /// The route answers a calendar.
        case always
        /// The route's `name` asks for a calendar (`NAME.ics`).
        case whenCalendar
    }

    static func read(_ handler: @escaping Handler, feed: Feed = .never) -> Endpoint {
        Endpoint(right: .read, feed: feed, handler: handler)
    }

    static func write(_ handler: @escaping Handler) -> Endpoint {
        Endpoint(right: .write, feed: .never, handler: handler)
    }

    static func owner(_ handler: @escaping Handler) -> Endpoint {
        Endpoint(right: .owner, feed: .never, handler: handler)
    }
}

/// The one policy: whether a request's ``Principal`` may use a route of a ``Scope`` with an
/// ``Endpoint``'s needs, and on what.
///
/// In this order: a write from another site is refused (``OriginRule``, 403); a token only
/// reaches what its scope allows (403 `token-scope`); the account's pages and every route of
/// trips need an account (``Problem/signInRequired``); a route of trips gets its workspace, and
/// through a share only what the share's role allows (404 when there is no share, 403 beyond the
/// role); and a write signed in by the session cookie carries the session's form token
/// (``CSRFRule``). No handler decides any of this again.
struct AccessPolicy: Sendable {
    let origin: OriginRule
    let csrf: CSRFRule

    /// `request` and `context` as the route gets them, or the refusal.
    func decide(
        _ scope: Scope, _ endpoint: Endpoint, request: Request, context: ServerContext
    ) async throws -> (Request, ServerContext) {
        let writes = !request.method.isRead
        if writes, !origin.isFromOwnSite(request) { throw OriginRule.refused }
        let identity: Identity
        var mayWrite = true
        switch context.principal {
        case .folder(let access):
            // A server without accounts: what the token grants was decided by the authenticator,
            // and every route is the folder's. Without `--token`, everything is granted with no
            // credential at all, so a read is everyone's.
            var context = context
            context.sameForEveryone =
                access == .everything && endpoint.right == .read && request.headers[.authorization] == nil
            context.mayWrite = access == .everything
            return (request, context)
        case .anonymous:
            switch scope {
            case .public, .signingIn, .browser: return (request, context)
            case .account, .trips: throw Problem.signInRequired
            }
        case .token(let token):
            if let tokenScope = token.scope { try Self.tokenReaches(tokenScope, scope, endpoint, context: context) }
            identity = token
            mayWrite = token.scope == nil || token.scope == .write
        case .session(let session):
            identity = session
        }
        var context = context
        context.mayWrite = mayWrite
        if case .trips(let trips) = scope {
            context = try await grant(trips, endpoint.right, to: identity, context: context)
        }
        guard writes, scope != .signingIn, case .session(let session) = context.principal else {
            return (request, context)
        }
        return (try await csrf.check(request, identity: session), context)
    }

    /// Refuses (403) a request signed in by a token of `tokenScope` beyond what it allows: a token
    /// is for trips and never for the account's pages; a read token reads; a feed token reads
    /// calendars.
    static func tokenReaches(
        _ tokenScope: TokenScope, _ scope: Scope, _ endpoint: Endpoint, context: ServerContext
    ) throws(Problem) {
        let allowed: Bool
        switch (scope, tokenScope) {
        case (.signingIn, _), (.browser, _), (.account, _): allowed = false
        case (_, .read): allowed = endpoint.right == .read
        case (_, .feed): allowed = endpoint.right == .read && isCalendar(endpoint.feed, context: context)
        case (_, .write): allowed = true
        }
        guard allowed else {
            throw Problem(
                .forbidden, .tokenScope,
                "this token's scope (\(tokenScope.rawValue)) does not allow this request")
        }
    }

    static func isCalendar(_ feed: Endpoint.Feed, context: ServerContext) -> Bool {
        switch feed {
        case .never: return false
        case .always: return true
        case .whenCalendar:
            guard let segment = context.parameters.get("name") else { return false }
            return (try? Pages.nameAndFormat(segment))?.1 == .ics
        }
    }

    /// `context` with the trips a route of `trips` works on, for `identity` with `right`.
    func grant(
        _ trips: Scope.Trips, _ right: Right, to identity: Identity, context: ServerContext
    ) async throws -> ServerContext {
        var context = context
        guard let accounts = context.accounts else { throw Problem.serverFault }
        guard trips == .shared else {
            context.workspace = try accounts.workspace(for: identity.accountID)
            return context
        }
        let owner = try context.parameters.require("owner")
        let (name, _) = try Pages.nameAndFormat(try context.parameters.require("name"))
        let store = accounts.store
        let memberID = identity.accountID
        guard let role = try await store.role(ownerID: owner, trip: name.text, memberID: memberID) else {
            throw Problem.notFound
        }
        if right == .owner { throw Problem(.forbidden, .shareOwnerOnly, "only the trip's owner can do this") }
        if right == .write, role != .editor {
            throw Problem(
                .forbidden, .shareReadOnly, "this trip is shared with you to read; its owner can make you an editor")
        }
        let signedIn = context.stillAllowed
        context.stillAllowed = {
            guard await signedIn() else { return false }
            return (try? await store.role(ownerID: owner, trip: name.text, memberID: memberID)) != nil
        }
        context.workspace = try accounts.workspace(for: owner)
        context.mayWrite = context.mayWrite && role == .editor
        context.tripsBase = "/shared/\(owner)/trips"
        context.throughShare = true
        return context
    }
}
