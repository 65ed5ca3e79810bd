import DetourAccounts
import Testing

@testable import DetourServer

/// What requests at once do to the accounts: on PostgreSQL, each on a connection of the pool.
@Suite struct ConcurrentLoginTests: SiteDriving {
    /// Failed logins that race are each counted: the throttle reads nothing before it writes, so
    /// two requests on two connections cannot both count one.
    @Test(arguments: AccountSite.Backing.all) func twoFailedLoginsAtOnceCountTwo(_ database: AccountSite.Backing)
        async throws
    {
        try await AccountSite.with(database: database) { site in
            _ = try #require(try await site.register("ana@example.org"))
            async let one = site.login("ana@example.org", password: "wrong password one")
            async let two = site.login("ana@example.org", password: "wrong password two")
            let statuses = try await [one.status, two.status]
            #expect(statuses == [.unauthorized, .unauthorized])
            let key = AccountPages.throttleKeys(email: "ana@example.org", client: "unknown")[0]
            #expect(try await site.store.failures(key: key).count == 2)
        }
    }
}
