#version 450
// One colour for a whole draw (fragment buffer 0).
layout(location = 0) out vec4 outColor;
layout(std140, binding = 64) uniform Ink { vec4 color; };

void main() {
    outColor = color;
}
