import Foundation
import Testing
@testable import QuickCart

@Suite("Text helpers that stand in for Foundation's")
struct TextHelpersTests {
    @Test("A UTC day is the one Foundation's calendar gives, across eras, leap days and before 1970",
          arguments: [Int64(0), -1, -86_400, -86_401, 951_782_400, 951_868_799, 1_709_164_800, 1_796_105_665,
                      -2_203_891_200, 4_107_542_400, 253_402_300_799])
    func calendarDay(seconds: Int64) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        #expect(CalendarDay(secondsSince1970: seconds) == CalendarDay(year: parts.year!, month: parts.month!, day: parts.day!))
    }

    @Test("Every day from 1900 to 2100 matches Foundation's calendar")
    func everyDay() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for day in Int64(-25_567)...Int64(47_482) {
            let seconds = day * 86_400 + 43_210
            let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            let ours = CalendarDay(secondsSince1970: seconds)
            guard ours == CalendarDay(year: parts.year!, month: parts.month!, day: parts.day!) else {
                Issue.record("day \(day): \(ours) against \(parts)")
                return
            }
        }
    }

    @Test("Shown as the day, the month's abbreviation and the year")
    func dayText() {
        #expect(CalendarDay(secondsSince1970: 1_796_105_665).text == "1 Dec 2026")
        #expect(CalendarDay(secondsSince1970: 0).text == "1 Jan 1970")
        #expect(CalendarDay(year: 2024, month: 9, day: 30).text == "30 Sep 2024")
    }

    @Test("Trimming drops white space at both ends only; without newlines, line breaks stay")
    func trimming() {
        #expect("  tents \n".trimmingWhitespace() == "tents")
        #expect("\u{3000}a b\u{A0}".trimmingWhitespace() == "a b")
        #expect(" a\n".trimmingWhitespace(newlines: false) == "a\n")
        #expect("\t x \t".trimmingWhitespace(newlines: false) == "x")
        #expect(" \n\t ".trimmingWhitespace() == "")
        #expect("".trimmingWhitespace() == "")
        #expect("é ".trimmingWhitespace() == "é")
    }
}

extension TextHelpersTests {
    /// Every white space character Unicode has is in the Basic Multilingual Plane; the planes
    /// beyond it would make the sanitizer runs slow for nothing.
    @Test("Trimming matches Foundation's whitespace sets for every scalar of the Basic Multilingual Plane")
    func trimmingMatchesFoundation() {
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(scalar) + "x" + String(scalar)
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines), "U+\(String(value, radix: 16))")
            #expect(text.trimmingWhitespace(newlines: false) == text.trimmingCharacters(in: .whitespaces), "U+\(String(value, radix: 16))")
        }
    }

    @Test("A return path is local only when it is one path on this site, ASCII or not", arguments: [
        ("/", true), ("/cart", true), ("/cart?x=1#item-2", true), ("/é?q=日本", true), (String(repeating: "/a", count: 256), true),
        ("/" + String(repeating: "é", count: 255), true), (String(repeating: "/a", count: 257), false), ("/" + String(repeating: "é", count: 256), false),
        ("//evil.example", false), ("/\\evil", false), ("/é\\", false), ("cart", false), ("", false), ("http://x", false),
        ("/a b", false), ("/a\tb", false), ("/a\u{7F}", false), ("/\r\n", false), ("/é\u{0}", false), ("/\u{A0}", true),
    ])
    func localPath(target: String, isLocal: Bool) {
        #expect(ShopRequest.isLocalPath(target) == isLocal)
    }
}
