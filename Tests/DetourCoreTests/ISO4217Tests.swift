import DetourCore
import DetourTestSupport
import Foundation
import Testing

@Suite struct ISO4217Tests {
    @Test(arguments: [
        ("EUR", 2), ("USD", 2), ("JPY", 0), ("KWD", 3), ("BHD", 3), ("TND", 3), ("CLP", 0), ("ISK", 0),
        ("UGX", 0), ("VND", 0), ("KRW", 0), ("CLF", 4), ("UYW", 4), ("UYI", 0), ("XOF", 0), ("IQD", 3),
    ])
    func knownCurrenciesHaveTheirMinorUnits(_ code: String, _ digits: Int) throws {
        let currency = try #require(CurrencyCode(code))
        #expect(ISO4217.isKnown(currency))
        #expect(ISO4217.minorUnits(currency) == digits)
        #expect(currency.minorUnits == digits)
    }

    @Test(arguments: ["XAU", "XAG", "XDR", "XTS", "XXX"])
    func codesWithoutMinorUnitsAreKnownWithNone(_ code: String) throws {
        let currency = try #require(CurrencyCode(code))
        #expect(ISO4217.isKnown(currency))
        #expect(ISO4217.minorUnits(currency) == nil)
        #expect(currency.minorUnits == 2)
    }

    @Test(arguments: ["QQQ", "EUD", "HRK", "VEF", "ABC"])
    func codesOutsideTheListAreUnknown(_ code: String) throws {
        let currency = try #require(CurrencyCode(code))
        #expect(!ISO4217.isKnown(currency))
        #expect(ISO4217.minorUnits(currency) == nil)
        #expect(currency.minorUnits == 2)
    }
}

/// Every row of the bundled table against the published list, as the `iso4217` Python package
/// carries it (SIX Group's list one, in its `table.xml`), for every three-letter code there is:
/// the same codes known, the same minor units, the same edition.
@Suite struct ISO4217ListTests {
    /// Where the bundled table knowingly differs from the published one, and why.
    ///
    /// Empty while the table is the package's edition.
    static let differences: [String: String] = [:]

    /// The published list: each code with its minor unit (`nil` for "N.A."), and its edition.
    static func published() throws -> (edition: String, units: [String: Int?]) {
        let python = try #require(Tool.path("python3"))
        let script = """
            import iso4217, pathlib, xml.etree.ElementTree as ET
            root = ET.parse(pathlib.Path(iso4217.__file__).with_name("table.xml")).getroot()
            print(root.attrib["Pblshd"])
            for entry in root.iter("CcyNtry"):
                code = entry.findtext("Ccy")
                if code:
                    print(code, entry.findtext("CcyMnrUnts"))
            """
        let result = try CommandRunner(executable: URL(fileURLWithPath: python)).run(["-c", script])
        try #require(result.status == 0, "\(result.stderr)")
        var lines = result.output.split(separator: "\n").map(String.init)
        let edition = lines.removeFirst()
        var units: [String: Int?] = [:]
        for line in lines {
            let parts = line.split(separator: " ").map(String.init)
            units[parts[0]] = Int(parts[1])
        }
        return (edition, units)
    }

    @Test(.enabled(if: Tool.pythonModuleUsable("iso4217"), "needs Python's iso4217 (pip install iso4217)"))
    func everyCodeAndMinorUnitIsThePublishedListsOne() throws {
        let (edition, units) = try Self.published()
        #expect(edition == ISO4217.edition)
        #expect(units.count > 170)
        let letters = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
        var compared = 0
        for first in letters {
            for second in letters {
                for third in letters {
                    let text = first + second + third
                    guard let code = CurrencyCode(text), Self.differences[text] == nil else { continue }
                    compared += 1
                    let published = units[text]
                    #expect(ISO4217.isKnown(code) == (published != nil), "\(text)")
                    #expect(ISO4217.minorUnits(code) == published ?? nil, "\(text)")
                }
            }
        }
        #expect(compared == 26 * 26 * 26 - Self.differences.count)
    }
}
