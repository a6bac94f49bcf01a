import CPostgres

/// Helpers for the two spellings of a PostgreSQL connection string libpq accepts: a URL
/// (`postgres://user:secret@db.example:5432/shop?sslmode=require`) and a keyword/value
/// string (`host=db.example user=shop password=secret dbname=shop`).
public enum PostgresConnectionString {
    /// Whether `text` is a `postgres://` or `postgresql://` URL (the scheme in any case).
    ///
    /// - Parameter text: A connection string, or anything else such as a file path.
    /// - Returns: `true` for a PostgreSQL URL.
    public static func isURL(_ text: String) -> Bool {
        let lowercased = text.lowercased()
        return lowercased.hasPrefix("postgres://") || lowercased.hasPrefix("postgresql://")
    }

    /// Whether `text` is libpq's keyword/value string, such as `host=db.example dbname=shop`:
    /// one libpq's own parser reads (`PQconninfoParse`), so every keyword is one libpq knows.
    /// A file path is not, even with an `=` in it (`shop=1.sqlite`, `/srv/a=b.sqlite`): its first
    /// name is no keyword of libpq's.
    ///
    /// - Parameter text: A connection string, or anything else such as a file path.
    /// - Returns: `true` for a keyword/value string.
    public static func isKeywordValue(_ text: String) -> Bool {
        guard text.contains("="), !isURL(text) else { return false }
        var errorMessage: UnsafeMutablePointer<CChar>?
        let options = PQconninfoParse(text, &errorMessage)
        defer {
            PQconninfoFree(options)
            PQfreemem(errorMessage)
        }
        return options != nil
    }

    /// The connection string with every password replaced by `***`, fit for a log line.
    ///
    /// Both the URL's `user:password@` and a `password=` parameter (in a URL's query or a
    /// keyword/value string) are redacted. A keyword/value string too malformed to parse
    /// is replaced whole, since its password cannot be located for sure.
    ///
    /// ```swift
    /// PostgresConnectionString.redactingPassword("postgres://shop:s3cret@db/shop")
    /// // "postgres://shop:***@db/shop"
    /// ```
    ///
    /// - Parameter text: A URL or keyword/value connection string.
    /// - Returns: The same text without its passwords.
    public static func redactingPassword(_ text: String) -> String {
        isURL(text) ? redactingURL(text) : redactingKeywordValues(text)
    }

    static let redaction = "***"
    /// What ``redactingPassword(_:)`` gives for a keyword/value string it cannot parse.
    static let unparseable = "(malformed connection string)"

    // MARK: - URLs

    private static func redactingURL(_ text: String) -> String {
        guard let schemeEnd = text.firstRange(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        var result = String(text[..<schemeEnd.upperBound])
        var remainder = rest
        // libpq ends the userinfo at the first "@" (before any "/"), so a password it reads may
        // hold "?", "#", ":" and escapes such as "%40" raw. One holding a raw "@" or "/" is
        // misread by libpq, yet its pieces must not show either: the userinfo here runs to the
        // last "@" before the path that follows the first "@".
        if let firstAt = rest.firstIndex(of: "@") {
            let pathStart = rest[rest.index(after: firstAt)...].firstIndex(of: "/") ?? rest.endIndex
            let at = rest[..<pathStart].lastIndex(of: "@") ?? firstAt
            let userinfo = rest[..<at]
            let slash = userinfo.firstIndex(of: "/")
            if let colon = userinfo.firstIndex(of: ":"), slash.map({ colon < $0 }) ?? true {
                // Everything after the colon may be password (or, for `host:port/db?user=a@b`,
                // more than it): all of it is hidden.
                result += userinfo[...colon] + redaction
                remainder = rest[at...]
            } else if slash == nil {
                result += userinfo
                remainder = rest[at...]
            }
            // Otherwise the "@" is past the path (in the query): there is no userinfo.
        }
        // The query starts at the remainder's first "?" (a host or path has none; when the
        // userinfo above took it, all that is left is parameters) and its parameters are
        // separated by "&" alone: libpq reads a "?" inside a value as part of it.
        let parameters = remainder.split(separator: "&", omittingEmptySubsequences: false).enumerated().map { index, piece in
            guard index == 0, let queryStart = piece.firstIndex(of: "?") else { return redactedParameter(piece) }
            return piece[...queryStart] + redactedParameter(piece[piece.index(after: queryStart)...])
        }
        return result + parameters.joined(separator: "&")
    }

    /// `key=value` with the value hidden when the key is `password` (percent-escapes and case
    /// read as libpq reads them); anything else as it is.
    private static func redactedParameter(_ parameter: Substring) -> String {
        let key = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return key.removingPercentEncodingForComparison == "password" && parameter.contains("=") ? "\(key)=\(redaction)" : String(parameter)
    }

    // MARK: - Keyword/value strings

    /// Scans `keyword = value` pairs as libpq does: values may be single-quoted, and a
    /// backslash escapes the next character in either form.
    private static func redactingKeywordValues(_ text: String) -> String {
        let characters = Array(text)
        var result = ""
        var index = 0
        func skipSpaces() {
            while index < characters.count, characters[index].isWhitespace {
                result.append(characters[index])
                index += 1
            }
        }
        while true {
            skipSpaces()
            guard index < characters.count else { return result }
            var keyword = ""
            while index < characters.count, characters[index] != "=", !characters[index].isWhitespace {
                keyword.append(characters[index])
                index += 1
            }
            result += keyword
            skipSpaces()
            guard index < characters.count, characters[index] == "=" else {
                return unparseable
            }
            result.append("=")
            index += 1
            skipSpaces()
            var value = ""
            if index < characters.count, characters[index] == "'" {
                value.append("'")
                index += 1
                var closed = false
                while index < characters.count {
                    let character = characters[index]
                    value.append(character)
                    index += 1
                    if character == "\\", index < characters.count {
                        value.append(characters[index])
                        index += 1
                    } else if character == "'" {
                        closed = true
                        break
                    }
                }
                guard closed else { return unparseable }
            } else {
                while index < characters.count, !characters[index].isWhitespace {
                    value.append(characters[index])
                    if characters[index] == "\\", index + 1 < characters.count {
                        value.append(characters[index + 1])
                        index += 1
                    }
                    index += 1
                }
            }
            result += keyword.lowercased() == "password" ? redaction : value
        }
    }
}

extension String {
    /// The key with `%XX` escapes decoded (ASCII only) and lowercased, so `pass%77ord`
    /// is recognised as `password` the way libpq would read it.
    fileprivate var removingPercentEncodingForComparison: String {
        var bytes: [UInt8] = []
        var utf8 = Array(self.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self).lowercased()
    }
}
