import DetourCore
import SQLKit

extension AccountStore: ShareRepository {
    /// Shares the owner's trip `trip` with `memberID` as `role` (or changes the role).
    public func share(ownerID: String, trip: String, memberID: String, role: ShareRole) async throws(AccountFailure) {
        let time = now()
        let row = ShareRow(ownerId: ownerID, trip: trip, memberId: memberID, role: role, createdAt: time)
        try await attempt {
            try await database.insert(into: "shares").model(row, with: AccountStore.columns)
                .onConflict(with: ["owner_id", "trip", "member_id"]) { $0.set(excludedValueOf: "role") }.run()
        }
    }

    /// Stops sharing the trip with `memberID`; false when it was not shared with it.
    public func unshare(ownerID: String, trip: String, memberID: String) async throws(AccountFailure) -> Bool {
        try await attempt {
            try await !database.delete(from: "shares").where("owner_id", .equal, ownerID).where("trip", .equal, trip)
                .where("member_id", .equal, memberID).returning("trip").all().isEmpty
        }
    }

    /// The members of the owner's trip, by address.
    public func members(ownerID: String, trip: String) async throws(AccountFailure) -> [Member] {
        try await attempt {
            try await sharesWithAccounts(joinedBy: "member_id").where(
                SQLColumn("owner_id", table: "shares"), .equal, SQLBind(ownerID)
            )
            .where(SQLColumn("trip", table: "shares"), .equal, SQLBind(trip))
            .all(decoding: Member.self, with: AccountStore.rows).sorted {
                AccountStore.key($0.email) < AccountStore.key($1.email)
            }
        }
    }

    /// What `memberID` may do with the owner's trip `trip`, or `nil` when it is not shared with it.
    public func role(ownerID: String, trip: String, memberID: String) async throws(AccountFailure) -> ShareRole? {
        try await attempt {
            try await database.select().column("role").from("shares").where("owner_id", .equal, ownerID)
                .where("trip", .equal, trip).where("member_id", .equal, memberID)
                .first(decodingColumn: "role", as: ShareRole.self)
        }
    }

    /// The trips shared with `memberID`, by owner and name.
    public func sharedTrips(memberID: String) async throws(AccountFailure) -> [SharedTrip] {
        try await attempt {
            try await sharesWithAccounts(joinedBy: "owner_id")
                .where(SQLColumn("member_id", table: "shares"), .equal, SQLBind(memberID))
                .all(decoding: SharedTrip.self, with: AccountStore.rows).sorted {
                    (AccountStore.key($0.ownerEmail), $0.trip) < (AccountStore.key($1.ownerEmail), $1.trip)
                }
        }
    }

    /// A share's owner, trip and role with the address of the account whose id is the share's
    /// `column` (the member, or the owner).
    private func sharesWithAccounts(joinedBy column: String) -> SQLSelectBuilder {
        database.select()
            .column(SQLColumn("owner_id", table: "shares"), as: "owner_id")
            .column(SQLColumn("email", table: "accounts"), as: "email")
            .column(SQLColumn("trip", table: "shares"), as: "trip")
            .column(SQLColumn("role", table: "shares"), as: "role")
            .from("shares")
            .join("accounts", on: SQLColumn("id", table: "accounts"), .equal, SQLColumn(column, table: "shares"))
    }
}
