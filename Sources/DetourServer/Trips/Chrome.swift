import DetourAccounts
import DetourRender

/// What the server puts after `<body>` on the pages it sends a browser (``ChromeModel``, from
/// `chrome.html.mustache`): its own pages hold it in their layout, and a report or the index,
/// which `render` writes without it, get it put in here.
enum Chrome {
    /// The account bar of `identity`, who is signed in; `nil` when no one is.
    static func bar(_ identity: Identity?) -> AccountBarModel? {
        identity.map { AccountBarModel(email: $0.email, formField: CSRFRule.formField, formToken: $0.formToken) }
    }

    /// The tile server of a page's map, when the server has one.
    static func tiles(_ layer: TileLayer?) -> TilesModel? {
        layer.map { TilesModel(template: $0.template, attribution: $0.attribution, source: $0.source) }
    }

    /// `page` with `chrome` right after its `<body>` tag; `page` as it is when there is nothing to
    /// put in or no such tag.
    static func inserted(into page: [UInt8], _ chrome: ChromeModel) -> [UInt8] {
        guard !chrome.isEmpty, let body = page.firstRange(of: Array("<body>".utf8)) else { return page }
        var result = page
        result.insert(contentsOf: ServerPages.chrome(chrome), at: body.upperBound)
        return result
    }
}
