# Environment shared by scripts/demo.sh and scripts/test.sh. Source it; do not run it.

# Mesa's window-system code warns "XDG_RUNTIME_DIR is invalid" without one.
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
    XDG_RUNTIME_DIR="$(mktemp -d "${TMPDIR:-/tmp}/swiftgpu-xdg.XXXXXX")"
    chmod 700 "$XDG_RUNTIME_DIR"
    export XDG_RUNTIME_DIR
fi

# Pins the Vulkan loader to Mesa's lavapipe (software) driver, unless the caller already
# chose drivers with VK_DRIVER_FILES or VK_ICD_FILENAMES.
pin_lavapipe() {
    local icd
    icd="/usr/share/vulkan/icd.d/lvp_icd.$(uname -m).json"
    if [ -z "${VK_DRIVER_FILES:-}" ] && [ -z "${VK_ICD_FILENAMES:-}" ] && [ -f "$icd" ]; then
        export VK_DRIVER_FILES="$icd"
    fi
}
