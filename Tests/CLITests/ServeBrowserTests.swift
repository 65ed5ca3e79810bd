import DetourTestSupport
import Foundation
import Testing

/// The live preview in a real browser: headless Chromium, driven by chromedriver over the W3C
/// WebDriver protocol, opens `/trips/NAME` from `detour-report serve` and follows every save of
/// the trip's file (a new title, a broken trip, the trip fixed) without the test reloading it,
/// once per save.
@Suite struct ServeBrowserTests {
    /// chromedriver is spoken to through curl: its replies' header lines have no space after the
    /// colon, which URLSession on Linux refuses.
    static let needsTools = Tool.usable("chromium") && Tool.usable("chromedriver") && Curl.isAvailable

    /// The sample the test edits, and the title it starts with.
    static let sample = "nordic-budget.json"
    static let title = "Stockholm and Oslo on a budget"

    let trips: ScratchFolder
    let browserFiles: ScratchFolder

    init() throws {
        trips = try ScratchFolder("detour-serve-browser")
        browserFiles = try ScratchFolder("detour-serve-chromium")
    }

    @Test(
        .enabled(if: needsTools, "needs chromium, chromedriver and curl (Debian: chromium, chromium-driver, curl)"),
        .timeLimit(.minutes(1)))
    func thePreviewFollowsEachSaveOfItsTripOnce() throws {
        let original = try String(contentsOf: Fixtures.samples.appendingPathComponent(Self.sample), encoding: .utf8)
        try #require(original.contains("\"title\": \"\(Self.title)\""))
        try #require(original.contains("\"destinations\": ["))
        let file = trips.url.appendingPathComponent(Self.sample)
        try Data(original.utf8).write(to: file)

        let server = try ServerProcess(folder: trips.url)
        defer { server.stop() }
        let driver = try ChromeDriver(folder: browserFiles.url)
        defer { driver.stop() }
        let browser = try driver.startSession()
        defer { browser.end() }

        let watcher = PreviewWatcher(browser: browser, server: server, name: "nordic-budget")
        try browser.open("\(server.base)/trips/nordic-budget")
        try watcher.waitUntilShown(Self.title, loads: 1)

        let revised = "Stockholm and Oslo, revised"
        let renamed = original.replacingOccurrences(of: Self.title, with: revised)
        try watcher.save(renamed, to: file, thenShows: revised, loads: 2)

        // No destinations: the page lists the trip's diagnostics in place of its report.
        let broken = renamed.replacingOccurrences(of: "\"destinations\": [", with: "\"stops\": [")
        try watcher.save(broken, to: file, thenShows: "missing-field", loads: 3)
        let problems = try browser.text()
        #expect(problems.contains("error"), "\(problems)")
        #expect(!problems.contains("Stockholm"), "the diagnostics page shows the report: \(problems)")

        let fixedTitle = "Stockholm and Oslo, fixed"
        let fixed = original.replacingOccurrences(of: Self.title, with: fixedTitle)
        try watcher.save(fixed, to: file, thenShows: fixedTitle, loads: 4)
        let report = try browser.text()
        #expect(!report.contains("missing-field"), "the report came back with the diagnostics: \(report)")

        // The same bytes saved again are no new version: no reload. A page that reloaded on a
        // version it already had would go on reloading, and be past 5 loads when the next
        // change shows.
        try Editor.saveLikeVim(fixed, to: file)
        let last = "Stockholm and Oslo, last"
        try watcher.save(fixed.replacingOccurrences(of: fixedTitle, with: last), to: file, thenShows: last, loads: 5)
    }

    /// The original app's walk, on a server with accounts, clicked and typed as a person would.
    ///
    /// Opened without a session it shows the login page; its link leads to registration; registering signs in and shows the trips;
    /// a trip's preview opens; logging out leads back to the login page, and so does `/`; logging
    /// in again shows the trips.
    @Test(
        .enabled(if: needsTools, "needs chromium, chromedriver and curl (Debian: chromium, chromium-driver, curl)"),
        .timeLimit(.minutes(1)))
    func registerLogInSeeTheTripsPreviewLogOut() throws {
        let server = try ServerProcess(folder: trips.url, arguments: ["--accounts"])
        defer { server.stop() }
        let driver = try ChromeDriver(folder: browserFiles.url)
        defer { driver.stop() }
        let browser = try driver.startSession()
        defer { browser.end() }

        try browser.open("\(server.base)/")
        #expect(try browser.path() == "/login")
        try browser.click("a[href='/register']")
        #expect(try browser.path() == "/register")
        try browser.type("#email", "ana@example.org")
        try browser.type("#password", "correct horse battery")
        try browser.type("#confirm", "correct horse battery")
        try browser.click("form[action='/register'] button")
        #expect(try browser.path() == "/")
        #expect(try browser.text().contains("Signed in as ana@example.org"))

        // A trip put in the account's folder is in its index.
        let accounts = try FileManager.default.contentsOfDirectory(
            atPath: trips.url.appendingPathComponent("accounts").path)
        try #require(accounts.count == 1)
        try FileManager.default.copyItem(
            at: Fixtures.samples.appendingPathComponent(Self.sample),
            to: trips.url.appendingPathComponent("accounts/\(accounts[0])/\(Self.sample)"))
        try browser.open("\(server.base)/trips")
        try browser.click("a[href='trips/nordic-budget']")
        #expect(try browser.path() == "/trips/nordic-budget")
        #expect(try browser.text().contains(Self.title))
        #expect(try browser.text().contains("Signed in as ana@example.org"))

        try browser.click("form[action='/logout'] button")
        #expect(try browser.path() == "/login")
        try browser.open("\(server.base)/")
        #expect(try browser.path() == "/login")

        try browser.type("#email", "ana@example.org")
        try browser.type("#password", "correct horse battery")
        try browser.click("form[action='/login'] button")
        #expect(try browser.path() == "/")
        #expect(try browser.text().contains("nordic-budget") || browser.text().contains(Self.title))
    }
}

