import DetourFiles
import DetourRender
import DetourTestSupport
import Foundation
import Synchronization
import SystemPackage
import Testing

@testable import DetourJob

/// What an interrupted run leaves: a named temporary file is remembered from its creation to its
/// rename or removal, every step that names a file ends before a stop or starts after it, and
/// once the run is stopped no more are named.
@Suite struct TemporaryFilesTests {
    @Test func aNamedFileIsListedWhileItIsWrittenAndNoStepRunsAfterTheStop() throws {
        let registry = TemporaryFiles()
        #expect(try registry.step { () throws(FileError) in 1 } == 1)
        registry.remember("/out/.a.html.1")
        registry.remember("/out/.b.html.2")
        registry.forget("/out/.b.html.2")
        #expect(registry.stop() == ["/out/.a.html.1"])
        var ran = false
        #expect(try registry.step { () throws(FileError) in ran = true } == nil)
        #expect(!ran)
        #expect(throws: FileError(.ioError)) {
            try TemporaryFiles().step { () throws(FileError) in throw FileError(.ioError) }
        }
    }

    /// A stop in the middle of eight threads' deliveries leaves only whole reports.
    ///
    /// Eight threads deliver 100 reports each while one of them, in the middle of writing its
    /// 20th, stops the run, as the signal handler does. Whatever the interleaving: when the stop
    /// returns, every temporary file with a name is on its list (a program that exited then and
    /// there would leave none once the handler removed them), and in the end each report is
    /// whole or absent; with named temporaries (the fake store) and with unnamed ones (the real
    /// file system), where the list is empty.
    @Test(arguments: [false, true])
    func aStopInTheMiddleOfManyDeliveriesLeavesOnlyWholeReports(_ real: Bool) throws {
        let scratch = try ScratchFolder("temporary-files")
        let folder = real ? FilePath(scratch.url.path) : "/out"
        let fake = FakeFileStore()
        fake.folder("/out")
        let registry = TemporaryFiles()
        let store: any FileStore = real ? LocalFileStore() : fake
        @Sendable func hidden() -> Set<FilePath> {
            let names = (try? store.entries(in: folder)) ?? []
            return Set(names.filter { $0.name.string.hasPrefix(".") }.map { folder.appending($0.name) })
        }
        let left = Mutex<(listed: Set<FilePath>, present: Set<FilePath>)>(([], []))
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for number in 0..<100 {
                let target = folder.appending("r\(thread)-\(number).html")
                let produce = { (sink: @escaping ReportSink) throws(Delivery.Failure) in
                    sink(Array("report \(thread)-".utf8))
                    if thread == 0, number == 20 { left.withLock { $0 = (Set(registry.stop()), hidden()) } }
                    sink(Array("\(number)".utf8))
                }
                if real {
                    try? Delivery.deliver(to: target, store: LocalFileStore(), registry: registry, produce)
                } else {
                    try? Delivery.deliver(to: target, store: fake, registry: registry, produce)
                }
            }
        }
        let (listed, present) = left.withLock { $0 }
        #expect(present.isSubset(of: listed), "named but not listed: \(present.subtracting(listed))")
        #expect(real ? listed.isEmpty : !listed.isEmpty)
        for path in listed { store.remove(path) }
        let names = try store.entries(in: folder).map(\.name.string)
        #expect(!names.contains { $0.hasPrefix(".") }, "\(names)")
        #expect(!names.contains("r0-20.html") && names.count < 800)
        for name in names {
            let bytes = try #require(try store.contents(of: folder.appending(name), limit: 100))
            let number = name.dropFirst().dropLast(".html".count)
            #expect(String(decoding: bytes, as: UTF8.self) == "report \(number)")
        }
    }
}
