#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output and error, written with plain `write(2)` so every failure is seen.
enum StandardStreams {
    /// Why standard output could not take the report.
    enum WriteError: Error {
        /// The reader went away (`| head`).
        case brokenPipe
        /// Any other failure, with the system's reason.
        case failed(String)
    }

    /// Makes a closed pipe an error return from `write` rather than a fatal signal.
    static func ignoreBrokenPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes all of `text` to standard output.
    static func writeOutput(_ text: String) throws(WriteError) {
        try write(Array(text.utf8), to: STDOUT_FILENO)
    }

    /// Writes `text` to standard error, ignoring failures: there is nowhere left to report them.
    static func writeError(_ text: String) {
        try? write(Array(text.utf8), to: STDERR_FILENO)
    }

    /// Writes every byte to `descriptor`, retrying short writes and interruptions.
    static func write(_ bytes: [UInt8], to descriptor: Int32) throws(WriteError) {
        var failure: WriteError?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno == EPIPE ? .brokenPipe : .failed(String(cString: strerror(errno)))
                    return
                }
                offset += written
            }
        }
        if let failure { throw failure }
    }
}
