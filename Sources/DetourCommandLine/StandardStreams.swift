#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output and error, written with plain `write(2)` so every failure is seen.
public enum StandardStreams {
    /// Why standard output could not take the report.
    public enum WriteError: Error {
        /// The reader went away (`| head`).
        case brokenPipe
        /// Any other failure, with the system's reason.
        case failed(String)
    }

    /// Makes a closed pipe and a file-size limit error returns from `write` rather than fatal
    /// signals, so a failed write is reported and its temporary file removed.
    public static func turnWriteSignalsIntoErrors() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Writes `text` to standard error, ignoring failures: there is nowhere left to report them.
    public static func writeError(_ text: String) {
        try? write(Array(text.utf8), to: STDERR_FILENO)
    }

    /// Writes every byte to `descriptor`, retrying short writes and interruptions.
    public static func write(_ bytes: [UInt8], to descriptor: Int32) throws(WriteError) {
        var failure: WriteError?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = SystemCalls.writeBytes(
                    descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
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
