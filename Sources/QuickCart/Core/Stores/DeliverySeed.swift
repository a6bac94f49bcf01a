/// The demo shop's delivery methods, which a new database starts with (the migration that
/// made the table stores them). `quickcart delivery import` replaces them with the shop's own.
enum DeliverySeed {
    static let methods: [DeliveryMethod] = [
        DeliveryMethod(
            code: "standard", name: "Standard shipping", price: Money(cents: 695), countries: ["US", "CA"],
            freeFrom: Money(cents: 10_000), payment: .bankTransfer,
            paymentDetails: "Account holder: QuickCart Demo Outfitters. Account 000123456789, routing number 021000021."
        ),
        DeliveryMethod(
            code: "express", name: "Express courier", price: Money(cents: 1_900), countries: ["US"], payment: .onDelivery,
            paymentDetails: "The courier takes cash or card."
        ),
        DeliveryMethod(
            code: "pickup", name: "Pick up in store", price: .zero, countries: ["US"], payment: .inStore,
            paymentDetails: "QuickCart Demo Outfitters, 12 Trail Street, Portland; open 10:00–18:00, Monday to Saturday."
        ),
        DeliveryMethod(
            code: "international", name: "International post", price: Money(cents: 2_400), countries: [], payment: .bankTransfer,
            paymentDetails: "Account holder: QuickCart Demo Outfitters. IBAN US00 0000 0001 2345 6789, BIC QCDEUS00."
        ),
    ]
}
