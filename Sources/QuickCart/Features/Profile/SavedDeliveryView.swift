import Mustache

/// Profile's summary of the saved delivery details, with Edit and Delete.
struct SavedDeliveryView: MustacheView {
    let details: DeliveryDetails
    /// The chosen method's name, `nil` when the shop no longer offers it.
    let methodName: String?
    /// Whether that method is collected in the store: an address is then kept only for parcels.
    let isCollected: Bool

    static let mustacheFields: MustacheFields<SavedDeliveryView> = [
        "name": .text(\.details.name),
        "hasAddress": .bool(\.details.hasAddress),
        "isCollected": .bool(\.isCollected),
        "addressLine1": .text(\.details.addressLine1),
        "addressLine2": .text(\.details.addressLine2),
        "hasAddressLine2": .bool { !$0.details.addressLine2.isEmpty },
        "cityLine": .text(\.details.cityLine),
        "country": .text(\.details.countryName),
        "email": .text(\.details.email),
        "phone": .text(\.details.phone),
        "hasPhone": .bool { !$0.details.phone.isEmpty },
        "methodName": .text(\.methodName),
        "hasMethod": .bool { $0.methodName != nil },
    ]
}
