import DetourCore

/// What a report shows, already formatted: the one place where plan data becomes text.
///
/// Templates only place these values. A value the templates show with `{{name}}` is user text
/// and is escaped by the template's content type; a value shown with `{{{name}}}` is made here
/// from typed data (numbers, dates, SVG geometry) and needs no escaping.
public struct ReportModel: Sendable {
    /// The trip's title.
    public var title: String
    /// The traveller, when given: the name written with the address, else the address.
    public var traveler: String?
    /// The day the plan is as of, formatted.
    public var today: String
    /// The day the plan is as of, `YYYY-MM-DD`.
    public var todayISO: String
    /// Future, now and past, in that order.
    public var sections: [SectionModel]
    /// The trip file's warnings.
    public var warnings: [WarningModel]
    /// How many destinations there are in all.
    public var destinationCount: Int
    /// The assumptions behind travel times and the recommendation rule, one line each.
    public var footnotes: [String]
    /// The overview the report opens with.
    public var overview: OverviewModel

    /// Builds the model of `plan`, with the warnings found while reading it.
    public init(plan: Plan, warnings: [Diagnostic]) {
        title = plan.title
        traveler = plan.traveler?.shown
        today = Formatting.day(plan.today)
        todayISO = plan.today.description
        var first = true
        sections = plan.sections.map { section in
            SectionModel(section, firstDestinationOfReport: &first)
        }
        self.warnings = warnings.map(WarningModel.init)
        destinationCount = plan.sections.reduce(0) { $0 + $1.destinations.count }
        footnotes = ReportModel.footnotes(plan)
        overview = OverviewModel(plan, warningCount: warnings.count)
    }

    static func footnotes(_ plan: Plan) -> [String] {
        let rule: String
        switch plan.preference {
        case .time:
            rule = "the side with the least total time (duration plus travel there and back); on a tie, the cheaper"
        case .cost: rule = "the cheaper side (same currency only); on a tie, the one with the least total time"
        case .distance: rule = "the side with the shortest travel; on a tie, the one with the least total time"
        }
        var lines = ["Recommended: \(rule)."]
        lines.append(
            "Travel is \(plan.defaultTravel.rawValue) unless a task says otherwise, at "
                + TravelMode.allCases.map { "\($0.rawValue) \(Int($0.kilometresPerHour)) km/h (\($0.source))" }
                .joined(separator: "; ") + ".")
        lines.append(
            "Without a path, the straight line is multiplied by \(Travel.detourFactor) (\(Travel.detourFactorSource)).")
        return lines
    }
}

/// One section of the report.
public struct SectionModel: Sendable {
    /// `future`, `now` or `past`.
    public var name: String
    /// The heading a reader sees: `Coming up`, `Under way`, `Done`.
    public var heading: String
    /// What an empty section says.
    public var emptyText: String
    /// Its destinations, in the section's order, each made when it is read.
    public var destinations: DestinationModels
    /// Whether the section starts a new printed page (it has destinations, and some came before).
    public var pageBreakBefore: Bool

    init(_ section: PlanSection, firstDestinationOfReport first: inout Bool) {
        name = section.kind.rawValue
        (heading, emptyText) = Self.words(section.kind)
        // Each destination starts a page when printed; the first of a section breaks before the
        // section's heading instead, so a heading never ends a page alone.
        pageBreakBefore = !first && !section.destinations.isEmpty
        destinations = DestinationModels(planned: section.destinations)
        if !section.destinations.isEmpty { first = false }
    }

    /// A section's heading, and what it says when it is empty: the report's and the app's.
    static func words(_ kind: SectionKind) -> (heading: String, emptyText: String) {
        switch kind {
        case .future: return ("Coming up", "Nothing planned ahead.")
        case .now: return ("Under way", "No stay is under way today.")
        case .past: return ("Done", "No stay has ended yet.")
        }
    }
}

/// A section's destinations, each made into a ``DestinationModel`` only when it is read.
///
/// A report is written one destination after another, so only the destination being written
/// needs its model: a trip of 20,000 destinations never holds 20,000 models' worth of text.
public struct DestinationModels: RandomAccessCollection, Sendable {
    let planned: [PlannedDestination]

    public var startIndex: Int { planned.startIndex }
    public var endIndex: Int { planned.endIndex }

