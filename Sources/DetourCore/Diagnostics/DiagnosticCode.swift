/// The stable name of every problem detour-report reports.
///
/// A code never changes its meaning once released; `docs/diagnostics.md` has a section for each
/// (what it means, how to fix it), and a test keeps the two lists equal. The raw value is what
/// users see and search for: `[departure-not-after-arrival]`.
public enum DiagnosticCode: String, Sendable, Hashable, CaseIterable {
    // MARK: Reading any trip file

    /// The file is larger than the input limit.
    case fileTooLarge = "file-too-large"
    /// The file holds nothing but white space.
    case emptyFile = "empty-file"
    /// The file is compressed (gzip, zip, …).
    case compressedFile = "compressed-file"
    /// The file's character encoding is not one detour-report reads.
    case unsupportedEncoding = "unsupported-encoding"
    /// The bytes are not valid UTF-8.
    case invalidUTF8 = "invalid-utf8"
    /// The file could not be opened or read.
    case readFailed = "read-failed"

    // MARK: Trip JSON

    /// The JSON is not well-formed.
    case jsonSyntax = "json-syntax"
    /// An object has the same key twice.
    case jsonDuplicateKey = "json-duplicate-key"
    /// Arrays and objects are nested too deeply.
    case jsonTooDeep = "json-too-deep"
    /// A key the trip format does not have.
    case unknownKey = "unknown-key"
    /// A value of the wrong JSON type.
    case wrongType = "wrong-type"

    // MARK: GPX

    /// The XML is not well-formed.
    case xmlSyntax = "xml-syntax"
    /// Elements are nested too deeply.
    case xmlTooDeep = "xml-too-deep"
    /// The document has a DOCTYPE.
    case xmlDoctype = "xml-doctype"
    /// One element has more attributes than any GPX element needs.
    case xmlTooManyAttributes = "xml-too-many-attributes"
    /// The root element is not GPX.
    case notGPX = "not-gpx"
    /// Waypoints with neither `dr:stay` nor `dr:task`.
    case gpxPlainWaypoints = "gpx-plain-waypoints"
    /// A `dr:` element the mapping does not have.
    case unknownElement = "unknown-element"
    /// An attribute a `dr:` element does not have.
    case unknownAttribute = "unknown-attribute"
    /// A `dr:task` or `dr:path` lacks an attribute that ties it to the trip.
    case gpxMissingAttribute = "gpx-missing-attribute"
    /// A `dr:task` or `dr:path` names a stay id that no `dr:stay` has.
    case gpxUnknownStay = "gpx-unknown-stay"
    /// Two `dr:stay` elements share an id.
    case gpxDuplicateStayID = "gpx-duplicate-stay-id"
    /// One waypoint holds two `dr:stay` elements.
    case gpxTwoStays = "gpx-two-stays"
    /// A `side` attribute that is not 1 or 2.
    case gpxBadSide = "gpx-bad-side"
    /// Two tasks of one detour claim the same side.
    case gpxDuplicateSide = "gpx-duplicate-side"
    /// A `dr:path` names a task its stay does not have.
    case gpxUnknownPathTask = "gpx-unknown-path-task"
    /// A `dr:path` names a task by a name several tasks share.
    case gpxAmbiguousPathTask = "gpx-ambiguous-path-task"
    /// Two routes or tracks are the path of one task.
    case gpxTwoPaths = "gpx-two-paths"
    /// A `dr:` element given twice where it may stand once (a second `dr:budget` in a stay).
    case gpxDuplicateElement = "gpx-duplicate-element"
    /// An element inside a text-only element (`dr:pro`, `name`, …).
    case gpxElementInText = "gpx-element-in-text"

    // MARK: Trip rules (the same for every format)

    /// A required field is absent.
    case missingField = "missing-field"
    /// A name, title, pro or con is empty or white space only.
    case blankText = "blank-text"
    /// Text holds a control character.
    case controlCharacter = "control-character"
    /// Text with U+FFFE or U+FFFF, which are not characters.
    case noncharacter = "noncharacter"
    /// Text is longer than the limit for any text.
    case textTooLong = "text-too-long"
    /// The traveller is not an email address.
    case badEmail = "bad-email"
    /// A travel mode that is not walk, cycle, transit or drive.
    case badTravelMode = "bad-travel-mode"
    /// A day that is not a calendar day in `YYYY-MM-DD`.
    case badDay = "bad-day"
    /// A stay's departure is not after its arrival.
    case departureNotAfterArrival = "departure-not-after-arrival"
    /// A latitude or longitude that is not a decimal number.
    case badCoordinate = "bad-coordinate"
    /// A latitude or longitude outside its range.
    case coordinateOutOfRange = "coordinate-out-of-range"
    /// A duration that cannot be read or is not allowed.
    case badDuration = "bad-duration"
    /// A cost amount that cannot be read or is not allowed.
    case badAmount = "bad-amount"
    /// A currency that is not three capital letters.
    case badCurrency = "bad-currency"
    /// Three capital letters that are not in the bundled ISO 4217 list.
    case unknownCurrency = "unknown-currency"
    /// A detour with fewer than two tasks.
    case draftDetour = "draft-detour"
    /// A detour with more than two tasks.
    case tooManySides = "too-many-sides"
    /// A task without a location, so its distance is unknown.
    case taskWithoutLocation = "task-without-location"
    /// A path with fewer than two points.
    case shortPath = "short-path"
    /// A path that starts or ends far from where it should.
    case pathFarFromEnds = "path-far-from-ends"
    /// A task is more than 500 km from its stay (latitude and longitude swapped?).
    case taskFarFromStay = "task-far-from-stay"
    /// An exchange rate that cannot be read or is not allowed.
    case badRate = "bad-rate"
    /// Rates are given but the trip has no currency to convert into.
    case ratesWithoutCurrency = "rates-without-currency"
    /// Two rates for one currency.
    case duplicateRate = "duplicate-rate"
    /// Hours a day that cannot be read or are not allowed.
    case badDayHours = "bad-day-hours"
    /// More destinations than the limit.
    case tooManyDestinations = "too-many-destinations"
    /// More detours than the limit.
    case tooManyDetours = "too-many-detours"
    /// More tasks than the limit.
    case tooManyTasks = "too-many-tasks"
    /// More path points than the limit.
    case tooManyPathPoints = "too-many-path-points"
    /// A stay lasts more nights than one stay may.
    case stayTooLong = "stay-too-long"
    /// The trip's stays last more nights in all than a trip may.
    case tooManyNights = "too-many-nights"

