import Mustache

/// "Continue on another device" (`device-code.mustache`): the code, the QR code of its link,
/// and how long it lasts; or a button to show one.
struct DeviceCodeView: PageView {
    /// `BCDF-GHJK` (two groups of four letters), while a code is live.
    let code: String?
    /// The join link the QR code carries.
    let link: String?
    /// The QR code, as SVG made here (``QRCode``): safe to place unescaped.
    let qrSVG: String?
    /// Seconds the code had left when the page was made, by the server's clock: its words,
    /// and the countdown's start (a device's own clock may be minutes off).
    let secondsLeft: Int64
    /// What became of the last code, when there is no live one ("used", "expired", "void").
    let endedText: String?

    static let templateName = "device-code"
    static let mustacheFields: MustacheFields<DeviceCodeView> = [
        "hasCode": .bool { $0.code != nil },
        "code": .text { $0.code ?? "" },
        "link": .text { $0.link ?? "" },
        "qrSVG": .text { $0.qrSVG ?? "" },
        "secondsLeft": .int { Int($0.secondsLeft) },
        "expiresInText": .text { DevicesController.minutesText($0.secondsLeft) },
        "hasEnded": .bool { $0.endedText != nil },
        "endedText": .text(\.endedText),
    ]
}

/// The join page (`join.mustache`): a field for a code, or whose cart a linked code joins.
struct JoinView: PageView {
    /// The code as given (link or form), for the field.
    let code: String
    /// Whose cart a live code joins, shown as "Join Dana's cart — 3 items"; `nil` without a code.
    let preview: Preview?
    /// Why the code cannot be used, when it cannot.
    let problem: String?

    /// What a live code joins. The name is its own field so that the page isolates it (`<bdi>`):
    /// another shopper chose it, and it must not reorder the words around it.
    enum Preview: Equatable {
        /// The code is this device's own shopper's.
        case sharesCart
        /// Another shopper's cart: their display name and its count, "3 items".
        case join(name: String, items: String)

        var name: String? {
            if case .join(let name, _) = self { name } else { nil }
        }

        var items: String? {
            if case .join(_, let items) = self { items } else { nil }
        }
    }

    static let templateName = "join"
    static let mustacheFields: MustacheFields<JoinView> = [
        "code": .text(\.code),
        "hasPreview": .bool { $0.preview != nil },
        "sharesCart": .bool { $0.preview == .sharesCart },
        "previewName": .text { $0.preview?.name },
        "previewItems": .text { $0.preview?.items },
        "problem": .text(\.problem),
        "hasProblem": .bool { $0.problem != nil },
    ]
}

/// One of the shopper's devices on Profile.
struct DeviceView: MustacheView {
    let name: String
    let lastSeen: String
    let lastSeenISO: String
    let isThisDevice: Bool
    /// What its Sign out button posts (``SessionManager/deviceHandle(ofClient:)``).
    let handle: String

    static let mustacheFields: MustacheFields<DeviceView> = [
        "name": .text(\.name),
        "lastSeen": .text(\.lastSeen),
        "lastSeenISO": .text(\.lastSeenISO),
        "isThisDevice": .bool(\.isThisDevice),
        "handle": .text(\.handle),
    ]
}
