/// How both backends store a delivery method's countries: ISO codes separated by spaces, the
/// empty text for every country.
enum DeliveryMethodColumns {
    static func text(of countries: [String]) -> String {
        countries.joined(separator: " ")
    }

    static func countries(_ text: String) -> [String] {
        text.split(separator: " ").map(String.init)
    }
}
