// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "SwiftGPU",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "GPU", targets: ["GPU"]),
        .library(name: "AppLifecycle", targets: ["AppLifecycle"]),
        .library(name: "FramePacing", targets: ["FramePacing"]),
        .library(name: "PNG", targets: ["PNG"]),
        .library(name: "GPUXCB", targets: ["GPUXCB", "CXCBPresent"]),
        .library(name: "GPUWayland", targets: ["GPUWayland", "CXDGShell"]),
        .plugin(name: "SPIRVCompiler", targets: ["SPIRVCompiler"]),
        .executable(name: "ComputeAdd", targets: ["ComputeAdd"]),
        .executable(name: "BackgroundSafeRendering", targets: ["BackgroundSafeRendering"]),
        .executable(name: "HeadlessTriangle", targets: ["HeadlessTriangle"]),
        .executable(name: "PacedFrames", targets: ["PacedFrames"]),
        .executable(name: "WindowedCube", targets: ["WindowedCube"]),
        .executable(name: "EmbedInGLFW", targets: ["EmbedInGLFW"]),
        .executable(name: "PortingMetalComputeBasic", targets: ["PortingMetalComputeBasic"]),
        .executable(name: "PortingMetalUIBasics", targets: ["PortingMetalUIBasics"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CVulkan",
            pkgConfig: "vulkan",
            providers: [.apt(["libvulkan-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .target(name: "PNG", dependencies: ["CPNG"], swiftSettings: strict),
        // SPIRV-Tools' validator, which checks every module before the driver sees it.
        .systemLibrary(
            name: "CSPIRVTools",
            providers: [.apt(["spirv-tools"])]
        ),
        // glslang, which compiles GLSL at run time (makeLibrary(source:options:)).
        .systemLibrary(
            name: "CGlslang",
            providers: [.apt(["glslang-dev", "spirv-tools"])]
        ),
        // Locks, host time, service threads and thread scheduling, for the modules below
        // (package access; no product of its own).
        .target(name: "SwiftGPUSupport", swiftSettings: strict),
        .target(name: "AppLifecycle", dependencies: ["SwiftGPUSupport"], swiftSettings: strict),
        // SPIR-V reflection and the push-constant rewrite: pure Swift, no Vulkan (package
        // access; no product of its own).
        .target(name: "SwiftGPUSPIRV", swiftSettings: strict),
        .target(name: "FramePacing", dependencies: ["AppLifecycle", "SwiftGPUSupport"], swiftSettings: strict),
        .target(
            name: "GPU",
            dependencies: [
                "CVulkan", "CSPIRVTools", "CGlslang", "AppLifecycle", "FramePacing", "SwiftGPUSupport",
                "SwiftGPUSPIRV", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "CXCBPresent",
            linkerSettings: [.linkedLibrary("xcb-present"), .linkedLibrary("xcb")]
        ),
        .target(
            name: "GPUXCB",
            dependencies: ["CVulkan", "AppLifecycle", "FramePacing", "CXCBPresent", "SwiftGPUSupport"],
            swiftSettings: strict
        ),
        .target(
            name: "CXDGShell",
            linkerSettings: [.linkedLibrary("wayland-client")]
        ),
        .target(
            name: "GPUWayland",
            dependencies: ["CXDGShell", "AppLifecycle", "SwiftGPUSupport"],
            swiftSettings: strict
        ),
        .plugin(name: "SPIRVCompiler", capability: .buildTool()),
        .target(
            name: "Shaders",
            path: "Shaders",
            swiftSettings: strict,
            plugins: ["SPIRVCompiler"]
        ),
        .executableTarget(
            name: "ComputeAdd",
            dependencies: ["GPU", "Shaders"],
            path: "Examples/ComputeAdd",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "BackgroundSafeRendering",
            dependencies: ["GPU", "Shaders"],
            path: "Examples/BackgroundSafeRendering",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "HeadlessTriangle",
            dependencies: ["GPU", "Shaders", "PNG"],
            path: "Examples/HeadlessTriangle",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "PacedFrames",
            dependencies: ["GPU", "FramePacing"],
            path: "Examples/PacedFrames",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "WindowedCube",
            dependencies: ["GPU", "Shaders", "GPUXCB", "CVulkan"],
            path: "Examples/WindowedCube",
            swiftSettings: strict
        ),
        .systemLibrary(
            name: "CGLFW",
            path: "Examples/CGLFW",
            pkgConfig: "glfw3",
            providers: [.apt(["libglfw3-dev", "libxrandr-dev"])]
        ),
        .executableTarget(
            name: "EmbedInGLFW",
            dependencies: ["GPU", "Shaders", "CGLFW"],
            path: "Examples/EmbedInGLFW",
            swiftSettings: strict
        ),
        // Published Metal samples ported as literally as possible (see their files' headers).
        .executableTarget(
            name: "PortingMetalComputeBasic",
            dependencies: ["GPU"],
            path: "Examples/PortingMetalComputeBasic",
            swiftSettings: strict,
            plugins: ["SPIRVCompiler"]
        ),
        .executableTarget(
            name: "PortingMetalUIBasics",
            dependencies: ["GPU", "FramePacing", "PNG"],
            path: "Examples/PortingMetalUIBasics",
            exclude: ["LICENSE"],
            swiftSettings: strict,
            plugins: ["SPIRVCompiler"]
        ),
        .executableTarget(
            name: "SwiftGPUBench",
            dependencies: ["GPU", "Shaders"],
            path: "Benchmarks/SwiftGPUBench",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "PresentBench",
            dependencies: ["GPU", "CVulkan"],
            path: "Benchmarks/PresentBench",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "VulkanBench",
            dependencies: ["CVulkan"],
            path: "Benchmarks/VulkanBench"
        ),
        .testTarget(
            name: "AppLifecycleTests",
            dependencies: ["AppLifecycle", "SwiftGPUSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PNGTests",
            dependencies: ["PNG"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SPIRVTests",
            dependencies: ["SwiftGPUSPIRV"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SwiftGPUSupportTests",
            dependencies: ["SwiftGPUSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FramePacingTests",
            dependencies: ["FramePacing", "AppLifecycle", "SwiftGPUSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "GPUTests",
            dependencies: ["GPU", "Shaders", "PNG", "GPUXCB", "GPUWayland", "SwiftGPUSupport", "SwiftGPUSPIRV"],
            exclude: ["Golden"],
            swiftSettings: strict
        ),
    ]
)
