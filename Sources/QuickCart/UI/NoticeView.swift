import Mustache

/// A notice as the layout shows it at the top of the content (``Notice``), with its Undo form
/// after Remove.
struct NoticeView: MustacheView {
    let text: String
    let undo: UndoView?

    init(_ notice: Notice) {
        text = notice.text
        undo = notice.undo.map(UndoView.init)
    }

    static let mustacheFields: MustacheFields<NoticeView> = [
        "text": .text(\.text),
        "undo": .optional(\.undo),
    ]
}

/// The fields of the Undo form that puts a removed line back (``CartController/undoRemove(_:)``).
struct UndoView: MustacheView {
    let undo: Notice.Undo

    static let mustacheFields: MustacheFields<UndoView> = [
        "productID": .int { Int(clamping: $0.undo.productID) },
        "quantity": .int(\.undo.quantity),
        "cartVersion": .int { Int(clamping: $0.undo.cartVersion) },
    ]
}
