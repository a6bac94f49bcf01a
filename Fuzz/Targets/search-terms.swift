// Fuzz target: ProductSearch.terms(in:), which turns a shopper's query into the words both
// search engines (SQLite FTS5, PostgreSQL tsquery) are given.
//
// Built by Fuzz/run together with Sources/QuickCart/Core/Storage/ProductSearchStore.swift into
// one module. The input is the query (UTF-8, bad bytes replaced). Checked: every term starts
// with a letter or digit and holds nothing but letters, digits and the combining marks that
// follow them (so no quote, operator, `*`, `:`, `&` or space ever reaches an engine); no term is
// empty; there are at most `maximumWords`; the required words hold no stop word; the terms are
// the same for the query lowercased (search ignores case); and a query of the terms joined by
// spaces gives the same terms again.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSearchTerms(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let query = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let terms = ProductSearch.terms(in: query)
    let all = terms.required + (terms.last.map { [$0] } ?? [])
    check(all.count <= ProductSearch.maximumWords, "\(all.count) terms for \(query.debugDescription)")
    check(terms.last != nil || terms.required.isEmpty, "required words without a last one for \(query.debugDescription)")
    for term in all {
        let scalars = term.unicodeScalars
        guard let first = scalars.first else { fail("an empty term for \(query.debugDescription)") }
        check(ProductSearch.isLetterOrDigit(first), "term \(term.debugDescription) starts with \(first.debugDescription) for \(query.debugDescription)")
        for scalar in scalars {
            check(ProductSearch.isLetterOrDigit(scalar) || ProductSearch.isMark(scalar),
                  "term \(term.debugDescription) holds \(scalar.debugDescription) (U+\(String(scalar.value, radix: 16))) for \(query.debugDescription)")
        }
    }
    for word in terms.required {
        check(!ProductSearch.stopWords.contains(word), "the stop word \(word.debugDescription) is required for \(query.debugDescription)")
    }
    check(ProductSearch.terms(in: query.lowercased()) == terms, "lowercasing the query changed its terms: \(query.debugDescription)")
    let again = ProductSearch.terms(in: all.joined(separator: " "))
    check(again.last == terms.last, "the terms joined read back as \(again) instead of \(terms) for \(query.debugDescription)")
    return 0
}
