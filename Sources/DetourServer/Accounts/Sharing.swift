import DetourAccounts
import DetourCore
import DetourRender
import Foundation
import HTTPTypes
import Hummingbird

/// Sharing a trip, by its owner: the members API (`/api/v1/trips/NAME/members`) and the form on
/// the trip's preview.
struct Sharing {
    let accounts: AccountService

    var store: any AccountRepositories { accounts.store }

    /// The owner's trip the route names, which must exist; and the owner.
    func ownTrip(_ context: ServerContext) async throws -> (TripName, Identity) {
        let identity = try context.account()
        let name = try API.name(context)
        _ = try await context.trips().current(name)
        return (name, identity)
    }

    /// `GET /api/v1/trips/NAME/members`: who the trip is shared with.
    func list(_ request: Request, context: ServerContext) async throws -> Response {
        let (name, identity) = try await ownTrip(context)
        let members = try await store.members(ownerID: identity.accountID, trip: name.text)
        let body = JSONOutput.object([
            (
                "members",
                .array(members.map { .object([("email", .string($0.email)), ("role", .string($0.role.rawValue))]) })
            )
        ])
        return Replies.json(body, request: request)
    }

    struct RoleBody: Decodable {
        let role: String
    }

    /// `PUT /api/v1/trips/NAME/members/EMAIL` with `{"role": "viewer"}` or `"editor"`.
    func put(_ request: Request, context: ServerContext) async throws -> Response {
        let (name, identity) = try await ownTrip(context)
        var request = request
        let body = try await request.collectBody(upTo: Form.limit)
        guard let decoded = try? JSONDecoder().decode(RoleBody.self, from: Data(buffer: body)),
            let role = ShareRole(rawValue: decoded.role)
        else {
            throw Problem(.unprocessableContent, .badRole, "send {\"role\": \"viewer\"} or {\"role\": \"editor\"}")
        }
        let email = try memberAddress(context)
        try await share(name, with: email, as: role, by: identity, client: context.client)
        let answer = JSONOutput.object([("email", .string(email)), ("role", .string(role.rawValue))])
        return Replies.json(answer, request: request)
    }

    /// `DELETE /api/v1/trips/NAME/members/EMAIL`.
    func delete(_ request: Request, context: ServerContext) async throws -> Response {
        let (name, identity) = try await ownTrip(context)
        let email = try memberAddress(context)
        guard try await unshare(name, with: email, by: identity, client: context.client) else {
            throw Problem(.notFound, .notAMember, "the trip is not shared with \(email)")
        }
        return Response(status: .noContent)
    }

    /// The member's address in the route, percent-decoded.
    func memberAddress(_ context: ServerContext) throws -> String {
        let segment = try context.parameters.require("email")
        guard let email = TripName.percentDecoded(Substring(segment)) else {
            throw Problem(.unprocessableContent, .invalidEmail, AccountAddress.rule)
        }
        return try Self.address(email)
    }

    /// `text` as an account's address (normalized); 422 `invalid-email` with the rule it breaks.
    static func address(_ text: String) throws(Problem) -> String {
        if let problem = AccountAddress.problem(text) { throw Problem(.unprocessableContent, .invalidEmail, problem) }
        return AccountAddress.normalized(text)
    }

    /// Shares the owner's trip with the account of `email`.
    func share(_ name: TripName, with email: String, as role: ShareRole, by owner: Identity, client: String)
        async throws
    {
        guard let member = try await store.account(email: email) else {
            throw Problem(.unprocessableContent, .unknownAccount, "no account has the address \(email)")
        }
        guard member.id != owner.accountID else {
            throw Problem(.unprocessableContent, .ownTrip, "the trip is yours already")
        }
        try await store.share(ownerID: owner.accountID, trip: name.text, memberID: member.id, role: role)
        try await store.record(
            "trip-shared", email: owner.email, client: client,
            detail: "\(name.text) with \(member.email) as \(role.rawValue)")
    }

    /// Stops sharing the owner's trip with the account of `email`; false when it was not shared.
    func unshare(_ name: TripName, with email: String, by owner: Identity, client: String) async throws -> Bool {
        guard let member = try await store.account(email: email),
            try await store.unshare(ownerID: owner.accountID, trip: name.text, memberID: member.id)
        else { return false }
        try await store.record(
            "trip-unshared", email: owner.email, client: client, detail: "\(name.text) with \(member.email)")
        return true
    }

    struct ShareFields: Decodable {
        var email: String?
        var role: String?
        var remove: String?
    }

    /// `POST /trips/NAME/members`, the preview's form: shares the trip (`email`, `role`), or stops
    /// sharing it with `remove`; then back to the preview.
    ///
    /// A browser sent the form, so a refusal comes back as the preview with the message next to
    /// the address (422), the address as it was typed: never as the API's JSON.
    func form(_ request: Request, context: ServerContext) async throws -> Response {
        let (name, identity) = try await ownTrip(context)
        let fields = try await Form.read(ShareFields.self, from: request)
        if let remove = fields.remove {
            _ = try await unshare(name, with: remove, by: identity, client: context.client)
            return AccountPages.redirect("/trips/\(name.text)")
        }
        do {
            let email = try Self.address(fields.email ?? "")
            guard let role = fields.role.flatMap(ShareRole.init(rawValue:)) else {
                throw Problem(.unprocessableContent, .badRole, "choose viewer or editor")
            }
            try await share(name, with: email, as: role, by: identity, client: context.client)
        } catch let error as Problem {
            let panel = try await SharePanel.model(
                name, context: context, refused: (typed: fields.email ?? "", message: error.message))
            var page = try await Pages.preview(
                name, request: request, workspace: try context.trips(), identity: context.identity,
                base: context.tripsBase, panel: panel)
            page.status = error.status
            return page
        }
        return AccountPages.redirect("/trips/\(name.text)")
    }
}

/// What a preview and the index show of sharing.
enum SharePanel {
    /// The share panel of the owner's own preview, signed in by a session; `nil` anywhere else.
    ///
    /// It lists the trip's members, each with a button that stops sharing, and has a form to share
    /// it.
    ///
    /// A share the owner asked for and the server `refused` shows the address as it was typed and
    /// the reason next to it.
    static func model(
        _ name: TripName, context: ServerContext, refused: (typed: String, message: String)? = nil
    ) async throws -> SharePanelModel? {
        guard let accounts = context.accounts, case .session(let identity) = context.principal, !context.throughShare
        else { return nil }
        let members = try await accounts.store.members(ownerID: identity.accountID, trip: name.text)
        var panel = SharePanelModel(
            action: "/trips/\(name.text)/members",
            members: members.map { ShareMemberModel(email: $0.email, role: $0.role.rawValue) },
            formField: CSRFRule.formField, formToken: identity.formToken)
        if let refused { (panel.typed, panel.problem) = refused }
        return panel
    }

    /// On the index: the trips shared with the account, each marked with its owner and role.
    static func sharedWithYou(_ context: ServerContext) async throws -> [SharedTripModel] {
        guard let accounts = context.accounts, let identity = context.identity else { return [] }
        return try await accounts.store.sharedTrips(memberID: identity.accountID).map { trip in
            SharedTripModel(
                href: "/shared/\(trip.ownerID)/trips/\(trip.trip)", name: trip.trip, owner: trip.ownerEmail,
                role: trip.role.rawValue)
        }
    }
}
