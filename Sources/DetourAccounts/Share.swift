/// What a member of a shared trip may do.
///
/// A viewer reads every format and feed of it, an editor also saves it. Only its owner deletes it
/// or shares it.
public enum ShareRole: String, Sendable, CaseIterable, Codable {
    case viewer
    case editor
}

/// A trip shared with an account, as the member sees it.
public struct SharedTrip: Sendable, Equatable, Decodable {
    public let ownerID: String
    /// The owner's address, shown beside the trip.
    public let ownerEmail: String
    /// The trip's name in the owner's folder.
    public let trip: String
    public let role: ShareRole

    /// The columns it is read from: a share's, and its owner's address.
    enum CodingKeys: String, CodingKey {
        case ownerID = "ownerId"
        case ownerEmail = "email"
        case trip
        case role
    }
}

/// A member of a shared trip, as its owner sees it.
public struct Member: Sendable, Equatable, Decodable {
    public let email: String
    public let role: ShareRole
}
