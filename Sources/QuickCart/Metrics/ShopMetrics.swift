import MicroHTTP
import Synchronization

/// The operator's metrics: what the request path counts (in ``RequestMetrics`` and the
/// counters here, atomics only), and what is read when `/metrics` is asked for (open streams,
/// storage's pools and listener, the catalog's version, the process).
final class ShopMetrics: Sendable {
    /// Answers of 503 because storage was unavailable.
    let storageUnavailable = Atomic<Int>(0)

    /// Adds one storage-unavailable answer.
    func countStorageUnavailable() {
        storageUnavailable.add(1, ordering: .relaxed)
    }

    /// The exposition text of every metric.
    func text(
        requests: RequestMetrics, server: Server, storage: StorageStatistics, catalogVersion: Int64
    ) -> String {
        var output = MetricsText()
        requests.write(to: &output)
        output.family("quickcart_event_streams_open", "gauge", "Live-badge event streams open now.")
        output.sample("quickcart_event_streams_open", server.openEventStreamCount)
        output.family("quickcart_event_streams_refused_total", "counter", "Event streams refused with 503 because a limit on open streams was reached.")
        output.sample("quickcart_event_streams_refused_total", server.refusedEventStreamCount)
        output.family("quickcart_storage_unavailable_total", "counter", "Requests answered 503 because storage was unavailable.")
        output.sample("quickcart_storage_unavailable_total", storageUnavailable.load(ordering: .relaxed))
        output.family("quickcart_db_pool_waits_total", "counter", "Borrowers that found every pooled database connection lent and waited for one.")
        output.sample("quickcart_db_pool_waits_total", storage.connectionWaits)
        if let writerWaits = storage.writerWaits {
            output.family("quickcart_db_writer_waits_total", "counter", "Writers that waited for another writer of this process (SQLite's write turn).")
            output.sample("quickcart_db_writer_waits_total", writerWaits)
        }
        if let listener = storage.listener {
            output.family("quickcart_postgres_listener_up", "gauge", "1 while the PostgreSQL notification listener is connected with its LISTENs in force.")
            output.sample("quickcart_postgres_listener_up", listener.isListening ? 1 : 0)
            output.family("quickcart_postgres_listener_sessions_total", "counter", "Times the listener established its LISTENs (one more after each reconnection).")
            output.sample("quickcart_postgres_listener_sessions_total", listener.sessions)
            // Left out while the listener is down (or before a probe came back), rather than the
            // last value or NaN: Prometheus marks a series that leaves a scrape stale at once, so
            // an alert on the lag sees no number instead of a healthy one, and NaN would only
            // compare false in every rule and blur dashboards' aggregations.
            if let lag = listener.notificationLagSeconds {
                output.family("quickcart_postgres_notification_lag_seconds", "gauge", "Time a notification sent by this instance took to come back through PostgreSQL, last measured; absent while the listener is down.")
                output.sample("quickcart_postgres_notification_lag_seconds", lag)
            }
        }
        output.family("quickcart_catalog_version", "gauge", "Version of the catalog this instance serves (moves with each import).")
        output.sample("quickcart_catalog_version", Int(catalogVersion))
        let process = ProcessStatistics.now()
        if let resident = process.residentBytes {
            output.family("quickcart_process_resident_memory_bytes", "gauge", "Resident memory of the process.")
            output.sample("quickcart_process_resident_memory_bytes", resident)
        }
        if let open = process.openFiles {
            output.family("quickcart_process_open_fds", "gauge", "Open file descriptors of the process (connections included).")
            output.sample("quickcart_process_open_fds", open)
        }
        if let maximum = process.maximumOpenFiles {
            output.family("quickcart_process_max_fds", "gauge", "The process's limit on open file descriptors.")
            output.sample("quickcart_process_max_fds", maximum)
        }
        return output.text
    }
}
