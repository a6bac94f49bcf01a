import Mustache

/// Profile's page for the saved delivery details (`delivery-details.mustache`, `/profile/delivery`):
/// the same form as checkout's Delivery step, saving for next time.
struct DeliveryDetailsPageView: PageView {
    let form: DeliveryFormView

    static let templateName = "delivery-details"
    static let mustacheFields: MustacheFields<DeliveryDetailsPageView> = [
        "form": .view(\.form),
    ]
}