    /// The model of the destination at `index`; each but the first starts a printed page.
    public subscript(index: Int) -> DestinationModel {
        DestinationModel(planned[index], pageBreakBefore: index > planned.startIndex)
    }
}

/// One destination of the report.
public struct DestinationModel: Sendable {
    /// The destination's name.
    public var name: String
    /// Arrival, formatted.
    public var arrival: String
    /// Departure, formatted.
    public var departure: String
    /// Arrival and departure as `YYYY-MM-DD`.
    public var arrivalISO: String
    /// Departure as `YYYY-MM-DD`.
    public var departureISO: String
    /// `4 nights`.
    public var nights: String
    /// `38.7223° N, 9.1393° W`.
    public var coordinate: String
    /// Whether this destination starts a new printed page.
    public var pageBreakBefore: Bool
    /// The little map, laid out when it is read: the Markdown report shows none, and laying out
    /// its labels is a tenth of the work of a destination.
    public var map: MapModel { MapModel(center: planned.destination.location, detours: planned.detours) }
    private let planned: PlannedDestination
    /// Its detours.
    public var detours: [DetourModel]
    /// Its totals, budget and schedule.
    public var plan: StayPlanModel

    init(_ planned: PlannedDestination, pageBreakBefore: Bool) {
        let destination = planned.destination
        name = destination.name
        arrival = Formatting.day(destination.arrival)
        departure = Formatting.day(destination.departure)
        arrivalISO = destination.arrival.description
        departureISO = destination.departure.description
        nights = Formatting.nights(destination.nights)
        coordinate = Formatting.coordinate(destination.location)
        self.pageBreakBefore = pageBreakBefore
        detours = planned.detours.enumerated().map { DetourModel($1, number: $0 + 1) }
        self.planned = planned
        plan = StayPlanModel(planned)
    }
}

/// One detour: its title and its two sides.
public struct DetourModel: Sendable {
    /// 1-based number within the destination.
    public var number: Int
    /// `Wheeze or Cheese`.
    public var title: String
    /// Whether a side is undecided.
    public var isDraft: Bool
    /// Always two sides; an undecided one has `isDecided == false`.
    public var sides: [SideModel]
    /// `1A Ride Tram 28`, or empty when no side is recommended.
    public var recommended: String
    /// Why that side, or why none.
    public var recommendationReason: String
    /// `1B Munch Museum`, the side chosen for the plan, or empty while undecided.
    public var chosen: String
    /// Whether a budget chose a side other than the recommended one.
    public var chosenByBudget: Bool

    init(_ detour: PlannedDetour, number: Int) {
        self.number = number
        title = detour.title
        isDraft = detour.isDraft
        if let side = detour.recommendation.side, side < detour.tasks.count {
            recommended = "\(number)\(side == 0 ? "A" : "B") \(detour.tasks[side].task.name)"
        } else {
            recommended = ""
        }
        recommendationReason = Formatting.reason(detour.recommendation)
        if let side = detour.chosen, side < detour.tasks.count {
            chosen = "\(number)\(side == 0 ? "A" : "B") \(detour.tasks[side].task.name)"
        } else {
            chosen = ""
        }
        chosenByBudget = detour.chosenBecause == .budget
        sides = (0..<Detour.sides).map { index in
            let label = "\(number)\(index == 0 ? "A" : "B")"
            guard index < detour.tasks.count else { return SideModel(undecided: label) }
            return SideModel(
                detour.tasks[index], label: label, index: index, better: detour.better,
                recommended: detour.recommendation.side)
        }
    }
}

/// One side of a detour, or an undecided placeholder.
public struct SideModel: Sendable {
    /// `1A`, `1B`: the side's mark on the map.
    public var label: String
    /// Whether there is a task on this side.
    public var isDecided: Bool
    /// The task's name.
    public var name: String
    /// `1h 30m`.
    public var duration: String
    /// `3.10 EUR`.
    public var cost: String
    /// `850 m`, or `unknown`.
    public var distance: String
    /// Whether the distance is known.
    public var hasDistance: Bool
    /// Reasons to pick it.
    public var pros: [String]
    /// Reasons not to.
    public var cons: [String]
    /// Whether this side is the better one on each figure.
    public var betterDuration: Bool
    /// Whether this side is cheaper.
    public var betterCost: Bool
    /// Whether this side is nearer.
    public var betterDistance: Bool
    /// `walk, 34m there and back`.
    public var travel: String
    /// Duration plus travel: `1h 34m`, or `unknown`.
    public var total: String
    /// Whether this side takes less time in all.
    public var betterTotal: Bool
    /// Whether this is the recommended side.
    public var isRecommended: Bool
    /// Where the task is, when it says.
    public var location: Coordinate?

