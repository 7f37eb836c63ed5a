#version 450
// Benchmark B2: 16 bytes of per-draw fragment data (fragment buffer 0, binding 64).
layout(location = 0) out vec4 outColor;
layout(set = 0, binding = 64) uniform DrawColor { vec4 color; };

void main() {
    outColor = color;
}