extension ServeBrowserTests {
    /// The app's first screens, clicked and typed as a person would: the destination list in its
    /// sections, **Add destination**, a departure before the arrival refused beside its field
    /// with nothing saved, then a stay placed in Lisbon with no name, saved, and named "Lisbon"
    /// from the gazetteer.
    @Test(
        .enabled(if: needsTools, "needs chromium, chromedriver and curl (Debian: chromium, chromium-driver, curl)"),
        .timeLimit(.minutes(2)))
    func addADestinationFromTheList() throws {
        let walk = try appWalk(today: "2026-12-02")
        defer { walk.stop() }
        let (file, server, driver) = (walk.file, walk.server, walk.driver)
        let browser = try driver.startSession()
        defer { browser.end() }

        try browser.open("\(server.base)/")
        let list = try browser.text()
        #expect(list.contains("Coming up\nOslo"), "\(list)")
        #expect(list.contains("Under way\nStockholm"), "\(list)")
        try browser.click("a[href='/destinations/new']")
        #expect(try browser.path() == "/destinations/new")

        // Dates are set as a date picker sets them; the rest is typed.
        try browser.execute("document.querySelector('#arrival').value = '2026-12-09';")
        try browser.execute("document.querySelector('#departure').value = '2026-12-08';")
        try browser.type("#lat", "38.7223")
        try browser.type("#lon", "-9.1393")
        try browser.execute("document.querySelector('#trip').value = 'nordic-budget';")
        let before = try Data(contentsOf: file)
        try browser.click("form[action='/destinations'] button")
        let refused = try browser.text()
        #expect(refused.contains("Departure 2026-12-08 is not after arrival 2026-12-09."), "\(refused)")
        let described = try browser.execute(
            "return document.querySelector('#departure').getAttribute('aria-describedby');")
        #expect(described as? String == "departure-problem")
        #expect(try Data(contentsOf: file) == before, "nothing is saved while an error stands")

        try browser.execute("document.querySelector('#departure').value = '2026-12-11';")
        try browser.click("form[action='/destinations'] button")
        #expect(try browser.path() == "/trips/nordic-budget/destinations/3")
        #expect(try browser.execute("return document.querySelector('h1').textContent;") as? String == "Lisbon")
        let page = try browser.text()
        #expect(page.contains("\nWed 9 Dec 2026 – Fri 11 Dec 2026 · 2 nights\n"), "\(page)")
        try browser.click("a[href='/']")
        #expect(try browser.text().contains("Coming up\nOslo"))
        #expect(try browser.text().contains("Lisbon"))
    }
}

extension ServeBrowserTests {
    /// A detour's page, clicked and typed as a person would.
    ///
    /// **Add detour** opens an undecided detour whose two sides are forms; what is typed in them
    /// and left without **Save** is kept nowhere; a task saved on the left shows there and leaves
    /// the right a form; the title follows the tasks' names; a pro is added and deleted. Then
    /// every screen of the app, on a phone 390 px wide, has nothing to scroll sideways.
    @Test(
        .enabled(if: needsTools, "needs chromium, chromedriver and curl (Debian: chromium, chromium-driver, curl)"),
        .timeLimit(.minutes(2)))
    func aDetoursSidesAreFilledOneAfterTheOther() throws {
        let walk = try appWalk(today: "2026-11-20")
        defer { walk.stop() }
        let (server, driver) = (walk.server, walk.driver)
        let browser = try driver.startSession()
        let stay = "/trips/nordic-budget/destinations/2"
        try browser.open("\(server.base)\(stay)")
        try browser.click("form[action='\(stay)/detours'] button")
        let detour = "\(stay)/detours/4"
        #expect(try browser.path() == detour, "\((try? browser.text()) ?? "")")
        #expect(try browser.text().contains("Undecided detour"))
        #expect(try browser.execute("return document.querySelectorAll('.pane form').length;") as? Int == 2)

        // Typed, then left without Save: nothing of it is kept, here or in the file.
        let before = try Data(contentsOf: walk.file)
        try browser.type("#left-name", "Left behind")
        try browser.type("#right-name", "Also left behind")
        try browser.open("\(server.base)\(stay)")
        try browser.open("\(server.base)\(detour)")
        #expect(try browser.value("#left-name").isEmpty && browser.value("#right-name").isEmpty)
        #expect(try Data(contentsOf: walk.file) == before)

        try browser.type("#left-name", "Honor the Past")
        try browser.type("#left-duration", "1h30m")
        try browser.type("#left-cost", "12.50 NOK")
        try browser.click("form[action='\(detour)/tasks'] button")
        #expect(try browser.path() == detour)
        #expect(try browser.text().contains("Honor the Past or undecided"))
        #expect(try browser.execute("return document.querySelectorAll('#right-name').length;") as? Int == 1)
        #expect(try browser.execute("return document.querySelectorAll('#left-name').length;") as? Int == 0)

        // Saved empty, the form is held back by each of its three required fields.
        try browser.click("form[action='\(detour)/tasks'] button", loads: false)
        let missing = try browser.execute(
            "return ['name', 'duration', 'cost'].map(f => document.querySelector('#right-' + f).validity.valueMissing);"
        )
        #expect(missing as? [Bool] == [true, true, true])
        #expect(try browser.text().contains("Honor the Past or undecided"))
        try browser.type("#right-name", "Embrace the Future")
        try browser.type("#right-duration", "2h")
        try browser.click("form[action='\(detour)/tasks'] button", loads: false)
        // The browser itself holds the form back while a required field is empty.
        #expect(try browser.text().contains("Honor the Past or undecided"), "a cost is required: nothing was saved")
        #expect(
            try browser.execute("return document.querySelector('#right-cost').validity.valueMissing;") as? Bool == true)
        #expect(
            try browser.execute("return document.querySelector('#right-name').value;") as? String
                == "Embrace the Future")
        try browser.type("#right-cost", "0 NOK")
        try browser.click("form[action='\(detour)/tasks'] button")
        #expect(try browser.text().contains("Honor the Past or Embrace the Future"))
        #expect(
            try browser.execute(
                "return document.querySelectorAll('.pane :is(input, select, textarea):is([id$=\"-name\"], [id$=\"-duration\"], [id$=\"-cost\"], [id$=\"-lat\"], [id$=\"-lon\"])').length;"
            ) as? Int == 0, "a saved task's name, duration, cost and place are not fields")

        try browser.type("#left-pro", "Free on Sundays")
        try browser.click("form[action='\(detour)/tasks/1'] button")
        #expect(try browser.text().contains("Free on Sundays"))
        try browser.click("form[action='\(detour)/tasks/1'] input[name='delete-pro'] ~ button")
        #expect(!(try browser.text().contains("Free on Sundays")))
        try browser.type("#right-con", "Long queues")
        try browser.click("form[action='\(detour)/tasks/2']:has(#right-con) button")
        #expect(try browser.text().contains("Long queues"))
        try browser.click("form[action='\(detour)/tasks/2'] input[name='delete-con'] ~ button")
        #expect(!(try browser.text().contains("Long queues")))
        browser.end()

        let phone = try driver.startSession(phone: true)
        defer { phone.end() }
        for path in ["/", "/destinations/new", stay, detour, "\(stay)/detours/1", "\(detour)/delete"] {
            try phone.open("\(server.base)\(path)")
            let width = try phone.execute("return [document.documentElement.scrollWidth, window.innerWidth];") as? [Int]
            #expect(width?.count == 2 && width?[0] == width?[1] && width?[1] == 390, "\(path): \(width ?? [])")
        }
    }
}

