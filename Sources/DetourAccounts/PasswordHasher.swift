import CSodium
import DetourBase

/// What an Argon2id hash costs: passes over memory, and how much memory.
public struct HashCost: Sendable, Equatable {
    /// Passes over the memory (libsodium's `opslimit`).
    public let passes: UInt64
    /// The memory one hash fills, in bytes (libsodium's `memlimit`).
    public let memoryBytes: Int

    /// OWASP's Password Storage Cheat Sheet's lowest setting for Argon2id: 19 MiB, 2 passes.
    ///
    /// One lane, as libsodium always uses. The least a server uses.
    public static let owasp = HashCost(unchecked: 2, memoryBytes: 19 << 20)

    /// A cost of `passes` over `memoryBytes`, or `nil` when it is below OWASP's.
    public init?(passes: UInt64, memoryBytes: Int) {
        guard passes >= HashCost.owasp.passes, memoryBytes >= HashCost.owasp.memoryBytes else { return nil }
        self.init(unchecked: passes, memoryBytes: memoryBytes)
    }

    private init(unchecked passes: UInt64, memoryBytes: Int) {
        self.passes = passes
        self.memoryBytes = memoryBytes
    }
}

/// Argon2id password hashes through libsodium's `crypto_pwhash_str`, in its own string form
/// (`$argon2id$v=19$m=…,t=…,p=1$salt$hash`, salt included), on a pool of at most `width`
/// threads of the process's own: a flood of logins waits for a thread, and never holds more than
/// `width` hashes' memory at once, nor a thread of Swift's cooperative pool.
///
/// A password is normalized (``PasswordRule/normalized(_:)``), copied into a buffer for the hash
/// and that buffer zeroed afterwards; it is never stored or logged.
public final class PasswordHasher: Sendable {
    /// What each new hash costs; a stored hash that cost less is made again at the next login.
    public let cost: HashCost
    private let pool: BlockingPool
    /// A hash of a random password, checked for an address that has no account, so that a login
    /// takes as long whether or not the address is known.
    private let dummy: String

    /// A hasher making hashes of `cost` on at most `width` threads at once.
    public init(cost: HashCost = .owasp, width: Int) throws(AccountFailure) {
        guard sodium_init() >= 0 else { throw .unavailable("libsodium could not start") }
        self.cost = cost
        pool = BlockingPool(width: width)
        var random = [UInt8](repeating: 0, count: 33)
        randombytes_buf(&random, 32)
        guard let dummy = PasswordHasher.hash(random, cost: cost) else {
            throw .unavailable("no memory for a password hash")
        }
        self.dummy = dummy
    }

    /// The hash of `password`, made on the hasher's threads.
    public func hash(_ password: String) async throws(AccountFailure) -> String {
        let cost = cost
        let made = await pool.run { PasswordHasher.hash(PasswordHasher.bytes(password), cost: cost) }
        guard let made else { throw .unavailable("no memory for a password hash") }
        return made
    }

    /// What checking a password against a stored hash found.
    public enum Verdict: Sendable, Equatable {
        /// The password is right; `rehash` when its hash cost less than the hasher's, or was made
        /// another way, and should be made again now that the password is known.
        case valid(rehash: Bool)
        /// The password is wrong, or there was no account to check it against.
        case invalid
    }

    /// Whether `password` is the one `stored` was made from.
    ///
    /// With no stored hash (an unknown address), the dummy is checked instead and the verdict is ``Verdict/invalid``: the same work
    /// either way.
    public func verify(_ password: String, against stored: String?) async -> Verdict {
        let dummy = dummy
        let cost = cost
        return await pool.run {
            var bytes = PasswordHasher.bytes(password)
            defer { sodium_memzero(&bytes, bytes.count) }
            let hash = Array((stored ?? dummy).utf8CString)
            guard hash.count <= crypto_pwhash_strbytes() else { return .invalid }
            let matched = bytes.withUnsafeBufferPointer { password in
                password.withMemoryRebound(to: CChar.self) { password in
                    // The bytes end in a zero, so there is always an address; it is not hashed.
                    guard let start = password.baseAddress else { return false }
                    return crypto_pwhash_str_verify(hash, start, UInt64(password.count - 1)) == 0
                }
            }
            guard matched, stored != nil else { return .invalid }
            let rehash = crypto_pwhash_str_needs_rehash(hash, cost.passes, cost.memoryBytes) != 0
            return .valid(rehash: rehash)
        }
    }

    /// The normalized password's UTF-8 bytes, and a zero after them (not part of the password).
    private static func bytes(_ password: String) -> [UInt8] {
        Array(PasswordRule.normalized(password).utf8) + [0]
    }

    /// The hash of `bytes` (zeroed afterwards), or `nil` when the memory could not be had.
    private static func hash(_ bytes: [UInt8], cost: HashCost) -> String? {
        var bytes = bytes
        defer { sodium_memzero(&bytes, bytes.count) }
        var out = [CChar](repeating: 0, count: crypto_pwhash_strbytes())
        let result = bytes.withUnsafeBufferPointer { password in
            password.withMemoryRebound(to: CChar.self) { password -> Int32 in
                guard let start = password.baseAddress else { return -1 }
                return crypto_pwhash_str(&out, start, UInt64(password.count - 1), cost.passes, cost.memoryBytes)
            }
        }
        guard result == 0 else { return nil }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
