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

    /// `page` with `chrome` right after its `<body>` tag; `page` as it is when there is nothing to
    /// put in or no such tag.
    static func inserted(into page: [UInt8], _ chrome: ChromeModel) -> [UInt8] {
        guard !chrome.isEmpty, let body = Chrome.end(of: Array("<body>".utf8), in: page) else { return page }
        var result = page
        result.insert(contentsOf: ServerPages.chrome(chrome), at: body)
        return result
    }

    /// Where the first `tag` in `page` ends.
    static func end(of tag: [UInt8], in page: [UInt8]) -> Int? {
        guard page.count >= tag.count else { return nil }
        for start in 0...(page.count - tag.count) where page[start] == tag[0] {
            if page[start..<(start + tag.count)].elementsEqual(tag) { return start + tag.count }
        }
        return nil
    }
}
