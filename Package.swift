// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    // A file sees the members of the modules it imports, not of those another file imports:
    // one file's `import Foundation` cannot make the module call Foundation elsewhere.
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// Qt 6's header folders on Debian (x86_64 and arm64), for CQtView.
let qtIncludeFlags = ["x86_64-linux-gnu", "aarch64-linux-gnu"].flatMap { triple in
    ["", "/QtCore", "/QtGui", "/QtWidgets"].map { "-I/usr/include/\(triple)/qt6\($0)" }
}

/// And Qt Quick's, for CQtQuickView.
let qtQuickIncludeFlags = qtIncludeFlags + ["x86_64-linux-gnu", "aarch64-linux-gnu"].flatMap { triple in
    ["/QtQuick", "/QtQml"].map { "-I/usr/include/\(triple)/qt6\($0)" }
}

let package = Package(
    name: "SwiftGPU",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "GPU", targets: ["GPU"]),
        .library(name: "GPUFoundationCompat", targets: ["GPUFoundationCompat"]),
        .library(name: "AppLifecycle", targets: ["AppLifecycle"]),
        .library(name: "FramePacing", targets: ["FramePacing"]),
        .library(name: "PNG", targets: ["PNG"]),
        .library(name: "PointerInput", targets: ["PointerInput"]),
        .library(name: "SystemLifecycle", targets: ["SystemLifecycle", "CSystemBus"]),
        .library(name: "GPUXCB", targets: ["GPUXCB", "CXCBPresent", "CXCBInput"]),
        .library(name: "GPUGTK", targets: ["GPUGTK", "CGTKView"]),
        .library(name: "GPUImGui", targets: ["GPUImGui", "CImGui"]),
        .library(name: "GPUQt", targets: ["GPUQt", "CQtView", "CQtQuickView"]),
        .library(name: "GPUWayland", targets: ["GPUWayland", "CXDGShell", "CWaylandPresentation", "CWaylandInput",
                                                     "CWaylandQueue"]),
        .plugin(name: "SPIRVCompiler", targets: ["SPIRVCompiler"]),
        // The plugin's validation step, for shaders compiled outside the plugin.
        .executable(name: "spirv-stamp", targets: ["spirv-stamp"]),
        .executable(name: "ComputeAdd", targets: ["ComputeAdd"]),
        .executable(name: "CaptureCompute", targets: ["CaptureCompute"]),
        .executable(name: "BackgroundSafeRendering", targets: ["BackgroundSafeRendering"]),
        .executable(name: "HeadlessTriangle", targets: ["HeadlessTriangle"]),
        .executable(name: "PacedFrames", targets: ["PacedFrames"]),
        .executable(name: "WindowedCube", targets: ["WindowedCube"]),
        .executable(name: "EmbedInGLFW", targets: ["EmbedInGLFW"]),
        .executable(name: "ImGuiTool", targets: ["ImGuiTool"]),
        .executable(name: "EmbedInQt", targets: ["EmbedInQt"]),
        .executable(name: "EmbedInQtQuick", targets: ["EmbedInQtQuick"]),
        .executable(name: "EmbedInSDL", targets: ["EmbedInSDL"]),
        .executable(name: "EmbedInGTK", targets: ["EmbedInGTK"]),
        .executable(name: "PortingMetalComputeBasic", targets: ["PortingMetalComputeBasic"]),
        .executable(name: "PortingMetalUIBasics", targets: ["PortingMetalUIBasics"]),
        .executable(name: "Sketch", targets: ["Sketch"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `swift package generate-documentation` (scripts/docs.sh): a command plugin, so it
        // adds nothing to what `swift build` compiles or links.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
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
        // The futex system calls under SwiftGPUSupport's locks.
        .target(name: "CFutex"),
        // The host memory command pools record into (VulkanCommandMemory's callbacks).
        .target(name: "CCommandMemory"),
        // Run-time GLSL compiled by glslang in a child process with bounded time, memory and
        // stack: the app's side (starting it, its socket) and the child's (served before the
        // app's `main` when the executable is started as the compiler).
        .target(name: "CShaderCompiler"),
        // RenderDoc's in-application API, looked up in a process RenderDoc hooks (GPU capture).
        .target(name: "CRenderDoc"),
        .target(name: "SwiftGPUSupport", dependencies: ["CFutex"], swiftSettings: strict),
        .target(name: "AppLifecycle", dependencies: ["SwiftGPUSupport"], swiftSettings: strict),
        // SPIR-V reflection and the push-constant rewrite: pure Swift, no Vulkan (package
        // access; no product of its own).
        .target(name: "SwiftGPUSPIRV", swiftSettings: strict),
        // The Metal Shading Language front end: MSL to GLSL for run-time compiles.
        .target(name: "MetalShadingLanguage", swiftSettings: strict),
        // SPIRV-Tools' validator and the stamp the build leaves beside a module it passed
        // (package access; no product of its own).
        .target(name: "SPIRVValidation", dependencies: ["CSPIRVTools", "CStampKeys"], swiftSettings: strict),
        // The executable's section of build stamp keys, which the SPIRVCompiler plugin's
        // generated sources fill.
        .target(name: "CStampKeys"),
        // The SPIRVCompiler plugin's second step: validates a compiled shader, writes its stamp.
        .executableTarget(name: "spirv-stamp", dependencies: ["SPIRVValidation", "SwiftGPUSPIRV", "SwiftGPUSupport"],
                          swiftSettings: strict),
        .target(name: "FramePacing", dependencies: ["AppLifecycle", "SwiftGPUSupport"], swiftSettings: strict),
        // logind, UPower and friends over D-Bus through sd-bus (libsystemd).
        .target(
            name: "CSystemBus",
            linkerSettings: [.linkedLibrary("systemd")]
        ),
        .target(name: "SystemLifecycle", dependencies: ["CSystemBus", "AppLifecycle", "SwiftGPUSupport"], swiftSettings: strict),
        // Pointer, touch and pen samples per frame: coalesced, predicted, mapped to host time
        // (pure Swift, no Vulkan).
        .target(name: "PointerInput", dependencies: ["FramePacing", "AppLifecycle", "SwiftGPUSupport"], swiftSettings: strict),
        .target(
            name: "GPU",
            dependencies: [
                "CVulkan", "CCommandMemory", "CShaderCompiler", "CRenderDoc", "SPIRVValidation", "CGlslang", "AppLifecycle",
                "FramePacing", "SwiftGPUSupport", "MetalShadingLanguage",
                "SwiftGPUSPIRV", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // What of SwiftGPU's API names Foundation's types (Metal's `makeDefaultLibrary(bundle:)`),
        // kept out of GPU so that an app that names none ships without Foundation.
        .target(
            name: "GPUFoundationCompat",
            dependencies: ["GPU"],
            swiftSettings: strict
        ),
        .target(
            name: "CXCBPresent",
            linkerSettings: [.linkedLibrary("xcb-present"), .linkedLibrary("xcb")]
        ),
        // XInput 2 events unpacked for Swift, and XTest's fake input (for tests and examples).
        .target(
            name: "CXCBInput",
            linkerSettings: [.linkedLibrary("xcb-xinput"), .linkedLibrary("xcb-xtest"), .linkedLibrary("xcb")]
        ),
        .target(
            name: "GPUXCB",
            dependencies: ["CVulkan", "AppLifecycle", "FramePacing", "PointerInput", "CXCBPresent", "CXCBInput",
                           "SwiftGPUSupport"],
            swiftSettings: strict
        ),
        .target(
            name: "CXDGShell",
            linkerSettings: [.linkedLibrary("wayland-client")]
        ),
        // presentation-time client code generated by wayland-scanner (committed), and the
        // feedback dispatching on a queue of its own.
        // A private Wayland event queue dispatched by a thread of its own (both C targets
        // below use it).
        .target(
            name: "CWaylandQueue",
            linkerSettings: [.linkedLibrary("wayland-client")]
        ),
        .target(
            name: "CWaylandPresentation",
            dependencies: ["CWaylandQueue"],
            linkerSettings: [.linkedLibrary("wayland-client")]
        ),
        // Seat input client code (input timestamps, tablets) generated by wayland-scanner
        // (committed), and the seat's events gathered per frame on a queue of its own.
        .target(
            name: "CWaylandInput",
            dependencies: ["CWaylandQueue"],
            linkerSettings: [.linkedLibrary("wayland-client")]
        ),
        .target(
            name: "GPUWayland",
            dependencies: ["CXDGShell", "CWaylandPresentation", "CWaylandInput", "AppLifecycle", "FramePacing",
                           "PointerInput", "SwiftGPUSupport"],
            swiftSettings: strict
        ),
        // The GTK 4 view: GTK's headers are not used (see CGTKDeclarations.h), so no
        // pkg-config flags; libepoxy's headers need none.
        .target(
            name: "CGTKView",
            linkerSettings: [.linkedLibrary("gtk-4"), .linkedLibrary("gobject-2.0"), .linkedLibrary("glib-2.0"),
                             .linkedLibrary("epoxy")]
        ),
        // Dear ImGui (Debian's libimgui-dev, a static library) behind a small C interface,
        // and its renderer on SwiftGPU: a product of its own, so the core pulls neither.
        .target(
            name: "CImGui",
            linkerSettings: [.linkedLibrary("imgui"), .linkedLibrary("stb"), .linkedLibrary("stdc++")]
        ),
        .target(
            name: "GPUImGui",
            dependencies: ["CImGui", "GPU"],
            swiftSettings: strict
        ),
        // Qt 6 Widgets (Debian's qt6-base-dev): a Qt window with a SwiftGPU view inside, its
        // C++ behind a C interface; a product of its own. Qt's headers are found by path:
        // SwiftPM refuses the -D flags of Qt's pkg-config files, and unsafe flags limit the
        // product to builds where SwiftGPU is the root package or a local or branch
        // dependency (decision 0096).
        .target(
            name: "CQtView",
            cxxSettings: [.unsafeFlags(qtIncludeFlags)],
            linkerSettings: [.linkedLibrary("Qt6Widgets"), .linkedLibrary("Qt6Gui"), .linkedLibrary("Qt6Core"),
                             .linkedLibrary("stdc++")]
        ),
        // Qt 6 Quick (Debian's qt6-declarative-dev): a Qt Quick window whose scene graph
        // samples SwiftGPU's texture on SwiftGPU's device (decision 0118); headers by path too.
        .target(
            name: "CQtQuickView",
            cxxSettings: [.unsafeFlags(qtQuickIncludeFlags)],
            linkerSettings: [.linkedLibrary("Qt6Quick"), .linkedLibrary("Qt6Qml"), .linkedLibrary("Qt6Gui"),
                             .linkedLibrary("Qt6Core"), .linkedLibrary("stdc++")]
        ),
        .target(
            name: "GPUQt",
            dependencies: ["CQtView", "CQtQuickView", "GPU", "AppLifecycle", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "GPUGTK",
            dependencies: ["CGTKView", "GPU", "AppLifecycle", "FramePacing", "SwiftGPUSupport",
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "EmbedInGTK",
            dependencies: ["GPUGTK", "CGTKView", "GPU", "AppLifecycle", "FramePacing", "ExampleSupport"],
            path: "Examples/EmbedInGTK",
            swiftSettings: strict
        ),
        // The plugin's Metal Shading Language step: the front end's GLSL for each entry point, through glslc.
        .executableTarget(name: "msl-compile", dependencies: ["MetalShadingLanguage", "SwiftGPUSPIRV"], swiftSettings: strict),
        .plugin(name: "SPIRVCompiler", capability: .buildTool(), dependencies: ["spirv-stamp", "msl-compile"]),
        .target(
            name: "Shaders",
            path: "Shaders",
            exclude: ["msl_common.h"],   // read by the .metal files through msl-compile's -I
            swiftSettings: strict,
            plugins: ["SPIRVCompiler"]
        ),
        .executableTarget(
            name: "ComputeAdd",
            dependencies: ["GPU", "Shaders", "GPUFoundationCompat"],
            path: "Examples/ComputeAdd",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "CaptureCompute",
            dependencies: ["GPU", "Shaders", "GPUFoundationCompat"],
            path: "Examples/CaptureCompute",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "BackgroundSafeRendering",
            dependencies: ["GPU", "Shaders", "GPUFoundationCompat", "SystemLifecycle"],
            path: "Examples/BackgroundSafeRendering",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "HeadlessTriangle",
            dependencies: ["GPU", "Shaders", "GPUFoundationCompat", "PNG"],
            path: "Examples/HeadlessTriangle",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "PacedFrames",
            dependencies: ["GPU", "FramePacing"],
            path: "Examples/PacedFrames",
            swiftSettings: strict
        ),
        // What the windowed examples share: their own xcb window.
        .target(
            name: "ExampleSupport",
            dependencies: ["CVulkan", "SwiftGPUSupport", "GPU", "Shaders", "GPUFoundationCompat"],
            path: "Examples/ExampleSupport",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "WindowedCube",
            dependencies: ["GPU", "Shaders", "GPUFoundationCompat", "GPUXCB", "CVulkan", "ExampleSupport"],
            path: "Examples/WindowedCube",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "Sketch",
            dependencies: ["GPU", "GPUXCB", "PointerInput", "FramePacing", "SwiftGPUSupport", "CVulkan", "ExampleSupport"],
            path: "Examples/Sketch",
            swiftSettings: strict,
            plugins: ["SPIRVCompiler"]
        ),
        .systemLibrary(
            name: "CGLFW",
            path: "Examples/CGLFW",
            pkgConfig: "glfw3",
            providers: [.apt(["libglfw3-dev", "libxrandr-dev"])]
        ),
        .executableTarget(
            name: "EmbedInGLFW",
            dependencies: ["GPU", "CGLFW", "ExampleSupport"],
            path: "Examples/EmbedInGLFW",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "ImGuiTool",
            dependencies: ["GPU", "GPUImGui", "CGLFW", "AppLifecycle", "ExampleSupport"],
            path: "Examples/ImGuiTool",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "EmbedInQt",
            dependencies: ["GPU", "GPUQt", "AppLifecycle", "ExampleSupport"],
            path: "Examples/EmbedInQt",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "EmbedInQtQuick",
            dependencies: ["GPU", "GPUQt", "AppLifecycle", "ExampleSupport"],
            path: "Examples/EmbedInQtQuick",
            swiftSettings: strict
        ),
        .systemLibrary(
            name: "CSDL2",
            path: "Examples/CSDL2"
        ),
        .executableTarget(
            name: "EmbedInSDL",
            dependencies: ["GPU", "AppLifecycle", "CSDL2", "CVulkan", "ExampleSupport"],
            path: "Examples/EmbedInSDL",
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
            dependencies: ["GPU", "SwiftGPUSupport"],
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
            name: "InputLatencyBench",
            dependencies: ["GPU", "GPUXCB", "PointerInput", "FramePacing", "CXCBInput", "CVulkan", "ExampleSupport",
                           "SwiftGPUSupport"],
            path: "Benchmarks/InputLatency",
            swiftSettings: strict,
            plugins: ["SPIRVCompiler"]
        ),
        // Records the corpus's recorded traces: strokes injected into an X server with XTest and
        // received back as XInput 2 samples (scripts/record-traces.sh).
        .executableTarget(
            name: "TraceRecorder",
            dependencies: ["GPUXCB", "PointerInput", "PredictionCorpus", "CXCBInput", "CVulkan", "SwiftGPUSupport"],
            path: "Benchmarks/TraceRecorder",
            swiftSettings: strict
        ),
        // The stroke corpus prediction is judged on (models with a documented basis), its
        // replay through an InputCollector in virtual time, and Chromium's prediction metrics.
        .target(
            name: "PredictionCorpus",
            dependencies: ["PointerInput", "FramePacing", "SwiftGPUSupport"],
            path: "Benchmarks/PredictionCorpus",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "PredictionBench",
            dependencies: ["PredictionCorpus"],
            path: "Benchmarks/PredictionBench",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "VulkanBench",
            // SwiftGPU's command-pool allocator, so that the baseline records into the same one.
            dependencies: ["CVulkan", "CCommandMemory"],
            path: "Benchmarks/VulkanBench"
        ),
        .testTarget(
            name: "AppLifecycleTests",
            dependencies: ["AppLifecycle", "SwiftGPUSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PointerInputTests",
            dependencies: ["PointerInput", "FramePacing", "AppLifecycle", "SwiftGPUSupport", "PredictionCorpus"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PNGTests",
            dependencies: ["PNG"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MetalShadingLanguageTests",
            dependencies: ["MetalShadingLanguage"],
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
        // What the test targets below share: a device for one test, the validation trait, X
        // and Wayland servers, a private system bus, child processes, window fixtures (package
        // access; used only by test targets).
        .target(
            name: "GPUTestSupport",
            dependencies: ["GPU", "Shaders", "GPUFoundationCompat", "GPUWayland", "CXDGShell", "CVulkan", "AppLifecycle",
                           "FramePacing", "SwiftGPUSupport"],
            path: "Tests/GPUTestSupport",
            swiftSettings: strict
        ),
        // Its folders mirror Sources/GPU's; its own helpers are in TestSupport/.
        .testTarget(
            name: "GPUTests",
            dependencies: ["GPU", "Shaders", "GPUFoundationCompat", "PNG", "GPUXCB", "GPUWayland", "SwiftGPUSupport",
                           "SwiftGPUSPIRV", "SPIRVValidation", "SystemLifecycle", "GPUTestSupport"],
            exclude: ["Golden", "MetalCorpus"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "GPUXCBTests",
            dependencies: ["GPUXCB", "GPU", "AppLifecycle", "FramePacing", "PointerInput", "CVulkan", "CXCBInput",
                           "SwiftGPUSupport", "GPUTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "GPUWaylandTests",
            dependencies: ["GPUWayland", "GPU", "AppLifecycle", "FramePacing", "PointerInput", "CVulkan", "CXCBInput",
                           "CWaylandInput", "SwiftGPUSupport", "GPUTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SystemLifecycleTests",
            dependencies: ["SystemLifecycle", "GPU", "AppLifecycle", "SwiftGPUSupport", "GPUTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "GPUImGuiTests",
            dependencies: ["GPUImGui", "GPU", "GPUTestSupport"],
            swiftSettings: strict
        ),
        // GPUGTK's view tested through the EmbedInGTK example, run as a child process: the
        // test bundle does not link GTK.
        .testTarget(
            name: "GPUGTKTests",
            dependencies: ["CVulkan", "CXCBInput", "GPUTestSupport"],
            swiftSettings: strict
        ),
    ]
)

// Apple's simd on Linux: `import simd` and <simd/simd.h>, with Apple's names and memory
// layout (decision 0092). Only on Linux: where Apple's SDK is, its own simd module is
// the one to import, and a second module of that name would clash with it.
#if os(Linux)
package.products.append(.library(name: "simd", targets: ["simd", "CSimd"]))
package.targets += [
    // <simd/simd.h>: the C types. An app's C target that includes it depends on this
    // target (or the simd product) for the include path.
    .target(name: "CSimd"),
    // The Swift side: the C types re-exported, with simd's initializers, operators and
    // functions.
    .target(name: "simd", dependencies: ["CSimd"], swiftSettings: strict),
    // A header shared with shaders, as a sample's ShaderTypes.h: the tests import it.
    .target(name: "SimdTestTypes", dependencies: ["CSimd"], path: "Tests/SimdTestTypes"),
    .testTarget(name: "SimdTests", dependencies: ["simd", "SimdTestTypes", "GPU", "GPUTestSupport"], swiftSettings: strict),
]
// Metal's names on Linux: `import Metal` compiles a Swift file written for Apple's Metal,
// over SwiftGPU's API (decision 0100). Linux only, as simd: Apple's SDK has its own.
package.products.append(.library(name: "Metal", targets: ["Metal"]))
package.targets += [
    .target(name: "Metal", dependencies: ["GPU", .product(name: "Logging", package: "swift-log")], swiftSettings: strict),
    // Written as for Apple's Metal (`MTLDevice`, not `any MTLDevice`): Swift 6 without the
    // ExistentialAny of the library targets.
    .testTarget(name: "MetalTests", dependencies: ["Metal", "GPU", "GPUTestSupport"],
                swiftSettings: [.swiftLanguageMode(.v6)]),
]
// MetalKit's view on Linux over the Metal module; it links Foundation for CGSize, as
// Apple's MetalKit brings CoreGraphics' (decision 0101).
package.products.append(.library(name: "MetalKit", targets: ["MetalKit"]))
package.targets += [
    .target(name: "MetalKit", dependencies: ["Metal", "GPU", "FramePacing", "PNG"], swiftSettings: strict),
    .testTarget(name: "MetalKitTests", dependencies: ["MetalKit", "GPU", "GPUTestSupport", "PNG"],
                swiftSettings: [.swiftLanguageMode(.v6)]),
]
// The ported Metal sample says `import simd`, as the original does.
for target in package.targets where target.name == "PortingMetalUIBasics" {
    target.dependencies.append("simd")
}
// What of `import AppKit` and `import Cocoa` a sample's renderer uses besides AppKit's
// views (decision 0105).
package.products.append(.library(name: "AppKit", targets: ["AppKit"]))
package.products.append(.library(name: "Cocoa", targets: ["Cocoa"]))
package.targets += [
    .target(name: "AppKit", dependencies: ["SwiftGPUSupport"], swiftSettings: strict),
    .target(name: "Cocoa", dependencies: ["AppKit"], swiftSettings: strict),
    // A test file that imports Testing and AppKit makes the compiler load Testing's
    // cross-import overlay for AppKit; this empty module is it.
    .target(name: "_Testing_AppKit", path: "Tests/_Testing_AppKit", swiftSettings: strict),
    .testTarget(name: "CocoaTests", dependencies: ["Cocoa", "_Testing_AppKit"], swiftSettings: strict),
]
// Published Metal samples whose renderer and compute files are kept byte for byte
// (decision 0106): each example holds the original's files, its licence and a README
// naming the repository, commit and path; only the app shell (main.swift) is SwiftGPU's, and
// the original Shaders.metal compiles through the MSL front end. They build as the originals' Xcode projects did:
// Swift 5 language mode, existentials without `any`.
let metalPorts: [(name: String, dependencies: [Target.Dependency])] = [
    ("PortMetalPipelines", ["Metal"]),
    ("PortMetalVertexAttributes", ["Cocoa", "Metal", "MetalKit", "MetalPortSupport"]),
    ("PortMetalConstantBuffers", ["Cocoa", "Metal", "MetalKit", "MetalPortSupport"]),
    ("PortMetalMath2D", ["Cocoa", "Metal", "MetalKit", "simd", "MetalPortSupport"]),
    ("PortMetalMeshes", ["Cocoa", "AppKit", "Metal", "MetalKit", "simd", "MetalPortSupport"]),
    ("PortMetalBuffers", ["Metal"]),
]
package.targets.append(.target(name: "MetalPortSupport", dependencies: ["MetalKit", "GPU", "FramePacing"],
                               path: "Examples/MetalPortSupport", swiftSettings: strict))
for port in metalPorts {
    package.products.append(.executable(name: port.name, targets: [port.name]))
    package.targets.append(.executableTarget(
        name: port.name, dependencies: port.dependencies, path: "Examples/\(port.name)",
        exclude: ["LICENSE", "README.md"], swiftSettings: [.swiftLanguageMode(.v5)],
        // A playground page has no shaders: no plugin to compile them.
        plugins: port.name == "PortMetalBuffers" ? [] : ["SPIRVCompiler"]))
}
#endif
