#version 450
// A square marker of side `size` pixels around `center` (window pixels, origin top-left),
// from gl_VertexIndex (two triangles), in Metal's clip space.
layout(std140, binding = 0) uniform Marker { vec2 center; vec2 viewport; float size; };

void main() {
    vec2 corners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(-1, 1), vec2(-1, 1), vec2(1, -1), vec2(1, 1));
    vec2 position = center + corners[gl_VertexIndex] * (size / 2.0);
    gl_Position = vec4(position.x / viewport.x * 2.0 - 1.0, 1.0 - position.y / viewport.y * 2.0, 0.0, 1.0);
}
