extension String {
    /// The text with each Unicode scalar that `replacement` gives a text for replaced by it,
    /// and the others kept: how the metrics' labels and the operator's JSON escape their text.
    func replacingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var replaced = ""
        replaced.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if let text = replacement(scalar) { replaced += text } else { replaced.unicodeScalars.append(scalar) }
        }
        return replaced
    }
}
