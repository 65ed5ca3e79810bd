import DetourCommandLine
import DetourCore
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct DatabasePasswordTests {
    /// The password is read once and leaves the environment, so no child process inherits it.
    @Test func thePasswordIsTakenOutOfTheEnvironment() {
        setenv(DatabaseURL.passwordVariable, "s3cret word", 1)
        #expect(DatabasePassword.take() == "s3cret word")
        #expect(getenv(DatabaseURL.passwordVariable) == nil)
        #expect(DatabasePassword.take() == nil)
    }
}
