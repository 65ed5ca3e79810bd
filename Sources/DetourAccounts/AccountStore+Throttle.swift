import DetourCore
import SQLKit

extension AccountStore: ThrottleRepository {
    /// A failed login counted against a key, as the table `login_failures` has it.
    struct FailureRow: Codable {
        let key: String
        let at: Int64
    }

    /// Counts a failed login against each of `keys`, and forgets failures older than the
    /// throttle's window.
    ///
    /// Nothing is read: failures that race are each a row of their own, so two at once count two.
    public func recordFailure(keys: [String]) async throws(AccountFailure) {
        let time = now()
        try await attempt {
            try await database.delete(from: "login_failures")
                .where("at", .lessThanOrEqual, time - LoginThrottle.window).run()
            guard !keys.isEmpty else { return }
            try await database.insert(into: "login_failures").models(keys.map { FailureRow(key: $0, at: time) }).run()
        }
    }

    /// The times of the failures counted against `key` within the throttle's window.
    public func failures(key: String) async throws(AccountFailure) -> [Int64] {
        let time = now()
        return try await attempt {
            try await database.select().columns("key", "at").from("login_failures").where("key", .equal, key)
                .where("at", .greaterThan, time - LoginThrottle.window).orderBy("at")
                .all(decoding: FailureRow.self).map(\.at)
        }
    }

    /// Forgets the failures counted against `key` (after a login that succeeded).
    public func clearFailures(key: String) async throws(AccountFailure) {
        try await attempt {
            try await database.delete(from: "login_failures").where("key", .equal, key).run()
        }
    }
}
