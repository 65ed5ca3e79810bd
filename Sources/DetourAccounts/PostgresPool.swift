import Logging
import NIOCore
import NIOPosix
import PostgresKit
import PostgresNIO
import SQLKit
import Synchronization

/// PostgresNIO's connection pool as one SQLKit database: each statement leases a connection for
/// as long as it runs, and ``withSession(_:)`` keeps one for a transaction.
///
/// PostgresKit puts SQLKit over one connection; the store's statements come from many requests at
/// once, so they share a pool instead.
struct PostgresPool: SQLDatabase {
    let client: PostgresClient
    let logger: Logger
    /// How long a statement may wait for a connection and run, as SQLite waits for a lock: the
    /// pool waits for a server that is down as long as it takes, and a request must not.
    var deadline: Duration = .seconds(10)

    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }

    var dialect: any SQLDialect { PostgresDialect() }

    /// Statements are not logged: their binds hold digests and addresses.
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void)
        -> EventLoopFuture<Void>
    {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await bounded {
            try await client.withConnection { connection in
                try await connection.sql(queryLogLevel: nil).execute(sql: query, onRow)
            }
        }
    }

    /// A session on one connection, for as long as `closure` runs (a transaction); not bounded
    /// by the deadline, since a transaction may wait on locks for as long as it must.
    func withSession<Result>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws
        -> Result
    {
        try await client.withConnection { connection in
            try await closure(connection.sql(queryLogLevel: nil))
        }
    }

    /// Runs `body`, and answers when it ends or at the deadline, whichever comes first: at the
    /// deadline with ``AccountFailure/database(_:)``, while `body` (which PostgresKit does not let
    /// cancel) goes on alone until the server answers or the connection fails.
    private func bounded(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let deadline = deadline
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let waiter = Waiter(continuation)
            let timer = Task {
                try? await Task.sleep(for: deadline)
                guard !Task.isCancelled else { return }
                waiter.resume(.failure(AccountFailure.database("PostgreSQL did not answer within \(deadline)")))
            }
            Task {
                do {
                    try await body()
                    waiter.resume(.success(()))
                } catch {
                    waiter.resume(.failure(error))
                }
                timer.cancel()
            }
        }
    }
}

/// A request waiting for a statement, resumed once: by the statement or by the deadline.
private final class Waiter: Sendable {
    private let continuation: Mutex<CheckedContinuation<Void, any Error>?>

    init(_ continuation: CheckedContinuation<Void, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func resume(_ result: Result<Void, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}

extension PostgresClient.Configuration {
    /// The pool's settings for the server `connection` names.
    init(_ connection: PostgresConnection.Configuration) throws(AccountFailure) {
        let tls: PostgresClient.Configuration.TLS
        if let context = connection.tls.sslContext {
            // SQLPostgresConfiguration verifies the server's certificate in both modes.
            tls = connection.tls.isEnforced ? .require(context.configuration) : .prefer(context.configuration)
        } else {
            tls = .disable
        }
        if let host = connection.host, let port = connection.port {
            self.init(
                host: host, port: port, username: connection.username, password: connection.password,
                database: connection.database, tls: tls)
        } else if let socket = connection.unixSocketPath {
            self.init(
                unixSocketPath: socket, username: connection.username, password: connection.password,
                database: connection.database)
        } else {
            throw .database("the PostgreSQL address names neither a host nor a socket")
        }
    }
}
