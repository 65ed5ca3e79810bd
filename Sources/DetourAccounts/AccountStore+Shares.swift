import DetourCore
import SQLKit

extension AccountStore: ShareRepository {
    /// Shares the owner's trip `trip` with `memberID` as `role` (or changes the role).
    public func share(ownerID: String, trip: String, memberID: String, role: ShareRole) async throws(AccountFailure) {
        let time = now()
        try await attempt {
            try await database.raw(
                """
                INSERT INTO shares (owner_id, trip, member_id, role, created_at) \
                VALUES (\(bind: ownerID), \(bind: trip), \(bind: memberID), \(bind: role.rawValue), \(bind: time)) \
                ON CONFLICT (owner_id, trip, member_id) DO UPDATE SET role = excluded.role
                """
            ).run()
        }
    }

    /// Stops sharing the trip with `memberID`; false when it was not shared with it.
    public func unshare(ownerID: String, trip: String, memberID: String) async throws(AccountFailure) -> Bool {
        try await attempt {
            try await !database.raw(
                """
                DELETE FROM shares WHERE owner_id = \(bind: ownerID) AND trip = \(bind: trip) \
                AND member_id = \(bind: memberID) RETURNING trip
                """
            ).all().isEmpty
        }
    }

    /// The members of the owner's trip, by address.
    public func members(ownerID: String, trip: String) async throws(AccountFailure) -> [Member] {
        try await attempt {
            try await database.raw(
                """
                SELECT accounts.email AS email, shares.role AS role FROM shares \
                JOIN accounts ON accounts.id = shares.member_id \
                WHERE shares.owner_id = \(bind: ownerID) AND shares.trip = \(bind: trip)
                """
            ).all().map { row in
                Member(email: try row.decode(column: "email", as: String.self), role: try AccountStore.role(row))
            }.sorted { AccountStore.key($0.email) < AccountStore.key($1.email) }
        }
    }

    /// What `memberID` may do with the owner's trip `trip`, or `nil` when it is not shared with it.
    public func role(ownerID: String, trip: String, memberID: String) async throws(AccountFailure) -> ShareRole? {
        try await attempt {
            try await database.raw(
                """
                SELECT role FROM shares WHERE owner_id = \(bind: ownerID) AND trip = \(bind: trip) \
                AND member_id = \(bind: memberID)
                """
            ).first().map(AccountStore.role)
        }
    }

    /// The trips shared with `memberID`, by owner and name.
    public func sharedTrips(memberID: String) async throws(AccountFailure) -> [SharedTrip] {
        try await attempt {
            try await database.raw(
                """
                SELECT shares.owner_id AS owner_id, accounts.email AS email, shares.trip AS trip, shares.role AS role \
                FROM shares JOIN accounts ON accounts.id = shares.owner_id \
                WHERE shares.member_id = \(bind: memberID)
                """
            ).all().map { row in
                SharedTrip(
                    ownerID: try row.decode(column: "owner_id", as: String.self),
                    ownerEmail: try row.decode(column: "email", as: String.self),
                    trip: try row.decode(column: "trip", as: String.self), role: try AccountStore.role(row))
            }.sorted { (AccountStore.key($0.ownerEmail), $0.trip) < (AccountStore.key($1.ownerEmail), $1.trip) }
        }
    }

    static func role(_ row: any SQLRow) throws -> ShareRole {
        let text = try row.decode(column: "role", as: String.self)
        guard let role = ShareRole(rawValue: text) else { throw AccountFailure.database("a share of role \(text)") }
        return role
    }
}
