import DetourCore
import DetourIO
import DetourRender

private let renderer = (try? ReportTemplates.bundled.get()).map(ReportRenderer.init)

/// Every trip the JSON reader accepts renders in every format, and survives GPX and back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRender(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let renderer else { fatalError("the bundled templates do not compile") }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let outcome = TripLoader.load(bytes, format: .json)
    guard let trip = outcome.trip, let today = CalendarDay(iso: "2026-11-22") else {
        return 0
    }
    for preference in Preference.allCases {
        let plan = Planner.plan(trip, today: today, options: Planner.Options(preference: preference))
        for format in ReportFormat.allCases { _ = renderer.render(plan, warnings: outcome.diagnostics, as: format) }
    }
    guard let gpx = try? TripGPXWriter.write(trip) else { fatalError("the GPX writer failed") }
    guard let back = TripLoader.load(Array(gpx.utf8), format: .gpx).trip, back == trip else {
        fatalError("the trip did not survive GPX and back:\n\(gpx)")
    }
    return 0
}
