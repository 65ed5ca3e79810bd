import DetourIO

/// Any bytes through the streaming GPX reader and the validator.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPX(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let outcome = TripLoader.load(Array(UnsafeBufferPointer(start: data, count: size)), format: .gpx)
    if outcome.trip == nil && !outcome.diagnostics.contains(where: { $0.severity == .error }) {
        fatalError("no trip and no error")
    }
    for diagnostic in outcome.diagnostics { _ = diagnostic.formatted(file: "fuzz.gpx") }
    return 0
}
