#version 450
// Benchmark B2, raw Vulkan push-constant variant: the same 16 bytes as a push constant.
layout(location = 0) out vec4 outColor;
layout(push_constant) uniform DrawColor { vec4 color; };

void main() {
    outColor = color;
}
