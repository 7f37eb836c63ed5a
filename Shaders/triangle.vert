#version 450
// Per-vertex position (xy) and colour from a vertex buffer (attributes 0 and 1), plus a
// per-instance offset from buffer index 1 when instanced.
layout(location = 0) in vec2 position;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 vColor;

layout(set = 0, binding = 2) uniform Transform { vec4 offsetAndScale; float depth; };

void main() {
    vec2 p = position * offsetAndScale.zw + offsetAndScale.xy;
    gl_Position = vec4(p, depth, 1.0);
    vColor = color;
}
