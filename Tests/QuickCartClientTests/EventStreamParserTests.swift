@testable import QuickCartClient
import Testing

@Suite("Reading text/event-stream")
struct EventStreamParserTests {
    @Test("Fields, comments, CR, LF and CRLF line ends, events split across reads, id and retry")
    func reads() {
        var parser = EventStreamParser()
        let stream = "retry: 2000\n\n: heartbeat\r\nid: 7\revent: badge\ndata: 3\n\nevent: badge\ndata: 4\r\n\r\ndata: a\ndata:b\n\n"
        var events: [EventStreamParser.Event] = []
        // Three bytes at a time, so lines and events end in the middle of reads.
        var bytes = Array(stream.utf8)[...]
        while !bytes.isEmpty {
            events += parser.feed(bytes.prefix(3))
            bytes = bytes.dropFirst(3)
        }
        #expect(events == [
            .init(name: "badge", data: "3", id: "7"), .init(name: "badge", data: "4", id: "7"), .init(name: "message", data: "a\nb", id: "7"),
        ])
        #expect(parser.retry == 2000 && parser.lastEventID == "7")
        #expect(ServerEvent(events[0]) == .badge(count: 3, version: "7"))
    }

    @Test("A retry: that is not all digits is ignored, an event without data is not dispatched")
    func ignores() {
        var parser = EventStreamParser(lastEventID: "5")
        #expect(parser.feed(Array("retry: 1s\nevent: badge\n\nretry\n".utf8)).isEmpty)
        #expect(parser.retry == nil && parser.lastEventID == "5")
    }

    @Test("Each event name the shop sends reads as its case; a badge that is not a count, or an order that is not JSON, stays as it came")
    func cases() {
        var parser = EventStreamParser()
        let text = "event: order\ndata: {\"label\":\"Paid\",\"number\":\"12\",\"state\":\"paid\"}\n\nevent: catalog\ndata: 4\n\n"
            + "event: badge\ndata: many\n\nevent: order\ndata: paid\n\nevent: device-joined\ndata: {}\n\n"
            + "event: device-joined\ndata: {\"device\":\"ab\",\"text\":\"A new device joined\"}\n\n"
        #expect(parser.feed(Array(text.utf8)).map(ServerEvent.init) == [
            .order(id: "12", state: .paid, label: "Paid"), .catalog(version: "4"), .other(name: "badge", data: "many"),
            .other(name: "order", data: "paid"), .other(name: "device-joined", data: "{}"), .deviceJoined(notice: "A new device joined"),
        ])
    }
}
