import Mustache

/// The delivery details form (`partials/delivery-form`), as the Delivery step and Profile's
/// editing page show it: each field with what was typed (or saved), and when refused, its
/// message beside it, `aria-invalid`, `aria-describedby` and focus on the first wrong one.
struct DeliveryFormView: MustacheView {
    let action: String
    let submitLabel: String
    let details: DeliveryDetails
    let methods: [DeliveryMethod]
    /// The cart's subtotal, for what each method costs it; `nil` outside checkout.
    let subtotal: Money?
    let problems: [(field: DeliveryDetails.Field, message: String)]

    init(
        action: String, submitLabel: String, details: DeliveryDetails, methods: [DeliveryMethod], subtotal: Money?,
        problems: [(field: DeliveryDetails.Field, message: String)] = []
    ) {
        self.action = action
        self.submitLabel = submitLabel
        self.details = details
        self.methods = methods
        self.subtotal = subtotal
        self.problems = problems
    }

    func field(_ field: DeliveryDetails.Field) -> DeliveryFieldView {
        DeliveryFieldView(
            field: field, value: details[field], error: problems.first { $0.field == field }?.message,
            isFirstWrong: problems.first?.field == field
        )
    }

    static let mustacheFields: MustacheFields<DeliveryFormView> = [
        "action": .text(\.action),
        "submitLabel": .text(\.submitLabel),
        "hasProblems": .bool { !$0.problems.isEmpty },
        "problemCount": .text { $0.problems.count == 1 ? "1 field needs" : "\($0.problems.count) fields need" },
        "problems": .list { form in form.problems.map { DeliveryFieldView(field: $0.field, value: "", error: $0.message, isFirstWrong: false) } },
        "name": .view { $0.field(.name) },
        "email": .view { $0.field(.email) },
        "phone": .view { $0.field(.phone) },
        "addressLine1": .view { $0.field(.addressLine1) },
        "addressLine2": .view { $0.field(.addressLine2) },
        "city": .view { $0.field(.city) },
        "region": .view { $0.field(.region) },
        "postalCode": .view { $0.field(.postalCode) },
        "country": .view { $0.field(.country) },
        "method": .view { $0.field(.method) },
        "offersCollection": .bool { $0.methods.contains(where: \.isCollected) },
        "countries": .list { form in
            DeliveryMethod.countries(servedBy: form.methods).map { CountryOptionView(country: $0, selected: $0.code == form.details.country) }
        },
        "methods": .list { form in
            let chosen = form.methods.contains { $0.code == form.details.method }
            return form.methods.enumerated().map { index, method in
                let selected = method.code == form.details.method
                return DeliveryMethodChoiceView(
                    method: method, subtotal: form.subtotal, selected: selected, takesFocus: selected || (!chosen && index == 0)
                )
            }
        },
    ]
}

/// One field of the delivery form: its value, and its message when it was refused.
struct DeliveryFieldView: MustacheView {
    let field: DeliveryDetails.Field
    let value: String
    let error: String?
    /// The first refused field takes focus when the page opens.
    let isFirstWrong: Bool

    /// The element id of the field's control (for the method, the radio button chosen, or the first).
    var id: String { "delivery-" + field.rawValue.replacingUnderscores }

    static let mustacheFields: MustacheFields<DeliveryFieldView> = [
        "id": .text(\.id),
        "name": .text(\.field.rawValue),
        "value": .text(\.value),
        "error": .text(\.error),
        "invalid": .bool { $0.error != nil },
        "autofocus": .bool(\.isFirstWrong),
        "maximum": .int { DeliveryDetails.maximumLengths[$0.field] ?? 100 },
    ]
}

/// A country in the form's list.
struct CountryOptionView: MustacheView {
    let country: Country
    let selected: Bool

    static let mustacheFields: MustacheFields<CountryOptionView> = [
        "code": .text(\.country.code),
        "name": .text(\.country.name),
        "selected": .bool(\.selected),
    ]
}

/// A delivery method to choose: its name, what it costs this cart, where it goes, how it is paid.
struct DeliveryMethodChoiceView: MustacheView {
    let method: DeliveryMethod
    let subtotal: Money?
    let selected: Bool
    /// The button that stands for the choice: the one chosen, or the first when none is. It
    /// has the field's id, which the error summary links to, and takes focus when the method
    /// was refused (the choice that is wrong).
    let takesFocus: Bool

    static let mustacheFields: MustacheFields<DeliveryMethodChoiceView> = [
        "code": .text(\.method.code),
        "name": .text(\.method.name),
        "price": .text { (choice: DeliveryMethodChoiceView) -> String in
            let price = choice.subtotal.map(choice.method.price(forSubtotal:)) ?? choice.method.price
            return price == .zero ? "Free" : price.formatted
        },
        "freeFrom": .text { choice in choice.method.freeFrom.map { "Free for orders of \($0.formatted) or more." } },
        "where": .text { choice in
            choice.method.isCollected ? "You collect the order in the store: no address needed."
                : choice.method.countries.isEmpty ? "Delivers to every country." : "Delivers to " + ListWording.and(choice.method.countries.map { Country.named($0)?.name ?? $0 }.sorted()) + "."
        },
        "payment": .text(\.method.payment.instruction),
        "selected": .bool(\.selected),
        "isCollected": .bool(\.method.isCollected),
        "takesFocus": .bool(\.takesFocus),
    ]
}

private extension String {
    var replacingUnderscores: String { String(map { $0 == "_" ? "-" : $0 }) }
}
