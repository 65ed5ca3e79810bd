import Foundation

/// PDFs read back with poppler-utils (`pdfinfo`, `pdftotext`), as a reader's tools see them.
public enum Poppler {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// What `command` (found on `PATH`) writes with `arguments`; throws when it is missing or
    /// fails.
    public static func run(_ command: String, _ arguments: [String]) throws -> String {
        guard let path = Tool.path(command) else { throw Failure(description: "\(command) is not installed") }
        let result = try CommandRunner(executable: URL(fileURLWithPath: path)).run(arguments)
        guard result.status == 0 else {
            throw Failure(description: "\(command) \(arguments) failed (\(result.status)): \(result.stderr)")
        }
        return result.output
    }

    /// `pdfinfo`'s fields (`Title`, `Pages`, `Page size`, …), dates in ISO 8601.
    public static func info(_ pdf: URL) throws -> [String: String] {
        var fields: [String: String] = [:]
        for line in try run("pdfinfo", ["-isodates", pdf.path]).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }
}
