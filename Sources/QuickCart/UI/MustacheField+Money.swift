import Mustache

extension MustacheField {
    /// An amount as shoppers read it (`$1,234.50`), written straight into the page.
    static func money(_ get: @escaping @Sendable (View) -> Money) -> Self {
        .custom { view, output in get(view).withFormattedUTF8 { output.append($0) } }
    }
}
