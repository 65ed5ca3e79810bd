import DetourAccounts
import DetourTestSupport
import Foundation
import Testing

@testable import DetourServer

/// Resources belong to the server, state to an account: every account's workspace renders on
/// the server's one pool, keeps its outputs in the server's one cache, and is watched by its one
/// watcher; past the server's capacity the workspace used longest ago is closed.
@Suite struct ServerResourcesTests: SiteDriving {
    @Test(arguments: AccountSite.Backing.all) func everyAccountWorksOnTheServersOneSetOfResources(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database) { site in
            for index in 0..<6 {
                let cookie = try #require(try await site.register("user\(index)@example.org"))
                #expect(try await site.send(.get, "/", cookie: cookie).status == .ok)
            }
            let open = site.service.openWorkspaces
            #expect(open.count == 6)
            let resources = site.service.resources
            for workspace in open {
                #expect(workspace.library.pool === resources.pool)
                #expect(workspace.library.outputs === resources.outputs)
                #expect(workspace.reload.streams === resources.streams)
            }
            #expect(resources.watcher.count == 6, "one watcher for every folder")
        }
    }

    /// Two accounts' trips of one name are two outputs in the one cache, never one.
    @Test(arguments: AccountSite.Backing.all) func twoAccountsTripsOfOneNameAreKeptApart(
        _ database: AccountSite.Backing
    )
        async throws
    {
        try await AccountSite.with(database: database) { site in
            var pages: [String] = []
            for (email, sample) in [
                ("ana@example.org", "nordic-budget.json"), ("bo@example.org", "fiji-date-line.json"),
            ] {
                let cookie = try #require(try await site.register(email))
                let folder = try await site.tripsFolder(email)
                try Data(try Fixtures.sample(sample)).write(to: folder.appendingPathComponent("trip.json"))
                pages.append(body(try await site.send(.get, "/trips/trip.md", cookie: cookie)))
            }
            #expect(pages[0] != pages[1])
            #expect(pages[0].contains("Stockholm"))
            #expect(pages[1].contains("Fiji") || pages[1].contains("Suva"))
        }
    }

    /// Past its capacity, the server closes the workspace used longest ago (its watch removed),
    /// never one a preview listens to, and opens it again at its next request.
    @Test(arguments: AccountSite.Backing.all) func pastItsCapacityTheWorkspaceUsedLongestAgoIsClosed(
        _ database: AccountSite.Backing
    ) async throws {
        try await AccountSite.with(database: database, capacity: 3) { site in
            var cookies: [String] = []
            for index in 0..<3 {
                cookies.append(try #require(try await site.register("user\(index)@example.org")))
            }
            // A preview open on user0's workspace keeps it open.
            let user0 = try #require(try await site.store.account(email: "user0@example.org"))
            let listened = try site.service.workspace(for: user0.id)
            let name = try #require(TripName(decoded: "x"))
            let stream = try #require(listened.reload.listen(to: name, current: "missing"))
            for index in 3..<6 {
                cookies.append(try #require(try await site.register("user\(index)@example.org")))
            }
            let open = Set(site.service.openWorkspaces.map(\.library.space))
            #expect(open.count == 3)
            #expect(open.contains(user0.id), "a workspace listened to stays open")
            #expect(site.service.resources.watcher.count == 3)
            // user1's workspace was closed; its next request opens it again.
            let user1 = try #require(try await site.store.account(email: "user1@example.org"))
            #expect(!open.contains(user1.id))
            #expect(try await site.send(.get, "/", cookie: cookies[1]).status == .ok)
            #expect(Set(site.service.openWorkspaces.map(\.library.space)).contains(user1.id))
            #expect(site.service.openWorkspaces.count == 3)
            _ = stream
        }
    }
}
