// DetourTestSupport
