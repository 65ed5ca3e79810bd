// DetourIOTests
