import Foundation
import Postgres
import PostgresTesting
import Synchronization
import Testing

@Suite("Listener")
struct ListenerTests {
    private static func makeListener(
        url: String,
        channels: [String] = ["badge"],
        notifications: Recorder<PostgresListener.Notification>,
        reconnections: Counter? = nil
    ) throws -> PostgresListener {
        return try PostgresListener(
            connectionString: url,
            channels: channels,
            onNotification: { notifications.append($0) },
            onReconnect: { reconnections?.add() }
        )
    }

    @Test func notificationsArriveOnlyFromCommittedTransactions() throws {
        try withTestConnection { connection, url throws in
            let received = Recorder<PostgresListener.Notification>()
            let listener = try Self.makeListener(url: url, notifications: received)
            listener.start()
            defer { listener.stop() }
            #expect(listener.waitUntilListening(timeout: .seconds(10)))

            #expect(throws: TestFailure.self) {
                try connection.inTransaction {
                    try connection.notify(channel: "badge", payload: "rolled back")
                    throw TestFailure(reason: "undo")
                }
            }
            try connection.inTransaction {
                try connection.notify(channel: "badge", payload: "committed: Zoë ½")
                // Not delivered before the commit.
                usleep(50_000)
                #expect(received.values.isEmpty)
            }
            #expect(received.wait { !$0.isEmpty })
            // Whatever the rolled-back transaction sent would have arrived first.
            #expect(received.values == [PostgresListener.Notification(channel: "badge", payload: "committed: Zoë ½")])
        }
    }

    @Test func onlyTheListenedChannelsAreDeliveredInOrder() throws {
        try withTestConnection { connection, url throws in
            let received = Recorder<PostgresListener.Notification>()
            let listener = try Self.makeListener(url: url, channels: ["a", "Mixed Case"], notifications: received)
            listener.start()
            defer { listener.stop() }
            #expect(listener.waitUntilListening(timeout: .seconds(10)))
            try connection.notify(channel: "other", payload: "ignored")
            try connection.notify(channel: "mixed case", payload: "ignored")
            for number in 1...20 {
                try connection.notify(channel: number % 2 == 0 ? "a" : "Mixed Case", payload: "\(number)")
            }
            #expect(received.wait { $0.count >= 20 })
            #expect(received.values.map(\.payload) == (1...20).map(String.init))
            #expect(received.values.allSatisfy { ["a", "Mixed Case"].contains($0.channel) })
        }
    }

    @Test func stopEndsTheThreadAndNoCallbackRunsAfterIt() throws {
        try withTestConnection { connection, url throws in
            let received = Recorder<PostgresListener.Notification>()
            let listener = try Self.makeListener(url: url, notifications: received)
            listener.start()
            #expect(listener.waitUntilListening(timeout: .seconds(10)))
            listener.stop()
            listener.stop()
            #expect(!listener.isListening)
            try connection.notify(channel: "badge", payload: "late")
            usleep(100_000)
            #expect(received.values.isEmpty)
        }
    }

    @Test func aListenerStoppedWhileTheDatabaseIsDownEndsPromptly() throws {
        let received = Recorder<PostgresListener.Notification>()
        let listener = try Self.makeListener(url: "postgres://postgres@127.0.0.1:1/none", notifications: received)
        listener.start()
        #expect(!listener.waitUntilListening(timeout: .milliseconds(200)))
        let started = ContinuousClock.now
        listener.stop()
        #expect(ContinuousClock.now - started < .seconds(3))
    }

    /// PostgreSQL restarts: the listener reconnects by itself, calls onReconnect once it
    /// listens again, and receives what is sent afterwards.
    @Test func theListenerReconnectsAfterPostgresRestarts() throws {
        let server = try TestPostgresServer()
        defer { server.remove() }
        let url = try server.makeDatabase()
        let received = Recorder<PostgresListener.Notification>()
        let reconnections = Counter()
        let listener = try Self.makeListener(url: url, notifications: received, reconnections: reconnections)
        listener.start()
        defer { listener.stop() }
        #expect(listener.waitUntilListening(timeout: .seconds(10)))
        #expect(reconnections.value == 0)

        try server.stop()
        usleep(300_000)
        #expect(!listener.isListening)
        try server.start()

        #expect(listener.waitUntilListening(sessions: 2, timeout: .seconds(10)))
        #expect(reconnections.value == 1)
        let connection = try PostgresConnection(connectionString: url)
        defer { connection.close() }
        try connection.notify(channel: "badge", payload: "after restart")
        #expect(received.wait { !$0.isEmpty })
        #expect(received.values.map(\.payload) == ["after restart"])
    }
}
