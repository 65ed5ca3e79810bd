import DetourTestSupport
import Foundation
import Testing

/// One client cannot take the server from others, on the real binary.
///
/// Each address has its share of the connections, and near the server's cap the connections that wait for a request are
/// closed so that a new client is let in. The clients are loopback addresses of their own
/// (127.0.0.2, …), as the server tells clients apart by address.
@Suite(.serialized) struct ServeFairnessTests {
    /// A TCP connection to the server from a loopback address of its own.
    final class Connection {
        let socket: Int32

        init(from source: String, to port: Int) throws {
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { throw ServerError("no socket") }
            var local = Connection.address(source, port: 0)
            var remote = Connection.address("127.0.0.1", port: port)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            let connected = withUnsafePointer(to: &remote) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0, connected == 0 else {
                Glibc.close(socket)
                throw ServerError("cannot connect from \(source): errno \(errno)")
            }
        }

        deinit { Glibc.close(socket) }

        static func address(_ host: String, port: Int) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &address.sin_addr)
            return address
        }

        func send(_ text: String) {
            _ = text.utf8CString.withUnsafeBufferPointer { Glibc.send(socket, $0.baseAddress, $0.count - 1, 0) }
        }

        /// What comes within `timeout` seconds, until `done` says it is all; what came when the
        /// peer closed or the time ran out.
        func read(timeout: Double, until done: (String) -> Bool) -> String {
            var text = ""
            let deadline = Date().addingTimeInterval(timeout)
            var buffer = [UInt8](repeating: 0, count: 65536)
            while !done(text) {
                let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
                var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                guard left > 0, poll(&poller, 1, left) == 1 else { break }
                let count = recv(socket, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                text += String(decoding: buffer[0..<count], as: UTF8.self)
            }
            return text
        }

        /// One GET's whole answer, or what came of it.
        func get(_ path: String, port: Int, timeout: Double = 10) -> String {
            send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            return read(timeout: timeout) { text in
                guard let end = text.range(of: "\r\n\r\n") else { return false }
                let head = text[..<end.lowerBound].lowercased()
                guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                    let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
                else { return true }
                return text.utf8.count - text[..<end.upperBound].utf8.count >= length
            }
        }

        /// Whether the server has closed the connection, with a FIN or a reset.
        ///
        /// What it sent before is read past first. Nothing waits: a connection still open has nothing to read.
        var isClosedByServer: Bool {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count > 0 { continue }
                return count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
            }
        }
    }

    func folder() throws -> ScratchFolder {
        let folder = try ScratchFolder("detour-serve-fair")
        try Data(contentsOf: Fixtures.samples.appendingPathComponent("lisbon-city-break.json"))
            .write(to: folder.url.appendingPathComponent("lisbon.json"))
        return folder
    }

    /// One address opens 300 connections — live previews, idle keep-alives, heads that never end —
    /// and another address's GET is answered: the first holds no more than its share (32).
    @Test func oneClientsConnectionsLeaveRoomForAnother() throws {
        let folder = try folder()
        let server = try ServerProcess(folder: folder.url)
        var held: [Connection] = []
        for index in 0..<300 {
            let connection = try Connection(from: "127.0.0.2", to: server.port)
            switch index % 3 {
            case 0: connection.send("GET /trips/lisbon/events HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            case 1: _ = connection.get("/", port: server.port, timeout: 2)
            default: connection.send("GET / HTTP/1.1\r\nHost: 127.0")
            }
            held.append(connection)
        }
        let other = try Connection(from: "127.0.0.3", to: server.port)
        let answer = other.get("/", port: server.port)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answer.prefix(200))")
        let open = held.filter { !$0.isClosedByServer }.count
        #expect(open <= 32, "\(open) of the first client's connections are open")
    }

    /// At its cap (44 connections with 300 open files), the server closes the connections that
    /// wait for a request, idle keep-alives first among them, and lets a new client in; a live
    /// preview, a request under way, is not closed.
    @Test func nearItsCapTheServerShedsIdleConnections() throws {
        let folder = try folder()
        let server = try ServerProcess(folder: folder.url, launcher: ["/usr/bin/prlimit", "--nofile=300:300"])
        let stream = try Connection(from: "127.0.0.5", to: server.port)
        stream.send("GET /trips/lisbon/events HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
        #expect(stream.read(timeout: 10) { $0.contains("live preview") }.contains("200 OK"))
        var idle: [Connection] = []
        for source in ["127.0.0.2", "127.0.0.3"] {
            for _ in 0..<32 {
                let connection = try Connection(from: source, to: server.port)
                _ = connection.get("/", port: server.port, timeout: 2)
                idle.append(connection)
            }
        }
        let newcomer = try Connection(from: "127.0.0.4", to: server.port)
        // Within half the time after which an idle connection is closed anyway (10 s).
        let answer = newcomer.get("/", port: server.port, timeout: 5)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answer.prefix(200))")
        let shed = idle.filter(\.isClosedByServer).count
        #expect(shed >= 64 - 43, "\(shed) idle connections were closed")
        #expect(!stream.isClosedByServer, "a live preview is not idle")
    }
}
