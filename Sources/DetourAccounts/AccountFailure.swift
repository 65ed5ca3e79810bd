import DetourCore

/// Why an account operation failed, each with a stable code.
public enum AccountFailure: Error, Equatable, Sendable {
    /// An account with this address exists already.
    case emailTaken(String)
    /// No account has this address.
    case unknownAccount(String)
    /// The database refused or could not be reached: what it said.
    case database(String)
    /// A new password breaks a rule: what the rule says.
    case weakPassword(String)
    /// Something the accounts need is missing (memory for a hash, libsodium): what.
    case unavailable(String)

    /// The stable code diagnostics and the API carry.
    public var code: DiagnosticCode {
        switch self {
        case .emailTaken: return .emailTaken
        case .unknownAccount: return .unknownAccount
        case .weakPassword: return .weakPassword
        case .database, .unavailable: return .accountsFailed
        }
    }

    /// What went wrong, in a sentence.
    public var message: String {
        switch self {
        case .emailTaken(let email): return "an account for \(email) exists already"
        case .unknownAccount(let email): return "no account has the address \(email)"
        case .database(let reason): return "the accounts' database failed: \(reason)"
        case .weakPassword(let rule), .unavailable(let rule): return rule
        }
    }
}
