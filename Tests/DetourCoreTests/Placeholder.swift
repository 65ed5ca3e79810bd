// DetourCoreTests