extension ServeBrowserTests {
    /// The index of trip files and a trip's preview on `serve`, and the index a batch run writes,
    /// on a phone 390 px wide with every sample in the folder: nothing to scroll sideways.
    @Test(
        .enabled(if: needsTools, "needs chromium, chromedriver and curl (Debian: chromium, chromium-driver, curl)"),
        .timeLimit(.minutes(2)))
    func theIndexesFitAPhone() throws {
        for sample in Fixtures.sampleTrips() {
            try FileManager.default.copyItem(
                at: Fixtures.sampleURL(sample), to: trips.url.appendingPathComponent(sample))
        }
        let written = browserFiles.url.appendingPathComponent("reports")
        let batch = try CommandRunner.built().run([
            trips.url.path, "-d", written.path, "--format", "html,markdown,json,gpx,ics,geojson", "--today",
            "2026-11-20",
        ])
        #expect(batch.status == 0, "\(batch.stderr)")
        let server = try ServerProcess(folder: trips.url, arguments: ["--today", "2026-11-20"])
        defer { server.stop() }
        let driver = try ChromeDriver(folder: browserFiles.url)
        defer { driver.stop() }
        let phone = try driver.startSession(phone: true)
        defer { phone.end() }
        let pages = [
            "\(server.base)/trips", "\(server.base)/trips/nordic-budget",
            written.appendingPathComponent("index.html").absoluteString,
        ]
        for page in pages {
            try phone.open(page)
            let width = try phone.execute("return [document.documentElement.scrollWidth, window.innerWidth];") as? [Int]
            #expect(width?.count == 2 && width?[0] == width?[1] && width?[1] == 390, "\(page): \(width ?? [])")
        }
    }
}

extension ServeBrowserTests {
    /// The longest wait for the server's places: the gazetteer loads at first use (seconds in a
    /// debug build).
    static let placesPatience = 60.0

    /// The map `selector` finds scrolled to the middle of the window (a press lands on the middle
    /// of what shows of it), its centre set to `latitude`, `longitude` at `zoom`.
    static func centre(_ selector: String, _ latitude: Double, _ longitude: Double, zoom: Int) -> String {
        """
        const map = document.querySelector('\(selector)');
        map.scrollIntoView({block: 'center'});
        map.detourMap.setView([\(latitude), \(longitude)], \(zoom), {animate: false});
        """
    }

    /// Whether the field `selector` holds a number within 0.01 of `expected`.
    fileprivate static func near(_ browser: WebDriverSession, _ selector: String, _ expected: Double) throws -> Bool {
        guard let value = Double(try browser.value(selector)) else { return false }
        return abs(value - expected) < 0.01
    }

    /// Add destination with the map, as a person does it: a long press with the mouse near
    /// Lisbon drops the pin there, sets the place's fields and fills the empty name with
    /// "Lisbon"; a departure before the arrival is shown at its field as it is picked and holds
    /// the form back; corrected, the stay is saved, and its page maps it.
    @Test(
        .enabled(if: needsTools, "needs chromium, chromedriver and curl (Debian: chromium, chromium-driver, curl)"),
        .timeLimit(.minutes(2)))
    func aLongPressOnTheMapPlacesTheDestinationAndNamesIt() throws {
        let walk = try appWalk(today: "2026-12-02")
        defer { walk.stop() }
        let (file, server, driver) = (walk.file, walk.server, walk.driver)
        let browser = try driver.startSession()
        defer { browser.end() }

        try browser.open("\(server.base)/destinations/new?trip=nordic-budget")
        #expect(try browser.execute("return document.querySelector('#place-map').hidden;") as? Bool == false)
        try browser.execute(Self.centre("#place-map", 38.7223, -9.1393, zoom: 12))
        // Held too briefly, a press is a click: its timer is cancelled as the button comes up (a
        // press under way is marked until then), and nothing is placed.
        try browser.press("#place-map", milliseconds: 150)
        #expect(try browser.execute("return document.querySelector('#place-map').dataset.pressing;") == nil)
        #expect(try browser.value("#lat").isEmpty)
        try browser.press("#place-map", milliseconds: 700)
        #expect(try Self.near(browser, "#lat", 38.7223))
        #expect(try Self.near(browser, "#lon", -9.1393))
        #expect(
            try browser.execute("return document.querySelectorAll('#place-map path.leaflet-interactive').length;")
                as? Int == 1)
        try browser.waitForValue("#name", "Lisbon", seconds: Self.placesPatience)