    // MARK: Planning

    /// The chosen sides cost more than a budget, even at their cheapest.
    case overBudget = "over-budget"
    /// A rate needed to total costs in the trip's currency is not declared.
    case missingRate = "missing-rate"
    /// Two stays overlap by more than a changeover day.
    case overlappingStays = "overlapping-stays"
    /// A stay's chosen sides do not all fit on its days.
    case unscheduledSides = "unscheduled-sides"

    // MARK: Running detour-report

    /// The command line is wrong: an unknown option, a bad value, a missing argument.
    case usage = "usage"
    /// `--today` is not a calendar day.
    case badToday = "bad-today"
    /// `SOURCE_DATE_EPOCH` is not a number of seconds.
    case badSourceDateEpoch = "bad-source-date-epoch"
    /// The output file cannot be created or replaced.
    case cannotCreateOutput = "cannot-create-output"
    /// Writing the output failed part-way.
    case writeFailed = "write-failed"
    /// A PDF was asked for and no browser to print it with was found, or the one named cannot
    /// be started.
    case noBrowser = "no-browser"
    /// The browser printing a PDF ended, stopped answering, or refused the report.
    case printFailed = "print-failed"
    /// `serve`'s port is taken by another program.
    case portInUse = "port-in-use"
    /// An account's address does not follow the e-mail rule.
    case invalidEmail = "invalid-email"
    /// A new password breaks a rule: too short, too long, too common, or not typed the same twice.
    case weakPassword = "weak-password"
    /// An account with that address exists already.
    case emailTaken = "email-taken"
    /// No account has that address.
    case unknownAccount = "unknown-account"
    /// The accounts' database cannot be opened, migrated or written.
    case accountsFailed = "accounts-failed"
    /// `import`: what the draft trip holds only as a placeholder (days, durations, costs).
    case importDraft = "import-draft"
    /// `import`: points of the file that are no place (no position, or coordinates that are
    /// not numbers), left out.
    case importSkipped = "import-skipped"
    /// `import`: the file holds no waypoint, route, track, point or line.
    case nothingToImport = "nothing-to-import"
    /// A GPX file holds no detour-report trip (no `dr:` element at all).
    case gpxNoTrip = "gpx-no-trip"
    /// Two trips of a batch run would write reports of the same name.
    case outputNameClash = "output-name-clash"
    /// A file in a folder of trips would be a trip but for the case of its extension
    /// (`Lisbon.JSON`): it is left out.
    case tripExtensionCase = "trip-extension-case"
    /// `--check`: a report on disk is not what rendering writes now (or is missing, or no trip
    /// writes it).
    case reportDiffers = "report-differs"
    /// A file `detour-report index` reads is not an index a batch run wrote.
    case indexUnreadable = "index-unreadable"
    /// `detour-report index` found some shards of a job but not all.
    case indexShardMissing = "index-shard-missing"
    /// A template file given with `--templates` is missing.
    case templateMissing = "template-missing"
    /// A template does not compile, or would nest or include too deeply to render.
    case templateInvalid = "template-invalid"
    /// A template writes user text without escaping it for its format.
    case templateUnescaped = "template-unescaped"
    /// A template uses a key the report model does not have.
    case templateUnknownKey = "template-unknown-key"

    /// How serious a problem of this kind is.
    public var severity: Severity {
        switch self {
        case .unknownKey, .unknownElement, .unknownAttribute, .gpxPlainWaypoints, .unknownCurrency,
            .draftDetour, .taskWithoutLocation, .pathFarFromEnds, .taskFarFromStay, .templateUnescaped,
            .templateUnknownKey, .overBudget,
            .missingRate, .overlappingStays, .unscheduledSides, .indexShardMissing, .importDraft, .importSkipped,
            .tripExtensionCase:
            return .warning
        default:
            return .error
        }
    }
}
