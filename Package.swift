// swift-tools-version:6.0
import PackageDescription

// Data flows one way through these targets:
// bytes -> DetourIO (readers) -> DetourCore (validated Trip -> Plan) -> DetourRender (report model
// -> template) -> bytes, run for every front end by DetourJob. Only DetourFiles and the executables
// touch files, streams and exit codes. docs/ARCHITECTURE.md is the map.
let package = Package(
    name: "detour-report",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "detour-report", targets: ["detour-report"]),
        .library(name: "DetourCore", targets: ["DetourCore"]),
        .library(name: "DetourIO", targets: ["DetourIO"]),
        .library(name: "DetourRender", targets: ["DetourRender"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .target(name: "DetourCore"),
        // The report model's keys, typed: read by the template check and by the template compiler.
        .target(name: "DetourTemplateSchema"),
        // Compiles the built-in templates to Swift at build time (see Plugins/CompileTemplates).
        .executableTarget(name: "detour-template-compiler", dependencies: ["DetourTemplateSchema"]),
        .plugin(
            name: "CompileTemplates",
            capability: .buildTool(),
            dependencies: ["detour-template-compiler"]
        ),
        .target(name: "DetourIO", dependencies: ["DetourCore", "CLibXML2"]),
        .target(
            name: "DetourTemplates",
            path: "Templates",
            exclude: ["README.md"],
            resources: [
                .embedInCode("report.html.mustache"),
                .embedInCode("report.md.mustache"),
                .embedInCode("index.html.mustache"),
                .embedInCode("index.md.mustache"),
            ]
        ),
        .target(
            name: "DetourRender",
            dependencies: [
                "DetourCore",
                "DetourTemplateSchema",
                "DetourTemplates",
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            plugins: ["CompileTemplates"]
        ),
        // The one pipeline every front end runs: a trip's bytes to its outputs, and the file store
        // (a protocol) its outputs are delivered through.
        .target(
            name: "DetourJob",
            dependencies: [
                "DetourCore", "DetourIO", "DetourRender", .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The real file system behind the store: only executables link it.
        .target(
            name: "DetourFiles",
            dependencies: ["DetourIO", "DetourJob", .product(name: "SystemPackage", package: "swift-system")]
        ),
        .executableTarget(
            name: "detour-report",
            dependencies: [
                "DetourCore", "DetourIO", "DetourRender", "DetourJob", "DetourFiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "detour-bench", dependencies: ["DetourCore"]),
        .target(name: "DetourTestSupport", path: "Tests/DetourTestSupport"),
        .testTarget(name: "DetourCoreTests", dependencies: ["DetourCore", "DetourTestSupport"], exclude: ["Data"]),
        .testTarget(name: "DetourIOTests", dependencies: ["DetourIO", "DetourJob", "DetourTestSupport"]),
        .testTarget(
            name: "DetourRenderTests",
            dependencies: ["DetourRender", "DetourTemplateSchema", "DetourIO", "DetourJob", "DetourTestSupport"],
            exclude: ["Goldens"]
        ),
        .testTarget(
            name: "TemplateCompilerTests",
            dependencies: ["detour-template-compiler", "DetourTemplateSchema", .product(name: "Mustache", package: "swift-mustache")]
        ),
        .testTarget(
            name: "DetourJobTests",
            dependencies: [
                "DetourJob", "DetourFiles", "DetourTestSupport",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["detour-report", "DetourTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