    init(undecided label: String) {
        self.label = label
        isDecided = false
        name = "Undecided"
        duration = ""
        cost = ""
        distance = ""
        hasDistance = false
        pros = []
        cons = []
        betterDuration = false
        betterCost = false
        betterDistance = false
        travel = ""
        total = ""
        betterTotal = false
        isRecommended = false
    }

    init(_ planned: PlannedTask, label: String, index: Int, better: BetterSides, recommended: Int?) {
        self.label = label
        isDecided = true
        name = planned.task.name
        duration = Formatting.duration(planned.task.duration)
        cost = Formatting.money(planned.task.cost)
        hasDistance = planned.distanceMeters != nil || planned.routeMeters != nil
        distance = Formatting.distanceLabel(planned)
        pros = planned.task.pros
        cons = planned.task.cons
        betterDuration = better.duration == index
        betterCost = better.cost == index
        betterDistance = better.distance == index
        travel = Formatting.travel(planned)
        total = planned.totalMinutes.map(Formatting.minutes) ?? "unknown"
        betterTotal = better.totalTime == index
        isRecommended = recommended == index
        location = planned.task.location
    }
}

/// A warning about the trip file, shown at the end of the report.
public struct WarningModel: Sendable {
    /// The field it concerns.
    public var path: String
    /// What it says.
    public var message: String
    /// Its stable code, such as `draft-detour`.
    public var code: String

    init(_ diagnostic: Diagnostic) {
        path = diagnostic.path ?? ""
        message = diagnostic.fullMessage
        code = diagnostic.code.rawValue
    }
}

// MARK: - What templates read besides the stored properties

// The template engine looks keys up through `MustacheParent` conformances that the template
// compiler generates from TemplateSchema.swift: a `switch` per model type rather than Mirror
// reflection, which would allocate for each of the millions of lookups of a large report.

extension ReportModel {
    /// What templates read as `hasWarnings`.
    var hasWarnings: Bool { !warnings.isEmpty }

    /// What templates read as `destinationSummary`.
    var destinationSummary: String { destinationCount == 1 ? "1 destination" : "\(destinationCount) destinations" }
}

extension SectionModel {
    /// What templates read as `isEmpty`.
    var isEmpty: Bool { destinations.isEmpty }
}

extension DestinationModel {
    /// What templates read as `hasDetours`.
    var hasDetours: Bool { !detours.isEmpty }

    /// What templates read as `mapLink`: the stay on OpenStreetMap (see ``Formatting/mapLink(_:)``).
    var mapLink: String { Formatting.mapLink(planned.destination.location) }
}

extension DetourModel {
    /// What templates read as `left`.
    var left: SideModel { sides[0] }

    /// What templates read as `right`.
    var right: SideModel { sides[1] }

    /// What templates read as `hasRecommendation`.
    var hasRecommendation: Bool { !recommended.isEmpty }

    /// What templates read as `hasChosen`.
    var hasChosen: Bool { !chosen.isEmpty }

    /// What templates read as `hasPros`: whether either side has a pro.
    var hasPros: Bool { sides.contains(where: \.hasPros) }

    /// What templates read as `hasCons`: whether either side has a con.
    var hasCons: Bool { sides.contains(where: \.hasCons) }
}

extension SideModel {
    /// What templates read as `hasPros`.
    var hasPros: Bool { !pros.isEmpty }

    /// What templates read as `hasMapLink`: whether the task has a location.
    var hasMapLink: Bool { location != nil }

    /// What templates read as `mapLink`: the task on OpenStreetMap, or empty without a location.
    var mapLink: String { location.map(Formatting.mapLink) ?? "" }

    /// What templates read as `hasCons`.
    var hasCons: Bool { !cons.isEmpty }
}

extension WarningModel {
    /// What templates read as `hasPath`.
    var hasPath: Bool { !path.isEmpty }
}
