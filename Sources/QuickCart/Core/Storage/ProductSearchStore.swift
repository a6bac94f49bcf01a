/// Full-text search over the products, by the backend's own engine: words are stemmed
/// ("tents" finds the tent), every word must match, and results come best first.
public protocol ProductSearchStore: Sendable {
    /// The ids of the products for sale (active) whose name, description or category match every word of
    /// `query` (the last one also as the start of a word, as it is being typed), best match
    /// first, at most `limit`. A query without words matches nothing. Quotes, operators and
    /// other punctuation in `query` are never read as search syntax: they separate words.
    func searchProducts(matching query: String, limit: Int) throws -> [Int64]
}

/// How every ``ProductSearchStore`` reads a shopper's query.
public enum ProductSearch {
    /// The most words of a query that are searched; the rest are ignored.
    public static let maximumWords = 16

    /// What a query asks for: every word of ``required`` as a whole word (in any of its
    /// forms), and ``last`` (the word being typed) as a whole word or the start of one.
    public struct Terms: Sendable, Equatable {
        /// The words before the last, less ``ProductSearch/stopWords``.
        public var required: [String]
        /// The last word, if any.
        public var last: String?
        /// Whether ``last`` is one of ``ProductSearch/stopWords``: then only the words it starts
        /// are searched ("a" as the start of "aluminium"), never the common word itself.
        public var lastIsCommon: Bool { last.map(stopWords.contains) ?? false }
    }

    /// The terms of `query`: its words lowercased, runs of letters and digits read code point
    /// by code point (a combining mark stays with the letter before it). Everything else
    /// (quotes, `*`, `-`, `:`, `&`, parentheses) only separates them, so no engine ever sees
    /// its own syntax. Characters are not the unit: a Unicode "prepend" letter such as `ൎ`
    /// makes one character of itself and the quote after it, which must still separate.
    public static func terms(in query: String) -> Terms {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        for scalar in query.lowercased().unicodeScalars {
            if isLetterOrDigit(scalar) || (!word.isEmpty && isMark(scalar)) {
                word.append(scalar)
                continue
            }
            guard !word.isEmpty else { continue }
            words.append(String(word))
            word = String.UnicodeScalarView()
            if words.count == maximumWords { break }
        }
        if !word.isEmpty, words.count < maximumWords { words.append(String(word)) }
        return Terms(required: words.dropLast().filter { !stopWords.contains($0) }, last: words.last)
    }

    /// Whether `scalar` is a letter (of any script) or a digit (any number), the only code
    /// points a term starts with.
    public static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber: true
        default: false
        }
    }

    /// Whether `scalar` is a combining mark (an accent, a vowel sign), which belongs to the
    /// letter before it.
    public static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// Words too common to search for ("tent for two" is "tent two"): PostgreSQL's English
    /// list (`english.stop`), which its text search leaves out of documents and queries. Every
    /// backend leaves them out of the words that must match, so that means the same on each.
    public static let stopWords: Set<String> = [
        "i", "me", "my", "myself", "we", "our", "ours", "ourselves", "you", "your", "yours", "yourself",
        "yourselves", "he", "him", "his", "himself", "she", "her", "hers", "herself", "it", "its", "itself",
        "they", "them", "their", "theirs", "themselves", "what", "which", "who", "whom", "this", "that",
        "these", "those", "am", "is", "are", "was", "were", "be", "been", "being", "have", "has", "had",
        "having", "do", "does", "did", "doing", "a", "an", "the", "and", "but", "if", "or", "because", "as",
        "until", "while", "of", "at", "by", "for", "with", "about", "against", "between", "into", "through",
        "during", "before", "after", "above", "below", "to", "from", "up", "down", "in", "out", "on", "off",
        "over", "under", "again", "further", "then", "once", "here", "there", "when", "where", "why", "how",
        "all", "any", "both", "each", "few", "more", "most", "other", "some", "such", "no", "nor", "not",
        "only", "own", "same", "so", "than", "too", "very", "s", "t", "can", "will", "just", "don", "should",
        "now"
    ]
}
