import DetourBase
import DetourCore
import DetourPlaces
import Synchronization

/// Names a point after the populated place a person means by it: the app fills a new
/// destination's name from it when the person gave a place and no name.
public protocol PlaceFinder: Sendable {
    /// Gets ready to answer, without waiting: a page whose form may ask calls it, so that the
    /// answer is ready by the time the form is sent.
    func prepare()
    /// The name of the place at `point`, or `nil` when no place is near enough to name it by.
    func name(at point: Coordinate) async -> String?
    /// The places whose names start with `text` (accents and case aside), most populous first:
    /// the map's search box.
    func search(_ text: String) async -> [Place]
}

/// A finder that knows no place: a destination must then be named by the person.
public struct NoPlaces: PlaceFinder {
    public init() {}

    public func prepare() {}

    public func name(at point: Coordinate) async -> String? { nil }

    public func search(_ text: String) async -> [Place] { [] }
}

/// The places of a gazetteer, loaded once, on a plain thread of its own, when first needed.
///
/// A server nobody adds a destination on never holds them (35 MiB for GeoNames' places), and no
/// request's thread builds them. A request that comes before they are ready waits.
public final class GazetteerPlaces: PlaceFinder {

    private enum State {
        case idle
        case loading([CheckedContinuation<Gazetteer, Never>])
        case ready(Gazetteer)
    }

    private let state = Mutex(State.idle)
    private let load: @Sendable () -> Gazetteer

    /// Places from `load`: GeoNames' populated places unless told otherwise.
    public init(load: @escaping @Sendable () -> Gazetteer = { GeoNames.cities }) {
        self.load = load
    }

    public func prepare() {
        let start = state.withLock { current -> Bool in
            guard case .idle = current else { return false }
            current = .loading([])
            return true
        }
        if start { startLoading() }
    }

    /// Loads the places on a thread of its own; with no thread to spare, on the caller's.
    private func startLoading() {
        if !PlainThread.detach({ [self] in loaded(load()) }) { loaded(load()) }
    }

    /// Keeps `gazetteer`, and hands it to every request waiting for it.
    private func loaded(_ gazetteer: Gazetteer) {
        let waiting = state.withLock { current -> [CheckedContinuation<Gazetteer, Never>] in
            defer { current = .ready(gazetteer) }
            guard case .loading(let waiting) = current else { return [] }
            return waiting
        }
        for continuation in waiting { continuation.resume(returning: gazetteer) }
    }

    public func name(at point: Coordinate) async -> String? {
        await gazetteer().name(at: point)
    }

    /// The most places a search answers with.
    public static let found = 8

    public func search(_ text: String) async -> [Place] {
        await gazetteer().search(text, limit: Self.found)
    }

    /// The gazetteer, once it is loaded.
    func gazetteer() async -> Gazetteer {
        if case .ready(let gazetteer) = state.withLock({ $0 }) { return gazetteer }
        return await withCheckedContinuation { continuation in
            let (ready, start) = state.withLock { current -> (Gazetteer?, Bool) in
                switch current {
                case .ready(let gazetteer): return (gazetteer, false)
                case .idle:
                    current = .loading([continuation])
                    return (nil, true)
                case .loading(let waiting):
                    current = .loading(waiting + [continuation])
                    return (nil, false)
                }
            }
            if let ready { continuation.resume(returning: ready) }
            if start { startLoading() }
        }
    }
}
