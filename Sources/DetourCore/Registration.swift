/// Who may register on a server with accounts (`serve --registration`): anyone, whoever has an
/// invitation code, or nobody (accounts are then made with `detour-report user add`).
///
/// A plain value, here so that the command line's options and the server share one name for it.
public enum Registration: String, Sendable, CaseIterable {
    case open
    case invite
    case closed
}
