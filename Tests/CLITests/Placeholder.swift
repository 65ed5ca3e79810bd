// CLITests