        // Dates are picked as a date picker picks them: a value, then an `input` event.
        let pick =
            "const f = document.querySelector(arguments[0]); f.value = arguments[1]; f.dispatchEvent(new Event('input', {bubbles: true}));"
        func pickDate(_ field: String, _ day: String) throws {
            try WebDriverSession.send(
                "POST", "\(browser.base)/execute/sync", body: ["script": pick, "args": [field, day]])
        }
        try pickDate("#arrival", "2026-12-09")
        try pickDate("#departure", "2026-12-08")
        let shown = try browser.execute("return document.querySelector('#departure-live').textContent;")
        #expect(shown as? String == "Departure 2026-12-08 is not after arrival 2026-12-09.")
        #expect(
            try browser.execute("return document.querySelector('#departure').getAttribute('aria-describedby');")
                as? String == "departure-live")
        let before = try Data(contentsOf: file)
        try browser.click("form[action='/destinations'] button[type='submit']", loads: false)
        #expect(try browser.path() == "/destinations/new", "the browser holds the form back")
        #expect(try Data(contentsOf: file) == before)

        try pickDate("#departure", "2026-12-11")
        #expect(
            try browser.execute("return document.querySelector('#departure-live').textContent;") as? String == "")
        try browser.click("form[action='/destinations'] button[type='submit']")
        #expect(try browser.path() == "/trips/nordic-budget/destinations/3")
        #expect(try browser.text().contains("\nLisbon\n"))
        #expect(try browser.execute("return document.querySelector('#destination-map').hidden;") as? Bool == false)
        #expect(
            try browser.execute("return document.querySelectorAll('#destination-map path.leaflet-interactive').length;")
                as? Int == 1)
    }

    /// The other ways to place: a finger held on the map of a phone, and a right-click.
    ///
    /// A task's side has its own map, which sets the task's place and leaves its name alone.
    @Test(
        .enabled(if: needsTools, "needs chromium, chromedriver and curl (Debian: chromium, chromium-driver, curl)"),
        .timeLimit(.minutes(2)))
    func aFingerHeldOnTheMapAndARightClickPlaceToo() throws {
        let walk = try appWalk(today: "2026-12-02")
        defer { walk.stop() }
        let (server, driver) = (walk.server, walk.driver)

        let phone = try driver.startSession(phone: true)
        try phone.open("\(server.base)/destinations/new?trip=nordic-budget")
        try phone.execute(Self.centre("#place-map", 64.1355, -21.8954, zoom: 11))
        try phone.press("#place-map", pointer: "touch", milliseconds: 800)
        #expect(try Self.near(phone, "#lat", 64.1355))
        #expect(try Self.near(phone, "#lon", -21.8954))
        try phone.waitForValue("#name", "Reykjavík", seconds: Self.placesPatience)
        phone.end()

        let browser = try driver.startSession()
        defer { browser.end() }
        let detour = "/trips/nordic-budget/destinations/1/detours"
        try browser.open("\(server.base)/trips/nordic-budget/destinations/1")
        try browser.click("form[action='\(detour)'] button")
        #expect(
            try browser.execute("return document.querySelectorAll('.pane .map:not([hidden])').length;") as? Int == 2)
        try browser.execute(Self.centre("#left-map", 59.3293, 18.0686, zoom: 12))
        try browser.press("#left-map", button: 2, milliseconds: 50)
        #expect(try Self.near(browser, "#left-lat", 59.3293))
        #expect(try Self.near(browser, "#left-lon", 18.0686))
        #expect(try browser.value("#left-name").isEmpty, "a task is not named after a town")
        #expect(try browser.value("#right-lat").isEmpty)
    }

    /// A name that is markup, written into a trip file by someone else, is shown on a
    /// destination's map as the text it is: no element is made of it.
    @Test(
        .enabled(if: needsTools, "needs chromium, chromedriver and curl (Debian: chromium, chromium-driver, curl)"),
        .timeLimit(.minutes(2)))
    func aNameThatIsMarkupIsShownOnTheMapAsText() throws {
        let walk = try appWalk(today: "2026-12-02")
        defer { walk.stop() }
        let hostile = "<img src=x id=injected>Oslo"
        let text = try String(contentsOf: walk.file, encoding: .utf8)
        let escaped = hostile.replacingOccurrences(of: "\"", with: "\\\"")
        try text.replacingOccurrences(of: "\"name\": \"Oslo\"", with: "\"name\": \"\(escaped)\"")
            .write(to: walk.file, atomically: true, encoding: .utf8)
        let browser = try walk.driver.startSession()
        defer { browser.end() }
        try browser.open("\(walk.server.base)/trips/nordic-budget/destinations/2")
        try browser.waitForText(hostile, seconds: 10)
        // Every pin's name shown, as hovering each would show it.
        try browser.execute(
            "document.querySelector('#destination-map').detourMap.eachLayer(l => l.getTooltip && l.getTooltip() && l.openTooltip());"
        )
        #expect(try browser.execute("return document.querySelectorAll('#injected').length;") as? Int == 0)
        let tooltips =
            try browser.execute(
                "return Array.from(document.querySelectorAll('.leaflet-tooltip')).map(t => t.textContent);")
            as? [String]
        #expect(tooltips?.contains(hostile) == true, "\(tooltips ?? [])")
    }

    /// From the keyboard: the search box finds "Reykjavík" from "reykjav", its button centres
    /// the map there and hands it the focus, and Enter puts the place at the centre, named.
    @Test(
        .enabled(if: needsTools, "needs chromium, chromedriver and curl (Debian: chromium, chromium-driver, curl)"),
        .timeLimit(.minutes(2)))
    func aPlaceIsFoundByNameAndPutFromTheKeyboard() throws {
        let walk = try appWalk(today: "2026-12-02")
        defer { walk.stop() }
        let browser = try walk.driver.startSession()
        defer { browser.end() }
        try browser.open("\(walk.server.base)/destinations/new?trip=nordic-budget")
        try browser.type("#place-map-search", "reykjav")
        try browser.waitForText("Reykjavík, IS", seconds: Self.placesPatience)
        #expect(try browser.text().contains("1 place found."))
        try browser.click(".map-results button", loads: false)
        #expect(try browser.execute("return document.activeElement.id;") as? String == "place-map")
        // Enter, as WebDriver names the key.
        try browser.type("#place-map", "\u{E007}")
        #expect(try Self.near(browser, "#lat", 64.13548))
        #expect(try Self.near(browser, "#lon", -21.89541))
        try browser.waitForValue("#name", "Reykjavík", seconds: Self.placesPatience)
        #expect(try browser.path() == "/destinations/new", "Enter on the map does not send the form")
    }
}

