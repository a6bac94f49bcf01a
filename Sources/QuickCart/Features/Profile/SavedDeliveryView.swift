import Mustache

/// Profile's summary of the saved delivery details, with Edit and Delete.
struct SavedDeliveryView: MustacheView {
    let details: DeliveryDetails
    /// The chosen method's name, `nil` when the shop no longer offers it.
    let methodName: String?

    static let mustacheFields: MustacheFields<SavedDeliveryView> = [
        "name": .text(\.details.name),
        "hasAddress": .bool(\.details.hasAddress),
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
