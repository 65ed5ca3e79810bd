// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for detour-report's readers and renderers. Not part of the main build:
//   Fuzz/run.sh FuzzJSON 600     (builds with -sanitize=fuzzer,address; see docs/contributing.md, "Fuzzing")
let fuzzer: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "detour-report-fuzz",
    dependencies: [.package(name: "detour-report", path: "..")],
    targets: [
        .executableTarget(
            name: "FuzzJSON", dependencies: [.product(name: "DetourIO", package: "detour-report")],
            swiftSettings: fuzzer),
        .executableTarget(
            name: "FuzzGPX", dependencies: [.product(name: "DetourIO", package: "detour-report")],
            swiftSettings: fuzzer),
        .executableTarget(
            name: "FuzzRender",
            dependencies: [
                .product(name: "DetourIO", package: "detour-report"),
                .product(name: "DetourRender", package: "detour-report"),
            ],
            swiftSettings: fuzzer),
    ],
    swiftLanguageModes: [.v6]
)
