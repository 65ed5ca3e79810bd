import Dispatch
import Synchronization
import Testing

@testable import DetourBase

/// The one kind of thread detour-report starts for blocking work.
@Suite struct PlainThreadTests {
    /// `join` returns only after the body ran: every write of every thread is seen after it.
    @Test func joinWaitsForTheBody() throws {
        let sum = Atomic(0)
        let threads = try (1...8).map { value in
            try #require(PlainThread.start { sum.add(value, ordering: .relaxed) })
        }
        for thread in threads { thread.join() }
        #expect(sum.load(ordering: .relaxed) == 36)
    }

    /// A detached thread runs by itself; the test waits on the event it signals, not on time.
    @Test func aDetachedThreadRuns() {
        let ran = DispatchSemaphore(value: 0)
        #expect(PlainThread.detach { ran.signal() })
        #expect(ran.wait(timeout: .now() + 60) == .success)
    }
}
