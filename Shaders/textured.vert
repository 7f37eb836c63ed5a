#version 450
// A quad from a vertex buffer: position (xy) and texture coordinate (uv).
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec2 vUV;

void main() {
    gl_Position = vec4(position, 0.0, 1.0);
    vUV = uv;
}
