#version 450
// Benchmark B2: a triangle whose position comes straight from the vertex buffer.
layout(location = 0) in vec2 position;

void main() {
    gl_Position = vec4(position, 0.0, 1.0);
}
