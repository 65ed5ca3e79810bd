#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs another of detour-report's executables in place of this process.
enum Sibling {
    /// Replaces this process with the executable `name` in this binary's own folder (links
    /// resolved), run with `arguments`; returns only when it cannot, with the reason.
    static func exec(_ name: String, arguments: [String]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "cannot tell where detour-report is" }
        let own = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let folder = own.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let path = folder + "/" + name
        var argv: [UnsafeMutablePointer<CChar>?] = ([name] + arguments).map { strdup($0) } + [nil]
        execv(path, &argv)
        let reason = String(cString: strerror(errno))
        for pointer in argv { free(pointer) }
        return "\(path): \(reason)"
    }
}
