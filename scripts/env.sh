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

# Starts a private Xvfb with a screen of $1 (WIDTHxHEIGHT), exports DISPLAY for it, and
# stops it when the shell exits.
start_xvfb() {
    local first second pid number
    exec 3< <(Xvfb -displayfd 1 -screen 0 "$1x24" -nolisten tcp 2>/dev/null & echo "pid $!")
    # Two lines in either order: "pid N" from the shell, the display number from Xvfb once ready.
    for _ in 1 2; do
        read -r first second <&3
        if [ "$first" = pid ]; then pid=$second; else number=$first; fi
    done
    trap "kill $pid" EXIT
    export DISPLAY=":$number"
}
