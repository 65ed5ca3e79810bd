// DetourRenderTests
