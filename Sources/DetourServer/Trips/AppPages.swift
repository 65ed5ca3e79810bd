import DetourCore
import DetourJob
import DetourRender
import Hummingbird

/// The app's screens: the destination list (`/`) and each destination's page, made of the same
/// trip files as the reports.
enum AppPages {
    /// `/`: the destinations of the person's trips and of those shared with them, in three
    /// sections.
    static func destinations(_ request: Request, context: ServerContext) async throws -> Response {
        let workspace = try context.trips()
        let today = workspace.settings.today()
        // The folder's part is kept until a trip or the day changes, as the index is.
        let own = try await workspace.library.listed("destinations", today: today) { found in
            listed(found, base: "/trips")
        }
        var trips = own.trips
        var unlisted = own.unlisted
        for shared in try await sharedTrips(context, today: today) {
            switch shared {
            case .listed(let trip): trips.append(trip)
            case .unlisted(let link): unlisted.append(link)
            }
        }
        var page = ServerPageModel(
            title: "Destinations", chrome: ChromeModel(bar: Chrome.bar(context.identity)), hasBack: false)
        page.destinations = DestinationListModel(
            trips: trips, unlisted: unlisted, today: today,
            addHref: workspace.settings.readOnly ? "" : "/destinations/new")
        return Replies.page(page, status: .ok)
    }

    /// The folder's trips that read as valid, and links to those that do not, by name.
    static func listed(
        _ found: [(TripFile, (TripSnapshot, RenderResult)?)], base: String
    ) -> (trips: [ListedTrip], unlisted: [PageLinkModel]) {
        var trips: [ListedTrip] = []
        var unlisted: [PageLinkModel] = []
        for (file, read) in found {
            let href = "\(base)/\(file.name.text)"
            if let trip = read?.1.trip {
                trips.append(ListedTrip(trip: trip, href: href))
            } else {
                unlisted.append(PageLinkModel(text: file.fileName, href: href))
            }
        }
        return (trips, unlisted)
    }

    /// A trip shared with the account, as the list shows it.
    enum Shared {
        case listed(ListedTrip)
        case unlisted(PageLinkModel)
    }

    /// The trips shared with the request's account, each read from its owner's folder.
    static func sharedTrips(_ context: ServerContext, today: CalendarDay) async throws -> [Shared] {
        guard let accounts = context.accounts, let identity = context.identity else { return [] }
        var found: [Shared] = []
        for share in try await accounts.store.sharedTrips(memberID: identity.accountID) {
            let href = "/shared/\(share.ownerID)/trips/\(share.trip)"
            let link = PageLinkModel(text: "\(share.trip), shared by \(share.ownerEmail)", href: href)
            // A share of a trip its owner has since removed lists nothing.
            guard let name = TripName(decoded: share.trip), let workspace = try? accounts.workspace(for: share.ownerID),
                let snapshot = try? await workspace.current(name)
            else { continue }
            guard let trip = await workspace.library.check(snapshot, today: today).trip else {
                found.append(.unlisted(link))
                continue
            }
            found.append(.listed(ListedTrip(trip: trip, href: href, sharedBy: share.ownerEmail)))
        }
        return found
    }

    /// `/trips/NAME/destinations/N`: the destination's name, days, detours and the trip's reports.
    static func destination(_ request: Request, context: ServerContext) async throws -> Response {
        switch try await AppDetours.place(context) {
        case .invalid(let redirect): return redirect
        case .place(let place): return try destinationPage(place, context: context)
        }
    }

    /// The destination's page; with a `notice` when a change posted from it was not made.
    static func destinationPage(
        _ place: AppDetours.Place, context: ServerContext, notice: String = ""
    ) throws -> Response {
        let library = try context.trips().library
        var reports = [(label: "Preview", href: place.href)]
        for format in library.job.options.formats {
            reports.append((format.label, "\(place.href).\(format.fileExtension)"))
        }
        var page = ServerPageModel(
            title: place.destination.name, chrome: ChromeModel(bar: Chrome.bar(context.identity)), hasBack: false)
        var model = DestinationPageModel(
            ListedTrip(trip: place.trip, href: place.href), index: place.stay, reports: reports)
        model.canEdit = try mayEdit(context)
        model.formField = CSRFRule.formField
        model.formToken = context.identity?.formToken ?? ""
        model.version = place.version
        model.notice = notice
        page.destination = model
        page.tiles = Chrome.tiles(try context.trips().settings.tiles)
        return Replies.page(page, status: notice.isEmpty ? .ok : .preconditionFailed)
    }

    /// Whether the request's principal may change the trips it reads: pages show their forms then.
    static func mayEdit(_ context: ServerContext) throws -> Bool {
        let readOnly = try context.trips().settings.readOnly
        return context.mayWrite && !readOnly
    }
}
