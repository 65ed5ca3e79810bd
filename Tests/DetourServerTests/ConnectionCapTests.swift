import Testing

@testable import DetourServer

/// The server's cap on connections, sized to the open files it may have.
@Suite struct ConnectionCapTests {
    @Test(arguments: [
        (0, 32), (288, 32), (289, 33), (1024, 768), (4351, 4095), (4352, 4096), (4353, 4096), (1_048_576, 4096),
    ])
    func theCapLeavesDescriptorsForTheRestAndStaysWithinBounds(_ openFiles: Int, _ cap: Int) {
        #expect(ServerSettings.connectionCap(openFiles: openFiles) == cap)
    }
}
