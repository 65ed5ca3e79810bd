import DetourBase
import DetourJob
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A browser started with `--remote-debugging-pipe`, and the DevTools protocol spoken with it.
///
/// The browser reads commands from its descriptor 3 and writes replies and events to its
/// descriptor 4, each a JSON object ended by a NUL byte: no port is opened, so nothing else on
/// the machine can drive it, and when this process ends, however it ends, the browser reads the
/// end of its pipe and quits. The "pipe" is one end of a Unix socket pair, on both descriptors:
/// writes to a socket can ask not to raise `SIGPIPE` when the browser is gone, which a pipe
/// cannot, so a program that has not ignored that signal is not killed by a browser's crash. Any number of threads may ``call(_:_:session:timeout:)`` at once: a
/// reader thread files each reply under its `id`, and each caller waits for its own.
final class DevToolsPipe: Sendable {
    /// The browser's process ID; it leads its own process group.
    let pid: pid_t
    /// This process's end of the socket pair: commands are sent and replies read on it.
    private let socket: Int32
    private let state = Mutex(State())
    private let arrived = NSCondition()
    /// Held while a command is written; true once the socket is closed, after which none is.
    private let writing = Mutex(false)

    /// A reply as parsed, handed once from the reader thread to the caller that waits for it and
    /// never changed after: so it may cross threads although a parsed object is not `Sendable`.
    private struct Reply: @unchecked Sendable {
        let object: [String: Any]
    }

    private struct State {
        var nextID = 0
        var waiting: [Int: Reply] = [:]
        /// Why no more replies will come: the browser closed its end, or wrote what is not JSON.
        var ended: String?
    }

    /// Starts `arguments[0]` with `arguments` and the pipe on descriptors 3 and 4; its standard
    /// input and output are `/dev/null`, its standard error goes to `errorLog`.
    init(arguments: [String], errorLog: String) throws(PrintFailure) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw .noBrowser("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        defer { close(ends[1]) }
        var pid: pid_t = 0
        let status = Self.spawn(arguments, errorLog: errorLog, descriptor3: ends[1], descriptor4: ends[1], pid: &pid)
        guard status == 0 else {
            close(ends[0])
            throw .noBrowser("cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        }
        self.pid = pid
        socket = ends[0]
        guard PlainThread.detach({ [self] in readReplies() }) else {
            kill(-pid, SIGKILL)
            while waitpid(pid, nil, 0) < 0, errno == EINTR {}
            close(socket)
            throw .noBrowser("cannot start a thread to read the browser's replies")
        }
    }

    /// `posix_spawn(3)` with `descriptor3` and `descriptor4` on descriptors 3 and 4 of the child.
    ///
    /// Both are first copied above 9, so that neither already is 3 or 4 (a `dup2` onto itself
    /// would keep close-on-exec), and the copies are closed at once after. The child gets
    /// its own process group, so Ctrl-C on the terminal reaches this process, which ends the
    /// browser, and default handling of the signals this process ignores.
    private static func spawn(
        _ arguments: [String], errorLog: String, descriptor3: Int32, descriptor4: Int32, pid: inout pid_t
    ) -> Int32 {
        let high3 = fcntl(descriptor3, F_DUPFD_CLOEXEC, 10)
        let high4 = fcntl(descriptor4, F_DUPFD_CLOEXEC, 10)
        defer {
            if high3 >= 0 { close(high3) }
            if high4 >= 0 { close(high4) }
        }
        guard high3 >= 0, high4 >= 0 else { return errno }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, high3, 3)
        posix_spawn_file_actions_adddup2(&actions, high4, 4)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGPIPE, SIGXFSZ] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        return posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
    }

    /// Sends `method` with `params` (to the page `session` when given) and waits up to `timeout`
    /// seconds for its reply's `result`.
    func call(
        _ method: String, _ params: [String: Any] = [:], session: String? = nil, timeout: TimeInterval
    ) throws(PrintFailure) -> [String: Any] {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        let bytes: [UInt8]
        do {
            bytes = Array(try JSONSerialization.data(withJSONObject: message)) + [0]
        } catch {
            throw .failed("cannot write the \(method) command: \(error)")
        }
        try send(bytes)

        let deadline = Date(timeIntervalSinceNow: timeout)
        arrived.lock()
        defer { arrived.unlock() }
        while true {
            let (reply, ended) = state.withLock { ($0.waiting.removeValue(forKey: id), $0.ended) }
            if let reply {
                if let error = reply.object["error"] as? [String: Any] {
                    throw .failed("\(method): \(error["message"] as? String ?? "an error")")
                }
                return reply.object["result"] as? [String: Any] ?? [:]
            }
            if let ended { throw .failed(ended) }
            guard arrived.wait(until: deadline) else {
                throw .failed("no answer to \(method) within \(Int(timeout)) seconds")
            }
        }
    }

    /// Writes `bytes` whole, one command at a time.
    private func send(_ bytes: [UInt8]) throws(PrintFailure) {
        let failure: String? = writing.withLock { closed in
            guard !closed else { return "the browser was ended" }
            return bytes.withUnsafeBytes { buffer -> String? in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.send(
                        socket, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, Int32(MSG_NOSIGNAL))
                    if written < 0 {
                        if errno == EINTR { continue }
                        // A socket that takes no more is the browser's end (EPIPE, ECONNRESET),
                        // in the words the reader thread uses when it sees it first.
                        return "the browser ended"
                    }
                    offset += written
                }
                return nil
            }
        }
        if let failure { throw .failed(failure) }
    }

    /// The reader thread: splits what the browser writes at each NUL and files each reply.
    private func readReplies() {
        var buffer: [UInt8] = []
        var scanned = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var ending = "the browser ended"
        reading: while true {
            let count = chunk.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            buffer += chunk[0..<count]
            while let end = buffer[scanned...].firstIndex(of: 0) {
                let message = buffer[..<end]
                guard
                    let object = try? JSONSerialization.jsonObject(with: Data(message)) as? [String: Any]
                else {
                    ending = "the browser wrote what is not the DevTools protocol"
                    break reading
                }
                if let id = object["id"] as? Int {
                    // Filed and announced under the condition's lock, so a caller between looking
                    // and waiting cannot miss it.
                    arrived.lock()
                    state.withLock { $0.waiting[id] = Reply(object: object) }
                    arrived.broadcast()
                    arrived.unlock()
                }
                buffer.removeSubrange(...end)
                scanned = 0
            }
            scanned = buffer.count
        }
        arrived.lock()
        state.withLock { $0.ended = ending }
        arrived.broadcast()
        arrived.unlock()
    }

    /// Ends the browser, and returns once it has exited.
    ///
    /// Its pipe is shut for writing, which it takes as the signal to quit; after `grace` seconds
    /// its process group is killed. The socket is closed once the reader thread has read the
    /// end, and no command is written after.
    func end(grace: TimeInterval = 5) {
        shutdown(socket, Int32(SHUT_WR))
        let deadline = Date(timeIntervalSinceNow: grace)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard Date() < deadline else {
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 {
                    if errno != EINTR { break }
                }
                break
            }
            usleep(10_000)
        }
        // Whatever of its helpers is left in its group goes too, and with them the last holder
        // of the browser's end, which ends the reader thread.
        kill(-pid, SIGKILL)
        let readerDeadline = Date(timeIntervalSinceNow: grace)
        arrived.lock()
        while state.withLock({ $0.ended == nil }), arrived.wait(until: readerDeadline) {}
        arrived.unlock()
        writing.withLock { closed in
            closed = true
            close(socket)
        }
    }

}
