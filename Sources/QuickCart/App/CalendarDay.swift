/// A day of the proleptic Gregorian calendar in UTC, as the shop shows dates: `1 Dec 2026`.
/// Written out here rather than through a locale's formatter, so the server does not load ICU
/// for the one date format it shows.
struct CalendarDay: Equatable {
    var year: Int
    /// 1 through 12.
    var month: Int
    /// 1 through 31.
    var day: Int

    /// The UTC day holding `seconds` since 1970-01-01T00:00:00Z.
    init(secondsSince1970 seconds: Int64) {
        // Howard Hinnant's days-to-civil algorithm: eras of 400 years, years starting in March.
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// `1 Dec 2026`: the day, the month's English abbreviation and the year.
    var text: String {
        "\(day) \(Self.monthAbbreviations[month - 1]) \(year)"
    }

    private static let monthAbbreviations = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}

extension CalendarDay {
    /// `2026-12-01`: ISO 8601's calendar date.
    var isoText: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
    }
}