extension ServeBrowserTests {
    /// The destination list of a person with two trips of their own and one shared with them,
    /// and what a viewer of the shared one sees.
    ///
    /// Ana shares her Nordic trip with Bo as a viewer from its preview. Bo's list holds the
    /// stays of his Lisbon and Scandinavian trips and of hers, in the three sections and their
    /// order, hers marked as shared by her. Her stay and its detour show Bo no button, form or
    /// link to change them, and a change asked for by its address is refused.
    @Test(
        .enabled(if: needsTools, "needs chromium, chromedriver and curl (Debian: chromium, chromium-driver, curl)"),
        .timeLimit(.minutes(2)))
    func theSectionsHoldEveryTripOfAPersonAndAViewerSeesNoControl() throws {
        let cli = try CommandRunner.built()
        let owners = [("ana@example.org", ["nordic-budget.json"]), ("bo@example.org", Self.bosTrips)]
        var folders: [String: String] = [:]
        for (email, samples) in owners {
            let added = try cli.run(
                ["user", "add", email, trips.url.path], stdin: Data("correct horse battery\n".utf8))
            try #require(added.status == 0, "\(added.stderr)")
            // `Added EMAIL; its trips go in DIR/accounts/FOLDER/`
            let folder = try #require(added.output.split(separator: " ").last.map(String.init))
            folders[email] = folder.trimmingCharacters(in: .whitespacesAndNewlines)
            for sample in samples {
                try FileManager.default.copyItem(
                    at: Fixtures.samples.appendingPathComponent(sample),
                    to: URL(fileURLWithPath: try #require(folders[email])).appendingPathComponent(sample))
            }
        }
        let anasFolder = try #require(folders["ana@example.org"].map { URL(fileURLWithPath: $0).lastPathComponent })
        let server = try ServerProcess(folder: trips.url, arguments: ["--accounts", "--today", "2026-12-02"])
        defer { server.stop() }
        let driver = try ChromeDriver(folder: browserFiles.url)
        defer { driver.stop() }
        let browser = try driver.startSession()
        defer { browser.end() }

        try Self.logIn(browser, server, "ana@example.org")
        try browser.open("\(server.base)/trips/nordic-budget")
        try browser.type("#share-email", "bo@example.org")
        try browser.click("form:has(#share-email) button")
        #expect(try browser.text().contains("Shared with: bo@example.org (viewer)"), "\((try? browser.text()) ?? "")")
        // What counts as a control: on her own stay, Ana has them.
        let controls = """
            return document.querySelectorAll('form:not([action="/logout"]), input:not(form[action="/logout"] input), select, textarea, a[href*="delete"]').length;
            """
        try browser.open("\(server.base)/trips/nordic-budget/destinations/1")
        #expect(try browser.execute(controls) as? Int ?? 0 > 2)
        try browser.click("form[action='/logout'] button")

        try Self.logIn(browser, server, "bo@example.org")
        let rows = #"""
            return Array.from(document.querySelectorAll('section[aria-labelledby^="section-"]')).map(s =>
                [s.querySelector('h2').textContent].concat(Array.from(s.querySelectorAll('li')).map(l => l.textContent)));
            """#
        let sections = try #require(try browser.execute(rows) as? [[String]])
        let nordic = "Stockholm and Oslo on a budget, shared by ana@example.org"
        #expect(
            sections == [
                ["Coming up", "Oslo Fri 4 Dec 2026 – Mon 7 Dec 2026 \(nordic)"],
                [
                    "Under way", "Stockholm Tue 1 Dec 2026 – Fri 4 Dec 2026 \(nordic)",
                    "Lisbon Tue 1 Dec 2026 – Sat 5 Dec 2026 Lisbon in December",
                ],
                [
                    "Done", "Bergen Fri 27 Nov 2026 – Tue 1 Dec 2026 Scandinavia by rail",
                    "Oslo Tue 24 Nov 2026 – Fri 27 Nov 2026 Scandinavia by rail",
                    "Göteborg Fri 20 Nov 2026 – Tue 24 Nov 2026 Scandinavia by rail",
                    "Malmö Wed 18 Nov 2026 – Fri 20 Nov 2026 Scandinavia by rail",
                    "Copenhagen Sat 14 Nov 2026 – Wed 18 Nov 2026 Scandinavia by rail",
                ],
            ], "\(sections)")

        // Ana's stay and its first detour, opened from the list as Bo would.
        let stay = "/shared/\(anasFolder)/trips/nordic-budget/destinations/1"
        try browser.click("section.now a[href='\(stay)']")
        #expect(try browser.path() == stay)
        #expect(try browser.text().contains("\nStockholm\n"))
        #expect(try browser.execute(controls) as? Int == 0, "a viewer sees a control on \(stay)")
        try browser.click("ul.detours a")
        #expect(try browser.path() == "\(stay)/detours/1")
        #expect(try browser.execute("return document.querySelectorAll('.pane').length;") as? Int == 2)
        #expect(try browser.execute(controls) as? Int == 0, "a viewer sees a control on a detour")

        // Asked for by its address, the page that deletes the stay answers as the API does.
        try browser.open("\(server.base)\(stay)/delete")
        #expect(try browser.text().contains("share-read-only"), "\((try? browser.text()) ?? "")")
    }

    /// Bo's own trips in the walk above: one under way on its day, one over.
    static let bosTrips = ["lisbon-city-break.json", "scandinavia-rail.json"]

    /// Logs `email` in with the walks' password, from the login page.
    fileprivate static func logIn(_ browser: WebDriverSession, _ server: ServerProcess, _ email: String) throws {
        try browser.open("\(server.base)/login")
        try browser.type("#email", email)
        try browser.type("#password", "correct horse battery")
        try browser.click("form[action='/login'] button")
        #expect(try browser.path() == "/")
    }
}

extension ServeBrowserTests {
    /// A report with long stay names, at 1,280 px: every header of the overview on one line
    /// ("Nights" broke as "Night/s"), and no word of a figure cut.
    @Test(
        .enabled(if: needsTools, "needs chromium, chromedriver and curl (Debian: chromium, chromium-driver, curl)"),
        .timeLimit(.minutes(1)))
    func theOverviewsHeadersStayWholeBesideLongStayNames() throws {
        let stays = (0..<4).map { index in
            """
            {"name": "Agriturismo Il Poggio delle Ginestre e dei Cipressi sopra Montepulciano \(index)",
             "location": {"lat": 43.09, "lon": 11.78}, "arrival": "2027-04-1\(index)", "departure": "2027-04-1\(index + 1)"}
            """
        }
        let trip = "{\"title\": \"Tuscany\", \"destinations\": [\(stays.joined(separator: ","))]}"
        try Data(trip.utf8).write(to: trips.url.appendingPathComponent("tuscany.json"))
        let server = try ServerProcess(folder: trips.url, arguments: ["--today", "2027-04-01"])
        defer { server.stop() }
        let driver = try ChromeDriver(folder: browserFiles.url)
        defer { driver.stop() }
        let browser = try driver.startSession()
        defer { browser.end() }
        try WebDriverSession.send("POST", "\(browser.base)/window/rect", body: ["width": 1280, "height": 900])
        try browser.open("\(server.base)/trips/tuscany")
        // Each header on one line; in every other cell but the stay's name, no word broken
        // across two lines (a cell may wrap between words).
        let broken = """
            const cut = [];
            for (const th of document.querySelectorAll('section.overview th')) {
                const range = document.createRange(); range.selectNodeContents(th);
                if (new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top))).size > 1) cut.push(th.textContent);
            }
            for (const td of document.querySelectorAll('section.overview td:not(:first-child)')) {
                const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                    for (const word of node.data.matchAll(/\\S+/g)) {
                        const range = document.createRange();
                        range.setStart(node, word.index); range.setEnd(node, word.index + word[0].length);
                        if (new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top))).size > 1) cut.push(word[0]);
                    }
                }
            }
            return cut;
            """
        let found = try browser.execute(broken) as? [String]
        #expect(found == [], "broken across lines: \(found ?? [])")
        #expect(try browser.execute("return window.innerWidth;") as? Int ?? 0 >= 1200)
    }
}

/// A walk through the app's screens: the sample in the folder, `serve` on it, and chromedriver.
private struct AppWalk {
    let file: URL
    let server: ServerProcess
    let driver: ChromeDriver

    func stop() {
        driver.stop()
        server.stop()
    }
}

extension ServeBrowserTests {
    /// The sample copied into the folder, `serve` started on it as of `today`, and chromedriver.
    fileprivate func appWalk(today: String) throws -> AppWalk {
        let file = trips.url.appendingPathComponent(Self.sample)
        try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent(Self.sample), to: file)
        let server = try ServerProcess(folder: trips.url, arguments: ["--today", today])
        do {
            return AppWalk(file: file, server: server, driver: try ChromeDriver(folder: browserFiles.url))
        } catch {
            server.stop()
            throw error
        }
    }
}

/// Watches one preview page: saves its trip as an editor does and waits for the page to follow,
/// counting the page's loads in the server's request log.
private struct PreviewWatcher {
    let browser: WebDriverSession
    let server: ServerProcess
    let name: String

    /// The longest wait for a page to follow a save, in seconds: a bound on a broken server.
    static let patience = 10.0

    /// The server's request log: one line per request, `GET /trips/NAME 200 …`.
    var requestLog: [Substring] { Self.requests(server.stderr) }

    /// The requests of the log `text`.
    static func requests(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.hasPrefix("GET /") }
    }

    /// How many times the page was sent.
    var pageLoads: Int { pageLoads(requestLog) }

    func pageLoads(_ log: [Substring]) -> Int { log.count { $0.hasPrefix("GET /trips/\(name) 200 ") } }

    /// How many times a page opened the trip's event stream.
    func streams(_ log: [Substring]) -> Int { log.count { $0.hasPrefix("GET /trips/\(name)/events 200 ") } }

    /// Saves `text` to `file` once the page listens for changes, then waits until the page,
    /// reloaded by its own script, shows `expected`, the page having been sent `loads` times.
    func save(_ text: String, to file: URL, thenShows expected: String, loads: Int) throws {
        // The save must reach the page through the stream, not as the version a new stream starts with.
        try waitUntil("each page load opened its event stream") { log in streams(log) >= pageLoads(log) }
        try browser.execute("window.detourBeforeSave = true; return true;")
        try Editor.saveLikeVim(text, to: file)
        try waitUntilShown(expected, loads: loads)
        let kept = try browser.execute("return window.detourBeforeSave === true;") as? Bool
        #expect(kept == false, "the page shows \(expected) without having been reloaded")
    }

    /// Waits until the page has been sent `loads` times and shows `expected`, then checks it was
    /// sent no more often.
    func waitUntilShown(_ expected: String, loads: Int) throws {
        try waitUntil("the page was sent \(loads) times") { pageLoads($0) >= loads }
        do {
            try browser.waitForText(expected, seconds: Self.patience)
        } catch {
            let seen = (try? browser.text()) ?? ""
            throw WebDriverError(
                "\(error); the page shows: \(seen.prefix(600)); requests: \(requestLog); server: \(server.stderr.suffix(400))"
            )
        }
        #expect(pageLoads == loads, "page loads once it shows \(expected): \(requestLog)")
    }

    /// Waits, woken by each line the server logs, until its request log satisfies `condition`.
    func waitUntil(_ what: String, _ condition: ([Substring]) -> Bool) throws {
        guard server.waitForError(timeout: Self.patience, until: { condition(Self.requests($0)) }) else {
            throw WebDriverError("after \(Int(Self.patience)) s, still not so: \(what); requests: \(requestLog)")
        }
    }
}

/// Saves files as vim does by default: it checks that it may create files in the folder (its
/// `4913` probe), writes the new bytes to another file there, and renames that over the old one.
private enum Editor {
    static func saveLikeVim(_ text: String, to file: URL) throws {
        let folder = file.deletingLastPathComponent()
        let probe = folder.appendingPathComponent("4913")
        try Data().write(to: probe)
        try FileManager.default.removeItem(at: probe)
        let temporary = folder.appendingPathComponent(file.lastPathComponent + ".tmp")
        try Data(text.utf8).write(to: temporary)
        guard rename(temporary.path, file.path) == 0 else {
            throw WebDriverError("rename \(temporary.path) to \(file.path): errno \(errno)")
        }
    }
}

/// A failure to drive the browser, or a wait that ran out.
private struct WebDriverError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// chromedriver on a port it chooses (`--port=0`, read from the line it prints), its output in a
/// file; ``stop()`` (or the value going away) shuts it down with its browsers.
private final class ChromeDriver {
    /// `http://127.0.0.1:PORT`.
    let base: String
    let process: Process
    let folder: URL
    private let logURL: URL
    /// Signalled once, when chromedriver ends.
    private let exited = DispatchSemaphore(value: 0)

    /// Starts chromedriver, keeping its log and the browser's profile in `folder`; waits, reading
    /// its output as it comes, for the port it listens on (at most 20 s: a bound on a broken
    /// chromedriver).
    init(folder: URL) throws {
        let executable = try Tool.path("chromedriver").orThrow("chromedriver is not installed")
        self.folder = folder
        logURL = folder.appendingPathComponent("chromedriver.log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        let output = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--port=0", "--log-path=\(logURL.path)"]
        process.standardOutput = output
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        try log.close()
        self.process = process
        // `ChromeDriver was started successfully on port 41235.`
        let marker = "started successfully on port "
        var text = ""
        var port: Int?
        var poller = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while port == nil, poll(&poller, 1, 20_000) > 0 {
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { break }
            text += String(decoding: data, as: UTF8.self)
            if let found = text.range(of: marker), text[found.upperBound...].contains(".") {
                port = Int(text[found.upperBound...].prefix { $0.isNumber })
            }
        }
        guard let port, port > 0 else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw WebDriverError("chromedriver did not say where it listens: \(text)")
        }
        base = "http://127.0.0.1:\(port)"
    }

    /// What chromedriver printed.
    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// A new headless Chromium session.
    ///
    /// With `phone`, it shows pages as a phone 390 px wide does, with touch.
    func startSession(phone: Bool = false) throws -> WebDriverSession {
        let arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--window-size=1200,900", "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
        ]
        var options: [String: Any] = ["args": arguments]
        if let chromium = Tool.path("chromium") { options["binary"] = chromium }
        if phone {
            options["mobileEmulation"] = [
                "deviceMetrics": ["width": 390, "height": 844, "pixelRatio": 3, "touch": true]
            ]
        }
        let capabilities: [String: Any] = [
            "capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": options]]
        ]
        let created = try WebDriverSession.send("POST", "\(base)/session", body: capabilities)
        guard let value = created as? [String: Any], let id = value["sessionId"] as? String else {
            throw WebDriverError("chromedriver made no session: \(created ?? "nothing"); \(log)")
        }
        return WebDriverSession(base: "\(base)/session/\(id)")
    }

    /// Shuts chromedriver down: `/shutdown` quits every browser it started; then SIGTERM, and
    /// SIGKILL after 5 s.
    func stop() {
        guard process.isRunning else { return }
        _ = try? Curl.request("\(base)/shutdown", extra: ["--max-time", "10"])
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        if exited.wait(timeout: .now() + 5) == .timedOut { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        stop()
    }
}

/// One WebDriver session: plain JSON over HTTP (W3C WebDriver).
private struct WebDriverSession {
    /// `http://127.0.0.1:PORT/session/ID`.
    let base: String

    /// Navigates to `url` and waits for the page to load.
    func open(_ url: String) throws {
        try Self.send("POST", "\(base)/url", body: ["url": url])
    }

    /// Runs `script` in the page (`execute/sync`) and returns what it returns.
    @discardableResult
    func execute(_ script: String) throws -> Any? {
        try Self.send("POST", "\(base)/execute/sync", body: ["script": script, "args": [Any]()])
    }

    /// Waits in the page until its title or visible text holds `expected`: a script that answers
    /// at once, or when a change to the document makes it so (`execute/async`, bounded by the
    /// session's script timeout).
    func waitForText(_ expected: String, seconds: Double) throws {
        try Self.send("POST", "\(base)/timeouts", body: ["script": Int(seconds * 1000)])
        let script = """
            const [expected, done] = arguments;
            const shows = () => (document.title + '\\n' + (document.body ? document.body.innerText : '')).includes(expected);
            if (shows()) { done(true); return; }
            new MutationObserver((_, observer) => {
                if (shows()) { observer.disconnect(); done(true); }
            }).observe(document, {subtree: true, childList: true, characterData: true});
            """
        try Self.send("POST", "\(base)/execute/async", body: ["script": script, "args": [expected]])
    }

    /// The path of the page shown.
    func path() throws -> String {
        try execute("return location.pathname;") as? String ?? ""
    }

    /// The element `selector` (CSS) finds, as WebDriver names it.
    func element(_ selector: String) throws -> String {
        let found = try Self.send("POST", "\(base)/element", body: ["using": "css selector", "value": selector])
        guard let reference = (found as? [String: Any])?.values.first as? String else {
            throw WebDriverError("no element \(selector)")
        }
        return reference
    }

    /// Clicks the element `selector` finds, as a person would.
    ///
    /// A click that `loads` a page returns once the page it was made on is gone: chromedriver's
    /// own wait can return before a form's post has begun to leave the page. A click that is
    /// held back (a form the browser refuses to send) returns at once.
    func click(_ selector: String, loads: Bool = true) throws {
        guard loads else {
            try Self.send("POST", "\(base)/element/\(try element(selector))/click", body: [:])
            return
        }
        try execute("window.detourClickedHere = true;")
        try Self.send("POST", "\(base)/element/\(try element(selector))/click", body: [:])
        try Self.send("POST", "\(base)/timeouts", body: ["script": 10_000])
        let left = """
            const done = arguments[0];
            if (window.detourClickedHere !== true) { done(true); return; }
            window.addEventListener('pagehide', () => done(true));
            """
        // The page the script runs on may go while it waits: chromedriver then answers with an
        // error, and the next command waits for the new page to load.
        let waited = Result { try Self.send("POST", "\(base)/execute/async", body: ["script": left, "args": [Any]()]) }
        if try execute("return window.detourClickedHere === true;") as? Bool != false {
            _ = try waited.get()
            throw WebDriverError("clicking \(selector) left the page as it was")
        }
    }

    /// Types `text` into the field `selector` finds.
    func type(_ selector: String, _ text: String) throws {
        try Self.send("POST", "\(base)/element/\(try element(selector))/value", body: ["text": text])
    }

    /// Presses the element `selector` finds, `dx` and `dy` pixels from its middle, with a
    /// `pointer` (`mouse`, or `touch`: a finger) and its `button` (0, or 2: the right one), held
    /// still for `milliseconds` (W3C WebDriver's actions).
    func press(
        _ selector: String, pointer: String = "mouse", button: Int = 0, milliseconds: Int, dx: Int = 0, dy: Int = 0
    ) throws {
        let origin = ["element-6066-11e4-a52e-4f735466cecf": try element(selector)]
        let steps: [[String: Any]] = [
            ["type": "pointerMove", "duration": 0, "origin": origin, "x": dx, "y": dy],
            ["type": "pointerDown", "button": button],
            ["type": "pause", "duration": milliseconds],
            ["type": "pointerUp", "button": button],
        ]
        let source: [String: Any] = [
            "type": "pointer", "id": pointer, "parameters": ["pointerType": pointer], "actions": steps,
        ]
        try Self.send("POST", "\(base)/actions", body: ["actions": [source]])
        try Self.send("DELETE", "\(base)/actions", body: nil)
    }

    /// Waits until the field `selector` finds holds `expected`: at once, or at the `input` event
    /// that makes it so (bounded by the session's script timeout, `seconds`).
    func waitForValue(_ selector: String, _ expected: String, seconds: Double) throws {
        try Self.send("POST", "\(base)/timeouts", body: ["script": Int(seconds * 1000)])
        let script = """
            const [selector, expected, done] = arguments;
            const field = document.querySelector(selector);
            if (field.value === expected) { done(true); return; }
            field.addEventListener('input', () => { if (field.value === expected) done(true); });
            """
        try Self.send("POST", "\(base)/execute/async", body: ["script": script, "args": [selector, expected]])
    }

    /// The value of the field `selector` finds.
    func value(_ selector: String) throws -> String {
        let script = "return document.querySelector(arguments[0]).value;"
        return try Self.send("POST", "\(base)/execute/sync", body: ["script": script, "args": [selector]]) as? String
            ?? ""
    }

    /// The page's title and visible text.
    func text() throws -> String {
        let value = try execute("return document.title + '\\n' + (document.body ? document.body.innerText : '');")
        return value as? String ?? ""
    }

    /// Deletes the session, which quits its browser.
    func end() {
        _ = try? Self.send("DELETE", base, body: nil)
    }

    /// Sends one command and returns its `value`, or throws the error chromedriver answers with.
    @discardableResult
    static func send(_ method: String, _ url: String, body: [String: Any]?) throws -> Any? {
        var headers: [String: String] = [:]
        var data: Data?
        if let body {
            data = try JSONSerialization.data(withJSONObject: body)
            headers["Content-Type"] = "application/json; charset=utf-8"
        }
        let reply = try Curl.request(url, method: method, headers: headers, body: data)
        let answer = try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
        let value = answer?["value"]
        guard reply.status == 200 else {
            let error = value as? [String: Any]
            throw WebDriverError(
                "\(method) \(url): \(reply.status) \(error?["error"] ?? "") \(error?["message"] ?? reply.text)")
        }
        return value is NSNull ? nil : value
    }
}
