// Shows what tsan-mutex-annotations.c changes; not part of any test run.
//
//   swiftc -sanitize=thread -g Tests/Sanitizers/mutex-demo.swift -o /tmp/mutex-demo
//   /tmp/mutex-demo                         # TSan reports races on Mutex-guarded data (exit 66)
//   LD_PRELOAD=$PWD/.build/sanitize-thread/libtsan-mutex-annotations.so /tmp/mutex-demo        # none
//   LD_PRELOAD=$PWD/.build/sanitize-thread/libtsan-mutex-annotations.so /tmp/mutex-demo racy   # the real race is still reported
//
// Four threads take one Mutex 160,000 times, so it is often contended. With "racy" they also
// bump a counter without the lock now and then: a real race.
import Synchronization
import Foundation

final class Box: @unchecked Sendable {
    var value = 0
    var unguarded = 0
}
let mutex = Mutex<[Int]>([])
let box = Box()
let racy = CommandLine.arguments.contains("racy")
let threads = (0..<4).map { _ in
    Thread {
        for i in 0..<20000 {
            mutex.withLock { $0.append(i); if $0.count > 100 { $0.removeAll() } }
            mutex.withLock { _ in box.value += 1 }
            if racy && i % 1000 == 0 { box.unguarded += 1 }   // a real race: never under the lock
            if racy && i % 1000 == 0 { mutex.withLock { _ in box.unguarded += 1 } } // half guarded
        }
    }
}
for t in threads { t.start() }
Thread.sleep(forTimeInterval: 3)
print("count", mutex.withLock { $0.count }, box.value)
