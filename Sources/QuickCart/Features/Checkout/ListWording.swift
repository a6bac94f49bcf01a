/// Lists in sentences: "Canada and United States", "A, B and C".
enum ListWording {
    static func and(_ items: [String]) -> String {
        guard items.count > 1, let last = items.last else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }
}
