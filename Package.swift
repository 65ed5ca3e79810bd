// swift-tools-version:6.1
import PackageDescription

// Data flows one way through these targets:
// bytes -> DetourIO (readers) -> DetourCore (validated Trip -> Plan) -> DetourRender (report model
// -> template) -> bytes, run for every front end by DetourJob. Files, streams and exit codes are
// touched only by DetourFiles, DetourCommandLine, the server's store and the accounts' folder, and
// the executables (IORuleTests keeps it so). docs/ARCHITECTURE.md is the map.
// Linux only (x86-64, AArch64), as the README says: the code calls Glibc and Linux's own
// interfaces (O_TMPFILE, inotify, /proc), so no Apple platform is declared.
let package = Package(
    name: "detour-report",
    products: [
        .executable(name: "detour-report", targets: ["detour-report"]),
        .executable(name: "detour-report-serve", targets: ["detour-report-serve"]),
        .executable(name: "detour-report-user", targets: ["detour-report-user"]),
        .library(name: "DetourCore", targets: ["DetourCore"]),
        .library(name: "DetourIO", targets: ["DetourIO"]),
        .library(name: "DetourRender", targets: ["DetourRender"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // SHA-256 for a PDF's document ID and the server's entity tags; the server's HTTP stack
        // depends on it already.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // KMZ, the zipped KML that Organic Maps and Google Earth export, read in memory for
        // `import` (zlib from the system: Debian's zlib1g-dev).
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // The server's HTTP stack (SwiftNIO underneath); its optional traits (swift-configuration,
        // full Foundation) are left out: the server reads its settings from the command line.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // Hummingbird's own dependencies, named for the types the server uses from them.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The accounts' database: SQLite through SQLiteNIO, with SQLKit's statements over it.
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
        .package(url: "https://github.com/vapor/sqlite-kit", from: "4.5.2"),
        .package(url: "https://github.com/vapor/sql-kit", from: "3.36.0"),
        // Or PostgreSQL (`--database postgres://…`), for several servers sharing one set of
        // accounts: PostgresNIO's connection pool, with PostgresKit's SQLKit dialect over it.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/vapor/postgres-kit", from: "2.17.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // Argon2id password hashes (Debian's libsodium-dev).
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        // glibc's mallopt, for the server's trim threshold (no library: it is libc's own).
        .systemLibrary(name: "CMalloc"),
        .target(name: "DetourCore"),
        // The report model's keys, typed: read by the template check and by the template compiler.
        .target(name: "DetourTemplateSchema"),
        // The one Mustache reader: the template compiler's, and the --templates check's.
        .target(name: "DetourMustacheSyntax"),
        // Compiles the built-in templates to Swift at build time (see Plugins/CompileTemplates).
        .executableTarget(
            name: "detour-template-compiler", dependencies: ["DetourTemplateSchema", "DetourMustacheSyntax"]),
        .plugin(
            name: "CompileTemplates",
            capability: .buildTool(),
            dependencies: ["detour-template-compiler"]
        ),
        .target(
            name: "DetourIO",
            dependencies: ["DetourCore", "CLibXML2", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .target(
            name: "DetourTemplates",
            path: "Templates",
            exclude: ["README.md"],
            resources: [
                .embedInCode("report.html.mustache"),
                .embedInCode("report.md.mustache"),
                .embedInCode("index.html.mustache"),
                .embedInCode("index.md.mustache"),
                .embedInCode("page.html.mustache"),
                .embedInCode("chrome.html.mustache"),
                .embedInCode("field.html.mustache"),
                .embedInCode("span.html.mustache"),
                .embedInCode("reload.html.mustache"),
            ]
        ),
        .target(
            name: "DetourRender",
            dependencies: [
                "DetourCore",
                "DetourTemplateSchema",
                "DetourMustacheSyntax",
                "DetourTemplates",
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            plugins: ["CompileTemplates"]
        ),
        // What blocking work runs on (a pool of plain threads) and the digest of some bytes: the
        // small base the job, the server and the accounts share.
        .target(name: "DetourBase", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        // Populated places: the nearest to a point, and those a name starts (GeoNames, CC BY 4.0).
        // Optimized in debug builds too: unoptimized, reading the 170,000 places took each
        // `import` and each test server 5 s instead of 0.3.
        .target(
            name: "DetourPlaces", dependencies: ["DetourCore"], exclude: ["GeoNamesCities.NOTICE"],
            swiftSettings: [.unsafeFlags(["-O", "-enable-testing"], .when(configuration: .debug))]),
        // The one pipeline every front end runs: a trip's bytes to its outputs, and the file store
        // (a protocol) its outputs are delivered through.
        .target(
            name: "DetourJob",
            dependencies: [
                "DetourCore", "DetourIO", "DetourRender", "DetourBase",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The real file system behind the store: only executables link it.
        .target(
            name: "DetourFiles",
            dependencies: ["DetourIO", "DetourJob", .product(name: "SystemPackage", package: "swift-system")]
        ),
        // `detour-report serve`: a folder of trips over HTTP, every page and format made by DetourJob.
        .target(
            name: "DetourServer",
            dependencies: [
                "DetourCore", "DetourIO", "DetourRender", "DetourJob", "DetourAccounts", "DetourBase", "DetourPlaces",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            exclude: ["Assets/MapAssets.NOTICE"],
            resources: [.embedInCode("diagnostics.md"), .embedInCode("Assets/map.js")]
        ),
        // The accounts of `serve --accounts`: their rules, password hashes, sessions and tokens, and
        // the database that keeps them.
        .target(
            name: "DetourAccounts",
            dependencies: [
                "DetourCore", "CSodium", "DetourBase",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["common-passwords.NOTICE"],
            resources: [.embedInCode("common-passwords.txt")],
            // ICU's spoof checker (AccountAddress.swift), from the ICU Foundation itself links.
            linkerSettings: [.linkedLibrary("_FoundationICU")]
        ),
        // What both executables share: options, diagnostics on standard error, exit codes.
        .target(
            name: "DetourCommandLine",
            dependencies: [
                "DetourCore", "DetourIO", "DetourRender", "DetourJob", "DetourFiles", "DetourBase",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .executableTarget(
            name: "detour-report",
            dependencies: [
                // Not detour-report-serve, which `detour-report serve` runs: a dependency would link
                // the server's libraries in, and slow every render's start-up.
                "DetourCore", "DetourIO", "DetourRender", "DetourJob", "DetourFiles", "DetourCommandLine",
                // The gazetteer names the stays `import` makes; its data is read at first use only.
                "DetourPlaces",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .executableTarget(
            name: "detour-report-serve",
            dependencies: [
                "DetourCore", "DetourIO", "DetourRender", "DetourJob", "DetourFiles", "DetourCommandLine",
                "DetourServer", "DetourAccounts", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .executableTarget(
            name: "detour-report-user",
            dependencies: [
                "DetourCore", "DetourAccounts", "DetourCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "detour-bench", dependencies: ["DetourCore", "DetourPlaces"]),
        .target(
            name: "DetourTestSupport",
            dependencies: [
                // A database of its own for each test of the accounts on PostgreSQL.
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "PostgresKit", package: "postgres-kit"),
            ],
            path: "Tests/DetourTestSupport"),
        .testTarget(name: "DetourCoreTests", dependencies: ["DetourCore", "DetourTestSupport"], exclude: ["Data"]),
        .testTarget(name: "DetourIOTests", dependencies: ["DetourIO", "DetourJob", "DetourTestSupport"]),
        .testTarget(
            name: "DetourRenderTests",
            dependencies: [
                "DetourRender", "DetourTemplateSchema", "DetourMustacheSyntax", "DetourIO", "DetourJob",
                "DetourCommandLine", "DetourTestSupport",
            ],
            exclude: ["Goldens"]
        ),
        .testTarget(
            name: "TemplateCompilerTests",
            dependencies: [
                "detour-template-compiler", "DetourTemplateSchema", "DetourMustacheSyntax",
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        .testTarget(name: "DetourBaseTests", dependencies: ["DetourBase"]),
        .testTarget(name: "DetourPlacesTests", dependencies: ["DetourPlaces", "DetourCore"]),
        .testTarget(
            name: "DetourJobTests",
            dependencies: [
                "DetourJob", "DetourFiles", "DetourTestSupport",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(
            name: "DetourServerTests",
            dependencies: [
                "DetourServer", "DetourAccounts", "DetourJob", "DetourCore", "DetourRender", "DetourFiles",
                "DetourTestSupport",
                "DetourBase",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(
            name: "DetourCommandLineTests",
            dependencies: [
                "DetourCommandLine", "DetourCore", "DetourAccounts", "DetourJob", "DetourTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "DetourAccountsTests",
            dependencies: [
                "DetourAccounts", "DetourCore", "DetourTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "PostgresKit", package: "postgres-kit"),
            ]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["detour-report", "detour-report-serve", "detour-report-user", "DetourTestSupport"],
            exclude: ["Goldens"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
