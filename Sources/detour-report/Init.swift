import ArgumentParser
import DetourCommandLine
import DetourCore
import DetourJob
import SystemPackage

/// `detour-report init [trip.json]`: a small, valid starter trip that shows every field once.
struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a small starter trip that shows every field once, to change into your own.",
        discussion: """
            The trip has one stay, two weeks after the day it is as of (--today, else the \
            UTC day of SOURCE_DATE_EPOCH, else today), with one detour of two tasks; it is valid, \
            so 'detour-report trip.json' renders it at once. An existing file is never replaced. \
            Without a file, the trip goes to standard output.
            """)

    @Argument(
        help: ArgumentHelp("The file to write (default: standard output).", valueName: "file"), completion: .file())
    var file: String?

    @Option(help: ArgumentHelp("The day the stay is planned from (YYYY-MM-DD).", valueName: "day"))
    var today: String?

    func run() throws {
        StandardStreams.turnWriteSignalsIntoErrors()
        let printer = DiagnosticPrinter(file: file ?? "detour-report")
        let day = try DayOptions.today(today, printer: printer)
        let text = Init.starter(from: day)
        guard let file, file != "-" else {
            try CommandOutput.write(text, to: nil, printer: printer)
            return
        }
        try CommandOutput.refuseExisting(
            file, printer: printer, remedy: "give another name, or remove it first to start again")
        try CommandOutput.write(text, toFile: FilePath(file), printer: printer)
        StandardStreams.writeError(
            "wrote \(file): check it with 'detour-report validate \(file)', render it with 'detour-report \(file)'\n")
    }

    /// The starter trip, its stay two weeks after `day`: every key of the format once.
    static func starter(from day: CalendarDay) -> String {
        let arrival = day.adding(days: 14) ?? day
        let departure = arrival.adding(days: 3) ?? arrival
        return """
            {
              "title": "My first trip",
              "traveler": "Ana Silva <ana@example.org>",
              "travel": "walk",
              "currency": "EUR",
              "rates": {"GBP": 1.17},
              "budget": {"amount": 120, "currency": "EUR"},
              "day_hours": 8,
              "destinations": [
                {
                  "name": "Lisbon",
                  "location": {"lat": 38.7223, "lon": -9.1393},
                  "arrival": "\(arrival)",
                  "departure": "\(departure)",
                  "budget": {"amount": 60, "currency": "EUR"},
                  "day_hours": 6,
                  "detours": [
                    {
                      "tasks": [
                        {
                          "name": "Ride Tram 28",
                          "duration": "1h30m",
                          "cost": {"amount": 3.10, "currency": "EUR"},
                          "location": {"lat": 38.7139, "lon": -9.1334},
                          "travel": "transit",
                          "pros": ["Iconic yellow tram"],
                          "cons": ["Crowded at midday"]
                        },
                        {
                          "name": "Walk the Alfama",
                          "duration": "2h",
                          "cost": {"amount": 0, "currency": "EUR"},
                          "location": {"lat": 38.7118, "lon": -9.1300},
                          "path": [
                            {"lat": 38.7223, "lon": -9.1393},
                            {"lat": 38.7160, "lon": -9.1340},
                            {"lat": 38.7118, "lon": -9.1300}
                          ],
                          "pros": ["Free"],
                          "cons": ["Steep streets"]
                        }
                      ]
                    }
                  ]
                }
              ]
            }

            """
    }
}
