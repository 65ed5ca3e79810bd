import DetourIO

/// Any bytes through the JSON reader and the validator: it must end in a trip or diagnostics.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let outcome = TripLoader.load(Array(UnsafeBufferPointer(start: data, count: size)), format: .json)
    if outcome.trip == nil && !outcome.diagnostics.contains(where: { $0.severity == .error }) {
        fatalError("no trip and no error")
    }
    for diagnostic in outcome.diagnostics { _ = diagnostic.formatted(file: "fuzz.json") }
    return 0
}
