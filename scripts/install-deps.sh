#!/usr/bin/env bash
# Installs the Debian packages SwiftGPU needs to build, test and run its examples.
# Extra package names may be given as arguments. A no-op when everything is installed.
set -euo pipefail

packages=(pkg-config libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers glslc libpng-dev "$@")
# SPIRV-Tools validates every shader module before the driver sees it (and its spirv-val
# checks the push-constant rewrite's output in the tests); glslang compiles GLSL at run time.
packages+=(spirv-tools glslang-dev)
# readelf, with which the tests check what SwiftGPU's object files ask the linker for.
packages+=(binutils)
# Window presentation tests: an Xvfb server, and the xcb and Xlib headers they make windows with;
# xcb-present for XPresentClock.
packages+=(xvfb libxcb1-dev libx11-dev libxcb-present-dev)
# Pointer, touch and pen input from XInput 2 (GPUXCB's XInputSource), and XTest to inject
# pointer motion in the input and latency tests.
packages+=(libxcb-xinput-dev libxcb-xtest0-dev)
# The system lifecycle sources talk to logind over D-Bus with sd-bus; their tests run a
# private dbus-daemon with python3-dbusmock's services.
packages+=(libsystemd-dev dbus-daemon python3-dbusmock)
# The Wayland lifecycle adapter and its tests on Weston's headless backend; EmbedInGLFW (its
# glfw3native.h needs the Xrandr headers).
packages+=(libwayland-dev wayland-protocols weston libglfw3-dev libxrandr-dev)
# Embedding in toolkits: the GTK 4 widget (GTK 4.8, and libepoxy for its GL import of
# SwiftGPU's exported memory) and the SDL2 example, whose window and Vulkan surface SDL makes.
packages+=(libgtk-4-dev libepoxy-dev libsdl2-dev)
# GPU capture: renderdoccmd runs the capture test's child under RenderDoc (and brings
# librenderdoc, the layer it injects); librenderdoc-dev has renderdoc_app.h, the in-application
# API CRenderDoc declares. qrenderdoc, the GUI, is not needed.
packages+=(renderdoccmd librenderdoc-dev)
# Dear ImGui drawn through SwiftGPU (the GPUImGui product): Debian's static libimgui 1.86 and
# the stb library its font atlas is built with.
packages+=(libimgui-dev libstb-dev)
# A SwiftGPU view in a Qt 6 Widgets window and a Qt Quick window (the GPUQt product,
# EmbedInQt and EmbedInQtQuick): Qt 6.4's development files, Qt Quick's, and its xcb
# platform plugin.
packages+=(qt6-base-dev qt6-declarative-dev qt6-qpa-plugins)

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$package")
    fi
done

if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

echo "install-deps: installing ${missing[*]}"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
