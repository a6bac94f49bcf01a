// The four MicroHTTP targets (percent-encoding, router, static-files, accept-encoding) share one
// executable, .build/fuzz/microhttp: building MicroHTTP with the fuzzer's instrumentation takes
// about 30 s of CPU, once instead of four times. Fuzz/run links each target's name to it, and the
// name it was started by picks the target, so `.build/fuzz/router crash-…` reproduces as before.

/// The target this process fuzzes, from the last component of the name it was started by.
private let selected: @Sendable (UnsafePointer<UInt8>, Int) -> CInt = {
    let name = CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? ""
    switch name {
    case "percent-encoding": return fuzzPercentEncoding
    case "router": return fuzzRouter
    case "static-files": return fuzzStaticFiles
    case "accept-encoding": return fuzzAcceptEncoding
    default: fail("started as \(name.isEmpty ? "nothing" : name); start a link named percent-encoding, router, static-files or accept-encoding")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMicroHTTP(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    selected(start, count)
}
