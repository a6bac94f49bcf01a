import Foundation

/// The codes that bring another device into a shopper's cart: eight letters of RFC 8628's
/// base-20 alphabet (no vowels, so no words; no look-alikes such as 0/O or 1/I), shown as
/// `BCDF-GHJK` (two groups of four letters). About 34.6 bits: void after five wrong tries,
/// with a per-address limit on tries, a code is far past guessing within its ten minutes.
enum JoinCode {
    /// RFC 8628 §6.1's alphabet.
    static let alphabet = Array("BCDFGHJKLMNPQRSTVWXZ".utf8)
    static let length = 8
    /// How long a code works (seconds).
    static let lifetime: Int64 = 600
    /// Wrong tries that void a code: the fifth voids it.
    static let voidingWrongTries = 5

    /// The code a code's nonce gives under `key`: only the shop's secret turns the stored nonce
    /// into the code. Bytes of the keyed hash are taken while they fall below 240 (twelve
    /// times 20), so every letter is equally likely.
    static func code(nonce: String, key: HMACKey) -> String {
        var letters: [UInt8] = []
        var round = 0
        while letters.count < length {
            for byte in key.authenticate("join-code|\(round)|\(nonce)".utf8) where byte < 240 && letters.count < length {
                letters.append(alphabet[Int(byte) % alphabet.count])
            }
            round += 1
        }
        return String(decoding: letters, as: UTF8.self)
    }

    /// `BCDF-GHJK` (two groups of four letters).
    static func display(_ code: String) -> String {
        String(code.prefix(4)) + "-" + String(code.dropFirst(4))
    }

    /// The code a shopper typed, as stored codes are spelled: upper case, without hyphens and
    /// spaces; `nil` unless it is eight letters of the alphabet (checked without the store).
    /// Read as NFKC first, so full-width letters (a Japanese or Chinese keyboard's) are the
    /// letters they look like, and any dash a keyboard or an autocorrect puts between the
    /// groups (en dash, minus sign, non-breaking hyphen) is a hyphen.
    static func normalized(_ typed: String) -> String? {
        // Anything much longer is no code, and is not worth normalizing.
        guard typed.utf8.count <= 64 else { return nil }
        var letters: [UInt8] = []
        for scalar in typed.precomposedStringWithCompatibilityMapping.unicodeScalars {
            if scalar.properties.isWhitespace || scalar.properties.generalCategory == .dashPunctuation || scalar == "\u{2212}" { continue }
            guard scalar.isASCII else { return nil }
            let byte = UInt8(scalar.value)
            letters.append((UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte)
            if letters.count > length { return nil }
        }
        guard letters.count == length, letters.allSatisfy(alphabet.contains) else { return nil }
        return String(decoding: letters, as: UTF8.self)
    }

    /// What storage knows a code by: a keyed hash, so a leaked database holds no code, and
    /// looking one up compares hashes, never the code itself.
    static func hash(_ code: String, key: HMACKey) -> String {
        Hex.encode(key.authenticate("join|\(code)".utf8))
    }
}
