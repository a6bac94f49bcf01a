import Postgres
import Testing

/// SQLSTATEs by name: a condition matches itself, a class every condition in it, in a
/// `switch` and as a `catch` pattern; the classifications read them so.
@Suite("Error codes")
struct ErrorCodeTests {
    static func error(_ state: String?) -> PostgresError {
        PostgresError(kind: .server, sqlState: state, message: "m", operation: "execute")
    }

    @Test("A class matches each of its conditions, a condition only itself", arguments: [
        ("23505", PostgresError.Code.uniqueViolation, true), ("23505", .integrityConstraintViolation, true),
        ("23503", .integrityConstraintViolation, true), ("23503", .uniqueViolation, false),
        ("40P01", .transactionRollback, true), ("40P01", .serializationFailure, false), ("08006", .connectionException, true),
        ("22P02", .dataException, true), ("42601", .dataException, false), ("53100", .insufficientResources, true),
    ])
    func classesAndConditions(state: String, pattern: PostgresError.Code, matches: Bool) {
        let code = PostgresError.Code(rawValue: state)
        #expect((pattern ~= code) == matches, "\(pattern) ~= \(state)")
        #expect(Self.error(state).has(pattern) == matches)
        #expect((pattern ~= (Self.error(state) as any Error)) == matches)
    }

    @Test("Codes work as catch patterns and in a switch")
    func catchAndSwitch() {
        func kind(of thrown: any Error) -> String {
            do { throw thrown } catch PostgresError.uniqueViolation { return "unique" } catch PostgresError.integrityConstraintViolation {
                return "constraint"
            } catch PostgresError.transactionRollback { return "rollback" } catch { return "other" }
        }
        #expect(kind(of: Self.error("23505")) == "unique")
        #expect(kind(of: Self.error("23502")) == "constraint")
        #expect(kind(of: Self.error("40001")) == "rollback")
        #expect(kind(of: Self.error(nil)) == "other")
        let named: String = switch Self.error("57P03").code {
        case .cannotConnectNow?: "starting"
        case .connectionException?: "broken"
        default: "other"
        }
        #expect(named == "starting")
    }

    @Test("The classifications read the named codes", arguments: [
        ("08006", true, false), ("08001", true, false), ("57P01", true, false), ("57P02", true, false), ("57P03", true, false),
        ("53300", true, false), ("53100", false, false), ("40001", false, true), ("40P01", false, true), ("23505", false, false),
    ])
    func classifications(state: String, unavailable: Bool, retryable: Bool) {
        let error = Self.error(state)
        #expect(error.isUnavailable == unavailable, "\(state)")
        #expect(error.isTransactionRetryable == retryable, "\(state)")
        #expect(error.code?.rawValue == state)
    }
}
