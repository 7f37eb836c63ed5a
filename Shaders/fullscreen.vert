#version 450
// A full-screen triangle from gl_VertexIndex, with texture coordinates (origin top-left).
// Metal's clip space: y up, so uv.y grows as clip-space y falls.
layout(location = 0) out vec2 vUV;

void main() {
    vec2 uv = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    vUV = uv;
    gl_Position = vec4(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
}
